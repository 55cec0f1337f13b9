"""ACP waits and floods are bounded (issue 25), over real subprocess pipes: cancelling a call
never waits on a peer that stopped reading, and a flood of requests from the peer is handled a
bounded number at a time (back-pressure), every one still answered."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from agentproto import Limits
from agentproto.acp import Client
from agentproto.acp.connection import spawn_agent

PEERS = Path(__file__).resolve().parent / "acp_peers"


def test_cancelling_a_call_never_waits_on_a_full_pipe() -> None:
    """An agent that stops reading stdin: ``wait_for(call, 1)`` returned after 40 s, because
    the cancel notice waited on a write to the same full pipe."""

    async def main() -> float:
        async with spawn_agent(sys.executable, [str(PEERS / "deaf_agent.py")]) as conn:
            await conn.initialize(protocol_version=1)
            big = {"pad": "x" * (4 * 1024 * 1024)}  # far past what the pipe holds
            started = time.monotonic()
            for _ in range(3):
                try:
                    await asyncio.wait_for(conn.ext_method("_big", big), 0.5)
                except TimeoutError:
                    pass
                else:
                    raise AssertionError("the deaf agent answered")
            return time.monotonic() - started

    elapsed = asyncio.run(main())
    assert elapsed < 3.0, elapsed


class Counting(Client):
    def __init__(self) -> None:
        self.running = 0
        self.most = 0
        self.done = 0

    async def ext_method(self, method: str, params: Any) -> Any:
        self.running += 1
        self.most = max(self.most, self.running)
        await asyncio.sleep(0.001)
        self.running -= 1
        self.done += 1
        return {"n": params["n"]}


def test_a_flood_of_requests_is_handled_a_bounded_number_at_a_time(tmp_path: Path) -> None:
    """200,000 requests made 200,000 handler tasks at once (677 MiB): at most
    ``max_incoming_requests`` run, the rest wait with reading paused, all are answered."""
    result = tmp_path / "answers"
    editor = Counting()

    async def main() -> None:
        command = [sys.executable, str(PEERS / "flood_agent.py"), "3000", str(result)]
        limits = Limits(max_incoming_requests=8)
        async with spawn_agent(command, client=editor, limits=limits) as conn:
            await conn.initialize(protocol_version=1)
            deadline = time.monotonic() + 30
            while not result.exists() and time.monotonic() < deadline:
                await asyncio.sleep(0.05)

    asyncio.run(main())
    assert result.read_text() == "3000"
    assert editor.done == 3000 and editor.most == 8
