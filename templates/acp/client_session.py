"""An editor's session in a few lines (ACP v1): send a prompt, get the reply collected.

:class:`SessionClient` is a :class:`~agentproto.acp.Client` that merges every session's
updates (a :class:`~agentproto.acp.accumulator.SessionAccumulator` per session; subclass it
to answer permission, fs or terminal calls too). :class:`ClientSession` drives one session::

    editor = SessionClient()
    async with spawn_agent("my-agent", client=editor) as conn:
        await conn.initialize(protocol_version=1)
        session = await ClientSession.new(conn, editor, cwd="/repo")
        reply = await session.prompt("Fix the failing test", timeout=300)
        print(reply.stop_reason, reply.text)
        for call in reply.tool_calls:
            print(call.title, call.status)

Every update of a turn arrives before its ``session/prompt`` answer (the connection handles
messages in order), so the reply holds all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from agentproto.acp.accumulator import (
    Message,
    SessionAccumulator,
    SessionSnapshot,
    ToolCallView,
    Usage,
)
from agentproto.acp.connection import AgentConnection, Client
from agentproto.acp.models import (
    ContentBlock,
    ContentBlockText,
    McpServer,
    PromptRequest,
    PromptResponse,
    SessionNotification,
    SessionUpdate,
    StopReason,
)


class SessionClient(Client):
    """A :class:`Client` that keeps every session's updates merged, by session id. Override
    :meth:`session_update` only to call ``super().session_update(params)`` too."""

    def __init__(self) -> None:
        self.sessions: dict[str, SessionAccumulator] = {}

    def accumulator(self, session_id: str) -> SessionAccumulator:
        """The merged updates of one session (made on first use)."""
        found = self.sessions.get(session_id)
        if found is None:
            found = self.sessions[session_id] = SessionAccumulator()
        return found

    async def session_update(self, params: SessionNotification) -> None:
        self.accumulator(params.session_id).apply(params.update)


@dataclass(frozen=True)
class PromptReply:
    """What one prompt turn brought: why it stopped, the agent's text and thoughts, the tool
    calls it started or changed (merged), every message, the updates not merged into those
    (unknown, invalid, notices...), the latest usage, and the typed answer itself."""

    stop_reason: StopReason
    text: str
    thoughts: str
    tool_calls: tuple[ToolCallView, ...]
    messages: tuple[Message, ...]
    others: tuple[SessionUpdate, ...]
    usage: Usage | None
    response: PromptResponse


def _blocks(prompt: str | ContentBlock | Sequence[str | ContentBlock]) -> list[ContentBlock]:
    items = [prompt] if isinstance(prompt, str) or not isinstance(prompt, Sequence) else prompt
    return [ContentBlockText(text=i) if isinstance(i, str) else i for i in items]


class ClientSession:
    """One session of an agent, driven by an editor (see the module's docstring)."""

    def __init__(self, connection: AgentConnection, client: SessionClient, session_id: str):
        self.connection = connection
        self.client = client
        self.session_id = session_id

    @classmethod
    async def new(
        cls,
        connection: AgentConnection,
        client: SessionClient,
        *,
        cwd: str,
        mcp_servers: Sequence[McpServer] = (),
    ) -> ClientSession:
        """Start a new session (``session/new``)."""
        made = await connection.new_session(cwd=cwd, mcp_servers=list(mcp_servers))
        return cls(connection, client, made.session_id)

    @property
    def snapshot(self) -> SessionSnapshot:
        """Everything the session's updates said so far, merged."""
        return self.client.accumulator(self.session_id).snapshot()

    async def prompt(
        self,
        prompt: str | ContentBlock | Sequence[str | ContentBlock],
        *,
        timeout: float | None = None,
        cancel_grace: float = 5.0,
    ) -> PromptReply:
        """Send a prompt and collect the turn. After ``timeout`` seconds the turn is
        cancelled (``session/cancel``) and its reply awaited ``cancel_grace`` seconds more
        (the agent answers ``cancelled``); ``TimeoutError`` if it does not."""
        blocks = _blocks(prompt)
        accumulator = self.client.accumulator(self.session_id)
        accumulator.add_prompt(blocks)
        before = accumulator.snapshot()
        request = PromptRequest(session_id=self.session_id, prompt=blocks)
        call = asyncio.ensure_future(self.connection.prompt(request))
        try:
            response = await asyncio.wait_for(asyncio.shield(call), timeout)
        except TimeoutError:
            await self.connection.cancel(session_id=self.session_id)
            try:
                response = await asyncio.wait_for(asyncio.shield(call), cancel_grace)
            except TimeoutError:
                call.cancel()  # the request itself ($/cancel_request)
                with contextlib.suppress(BaseException):
                    await call
                raise TimeoutError(
                    f"the prompt turn did not end within {timeout} s, nor "
                    f"{cancel_grace} s after session/cancel"
                ) from None
        except BaseException:
            call.cancel()
            raise
        return self._reply(before, accumulator.snapshot(), response)

    async def cancel(self) -> None:
        """Cancel the running prompt turn (``session/cancel``)."""
        await self.connection.cancel(session_id=self.session_id)

    @staticmethod
    def _reply(
        before: SessionSnapshot, after: SessionSnapshot, response: PromptResponse
    ) -> PromptReply:
        messages = after.messages[len(before.messages) :]
        seen = {c.tool_call_id: c.updates for c in before.tool_calls}
        calls = tuple(c for c in after.tool_calls if seen.get(c.tool_call_id) != c.updates)
        return PromptReply(
            stop_reason=response.stop_reason,
            text="".join(m.text for m in messages if m.role == "agent"),
            thoughts="".join(m.text for m in messages if m.role == "thought"),
            tool_calls=calls,
            messages=messages,
            others=after.others[len(before.others) :],
            usage=after.usage,
            response=response,
        )
