"""Interop run: the upstream TypeScript AAP client (0.8.0) drives ``ACPAgent``, our AAP server
offering a real ACP agent (Zed's claude-agent-acp from npm, installed by the test suite in
tests/node), offline: Claude Code's model is the loopback Anthropic stand-in, which first calls
its Bash tool (``mkdir bridged-by-ts``). Build the TypeScript SDK first (interop/README.md)::

    python interop/aap_ts/run_bridge.py /work/ext/aap-ts

Runs ``drive_bridge.cjs``: a streamed turn whose permission request reaches the TypeScript
client as the ``acp_permission`` client tool and is answered through its ``Session`` helper,
Bash running once allowed, a message-mode turn; then a turn the TypeScript client abandons
mid-stream (a node process exiting after ``turn_start``): checked here, the bridge sent
``session/cancel`` (the prompt ended while the model still held its answer) and the session
takes the next turn; last, the session deleted with the TypeScript client and the agent's
process gone. Prints each step; exits 1 on a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "generated"), str(ROOT)]

from agentproto.aap import AAPServer, ApiKeys  # noqa: E402
from agentproto.aap.acp_agent import ACPAgent  # noqa: E402

from tests.acp_peers.claude import AGENT, environment  # noqa: E402
from tests.servers.anthropic_standin import standin  # noqa: E402
from tests.servers.loopback import serve  # noqa: E402

KEY = "sk-interop-bridge-0123456789"
BASH = {"name": "Bash", "input": {"command": "mkdir bridged-by-ts", "description": "Make a dir"}}


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def report(step: str, ok: bool, detail: object = "") -> bool:
    print(json.dumps({"step": step, "ok": ok, "detail": str(detail)}), flush=True)
    return ok


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    sdk = Path(sys.argv[1]).resolve()
    if not (sdk / "node_modules" / "@agentapplicationprotocol" / "client").exists():
        print(f"{sdk}: no built TypeScript SDK there (see interop/README.md)", file=sys.stderr)
        return 2
    if not (AGENT / "dist" / "index.js").exists():
        print("claude-agent-acp is not installed: npm ci in tests/node", file=sys.stderr)
        return 2
    script = str(Path(__file__).with_name("drive_bridge.cjs"))
    ok = True
    with (
        standin(tool=BASH) as (url, model),
        tempfile.TemporaryDirectory() as home,
        tempfile.TemporaryDirectory() as folder,
    ):
        agent = ACPAgent(
            "claude",
            ["node", str(AGENT / "dist" / "index.js")],
            env=environment(url, home),
            cwd=home,
        )
        server = AAPServer([agent], store=f"sqlite:///{folder}/aap.db", auth=ApiKeys({KEY: "ts"}))
        with serve(server.app, lifespan="on") as base:
            done = subprocess.run(
                ["node", script, str(sdk), base, KEY], capture_output=True, text=True, timeout=300
            )
            print(done.stdout, end="", flush=True)
            ok = done.returncode == 0
            lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
            sid = next((s.get("detail") for s in lines if s["step"] == "session"), None)
            if sid is None:
                print(done.stderr, file=sys.stderr)
                return 1
            ok &= report("Bash ran once allowed", (Path(home) / "bridged-by-ts").is_dir())
            pid = agent.processes().get(sid)
            # cancel: the model holds its next answer; the TypeScript client leaves mid-turn
            model.hold, model.tool = 60.0, None
            cancel = subprocess.run(
                ["node", script, str(sdk), base, KEY, "cancel", sid],
                capture_output=True,
                text=True,
                timeout=120,
            )
            print(cancel.stdout, end="", flush=True)
            ok &= cancel.returncode == 0
            deadline = time.monotonic() + 30
            process = agent._processes.get(sid)
            while process is not None and process.prompt is not None:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            ok &= report(
                "cancel reached the agent (its prompt ended, the model still holding)",
                process is not None and process.prompt is None,
            )
            model.hold = 0.0
            again = subprocess.run(
                ["node", "-e", _NEXT_TURN, str(sdk), base, KEY, sid],
                capture_output=True,
                text=True,
                timeout=120,
            )
            print(again.stdout, end="", flush=True)
            ok &= again.returncode == 0
            ok &= report("the same agent process served it", agent.processes().get(sid) == pid)
            gone = subprocess.run(
                ["node", "-e", _DELETE, str(sdk), base, KEY, sid],
                capture_output=True,
                text=True,
                timeout=60,
            )
            print(gone.stdout, end="", flush=True)
            ok &= gone.returncode == 0
            deadline = time.monotonic() + 15
            while pid is not None and alive(pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            ok &= report(
                "the agent process is gone after the session is deleted",
                pid is not None and not alive(pid),
                pid,
            )
    return 0 if ok else 1


_PRELUDE = """
const path = require("node:path");
const { createRequire } = require("node:module");
const [sdkDir, baseUrl, apiKey, sid] = process.argv.slice(1);
const r = createRequire(path.join(path.resolve(sdkDir), "package.json"));
const { Client } = r("@agentapplicationprotocol/client");
const client = new Client({ baseUrl, apiKey });
"""
_NEXT_TURN = (
    _PRELUDE
    + """
(async () => {
  const res = await client.postSessionTurn(sid, { messages: [{ role: "user", content: "again" }] });
  const ok = res && res.stopReason === "end_turn";
  const step = "the next turn after the cancel (stream none)";
  console.log(JSON.stringify({ step, ok, detail: res && res.stopReason }));
  process.exit(ok ? 0 : 1);
})();
"""
)
_DELETE = (
    _PRELUDE
    + """
(async () => {
  await client.deleteSession(sid);
  const ok = (await client.getSession(sid)) === undefined;
  console.log(JSON.stringify({ step: "DELETE /sessions/:id (then 404)", ok, detail: sid }));
  process.exit(ok ? 0 : 1);
})();
"""
)


if __name__ == "__main__":
    sys.exit(main())
