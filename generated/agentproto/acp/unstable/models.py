"""Generated from schemas/acp/schema.v1.unstable.json. Do not edit: run `codegen build`."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, TypeAlias

from pydantic import ConfigDict, Field, RootModel, Tag

from agentproto._runtime.base import (
    UNTAGGED,
    InvalidVariant,
    Model,
    UnknownValue,
    Url,
    by_tag,
    constant_tag,
    not_one_of,
    one_of,
)


class ReadTextFileRequest(Model):
    """
    Request to read content from a text file.

    Only available if the client supports the `fs.readTextFile` capability.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session ID for this request.
    """
    path: str
    """
    Absolute path to the file to read.
    """
    line: int | None = Field(default=None, ge=0)
    """
    Line number to start reading from (1-based).
    """
    limit: int | None = Field(default=None, ge=0)
    """
    Maximum number of lines to read.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


ToolKind: TypeAlias = (
    Literal[
        "read",
        "edit",
        "delete",
        "move",
        "search",
        "execute",
        "think",
        "fetch",
        "switch_mode",
        "other",
    ]
    | UnknownValue
)
"""Categories of tools that can be invoked. Tool kinds help clients choose appropriate icons and optimize how they display tool execution progress. See protocol docs: [Creating](https://agentclientprotocol.com/protocol/v1/draft/tool-calls#creating)

- ``read``: Reading files or data.
- ``edit``: Modifying files or content.
- ``delete``: Removing files or data.
- ``move``: Moving or renaming files.
- ``search``: Searching for information.
- ``execute``: Running commands or code.
- ``think``: Internal reasoning or planning.
- ``fetch``: Retrieving external data.
- ``switch_mode``: Switching the current session mode.
- ``other``: Other tool types (default).

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


ToolCallStatus: TypeAlias = Literal["pending", "in_progress", "completed", "failed"] | UnknownValue
"""Execution status of a tool call. Tool calls progress through different statuses during their lifecycle. See protocol docs: [Status](https://agentclientprotocol.com/protocol/v1/draft/tool-calls#status)

- ``pending``: The tool call hasn't started running yet because the input is either streaming or we're awaiting approval.
- ``in_progress``: The tool call is currently running.
- ``completed``: The tool call completed successfully.
- ``failed``: The tool call failed with an error.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


Role: TypeAlias = Literal["assistant", "user"] | UnknownValue
"""The sender or recipient of messages and data in a conversation.

- ``assistant``: The assistant side of a conversation.
- ``user``: The user side of a conversation.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class TextResourceContents(Model):
    """
    Text-based resource contents.
    """

    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type describing the encoded media payload.
    """
    text: str
    """
    Text payload carried by this content block.
    """
    uri: str
    """
    URI associated with this resource or media payload.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class BlobResourceContents(Model):
    """
    Binary resource contents.
    """

    blob: str
    """
    Base64-encoded bytes for a binary resource payload.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type describing the encoded media payload.
    """
    uri: str
    """
    URI associated with this resource or media payload.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class Diff(Model):
    """
    A diff representing file modifications.

    Shows changes to files in a format suitable for display in the client UI.

    See protocol docs: [Content](https://agentclientprotocol.com/protocol/v1/draft/tool-calls#content)
    """

    path: str
    """
    The absolute file path being modified.
    """
    old_text: str | None = Field(
        default=None, validation_alias="oldText", serialization_alias="oldText"
    )
    """
    The original content (omitted or `null` for new files).
    """
    new_text: str = Field(validation_alias="newText", serialization_alias="newText")
    """
    The new content after modification.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class Terminal(Model):
    """
    Embed a terminal created with `terminal/create` by its id.

    The terminal must be added before calling `terminal/release`.

    See protocol docs: [Terminal](https://agentclientprotocol.com/protocol/v1/draft/terminals)
    """

    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    Identifier of the terminal instance to embed in the content stream.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ToolCallLocation(Model):
    """
    A file location being accessed or modified by a tool.

    Enables clients to implement "follow-along" features that track
    which files the agent is working with in real-time.

    See protocol docs: [Following the Agent](https://agentclientprotocol.com/protocol/v1/draft/tool-calls#following-the-agent)
    """

    path: str
    """
    The absolute file path being accessed or modified.
    """
    line: int | None = Field(default=None, ge=0)
    """
    Optional 1-based line number within the file.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


PermissionOptionKind: TypeAlias = (
    Literal["allow_once", "allow_always", "reject_once", "reject_always"] | UnknownValue
)
"""The type of permission option being presented to the user. Helps clients choose appropriate icons and UI treatment.

- ``allow_once``: Allow this operation only this time.
- ``allow_always``: Allow this operation and remember the choice.
- ``reject_once``: Reject this operation only this time.
- ``reject_always``: Reject this operation and remember the choice.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class EnvVariable(Model):
    """
    An environment variable to set when launching an MCP server.
    """

    name: str
    """
    The name of the environment variable.
    """
    value: str
    """
    The value to set for the environment variable.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class TerminalOutputRequest(Model):
    """
    Request to get the current output and status of a terminal.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session ID for this request.
    """
    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    The ID of the terminal to get output from.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ReleaseTerminalRequest(Model):
    """
    Request to release a terminal and free its resources.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session ID for this request.
    """
    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    The ID of the terminal to release.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class WaitForTerminalExitRequest(Model):
    """
    Request to wait for a terminal command to exit.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session ID for this request.
    """
    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    The ID of the terminal to wait for.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class KillTerminalRequest(Model):
    """
    Request to kill a terminal without releasing it.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session ID for this request.
    """
    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    The ID of the terminal to kill.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CreateElicitationRequestFormFields(Model):
    """
    Form-based elicitation where the client renders a form from the provided schema.
    """

    message: str
    """
    A human-readable message describing what input is needed.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    mode: Literal["form"] = constant_tag("form")


class CreateElicitationRequestUrlFields(Model):
    """
    URL-based elicitation where the client directs the user to a URL.
    """

    message: str
    """
    A human-readable message describing what input is needed.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    mode: Literal["url"] = constant_tag("url")


class ElicitationSessionScope(Model):
    """
    Session-scoped elicitation, optionally tied to a specific tool call.

    When `toolCallId` is set, the elicitation is tied to a specific tool call.
    This is useful when an agent receives an elicitation from an MCP server
    during a tool call and needs to redirect it to the user.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session this elicitation is tied to.
    """
    tool_call_id: str | None = Field(
        default=None, validation_alias="toolCallId", serialization_alias="toolCallId"
    )
    """
    Optional tool call within the session.

    Optional. Omitted and `null` are equivalent and mean the elicitation is scoped to the
    session without a specific tool call.
    """


class ElicitationRequestScope(Model):
    """
    Request-scoped elicitation, tied to a specific JSON-RPC request outside of a session
    (e.g., during auth/configuration phases before any session is started).
    """

    request_id: int | str | None = Field(
        validation_alias="requestId", serialization_alias="requestId"
    )
    """
    The request this elicitation is tied to.
    """


ElicitationSchemaType: TypeAlias = Literal["object"] | UnknownValue
"""Type discriminator for elicitation schemas.

- ``object``: Object schema type.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class ElicitationPropertySchemaOther(Model):
    """
    Custom or future elicitation property schema.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Unknown values that do not begin with `_` are reserved for
    future ACP variants.

    Clients that do not understand this property schema type should preserve
    the raw schema when storing, replaying, proxying, or forwarding
    elicitation requests. They MUST NOT render it as a known input control.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow",
    )
    type: str
    """
    Custom or future elicitation property schema type.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Unknown values that do not begin with `_` are reserved for
    future ACP variants.
    """


StringFormat: TypeAlias = Literal["email", "uri", "date", "date-time"] | UnknownValue
"""String format types for string properties in elicitation schemas.

- ``email``: Email address format.
- ``uri``: URI format.
- ``date``: Date format (YYYY-MM-DD).
- ``date-time``: Date-time format (ISO 8601).

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class EnumOption(Model):
    """
    A titled enum option with a const value, human-readable title, and optional description.
    """

    const: str
    """
    The constant value for this option.
    """
    title: str
    """
    Human-readable title for this option.
    """
    description: str | None = None
    """
    Human-readable description.

    Optional. Omitted and `null` are equivalent and mean no description is provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class StringPropertySchema(Model):
    """
    Schema for string properties in an elicitation form.

    When `enum` or `oneOf` is set, this represents a single-select enum
    with `"type": "string"`.
    """

    title: str | None = None
    """
    Optional title for the property.

    Optional. Omitted and `null` are equivalent and mean no title is provided.
    """
    description: str | None = None
    """
    Human-readable description.

    Optional. Omitted and `null` are equivalent and mean no description is provided.
    """
    min_length: int | None = Field(
        default=None, validation_alias="minLength", serialization_alias="minLength", ge=0
    )
    """
    Minimum string length.

    Optional. Omitted and `null` are equivalent and mean there is no minimum length constraint.
    """
    max_length: int | None = Field(
        default=None, validation_alias="maxLength", serialization_alias="maxLength", ge=0
    )
    """
    Maximum string length.

    Optional. Omitted and `null` are equivalent and mean there is no maximum length constraint.
    """
    pattern: str | None = None
    """
    Pattern the string must match.

    Optional. Omitted and `null` are equivalent and mean there is no pattern constraint.
    """
    format: StringFormat | None = None
    """
    String format.

    Optional. Omitted and `null` are equivalent and mean there is no format constraint.
    """
    default: str | None = None
    """
    Default value.

    Optional. Omitted and `null` are equivalent and mean no default value is provided.
    """
    enum: list[str] | None = None
    """
    Enum values for untitled single-select enums.
    Optional. Omitted and `null` are equivalent and mean no untitled single-select choices are
    declared by `enum`.
    """
    one_of: list[EnumOption] | None = Field(
        default=None, validation_alias="oneOf", serialization_alias="oneOf"
    )
    """
    Titled enum options for titled single-select enums.
    Optional. Omitted and `null` are equivalent and mean no titled single-select choices are
    declared by `oneOf`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class NumberPropertySchema(Model):
    """
    Schema for number (floating-point) properties in an elicitation form.
    """

    title: str | None = None
    """
    Optional title for the property.

    Optional. Omitted and `null` are equivalent and mean no title is provided.
    """
    description: str | None = None
    """
    Human-readable description.

    Optional. Omitted and `null` are equivalent and mean no description is provided.
    """
    minimum: float | None = None
    """
    Minimum value (inclusive).

    Optional. Omitted and `null` are equivalent and mean there is no inclusive lower bound.
    """
    maximum: float | None = None
    """
    Maximum value (inclusive).

    Optional. Omitted and `null` are equivalent and mean there is no inclusive upper bound.
    """
    default: float | None = None
    """
    Default value.

    Optional. Omitted and `null` are equivalent and mean no default value is provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class IntegerPropertySchema(Model):
    """
    Schema for integer properties in an elicitation form.
    """

    title: str | None = None
    """
    Optional title for the property.

    Optional. Omitted and `null` are equivalent and mean no title is provided.
    """
    description: str | None = None
    """
    Human-readable description.

    Optional. Omitted and `null` are equivalent and mean no description is provided.
    """
    minimum: int | None = None
    """
    Minimum value (inclusive).

    Optional. Omitted and `null` are equivalent and mean there is no inclusive lower bound.
    """
    maximum: int | None = None
    """
    Maximum value (inclusive).

    Optional. Omitted and `null` are equivalent and mean there is no inclusive upper bound.
    """
    default: int | None = None
    """
    Default value.

    Optional. Omitted and `null` are equivalent and mean no default value is provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class BooleanPropertySchema(Model):
    """
    Schema for boolean properties in an elicitation form.
    """

    title: str | None = None
    """
    Optional title for the property.

    Optional. Omitted and `null` are equivalent and mean no title is provided.
    """
    description: str | None = None
    """
    Human-readable description.

    Optional. Omitted and `null` are equivalent and mean no description is provided.
    """
    default: bool | None = None
    """
    Default value.

    Optional. Omitted and `null` are equivalent and mean no default value is provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class MultiSelectItemsOther(Model):
    """
    Custom or future typed multi-select items.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow",
    )
    type: str
    """
    Custom or future multi-select item type.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Unknown values that do not begin with `_` are reserved for
    future ACP variants.
    """


class StringMultiSelectItems(Model):
    """
    String item schema for multi-select enum properties.
    """

    enum: list[str]
    """
    Allowed enum values.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class TitledMultiSelectItems(Model):
    """
    Items definition for titled multi-select enum properties.
    """

    any_of: list[EnumOption] = Field(validation_alias="anyOf", serialization_alias="anyOf")
    """
    Titled enum options.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ElicitationId(RootModel[str]):
    root: str
    """
    Unique identifier for an elicitation.
    """


class ElicitationUrlModeSession(ElicitationSessionScope):
    """
    Tied to a session, optionally to a specific tool call within that session.
    """

    elicitation_id: str = Field(
        validation_alias="elicitationId", serialization_alias="elicitationId"
    )
    """
    The unique identifier for this elicitation.
    """
    url: Url
    """
    The URL to direct the user to.
    """


class ElicitationUrlModeRequest(ElicitationRequestScope):
    """
    Tied to a specific JSON-RPC request outside of a session
    (e.g., during auth/configuration phases before any session is started).
    """

    elicitation_id: str = Field(
        validation_alias="elicitationId", serialization_alias="elicitationId"
    )
    """
    The unique identifier for this elicitation.
    """
    url: Url
    """
    The URL to direct the user to.
    """


class ExtRequest(RootModel[Any]):
    root: Any
    """
    Allows for sending an arbitrary request that is not part of the ACP spec.
    Extension methods provide a way to add custom functionality while maintaining
    protocol compatibility.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class PromptCapabilities(Model):
    """
    Prompt capabilities supported by the agent in `session/prompt` requests.

    Baseline agent functionality requires support for `text`
    and `resource_link` content blocks in prompt requests.

    Other variants must be explicitly opted in to.
    Capabilities for different types of content in prompt requests.

    Indicates which content types beyond the baseline (text and resource links)
    the agent can process.

    See protocol docs: [Prompt Capabilities](https://agentclientprotocol.com/protocol/v1/draft/initialization#prompt-capabilities)
    """

    image: bool | None = False
    """
    Agent supports `image` content blocks.
    """
    audio: bool | None = False
    """
    Agent supports `audio` content blocks.
    """
    embedded_context: bool | None = Field(
        default=False, validation_alias="embeddedContext", serialization_alias="embeddedContext"
    )
    """
    Agent supports embedded context in `session/prompt` requests.

    When enabled, the Client is allowed to include `resource` content blocks
    in prompt requests for pieces of context that are referenced in the message.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class McpCapabilities(Model):
    """
    MCP capabilities supported by the agent
    """

    http: bool | None = False
    """
    Agent supports `http` MCP servers.
    """
    sse: bool | None = False
    """
    Agent supports `sse` MCP servers.
    """
    acp: bool | None = False
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Agent supports `acp` MCP servers.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionListCapabilities(Model):
    """
    Capabilities for the `session/list` method.

    Supplying `{}` means the agent supports listing sessions.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionDeleteCapabilities(Model):
    """
    Capabilities for the `session/delete` method.

    Supplying `{}` means the agent supports deleting sessions from `session/list`.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionAdditionalDirectoriesCapabilities(Model):
    """
    Capabilities for additional session directories support.

    Supplying `{}` means the agent supports the `additionalDirectories` field on
    supported session lifecycle requests. Agents that also support
    `session/list` may return `SessionInfo.additionalDirectories` to report the
    complete ordered additional-root list associated with a listed session.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionSystemPromptOverrideCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Capabilities for the `override` system prompt mode.

    Supplying `{}` means the agent supports replacing its built-in default
    instructions with the client-provided system prompt.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionForkCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Capabilities for the `session/fork` method.

    Supplying `{}` means the agent supports forking sessions.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionArchiveCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Capabilities for `session/archive` and `session/unarchive`.

    Supplying `{}` means the agent supports both methods, the `archived` filter on
    `session/list`, and `SessionInfo.archived`.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionStatusCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Capabilities for the `session/status` method.

    Supplying `{}` means the agent supports checking session status.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionTitleCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Capabilities for Client-set session titles.

    Supplying `{}` means the agent supports `session/set_title`. Agents report titles
    through `session/list` and `session_info_update` without this capability.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionResumeCapabilities(Model):
    """
    Capabilities for the `session/resume` method.

    Supplying `{}` means the agent supports resuming sessions.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionCloseCapabilities(Model):
    """
    Capabilities for the `session/close` method.

    Supplying `{}` means the agent supports closing sessions.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthStatusCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Auth status capabilities supported by the agent.

    Supplying `{}` means the agent supports the `auth/status` method.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class LogoutCapabilities(Model):
    """
    Logout capabilities supported by the agent.

    Supplying `{}` means the agent supports the logout method.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ProvidersCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Provider configuration capabilities supported by the agent.

    Supplying `{}` means the agent supports provider configuration methods.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthMethodTerminal(Model):
    """
    Terminal-based authentication method.

    The client runs the configured agent program as a separate interactive
    process for the user to authenticate via a TUI. Agents MUST advertise this
    method only when the client enabled its terminal authentication capability.
    A zero exit status signals success. Any other termination signals failure.
    The client MUST NOT pass this method to `authenticate`.
    """

    id: str
    """
    Unique identifier for this authentication method.
    """
    name: str
    """
    Human-readable name of the authentication method.
    """
    description: str | None = None
    """
    Optional human-readable description of this authentication method.
    """
    args: list[str] | None = None
    """
    Additional arguments to append to the configured agent invocation for terminal auth.
    """
    env: dict[str, str] | None = None
    """
    Additional environment variables to set on the configured agent invocation for terminal auth.
    These values override same-named variables in the base launch configuration.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthMethodAgent(Model):
    """
    Agent handles authentication itself through `authenticate`.

    This is the default authentication method type.
    """

    id: str
    """
    Unique identifier for this authentication method.
    """
    name: str
    """
    Human-readable name of the authentication method.
    """
    description: str | None = None
    """
    Optional human-readable description of this authentication method.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class Implementation(Model):
    """
    Metadata about the implementation of the client or agent.
    Describes the name and version of an ACP implementation, with an optional
    title for UI representation.
    """

    name: str
    """
    Intended for programmatic or logical use, but can be used as a display
    name fallback if title isn't present.
    """
    title: str | None = None
    """
    Intended for UI and end-user contexts and optimized to be human-readable
    and easily understood.

    If not provided, the name should be used for display.
    """
    version: str
    """
    Version of the implementation. Can be displayed to the user or used
    for debugging or metrics purposes. (e.g. "1.0.0").
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthenticateResponse(Model):
    """
    Response to the `authenticate` method.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ProviderCurrentConfig(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Current effective non-secret routing configuration for a provider.
    """

    api_type: (
        Literal["anthropic"]
        | Literal["openai"]
        | Literal["azure"]
        | Literal["vertex"]
        | Literal["bedrock"]
        | str
    ) = Field(validation_alias="apiType", serialization_alias="apiType")
    """
    Protocol currently used by this provider.
    """
    base_url: str = Field(validation_alias="baseUrl", serialization_alias="baseUrl")
    """
    Base URL currently used by this provider.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SetProviderResponse(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Response to `providers/set`.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class DisableProviderResponse(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Response to `providers/disable`.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class LogoutResponse(Model):
    """
    Response to the `logout` method.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthAccount(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    An account or credential the agent has configured, such as a signed-in user
    account or an API key.

    All fields are display information only. Clients MUST NOT use them as stable
    account identifiers, and SHOULD NOT log them or send them elsewhere, such as to
    telemetry.
    """

    label: str
    """
    Human-readable name for the account, suitable for display on its own,
    for example `Claude Max`, `OpenAI API key`, or `Vertex AI`.
    """
    active: bool | None = None
    """
    Whether the agent currently uses this account by default.

    Several accounts MAY be active, for example one per provider.

    Optional. Omitted and `null` are equivalent and mean the agent does not indicate whether this account is in effect.
    """
    name: str | None = None
    """
    Display name of the user, such as a username or full name.

    Optional. Omitted and `null` are equivalent and mean no name is reported.
    """
    email: str | None = None
    """
    Email address of the user.

    Optional. Omitted and `null` are equivalent and mean no email is reported.
    """
    organization: str | None = None
    """
    Display name of the organization, team, or workspace the account is using.

    Optional. Omitted and `null` are equivalent and mean no organization is reported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionMode(Model):
    """
    A mode the agent can operate in.

    See protocol docs: [Session Modes](https://agentclientprotocol.com/protocol/v1/draft/session-modes)
    """

    id: str
    """
    Stable identifier used to refer to this protocol object in later messages.
    """
    name: str
    """
    Human-readable name shown for this protocol object.
    """
    description: str | None = None
    """
    Optional human-readable details shown with this protocol object.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionConfigSelectOption(Model):
    """
    A possible value for a session configuration option.
    """

    value: str
    """
    Unique identifier for this option value.
    """
    name: str
    """
    Human-readable label for this option value.
    """
    description: str | None = None
    """
    Optional description for this option value.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionConfigBoolean(Model):
    """
    A boolean on/off toggle session configuration option payload.
    """

    current_value: bool = Field(validation_alias="currentValue", serialization_alias="currentValue")
    """
    The current value of the boolean option.
    """


class SessionInfo(Model):
    """
    Information about a session returned by session/list
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    Unique identifier for the session
    """
    cwd: str
    """
    The working directory for this session. Must be an absolute path.
    """
    additional_directories: list[str] | None = Field(
        default=None,
        validation_alias="additionalDirectories",
        serialization_alias="additionalDirectories",
    )
    """
    Additional workspace roots reported for this session. Each path must be absolute.

    When present, this is the complete ordered additional-root list reported
    by the Agent. Omitted and empty values are equivalent: the response
    reports no additional roots.
    """
    title: str | None = None
    """
    Human-readable title for the session
    """
    updated_at: str | None = Field(
        default=None, validation_alias="updatedAt", serialization_alias="updatedAt"
    )
    """
    ISO 8601 timestamp of last activity
    """
    archived: bool | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Whether the session is archived.

    Optional. Omitted and `null` are equivalent and mean the archive state is not reported.
    Agents that advertise the `sessionCapabilities.archive` capability MUST include it on every listed session.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class DeleteSessionResponse(Model):
    """
    Response from deleting a session.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ArchiveSessionResponse(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Response from archiving a session.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class UnarchiveSessionResponse(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Response from unarchiving a session.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SetSessionTitleResponse(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Response from setting the title of a session.
    """

    title: str
    """
    The title the Agent stored.

    This differs from the requested title if the Agent normalized it. Clients SHOULD
    display this value rather than the one they sent.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CloseSessionResponse(Model):
    """
    Response from closing a session.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SetSessionModeResponse(Model):
    """
    Response to `session/set_mode` method.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


StopReason: TypeAlias = (
    Literal["end_turn", "max_tokens", "max_turn_requests", "refusal", "cancelled"] | UnknownValue
)
"""Reasons why an agent stops processing a prompt turn. See protocol docs: [Stop Reasons](https://agentclientprotocol.com/protocol/v1/draft/prompt-turn#stop-reasons)

- ``end_turn``: The turn ended successfully.
- ``max_tokens``: The turn ended because the agent reached the maximum number of tokens.
- ``max_turn_requests``: The turn ended because the agent reached the maximum number of allowed agent requests between user turns.
- ``refusal``: The turn ended because the agent refused to continue. The user prompt and everything that comes after it won't be included in the next prompt, so this should be reflected in the UI.
- ``cancelled``: The turn was cancelled by the client via `session/cancel`. This stop reason MUST be returned when the client sends a `session/cancel` notification, even if the cancellation causes exceptions in underlying operations. Agents should catch these exceptions and return this semantically meaningful response to confirm successful cancellation.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class Usage(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Token usage information for a prompt turn.
    """

    total_tokens: int = Field(
        validation_alias="totalTokens", serialization_alias="totalTokens", ge=0
    )
    """
    Sum of all token types across session.
    """
    input_tokens: int = Field(
        validation_alias="inputTokens", serialization_alias="inputTokens", ge=0
    )
    """
    Total input tokens across all turns.
    """
    output_tokens: int = Field(
        validation_alias="outputTokens", serialization_alias="outputTokens", ge=0
    )
    """
    Total output tokens across all turns.
    """
    thought_tokens: int | None = Field(
        default=None, validation_alias="thoughtTokens", serialization_alias="thoughtTokens", ge=0
    )
    """
    Total thought/reasoning tokens
    """
    cached_read_tokens: int | None = Field(
        default=None,
        validation_alias="cachedReadTokens",
        serialization_alias="cachedReadTokens",
        ge=0,
    )
    """
    Total cache read tokens.
    """
    cached_write_tokens: int | None = Field(
        default=None,
        validation_alias="cachedWriteTokens",
        serialization_alias="cachedWriteTokens",
        ge=0,
    )
    """
    Total cache write tokens.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ExtResponse(RootModel[Any]):
    root: Any
    """
    Allows for sending an arbitrary response to an extension request that is not part of the ACP spec.
    Extension methods provide a way to add custom functionality while maintaining
    protocol compatibility.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


PlanEntryPriority: TypeAlias = Literal["high", "medium", "low"] | UnknownValue
"""Priority levels for plan entries. Used to indicate the relative importance or urgency of different tasks in the execution plan. See protocol docs: [Plan Entries](https://agentclientprotocol.com/protocol/v1/draft/agent-plan#plan-entries)

- ``high``: High priority task - critical to the overall goal.
- ``medium``: Medium priority task - important but not critical.
- ``low``: Low priority task - nice to have but not essential.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


PlanEntryStatus: TypeAlias = Literal["pending", "in_progress", "completed"] | UnknownValue
"""Status of a plan entry in the execution flow. Tracks the lifecycle of each task from planning through completion. See protocol docs: [Plan Entries](https://agentclientprotocol.com/protocol/v1/draft/agent-plan#plan-entries)

- ``pending``: The task has not started yet.
- ``in_progress``: The task is currently being worked on.
- ``completed``: The task has been successfully completed.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class PlanFile(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    A plan represented by a file URI.
    """

    plan_id: str = Field(validation_alias="planId", serialization_alias="planId")
    """
    The plan ID to update.
    """
    uri: str
    """
    The URI of the file containing the plan.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class PlanMarkdown(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    A plan represented as raw markdown content.
    """

    plan_id: str = Field(validation_alias="planId", serialization_alias="planId")
    """
    The plan ID to update.
    """
    content: str
    """
    Markdown content for the plan.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class PlanRemoved(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Removal notice for a plan identified by ID.
    """

    plan_id: str = Field(validation_alias="planId", serialization_alias="planId")
    """
    The plan ID to remove.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class UnstructuredCommandInput(Model):
    """
    All text that was typed after the command name is provided as input.
    """

    hint: str
    """
    A hint to display when the input hasn't been provided yet
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CurrentModeUpdate(Model):
    """
    The current mode of the session has changed

    See protocol docs: [Session Modes](https://agentclientprotocol.com/protocol/v1/draft/session-modes)
    """

    current_mode_id: str = Field(
        validation_alias="currentModeId", serialization_alias="currentModeId"
    )
    """
    The ID of the current mode
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionInfoUpdate(Model):
    """
    Update to session metadata. All fields are optional to support partial updates.

    Agents send this notification to update session information like title or custom metadata.
    Clients can use it to keep session titles and state current.
    """

    title: str | None = None
    """
    Human-readable title for the session. Set to null to clear.
    """
    updated_at: str | None = Field(
        default=None, validation_alias="updatedAt", serialization_alias="updatedAt"
    )
    """
    ISO 8601 timestamp of last activity. Set to null to clear.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class Cost(Model):
    """
    Cost information for a session.
    """

    amount: float
    """
    Total cumulative cost for session.
    """
    currency: str
    """
    Unit of `amount`: an ISO 4217 currency code (e.g., "USD", "EUR") for money, or another
    unit such as "credits".
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class UsageUpdate(Model):
    """
    Context window and cost update for a session.
    """

    used: int = Field(ge=0)
    """
    Tokens currently in context.
    """
    size: int = Field(ge=0)
    """
    Total context window size in tokens.
    """
    cost: Cost | None = None
    """
    Cumulative session cost (optional).
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class Notice(Model):
    """
    Fire-and-forget information for the user.

    Notices are live events rather than session history. Agents must not rely on
    a notice being received, displayed, or seen by the user.
    Agents MUST only send notices when the Client advertised
    the `session.notices` Client capability. Otherwise, Agents may use an agent
    message when the information should still be surfaced to the user.

    See RFD: [Session Notices](https://agentclientprotocol.com/rfds/session-notices)
    """

    severity: Literal["info"] | Literal["warning"] | Literal["error"] | str
    """
    Presentation severity hint.
    """
    title: str = Field(min_length=1)
    """
    Required non-empty plain-text title that can stand alone.
    """
    description: str | None = None
    """
    Optional plain-text detail or guidance.

    Omitted and `null` are equivalent and mean no description was supplied.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    Metadata scoped to this notice.

    Omitted and `null` are equivalent and mean no metadata was supplied.
    """


class SessionCancelCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Capability to cancel work in a subagent session without ending that session.

    Supplying `{}` advertises support. An omitted or `null` `cancel` does not.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class IdleStateUpdateEndTurn(Model):
    """
    The work ended successfully.
    """

    usage: Usage | None = None
    """
    **UNSTABLE** Token usage for completed foreground work.

    Optional. Omitted or `null` means not reported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """
    stop_reason: Literal["end_turn"] = constant_tag(
        "end_turn", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted or `null` both mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Current work state](https://agentclientprotocol.com/rfds/subagents#current-work-state)
    """


class IdleStateUpdateMaxTokens(Model):
    """
    The work ended because the agent reached the maximum number of tokens.
    """

    usage: Usage | None = None
    """
    **UNSTABLE** Token usage for completed foreground work.

    Optional. Omitted or `null` means not reported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """
    stop_reason: Literal["max_tokens"] = constant_tag(
        "max_tokens", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted or `null` both mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Current work state](https://agentclientprotocol.com/rfds/subagents#current-work-state)
    """


class IdleStateUpdateMaxTurnRequests(Model):
    """
    The work ended because the agent reached the maximum number of allowed
    agent requests.
    """

    usage: Usage | None = None
    """
    **UNSTABLE** Token usage for completed foreground work.

    Optional. Omitted or `null` means not reported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """
    stop_reason: Literal["max_turn_requests"] = constant_tag(
        "max_turn_requests", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted or `null` both mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Current work state](https://agentclientprotocol.com/rfds/subagents#current-work-state)
    """


class IdleStateUpdateRefusal(Model):
    """
    The work ended because the agent refused to continue.
    """

    usage: Usage | None = None
    """
    **UNSTABLE** Token usage for completed foreground work.

    Optional. Omitted or `null` means not reported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """
    stop_reason: Literal["refusal"] = constant_tag(
        "refusal", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted or `null` both mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Current work state](https://agentclientprotocol.com/rfds/subagents#current-work-state)
    """


class IdleStateUpdateCancelled(Model):
    """
    The work was cancelled.
    """

    usage: Usage | None = None
    """
    **UNSTABLE** Token usage for completed foreground work.

    Optional. Omitted or `null` means not reported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """
    stop_reason: Literal["cancelled"] = constant_tag(
        "cancelled", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted or `null` both mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Current work state](https://agentclientprotocol.com/rfds/subagents#current-work-state)
    """


class IdleStateUpdateOther(Model):
    """
    Custom or future stop reason.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Other unknown values are reserved for future ACP variants.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow",
    )
    usage: Usage | None = None
    """
    **UNSTABLE** Token usage for completed foreground work.

    Optional. Omitted or `null` means not reported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """
    stop_reason: str = Field(validation_alias="stopReason", serialization_alias="stopReason")
    """
    Unrecognized stop reason.
    """


class IdleStateUpdateNone(Model):
    """
    No stop reason: `stopReason` is omitted or `null`.
    """

    usage: Usage | None = None
    """
    **UNSTABLE** Token usage for completed foreground work.

    Optional. Omitted or `null` means not reported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """
    stop_reason: None = Field(
        default=None, validation_alias="stopReason", serialization_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted or `null` both mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Current work state](https://agentclientprotocol.com/rfds/subagents#current-work-state)
    """


class StateUpdateIdleFields(Model):
    """
    The child is ready to process another prompt.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleEndTurn(IdleStateUpdateEndTurn, StateUpdateIdleFields):
    """
    The child is ready to process another prompt.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleMaxTokens(IdleStateUpdateMaxTokens, StateUpdateIdleFields):
    """
    The child is ready to process another prompt.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleMaxTurnRequests(IdleStateUpdateMaxTurnRequests, StateUpdateIdleFields):
    """
    The child is ready to process another prompt.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleRefusal(IdleStateUpdateRefusal, StateUpdateIdleFields):
    """
    The child is ready to process another prompt.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleCancelled(IdleStateUpdateCancelled, StateUpdateIdleFields):
    """
    The child is ready to process another prompt.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleOther(IdleStateUpdateOther, StateUpdateIdleFields):
    """
    The child is ready to process another prompt.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleNone(IdleStateUpdateNone, StateUpdateIdleFields):
    """
    The child is ready to process another prompt.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateOther(Model):
    """
    Custom or future state.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Other unknown values are reserved for future ACP variants.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow",
    )
    state: str
    """
    Unrecognized state discriminator.
    """


class RunningStateUpdate(Model):
    """
    Foreground work is in progress.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """


class RequiresActionStateUpdate(Model):
    """
    Foreground work is blocked on user action.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """


class UnknownStateUpdate(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    The Agent cannot currently determine foreground activity.

    Report this when activity becomes unobservable, not merely because the child
    has been quiet. The Client MUST stop presenting the previous state as confirmed
    current activity, but may retain it as last known. A later state replaces this
    snapshot normally.

    This is not a task outcome or session closure. It does not cancel work, resolve
    pending requests, or revoke capabilities. Capabilities are updated separately.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """


class CompleteElicitationNotification(Model):
    """
    Notification sent by the agent when a URL-based elicitation is complete.
    """

    elicitation_id: str = Field(
        validation_alias="elicitationId", serialization_alias="elicitationId"
    )
    """
    The ID of the elicitation that completed.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthStatusUpdateNotification(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Notification sent by the agent when its authentication status changes.

    Carries the same fields as the `auth/status` response. Agents that advertise the
    `auth.status` capability MAY send it at any time after `initialize`, and SHOULD only
    send it when the reported status differs from the last one sent on the connection.
    """

    state: (
        Literal["authenticated"]
        | Literal["unauthenticated"]
        | Literal["not_required"]
        | Literal["unknown"]
        | str
    )
    """
    Whether the agent can start sessions without the user signing in first.

    This is the only field clients should act on. Clients MUST treat values they
    do not recognize as `unknown`.
    """
    accounts: list[AuthAccount] | None = None
    """
    The accounts the agent has configured, for display.

    Optional. Omitted and empty are equivalent and mean no accounts are reported.
    Agents that hold credentials for several providers or accounts SHOULD list each
    of them and mark the ones in effect with `active`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ExtNotification(RootModel[Any]):
    root: Any
    """
    Allows either side to send an arbitrary notification that is not part of the ACP spec.
    Extension notifications provide a way to send one-way messages for custom functionality
    while maintaining protocol compatibility.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class FileSystemCapabilities(Model):
    """
    File system capabilities that a client may support.

    See protocol docs: [FileSystem](https://agentclientprotocol.com/protocol/v1/draft/initialization#filesystem)
    """

    read_text_file: bool | None = Field(
        default=False, validation_alias="readTextFile", serialization_alias="readTextFile"
    )
    """
    Whether the Client supports `fs/read_text_file` requests.
    """
    write_text_file: bool | None = Field(
        default=False, validation_alias="writeTextFile", serialization_alias="writeTextFile"
    )
    """
    Whether the Client supports `fs/write_text_file` requests.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CompactionCapabilities(Model):
    """
    Client support for ID-addressed context compaction updates.
    """


class BooleanConfigOptionCapabilities(Model):
    """
    Capabilities for boolean session configuration options.

    Supplying `{}` means the client supports boolean session configuration options.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class NoticeCapabilities(Model):
    """
    Client support for presenting live notices to the user.
    """


class SubagentCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Capability marker for exposing reusable child sessions as restricted ACP sessions.

    Supplying `{}` advertises support for child association and state updates,
    session-directed messages, and restricted-session semantics. The client
    must advertise this capability before the agent sends subagent updates or
    session-directed messages.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.
    """


class PlanCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Capabilities for receiving `plan_update` and `plan_removed` session updates.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthCapabilities(Model):
    """
    Authentication capabilities supported by the client.

    Advertised during initialization to inform the agent which authentication
    method types the client can handle. This governs opt-in types that require
    additional client-side support.
    """

    terminal: bool | None = False
    """
    Whether the client supports `terminal` authentication methods.

    The client should set this to `true` only when it can reproduce the
    configured agent invocation in an interactive terminal. When `true`, the
    agent may include `terminal` entries in its authentication methods.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ElicitationFormCapabilities(Model):
    """
    Form-based elicitation capabilities.

    Supplying `{}` means the client supports form-based elicitation.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ElicitationUrlCapabilities(Model):
    """
    URL-based elicitation capabilities.

    Supplying `{}` means the client supports URL-based elicitation.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthenticateRequest(Model):
    """
    Request parameters for the authenticate method.

    Specifies which authentication method to use.
    """

    method_id: str = Field(validation_alias="methodId", serialization_alias="methodId")
    """
    The ID of the authentication method to use.
    Must be one of the methods advertised in the initialize response.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ListProvidersRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for `providers/list`.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SetProviderRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for `providers/set`.

    Replaces the full configuration for one provider ID.
    """

    provider_id: str = Field(validation_alias="providerId", serialization_alias="providerId")
    """
    Provider ID to configure.
    """
    api_type: (
        Literal["anthropic"]
        | Literal["openai"]
        | Literal["azure"]
        | Literal["vertex"]
        | Literal["bedrock"]
        | str
    ) = Field(validation_alias="apiType", serialization_alias="apiType")
    """
    Protocol type for this provider.
    """
    base_url: str = Field(validation_alias="baseUrl", serialization_alias="baseUrl")
    """
    Base URL for requests sent through this provider.
    """
    headers: dict[str, str] | None = None
    """
    Full headers map for this provider.
    May include authorization, routing, or other integration-specific headers.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class DisableProviderRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for `providers/disable`.
    """

    provider_id: str = Field(validation_alias="providerId", serialization_alias="providerId")
    """
    Provider ID to disable.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class LogoutRequest(Model):
    """
    Request parameters for the logout method.

    Terminates the current authenticated session.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthStatusRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for the `auth/status` method.

    Queries the agent's current authentication state without changing it.

    Agents MUST NOT reject it with `auth_required` (`-32000`), since Clients call it to learn
    whether authentication is required.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class HttpHeader(Model):
    """
    An HTTP header to set when making requests to the MCP server.
    """

    name: str
    """
    The name of the HTTP header.
    """
    value: str
    """
    The value to set for the HTTP header.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class McpServerHttp(Model):
    """
    HTTP transport configuration for MCP.
    """

    name: str
    """
    Human-readable name identifying this MCP server.
    """
    url: str
    """
    URL to the MCP server.
    """
    headers: list[HttpHeader]
    """
    HTTP headers to set when making requests to the MCP server.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class McpServerSse(Model):
    """
    SSE transport configuration for MCP.
    """

    name: str
    """
    Human-readable name identifying this MCP server.
    """
    url: str
    """
    URL to the MCP server.
    """
    headers: list[HttpHeader]
    """
    HTTP headers to set when making requests to the MCP server.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class McpServerAcp(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    ACP transport configuration for MCP.

    The MCP server is provided by an ACP component and communicates over the ACP channel
    using `mcp/message`.
    """

    name: str
    """
    Human-readable name identifying this MCP server.
    """
    server_id: str = Field(validation_alias="serverId", serialization_alias="serverId")
    """
    Unique identifier for this MCP server, generated by the component providing it.

    Providers MUST NOT reuse an ID for multiple ACP-transport MCP servers that are visible
    on the same ACP connection.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class McpServerStdio(Model):
    """
    Stdio transport configuration for MCP.
    """

    name: str
    """
    Human-readable name identifying this MCP server.
    """
    command: str
    """
    Absolute path to the MCP server executable.
    """
    args: list[str]
    """
    Command-line arguments to pass to the MCP server.
    """
    env: list[EnvVariable]
    """
    Environment variables to set when launching the MCP server.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class DeleteSessionRequest(Model):
    """
    Request parameters for deleting an existing session from `session/list`.

    Only available if the Agent supports the `sessionCapabilities.delete` capability.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to delete.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ArchiveSessionRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for archiving a session.

    Only available if the Agent supports the `sessionCapabilities.archive` capability.

    Archiving hides the session from default `session/list` results. It keeps the session ID
    and saved history. If the session is active, the Agent MUST cancel any ongoing work and
    free the session's resources as if `session/close` had been called, then archive it.
    Archiving an archived session succeeds. A session that does not exist gets `-32002`.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to archive.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class UnarchiveSessionRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for unarchiving a session.

    Only available if the Agent supports the `sessionCapabilities.archive` capability.

    Unarchiving returns the session to default `session/list` results with the same ID and
    saved history. It never loads or resumes the session. Clients that want to continue an
    archived session SHOULD unarchive it before calling `session/load` or `session/resume`.
    Unarchiving a session that is not archived succeeds. A session that does not exist
    gets `-32002`.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to unarchive.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionStatusRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for checking the status of a session.

    Only available if the Agent supports the `sessionCapabilities.status` capability.

    `session/status` MUST NOT have side effects. The Agent does not load, resume, create,
    close, or change the session, and does not attach the requesting connection to it.
    A session the Agent does not know gets `-32002` with the requested `sessionId` in `data`.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to check.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SetSessionTitleRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for setting the title of a session.

    Only available if the Agent supports the `sessionCapabilities.title` capability.

    The session does not need to be active on the connection. Any session the Agent would
    return from `session/list` can be retitled. A session that does not exist gets `-32002`.

    The Agent responds only after it has stored the title. After a successful response, the
    Agent SHOULD NOT replace the title with one it generates automatically.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to retitle.
    """
    title: str
    """
    The new title for the session.

    Required and non-null. Omission and explicit `null` are both invalid. The Agent MAY
    normalize the title before storing it, for example by trimming whitespace or
    truncating it. The Agent rejects a title that fails its validation, including one
    that is empty after normalization, with `-32602`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CloseSessionRequest(Model):
    """
    Request parameters for closing an active session.

    If supported, the agent **must** cancel any ongoing work related to the session
    (treat it as if `session/cancel` was called) and then free up any resources
    associated with the session.

    Only available if the Agent supports the `sessionCapabilities.close` capability.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to close.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SetSessionModeRequest(Model):
    """
    Request parameters for setting a session mode.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to set the mode for.
    """
    mode_id: str = Field(validation_alias="modeId", serialization_alias="modeId")
    """
    The ID of the mode to set.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SetSessionConfigOptionRequestBoolean(Model):
    """
    A boolean value (`type: "boolean"`).
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to set the configuration option for.
    """
    config_id: str = Field(validation_alias="configId", serialization_alias="configId")
    """
    The ID of the configuration option to set.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    type: Literal["boolean"] = constant_tag("boolean")
    value: bool
    """
    The boolean value.
    """


class SetSessionConfigOptionRequestValueId(Model):
    """
    A `SessionConfigValueId` string value.

    This is the default when `type` is absent on the wire. Unknown `type`
    values with string payloads also gracefully deserialize into this
    variant.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to set the configuration option for.
    """
    config_id: str = Field(validation_alias="configId", serialization_alias="configId")
    """
    The ID of the configuration option to set.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    value: str
    """
    The value ID.
    """


class SetSessionConfigOptionRequest(
    RootModel[
        Annotated[
            Annotated[SetSessionConfigOptionRequestBoolean, Tag("boolean")]
            | Annotated[SetSessionConfigOptionRequestValueId, Tag(UNTAGGED)],
            by_tag("type", ("boolean",)),
        ]
    ]
):
    root: Annotated[
        Annotated[SetSessionConfigOptionRequestBoolean, Tag("boolean")]
        | Annotated[SetSessionConfigOptionRequestValueId, Tag(UNTAGGED)],
        by_tag("type", ("boolean",)),
    ]
    """
    Request parameters for setting a session configuration option.
    """


class WriteTextFileResponse(Model):
    """
    Response to `fs/write_text_file`
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ReadTextFileResponse(Model):
    """
    Response containing the contents of a text file.
    """

    content: str
    """
    Content payload returned by this response.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class RequestPermissionOutcomeCancelled(Model):
    """
    The prompt turn was cancelled before the user responded.

    When a client sends a `session/cancel` notification to cancel an ongoing
    prompt turn, it MUST respond to all pending `session/request_permission`
    requests with this `cancelled` outcome.

    See protocol docs: [Cancellation](https://agentclientprotocol.com/protocol/v1/draft/prompt-turn#cancellation)
    """

    outcome: Literal["cancelled"] = constant_tag("cancelled")


class SelectedPermissionOutcome(Model):
    """
    The user selected one of the provided options.
    """

    option_id: str = Field(validation_alias="optionId", serialization_alias="optionId")
    """
    The ID of the option the user selected.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CreateTerminalResponse(Model):
    """
    Response containing the ID of the created terminal.
    """

    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    The unique identifier for the created terminal.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class TerminalExitStatus(Model):
    """
    Exit status of a terminal command.
    """

    exit_code: int | None = Field(
        default=None, validation_alias="exitCode", serialization_alias="exitCode", ge=0
    )
    """
    The process exit code (may be null if terminated by signal).
    """
    signal: str | None = None
    """
    The signal that terminated the process (may be null if exited normally).
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ReleaseTerminalResponse(Model):
    """
    Response to terminal/release method
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class WaitForTerminalExitResponse(Model):
    """
    Response containing the exit status of a terminal command.
    """

    exit_code: int | None = Field(
        default=None, validation_alias="exitCode", serialization_alias="exitCode", ge=0
    )
    """
    The process exit code (may be null if terminated by signal).
    """
    signal: str | None = None
    """
    The signal that terminated the process (may be null if exited normally).
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class KillTerminalResponse(Model):
    """
    Response to `terminal/kill` method
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CreateElicitationResponseDecline(Model):
    """
    The user declined the elicitation.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    action: Literal["decline"] = constant_tag("decline")


class CreateElicitationResponseCancel(Model):
    """
    The elicitation was cancelled.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    action: Literal["cancel"] = constant_tag("cancel")


class CreateElicitationResponseOther(Model):
    """
    Custom or future elicitation action.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Unknown values that do not begin with `_` are reserved for
    future ACP variants.

    Agents that do not understand this action should preserve the raw
    payload when storing, replaying, proxying, or forwarding elicitation
    responses. They MUST NOT treat it as a known elicitation action.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow",
    )
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    action: str
    """
    Custom or future elicitation action.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Unknown values that do not begin with `_` are reserved for
    future ACP variants.
    """


class ElicitationAcceptAction(Model):
    """
    The user accepted the elicitation and provided content.
    """

    content: dict[str, Any] | None = None
    """
    The user-provided content, if any, as an object matching the requested schema.
    """


class MessageMcpResponseResult(Model):
    """
    An opaque inner MCP result.
    """

    result: Any
    """
    Required, even if JSON null.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    Optional ACP carrier metadata.
    """


class McpError(Model):
    """
    **UNSTABLE**

    An inner MCP error, distinct from an outer ACP binding or runtime error.

    `code` and `message` are required and non-null. `data` is optional.
    Explicit `null` is preserved separately from an omitted key.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow",
    )
    code: int
    """
    Inner MCP error code. Never an ACP error code.
    """
    message: str
    """
    Inner MCP error message.
    """
    data: Any | None = None
    """
    Optional error data. Explicit null is retained.
    """


class CancelNotification(Model):
    """
    Notification to cancel ongoing operations for a session.

    See protocol docs: [Cancellation](https://agentclientprotocol.com/protocol/v1/draft/prompt-turn#cancellation)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to cancel operations for.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class MessageMcpNotification(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Notification parameters for `mcp/message`.

    Sent by the provider to the consumer for an active request (including
    subscription acknowledgements and updates). The outer envelope has no `id`.
    """

    server_id: str = Field(validation_alias="serverId", serialization_alias="serverId")
    """
    The declared ACP MCP server handling the associated request.
    """
    request_id: str = Field(validation_alias="requestId", serialization_alias="requestId")
    """
    The identifier of the active inner MCP request.
    """
    method: str
    """
    The inner MCP method name.
    """
    params: dict[str, Any] | None = None
    """
    Optional inner MCP params.

    If omitted or set to `null`, the inner MCP message has no params.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CancelRequestNotification(Model):
    """
    Notification to cancel an ongoing request.

    See protocol docs: [Cancellation](https://agentclientprotocol.com/protocol/v1/draft/cancellation)
    """

    request_id: int | str | None = Field(
        validation_alias="requestId", serialization_alias="requestId"
    )
    """
    The ID of the request to cancel.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ProxySuccessorRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Parameters of a `proxy/successor` request.

    A proxy sends it to forward a message to its successor, and the conductor sends it to
    deliver a message from the successor to the proxy. The envelope wraps one request: `method`
    and `params` are the wrapped request's method and params.

    The result or error of the wrapped request is returned unchanged, as the same JSON value,
    as the result or error of the `proxy/successor` request. Errors the conductor returns
    itself, for example because the successor has exited, are not wrapped results.

    To cancel it, the sender sends `$/cancel_request` with the ID of this `proxy/successor`
    request on the same connection. Cancellation is never forwarded to another hop.

    See the [Proxy Chains RFD](https://agentclientprotocol.com/rfds/proxy-chains).
    """

    method: str
    """
    Method name of the wrapped request.
    """
    params: Any | None = None
    """
    Params of the wrapped request, forwarded unchanged.

    Optional. Omitted and `null` are equivalent and mean the wrapped request has no params.
    When present, it MUST be a JSON object or array, as JSON-RPC requires.
    The wrapped request's own `_meta` stays inside these params.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    Metadata for the `proxy/successor` envelope itself, separate from the wrapped
    message's `_meta`. It is hop-local: the conductor does not copy it into the message
    it unwraps.

    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ProxySuccessorNotification(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Parameters of a `proxy/successor` notification.

    A proxy sends it to forward a message to its successor, and the conductor sends it to
    deliver a message from the successor to the proxy. The envelope wraps one notification: `method`
    and `params` are the wrapped notification's method and params.

    See the [Proxy Chains RFD](https://agentclientprotocol.com/rfds/proxy-chains).
    """

    method: str
    """
    Method name of the wrapped notification.
    """
    params: Any | None = None
    """
    Params of the wrapped notification, forwarded unchanged.

    Optional. Omitted and `null` are equivalent and mean the wrapped notification has no params.
    When present, it MUST be a JSON object or array, as JSON-RPC requires.
    The wrapped notification's own `_meta` stays inside these params.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    Metadata for the `proxy/successor` envelope itself, separate from the wrapped
    message's `_meta`. It is hop-local: the conductor does not copy it into the message
    it unwraps.

    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class WriteTextFileRequest(Model):
    """
    Request to write content to a text file.

    Only available if the client supports the `fs.writeTextFile` capability.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session ID for this request.
    """
    path: str
    """
    Absolute path to the file to write.
    """
    content: str
    """
    The text content to write to the file.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ToolCallContentDiff(Diff):
    """
    File modification shown as a diff.
    """

    type: Literal["diff"] = constant_tag("diff")


class ToolCallContentTerminal(Terminal):
    """
    Embed a terminal created with `terminal/create` by its id.

    The terminal must be added before calling `terminal/release`.

    See protocol docs: [Terminal](https://agentclientprotocol.com/protocol/v1/draft/terminals)
    """

    type: Literal["terminal"] = constant_tag("terminal")


class Annotations(Model):
    """
    Optional annotations for the client. The client can use annotations to inform how objects are used or displayed
    """

    audience: list[Role] | None = None
    """
    Intended recipients for this content, such as the user or assistant.
    """
    last_modified: str | None = Field(
        default=None, validation_alias="lastModified", serialization_alias="lastModified"
    )
    """
    Timestamp indicating when the underlying resource was last modified.
    """
    priority: float | None = None
    """
    Relative importance of this content when clients choose what to surface.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class TextContent(Model):
    """
    Text provided to or from an LLM.
    """

    annotations: Annotations | None = None
    """
    Optional annotations that help clients decide how to display or route this content.
    """
    text: str
    """
    Text payload carried by this content block.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ImageContent(Model):
    """
    An image provided to or from an LLM.
    """

    annotations: Annotations | None = None
    """
    Optional annotations that help clients decide how to display or route this content.
    """
    data: str
    """
    Base64-encoded media payload.
    """
    mime_type: str = Field(validation_alias="mimeType", serialization_alias="mimeType")
    """
    MIME type describing the encoded media payload.
    """
    uri: str | None = None
    """
    URI associated with this resource or media payload.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AudioContent(Model):
    """
    Audio provided to or from an LLM.
    """

    annotations: Annotations | None = None
    """
    Optional annotations that help clients decide how to display or route this content.
    """
    data: str
    """
    Base64-encoded media payload.
    """
    mime_type: str = Field(validation_alias="mimeType", serialization_alias="mimeType")
    """
    MIME type describing the encoded media payload.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ResourceLink(Model):
    """
    A resource that the server is capable of reading, included in a prompt or tool call result.
    """

    annotations: Annotations | None = None
    """
    Optional annotations that help clients decide how to display or route this content.
    """
    description: str | None = None
    """
    Optional human-readable details shown with this protocol object.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type describing the encoded media payload.
    """
    name: str
    """
    Human-readable name shown for this protocol object.
    """
    size: int | None = None
    """
    Optional size of the linked resource in bytes, if known.
    """
    title: str | None = None
    """
    Optional display title for end-user UI.
    """
    uri: str
    """
    URI associated with this resource or media payload.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class EmbeddedResource(Model):
    """
    The contents of a resource, embedded into a prompt or tool call result.
    """

    annotations: Annotations | None = None
    """
    Optional annotations that help clients decide how to display or route this content.
    """
    resource: TextResourceContents | BlobResourceContents
    """
    Embedded resource payload, either text or binary data.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class PermissionOption(Model):
    """
    An option presented to the user when requesting permission.
    """

    option_id: str = Field(validation_alias="optionId", serialization_alias="optionId")
    """
    Unique identifier for this permission option.
    """
    name: str
    """
    Human-readable label to display to the user.
    """
    kind: PermissionOptionKind
    """
    Hint about the nature of this permission option.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CreateTerminalRequest(Model):
    """
    Request to create a new terminal and execute a command.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session ID for this request.
    """
    command: str
    """
    The command to execute.
    """
    args: list[str] | None = None
    """
    Array of command arguments.
    """
    env: list[EnvVariable] | None = None
    """
    Environment variables for the command.
    """
    cwd: str | None = None
    """
    Working directory for the command. Must be an absolute path.
    """
    output_byte_limit: int | None = Field(
        default=None,
        validation_alias="outputByteLimit",
        serialization_alias="outputByteLimit",
        ge=0,
    )
    """
    Maximum number of output bytes to retain.

    When the limit is exceeded, the Client truncates from the beginning of the output
    to stay within the limit.

    The Client MUST ensure truncation happens at a character boundary to maintain valid
    string output, even if this means the retained output is slightly less than the
    specified limit.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CreateElicitationRequestUrlSession(
    ElicitationUrlModeSession, CreateElicitationRequestUrlFields
):
    """
    URL-based elicitation where the client directs the user to a URL.
    """

    message: str
    """
    A human-readable message describing what input is needed.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    mode: Literal["url"] = constant_tag("url")


class CreateElicitationRequestUrlRequest(
    ElicitationUrlModeRequest, CreateElicitationRequestUrlFields
):
    """
    URL-based elicitation where the client directs the user to a URL.
    """

    message: str
    """
    A human-readable message describing what input is needed.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    mode: Literal["url"] = constant_tag("url")


class CreateElicitationRequestOtherSession(ElicitationSessionScope):
    """
    Tied to a session, optionally to a specific tool call within that session.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow",
    )
    message: str
    """
    A human-readable message describing what input is needed.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    mode: str
    """
    Custom or future elicitation mode.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Unknown values that do not begin with `_` are reserved for
    future ACP variants.
    """


class CreateElicitationRequestOtherRequest(ElicitationRequestScope):
    """
    Tied to a specific JSON-RPC request outside of a session
    (e.g., during auth/configuration phases before any session is started).
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow",
    )
    message: str
    """
    A human-readable message describing what input is needed.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    mode: str
    """
    Custom or future elicitation mode.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Unknown values that do not begin with `_` are reserved for
    future ACP variants.
    """


class ElicitationPropertySchemaString(StringPropertySchema):
    """
    String property (or single-select enum when `enum`/`oneOf` is set).
    """

    type: Literal["string"] = constant_tag("string")


class ElicitationPropertySchemaNumber(NumberPropertySchema):
    """
    Number (floating-point) property.
    """

    type: Literal["number"] = constant_tag("number")


class ElicitationPropertySchemaInteger(IntegerPropertySchema):
    """
    Integer property.
    """

    type: Literal["integer"] = constant_tag("integer")


class ElicitationPropertySchemaBoolean(BooleanPropertySchema):
    """
    Boolean property.
    """

    type: Literal["boolean"] = constant_tag("boolean")


class MultiSelectItemsString(StringMultiSelectItems):
    """
    Multi-select string items with plain string values.
    """

    type: Literal["string"] = constant_tag("string")


class MultiSelectPropertySchema(Model):
    """
    Schema for multi-select (array) properties in an elicitation form.
    """

    title: str | None = None
    """
    Optional title for the property.

    Optional. Omitted and `null` are equivalent and mean no title is provided.
    """
    description: str | None = None
    """
    Human-readable description.

    Optional. Omitted and `null` are equivalent and mean no description is provided.
    """
    min_items: int | None = Field(
        default=None, validation_alias="minItems", serialization_alias="minItems", ge=0
    )
    """
    Minimum number of items to select.

    Optional. Omitted and `null` are equivalent and mean there is no minimum selection count.
    """
    max_items: int | None = Field(
        default=None, validation_alias="maxItems", serialization_alias="maxItems", ge=0
    )
    """
    Maximum number of items to select.

    Optional. Omitted and `null` are equivalent and mean there is no maximum selection count.
    """
    items: Annotated[
        Annotated[MultiSelectItemsString, Tag("string")]
        | Annotated[MultiSelectItemsOther | TitledMultiSelectItems, Tag(UNTAGGED)],
        by_tag("type", ("string",)),
    ]
    """
    The items definition describing allowed values.
    """
    default: list[str] | None = None
    """
    Default selected values.

    Optional. Omitted and `null` are equivalent and mean no default selections are provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class MessageMcpRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for `mcp/message`.
    """

    server_id: str = Field(validation_alias="serverId", serialization_alias="serverId")
    """
    The declared ACP MCP server receiving this request.
    """
    request_id: str = Field(validation_alias="requestId", serialization_alias="requestId")
    """
    The caller-generated identifier for the inner MCP request.
    """
    method: str
    """
    The inner MCP method name.
    """
    params: dict[str, Any] | None = None
    """
    Optional inner MCP params.

    If omitted or set to `null`, the inner MCP message has no params.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionSystemPromptModeCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    System prompt delivery modes the agent supports in addition to `append`.

    `append` has no entry because every agent advertising
    `sessionCapabilities.systemPrompt` supports it.
    """

    override: SessionSystemPromptOverrideCapabilities | None = None
    """
    Whether the agent supports `override` mode.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports replacing its built-in default
    instructions with the client-provided system prompt.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AgentAuthCapabilities(Model):
    """
    Authentication-related capabilities supported by the agent.
    """

    status: AuthStatusCapabilities | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Whether the agent supports the `auth/status` method.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports the `auth/status` method.
    """
    logout: LogoutCapabilities | None = None
    """
    Whether the agent supports the logout method.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports the logout method.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthMethodTerminalModel(AuthMethodTerminal):
    """
    Client runs the configured agent program as a separate interactive
    process, without passing this method to `authenticate`.
    """

    type: Literal["terminal"] = constant_tag("terminal")


class ProviderInfo(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Information about a configurable LLM provider.
    """

    provider_id: str = Field(validation_alias="providerId", serialization_alias="providerId")
    """
    Provider identifier, for example "main" or "openai".
    """
    supported: list[
        Literal["anthropic"]
        | Literal["openai"]
        | Literal["azure"]
        | Literal["vertex"]
        | Literal["bedrock"]
        | str
    ]
    """
    Supported protocol types for this provider.
    """
    required: bool
    """
    Whether this provider is mandatory and cannot be disabled via `providers/disable`.
    If true, clients must not call `providers/disable` for this provider ID.
    """
    current: ProviderCurrentConfig | None = None
    """
    Current effective non-secret routing config.
    Null or omitted means provider is disabled.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AuthStatusResponse(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Response to the `auth/status` method.
    """

    state: (
        Literal["authenticated"]
        | Literal["unauthenticated"]
        | Literal["not_required"]
        | Literal["unknown"]
        | str
    )
    """
    Whether the agent can start sessions without the user signing in first.

    This is the only field clients should act on. Clients MUST treat values they
    do not recognize as `unknown`.
    """
    accounts: list[AuthAccount] | None = None
    """
    The accounts the agent has configured, for display.

    Optional. Omitted and empty are equivalent and mean no accounts are reported.
    Agents that hold credentials for several providers or accounts SHOULD list each
    of them and mark the ones in effect with `active`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionModeState(Model):
    """
    The set of modes and the one currently active.
    """

    current_mode_id: str = Field(
        validation_alias="currentModeId", serialization_alias="currentModeId"
    )
    """
    The current mode the Agent is in.
    """
    available_modes: list[SessionMode] = Field(
        validation_alias="availableModes", serialization_alias="availableModes"
    )
    """
    The set of modes that the Agent can operate in
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionConfigOptionBoolean(SessionConfigBoolean):
    """
    Boolean on/off toggle.
    """

    id: str
    """
    Unique identifier for the configuration option.
    """
    name: str
    """
    Human-readable label for the option.
    """
    description: str | None = None
    """
    Optional description for the Client to display to the user.
    """
    category: (
        Literal["mode"]
        | Literal["model"]
        | Literal["model_config"]
        | Literal["thought_level"]
        | str
        | None
    ) = None
    """
    Optional semantic category for this option (UX only).
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    type: Literal["boolean"] = constant_tag("boolean")


class SessionConfigSelectGroup(Model):
    """
    A group of possible values for a session configuration option.
    """

    group: str
    """
    Unique identifier for this group.
    """
    name: str
    """
    Human-readable label for this group.
    """
    options: list[SessionConfigSelectOption]
    """
    The set of option values in this group.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ListSessionsResponse(Model):
    """
    Response from listing sessions.
    """

    sessions: list[SessionInfo]
    """
    Array of session information objects
    """
    next_cursor: str | None = Field(
        default=None, validation_alias="nextCursor", serialization_alias="nextCursor"
    )
    """
    Opaque cursor token. If present, pass this in the next request's cursor parameter
    to fetch the next page. If absent, there are no more results.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionStatusResponse(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Response from checking the status of a session.

    The result is a snapshot. A session reported `open` may be closed or evicted before
    the Client's next request.
    """

    status: Literal["open"] | Literal["saved"] | str
    """
    Whether the Agent has the session in memory.

    Required. Clients MUST treat a value they do not recognize as `saved`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class PromptResponse(Model):
    """
    Response from processing a user prompt.

    See protocol docs: [Check for Completion](https://agentclientprotocol.com/protocol/v1/draft/prompt-turn#4-check-for-completion)
    """

    stop_reason: StopReason = Field(validation_alias="stopReason", serialization_alias="stopReason")
    """
    Indicates why the agent stopped processing the turn.
    """
    usage: Usage | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Token usage for this turn (optional).
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class Error(Model):
    """
    JSON-RPC error object.

    Represents an error that occurred during method execution, following the
    JSON-RPC 2.0 error object specification with optional additional data.

    See protocol docs: [JSON-RPC Error Object](https://www.jsonrpc.org/specification#error_object)
    """

    code: (
        Literal[-32700]
        | Literal[-32600]
        | Literal[-32601]
        | Literal[-32602]
        | Literal[-32603]
        | Literal[-32800]
        | Literal[-32000]
        | Literal[-32002]
        | int
    )
    """
    A number indicating the error type that occurred.
    This must be an integer as defined in the JSON-RPC specification.
    """
    message: str
    """
    A string providing a short description of the error.
    The message should be limited to a concise single sentence.
    """
    data: Any | None = None
    """
    Optional primitive or structured value that contains additional information about the error.
    This may include debugging information or context-specific details.
    """


class SessionUpdatePlanRemoved(PlanRemoved):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Removal notice for a plan identified by ID.
    """

    session_update: Literal["plan_removed"] = constant_tag(
        "plan_removed", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateCurrentModeUpdate(CurrentModeUpdate):
    """
    The current mode of the session has changed

    See protocol docs: [Session Modes](https://agentclientprotocol.com/protocol/v1/draft/session-modes)
    """

    session_update: Literal["current_mode_update"] = constant_tag(
        "current_mode_update", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateSessionInfoUpdate(SessionInfoUpdate):
    """
    Session metadata has been updated (title, timestamps, custom metadata)
    """

    session_update: Literal["session_info_update"] = constant_tag(
        "session_info_update", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateUsageUpdate(UsageUpdate):
    """
    Context window and cost update for the session.
    """

    session_update: Literal["usage_update"] = constant_tag(
        "usage_update", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateNotice(Notice):
    """
    Information for the user that is not part of session history.

    Agents MUST only send this update when the Client advertised
    the `session.notices` Client capability.
    """

    session_update: Literal["notice"] = constant_tag(
        "notice", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class PlanEntry(Model):
    """
    A single entry in the execution plan.

    Represents a task or goal that the assistant intends to accomplish
    as part of fulfilling the user's request.
    See protocol docs: [Plan Entries](https://agentclientprotocol.com/protocol/v1/draft/agent-plan#plan-entries)
    """

    content: str
    """
    Human-readable description of what this task aims to accomplish.
    """
    priority: PlanEntryPriority
    """
    The relative importance of this task.
    Used to indicate which tasks are most critical to the overall goal.
    """
    status: PlanEntryStatus
    """
    Current execution status of this task.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class Plan(Model):
    """
    An execution plan for accomplishing complex tasks.

    Plans consist of multiple entries representing individual tasks or goals.
    Agents report plans to clients to provide visibility into their execution strategy.
    Plans can evolve during execution as the agent discovers new requirements or completes tasks.

    See protocol docs: [Agent Plan](https://agentclientprotocol.com/protocol/v1/draft/agent-plan)
    """

    entries: list[PlanEntry]
    """
    The list of tasks to be accomplished.

    When updating a plan, the agent must send a complete list of all entries
    with their current status. The client replaces the entire plan with each update.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class PlanUpdateContentFile(PlanFile):
    """
    A URI pointing to a file containing the plan.
    """

    type: Literal["file"] = constant_tag("file")


class PlanUpdateContentMarkdown(PlanMarkdown):
    """
    Raw markdown content for the plan.
    """

    type: Literal["markdown"] = constant_tag("markdown")


class PlanItems(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    A plan represented as structured entries.
    """

    plan_id: str = Field(validation_alias="planId", serialization_alias="planId")
    """
    The plan ID to update.
    """
    entries: list[PlanEntry]
    """
    The list of tasks to be accomplished.

    When updating an item-based plan, the agent must send a complete list of all entries
    with their current status. The client replaces that plan with each update.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AvailableCommandInput(RootModel[UnstructuredCommandInput]):
    root: UnstructuredCommandInput
    """
    The input specification for a command.
    """


class SubagentSessionCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Client-initiated session mutations permitted for a specific subagent session.

    A mutation requires an explicit per-child capability. Support for the method
    on ordinary sessions does not grant support on a child.
    """

    cancel: SessionCancelCapabilities | None = None
    """
    Permits the client to cancel this child's current work without ending
    the session. Omitted or `null` means unsupported. An object (including
    `{}`) means supported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.
    """


class StateUpdateRunning(RunningStateUpdate):
    """
    Foreground work is in progress.
    """

    state: Literal["running"] = constant_tag("running")


class StateUpdateRequiresAction(RequiresActionStateUpdate):
    """
    Foreground work is blocked on user action.
    """

    state: Literal["requires_action"] = constant_tag("requires_action")


class StateUpdateUnknown(UnknownStateUpdate):
    """
    The Agent cannot currently determine foreground activity.

    This replaces previously confirmed activity without ending the work or session.
    """

    state: Literal["unknown"] = constant_tag("unknown")


class ErrorStopReason(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Details of a failure that ended a child's foreground work.
    """

    error: Error | None = None
    """
    The failure, as a JSON-RPC error object.

    Optional. Omitted or `null` both mean the agent is not reporting failure details.
    Agents SHOULD include it.
    """


class IdleStateUpdateError(ErrorStopReason):
    """
    The work ended because something failed.
    """

    usage: Usage | None = None
    """
    **UNSTABLE** Token usage for completed foreground work.

    Optional. Omitted or `null` means not reported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP for additional metadata.
    Implementations MUST NOT make assumptions about values at these keys.
    Optional. Omitted and `null` mean no metadata for this state snapshot.
    """
    stop_reason: Literal["error"] = constant_tag(
        "error", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted or `null` both mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Current work state](https://agentclientprotocol.com/rfds/subagents#current-work-state)
    """


class SessionConfigOptionsCapabilities(Model):
    """
    Session configuration option capabilities supported by the client.
    """

    boolean: BooleanConfigOptionCapabilities | None = None
    """
    Whether the client supports boolean session configuration options.

    Optional. Omitted or `null` both mean the client does not advertise support.
    Supplying `{}` means agents may include `type: "boolean"` entries in
    `configOptions`, and the client may send `session/set_config_option`
    requests with `type: "boolean"` and a boolean `value`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ElicitationCapabilities(Model):
    """
    Elicitation capabilities supported by the client.
    """

    form: ElicitationFormCapabilities | None = None
    """
    Whether the client supports form-based elicitation.

    Optional. Omitted and `null` are equivalent and mean form support is not advertised.
    Supplying `{}` explicitly advertises form support.
    """
    url: ElicitationUrlCapabilities | None = None
    """
    Whether the client supports URL-based elicitation.

    Optional. Omitted or `null` both mean the client does not advertise support.
    Supplying `{}` means the client supports URL-based elicitation.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class McpServerHttpModel(McpServerHttp):
    """
    HTTP transport configuration

    Only available when the Agent capabilities indicate `mcp_capabilities.http` is `true`.
    """

    type: Literal["http"] = constant_tag("http")


class McpServerSseModel(McpServerSse):
    """
    SSE transport configuration

    Only available when the Agent capabilities indicate `mcp_capabilities.sse` is `true`.
    """

    type: Literal["sse"] = constant_tag("sse")


class McpServerAcpModel(McpServerAcp):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    ACP transport configuration

    Only available when the Agent capabilities indicate `mcp_capabilities.acp` is `true`.
    The MCP server is provided by an ACP component and communicates over the ACP channel.
    """

    type: Literal["acp"] = constant_tag("acp")


class ListSessionsRequest(Model):
    """
    Request parameters for listing existing sessions.

    Only available if the Agent supports the `sessionCapabilities.list` capability.
    """

    cwd: str | None = None
    """
    Filter sessions by working directory. Must be an absolute path.
    """
    cursor: str | None = None
    """
    Opaque cursor token from a previous response's nextCursor field for cursor-based pagination
    """
    archived: Literal["exclude"] | Literal["include"] | Literal["only"] | str | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Filter sessions by archive state.

    Optional. Omitted and `null` are equivalent and mean `exclude`. Only send this when
    the Agent advertises the `sessionCapabilities.archive` capability. The filter combines with `cwd` and
    applies before pagination. Clients keep the same value when following `nextCursor`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class RequestPermissionOutcomeSelected(SelectedPermissionOutcome):
    """
    The user selected one of the provided options.
    """

    outcome: Literal["selected"] = constant_tag("selected")


class TerminalOutputResponse(Model):
    """
    Response containing the terminal output and exit status.
    """

    output: str
    """
    The terminal output captured so far.
    """
    truncated: bool
    """
    Whether the output was truncated due to byte limits.
    """
    exit_status: TerminalExitStatus | None = Field(
        default=None, validation_alias="exitStatus", serialization_alias="exitStatus"
    )
    """
    Exit status if the command has completed.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CreateElicitationResponseAccept(ElicitationAcceptAction):
    """
    The user accepted and provided content.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    action: Literal["accept"] = constant_tag("accept")


class CreateElicitationResponse(
    RootModel[
        Annotated[
            Annotated[CreateElicitationResponseAccept, Tag("accept")]
            | Annotated[CreateElicitationResponseDecline, Tag("decline")]
            | Annotated[CreateElicitationResponseCancel, Tag("cancel")]
            | Annotated[CreateElicitationResponseOther, Tag(UNTAGGED)],
            by_tag(
                "action",
                (
                    "accept",
                    "decline",
                    "cancel",
                ),
            ),
        ]
    ]
):
    root: Annotated[
        Annotated[CreateElicitationResponseAccept, Tag("accept")]
        | Annotated[CreateElicitationResponseDecline, Tag("decline")]
        | Annotated[CreateElicitationResponseCancel, Tag("cancel")]
        | Annotated[CreateElicitationResponseOther, Tag(UNTAGGED)],
        by_tag(
            "action",
            (
                "accept",
                "decline",
                "cancel",
            ),
        ),
    ]
    """
    Response from the client to an elicitation request.
    """


class MessageMcpResponseError(Model):
    """
    A structured inner MCP error.
    """

    error: McpError
    """
    Required, non-null MCP error object.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    Optional ACP carrier metadata.
    """


class MessageMcpResponse(RootModel[MessageMcpResponseResult | MessageMcpResponseError]):
    root: MessageMcpResponseResult | MessageMcpResponseError
    """
    **UNSTABLE**

    The successful outer ACP `mcp/message` response carries exactly one
    inner MCP outcome: an opaque result (including JSON null), or an MCP error.
    Outer ACP errors are reserved for binding and runtime failures.

    Both branches require their carrier key. An error must be a non-null object.
    Unknown outer fields are ignored. Inner result and error fields are preserved.
    Carrier `_meta` is optional. Null or invalid values are treated as absent.
    Senders must include exactly one outcome. Receivers prefer `result` if both are present.
    """


class ProxyResponseError(Model):
    """
    A failed JSON-RPC response.
    """

    id: int | str | None
    """
    The id of the request this response answers.
    """
    error: Error
    """
    Method-specific error data.
    """


class ProxyNotification(Model):
    """
    A JSON-RPC notification object.
    """

    method: str
    """
    The notification method name.
    """
    params: ProxySuccessorNotification | None = None
    """
    Method-specific notification parameters.
    """


class ContentBlockText(TextContent):
    """
    Text content. May be plain text or formatted with Markdown.

    All agents MUST support text content blocks in prompts.
    Clients SHOULD render this text as Markdown.
    """

    type: Literal["text"] = constant_tag("text")


class ContentBlockImage(ImageContent):
    """
    Images for visual context or analysis.

    Requires the `image` prompt capability when included in prompts.
    """

    type: Literal["image"] = constant_tag("image")


class ContentBlockAudio(AudioContent):
    """
    Audio data for transcription or analysis.

    Requires the `audio` prompt capability when included in prompts.
    """

    type: Literal["audio"] = constant_tag("audio")


class ContentBlockResourceLink(ResourceLink):
    """
    References to resources that the agent can access.

    All agents MUST support resource links in prompts.
    """

    type: Literal["resource_link"] = constant_tag("resource_link")


class ContentBlockResource(EmbeddedResource):
    """
    Complete resource contents embedded directly in the message.

    Preferred for including context as it avoids extra round-trips.

    Requires the `embeddedContext` prompt capability when included in prompts.
    """

    type: Literal["resource"] = constant_tag("resource")


class Content(Model):
    """
    Standard content block (text, images, resources).
    """

    content: ContentBlock
    """
    The actual content block.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ElicitationPropertySchemaArray(MultiSelectPropertySchema):
    """
    Multi-select array property.
    """

    type: Literal["array"] = constant_tag("array")


class SessionSystemPromptCapabilities(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Capabilities for client-provided system prompts.

    Supplying `{}` means the agent supports `systemPrompt` on session lifecycle
    requests in `append` mode.
    """

    mode: SessionSystemPromptModeCapabilities | None = None
    """
    Delivery modes the agent supports in addition to `append`.

    Optional. Omitted or `null` both mean the agent supports only `append`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ListProvidersResponse(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Response to `providers/list`.
    """

    providers: list[ProviderInfo]
    """
    Configurable providers with current routing info suitable for UI display.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionConfigSelect(Model):
    """
    A single-value selector (dropdown) session configuration option payload.
    """

    current_value: str = Field(validation_alias="currentValue", serialization_alias="currentValue")
    """
    The currently selected value.
    """
    options: list[SessionConfigSelectOption] | list[SessionConfigSelectGroup]
    """
    The set of selectable options.
    """


class SessionUpdatePlan(Plan):
    """
    The agent's execution plan for complex tasks.
    See protocol docs: [Agent Plan](https://agentclientprotocol.com/protocol/v1/draft/agent-plan)
    """

    session_update: Literal["plan"] = constant_tag(
        "plan", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class ContentChunk(Model):
    """
    A streamed item of content
    """

    content: ContentBlock
    """
    A single item of content
    """
    message_id: str | None = Field(
        default=None, validation_alias="messageId", serialization_alias="messageId"
    )
    """
    A unique identifier for the message this chunk belongs to.

    All chunks belonging to the same message share the same `messageId`.
    A change in `messageId` indicates a new message has started.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class PlanUpdateContentItems(PlanItems):
    """
    Structured plan entries.
    """

    type: Literal["items"] = constant_tag("items")


class PlanUpdate(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    A content update for a plan identified by ID.
    """

    plan: PlanUpdateContent
    """
    The updated plan content.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AvailableCommand(Model):
    """
    Information about a command.
    """

    name: str
    """
    Command name (e.g., `create_plan`, `research_codebase`).
    """
    description: str
    """
    Human-readable description of what the command does.
    """
    input: AvailableCommandInput | None = None
    """
    Input for the command if required
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class AvailableCommandsUpdate(Model):
    """
    Available commands are ready or have changed
    """

    available_commands: list[AvailableCommand] = Field(
        validation_alias="availableCommands", serialization_alias="availableCommands"
    )
    """
    Commands the agent can execute
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CompactionUpdate(Model):
    """
    A context compaction upsert. The first notification fixes the compaction's
    timeline position. Later updates with the same ID patch that entity in place.
    Agents MUST only send this update when the Client advertised
    the `session.compaction` Client capability.

    `summary`, `error`, and `_meta` have patch semantics: omission leaves the
    stored value unchanged, `null` clears it, and a concrete value replaces it.
    `summary: []` also clears the summary.
    """

    compaction_id: str = Field(validation_alias="compactionId", serialization_alias="compactionId")
    """
    The Agent-owned ID of this compaction, unique within the session.
    """
    status: (
        Literal["in_progress"]
        | Literal["completed"]
        | Literal["failed"]
        | Literal["cancelled"]
        | str
    )
    """
    Current lifecycle status.
    """
    summary: list[ContentBlock] | None = None
    """
    Complete replacement user-displayable summary content for the compaction.
    """
    error: str | None = None
    """
    Human-readable error details for the compaction.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    Extensible metadata patch for this compaction.
    """


class CompactionSummaryChunk(Model):
    """
    A content block appended to a compaction's summary. A first-seen ID creates
    an in-progress compaction. Chunks append in receive order.
    Agents MUST only send this update when the Client advertised
    the `session.compaction` Client capability.
    """

    compaction_id: str = Field(validation_alias="compactionId", serialization_alias="compactionId")
    """
    ID of the compaction whose summary receives this content.
    """
    content: ContentBlock
    """
    One content block to append.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    Metadata scoped to this chunk. Omission and `null` both mean absent.
    """


class StateUpdateIdleError(IdleStateUpdateError, StateUpdateIdleFields):
    """
    The child is ready to process another prompt.
    """

    state: Literal["idle"] = constant_tag("idle")


class SubagentUpdate(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Notification that the enclosing parent session created and owns a child session.

    Later updates modify the existing association's metadata, not its ownership.

    Sent on the immediate parent session. The first update for an unknown
    `sessionId` announces the child and MUST be sent
    before any live child traffic or live message naming the child as sender
    or recipient. Parents may message and reuse an announced child across
    multiple operations.
    Child events are delivered automatically on the same connection. No child
    load, resume, or subscription is needed.

    Only the subagent session ID is required. Omitted patch fields keep their
    previous values. `null` clears them. Clearing capabilities disables child
    mutations. Clearing state leaves current activity unset/unconfirmed: it does
    not imply idle, stop work, or create an `unknown` state snapshot. A concrete
    state replaces the entire previous state object, not the session.
    The title and description provide the parent's display metadata for the
    child. They do not replace the content of individual messages or operations.
    `cwd` and `additionalDirectories` report where the Agent placed the child.
    While unset, each inherits the immediate parent's effective value.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The opaque session ID identifying the child in all ACP messages.
    """
    title: str | None = None
    """
    The parent's human-readable display title for this child. It need not be unique.

    Omitted means unchanged. `null` clears it. If unset, the Client chooses
    a fallback presentation.
    """
    description: str | None = None
    """
    The parent's human-readable description of the child's role or purpose.

    Omitted means unchanged. `null` clears it. If unset, the Client chooses
    a fallback presentation. This is current display metadata, not the
    history of instructions sent to the child.
    """
    capabilities: SubagentSessionCapabilities | None = None
    """
    Client-initiated session mutations permitted for this subagent session.

    Omitted means unchanged. `null` clears the capability set and disables
    child mutations. If never supplied, no session mutations are permitted.
    Read-only operations retain their normal protocol semantics and capability
    requirements. A concrete object replaces the whole capability set.
    """
    state: (
        Annotated[
            Annotated[StateUpdateRunning, Tag("running")]
            | Annotated[StateUpdateRequiresAction, Tag("requires_action")]
            | Annotated[StateUpdateUnknown, Tag("unknown")]
            | Annotated[
                Annotated[
                    Annotated[StateUpdateIdleEndTurn, Tag("end_turn")]
                    | Annotated[StateUpdateIdleMaxTokens, Tag("max_tokens")]
                    | Annotated[StateUpdateIdleMaxTurnRequests, Tag("max_turn_requests")]
                    | Annotated[StateUpdateIdleRefusal, Tag("refusal")]
                    | Annotated[StateUpdateIdleCancelled, Tag("cancelled")]
                    | Annotated[StateUpdateIdleError, Tag("error")]
                    | Annotated[StateUpdateIdleOther | StateUpdateIdleNone, Tag(UNTAGGED)],
                    by_tag(
                        "stopReason",
                        (
                            "end_turn",
                            "max_tokens",
                            "max_turn_requests",
                            "refusal",
                            "cancelled",
                            "error",
                        ),
                    ),
                ],
                Tag("idle"),
            ]
            | Annotated[StateUpdateOther, Tag(UNTAGGED)],
            by_tag(
                "state",
                (
                    "running",
                    "requires_action",
                    "unknown",
                    "idle",
                ),
            ),
        ]
        | None
    ) = None
    """
    Current state snapshot for the child session.

    Omitted means unchanged. `null` clears the current activity without
    asserting idle or sending an `unknown` snapshot. A concrete state
    replaces the previous state object wholesale. If never supplied, the
    current activity is unset/unconfirmed.
    """
    cwd: str | None = None
    """
    The child's working directory. Must be an absolute path.

    Optional and nullable. Omitted means unchanged. `null` clears the
    reported value. While unset, the child inherits its immediate parent's
    effective working directory. Clients use this value for the child's
    root set and as the default terminal working directory.
    """
    additional_directories: list[str] | None = Field(
        default=None,
        validation_alias="additionalDirectories",
        serialization_alias="additionalDirectories",
    )
    """
    Additional workspace roots for the child. Each path must be absolute.

    Optional and nullable. Omitted means unchanged. `null` clears the
    reported value. While unset, the child inherits its immediate parent's
    effective additional directories, independently of `cwd`. A concrete
    array replaces the whole list. `[]` reports no additional directories.
    Clients use these values for the child's root set.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    Omitted means unchanged. `null` removes the metadata.
    """


class SessionMessage(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    An upsert for an inter-session message.
    """

    message_id: str = Field(validation_alias="messageId", serialization_alias="messageId")
    """
    Identifier of this message within the enclosing session's transcript.
    """
    sender_session_id: str | None = Field(
        default=None, validation_alias="senderSessionId", serialization_alias="senderSessionId"
    )
    """
    The sending session.

    Omitted leaves the stored value unchanged. `null` clears it. A value replaces it.
    """
    recipient_session_id: str | None = Field(
        default=None,
        validation_alias="recipientSessionId",
        serialization_alias="recipientSessionId",
    )
    """
    The receiving session.

    Omitted leaves the stored value unchanged. `null` clears it. A value replaces it.
    """
    sender_message_id: str | None = Field(
        default=None, validation_alias="senderMessageId", serialization_alias="senderMessageId"
    )
    """
    On an incoming view, the `messageId` of the same message's outgoing view in the
    sender's transcript.

    Omitted leaves the stored value unchanged. `null` clears it. A value replaces it. It can arrive
    after the message starts streaming.
    """
    recipient_message_id: str | None = Field(
        default=None,
        validation_alias="recipientMessageId",
        serialization_alias="recipientMessageId",
    )
    """
    On an outgoing view, the `messageId` of the same message's incoming view in the
    recipient's transcript.

    Omitted leaves the stored value unchanged. `null` clears it. A value replaces it. It can arrive
    after the message starts streaming.
    """
    content: list[ContentBlock] | None = None
    """
    Omitted leaves content unchanged. `null` or `[]` clears it.
    A non-empty array replaces all content.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    Omitted leaves metadata unchanged. `null` removes it.

    Implementations MUST NOT make assumptions about values in `_meta`.
    """


class SessionMessageChunk(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    A streamed content block of an inter-session message.

    A chunk carries only content. The message's participants and references come from
    `session_message` upserts, which can arrive before, between, or after its chunks.
    """

    message_id: str = Field(validation_alias="messageId", serialization_alias="messageId")
    """
    Identifier of this message within the enclosing session's transcript.
    """
    content: ContentBlock
    """
    A single content block appended to the message.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    Optional and nullable chunk-scoped metadata. Omitted or `null` means none.

    Implementations MUST NOT make assumptions about values in `_meta`.
    """


class ClientSessionCapabilities(Model):
    """
    Session-related capabilities supported by the client.
    """

    compaction: CompactionCapabilities | None = None
    """
    Support for ID-addressed context compaction updates. Omitted or `null`
    means unsupported. `{}` advertises the complete compaction contract.
    """
    config_options: SessionConfigOptionsCapabilities | None = Field(
        default=None, validation_alias="configOptions", serialization_alias="configOptions"
    )
    """
    Config option capabilities supported by the client.

    Omitted or `null` both mean the client does not advertise support for any
    config option extensions.
    """
    notices: NoticeCapabilities | None = None
    """
    Support for live user-facing `notice` session updates.

    Optional. Omitted or `null` both mean the client does not advertise support.
    Supplying `{}` means the client can present notices to the user.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SystemPrompt(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Client-provided system-level instructions for a session.

    Clients MUST only send this when the Agent advertises
    `sessionCapabilities.systemPrompt`. Agents that cannot apply it, for example
    because of an unadvertised mode or an unsupported content block type, MUST
    return an error instead of creating, loading, resuming, or forking the
    session.
    """

    mode: Literal["append"] | Literal["override"] | str
    """
    How the Agent combines `content` with its own instructions.

    Required. Agents MUST return an error for a mode they do not support rather than
    treating it as `append` or `override`.
    """
    content: list[ContentBlock]
    """
    The system prompt content.

    Agents advertising the capability MUST accept `text` content blocks.
    Clients MUST NOT send other content block types until a future
    capability allows them, and Agents MUST return an error for content
    blocks they do not support.

    Clients MUST NOT send an empty array. Agents MAY reject one with
    `-32602` without creating, loading, resuming, or forking the session.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class LoadSessionRequest(Model):
    """
    Request parameters for loading an existing session.

    Only available if the Agent supports the `loadSession` capability.

    See protocol docs: [Loading Sessions](https://agentclientprotocol.com/protocol/v1/draft/session-setup#loading-sessions)
    """

    mcp_servers: list[
        Annotated[
            Annotated[McpServerHttpModel, Tag("http")]
            | Annotated[McpServerSseModel, Tag("sse")]
            | Annotated[McpServerAcpModel, Tag("acp")]
            | Annotated[McpServerStdio, Tag(UNTAGGED)],
            by_tag(
                "type",
                (
                    "http",
                    "sse",
                    "acp",
                ),
            ),
        ]
    ] = Field(validation_alias="mcpServers", serialization_alias="mcpServers")
    """
    List of MCP servers to connect to for this session.
    """
    cwd: str
    """
    The working directory for this session. Must be an absolute path.
    """
    additional_directories: list[str] | None = Field(
        default=None,
        validation_alias="additionalDirectories",
        serialization_alias="additionalDirectories",
    )
    """
    Additional workspace roots to activate for this session. Each path must be absolute.

    When omitted or empty, no additional roots are activated. When non-empty,
    this is the complete resulting additional-root list for the loaded
    session. It may differ from any previously used or reported list as long as
    the request `cwd` matches the session's `cwd`.
    """
    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to load.
    """
    system_prompt: SystemPrompt | None = Field(
        default=None, validation_alias="systemPrompt", serialization_alias="systemPrompt"
    )
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    System-level instructions for the loaded session.

    Optional. Omitted and `null` are equivalent. The Agent may then keep a
    system prompt it stored with the session or use its default instructions.
    Clients MUST only send this when the Agent advertises
    `sessionCapabilities.systemPrompt`, and SHOULD send the same value they used
    when the session was created.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ForkSessionRequest(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for forking an existing session.

    Creates a new session based on the context of an existing one, allowing
    operations like generating summaries without affecting the original session's history.

    Only available if the Agent supports the `session.fork` capability.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to fork.
    """
    cwd: str
    """
    The working directory for this session. Must be an absolute path.
    """
    additional_directories: list[str] | None = Field(
        default=None,
        validation_alias="additionalDirectories",
        serialization_alias="additionalDirectories",
    )
    """
    Additional workspace roots to activate for this session. Each path must be absolute.

    When omitted or empty, no additional roots are activated. When non-empty,
    this is the complete resulting additional-root list for the forked
    session.
    """
    mcp_servers: (
        list[
            Annotated[
                Annotated[McpServerHttpModel, Tag("http")]
                | Annotated[McpServerSseModel, Tag("sse")]
                | Annotated[McpServerAcpModel, Tag("acp")]
                | Annotated[McpServerStdio, Tag(UNTAGGED)],
                by_tag(
                    "type",
                    (
                        "http",
                        "sse",
                        "acp",
                    ),
                ),
            ]
        ]
        | None
    ) = Field(default=None, validation_alias="mcpServers", serialization_alias="mcpServers")
    """
    List of MCP servers to connect to for this session.
    """
    system_prompt: SystemPrompt | None = Field(
        default=None, validation_alias="systemPrompt", serialization_alias="systemPrompt"
    )
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    System-level instructions for the forked session.

    Optional. Omitted and `null` are equivalent. The Agent may then keep a
    system prompt it stored with the source session or use its default
    instructions. Clients MUST only send this when the Agent advertises
    `sessionCapabilities.systemPrompt`, and SHOULD send the same value they used
    for the source session.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ResumeSessionRequest(Model):
    """
    Request parameters for resuming an existing session.

    Resumes an existing session without returning previous messages (unlike `session/load`).
    This is useful for agents that can resume sessions but don't implement full session loading.

    Only available if the Agent supports the `sessionCapabilities.resume` capability.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to resume.
    """
    cwd: str
    """
    The working directory for this session. Must be an absolute path.
    """
    additional_directories: list[str] | None = Field(
        default=None,
        validation_alias="additionalDirectories",
        serialization_alias="additionalDirectories",
    )
    """
    Additional workspace roots to activate for this session. Each path must be absolute.

    When omitted or empty, no additional roots are activated. When non-empty,
    this is the complete resulting additional-root list for the resumed
    session. It may differ from any previously used or reported list as long as
    the request `cwd` matches the session's `cwd`.
    """
    mcp_servers: (
        list[
            Annotated[
                Annotated[McpServerHttpModel, Tag("http")]
                | Annotated[McpServerSseModel, Tag("sse")]
                | Annotated[McpServerAcpModel, Tag("acp")]
                | Annotated[McpServerStdio, Tag(UNTAGGED)],
                by_tag(
                    "type",
                    (
                        "http",
                        "sse",
                        "acp",
                    ),
                ),
            ]
        ]
        | None
    ) = Field(default=None, validation_alias="mcpServers", serialization_alias="mcpServers")
    """
    List of MCP servers to connect to for this session.
    """
    system_prompt: SystemPrompt | None = Field(
        default=None, validation_alias="systemPrompt", serialization_alias="systemPrompt"
    )
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    System-level instructions for the resumed session.

    Optional. Omitted and `null` are equivalent. The Agent may then keep a
    system prompt it stored with the session or use its default instructions.
    Clients MUST only send this when the Agent advertises
    `sessionCapabilities.systemPrompt`, and SHOULD send the same value they used
    when the session was created.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class PromptRequest(Model):
    """
    Request parameters for sending a user prompt to the agent.

    Contains the user's message and any additional context.

    See protocol docs: [User Message](https://agentclientprotocol.com/protocol/v1/draft/prompt-turn#1-user-message)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to send this user message to
    """
    prompt: list[ContentBlock]
    """
    The blocks of content that compose the user's message.

    As a baseline, the Agent MUST support `text` and `resource_link` content blocks,
    while other variants are optionally enabled via `PromptCapabilities`.

    The Client MUST adapt its interface according to `PromptCapabilities`.

    The client MAY include referenced pieces of context as either
    `resource` or `resource_link` content blocks.

    When available, `resource` is preferred
    as it avoids extra round-trips and allows the message to include
    pieces of context from sources the agent may not have access to.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class RequestPermissionResponse(Model):
    """
    Response to a permission request.
    """

    outcome: RequestPermissionOutcome
    """
    The user's decision on the permission request.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ToolCallContentContent(Content):
    """
    Standard content block (text, images, resources).
    """

    type: Literal["content"] = constant_tag("content")


class ElicitationSchema(Model):
    """
    Type-safe elicitation schema for requesting structured user input.

    This represents a JSON Schema object with primitive-typed properties,
    as required by the elicitation specification.
    """

    type: ElicitationSchemaType | None = "object"
    """
    Type discriminator. Always `"object"`.
    """
    title: str | None = None
    """
    Optional title for the schema.

    Optional. Omitted and `null` are equivalent and mean no title is provided.
    """
    properties: (
        dict[
            str,
            Annotated[
                Annotated[ElicitationPropertySchemaString, Tag("string")]
                | Annotated[ElicitationPropertySchemaNumber, Tag("number")]
                | Annotated[ElicitationPropertySchemaInteger, Tag("integer")]
                | Annotated[ElicitationPropertySchemaBoolean, Tag("boolean")]
                | Annotated[ElicitationPropertySchemaArray, Tag("array")]
                | Annotated[ElicitationPropertySchemaOther, Tag(UNTAGGED)],
                by_tag(
                    "type",
                    (
                        "string",
                        "number",
                        "integer",
                        "boolean",
                        "array",
                    ),
                ),
            ],
        ]
        | None
    ) = Field(default={}, validate_default=True)
    """
    Property definitions (must be primitive types).
    """
    required: list[str] | None = None
    """
    List of required property names.

    Optional. Omitted and `null` are equivalent and mean no property names are required.
    """
    description: str | None = None
    """
    Optional description of what this schema represents.

    Optional. Omitted and `null` are equivalent and mean no schema description is provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ElicitationFormModeSession(ElicitationSessionScope):
    """
    Tied to a session, optionally to a specific tool call within that session.
    """

    requested_schema: ElicitationSchema = Field(
        validation_alias="requestedSchema", serialization_alias="requestedSchema"
    )
    """
    A JSON Schema describing the form fields to present to the user.
    """


class ElicitationFormModeRequest(ElicitationRequestScope):
    """
    Tied to a specific JSON-RPC request outside of a session
    (e.g., during auth/configuration phases before any session is started).
    """

    requested_schema: ElicitationSchema = Field(
        validation_alias="requestedSchema", serialization_alias="requestedSchema"
    )
    """
    A JSON Schema describing the form fields to present to the user.
    """


class SessionCapabilities(Model):
    """
    Session capabilities supported by the agent.

    As a baseline, all Agents **MUST** support `session/new`, `session/prompt`, `session/cancel`, and `session/update`.

    Optionally, they **MAY** support other session methods and notifications by specifying additional capabilities.

    Note: `session/load` is still handled by the top-level `loadSession` capability. This will be unified in future versions of the protocol.

    See protocol docs: [Session Capabilities](https://agentclientprotocol.com/protocol/v1/draft/initialization#session-capabilities)
    """

    list: SessionListCapabilities | None = None
    """
    Whether the agent supports `session/list`.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports listing sessions.
    """
    delete: SessionDeleteCapabilities | None = None
    """
    Whether the agent supports `session/delete`.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports deleting sessions from `session/list`.
    """
    additional_directories: SessionAdditionalDirectoriesCapabilities | None = Field(
        default=None,
        validation_alias="additionalDirectories",
        serialization_alias="additionalDirectories",
    )
    """
    Whether the agent supports `additionalDirectories` on supported session lifecycle requests.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports `additionalDirectories` on
    supported session lifecycle requests.

    Agents that also support `session/list` may return
    `SessionInfo.additionalDirectories` to report the complete ordered
    additional-root list associated with a listed session.
    """
    system_prompt: SessionSystemPromptCapabilities | None = Field(
        default=None, validation_alias="systemPrompt", serialization_alias="systemPrompt"
    )
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Whether the agent supports `systemPrompt` on session lifecycle requests.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports `systemPrompt` in `append` mode.
    """
    fork: SessionForkCapabilities | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Whether the agent supports `session/fork`.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports forking sessions.
    """
    archive: SessionArchiveCapabilities | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Whether the agent supports `session/archive` and `session/unarchive`.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports both methods, the `archived` filter on
    `session/list`, and `SessionInfo.archived`. Agents that advertise it MUST also advertise `sessionCapabilities.list`.
    """
    status: SessionStatusCapabilities | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Whether the agent supports `session/status`.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports checking session status.
    """
    title: SessionTitleCapabilities | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Whether the agent supports `session/set_title`.

    Agents report titles through `session/list` and `session_info_update` without this
    capability. It only advertises that Clients can set titles.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports setting session titles.
    """
    resume: SessionResumeCapabilities | None = None
    """
    Whether the agent supports `session/resume`.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports resuming sessions.
    """
    close: SessionCloseCapabilities | None = None
    """
    Whether the agent supports `session/close`.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports closing sessions.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionConfigOptionSelect(SessionConfigSelect):
    """
    Single-value selector (dropdown).
    """

    id: str
    """
    Unique identifier for the configuration option.
    """
    name: str
    """
    Human-readable label for the option.
    """
    description: str | None = None
    """
    Optional description for the Client to display to the user.
    """
    category: (
        Literal["mode"]
        | Literal["model"]
        | Literal["model_config"]
        | Literal["thought_level"]
        | str
        | None
    ) = None
    """
    Optional semantic category for this option (UX only).
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    type: Literal["select"] = constant_tag("select")


class LoadSessionResponse(Model):
    """
    Response from loading an existing session.
    """

    modes: SessionModeState | None = None
    """
    Initial mode state if supported by the Agent

    See protocol docs: [Session Modes](https://agentclientprotocol.com/protocol/v1/draft/session-modes)
    """
    config_options: list[SessionConfigOption] | None = Field(
        default=None, validation_alias="configOptions", serialization_alias="configOptions"
    )
    """
    Initial session configuration options if supported by the Agent.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ForkSessionResponse(Model):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Response from forking an existing session.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    Unique identifier for the newly created forked session.
    """
    modes: SessionModeState | None = None
    """
    Initial mode state if supported by the Agent

    See protocol docs: [Session Modes](https://agentclientprotocol.com/protocol/v1/draft/session-modes)
    """
    config_options: list[SessionConfigOption] | None = Field(
        default=None, validation_alias="configOptions", serialization_alias="configOptions"
    )
    """
    Initial session configuration options if supported by the Agent.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ResumeSessionResponse(Model):
    """
    Response from resuming an existing session.
    """

    modes: SessionModeState | None = None
    """
    Initial mode state if supported by the Agent

    See protocol docs: [Session Modes](https://agentclientprotocol.com/protocol/v1/draft/session-modes)
    """
    config_options: list[SessionConfigOption] | None = Field(
        default=None, validation_alias="configOptions", serialization_alias="configOptions"
    )
    """
    Initial session configuration options if supported by the Agent.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SetSessionConfigOptionResponse(Model):
    """
    Response to `session/set_config_option` method.
    """

    config_options: list[SessionConfigOption] = Field(
        validation_alias="configOptions", serialization_alias="configOptions"
    )
    """
    The full set of configuration options and their current values.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionUpdateUserMessageChunk(ContentChunk):
    """
    A chunk of the user's message being streamed.
    """

    session_update: Literal["user_message_chunk"] = constant_tag(
        "user_message_chunk", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateAgentMessageChunk(ContentChunk):
    """
    A chunk of the agent's response being streamed.
    """

    session_update: Literal["agent_message_chunk"] = constant_tag(
        "agent_message_chunk", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateAgentThoughtChunk(ContentChunk):
    """
    A chunk of the agent's internal reasoning being streamed.
    """

    session_update: Literal["agent_thought_chunk"] = constant_tag(
        "agent_thought_chunk", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdatePlanUpdate(PlanUpdate):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    A content update for a plan identified by ID.
    """

    session_update: Literal["plan_update"] = constant_tag(
        "plan_update", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateAvailableCommandsUpdate(AvailableCommandsUpdate):
    """
    Available commands are ready or have changed
    """

    session_update: Literal["available_commands_update"] = constant_tag(
        "available_commands_update",
        serialization_alias="sessionUpdate",
        validation_alias="sessionUpdate",
    )


class SessionUpdateCompactionUpdate(CompactionUpdate):
    """
    A context compaction has been created or updated.

    Agents MUST only send this update when the Client advertised
    the `session.compaction` Client capability.
    """

    session_update: Literal["compaction_update"] = constant_tag(
        "compaction_update", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateCompactionSummaryChunk(CompactionSummaryChunk):
    """
    A content block appended to a context compaction's retained summary.

    Agents MUST only send this update when the Client advertised
    the `session.compaction` Client capability.
    """

    session_update: Literal["compaction_summary_chunk"] = constant_tag(
        "compaction_summary_chunk",
        serialization_alias="sessionUpdate",
        validation_alias="sessionUpdate",
    )


class SessionUpdateSubagentUpdate(SubagentUpdate):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Announces a child session created and owned by this session, or updates
    that ownership association's metadata.
    """

    session_update: Literal["subagent_update"] = constant_tag(
        "subagent_update", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateSessionMessage(SessionMessage):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    A message upsert observed in this session's transcript, sent to or
    received from another session.
    """

    session_update: Literal["session_message"] = constant_tag(
        "session_message", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateSessionMessageChunk(SessionMessageChunk):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    One content block appended to a sent or received session message.
    """

    session_update: Literal["session_message_chunk"] = constant_tag(
        "session_message_chunk",
        serialization_alias="sessionUpdate",
        validation_alias="sessionUpdate",
    )


class ToolCall(Model):
    """
    Represents a tool call that the language model has requested.

    Tool calls are actions that the agent executes on behalf of the language model,
    such as reading files, executing code, or fetching data from external sources.

    See protocol docs: [Tool Calls](https://agentclientprotocol.com/protocol/v1/draft/tool-calls)
    """

    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    Unique identifier for this tool call within the session.
    """
    title: str
    """
    Human-readable title describing what the tool is doing.
    """
    name: str | None = None
    """
    Programmatic name of the tool being invoked.

    This field is optional. Omitting it or sending `null` both mean that no
    tool name is available.
    """
    kind: ToolKind | None = None
    """
    The category of tool being invoked.
    Helps clients choose appropriate icons and UI treatment.
    """
    status: ToolCallStatus | None = None
    """
    Current execution status of the tool call.
    """
    content: list[ToolCallContent] | None = None
    """
    Content produced by the tool call.
    """
    locations: list[ToolCallLocation] | None = None
    """
    File locations affected by this tool call.
    Enables "follow-along" features in clients.
    """
    raw_input: Any | None = Field(
        default=None, validation_alias="rawInput", serialization_alias="rawInput"
    )
    """
    Raw input parameters sent to the tool.
    """
    raw_output: Any | None = Field(
        default=None, validation_alias="rawOutput", serialization_alias="rawOutput"
    )
    """
    Raw output returned by the tool.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ConfigOptionUpdate(Model):
    """
    Session configuration options have been updated.
    """

    config_options: list[SessionConfigOption] = Field(
        validation_alias="configOptions", serialization_alias="configOptions"
    )
    """
    The full set of configuration options and their current values.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ClientCapabilities(Model):
    """
    Capabilities supported by the client.

    Advertised during initialization to inform the agent about
    available features and methods.

    See protocol docs: [Client Capabilities](https://agentclientprotocol.com/protocol/v1/draft/initialization#client-capabilities)
    """

    fs: FileSystemCapabilities | None = Field(
        default={"readTextFile": False, "writeTextFile": False}, validate_default=True
    )
    """
    File system capabilities supported by the client.
    Determines which file operations the agent can request.
    """
    terminal: bool | None = False
    """
    Whether the Client support all `terminal/*` methods.
    """
    session: ClientSessionCapabilities | None = None
    """
    Session-related capabilities supported by the client.

    Optional. Omitted or `null` both mean the client does not advertise any
    session-related extensions.
    """
    subagents: SubagentCapabilities | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Whether the client understands exposed subagent sessions.

    Optional and nullable. Omitted or `null` both mean the client does not
    advertise support.
    Supplying `{}` means the client understands child associations, work-state
    snapshots, session-directed messages, and restricted-session semantics.
    """
    plan: PlanCapabilities | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Whether the client supports `plan_update` and `plan_removed` session updates.

    Optional. Omitted or `null` both mean the client does not advertise support.
    Supplying `{}` means the client can receive both update types.
    """
    auth: AuthCapabilities | None = Field(default={"terminal": False}, validate_default=True)
    """
    Authentication capabilities supported by the client.
    Determines which authentication method types the agent may include
    in its `InitializeResponse`.
    """
    elicitation: ElicitationCapabilities | None = None
    """
    Elicitation capabilities supported by the client.
    Determines which elicitation modes the agent may use.

    Optional. Omitted or `null` both mean the client does not advertise
    elicitation support.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class NewSessionRequest(Model):
    """
    Request parameters for creating a new session.

    See protocol docs: [Creating a Session](https://agentclientprotocol.com/protocol/v1/draft/session-setup#creating-a-session)
    """

    cwd: str
    """
    The working directory for this session. Must be an absolute path.
    """
    additional_directories: list[str] | None = Field(
        default=None,
        validation_alias="additionalDirectories",
        serialization_alias="additionalDirectories",
    )
    """
    Additional workspace roots for this session. Each path must be absolute.

    These expand the session's filesystem scope without changing `cwd`, which
    remains the base for relative paths. When omitted or empty, no
    additional roots are activated for the new session.
    """
    mcp_servers: list[
        Annotated[
            Annotated[McpServerHttpModel, Tag("http")]
            | Annotated[McpServerSseModel, Tag("sse")]
            | Annotated[McpServerAcpModel, Tag("acp")]
            | Annotated[McpServerStdio, Tag(UNTAGGED)],
            by_tag(
                "type",
                (
                    "http",
                    "sse",
                    "acp",
                ),
            ),
        ]
    ] = Field(validation_alias="mcpServers", serialization_alias="mcpServers")
    """
    List of MCP (Model Context Protocol) servers the agent should connect to.
    """
    system_prompt: SystemPrompt | None = Field(
        default=None, validation_alias="systemPrompt", serialization_alias="systemPrompt"
    )
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    System-level instructions for the new session.

    Optional. Omitted and `null` are equivalent and mean the Agent uses its
    own default instructions. Clients MUST only send this when the Agent
    advertises `sessionCapabilities.systemPrompt`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ToolCallUpdate(Model):
    """
    An update to an existing tool call.

    Used to report progress and results as tools execute. All fields except
    the tool call ID are optional - only changed fields need to be included.

    See protocol docs: [Updating](https://agentclientprotocol.com/protocol/v1/draft/tool-calls#updating)
    """

    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    The ID of the tool call being updated.
    """
    kind: ToolKind | None = None
    """
    Update the tool kind.
    """
    status: ToolCallStatus | None = None
    """
    Update the execution status.
    """
    title: str | None = None
    """
    Update the human-readable title.
    """
    name: str | None = None
    """
    Update the programmatic name of the tool being invoked.

    This field is optional. Omitting it or sending `null` both mean that
    the existing name is left unchanged.
    """
    content: list[ToolCallContent] | None = None
    """
    Replace the content collection.
    """
    locations: list[ToolCallLocation] | None = None
    """
    Replace the locations collection.
    """
    raw_input: Any | None = Field(
        default=None, validation_alias="rawInput", serialization_alias="rawInput"
    )
    """
    Update the raw input.
    """
    raw_output: Any | None = Field(
        default=None, validation_alias="rawOutput", serialization_alias="rawOutput"
    )
    """
    Update the raw output.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class CreateElicitationRequestFormSession(
    ElicitationFormModeSession, CreateElicitationRequestFormFields
):
    """
    Form-based elicitation where the client renders a form from the provided schema.
    """

    message: str
    """
    A human-readable message describing what input is needed.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    mode: Literal["form"] = constant_tag("form")


class CreateElicitationRequestFormRequest(
    ElicitationFormModeRequest, CreateElicitationRequestFormFields
):
    """
    Form-based elicitation where the client renders a form from the provided schema.
    """

    message: str
    """
    A human-readable message describing what input is needed.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    Optional. Omitted and `null` are equivalent and mean no metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """
    mode: Literal["form"] = constant_tag("form")


class CreateElicitationRequest(
    RootModel[
        Annotated[
            Annotated[
                CreateElicitationRequestFormSession | CreateElicitationRequestFormRequest,
                Tag("form"),
            ]
            | Annotated[
                CreateElicitationRequestUrlSession | CreateElicitationRequestUrlRequest, Tag("url")
            ]
            | Annotated[
                CreateElicitationRequestOtherSession | CreateElicitationRequestOtherRequest,
                Tag(UNTAGGED),
            ],
            by_tag(
                "mode",
                (
                    "form",
                    "url",
                ),
            ),
        ]
    ]
):
    root: Annotated[
        Annotated[
            CreateElicitationRequestFormSession | CreateElicitationRequestFormRequest, Tag("form")
        ]
        | Annotated[
            CreateElicitationRequestUrlSession | CreateElicitationRequestUrlRequest, Tag("url")
        ]
        | Annotated[
            CreateElicitationRequestOtherSession | CreateElicitationRequestOtherRequest,
            Tag(UNTAGGED),
        ],
        by_tag(
            "mode",
            (
                "form",
                "url",
            ),
        ),
    ]
    """
    Request from the agent to elicit structured user input.

    The agent sends this to the client to request information from the user,
    either via a form or by directing them to a URL.
    Elicitations are tied to a session (optionally a tool call) or a request.
    """


class AgentCapabilities(Model):
    """
    Capabilities supported by the agent.

    Advertised during initialization to inform the client about
    available features and content types.

    See protocol docs: [Agent Capabilities](https://agentclientprotocol.com/protocol/v1/draft/initialization#agent-capabilities)
    """

    load_session: bool | None = Field(
        default=False, validation_alias="loadSession", serialization_alias="loadSession"
    )
    """
    Whether the agent supports `session/load`.
    """
    prompt_capabilities: PromptCapabilities | None = Field(
        default={"image": False, "audio": False, "embeddedContext": False},
        validation_alias="promptCapabilities",
        serialization_alias="promptCapabilities",
        validate_default=True,
    )
    """
    Prompt capabilities supported by the agent.
    """
    mcp_capabilities: McpCapabilities | None = Field(
        default={"http": False, "sse": False, "acp": False},
        validation_alias="mcpCapabilities",
        serialization_alias="mcpCapabilities",
        validate_default=True,
    )
    """
    MCP capabilities supported by the agent.
    """
    session_capabilities: SessionCapabilities | None = Field(
        default={},
        validation_alias="sessionCapabilities",
        serialization_alias="sessionCapabilities",
        validate_default=True,
    )
    """
    Session lifecycle and prompt capabilities advertised by the agent.
    """
    auth: AgentAuthCapabilities | None = Field(default={}, validate_default=True)
    """
    Authentication-related capabilities supported by the agent.
    """
    providers: ProvidersCapabilities | None = None
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Provider configuration capabilities supported by the agent.

    Optional. Omitted or `null` both mean the agent does not advertise support.
    Supplying `{}` means the agent supports provider configuration methods.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class NewSessionResponse(Model):
    """
    Response from creating a new session.

    See protocol docs: [Creating a Session](https://agentclientprotocol.com/protocol/v1/draft/session-setup#creating-a-session)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    Unique identifier for the created session.

    Used in all subsequent requests for this conversation.
    """
    modes: SessionModeState | None = None
    """
    Initial mode state if supported by the Agent

    See protocol docs: [Session Modes](https://agentclientprotocol.com/protocol/v1/draft/session-modes)
    """
    config_options: list[SessionConfigOption] | None = Field(
        default=None, validation_alias="configOptions", serialization_alias="configOptions"
    )
    """
    Initial session configuration options if supported by the Agent.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionUpdateToolCall(ToolCall):
    """
    Notification that a new tool call has been initiated.
    """

    session_update: Literal["tool_call"] = constant_tag(
        "tool_call", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateToolCallUpdate(ToolCallUpdate):
    """
    Update on the status or results of a tool call.
    """

    session_update: Literal["tool_call_update"] = constant_tag(
        "tool_call_update", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateConfigOptionUpdate(ConfigOptionUpdate):
    """
    Session configuration options have been updated.
    """

    session_update: Literal["config_option_update"] = constant_tag(
        "config_option_update",
        serialization_alias="sessionUpdate",
        validation_alias="sessionUpdate",
    )


class InitializeRequest(Model):
    """
    Request parameters for the initialize method.

    Sent by the client to establish connection and negotiate capabilities.

    See protocol docs: [Initialization](https://agentclientprotocol.com/protocol/v1/draft/initialization)
    """

    protocol_version: int = Field(
        validation_alias="protocolVersion", serialization_alias="protocolVersion", ge=0, le=65535
    )
    """
    The latest protocol version supported by the client.
    """
    client_capabilities: ClientCapabilities | None = Field(
        default={
            "fs": {"readTextFile": False, "writeTextFile": False},
            "terminal": False,
            "auth": {"terminal": False},
        },
        validation_alias="clientCapabilities",
        serialization_alias="clientCapabilities",
        validate_default=True,
    )
    """
    Capabilities supported by the client.
    """
    client_info: Implementation | None = Field(
        default=None, validation_alias="clientInfo", serialization_alias="clientInfo"
    )
    """
    Information about the Client name and version sent to the Agent.

    Note: in future versions of the protocol, this will be required.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class InitializeProxyRequest(InitializeRequest):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Request parameters for `proxy/initialize`.

    A conductor sends `proxy/initialize` instead of `initialize` to every component that has a
    successor, which tells the component to run as a proxy. The params and the response are
    the same as for `initialize`. A conductor sends `initialize` to the final agent.

    The params carry the protocol version the conductor selected: the client's requested
    version, unless the conductor supports only a lower one. Before answering successfully,
    the proxy MUST forward an `initialize` request to its successor through `proxy/successor`.

    See the [Proxy Chains RFD](https://agentclientprotocol.com/rfds/proxy-chains).
    """


class RequestPermissionRequest(Model):
    """
    Request for user permission to execute a tool call.

    Sent when the agent needs authorization before performing a sensitive operation.

    See protocol docs: [Requesting Permission](https://agentclientprotocol.com/protocol/v1/draft/tool-calls#requesting-permission)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session ID for this request.
    """
    tool_call: ToolCallUpdate = Field(validation_alias="toolCall", serialization_alias="toolCall")
    """
    Details about the tool call requiring permission.
    """
    options: list[PermissionOption]
    """
    Available permission options for the user to choose from.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class InitializeResponse(Model):
    """
    Response to the `initialize` method.

    Contains the negotiated protocol version and agent capabilities.

    See protocol docs: [Initialization](https://agentclientprotocol.com/protocol/v1/draft/initialization)
    """

    protocol_version: int = Field(
        validation_alias="protocolVersion", serialization_alias="protocolVersion", ge=0, le=65535
    )
    """
    The protocol version the client specified if supported by the agent,
    or the latest protocol version supported by the agent.

    The client should disconnect, if it doesn't support this version.
    """
    agent_capabilities: AgentCapabilities | None = Field(
        default={
            "loadSession": False,
            "promptCapabilities": {"image": False, "audio": False, "embeddedContext": False},
            "mcpCapabilities": {"http": False, "sse": False, "acp": False},
            "sessionCapabilities": {},
            "auth": {},
        },
        validation_alias="agentCapabilities",
        serialization_alias="agentCapabilities",
        validate_default=True,
    )
    """
    Capabilities supported by the agent.
    """
    auth_methods: (
        list[
            Annotated[
                Annotated[AuthMethodTerminalModel, Tag("terminal")]
                | Annotated[AuthMethodAgent, Tag(UNTAGGED)],
                by_tag("type", ("terminal",)),
            ]
        ]
        | None
    ) = Field(
        default=[],
        validation_alias="authMethods",
        serialization_alias="authMethods",
        validate_default=True,
    )
    """
    Authentication methods supported by the agent.
    """
    agent_info: Implementation | None = Field(
        default=None, validation_alias="agentInfo", serialization_alias="agentInfo"
    )
    """
    Information about the Agent name and version sent to the Client.

    Note: in future versions of the protocol, this will be required.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class SessionNotification(Model):
    """
    Notification containing a session update from the agent.

    Used to stream real-time progress and results during prompt processing.

    See protocol docs: [Agent Reports Output](https://agentclientprotocol.com/protocol/v1/draft/prompt-turn#3-agent-reports-output)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session this update pertains to.
    """
    update: SessionUpdate
    """
    The actual update content.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Implementations MUST NOT make assumptions about values at
    these keys.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v1/draft/extensibility)
    """


class ProxyRequest(Model):
    """
    A JSON-RPC request object.
    """

    id: int | str | None
    """
    The request id used to correlate the matching response.
    """
    method: str
    """
    The method name to invoke.
    """
    params: InitializeProxyRequest | ProxySuccessorRequest | None = None
    """
    Method-specific request parameters.
    """


class InitializeProxyResponse(InitializeResponse):
    """
    **UNSTABLE**

    This capability is not part of the spec yet, and may be removed or changed at any point.

    Response to `proxy/initialize`.

    The same as the `initialize` response. The proxy builds it from its successor's
    `initialize` response and answers with the capabilities of the chain from itself onward.
    It MUST NOT change `protocolVersion`.
    """


class ProxyResponseResult(Model):
    """
    A successful JSON-RPC response.
    """

    id: int | str | None
    """
    The id of the request this response answers.
    """
    result: InitializeProxyResponse | Any
    """
    Method-specific response data.
    """


class ProxyResponse(RootModel[ProxyResponseResult | ProxyResponseError]):
    root: ProxyResponseResult | ProxyResponseError
    """
    A JSON-RPC response object.
    """


RequestId: TypeAlias = int | str | None
"""JSON RPC Request Id An identifier established by the Client that MUST contain a String, Number, or NULL value if included. If it is not included it is assumed to be a notification. The value SHOULD normally not be Null \\[1\\] and Numbers SHOULD NOT contain fractional parts \\[2\\] The Server MUST reply with the same value in the Response object if included. This member is used to correlate the context between the two objects. \\[1\\] The use of Null as a value for the id member in a Request object is discouraged, because this specification uses a value of Null for Responses with an unknown id. Also, because JSON-RPC 1.0 uses an id value of Null for Notifications this could cause confusion in handling. \\[2\\] Fractional parts may be problematic, since many decimal fractions cannot be represented exactly as binary fractions."""


SessionId: TypeAlias = str
"""A unique identifier for a conversation session between a client and agent. Each session has its own context, conversation history, and state, so one agent can run several independent sessions. See protocol docs: [Session ID](https://agentclientprotocol.com/protocol/v1/draft/session-setup#session-id)"""


ToolCallId: TypeAlias = str
"""Unique identifier for a tool call within a session."""


class UnknownToolCallContent(Model):
    """A variant of ``ToolCallContent`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "content",
                "diff",
                "terminal",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidToolCallContent(InvalidVariant):
    """A known variant of ``ToolCallContent`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "content",
                "diff",
                "terminal",
            )
        ),
    ]
    """The tag, as sent."""


ToolCallContent: TypeAlias = Annotated[
    Annotated[
        ToolCallContentContent | ToolCallContentDiff | ToolCallContentTerminal,
        Field(discriminator="type"),
    ]
    | UnknownToolCallContent
    | InvalidToolCallContent,
    Field(union_mode="left_to_right"),
]
"""Content produced by a tool call. Tool calls can produce different types of content including standard content blocks (text, images) or file diffs. See protocol docs: [Content](https://agentclientprotocol.com/protocol/v1/draft/tool-calls#content) A variant this version does not know (from a newer peer) is an ``UnknownToolCallContent``; a known one whose data a peer sent does not match its schema, an ``InvalidToolCallContent``."""


class UnknownContentBlock(Model):
    """A variant of ``ContentBlock`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "text",
                "image",
                "audio",
                "resource_link",
                "resource",
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
                "image",
                "audio",
                "resource_link",
                "resource",
            )
        ),
    ]
    """The tag, as sent."""


ContentBlock: TypeAlias = Annotated[
    Annotated[
        ContentBlockText
        | ContentBlockImage
        | ContentBlockAudio
        | ContentBlockResourceLink
        | ContentBlockResource,
        Field(discriminator="type"),
    ]
    | UnknownContentBlock
    | InvalidContentBlock,
    Field(union_mode="left_to_right"),
]
"""Content blocks represent displayable information in the Agent Client Protocol. Content blocks appear in: - User prompts sent via `session/prompt` - Language model output streamed through `session/update` notifications - Progress updates and results from tool calls This structure is compatible with the Model Context Protocol (MCP), so agents can forward content from MCP tool outputs without transformation. See protocol docs: [Content](https://agentclientprotocol.com/protocol/v1/draft/content) A variant this version does not know (from a newer peer) is an ``UnknownContentBlock``; a known one whose data a peer sent does not match its schema, an ``InvalidContentBlock``."""


EmbeddedResourceResource: TypeAlias = TextResourceContents | BlobResourceContents
"""Resource content that can be embedded in a message."""


TerminalId: TypeAlias = str
"""Typed identifier used for terminal values on the wire."""


PermissionOptionId: TypeAlias = str
"""Unique identifier for a permission option."""


ElicitationPropertySchema: TypeAlias = Annotated[
    Annotated[ElicitationPropertySchemaString, Tag("string")]
    | Annotated[ElicitationPropertySchemaNumber, Tag("number")]
    | Annotated[ElicitationPropertySchemaInteger, Tag("integer")]
    | Annotated[ElicitationPropertySchemaBoolean, Tag("boolean")]
    | Annotated[ElicitationPropertySchemaArray, Tag("array")]
    | Annotated[ElicitationPropertySchemaOther, Tag(UNTAGGED)],
    by_tag(
        "type",
        (
            "string",
            "number",
            "integer",
            "boolean",
            "array",
        ),
    ),
]
"""Property schema for elicitation form fields. Each variant corresponds to a JSON Schema `\"type\"` value. Single-select enums use `type: \"string\"` with `enum` or `oneOf` set. Multi-select enums use `type: \"array\"`."""


MultiSelectItems: TypeAlias = Annotated[
    Annotated[MultiSelectItemsString, Tag("string")]
    | Annotated[MultiSelectItemsOther | TitledMultiSelectItems, Tag(UNTAGGED)],
    by_tag("type", ("string",)),
]
"""Items for a multi-select (array) property schema."""


ElicitationFormMode: TypeAlias = ElicitationFormModeSession | ElicitationFormModeRequest
"""Form-based elicitation mode where the client renders a form from the provided schema."""


ElicitationUrlMode: TypeAlias = ElicitationUrlModeSession | ElicitationUrlModeRequest
"""URL-based elicitation mode where the client directs the user to a URL."""


McpServerAcpId: TypeAlias = str
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. Unique identifier for an MCP server using the ACP transport. The value is opaque and generated by the ACP component providing the MCP server. It is used by `mcp/message` to route requests to the component that declared the server."""


McpRequestId: TypeAlias = str
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. Identifies an inner MCP request active against a server on this ACP connection. Generated by the caller and preserved unchanged by proxies. This is distinct from the outer ACP JSON-RPC request ID."""


ProtocolVersion: TypeAlias = Annotated[int, Field(ge=0, le=65535)]
"""Protocol version identifier. This version is only bumped for breaking changes. Non-breaking changes should be introduced via capabilities."""


AuthMethod: TypeAlias = Annotated[
    Annotated[AuthMethodTerminalModel, Tag("terminal")] | Annotated[AuthMethodAgent, Tag(UNTAGGED)],
    by_tag("type", ("terminal",)),
]
"""Describes an available authentication method. The `type` field acts as the discriminator in the serialized JSON form. When no `type` is present, the method is treated as `agent`."""


AuthMethodId: TypeAlias = str
"""Typed identifier used for auth method values on the wire."""


ProviderId: TypeAlias = str
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. Unique identifier for a configurable LLM provider."""


LlmProtocol: TypeAlias = (
    Literal["anthropic"]
    | Literal["openai"]
    | Literal["azure"]
    | Literal["vertex"]
    | Literal["bedrock"]
    | str
)
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. Well-known API protocol identifiers for LLM providers. Agents and clients MUST handle unknown protocol identifiers gracefully. Protocol names beginning with `_` are free for custom use, like other ACP extension methods. Protocol names that do not begin with `_` are reserved for the ACP spec."""


AuthState: TypeAlias = (
    Literal["authenticated"]
    | Literal["unauthenticated"]
    | Literal["not_required"]
    | Literal["unknown"]
    | str
)
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. The agent's overall authentication state."""


SessionModeId: TypeAlias = str
"""Unique identifier for a Session Mode."""


class UnknownSessionConfigOption(Model):
    """A variant of ``SessionConfigOption`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "select",
                "boolean",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidSessionConfigOption(InvalidVariant):
    """A known variant of ``SessionConfigOption`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "select",
                "boolean",
            )
        ),
    ]
    """The tag, as sent."""


SessionConfigOption: TypeAlias = Annotated[
    Annotated[SessionConfigOptionSelect | SessionConfigOptionBoolean, Field(discriminator="type")]
    | UnknownSessionConfigOption
    | InvalidSessionConfigOption,
    Field(union_mode="left_to_right"),
]
"""A session configuration option selector and its current state. A variant this version does not know (from a newer peer) is an ``UnknownSessionConfigOption``; a known one whose data a peer sent does not match its schema, an ``InvalidSessionConfigOption``."""


SessionConfigId: TypeAlias = str
"""Unique identifier for a session configuration option."""


SessionConfigOptionCategory: TypeAlias = (
    Literal["mode"] | Literal["model"] | Literal["model_config"] | Literal["thought_level"] | str
)
"""Semantic category for a session configuration option. This is intended to help Clients distinguish broadly common selectors (e.g. model selector vs session mode selector vs thought/reasoning level) for UX purposes (keyboard shortcuts, icons, placement). It MUST NOT be required for correctness. Clients MUST handle missing or unknown categories gracefully. Category names beginning with `_` are free for custom use, like other ACP extension methods. Category names that do not begin with `_` are reserved for the ACP spec."""


SessionConfigValueId: TypeAlias = str
"""Unique identifier for a session configuration option value."""


SessionConfigSelectOptions: TypeAlias = (
    list[SessionConfigSelectOption] | list[SessionConfigSelectGroup]
)
"""Possible values for a session configuration option."""


SessionConfigGroupId: TypeAlias = str
"""Unique identifier for a session configuration option value group."""


SessionStatus: TypeAlias = Literal["open"] | Literal["saved"] | str
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. Whether the Agent has a session in memory, as reported by `session/status`."""


ErrorCode: TypeAlias = (
    Literal[-32700]
    | Literal[-32600]
    | Literal[-32601]
    | Literal[-32602]
    | Literal[-32603]
    | Literal[-32800]
    | Literal[-32000]
    | Literal[-32002]
    | int
)
"""Predefined error codes for common JSON-RPC and ACP-specific errors. Standard errors use the JSON-RPC 2.0 codes. ACP-specific errors use the JSON-RPC server-error range (-32000 to -32099), and request cancellation uses -32800 from the range LSP reserves (-32899 to -32800)."""


class UnknownSessionUpdate(Model):
    """A variant of ``SessionUpdate`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    session_update: Annotated[
        str,
        not_one_of(
            (
                "user_message_chunk",
                "agent_message_chunk",
                "agent_thought_chunk",
                "tool_call",
                "tool_call_update",
                "plan",
                "plan_update",
                "plan_removed",
                "available_commands_update",
                "current_mode_update",
                "config_option_update",
                "session_info_update",
                "usage_update",
                "notice",
                "compaction_update",
                "compaction_summary_chunk",
                "subagent_update",
                "session_message",
                "session_message_chunk",
            )
        ),
    ] = Field(validation_alias="sessionUpdate", serialization_alias="sessionUpdate")
    """The tag, as sent."""


class InvalidSessionUpdate(InvalidVariant):
    """A known variant of ``SessionUpdate`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    session_update: Annotated[
        str,
        one_of(
            (
                "user_message_chunk",
                "agent_message_chunk",
                "agent_thought_chunk",
                "tool_call",
                "tool_call_update",
                "plan",
                "plan_update",
                "plan_removed",
                "available_commands_update",
                "current_mode_update",
                "config_option_update",
                "session_info_update",
                "usage_update",
                "notice",
                "compaction_update",
                "compaction_summary_chunk",
                "subagent_update",
                "session_message",
                "session_message_chunk",
            )
        ),
    ] = Field(validation_alias="sessionUpdate", serialization_alias="sessionUpdate")
    """The tag, as sent."""


SessionUpdate: TypeAlias = Annotated[
    Annotated[
        SessionUpdateUserMessageChunk
        | SessionUpdateAgentMessageChunk
        | SessionUpdateAgentThoughtChunk
        | SessionUpdateToolCall
        | SessionUpdateToolCallUpdate
        | SessionUpdatePlan
        | SessionUpdatePlanUpdate
        | SessionUpdatePlanRemoved
        | SessionUpdateAvailableCommandsUpdate
        | SessionUpdateCurrentModeUpdate
        | SessionUpdateConfigOptionUpdate
        | SessionUpdateSessionInfoUpdate
        | SessionUpdateUsageUpdate
        | SessionUpdateNotice
        | SessionUpdateCompactionUpdate
        | SessionUpdateCompactionSummaryChunk
        | SessionUpdateSubagentUpdate
        | SessionUpdateSessionMessage
        | SessionUpdateSessionMessageChunk,
        Field(discriminator="session_update"),
    ]
    | UnknownSessionUpdate
    | InvalidSessionUpdate,
    Field(union_mode="left_to_right"),
]
"""Different types of updates that can be sent during session processing. These updates provide real-time feedback about the agent's progress. See protocol docs: [Agent Reports Output](https://agentclientprotocol.com/protocol/v1/draft/prompt-turn#3-agent-reports-output) A variant this version does not know (from a newer peer) is an ``UnknownSessionUpdate``; a known one whose data a peer sent does not match its schema, an ``InvalidSessionUpdate``."""


MessageId: TypeAlias = str
"""Unique identifier for a message within a session."""


class UnknownPlanUpdateContent(Model):
    """A variant of ``PlanUpdateContent`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "items",
                "file",
                "markdown",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidPlanUpdateContent(InvalidVariant):
    """A known variant of ``PlanUpdateContent`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "items",
                "file",
                "markdown",
            )
        ),
    ]
    """The tag, as sent."""


PlanUpdateContent: TypeAlias = Annotated[
    Annotated[
        PlanUpdateContentItems | PlanUpdateContentFile | PlanUpdateContentMarkdown,
        Field(discriminator="type"),
    ]
    | UnknownPlanUpdateContent
    | InvalidPlanUpdateContent,
    Field(union_mode="left_to_right"),
]
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. Updated content for a plan. A variant this version does not know (from a newer peer) is an ``UnknownPlanUpdateContent``; a known one whose data a peer sent does not match its schema, an ``InvalidPlanUpdateContent``."""


PlanId: TypeAlias = str
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. Unique identifier for a plan within a session."""


NoticeSeverity: TypeAlias = Literal["info"] | Literal["warning"] | Literal["error"] | str
"""Severity hint for a session notice."""


CompactionId: TypeAlias = str
"""Unique identifier for a context compaction within a session."""


CompactionStatus: TypeAlias = (
    Literal["in_progress"] | Literal["completed"] | Literal["failed"] | Literal["cancelled"] | str
)
"""Lifecycle state of a context compaction."""


StateUpdate: TypeAlias = Annotated[
    Annotated[StateUpdateRunning, Tag("running")]
    | Annotated[StateUpdateRequiresAction, Tag("requires_action")]
    | Annotated[StateUpdateUnknown, Tag("unknown")]
    | Annotated[
        Annotated[
            Annotated[StateUpdateIdleEndTurn, Tag("end_turn")]
            | Annotated[StateUpdateIdleMaxTokens, Tag("max_tokens")]
            | Annotated[StateUpdateIdleMaxTurnRequests, Tag("max_turn_requests")]
            | Annotated[StateUpdateIdleRefusal, Tag("refusal")]
            | Annotated[StateUpdateIdleCancelled, Tag("cancelled")]
            | Annotated[StateUpdateIdleError, Tag("error")]
            | Annotated[StateUpdateIdleOther | StateUpdateIdleNone, Tag(UNTAGGED)],
            by_tag(
                "stopReason",
                (
                    "end_turn",
                    "max_tokens",
                    "max_turn_requests",
                    "refusal",
                    "cancelled",
                    "error",
                ),
            ),
        ],
        Tag("idle"),
    ]
    | Annotated[StateUpdateOther, Tag(UNTAGGED)],
    by_tag(
        "state",
        (
            "running",
            "requires_action",
            "unknown",
            "idle",
        ),
    ),
]
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. Current foreground-work state of a reusable child session. Each update is a whole-object snapshot. Idle does not terminate the child. The parent can message it again, transitioning it back to running. Background activity may still emit other session updates while idle."""


IdleStateUpdate: TypeAlias = Annotated[
    Annotated[IdleStateUpdateEndTurn, Tag("end_turn")]
    | Annotated[IdleStateUpdateMaxTokens, Tag("max_tokens")]
    | Annotated[IdleStateUpdateMaxTurnRequests, Tag("max_turn_requests")]
    | Annotated[IdleStateUpdateRefusal, Tag("refusal")]
    | Annotated[IdleStateUpdateCancelled, Tag("cancelled")]
    | Annotated[IdleStateUpdateError, Tag("error")]
    | Annotated[IdleStateUpdateOther | IdleStateUpdateNone, Tag(UNTAGGED)],
    by_tag(
        "stopReason",
        (
            "end_turn",
            "max_tokens",
            "max_turn_requests",
            "refusal",
            "cancelled",
            "error",
        ),
    ),
]
"""The child is ready to process another prompt. An omitted, `null`, or malformed `stopReason` means not reported."""


McpServer: TypeAlias = Annotated[
    Annotated[McpServerHttpModel, Tag("http")]
    | Annotated[McpServerSseModel, Tag("sse")]
    | Annotated[McpServerAcpModel, Tag("acp")]
    | Annotated[McpServerStdio, Tag(UNTAGGED)],
    by_tag(
        "type",
        (
            "http",
            "sse",
            "acp",
        ),
    ),
]
"""Configuration for connecting to an MCP (Model Context Protocol) server. MCP servers provide tools and context that the agent can use when processing prompts. See protocol docs: [MCP Servers](https://agentclientprotocol.com/protocol/v1/draft/session-setup#mcp-servers)"""


SystemPromptMode: TypeAlias = Literal["append"] | Literal["override"] | str
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. How the Agent combines a client-provided system prompt with its own instructions. Unknown modes are preserved so they can be stored, proxied, or forwarded. An Agent MUST return an error for a mode it does not support rather than treating it as `append` or `override`."""


SessionArchiveFilter: TypeAlias = Literal["exclude"] | Literal["include"] | Literal["only"] | str
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. Which sessions `session/list` returns based on their archive state. Unknown values are preserved so they can be stored, proxied, or forwarded. An Agent MUST return `-32602` for a value it does not support rather than treating it as `exclude`."""


class UnknownRequestPermissionOutcome(Model):
    """A variant of ``RequestPermissionOutcome`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    outcome: Annotated[
        str,
        not_one_of(
            (
                "cancelled",
                "selected",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidRequestPermissionOutcome(InvalidVariant):
    """A known variant of ``RequestPermissionOutcome`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    outcome: Annotated[
        str,
        one_of(
            (
                "cancelled",
                "selected",
            )
        ),
    ]
    """The tag, as sent."""


RequestPermissionOutcome: TypeAlias = Annotated[
    Annotated[
        RequestPermissionOutcomeCancelled | RequestPermissionOutcomeSelected,
        Field(discriminator="outcome"),
    ]
    | UnknownRequestPermissionOutcome
    | InvalidRequestPermissionOutcome,
    Field(union_mode="left_to_right"),
]
"""The outcome of a permission request. A variant this version does not know (from a newer peer) is an ``UnknownRequestPermissionOutcome``; a known one whose data a peer sent does not match its schema, an ``InvalidRequestPermissionOutcome``."""


ElicitationContentValue: TypeAlias = str | int | float | bool | list[str]
"""Allowed wire representations for `ElicitationContentValue`."""


ProxySuccessorResponse: TypeAlias = Any
"""**UNSTABLE** This capability is not part of the spec yet, and may be removed or changed at any point. Result of a `proxy/successor` request: the wrapped request's result, forwarded unchanged."""
