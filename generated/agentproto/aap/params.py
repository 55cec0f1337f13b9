"""Dict forms of agentproto.aap.models. Do not edit: run `codegen build`.

Each model of the models module as a TypedDict with the wire's keys: what a client
call accepts wherever it accepts the model."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

from agentproto.aap.models import StopReason, StreamMode


class TextAgentOptionParam(TypedDict):
    """``TextAgentOption`` as a dict, with the wire's keys."""

    name: str
    default: str
    type: Literal["text"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]


class SecretAgentOptionParam(TypedDict):
    """``SecretAgentOption`` as a dict, with the wire's keys."""

    name: str
    default: str
    type: Literal["secret"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]


class SelectAgentOptionParam(TypedDict):
    """``SelectAgentOption`` as a dict, with the wire's keys."""

    name: str
    options: list[str]
    default: str
    type: Literal["select"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]


class EmptyObjectParam(TypedDict):
    """``EmptyObject`` as a dict, with the wire's keys."""


class HistoryCapabilitiesParam(TypedDict):
    """``HistoryCapabilities`` as a dict, with the wire's keys."""

    compacted: NotRequired[EmptyObjectParam | None]
    full: NotRequired[EmptyObjectParam | None]


class StreamCapabilitiesParam(TypedDict):
    """``StreamCapabilities`` as a dict, with the wire's keys."""

    delta: NotRequired[EmptyObjectParam | None]
    message: NotRequired[EmptyObjectParam | None]
    none: NotRequired[EmptyObjectParam | None]


class ApplicationCapabilitiesParam(TypedDict):
    """``ApplicationCapabilities`` as a dict, with the wire's keys."""

    tools: NotRequired[EmptyObjectParam | None]


class ImageCapabilitiesParam(TypedDict):
    """``ImageCapabilities`` as a dict, with the wire's keys."""

    http: NotRequired[EmptyObjectParam | None]
    data: NotRequired[EmptyObjectParam | None]


class AgentCapabilitiesParam(TypedDict):
    """``AgentCapabilities`` as a dict, with the wire's keys."""

    history: NotRequired[HistoryCapabilitiesParam | None]
    stream: NotRequired[StreamCapabilitiesParam | None]
    application: NotRequired[ApplicationCapabilitiesParam | None]
    image: NotRequired[ImageCapabilitiesParam | None]


class TextContentBlockParam(TypedDict):
    """``TextContentBlock`` as a dict, with the wire's keys."""

    text: str
    type: Literal["text"]


class ThinkingContentBlockParam(TypedDict):
    """``ThinkingContentBlock`` as a dict, with the wire's keys."""

    thinking: str
    type: Literal["thinking"]


class ImageContentBlockParam(TypedDict):
    """``ImageContentBlock`` as a dict, with the wire's keys."""

    url: str
    type: Literal["image"]


class SystemMessageParam(TypedDict):
    """``SystemMessage`` as a dict, with the wire's keys."""

    content: str
    role: Literal["system"]


class ToolPermissionMessageParam(TypedDict):
    """``ToolPermissionMessage`` as a dict, with the wire's keys."""

    toolCallId: str
    granted: bool
    role: Literal["tool_permission"]
    reason: NotRequired[str | None]


class PostSessionsResponseParam(TypedDict):
    """``PostSessionsResponse`` as a dict, with the wire's keys."""

    sessionId: str


class ErrorResponseParam(TypedDict):
    """``ErrorResponse`` as a dict, with the wire's keys."""

    error: str


class TurnStartEventParam(TypedDict):
    """``TurnStartEvent`` as a dict, with the wire's keys."""

    event: Literal["turn_start"]


class TextDeltaEventParam(TypedDict):
    """``TextDeltaEvent`` as a dict, with the wire's keys."""

    delta: str
    event: Literal["text_delta"]


class ThinkingDeltaEventParam(TypedDict):
    """``ThinkingDeltaEvent`` as a dict, with the wire's keys."""

    delta: str
    event: Literal["thinking_delta"]


class TextEventParam(TypedDict):
    """``TextEvent`` as a dict, with the wire's keys."""

    text: str
    event: Literal["text"]


class ThinkingEventParam(TypedDict):
    """``ThinkingEvent`` as a dict, with the wire's keys."""

    thinking: str
    event: Literal["thinking"]


class TurnStopEventParam(TypedDict):
    """``TurnStopEvent`` as a dict, with the wire's keys."""

    stopReason: StopReason
    event: Literal["turn_stop"]


class ToolCallParam(TypedDict):
    """``ToolCall`` as a dict, with the wire's keys."""

    toolCallId: str
    name: str
    input: dict[str, Any]


class ToolSpecParam(TypedDict):
    """``ToolSpec`` as a dict, with the wire's keys."""

    name: str
    description: str
    parameters: dict[str, Any]
    title: NotRequired[str | None]


class ServerToolRefParam(TypedDict):
    """``ServerToolRef`` as a dict, with the wire's keys."""

    name: str
    trust: NotRequired[bool | None]


class AgentConfigParam(TypedDict):
    """``AgentConfig`` as a dict, with the wire's keys."""

    name: str
    tools: NotRequired[list[ServerToolRefParam] | None]
    options: NotRequired[dict[str, str] | None]


class AgentConfigOverrideParam(TypedDict):
    """``AgentConfigOverride`` as a dict, with the wire's keys."""

    tools: NotRequired[list[ServerToolRefParam] | None]
    options: NotRequired[dict[str, str] | None]


class AgentInfoParam(TypedDict):
    """``AgentInfo`` as a dict, with the wire's keys."""

    name: str
    version: str
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    tools: NotRequired[list[ToolSpecParam] | None]
    options: NotRequired[list[AgentOptionParam] | None]
    capabilities: NotRequired[AgentCapabilitiesParam | None]


