"""Dict forms of agentproto.acp.unstable.models. Do not edit: run `codegen build`.

Each model of the models module as a TypedDict with the wire's keys: what a client
call accepts wherever it accepts the model."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

from agentproto.acp.unstable.models import (
    ElicitationSchemaType,
    PermissionOptionKind,
    PlanEntryPriority,
    PlanEntryStatus,
    Role,
    StopReason,
    StringFormat,
    ToolCallStatus,
    ToolKind,
)


class ReadTextFileRequestParam(TypedDict):
    """``ReadTextFileRequest`` as a dict, with the wire's keys."""

    sessionId: str
    path: str
    line: NotRequired[int | None]
    limit: NotRequired[int | None]
    _meta: NotRequired[dict[str, Any] | None]


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


class DiffParam(TypedDict):
    """``Diff`` as a dict, with the wire's keys."""

    path: str
    newText: str
    oldText: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class TerminalParam(TypedDict):
    """``Terminal`` as a dict, with the wire's keys."""

    terminalId: str
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallLocationParam(TypedDict):
    """``ToolCallLocation`` as a dict, with the wire's keys."""

    path: str
    line: NotRequired[int | None]
    _meta: NotRequired[dict[str, Any] | None]


class EnvVariableParam(TypedDict):
    """``EnvVariable`` as a dict, with the wire's keys."""

    name: str
    value: str
    _meta: NotRequired[dict[str, Any] | None]


class TerminalOutputRequestParam(TypedDict):
    """``TerminalOutputRequest`` as a dict, with the wire's keys."""

    sessionId: str
    terminalId: str
    _meta: NotRequired[dict[str, Any] | None]


class ReleaseTerminalRequestParam(TypedDict):
    """``ReleaseTerminalRequest`` as a dict, with the wire's keys."""

    sessionId: str
    terminalId: str
    _meta: NotRequired[dict[str, Any] | None]


class WaitForTerminalExitRequestParam(TypedDict):
    """``WaitForTerminalExitRequest`` as a dict, with the wire's keys."""

    sessionId: str
    terminalId: str
    _meta: NotRequired[dict[str, Any] | None]


class KillTerminalRequestParam(TypedDict):
    """``KillTerminalRequest`` as a dict, with the wire's keys."""

    sessionId: str
    terminalId: str
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

    requestId: int | str | None


class ElicitationPropertySchemaOtherParam(TypedDict):
    """``ElicitationPropertySchemaOther`` as a dict, with the wire's keys."""

    type: str


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
    format: NotRequired[StringFormat | None]
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

    requestId: int | str | None
    elicitationId: str
    url: str


class PromptCapabilitiesParam(TypedDict):
    """``PromptCapabilities`` as a dict, with the wire's keys."""

    image: NotRequired[bool | None]
    audio: NotRequired[bool | None]
    embeddedContext: NotRequired[bool | None]
    _meta: NotRequired[dict[str, Any] | None]


