"""Generated from schemas/acp/schema.v2.json. Do not edit: run `codegen build`."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, TypeAlias

from pydantic import AwareDatetime, ConfigDict, Field, RootModel, Tag

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


class UnknownCreateElicitationRequest(Model):
    """A variant of ``CreateElicitationRequest`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    mode: Annotated[
        str,
        not_one_of(
            (
                "form",
                "url",
            )
        ),
    ]
    """The tag, as sent."""


class UnknownStateUpdate(Model):
    """A variant of ``StateUpdate`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    state: Annotated[
        str,
        not_one_of(
            (
                "running",
                "requires_action",
                "idle",
            )
        ),
    ]
    """The tag, as sent."""


class TextResourceContents(Model):
    """
    Text-based resource contents.
    """

    text: str
    """
    Text payload carried by this content block.
    """
    uri: Url
    """
    URI associated with this resource or media payload.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type describing the encoded media payload.

    Omitted and `null` are equivalent and mean the MIME type is not specified.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class BlobResourceContents(Model):
    """
    Binary resource contents.
    """

    blob: str = Field(json_schema_extra={"contentEncoding": "base64"})
    """
    Base64-encoded bytes for a binary resource payload.
    """
    uri: Url
    """
    URI associated with this resource or media payload.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type describing the encoded media payload.

    Omitted and `null` are equivalent and mean the MIME type is not specified.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class DiffPathChange(Model):
    """
    Operation metadata for add, delete, and modify changes.
    """

    path: str
    """
    Absolute path for the operation.
    """


class DiffPathPairChange(Model):
    """
    Operation metadata for move and copy changes.
    """

    old_path: str = Field(validation_alias="oldPath", serialization_alias="oldPath")
    """
    Absolute path before the operation.
    """
    path: str
    """
    Absolute path after the operation.
    """


class Terminal(Model):
    """
    A display-only reference to an agent-owned terminal.

    Terminal state and output are delivered separately through
    `terminal_update` and `terminal_output_chunk` session updates.
    """

    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    The ID of the terminal to display.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ToolCallLocation(Model):
    """
    A file location being accessed or modified by a tool.

    Enables clients to implement "follow-along" features that track
    which files the agent is working with in real-time.

    See protocol docs: [Following the Agent](https://agentclientprotocol.com/protocol/v2/tool-calls#following-the-agent)
    """

    path: str
    """
    The absolute file path being accessed or modified.
    """
    line: int | None = Field(default=None, ge=1)
    """
    Optional 1-based line number within the file. Omitted and `null` are equivalent and
    mean no specific line. `0` is invalid.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ToolCallCancelCapabilities(Model):
    """
    Capability to cancel a tool call with `tool_call/cancel`.

    Supplying `{}` advertises support. An omitted or `null` `cancel` does not.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class CommandPermissionSubject(Model):
    """
    Permission request details for a command.
    """

    command: str
    """
    The command that would be run if permission is granted.
    """
    cwd: str
    """
    The absolute working directory for the command.
    """
    tool_call_id: str | None = Field(
        default=None, validation_alias="toolCallId", serialization_alias="toolCallId"
    )
    """
    The associated tool call, when known. Omitted and `null` are equivalent.
    """
    terminal_id: str | None = Field(
        default=None, validation_alias="terminalId", serialization_alias="terminalId"
    )
    """
    The associated terminal, when already known. Omitted and `null` are equivalent.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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

    request_id: int | str = Field(validation_alias="requestId", serialization_alias="requestId")
    """
    The pending Client-to-Agent request this elicitation is tied to.
    """


ElicitationSchemaType: TypeAlias = Literal["object"] | UnknownValue
"""Type discriminator for elicitation schemas.

