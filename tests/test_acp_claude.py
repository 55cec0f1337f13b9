"""Zed's claude-agent-acp (npm 0.23.1) against our editor: a whole prompt turn, offline (a
loopback stand-in of the Anthropic Messages API), live and replayed from the vendored
recording. Every update the agent sends reaches the editor's handler, the ``usage_update``
with ``"used": null`` included (as ``InvalidSessionUpdate``: kept as sent, with the errors, and
read leniently by the session accumulator)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from agentproto.acp import ClientSession, spawn_agent
from agentproto.acp.models import InvalidSessionUpdate

from tests.acp_peers.claude import PROMPT, RecordingEditor, Turn, agent_updates, run_turn

PEERS = Path(__file__).resolve().parent / "acp_peers"
RECORDING = (
    Path(__file__).resolve().parent / "fixtures" / "acp_claude" / "claude-agent-acp-0.23.1.jsonl"
)
REPLY = "Hello from the stand-in model."


def check_turn(turn: Turn, sent: list[dict[str, object]]) -> None:
    """Every update the agent wrote arrived, in order, as sent."""
    assert len(sent) == 8  # commands, six message chunks, usage
    got = [n.model_dump(mode="json", by_alias=True, exclude_none=True) for n in turn.notifications]
    assert len(got) == len(sent)
    for received, wrote in zip(got, sent, strict=True):
        assert received["update"]["sessionUpdate"] == wrote["update"]["sessionUpdate"]  # type: ignore[index]
    usage = turn.notifications[-1].update
    assert isinstance(usage, InvalidSessionUpdate) and usage.session_update == "usage_update"
    assert usage.raw == sent[-1]["update"]
    assert usage.raw["used"] is None and usage.raw["size"] == 200000
    assert [(e["loc"], e["type"]) for e in usage.errors] == [(("usage_update", "used"), "int_type")]
    assert turn.reply.stop_reason == "end_turn"
    assert turn.reply.text == REPLY
    assert turn.snapshot.usage is not None
    assert (turn.snapshot.usage.used, turn.snapshot.usage.size) == (None, 200000)
    assert turn.snapshot.usage.currency == "USD" and turn.snapshot.usage.cost
    assert turn.snapshot.commands  # the available_commands_update, typed
    assert turn.reply.others == (usage,)


def test_a_live_prompt_turn_delivers_every_update(node_peers: Path, tmp_path: Path) -> None:
    record = tmp_path / "record.jsonl"
    turn = asyncio.run(asyncio.wait_for(run_turn(record), 90))
    check_turn(turn, agent_updates(record))
    assert "POST /v1/messages" in turn.model_paths  # the turn went through the stand-in


def test_the_recorded_turn_replayed_delivers_every_update() -> None:
    async def main() -> Turn:
        editor = RecordingEditor()
        replay = [sys.executable, str(PEERS / "replay_agent.py"), str(RECORDING)]
        async with spawn_agent(replay, client=editor) as conn:
            await conn.initialize(protocol_version=1)
            session = await ClientSession.new(conn, editor, cwd="/tmp")
            reply = await session.prompt(PROMPT, timeout=20)
            return Turn(reply, session.snapshot, editor.notifications, [])

    turn = asyncio.run(asyncio.wait_for(main(), 30))
    check_turn(turn, agent_updates(RECORDING))
