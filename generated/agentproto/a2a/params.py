"""Dict forms of agentproto.a2a.models. Do not edit: run `codegen build`.

Each model of the models module as a TypedDict with the wire's keys: what a client
call accepts wherever it accepts the model."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

from agentproto.a2a.models import In, Role, TaskState

APIKeySecuritySchemeParam = TypedDict(
    "APIKeySecuritySchemeParam",
    {
        "in": "In",
        "name": "str",
        "type": "Literal['apiKey']",
        "description": "NotRequired[str | None]",
    },
)
"""``APIKeySecurityScheme`` as a dict, with the wire's keys."""


class AgentCardSignatureParam(TypedDict):
    """``AgentCardSignature`` as a dict, with the wire's keys."""

    protected: str
    signature: str
    header: NotRequired[dict[str, Any] | None]


class AgentExtensionParam(TypedDict):
    """``AgentExtension`` as a dict, with the wire's keys."""

    uri: str
    description: NotRequired[str | None]
    params: NotRequired[dict[str, Any] | None]
    required: NotRequired[bool | None]


class AgentInterfaceParam(TypedDict):
    """``AgentInterface`` as a dict, with the wire's keys."""

    transport: str
    url: str


class AgentProviderParam(TypedDict):
    """``AgentProvider`` as a dict, with the wire's keys."""

    organization: str
    url: str


class AgentSkillParam(TypedDict):
    """``AgentSkill`` as a dict, with the wire's keys."""

    description: str
    id: str
    name: str
    tags: list[str]
    examples: NotRequired[list[str] | None]
    inputModes: NotRequired[list[str] | None]
    outputModes: NotRequired[list[str] | None]
    security: NotRequired[list[dict[str, list[str]]] | None]


class AuthenticatedExtendedCardNotConfiguredErrorParam(TypedDict):
    """``AuthenticatedExtendedCardNotConfiguredError`` as a dict, with the wire's keys."""

    code: Literal[-32007]
    message: str
    data: NotRequired[Any | None]


class AuthorizationCodeOAuthFlowParam(TypedDict):
    """``AuthorizationCodeOAuthFlow`` as a dict, with the wire's keys."""

    authorizationUrl: str
    scopes: dict[str, str]
    tokenUrl: str
    refreshUrl: NotRequired[str | None]


class ClientCredentialsOAuthFlowParam(TypedDict):
    """``ClientCredentialsOAuthFlow`` as a dict, with the wire's keys."""

    scopes: dict[str, str]
    tokenUrl: str
    refreshUrl: NotRequired[str | None]


class ContentTypeNotSupportedErrorParam(TypedDict):
    """``ContentTypeNotSupportedError`` as a dict, with the wire's keys."""

    code: Literal[-32005]
    message: str
    data: NotRequired[Any | None]


class DataPartParam(TypedDict):
    """``DataPart`` as a dict, with the wire's keys."""

    data: dict[str, Any]
    kind: Literal["data"]
    metadata: NotRequired[dict[str, Any] | None]


class DeleteTaskPushNotificationConfigParamsParam(TypedDict):
    """``DeleteTaskPushNotificationConfigParams`` as a dict, with the wire's keys."""

    id: str
    pushNotificationConfigId: str
    metadata: NotRequired[dict[str, Any] | None]


class DeleteTaskPushNotificationConfigRequestParam(TypedDict):
    """``DeleteTaskPushNotificationConfigRequest`` as a dict, with the wire's keys."""

    id: str | int
    params: DeleteTaskPushNotificationConfigParamsParam
    jsonrpc: Literal["2.0"]
    method: Literal["tasks/pushNotificationConfig/delete"]


class DeleteTaskPushNotificationConfigSuccessResponseParam(TypedDict):
    """``DeleteTaskPushNotificationConfigSuccessResponse`` as a dict, with the wire's keys."""

    id: str | int | None
    result: None
    jsonrpc: Literal["2.0"]


class FileBaseParam(TypedDict):
    """``FileBase`` as a dict, with the wire's keys."""

    mimeType: NotRequired[str | None]
    name: NotRequired[str | None]


class FileWithBytesParam(TypedDict):
    """``FileWithBytes`` as a dict, with the wire's keys."""

    bytes: str
    mimeType: NotRequired[str | None]
    name: NotRequired[str | None]


