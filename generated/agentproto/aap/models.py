"""Generated from schemas/aap/aap.schema.json. Do not edit: run `codegen build`."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, TypeAlias

from pydantic import ConfigDict, Field, RootModel

from agentproto._runtime.base import (
    InvalidVariant,
    Model,
    UnknownValue,
    constant_tag,
    not_one_of,
    one_of,
)


class TextAgentOption(Model):
    """
    A free-form text option.
    """

    type: Literal["text"] = constant_tag("text")
    name: str
    """
    Identifier of the option, used as its key in `AgentConfig.options`.
    """
    title: str | None = None
    """
    Human-readable display name.
    """
    description: str | None = None
    """
    What the option does.
    """
    default: str
    """
    Value used when the client does not set the option.
    """


class SecretAgentOption(Model):
    """
    A sensitive option (e.g. an API key), to be masked in user interfaces.
    """

    type: Literal["secret"] = constant_tag("secret")
    name: str
    """
    Identifier of the option, used as its key in `AgentConfig.options`.
    """
    title: str | None = None
    """
    Human-readable display name.
    """
    description: str | None = None
    """
    What the option does.
    """
    default: str
    """
    Value used when the client does not set the option.
    """


class SelectAgentOption(Model):
    """
    An option whose value is chosen from a fixed list.
    """

    type: Literal["select"] = constant_tag("select")
    name: str
    """
    Identifier of the option, used as its key in `AgentConfig.options`.
    """
    title: str | None = None
    """
    Human-readable display name.
    """
    description: str | None = None
    """
    What the option does.
    """
    options: list[str]
    """
    Allowed values.
    """
    default: str
    """
    Value used when the client does not set the option.
    """


HistoryType: TypeAlias = Literal["compacted", "full"] | UnknownValue
"""History type for `GET /sessions/:id/history`.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class EmptyObject(Model):
    """
    Empty-object marker (`Record<string, never>`): its presence declares support.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )


class HistoryCapabilities(Model):
    """
    History types the agent can return in `GET /sessions/:id/history` (`Partial<Record<HistoryType, Record<string, never>>>`).
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    compacted: EmptyObject | None = None
    """
    Present if the agent can return compacted history.
    """
    full: EmptyObject | None = None
    """
    Present if the agent can return full, uncompacted history.
    """


class StreamCapabilities(Model):
    """
    Stream modes the agent supports (`Partial<Record<StreamMode, Record<string, never>>>`).
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    delta: EmptyObject | None = None
    """
    Present if the agent supports `delta` streaming.
    """
    message: EmptyObject | None = None
    """
    Present if the agent supports `message` streaming.
    """
    none: EmptyObject | None = None
    """
    Present if the agent supports non-streaming (`none`) responses.
    """


class ApplicationCapabilities(Model):
    """
    Application-provided inputs the agent supports.
    """

    tools: EmptyObject | None = None
    """
    The agent accepts client-side tools in requests.
    """


class ImageCapabilities(Model):
    """
    Image inputs the agent supports.
    """

    http: EmptyObject | None = None
    """
    The agent accepts `https://` image URLs.
    """
    data: EmptyObject | None = None
    """
    The agent accepts `data:` URI (base64) images.
    """


class AgentCapabilities(Model):
    """
    Declares the features the agent supports. Missing fields are to be treated as unsupported.
    """

    history: HistoryCapabilities | None = None
    """
    History types the agent can return in `GET /sessions/:id/history`.
    """
    stream: StreamCapabilities | None = None
    """
    Stream modes the agent supports.
    """
    application: ApplicationCapabilities | None = None
    """
    Application-provided inputs the agent supports.
    """
    image: ImageCapabilities | None = None
    """
    Image inputs the agent supports.
    """


class TextContentBlock(Model):
    """
    A text content block.
    """

    type: Literal["text"] = constant_tag("text")
    text: str
    """
    The text.
    """


class ThinkingContentBlock(Model):
    """
    A thinking (reasoning) content block.
    """

    type: Literal["thinking"] = constant_tag("thinking")
    thinking: str
    """
    The thinking text.
    """


class ImageContentBlock(Model):
    """
    An image content block.
    """

    type: Literal["image"] = constant_tag("image")
    url: str
    """
    Image location: an `https://` URL or a `data:` URI (base64).
    """


class SystemMessage(Model):
    """
    A system-role message that gives the agent instructions.
    """

    role: Literal["system"] = constant_tag("system")
    content: str
    """
    Instructions for the agent.
    """


class ToolPermissionMessage(Model):
    """
    Grants or denies the server permission to invoke a tool on the client's behalf.
    """

    role: Literal["tool_permission"] = constant_tag("tool_permission")
    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    Identifier of the tool call the decision is for.
    """
    granted: bool
    """
    Whether the client grants permission for the tool call.
    """
    reason: str | None = None
    """
    Optional explanation, especially useful when `granted` is false.
    """


