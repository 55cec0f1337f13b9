"""A session helper that runs AAP's tool-call loop (hand-written, shipped as is).

:class:`Session` (blocking) and :class:`AsyncSession` wrap one AAP session:

- **client tools** are Python callables with a JSON Schema for their parameters
  (:class:`ClientTool`); when the agent calls one, the helper runs it;
- **server tools** are enabled by name with a ``trust`` flag; an untrusted call stops the turn
  and the helper asks ``on_permission`` to grant or deny it (denied when no callback is given);
- every result and permission of a turn goes back in **one** ``POST .../turns``, and the loop
  goes on until the agent stops for another reason;
- :meth:`Session.load` reattaches to an existing session and :meth:`Session.resume` answers
  the tool calls a previous process left pending (read from the session history);
- :meth:`Session.send` may change the client tools, server tools and options from that turn
  on (the request's ``tools`` and ``agent`` fields; the server keeps them for the rest of the
  session, as the protocol says, and so does the helper).

A turn the helper cannot finish raises :class:`~agentproto.aap.turns.IncompleteTurnError`
carrying the partial result: the stream ended without ``turn_stop``, the agent stopped with
tool calls nobody answered (or stopped for ``tool_use`` with none left to answer), or the loop
hit ``max_tool_rounds``. A returned :class:`TurnResult` is always a finished turn.

Capabilities come from ``GET /meta``: a stream mode, history type, client tools, an option or
a server tool the agent does not declare are refused with :class:`CapabilityError` before
anything is sent. Option values never appear in ``repr`` (secret options are masked in every
message).
"""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.redact import Secret
from agentproto._runtime.telemetry import shared
from agentproto.aap.client import AsyncAAPClient
from agentproto.aap.models import (
    AgentConfig,
    AgentConfigOverride,
    AgentInfo,
    AgentOption,
    AssistantMessage,
    GetMetaResponse,
    HistoryMessage,
    InvalidAgentOption,
    PostSessionsRequest,
    PostSessionTurnRequest,
    ServerToolRef,
    TextContentBlock,
    ToolMessage,
    ToolPermissionMessage,
    ToolSpec,
    ToolUseContentBlock,
    UnknownAgentOption,
    UserMessage,
)
from agentproto.aap.turns import IncompleteTurnError, TurnEvent, TurnFolder, TurnResult

# unasync: derive-sync

logger: logging.Logger = logging.getLogger("agentproto.aap")
_INSTRUMENTATION = "agentproto.aap"

Mode = Literal["none", "delta", "message"]
HistoryKind = Literal["compacted", "full"]
ToolInput = dict[str, Any]
EventCallback = Callable[[TurnEvent], object]
"""Called with each event of a streamed turn (``delta`` / ``message`` mode), as it arrives."""


class CapabilityError(AgentprotoError, ValueError):
    """The agent does not declare what the call needs (a stream mode, history, tools...)."""


@dataclass(frozen=True)
class ToolDecision:
    """The answer to a server tool's permission request."""

    granted: bool
    reason: str | None = None

    @classmethod
    def grant(cls) -> ToolDecision:
        return cls(True)

    @classmethod
    def deny(cls, reason: str | None = None) -> ToolDecision:
        return cls(False, reason)


# unasync: async-only
AsyncPermissionCallback = Callable[
    [ToolUseContentBlock], "ToolDecision | bool | Awaitable[ToolDecision | bool]"
]
# unasync: sync-only
# PermissionCallback = Callable[[ToolUseContentBlock], "ToolDecision | bool"]
# unasync: end

_JSON_TYPES: dict[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    list: "array",
    dict: "object",
}


@dataclass(frozen=True)
class ClientTool:
    """A tool the application runs: a callable and the JSON Schema of its keyword arguments.

    The callable gets the agent's input as keyword arguments and returns a string, or anything
    JSON can encode (sent as JSON text). An exception becomes an ``Error: ...`` result, so the
    agent learns the call failed instead of the loop dying.
    """

    name: str
    description: str
    parameters: Mapping[str, Any]
    function: Callable[..., Any] = field(repr=False)
    title: str | None = None

    @classmethod
    def from_function(
        cls,
        function: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        parameters: Mapping[str, Any] | None = None,
    ) -> ClientTool:
        """A tool from a function: name, docstring and (unless given) a parameter schema read
        from its signature (str, int, float, bool, list and dict annotations)."""
        if parameters is None:
            parameters = _schema_from_signature(function)
        doc = inspect.getdoc(function) or ""
        return cls(
            name=name or function.__name__,
            description=description or doc.split("\n\n", 1)[0] or function.__name__,
            parameters=parameters,
            function=function,
        )

    def spec(self) -> ToolSpec:
        return ToolSpec(
            name=self.name,
            title=self.title,
            description=self.description,
            parameters=dict(self.parameters),
        )


