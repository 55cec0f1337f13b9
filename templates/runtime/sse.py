"""TEMPORARY stand-in (replaced by the sse branch)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ServerSentEvent:
    event: str
    data: str
    id: str | None
    retry: int | None

    def json(self) -> Any:
        return json.loads(self.data)


class SSEDecoder:
    def __init__(self) -> None:
        self._buf = ""
        self._data: list[str] = []
        self._event = ""

    def feed(self, chunk: bytes) -> list[ServerSentEvent]:
        self._buf += chunk.decode()
        self._buf = self._buf.replace("\r\n", "\n")
        out = []
        while "\n" in self._buf:
            line, self._buf = self._buf.split("\n", 1)
            if not line:
                if self._data:
                    out.append(
                        ServerSentEvent(self._event or "message", "\n".join(self._data), None, None)
                    )
                self._data, self._event = [], ""
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                self._data.append(value)
            elif name == "event":
                self._event = value
        return out

    def close(self) -> list[ServerSentEvent]:
        return []


def iter_sse(chunks: Iterable[bytes]) -> Iterator[ServerSentEvent]:
    d = SSEDecoder()
    for c in chunks:
        yield from d.feed(c)


async def aiter_sse(chunks: AsyncIterable[bytes]) -> AsyncIterator[ServerSentEvent]:
    d = SSEDecoder()
    async for c in chunks:
        for e in d.feed(c):
            yield e