class PostSessionsResponse(Model):
    """
    Response body of `POST /sessions`.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    Identifier of the new session.
    """


class ErrorResponse(Model):
    """
    JSON error body sent with error statuses (e.g. 404 for an unknown session). Not part of the seed types; from the reference server's wire behaviour.
    """

    error: str
    """
    Error message.
    """


class SessionCursor(RootModel[str]):
    root: str = Field(title="SessionCursor")
    """
    Opaque, server-defined pagination cursor of `GET /sessions`: the `next` of one page, sent as the `after` query parameter to get the following page. Not a seed type; used by the spec table for the `after` query parameter.
    """


StreamMode: TypeAlias = Literal["delta", "message", "none"] | UnknownValue
"""Response mode of a turn request.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


StopReason: TypeAlias = (
    Literal["end_turn", "tool_use", "max_tokens", "refusal", "error"] | UnknownValue
)
"""Why the agent stopped its turn.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class TurnStartEvent(Model):
    """
    First event of a turn stream (its data is `{}` on the wire).
    """

    event: Literal["turn_start"] = constant_tag("turn_start")


class TextDeltaEvent(Model):
    """
    An incremental piece of the agent's text (delta mode only).
    """

    event: Literal["text_delta"] = constant_tag("text_delta")
    delta: str
    """
    Text delta.
    """


class ThinkingDeltaEvent(Model):
    """
    An incremental piece of the agent's thinking (delta mode only).
    """

    event: Literal["thinking_delta"] = constant_tag("thinking_delta")
    delta: str
    """
    Thinking delta.
    """


class TextEvent(Model):
    """
    The complete text of one agent message (message mode only).
    """

    event: Literal["text"] = constant_tag("text")
    text: str
    """
    Message text.
    """


class ThinkingEvent(Model):
    """
    The complete thinking of one agent message (message mode only).
    """

    event: Literal["thinking"] = constant_tag("thinking")
    thinking: str
    """
    Thinking text.
    """


class TurnStopEvent(Model):
    """
    Last event of a turn stream.
    """

    event: Literal["turn_stop"] = constant_tag("turn_stop")
    stop_reason: StopReason = Field(validation_alias="stopReason", serialization_alias="stopReason")
    """
    Why the agent stopped.
    """