class FileWithUriParam(TypedDict):
    """``FileWithUri`` as a dict, with the wire's keys."""

    uri: str
    mimeType: NotRequired[str | None]
    name: NotRequired[str | None]


class GetAuthenticatedExtendedCardRequestParam(TypedDict):
    """``GetAuthenticatedExtendedCardRequest`` as a dict, with the wire's keys."""

    id: str | int
    jsonrpc: Literal["2.0"]
    method: Literal["agent/getAuthenticatedExtendedCard"]


class GetTaskPushNotificationConfigParamsParam(TypedDict):
    """``GetTaskPushNotificationConfigParams`` as a dict, with the wire's keys."""

    id: str
    metadata: NotRequired[dict[str, Any] | None]
    pushNotificationConfigId: NotRequired[str | None]


class HTTPAuthSecuritySchemeParam(TypedDict):
    """``HTTPAuthSecurityScheme`` as a dict, with the wire's keys."""

    scheme: str
    type: Literal["http"]
    bearerFormat: NotRequired[str | None]
    description: NotRequired[str | None]


class ImplicitOAuthFlowParam(TypedDict):
    """``ImplicitOAuthFlow`` as a dict, with the wire's keys."""

    authorizationUrl: str
    scopes: dict[str, str]
    refreshUrl: NotRequired[str | None]


class InternalErrorParam(TypedDict):
    """``InternalError`` as a dict, with the wire's keys."""

    code: Literal[-32603]
    message: str
    data: NotRequired[Any | None]


class InvalidAgentResponseErrorParam(TypedDict):
    """``InvalidAgentResponseError`` as a dict, with the wire's keys."""

    code: Literal[-32006]
    message: str
    data: NotRequired[Any | None]


class InvalidParamsErrorParam(TypedDict):
    """``InvalidParamsError`` as a dict, with the wire's keys."""

    code: Literal[-32602]
    message: str
    data: NotRequired[Any | None]


class InvalidRequestErrorParam(TypedDict):
    """``InvalidRequestError`` as a dict, with the wire's keys."""

    code: Literal[-32600]
    message: str
    data: NotRequired[Any | None]


class JSONParseErrorParam(TypedDict):
    """``JSONParseError`` as a dict, with the wire's keys."""

    code: Literal[-32700]
    message: str
    data: NotRequired[Any | None]


class JSONRPCErrorParam(TypedDict):
    """``JSONRPCError`` as a dict, with the wire's keys."""

    code: int
    message: str
    data: NotRequired[Any | None]


class JSONRPCMessageParam(TypedDict):
    """``JSONRPCMessage`` as a dict, with the wire's keys."""

    jsonrpc: Literal["2.0"]
    id: NotRequired[str | int | None]


class JSONRPCRequestParam(TypedDict):
    """``JSONRPCRequest`` as a dict, with the wire's keys."""

    jsonrpc: Literal["2.0"]
    method: str
    id: NotRequired[str | int | None]
    params: NotRequired[dict[str, Any] | None]


class JSONRPCSuccessResponseParam(TypedDict):
    """``JSONRPCSuccessResponse`` as a dict, with the wire's keys."""

    id: str | int | None
    jsonrpc: Literal["2.0"]
    result: Any


class ListTaskPushNotificationConfigParamsParam(TypedDict):
    """``ListTaskPushNotificationConfigParams`` as a dict, with the wire's keys."""

    id: str
    metadata: NotRequired[dict[str, Any] | None]


class ListTaskPushNotificationConfigRequestParam(TypedDict):
    """``ListTaskPushNotificationConfigRequest`` as a dict, with the wire's keys."""

    id: str | int
    params: ListTaskPushNotificationConfigParamsParam
    jsonrpc: Literal["2.0"]
    method: Literal["tasks/pushNotificationConfig/list"]


class MethodNotFoundErrorParam(TypedDict):
    """``MethodNotFoundError`` as a dict, with the wire's keys."""

    code: Literal[-32601]
    message: str
    data: NotRequired[Any | None]


class MutualTLSSecuritySchemeParam(TypedDict):
    """``MutualTLSSecurityScheme`` as a dict, with the wire's keys."""

    type: Literal["mutualTLS"]
    description: NotRequired[str | None]


class OpenIdConnectSecuritySchemeParam(TypedDict):
    """``OpenIdConnectSecurityScheme`` as a dict, with the wire's keys."""

    openIdConnectUrl: str
    type: Literal["openIdConnect"]
    description: NotRequired[str | None]


