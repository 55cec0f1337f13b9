"""Dict forms of agentproto.acp.v2.models. Do not edit: run `codegen build`.

Each model of the models module as a TypedDict with the wire's keys: what a client
call accepts wherever it accepts the model."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

from agentproto.acp.v2.models import ElicitationSchemaType


class TextResourceContentsParam(TypedDict):
    """``TextResourceContents`` as a dict, with the wire's keys."""

    text: str
    uri: str
    mimeType: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class BlobResourceContentsParam(TypedDict):
    """``BlobResourceContents`` as a dict, with the wire's keys."""

    blob: str
    uri: str
    mimeType: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class DiffPathChangeParam(TypedDict):
    """``DiffPathChange`` as a dict, with the wire's keys."""

    path: str


class DiffPathPairChangeParam(TypedDict):
    """``DiffPathPairChange`` as a dict, with the wire's keys."""

    oldPath: str
    path: str


class TerminalParam(TypedDict):
    """``Terminal`` as a dict, with the wire's keys."""

    terminalId: str
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallLocationParam(TypedDict):
    """``ToolCallLocation`` as a dict, with the wire's keys."""

    path: str
    line: NotRequired[int | None]
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallCancelCapabilitiesParam(TypedDict):
    """``ToolCallCancelCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class CommandPermissionSubjectParam(TypedDict):
    """``CommandPermissionSubject`` as a dict, with the wire's keys."""

    command: str
    cwd: str
    toolCallId: NotRequired[str | None]
    terminalId: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationRequestFormFieldsParam(TypedDict):
    """``CreateElicitationRequestFormFields`` as a dict, with the wire's keys."""

    message: str
    mode: Literal["form"]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationRequestUrlFieldsParam(TypedDict):
    """``CreateElicitationRequestUrlFields`` as a dict, with the wire's keys."""

    message: str
    mode: Literal["url"]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationSessionScopeParam(TypedDict):
    """``ElicitationSessionScope`` as a dict, with the wire's keys."""

    sessionId: str
    toolCallId: NotRequired[str | None]


class ElicitationRequestScopeParam(TypedDict):
    """``ElicitationRequestScope`` as a dict, with the wire's keys."""

    requestId: int | str


