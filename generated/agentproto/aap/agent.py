"""Agents for the AAP server kit (hand-written): what an agent declares, and how it answers.

An :class:`Agent` declares what ``GET /meta`` shows (name, version, options, capabilities,
exposed server tools) and answers **one model step** at a time: given the conversation so
far and the tools the model may call, it yields :data:`StepEvent` s (text and thinking as they
come, tool calls, then why it stopped). The server runs the turn around those steps: it
streams the events in the mode the client asked for, stores every message, runs trusted
server tools inline and steps again, and stops for client tools and untrusted server tools
(see :mod:`agentproto.aap.server`). An agent is either a subclass overriding :meth:`step`,
or ``Agent(name, step=function)`` with an async generator function::

    async def echo(context: StepContext) -> AsyncIterator[StepEvent]:
        yield TextDelta("echo: " + last_user_text(context.history))
        yield Stop("end_turn")

    agent = Agent("echo", step=echo)

    @agent.tool
    def clock(zone: str) -> str:
        \"\"\"The time in a zone.\"\"\"
        return "12:00"

:class:`~agentproto.aap.llm_agent.LLMAgent` answers steps with any provider of
:mod:`agentproto.llm`.
"""

from __future__ import annotations

import inspect
import logging
import sys
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast

import anyio
import anyio.to_thread
import pydantic

from agentproto._runtime.redact import Secret
from agentproto.aap.models import (
    AgentCapabilities,
    AgentInfo,
    AgentOption,
    ApplicationCapabilities,
    ContentBlock,
    EmptyObject,
    HistoryCapabilities,
    HistoryMessage,
    ImageCapabilities,
    SecretAgentOption,
    SelectAgentOption,
    StreamCapabilities,
    TextContentBlock,
    ToolSpec,
    UserMessage,
)

if TYPE_CHECKING:  # imported when a tool is made from a function, not with the server
    from agentproto.llm.tool_loop import FunctionTool

__all__ = [
    "Agent",
    "ServerTool",
    "StepContext",
    "StepEvent",
    "StepFunction",
    "Stop",
    "TextDelta",
    "ThinkingDelta",
    "ToolOutcome",
    "ToolResult",
    "ToolUse",
    "last_user_text",
]

log: logging.Logger = logging.getLogger("agentproto.aap.server")

StepStop = Literal["end_turn", "tool_use", "max_tokens", "refusal", "error"]


@dataclass(slots=True)
class TextDelta:
    """A piece of the answer's text (a whole message's text is fine too)."""

    text: str


@dataclass(slots=True)
class ThinkingDelta:
    """A piece of the model's reasoning."""

    text: str


@dataclass(slots=True)
class ToolUse:
    """The model calls a tool (a server tool or one of the client's)."""

    tool_call_id: str
    name: str
    input: dict[str, Any]


@dataclass(slots=True)
class ToolResult:
    """The agent ran one of its step's tool calls itself (an ACP agent does): its result.
    The server sends ``tool_result`` and stores it, and does not run the call; a step whose
    calls all have results is followed by another step, unless it stopped for good."""

    tool_call_id: str
    content: str | list[ContentBlock]
    error: bool = False


@dataclass(slots=True)
class Stop:
    """Why the step ended; the last event of a step (a step without one ended ``end_turn``,
    or ``tool_use`` when it called tools)."""

    reason: StepStop


StepEvent: TypeAlias = TextDelta | ThinkingDelta | ToolUse | ToolResult | Stop


@dataclass(frozen=True)
class StepContext:
    """What one model step sees.

    ``history`` is the conversation as the model should get it (:meth:`Agent.compact` of the
    session's full history, this turn's messages included); ``tools`` the tools it may call
    (the server tools the session enabled, unexposed ones, and the client's); ``options`` the
    session's option values with defaults filled in, except secret ones, which are only in
    ``secrets`` (masked in every repr); ``stream`` says the client reads deltas as they come
    (``delta`` mode), so a step should stream from its model if it can.
    """

    session_id: str
    principal: str | None
    history: list[HistoryMessage]
    tools: list[ToolSpec]
    options: Mapping[str, str]
    secrets: Mapping[str, Secret] = field(default_factory=dict[str, Secret])
    stream: bool = False


StepFunction = Callable[[StepContext], AsyncIterator[StepEvent]]
"""An async generator function answering one step."""


@dataclass(frozen=True)
class ToolOutcome:
    """What a server tool gave back: the tool message's content, and whether it failed."""

    content: str | list[ContentBlock]
    error: bool = False


