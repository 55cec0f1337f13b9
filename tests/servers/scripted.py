"""A loopback HTTP server that answers from a script and records what it was sent.

For fault injection and for provider formats the independent mock does not serve (Gemini,
Anthropic tool-use streams...): each request takes the next scripted answer (the last one
repeats), and is recorded with its method, path, query, headers and body.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from tests.servers.loopback import serve


@dataclass
class Answer:
    status: int = 200
    body: bytes = b"{}"
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    # Sent as a stream instead of ``body``: the chunks, ``delay`` seconds before each one
    # (``forever``: the chunks again and again, until the client goes away).
    chunks: list[bytes] | None = None
    delay: float = 0.0
    forever: bool = False


@dataclass
class Recorded:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes
    at: float = field(default_factory=time.monotonic)


class Script:
    def __init__(self) -> None:
        self.answers: list[Answer] = []
        self.requests: list[Recorded] = []
        self.base_url = ""

    def answer(self, *answers: Answer) -> None:
        self.answers = list(answers)

    async def handle(self, request: Request) -> Response:
        body = await request.body()
        self.requests.append(
            Recorded(
                request.method,
                request.url.path,
                request.url.query,
                {k.lower(): v for k, v in request.headers.items()},
                body,
            )
        )
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if answer.chunks is not None:
            return StreamingResponse(
                _drip(answer, request),
                status_code=answer.status,
                media_type=answer.content_type,
                headers=answer.headers,
            )
        return Response(
            answer.body,
            status_code=answer.status,
            media_type=answer.content_type,
            headers=answer.headers,
        )


async def _drip(answer: Answer, request: Request) -> AsyncIterator[bytes]:
    chunks = answer.chunks or []
    while True:
        for chunk in chunks:
            # Always give the loop a turn: a send to a client that went away returns at once
            # without suspending, so a loop with no delay would hold the server's thread (and
            # half the GIL) for the rest of the test session.
            await asyncio.sleep(answer.delay)
            yield chunk
        if not answer.forever or await request.is_disconnected():
            return


@contextmanager
def scripted_server() -> Iterator[Script]:
    script = Script()
    app: Any = Starlette(
        routes=[Route("/{path:path}", script.handle, methods=["GET", "POST"])],
    )
    with serve(app) as url:
        script.base_url = url
        yield script
