"""A small reference AAP server (Starlette) for the client tests.

It speaks the wire format of the reference TypeScript server (see schemas/aap/SOURCE.md):
201 on create, 204 on delete, 404 JSON ``{"error"}``, 401 text/plain, SSE frames of
``event:`` + ``data:`` with the event name left out of the JSON. Request bodies are checked
against the AAP JSON Schema (not against our models), so a client bug shows as a 400.

The agent is scripted. A user message:
- ``"call tools"``: calls every client tool of the session (``add`` gets a=2, b=3), the server
  tool ``clock`` (run inline when trusted) and ``delete_files`` (needs permission), then stops
  with ``tool_use``;
- anything else: answers ``echo: <text>``.
Tool results and permissions in a turn are answered with a summary text. The header
``X-Misbehave`` makes the stream misbehave: ``no_turn_stop``, ``dup_turn_stop``, ``empty``,
``stall``, ``json`` (answers JSON to a stream request), ``unknown_event``, ``cut_after_N``
(the connection drops after N frames); ``AAPServer.misbehave`` applies to requests without the
header. Secret options are answered as ``"***"``. A turn's ``agent`` (tools replace, options
merge by key) and ``tools`` are kept for the rest of the session, as the protocol says.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jsonschema
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "schemas" / "aap" / "aap.schema.json").read_text()
)
API_KEY = "sk-test-secret-key-0123456789"

META: dict[str, Any] = {
    "version": 3,
    "agents": [
        {
            "name": "echo",
            "title": "Echo",
            "version": "1.0.0",
            "description": "Echoes, and calls tools when asked.",
            "tools": [
                {
                    "name": "clock",
                    "description": "Current time",
                    "parameters": {"type": "object", "properties": {}},
                },
                {
                    "name": "delete_files",
                    "description": "Delete files",
                    "parameters": {
                        "type": "object",
                        "properties": {"path": {"type": "string"}},
                        "required": ["path"],
                    },
                },
            ],
            "options": [
                {
                    "type": "select",
                    "name": "model",
                    "options": ["small", "large"],
                    "default": "small",
                },
                {"type": "secret", "name": "upstream_key", "default": ""},
            ],
            "capabilities": {
                "history": {"compacted": {}, "full": {}},
                "stream": {"delta": {}, "message": {}, "none": {}},
                "application": {"tools": {}},
                "image": {"http": {}},
            },
        },
        {"name": "plain", "version": "0.1.0"},
    ],
}


def _redacted(info: dict[str, Any]) -> dict[str, Any]:
    """A session as answered: secret options shown as ``***`` (the docs: never plaintext)."""
    agent = next((a for a in META["agents"] if a["name"] == info["agent"]["name"]), {})
    secret = {o["name"] for o in agent.get("options", []) if o["type"] == "secret"}
    options = info["agent"].get("options")
    if not options or not secret:
        return info
    shown = {k: "***" if k in secret else v for k, v in options.items()}
    return {**info, "agent": {**info["agent"], "options": shown}}


def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{name}"})


class AAPServer:
    """State of one server: sessions in creation order, and what was received."""

    def __init__(self, page_size: int = 2) -> None:
        self.page_size = page_size
        self.sessions: dict[str, dict[str, Any]] = {}
        self.history: dict[str, list[dict[str, Any]]] = {}
        self.turn_requests: list[dict[str, Any]] = []
        self.seen_auth: list[str | None] = []
        self.misbehave = ""
        self._next = 0
        self._create = _validator("PostSessionsRequest")
        self._turn = _validator("PostSessionTurnRequest")
        self.app = Starlette(
            routes=[
                Route("/v1/meta", self.meta, methods=["GET"]),
                Route("/v1/sessions", self.list_sessions, methods=["GET"]),
                Route("/v1/sessions", self.create_session, methods=["POST"]),
                Route("/v1/sessions/{sid}", self.get_session, methods=["GET"]),
                Route("/v1/sessions/{sid}", self.delete_session, methods=["DELETE"]),
                Route("/v1/sessions/{sid}/history", self.get_history, methods=["GET"]),
                Route("/v1/sessions/{sid}/turns", self.create_turn, methods=["POST"]),
            ]
        )

    # -- helpers -------------------------------------------------------------------------

    def _authorised(self, request: Request) -> bool:
        header = request.headers.get("authorization")
        self.seen_auth.append(header)
        return header == f"Bearer {API_KEY}"

    @staticmethod
    def _unauthorised() -> Response:
        return PlainTextResponse("Unauthorized", status_code=401)

    @staticmethod
    def _error(status: int, message: str) -> Response:
        return JSONResponse({"error": message}, status_code=status)

    async def _body(self, request: Request, validator: Any) -> dict[str, Any] | Response:
        try:
            body = await request.json()
        except ValueError:
            return self._error(400, "body is not JSON")
        errors = sorted(validator.iter_errors(body), key=lambda e: list(e.path))
        if errors:
            return self._error(400, f"invalid body: {errors[0].message}")
        assert isinstance(body, dict)
        return body

    # -- endpoints -----------------------------------------------------------------------

    async def meta(self, request: Request) -> Response:
        return JSONResponse(META)  # auth optional on /meta

    async def list_sessions(self, request: Request) -> Response:
        if not self._authorised(request):
            return self._unauthorised()
        ids = list(self.sessions)
        after = request.query_params.get("after")
        start = ids.index(after) + 1 if after in self.sessions else 0
        page = ids[start : start + self.page_size]
        body: dict[str, Any] = {"sessions": [_redacted(self.sessions[i]) for i in page]}
        if start + self.page_size < len(ids):
            body["next"] = page[-1]
        return JSONResponse(body)

    async def create_session(self, request: Request) -> Response:
        if not self._authorised(request):
            return self._unauthorised()
        body = await self._body(request, self._create)
        if isinstance(body, Response):
            return body
        if body["agent"]["name"] not in {a["name"] for a in META["agents"]}:
            return self._error(400, "unknown agent")
        self._next += 1
        sid = f"sess_{self._next:04d}"
        info = {"sessionId": sid, "agent": body["agent"]}
        if "tools" in body:
            info["tools"] = body["tools"]
        self.sessions[sid] = info
        self.history[sid] = list(body.get("messages", []))
        return JSONResponse({"sessionId": sid}, status_code=201)

    async def get_session(self, request: Request) -> Response:
        if not self._authorised(request):
            return self._unauthorised()
        sid = request.path_params["sid"]
        if sid not in self.sessions:
            return self._error(404, f"session {sid} not found")
        return JSONResponse(_redacted(self.sessions[sid]))

    async def delete_session(self, request: Request) -> Response:
        if not self._authorised(request):
            return self._unauthorised()
        sid = request.path_params["sid"]
        if self.sessions.pop(sid, None) is None:
            return self._error(404, f"session {sid} not found")
        self.history.pop(sid, None)
        return Response(status_code=204)

    async def get_history(self, request: Request) -> Response:
        if not self._authorised(request):
            return self._unauthorised()
        sid = request.path_params["sid"]
        kind = request.query_params.get("type")
        if kind not in ("compacted", "full"):
            return self._error(400, "query parameter type must be compacted or full")
        if sid not in self.sessions:
            return self._error(404, f"session {sid} not found")
        return JSONResponse({"history": {kind: self.history[sid]}})

    async def create_turn(self, request: Request) -> Response:
        if not self._authorised(request):
            return self._unauthorised()
        sid = request.path_params["sid"]
        if sid not in self.sessions:
            return self._error(404, f"session {sid} not found")
        body = await self._body(request, self._turn)
        if isinstance(body, Response):
            return body
        self.turn_requests.append(body)
        session = self.sessions[sid]
        override = body.get("agent", {})
        if "tools" in override:
            session["agent"] = {**session["agent"], "tools": override["tools"]}
        if "options" in override:
            options = {**session["agent"].get("options", {}), **override["options"]}
            session["agent"] = {**session["agent"], "options": options}
        if "tools" in body:
            session["tools"] = body["tools"]
        events = self._run_agent(sid, body)
        mode = body.get("stream", "none")
        misbehave = request.headers.get("x-misbehave", self.misbehave)
        if mode == "none" or misbehave == "json":
            stop = events[-1][1]["stopReason"]
            return JSONResponse({"stopReason": stop, "messages": _messages(events)})
        return StreamingResponse(self._sse(events, mode, misbehave), media_type="text/event-stream")

    # -- the scripted agent ------------------------------------------------------------------

    def _run_agent(self, sid: str, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The turn as message-mode events (name, data without the name)."""
        session = self.sessions[sid]
        history = self.history[sid]
        trusted = {t["name"]: t.get("trust", False) for t in session["agent"].get("tools", [])}
        events: list[tuple[str, dict[str, Any]]] = [("turn_start", {})]
        user = [m for m in body["messages"] if m["role"] == "user"]
        answers = [m for m in body["messages"] if m["role"] in ("tool", "tool_permission")]
        if user:
            history.append(user[0])
            content = user[0]["content"]
            text = content if isinstance(content, str) else content[0].get("text", "")
            if text == "call tools":
                calls = []
                for tool in session.get("tools", []):
                    calls.append((f"call_{tool['name']}", tool["name"], {"a": 2, "b": 3}))
                for name in sorted(trusted):
                    calls.append((f"call_{name}", name, {"path": "/tmp/x"}))
                history.append(
                    {
                        "role": "assistant",
                        "content": [
                            {"type": "tool_use", "toolCallId": c, "name": n, "input": i}
                            for c, n, i in calls
                        ],
                    }
                )
                for call_id, name, tool_input in calls:
                    events.append(
                        ("tool_call", {"toolCallId": call_id, "name": name, "input": tool_input})
                    )
                for call_id, name, _ in calls:
                    if trusted.get(name):
                        result = {"toolCallId": call_id, "content": f"{name} ran inline"}
                        events.append(("tool_result", result))
                        history.append({"role": "tool", **result})
                pending = [c for c, n, _ in calls if not trusted.get(n)]
                events.append(("turn_stop", {"stopReason": "tool_use" if pending else "end_turn"}))
                return events
            reply = f"echo: {text}"
        else:
            parts = []
            for answer in answers:
                if answer["role"] == "tool":
                    history.append(answer)
                    parts.append(f"{answer['toolCallId']}={answer['content']}")
                elif answer["granted"]:
                    result = {"toolCallId": answer["toolCallId"], "content": "deleted"}
                    events.append(("tool_result", result))
                    history.append({"role": "tool", **result})
                    parts.append(f"{answer['toolCallId']}=granted")
                else:
                    reason = answer.get("reason")
                    denial = "Tool call denied" + (f": {reason}" if reason else "")
                    history.append(
                        {"role": "tool", "toolCallId": answer["toolCallId"], "content": denial}
                    )
                    parts.append(f"{answer['toolCallId']}=denied({reason})")
            reply = "results: " + "; ".join(parts)
        events.append(("thinking", {"thinking": "considering"}))
        events.append(("text", {"text": reply}))
        history.append({"role": "assistant", "content": reply})
        events.append(("turn_stop", {"stopReason": "end_turn"}))
        return events

    async def _sse(
        self, events: list[tuple[str, dict[str, Any]]], mode: str, misbehave: str
    ) -> AsyncIterator[bytes]:
        if misbehave == "empty":
            return
        frames: list[tuple[str, dict[str, Any]]] = []
        for name, data in events:
            if mode == "delta" and name in ("text", "thinking"):
                key = "text" if name == "text" else "thinking"
                text = data[key]
                for i in range(0, len(text), 4):
                    frames.append((f"{name}_delta", {"delta": text[i : i + 4]}))
            else:
                frames.append((name, data))
        if misbehave == "no_turn_stop":
            frames = [f for f in frames if f[0] != "turn_stop"]
        if misbehave == "dup_turn_stop":
            frames.append(frames[-1])
        if misbehave == "unknown_event":
            frames.insert(1, ("usage", {"tokens": 3}))
        if misbehave.startswith("cut_after_"):
            cut = int(misbehave.removeprefix("cut_after_"))
            for name, data in frames[:cut]:
                yield f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
            raise ConnectionResetError("cut by the test server")  # uvicorn drops the connection
        for i, (name, data) in enumerate(frames):
            yield f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
            if misbehave == "stall" and i == 0:
                await asyncio.sleep(30)


def _messages(events: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The JSON (stream none) form of a turn's events."""
    messages: list[dict[str, Any]] = []
    content: list[dict[str, Any]] = []
    for name, data in events:
        if name == "text":
            content.append({"type": "text", "text": data["text"]})
        elif name == "thinking":
            content.append({"type": "thinking", "thinking": data["thinking"]})
        elif name == "tool_call":
            content.append({"type": "tool_use", **data})
        elif name == "tool_result":
            if content:
                messages.append({"role": "assistant", "content": content})
                content = []
            messages.append({"role": "tool", **data})
    if content:
        messages.append({"role": "assistant", "content": content})
    return messages