@dataclass(frozen=True)
class ServerTool:
    """A tool the agent runs itself.

    ``exposed`` tools are listed in ``/meta``: a session enables them by name and says whether
    it trusts them (trusted ones run inline; the others wait for the client's permission).
    Unexposed tools are the agent's own business: always enabled, always run inline.
    """

    name: str
    description: str
    parameters: dict[str, Any]
    function: Callable[..., Any] = field(repr=False)
    title: str | None = None
    exposed: bool = True
    _bound: FunctionTool | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_function(
        cls,
        function: Callable[..., Any],
        *,
        name: str | None = None,
        description: str | None = None,
        title: str | None = None,
        exposed: bool = True,
    ) -> ServerTool:
        """A tool from a function (sync or ``async def``): the name, the docstring's first
        paragraph and a JSON Schema of the annotated parameters (pydantic, which also checks
        the model's arguments before the function runs)."""
        from agentproto.llm.tool_loop import function_tool

        bound = function_tool(function, name=name, description=description)
        return cls(bound.name, bound.description, bound.parameters, function, title, exposed, bound)

    def spec(self) -> ToolSpec:
        return ToolSpec(
            name=self.name,
            title=self.title,
            description=self.description,
            parameters=self.parameters,
        )

    async def run(self, tool_input: Mapping[str, Any], *, timeout: float) -> ToolOutcome:
        """Run the tool on the model's arguments. A :class:`~agentproto.llm.ToolError` it
        raises (or arguments that do not validate) become an error result with that message;
        any other exception, or running past ``timeout`` seconds, an error result with a fixed
        text (the exception is logged, its text never leaves)."""
        bound = self._bound
        value: object
        try:
            with anyio.fail_after(timeout):
                if bound is not None:
                    arguments = bound.bind(tool_input)
                else:
                    arguments = dict(tool_input)
                if inspect.iscoroutinefunction(self.function):
                    value = await self.function(**arguments)
                else:
                    value = await anyio.to_thread.run_sync(
                        lambda: self.function(**arguments), abandon_on_cancel=True
                    )
        except Exception as exc:
            loop = sys.modules.get("agentproto.llm.tool_loop")  # where ToolError comes from
            if loop is not None and isinstance(exc, loop.ToolError):
                return ToolOutcome(f"Error: {exc}", error=True)  # a message meant for the model
            if isinstance(exc, TimeoutError):
                log.warning("server tool %s ran past %s s", self.name, timeout)
                return ToolOutcome(f"Error: {self.name} timed out", error=True)
            log.exception("server tool %s failed", self.name)
            return ToolOutcome(f"Error: {self.name} failed", error=True)
        if isinstance(value, str):
            return ToolOutcome(value)
        answer: object = value
        if isinstance(value, list):
            items = cast("list[object]", value)
            if items and all(isinstance(v, pydantic.BaseModel) for v in items):
                return ToolOutcome(cast("list[ContentBlock]", items))  # blocks, as built
        if bound is None:
            return ToolOutcome(str(answer))
        from agentproto.llm.tool_loop import encode_output

        try:
            return ToolOutcome(encode_output(bound, answer))
        except TypeError:
            log.exception("server tool %s returned something that is not JSON", self.name)
            return ToolOutcome(f"Error: {self.name} failed", error=True)


def _empty() -> EmptyObject:
    return EmptyObject()