- ``object``: Object schema type.

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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    Pattern the string must match, in ECMA-262 regular expression syntax.

    Optional. Omitted and `null` are equivalent and mean there is no pattern constraint.
    """
    format: (
        Literal["email"] | Literal["uri"] | Literal["date"] | Literal["date-time"] | str | None
    ) = None
    """
    String format.

    Optional. Omitted and `null` are equivalent and mean there is no format constraint.
    """
    default: str | None = None
    """
    Default value.

    Optional. Omitted and `null` are equivalent and mean no default value is provided.
    """
    enum: list[str] | None = Field(default=None, min_length=1)
    """
    Enum values for untitled single-select enums.
    Must contain at least one value when present.
    Optional. Omitted and `null` are equivalent and mean no untitled single-select choices are
    declared by `enum`.
    """
    one_of: list[EnumOption] | None = Field(
        default=None, validation_alias="oneOf", serialization_alias="oneOf", min_length=1
    )
    """
    Titled enum options for titled single-select enums.
    Must contain at least one option when present.
    Optional. Omitted and `null` are equivalent and mean no titled single-select choices are
    declared by `oneOf`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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

    enum: list[str] = Field(min_length=1)
    """
    Allowed enum values. Must contain at least one value.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class TitledMultiSelectItems(Model):
    """
    Items definition for titled multi-select enum properties.
    """

    any_of: list[EnumOption] = Field(
        validation_alias="anyOf", serialization_alias="anyOf", min_length=1
    )
    """
    Titled enum options. Must contain at least one option.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ProtocolVersion(RootModel[int]):
    root: int = Field(ge=0, le=65535)
    """
    Protocol version identifier.

    This version is only bumped for breaking changes.
    Non-breaking changes should be introduced via capabilities.
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

    Omitted and `null` are equivalent and mean the `name` is used for display.
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class PromptImageCapabilities(Model):
    """
    Capabilities for image content in prompt requests.

    Supplying `{}` means the agent supports image content in prompts.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class PromptAudioCapabilities(Model):
    """
    Capabilities for audio content in prompt requests.

    Supplying `{}` means the agent supports audio content in prompts.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class PromptEmbeddedContextCapabilities(Model):
    """
    Capabilities for embedded context in prompt requests.

    Supplying `{}` means the agent supports embedded context in prompts.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class McpStdioCapabilities(Model):
    """
    Capabilities for stdio MCP server transports.

    Supplying `{}` means the agent supports stdio MCP server transports.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class McpHttpCapabilities(Model):
    """
    Capabilities for HTTP MCP server transports.

    Supplying `{}` means the agent supports HTTP MCP server transports.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SessionAdditionalDirectoriesCapabilities(Model):
    """
    Capabilities for additional session directories support.

    Supplying `{}` means the agent supports the `additionalDirectories` field on
    supported session lifecycle requests. Agents may return
    `SessionInfo.additionalDirectories` in `session/list` to report the
    complete ordered additional-root list associated with a listed session.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class AgentAuthCapabilities(Model):
    """
    Authentication-related extension capabilities supported by the agent.

    This object does not advertise support for `auth/login` or `auth/logout`.
    Those methods are advertised by a non-empty `authMethods` list in the
    `initialize` response.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class EnvVariable(Model):
    """
    An environment variable to set when launching a process.
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class AuthMethodTerminal(Model):
    """
    Terminal-based authentication method.

    The client runs the configured agent program as a separate interactive
    process for the user to authenticate via a TUI. Agents MUST advertise this
    method only when the client enabled its terminal authentication capability.
    A zero exit status signals success. Any other termination signals failure.
    The client MUST NOT pass this method to `auth/login`.
    """

    method_id: str = Field(validation_alias="methodId", serialization_alias="methodId")
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

    Omitted and `null` are equivalent and mean no description is provided.
    """
    args: list[str] | None = None
    """
    Additional arguments to append to the configured agent invocation for terminal auth.
    """
    env: list[EnvVariable] | None = None
    """
    Additional environment variables to set on the configured agent invocation for terminal auth.
    Names MUST be unique. These values override same-named variables in the
    base launch configuration.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class AuthMethodAgent(Model):
    """
    Agent handles authentication itself through `auth/login`.

    The `type` discriminator value is `agent`.
    """

    method_id: str = Field(validation_alias="methodId", serialization_alias="methodId")
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

    Omitted and `null` are equivalent and mean no description is provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class LoginAuthResponse(Model):
    """
    Response to the `auth/login` method.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class LogoutAuthResponse(Model):
    """
    Response to the `auth/logout` method.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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

    Omitted and `null` are equivalent and mean no description is provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SessionConfigBoolean(Model):
    """
    A boolean on/off toggle session configuration option payload.
    """

    current_value: bool = Field(validation_alias="currentValue", serialization_alias="currentValue")
    """
    The current value of the boolean option.
    """


class TextCommandInput(Model):
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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

    Omitted and `null` are equivalent and mean no title is provided.
    """
    updated_at: AwareDatetime | None = Field(
        default=None, validation_alias="updatedAt", serialization_alias="updatedAt"
    )
    """
    RFC 3339 timestamp of last activity.

    Omitted and `null` are equivalent and mean the last activity time is not reported.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class CancelToolCallResponse(Model):
    """
    Response from cancelling a tool call.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class CancelTerminalResponse(Model):
    """
    Response from cancelling a terminal.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ExtResponse(RootModel[Any]):
    root: Any
    """
    Allows for sending an arbitrary response to an extension request that is not part of the ACP spec.
    Extension methods provide a way to add custom functionality while maintaining
    protocol compatibility.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class UnsupportedProtocolVersionErrorData(Model):
    """
    Data for the `-32022` (Unsupported protocol version) error.

    See protocol docs: [Version Negotiation](https://agentclientprotocol.com/protocol/v2/initialization#version-negotiation)
    """

    requested: int = Field(ge=0, le=65535)
    """
    The protocol version the Client requested.
    """
    supported: list[ProtocolVersion]
    """
    The protocol versions the Agent supports.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SessionNotFoundErrorData(Model):
    """
    Data for the `-32002` (Resource not found) error when a session-scoped request names a
    session that does not exist or is not active.

    See protocol docs: [Unknown Sessions](https://agentclientprotocol.com/protocol/v2/error#unknown-sessions)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session ID from the request.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SessionUpdateStateUpdate(Model):
    """
    A snapshot of the session's aggregate foreground activity.

    The fields of ``StateUpdate`` (one of its variants) are kept as sent, in ``model_extra``: validate them with its ``TypeAdapter``.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow",
    )
    session_update: Literal["state_update"] = constant_tag(
        "state_update", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class BackgroundTerminal(Model):
    """
    A listed terminal running in the background.
    """

    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    The ID of the listed terminal.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class BackgroundToolCall(Model):
    """
    A listed tool call whose work continues in the background.
    """

    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    The ID of the listed tool call.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class StateUpdateIdleFields(Model):
    """
    No foreground work is active. Background activity may continue.
    """

    state: Literal["idle"] = constant_tag("idle")


class TerminalOutput(Model):
    """
    An authoritative replacement snapshot of terminal output bytes.
    """

    data: str = Field(json_schema_extra={"contentEncoding": "base64"})
    """
    Base64-encoded replacement terminal output bytes.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class TerminalExitStatus(Model):
    """
    Exit information for an agent-owned terminal.

    The presence of this object marks the terminal as exited, even when neither
    an exit code nor a signal is known.
    """

    exit_code: int | None = Field(
        default=None, validation_alias="exitCode", serialization_alias="exitCode"
    )
    """
    Process exit code as the platform reports it, when known. Negative values are
    allowed, for example signed Windows exit codes. Omitted and `null` are equivalent.
    """
    signal: str | None = None
    """
    Signal that terminated the process, when known.

    Agents should use the conventional platform signal name. POSIX examples
    include `SIGTERM`, `SIGKILL`, and `SIGINT`. Other platforms may use a
    platform-specific name. Omitted and `null` are equivalent.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class TerminalSize(Model):
    """
    The size of an agent-owned terminal in character cells.
    """

    cols: int = Field(ge=1, le=65535)
    """
    Number of columns.
    """
    rows: int = Field(ge=1, le=65535)
    """
    Number of rows.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class TerminalCancelCapabilities(Model):
    """
    Capability to cancel a terminal with `terminal/cancel`.

    Supplying `{}` advertises support. An omitted or `null` `cancel` does not.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class TerminalOutputChunk(Model):
    """
    A chunk of bytes appended to an agent-owned terminal's output.
    """

    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    The terminal receiving these bytes.
    """
    data: str = Field(json_schema_extra={"contentEncoding": "base64"})
    """
    Independently base64-encoded terminal output bytes.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.
    This metadata is scoped to the chunk and does not patch stored metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SessionInfoUpdate(Model):
    """
    Update to session metadata. All fields are optional to support partial updates.

    Agents send this notification to update session information like title or custom metadata.
    Clients can use it to keep session titles and state current.

    Omitted fields leave the existing session info unchanged. `null` clears the
    corresponding value. A concrete `_meta` object patches the stored metadata by
    top-level key.
    """

    title: str | None = None
    """
    Human-readable title for the session. Set to null to clear.
    """
    updated_at: AwareDatetime | None = Field(
        default=None, validation_alias="updatedAt", serialization_alias="updatedAt"
    )
    """
    RFC 3339 timestamp of last activity. Set to null to clear.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted leaves the stored metadata unchanged. `null`
    clears it. An object patches the stored metadata by top-level key: keys it omits are
    unchanged, a key set to `null` is removed, and any other value replaces that key's
    stored value without merging nested objects. Beyond this patch rule, implementations
    MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Metadata Patches](https://agentclientprotocol.com/protocol/v2/extensibility#metadata-patches)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    Cumulative session cost.

    Omitted leaves the last reported cost unchanged. `null` clears it. A value replaces it.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class Notice(Model):
    """
    Fire-and-forget information for the user.

    Notices are live events rather than session history. Agents must not rely on
    a notice being received, displayed, or seen by the user.
    No Client capability is required, and unsupported Clients may ignore notices.

    See protocol docs: [Session Notices](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#session-notices)
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
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class CompleteElicitationNotification(Model):
    """
    Notification sent by the agent when a URL-based elicitation is complete.

    This notification is not a foreground state update.
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ExtNotification(RootModel[Any]):
    root: Any
    """
    Allows either side to send an arbitrary notification that is not part of the ACP spec.
    Extension notifications provide a way to send one-way messages for custom functionality
    while maintaining protocol compatibility.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class TerminalAuthCapabilities(Model):
    """
    Capabilities for terminal authentication methods.

    Supplying `{}` means the client can reproduce the configured agent
    invocation in an interactive terminal and supports terminal authentication
    methods.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class LoginAuthRequest(Model):
    """
    Request parameters for the `auth/login` method.

    Specifies which authentication method to use.

    Agents MUST support this method when their `initialize` response included
    a non-empty `authMethods` list. Clients MUST NOT call this method
    when `authMethods` was omitted or empty.
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class LogoutAuthRequest(Model):
    """
    Request parameters for the `auth/logout` method.

    Terminates the current authenticated session.

    Agents MUST support this method when their `initialize` response included
    a non-empty `authMethods` list. Clients MUST NOT call this method
    when `authMethods` was omitted or empty.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class McpServerHttp(Model):
    """
    HTTP transport configuration for MCP.
    """

    name: str
    """
    Human-readable name identifying this MCP server.
    """
    url: Url
    """
    URL to the MCP server.
    """
    headers: list[HttpHeader] | None = None
    """
    HTTP headers to set when making requests to the MCP server. Headers the MCP transport
    defines are owned by the transport, and Agents use the transport's values for them.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    args: list[str] | None = None
    """
    Command-line arguments to pass to the MCP server.
    """
    env: list[EnvVariable] | None = None
    """
    Environment variables to set when launching the MCP server. Names SHOULD be unique.
    Agents MAY reject duplicates with `-32602`, and otherwise the last entry wins.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ListSessionsRequest(Model):
    """
    Request parameters for listing existing sessions.
    """

    cwd: str | None = None
    """
    Filter sessions by working directory. Must be an absolute path.

    Only sessions whose `cwd` is this same directory match. Subdirectories and
    `additionalDirectories` don't. Agents MAY normalize paths when comparing.

    Omitted and `null` are equivalent and mean sessions are not filtered by working directory.
    """
    cursor: str | None = None
    """
    Opaque cursor token from a previous response's nextCursor field for cursor-based pagination

    Omitted and `null` are equivalent and mean the first page is requested.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class DeleteSessionRequest(Model):
    """
    Request parameters for deleting an existing session from `session/list`.

    Only available if the Agent supports the `session.delete` capability.
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ReplayFromStart(Model):
    """
    Inclusive replay cursor requesting replay from the start of retained conversation history.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class CloseSessionRequest(Model):
    """
    Request parameters for closing an active session.

    The Agent MUST cancel any ongoing work related to the session as if `session/cancel`
    was called, then free the resources associated with the session. Unlike `session/cancel`,
    closing also stops the session's background work. After the close response, the Agent
    sends no other messages for the session on that connection.

    Closing a session that does not exist or is not active SHOULD succeed, and Clients SHOULD
    treat a `-32002` response as a successful close.

    When closing cancels active foreground work, the Agent MUST send the final
    updates for that work and the idle `state_update` with `stopReason: "cancelled"`
    before responding successfully to `session/close`. Closing an idle session
    does not itself require another idle update.

    Closing also cancels pending `session/prompt` requests whose messages have not
    been inserted, including held prompts. If closing prevents a prompt's user message from being inserted, the
    Agent MUST answer that request with `-32800` (Request Cancelled). If the message
    has already been inserted, the Agent MUST respond successfully with its
    `messageId`. Prompt responses need not precede the close response.
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class CancelToolCallRequest(Model):
    """
    Request parameters for cancelling one tool call.

    Clients MUST NOT send it unless the tool call currently advertises `capabilities.cancel`.

    The Agent responds once it has accepted the cancellation. The response does not mean
    the work has stopped. The Agent confirms it with a `tool_call_update` to a final
    status: normally `cancelled`, or `completed` or `failed` if the work finished first.

    The Agent responds with `-32602` if the tool call is unknown, already final, or not
    cancellable. Cancelling a tool call does not change the foreground state by itself.

    See protocol docs: [Cancelling Tool Calls](https://agentclientprotocol.com/protocol/v2/tool-calls#cancelling-tool-calls)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session that owns the tool call.
    """
    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    The ID of the tool call to cancel.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class CancelTerminalRequest(Model):
    """
    Request parameters for cancelling one terminal.

    Clients MUST NOT send it unless the terminal currently advertises `capabilities.cancel`.

    The Agent responds once it has accepted the cancellation. The response does not mean
    the work has stopped. The Agent confirms it with a `terminal_update` that sets
    `exitStatus`. Cancelling stops the process but does not release the terminal, and does
    not change the status of a tool call that references it.

    The Agent responds with `-32602` if the terminal is unknown, has already exited, or is not
    cancellable. Cancelling a terminal does not change the foreground state by itself.

    See protocol docs: [Cancelling Terminals](https://agentclientprotocol.com/protocol/v2/tool-calls#cancelling-terminals)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session that owns the terminal.
    """
    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    The ID of the terminal to cancel.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SetSessionConfigOptionRequestId(Model):
    """
    A `SessionConfigValueId` string value (`type: "id"`).
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    type: Literal["id"] = constant_tag("id")
    value: str
    """
    The value ID.
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    type: Literal["boolean"] = constant_tag("boolean")
    value: bool
    """
    The boolean value.
    """


class UnknownSetSessionConfigOptionRequest(Model):
    """A variant of ``SetSessionConfigOptionRequest`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "id",
                "boolean",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidSetSessionConfigOptionRequest(InvalidVariant):
    """A known variant of ``SetSessionConfigOptionRequest`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "id",
                "boolean",
            )
        ),
    ]
    """The tag, as sent."""


SetSessionConfigOptionRequest: TypeAlias = Annotated[
    Annotated[
        SetSessionConfigOptionRequestId | SetSessionConfigOptionRequestBoolean,
        Field(discriminator="type"),
    ]
    | UnknownSetSessionConfigOptionRequest
    | InvalidSetSessionConfigOptionRequest,
    Field(union_mode="left_to_right"),
]
"""Request parameters for setting a session configuration option. Agents MUST support this method for any session where they advertise config options. Agents MUST reject an unknown `configId` or invalid value with `-32602` and leave the configuration unchanged. See protocol docs: [Session Config Options](https://agentclientprotocol.com/protocol/v2/session-config-options#setting-a-config-option) A variant this version does not know (from a newer peer) is an ``UnknownSetSessionConfigOptionRequest``; a known one whose data a peer sent does not match its schema, an ``InvalidSetSessionConfigOptionRequest``."""


class CancelledPermissionOutcome(Model):
    """
    The request was not approved and no option was selected.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    action: Literal["cancel"] = constant_tag("cancel")


class ElicitationAcceptAction(Model):
    """
    The user accepted the elicitation and provided content.
    """

    content: dict[str, Any] | None = None
    """
    The user-provided content, if any, as an object matching the requested schema.

    Omitted and `null` are equivalent and mean no content is provided.
    """


class CancelSessionNotification(Model):
    """
    Notification to cancel a session's foreground work and its prompts not yet inserted.

    See protocol docs: [Cancellation](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#cancellation)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class CancelRequestNotification(Model):
    """
    Notification to cancel an ongoing request.

    See protocol docs: [Cancellation](https://agentclientprotocol.com/protocol/v2/cancellation)
    """

    request_id: int | str = Field(validation_alias="requestId", serialization_alias="requestId")
    """
    The ID of the request to cancel: a request that the sender of this notification issued.
    Receivers match it only against requests they received from that sender.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class RequestPermissionSubjectCommand(CommandPermissionSubject):
    """
    Permission is requested before running a command.
    """

    type: Literal["command"] = constant_tag("command")


class ToolCallContentTerminal(Terminal):
    """
    A display-only reference to an agent-owned terminal.
    """

    type: Literal["terminal"] = constant_tag("terminal")


class Annotations(Model):
    """
    Optional annotations for the client. The client can use annotations to inform how objects are used or displayed
    """

    audience: list[Literal["assistant"] | Literal["user"] | str] | None = None
    """
    Intended recipients for this content, such as the user or assistant.

    Omitted and `null` are equivalent and mean no audience is specified.
    """
    last_modified: str | None = Field(
        default=None, validation_alias="lastModified", serialization_alias="lastModified"
    )
    """
    Timestamp indicating when the underlying resource was last modified.

    Should be an ISO 8601 formatted string (e.g., "2025-01-12T15:00:58Z"), as in MCP.

    Omitted and `null` are equivalent and mean the modification time is not reported.
    """
    priority: float | None = Field(default=None, ge=0.0, le=1.0)
    """
    Relative importance of this content when clients choose what to surface, from 0 (least
    important) to 1 (most important).

    Omitted and `null` are equivalent and mean no priority is specified.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class TextContent(Model):
    """
    Text provided to or from an LLM.
    """

    text: str
    """
    Text payload carried by this content block.
    """
    annotations: Annotations | None = None
    """
    Optional annotations that help clients decide how to display or route this content.

    Omitted and `null` are equivalent and mean no annotations are provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ImageContent(Model):
    """
    An image provided to or from an LLM.
    """

    data: str = Field(json_schema_extra={"contentEncoding": "base64"})
    """
    Base64-encoded media payload.
    """
    mime_type: str = Field(validation_alias="mimeType", serialization_alias="mimeType")
    """
    MIME type describing the encoded media payload.
    """
    uri: Url | None = None
    """
    URI associated with this resource or media payload.

    Omitted and `null` are equivalent and mean no URI is associated with the image.
    """
    annotations: Annotations | None = None
    """
    Optional annotations that help clients decide how to display or route this content.

    Omitted and `null` are equivalent and mean no annotations are provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class AudioContent(Model):
    """
    Audio provided to or from an LLM.
    """

    data: str = Field(json_schema_extra={"contentEncoding": "base64"})
    """
    Base64-encoded media payload.
    """
    mime_type: str = Field(validation_alias="mimeType", serialization_alias="mimeType")
    """
    MIME type describing the encoded media payload.
    """
    annotations: Annotations | None = None
    """
    Optional annotations that help clients decide how to display or route this content.

    Omitted and `null` are equivalent and mean no annotations are provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class Icon(Model):
    """
    An optionally-sized icon that can be displayed in a user interface.
    """

    src: Url
    """
    A standard URI pointing to an icon resource. MUST be an `https:` or `data:` URI.
    Clients reject other schemes, fetch without credentials, and do not follow
    scheme- or origin-changing redirects.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    Optional MIME type override if the source MIME type is missing or generic.

    Omitted and `null` are equivalent and mean the source MIME type is used.
    """
    sizes: list[str] | None = None
    """
    Optional array of strings that specify sizes at which the icon can be used.
    Each string should be in `WxH` format (e.g., `"48x48"`, `"96x96"`) or
    `"any"` for scalable formats like SVG.

    If not provided, the client should assume that the icon can be used at any size.

    Omitted and `null` are equivalent and mean no sizes are specified.
    """
    theme: Literal["light"] | Literal["dark"] | str | None = None
    """
    Optional theme this icon is designed for.

    Omitted and `null` are equivalent and mean the icon is not theme-specific.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ResourceLink(Model):
    """
    A link to a resource that the receiver may be able to read, included in a prompt or tool call result.
    """

    name: str
    """
    Human-readable name shown for this protocol object.
    """
    uri: Url
    """
    URI associated with this resource or media payload.
    """
    title: str | None = None
    """
    Optional display title for end-user UI.

    Omitted and `null` are equivalent and mean no title is provided.
    """
    description: str | None = None
    """
    Optional human-readable details shown with this protocol object.

    Omitted and `null` are equivalent and mean no description is provided.
    """
    icons: list[Icon] | None = None
    """
    Optional set of sized icons that the client can display in a user interface.

    Omitted and `null` are equivalent and mean no icons are provided.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type describing the encoded media payload.

    Omitted and `null` are equivalent and mean the MIME type is not specified.
    """
    size: int | None = Field(default=None, ge=0)
    """
    Optional size of the linked resource in bytes, if known.

    Omitted and `null` are equivalent and mean the size is not known.
    """
    annotations: Annotations | None = None
    """
    Optional annotations that help clients decide how to display or route this content.

    Omitted and `null` are equivalent and mean no annotations are provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class EmbeddedResource(Model):
    """
    The contents of a resource, embedded into a prompt or tool call result.
    """

    resource: TextResourceContents | BlobResourceContents
    """
    Embedded resource payload, either text or binary data.
    """
    annotations: Annotations | None = None
    """
    Optional annotations that help clients decide how to display or route this content.

    Omitted and `null` are equivalent and mean no annotations are provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class DiffChangeAdd(DiffPathChange):
    """
    A file was added.
    """

    file_type: (
        Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str | None
    ) = Field(default=None, validation_alias="fileType", serialization_alias="fileType")
    """
    File content kind after the operation (for `delete`, of the deleted file).

    Omitted and `null` are equivalent and mean the content kind is unknown.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type of the file contents after the operation (for `delete`, of the deleted file).

    Omitted and `null` are equivalent and mean the MIME type is unknown.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    operation: Literal["add"] = constant_tag("add")


class DiffChangeDelete(DiffPathChange):
    """
    A file was deleted.
    """

    file_type: (
        Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str | None
    ) = Field(default=None, validation_alias="fileType", serialization_alias="fileType")
    """
    File content kind after the operation (for `delete`, of the deleted file).

    Omitted and `null` are equivalent and mean the content kind is unknown.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type of the file contents after the operation (for `delete`, of the deleted file).

    Omitted and `null` are equivalent and mean the MIME type is unknown.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    operation: Literal["delete"] = constant_tag("delete")


class DiffChangeModify(DiffPathChange):
    """
    A file was modified in place.
    """

    file_type: (
        Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str | None
    ) = Field(default=None, validation_alias="fileType", serialization_alias="fileType")
    """
    File content kind after the operation (for `delete`, of the deleted file).

    Omitted and `null` are equivalent and mean the content kind is unknown.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type of the file contents after the operation (for `delete`, of the deleted file).

    Omitted and `null` are equivalent and mean the MIME type is unknown.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    operation: Literal["modify"] = constant_tag("modify")


class DiffChangeMove(DiffPathPairChange):
    """
    A file was moved or renamed.
    """

    file_type: (
        Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str | None
    ) = Field(default=None, validation_alias="fileType", serialization_alias="fileType")
    """
    File content kind after the operation (for `delete`, of the deleted file).

    Omitted and `null` are equivalent and mean the content kind is unknown.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type of the file contents after the operation (for `delete`, of the deleted file).

    Omitted and `null` are equivalent and mean the MIME type is unknown.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    operation: Literal["move"] = constant_tag("move")


class DiffChangeCopy(DiffPathPairChange):
    """
    A file was copied.
    """

    file_type: (
        Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str | None
    ) = Field(default=None, validation_alias="fileType", serialization_alias="fileType")
    """
    File content kind after the operation (for `delete`, of the deleted file).

    Omitted and `null` are equivalent and mean the content kind is unknown.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    MIME type of the file contents after the operation (for `delete`, of the deleted file).

    Omitted and `null` are equivalent and mean the MIME type is unknown.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    operation: Literal["copy"] = constant_tag("copy")


class DiffPatch(Model):
    """
    Renderable patch text and its format.
    """

    format: Literal["git_patch"] | str
    """
    Patch format. The only ACP-defined value is `git_patch`.
    """
    text: str
    """
    Patch text in the format named by `format`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class Diff(Model):
    """
    File changes produced by a tool call.

    `changes` is authoritative for affected absolute paths and operations.
    `patch` optionally carries renderable text for some or all of those changes
    and MUST be consistent with `changes`. Agents SHOULD provide `patch` whenever
    feasible. Clients MUST handle diffs where `patch` is omitted or `null`.

    See protocol docs: [Content](https://agentclientprotocol.com/protocol/v2/tool-calls#content)
    """

    changes: list[DiffChange]
    """
    Structured file changes described by this diff.

    Clients can use this field without parsing patch text to determine affected paths.
    """
    patch: DiffPatch | None = None
    """
    Renderable patch text for some or all of the structured changes.

    Agents SHOULD provide patch text whenever feasible. Omitted and `null` are
    equivalent and mean no renderable patch text was provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ToolCallCapabilities(Model):
    """
    Client-initiated controls a tool call currently supports.

    A malformed value falls back to no controls, so the Client never sends a request the
    Agent did not advertise.

    See protocol docs: [Cancelling Tool Calls](https://agentclientprotocol.com/protocol/v2/tool-calls#cancelling-tool-calls)
    """

    cancel: ToolCallCancelCapabilities | None = None
    """
    Permits the Client to cancel this tool call with `tool_call/cancel`.

    Omitted and `null` are equivalent and mean unsupported. An object (including `{}`)
    means supported. Agents SHOULD stop advertising it once the tool call reaches a final status.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class PermissionOption(Model):
    """
    An option presented to the user when requesting permission.
    """

    option_id: str = Field(validation_alias="optionId", serialization_alias="optionId")
    """
    Identifier for this permission option. MUST be unique within the request.
    """
    name: str
    """
    Human-readable label to display to the user.
    """
    kind: (
        Literal["allow_once"]
        | Literal["allow_always"]
        | Literal["reject_once"]
        | Literal["reject_always"]
        | str
    )
    """
    Hint about the nature of this permission option.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    mode: Literal["url"] = constant_tag("url")


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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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

    See protocol docs: [Session Prompt Capabilities](https://agentclientprotocol.com/protocol/v2/initialization#session-prompt-capabilities)
    """

    image: PromptImageCapabilities | None = None
    """
    Agent supports `image` content blocks.

    Optional. Omitted and `null` are equivalent and mean the agent does not advertise support.
    Supplying `{}` means the agent supports image content in prompts.
    """
    audio: PromptAudioCapabilities | None = None
    """
    Agent supports `audio` content blocks.

    Optional. Omitted and `null` are equivalent and mean the agent does not advertise support.
    Supplying `{}` means the agent supports audio content in prompts.
    """
    embedded_context: PromptEmbeddedContextCapabilities | None = Field(
        default=None, validation_alias="embeddedContext", serialization_alias="embeddedContext"
    )
    """
    Agent supports embedded context in `session/prompt` requests.

    When enabled, the Client is allowed to include `resource` content blocks
    in prompt requests for pieces of context that are referenced in the message.

    Optional. Omitted and `null` are equivalent and mean the agent does not advertise support.
    Supplying `{}` means the agent supports embedded context in prompts.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class McpCapabilities(Model):
    """
    MCP capabilities supported by the agent for session lifecycle requests.
    """

    stdio: McpStdioCapabilities | None = None
    """
    Agent supports `stdio` MCP servers.

    Optional. Omitted and `null` are equivalent and mean the agent does not advertise support.
    Supplying `{}` means the agent supports stdio MCP server transports.
    """
    http: McpHttpCapabilities | None = None
    """
    Agent supports `http` MCP servers.

    Optional. Omitted and `null` are equivalent and mean the agent does not advertise support.
    Supplying `{}` means the agent supports HTTP MCP server transports.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class AuthMethodTerminalModel(AuthMethodTerminal):
    """
    Client runs the configured agent program as a separate interactive
    process, without passing this method to `auth/login`.
    """

    type: Literal["terminal"] = constant_tag("terminal")


class AuthMethodAgentModel(AuthMethodAgent):
    """
    Agent handles authentication itself through `auth/login`.

    The `type` discriminator value is `agent`.
    """

    type: Literal["agent"] = constant_tag("agent")


class SessionConfigOptionBoolean(SessionConfigBoolean):
    """
    Boolean on/off toggle.
    """

    config_id: str = Field(validation_alias="configId", serialization_alias="configId")
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

    Omitted and `null` are equivalent and mean no description is provided.
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

    Omitted and `null` are equivalent and mean no category is provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    type: Literal["boolean"] = constant_tag("boolean")


class SessionConfigSelectOptionsUngrouped(RootModel[list[SessionConfigSelectOption]]):
    root: list[SessionConfigSelectOption] = Field(
        min_length=1, title="SessionConfigSelectOptionsUngrouped"
    )
    """
    A flat list of options with no grouping.
    """


class SessionConfigSelectGroup(Model):
    """
    A group of possible values for a session configuration option.
    """

    group_id: str = Field(validation_alias="groupId", serialization_alias="groupId")
    """
    Unique identifier for this group.
    """
    name: str
    """
    Human-readable label for this group.
    """
    options: list[SessionConfigSelectOption] = Field(min_length=1)
    """
    The set of option values in this group. MUST contain at least one value.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class AvailableCommandInputText(TextCommandInput):
    """
    All text after the command name and the whitespace following it is provided as input.
    """

    type: Literal["text"] = constant_tag("text")


class UnknownAvailableCommandInput(Model):
    """A variant of ``AvailableCommandInput`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[str, not_one_of(("text",))]
    """The tag, as sent."""


class InvalidAvailableCommandInput(InvalidVariant):
    """A known variant of ``AvailableCommandInput`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[str, one_of(("text",))]
    """The tag, as sent."""


AvailableCommandInput: TypeAlias = Annotated[
    Annotated[AvailableCommandInputText, Field(discriminator="type")]
    | UnknownAvailableCommandInput
    | InvalidAvailableCommandInput,
    Field(union_mode="left_to_right"),
]
"""The input specification for a command. A variant this version does not know (from a newer peer) is an ``UnknownAvailableCommandInput``; a known one whose data a peer sent does not match its schema, an ``InvalidAvailableCommandInput``."""


class Command(Model):
    """
    A slash command the user can invoke by including it in a prompt.

    The `type` discriminator value is `command`.
    """

    name: str
    """
    Command name without the leading `/` (e.g., `create_plan`, `research_codebase`).

    MUST NOT contain whitespace and MUST be unique within the command list.
    """
    description: str
    """
    Human-readable description of what the command does.
    """
    input: AvailableCommandInput | None = None
    """
    Input for the command if required

    Omitted and `null` are equivalent and mean the command takes no input.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ListSessionsResponse(Model):
    """
    Response from listing sessions.
    """

    sessions: list[SessionInfo]
    """
    Array of session information objects.
    """
    next_cursor: str | None = Field(
        default=None, validation_alias="nextCursor", serialization_alias="nextCursor"
    )
    """
    Opaque cursor token. If present, pass this in the next request's cursor parameter
    to fetch the next page. Omitted and `null` are equivalent and mean there are no more
    results. An empty string is a valid cursor, not the end of results.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class PromptResponse(Model):
    """
    Response acknowledging that a user prompt was inserted into the ACP conversation.

    This response does not indicate that the prompt was merely received or held, nor that the
    agent has finished processing it.
    Processing and completion are reported through `state_update` session updates.

    Insertion is the logical addition of a user message with a message ID and a position
    relative to other messages in the ACP conversation.

    See protocol docs: [Prompt Accepted](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#2-prompt-accepted)
    """

    message_id: str = Field(validation_alias="messageId", serialization_alias="messageId")
    """
    Identifies the user message inserted into the ACP conversation.

    Required and non-null. Omission and explicit `null` are both invalid.

    The corresponding user-message session update carries this same identifier and may arrive
    before or after this response. Agents must echo the message during the live session, but are
    not required to retain it. If retained and replayed, the message keeps this identifier.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SessionUpdateTerminalOutputChunk(TerminalOutputChunk):
    """
    A chunk of bytes appended to an agent-owned terminal's output.
    """

    session_update: Literal["terminal_output_chunk"] = constant_tag(
        "terminal_output_chunk",
        serialization_alias="sessionUpdate",
        validation_alias="sessionUpdate",
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

    No Client capability is required. Clients that do not understand or
    present notices may ignore them.
    """

    session_update: Literal["notice"] = constant_tag(
        "notice", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class BackgroundWorkTerminal(BackgroundTerminal):
    """
    A process that keeps running after its tool call returned control to the model.
    Live until its `terminal_update` reports `exitStatus`.
    """

    type: Literal["terminal"] = constant_tag("terminal")


class BackgroundWorkToolCall(BackgroundToolCall):
    """
    Work started by a tool call that continues without a process of its own, such as
    a watcher, a workflow, or a scheduled wakeup. `pending` and `paused` tool calls
    stay listed.
    """

    type: Literal["tool_call"] = constant_tag("tool_call")


class UnknownBackgroundWork(Model):
    """A variant of ``BackgroundWork`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "terminal",
                "tool_call",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidBackgroundWork(InvalidVariant):
    """A known variant of ``BackgroundWork`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "terminal",
                "tool_call",
            )
        ),
    ]
    """The tag, as sent."""


