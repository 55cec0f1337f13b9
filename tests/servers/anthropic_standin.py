"""A loopback stand-in for the Anthropic Messages API, enough for Claude Code (and so Zed's
claude-agent-acp) to run a whole prompt turn offline: ``POST /v1/messages`` answers every
request with one text reply (streamed as the API's server-sent events when asked, with usage),
``POST /v1/messages/count_tokens`` with a count; anything else is 404. Requests are recorded.

Run it alone to point a Claude Code at it by hand: ``python -m tests.servers.anthropic_standin``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.servers.loopback import serve

REPLY = "Hello from the stand-in model."


@dataclass
class StandIn:
    """What the stand-in replies and what it was sent.

    ``tool``: a tool call to make first (``{"name": "Bash", "input": {...}}``): a request that
    offers that tool and carries no tool result yet is answered with that ``tool_use`` (stop
    reason ``tool_use``); the request with its result gets the text reply. ``hold``: seconds a
    request that offers tools waits before its answer (a turn to cancel meanwhile)."""

    reply: str = REPLY
    tool: dict[str, Any] | None = None
    hold: float = 0.0
    requests: list[dict[str, Any]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/v1/messages", self.messages, methods=["POST"]),
                Route("/v1/messages/count_tokens", self.count_tokens, methods=["POST"]),
                Route("/{path:path}", self.other, methods=["GET", "POST", "PUT", "HEAD"]),
            ]
        )

    async def other(self, request: Request) -> Response:
        self.paths.append(f"{request.method} {request.url.path}")
        return JSONResponse({"type": "error", "error": {"type": "not_found_error"}}, 404)

    async def count_tokens(self, request: Request) -> Response:
        self.paths.append("POST /v1/messages/count_tokens")
        return JSONResponse({"input_tokens": 12})

    async def messages(self, request: Request) -> Response:
        body = json.loads(await request.body())
        self.paths.append("POST /v1/messages")
        self.requests.append(body)
        message_id = f"msg_standin_{next(self._ids)}"
        model = str(body.get("model", "claude-standin"))
        usage = {"input_tokens": 120, "output_tokens": 9}
        offered = {t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)}
        if self.hold and offered:
            await asyncio.sleep(self.hold)
        if self.tool is not None and self.tool["name"] in offered and not _has_result(body):
            call = {
                "type": "tool_use",
                "id": f"toolu_standin_{next(self._ids)}",
                "name": self.tool["name"],
                "input": self.tool["input"],
            }
            if not body.get("stream"):
                return JSONResponse(
                    {
                        "id": message_id,
                        "type": "message",
                        "role": "assistant",
                        "model": model,
                        "content": [call],
                        "stop_reason": "tool_use",
                        "stop_sequence": None,
                        "usage": usage,
                    }
                )
            return StreamingResponse(
                self._tool_events(message_id, model, usage, call), media_type="text/event-stream"
            )
        if not body.get("stream"):
            return JSONResponse(
                {
                    "id": message_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [{"type": "text", "text": self.reply}],
                    "stop_reason": "end_turn",
                    "stop_sequence": None,
                    "usage": usage,
                }
            )
        return StreamingResponse(
            self._events(message_id, model, usage), media_type="text/event-stream"
        )

    async def _events(
        self, message_id: str, model: str, usage: dict[str, int]
    ) -> AsyncIterator[bytes]:
        def event(name: str, data: dict[str, Any]) -> bytes:
            return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()

        start = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": usage["input_tokens"], "output_tokens": 1},
        }
        yield event("message_start", {"type": "message_start", "message": start})
        yield event(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        )
        for word in self.reply.split(" "):
            piece = word if word == self.reply.split(" ")[0] else " " + word
            yield event(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": piece},
                },
            )
        yield event("content_block_stop", {"type": "content_block_stop", "index": 0})
        yield event(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": usage["output_tokens"]},
            },
        )
        yield event("message_stop", {"type": "message_stop"})

    async def _tool_events(
        self, message_id: str, model: str, usage: dict[str, int], call: dict[str, Any]
    ) -> AsyncIterator[bytes]:
        def event(name: str, data: dict[str, Any]) -> bytes:
            return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()

        start = {
            "id": message_id,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": usage["input_tokens"], "output_tokens": 1},
        }
        yield event("message_start", {"type": "message_start", "message": start})
        block = {"type": "tool_use", "id": call["id"], "name": call["name"], "input": {}}
        yield event(
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": block},
        )
        yield event(
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "input_json_delta", "partial_json": json.dumps(call["input"])},
            },
        )
        yield event("content_block_stop", {"type": "content_block_stop", "index": 0})
        yield event(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                "usage": {"output_tokens": usage["output_tokens"]},
            },
        )
        yield event("message_stop", {"type": "message_stop"})


def _has_result(body: dict[str, Any]) -> bool:
    """The request carries a tool result (the answer to our tool call)."""
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list) and any(
            isinstance(b, dict) and b.get("type") == "tool_result" for b in content
        ):
            return True
    return False


@contextmanager
def standin(
    reply: str = REPLY, *, tool: dict[str, Any] | None = None, hold: float = 0.0
) -> Iterator[tuple[str, StandIn]]:
    """Serve a stand-in on loopback; yields its base URL and the stand-in."""
    model = StandIn(reply, tool=tool, hold=hold)
    with serve(model.app()) as url:
        yield url, model


if __name__ == "__main__":
    with standin() as (url, _):
        print(url, flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            sys.exit(0)
