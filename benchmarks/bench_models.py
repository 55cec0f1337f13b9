"""Model speed: import time of the ACP models and validation / serialisation throughput,
against the official ACP SDK's models (``acp.schema`` of agent-client-protocol) on the same bytes.

Run from the repository root:  python benchmarks/bench_models.py [--generated DIR] [--runs 5]

- import: ``import agentproto.acp.models`` in a fresh interpreter (median of --runs), and
  ``import acp.schema``;
- validate: ``model_validate_json`` of four real ACP messages (a prompt request, a
  ``session/update`` notification with a text chunk, one with a tool call, a new-session request
  with an MCP server), messages per second (median of --runs, each 20,000 messages), ours and
  the official SDK's model of the same message, alternated, and the ratio ours / official;
- first validation: the first ``model_validate_json`` of a ``session/update`` in a fresh
  interpreter (the validators are built on first use);
- dump: ``model_dump_json`` of the parsed notifications, messages per second, and the ratio.

``--generated`` points at another checkout's generated/ folder, so two versions of the models
can be measured one after the other on the same machine. ``--smoke``: one tiny round (the
suite runs it, so the benchmark cannot rot; its figures mean nothing).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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
import {module} as m
imported = time.perf_counter()
m.SessionNotification.model_validate_json({line!r})
print(imported - started, time.perf_counter() - imported)
"""


def fresh(generated: Path, module: str = "agentproto.acp.models") -> tuple[float, float]:
    code = FRESH.format(path=str(generated), module=module, line=MESSAGES["SessionNotification"])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, second = out.stdout.split()
    return float(first), float(second)


def rates(model: Any, line: str, messages: int) -> tuple[float, float]:
    """(validations per second, dumps per second) of ``line`` through ``model``."""
    parsed = model.model_validate_json(line)
    started = time.perf_counter()
    for _ in range(messages):
        model.model_validate_json(line)
    validate = messages / (time.perf_counter() - started)
    started = time.perf_counter()
    for _ in range(messages):
        parsed.model_dump_json(by_alias=True, exclude_none=True)
    return validate, messages / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generated", type=Path, default=ROOT / "generated")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--smoke", action="store_true", help="one tiny round")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.messages = 1, 50
    generated = args.generated.resolve()

    cold, official_cold = [], []
    for _ in range(args.runs):  # alternated
        cold.append(fresh(generated))
        official_cold.append(fresh(generated, "acp.schema"))
    sys.path.insert(0, str(generated))
    import acp.schema
    from agentproto.acp import models

    med = statistics.median
    print(f"models from {generated}, against the official SDK's (acp.schema)")
    ours_import, official_import = med(c[0] for c in cold), med(c[0] for c in official_cold)
    print(
        f"import agentproto.acp.models   {ours_import * 1e3:8.1f} ms   "
        f"acp.schema {official_import * 1e3:8.1f} ms   ratio {ours_import / official_import:.2f}x"
    )
    ours_first, official_first = med(c[1] for c in cold), med(c[1] for c in official_cold)
    print(
        f"first validation after import  {ours_first * 1e3:8.1f} ms   "
        f"acp.schema {official_first * 1e3:8.1f} ms   ratio {ours_first / official_first:.2f}x"
    )
    print(f"messages per second (median of {args.runs} x {args.messages}; ratio ours / official):")
    for label, line in MESSAGES.items():
        name = label.split()[0]
        ours, official = [], []
        for _ in range(args.runs):  # alternated, so drift in machine load hits both alike
            ours.append(rates(getattr(models, name), line, args.messages))
            official.append(rates(getattr(acp.schema, name), line, args.messages))
        validate, dump = med(r[0] for r in ours), med(r[1] for r in ours)
        their_validate, their_dump = med(r[0] for r in official), med(r[1] for r in official)
        print(
            f"{label:<32} validate {validate:9,.0f}/s ({validate / their_validate:.2f}x)"
            f"   dump {dump:9,.0f}/s ({dump / their_dump:.2f}x)"
        )


if __name__ == "__main__":
    main()
