"""An ACP agent that echoes each prompt back, word by word: complete enough for an editor.

An editor starts it and talks to it over stdin/stdout (newline-delimited JSON-RPC):

    python examples/acp_editor.py                      # our example editor spawns it
    python examples/acp_echo_agent.py --require-auth   # what an editor would run

It answers ``initialize`` (protocol version, capabilities, its name), ``authenticate`` (one
method of type "agent"; with ``--require-auth``, ``session/new`` is refused until it was
called), ``session/new``, ``session/prompt`` (the prompt's text streamed back as
``agent_message_chunk`` updates, one per word, then stop reason ``end_turn``) and
``session/cancel`` (the prompt in progress stops with stop reason ``cancelled``). Every other
method is answered "method not found" (-32601) by the ``Agent`` base class. Nothing but the
protocol goes to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import uuid

from agentproto.acp import Agent, AuthRequired, InvalidParams, serve_agent
from agentproto.acp.models import (
    AgentCapabilities,
    AuthenticateRequest,
    AuthenticateResponse,
    AuthMethodAgent,
    CancelNotification,
    ContentBlock,
    ContentBlockResource,
    ContentBlockResourceLink,
    ContentBlockText,
    Implementation,
    InitializeRequest,
    InitializeResponse,
    NewSessionRequest,
    NewSessionResponse,
    PromptCapabilities,
    PromptRequest,
    PromptResponse,
    SessionUpdateAgentMessageChunk,
)

PROTOCOL_VERSION = 1
LOGIN = "echo-login"


def text_of(blocks: list[ContentBlock]) -> str:
    """The prompt as text: text blocks as they are, anything else named in brackets."""
    parts: list[str] = []
    for block in blocks:
        if isinstance(block, ContentBlockText):
            parts.append(block.text)
        elif isinstance(block, ContentBlockResourceLink):
            parts.append(f"[{block.uri}]")
        elif isinstance(block, ContentBlockResource):
            parts.append("[embedded resource]")
        else:  # image, audio, or a block type newer than this package
            parts.append(f"[{block.type}]")
    return " ".join(parts)


class EchoAgent(Agent):
    def __init__(self, *, require_auth: bool = False, delay: float = 0.02) -> None:
        self.require_auth = require_auth
        self.authenticated = not require_auth
        self.delay = delay  # seconds between two words, so that streaming (and cancel) shows
        self.sessions: dict[str, str] = {}  # session id -> working directory
        self.stops: dict[str, asyncio.Event] = {}  # session id -> its prompt's cancel signal

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        login = AuthMethodAgent(id=LOGIN, name="Echo login", description="Always succeeds.")
        return InitializeResponse(
            protocol_version=min(params.protocol_version, PROTOCOL_VERSION),
            agent_capabilities=AgentCapabilities(
                load_session=False,
                prompt_capabilities=PromptCapabilities(embedded_context=True),
            ),
            auth_methods=[login] if self.require_auth else [],
            agent_info=Implementation(name="agentproto-echo", title="Echo", version="1.0.0"),
        )

    async def authenticate(self, params: AuthenticateRequest) -> AuthenticateResponse:
        if params.method_id != LOGIN:
            raise InvalidParams(f"unknown authentication method {params.method_id!r}")
        self.authenticated = True
        return AuthenticateResponse()

    async def new_session(self, params: NewSessionRequest) -> NewSessionResponse:
        if not self.authenticated:
            raise AuthRequired(f"authenticate with {LOGIN!r} first")
        session_id = f"echo-{uuid.uuid4().hex[:12]}"
        self.sessions[session_id] = params.cwd
        return NewSessionResponse(session_id=session_id)

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        if params.session_id not in self.sessions:
            raise InvalidParams(f"unknown session {params.session_id!r}")
        stop = self.stops[params.session_id] = asyncio.Event()
        words = text_of(params.prompt).split() or ["(an", "empty", "prompt)"]
        for n, word in enumerate(words):
            chunk = SessionUpdateAgentMessageChunk(
                session_update="agent_message_chunk",
                content=ContentBlockText(type="text", text=word if n == 0 else f" {word}"),
            )
            await self.client.session_update(session_id=params.session_id, update=chunk)
            try:  # wait between words, and wake up at once when the editor cancels
                await asyncio.wait_for(stop.wait(), self.delay)
            except TimeoutError:
                pass
            if stop.is_set():
                return PromptResponse(stop_reason="cancelled")
        return PromptResponse(stop_reason="end_turn")

    async def cancel(self, params: CancelNotification) -> None:
        stop = self.stops.get(params.session_id)
        if stop is not None:
            stop.set()


def main() -> None:
    parser = argparse.ArgumentParser(description="An ACP agent that echoes each prompt back.")
    parser.add_argument(
        "--require-auth", action="store_true", help="refuse session/new until authenticate"
    )
    parser.add_argument("--delay", type=float, default=0.02, help="seconds between words")
    options = parser.parse_args()
    agent = EchoAgent(require_auth=options.require_auth, delay=options.delay)
    asyncio.run(serve_agent(agent))


if __name__ == "__main__":
    main()