class PartBaseParam(TypedDict):
    """``PartBase`` as a dict, with the wire's keys."""

    metadata: NotRequired[dict[str, Any] | None]


class PasswordOAuthFlowParam(TypedDict):
    """``PasswordOAuthFlow`` as a dict, with the wire's keys."""

    scopes: dict[str, str]
    tokenUrl: str
    refreshUrl: NotRequired[str | None]


class PushNotificationAuthenticationInfoParam(TypedDict):
    """``PushNotificationAuthenticationInfo`` as a dict, with the wire's keys."""

    schemes: list[str]
    credentials: NotRequired[str | None]


class PushNotificationConfigParam(TypedDict):
    """``PushNotificationConfig`` as a dict, with the wire's keys."""

    url: str
    authentication: NotRequired[PushNotificationAuthenticationInfoParam | None]
    id: NotRequired[str | None]
    token: NotRequired[str | None]


class PushNotificationNotSupportedErrorParam(TypedDict):
    """``PushNotificationNotSupportedError`` as a dict, with the wire's keys."""

    code: Literal[-32003]
    message: str
    data: NotRequired[Any | None]


class SecuritySchemeBaseParam(TypedDict):
    """``SecuritySchemeBase`` as a dict, with the wire's keys."""

    description: NotRequired[str | None]


class TaskIdParamsParam(TypedDict):
    """``TaskIdParams`` as a dict, with the wire's keys."""

    id: str
    metadata: NotRequired[dict[str, Any] | None]


class TaskNotCancelableErrorParam(TypedDict):
    """``TaskNotCancelableError`` as a dict, with the wire's keys."""

    code: Literal[-32002]
    message: str
    data: NotRequired[Any | None]


class TaskNotFoundErrorParam(TypedDict):
    """``TaskNotFoundError`` as a dict, with the wire's keys."""

    code: Literal[-32001]
    message: str
    data: NotRequired[Any | None]


class TaskPushNotificationConfigParam(TypedDict):
    """``TaskPushNotificationConfig`` as a dict, with the wire's keys."""

    pushNotificationConfig: PushNotificationConfigParam
    taskId: str


class TaskQueryParamsParam(TypedDict):
    """``TaskQueryParams`` as a dict, with the wire's keys."""

    id: str
    historyLength: NotRequired[int | None]
    metadata: NotRequired[dict[str, Any] | None]


class TaskResubscriptionRequestParam(TypedDict):
    """``TaskResubscriptionRequest`` as a dict, with the wire's keys."""

    id: str | int
    params: TaskIdParamsParam
    jsonrpc: Literal["2.0"]
    method: Literal["tasks/resubscribe"]


class TextPartParam(TypedDict):
    """``TextPart`` as a dict, with the wire's keys."""

    text: str
    kind: Literal["text"]
    metadata: NotRequired[dict[str, Any] | None]


class UnsupportedOperationErrorParam(TypedDict):
    """``UnsupportedOperationError`` as a dict, with the wire's keys."""

    code: Literal[-32004]
    message: str
    data: NotRequired[Any | None]


class AgentCapabilitiesParam(TypedDict):
    """``AgentCapabilities`` as a dict, with the wire's keys."""

    extensions: NotRequired[list[AgentExtensionParam] | None]
    pushNotifications: NotRequired[bool | None]
    stateTransitionHistory: NotRequired[bool | None]
    streaming: NotRequired[bool | None]


class CancelTaskRequestParam(TypedDict):
    """``CancelTaskRequest`` as a dict, with the wire's keys."""

    id: str | int
    params: TaskIdParamsParam
    jsonrpc: Literal["2.0"]
    method: Literal["tasks/cancel"]


class FilePartParam(TypedDict):
    """``FilePart`` as a dict, with the wire's keys."""

    file: FileWithBytesParam | FileWithUriParam
    kind: Literal["file"]
    metadata: NotRequired[dict[str, Any] | None]


class GetTaskPushNotificationConfigRequestParam(TypedDict):
    """``GetTaskPushNotificationConfigRequest`` as a dict, with the wire's keys."""

    id: str | int
    params: TaskIdParamsParam | GetTaskPushNotificationConfigParamsParam
    jsonrpc: Literal["2.0"]
    method: Literal["tasks/pushNotificationConfig/get"]


