"""A raw ACP agent that breaks exactly six rules of the conformance checker, each once
(tests/test_acp_check.py): it answers ``initialize`` with protocol version 2, calls
``fs/read_text_file`` although the client did not advertise it, sends a ``session/update``
naming another session, ends a cancelled turn with ``end_turn``, answers unknown methods -32603,
and ignores a line that is not JSON. Everything else it does right."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

SESSION = "broken-1"


class Broken:
    def __init__(self, writer: asyncio.StreamWriter | Any) -> None:
        self.out = writer
        self.cancelled = asyncio.Event()
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.ids = 1000

    def send(self, message: dict[str, Any]) -> None:
        sys.stdout.buffer.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        sys.stdout.buffer.flush()

    def update(self, session: str, text: str) -> None:
        chunk = {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}
        self.send({"method": "session/update", "params": {"sessionId": session, "update": chunk}})

    async def ask(self, method: str, params: Any) -> Any:
        self.ids += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[self.ids] = future
        self.send({"id": self.ids, "method": method, "params": params})
        return await future

    async def prompt(self, msg_id: Any, params: dict[str, Any]) -> None:
        session = params.get("sessionId")
        if session != SESSION:
            self.send({"id": msg_id, "error": {"code": -32602, "message": "unknown session"}})
            return
        text = " ".join(b.get("text", "") for b in params.get("prompt", []))
        if text.startswith("slow"):
            self.cancelled.clear()
            self.update(SESSION, "working")
            await self.cancelled.wait()
            # broken: not "cancelled"
            self.send({"id": msg_id, "result": {"stopReason": "end_turn"}})
            return
        if text.startswith("hello"):
            await self.ask("fs/read_text_file", {"sessionId": SESSION, "path": "/etc/hostname"})
            self.update("someone-else", "hi")  # broken: another session
        self.update(SESSION, "hello")
        self.send({"id": msg_id, "result": {"stopReason": "end_turn"}})

    def handle(self, line: bytes) -> None:
        try:
            message = json.loads(line)
        except ValueError:
            return  # broken: no -32700
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self.send({"id": None, "error": {"code": -32600, "message": "invalid request"}})
            return
        method, msg_id, params = message.get("method"), message.get("id"), message.get("params")
        if method is None:
            future = self.pending.pop(msg_id, None)
            if future is not None:
                future.set_result(message)
            return
        if msg_id is None:
            if method == "session/cancel":
                self.cancelled.set()
            return
        if not isinstance(params, dict):
            params = {}
        if method == "initialize":
            self.send({"id": msg_id, "result": {"protocolVersion": 2}})  # broken: not 1
        elif method == "session/new":
            if "cwd" not in params:
                self.send({"id": msg_id, "error": {"code": -32602, "message": "cwd"}})
            else:
                self.send({"id": msg_id, "result": {"sessionId": SESSION}})
        elif method == "session/prompt":
            task = asyncio.ensure_future(self.prompt(msg_id, params))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        elif method.startswith("_"):
            self.send({"id": msg_id, "error": {"code": -32601, "message": "no such extension"}})
        else:  # broken: -32603 rather than -32601
            self.send({"id": msg_id, "error": {"code": -32603, "message": "no"}})


tasks: set[asyncio.Task[None]] = set()


async def main() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    agent = Broken(None)
    while line := await reader.readline():
        if line.strip():
            agent.handle(line)


if __name__ == "__main__":
    asyncio.run(main())
