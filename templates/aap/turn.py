"""One AAP turn on the server (hand-written): the loop around an agent's model steps.

:class:`TurnRunner` is what ``POST /sessions/{id}/turns`` runs once the server has checked the
request and claimed the session (see :mod:`agentproto.aap.server`). In order:

1. ``turn_start``;
2. the request's ``tool_permission`` s are resolved: a granted server tool runs now (its
   ``tool_result`` is sent), a denied one gets a ``"Tool call denied[: reason]"`` tool message;
   the permissions themselves are never stored. Then the request's tool results, resolved
   permissions and user messages are stored, in the order the request gave them, with the
   session overrides of the request (in one transaction);
3. steps: the agent's :meth:`~agentproto.aap.agent.Agent.step` streams text and thinking
   (``text_delta`` / ``thinking_delta`` in delta mode; one ``text`` / ``thinking`` event per
   block in message mode) and tool calls (``tool_call``); the assistant message is stored when
   the step ends. Trusted server tools (and the agent's unexposed ones, and a name nobody
   knows, answered with an error result so the model learns) run inline: ``tool_result``,
   stored, and the next step begins. A client tool or an untrusted server tool ends the turn
   with ``tool_use``;
4. ``turn_stop`` with the reason, always last. A failure anywhere (the model, the store, a
   step producing no event for ``stream_idle_timeout`` seconds, the turn running past
   ``turn_timeout``, ``max_steps`` steps, an event over ``max_event_bytes``, the lease lost
   because the session was deleted) ends it with ``error``: logged, its text never sent.

The session's lease is renewed every third of ``turn_lease`` while the turn runs (by one
:class:`LeaseKeeper` per server for all its turns, in one store call) and released when it
ends, however it ends (shielded from the cancellation a client's disconnect brings).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import pydantic
from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.redact import Secret
from agentproto._runtime.routes import EventSource
from agentproto._runtime.telemetry import SpanHandle, shared
from agentproto.aap.agent import (
    Agent,
    ServerTool,
    StepContext,
    StepEvent,
    TextDelta,
    ThinkingDelta,
    ToolResult,
    ToolUse,
)
from agentproto.aap.models import (
    AgentMessage,
    ApplicationMessage,
    AssistantMessage,
    ContentBlock,
    HistoryMessage,
    PostSessionTurnResponse,
    StopReason,
    TextContentBlock,
    TextDeltaEvent,
    TextEvent,
    ThinkingContentBlock,
    ThinkingDeltaEvent,
    ThinkingEvent,
    ToolCallEvent,
    ToolMessage,
    ToolPermissionMessage,
    ToolResultEvent,
    ToolSpec,
    ToolUseContentBlock,
    TurnStartEvent,
    TurnStopEvent,
    UserMessage,
)
from agentproto.aap.store import SessionStore

__all__ = [
    "INSTRUMENTATION",
    "LeaseKeeper",
    "TurnEvent",
    "TurnLimits",
    "TurnPlan",
    "TurnRunner",
    "wire",
]

log: logging.Logger = logging.getLogger("agentproto.aap.server")
INSTRUMENTATION = "agentproto.aap"
"""The instrumentation name of the AAP server's and client's spans."""

TurnEvent = (
    TurnStartEvent
    | TextDeltaEvent
    | ThinkingDeltaEvent
    | TextEvent
    | ThinkingEvent
    | ToolCallEvent
    | ToolResultEvent
    | TurnStopEvent
)
Emit = Callable[[TurnEvent], Awaitable[None]]


def wire(model: pydantic.BaseModel) -> dict[str, Any]:
    """A model as the JSON the protocol sends (and the store keeps)."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


@asynccontextmanager
async def _closing(
    steps: AsyncIterator[StepEvent],
) -> AsyncGenerator[AsyncIterator[StepEvent], None]:
    """Close an agent's step generator however the step ends (its ``finally`` blocks run)."""
    try:
        yield steps
    finally:
        close = getattr(steps, "aclose", None)
        if close is not None:
            await close()


class _Abort(AgentprotoError):
    """The turn cannot go on (logged where raised); it ends with ``error``."""


