"""An AAP server that breaks 12 MUST rules on purpose, each in one way, for the conformance
kit's test: it must flag exactly these (``BROKEN_RULES``) and pass the others.

It is the server kit serving the scripted agent (history: full only), with handlers
overridden and an ASGI layer that changes statuses and stream frames on the wire.
"""

from __future__ import annotations

import json
from typing import Any

from agentproto._runtime.routes import OperationError, RequestContext
from agentproto.aap import AAPServer, Agent, ApiKeys
from agentproto.aap.models import (
    GetSessionHistoryResponse,
    GetSessionsResponse,
    PostSessionTurnRequest,
    PostSessionTurnResponse,
    SessionHistory,
    UserMessage,
)
from agentproto.aap.server import ServerSettings
from agentproto.aap.store import SessionRecord
from agentproto.aap.turn import TurnRunner
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tests.servers.aap_agents import make_echo

KEY = "sk-broken-0123456789"
BROKEN_RULES = {
    "meta.version",  # says version 2
    "sessions.create",  # 200 instead of 201
    "sessions.secret-redacted",  # secret options in plaintext
    "sessions.pagination",  # the next cursor never ends
    "sessions.delete",  # 200 instead of 204
    "sessions.get-unknown",  # an unknown session is 200 {}
    "history.undeclared",  # compacted history served though not declared
    "history.full-exact",  # user messages altered in the full history
    "turn.start-stop",  # no turn_start
    "turn.message",  # a text_delta in a message-mode stream
    "turn.overrides-persist",  # a turn's options are dropped
    "turn.unknown-session",  # 400 instead of 404
}


class BrokenServer(AAPServer):
    def _info(self, record: SessionRecord) -> dict[str, Any]:
        return {"sessionId": record.session_id, "agent": record.agent}  # no redaction

    async def list_sessions(
        self, context: RequestContext, *, after: str | None
    ) -> GetSessionsResponse:
        page = await super().list_sessions(context, after=None)
        return GetSessionsResponse(sessions=page.sessions, next="c2Vjb25k")  # always "more"

    async def get_session_history(
        self, context: RequestContext, session_id: str, *, type: str
    ) -> GetSessionHistoryResponse:
        full = (
            await super().get_session_history(context, session_id, type="full")
        ).history.full or []
        altered = [
            UserMessage(role="user", content=str(m.content).upper())
            if isinstance(m, UserMessage)
            else m
            for m in full
        ]
        return GetSessionHistoryResponse(history=SessionHistory(**{type: altered}))

    async def create_turn(
        self, context: RequestContext, session_id: str, body: PostSessionTurnRequest
    ) -> PostSessionTurnResponse | TurnRunner:
        store = await self._ready()
        if await store.get_session(session_id, context.principal) is None:
            raise OperationError("bad_request", "no such session")
        body.agent = None
        return await super().create_turn(context, session_id, body)


def broken_app() -> ASGIApp:
    agent: Agent = make_echo(history=("full",))
    server = BrokenServer(
        agent,
        store="sqlite://:memory:",
        auth=ApiKeys({KEY: "tester"}),
        settings=ServerSettings(page_size=100),
    )
    inner = server.app

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await inner(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        body = b""
        replaced = False

        async def reading() -> Message:
            nonlocal body
            message = await receive()
            body += message.get("body", b"")
            return message

        async def sending(message: Message) -> None:
            nonlocal replaced
            if replaced:
                return  # the answer was replaced: the original's body goes nowhere
            if message["type"] == "http.response.start":
                status = message["status"]
                if method == "POST" and path == "/sessions" and status == 201:
                    message = {**message, "status": 200}
                if method == "DELETE" and status == 204:
                    message = {**message, "status": 200}
                if (
                    method == "GET"
                    and path.startswith("/sessions/")
                    and path.count("/") == 2
                    and status == 404
                ):
                    message = {
                        **message,
                        "status": 200,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", b"2"),
                        ],
                    }
                    await send(message)
                    await send({"type": "http.response.body", "body": b"{}", "more_body": False})
                    replaced = True
                    return
            elif message["type"] == "http.response.body":
                chunk = message.get("body", b"")
                if path == "/meta":
                    chunk = chunk.replace(b'"version":3', b'"version":2')
                if chunk.startswith(b"event: turn_start\n"):
                    return  # dropped
                if chunk.startswith(b"event: turn_stop\n") and _mode(body) == "message":
                    await send({**message, "body": b'event: text_delta\ndata: {"delta":"x"}\n\n'})
                message = {**message, "body": chunk}
            await send(message)

        await inner(scope, reading, sending)

    return app


def _mode(body: bytes) -> str | None:
    try:
        found = json.loads(body)
    except ValueError:
        return None
    return found.get("stream") if isinstance(found, dict) else None