class GetTaskPushNotificationConfigSuccessResponseParam(TypedDict):
    """``GetTaskPushNotificationConfigSuccessResponse`` as a dict, with the wire's keys."""

    id: str | int | None
    result: TaskPushNotificationConfigParam
    jsonrpc: Literal["2.0"]


class GetTaskRequestParam(TypedDict):
    """``GetTaskRequest`` as a dict, with the wire's keys."""

    id: str | int
    params: TaskQueryParamsParam
    jsonrpc: Literal["2.0"]
    method: Literal["tasks/get"]


class JSONRPCErrorResponseParam(TypedDict):
    """``JSONRPCErrorResponse`` as a dict, with the wire's keys."""

    error: (
        JSONRPCErrorParam
        | JSONParseErrorParam
        | InvalidRequestErrorParam
        | MethodNotFoundErrorParam
        | InvalidParamsErrorParam
        | InternalErrorParam
        | TaskNotFoundErrorParam
        | TaskNotCancelableErrorParam
        | PushNotificationNotSupportedErrorParam
        | UnsupportedOperationErrorParam
        | ContentTypeNotSupportedErrorParam
        | InvalidAgentResponseErrorParam
        | AuthenticatedExtendedCardNotConfiguredErrorParam
    )
    id: str | int | None
    jsonrpc: Literal["2.0"]


class ListTaskPushNotificationConfigSuccessResponseParam(TypedDict):
    """``ListTaskPushNotificationConfigSuccessResponse`` as a dict, with the wire's keys."""

    id: str | int | None
    result: list[TaskPushNotificationConfigParam]
    jsonrpc: Literal["2.0"]


class MessageSendConfigurationParam(TypedDict):
    """``MessageSendConfiguration`` as a dict, with the wire's keys."""

    acceptedOutputModes: NotRequired[list[str] | None]
    blocking: NotRequired[bool | None]
    historyLength: NotRequired[int | None]
    pushNotificationConfig: NotRequired[PushNotificationConfigParam | None]


class OAuthFlowsParam(TypedDict):
    """``OAuthFlows`` as a dict, with the wire's keys."""

    authorizationCode: NotRequired[AuthorizationCodeOAuthFlowParam | None]
    clientCredentials: NotRequired[ClientCredentialsOAuthFlowParam | None]
    implicit: NotRequired[ImplicitOAuthFlowParam | None]
    password: NotRequired[PasswordOAuthFlowParam | None]


class SetTaskPushNotificationConfigRequestParam(TypedDict):
    """``SetTaskPushNotificationConfigRequest`` as a dict, with the wire's keys."""

    id: str | int
    params: TaskPushNotificationConfigParam
    jsonrpc: Literal["2.0"]
    method: Literal["tasks/pushNotificationConfig/set"]


class SetTaskPushNotificationConfigSuccessResponseParam(TypedDict):
    """``SetTaskPushNotificationConfigSuccessResponse`` as a dict, with the wire's keys."""

    id: str | int | None
    result: TaskPushNotificationConfigParam
    jsonrpc: Literal["2.0"]


class ArtifactParam(TypedDict):
    """``Artifact`` as a dict, with the wire's keys."""

    artifactId: str
    parts: list[TextPartParam | FilePartParam | DataPartParam]
    description: NotRequired[str | None]
    extensions: NotRequired[list[str] | None]
    metadata: NotRequired[dict[str, Any] | None]
    name: NotRequired[str | None]


class MessageParam(TypedDict):
    """``Message`` as a dict, with the wire's keys."""

    messageId: str
    parts: list[TextPartParam | FilePartParam | DataPartParam]
    role: Role
    kind: Literal["message"]
    contextId: NotRequired[str | None]
    extensions: NotRequired[list[str] | None]
    metadata: NotRequired[dict[str, Any] | None]
    referenceTaskIds: NotRequired[list[str] | None]
    taskId: NotRequired[str | None]


class MessageSendParamsParam(TypedDict):
    """``MessageSendParams`` as a dict, with the wire's keys."""

    message: MessageParam
    configuration: NotRequired[MessageSendConfigurationParam | None]
    metadata: NotRequired[dict[str, Any] | None]


class OAuth2SecuritySchemeParam(TypedDict):
    """``OAuth2SecurityScheme`` as a dict, with the wire's keys."""

    flows: OAuthFlowsParam
    type: Literal["oauth2"]
    description: NotRequired[str | None]
    oauth2MetadataUrl: NotRequired[str | None]