@dataclass
class TurnPlan:
    """Everything a turn needs, checked and resolved by the server before it starts."""

    session_id: str
    turn_id: str
    principal: str | None
    agent: Agent
    mode: str  # delta, message or none
    history: list[HistoryMessage]
    incoming: Sequence[ApplicationMessage]
    calls: dict[str, ToolUseContentBlock]  # pending tool calls the request answers, by id
    server_tools: dict[str, tuple[ServerTool, bool]]  # enabled: name -> (tool, trusted)
    client_tools: list[ToolSpec]
    options: dict[str, str]
    secrets: dict[str, Secret]
    new_agent: dict[str, Any] | None = None  # overrides to store with the first write
    new_tools: list[Any] | None = None


@dataclass
class TurnLimits:
    stream_idle_timeout: float
    turn_timeout: float
    max_steps: int
    tool_timeout: float
    turn_lease: float
    max_event_bytes: int


class LeaseKeeper:
    """Renews the leases of every turn running in this process, in one store call every
    third of ``lease`` seconds (not one task and one call per turn), and cancels a turn whose
    lease is lost (its session deleted, or taken over after a stall). Its task runs while
    turns do and ends with the last one."""

    def __init__(self, store: SessionStore, lease: float) -> None:
        self.store: SessionStore = store
        self.lease: float = lease
        self.turns: dict[tuple[str, str], anyio.CancelScope] = {}
        self._task: asyncio.Task[None] | None = None

    def hold(self, session_id: str, turn_id: str, scope: anyio.CancelScope) -> None:
        self.turns[(session_id, turn_id)] = scope
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def drop(self, session_id: str, turn_id: str) -> None:
        self.turns.pop((session_id, turn_id), None)

    async def _run(self) -> None:
        interval = max(self.lease / 3, 0.05)
        while self.turns:
            await asyncio.sleep(interval)
            held = list(self.turns)
            if not held:
                break
            try:
                lost = await self.store.renew_turns(held, self.lease)
            except Exception:
                log.exception("lease renewal failed (%d turns)", len(held))
                continue
            for key in lost:
                scope = self.turns.get(key)
                if scope is not None:
                    scope.cancel()