class ToolCall(Model):
    """
    A tool call emitted by the agent.
    """

    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    Identifier of the tool call.
    """
    name: str
    """
    Name of the tool to call.
    """
    input: dict[str, Any]
    """
    Input arguments of the tool call.
    """


class ToolSpec(Model):
    """
    Declares a tool (client-side tools in requests; server-side tools in `/meta`).
    """

    name: str
    """
    Tool name.
    """
    title: str | None = None
    """
    Human-readable display name.
    """
    description: str
    """
    What the tool does.
    """
    parameters: dict[str, Any]
    """
    JSON Schema of the tool's input.
    """


class ServerToolRef(Model):
    """
    References a server-side tool to enable for a session.
    """

    name: str
    """
    Name of a server-side tool as declared in `/meta`.
    """
    trust: bool | None = None
    """
    If true, the server may invoke this tool without asking the client for permission. Defaults to false.
    """


class AgentConfig(Model):
    """
    Agent configuration supplied with a request.
    """

    name: str
    """
    Name of the agent to invoke.
    """
    tools: list[ServerToolRef] | None = None
    """
    Server-side tools to enable. If omitted, all exposed agent tools are disabled.
    """
    options: dict[str, str] | None = None
    """
    Key-value pairs matching the options the agent declares.
    """


class AgentConfigOverride(Model):
    """
    Agent configuration without its name (`Omit<AgentConfig, "name">`): the session-level overrides of `POST /sessions/:id/turns`.
    """

    tools: list[ServerToolRef] | None = None
    """
    Server-side tools to enable. If omitted, all exposed agent tools are disabled.
    """
    options: dict[str, str] | None = None
    """
    Key-value pairs matching the options the agent declares.
    """


class AgentInfo(Model):
    """
    An agent served by this server, as listed by `GET /meta`.
    """

    name: str
    """
    Unique identifier of the agent on this server.
    """
    title: str | None = None
    """
    Human-readable display name.
    """
    version: str
    """
    Semantic version of the agent.
    """
    description: str | None = None
    """
    What the agent does.
    """
    tools: list[ToolSpec] | None = None
    """
    Server-side tools the agent exposes for client configuration.
    """
    options: list[AgentOption] | None = None
    """
    Configurable options the client can set on each request.
    """
    capabilities: AgentCapabilities | None = None
    """
    Declares the features the agent supports. Missing fields are to be treated as unsupported.
    """


class ToolUseContentBlock(Model):
    """
    A tool call inside a message (extends ToolCall; its properties are flattened in).
    """

    type: Literal["tool_use"] = constant_tag("tool_use")
    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    Identifier of the tool call.
    """
    name: str
    """
    Name of the tool to call.
    """
    input: dict[str, Any]
    """
    Input arguments of the tool call.
    """