class ToolUseContentBlockParam(TypedDict):
    """``ToolUseContentBlock`` as a dict, with the wire's keys."""

    toolCallId: str
    name: str
    input: dict[str, Any]
    type: Literal["tool_use"]


class UserMessageParam(TypedDict):
    """``UserMessage`` as a dict, with the wire's keys."""

    content: str | list[ContentBlockParam]
    role: Literal["user"]


class AssistantMessageParam(TypedDict):
    """``AssistantMessage`` as a dict, with the wire's keys."""

    content: str | list[ContentBlockParam]
    role: Literal["assistant"]


class ToolMessageParam(TypedDict):
    """``ToolMessage`` as a dict, with the wire's keys."""

    toolCallId: str
    content: str | list[ContentBlockParam]
    role: Literal["tool"]


class PostSessionsRequestParam(TypedDict):
    """``PostSessionsRequest`` as a dict, with the wire's keys."""

    agent: AgentConfigParam
    messages: NotRequired[list[HistoryMessageParam] | None]
    tools: NotRequired[list[ToolSpecParam] | None]


class PostSessionTurnRequestParam(TypedDict):
    """``PostSessionTurnRequest`` as a dict, with the wire's keys."""

    messages: list[ApplicationMessageParam]
    agent: NotRequired[AgentConfigOverrideParam | None]
    stream: NotRequired[StreamMode | None]
    tools: NotRequired[list[ToolSpecParam] | None]


class PostSessionTurnResponseParam(TypedDict):
    """``PostSessionTurnResponse`` as a dict, with the wire's keys."""

    stopReason: StopReason
    messages: list[AgentMessageParam]


class SessionHistoryParam(TypedDict):
    """``SessionHistory`` as a dict, with the wire's keys."""

    compacted: NotRequired[list[HistoryMessageParam] | None]
    full: NotRequired[list[HistoryMessageParam] | None]


class GetSessionHistoryResponseParam(TypedDict):
    """``GetSessionHistoryResponse`` as a dict, with the wire's keys."""

    history: SessionHistoryParam


class GetMetaResponseParam(TypedDict):
    """``GetMetaResponse`` as a dict, with the wire's keys."""

    version: Literal[3]
    agents: list[AgentInfoParam]


class SessionInfoParam(TypedDict):
    """``SessionInfo`` as a dict, with the wire's keys."""

    sessionId: str
    agent: AgentConfigParam
    tools: NotRequired[list[ToolSpecParam] | None]


class ToolCallEventParam(TypedDict):
    """``ToolCallEvent`` as a dict, with the wire's keys."""

    toolCallId: str
    name: str
    input: dict[str, Any]
    event: Literal["tool_call"]


class ToolResultEventParam(TypedDict):
    """``ToolResultEvent`` as a dict, with the wire's keys."""

    toolCallId: str
    content: str | list[ContentBlockParam]
    event: Literal["tool_result"]


class ToolResultParam(TypedDict):
    """``ToolResult`` as a dict, with the wire's keys."""

    toolCallId: str
    content: str | list[ContentBlockParam]


class GetSessionResponseParam(TypedDict):
    """``GetSessionResponse`` as a dict, with the wire's keys."""

    sessionId: str
    agent: AgentConfigParam
    tools: NotRequired[list[ToolSpecParam] | None]


class GetSessionsResponseParam(TypedDict):
    """``GetSessionsResponse`` as a dict, with the wire's keys."""

    sessions: list[SessionInfoParam]
    next: NotRequired[str | None]


AgentMessageParam: TypeAlias = AssistantMessageParam | ToolMessageParam
"""``AgentMessage`` as dicts (each member's dict form)."""


AgentOptionParam: TypeAlias = TextAgentOptionParam | SecretAgentOptionParam | SelectAgentOptionParam
"""``AgentOption`` as dicts (each member's dict form)."""


ApplicationMessageParam: TypeAlias = (
    UserMessageParam | ToolMessageParam | ToolPermissionMessageParam
)
"""``ApplicationMessage`` as dicts (each member's dict form)."""


ContentBlockParam: TypeAlias = (
    TextContentBlockParam
    | ThinkingContentBlockParam
    | ToolUseContentBlockParam
    | ImageContentBlockParam
)
"""``ContentBlock`` as dicts (each member's dict form)."""


DeltaSSEEventParam: TypeAlias = (
    TurnStartEventParam
    | TextDeltaEventParam
    | ThinkingDeltaEventParam
    | ToolCallEventParam
    | ToolResultEventParam
    | TurnStopEventParam
)
"""``DeltaSSEEvent`` as sent."""


HistoryMessageParam: TypeAlias = (
    SystemMessageParam | UserMessageParam | AssistantMessageParam | ToolMessageParam
)
"""``HistoryMessage`` as dicts (each member's dict form)."""


MessageSSEEventParam: TypeAlias = (
    TurnStartEventParam
    | TextEventParam
    | ThinkingEventParam
    | ToolCallEventParam
    | ToolResultEventParam
    | TurnStopEventParam
)
"""``MessageSSEEvent`` as sent."""


SSEEventParam: TypeAlias = (
    TurnStartEventParam
    | TextDeltaEventParam
    | ThinkingDeltaEventParam
    | TextEventParam
    | ThinkingEventParam
    | ToolCallEventParam
    | ToolResultEventParam
    | TurnStopEventParam
)
"""``SSEEvent`` as sent."""


SessionCursorParam: TypeAlias = str
"""``SessionCursor`` as sent."""