@dataclass
class TurnRunner(EventSource[TurnEvent]):
    """Runs one turn (see the module docstring); ``produced`` collects the agent messages
    (for the ``none`` mode's JSON answer)."""

    plan: TurnPlan
    store: SessionStore
    limits: TurnLimits
    leases: LeaseKeeper
    produced: list[AgentMessage] = field(default_factory=list[AgentMessage])
    stop_reason: StopReason | None = None
    _ran: bool = False
    _released: bool = False

    # -- the EventSource --------------------------------------------------------------------

    async def run(self, emit: Callable[[TurnEvent], Awaitable[None]]) -> None:
        if self._ran:
            raise RuntimeError("a turn runs once")
        self._ran = True
        plan = self.plan
        with shared(INSTRUMENTATION).span(
            f"invoke_agent {plan.agent.name}",
            {
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": plan.agent.name,
                "gen_ai.conversation.id": plan.session_id,
                "aap.session.id": plan.session_id,
                "aap.turn.id": plan.turn_id,
                "aap.stream.mode": plan.mode,
            },
        ) as span:
            await self._run(emit, span)

    async def _run(self, emit: Callable[[TurnEvent], Awaitable[None]], span: SpanHandle) -> None:
        plan = self.plan
        try:
            await emit(TurnStartEvent(event="turn_start"))
            reason: StopReason = "error"
            with anyio.move_on_after(self.limits.turn_timeout) as timer:
                with anyio.CancelScope() as work:
                    self.leases.hold(plan.session_id, plan.turn_id, work)
                    try:
                        reason = await self._turn(emit)
                    except _Abort:
                        reason = "error"
                    except Exception:
                        log.exception("turn %s of session %s failed", plan.turn_id, plan.session_id)
                        reason = "error"
                    finally:
                        self.leases.drop(plan.session_id, plan.turn_id)
                if work.cancelled_caught:
                    log.warning("session %s: the turn lost its lease (deleted?)", plan.session_id)
                    reason = "error"
            if timer.cancelled_caught:
                log.warning(
                    "session %s: the turn ran past %s s", plan.session_id, self.limits.turn_timeout
                )
                reason = "error"
            self.stop_reason = reason
            span.set("aap.stop_reason", reason)
            span.set("gen_ai.response.finish_reasons", [reason])
            if reason == "error":
                span.set("error.type", "turn_error")
            await emit(TurnStopEvent(event="turn_stop", stop_reason=reason))
        finally:
            if not self._released:
                with anyio.CancelScope(shield=True):
                    try:
                        await self.store.end_turn(plan.session_id, plan.turn_id)
                    except Exception:
                        log.exception("session %s: could not release the turn", plan.session_id)

    async def run_to_end(self) -> PostSessionTurnResponse:
        """The ``none`` mode: run without streaming and answer the JSON body."""

        async def ignore(event: TurnEvent) -> None:
            return None

        await self.run(ignore)
        return PostSessionTurnResponse(
            stop_reason=self.stop_reason or "error", messages=list(self.produced)
        )

    # -- pieces -----------------------------------------------------------------------------

    async def _save(
        self, messages: Sequence[HistoryMessage], *, first: bool = False, last: bool = False
    ) -> None:
        """Store messages (with the request's overrides on the first write); the ``last``
        write of a turn also releases its lease, in the same transaction."""
        plan = self.plan
        saved = await self.store.save_turn(
            plan.session_id,
            plan.turn_id,
            agent=plan.new_agent if first else None,
            tools=plan.new_tools if first else None,
            messages=[wire(m) for m in messages],
            release=last,
        )
        if not saved:
            log.warning("session %s: the turn lost its lease (deleted?)", plan.session_id)
            raise _Abort
        self._released = last
        plan.history.extend(messages)

    async def _send(self, emit: Emit, event: TurnEvent, size: int | None = None) -> None:
        if size is None:
            size = len(event.model_dump_json(by_alias=True))
        if size > self.limits.max_event_bytes:
            log.error(
                "session %s: a %s event of %d bytes is over the limit",
                self.plan.session_id,
                event.event,
                size,
            )
            raise _Abort
        await emit(event)

    async def _run_tool(
        self, emit: Emit, call: ToolUseContentBlock, tool: ServerTool | None
    ) -> ToolMessage:
        with shared(INSTRUMENTATION).span(
            f"execute_tool {call.name}",
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": call.name,
                "gen_ai.tool.call.id": call.tool_call_id,
                "gen_ai.tool.type": "function",
            },
        ) as span:
            if tool is None:
                content: str | list[ContentBlock] = f"Error: there is no tool {call.name!r}"
                span.set("error.type", "unknown_tool")
            else:
                outcome = await tool.run(call.input, timeout=self.limits.tool_timeout)
                content = outcome.content
                if outcome.error:
                    span.set("error.type", "tool_error")
        message = ToolMessage(role="tool", tool_call_id=call.tool_call_id, content=content)
        await self._send(
            emit,
            ToolResultEvent(event="tool_result", tool_call_id=call.tool_call_id, content=content),
        )
        return message

    async def _answer_request(self, emit: Emit) -> None:
        plan = self.plan
        resolved: list[HistoryMessage] = []
        for message in plan.incoming:
            if isinstance(message, ToolPermissionMessage):
                call = plan.calls[message.tool_call_id]
                if message.granted:
                    tool = plan.server_tools.get(call.name, (None, False))[0]
                    answer = await self._run_tool(emit, call, tool)
                else:
                    reason = f": {message.reason}" if message.reason else ""
                    answer = ToolMessage(
                        role="tool",
                        tool_call_id=call.tool_call_id,
                        content=f"Tool call denied{reason}",
                    )
                self.produced.append(answer)
                resolved.append(answer)
            elif isinstance(message, UserMessage | ToolMessage):
                resolved.append(message)
        await self._save(resolved, first=True)

    def _step_context(self) -> StepContext:
        plan = self.plan
        tools = [tool.spec() for tool, _ in plan.server_tools.values()] + list(plan.client_tools)
        return StepContext(
            session_id=plan.session_id,
            principal=plan.principal,
            history=plan.agent.compact(list(plan.history)),
            tools=tools,
            options=dict(plan.options),
            secrets=dict(plan.secrets),
            stream=plan.mode == "delta",
        )

    async def _turn(self, emit: Emit) -> StopReason:
        plan = self.plan
        await self._answer_request(emit)
        for _ in range(self.limits.max_steps):
            blocks, calls, stop, ran = await self._step(emit)
            if blocks:
                assistant = AssistantMessage(role="assistant", content=blocks)
                self.produced.append(assistant)
                await self._save([assistant], last=not calls)
            if not calls:
                return "end_turn" if stop in (None, "tool_use") else stop
            inline: list[ToolMessage] = []
            waiting = False
            client = {t.name for t in plan.client_tools}
            for call in calls:
                found = plan.server_tools.get(call.name)
                if call.tool_call_id in ran:  # the agent ran it itself
                    inline.append(ran[call.tool_call_id])
                elif found is not None and found[1]:
                    inline.append(await self._run_tool(emit, call, found[0]))
                elif found is None and call.name not in client:
                    inline.append(await self._run_tool(emit, call, None))
                else:
                    waiting = True
            final = not waiting and stop not in (None, "tool_use")
            if inline:
                self.produced.extend(inline)
                await self._save(inline, last=waiting or final)
            if waiting:
                return "tool_use"
            if final:
                assert stop is not None
                return stop  # every call was the agent's own, and it stopped
        log.warning("session %s: the turn reached %d steps", plan.session_id, self.limits.max_steps)
        return "error"

    async def _step(
        self, emit: Emit
    ) -> tuple[
        list[ContentBlock], list[ToolUseContentBlock], StopReason | None, dict[str, ToolMessage]
    ]:
        """One model step: its content blocks, tool calls, stop reason, and the results of
        the calls the agent ran itself (by call id)."""
        delta = self.plan.mode == "delta"
        blocks: list[ContentBlock] = []
        calls: list[ToolUseContentBlock] = []
        ran: dict[str, ToolMessage] = {}
        stop: StopReason | None = None
        shown = 0  # message mode: blocks already sent as text / thinking events

        async def flush() -> None:
            nonlocal shown
            if delta:
                return
            for block in blocks[shown:]:
                if isinstance(block, TextContentBlock):
                    await self._send(emit, TextEvent(event="text", text=block.text))
                elif isinstance(block, ThinkingContentBlock):
                    await self._send(emit, ThinkingEvent(event="thinking", thinking=block.thinking))
            shown = len(blocks)

        steps: AsyncIterator[StepEvent] = self.plan.agent.step(self._step_context())
        async with _closing(steps):
            while True:
                try:
                    with anyio.fail_after(self.limits.stream_idle_timeout):
                        event = await anext(steps)
                except StopAsyncIteration:
                    break
                except TimeoutError:
                    log.warning(
                        "session %s: the agent was silent for %s s",
                        self.plan.session_id,
                        self.limits.stream_idle_timeout,
                    )
                    raise _Abort from None
                if isinstance(event, TextDelta | ThinkingDelta):
                    if not event.text:
                        continue
                    last = blocks[-1] if blocks and (len(blocks) > shown or delta) else None
                    if isinstance(event, TextDelta):
                        if isinstance(last, TextContentBlock):
                            last.text += event.text
                        else:
                            await flush()
                            blocks.append(TextContentBlock(type="text", text=event.text))
                        if delta:
                            await self._send(
                                emit,
                                TextDeltaEvent(event="text_delta", delta=event.text),
                                len(event.text.encode()),
                            )
                    else:
                        if isinstance(last, ThinkingContentBlock):
                            last.thinking += event.text
                        else:
                            await flush()
                            blocks.append(
                                ThinkingContentBlock(type="thinking", thinking=event.text)
                            )
                        if delta:
                            await self._send(
                                emit,
                                ThinkingDeltaEvent(event="thinking_delta", delta=event.text),
                                len(event.text.encode()),
                            )
                elif isinstance(event, ToolUse):
                    await flush()
                    call = ToolUseContentBlock(
                        type="tool_use",
                        tool_call_id=event.tool_call_id,
                        name=event.name,
                        input=event.input,
                    )
                    blocks.append(call)
                    shown = len(blocks)
                    calls.append(call)
                    await self._send(
                        emit,
                        ToolCallEvent(
                            event="tool_call",
                            tool_call_id=call.tool_call_id,
                            name=call.name,
                            input=call.input,
                        ),
                    )
                elif isinstance(event, ToolResult):
                    if event.tool_call_id in ran or not any(
                        c.tool_call_id == event.tool_call_id for c in calls
                    ):
                        log.error(
                            "session %s: a result for no tool call of this step (%s)",
                            self.plan.session_id,
                            event.tool_call_id,
                        )
                        raise _Abort
                    await flush()
                    ran[event.tool_call_id] = ToolMessage(
                        role="tool", tool_call_id=event.tool_call_id, content=event.content
                    )
                    await self._send(
                        emit,
                        ToolResultEvent(
                            event="tool_result",
                            tool_call_id=event.tool_call_id,
                            content=event.content,
                        ),
                    )
                else:
                    stop = event.reason
                    break
        await flush()
        if stop == "error":
            raise _Abort
        return blocks, calls, stop, ran
