"""Zed's claude-agent-acp (npm ``@zed-industries/claude-agent-acp`` 0.23.1, installed into
tests/node) driven by our editor through one prompt turn, offline: its model endpoint is a
loopback stand-in of the Anthropic Messages API (tests/servers/anthropic_standin.py), and
every line between the two is recorded by tests/acp_peers/tee.py.

Used by tests/test_acp_claude.py, and run by hand to refresh the vendored recording:

    python tests/acp_peers/claude.py tests/fixtures/acp_claude/claude-agent-acp-0.23.1.jsonl
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "generated"), str(ROOT)]

from agentproto.acp import ClientSession, PromptReply, SessionClient, spawn_agent  # noqa: E402
from agentproto.acp.accumulator import SessionSnapshot  # noqa: E402
from agentproto.acp.models import SessionNotification  # noqa: E402

from tests.servers.anthropic_standin import standin  # noqa: E402

AGENT = ROOT / "tests" / "node" / "node_modules" / "@zed-industries" / "claude-agent-acp"
PROMPT = "Say hello"


class RecordingEditor(SessionClient):
    """Keeps every session/update notification as its handler got it, besides merging it."""

    def __init__(self) -> None:
        super().__init__()
        self.notifications: list[SessionNotification] = []

    async def session_update(self, params: SessionNotification) -> None:
        self.notifications.append(params)
        await super().session_update(params)


@dataclass
class Turn:
    reply: PromptReply
    snapshot: SessionSnapshot
    notifications: list[SessionNotification]
    model_paths: list[str]


def environment(base_url: str, home: str) -> dict[str, str]:
    """Claude Code pointed at the stand-in, with nothing of this machine's own config."""
    return {
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": "sk-standin-not-a-key",
        "HOME": home,
        "CLAUDE_CONFIG_DIR": f"{home}/.claude",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
        # Claude Code refuses to skip permission prompts as root unless told it is sandboxed;
        # claude-agent-acp's session setup fails without it when the tests run as root.
        "IS_SANDBOX": "1",
    }


async def run_turn(record: Path, timeout: float = 60.0) -> Turn:
    """One session with one prompt turn; ``record`` gets every line, both ways."""
    with standin() as (url, model), tempfile.TemporaryDirectory() as home:
        command = [
            sys.executable,
            str(ROOT / "tests" / "acp_peers" / "tee.py"),
            str(record),
            "--",
            "node",
            str(AGENT / "dist" / "index.js"),
        ]
        editor = RecordingEditor()
        async with spawn_agent(command, client=editor, env=environment(url, home)) as conn:
            await asyncio.wait_for(
                conn.initialize(
                    protocol_version=1,
                    client_capabilities={"fs": {"readTextFile": True, "writeTextFile": True}},
                ),
                timeout,
            )
            session = await asyncio.wait_for(ClientSession.new(conn, editor, cwd=home), timeout)
            reply = await session.prompt(PROMPT, timeout=timeout)
            snapshot = session.snapshot
        return Turn(reply, snapshot, editor.notifications, list(model.paths))


def agent_updates(record: Path) -> list[dict[str, object]]:
    """The session/update notifications the agent wrote, as recorded."""
    found = []
    for raw in record.read_text(encoding="utf-8").splitlines():
        entry = json.loads(raw)
        if entry["from"] != "agent":
            continue
        message = json.loads(entry["line"])
        if message.get("method") == "session/update":
            found.append(message["params"])
    return found


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("claude-agent-acp.jsonl")
    target.parent.mkdir(parents=True, exist_ok=True)
    turn = asyncio.run(run_turn(target))
    print(f"recorded {target}: {len(agent_updates(target))} session/update lines")
    print(f"our editor's handler got {len(turn.notifications)}; reply {turn.reply.text!r}")
    print(f"stop reason {turn.reply.stop_reason}; usage {turn.snapshot.usage}")