def _schema_from_signature(function: Callable[..., Any]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in inspect.signature(function, eval_str=True).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        json_type = _JSON_TYPES.get(param.annotation)
        properties[param.name] = {"type": json_type} if json_type else {}
        if param.default is param.empty:
            required.append(param.name)
    return {"type": "object", "properties": properties, "required": required}


def _result_content(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, default=str)


def _decision(value: ToolDecision | bool) -> ToolDecision:
    return value if isinstance(value, ToolDecision) else ToolDecision(bool(value))


class _Core:
    """What both flavours share: capability checks, requests, and bookkeeping."""

    def __init__(
        self,
        session_id: str,
        agent: AgentInfo,
        *,
        tools: Sequence[ClientTool],
        mode: Mode,
        option_names: Sequence[str],
        max_tool_rounds: int,
    ) -> None:
        self.session_id = session_id
        self.agent = agent
        self.tools: dict[str, ClientTool] = {tool.name: tool for tool in tools}
        self.mode: Mode = mode
        self.max_tool_rounds = max_tool_rounds
        self._option_names = tuple(option_names)
        _check_mode(agent, mode)
        if self.tools:
            _check_client_tools(agent)

    def __repr__(self) -> str:
        options = ", ".join(f"{n}=***" for n in self._option_names)
        return (
            f"<{type(self).__name__} {self.session_id!r} agent={self.agent.name!r} "
            f"mode={self.mode!r} tools={sorted(self.tools)} options=[{options}]>"
        )

    def _turn_request(
        self, messages: list[Any], change: _Change | None = None
    ) -> PostSessionTurnRequest:
        return PostSessionTurnRequest(
            messages=messages,
            stream=None if self.mode == "none" else self.mode,
            agent=change.agent if change is not None else None,
            tools=change.tools if change is not None else None,
        )

    def _change(
        self,
        tools: Sequence[ClientTool] | None,
        server_tools: Mapping[str, bool] | None,
        options: Mapping[str, str | Secret] | None,
    ) -> _Change | None:
        """The per-turn change of tools and options, checked against ``/meta``; applied to
        the helper's own state (the tools its loop runs) at once."""
        if tools is None and server_tools is None and options is None:
            return None
        if tools:
            _check_client_tools(self.agent)
        refs = None if server_tools is None else _server_tool_refs(self.agent, server_tools)
        revealed = None if options is None else _reveal_options(self.agent, options)
        agent = None
        if refs is not None or revealed is not None:
            agent = AgentConfigOverride(tools=refs, options=revealed)
        if tools is not None:
            self.tools = {tool.name: tool for tool in tools}
        if options is not None:
            self._option_names = tuple(sorted({*self._option_names, *options}))
        return _Change(agent, None if tools is None else [t.spec() for t in tools])

    def _history_kind(self, preferred: HistoryKind | None) -> HistoryKind:
        caps = self.agent.capabilities
        declared = caps.history if caps is not None else None
        kinds: tuple[HistoryKind, ...] = ("full", "compacted")
        available: list[HistoryKind] = [
            kind for kind in kinds if declared is not None and getattr(declared, kind) is not None
        ]
        if preferred is not None:
            if preferred not in available:
                raise CapabilityError(
                    f"agent {self.agent.name!r} does not offer {preferred} history "
                    f"(declared: {available or 'none'})"
                )
            return preferred
        if not available:
            raise CapabilityError(f"agent {self.agent.name!r} declares no session history")
        return available[0]

    def _merge(self, total: TurnResult, part: TurnResult, answered: Sequence[Any]) -> TurnResult:
        """``total`` and the next round ``part``, which ``answered`` (the messages sent)
        started."""
        ids = {
            m.tool_call_id for m in answered if isinstance(m, ToolMessage | ToolPermissionMessage)
        }
        return TurnResult(
            messages=[*total.messages, *part.messages],
            stop_reason=part.stop_reason,
            unknown_events=[*total.unknown_events, *part.unknown_events],
            answered_tool_call_ids=total.answered_tool_call_ids | part.answered_tool_call_ids | ids,
        )

    def _check_finished(self, total: TurnResult) -> TurnResult:
        """``total`` if it is a finished turn; otherwise :class:`IncompleteTurnError`."""
        pending = [c.tool_call_id for c in total.pending_tool_calls]
        unanswered = f" (tool calls never answered: {pending})" if pending else ""
        if total.stop_reason is None:
            problem = f"the turn ended without turn_stop{unanswered}"
        elif total.stop_reason == "tool_use":
            problem = "the agent stopped for tool_use with no call left to answer"
        elif pending:
            problem = f"the agent stopped ({total.stop_reason}){unanswered}"
        else:
            return total
        logger.debug("session %s: %s", self.session_id, problem)
        raise IncompleteTurnError(f"session {self.session_id}: {problem}", total)


@dataclass(frozen=True)
class _Change:
    """What one ``send`` changes: the request's ``agent`` override and ``tools``."""

    agent: AgentConfigOverride | None
    tools: list[ToolSpec] | None


def find_agent(meta: GetMetaResponse, name: str) -> AgentInfo:
    for agent in meta.agents:
        if agent.name == name:
            return agent
    names = sorted(a.name for a in meta.agents)
    raise CapabilityError(f"the server has no agent {name!r} (it has: {names})")


def _check_mode(agent: AgentInfo, mode: Mode) -> None:
    caps = agent.capabilities
    declared = caps.stream if caps is not None else None
    modes = (
        ["none"]
        if declared is None
        else [m for m in ("none", "delta", "message") if getattr(declared, m) is not None]
    )
    if mode not in modes:
        raise CapabilityError(
            f"agent {agent.name!r} does not support stream mode {mode!r} (it declares {modes})"
        )


def _check_client_tools(agent: AgentInfo) -> None:
    caps = agent.capabilities
    if caps is None or caps.application is None or caps.application.tools is None:
        raise CapabilityError(f"agent {agent.name!r} does not accept client-side tools")


def _server_tool_refs(agent: AgentInfo, server_tools: Mapping[str, bool]) -> list[ServerToolRef]:
    """Server tools by name -> trust, each one checked against the tools ``/meta`` lists."""
    declared = {tool.name for tool in agent.tools or []}
    for name in server_tools:
        if name not in declared:
            raise CapabilityError(
                f"agent {agent.name!r} has no server tool {name!r} (it has {sorted(declared)})"
            )
    return [ServerToolRef(name=n, trust=t) for n, t in sorted(server_tools.items())]


def _reveal_options(agent: AgentInfo, options: Mapping[str, str | Secret]) -> dict[str, str]:
    declared = {_option_name(o) for o in (agent.options or [])}
    revealed: dict[str, str] = {}
    for name, value in options.items():
        if name not in declared:
            raise CapabilityError(
                f"agent {agent.name!r} has no option {name!r} (it has {sorted(declared)})"
            )
        revealed[name] = value.reveal() if isinstance(value, Secret) else value
    return revealed


def _option_name(option: AgentOption) -> str:
    """An option's name; an option of a kind this version does not know (or whose data does
    not match its kind) has it among the fields it keeps as sent."""
    if isinstance(option, UnknownAgentOption | InvalidAgentOption):
        name = (option.model_extra or {}).get("name")
        return name if isinstance(name, str) else ""
    return option.name


def _create_request(
    agent: AgentInfo,
    options: Mapping[str, str | Secret] | None,
    server_tools: Mapping[str, bool] | None,
    tools: Sequence[ClientTool],
    messages: Sequence[Any] | None,
) -> PostSessionsRequest:
    revealed = _reveal_options(agent, options or {})
    config = AgentConfig(
        name=agent.name,
        options=revealed or None,
        tools=_server_tool_refs(agent, server_tools or {}) or None,
    )
    return PostSessionsRequest(
        agent=config,
        messages=list(messages) if messages else None,
        tools=[t.spec() for t in tools] or None,
    )


def pending_in_history(messages: Sequence[HistoryMessage]) -> list[ToolUseContentBlock]:
    """Tool calls of the last assistant message that no later tool message answers."""
    answered = {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}
    for message in reversed(messages):
        if isinstance(message, AssistantMessage):
            if isinstance(message.content, str):
                return []
            return [
                b
                for b in message.content
                if isinstance(b, ToolUseContentBlock) and b.tool_call_id not in answered
            ]
    return []


def _user(text: str | UserMessage) -> UserMessage:
    if isinstance(text, UserMessage):
        return text
    return UserMessage(role="user", content=[TextContentBlock(type="text", text=text)])


class AsyncSession(_Core):
    # unasync: async-only
    """One AAP session driven from async code; tools and callbacks may be sync or async."""

    # unasync: sync-only
    # """One AAP session driven from blocking code (see the module docs)."""
    # unasync: end

    def __init__(
        self,
        client: AsyncAAPClient,
        session_id: str,
        agent: AgentInfo,
        *,
        tools: Sequence[ClientTool] = (),
        on_permission: AsyncPermissionCallback | None = None,
        mode: Mode = "none",
        option_names: Sequence[str] = (),
        max_tool_rounds: int = 16,
    ) -> None:
        super().__init__(
            session_id,
            agent,
            tools=tools,
            mode=mode,
            option_names=option_names,
            max_tool_rounds=max_tool_rounds,
        )
        self.client = client
        self.on_permission = on_permission

    @classmethod
    async def create(
        cls,
        client: AsyncAAPClient,
        agent: str,
        *,
        options: Mapping[str, str | Secret] | None = None,
        server_tools: Mapping[str, bool] | None = None,
        tools: Sequence[ClientTool] = (),
        messages: Sequence[Any] | None = None,
        on_permission: AsyncPermissionCallback | None = None,
        mode: Mode = "none",
        max_tool_rounds: int = 16,
    ) -> AsyncSession:
        """Create a session on ``agent`` (checked against ``/meta`` first).

        ``server_tools`` maps server tool names to ``trust``; ``options`` may hold
        :class:`Secret` values.
        """
        info = find_agent(await client.get_meta(), agent)
        _check_mode(info, mode)
        if tools:
            _check_client_tools(info)
        request = _create_request(info, options, server_tools, tools, messages)
        created = await client.create_session(request)
        return cls(
            client,
            created.session_id,
            info,
            tools=tools,
            on_permission=on_permission,
            mode=mode,
            option_names=sorted(options or {}),
            max_tool_rounds=max_tool_rounds,
        )

    @classmethod
    async def load(
        cls,
        client: AsyncAAPClient,
        session_id: str,
        *,
        tools: Sequence[ClientTool] = (),
        on_permission: AsyncPermissionCallback | None = None,
        mode: Mode = "none",
        max_tool_rounds: int = 16,
    ) -> AsyncSession:
        """Reattach to an existing session (``resume()`` then answers pending tool calls)."""
        info = await client.get_session(session_id)
        agent = find_agent(await client.get_meta(), info.agent.name)
        return cls(
            client,
            session_id,
            agent,
            tools=tools,
            on_permission=on_permission,
            mode=mode,
            option_names=sorted(info.agent.options or {}),
            max_tool_rounds=max_tool_rounds,
        )

    async def send(
        self,
        message: str | UserMessage,
        *,
        on_event: EventCallback | None = None,
        tools: Sequence[ClientTool] | None = None,
        server_tools: Mapping[str, bool] | None = None,
        options: Mapping[str, str | Secret] | None = None,
    ) -> TurnResult:
        """Send a user message and run the tool loop until the agent stops for good.

        ``tools`` (client tools, replacing the current ones), ``server_tools`` (name ->
        trust, replacing the enabled set) and ``options`` (merged by key) change the session
        from this turn on: they go out with this turn's request, checked against ``/meta``
        first, and the server keeps them, as the protocol says. Raises
        :class:`IncompleteTurnError` (with the partial result) for a turn that did not finish.
        """
        change = self._change(tools, server_tools, options)
        return await self._run([_user(message)], on_event, change)

    async def resume(self, *, on_event: EventCallback | None = None) -> TurnResult | None:
        """Answer the tool calls the session history shows as pending; ``None`` if none are."""
        history = await self.history()
        pending = pending_in_history(history)
        if not pending:
            return None
        earlier = frozenset(m.tool_call_id for m in history if isinstance(m, ToolMessage))
        return await self._run(await self._answer(pending), on_event, answered=earlier)

    async def history(self, kind: HistoryKind | None = None) -> list[HistoryMessage]:
        """The session's messages (``full`` or ``compacted``; the first the agent offers)."""
        chosen = self._history_kind(kind)
        answer = await self.client.get_session_history(self.session_id, type=chosen)
        history = answer.history
        messages = history.full if chosen == "full" else history.compacted
        return list(messages or [])

    async def delete(self) -> None:
        await self.client.delete_session(self.session_id)

    async def _turn(
        self, messages: list[Any], on_event: EventCallback | None, change: _Change | None
    ) -> TurnResult:
        request = self._turn_request(messages, change)
        if self.mode == "none":
            response = await self.client.create_turn(self.session_id, request)
            return TurnResult.from_response(response)
        folder = TurnFolder()
        stream = await self.client.create_turn_stream(self.session_id, request, mode=self.mode)
        async with stream as events:
            async for event in events:
                if on_event is not None:
                    on_event(event)
                folder.add(event)
        return folder.result

    async def _run(
        self,
        messages: list[Any],
        on_event: EventCallback | None,
        change: _Change | None = None,
        answered: frozenset[str] = frozenset(),
    ) -> TurnResult:
        """The turn and its tool rounds, in one CLIENT span (``invoke_agent <agent>``): the
        requests carry its trace context, so the server's spans are its children."""
        with shared(_INSTRUMENTATION).span(
            f"invoke_agent {self.agent.name}",
            {
                "gen_ai.operation.name": "invoke_agent",
                "gen_ai.agent.name": self.agent.name,
                "gen_ai.conversation.id": self.session_id,
                "aap.session.id": self.session_id,
                "aap.stream.mode": self.mode,
            },
            kind="client",
        ) as span:
            result = await self._rounds(messages, on_event, change, answered)
            span.set("aap.stop_reason", result.stop_reason)
            return result

    async def _rounds(
        self,
        messages: list[Any],
        on_event: EventCallback | None,
        change: _Change | None,
        answered: frozenset[str],
    ) -> TurnResult:
        total = TurnResult(answered_tool_call_ids=answered)
        for _ in range(self.max_tool_rounds + 1):
            # the change goes out once: the server keeps it for the following rounds
            result = await self._turn(messages, on_event, change)
            change = None
            total = self._merge(total, result, messages)
            if total.stop_reason != "tool_use" or not total.pending_tool_calls:
                return self._check_finished(total)
            messages = await self._answer(total.pending_tool_calls)
        raise IncompleteTurnError(
            f"session {self.session_id}: the tool loop did not end after "
            f"{self.max_tool_rounds} rounds",
            total,
        )

    async def _answer(self, calls: Sequence[ToolUseContentBlock]) -> list[Any]:
        answers: list[Any] = []
        for call in calls:
            tool = self.tools.get(call.name)
            if tool is not None:
                with shared(_INSTRUMENTATION).span(
                    f"execute_tool {call.name}",
                    {
                        "gen_ai.operation.name": "execute_tool",
                        "gen_ai.tool.name": call.name,
                        "gen_ai.tool.call.id": call.tool_call_id,
                        "gen_ai.tool.type": "function",
                    },
                ) as span:
                    try:
                        value = tool.function(**call.input)
                        # unasync: async-only
                        if inspect.isawaitable(value):
                            value = await value
                        # unasync: end
                        content = _result_content(value)
                    except Exception as exc:
                        logger.warning("client tool %r raised %s", call.name, type(exc).__name__)
                        content = f"Error: {type(exc).__name__}: {exc}"
                        span.set("error.type", type(exc).__qualname__)
                answers.append(
                    ToolMessage(role="tool", tool_call_id=call.tool_call_id, content=content)
                )
                continue
            if self.on_permission is None:
                decision = ToolDecision.deny("no permission handler")
            else:
                answer = self.on_permission(call)
                # unasync: async-only
                if inspect.isawaitable(answer):
                    answer = await answer
                # unasync: end
                decision = _decision(answer)
            answers.append(
                ToolPermissionMessage(
                    role="tool_permission",
                    tool_call_id=call.tool_call_id,
                    granted=decision.granted,
                    reason=decision.reason,
                )
            )
        return answers