class Agent:
    """An agent the server offers (see the module docstring).

    ``history``, ``stream`` and ``images`` are the capabilities it declares (history types it
    returns, stream modes, image URL kinds); ``client_tools`` whether it accepts the client's
    tools. Options are :class:`~agentproto.aap.models.AgentOption` s (or their dict form).
    """

    def __init__(
        self,
        name: str,
        step: StepFunction | None = None,
        *,
        version: str = "1.0.0",
        title: str | None = None,
        description: str | None = None,
        options: Sequence[AgentOption | Mapping[str, Any]] = (),
        tools: Sequence[ServerTool | Callable[..., Any]] = (),
        history: Sequence[Literal["compacted", "full"]] = ("compacted", "full"),
        stream: Sequence[Literal["delta", "message", "none"]] = ("delta", "message", "none"),
        client_tools: bool = True,
        images: Sequence[Literal["http", "data"]] = (),
    ) -> None:
        self.name: str = name
        self.version: str = version
        self.title: str | None = title
        self.description: str | None = description
        adapter: pydantic.TypeAdapter[AgentOption] = pydantic.TypeAdapter(AgentOption)
        self.options: list[AgentOption] = [adapter.validate_python(o) for o in options]
        names = [str(getattr(o, "name", "")) for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"agent {name!r}: two options share a name")
        self.history_types: tuple[Literal["compacted", "full"], ...] = tuple(history)
        self.stream_modes: tuple[Literal["delta", "message", "none"], ...] = tuple(stream)
        self.client_tools: bool = client_tools
        self.images: tuple[Literal["http", "data"], ...] = tuple(images)
        self.tools: dict[str, ServerTool] = {}
        self._step = step
        for item in tools:
            self.add_tool(item)

    def __repr__(self) -> str:
        return f"<Agent {self.name!r} {self.version}>"

    # -- tools ----------------------------------------------------------------------------

    def add_tool(self, tool: ServerTool | Callable[..., Any]) -> ServerTool:
        found = tool if isinstance(tool, ServerTool) else ServerTool.from_function(tool)
        if found.name in self.tools:
            raise ValueError(f"agent {self.name!r} already has a tool {found.name!r}")
        self.tools[found.name] = found
        return found

    def tool(self, function: Callable[..., Any]) -> Callable[..., Any]:
        """Register ``function`` as an exposed server tool (a decorator); for another name,
        description or an unexposed tool, ``add_tool(ServerTool.from_function(...))``."""
        self.add_tool(ServerTool.from_function(function))
        return function

    # -- what /meta shows -----------------------------------------------------------------

    def secret_options(self) -> frozenset[str]:
        return frozenset(o.name for o in self.options if isinstance(o, SecretAgentOption))

    def option(self, name: str) -> AgentOption | None:
        return next((o for o in self.options if getattr(o, "name", None) == name), None)

    def info(self) -> AgentInfo:
        exposed = [t.spec() for t in self.tools.values() if t.exposed]
        capabilities = AgentCapabilities(
            history=HistoryCapabilities(**{t: _empty() for t in self.history_types})
            if self.history_types
            else None,
            stream=StreamCapabilities(**{m: _empty() for m in self.stream_modes}),
            application=ApplicationCapabilities(tools=_empty()) if self.client_tools else None,
            image=ImageCapabilities(**{k: _empty() for k in self.images}) if self.images else None,
        )
        return AgentInfo(
            name=self.name,
            title=self.title,
            version=self.version,
            description=self.description,
            tools=exposed or None,
            options=list(self.options) or None,
            capabilities=capabilities,
        )

    def check_option(self, name: str, value: str) -> str | None:
        """Why ``value`` is not acceptable for option ``name`` (None: it is)."""
        option = self.option(name)
        if option is None:
            return f"agent {self.name!r} has no option {name!r}"
        if isinstance(option, SelectAgentOption) and value not in option.options:
            return f"option {name!r} must be one of: {', '.join(option.options)}"
        return None

    def option_values(self, given: Mapping[str, str]) -> dict[str, str]:
        """Every declared option's value: the given one, else its default."""
        values: dict[str, str] = {}
        for option in self.options:
            name = getattr(option, "name", None)
            default = getattr(option, "default", None)
            if isinstance(name, str):
                value = given.get(name, default)
                if isinstance(value, str):
                    values[name] = value
        return values

    # -- answering ------------------------------------------------------------------------

    def compact(self, history: list[HistoryMessage]) -> list[HistoryMessage]:
        """The history the model gets (and ``GET /history?type=compacted`` shows): by default
        the full history. Override to summarise, truncate or drop old tool results; it must be
        a function of the full history (it is recomputed, never stored)."""
        return history

    async def end_session(self, session_id: str) -> None:
        """The session was deleted: release what the agent holds for it (nothing by
        default; an ACP agent's process ends)."""
        return None

    async def aclose(self) -> None:
        """The server is stopping: release everything (nothing by default)."""
        return None

    async def step(self, context: StepContext) -> AsyncIterator[StepEvent]:
        """One model step (see the module docstring). Override, or pass ``step=``."""
        if self._step is None:
            raise NotImplementedError(f"agent {self.name!r} has no step: pass step= or override")
        async for event in self._step(context):
            yield event


def last_user_text(history: Sequence[HistoryMessage]) -> str:
    """The text of the last user message (its text blocks joined), or ``""``."""
    for message in reversed(history):
        if isinstance(message, UserMessage):
            if isinstance(message.content, str):
                return message.content
            return "".join(b.text for b in message.content if isinstance(b, TextContentBlock))
    return ""
