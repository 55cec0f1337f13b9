"""Resume after a drop (agentproto.acp.remote, remote_server): a real TCP proxy between our editor
and our agent side swallows what the agent sends for a while, then cuts every socket mid-turn;
the editor reconnects through it and the turn goes on. Each session/update arrives exactly once,
in order, or (when what was swallowed is no longer kept) the call fails with ResumeError saying
what was lost."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agentproto.acp import Client, ResumeError
from agentproto.acp.models import (
    ContentBlockText,
    SessionNotification,
    SessionUpdateAgentMessageChunk,
)
from agentproto.acp.remote import connect_remote_agent
from agentproto.acp.remote_server import AgentApp

from tests.servers.loopback import port, serve

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

from acp_echo_agent import EchoAgent  # noqa: E402

WORDS = [f"w{i}" for i in range(60)]


class Proxy:
    """A TCP proxy to ``port``: ``blackhole`` swallows what the server sends; ``cut`` aborts
    every socket (both sides) as a network failure would."""

    def __init__(self, port: int) -> None:
        self.upstream = port
        self.blackhole = False
        self.pairs: list[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = []
        self.swallowed = 0

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        self.pairs.append((writer, up_writer))

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, down: bool) -> None:
            try:
                while data := await src.read(65536):
                    if down and self.blackhole:
                        self.swallowed += len(data)
                        continue
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pump(reader, up_writer, False), pump(up_reader, writer, True))

    def cut(self) -> None:
        for a, b in self.pairs:
            for w in (a, b):
                transport = w.transport
                transport.abort()
        self.pairs.clear()

    async def close(self) -> None:
        self.cut()
        self.server.close()
        await self.server.wait_closed()


class Collect(Client):
    def __init__(self) -> None:
        self.text: list[str] = []

    async def session_update(self, params: SessionNotification) -> None:
        match params.update:
            case SessionUpdateAgentMessageChunk(content=ContentBlockText(text=text)):
                self.text.append(text)
            case _:
                pass


@pytest.fixture(scope="module")
def kept() -> Iterator[int]:
    with serve(AgentApp(lambda: EchoAgent(delay=0.01)), loop="auto") as base:
        yield port(base)


@pytest.fixture(scope="module")
def forgetful() -> Iterator[int]:
    with serve(AgentApp(lambda: EchoAgent(delay=0.01), replay_bytes=1), loop="auto") as base:
        yield port(base)


async def drop_mid_turn(port: int, scheme: str) -> tuple[Collect, Any]:
    """A turn of 60 updates; after the 10th, what the agent sends is swallowed (the agent side
    believes it sent: about 10 updates), then every socket is cut."""
    proxy = Proxy(port)
    local = await proxy.start()
    editor = Collect()
    try:
        url = f"{scheme}://127.0.0.1:{local}/acp"
        async with connect_remote_agent(url, client=editor, timeout=10) as agent:
            await agent.initialize(protocol_version=1)
            session = await agent.new_session(cwd="/", mcp_servers=[])
            turn = asyncio.ensure_future(
                agent.prompt(
                    session_id=session.session_id,
                    prompt=[ContentBlockText(type="text", text=" ".join(WORDS))],
                )
            )
            while len(editor.text) < 10:
                await asyncio.sleep(0.005)
            proxy.blackhole = True
            deadline = time.monotonic() + 10
            while proxy.swallowed == 0:  # at least one update swallowed, then a few more
                assert time.monotonic() < deadline, "nothing came from the agent"
                await asyncio.sleep(0.005)
            await asyncio.sleep(0.1)
            proxy.cut()
            proxy.blackhole = False
            assert proxy.swallowed > 0
            try:
                return editor, await asyncio.wait_for(turn, 20)
            except ResumeError as exc:
                return editor, exc
    finally:
        await proxy.close()


@pytest.mark.parametrize("scheme", ["ws", "http"])
def test_updates_arrive_exactly_once_across_a_drop(kept: int, scheme: str) -> None:
    editor, done = asyncio.run(drop_mid_turn(kept, scheme))
    assert not isinstance(done, Exception), done
    assert done.stop_reason == "end_turn"
    assert "".join(editor.text) == " ".join(WORDS)  # none lost, none repeated, in order
    assert len(editor.text) == len(WORDS)


@pytest.mark.parametrize("scheme", ["ws", "http"])
def test_what_cannot_be_replayed_is_a_typed_error(forgetful: int, scheme: str) -> None:
    editor, done = asyncio.run(drop_mid_turn(forgetful, scheme))
    assert isinstance(done, ResumeError), done
    assert "no longer kept" in str(done) and done.lost
    got = "".join(editor.text).split()
    assert got == WORDS[: len(got)]  # what arrived before the loss: once each, in order