BackgroundWork: TypeAlias = Annotated[
    Annotated[BackgroundWorkTerminal | BackgroundWorkToolCall, Field(discriminator="type")]
    | UnknownBackgroundWork
    | InvalidBackgroundWork,
    Field(union_mode="left_to_right"),
]
"""One piece of work running independently of the session's foreground work. Items reference entities the Client already tracks. The Agent MUST announce each item before the first snapshot that lists it, and MUST report a terminal's `exitStatus` or a tool call's final status before the snapshot that removes it. Each piece of work is listed once: process-backed work is listed as its terminal, not also as its tool call. See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work) A variant this version does not know (from a newer peer) is an ``UnknownBackgroundWork``; a known one whose data a peer sent does not match its schema, an ``InvalidBackgroundWork``."""


class RunningStateUpdate(Model):
    """
    Foreground work is in progress.
    """

    background: list[BackgroundWork] | None = None
    """
    Work running independently of foreground work, as a complete snapshot.

    Optional. Omitted and `null` are equivalent and mean the Agent is not reporting
    background work, not that nothing is running. `[]` means no background work is
    running. An Agent that reports background work MUST include it on every state
    update for the session. A malformed list is treated as not reported.

    See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work)
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class IdleStateUpdateEndTurn(Model):
    """
    The active work ended successfully.
    Includes locally handled commands that required no model call.
    """

    background: list[BackgroundWork] | None = None
    """
    Work running independently of foreground work, as a complete snapshot.

    Optional. Omitted and `null` are equivalent and mean the Agent is not reporting
    background work, not that nothing is running. `[]` means no background work is
    running. An Agent that reports background work MUST include it on every state
    update for the session. A malformed list is treated as not reported.

    See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work)
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    stop_reason: Literal["end_turn"] = constant_tag(
        "end_turn", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted and `null` are equivalent and mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Stop Reasons](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#stop-reasons)
    """


class IdleStateUpdateMaxTokens(Model):
    """
    The active work ended because the agent reached the maximum number of tokens.
    """

    background: list[BackgroundWork] | None = None
    """
    Work running independently of foreground work, as a complete snapshot.

    Optional. Omitted and `null` are equivalent and mean the Agent is not reporting
    background work, not that nothing is running. `[]` means no background work is
    running. An Agent that reports background work MUST include it on every state
    update for the session. A malformed list is treated as not reported.

    See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work)
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    stop_reason: Literal["max_tokens"] = constant_tag(
        "max_tokens", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted and `null` are equivalent and mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Stop Reasons](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#stop-reasons)
    """


class IdleStateUpdateMaxTurnRequests(Model):
    """
    The active work ended because the agent reached the maximum number of
    model requests for the foreground work.
    """

    background: list[BackgroundWork] | None = None
    """
    Work running independently of foreground work, as a complete snapshot.

    Optional. Omitted and `null` are equivalent and mean the Agent is not reporting
    background work, not that nothing is running. `[]` means no background work is
    running. An Agent that reports background work MUST include it on every state
    update for the session. A malformed list is treated as not reported.

    See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work)
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    stop_reason: Literal["max_turn_requests"] = constant_tag(
        "max_turn_requests", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted and `null` are equivalent and mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Stop Reasons](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#stop-reasons)
    """


class IdleStateUpdateRefusal(Model):
    """
    The active work ended because the agent refused to continue.
    """

    background: list[BackgroundWork] | None = None
    """
    Work running independently of foreground work, as a complete snapshot.

    Optional. Omitted and `null` are equivalent and mean the Agent is not reporting
    background work, not that nothing is running. `[]` means no background work is
    running. An Agent that reports background work MUST include it on every state
    update for the session. A malformed list is treated as not reported.

    See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work)
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    stop_reason: Literal["refusal"] = constant_tag(
        "refusal", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted and `null` are equivalent and mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Stop Reasons](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#stop-reasons)
    """


class IdleStateUpdateCancelled(Model):
    """
    The user or client chose to stop the work: via `session/cancel`, by
    closing the session, or through an interaction the agent offers, such
    as a permission option that tells the agent to stop. Work the agent
    stops for its own reasons uses another reason, such as `error` for an
    internal timeout.

    Agents MUST report this stop reason on an idle `state_update` when
    cancellation ends active foreground work, even if aborting causes
    exceptions. Agents MUST catch these errors and report `cancelled`, not
    `error`.
    """

    background: list[BackgroundWork] | None = None
    """
    Work running independently of foreground work, as a complete snapshot.

    Optional. Omitted and `null` are equivalent and mean the Agent is not reporting
    background work, not that nothing is running. `[]` means no background work is
    running. An Agent that reports background work MUST include it on every state
    update for the session. A malformed list is treated as not reported.

    See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work)
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    stop_reason: Literal["cancelled"] = constant_tag(
        "cancelled", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted and `null` are equivalent and mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Stop Reasons](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#stop-reasons)
    """


class IdleStateUpdateOther(Model):
    """
    Custom or future stop reason.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Unknown values that do not begin with `_` are reserved for
    future ACP variants.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="allow",
    )
    background: list[BackgroundWork] | None = None
    """
    Work running independently of foreground work, as a complete snapshot.

    Optional. Omitted and `null` are equivalent and mean the Agent is not reporting
    background work, not that nothing is running. `[]` means no background work is
    running. An Agent that reports background work MUST include it on every state
    update for the session. A malformed list is treated as not reported.

    See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work)
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    stop_reason: str = Field(validation_alias="stopReason", serialization_alias="stopReason")
    """
    Custom or future stop reason.

    Values beginning with `_` are reserved for implementation-specific
    extensions. Unknown values that do not begin with `_` are reserved for
    future ACP variants.
    """


class IdleStateUpdateNone(Model):
    """
    No stop reason: `stopReason` is omitted or `null`.
    """

    background: list[BackgroundWork] | None = None
    """
    Work running independently of foreground work, as a complete snapshot.

    Optional. Omitted and `null` are equivalent and mean the Agent is not reporting
    background work, not that nothing is running. `[]` means no background work is
    running. An Agent that reports background work MUST include it on every state
    update for the session. A malformed list is treated as not reported.

    See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work)
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    stop_reason: None = Field(
        default=None, validation_alias="stopReason", serialization_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted and `null` are equivalent and mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Stop Reasons](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#stop-reasons)
    """


class RequiresActionStateUpdate(Model):
    """
    The foreground workflow as a whole is blocked on user action.

    Agents SHOULD report this state when foreground work cannot progress without
    user action. Pending permissions or elicitations alone do not imply this
    state if other foreground work can progress, or if the requests belong only
    to independent background activity. Once reported, agents MUST report
    `running` when progress resumes, or `idle` if the work ends without resuming.
    Responding to one request does not itself imply `running`.
    """

    background: list[BackgroundWork] | None = None
    """
    Work running independently of foreground work, as a complete snapshot.

    Optional. Omitted and `null` are equivalent and mean the Agent is not reporting
    background work, not that nothing is running. `[]` means no background work is
    running. An Agent that reports background work MUST include it on every state
    update for the session. A malformed list is treated as not reported.

    See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work)
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class StateUpdateRunning(RunningStateUpdate):
    """
    Foreground work is in progress.
    """

    state: Literal["running"] = constant_tag("running")