class SendMessageRequestParam(TypedDict):
    """``SendMessageRequest`` as a dict, with the wire's keys."""

    id: str | int
    params: MessageSendParamsParam
    jsonrpc: Literal["2.0"]
    method: Literal["message/send"]


class SendStreamingMessageRequestParam(TypedDict):
    """``SendStreamingMessageRequest`` as a dict, with the wire's keys."""

    id: str | int
    params: MessageSendParamsParam
    jsonrpc: Literal["2.0"]
    method: Literal["message/stream"]


class TaskArtifactUpdateEventParam(TypedDict):
    """``TaskArtifactUpdateEvent`` as a dict, with the wire's keys."""

    artifact: ArtifactParam
    contextId: str
    taskId: str
    kind: Literal["artifact-update"]
    append: NotRequired[bool | None]
    lastChunk: NotRequired[bool | None]
    metadata: NotRequired[dict[str, Any] | None]


class TaskStatusParam(TypedDict):
    """``TaskStatus`` as a dict, with the wire's keys."""

    state: TaskState
    message: NotRequired[MessageParam | None]
    timestamp: NotRequired[str | None]


class TaskStatusUpdateEventParam(TypedDict):
    """``TaskStatusUpdateEvent`` as a dict, with the wire's keys."""

    contextId: str
    final: bool
    status: TaskStatusParam
    taskId: str
    kind: Literal["status-update"]
    metadata: NotRequired[dict[str, Any] | None]


class AgentCardParam(TypedDict):
    """``AgentCard`` as a dict, with the wire's keys."""

    capabilities: AgentCapabilitiesParam
    defaultInputModes: list[str]
    defaultOutputModes: list[str]
    description: str
    name: str
    protocolVersion: str
    skills: list[AgentSkillParam]
    url: str
    version: str
    additionalInterfaces: NotRequired[list[AgentInterfaceParam] | None]
    documentationUrl: NotRequired[str | None]
    iconUrl: NotRequired[str | None]
    preferredTransport: NotRequired[str | None]
    provider: NotRequired[AgentProviderParam | None]
    security: NotRequired[list[dict[str, list[str]]] | None]
    securitySchemes: NotRequired[
        dict[
            str,
            APIKeySecuritySchemeParam
            | HTTPAuthSecuritySchemeParam
            | OAuth2SecuritySchemeParam
            | OpenIdConnectSecuritySchemeParam
            | MutualTLSSecuritySchemeParam,
        ]
        | None
    ]
    signatures: NotRequired[list[AgentCardSignatureParam] | None]
    supportsAuthenticatedExtendedCard: NotRequired[bool | None]


class GetAuthenticatedExtendedCardSuccessResponseParam(TypedDict):
    """``GetAuthenticatedExtendedCardSuccessResponse`` as a dict, with the wire's keys."""

    id: str | int | None
    result: AgentCardParam
    jsonrpc: Literal["2.0"]


class TaskParam(TypedDict):
    """``Task`` as a dict, with the wire's keys."""

    contextId: str
    id: str
    status: TaskStatusParam
    kind: Literal["task"]
    artifacts: NotRequired[list[ArtifactParam] | None]
    history: NotRequired[list[MessageParam] | None]
    metadata: NotRequired[dict[str, Any] | None]


class CancelTaskSuccessResponseParam(TypedDict):
    """``CancelTaskSuccessResponse`` as a dict, with the wire's keys."""

    id: str | int | None
    result: TaskParam
    jsonrpc: Literal["2.0"]


class GetTaskSuccessResponseParam(TypedDict):
    """``GetTaskSuccessResponse`` as a dict, with the wire's keys."""

    id: str | int | None
    result: TaskParam
    jsonrpc: Literal["2.0"]


class SendMessageSuccessResponseParam(TypedDict):
    """``SendMessageSuccessResponse`` as a dict, with the wire's keys."""

    id: str | int | None
    result: TaskParam | MessageParam
    jsonrpc: Literal["2.0"]


class SendStreamingMessageSuccessResponseParam(TypedDict):
    """``SendStreamingMessageSuccessResponse`` as a dict, with the wire's keys."""

    id: str | int | None
    result: TaskParam | MessageParam | TaskStatusUpdateEventParam | TaskArtifactUpdateEventParam
    jsonrpc: Literal["2.0"]


