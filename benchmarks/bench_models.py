"""Model speed: import time of the ACP models and validation / serialisation throughput.

Run from the repository root:  python benchmarks/bench_models.py [--generated DIR] [--runs 5]

- import: ``import agentproto.acp.models`` in a fresh interpreter (median of --runs);
- validate: ``model_validate_json`` of four real ACP messages (a prompt request, a
  ``session/update`` notification with a text chunk, one with a tool call, a new-session request
  with an MCP server), messages per second (median of --runs, each 20,000 messages);
- first validation: the first ``model_validate_json`` of a ``session/update`` in a fresh
  interpreter (the validators are built on first use);
- dump: ``model_dump_json`` of the parsed notifications, messages per second.

``--generated`` points at another checkout's generated/ folder, so two versions of the models
can be measured one after the other on the same machine.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MESSAGES = {
    "PromptRequest": '{"sessionId":"s-1","prompt":[{"type":"text","text":"Fix the failing test"},'
    '{"type":"resource_link","uri":"file:///repo/test_x.py","name":"test_x.py"}]}',
    "SessionNotification": '{"sessionId":"s-1","update":{"sessionUpdate":"agent_message_chunk",'
    '"content":{"type":"text","text":"Looking at the test now."}}}',
    "SessionNotification (tool call)": '{"sessionId":"s-1","update":{"sessionUpdate":"tool_call",'
    '"toolCallId":"t-1","title":"Read test_x.py","kind":"read","status":"pending",'
    '"locations":[{"path":"/repo/test_x.py","line":3}]}}',
    "NewSessionRequest": '{"cwd":"/repo","mcpServers":[{"name":"fs","command":"mcp-fs",'
    '"args":["--root","/repo"],"env":[{"name":"DEBUG","value":"1"}]}]}',
}

FRESH = """
import sys, time
sys.path.insert(0, {path!r})
started = time.perf_counter()
import agentproto.acp.models as m
imported = time.perf_counter()
m.SessionNotification.model_validate_json({line!r})
print(imported - started, time.perf_counter() - imported)
"""


def fresh(generated: Path) -> tuple[float, float]:
    code = FRESH.format(path=str(generated), line=MESSAGES["SessionNotification"])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, second = out.stdout.split()
    return float(first), float(second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--generated", type=Path, default=ROOT / "generated")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--messages", type=int, default=20_000)
    args = parser.parse_args()
    generated = args.generated.resolve()

    cold = [fresh(generated) for _ in range(args.runs)]
    sys.path.insert(0, str(generated))
    from agentproto.acp import models

    print(f"models from {generated}")
    print(f"import agentproto.acp.models   {statistics.median(c[0] for c in cold) * 1e3:8.1f} ms")
    print(f"first validation after import  {statistics.median(c[1] for c in cold) * 1e3:8.1f} ms")
    for label, line in MESSAGES.items():
        model = getattr(models, label.split()[0])
        parsed = model.model_validate_json(line)
        rates, dumps = [], []
        for _ in range(args.runs):
            started = time.perf_counter()
            for _ in range(args.messages):
                model.model_validate_json(line)
            rates.append(args.messages / (time.perf_counter() - started))
            started = time.perf_counter()
            for _ in range(args.messages):
                parsed.model_dump_json(by_alias=True, exclude_none=True)
            dumps.append(args.messages / (time.perf_counter() - started))
        print(
            f"{label:<32} validate {statistics.median(rates):9,.0f}/s"
            f"   dump {statistics.median(dumps):9,.0f}/s"
        )


if __name__ == "__main__":
    main()
