"""The JSON-RPC connection's batched writes over a byte stream (``_runtime/jsonrpc.py``).

Lines for a pipe or socket wait until the end of the read whose handlers wrote them, or of the
loop's turn, and go out in one write (one system call, one wake-up of the peer). What must not
change with that: the order of the lines, a request reaching the peer before its caller waits,
lines written before a close reaching the stream, a failed write closing the connection (the
calls in flight fail), and writers that take one message per write still getting one.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from agentproto._runtime import jsonrpc


class Recording(asyncio.StreamWriter):
    """A stream writer over a real pipe that records each write it is given."""

    writes: list[bytes]
    fail: BaseException | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self.fail is not None:
            raise self.fail
        self.writes.append(bytes(data))
        super().write(data)


class Handler:
    """``turn``: three notifications, then the answer; ``wait``: an answer after a turn."""

    def __init__(self) -> None:
        self.connection: jsonrpc.Connection | None = None

    async def request(self, method: str, params: Any) -> Any:
        assert self.connection is not None
        if method == "turn":
            for i in range(3):
                await self.connection.notify("note", {"n": i})
            return {"done": True}
        if method == "wait":
            await asyncio.sleep(0)
            return {"waited": True}
        raise jsonrpc.MethodNotFound(method)

    async def notify(self, method: str, params: Any) -> None:
        return None


@asynccontextmanager
async def connected() -> AsyncIterator[tuple[jsonrpc.Connection, Recording, int]]:
    """A connection whose output is a real pipe (the read end's descriptor is yielded)."""
    loop = asyncio.get_running_loop()
    read_fd, write_fd = os.pipe()
    os.set_blocking(read_fd, False)
    transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(write_fd, "wb")
    )
    writer = Recording(transport, protocol, None, loop)
    writer.writes = []
    handler = Handler()
    connection = jsonrpc.Connection(None, writer, handler)
    handler.connection = connection
    connection.start()
    try:
        yield connection, writer, read_fd
    finally:
        await connection.close()
        os.close(read_fd)


def received(fd: int) -> list[Any]:
    """The messages the pipe holds so far."""
    data = b""
    while True:
        try:
            piece = os.read(fd, 1 << 20)
        except BlockingIOError:
            break
        if not piece:
            break
        data += piece
    return [json.loads(line) for line in data.splitlines()]


def line(message: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n"


def test_what_the_handlers_of_one_read_write_goes_out_in_one_write_in_order() -> None:
    async def main() -> None:
        async with connected() as (connection, writer, fd):
            connection.feed(line({"id": 1, "method": "turn"}) + line({"id": 2, "method": "turn"}))
            assert len(writer.writes) == 1  # at the end of the read, not at the loop's turn
            messages = received(fd)
            assert [m.get("params", m.get("result")) for m in messages] == [
                {"n": 0},
                {"n": 1},
                {"n": 2},
                {"done": True},
                {"n": 0},
                {"n": 1},
                {"n": 2},
                {"done": True},
            ]
            assert [m.get("id") for m in messages if "result" in m] == [1, 2]

    asyncio.run(main())


def test_lines_written_in_one_turn_go_out_together_at_its_end() -> None:
    async def main() -> None:
        async with connected() as (connection, writer, fd):
            for i in range(3):
                await connection.notify("note", {"n": i})
            assert writer.writes == []  # not yet: the turn is not over
            await asyncio.sleep(0)
            assert len(writer.writes) == 1
            assert [m["params"]["n"] for m in received(fd)] == [0, 1, 2]
            # an answer written by a handler that waited (a task) goes out at its turn's end
            connection.feed(line({"id": 7, "method": "wait"}))
            for _ in range(5):
                await asyncio.sleep(0)
            assert received(fd) == [{"jsonrpc": "2.0", "id": 7, "result": {"waited": True}}]

    asyncio.run(main())


def test_a_request_goes_out_before_its_caller_waits_after_the_lines_before_it() -> None:
    async def main() -> None:
        async with connected() as (connection, _writer, fd):
            await connection.notify("note", {"n": 0})
            call = asyncio.ensure_future(connection.request("ask", {"q": 1}))
            await asyncio.sleep(0)  # the call runs up to its wait for the answer
            sent = received(fd)
            assert [m["method"] for m in sent] == ["note", "ask"]
            call.cancel()  # the cancel notice comes after its request
            with pytest.raises(asyncio.CancelledError):
                await call
            (notice,) = received(fd)
            assert notice["method"] == jsonrpc.CANCEL_METHOD
            assert notice["params"] == {"requestId": sent[1]["id"]}

    asyncio.run(main())


def test_lines_written_before_a_close_reach_the_stream() -> None:
    async def main() -> None:
        async with connected() as (connection, _writer, fd):
            await connection.notify("note", {"n": 0})
            connection.close_now()  # e.g. from a handler, in the same turn
            assert [m["params"] for m in received(fd)] == [{"n": 0}]
            with pytest.raises(jsonrpc.ConnectionClosed):
                await connection.notify("note", {"n": 1})
            await asyncio.sleep(0)
            assert received(fd) == []  # nothing after the close

    asyncio.run(main())


def test_a_write_that_fails_at_the_end_of_the_turn_closes_the_connection() -> None:
    async def main() -> None:
        async with connected() as (connection, writer, _fd):
            writer.fail = BrokenPipeError("the peer is gone")
            await connection.notify("note", {"n": 0})  # waits for the turn's end
            call = asyncio.ensure_future(connection.request("ask", {}))
            with pytest.raises(jsonrpc.ConnectionClosed, match="the peer is gone"):
                await call
            assert connection.closed
            with pytest.raises(jsonrpc.ConnectionClosed):
                await connection.notify("note", {"n": 1})

    asyncio.run(main())


def test_past_the_high_water_mark_a_line_goes_out_at_once() -> None:
    async def main() -> None:
        async with connected() as (connection, writer, fd):
            big = "x" * (jsonrpc._HIGH_WATER + 1)
            done = asyncio.ensure_future(connection.notify("big", {"text": big}))
            await asyncio.sleep(0)
            assert len(writer.writes) == 1  # not held for the turn's end
            data = b""
            while not done.done() or not data.endswith(b"\n"):  # the pipe drains as we read
                try:
                    data += os.read(fd, 1 << 20)
                except BlockingIOError:
                    await asyncio.sleep(0.001)
            await done
            assert json.loads(data)["params"]["text"] == big

    asyncio.run(main())


def test_a_writer_of_messages_gets_one_message_per_write() -> None:
    class Messages:
        def __init__(self) -> None:
            self.writes: list[bytes] = []

        def write(self, data: bytes) -> None:
            self.writes.append(data)

        async def drain(self) -> None:
            return None

        def close(self) -> None:
            return None

    async def main() -> list[bytes]:
        handler = Handler()
        sink = Messages()
        connection = jsonrpc.Connection(None, sink, handler)
        handler.connection = connection
        connection.start()
        connection.feed(line({"id": 1, "method": "turn"}))
        await connection.close()
        return sink.writes

    writes = asyncio.run(main())
    assert len(writes) == 4
    assert all(w.count(b"\n") == 1 for w in writes)