class UnknownContentBlock(Model):
    """A variant of ``ContentBlock`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "text",
                "thinking",
                "tool_use",
                "image",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidContentBlock(InvalidVariant):
    """A known variant of ``ContentBlock`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "text",
                "thinking",
                "tool_use",
                "image",
            )
        ),
    ]
    """The tag, as sent."""


ContentBlock: TypeAlias = Annotated[
    Annotated[
        TextContentBlock | ThinkingContentBlock | ToolUseContentBlock | ImageContentBlock,
        Field(discriminator="type"),
    ]
    | UnknownContentBlock
    | InvalidContentBlock,
    Field(union_mode="left_to_right"),
]
"""A single content block within a message. A variant this version does not know (from a newer peer) is an ``UnknownContentBlock``; a known one whose data a peer sent does not match its schema, an ``InvalidContentBlock``."""


class UserMessage(Model):
    """
    A user-role message.
    """

    role: Literal["user"] = constant_tag("user")
    content: str | list[ContentBlock]
    """
    A string or a list of content blocks.
    """


class AssistantMessage(Model):
    """
    An assistant-role message.
    """

    role: Literal["assistant"] = constant_tag("assistant")
    content: str | list[ContentBlock]
    """
    A string or a list of content blocks.
    """


class ToolMessage(Model):
    """
    A tool result message, returned by the application after a `tool_use` block (extends ToolResult; its properties are flattened in).
    """

    role: Literal["tool"] = constant_tag("tool")
    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    Identifier of the tool call this result answers.
    """
    content: str | list[ContentBlock]
    """
    Result content: a string or a list of content blocks.
    """


class PostSessionsRequest(Model):
    """
    Request body of `POST /sessions`.
    """

    agent: AgentConfig
    """
    Agent configuration; `name` is required when creating a session.
    """
    messages: list[HistoryMessage] | None = None
    """
    Optional seed history (e.g. a system prompt or an earlier conversation).
    """
    tools: list[ToolSpec] | None = None
    """
    Client-side tools, with full schemas.
    """


class PostSessionTurnRequest(Model):
    """
    Request body of `POST /sessions/:id/turns`.
    """

    agent: AgentConfigOverride | None = None
    """
    Session-level agent overrides. The agent name cannot be changed; options are merged by key.
    """
    stream: StreamMode | None = None
    """
    Response mode; `none` when omitted.
    """
    messages: list[ApplicationMessage]
    """
    A single user message, or a mixed list of tool results and tool permissions.
    """
    tools: list[ToolSpec] | None = None
    """
    Client-side tools; they replace the tools declared when the session was created.
    """


class PostSessionTurnResponse(Model):
    """
    JSON response body of a non-streaming (`stream: "none"`) turn request.
    """

    stop_reason: StopReason = Field(validation_alias="stopReason", serialization_alias="stopReason")
    """
    Why the agent stopped.
    """
    messages: list[AgentMessage]
    """
    Messages the agent produced in this turn.
    """


class SessionHistory(Model):
    """
    Session history by type (`Partial<Record<HistoryType, HistoryMessage[]>>`); holds the type that was requested.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    compacted: list[HistoryMessage] | None = None
    """
    Compacted history.
    """
    full: list[HistoryMessage] | None = None
    """
    Full, uncompacted history.
    """


class GetSessionHistoryResponse(Model):
    """
    Response body of `GET /sessions/:id/history`.
    """

    history: SessionHistory
    """
    Conversation history of the requested type.
    """


class GetMetaResponse(Model):
    """
    Response body of `GET /meta`.
    """

    version: Literal[3]
    """
    AAP protocol version.
    """
    agents: list[AgentInfo]
    """
    Agents available on this server.
    """


class SessionInfo(Model):
    """
    Session data, as returned by `GET /sessions/:id` and as the items of `GET /sessions`.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    Session identifier.
    """
    agent: AgentConfig
    """
    Agent configuration of the session; values of secret options in `agent.options` are redacted (e.g. `"***"`).
    """
    tools: list[ToolSpec] | None = None
    """
    Client-side tools declared for this session.
    """


class ToolCallEvent(Model):
    """
    The agent calls a tool (extends ToolCall; its properties are flattened in).
    """

    event: Literal["tool_call"] = constant_tag("tool_call")
    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    Identifier of the tool call.
    """
    name: str
    """
    Name of the tool to call.
    """
    input: dict[str, Any]
    """
    Input arguments of the tool call.
    """


class ToolResultEvent(Model):
    """
    Result of a server-side tool call (server-side tools only; extends ToolResult, its properties are flattened in).
    """

    event: Literal["tool_result"] = constant_tag("tool_result")
    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    Identifier of the tool call this result answers.
    """
    content: str | list[ContentBlock]
    """
    Result content: a string or a list of content blocks.
    """


class SSEEvent(
    RootModel[
        TurnStartEvent
        | TextDeltaEvent
        | ThinkingDeltaEvent
        | TextEvent
        | ThinkingEvent
        | ToolCallEvent
        | ToolResultEvent
        | TurnStopEvent
    ]
):
    root: (
        TurnStartEvent
        | TextDeltaEvent
        | ThinkingDeltaEvent
        | TextEvent
        | ThinkingEvent
        | ToolCallEvent
        | ToolResultEvent
        | TurnStopEvent
    ) = Field(discriminator="event", title="SSEEvent")
    """
    SSE event data for `stream: "delta"` and `stream: "message"` responses. On the wire the event name is the SSE `event:` field and is not repeated in the JSON data; `event` here carries it.
    """


class DeltaSSEEvent(
    RootModel[
        TurnStartEvent
        | TextDeltaEvent
        | ThinkingDeltaEvent
        | ToolCallEvent
        | ToolResultEvent
        | TurnStopEvent
    ]
):
    root: (
        TurnStartEvent
        | TextDeltaEvent
        | ThinkingDeltaEvent
        | ToolCallEvent
        | ToolResultEvent
        | TurnStopEvent
    ) = Field(discriminator="event", title="DeltaSSEEvent")
    """
    Events emitted in `stream: "delta"` mode.
    """


class MessageSSEEvent(
    RootModel[
        TurnStartEvent | TextEvent | ThinkingEvent | ToolCallEvent | ToolResultEvent | TurnStopEvent
    ]
):
    root: (
        TurnStartEvent | TextEvent | ThinkingEvent | ToolCallEvent | ToolResultEvent | TurnStopEvent
    ) = Field(discriminator="event", title="MessageSSEEvent")
    """
    Events emitted in `stream: "message"` mode.
    """


class ToolResult(Model):
    """
    The result of a tool call.
    """

    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    Identifier of the tool call this result answers.
    """
    content: str | list[ContentBlock]
    """
    Result content: a string or a list of content blocks.
    """


class GetSessionResponse(SessionInfo):
    """
    Response body of `GET /sessions/:id`: a SessionInfo.
    """


class GetSessionsResponse(Model):
    """
    Response body of `GET /sessions`.
    """

    sessions: list[SessionInfo]
    """
    Session objects, each shaped like `GetSessionResponse`.
    """
    next: str | None = None
    """
    Pagination cursor, absent when there are no more results; pass it as `after` to fetch the next page.
    """


class UnknownAgentOption(Model):
    """A variant of ``AgentOption`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "text",
                "secret",
                "select",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidAgentOption(InvalidVariant):
    """A known variant of ``AgentOption`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "text",
                "secret",
                "select",
            )
        ),
    ]
    """The tag, as sent."""


AgentOption: TypeAlias = Annotated[
    Annotated[TextAgentOption | SecretAgentOption | SelectAgentOption, Field(discriminator="type")]
    | UnknownAgentOption
    | InvalidAgentOption,
    Field(union_mode="left_to_right"),
]
"""A configurable option that the client can set on each request. A variant this version does not know (from a newer peer) is an ``UnknownAgentOption``; a known one whose data a peer sent does not match its schema, an ``InvalidAgentOption``."""


class UnknownHistoryMessage(Model):
    """A variant of ``HistoryMessage`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    role: Annotated[
        str,
        not_one_of(
            (
                "system",
                "user",
                "assistant",
                "tool",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidHistoryMessage(InvalidVariant):
    """A known variant of ``HistoryMessage`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    role: Annotated[
        str,
        one_of(
            (
                "system",
                "user",
                "assistant",
                "tool",
            )
        ),
    ]
    """The tag, as sent."""