A2AErrorParam: TypeAlias = (
    JSONParseErrorParam
    | InvalidRequestErrorParam
    | MethodNotFoundErrorParam
    | InvalidParamsErrorParam
    | InternalErrorParam
    | TaskNotFoundErrorParam
    | TaskNotCancelableErrorParam
    | PushNotificationNotSupportedErrorParam
    | UnsupportedOperationErrorParam
    | ContentTypeNotSupportedErrorParam
    | InvalidAgentResponseErrorParam
    | AuthenticatedExtendedCardNotConfiguredErrorParam
)
"""``A2AError`` as sent."""


A2ARequestParam: TypeAlias = (
    SendMessageRequestParam
    | SendStreamingMessageRequestParam
    | GetTaskRequestParam
    | CancelTaskRequestParam
    | SetTaskPushNotificationConfigRequestParam
    | GetTaskPushNotificationConfigRequestParam
    | TaskResubscriptionRequestParam
    | ListTaskPushNotificationConfigRequestParam
    | DeleteTaskPushNotificationConfigRequestParam
    | GetAuthenticatedExtendedCardRequestParam
)
"""``A2ARequest`` as sent."""


CancelTaskResponseParam: TypeAlias = JSONRPCErrorResponseParam | CancelTaskSuccessResponseParam
"""``CancelTaskResponse`` as sent."""


DeleteTaskPushNotificationConfigResponseParam: TypeAlias = (
    JSONRPCErrorResponseParam | DeleteTaskPushNotificationConfigSuccessResponseParam
)
"""``DeleteTaskPushNotificationConfigResponse`` as sent."""


GetAuthenticatedExtendedCardResponseParam: TypeAlias = (
    JSONRPCErrorResponseParam | GetAuthenticatedExtendedCardSuccessResponseParam
)
"""``GetAuthenticatedExtendedCardResponse`` as sent."""


GetTaskPushNotificationConfigResponseParam: TypeAlias = (
    JSONRPCErrorResponseParam | GetTaskPushNotificationConfigSuccessResponseParam
)
"""``GetTaskPushNotificationConfigResponse`` as sent."""


GetTaskResponseParam: TypeAlias = JSONRPCErrorResponseParam | GetTaskSuccessResponseParam
"""``GetTaskResponse`` as sent."""


JSONRPCResponseParam: TypeAlias = (
    JSONRPCErrorResponseParam
    | SendMessageSuccessResponseParam
    | SendStreamingMessageSuccessResponseParam
    | GetTaskSuccessResponseParam
    | CancelTaskSuccessResponseParam
    | SetTaskPushNotificationConfigSuccessResponseParam
    | GetTaskPushNotificationConfigSuccessResponseParam
    | ListTaskPushNotificationConfigSuccessResponseParam
    | DeleteTaskPushNotificationConfigSuccessResponseParam
    | GetAuthenticatedExtendedCardSuccessResponseParam
)
"""``JSONRPCResponse`` as sent."""


ListTaskPushNotificationConfigResponseParam: TypeAlias = (
    JSONRPCErrorResponseParam | ListTaskPushNotificationConfigSuccessResponseParam
)
"""``ListTaskPushNotificationConfigResponse`` as sent."""


PartParam: TypeAlias = TextPartParam | FilePartParam | DataPartParam
"""``Part`` as dicts (each member's dict form)."""


SecuritySchemeParam: TypeAlias = (
    APIKeySecuritySchemeParam
    | HTTPAuthSecuritySchemeParam
    | OAuth2SecuritySchemeParam
    | OpenIdConnectSecuritySchemeParam
    | MutualTLSSecuritySchemeParam
)
"""``SecurityScheme`` as dicts (each member's dict form)."""


SendMessageResponseParam: TypeAlias = JSONRPCErrorResponseParam | SendMessageSuccessResponseParam
"""``SendMessageResponse`` as sent."""


SendStreamingMessageResponseParam: TypeAlias = (
    JSONRPCErrorResponseParam | SendStreamingMessageSuccessResponseParam
)
"""``SendStreamingMessageResponse`` as sent."""


SetTaskPushNotificationConfigResponseParam: TypeAlias = (
    JSONRPCErrorResponseParam | SetTaskPushNotificationConfigSuccessResponseParam
)
"""``SetTaskPushNotificationConfigResponse`` as sent."""