class EnumOptionParam(TypedDict):
    """``EnumOption`` as a dict, with the wire's keys."""

    const: str
    title: str
    description: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class StringPropertySchemaParam(TypedDict):
    """``StringPropertySchema`` as a dict, with the wire's keys."""

    title: NotRequired[str | None]
    description: NotRequired[str | None]
    minLength: NotRequired[int | None]
    maxLength: NotRequired[int | None]
    pattern: NotRequired[str | None]
    format: NotRequired[
        Literal["email"] | Literal["uri"] | Literal["date"] | Literal["date-time"] | str | None
    ]
    default: NotRequired[str | None]
    enum: NotRequired[list[str] | None]
    oneOf: NotRequired[list[EnumOptionParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class NumberPropertySchemaParam(TypedDict):
    """``NumberPropertySchema`` as a dict, with the wire's keys."""

    title: NotRequired[str | None]
    description: NotRequired[str | None]
    minimum: NotRequired[float | None]
    maximum: NotRequired[float | None]
    default: NotRequired[float | None]
    _meta: NotRequired[dict[str, Any] | None]


class IntegerPropertySchemaParam(TypedDict):
    """``IntegerPropertySchema`` as a dict, with the wire's keys."""

    title: NotRequired[str | None]
    description: NotRequired[str | None]
    minimum: NotRequired[int | None]
    maximum: NotRequired[int | None]
    default: NotRequired[int | None]
    _meta: NotRequired[dict[str, Any] | None]


class BooleanPropertySchemaParam(TypedDict):
    """``BooleanPropertySchema`` as a dict, with the wire's keys."""

    title: NotRequired[str | None]
    description: NotRequired[str | None]
    default: NotRequired[bool | None]
    _meta: NotRequired[dict[str, Any] | None]


class MultiSelectItemsOtherParam(TypedDict):
    """``MultiSelectItemsOther`` as a dict, with the wire's keys."""

    type: str


class StringMultiSelectItemsParam(TypedDict):
    """``StringMultiSelectItems`` as a dict, with the wire's keys."""

    enum: list[str]
    _meta: NotRequired[dict[str, Any] | None]


class TitledMultiSelectItemsParam(TypedDict):
    """``TitledMultiSelectItems`` as a dict, with the wire's keys."""

    anyOf: list[EnumOptionParam]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationUrlModeSessionParam(TypedDict):
    """``ElicitationUrlModeSession`` as a dict, with the wire's keys."""

    sessionId: str
    elicitationId: str
    url: str
    toolCallId: NotRequired[str | None]


class ElicitationUrlModeRequestParam(TypedDict):
    """``ElicitationUrlModeRequest`` as a dict, with the wire's keys."""

    requestId: int | str
    elicitationId: str
    url: str


class ImplementationParam(TypedDict):
    """``Implementation`` as a dict, with the wire's keys."""

    name: str
    version: str
    title: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class PromptImageCapabilitiesParam(TypedDict):
    """``PromptImageCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class PromptAudioCapabilitiesParam(TypedDict):
    """``PromptAudioCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class PromptEmbeddedContextCapabilitiesParam(TypedDict):
    """``PromptEmbeddedContextCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class McpStdioCapabilitiesParam(TypedDict):
    """``McpStdioCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class McpHttpCapabilitiesParam(TypedDict):
    """``McpHttpCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionDeleteCapabilitiesParam(TypedDict):
    """``SessionDeleteCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionAdditionalDirectoriesCapabilitiesParam(TypedDict):
    """``SessionAdditionalDirectoriesCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class AgentAuthCapabilitiesParam(TypedDict):
    """``AgentAuthCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class EnvVariableParam(TypedDict):
    """``EnvVariable`` as a dict, with the wire's keys."""

    name: str
    value: str
    _meta: NotRequired[dict[str, Any] | None]


class AuthMethodTerminalParam(TypedDict):
    """``AuthMethodTerminal`` as a dict, with the wire's keys."""

    methodId: str
    name: str
    description: NotRequired[str | None]
    args: NotRequired[list[str] | None]
    env: NotRequired[list[EnvVariableParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class AuthMethodAgentParam(TypedDict):
    """``AuthMethodAgent`` as a dict, with the wire's keys."""

    methodId: str
    name: str
    description: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class LoginAuthResponseParam(TypedDict):
    """``LoginAuthResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class LogoutAuthResponseParam(TypedDict):
    """``LogoutAuthResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionConfigSelectOptionParam(TypedDict):
    """``SessionConfigSelectOption`` as a dict, with the wire's keys."""

    value: str
    name: str
    description: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionConfigBooleanParam(TypedDict):
    """``SessionConfigBoolean`` as a dict, with the wire's keys."""

    currentValue: bool


class TextCommandInputParam(TypedDict):
    """``TextCommandInput`` as a dict, with the wire's keys."""

    hint: str
    _meta: NotRequired[dict[str, Any] | None]


class SessionInfoParam(TypedDict):
    """``SessionInfo`` as a dict, with the wire's keys."""

    sessionId: str
    cwd: str
    additionalDirectories: NotRequired[list[str] | None]
    title: NotRequired[str | None]
    updatedAt: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class DeleteSessionResponseParam(TypedDict):
    """``DeleteSessionResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class CloseSessionResponseParam(TypedDict):
    """``CloseSessionResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class CancelToolCallResponseParam(TypedDict):
    """``CancelToolCallResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class CancelTerminalResponseParam(TypedDict):
    """``CancelTerminalResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class UnsupportedProtocolVersionErrorDataParam(TypedDict):
    """``UnsupportedProtocolVersionErrorData`` as a dict, with the wire's keys."""

    requested: int
    supported: list[ProtocolVersionParam]
    _meta: NotRequired[dict[str, Any] | None]


class SessionNotFoundErrorDataParam(TypedDict):
    """``SessionNotFoundErrorData`` as a dict, with the wire's keys."""

    sessionId: str
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateStateUpdateParam(TypedDict):
    """``SessionUpdateStateUpdate`` as a dict, with the wire's keys."""

    sessionUpdate: Literal["state_update"]


class BackgroundTerminalParam(TypedDict):
    """``BackgroundTerminal`` as a dict, with the wire's keys."""

    terminalId: str
    _meta: NotRequired[dict[str, Any] | None]


class BackgroundToolCallParam(TypedDict):
    """``BackgroundToolCall`` as a dict, with the wire's keys."""

    toolCallId: str
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleFieldsParam(TypedDict):
    """``StateUpdateIdleFields`` as a dict, with the wire's keys."""

    state: Literal["idle"]


class TerminalOutputParam(TypedDict):
    """``TerminalOutput`` as a dict, with the wire's keys."""

    data: str
    _meta: NotRequired[dict[str, Any] | None]


class TerminalExitStatusParam(TypedDict):
    """``TerminalExitStatus`` as a dict, with the wire's keys."""

    exitCode: NotRequired[int | None]
    signal: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class TerminalSizeParam(TypedDict):
    """``TerminalSize`` as a dict, with the wire's keys."""

    cols: int
    rows: int
    _meta: NotRequired[dict[str, Any] | None]


class TerminalCancelCapabilitiesParam(TypedDict):
    """``TerminalCancelCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class TerminalOutputChunkParam(TypedDict):
    """``TerminalOutputChunk`` as a dict, with the wire's keys."""

    terminalId: str
    data: str
    _meta: NotRequired[dict[str, Any] | None]


class SessionInfoUpdateParam(TypedDict):
    """``SessionInfoUpdate`` as a dict, with the wire's keys."""

    title: NotRequired[str | None]
    updatedAt: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class CostParam(TypedDict):
    """``Cost`` as a dict, with the wire's keys."""

    amount: float
    currency: str
    _meta: NotRequired[dict[str, Any] | None]


class UsageUpdateParam(TypedDict):
    """``UsageUpdate`` as a dict, with the wire's keys."""

    used: int
    size: int
    cost: NotRequired[CostParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class NoticeParam(TypedDict):
    """``Notice`` as a dict, with the wire's keys."""

    severity: Literal["info"] | Literal["warning"] | Literal["error"] | str
    title: str
    description: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class CompleteElicitationNotificationParam(TypedDict):
    """``CompleteElicitationNotification`` as a dict, with the wire's keys."""

    elicitationId: str
    _meta: NotRequired[dict[str, Any] | None]


class TerminalAuthCapabilitiesParam(TypedDict):
    """``TerminalAuthCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class ElicitationFormCapabilitiesParam(TypedDict):
    """``ElicitationFormCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class ElicitationUrlCapabilitiesParam(TypedDict):
    """``ElicitationUrlCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class LoginAuthRequestParam(TypedDict):
    """``LoginAuthRequest`` as a dict, with the wire's keys."""

    methodId: str
    _meta: NotRequired[dict[str, Any] | None]


class LogoutAuthRequestParam(TypedDict):
    """``LogoutAuthRequest`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class HttpHeaderParam(TypedDict):
    """``HttpHeader`` as a dict, with the wire's keys."""

    name: str
    value: str
    _meta: NotRequired[dict[str, Any] | None]


class McpServerHttpParam(TypedDict):
    """``McpServerHttp`` as a dict, with the wire's keys."""

    name: str
    url: str
    headers: NotRequired[list[HttpHeaderParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class McpServerStdioParam(TypedDict):
    """``McpServerStdio`` as a dict, with the wire's keys."""

    name: str
    command: str
    args: NotRequired[list[str] | None]
    env: NotRequired[list[EnvVariableParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class ListSessionsRequestParam(TypedDict):
    """``ListSessionsRequest`` as a dict, with the wire's keys."""

    cwd: NotRequired[str | None]
    cursor: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class DeleteSessionRequestParam(TypedDict):
    """``DeleteSessionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    _meta: NotRequired[dict[str, Any] | None]


class ReplayFromStartParam(TypedDict):
    """``ReplayFromStart`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class CloseSessionRequestParam(TypedDict):
    """``CloseSessionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    _meta: NotRequired[dict[str, Any] | None]


class CancelToolCallRequestParam(TypedDict):
    """``CancelToolCallRequest`` as a dict, with the wire's keys."""

    sessionId: str
    toolCallId: str
    _meta: NotRequired[dict[str, Any] | None]


class CancelTerminalRequestParam(TypedDict):
    """``CancelTerminalRequest`` as a dict, with the wire's keys."""

    sessionId: str
    terminalId: str
    _meta: NotRequired[dict[str, Any] | None]


class SetSessionConfigOptionRequestIdParam(TypedDict):
    """``SetSessionConfigOptionRequestId`` as a dict, with the wire's keys."""

    sessionId: str
    configId: str
    value: str
    type: Literal["id"]
    _meta: NotRequired[dict[str, Any] | None]


class SetSessionConfigOptionRequestBooleanParam(TypedDict):
    """``SetSessionConfigOptionRequestBoolean`` as a dict, with the wire's keys."""

    sessionId: str
    configId: str
    value: bool
    type: Literal["boolean"]
    _meta: NotRequired[dict[str, Any] | None]


class CancelledPermissionOutcomeParam(TypedDict):
    """``CancelledPermissionOutcome`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SelectedPermissionOutcomeParam(TypedDict):
    """``SelectedPermissionOutcome`` as a dict, with the wire's keys."""

    optionId: str
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationResponseDeclineParam(TypedDict):
    """``CreateElicitationResponseDecline`` as a dict, with the wire's keys."""

    action: Literal["decline"]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationResponseCancelParam(TypedDict):
    """``CreateElicitationResponseCancel`` as a dict, with the wire's keys."""

    action: Literal["cancel"]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationAcceptActionParam(TypedDict):
    """``ElicitationAcceptAction`` as a dict, with the wire's keys."""

    content: NotRequired[dict[str, Any] | None]


class CancelSessionNotificationParam(TypedDict):
    """``CancelSessionNotification`` as a dict, with the wire's keys."""

    sessionId: str
    _meta: NotRequired[dict[str, Any] | None]


class CancelRequestNotificationParam(TypedDict):
    """``CancelRequestNotification`` as a dict, with the wire's keys."""

    requestId: int | str
    _meta: NotRequired[dict[str, Any] | None]


class RequestPermissionSubjectCommandParam(TypedDict):
    """``RequestPermissionSubjectCommand`` as a dict, with the wire's keys."""

    command: str
    cwd: str
    type: Literal["command"]
    toolCallId: NotRequired[str | None]
    terminalId: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallContentTerminalParam(TypedDict):
    """``ToolCallContentTerminal`` as a dict, with the wire's keys."""

    terminalId: str
    type: Literal["terminal"]
    _meta: NotRequired[dict[str, Any] | None]


class AnnotationsParam(TypedDict):
    """``Annotations`` as a dict, with the wire's keys."""

    audience: NotRequired[list[Literal["assistant"] | Literal["user"] | str] | None]
    lastModified: NotRequired[str | None]
    priority: NotRequired[float | None]
    _meta: NotRequired[dict[str, Any] | None]


class TextContentParam(TypedDict):
    """``TextContent`` as a dict, with the wire's keys."""

    text: str
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ImageContentParam(TypedDict):
    """``ImageContent`` as a dict, with the wire's keys."""

    data: str
    mimeType: str
    uri: NotRequired[str | None]
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class AudioContentParam(TypedDict):
    """``AudioContent`` as a dict, with the wire's keys."""

    data: str
    mimeType: str
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class IconParam(TypedDict):
    """``Icon`` as a dict, with the wire's keys."""

    src: str
    mimeType: NotRequired[str | None]
    sizes: NotRequired[list[str] | None]
    theme: NotRequired[Literal["light"] | Literal["dark"] | str | None]
    _meta: NotRequired[dict[str, Any] | None]


class ResourceLinkParam(TypedDict):
    """``ResourceLink`` as a dict, with the wire's keys."""

    name: str
    uri: str
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    icons: NotRequired[list[IconParam] | None]
    mimeType: NotRequired[str | None]
    size: NotRequired[int | None]
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class EmbeddedResourceParam(TypedDict):
    """``EmbeddedResource`` as a dict, with the wire's keys."""

    resource: TextResourceContentsParam | BlobResourceContentsParam
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class DiffChangeAddParam(TypedDict):
    """``DiffChangeAdd`` as a dict, with the wire's keys."""

    path: str
    operation: Literal["add"]
    fileType: NotRequired[
        Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str | None
    ]
    mimeType: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class DiffChangeDeleteParam(TypedDict):
    """``DiffChangeDelete`` as a dict, with the wire's keys."""

    path: str
    operation: Literal["delete"]
    fileType: NotRequired[
        Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str | None
    ]
    mimeType: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class DiffChangeModifyParam(TypedDict):
    """``DiffChangeModify`` as a dict, with the wire's keys."""

    path: str
    operation: Literal["modify"]
    fileType: NotRequired[
        Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str | None
    ]
    mimeType: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class DiffChangeMoveParam(TypedDict):
    """``DiffChangeMove`` as a dict, with the wire's keys."""

    oldPath: str
    path: str
    operation: Literal["move"]
    fileType: NotRequired[
        Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str | None
    ]
    mimeType: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class DiffChangeCopyParam(TypedDict):
    """``DiffChangeCopy`` as a dict, with the wire's keys."""

    oldPath: str
    path: str
    operation: Literal["copy"]
    fileType: NotRequired[
        Literal["text"] | Literal["binary"] | Literal["directory"] | Literal["symlink"] | str | None
    ]
    mimeType: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class DiffPatchParam(TypedDict):
    """``DiffPatch`` as a dict, with the wire's keys."""

    format: Literal["git_patch"] | str
    text: str
    _meta: NotRequired[dict[str, Any] | None]


class DiffParam(TypedDict):
    """``Diff`` as a dict, with the wire's keys."""

    changes: list[DiffChangeParam]
    patch: NotRequired[DiffPatchParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallCapabilitiesParam(TypedDict):
    """``ToolCallCapabilities`` as a dict, with the wire's keys."""

    cancel: NotRequired[ToolCallCancelCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class PermissionOptionParam(TypedDict):
    """``PermissionOption`` as a dict, with the wire's keys."""

    optionId: str
    name: str
    kind: (
        Literal["allow_once"]
        | Literal["allow_always"]
        | Literal["reject_once"]
        | Literal["reject_always"]
        | str
    )
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationRequestUrlSessionParam(TypedDict):
    """``CreateElicitationRequestUrlSession`` as a dict, with the wire's keys."""

    sessionId: str
    elicitationId: str
    url: str
    message: str
    mode: Literal["url"]
    toolCallId: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationRequestUrlRequestParam(TypedDict):
    """``CreateElicitationRequestUrlRequest`` as a dict, with the wire's keys."""

    requestId: int | str
    elicitationId: str
    url: str
    message: str
    mode: Literal["url"]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationPropertySchemaStringParam(TypedDict):
    """``ElicitationPropertySchemaString`` as a dict, with the wire's keys."""

    type: Literal["string"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    minLength: NotRequired[int | None]
    maxLength: NotRequired[int | None]
    pattern: NotRequired[str | None]
    format: NotRequired[
        Literal["email"] | Literal["uri"] | Literal["date"] | Literal["date-time"] | str | None
    ]
    default: NotRequired[str | None]
    enum: NotRequired[list[str] | None]
    oneOf: NotRequired[list[EnumOptionParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationPropertySchemaNumberParam(TypedDict):
    """``ElicitationPropertySchemaNumber`` as a dict, with the wire's keys."""

    type: Literal["number"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    minimum: NotRequired[float | None]
    maximum: NotRequired[float | None]
    default: NotRequired[float | None]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationPropertySchemaIntegerParam(TypedDict):
    """``ElicitationPropertySchemaInteger`` as a dict, with the wire's keys."""

    type: Literal["integer"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    minimum: NotRequired[int | None]
    maximum: NotRequired[int | None]
    default: NotRequired[int | None]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationPropertySchemaBooleanParam(TypedDict):
    """``ElicitationPropertySchemaBoolean`` as a dict, with the wire's keys."""

    type: Literal["boolean"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    default: NotRequired[bool | None]
    _meta: NotRequired[dict[str, Any] | None]


class MultiSelectItemsStringParam(TypedDict):
    """``MultiSelectItemsString`` as a dict, with the wire's keys."""

    enum: list[str]
    type: Literal["string"]
    _meta: NotRequired[dict[str, Any] | None]


class MultiSelectPropertySchemaParam(TypedDict):
    """``MultiSelectPropertySchema`` as a dict, with the wire's keys."""

    items: MultiSelectItemsStringParam | MultiSelectItemsOtherParam | TitledMultiSelectItemsParam
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    minItems: NotRequired[int | None]
    maxItems: NotRequired[int | None]
    default: NotRequired[list[str] | None]
    _meta: NotRequired[dict[str, Any] | None]


class PromptCapabilitiesParam(TypedDict):
    """``PromptCapabilities`` as a dict, with the wire's keys."""

    image: NotRequired[PromptImageCapabilitiesParam | None]
    audio: NotRequired[PromptAudioCapabilitiesParam | None]
    embeddedContext: NotRequired[PromptEmbeddedContextCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class McpCapabilitiesParam(TypedDict):
    """``McpCapabilities`` as a dict, with the wire's keys."""

    stdio: NotRequired[McpStdioCapabilitiesParam | None]
    http: NotRequired[McpHttpCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class AuthMethodTerminalModelParam(TypedDict):
    """``AuthMethodTerminalModel`` as a dict, with the wire's keys."""

    methodId: str
    name: str
    type: Literal["terminal"]
    description: NotRequired[str | None]
    args: NotRequired[list[str] | None]
    env: NotRequired[list[EnvVariableParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class AuthMethodAgentModelParam(TypedDict):
    """``AuthMethodAgentModel`` as a dict, with the wire's keys."""

    methodId: str
    name: str
    type: Literal["agent"]
    description: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionConfigOptionBooleanParam(TypedDict):
    """``SessionConfigOptionBoolean`` as a dict, with the wire's keys."""

    currentValue: bool
    configId: str
    name: str
    type: Literal["boolean"]
    description: NotRequired[str | None]
    category: NotRequired[
        Literal["mode"]
        | Literal["model"]
        | Literal["model_config"]
        | Literal["thought_level"]
        | str
        | None
    ]
    _meta: NotRequired[dict[str, Any] | None]


class SessionConfigSelectGroupParam(TypedDict):
    """``SessionConfigSelectGroup`` as a dict, with the wire's keys."""

    groupId: str
    name: str
    options: list[SessionConfigSelectOptionParam]
    _meta: NotRequired[dict[str, Any] | None]


class AvailableCommandInputTextParam(TypedDict):
    """``AvailableCommandInputText`` as a dict, with the wire's keys."""

    hint: str
    type: Literal["text"]
    _meta: NotRequired[dict[str, Any] | None]


class CommandParam(TypedDict):
    """``Command`` as a dict, with the wire's keys."""

    name: str
    description: str
    input: NotRequired[AvailableCommandInputParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ListSessionsResponseParam(TypedDict):
    """``ListSessionsResponse`` as a dict, with the wire's keys."""

    sessions: list[SessionInfoParam]
    nextCursor: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class PromptResponseParam(TypedDict):
    """``PromptResponse`` as a dict, with the wire's keys."""

    messageId: str
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateTerminalOutputChunkParam(TypedDict):
    """``SessionUpdateTerminalOutputChunk`` as a dict, with the wire's keys."""

    terminalId: str
    data: str
    sessionUpdate: Literal["terminal_output_chunk"]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateSessionInfoUpdateParam(TypedDict):
    """``SessionUpdateSessionInfoUpdate`` as a dict, with the wire's keys."""

    sessionUpdate: Literal["session_info_update"]
    title: NotRequired[str | None]
    updatedAt: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateUsageUpdateParam(TypedDict):
    """``SessionUpdateUsageUpdate`` as a dict, with the wire's keys."""

    used: int
    size: int
    sessionUpdate: Literal["usage_update"]
    cost: NotRequired[CostParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateNoticeParam(TypedDict):
    """``SessionUpdateNotice`` as a dict, with the wire's keys."""

    severity: Literal["info"] | Literal["warning"] | Literal["error"] | str
    title: str
    sessionUpdate: Literal["notice"]
    description: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class BackgroundWorkTerminalParam(TypedDict):
    """``BackgroundWorkTerminal`` as a dict, with the wire's keys."""

    terminalId: str
    type: Literal["terminal"]
    _meta: NotRequired[dict[str, Any] | None]


class BackgroundWorkToolCallParam(TypedDict):
    """``BackgroundWorkToolCall`` as a dict, with the wire's keys."""

    toolCallId: str
    type: Literal["tool_call"]
    _meta: NotRequired[dict[str, Any] | None]


class RunningStateUpdateParam(TypedDict):
    """``RunningStateUpdate`` as a dict, with the wire's keys."""

    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateEndTurnParam(TypedDict):
    """``IdleStateUpdateEndTurn`` as a dict, with the wire's keys."""

    stopReason: Literal["end_turn"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateMaxTokensParam(TypedDict):
    """``IdleStateUpdateMaxTokens`` as a dict, with the wire's keys."""

    stopReason: Literal["max_tokens"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateMaxTurnRequestsParam(TypedDict):
    """``IdleStateUpdateMaxTurnRequests`` as a dict, with the wire's keys."""

    stopReason: Literal["max_turn_requests"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateRefusalParam(TypedDict):
    """``IdleStateUpdateRefusal`` as a dict, with the wire's keys."""

    stopReason: Literal["refusal"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateCancelledParam(TypedDict):
    """``IdleStateUpdateCancelled`` as a dict, with the wire's keys."""

    stopReason: Literal["cancelled"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateOtherParam(TypedDict):
    """``IdleStateUpdateOther`` as a dict, with the wire's keys."""

    stopReason: str
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateNoneParam(TypedDict):
    """``IdleStateUpdateNone`` as a dict, with the wire's keys."""

    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]
    stopReason: NotRequired[None]


class RequiresActionStateUpdateParam(TypedDict):
    """``RequiresActionStateUpdate`` as a dict, with the wire's keys."""

    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateRunningParam(TypedDict):
    """``StateUpdateRunning`` as a dict, with the wire's keys."""

    state: Literal["running"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleEndTurnParam(TypedDict):
    """``StateUpdateIdleEndTurn`` as a dict, with the wire's keys."""

    stopReason: Literal["end_turn"]
    state: Literal["idle"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleMaxTokensParam(TypedDict):
    """``StateUpdateIdleMaxTokens`` as a dict, with the wire's keys."""

    stopReason: Literal["max_tokens"]
    state: Literal["idle"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleMaxTurnRequestsParam(TypedDict):
    """``StateUpdateIdleMaxTurnRequests`` as a dict, with the wire's keys."""

    stopReason: Literal["max_turn_requests"]
    state: Literal["idle"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleRefusalParam(TypedDict):
    """``StateUpdateIdleRefusal`` as a dict, with the wire's keys."""

    stopReason: Literal["refusal"]
    state: Literal["idle"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleCancelledParam(TypedDict):
    """``StateUpdateIdleCancelled`` as a dict, with the wire's keys."""

    stopReason: Literal["cancelled"]
    state: Literal["idle"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleOtherParam(TypedDict):
    """``StateUpdateIdleOther`` as a dict, with the wire's keys."""

    stopReason: str
    state: Literal["idle"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleNoneParam(TypedDict):
    """``StateUpdateIdleNone`` as a dict, with the wire's keys."""

    state: Literal["idle"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]
    stopReason: NotRequired[None]


class StateUpdateRequiresActionParam(TypedDict):
    """``StateUpdateRequiresAction`` as a dict, with the wire's keys."""

    state: Literal["requires_action"]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class TerminalCapabilitiesParam(TypedDict):
    """``TerminalCapabilities`` as a dict, with the wire's keys."""

    cancel: NotRequired[TerminalCancelCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class TerminalUpdateParam(TypedDict):
    """``TerminalUpdate`` as a dict, with the wire's keys."""

    terminalId: str
    command: NotRequired[str | None]
    cwd: NotRequired[str | None]
    output: NotRequired[TerminalOutputParam | None]
    exitStatus: NotRequired[TerminalExitStatusParam | None]
    size: NotRequired[TerminalSizeParam | None]
    capabilities: NotRequired[TerminalCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class PlanEntryParam(TypedDict):
    """``PlanEntry`` as a dict, with the wire's keys."""

    content: str
    priority: Literal["high"] | Literal["medium"] | Literal["low"] | str
    status: (
        Literal["pending"]
        | Literal["in_progress"]
        | Literal["completed"]
        | Literal["cancelled"]
        | str
    )
    _meta: NotRequired[dict[str, Any] | None]


class PlanItemsParam(TypedDict):
    """``PlanItems`` as a dict, with the wire's keys."""

    planId: str
    entries: list[PlanEntryParam]
    _meta: NotRequired[dict[str, Any] | None]


class ClientAuthCapabilitiesParam(TypedDict):
    """``ClientAuthCapabilities`` as a dict, with the wire's keys."""

    terminal: NotRequired[TerminalAuthCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationCapabilitiesParam(TypedDict):
    """``ElicitationCapabilities`` as a dict, with the wire's keys."""

    form: NotRequired[ElicitationFormCapabilitiesParam | None]
    url: NotRequired[ElicitationUrlCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class McpServerHttpModelParam(TypedDict):
    """``McpServerHttpModel`` as a dict, with the wire's keys."""

    name: str
    url: str
    type: Literal["http"]
    headers: NotRequired[list[HttpHeaderParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class McpServerStdioModelParam(TypedDict):
    """``McpServerStdioModel`` as a dict, with the wire's keys."""

    name: str
    command: str
    type: Literal["stdio"]
    args: NotRequired[list[str] | None]
    env: NotRequired[list[EnvVariableParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class ReplayFromStartModelParam(TypedDict):
    """``ReplayFromStartModel`` as a dict, with the wire's keys."""

    type: Literal["start"]
    _meta: NotRequired[dict[str, Any] | None]


class RequestPermissionOutcomeCancelledParam(TypedDict):
    """``RequestPermissionOutcomeCancelled`` as a dict, with the wire's keys."""

    outcome: Literal["cancelled"]
    _meta: NotRequired[dict[str, Any] | None]


class RequestPermissionOutcomeSelectedParam(TypedDict):
    """``RequestPermissionOutcomeSelected`` as a dict, with the wire's keys."""

    optionId: str
    outcome: Literal["selected"]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationResponseAcceptParam(TypedDict):
    """``CreateElicitationResponseAccept`` as a dict, with the wire's keys."""

    action: Literal["accept"]
    content: NotRequired[dict[str, Any] | None]
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallContentDiffParam(TypedDict):
    """``ToolCallContentDiff`` as a dict, with the wire's keys."""

    changes: list[DiffChangeParam]
    type: Literal["diff"]
    patch: NotRequired[DiffPatchParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ContentBlockTextParam(TypedDict):
    """``ContentBlockText`` as a dict, with the wire's keys."""

    text: str
    type: Literal["text"]
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ContentBlockImageParam(TypedDict):
    """``ContentBlockImage`` as a dict, with the wire's keys."""

    data: str
    mimeType: str
    type: Literal["image"]
    uri: NotRequired[str | None]
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ContentBlockAudioParam(TypedDict):
    """``ContentBlockAudio`` as a dict, with the wire's keys."""

    data: str
    mimeType: str
    type: Literal["audio"]
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ContentBlockResourceLinkParam(TypedDict):
    """``ContentBlockResourceLink`` as a dict, with the wire's keys."""

    name: str
    uri: str
    type: Literal["resource_link"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    icons: NotRequired[list[IconParam] | None]
    mimeType: NotRequired[str | None]
    size: NotRequired[int | None]
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ContentBlockResourceParam(TypedDict):
    """``ContentBlockResource`` as a dict, with the wire's keys."""

    resource: TextResourceContentsParam | BlobResourceContentsParam
    type: Literal["resource"]
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ContentParam(TypedDict):
    """``Content`` as a dict, with the wire's keys."""

    content: ContentBlockParam
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationPropertySchemaArrayParam(TypedDict):
    """``ElicitationPropertySchemaArray`` as a dict, with the wire's keys."""

    items: MultiSelectItemsStringParam | MultiSelectItemsOtherParam | TitledMultiSelectItemsParam
    type: Literal["array"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    minItems: NotRequired[int | None]
    maxItems: NotRequired[int | None]
    default: NotRequired[list[str] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionCapabilitiesParam(TypedDict):
    """``SessionCapabilities`` as a dict, with the wire's keys."""

    prompt: NotRequired[PromptCapabilitiesParam | None]
    mcp: NotRequired[McpCapabilitiesParam | None]
    delete: NotRequired[SessionDeleteCapabilitiesParam | None]
    additionalDirectories: NotRequired[SessionAdditionalDirectoriesCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionConfigSelectParam(TypedDict):
    """``SessionConfigSelect`` as a dict, with the wire's keys."""

    currentValue: str
    options: SessionConfigSelectOptionsUngroupedParam | SessionConfigSelectOptionsGroupedParam


class AvailableCommandCommandParam(TypedDict):
    """``AvailableCommandCommand`` as a dict, with the wire's keys."""

    name: str
    description: str
    type: Literal["command"]
    input: NotRequired[AvailableCommandInputParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ErrorParam(TypedDict):
    """``Error`` as a dict, with the wire's keys."""

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
    message: str
    data: NotRequired[
        UnsupportedProtocolVersionErrorDataParam | SessionNotFoundErrorDataParam | Any | None
    ]


class SessionUpdateTerminalUpdateParam(TypedDict):
    """``SessionUpdateTerminalUpdate`` as a dict, with the wire's keys."""

    terminalId: str
    sessionUpdate: Literal["terminal_update"]
    command: NotRequired[str | None]
    cwd: NotRequired[str | None]
    output: NotRequired[TerminalOutputParam | None]
    exitStatus: NotRequired[TerminalExitStatusParam | None]
    size: NotRequired[TerminalSizeParam | None]
    capabilities: NotRequired[TerminalCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ContentChunkParam(TypedDict):
    """``ContentChunk`` as a dict, with the wire's keys."""

    messageId: str
    content: ContentBlockParam
    _meta: NotRequired[dict[str, Any] | None]


class UserMessageParam(TypedDict):
    """``UserMessage`` as a dict, with the wire's keys."""

    messageId: str
    content: NotRequired[list[ContentBlockParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class AgentMessageParam(TypedDict):
    """``AgentMessage`` as a dict, with the wire's keys."""

    messageId: str
    content: NotRequired[list[ContentBlockParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class AgentThoughtParam(TypedDict):
    """``AgentThought`` as a dict, with the wire's keys."""

    messageId: str
    content: NotRequired[list[ContentBlockParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class ErrorStopReasonParam(TypedDict):
    """``ErrorStopReason`` as a dict, with the wire's keys."""

    error: NotRequired[ErrorParam | None]


class IdleStateUpdateErrorParam(TypedDict):
    """``IdleStateUpdateError`` as a dict, with the wire's keys."""

    stopReason: Literal["error"]
    error: NotRequired[ErrorParam | None]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleErrorParam(TypedDict):
    """``StateUpdateIdleError`` as a dict, with the wire's keys."""

    stopReason: Literal["error"]
    state: Literal["idle"]
    error: NotRequired[ErrorParam | None]
    background: NotRequired[list[BackgroundWorkParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class PlanUpdateContentItemsParam(TypedDict):
    """``PlanUpdateContentItems`` as a dict, with the wire's keys."""

    planId: str
    entries: list[PlanEntryParam]
    type: Literal["items"]
    _meta: NotRequired[dict[str, Any] | None]


class PlanUpdateParam(TypedDict):
    """``PlanUpdate`` as a dict, with the wire's keys."""

    plan: PlanUpdateContentParam
    _meta: NotRequired[dict[str, Any] | None]


class AvailableCommandsUpdateParam(TypedDict):
    """``AvailableCommandsUpdate`` as a dict, with the wire's keys."""

    availableCommands: list[AvailableCommandParam]
    _meta: NotRequired[dict[str, Any] | None]


class CompactionUpdateParam(TypedDict):
    """``CompactionUpdate`` as a dict, with the wire's keys."""

    compactionId: str
    status: (
        Literal["in_progress"]
        | Literal["completed"]
        | Literal["failed"]
        | Literal["cancelled"]
        | str
    )
    summary: NotRequired[list[ContentBlockParam] | None]
    error: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class CompactionSummaryChunkParam(TypedDict):
    """``CompactionSummaryChunk`` as a dict, with the wire's keys."""

    compactionId: str
    content: ContentBlockParam
    _meta: NotRequired[dict[str, Any] | None]


class ClientCapabilitiesParam(TypedDict):
    """``ClientCapabilities`` as a dict, with the wire's keys."""

    auth: NotRequired[ClientAuthCapabilitiesParam | None]
    elicitation: NotRequired[ElicitationCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class NewSessionRequestParam(TypedDict):
    """``NewSessionRequest`` as a dict, with the wire's keys."""

    cwd: str
    additionalDirectories: NotRequired[list[str] | None]
    mcpServers: NotRequired[list[McpServerParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class ResumeSessionRequestParam(TypedDict):
    """``ResumeSessionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    cwd: str
    additionalDirectories: NotRequired[list[str] | None]
    mcpServers: NotRequired[list[McpServerParam] | None]
    replayFrom: NotRequired[ReplayFromParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class PromptRequestParam(TypedDict):
    """``PromptRequest`` as a dict, with the wire's keys."""

    sessionId: str
    prompt: list[ContentBlockParam]
    _meta: NotRequired[dict[str, Any] | None]


class RequestPermissionResponseParam(TypedDict):
    """``RequestPermissionResponse`` as a dict, with the wire's keys."""

    outcome: RequestPermissionOutcomeParam
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallContentContentParam(TypedDict):
    """``ToolCallContentContent`` as a dict, with the wire's keys."""

    content: ContentBlockParam
    type: Literal["content"]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationSchemaParam(TypedDict):
    """``ElicitationSchema`` as a dict, with the wire's keys."""

    type: ElicitationSchemaType
    properties: dict[str, ElicitationPropertySchemaParam]
    title: NotRequired[str | None]
    required: NotRequired[list[str] | None]
    description: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationFormModeSessionParam(TypedDict):
    """``ElicitationFormModeSession`` as a dict, with the wire's keys."""

    sessionId: str
    requestedSchema: ElicitationSchemaParam
    toolCallId: NotRequired[str | None]


class ElicitationFormModeRequestParam(TypedDict):
    """``ElicitationFormModeRequest`` as a dict, with the wire's keys."""

    requestId: int | str
    requestedSchema: ElicitationSchemaParam


class AgentCapabilitiesParam(TypedDict):
    """``AgentCapabilities`` as a dict, with the wire's keys."""

    session: NotRequired[SessionCapabilitiesParam | None]
    auth: NotRequired[AgentAuthCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionConfigOptionSelectParam(TypedDict):
    """``SessionConfigOptionSelect`` as a dict, with the wire's keys."""

    currentValue: str
    options: SessionConfigSelectOptionsUngroupedParam | SessionConfigSelectOptionsGroupedParam
    configId: str
    name: str
    type: Literal["select"]
    description: NotRequired[str | None]
    category: NotRequired[
        Literal["mode"]
        | Literal["model"]
        | Literal["model_config"]
        | Literal["thought_level"]
        | str
        | None
    ]
    _meta: NotRequired[dict[str, Any] | None]


class ResumeSessionResponseParam(TypedDict):
    """``ResumeSessionResponse`` as a dict, with the wire's keys."""

    configOptions: NotRequired[list[SessionConfigOptionParam] | None]
    availableCommands: NotRequired[list[AvailableCommandParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SetSessionConfigOptionResponseParam(TypedDict):
    """``SetSessionConfigOptionResponse`` as a dict, with the wire's keys."""

    configOptions: list[SessionConfigOptionParam]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateUserMessageChunkParam(TypedDict):
    """``SessionUpdateUserMessageChunk`` as a dict, with the wire's keys."""

    messageId: str
    content: ContentBlockParam
    sessionUpdate: Literal["user_message_chunk"]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateUserMessageParam(TypedDict):
    """``SessionUpdateUserMessage`` as a dict, with the wire's keys."""

    messageId: str
    sessionUpdate: Literal["user_message"]
    content: NotRequired[list[ContentBlockParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateAgentMessageChunkParam(TypedDict):
    """``SessionUpdateAgentMessageChunk`` as a dict, with the wire's keys."""

    messageId: str
    content: ContentBlockParam
    sessionUpdate: Literal["agent_message_chunk"]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateAgentMessageParam(TypedDict):
    """``SessionUpdateAgentMessage`` as a dict, with the wire's keys."""

    messageId: str
    sessionUpdate: Literal["agent_message"]
    content: NotRequired[list[ContentBlockParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateAgentThoughtChunkParam(TypedDict):
    """``SessionUpdateAgentThoughtChunk`` as a dict, with the wire's keys."""

    messageId: str
    content: ContentBlockParam
    sessionUpdate: Literal["agent_thought_chunk"]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateAgentThoughtParam(TypedDict):
    """``SessionUpdateAgentThought`` as a dict, with the wire's keys."""

    messageId: str
    sessionUpdate: Literal["agent_thought"]
    content: NotRequired[list[ContentBlockParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdatePlanUpdateParam(TypedDict):
    """``SessionUpdatePlanUpdate`` as a dict, with the wire's keys."""

    plan: PlanUpdateContentParam
    sessionUpdate: Literal["plan_update"]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateAvailableCommandsUpdateParam(TypedDict):
    """``SessionUpdateAvailableCommandsUpdate`` as a dict, with the wire's keys."""

    availableCommands: list[AvailableCommandParam]
    sessionUpdate: Literal["available_commands_update"]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateCompactionUpdateParam(TypedDict):
    """``SessionUpdateCompactionUpdate`` as a dict, with the wire's keys."""

    compactionId: str
    status: (
        Literal["in_progress"]
        | Literal["completed"]
        | Literal["failed"]
        | Literal["cancelled"]
        | str
    )
    sessionUpdate: Literal["compaction_update"]
    summary: NotRequired[list[ContentBlockParam] | None]
    error: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateCompactionSummaryChunkParam(TypedDict):
    """``SessionUpdateCompactionSummaryChunk`` as a dict, with the wire's keys."""

    compactionId: str
    content: ContentBlockParam
    sessionUpdate: Literal["compaction_summary_chunk"]
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallContentChunkParam(TypedDict):
    """``ToolCallContentChunk`` as a dict, with the wire's keys."""

    toolCallId: str
    content: ToolCallContentParam
    _meta: NotRequired[dict[str, Any] | None]


class ConfigOptionUpdateParam(TypedDict):
    """``ConfigOptionUpdate`` as a dict, with the wire's keys."""

    configOptions: list[SessionConfigOptionParam]
    _meta: NotRequired[dict[str, Any] | None]


class InitializeRequestParam(TypedDict):
    """``InitializeRequest`` as a dict, with the wire's keys."""

    protocolVersion: int
    info: ImplementationParam
    capabilities: NotRequired[ClientCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallUpdateParam(TypedDict):
    """``ToolCallUpdate`` as a dict, with the wire's keys."""

    toolCallId: str
    name: NotRequired[str | None]
    title: NotRequired[str | None]
    kind: NotRequired[
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
    ]
    status: NotRequired[
        Literal["pending"]
        | Literal["in_progress"]
        | Literal["paused"]
        | Literal["completed"]
        | Literal["failed"]
        | Literal["cancelled"]
        | str
        | None
    ]
    content: NotRequired[list[ToolCallContentParam] | None]
    locations: NotRequired[list[ToolCallLocationParam] | None]
    rawInput: NotRequired[Any | None]
    rawOutput: NotRequired[Any | None]
    capabilities: NotRequired[ToolCallCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallPermissionSubjectParam(TypedDict):
    """``ToolCallPermissionSubject`` as a dict, with the wire's keys."""

    toolCall: ToolCallUpdateParam
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationRequestFormSessionParam(TypedDict):
    """``CreateElicitationRequestFormSession`` as a dict, with the wire's keys."""

    sessionId: str
    requestedSchema: ElicitationSchemaParam
    message: str
    mode: Literal["form"]
    toolCallId: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationRequestFormRequestParam(TypedDict):
    """``CreateElicitationRequestFormRequest`` as a dict, with the wire's keys."""

    requestId: int | str
    requestedSchema: ElicitationSchemaParam
    message: str
    mode: Literal["form"]
    _meta: NotRequired[dict[str, Any] | None]


class InitializeResponseParam(TypedDict):
    """``InitializeResponse`` as a dict, with the wire's keys."""

    protocolVersion: int
    info: ImplementationParam
    capabilities: NotRequired[AgentCapabilitiesParam | None]
    authMethods: NotRequired[list[AuthMethodParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class NewSessionResponseParam(TypedDict):
    """``NewSessionResponse`` as a dict, with the wire's keys."""

    sessionId: str
    configOptions: NotRequired[list[SessionConfigOptionParam] | None]
    availableCommands: NotRequired[list[AvailableCommandParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateToolCallContentChunkParam(TypedDict):
    """``SessionUpdateToolCallContentChunk`` as a dict, with the wire's keys."""

    toolCallId: str
    content: ToolCallContentParam
    sessionUpdate: Literal["tool_call_content_chunk"]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateToolCallUpdateParam(TypedDict):
    """``SessionUpdateToolCallUpdate`` as a dict, with the wire's keys."""

    toolCallId: str
    sessionUpdate: Literal["tool_call_update"]
    name: NotRequired[str | None]
    title: NotRequired[str | None]
    kind: NotRequired[
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
    ]
    status: NotRequired[
        Literal["pending"]
        | Literal["in_progress"]
        | Literal["paused"]
        | Literal["completed"]
        | Literal["failed"]
        | Literal["cancelled"]
        | str
        | None
    ]
    content: NotRequired[list[ToolCallContentParam] | None]
    locations: NotRequired[list[ToolCallLocationParam] | None]
    rawInput: NotRequired[Any | None]
    rawOutput: NotRequired[Any | None]
    capabilities: NotRequired[ToolCallCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateConfigOptionUpdateParam(TypedDict):
    """``SessionUpdateConfigOptionUpdate`` as a dict, with the wire's keys."""

    configOptions: list[SessionConfigOptionParam]
    sessionUpdate: Literal["config_option_update"]
    _meta: NotRequired[dict[str, Any] | None]


class RequestPermissionSubjectToolCallParam(TypedDict):
    """``RequestPermissionSubjectToolCall`` as a dict, with the wire's keys."""

    toolCall: ToolCallUpdateParam
    type: Literal["tool_call"]
    _meta: NotRequired[dict[str, Any] | None]


class UpdateSessionNotificationParam(TypedDict):
    """``UpdateSessionNotification`` as a dict, with the wire's keys."""

    sessionId: str
    update: SessionUpdateParam
    _meta: NotRequired[dict[str, Any] | None]


class RequestPermissionRequestParam(TypedDict):
    """``RequestPermissionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    title: str
    options: list[PermissionOptionParam]
    description: NotRequired[str | None]
    subject: NotRequired[RequestPermissionSubjectParam | None]
    _meta: NotRequired[dict[str, Any] | None]


AuthMethodParam: TypeAlias = AuthMethodTerminalModelParam | AuthMethodAgentModelParam
"""``AuthMethod`` as dicts (each member's dict form)."""


AvailableCommandParam: TypeAlias = AvailableCommandCommandParam
"""``AvailableCommand`` as dicts (each member's dict form)."""


AvailableCommandInputParam: TypeAlias = AvailableCommandInputTextParam
"""``AvailableCommandInput`` as dicts (each member's dict form)."""


BackgroundWorkParam: TypeAlias = BackgroundWorkTerminalParam | BackgroundWorkToolCallParam
"""``BackgroundWork`` as dicts (each member's dict form)."""


ContentBlockParam: TypeAlias = (
    ContentBlockTextParam
    | ContentBlockImageParam
    | ContentBlockAudioParam
    | ContentBlockResourceLinkParam
    | ContentBlockResourceParam
)
"""``ContentBlock`` as dicts (each member's dict form)."""


CreateElicitationRequestParam: TypeAlias = (
    CreateElicitationRequestFormSessionParam
    | CreateElicitationRequestFormRequestParam
    | CreateElicitationRequestUrlSessionParam
    | CreateElicitationRequestUrlRequestParam
)
"""``CreateElicitationRequest`` as sent."""


CreateElicitationResponseParam: TypeAlias = (
    CreateElicitationResponseAcceptParam
    | CreateElicitationResponseDeclineParam
    | CreateElicitationResponseCancelParam
)
"""``CreateElicitationResponse`` as dicts (each member's dict form)."""


DiffChangeParam: TypeAlias = (
    DiffChangeAddParam
    | DiffChangeDeleteParam
    | DiffChangeModifyParam
    | DiffChangeMoveParam
    | DiffChangeCopyParam
)
"""``DiffChange`` as dicts (each member's dict form)."""


ElicitationFormModeParam: TypeAlias = (
    ElicitationFormModeSessionParam | ElicitationFormModeRequestParam
)
"""``ElicitationFormMode`` as dicts (each member's dict form)."""


ElicitationIdParam: TypeAlias = str
"""``ElicitationId`` as sent."""


ElicitationPropertySchemaParam: TypeAlias = (
    ElicitationPropertySchemaStringParam
    | ElicitationPropertySchemaNumberParam
    | ElicitationPropertySchemaIntegerParam
    | ElicitationPropertySchemaBooleanParam
    | ElicitationPropertySchemaArrayParam
)
"""``ElicitationPropertySchema`` as dicts (each member's dict form)."""


ElicitationUrlModeParam: TypeAlias = ElicitationUrlModeSessionParam | ElicitationUrlModeRequestParam
"""``ElicitationUrlMode`` as dicts (each member's dict form)."""


EmbeddedResourceResourceParam: TypeAlias = TextResourceContentsParam | BlobResourceContentsParam
"""``EmbeddedResourceResource`` as dicts (each member's dict form)."""


ErrorDataParam: TypeAlias = (
    UnsupportedProtocolVersionErrorDataParam | SessionNotFoundErrorDataParam | Any
)
"""``ErrorData`` as dicts (each member's dict form)."""


ExtNotificationParam: TypeAlias = Any
"""``ExtNotification`` as sent."""


ExtRequestParam: TypeAlias = Any
"""``ExtRequest`` as sent."""


ExtResponseParam: TypeAlias = Any
"""``ExtResponse`` as sent."""


IdleStateUpdateParam: TypeAlias = (
    IdleStateUpdateEndTurnParam
    | IdleStateUpdateMaxTokensParam
    | IdleStateUpdateMaxTurnRequestsParam
    | IdleStateUpdateRefusalParam
    | IdleStateUpdateCancelledParam
    | IdleStateUpdateErrorParam
    | IdleStateUpdateOtherParam
    | IdleStateUpdateNoneParam
)
"""``IdleStateUpdate`` as dicts (each member's dict form)."""


McpServerParam: TypeAlias = McpServerHttpModelParam | McpServerStdioModelParam
"""``McpServer`` as dicts (each member's dict form)."""


MultiSelectItemsParam: TypeAlias = (
    MultiSelectItemsStringParam | MultiSelectItemsOtherParam | TitledMultiSelectItemsParam
)
"""``MultiSelectItems`` as dicts (each member's dict form)."""


PlanUpdateContentParam: TypeAlias = PlanUpdateContentItemsParam
"""``PlanUpdateContent`` as dicts (each member's dict form)."""


ProtocolVersionParam: TypeAlias = int
"""``ProtocolVersion`` as sent."""


ReplayFromParam: TypeAlias = ReplayFromStartModelParam
"""``ReplayFrom`` as dicts (each member's dict form)."""


RequestPermissionOutcomeParam: TypeAlias = (
    RequestPermissionOutcomeCancelledParam | RequestPermissionOutcomeSelectedParam
)
"""``RequestPermissionOutcome`` as dicts (each member's dict form)."""


RequestPermissionSubjectParam: TypeAlias = (
    RequestPermissionSubjectToolCallParam | RequestPermissionSubjectCommandParam
)
"""``RequestPermissionSubject`` as dicts (each member's dict form)."""


SessionConfigOptionParam: TypeAlias = (
    SessionConfigOptionSelectParam | SessionConfigOptionBooleanParam
)
"""``SessionConfigOption`` as dicts (each member's dict form)."""


SessionConfigSelectOptionsUngroupedParam: TypeAlias = list[SessionConfigSelectOptionParam]
"""``SessionConfigSelectOptionsUngrouped`` as sent."""


SessionConfigSelectOptionsGroupedParam: TypeAlias = list[SessionConfigSelectGroupParam]
"""``SessionConfigSelectOptionsGrouped`` as sent."""


SessionConfigSelectOptionsParam: TypeAlias = (
    SessionConfigSelectOptionsUngroupedParam | SessionConfigSelectOptionsGroupedParam
)
"""``SessionConfigSelectOptions`` as dicts (each member's dict form)."""


SessionUpdateParam: TypeAlias = (
    SessionUpdateUserMessageChunkParam
    | SessionUpdateUserMessageParam
    | SessionUpdateAgentMessageChunkParam
    | SessionUpdateAgentMessageParam
    | SessionUpdateAgentThoughtChunkParam
    | SessionUpdateAgentThoughtParam
    | SessionUpdateStateUpdateParam
    | SessionUpdateToolCallContentChunkParam
    | SessionUpdateToolCallUpdateParam
    | SessionUpdateTerminalUpdateParam
    | SessionUpdateTerminalOutputChunkParam
    | SessionUpdatePlanUpdateParam
    | SessionUpdateAvailableCommandsUpdateParam
    | SessionUpdateConfigOptionUpdateParam
    | SessionUpdateSessionInfoUpdateParam
    | SessionUpdateUsageUpdateParam
    | SessionUpdateNoticeParam
    | SessionUpdateCompactionUpdateParam
    | SessionUpdateCompactionSummaryChunkParam
)
"""``SessionUpdate`` as dicts (each member's dict form)."""


SetSessionConfigOptionRequestParam: TypeAlias = (
    SetSessionConfigOptionRequestIdParam | SetSessionConfigOptionRequestBooleanParam
)
"""``SetSessionConfigOptionRequest`` as dicts (each member's dict form)."""


StateUpdateParam: TypeAlias = (
    StateUpdateRunningParam
    | StateUpdateRequiresActionParam
    | StateUpdateIdleEndTurnParam
    | StateUpdateIdleMaxTokensParam
    | StateUpdateIdleMaxTurnRequestsParam
    | StateUpdateIdleRefusalParam
    | StateUpdateIdleCancelledParam
    | StateUpdateIdleErrorParam
    | StateUpdateIdleOtherParam
    | StateUpdateIdleNoneParam
)
"""``StateUpdate`` as sent."""


ToolCallContentParam: TypeAlias = (
    ToolCallContentContentParam | ToolCallContentDiffParam | ToolCallContentTerminalParam
)
"""``ToolCallContent`` as dicts (each member's dict form)."""