class McpCapabilitiesParam(TypedDict):
    """``McpCapabilities`` as a dict, with the wire's keys."""

    http: NotRequired[bool | None]
    sse: NotRequired[bool | None]
    acp: NotRequired[bool | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionListCapabilitiesParam(TypedDict):
    """``SessionListCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionDeleteCapabilitiesParam(TypedDict):
    """``SessionDeleteCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionAdditionalDirectoriesCapabilitiesParam(TypedDict):
    """``SessionAdditionalDirectoriesCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionSystemPromptOverrideCapabilitiesParam(TypedDict):
    """``SessionSystemPromptOverrideCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionForkCapabilitiesParam(TypedDict):
    """``SessionForkCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionArchiveCapabilitiesParam(TypedDict):
    """``SessionArchiveCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionStatusCapabilitiesParam(TypedDict):
    """``SessionStatusCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionTitleCapabilitiesParam(TypedDict):
    """``SessionTitleCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionResumeCapabilitiesParam(TypedDict):
    """``SessionResumeCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SessionCloseCapabilitiesParam(TypedDict):
    """``SessionCloseCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class AuthStatusCapabilitiesParam(TypedDict):
    """``AuthStatusCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class LogoutCapabilitiesParam(TypedDict):
    """``LogoutCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class ProvidersCapabilitiesParam(TypedDict):
    """``ProvidersCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class AuthMethodTerminalParam(TypedDict):
    """``AuthMethodTerminal`` as a dict, with the wire's keys."""

    id: str
    name: str
    description: NotRequired[str | None]
    args: NotRequired[list[str] | None]
    env: NotRequired[dict[str, str] | None]
    _meta: NotRequired[dict[str, Any] | None]


class AuthMethodAgentParam(TypedDict):
    """``AuthMethodAgent`` as a dict, with the wire's keys."""

    id: str
    name: str
    description: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class ImplementationParam(TypedDict):
    """``Implementation`` as a dict, with the wire's keys."""

    name: str
    version: str
    title: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class AuthenticateResponseParam(TypedDict):
    """``AuthenticateResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class ProviderCurrentConfigParam(TypedDict):
    """``ProviderCurrentConfig`` as a dict, with the wire's keys."""

    apiType: (
        Literal["anthropic"]
        | Literal["openai"]
        | Literal["azure"]
        | Literal["vertex"]
        | Literal["bedrock"]
        | str
    )
    baseUrl: str
    _meta: NotRequired[dict[str, Any] | None]


class SetProviderResponseParam(TypedDict):
    """``SetProviderResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class DisableProviderResponseParam(TypedDict):
    """``DisableProviderResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class LogoutResponseParam(TypedDict):
    """``LogoutResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class AuthAccountParam(TypedDict):
    """``AuthAccount`` as a dict, with the wire's keys."""

    label: str
    active: NotRequired[bool | None]
    name: NotRequired[str | None]
    email: NotRequired[str | None]
    organization: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionModeParam(TypedDict):
    """``SessionMode`` as a dict, with the wire's keys."""

    id: str
    name: str
    description: NotRequired[str | None]
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


class SessionInfoParam(TypedDict):
    """``SessionInfo`` as a dict, with the wire's keys."""

    sessionId: str
    cwd: str
    additionalDirectories: NotRequired[list[str] | None]
    title: NotRequired[str | None]
    updatedAt: NotRequired[str | None]
    archived: NotRequired[bool | None]
    _meta: NotRequired[dict[str, Any] | None]


class DeleteSessionResponseParam(TypedDict):
    """``DeleteSessionResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class ArchiveSessionResponseParam(TypedDict):
    """``ArchiveSessionResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class UnarchiveSessionResponseParam(TypedDict):
    """``UnarchiveSessionResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SetSessionTitleResponseParam(TypedDict):
    """``SetSessionTitleResponse`` as a dict, with the wire's keys."""

    title: str
    _meta: NotRequired[dict[str, Any] | None]


class CloseSessionResponseParam(TypedDict):
    """``CloseSessionResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SetSessionModeResponseParam(TypedDict):
    """``SetSessionModeResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class UsageParam(TypedDict):
    """``Usage`` as a dict, with the wire's keys."""

    totalTokens: int
    inputTokens: int
    outputTokens: int
    thoughtTokens: NotRequired[int | None]
    cachedReadTokens: NotRequired[int | None]
    cachedWriteTokens: NotRequired[int | None]
    _meta: NotRequired[dict[str, Any] | None]


class PlanFileParam(TypedDict):
    """``PlanFile`` as a dict, with the wire's keys."""

    planId: str
    uri: str
    _meta: NotRequired[dict[str, Any] | None]


class PlanMarkdownParam(TypedDict):
    """``PlanMarkdown`` as a dict, with the wire's keys."""

    planId: str
    content: str
    _meta: NotRequired[dict[str, Any] | None]


class PlanRemovedParam(TypedDict):
    """``PlanRemoved`` as a dict, with the wire's keys."""

    planId: str
    _meta: NotRequired[dict[str, Any] | None]


class UnstructuredCommandInputParam(TypedDict):
    """``UnstructuredCommandInput`` as a dict, with the wire's keys."""

    hint: str
    _meta: NotRequired[dict[str, Any] | None]


class CurrentModeUpdateParam(TypedDict):
    """``CurrentModeUpdate`` as a dict, with the wire's keys."""

    currentModeId: str
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


class SessionCancelCapabilitiesParam(TypedDict):
    """``SessionCancelCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateEndTurnParam(TypedDict):
    """``IdleStateUpdateEndTurn`` as a dict, with the wire's keys."""

    stopReason: Literal["end_turn"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateMaxTokensParam(TypedDict):
    """``IdleStateUpdateMaxTokens`` as a dict, with the wire's keys."""

    stopReason: Literal["max_tokens"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateMaxTurnRequestsParam(TypedDict):
    """``IdleStateUpdateMaxTurnRequests`` as a dict, with the wire's keys."""

    stopReason: Literal["max_turn_requests"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateRefusalParam(TypedDict):
    """``IdleStateUpdateRefusal`` as a dict, with the wire's keys."""

    stopReason: Literal["refusal"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateCancelledParam(TypedDict):
    """``IdleStateUpdateCancelled`` as a dict, with the wire's keys."""

    stopReason: Literal["cancelled"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateOtherParam(TypedDict):
    """``IdleStateUpdateOther`` as a dict, with the wire's keys."""

    stopReason: str
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class IdleStateUpdateNoneParam(TypedDict):
    """``IdleStateUpdateNone`` as a dict, with the wire's keys."""

    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]
    stopReason: NotRequired[None]


class StateUpdateIdleFieldsParam(TypedDict):
    """``StateUpdateIdleFields`` as a dict, with the wire's keys."""

    state: Literal["idle"]


class StateUpdateIdleEndTurnParam(TypedDict):
    """``StateUpdateIdleEndTurn`` as a dict, with the wire's keys."""

    stopReason: Literal["end_turn"]
    state: Literal["idle"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleMaxTokensParam(TypedDict):
    """``StateUpdateIdleMaxTokens`` as a dict, with the wire's keys."""

    stopReason: Literal["max_tokens"]
    state: Literal["idle"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleMaxTurnRequestsParam(TypedDict):
    """``StateUpdateIdleMaxTurnRequests`` as a dict, with the wire's keys."""

    stopReason: Literal["max_turn_requests"]
    state: Literal["idle"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleRefusalParam(TypedDict):
    """``StateUpdateIdleRefusal`` as a dict, with the wire's keys."""

    stopReason: Literal["refusal"]
    state: Literal["idle"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleCancelledParam(TypedDict):
    """``StateUpdateIdleCancelled`` as a dict, with the wire's keys."""

    stopReason: Literal["cancelled"]
    state: Literal["idle"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleOtherParam(TypedDict):
    """``StateUpdateIdleOther`` as a dict, with the wire's keys."""

    stopReason: str
    state: Literal["idle"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateIdleNoneParam(TypedDict):
    """``StateUpdateIdleNone`` as a dict, with the wire's keys."""

    state: Literal["idle"]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]
    stopReason: NotRequired[None]


class StateUpdateOtherParam(TypedDict):
    """``StateUpdateOther`` as a dict, with the wire's keys."""

    state: str


class RunningStateUpdateParam(TypedDict):
    """``RunningStateUpdate`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class RequiresActionStateUpdateParam(TypedDict):
    """``RequiresActionStateUpdate`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class UnknownStateUpdateParam(TypedDict):
    """``UnknownStateUpdate`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class CompleteElicitationNotificationParam(TypedDict):
    """``CompleteElicitationNotification`` as a dict, with the wire's keys."""

    elicitationId: str
    _meta: NotRequired[dict[str, Any] | None]


class AuthStatusUpdateNotificationParam(TypedDict):
    """``AuthStatusUpdateNotification`` as a dict, with the wire's keys."""

    state: (
        Literal["authenticated"]
        | Literal["unauthenticated"]
        | Literal["not_required"]
        | Literal["unknown"]
        | str
    )
    accounts: NotRequired[list[AuthAccountParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class FileSystemCapabilitiesParam(TypedDict):
    """``FileSystemCapabilities`` as a dict, with the wire's keys."""

    readTextFile: NotRequired[bool | None]
    writeTextFile: NotRequired[bool | None]
    _meta: NotRequired[dict[str, Any] | None]


class CompactionCapabilitiesParam(TypedDict):
    """``CompactionCapabilities`` as a dict, with the wire's keys."""


class BooleanConfigOptionCapabilitiesParam(TypedDict):
    """``BooleanConfigOptionCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class NoticeCapabilitiesParam(TypedDict):
    """``NoticeCapabilities`` as a dict, with the wire's keys."""


class SubagentCapabilitiesParam(TypedDict):
    """``SubagentCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class PlanCapabilitiesParam(TypedDict):
    """``PlanCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class AuthCapabilitiesParam(TypedDict):
    """``AuthCapabilities`` as a dict, with the wire's keys."""

    terminal: NotRequired[bool | None]
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationFormCapabilitiesParam(TypedDict):
    """``ElicitationFormCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class ElicitationUrlCapabilitiesParam(TypedDict):
    """``ElicitationUrlCapabilities`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class AuthenticateRequestParam(TypedDict):
    """``AuthenticateRequest`` as a dict, with the wire's keys."""

    methodId: str
    _meta: NotRequired[dict[str, Any] | None]


class ListProvidersRequestParam(TypedDict):
    """``ListProvidersRequest`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class SetProviderRequestParam(TypedDict):
    """``SetProviderRequest`` as a dict, with the wire's keys."""

    providerId: str
    apiType: (
        Literal["anthropic"]
        | Literal["openai"]
        | Literal["azure"]
        | Literal["vertex"]
        | Literal["bedrock"]
        | str
    )
    baseUrl: str
    headers: NotRequired[dict[str, str] | None]
    _meta: NotRequired[dict[str, Any] | None]


class DisableProviderRequestParam(TypedDict):
    """``DisableProviderRequest`` as a dict, with the wire's keys."""

    providerId: str
    _meta: NotRequired[dict[str, Any] | None]


class LogoutRequestParam(TypedDict):
    """``LogoutRequest`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class AuthStatusRequestParam(TypedDict):
    """``AuthStatusRequest`` as a dict, with the wire's keys."""

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
    headers: list[HttpHeaderParam]
    _meta: NotRequired[dict[str, Any] | None]


class McpServerSseParam(TypedDict):
    """``McpServerSse`` as a dict, with the wire's keys."""

    name: str
    url: str
    headers: list[HttpHeaderParam]
    _meta: NotRequired[dict[str, Any] | None]


class McpServerAcpParam(TypedDict):
    """``McpServerAcp`` as a dict, with the wire's keys."""

    name: str
    serverId: str
    _meta: NotRequired[dict[str, Any] | None]


class McpServerStdioParam(TypedDict):
    """``McpServerStdio`` as a dict, with the wire's keys."""

    name: str
    command: str
    args: list[str]
    env: list[EnvVariableParam]
    _meta: NotRequired[dict[str, Any] | None]


class DeleteSessionRequestParam(TypedDict):
    """``DeleteSessionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    _meta: NotRequired[dict[str, Any] | None]


class ArchiveSessionRequestParam(TypedDict):
    """``ArchiveSessionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    _meta: NotRequired[dict[str, Any] | None]


class UnarchiveSessionRequestParam(TypedDict):
    """``UnarchiveSessionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    _meta: NotRequired[dict[str, Any] | None]


class SessionStatusRequestParam(TypedDict):
    """``SessionStatusRequest`` as a dict, with the wire's keys."""

    sessionId: str
    _meta: NotRequired[dict[str, Any] | None]


class SetSessionTitleRequestParam(TypedDict):
    """``SetSessionTitleRequest`` as a dict, with the wire's keys."""

    sessionId: str
    title: str
    _meta: NotRequired[dict[str, Any] | None]


class CloseSessionRequestParam(TypedDict):
    """``CloseSessionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    _meta: NotRequired[dict[str, Any] | None]


class SetSessionModeRequestParam(TypedDict):
    """``SetSessionModeRequest`` as a dict, with the wire's keys."""

    sessionId: str
    modeId: str
    _meta: NotRequired[dict[str, Any] | None]


class SetSessionConfigOptionRequestBooleanParam(TypedDict):
    """``SetSessionConfigOptionRequestBoolean`` as a dict, with the wire's keys."""

    sessionId: str
    configId: str
    value: bool
    type: Literal["boolean"]
    _meta: NotRequired[dict[str, Any] | None]


class SetSessionConfigOptionRequestValueIdParam(TypedDict):
    """``SetSessionConfigOptionRequestValueId`` as a dict, with the wire's keys."""

    sessionId: str
    configId: str
    value: str
    _meta: NotRequired[dict[str, Any] | None]


class WriteTextFileResponseParam(TypedDict):
    """``WriteTextFileResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class ReadTextFileResponseParam(TypedDict):
    """``ReadTextFileResponse`` as a dict, with the wire's keys."""

    content: str
    _meta: NotRequired[dict[str, Any] | None]


class RequestPermissionOutcomeCancelledParam(TypedDict):
    """``RequestPermissionOutcomeCancelled`` as a dict, with the wire's keys."""

    outcome: Literal["cancelled"]


class SelectedPermissionOutcomeParam(TypedDict):
    """``SelectedPermissionOutcome`` as a dict, with the wire's keys."""

    optionId: str
    _meta: NotRequired[dict[str, Any] | None]


class CreateTerminalResponseParam(TypedDict):
    """``CreateTerminalResponse`` as a dict, with the wire's keys."""

    terminalId: str
    _meta: NotRequired[dict[str, Any] | None]


class TerminalExitStatusParam(TypedDict):
    """``TerminalExitStatus`` as a dict, with the wire's keys."""

    exitCode: NotRequired[int | None]
    signal: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class ReleaseTerminalResponseParam(TypedDict):
    """``ReleaseTerminalResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class WaitForTerminalExitResponseParam(TypedDict):
    """``WaitForTerminalExitResponse`` as a dict, with the wire's keys."""

    exitCode: NotRequired[int | None]
    signal: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class KillTerminalResponseParam(TypedDict):
    """``KillTerminalResponse`` as a dict, with the wire's keys."""

    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationResponseDeclineParam(TypedDict):
    """``CreateElicitationResponseDecline`` as a dict, with the wire's keys."""

    action: Literal["decline"]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationResponseCancelParam(TypedDict):
    """``CreateElicitationResponseCancel`` as a dict, with the wire's keys."""

    action: Literal["cancel"]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationResponseOtherParam(TypedDict):
    """``CreateElicitationResponseOther`` as a dict, with the wire's keys."""

    action: str
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationAcceptActionParam(TypedDict):
    """``ElicitationAcceptAction`` as a dict, with the wire's keys."""

    content: NotRequired[dict[str, Any] | None]


class MessageMcpResponseResultParam(TypedDict):
    """``MessageMcpResponseResult`` as a dict, with the wire's keys."""

    result: Any
    _meta: NotRequired[dict[str, Any] | None]


class McpErrorParam(TypedDict):
    """``McpError`` as a dict, with the wire's keys."""

    code: int
    message: str
    data: NotRequired[Any | None]


class CancelNotificationParam(TypedDict):
    """``CancelNotification`` as a dict, with the wire's keys."""

    sessionId: str
    _meta: NotRequired[dict[str, Any] | None]


class MessageMcpNotificationParam(TypedDict):
    """``MessageMcpNotification`` as a dict, with the wire's keys."""

    serverId: str
    requestId: str
    method: str
    params: NotRequired[dict[str, Any] | None]
    _meta: NotRequired[dict[str, Any] | None]


class CancelRequestNotificationParam(TypedDict):
    """``CancelRequestNotification`` as a dict, with the wire's keys."""

    requestId: int | str | None
    _meta: NotRequired[dict[str, Any] | None]


class ProxySuccessorRequestParam(TypedDict):
    """``ProxySuccessorRequest`` as a dict, with the wire's keys."""

    method: str
    params: NotRequired[Any | None]
    _meta: NotRequired[dict[str, Any] | None]


class ProxySuccessorNotificationParam(TypedDict):
    """``ProxySuccessorNotification`` as a dict, with the wire's keys."""

    method: str
    params: NotRequired[Any | None]
    _meta: NotRequired[dict[str, Any] | None]


class WriteTextFileRequestParam(TypedDict):
    """``WriteTextFileRequest`` as a dict, with the wire's keys."""

    sessionId: str
    path: str
    content: str
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallContentDiffParam(TypedDict):
    """``ToolCallContentDiff`` as a dict, with the wire's keys."""

    path: str
    newText: str
    type: Literal["diff"]
    oldText: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallContentTerminalParam(TypedDict):
    """``ToolCallContentTerminal`` as a dict, with the wire's keys."""

    terminalId: str
    type: Literal["terminal"]
    _meta: NotRequired[dict[str, Any] | None]


class AnnotationsParam(TypedDict):
    """``Annotations`` as a dict, with the wire's keys."""

    audience: NotRequired[list[Role] | None]
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
    annotations: NotRequired[AnnotationsParam | None]
    uri: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class AudioContentParam(TypedDict):
    """``AudioContent`` as a dict, with the wire's keys."""

    data: str
    mimeType: str
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ResourceLinkParam(TypedDict):
    """``ResourceLink`` as a dict, with the wire's keys."""

    name: str
    uri: str
    annotations: NotRequired[AnnotationsParam | None]
    description: NotRequired[str | None]
    mimeType: NotRequired[str | None]
    size: NotRequired[int | None]
    title: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class EmbeddedResourceParam(TypedDict):
    """``EmbeddedResource`` as a dict, with the wire's keys."""

    resource: TextResourceContentsParam | BlobResourceContentsParam
    annotations: NotRequired[AnnotationsParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class PermissionOptionParam(TypedDict):
    """``PermissionOption`` as a dict, with the wire's keys."""

    optionId: str
    name: str
    kind: PermissionOptionKind
    _meta: NotRequired[dict[str, Any] | None]


class CreateTerminalRequestParam(TypedDict):
    """``CreateTerminalRequest`` as a dict, with the wire's keys."""

    sessionId: str
    command: str
    args: NotRequired[list[str] | None]
    env: NotRequired[list[EnvVariableParam] | None]
    cwd: NotRequired[str | None]
    outputByteLimit: NotRequired[int | None]
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

    requestId: int | str | None
    elicitationId: str
    url: str
    message: str
    mode: Literal["url"]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationRequestOtherSessionParam(TypedDict):
    """``CreateElicitationRequestOtherSession`` as a dict, with the wire's keys."""

    sessionId: str
    message: str
    mode: str
    toolCallId: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationRequestOtherRequestParam(TypedDict):
    """``CreateElicitationRequestOtherRequest`` as a dict, with the wire's keys."""

    requestId: int | str | None
    message: str
    mode: str
    _meta: NotRequired[dict[str, Any] | None]


class ElicitationPropertySchemaStringParam(TypedDict):
    """``ElicitationPropertySchemaString`` as a dict, with the wire's keys."""

    type: Literal["string"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    minLength: NotRequired[int | None]
    maxLength: NotRequired[int | None]
    pattern: NotRequired[str | None]
    format: NotRequired[StringFormat | None]
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


class MessageMcpRequestParam(TypedDict):
    """``MessageMcpRequest`` as a dict, with the wire's keys."""

    serverId: str
    requestId: str
    method: str
    params: NotRequired[dict[str, Any] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionSystemPromptModeCapabilitiesParam(TypedDict):
    """``SessionSystemPromptModeCapabilities`` as a dict, with the wire's keys."""

    override: NotRequired[SessionSystemPromptOverrideCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class AgentAuthCapabilitiesParam(TypedDict):
    """``AgentAuthCapabilities`` as a dict, with the wire's keys."""

    status: NotRequired[AuthStatusCapabilitiesParam | None]
    logout: NotRequired[LogoutCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class AuthMethodTerminalModelParam(TypedDict):
    """``AuthMethodTerminalModel`` as a dict, with the wire's keys."""

    id: str
    name: str
    type: Literal["terminal"]
    description: NotRequired[str | None]
    args: NotRequired[list[str] | None]
    env: NotRequired[dict[str, str] | None]
    _meta: NotRequired[dict[str, Any] | None]


class ProviderInfoParam(TypedDict):
    """``ProviderInfo`` as a dict, with the wire's keys."""

    providerId: str
    supported: list[
        Literal["anthropic"]
        | Literal["openai"]
        | Literal["azure"]
        | Literal["vertex"]
        | Literal["bedrock"]
        | str
    ]
    required: bool
    current: NotRequired[ProviderCurrentConfigParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class AuthStatusResponseParam(TypedDict):
    """``AuthStatusResponse`` as a dict, with the wire's keys."""

    state: (
        Literal["authenticated"]
        | Literal["unauthenticated"]
        | Literal["not_required"]
        | Literal["unknown"]
        | str
    )
    accounts: NotRequired[list[AuthAccountParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionModeStateParam(TypedDict):
    """``SessionModeState`` as a dict, with the wire's keys."""

    currentModeId: str
    availableModes: list[SessionModeParam]
    _meta: NotRequired[dict[str, Any] | None]


class SessionConfigOptionBooleanParam(TypedDict):
    """``SessionConfigOptionBoolean`` as a dict, with the wire's keys."""

    currentValue: bool
    id: str
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

    group: str
    name: str
    options: list[SessionConfigSelectOptionParam]
    _meta: NotRequired[dict[str, Any] | None]


class ListSessionsResponseParam(TypedDict):
    """``ListSessionsResponse`` as a dict, with the wire's keys."""

    sessions: list[SessionInfoParam]
    nextCursor: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionStatusResponseParam(TypedDict):
    """``SessionStatusResponse`` as a dict, with the wire's keys."""

    status: Literal["open"] | Literal["saved"] | str
    _meta: NotRequired[dict[str, Any] | None]


class PromptResponseParam(TypedDict):
    """``PromptResponse`` as a dict, with the wire's keys."""

    stopReason: StopReason
    usage: NotRequired[UsageParam | None]
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
        | int
    )
    message: str
    data: NotRequired[Any | None]


class SessionUpdatePlanRemovedParam(TypedDict):
    """``SessionUpdatePlanRemoved`` as a dict, with the wire's keys."""

    planId: str
    sessionUpdate: Literal["plan_removed"]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateCurrentModeUpdateParam(TypedDict):
    """``SessionUpdateCurrentModeUpdate`` as a dict, with the wire's keys."""

    currentModeId: str
    sessionUpdate: Literal["current_mode_update"]
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


class PlanEntryParam(TypedDict):
    """``PlanEntry`` as a dict, with the wire's keys."""

    content: str
    priority: PlanEntryPriority
    status: PlanEntryStatus
    _meta: NotRequired[dict[str, Any] | None]


class PlanParam(TypedDict):
    """``Plan`` as a dict, with the wire's keys."""

    entries: list[PlanEntryParam]
    _meta: NotRequired[dict[str, Any] | None]


class PlanUpdateContentFileParam(TypedDict):
    """``PlanUpdateContentFile`` as a dict, with the wire's keys."""

    planId: str
    uri: str
    type: Literal["file"]
    _meta: NotRequired[dict[str, Any] | None]


class PlanUpdateContentMarkdownParam(TypedDict):
    """``PlanUpdateContentMarkdown`` as a dict, with the wire's keys."""

    planId: str
    content: str
    type: Literal["markdown"]
    _meta: NotRequired[dict[str, Any] | None]


class PlanItemsParam(TypedDict):
    """``PlanItems`` as a dict, with the wire's keys."""

    planId: str
    entries: list[PlanEntryParam]
    _meta: NotRequired[dict[str, Any] | None]


class SubagentSessionCapabilitiesParam(TypedDict):
    """``SubagentSessionCapabilities`` as a dict, with the wire's keys."""

    cancel: NotRequired[SessionCancelCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateRunningParam(TypedDict):
    """``StateUpdateRunning`` as a dict, with the wire's keys."""

    state: Literal["running"]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateRequiresActionParam(TypedDict):
    """``StateUpdateRequiresAction`` as a dict, with the wire's keys."""

    state: Literal["requires_action"]
    _meta: NotRequired[dict[str, Any] | None]


class StateUpdateUnknownParam(TypedDict):
    """``StateUpdateUnknown`` as a dict, with the wire's keys."""

    state: Literal["unknown"]
    _meta: NotRequired[dict[str, Any] | None]


class ErrorStopReasonParam(TypedDict):
    """``ErrorStopReason`` as a dict, with the wire's keys."""

    error: NotRequired[ErrorParam | None]


class IdleStateUpdateErrorParam(TypedDict):
    """``IdleStateUpdateError`` as a dict, with the wire's keys."""

    stopReason: Literal["error"]
    error: NotRequired[ErrorParam | None]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionConfigOptionsCapabilitiesParam(TypedDict):
    """``SessionConfigOptionsCapabilities`` as a dict, with the wire's keys."""

    boolean: NotRequired[BooleanConfigOptionCapabilitiesParam | None]
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
    headers: list[HttpHeaderParam]
    type: Literal["http"]
    _meta: NotRequired[dict[str, Any] | None]


class McpServerSseModelParam(TypedDict):
    """``McpServerSseModel`` as a dict, with the wire's keys."""

    name: str
    url: str
    headers: list[HttpHeaderParam]
    type: Literal["sse"]
    _meta: NotRequired[dict[str, Any] | None]


class McpServerAcpModelParam(TypedDict):
    """``McpServerAcpModel`` as a dict, with the wire's keys."""

    name: str
    serverId: str
    type: Literal["acp"]
    _meta: NotRequired[dict[str, Any] | None]


class ListSessionsRequestParam(TypedDict):
    """``ListSessionsRequest`` as a dict, with the wire's keys."""

    cwd: NotRequired[str | None]
    cursor: NotRequired[str | None]
    archived: NotRequired[Literal["exclude"] | Literal["include"] | Literal["only"] | str | None]
    _meta: NotRequired[dict[str, Any] | None]


class RequestPermissionOutcomeSelectedParam(TypedDict):
    """``RequestPermissionOutcomeSelected`` as a dict, with the wire's keys."""

    optionId: str
    outcome: Literal["selected"]
    _meta: NotRequired[dict[str, Any] | None]


class TerminalOutputResponseParam(TypedDict):
    """``TerminalOutputResponse`` as a dict, with the wire's keys."""

    output: str
    truncated: bool
    exitStatus: NotRequired[TerminalExitStatusParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class CreateElicitationResponseAcceptParam(TypedDict):
    """``CreateElicitationResponseAccept`` as a dict, with the wire's keys."""

    action: Literal["accept"]
    content: NotRequired[dict[str, Any] | None]
    _meta: NotRequired[dict[str, Any] | None]


class MessageMcpResponseErrorParam(TypedDict):
    """``MessageMcpResponseError`` as a dict, with the wire's keys."""

    error: McpErrorParam
    _meta: NotRequired[dict[str, Any] | None]


class ProxyResponseErrorParam(TypedDict):
    """``ProxyResponseError`` as a dict, with the wire's keys."""

    id: int | str | None
    error: ErrorParam


class ProxyNotificationParam(TypedDict):
    """``ProxyNotification`` as a dict, with the wire's keys."""

    method: str
    params: NotRequired[ProxySuccessorNotificationParam | None]


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
    annotations: NotRequired[AnnotationsParam | None]
    uri: NotRequired[str | None]
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
    annotations: NotRequired[AnnotationsParam | None]
    description: NotRequired[str | None]
    mimeType: NotRequired[str | None]
    size: NotRequired[int | None]
    title: NotRequired[str | None]
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


class SessionSystemPromptCapabilitiesParam(TypedDict):
    """``SessionSystemPromptCapabilities`` as a dict, with the wire's keys."""

    mode: NotRequired[SessionSystemPromptModeCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ListProvidersResponseParam(TypedDict):
    """``ListProvidersResponse`` as a dict, with the wire's keys."""

    providers: list[ProviderInfoParam]
    _meta: NotRequired[dict[str, Any] | None]


class SessionConfigSelectParam(TypedDict):
    """``SessionConfigSelect`` as a dict, with the wire's keys."""

    currentValue: str
    options: list[SessionConfigSelectOptionParam] | list[SessionConfigSelectGroupParam]


class SessionUpdatePlanParam(TypedDict):
    """``SessionUpdatePlan`` as a dict, with the wire's keys."""

    entries: list[PlanEntryParam]
    sessionUpdate: Literal["plan"]
    _meta: NotRequired[dict[str, Any] | None]


class ContentChunkParam(TypedDict):
    """``ContentChunk`` as a dict, with the wire's keys."""

    content: ContentBlockParam
    messageId: NotRequired[str | None]
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


class AvailableCommandParam(TypedDict):
    """``AvailableCommand`` as a dict, with the wire's keys."""

    name: str
    description: str
    input: NotRequired[AvailableCommandInputParam | None]
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


class StateUpdateIdleErrorParam(TypedDict):
    """``StateUpdateIdleError`` as a dict, with the wire's keys."""

    stopReason: Literal["error"]
    state: Literal["idle"]
    error: NotRequired[ErrorParam | None]
    usage: NotRequired[UsageParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class SubagentUpdateParam(TypedDict):
    """``SubagentUpdate`` as a dict, with the wire's keys."""

    sessionId: str
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    capabilities: NotRequired[SubagentSessionCapabilitiesParam | None]
    state: NotRequired[
        StateUpdateRunningParam
        | StateUpdateRequiresActionParam
        | StateUpdateUnknownParam
        | StateUpdateIdleEndTurnParam
        | StateUpdateIdleMaxTokensParam
        | StateUpdateIdleMaxTurnRequestsParam
        | StateUpdateIdleRefusalParam
        | StateUpdateIdleCancelledParam
        | StateUpdateIdleErrorParam
        | StateUpdateIdleOtherParam
        | StateUpdateIdleNoneParam
        | StateUpdateOtherParam
        | None
    ]
    cwd: NotRequired[str | None]
    additionalDirectories: NotRequired[list[str] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionMessageParam(TypedDict):
    """``SessionMessage`` as a dict, with the wire's keys."""

    messageId: str
    senderSessionId: NotRequired[str | None]
    recipientSessionId: NotRequired[str | None]
    senderMessageId: NotRequired[str | None]
    recipientMessageId: NotRequired[str | None]
    content: NotRequired[list[ContentBlockParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionMessageChunkParam(TypedDict):
    """``SessionMessageChunk`` as a dict, with the wire's keys."""

    messageId: str
    content: ContentBlockParam
    _meta: NotRequired[dict[str, Any] | None]


class ClientSessionCapabilitiesParam(TypedDict):
    """``ClientSessionCapabilities`` as a dict, with the wire's keys."""

    compaction: NotRequired[CompactionCapabilitiesParam | None]
    configOptions: NotRequired[SessionConfigOptionsCapabilitiesParam | None]
    notices: NotRequired[NoticeCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class SystemPromptParam(TypedDict):
    """``SystemPrompt`` as a dict, with the wire's keys."""

    mode: Literal["append"] | Literal["override"] | str
    content: list[ContentBlockParam]
    _meta: NotRequired[dict[str, Any] | None]


class LoadSessionRequestParam(TypedDict):
    """``LoadSessionRequest`` as a dict, with the wire's keys."""

    mcpServers: list[
        McpServerHttpModelParam
        | McpServerSseModelParam
        | McpServerAcpModelParam
        | McpServerStdioParam
    ]
    cwd: str
    sessionId: str
    additionalDirectories: NotRequired[list[str] | None]
    systemPrompt: NotRequired[SystemPromptParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ForkSessionRequestParam(TypedDict):
    """``ForkSessionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    cwd: str
    additionalDirectories: NotRequired[list[str] | None]
    mcpServers: NotRequired[
        list[
            McpServerHttpModelParam
            | McpServerSseModelParam
            | McpServerAcpModelParam
            | McpServerStdioParam
        ]
        | None
    ]
    systemPrompt: NotRequired[SystemPromptParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ResumeSessionRequestParam(TypedDict):
    """``ResumeSessionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    cwd: str
    additionalDirectories: NotRequired[list[str] | None]
    mcpServers: NotRequired[
        list[
            McpServerHttpModelParam
            | McpServerSseModelParam
            | McpServerAcpModelParam
            | McpServerStdioParam
        ]
        | None
    ]
    systemPrompt: NotRequired[SystemPromptParam | None]
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

    type: NotRequired[ElicitationSchemaType | None]
    title: NotRequired[str | None]
    properties: NotRequired[
        dict[
            str,
            ElicitationPropertySchemaStringParam
            | ElicitationPropertySchemaNumberParam
            | ElicitationPropertySchemaIntegerParam
            | ElicitationPropertySchemaBooleanParam
            | ElicitationPropertySchemaArrayParam
            | ElicitationPropertySchemaOtherParam,
        ]
        | None
    ]
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

    requestId: int | str | None
    requestedSchema: ElicitationSchemaParam


class SessionCapabilitiesParam(TypedDict):
    """``SessionCapabilities`` as a dict, with the wire's keys."""

    list: NotRequired[SessionListCapabilitiesParam | None]
    delete: NotRequired[SessionDeleteCapabilitiesParam | None]
    additionalDirectories: NotRequired[SessionAdditionalDirectoriesCapabilitiesParam | None]
    systemPrompt: NotRequired[SessionSystemPromptCapabilitiesParam | None]
    fork: NotRequired[SessionForkCapabilitiesParam | None]
    archive: NotRequired[SessionArchiveCapabilitiesParam | None]
    status: NotRequired[SessionStatusCapabilitiesParam | None]
    title: NotRequired[SessionTitleCapabilitiesParam | None]
    resume: NotRequired[SessionResumeCapabilitiesParam | None]
    close: NotRequired[SessionCloseCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionConfigOptionSelectParam(TypedDict):
    """``SessionConfigOptionSelect`` as a dict, with the wire's keys."""

    currentValue: str
    options: list[SessionConfigSelectOptionParam] | list[SessionConfigSelectGroupParam]
    id: str
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


class LoadSessionResponseParam(TypedDict):
    """``LoadSessionResponse`` as a dict, with the wire's keys."""

    modes: NotRequired[SessionModeStateParam | None]
    configOptions: NotRequired[list[SessionConfigOptionParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class ForkSessionResponseParam(TypedDict):
    """``ForkSessionResponse`` as a dict, with the wire's keys."""

    sessionId: str
    modes: NotRequired[SessionModeStateParam | None]
    configOptions: NotRequired[list[SessionConfigOptionParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class ResumeSessionResponseParam(TypedDict):
    """``ResumeSessionResponse`` as a dict, with the wire's keys."""

    modes: NotRequired[SessionModeStateParam | None]
    configOptions: NotRequired[list[SessionConfigOptionParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SetSessionConfigOptionResponseParam(TypedDict):
    """``SetSessionConfigOptionResponse`` as a dict, with the wire's keys."""

    configOptions: list[SessionConfigOptionParam]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateUserMessageChunkParam(TypedDict):
    """``SessionUpdateUserMessageChunk`` as a dict, with the wire's keys."""

    content: ContentBlockParam
    sessionUpdate: Literal["user_message_chunk"]
    messageId: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateAgentMessageChunkParam(TypedDict):
    """``SessionUpdateAgentMessageChunk`` as a dict, with the wire's keys."""

    content: ContentBlockParam
    sessionUpdate: Literal["agent_message_chunk"]
    messageId: NotRequired[str | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateAgentThoughtChunkParam(TypedDict):
    """``SessionUpdateAgentThoughtChunk`` as a dict, with the wire's keys."""

    content: ContentBlockParam
    sessionUpdate: Literal["agent_thought_chunk"]
    messageId: NotRequired[str | None]
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


class SessionUpdateSubagentUpdateParam(TypedDict):
    """``SessionUpdateSubagentUpdate`` as a dict, with the wire's keys."""

    sessionId: str
    sessionUpdate: Literal["subagent_update"]
    title: NotRequired[str | None]
    description: NotRequired[str | None]
    capabilities: NotRequired[SubagentSessionCapabilitiesParam | None]
    state: NotRequired[
        StateUpdateRunningParam
        | StateUpdateRequiresActionParam
        | StateUpdateUnknownParam
        | StateUpdateIdleEndTurnParam
        | StateUpdateIdleMaxTokensParam
        | StateUpdateIdleMaxTurnRequestsParam
        | StateUpdateIdleRefusalParam
        | StateUpdateIdleCancelledParam
        | StateUpdateIdleErrorParam
        | StateUpdateIdleOtherParam
        | StateUpdateIdleNoneParam
        | StateUpdateOtherParam
        | None
    ]
    cwd: NotRequired[str | None]
    additionalDirectories: NotRequired[list[str] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateSessionMessageParam(TypedDict):
    """``SessionUpdateSessionMessage`` as a dict, with the wire's keys."""

    messageId: str
    sessionUpdate: Literal["session_message"]
    senderSessionId: NotRequired[str | None]
    recipientSessionId: NotRequired[str | None]
    senderMessageId: NotRequired[str | None]
    recipientMessageId: NotRequired[str | None]
    content: NotRequired[list[ContentBlockParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateSessionMessageChunkParam(TypedDict):
    """``SessionUpdateSessionMessageChunk`` as a dict, with the wire's keys."""

    messageId: str
    content: ContentBlockParam
    sessionUpdate: Literal["session_message_chunk"]
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallParam(TypedDict):
    """``ToolCall`` as a dict, with the wire's keys."""

    toolCallId: str
    title: str
    name: NotRequired[str | None]
    kind: NotRequired[ToolKind | None]
    status: NotRequired[ToolCallStatus | None]
    content: NotRequired[list[ToolCallContentParam] | None]
    locations: NotRequired[list[ToolCallLocationParam] | None]
    rawInput: NotRequired[Any | None]
    rawOutput: NotRequired[Any | None]
    _meta: NotRequired[dict[str, Any] | None]


class ConfigOptionUpdateParam(TypedDict):
    """``ConfigOptionUpdate`` as a dict, with the wire's keys."""

    configOptions: list[SessionConfigOptionParam]
    _meta: NotRequired[dict[str, Any] | None]


class ClientCapabilitiesParam(TypedDict):
    """``ClientCapabilities`` as a dict, with the wire's keys."""

    fs: NotRequired[FileSystemCapabilitiesParam | None]
    terminal: NotRequired[bool | None]
    session: NotRequired[ClientSessionCapabilitiesParam | None]
    subagents: NotRequired[SubagentCapabilitiesParam | None]
    plan: NotRequired[PlanCapabilitiesParam | None]
    auth: NotRequired[AuthCapabilitiesParam | None]
    elicitation: NotRequired[ElicitationCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class NewSessionRequestParam(TypedDict):
    """``NewSessionRequest`` as a dict, with the wire's keys."""

    cwd: str
    mcpServers: list[
        McpServerHttpModelParam
        | McpServerSseModelParam
        | McpServerAcpModelParam
        | McpServerStdioParam
    ]
    additionalDirectories: NotRequired[list[str] | None]
    systemPrompt: NotRequired[SystemPromptParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ToolCallUpdateParam(TypedDict):
    """``ToolCallUpdate`` as a dict, with the wire's keys."""

    toolCallId: str
    kind: NotRequired[ToolKind | None]
    status: NotRequired[ToolCallStatus | None]
    title: NotRequired[str | None]
    name: NotRequired[str | None]
    content: NotRequired[list[ToolCallContentParam] | None]
    locations: NotRequired[list[ToolCallLocationParam] | None]
    rawInput: NotRequired[Any | None]
    rawOutput: NotRequired[Any | None]
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

    requestId: int | str | None
    requestedSchema: ElicitationSchemaParam
    message: str
    mode: Literal["form"]
    _meta: NotRequired[dict[str, Any] | None]


class AgentCapabilitiesParam(TypedDict):
    """``AgentCapabilities`` as a dict, with the wire's keys."""

    loadSession: NotRequired[bool | None]
    promptCapabilities: NotRequired[PromptCapabilitiesParam | None]
    mcpCapabilities: NotRequired[McpCapabilitiesParam | None]
    sessionCapabilities: NotRequired[SessionCapabilitiesParam | None]
    auth: NotRequired[AgentAuthCapabilitiesParam | None]
    providers: NotRequired[ProvidersCapabilitiesParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class NewSessionResponseParam(TypedDict):
    """``NewSessionResponse`` as a dict, with the wire's keys."""

    sessionId: str
    modes: NotRequired[SessionModeStateParam | None]
    configOptions: NotRequired[list[SessionConfigOptionParam] | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateToolCallParam(TypedDict):
    """``SessionUpdateToolCall`` as a dict, with the wire's keys."""

    toolCallId: str
    title: str
    sessionUpdate: Literal["tool_call"]
    name: NotRequired[str | None]
    kind: NotRequired[ToolKind | None]
    status: NotRequired[ToolCallStatus | None]
    content: NotRequired[list[ToolCallContentParam] | None]
    locations: NotRequired[list[ToolCallLocationParam] | None]
    rawInput: NotRequired[Any | None]
    rawOutput: NotRequired[Any | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateToolCallUpdateParam(TypedDict):
    """``SessionUpdateToolCallUpdate`` as a dict, with the wire's keys."""

    toolCallId: str
    sessionUpdate: Literal["tool_call_update"]
    kind: NotRequired[ToolKind | None]
    status: NotRequired[ToolCallStatus | None]
    title: NotRequired[str | None]
    name: NotRequired[str | None]
    content: NotRequired[list[ToolCallContentParam] | None]
    locations: NotRequired[list[ToolCallLocationParam] | None]
    rawInput: NotRequired[Any | None]
    rawOutput: NotRequired[Any | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionUpdateConfigOptionUpdateParam(TypedDict):
    """``SessionUpdateConfigOptionUpdate`` as a dict, with the wire's keys."""

    configOptions: list[SessionConfigOptionParam]
    sessionUpdate: Literal["config_option_update"]
    _meta: NotRequired[dict[str, Any] | None]


class InitializeRequestParam(TypedDict):
    """``InitializeRequest`` as a dict, with the wire's keys."""

    protocolVersion: int
    clientCapabilities: NotRequired[ClientCapabilitiesParam | None]
    clientInfo: NotRequired[ImplementationParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class InitializeProxyRequestParam(TypedDict):
    """``InitializeProxyRequest`` as a dict, with the wire's keys."""

    protocolVersion: int
    clientCapabilities: NotRequired[ClientCapabilitiesParam | None]
    clientInfo: NotRequired[ImplementationParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class RequestPermissionRequestParam(TypedDict):
    """``RequestPermissionRequest`` as a dict, with the wire's keys."""

    sessionId: str
    toolCall: ToolCallUpdateParam
    options: list[PermissionOptionParam]
    _meta: NotRequired[dict[str, Any] | None]


class InitializeResponseParam(TypedDict):
    """``InitializeResponse`` as a dict, with the wire's keys."""

    protocolVersion: int
    agentCapabilities: NotRequired[AgentCapabilitiesParam | None]
    authMethods: NotRequired[list[AuthMethodTerminalModelParam | AuthMethodAgentParam] | None]
    agentInfo: NotRequired[ImplementationParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class SessionNotificationParam(TypedDict):
    """``SessionNotification`` as a dict, with the wire's keys."""

    sessionId: str
    update: SessionUpdateParam
    _meta: NotRequired[dict[str, Any] | None]


class ProxyRequestParam(TypedDict):
    """``ProxyRequest`` as a dict, with the wire's keys."""

    id: int | str | None
    method: str
    params: NotRequired[InitializeProxyRequestParam | ProxySuccessorRequestParam | None]


class InitializeProxyResponseParam(TypedDict):
    """``InitializeProxyResponse`` as a dict, with the wire's keys."""

    protocolVersion: int
    agentCapabilities: NotRequired[AgentCapabilitiesParam | None]
    authMethods: NotRequired[list[AuthMethodTerminalModelParam | AuthMethodAgentParam] | None]
    agentInfo: NotRequired[ImplementationParam | None]
    _meta: NotRequired[dict[str, Any] | None]


class ProxyResponseResultParam(TypedDict):
    """``ProxyResponseResult`` as a dict, with the wire's keys."""

    id: int | str | None
    result: InitializeProxyResponseParam | Any


AuthMethodParam: TypeAlias = AuthMethodTerminalModelParam | AuthMethodAgentParam
"""``AuthMethod`` as dicts (each member's dict form)."""


AvailableCommandInputParam: TypeAlias = UnstructuredCommandInputParam
"""``AvailableCommandInput`` as sent."""


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
    | CreateElicitationRequestOtherSessionParam
    | CreateElicitationRequestOtherRequestParam
)
"""``CreateElicitationRequest`` as sent."""


CreateElicitationResponseParam: TypeAlias = (
    CreateElicitationResponseAcceptParam
    | CreateElicitationResponseDeclineParam
    | CreateElicitationResponseCancelParam
    | CreateElicitationResponseOtherParam
)
"""``CreateElicitationResponse`` as sent."""


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
    | ElicitationPropertySchemaOtherParam
)
"""``ElicitationPropertySchema`` as dicts (each member's dict form)."""


ElicitationUrlModeParam: TypeAlias = ElicitationUrlModeSessionParam | ElicitationUrlModeRequestParam
"""``ElicitationUrlMode`` as dicts (each member's dict form)."""


EmbeddedResourceResourceParam: TypeAlias = TextResourceContentsParam | BlobResourceContentsParam
"""``EmbeddedResourceResource`` as dicts (each member's dict form)."""


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


McpServerParam: TypeAlias = (
    McpServerHttpModelParam | McpServerSseModelParam | McpServerAcpModelParam | McpServerStdioParam
)
"""``McpServer`` as dicts (each member's dict form)."""


MessageMcpResponseParam: TypeAlias = MessageMcpResponseResultParam | MessageMcpResponseErrorParam
"""``MessageMcpResponse`` as sent."""


MultiSelectItemsParam: TypeAlias = (
    MultiSelectItemsStringParam | MultiSelectItemsOtherParam | TitledMultiSelectItemsParam
)
"""``MultiSelectItems`` as dicts (each member's dict form)."""


PlanUpdateContentParam: TypeAlias = (
    PlanUpdateContentItemsParam | PlanUpdateContentFileParam | PlanUpdateContentMarkdownParam
)
"""``PlanUpdateContent`` as dicts (each member's dict form)."""


ProxyResponseParam: TypeAlias = ProxyResponseResultParam | ProxyResponseErrorParam
"""``ProxyResponse`` as sent."""


RequestPermissionOutcomeParam: TypeAlias = (
    RequestPermissionOutcomeCancelledParam | RequestPermissionOutcomeSelectedParam
)
"""``RequestPermissionOutcome`` as dicts (each member's dict form)."""


SessionConfigOptionParam: TypeAlias = (
    SessionConfigOptionSelectParam | SessionConfigOptionBooleanParam
)
"""``SessionConfigOption`` as dicts (each member's dict form)."""


SessionConfigSelectOptionsParam: TypeAlias = (
    list[SessionConfigSelectOptionParam] | list[SessionConfigSelectGroupParam]
)
"""``SessionConfigSelectOptions`` as dicts (each member's dict form)."""


SessionUpdateParam: TypeAlias = (
    SessionUpdateUserMessageChunkParam
    | SessionUpdateAgentMessageChunkParam
    | SessionUpdateAgentThoughtChunkParam
    | SessionUpdateToolCallParam
    | SessionUpdateToolCallUpdateParam
    | SessionUpdatePlanParam
    | SessionUpdatePlanUpdateParam
    | SessionUpdatePlanRemovedParam
    | SessionUpdateAvailableCommandsUpdateParam
    | SessionUpdateCurrentModeUpdateParam
    | SessionUpdateConfigOptionUpdateParam
    | SessionUpdateSessionInfoUpdateParam
    | SessionUpdateUsageUpdateParam
    | SessionUpdateNoticeParam
    | SessionUpdateCompactionUpdateParam
    | SessionUpdateCompactionSummaryChunkParam
    | SessionUpdateSubagentUpdateParam
    | SessionUpdateSessionMessageParam
    | SessionUpdateSessionMessageChunkParam
)
"""``SessionUpdate`` as dicts (each member's dict form)."""


SetSessionConfigOptionRequestParam: TypeAlias = (
    SetSessionConfigOptionRequestBooleanParam | SetSessionConfigOptionRequestValueIdParam
)
"""``SetSessionConfigOptionRequest`` as sent."""


StateUpdateParam: TypeAlias = (
    StateUpdateRunningParam
    | StateUpdateRequiresActionParam
    | StateUpdateUnknownParam
    | StateUpdateIdleEndTurnParam
    | StateUpdateIdleMaxTokensParam
    | StateUpdateIdleMaxTurnRequestsParam
    | StateUpdateIdleRefusalParam
    | StateUpdateIdleCancelledParam
    | StateUpdateIdleErrorParam
    | StateUpdateIdleOtherParam
    | StateUpdateIdleNoneParam
    | StateUpdateOtherParam
)
"""``StateUpdate`` as dicts (each member's dict form)."""


ToolCallContentParam: TypeAlias = (
    ToolCallContentContentParam | ToolCallContentDiffParam | ToolCallContentTerminalParam
)
"""``ToolCallContent`` as dicts (each member's dict form)."""
