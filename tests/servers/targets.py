"""Several fake providers on one loopback server, each answering from its own script.

``/<target>/...`` takes the target's next scripted behaviour (the last one repeats) and records
the request: an error status, a JSON answer, or a stream of frames that may break off after a
number of them (the server aborts the connection mid-body, as a crashed upstream does: the
client sees a transport error, not a clean end).
"""

from __future__ import annotations

import asyncio
import json
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
class Status:
    """An error answer."""

    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Json:
    """A JSON answer (200)."""

    body: Any


@dataclass
class Stream:
    """An event stream; ``break_after`` frames sent, the connection is aborted."""

    frames: list[bytes]
    break_after: int | None = None
    content_type: str = "text/event-stream"


Behaviour = Status | Json | Stream


class _Aborted(Exception):
    """Raised inside a streaming body: uvicorn drops the connection mid-body."""


@dataclass
class Targets:
    scripts: dict[str, list[Behaviour]] = field(default_factory=dict)
    requests: dict[str, list[Any]] = field(default_factory=dict)
    base_url: str = ""

    def plan(self, target: str, *behaviours: Behaviour) -> str:
        """Script ``target``; returns its base URL."""
        self.scripts[target] = list(behaviours)
        self.requests[target] = []
        return f"{self.base_url}/{target}"

    def calls(self, target: str) -> int:
        return len(self.requests.get(target, []))

    def body(self, target: str, index: int = -1) -> Any:
        return self.requests[target][index]

    async def handle(self, request: Request) -> Response:
        target = request.path_params["target"]
        raw = await request.body()
        self.requests.setdefault(target, []).append(json.loads(raw) if raw else None)
        script = self.scripts[target]
        behaviour = script.pop(0) if len(script) > 1 else script[0]
        if isinstance(behaviour, Status):
            return Response(
                json.dumps(behaviour.body).encode() if behaviour.body is not None else b"",
                status_code=behaviour.status,
                media_type="application/json",
                headers=behaviour.headers,
            )
        if isinstance(behaviour, Json):
            return Response(json.dumps(behaviour.body).encode(), media_type="application/json")

        async def body() -> AsyncIterator[bytes]:
            for i, frame in enumerate(behaviour.frames):
                if behaviour.break_after is not None and i >= behaviour.break_after:
                    await asyncio.sleep(0.05)  # let the sent frames reach the client first
                    raise _Aborted("the upstream went away")
                yield frame
            if behaviour.break_after is not None and behaviour.break_after >= len(behaviour.frames):
                await asyncio.sleep(0.05)
                raise _Aborted("the upstream went away")

        return StreamingResponse(body(), media_type=behaviour.content_type)


@contextmanager
def targets_server() -> Iterator[Targets]:
    targets = Targets()
    app: Any = Starlette(
        routes=[Route("/{target}/{path:path}", targets.handle, methods=["GET", "POST"])]
    )
    with serve(app) as url:
        targets.base_url = url
        yield targets


def sse(*frames: Any, done: bool = True) -> list[bytes]:
    """OpenAI-style frames (``data: {...}``), ``[DONE]`` last."""
    out = [b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames]
    return out + ([b"data: [DONE]\n\n"] if done else [])


def anthropic_sse(*frames: Any) -> list[bytes]:
    """Anthropic-style frames (``event: <type>`` + ``data: {...}``)."""
    return [
        f"event: {f['type']}\n".encode() + b"data: " + json.dumps(f).encode() + b"\n\n"
        for f in frames
    ]


def openai_text_stream(text: str, *, usage: dict[str, Any] | None = None) -> list[bytes]:
    """An OpenAI stream of ``text``, one delta per word, finishing with ``stop``."""
    words = text.split(" ")
    frames: list[Any] = [
        {"choices": [{"index": 0, "delta": {"content": (w if i == 0 else " " + w)}}]}
        for i, w in enumerate(words)
    ]
    final: dict[str, Any] = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    if usage is not None:
        final["usage"] = usage
    frames.append(final)
    return sse(*frames)


def openai_answer(text: str, *, usage: dict[str, Any] | None = None, model: str = "m") -> Any:
    return {
        "id": "chatcmpl-1",
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": usage or {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def openai_error(status: int, code: str, message: str = "error") -> Status:
    return Status(status, {"error": {"message": message, "type": code, "code": code}})