class StateUpdateIdleEndTurn(IdleStateUpdateEndTurn, StateUpdateIdleFields):
    """
    No foreground work is active. Background activity may continue.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleMaxTokens(IdleStateUpdateMaxTokens, StateUpdateIdleFields):
    """
    No foreground work is active. Background activity may continue.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleMaxTurnRequests(IdleStateUpdateMaxTurnRequests, StateUpdateIdleFields):
    """
    No foreground work is active. Background activity may continue.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleRefusal(IdleStateUpdateRefusal, StateUpdateIdleFields):
    """
    No foreground work is active. Background activity may continue.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleCancelled(IdleStateUpdateCancelled, StateUpdateIdleFields):
    """
    No foreground work is active. Background activity may continue.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleOther(IdleStateUpdateOther, StateUpdateIdleFields):
    """
    No foreground work is active. Background activity may continue.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateIdleNone(IdleStateUpdateNone, StateUpdateIdleFields):
    """
    No foreground work is active. Background activity may continue.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdateRequiresAction(RequiresActionStateUpdate):
    """
    Foreground work is blocked on user action.
    """

    state: Literal["requires_action"] = constant_tag("requires_action")


class TerminalCapabilities(Model):
    """
    Client-initiated controls a terminal currently supports.

    A malformed value falls back to no controls, so the Client never sends a request the
    Agent did not advertise.

    See protocol docs: [Cancelling Terminals](https://agentclientprotocol.com/protocol/v2/tool-calls#cancelling-terminals)
    """

    cancel: TerminalCancelCapabilities | None = None
    """
    Permits the Client to cancel this terminal with `terminal/cancel`.

    Omitted and `null` are equivalent and mean unsupported. An object (including `{}`)
    means supported. Agents SHOULD stop advertising it once the terminal reports `exitStatus`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class TerminalUpdate(Model):
    """
    An upsert for the stored state of an agent-owned terminal.

    Only `terminalId` is required. Other fields have patch
    semantics: omitted fields leave the stored value unchanged, `null` clears
    it, and concrete values replace it. A concrete `_meta` object instead
    patches the stored metadata by top-level key. When the terminal ID is new,
    omitted fields start unknown.
    """

    terminal_id: str = Field(validation_alias="terminalId", serialization_alias="terminalId")
    """
    Unique identifier for this terminal within the session.
    """
    command: str | None = None
    """
    The command being run.
    """
    cwd: str | None = None
    """
    The absolute working directory of the command.
    """
    output: TerminalOutput | None = None
    """
    An authoritative replacement snapshot of terminal output bytes.
    """
    exit_status: TerminalExitStatus | None = Field(
        default=None, validation_alias="exitStatus", serialization_alias="exitStatus"
    )
    """
    Exit information. A concrete object marks the terminal as exited.
    """
    size: TerminalSize | None = None
    """
    The terminal size the command runs with, when known.

    Clients can render output at this size so that column layouts, progress bars,
    and cursor-positioned output display as the program wrote them.
    """
    capabilities: TerminalCapabilities | None = None
    """
    Client-initiated controls this terminal currently supports, such as cancellation.

    Omission leaves the capabilities unchanged, `null` clears them, and an object replaces
    the whole previous value. A new terminal starts with none.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted leaves the stored metadata unchanged. `null`
    clears it. An object patches the stored metadata by top-level key: keys it omits are
    unchanged, a key set to `null` is removed, and any other value replaces that key's
    stored value without merging nested objects. Beyond this patch rule, implementations
    MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Metadata Patches](https://agentclientprotocol.com/protocol/v2/extensibility#metadata-patches)
    """


class PlanEntry(Model):
    """
    A single entry in the execution plan.

    Represents a task or goal that the assistant intends to accomplish
    as part of fulfilling the user's request.
    See protocol docs: [Plan Entries](https://agentclientprotocol.com/protocol/v2/agent-plan#plan-entries)
    """

    content: str
    """
    Human-readable description of what this task aims to accomplish.
    """
    priority: Literal["high"] | Literal["medium"] | Literal["low"] | str
    """
    The relative importance of this task.
    Used to indicate which tasks are most critical to the overall goal.
    """
    status: (
        Literal["pending"]
        | Literal["in_progress"]
        | Literal["completed"]
        | Literal["cancelled"]
        | str
    )
    """
    Current execution status of this task.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class PlanItems(Model):
    """
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ClientAuthCapabilities(Model):
    """
    Authentication capabilities supported by the client.

    Advertised during initialization to inform the agent which authentication
    method types the client can handle. This governs opt-in types that require
    additional client-side support.
    """

    terminal: TerminalAuthCapabilities | None = None
    """
    Whether the client supports `terminal` authentication methods.

    Optional. Omitted and `null` are equivalent and mean the client does not advertise support.
    The client should supply `{}` only when it can reproduce the configured
    agent invocation in an interactive terminal. Supplying `{}` means the
    agent may include `terminal` entries in its authentication methods.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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

    Optional. Omitted and `null` are equivalent and mean the client does not advertise support.
    Supplying `{}` means the client supports URL-based elicitation.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class McpServerHttpModel(McpServerHttp):
    """
    HTTP transport configuration

    Only available when the Agent capabilities include `session.mcp.http`.
    """

    type: Literal["http"] = constant_tag("http")


class McpServerStdioModel(McpServerStdio):
    """
    Stdio transport configuration

    Only available when the Agent capabilities include `session.mcp.stdio`.
    """

    type: Literal["stdio"] = constant_tag("stdio")


class ReplayFromStartModel(ReplayFromStart):
    """
    Replay all retained conversation history from its first replayable entry.
    """

    type: Literal["start"] = constant_tag("start")


class UnknownReplayFrom(Model):
    """A variant of ``ReplayFrom`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[str, not_one_of(("start",))]
    """The tag, as sent."""


class InvalidReplayFrom(InvalidVariant):
    """A known variant of ``ReplayFrom`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[str, one_of(("start",))]
    """The tag, as sent."""


ReplayFrom: TypeAlias = Annotated[
    Annotated[ReplayFromStartModel, Field(discriminator="type")]
    | UnknownReplayFrom
    | InvalidReplayFrom,
    Field(union_mode="left_to_right"),
]
"""Inclusive cursor describing where replayed session history should begin. Replay includes the position identified by the cursor. A variant this version does not know (from a newer peer) is an ``UnknownReplayFrom``; a known one whose data a peer sent does not match its schema, an ``InvalidReplayFrom``."""


class RequestPermissionOutcomeCancelled(CancelledPermissionOutcome):
    """
    The request was not approved and no option was selected: the session's work was
    cancelled, the user dismissed the prompt, or the client declined it by policy.
    Agents MUST NOT proceed with the operation.

    The client answers a request the agent cancels with `$/cancel_request` with
    this outcome. After sending `session/cancel`, the client MAY also send it
    without waiting for `$/cancel_request`, for a request it knows belongs to the
    cancelled foreground work.

    See protocol docs: [Cancellation](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#cancellation)
    """

    outcome: Literal["cancelled"] = constant_tag("cancelled")


class RequestPermissionOutcomeSelected(SelectedPermissionOutcome):
    """
    The user selected one of the provided options.

    If `optionId` doesn't match an offered option, the agent MUST treat the request as not
    approved.
    """

    outcome: Literal["selected"] = constant_tag("selected")


class CreateElicitationResponseAccept(ElicitationAcceptAction):
    """
    The user accepted and provided content.
    """

    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    action: Literal["accept"] = constant_tag("accept")


class UnknownCreateElicitationResponse(Model):
    """A variant of ``CreateElicitationResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    action: Annotated[
        str,
        not_one_of(
            (
                "accept",
                "decline",
                "cancel",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidCreateElicitationResponse(InvalidVariant):
    """A known variant of ``CreateElicitationResponse`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    action: Annotated[
        str,
        one_of(
            (
                "accept",
                "decline",
                "cancel",
            )
        ),
    ]
    """The tag, as sent."""


CreateElicitationResponse: TypeAlias = Annotated[
    Annotated[
        CreateElicitationResponseAccept
        | CreateElicitationResponseDecline
        | CreateElicitationResponseCancel,
        Field(discriminator="action"),
    ]
    | UnknownCreateElicitationResponse
    | InvalidCreateElicitationResponse,
    Field(union_mode="left_to_right"),
]
"""Response from the client to an elicitation request. A variant this version does not know (from a newer peer) is an ``UnknownCreateElicitationResponse``; a known one whose data a peer sent does not match its schema, an ``InvalidCreateElicitationResponse``."""


class ToolCallContentDiff(Diff):
    """
    File modification shown as a diff.
    """

    type: Literal["diff"] = constant_tag("diff")


class ContentBlockText(TextContent):
    """
    Text content. May be plain text or formatted with Markdown.

    All agents MUST support text content blocks in prompts.
    Clients SHOULD render this text as CommonMark and MAY support GitHub Flavored Markdown
    extensions.
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
    References to resources that the receiver may be able to read.

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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ElicitationPropertySchemaArray(MultiSelectPropertySchema):
    """
    Multi-select array property.
    """

    type: Literal["array"] = constant_tag("array")


class SessionCapabilities(Model):
    """
    Session capabilities supported by the agent.

    Supplying `{}` means the agent supports the baseline session methods:
    `session/new`, `session/list`, `session/resume`, `session/close`,
    `session/prompt`, `session/cancel`, and `session/update`.

    Agents that support sessions **MAY** support additional session methods,
    prompt content types, and MCP transports by specifying additional
    capabilities.

    See protocol docs: [Session Capabilities](https://agentclientprotocol.com/protocol/v2/initialization#session-capabilities)
    """

    prompt: PromptCapabilities | None = None
    """
    Prompt capabilities supported by the agent in `session/prompt` requests.

    Optional. Omitted and `null` are equivalent and mean the agent does not advertise any
    prompt extensions beyond the baseline text and resource-link content
    required by `session/prompt`.
    """
    mcp: McpCapabilities | None = None
    """
    MCP capabilities supported by the agent for session lifecycle requests.

    Optional. Omitted and `null` are equivalent and mean the agent does not advertise MCP
    server transport support for sessions.
    """
    delete: SessionDeleteCapabilities | None = None
    """
    Whether the agent supports `session/delete`.

    Optional. Omitted and `null` are equivalent and mean the agent does not advertise support.
    Supplying `{}` means the agent supports deleting sessions from `session/list`.
    """
    additional_directories: SessionAdditionalDirectoriesCapabilities | None = Field(
        default=None,
        validation_alias="additionalDirectories",
        serialization_alias="additionalDirectories",
    )
    """
    Whether the agent supports `additionalDirectories` on supported session lifecycle requests.

    Optional. Omitted and `null` are equivalent and mean the agent does not advertise support.
    Supplying `{}` means the agent supports `additionalDirectories` on
    supported session lifecycle requests.

    Agents may return `SessionInfo.additionalDirectories` to report the
    complete ordered additional-root list associated with a listed session.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SessionConfigSelectOptionsGrouped(RootModel[list[SessionConfigSelectGroup]]):
    root: list[SessionConfigSelectGroup] = Field(
        min_length=1, title="SessionConfigSelectOptionsGrouped"
    )
    """
    A list of options grouped under headers.
    """


class SessionConfigSelect(Model):
    """
    A single-value selector (dropdown) session configuration option payload.
    """

    current_value: str = Field(validation_alias="currentValue", serialization_alias="currentValue")
    """
    The currently selected value. MUST be one of the `value`s in `options`.
    """
    options: SessionConfigSelectOptionsUngrouped | SessionConfigSelectOptionsGrouped
    """
    The set of selectable options. MUST contain at least one value, and each `value` MUST be
    unique within the option, including across groups.
    """


class AvailableCommandCommand(Command):
    """
    A slash command the user can invoke by including it in a prompt.
    """

    type: Literal["command"] = constant_tag("command")


class UnknownAvailableCommand(Model):
    """A variant of ``AvailableCommand`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[str, not_one_of(("command",))]
    """The tag, as sent."""


class InvalidAvailableCommand(InvalidVariant):
    """A known variant of ``AvailableCommand`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[str, one_of(("command",))]
    """The tag, as sent."""


AvailableCommand: TypeAlias = Annotated[
    Annotated[AvailableCommandCommand, Field(discriminator="type")]
    | UnknownAvailableCommand
    | InvalidAvailableCommand,
    Field(union_mode="left_to_right"),
]
"""A command the agent advertises to the client. The `type` field acts as the discriminator in the serialized JSON form. A variant this version does not know (from a newer peer) is an ``UnknownAvailableCommand``; a known one whose data a peer sent does not match its schema, an ``InvalidAvailableCommand``."""


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
        | Literal[-32022]
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
    data: UnsupportedProtocolVersionErrorData | SessionNotFoundErrorData | Any | None = None
    """
    Optional primitive or structured value that contains additional information about the error.
    This may include debugging information or context-specific details.

    Omitted and `null` are equivalent and mean no additional data is provided. Some codes
    define a shape: [`UnsupportedProtocolVersionErrorData`] for `-32022`, and
    [`SessionNotFoundErrorData`] for `-32002` when a session is not found.
    """


class SessionUpdateTerminalUpdate(TerminalUpdate):
    """
    An agent-owned terminal has been created or updated.
    """

    session_update: Literal["terminal_update"] = constant_tag(
        "terminal_update", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class ContentChunk(Model):
    """
    A streamed item of message content.
    """

    message_id: str = Field(validation_alias="messageId", serialization_alias="messageId")
    """
    A unique identifier for the message this chunk belongs to.

    All chunks belonging to the same message share the same `messageId`.
    Chunks for different messages can interleave.
    """
    content: ContentBlock
    """
    A single item of content
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.
    This metadata is scoped to the chunk and does not patch stored metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class UserMessage(Model):
    """
    A user message upsert.

    Only `messageId` is required. `content` has patch semantics:
    an omitted field leaves existing message content unchanged, `null` clears the
    value, and a concrete array replaces the previous value. For a new
    `messageId`, omitted `content` starts empty. `content` is replaced as a
    whole array. Send `[]` or `null` to clear it.

    Message updates and chunks are applied in the order they are received. When
    a `user_message` update includes `content`, that array replaces any content
    previously accumulated for the message, including content from earlier
    chunks. Later chunks with the same `messageId` append to the current
    content.
    """

    message_id: str = Field(validation_alias="messageId", serialization_alias="messageId")
    """
    A unique identifier for the message.
    """
    content: list[ContentBlock] | None = None
    """
    Complete replacement content for this message.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted leaves the stored metadata unchanged. `null`
    clears it. An object patches the stored metadata by top-level key: keys it omits are
    unchanged, a key set to `null` is removed, and any other value replaces that key's
    stored value without merging nested objects. Beyond this patch rule, implementations
    MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Metadata Patches](https://agentclientprotocol.com/protocol/v2/extensibility#metadata-patches)
    """


class AgentMessage(Model):
    """
    An agent message upsert.

    Only `messageId` is required. `content` has patch semantics:
    an omitted field leaves existing message content unchanged, `null` clears the
    value, and a concrete array replaces the previous value. For a new
    `messageId`, omitted `content` starts empty. `content` is replaced as a
    whole array. Send `[]` or `null` to clear it.

    Message updates and chunks are applied in the order they are received. When
    an `agent_message` update includes `content`, that array replaces any
    content previously accumulated for the message, including content from
    earlier chunks. Later chunks with the same `messageId` append to the current
    content.
    """

    message_id: str = Field(validation_alias="messageId", serialization_alias="messageId")
    """
    A unique identifier for the message.
    """
    content: list[ContentBlock] | None = None
    """
    Complete replacement content for this message.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted leaves the stored metadata unchanged. `null`
    clears it. An object patches the stored metadata by top-level key: keys it omits are
    unchanged, a key set to `null` is removed, and any other value replaces that key's
    stored value without merging nested objects. Beyond this patch rule, implementations
    MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Metadata Patches](https://agentclientprotocol.com/protocol/v2/extensibility#metadata-patches)
    """


class AgentThought(Model):
    """
    An agent thought or reasoning message upsert.

    Only `messageId` is required. `content` has patch semantics:
    an omitted field leaves existing thought content unchanged, `null` clears the
    value, and a concrete array replaces the previous value. For a new
    `messageId`, omitted `content` starts empty. `content` is replaced as a
    whole array. Send `[]` or `null` to clear it.

    Message updates and chunks are applied in the order they are received. When
    an `agent_thought` update includes `content`, that array replaces any
    content previously accumulated for the thought, including content from
    earlier chunks. Later chunks with the same `messageId` append to the current
    content.
    """

    message_id: str = Field(validation_alias="messageId", serialization_alias="messageId")
    """
    A unique identifier for the thought message.
    """
    content: list[ContentBlock] | None = None
    """
    Complete replacement content for this thought message.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted leaves the stored metadata unchanged. `null`
    clears it. An object patches the stored metadata by top-level key: keys it omits are
    unchanged, a key set to `null` is removed, and any other value replaces that key's
    stored value without merging nested objects. Beyond this patch rule, implementations
    MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Metadata Patches](https://agentclientprotocol.com/protocol/v2/extensibility#metadata-patches)
    """


class ErrorStopReason(Model):
    """
    Details of a failure that ended active work.
    """

    error: Error | None = None
    """
    The failure, as a JSON-RPC error object.

    Optional. Omitted and `null` are equivalent and mean the agent is not reporting failure details.
    Agents SHOULD include it.
    """


class IdleStateUpdateError(ErrorStopReason):
    """
    The active work ended because something failed.

    This includes pre-insertion foreground work. A prompt failure before
    insertion also requires an error response to `session/prompt`. After
    insertion, the prompt's response remains successful.
    """

    background: list[BackgroundWork] | None = None
    """
    Work running independently of foreground work, as a complete snapshot.

    Optional. Omitted and `null` are equivalent and mean the Agent is not reporting
    background work, not that nothing is running. `[]` means no background work is
    running. An Agent that reports background work MUST include it on every state
    update for the session. A malformed list is treated as not reported.

    See protocol docs: [Background Work](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#background-work)
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    stop_reason: Literal["error"] = constant_tag(
        "error", serialization_alias="stopReason", validation_alias="stopReason"
    )
    """
    Why foreground work stopped. The value selects one of this type's variants, which may add fields of their own.

    Optional. Omitted and `null` are equivalent and mean the agent is not reporting a stop reason; a malformed value is treated the same way.

    See protocol docs: [Stop Reasons](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#stop-reasons)
    """


class StateUpdateIdleError(IdleStateUpdateError, StateUpdateIdleFields):
    """
    No foreground work is active. Background activity may continue.
    """

    state: Literal["idle"] = constant_tag("idle")


class StateUpdate(
    RootModel[
        Annotated[
            Annotated[StateUpdateRunning, Tag("running")]
            | Annotated[StateUpdateRequiresAction, Tag("requires_action")]
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
            | Annotated[UnknownStateUpdate, Tag(UNTAGGED)],
            by_tag(
                "state",
                (
                    "running",
                    "requires_action",
                    "idle",
                ),
            ),
        ]
    ]
):
    root: Annotated[
        Annotated[StateUpdateRunning, Tag("running")]
        | Annotated[StateUpdateRequiresAction, Tag("requires_action")]
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
        | Annotated[UnknownStateUpdate, Tag(UNTAGGED)],
        by_tag(
            "state",
            (
                "running",
                "requires_action",
                "idle",
            ),
        ),
    ]
    """
    A snapshot of the session's aggregate foreground activity.

    Foreground work is the agent's active response or workflow in the session,
    including model processing, tool execution, and waiting for user action needed
    to continue that work. It can start with a prompt or be agent-initiated, for
    example to pursue an ongoing goal or follow up on a completed background task.
    Either way, the agent MUST report `running` when foreground work starts,
    or `requires_action` if it starts blocked on user action, and `idle` when it
    ends. The agent SHOULD include a stop reason on that idle update.
    Agent-initiated work does not require a prompt request or a synthetic user
    message.

    `running` may precede user-message insertion, for example during a foreground
    hook. It is not acknowledgment of insertion, and rejecting a prompt does not
    itself end foreground work.

    Background activity can continue and emit other `session/update` notifications
    while `idle`. Those notifications, including a detached task's progress or
    completion, do not by themselves change this state. A permission request only
    warrants `requires_action` when foreground work is blocked on user action.

    The agent SHOULD report `requires_action` when the foreground workflow as a
    whole cannot progress without user action, including permissions or elicitations.
    Once reported, it MUST report `running` when progress resumes, or `idle` when
    work ends without resuming.
    If other foreground work can progress, the state remains `running`. Resolving
    one of several requests does not itself change the state. Agents SHOULD ignore
    responses for work that has already ended rather than use them to resume it.

    A new session defaults to idle until a state update reports otherwise.
    Resume MUST send a current-state snapshot after any replay and before its
    response. The snapshot reports foreground state after resuming.
    The response alone does not imply idle.
    Repeated snapshots are idempotent, not additional work, completions, or usage.
    A repeated state may carry updated information without another state transition.
    The agent MUST report `idle` when no foreground activity remains. Completing
    an individual activity while other foreground work continues does not require
    an idle boundary. Local commands use the same lifecycle even without model work.

    See protocol docs: [Session States](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#session-states)
    """


class PlanUpdateContentItems(PlanItems):
    """
    Structured plan entries.
    """

    type: Literal["items"] = constant_tag("items")


class UnknownPlanUpdateContent(Model):
    """A variant of ``PlanUpdateContent`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[str, not_one_of(("items",))]
    """The tag, as sent."""


class InvalidPlanUpdateContent(InvalidVariant):
    """A known variant of ``PlanUpdateContent`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[str, one_of(("items",))]
    """The tag, as sent."""


PlanUpdateContent: TypeAlias = Annotated[
    Annotated[PlanUpdateContentItems, Field(discriminator="type")]
    | UnknownPlanUpdateContent
    | InvalidPlanUpdateContent,
    Field(union_mode="left_to_right"),
]
"""Updated content for a plan. A variant this version does not know (from a newer peer) is an ``UnknownPlanUpdateContent``; a known one whose data a peer sent does not match its schema, an ``InvalidPlanUpdateContent``."""


class PlanUpdate(Model):
    """
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class AvailableCommandsUpdate(Model):
    """
    Available commands are ready or have changed
    """

    available_commands: list[AvailableCommand] = Field(
        validation_alias="availableCommands", serialization_alias="availableCommands"
    )
    """
    Commands the agent can execute.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class CompactionUpdate(Model):
    """
    A context compaction upsert. The first notification fixes the compaction's
    timeline position. Later updates with the same ID patch that entity in place.

    `summary`, `error`, and `_meta` have patch semantics: omission leaves the
    stored value unchanged, `null` clears it, and a concrete value replaces it.
    `summary: []` also clears the summary. A concrete `_meta` object patches the
    stored metadata by top-level key instead of replacing it.
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
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted leaves the stored metadata unchanged. `null`
    clears it. An object patches the stored metadata by top-level key: keys it omits are
    unchanged, a key set to `null` is removed, and any other value replaces that key's
    stored value without merging nested objects. Beyond this patch rule, implementations
    MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Metadata Patches](https://agentclientprotocol.com/protocol/v2/extensibility#metadata-patches)
    """


class CompactionSummaryChunk(Model):
    """
    A content block appended to a compaction's summary. A first-seen ID creates
    an in-progress compaction. Chunks append in receive order.
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
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.
    This metadata is scoped to the chunk and does not patch stored metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ClientCapabilities(Model):
    """
    Capabilities supported by the client.

    Advertised during initialization to inform the agent about
    available features and methods.

    See protocol docs: [Client Capabilities](https://agentclientprotocol.com/protocol/v2/initialization#client-capabilities)
    """

    auth: ClientAuthCapabilities | None = None
    """
    Authentication capabilities supported by the client.
    Determines which authentication method types the agent may include
    in its `InitializeResponse`.

    Optional. Omitted and `null` are equivalent and mean the client does not advertise any
    authentication-method extensions.
    """
    elicitation: ElicitationCapabilities | None = None
    """
    Elicitation capabilities supported by the client.
    Determines which elicitation modes the agent may use.

    Optional. Omitted and `null` are equivalent and mean the client does not advertise
    elicitation support.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class NewSessionRequest(Model):
    """
    Request parameters for creating a new session.

    See protocol docs: [Creating a Session](https://agentclientprotocol.com/protocol/v2/session-setup#creating-a-session)
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

    These expand the session's workspace scope without changing `cwd`, which
    remains the base for relative paths. When omitted or empty, no
    additional roots are activated for the new session.
    """
    mcp_servers: list[McpServer] | None = Field(
        default=None, validation_alias="mcpServers", serialization_alias="mcpServers"
    )
    """
    List of MCP (Model Context Protocol) servers the agent should connect to.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ResumeSessionRequest(Model):
    """
    Request parameters for resuming an existing session.

    Resumes an existing session and optionally replays retained conversation
    history according to `replayFrom`.
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to resume.
    """
    cwd: str
    """
    The working directory for this session. Must be an absolute path.

    Clients MUST send the session's working directory. Agents MAY reject a different directory
    with `-32602`, and MAY normalize paths when comparing.
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
    mcp_servers: list[McpServer] | None = Field(
        default=None, validation_alias="mcpServers", serialization_alias="mcpServers"
    )
    """
    List of MCP servers to connect to for this session.

    The complete set of Client-provided servers. Omitted and `[]` mean none. Agents SHOULD
    NOT restore servers from earlier requests.
    """
    replay_from: ReplayFrom | None = Field(
        default=None, validation_alias="replayFrom", serialization_alias="replayFrom"
    )
    """
    Inclusive cursor describing where conversation replay should begin.

    Optional. Omitted and `null` are equivalent and mean the Agent should resume without
    replaying previous conversation history. Replay cursors are inclusive:
    replay includes the position identified by the cursor. Supplying
    `{ "type": "start" }` means the Agent should replay all retained
    conversation history before responding.

    Agents MUST reject unsupported cursor types or malformed cursor values
    with `-32602` (Invalid params), rather than substituting another cursor
    or resuming without replay.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class PromptRequest(Model):
    """
    Request parameters for sending a user prompt to the agent.

    Contains the user's message and any additional context.

    See protocol docs: [User Message](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#1-user-message)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The ID of the session to send this user message to
    """
    prompt: list[ContentBlock] = Field(min_length=1)
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

    Clients MUST NOT send an empty array. Agents MAY reject one with `-32602` without
    inserting it.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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

    type: ElicitationSchemaType
    """
    Type discriminator. Always `"object"`. Any other value is rejected.
    """
    title: str | None = None
    """
    Optional title for the schema.

    Optional. Omitted and `null` are equivalent and mean no title is provided.
    """
    properties: dict[str, ElicitationPropertySchema]
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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


class AgentCapabilities(Model):
    """
    Capabilities supported by the agent.

    Advertised during initialization to inform the client about
    available features and content types.

    See protocol docs: [Agent Capabilities](https://agentclientprotocol.com/protocol/v2/initialization#agent-capabilities)
    """

    session: SessionCapabilities | None = None
    """
    Session capabilities supported by the agent.

    Optional. Omitted and `null` are equivalent and mean the agent does not support the
    `session/*` methods. Supplying `{}` means the agent supports the
    baseline session methods: `session/new`, `session/list`,
    `session/resume`, `session/close`, `session/prompt`, `session/cancel`,
    and `session/update`.
    """
    auth: AgentAuthCapabilities | None = None
    """
    Authentication-related extension capabilities supported by the agent.

    Optional. Omitted and `null` are equivalent and mean the agent does not advertise any
    authentication-related extensions. This field does not advertise support
    for `auth/login` or `auth/logout`. Those methods are advertised by a
    non-empty `authMethods` list in the `initialize` response.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SessionConfigOptionSelect(SessionConfigSelect):
    """
    Single-value selector (dropdown).
    """

    config_id: str = Field(validation_alias="configId", serialization_alias="configId")
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

    Omitted and `null` are equivalent and mean no description is provided.
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

    Omitted and `null` are equivalent and mean no category is provided.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """
    type: Literal["select"] = constant_tag("select")


class ResumeSessionResponse(Model):
    """
    Response from resuming an existing session.

    The agent MUST send a current `state_update` after any requested history
    replay and before this response, even without replay. The update reports
    foreground state after resuming. The response alone does not imply `idle`.

    See protocol docs: [Current-State Synchronization](https://agentclientprotocol.com/protocol/v2/session-setup#current-state-synchronization)
    """

    config_options: list[SessionConfigOption] | None = Field(
        default=None, validation_alias="configOptions", serialization_alias="configOptions"
    )
    """
    Initial session configuration options.

    Optional. Omitted or empty means no config options are advertised.
    Senders MUST use an array, not `null`. Receivers treat `null` like omission.
    Later `config_option_update` notifications replace this list.
    """
    available_commands: list[AvailableCommand] | None = Field(
        default=None, validation_alias="availableCommands", serialization_alias="availableCommands"
    )
    """
    Initial commands the agent can execute in this session.

    Optional. Omitted or empty means no initial commands are advertised.
    Senders MUST use an array, not `null`. Receivers treat `null` like omission.
    Later `available_commands_update` notifications replace this list.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SessionUpdateUserMessageChunk(ContentChunk):
    """
    A chunk of the user's message being streamed.
    """

    session_update: Literal["user_message_chunk"] = constant_tag(
        "user_message_chunk", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateUserMessage(UserMessage):
    """
    A user message has been created or updated.

    Agents can send this when they accept or replay a user message. When a
    client receives another `user_message` update with the same `messageId`,
    fields in the new update patch the previous fields for that message.
    """

    session_update: Literal["user_message"] = constant_tag(
        "user_message", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateAgentMessageChunk(ContentChunk):
    """
    A chunk of the agent's response being streamed.
    """

    session_update: Literal["agent_message_chunk"] = constant_tag(
        "agent_message_chunk", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateAgentMessage(AgentMessage):
    """
    An agent message has been created or updated.

    Agents can send this in addition to streamed chunks. When a client
    receives another `agent_message` update with the same `messageId`,
    fields in the new update patch the previous fields for that message.
    """

    session_update: Literal["agent_message"] = constant_tag(
        "agent_message", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateAgentThoughtChunk(ContentChunk):
    """
    A chunk of the agent's internal reasoning being streamed.
    """

    session_update: Literal["agent_thought_chunk"] = constant_tag(
        "agent_thought_chunk", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateAgentThought(AgentThought):
    """
    An agent thought or reasoning message has been created or updated.

    Agents can send this in addition to streamed chunks. When a client
    receives another `agent_thought` update with the same `messageId`,
    fields in the new update patch the previous fields for that message.
    """

    session_update: Literal["agent_thought"] = constant_tag(
        "agent_thought", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdatePlanUpdate(PlanUpdate):
    """
    A content update for a plan identified by ID.
    See protocol docs: [Agent Plan](https://agentclientprotocol.com/protocol/v2/agent-plan)
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
    """

    session_update: Literal["compaction_update"] = constant_tag(
        "compaction_update", serialization_alias="sessionUpdate", validation_alias="sessionUpdate"
    )


class SessionUpdateCompactionSummaryChunk(CompactionSummaryChunk):
    """
    A content block appended to a context compaction's retained summary.
    """

    session_update: Literal["compaction_summary_chunk"] = constant_tag(
        "compaction_summary_chunk",
        serialization_alias="sessionUpdate",
        validation_alias="sessionUpdate",
    )


class ToolCallContentChunk(Model):
    """
    A streamed item of tool-call content.

    Tool-call content chunks append one `ToolCallContent` item to the current
    content for the matching `toolCallId`. Agents can send a `tool_call_update`
    with `content` when they need to replace the whole content collection
    instead.
    """

    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    The ID of the tool call this content belongs to.
    """
    content: ToolCallContent
    """
    A single item of content produced by the tool call.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.
    This metadata is scoped to the chunk and does not patch stored metadata.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class InitializeRequest(Model):
    """
    Request parameters for the initialize method.

    Sent by the client to establish connection and negotiate capabilities.

    See protocol docs: [Initialization](https://agentclientprotocol.com/protocol/v2/initialization)
    """

    protocol_version: int = Field(
        validation_alias="protocolVersion", serialization_alias="protocolVersion", ge=0, le=65535
    )
    """
    The latest protocol version supported by the client.
    """
    info: Implementation
    """
    Information about the implementation sending this initialize request.
    """
    capabilities: ClientCapabilities | None = Field(default={}, validate_default=True)
    """
    Capabilities supported by the client.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class ToolCallUpdate(Model):
    """
    Represents an upsert for a tool call that the language model has requested.

    Tool calls are actions that the agent executes on behalf of the language model,
    such as reading files, executing code, or fetching data from external sources.

    Only `toolCallId` is required. Other fields have patch semantics:
    omitted fields leave the existing tool call value unchanged, `null` clears or
    unsets the value, and concrete values replace the previous value. For
    collection fields, concrete arrays replace the previous collection, and both
    `null` and `[]` clear the collection. A concrete `_meta` object instead
    patches the stored metadata by top-level key. When a client receives a tool
    call ID it has not seen before, omitted fields start at their protocol defaults.

    See protocol docs: [Tool Calls](https://agentclientprotocol.com/protocol/v2/tool-calls)
    """

    tool_call_id: str = Field(validation_alias="toolCallId", serialization_alias="toolCallId")
    """
    Unique identifier for this tool call within the session.
    """
    name: str | None = None
    """
    Programmatic name of the tool being invoked.

    This field is optional and has patch semantics. Omission means no
    change, `null` clears the name, and a string replaces it. For a tool
    call ID the client has not seen before, omission or `null` means that no
    tool name is available.
    """
    title: str | None = None
    """
    Human-readable title describing what the tool is doing.

    Omission leaves the title unchanged, `null` unsets it, and a string replaces it.
    A new tool call starts without a title.
    """
    kind: (
        Literal["read"]
        | Literal["edit"]
        | Literal["delete"]
        | Literal["move"]
        | Literal["search"]
        | Literal["execute"]
        | Literal["think"]
        | Literal["fetch"]
        | Literal["switch_mode"]
        | Literal["other"]
        | str
        | None
    ) = None
    """
    The category of tool being invoked.
    Helps clients choose appropriate icons and UI treatment.

    Omission leaves the kind unchanged, `null` resets it to `other`, and a value replaces it.
    A new tool call starts as `other`.
    """
    status: (
        Literal["pending"]
        | Literal["in_progress"]
        | Literal["paused"]
        | Literal["completed"]
        | Literal["failed"]
        | Literal["cancelled"]
        | str
        | None
    ) = None
    """
    Current execution status of the tool call.

    Omission leaves the status unchanged, `null` resets it to `pending`, and a value
    replaces it. A new tool call starts as `pending`.
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
    capabilities: ToolCallCapabilities | None = None
    """
    Client-initiated controls this tool call currently supports, such as cancellation.

    Omission leaves the capabilities unchanged, `null` clears them, and an object replaces
    the whole previous value. A new tool call starts with none.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted leaves the stored metadata unchanged. `null`
    clears it. An object patches the stored metadata by top-level key: keys it omits are
    unchanged, a key set to `null` is removed, and any other value replaces that key's
    stored value without merging nested objects. Beyond this patch rule, implementations
    MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Metadata Patches](https://agentclientprotocol.com/protocol/v2/extensibility#metadata-patches)
    """


class ToolCallPermissionSubject(Model):
    """
    Permission request details for a tool call.
    """

    tool_call: ToolCallUpdate = Field(validation_alias="toolCall", serialization_alias="toolCall")
    """
    Details about the tool call requiring permission.

    Clients apply this to their stored tool call exactly like a `tool_call_update`
    notification, in the order it was received, before showing the prompt. A first-seen
    `toolCallId` creates the tool call.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
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
            | Annotated[UnknownCreateElicitationRequest, Tag(UNTAGGED)],
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
        | Annotated[UnknownCreateElicitationRequest, Tag(UNTAGGED)],
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

    A session-scoped request follows the aggregate foreground-state contract:
    agents SHOULD report `requires_action` when the whole foreground workflow is
    blocked on user action. Once reported, they MUST report `running` when progress
    resumes, or `idle` if work ends without resuming. Independent background requests
    and request-scoped elicitations do not themselves change session state.
    Accepting a URL does not mean the external interaction completed.

    Agents SHOULD cancel pending elicitations no longer needed by cancelled work.
    The request's scope alone does not establish that dependency.

    See protocol docs: [Elicitation](https://agentclientprotocol.com/protocol/v2/elicitation)
    """


class InitializeResponse(Model):
    """
    Response to the `initialize` method.

    Contains the negotiated protocol version and agent capabilities.

    See protocol docs: [Initialization](https://agentclientprotocol.com/protocol/v2/initialization)
    """

    protocol_version: int = Field(
        validation_alias="protocolVersion", serialization_alias="protocolVersion", ge=0, le=65535
    )
    """
    The highest protocol version supported by the agent that is at or below
    the version requested by the client. If no such version exists,
    initialization fails with error code -32022.

    The client must check that it supports this version and should disconnect
    if it does not.
    """
    info: Implementation
    """
    Information about the implementation sending this initialize response.
    """
    capabilities: AgentCapabilities | None = Field(default={}, validate_default=True)
    """
    Capabilities supported by the agent.
    """
    auth_methods: list[AuthMethod] | None = Field(
        default=None, validation_alias="authMethods", serialization_alias="authMethods"
    )
    """
    Authentication methods supported by the agent.

    Optional. Omitted or empty means the agent does not advertise the
    `auth/login` and `auth/logout` methods. Supplying one or more methods means
    the agent MUST support both `auth/login` and `auth/logout`.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class NewSessionResponse(Model):
    """
    Response from creating a new session.

    New sessions default to `idle` until a state update reports otherwise.
    Updates may arrive before or after this response. Clients MUST NOT overwrite
    an already-reported state when the response arrives.

    See protocol docs: [Creating a Session](https://agentclientprotocol.com/protocol/v2/session-setup#creating-a-session)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    Unique identifier for the created session.

    Used in all subsequent requests for this conversation.
    """
    config_options: list[SessionConfigOption] | None = Field(
        default=None, validation_alias="configOptions", serialization_alias="configOptions"
    )
    """
    Initial session configuration options.

    Optional. Omitted or empty means no config options are advertised.
    Senders MUST use an array, not `null`. Receivers treat `null` like omission.
    Later `config_option_update` notifications replace this list.
    """
    available_commands: list[AvailableCommand] | None = Field(
        default=None, validation_alias="availableCommands", serialization_alias="availableCommands"
    )
    """
    Initial commands the agent can execute in this session.

    Optional. Omitted or empty means no initial commands are advertised.
    Senders MUST use an array, not `null`. Receivers treat `null` like omission.
    Later `available_commands_update` notifications replace this list.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class SessionUpdateToolCallContentChunk(ToolCallContentChunk):
    """
    A chunk of tool-call content being streamed.
    """

    session_update: Literal["tool_call_content_chunk"] = constant_tag(
        "tool_call_content_chunk",
        serialization_alias="sessionUpdate",
        validation_alias="sessionUpdate",
    )


class SessionUpdateToolCallUpdate(ToolCallUpdate):
    """
    A tool call has been created or updated.
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


class RequestPermissionSubjectToolCall(ToolCallPermissionSubject):
    """
    Permission is requested before executing a tool call.
    """

    type: Literal["tool_call"] = constant_tag("tool_call")


class UpdateSessionNotification(Model):
    """
    Notification containing a session update from the agent.

    Agents can send session updates at any point while the session exists.

    See protocol docs: [Agent Reports Output](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#3-agent-reports-output)
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
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


class RequestPermissionRequest(Model):
    """
    Request for user permission to proceed with an operation.

    Sent when the agent needs authorization before performing a sensitive operation.

    See protocol docs: [Requesting Permission](https://agentclientprotocol.com/protocol/v2/tool-calls#requesting-permission)
    """

    session_id: str = Field(validation_alias="sessionId", serialization_alias="sessionId")
    """
    The session ID for this request.
    """
    title: str
    """
    Human-readable title for the permission prompt.

    This title is specific to the permission prompt and does not update any
    subject's displayed title.
    """
    description: str | None = None
    """
    Optional human-readable explanation of why permission is needed.

    This text is specific to the permission prompt and does not update any
    subject's displayed content. Omitted and `null` are equivalent and mean no separate
    permission description was provided.
    """
    subject: RequestPermissionSubject | None = None
    """
    Optional structured context about the operation requiring permission.

    Omitted and `null` are equivalent and mean no structured subject was provided.
    """
    options: list[PermissionOption] = Field(min_length=1)
    """
    Available permission options for the user to choose from.
    Must contain at least one option.
    """
    meta: dict[str, Any] | None = Field(
        default=None, validation_alias="_meta", serialization_alias="_meta"
    )
    """
    The _meta property is reserved by ACP to allow clients and agents to attach additional
    metadata to their interactions. Omitted and `null` are equivalent and mean no metadata.
    Implementations MUST NOT assign meaning to keys they do not recognize.

    See protocol docs: [Extensibility](https://agentclientprotocol.com/protocol/v2/extensibility)
    """


RequestId: TypeAlias = int | str
"""A JSON-RPC request ID: a string or an integer. Unlike base JSON-RPC, it MUST NOT be `null`. The receiver MUST reply with the same value in the response. Each side chooses IDs for its own requests, so the same ID can be in use in both directions. A sender MUST NOT reuse an ID while a request with it is still awaiting a response."""


SessionId: TypeAlias = str
"""A unique identifier for a conversation session between a client and agent. Each session has its own context, conversation history, and state, so one agent can run several independent sessions. See protocol docs: [Session ID](https://agentclientprotocol.com/protocol/v2/session-setup#session-id)"""


class UnknownRequestPermissionSubject(Model):
    """A variant of ``RequestPermissionSubject`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "tool_call",
                "command",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidRequestPermissionSubject(InvalidVariant):
    """A known variant of ``RequestPermissionSubject`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "tool_call",
                "command",
            )
        ),
    ]
    """The tag, as sent."""


RequestPermissionSubject: TypeAlias = Annotated[
    Annotated[
        RequestPermissionSubjectToolCall | RequestPermissionSubjectCommand,
        Field(discriminator="type"),
    ]
    | UnknownRequestPermissionSubject
    | InvalidRequestPermissionSubject,
    Field(union_mode="left_to_right"),
]
"""The operation requiring permission. A variant this version does not know (from a newer peer) is an ``UnknownRequestPermissionSubject``; a known one whose data a peer sent does not match its schema, an ``InvalidRequestPermissionSubject``."""


ToolCallId: TypeAlias = str
"""Unique identifier for a tool call within a session."""


ToolKind: TypeAlias = (
    Literal["read"]
    | Literal["edit"]
    | Literal["delete"]
    | Literal["move"]
    | Literal["search"]
    | Literal["execute"]
    | Literal["think"]
    | Literal["fetch"]
    | Literal["switch_mode"]
    | Literal["other"]
    | str
)
"""Categories of tools that can be invoked. Tool kinds help clients choose appropriate icons and optimize how they display tool execution progress. See protocol docs: [Reporting](https://agentclientprotocol.com/protocol/v2/tool-calls#reporting)"""


ToolCallStatus: TypeAlias = (
    Literal["pending"]
    | Literal["in_progress"]
    | Literal["paused"]
    | Literal["completed"]
    | Literal["failed"]
    | Literal["cancelled"]
    | str
)
"""Execution status of a tool call. Tool calls progress through different statuses during their lifecycle. See protocol docs: [Status](https://agentclientprotocol.com/protocol/v2/tool-calls#status)"""


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
"""Content produced by a tool call. Tool calls can produce different types of content including standard content blocks (text, images), file diffs, or display-only terminals. See protocol docs: [Content](https://agentclientprotocol.com/protocol/v2/tool-calls#content) A variant this version does not know (from a newer peer) is an ``UnknownToolCallContent``; a known one whose data a peer sent does not match its schema, an ``InvalidToolCallContent``."""


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
"""Content blocks represent displayable information in the Agent Client Protocol. Content blocks appear in: - User prompts sent via `session/prompt` - Language model output reported through `session/update` notifications as message updates or streamed chunks - Progress updates and results from tool calls This structure is compatible with the Model Context Protocol (MCP), so agents can forward content from MCP tool outputs without transformation. See protocol docs: [Content](https://agentclientprotocol.com/protocol/v2/content) A variant this version does not know (from a newer peer) is an ``UnknownContentBlock``; a known one whose data a peer sent does not match its schema, an ``InvalidContentBlock``."""


Role: TypeAlias = Literal["assistant"] | Literal["user"] | str
"""The sender or recipient of messages and data in a conversation."""


MediaType: TypeAlias = str
"""An Internet media type identifying the format of protocol content."""


IconTheme: TypeAlias = Literal["light"] | Literal["dark"] | str
"""Theme an icon is designed for."""


EmbeddedResourceResource: TypeAlias = TextResourceContents | BlobResourceContents
"""Resource content that can be embedded in a message."""


class UnknownDiffChange(Model):
    """A variant of ``DiffChange`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    operation: Annotated[
        str,
        not_one_of(
            (
                "add",
                "delete",
                "modify",
                "move",
                "copy",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidDiffChange(InvalidVariant):
    """A known variant of ``DiffChange`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    operation: Annotated[
        str,
        one_of(
            (
                "add",
                "delete",
                "modify",
                "move",
                "copy",
            )
        ),
    ]
    """The tag, as sent."""


DiffChange: TypeAlias = Annotated[
    Annotated[
        DiffChangeAdd | DiffChangeDelete | DiffChangeModify | DiffChangeMove | DiffChangeCopy,
        Field(discriminator="operation"),
    ]
    | UnknownDiffChange
    | InvalidDiffChange,
    Field(union_mode="left_to_right"),
]
"""One file-level change described by a `Diff`. Structured change metadata lets clients identify affected files and operations without parsing the text patch. A variant this version does not know (from a newer peer) is an ``UnknownDiffChange``; a known one whose data a peer sent does not match its schema, an ``InvalidDiffChange``."""


DiffFileType: TypeAlias = (
    Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str
)
"""Kind of file content represented by a diff change."""


AbsolutePath: TypeAlias = str
"""An absolute filesystem path used by the protocol. Uses the native syntax of the machine the Agent runs on, such as `/home/user/project`, `C:\\Users\\user\\project`, or `\\\\server\\share\\project`. It is not a URI."""


DiffPatchFormat: TypeAlias = Literal["git_patch"] | str
"""Text patch format used by `DiffPatch`."""


TerminalId: TypeAlias = str
"""Unique identifier for an agent-owned terminal within a session."""


PermissionOptionId: TypeAlias = str
"""Unique identifier for a permission option."""


PermissionOptionKind: TypeAlias = (
    Literal["allow_once"]
    | Literal["allow_always"]
    | Literal["reject_once"]
    | Literal["reject_always"]
    | str
)
"""The type of permission option being presented to the user. Helps clients choose appropriate icons and UI treatment."""


class UnknownElicitationPropertySchema(Model):
    """A variant of ``ElicitationPropertySchema`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "string",
                "number",
                "integer",
                "boolean",
                "array",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidElicitationPropertySchema(InvalidVariant):
    """A known variant of ``ElicitationPropertySchema`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "string",
                "number",
                "integer",
                "boolean",
                "array",
            )
        ),
    ]
    """The tag, as sent."""


ElicitationPropertySchema: TypeAlias = Annotated[
    Annotated[
        ElicitationPropertySchemaString
        | ElicitationPropertySchemaNumber
        | ElicitationPropertySchemaInteger
        | ElicitationPropertySchemaBoolean
        | ElicitationPropertySchemaArray,
        Field(discriminator="type"),
    ]
    | UnknownElicitationPropertySchema
    | InvalidElicitationPropertySchema,
    Field(union_mode="left_to_right"),
]
"""Property schema for elicitation form fields. Each variant corresponds to a JSON Schema `\"type\"` value. Single-select enums use `type: \"string\"` with `enum` or `oneOf` set. Multi-select enums use `type: \"array\"`. A variant this version does not know (from a newer peer) is an ``UnknownElicitationPropertySchema``; a known one whose data a peer sent does not match its schema, an ``InvalidElicitationPropertySchema``."""


StringFormat: TypeAlias = (
    Literal["email"] | Literal["uri"] | Literal["date"] | Literal["date-time"] | str
)
"""String format types for string properties in elicitation schemas."""


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


class UnknownAuthMethod(Model):
    """A variant of ``AuthMethod`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "terminal",
                "agent",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidAuthMethod(InvalidVariant):
    """A known variant of ``AuthMethod`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "terminal",
                "agent",
            )
        ),
    ]
    """The tag, as sent."""


AuthMethod: TypeAlias = Annotated[
    Annotated[AuthMethodTerminalModel | AuthMethodAgentModel, Field(discriminator="type")]
    | UnknownAuthMethod
    | InvalidAuthMethod,
    Field(union_mode="left_to_right"),
]
"""Describes an available authentication method. The `type` field acts as the discriminator in the serialized JSON form. A variant this version does not know (from a newer peer) is an ``UnknownAuthMethod``; a known one whose data a peer sent does not match its schema, an ``InvalidAuthMethod``."""


AuthMethodId: TypeAlias = str
"""Typed identifier used for auth method values on the wire."""


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
    SessionConfigSelectOptionsUngrouped | SessionConfigSelectOptionsGrouped
)
"""Possible values for a session configuration option."""


SessionConfigGroupId: TypeAlias = str
"""Unique identifier for a session configuration option value group."""


SessionListCursor: TypeAlias = str
"""An opaque cursor used to paginate `session/list` results."""


MessageId: TypeAlias = str
"""Identifier for a message, unique among messages of the same type within a session. Each message type, such as user messages, agent messages, and agent thoughts, has its own ID space: messages of different types may share an ID and remain distinct messages."""


ErrorCode: TypeAlias = (
    Literal[-32700]
    | Literal[-32600]
    | Literal[-32601]
    | Literal[-32602]
    | Literal[-32603]
    | Literal[-32800]
    | Literal[-32000]
    | Literal[-32002]
    | Literal[-32022]
    | int
)
"""Predefined error codes for common JSON-RPC and ACP-specific errors. Standard errors use the JSON-RPC 2.0 codes. ACP-specific errors use the JSON-RPC server-error range (-32000 to -32099), and request cancellation uses -32800 from the range LSP reserves (-32899 to -32800)."""


ErrorData: TypeAlias = UnsupportedProtocolVersionErrorData | SessionNotFoundErrorData | Any
"""Schema for [`Error::data`]: the shapes ACP defines, or any other value."""


class UnknownSessionUpdate(Model):
    """A variant of ``SessionUpdate`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    session_update: Annotated[
        str,
        not_one_of(
            (
                "user_message_chunk",
                "user_message",
                "agent_message_chunk",
                "agent_message",
                "agent_thought_chunk",
                "agent_thought",
                "state_update",
                "tool_call_content_chunk",
                "tool_call_update",
                "terminal_update",
                "terminal_output_chunk",
                "plan_update",
                "available_commands_update",
                "config_option_update",
                "session_info_update",
                "usage_update",
                "notice",
                "compaction_update",
                "compaction_summary_chunk",
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
                "user_message",
                "agent_message_chunk",
                "agent_message",
                "agent_thought_chunk",
                "agent_thought",
                "state_update",
                "tool_call_content_chunk",
                "tool_call_update",
                "terminal_update",
                "terminal_output_chunk",
                "plan_update",
                "available_commands_update",
                "config_option_update",
                "session_info_update",
                "usage_update",
                "notice",
                "compaction_update",
                "compaction_summary_chunk",
            )
        ),
    ] = Field(validation_alias="sessionUpdate", serialization_alias="sessionUpdate")
    """The tag, as sent."""


SessionUpdate: TypeAlias = Annotated[
    Annotated[
        SessionUpdateUserMessageChunk
        | SessionUpdateUserMessage
        | SessionUpdateAgentMessageChunk
        | SessionUpdateAgentMessage
        | SessionUpdateAgentThoughtChunk
        | SessionUpdateAgentThought
        | SessionUpdateStateUpdate
        | SessionUpdateToolCallContentChunk
        | SessionUpdateToolCallUpdate
        | SessionUpdateTerminalUpdate
        | SessionUpdateTerminalOutputChunk
        | SessionUpdatePlanUpdate
        | SessionUpdateAvailableCommandsUpdate
        | SessionUpdateConfigOptionUpdate
        | SessionUpdateSessionInfoUpdate
        | SessionUpdateUsageUpdate
        | SessionUpdateNotice
        | SessionUpdateCompactionUpdate
        | SessionUpdateCompactionSummaryChunk,
        Field(discriminator="session_update"),
    ]
    | UnknownSessionUpdate
    | InvalidSessionUpdate,
    Field(union_mode="left_to_right"),
]
"""Different types of updates that can be sent while a session exists. These updates report messages, progress, and other session activity. See protocol docs: [Agent Reports Output](https://agentclientprotocol.com/protocol/v2/prompt-lifecycle#3-agent-reports-output) A variant this version does not know (from a newer peer) is an ``UnknownSessionUpdate``; a known one whose data a peer sent does not match its schema, an ``InvalidSessionUpdate``."""


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
"""No foreground work is active. Background activity may continue. Agents SHOULD include a `stopReason` when the idle transition ends foreground work. An idle update that does not end foreground work need not include one. Receivers treat an omitted, `null`, or malformed `stopReason` as the agent not reporting one. Repeated or resume snapshots may carry the last stop reason for context. They MUST NOT be counted as new completions, cancellations, or additional usage."""


PlanId: TypeAlias = str
"""Unique identifier for a plan within a session."""


PlanEntryPriority: TypeAlias = Literal["high"] | Literal["medium"] | Literal["low"] | str
"""Priority levels for plan entries. Used to indicate the relative importance or urgency of different tasks in the execution plan. See protocol docs: [Plan Entries](https://agentclientprotocol.com/protocol/v2/agent-plan#plan-entries)"""


PlanEntryStatus: TypeAlias = (
    Literal["pending"] | Literal["in_progress"] | Literal["completed"] | Literal["cancelled"] | str
)
"""Status of a plan entry in the execution flow. Tracks the lifecycle of each task from planning through completion. See protocol docs: [Plan Entries](https://agentclientprotocol.com/protocol/v2/agent-plan#plan-entries)"""


NoticeSeverity: TypeAlias = Literal["info"] | Literal["warning"] | Literal["error"] | str
"""Severity hint for a session notice."""


CompactionId: TypeAlias = str
"""Unique identifier for a context compaction within a session."""


CompactionStatus: TypeAlias = (
    Literal["in_progress"] | Literal["completed"] | Literal["failed"] | Literal["cancelled"] | str
)
"""Lifecycle state of a context compaction."""


class UnknownMcpServer(Model):
    """A variant of ``McpServer`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    type: Annotated[
        str,
        not_one_of(
            (
                "http",
                "stdio",
            )
        ),
    ]
    """The tag, as sent."""


class InvalidMcpServer(InvalidVariant):
    """A known variant of ``McpServer`` whose data, as a peer sent it, does not match its schema: kept as sent (``raw``), with what does not match (``errors``); never made from data of our own."""

    type: Annotated[
        str,
        one_of(
            (
                "http",
                "stdio",
            )
        ),
    ]
    """The tag, as sent."""


McpServer: TypeAlias = Annotated[
    Annotated[McpServerHttpModel | McpServerStdioModel, Field(discriminator="type")]
    | UnknownMcpServer
    | InvalidMcpServer,
    Field(union_mode="left_to_right"),
]
"""Configuration for connecting to an MCP (Model Context Protocol) server. MCP servers provide tools and context that the agent can use when processing prompts. See protocol docs: [MCP Servers](https://agentclientprotocol.com/protocol/v2/session-setup#mcp-servers) A variant this version does not know (from a newer peer) is an ``UnknownMcpServer``; a known one whose data a peer sent does not match its schema, an ``InvalidMcpServer``."""


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


ElicitationContentValue: TypeAlias = Any | str | int | float | bool | list[str]
"""Allowed wire representations for `ElicitationContentValue`."""