HistoryMessage: TypeAlias = Annotated[
    Annotated[
        SystemMessage | UserMessage | AssistantMessage | ToolMessage, Field(discriminator="role")
    ]
    | UnknownHistoryMessage
    | InvalidHistoryMessage,
    Field(union_mode="left_to_right"),
]
"""A message that can appear in the conversation history. A variant this version does not know (from a newer peer) is an ``UnknownHistoryMessage``; a known one whose data a peer sent does not match its schema, an ``InvalidHistoryMessage``."""


class UnknownAgentMessage(Model):
    """A variant of ``AgentMessage`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    role: Annotated[
        str,
        not_one_of(
            (
                "assistant",
                "tool",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidAgentMessage(InvalidVariant):
    """A known variant of ``AgentMessage`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    role: Annotated[
        str,
        one_of(
            (
                "assistant",
                "tool",
            )
        ),
    ]
    """The tag, as sent."""


AgentMessage: TypeAlias = Annotated[
    Annotated[AssistantMessage | ToolMessage, Field(discriminator="role")]
    | UnknownAgentMessage
    | InvalidAgentMessage,
    Field(union_mode="left_to_right"),
]
"""A message generated by the agent. A variant this version does not know (from a newer peer) is an ``UnknownAgentMessage``; a known one whose data a peer sent does not match its schema, an ``InvalidAgentMessage``."""


class UnknownApplicationMessage(Model):
    """A variant of ``ApplicationMessage`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    role: Annotated[
        str,
        not_one_of(
            (
                "user",
                "tool",
                "tool_permission",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidApplicationMessage(InvalidVariant):
    """A known variant of ``ApplicationMessage`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    role: Annotated[
        str,
        one_of(
            (
                "user",
                "tool",
                "tool_permission",
            )
        ),
    ]
    """The tag, as sent."""


ApplicationMessage: TypeAlias = Annotated[
    Annotated[UserMessage | ToolMessage | ToolPermissionMessage, Field(discriminator="role")]
    | UnknownApplicationMessage
    | InvalidApplicationMessage,
    Field(union_mode="left_to_right"),
]
"""A message that the application sends to the agent. A variant this version does not know (from a newer peer) is an ``UnknownApplicationMessage``; a known one whose data a peer sent does not match its schema, an ``InvalidApplicationMessage``."""


ToolCallInput: TypeAlias = dict[str, Any]
"""Input arguments of a tool call."""


JSONSchema: TypeAlias = dict[str, Any]
"""A JSON Schema document (the parameters of a tool); an object in practice."""
