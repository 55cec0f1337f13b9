"""Generated from schemas/a2a/a2a.schema.json. Do not edit: run `codegen build`."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias

from pydantic import Field, RootModel, Tag

from agentproto._runtime.base import UNTAGGED, Model, UnknownValue, by_tag, constant_tag, not_one_of

In: TypeAlias = Literal["cookie", "header", "query"] | UnknownValue
"""The location of the API key.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class UnknownA2ARequest(Model):
    """A variant of ``A2ARequest`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class UnknownCancelTaskResponse(Model):
    """A variant of ``CancelTaskResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class UnknownDeleteTaskPushNotificationConfigResponse(Model):
    """A variant of ``DeleteTaskPushNotificationConfigResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class UnknownGetAuthenticatedExtendedCardResponse(Model):
    """A variant of ``GetAuthenticatedExtendedCardResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class UnknownGetTaskPushNotificationConfigResponse(Model):
    """A variant of ``GetTaskPushNotificationConfigResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class UnknownGetTaskResponse(Model):
    """A variant of ``GetTaskResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class UnknownJSONRPCResponse(Model):
    """A variant of ``JSONRPCResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class UnknownListTaskPushNotificationConfigResponse(Model):
    """A variant of ``ListTaskPushNotificationConfigResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class UnknownSendMessageResponse(Model):
    """A variant of ``SendMessageResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class UnknownSendStreamingMessageResponse(Model):
    """A variant of ``SendStreamingMessageResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class UnknownSetTaskPushNotificationConfigResponse(Model):
    """A variant of ``SetTaskPushNotificationConfigResponse`` this version does not know (from a newer peer). Every field is kept as sent (in ``model_extra``) and written back unchanged."""

    jsonrpc: Annotated[str, not_one_of(("2.0",))]
    """The tag, as sent."""


class APIKeySecurityScheme(Model):
    """
    Defines a security scheme using an API key.
    """

    description: str | None = None
    """
    An optional description for the security scheme.
    """
    in_: In = Field(validation_alias="in", serialization_alias="in")
    """
    The location of the API key.
    """
    name: str
    """
    The name of the header, query, or cookie parameter to be used.
    """
    type: Literal["apiKey"] = constant_tag("apiKey")
    """
    The type of the security scheme. Must be 'apiKey'.
    """


class AgentCardSignature(Model):
    """
    AgentCardSignature represents a JWS signature of an AgentCard.
    This follows the JSON format of an RFC 7515 JSON Web Signature (JWS).
    """

    header: dict[str, Any] | None = None
    """
    The unprotected JWS header values.
    """
    protected: str
    """
    The protected JWS header for the signature. This is a Base64url-encoded
    JSON object, as per RFC 7515.
    """
    signature: str
    """
    The computed signature, Base64url-encoded.
    """


class AgentExtension(Model):
    """
    A declaration of a protocol extension supported by an Agent.
    """

    description: str | None = None
    """
    A human-readable description of how this agent uses the extension.
    """
    params: dict[str, Any] | None = None
    """
    Optional, extension-specific configuration parameters.
    """
    required: bool | None = None
    """
    If true, the client must understand and comply with the extension's requirements
    to interact with the agent.
    """
    uri: str
    """
    The unique URI identifying the extension.
    """


class AgentInterface(Model):
    """
    Declares a combination of a target URL and a transport protocol for interacting with the agent.
    This allows agents to expose the same functionality over multiple transport mechanisms.
    """

    transport: str = Field(examples=["JSONRPC", "GRPC", "HTTP+JSON"])
    """
    The transport protocol supported at this URL.
    """
    url: str = Field(
        examples=[
            "https://api.example.com/a2a/v1",
            "https://grpc.example.com/a2a",
            "https://rest.example.com/v1",
        ]
    )
    """
    The URL where this interface is available. Must be a valid absolute HTTPS URL in production.
    """


class AgentProvider(Model):
    """
    Represents the service provider of an agent.
    """

    organization: str
    """
    The name of the agent provider's organization.
    """
    url: str
    """
    A URL for the agent provider's website or relevant documentation.
    """


class AgentSkill(Model):
    """
    Represents a distinct capability or function that an agent can perform.
    """

    description: str
    """
    A detailed description of the skill, intended to help clients or users
    understand its purpose and functionality.
    """
    examples: list[str] | None = Field(default=None, examples=[["I need a recipe for bread"]])
    """
    Example prompts or scenarios that this skill can handle. Provides a hint to
    the client on how to use the skill.
    """
    id: str
    """
    A unique identifier for the agent's skill.
    """
    input_modes: list[str] | None = Field(
        default=None, validation_alias="inputModes", serialization_alias="inputModes"
    )
    """
    The set of supported input MIME types for this skill, overriding the agent's defaults.
    """
    name: str
    """
    A human-readable name for the skill.
    """
    output_modes: list[str] | None = Field(
        default=None, validation_alias="outputModes", serialization_alias="outputModes"
    )
    """
    The set of supported output MIME types for this skill, overriding the agent's defaults.
    """
    security: list[dict[str, list[str]]] | None = Field(
        default=None, examples=[[{"google": ["oidc"]}]]
    )
    """
    Security schemes necessary for the agent to leverage this skill.
    As in the overall AgentCard.security, this list represents a logical OR of security
    requirement objects. Each object is a set of security schemes that must be used together
    (a logical AND).
    """
    tags: list[str] = Field(examples=[["cooking", "customer support", "billing"]])
    """
    A set of keywords describing the skill's capabilities.
    """


class AuthenticatedExtendedCardNotConfiguredError(Model):
    """
    An A2A-specific error indicating that the agent does not have an Authenticated Extended Card configured
    """

    code: Literal[-32007]
    """
    The error code for when an authenticated extended card is not configured.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class AuthorizationCodeOAuthFlow(Model):
    """
    Defines configuration details for the OAuth 2.0 Authorization Code flow.
    """

    authorization_url: str = Field(
        validation_alias="authorizationUrl", serialization_alias="authorizationUrl"
    )
    """
    The authorization URL to be used for this flow.
    This MUST be a URL and use TLS.
    """
    refresh_url: str | None = Field(
        default=None, validation_alias="refreshUrl", serialization_alias="refreshUrl"
    )
    """
    The URL to be used for obtaining refresh tokens.
    This MUST be a URL and use TLS.
    """
    scopes: dict[str, str]
    """
    The available scopes for the OAuth2 security scheme. A map between the scope
    name and a short description for it.
    """
    token_url: str = Field(validation_alias="tokenUrl", serialization_alias="tokenUrl")
    """
    The token URL to be used for this flow.
    This MUST be a URL and use TLS.
    """


class ClientCredentialsOAuthFlow(Model):
    """
    Defines configuration details for the OAuth 2.0 Client Credentials flow.
    """

    refresh_url: str | None = Field(
        default=None, validation_alias="refreshUrl", serialization_alias="refreshUrl"
    )
    """
    The URL to be used for obtaining refresh tokens. This MUST be a URL.
    """
    scopes: dict[str, str]
    """
    The available scopes for the OAuth2 security scheme. A map between the scope
    name and a short description for it.
    """
    token_url: str = Field(validation_alias="tokenUrl", serialization_alias="tokenUrl")
    """
    The token URL to be used for this flow. This MUST be a URL.
    """


class ContentTypeNotSupportedError(Model):
    """
    An A2A-specific error indicating an incompatibility between the requested
    content types and the agent's capabilities.
    """

    code: Literal[-32005]
    """
    The error code for an unsupported content type.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class DataPart(Model):
    """
    Represents a structured data segment (e.g., JSON) within a message or artifact.
    """

    data: dict[str, Any]
    """
    The structured data content.
    """
    kind: Literal["data"] = constant_tag("data")
    """
    The type of this part, used as a discriminator. Always 'data'.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata associated with this part.
    """


class DeleteTaskPushNotificationConfigParams(Model):
    """
    Defines parameters for deleting a specific push notification configuration for a task.
    """

    id: str
    """
    The unique identifier of the task.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata associated with the request.
    """
    push_notification_config_id: str = Field(
        validation_alias="pushNotificationConfigId", serialization_alias="pushNotificationConfigId"
    )
    """
    The ID of the push notification configuration to delete.
    """


class DeleteTaskPushNotificationConfigRequest(Model):
    """
    Represents a JSON-RPC request for the `tasks/pushNotificationConfig/delete` method.
    """

    id: str | int
    """
    The identifier for this request.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: Literal["tasks/pushNotificationConfig/delete"] = constant_tag(
        "tasks/pushNotificationConfig/delete"
    )
    """
    The method name. Must be 'tasks/pushNotificationConfig/delete'.
    """
    params: DeleteTaskPushNotificationConfigParams
    """
    The parameters identifying the push notification configuration to delete.
    """


class DeleteTaskPushNotificationConfigSuccessResponse(Model):
    """
    Represents a successful JSON-RPC response for the `tasks/pushNotificationConfig/delete` method.
    """

    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    result: None
    """
    The result is null on successful deletion.
    """


class FileBase(Model):
    """
    Defines base properties for a file.
    """

    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    The MIME type of the file (e.g., "application/pdf").
    """
    name: str | None = None
    """
    An optional name for the file (e.g., "document.pdf").
    """


class FileWithBytes(Model):
    """
    Represents a file with its content provided directly as a base64-encoded string.
    """

    bytes: str
    """
    The base64-encoded content of the file.
    """
    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    The MIME type of the file (e.g., "application/pdf").
    """
    name: str | None = None
    """
    An optional name for the file (e.g., "document.pdf").
    """


class FileWithUri(Model):
    """
    Represents a file with its content located at a specific URI.
    """

    mime_type: str | None = Field(
        default=None, validation_alias="mimeType", serialization_alias="mimeType"
    )
    """
    The MIME type of the file (e.g., "application/pdf").
    """
    name: str | None = None
    """
    An optional name for the file (e.g., "document.pdf").
    """
    uri: str
    """
    A URL pointing to the file's content.
    """


class GetAuthenticatedExtendedCardRequest(Model):
    """
    Represents a JSON-RPC request for the `agent/getAuthenticatedExtendedCard` method.
    """

    id: str | int
    """
    The identifier for this request.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: Literal["agent/getAuthenticatedExtendedCard"] = constant_tag(
        "agent/getAuthenticatedExtendedCard"
    )
    """
    The method name. Must be 'agent/getAuthenticatedExtendedCard'.
    """


class GetTaskPushNotificationConfigParams(Model):
    """
    Defines parameters for fetching a specific push notification configuration for a task.
    """

    id: str
    """
    The unique identifier of the task.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata associated with the request.
    """
    push_notification_config_id: str | None = Field(
        default=None,
        validation_alias="pushNotificationConfigId",
        serialization_alias="pushNotificationConfigId",
    )
    """
    The ID of the push notification configuration to retrieve.
    """


class HTTPAuthSecurityScheme(Model):
    """
    Defines a security scheme using HTTP authentication.
    """

    bearer_format: str | None = Field(
        default=None, validation_alias="bearerFormat", serialization_alias="bearerFormat"
    )
    """
    A hint to the client to identify how the bearer token is formatted (e.g., "JWT").
    This is primarily for documentation purposes.
    """
    description: str | None = None
    """
    An optional description for the security scheme.
    """
    scheme: str
    """
    The name of the HTTP Authentication scheme to be used in the Authorization header,
    as defined in RFC7235 (e.g., "Bearer").
    This value should be registered in the IANA Authentication Scheme registry.
    """
    type: Literal["http"] = constant_tag("http")
    """
    The type of the security scheme. Must be 'http'.
    """


class ImplicitOAuthFlow(Model):
    """
    Defines configuration details for the OAuth 2.0 Implicit flow.
    """

    authorization_url: str = Field(
        validation_alias="authorizationUrl", serialization_alias="authorizationUrl"
    )
    """
    The authorization URL to be used for this flow. This MUST be a URL.
    """
    refresh_url: str | None = Field(
        default=None, validation_alias="refreshUrl", serialization_alias="refreshUrl"
    )
    """
    The URL to be used for obtaining refresh tokens. This MUST be a URL.
    """
    scopes: dict[str, str]
    """
    The available scopes for the OAuth2 security scheme. A map between the scope
    name and a short description for it.
    """


class InternalError(Model):
    """
    An error indicating an internal error on the server.
    """

    code: Literal[-32603]
    """
    The error code for an internal server error.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class InvalidAgentResponseError(Model):
    """
    An A2A-specific error indicating that the agent returned a response that
    does not conform to the specification for the current method.
    """

    code: Literal[-32006]
    """
    The error code for an invalid agent response.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class InvalidParamsError(Model):
    """
    An error indicating that the method parameters are invalid.
    """

    code: Literal[-32602]
    """
    The error code for an invalid parameters error.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class InvalidRequestError(Model):
    """
    An error indicating that the JSON sent is not a valid Request object.
    """

    code: Literal[-32600]
    """
    The error code for an invalid request.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class JSONParseError(Model):
    """
    An error indicating that the server received invalid JSON.
    """

    code: Literal[-32700]
    """
    The error code for a JSON parse error.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class JSONRPCError(Model):
    """
    Represents a JSON-RPC 2.0 Error object, included in an error response.
    """

    code: int
    """
    A number that indicates the error type that occurred.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    A string providing a short description of the error.
    """


class JSONRPCMessage(Model):
    """
    Defines the base structure for any JSON-RPC 2.0 request, response, or notification.
    """

    id: str | int | None = None
    """
    A unique identifier established by the client. It must be a String, a Number, or null.
    The server must reply with the same value in the response. This property is omitted for notifications.
    """
    jsonrpc: Literal["2.0"]
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """


class JSONRPCRequest(Model):
    """
    Represents a JSON-RPC 2.0 Request object.
    """

    id: str | int | None = None
    """
    A unique identifier established by the client. It must be a String, a Number, or null.
    The server must reply with the same value in the response. This property is omitted for notifications.
    """
    jsonrpc: Literal["2.0"]
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: str
    """
    A string containing the name of the method to be invoked.
    """
    params: dict[str, Any] | None = None
    """
    A structured value holding the parameter values to be used during the method invocation.
    """


class JSONRPCSuccessResponse(Model):
    """
    Represents a successful JSON-RPC 2.0 Response object.
    """

    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"]
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    result: Any
    """
    The value of this member is determined by the method invoked on the Server.
    """


class ListTaskPushNotificationConfigParams(Model):
    """
    Defines parameters for listing all push notification configurations associated with a task.
    """

    id: str
    """
    The unique identifier of the task.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata associated with the request.
    """


class ListTaskPushNotificationConfigRequest(Model):
    """
    Represents a JSON-RPC request for the `tasks/pushNotificationConfig/list` method.
    """

    id: str | int
    """
    The identifier for this request.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: Literal["tasks/pushNotificationConfig/list"] = constant_tag(
        "tasks/pushNotificationConfig/list"
    )
    """
    The method name. Must be 'tasks/pushNotificationConfig/list'.
    """
    params: ListTaskPushNotificationConfigParams
    """
    The parameters identifying the task whose configurations are to be listed.
    """


Role: TypeAlias = Literal["agent", "user"] | UnknownValue
"""Identifies the sender of the message. `user` for the client, `agent` for the service.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class MethodNotFoundError(Model):
    """
    An error indicating that the requested method does not exist or is not available.
    """

    code: Literal[-32601]
    """
    The error code for a method not found error.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class MutualTLSSecurityScheme(Model):
    """
    Defines a security scheme using mTLS authentication.
    """

    description: str | None = None
    """
    An optional description for the security scheme.
    """
    type: Literal["mutualTLS"] = constant_tag("mutualTLS")
    """
    The type of the security scheme. Must be 'mutualTLS'.
    """


class OpenIdConnectSecurityScheme(Model):
    """
    Defines a security scheme using OpenID Connect.
    """

    description: str | None = None
    """
    An optional description for the security scheme.
    """
    open_id_connect_url: str = Field(
        validation_alias="openIdConnectUrl", serialization_alias="openIdConnectUrl"
    )
    """
    The OpenID Connect Discovery URL for the OIDC provider's metadata.
    """
    type: Literal["openIdConnect"] = constant_tag("openIdConnect")
    """
    The type of the security scheme. Must be 'openIdConnect'.
    """


class PartBase(Model):
    """
    Defines base properties common to all message or artifact parts.
    """

    metadata: dict[str, Any] | None = None
    """
    Optional metadata associated with this part.
    """


class PasswordOAuthFlow(Model):
    """
    Defines configuration details for the OAuth 2.0 Resource Owner Password flow.
    """

    refresh_url: str | None = Field(
        default=None, validation_alias="refreshUrl", serialization_alias="refreshUrl"
    )
    """
    The URL to be used for obtaining refresh tokens. This MUST be a URL.
    """
    scopes: dict[str, str]
    """
    The available scopes for the OAuth2 security scheme. A map between the scope
    name and a short description for it.
    """
    token_url: str = Field(validation_alias="tokenUrl", serialization_alias="tokenUrl")
    """
    The token URL to be used for this flow. This MUST be a URL.
    """


class PushNotificationAuthenticationInfo(Model):
    """
    Defines authentication details for a push notification endpoint.
    """

    credentials: str | None = None
    """
    Optional credentials required by the push notification endpoint.
    """
    schemes: list[str]
    """
    A list of supported authentication schemes (e.g., 'Basic', 'Bearer').
    """


class PushNotificationConfig(Model):
    """
    Defines the configuration for setting up push notifications for task updates.
    """

    authentication: PushNotificationAuthenticationInfo | None = None
    """
    Optional authentication details for the agent to use when calling the notification URL.
    """
    id: str | None = None
    """
    A unique ID for the push notification configuration, set by the client
    to support multiple notification callbacks.
    """
    token: str | None = None
    """
    A unique token for this task or session to validate incoming push notifications.
    """
    url: str
    """
    The callback URL where the agent should send push notifications.
    """


class PushNotificationNotSupportedError(Model):
    """
    An A2A-specific error indicating that the agent does not support push notifications.
    """

    code: Literal[-32003]
    """
    The error code for when push notifications are not supported.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class SecuritySchemeBase(Model):
    """
    Defines base properties shared by all security scheme objects.
    """

    description: str | None = None
    """
    An optional description for the security scheme.
    """


class TaskIdParams(Model):
    """
    Defines parameters containing a task ID, used for simple task operations.
    """

    id: str
    """
    The unique identifier of the task.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata associated with the request.
    """


class TaskNotCancelableError(Model):
    """
    An A2A-specific error indicating that the task is in a state where it cannot be canceled.
    """

    code: Literal[-32002]
    """
    The error code for a task that cannot be canceled.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class TaskNotFoundError(Model):
    """
    An A2A-specific error indicating that the requested task ID was not found.
    """

    code: Literal[-32001]
    """
    The error code for a task not found error.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class TaskPushNotificationConfig(Model):
    """
    A container associating a push notification configuration with a specific task.
    """

    push_notification_config: PushNotificationConfig = Field(
        validation_alias="pushNotificationConfig", serialization_alias="pushNotificationConfig"
    )
    """
    The push notification configuration for this task.
    """
    task_id: str = Field(validation_alias="taskId", serialization_alias="taskId")
    """
    The ID of the task.
    """


class TaskQueryParams(Model):
    """
    Defines parameters for querying a task, with an option to limit history length.
    """

    history_length: int | None = Field(
        default=None, validation_alias="historyLength", serialization_alias="historyLength"
    )
    """
    The number of most recent messages from the task's history to retrieve.
    """
    id: str
    """
    The unique identifier of the task.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata associated with the request.
    """


class TaskResubscriptionRequest(Model):
    """
    Represents a JSON-RPC request for the `tasks/resubscribe` method, used to resume a streaming connection.
    """

    id: str | int
    """
    The identifier for this request.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: Literal["tasks/resubscribe"] = constant_tag("tasks/resubscribe")
    """
    The method name. Must be 'tasks/resubscribe'.
    """
    params: TaskIdParams
    """
    The parameters identifying the task to resubscribe to.
    """


TaskState: TypeAlias = (
    Literal[
        "submitted",
        "working",
        "input-required",
        "completed",
        "canceled",
        "failed",
        "rejected",
        "auth-required",
        "unknown",
    ]
    | UnknownValue
)
"""Defines the lifecycle states of a Task.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class TextPart(Model):
    """
    Represents a text segment within a message or artifact.
    """

    kind: Literal["text"] = constant_tag("text")
    """
    The type of this part, used as a discriminator. Always 'text'.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata associated with this part.
    """
    text: str
    """
    The string content of the text part.
    """


TransportProtocol: TypeAlias = Literal["JSONRPC", "GRPC", "HTTP+JSON"] | UnknownValue
"""Supported A2A transport protocols.

A value this version does not know (from a newer peer) is kept as sent, typed ``UnknownValue``.
"""


class UnsupportedOperationError(Model):
    """
    An A2A-specific error indicating that the requested operation is not supported by the agent.
    """

    code: Literal[-32004]
    """
    The error code for an unsupported operation.
    """
    data: Any | None = None
    """
    A primitive or structured value containing additional information about the error.
    This may be omitted.
    """
    message: str
    """
    The error message.
    """


class A2AError(
    RootModel[
        JSONParseError
        | InvalidRequestError
        | MethodNotFoundError
        | InvalidParamsError
        | InternalError
        | TaskNotFoundError
        | TaskNotCancelableError
        | PushNotificationNotSupportedError
        | UnsupportedOperationError
        | ContentTypeNotSupportedError
        | InvalidAgentResponseError
        | AuthenticatedExtendedCardNotConfiguredError
    ]
):
    root: (
        JSONParseError
        | InvalidRequestError
        | MethodNotFoundError
        | InvalidParamsError
        | InternalError
        | TaskNotFoundError
        | TaskNotCancelableError
        | PushNotificationNotSupportedError
        | UnsupportedOperationError
        | ContentTypeNotSupportedError
        | InvalidAgentResponseError
        | AuthenticatedExtendedCardNotConfiguredError
    )
    """
    A discriminated union of all standard JSON-RPC and A2A-specific error types.
    """


class AgentCapabilities(Model):
    """
    Defines optional capabilities supported by an agent.
    """

    extensions: list[AgentExtension] | None = None
    """
    A list of protocol extensions supported by the agent.
    """
    push_notifications: bool | None = Field(
        default=None, validation_alias="pushNotifications", serialization_alias="pushNotifications"
    )
    """
    Indicates if the agent supports sending push notifications for asynchronous task updates.
    """
    state_transition_history: bool | None = Field(
        default=None,
        validation_alias="stateTransitionHistory",
        serialization_alias="stateTransitionHistory",
    )
    """
    Indicates if the agent provides a history of state transitions for a task.
    """
    streaming: bool | None = None
    """
    Indicates if the agent supports Server-Sent Events (SSE) for streaming responses.
    """


class CancelTaskRequest(Model):
    """
    Represents a JSON-RPC request for the `tasks/cancel` method.
    """

    id: str | int
    """
    The identifier for this request.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: Literal["tasks/cancel"] = constant_tag("tasks/cancel")
    """
    The method name. Must be 'tasks/cancel'.
    """
    params: TaskIdParams
    """
    The parameters identifying the task to cancel.
    """


class FilePart(Model):
    """
    Represents a file segment within a message or artifact. The file content can be
    provided either directly as bytes or as a URI.
    """

    file: FileWithBytes | FileWithUri
    """
    The file content, represented as either a URI or as base64-encoded bytes.
    """
    kind: Literal["file"] = constant_tag("file")
    """
    The type of this part, used as a discriminator. Always 'file'.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata associated with this part.
    """


class GetTaskPushNotificationConfigRequest(Model):
    """
    Represents a JSON-RPC request for the `tasks/pushNotificationConfig/get` method.
    """

    id: str | int
    """
    The identifier for this request.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: Literal["tasks/pushNotificationConfig/get"] = constant_tag(
        "tasks/pushNotificationConfig/get"
    )
    """
    The method name. Must be 'tasks/pushNotificationConfig/get'.
    """
    params: TaskIdParams | GetTaskPushNotificationConfigParams
    """
    The parameters for getting a push notification configuration.
    """


class GetTaskPushNotificationConfigSuccessResponse(Model):
    """
    Represents a successful JSON-RPC response for the `tasks/pushNotificationConfig/get` method.
    """

    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    result: TaskPushNotificationConfig
    """
    The result, containing the requested push notification configuration.
    """


class GetTaskRequest(Model):
    """
    Represents a JSON-RPC request for the `tasks/get` method.
    """

    id: str | int
    """
    The identifier for this request.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: Literal["tasks/get"] = constant_tag("tasks/get")
    """
    The method name. Must be 'tasks/get'.
    """
    params: TaskQueryParams
    """
    The parameters for querying a task.
    """


class JSONRPCErrorResponse(Model):
    """
    Represents a JSON-RPC 2.0 Error Response object.
    """

    error: (
        JSONRPCError
        | JSONParseError
        | InvalidRequestError
        | MethodNotFoundError
        | InvalidParamsError
        | InternalError
        | TaskNotFoundError
        | TaskNotCancelableError
        | PushNotificationNotSupportedError
        | UnsupportedOperationError
        | ContentTypeNotSupportedError
        | InvalidAgentResponseError
        | AuthenticatedExtendedCardNotConfiguredError
    )
    """
    An object describing the error that occurred.
    """
    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """


class ListTaskPushNotificationConfigSuccessResponse(Model):
    """
    Represents a successful JSON-RPC response for the `tasks/pushNotificationConfig/list` method.
    """

    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    result: list[TaskPushNotificationConfig]
    """
    The result, containing an array of all push notification configurations for the task.
    """


class MessageSendConfiguration(Model):
    """
    Defines configuration options for a `message/send` or `message/stream` request.
    """

    accepted_output_modes: list[str] | None = Field(
        default=None,
        validation_alias="acceptedOutputModes",
        serialization_alias="acceptedOutputModes",
    )
    """
    A list of output MIME types the client is prepared to accept in the response.
    """
    blocking: bool | None = None
    """
    If true, the client will wait for the task to complete. The server may reject this if the task is long-running.
    """
    history_length: int | None = Field(
        default=None, validation_alias="historyLength", serialization_alias="historyLength"
    )
    """
    The number of most recent messages from the task's history to retrieve in the response.
    """
    push_notification_config: PushNotificationConfig | None = Field(
        default=None,
        validation_alias="pushNotificationConfig",
        serialization_alias="pushNotificationConfig",
    )
    """
    Configuration for the agent to send push notifications for updates after the initial response.
    """


class OAuthFlows(Model):
    """
    Defines the configuration for the supported OAuth 2.0 flows.
    """

    authorization_code: AuthorizationCodeOAuthFlow | None = Field(
        default=None, validation_alias="authorizationCode", serialization_alias="authorizationCode"
    )
    """
    Configuration for the OAuth Authorization Code flow. Previously called accessCode in OpenAPI 2.0.
    """
    client_credentials: ClientCredentialsOAuthFlow | None = Field(
        default=None, validation_alias="clientCredentials", serialization_alias="clientCredentials"
    )
    """
    Configuration for the OAuth Client Credentials flow. Previously called application in OpenAPI 2.0.
    """
    implicit: ImplicitOAuthFlow | None = None
    """
    Configuration for the OAuth Implicit flow.
    """
    password: PasswordOAuthFlow | None = None
    """
    Configuration for the OAuth Resource Owner Password flow.
    """


class SetTaskPushNotificationConfigRequest(Model):
    """
    Represents a JSON-RPC request for the `tasks/pushNotificationConfig/set` method.
    """

    id: str | int
    """
    The identifier for this request.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: Literal["tasks/pushNotificationConfig/set"] = constant_tag(
        "tasks/pushNotificationConfig/set"
    )
    """
    The method name. Must be 'tasks/pushNotificationConfig/set'.
    """
    params: TaskPushNotificationConfig
    """
    The parameters for setting the push notification configuration.
    """


class SetTaskPushNotificationConfigSuccessResponse(Model):
    """
    Represents a successful JSON-RPC response for the `tasks/pushNotificationConfig/set` method.
    """

    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    result: TaskPushNotificationConfig
    """
    The result, containing the configured push notification settings.
    """


class Artifact(Model):
    """
    Represents a file, data structure, or other resource generated by an agent during a task.
    """

    artifact_id: str = Field(validation_alias="artifactId", serialization_alias="artifactId")
    """
    A unique identifier for the artifact within the scope of the task.
    """
    description: str | None = None
    """
    An optional, human-readable description of the artifact.
    """
    extensions: list[str] | None = None
    """
    The URIs of extensions that are relevant to this artifact.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata for extensions. The key is an extension-specific identifier.
    """
    name: str | None = None
    """
    An optional, human-readable name for the artifact.
    """
    parts: list[TextPart | FilePart | DataPart]
    """
    An array of content parts that make up the artifact.
    """


class DeleteTaskPushNotificationConfigResponse(
    RootModel[
        Annotated[
            Annotated[
                JSONRPCErrorResponse | DeleteTaskPushNotificationConfigSuccessResponse, Tag("2.0")
            ]
            | Annotated[UnknownDeleteTaskPushNotificationConfigResponse, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[
            JSONRPCErrorResponse | DeleteTaskPushNotificationConfigSuccessResponse, Tag("2.0")
        ]
        | Annotated[UnknownDeleteTaskPushNotificationConfigResponse, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    Represents a JSON-RPC response for the `tasks/pushNotificationConfig/delete` method.
    """


class GetTaskPushNotificationConfigResponse(
    RootModel[
        Annotated[
            Annotated[
                JSONRPCErrorResponse | GetTaskPushNotificationConfigSuccessResponse, Tag("2.0")
            ]
            | Annotated[UnknownGetTaskPushNotificationConfigResponse, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[JSONRPCErrorResponse | GetTaskPushNotificationConfigSuccessResponse, Tag("2.0")]
        | Annotated[UnknownGetTaskPushNotificationConfigResponse, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    Represents a JSON-RPC response for the `tasks/pushNotificationConfig/get` method.
    """


class ListTaskPushNotificationConfigResponse(
    RootModel[
        Annotated[
            Annotated[
                JSONRPCErrorResponse | ListTaskPushNotificationConfigSuccessResponse, Tag("2.0")
            ]
            | Annotated[UnknownListTaskPushNotificationConfigResponse, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[JSONRPCErrorResponse | ListTaskPushNotificationConfigSuccessResponse, Tag("2.0")]
        | Annotated[UnknownListTaskPushNotificationConfigResponse, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    Represents a JSON-RPC response for the `tasks/pushNotificationConfig/list` method.
    """


class Message(Model):
    """
    Represents a single message in the conversation between a user and an agent.
    """

    context_id: str | None = Field(
        default=None, validation_alias="contextId", serialization_alias="contextId"
    )
    """
    The context identifier for this message, used to group related interactions.
    """
    extensions: list[str] | None = None
    """
    The URIs of extensions that are relevant to this message.
    """
    kind: Literal["message"] = constant_tag("message")
    """
    The type of this object, used as a discriminator. Always 'message' for a Message.
    """
    message_id: str = Field(validation_alias="messageId", serialization_alias="messageId")
    """
    A unique identifier for the message, typically a UUID, generated by the sender.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata for extensions. The key is an extension-specific identifier.
    """
    parts: list[TextPart | FilePart | DataPart]
    """
    An array of content parts that form the message body. A message can be
    composed of multiple parts of different types (e.g., text and files).
    """
    reference_task_ids: list[str] | None = Field(
        default=None, validation_alias="referenceTaskIds", serialization_alias="referenceTaskIds"
    )
    """
    A list of other task IDs that this message references for additional context.
    """
    role: Role
    """
    Identifies the sender of the message. `user` for the client, `agent` for the service.
    """
    task_id: str | None = Field(
        default=None, validation_alias="taskId", serialization_alias="taskId"
    )
    """
    The identifier of the task this message is part of. Can be omitted for the first message of a new task.
    """


class MessageSendParams(Model):
    """
    Defines the parameters for a request to send a message to an agent. This can be used
    to create a new task, continue an existing one, or restart a task.
    """

    configuration: MessageSendConfiguration | None = None
    """
    Optional configuration for the send request.
    """
    message: Message
    """
    The message object being sent to the agent.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata for extensions.
    """


class OAuth2SecurityScheme(Model):
    """
    Defines a security scheme using OAuth 2.0.
    """

    description: str | None = None
    """
    An optional description for the security scheme.
    """
    flows: OAuthFlows
    """
    An object containing configuration information for the supported OAuth 2.0 flows.
    """
    oauth2_metadata_url: str | None = Field(
        default=None, validation_alias="oauth2MetadataUrl", serialization_alias="oauth2MetadataUrl"
    )
    """
    URL to the oauth2 authorization server metadata
    [RFC8414](https://datatracker.ietf.org/doc/html/rfc8414). TLS is required.
    """
    type: Literal["oauth2"] = constant_tag("oauth2")
    """
    The type of the security scheme. Must be 'oauth2'.
    """


class SendMessageRequest(Model):
    """
    Represents a JSON-RPC request for the `message/send` method.
    """

    id: str | int
    """
    The identifier for this request.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: Literal["message/send"] = constant_tag("message/send")
    """
    The method name. Must be 'message/send'.
    """
    params: MessageSendParams
    """
    The parameters for sending a message.
    """


class SendStreamingMessageRequest(Model):
    """
    Represents a JSON-RPC request for the `message/stream` method.
    """

    id: str | int
    """
    The identifier for this request.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    method: Literal["message/stream"] = constant_tag("message/stream")
    """
    The method name. Must be 'message/stream'.
    """
    params: MessageSendParams
    """
    The parameters for sending a message.
    """


class SetTaskPushNotificationConfigResponse(
    RootModel[
        Annotated[
            Annotated[
                JSONRPCErrorResponse | SetTaskPushNotificationConfigSuccessResponse, Tag("2.0")
            ]
            | Annotated[UnknownSetTaskPushNotificationConfigResponse, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[JSONRPCErrorResponse | SetTaskPushNotificationConfigSuccessResponse, Tag("2.0")]
        | Annotated[UnknownSetTaskPushNotificationConfigResponse, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    Represents a JSON-RPC response for the `tasks/pushNotificationConfig/set` method.
    """


class TaskArtifactUpdateEvent(Model):
    """
    An event sent by the agent to notify the client that an artifact has been
    generated or updated. This is typically used in streaming models.
    """

    append: bool | None = None
    """
    If true, the content of this artifact should be appended to a previously sent artifact with the same ID.
    """
    artifact: Artifact
    """
    The artifact that was generated or updated.
    """
    context_id: str = Field(validation_alias="contextId", serialization_alias="contextId")
    """
    The context ID associated with the task.
    """
    kind: Literal["artifact-update"] = constant_tag("artifact-update")
    """
    The type of this event, used as a discriminator. Always 'artifact-update'.
    """
    last_chunk: bool | None = Field(
        default=None, validation_alias="lastChunk", serialization_alias="lastChunk"
    )
    """
    If true, this is the final chunk of the artifact.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata for extensions.
    """
    task_id: str = Field(validation_alias="taskId", serialization_alias="taskId")
    """
    The ID of the task this artifact belongs to.
    """


class TaskStatus(Model):
    """
    Represents the status of a task at a specific point in time.
    """

    message: Message | None = None
    """
    An optional, human-readable message providing more details about the current status.
    """
    state: TaskState
    """
    The current state of the task's lifecycle.
    """
    timestamp: str | None = Field(default=None, examples=["2023-10-27T10:00:00Z"])
    """
    An ISO 8601 datetime string indicating when this status was recorded.
    """


class TaskStatusUpdateEvent(Model):
    """
    An event sent by the agent to notify the client of a change in a task's status.
    This is typically used in streaming or subscription models.
    """

    context_id: str = Field(validation_alias="contextId", serialization_alias="contextId")
    """
    The context ID associated with the task.
    """
    final: bool
    """
    If true, this is the final event in the stream for this interaction.
    """
    kind: Literal["status-update"] = constant_tag("status-update")
    """
    The type of this event, used as a discriminator. Always 'status-update'.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata for extensions.
    """
    status: TaskStatus
    """
    The new status of the task.
    """
    task_id: str = Field(validation_alias="taskId", serialization_alias="taskId")
    """
    The ID of the task that was updated.
    """


class A2ARequest(
    RootModel[
        Annotated[
            Annotated[
                SendMessageRequest
                | SendStreamingMessageRequest
                | GetTaskRequest
                | CancelTaskRequest
                | SetTaskPushNotificationConfigRequest
                | GetTaskPushNotificationConfigRequest
                | TaskResubscriptionRequest
                | ListTaskPushNotificationConfigRequest
                | DeleteTaskPushNotificationConfigRequest
                | GetAuthenticatedExtendedCardRequest,
                Tag("2.0"),
            ]
            | Annotated[UnknownA2ARequest, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[
            SendMessageRequest
            | SendStreamingMessageRequest
            | GetTaskRequest
            | CancelTaskRequest
            | SetTaskPushNotificationConfigRequest
            | GetTaskPushNotificationConfigRequest
            | TaskResubscriptionRequest
            | ListTaskPushNotificationConfigRequest
            | DeleteTaskPushNotificationConfigRequest
            | GetAuthenticatedExtendedCardRequest,
            Tag("2.0"),
        ]
        | Annotated[UnknownA2ARequest, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    A discriminated union representing all possible JSON-RPC 2.0 requests supported by the A2A specification.
    """


class AgentCard(Model):
    """
    The AgentCard is a self-describing manifest for an agent. It provides essential
    metadata including the agent's identity, capabilities, skills, supported
    communication methods, and security requirements.
    """

    additional_interfaces: list[AgentInterface] | None = Field(
        default=None,
        validation_alias="additionalInterfaces",
        serialization_alias="additionalInterfaces",
    )
    """
    A list of additional supported interfaces (transport and URL combinations).
    This allows agents to expose multiple transports, potentially at different URLs.

    Best practices:
    - SHOULD include all supported transports for completeness
    - SHOULD include an entry matching the main 'url' and 'preferredTransport'
    - MAY reuse URLs if multiple transports are available at the same endpoint
    - MUST accurately declare the transport available at each URL

    Clients can select any interface from this list based on their transport capabilities
    and preferences. This enables transport negotiation and fallback scenarios.
    """
    capabilities: AgentCapabilities
    """
    A declaration of optional capabilities supported by the agent.
    """
    default_input_modes: list[str] = Field(
        validation_alias="defaultInputModes", serialization_alias="defaultInputModes"
    )
    """
    Default set of supported input MIME types for all skills, which can be
    overridden on a per-skill basis.
    """
    default_output_modes: list[str] = Field(
        validation_alias="defaultOutputModes", serialization_alias="defaultOutputModes"
    )
    """
    Default set of supported output MIME types for all skills, which can be
    overridden on a per-skill basis.
    """
    description: str = Field(examples=["Agent that helps users with recipes and cooking."])
    """
    A human-readable description of the agent, assisting users and other agents
    in understanding its purpose.
    """
    documentation_url: str | None = Field(
        default=None, validation_alias="documentationUrl", serialization_alias="documentationUrl"
    )
    """
    An optional URL to the agent's documentation.
    """
    icon_url: str | None = Field(
        default=None, validation_alias="iconUrl", serialization_alias="iconUrl"
    )
    """
    An optional URL to an icon for the agent.
    """
    name: str = Field(examples=["Recipe Agent"])
    """
    A human-readable name for the agent.
    """
    preferred_transport: str | None = Field(
        default="JSONRPC",
        validation_alias="preferredTransport",
        serialization_alias="preferredTransport",
        examples=["JSONRPC", "GRPC", "HTTP+JSON"],
    )
    """
    The transport protocol for the preferred endpoint (the main 'url' field).
    If not specified, defaults to 'JSONRPC'.

    IMPORTANT: The transport specified here MUST be available at the main 'url'.
    This creates a binding between the main URL and its supported transport protocol.
    Clients should prefer this transport and URL combination when both are supported.
    """
    protocol_version: str = Field(
        validation_alias="protocolVersion", serialization_alias="protocolVersion"
    )
    """
    The version of the A2A protocol this agent supports.
    """
    provider: AgentProvider | None = None
    """
    Information about the agent's service provider.
    """
    security: list[dict[str, list[str]]] | None = Field(
        default=None, examples=[[{"oauth": ["read"]}, {"api-key": [], "mtls": []}]]
    )
    """
    A list of security requirement objects that apply to all agent interactions. Each object
    lists security schemes that can be used. Follows the OpenAPI 3.0 Security Requirement Object.
    This list can be seen as an OR of ANDs. Each object in the list describes one possible
    set of security requirements that must be present on a request. This allows specifying,
    for example, "callers must either use OAuth OR an API Key AND mTLS."
    """
    security_schemes: (
        dict[
            str,
            APIKeySecurityScheme
            | HTTPAuthSecurityScheme
            | OAuth2SecurityScheme
            | OpenIdConnectSecurityScheme
            | MutualTLSSecurityScheme,
        ]
        | None
    ) = Field(
        default=None, validation_alias="securitySchemes", serialization_alias="securitySchemes"
    )
    """
    A declaration of the security schemes available to authorize requests. The key is the
    scheme name. Follows the OpenAPI 3.0 Security Scheme Object.
    """
    signatures: list[AgentCardSignature] | None = None
    """
    JSON Web Signatures computed for this AgentCard.
    """
    skills: list[AgentSkill]
    """
    The set of skills, or distinct capabilities, that the agent can perform.
    """
    supports_authenticated_extended_card: bool | None = Field(
        default=None,
        validation_alias="supportsAuthenticatedExtendedCard",
        serialization_alias="supportsAuthenticatedExtendedCard",
    )
    """
    If true, the agent can provide an extended agent card with additional details
    to authenticated users. Defaults to false.
    """
    url: str = Field(examples=["https://api.example.com/a2a/v1"])
    """
    The preferred endpoint URL for interacting with the agent.
    This URL MUST support the transport specified by 'preferredTransport'.
    """
    version: str = Field(examples=["1.0.0"])
    """
    The agent's own version number. The format is defined by the provider.
    """


class GetAuthenticatedExtendedCardSuccessResponse(Model):
    """
    Represents a successful JSON-RPC response for the `agent/getAuthenticatedExtendedCard` method.
    """

    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    result: AgentCard
    """
    The result is an Agent Card object.
    """


class Task(Model):
    """
    Represents a single, stateful operation or conversation between a client and an agent.
    """

    artifacts: list[Artifact] | None = None
    """
    A collection of artifacts generated by the agent during the execution of the task.
    """
    context_id: str = Field(validation_alias="contextId", serialization_alias="contextId")
    """
    A server-generated identifier for maintaining context across multiple related tasks or interactions.
    """
    history: list[Message] | None = None
    """
    An array of messages exchanged during the task, representing the conversation history.
    """
    id: str
    """
    A unique identifier for the task, generated by the server for a new task.
    """
    kind: Literal["task"] = constant_tag("task")
    """
    The type of this object, used as a discriminator. Always 'task' for a Task.
    """
    metadata: dict[str, Any] | None = None
    """
    Optional metadata for extensions. The key is an extension-specific identifier.
    """
    status: TaskStatus
    """
    The current status of the task, including its state and a descriptive message.
    """


class CancelTaskSuccessResponse(Model):
    """
    Represents a successful JSON-RPC response for the `tasks/cancel` method.
    """

    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    result: Task
    """
    The result, containing the final state of the canceled Task object.
    """


class GetAuthenticatedExtendedCardResponse(
    RootModel[
        Annotated[
            Annotated[
                JSONRPCErrorResponse | GetAuthenticatedExtendedCardSuccessResponse, Tag("2.0")
            ]
            | Annotated[UnknownGetAuthenticatedExtendedCardResponse, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[JSONRPCErrorResponse | GetAuthenticatedExtendedCardSuccessResponse, Tag("2.0")]
        | Annotated[UnknownGetAuthenticatedExtendedCardResponse, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    Represents a JSON-RPC response for the `agent/getAuthenticatedExtendedCard` method.
    """


class GetTaskSuccessResponse(Model):
    """
    Represents a successful JSON-RPC response for the `tasks/get` method.
    """

    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    result: Task
    """
    The result, containing the requested Task object.
    """


class SendMessageSuccessResponse(Model):
    """
    Represents a successful JSON-RPC response for the `message/send` method.
    """

    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    result: Task | Message
    """
    The result, which can be a direct reply Message or the initial Task object.
    """


class SendStreamingMessageSuccessResponse(Model):
    """
    Represents a successful JSON-RPC response for the `message/stream` method.
    The server may send multiple response objects for a single request.
    """

    id: str | int | None
    """
    The identifier established by the client.
    """
    jsonrpc: Literal["2.0"] = constant_tag("2.0")
    """
    The version of the JSON-RPC protocol. MUST be exactly "2.0".
    """
    result: Task | Message | TaskStatusUpdateEvent | TaskArtifactUpdateEvent
    """
    The result, which can be a Message, Task, or a streaming update event.
    """


class CancelTaskResponse(
    RootModel[
        Annotated[
            Annotated[JSONRPCErrorResponse | CancelTaskSuccessResponse, Tag("2.0")]
            | Annotated[UnknownCancelTaskResponse, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[JSONRPCErrorResponse | CancelTaskSuccessResponse, Tag("2.0")]
        | Annotated[UnknownCancelTaskResponse, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    Represents a JSON-RPC response for the `tasks/cancel` method.
    """


class GetTaskResponse(
    RootModel[
        Annotated[
            Annotated[JSONRPCErrorResponse | GetTaskSuccessResponse, Tag("2.0")]
            | Annotated[UnknownGetTaskResponse, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[JSONRPCErrorResponse | GetTaskSuccessResponse, Tag("2.0")]
        | Annotated[UnknownGetTaskResponse, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    Represents a JSON-RPC response for the `tasks/get` method.
    """


class JSONRPCResponse(
    RootModel[
        Annotated[
            Annotated[
                JSONRPCErrorResponse
                | SendMessageSuccessResponse
                | SendStreamingMessageSuccessResponse
                | GetTaskSuccessResponse
                | CancelTaskSuccessResponse
                | SetTaskPushNotificationConfigSuccessResponse
                | GetTaskPushNotificationConfigSuccessResponse
                | ListTaskPushNotificationConfigSuccessResponse
                | DeleteTaskPushNotificationConfigSuccessResponse
                | GetAuthenticatedExtendedCardSuccessResponse,
                Tag("2.0"),
            ]
            | Annotated[UnknownJSONRPCResponse, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[
            JSONRPCErrorResponse
            | SendMessageSuccessResponse
            | SendStreamingMessageSuccessResponse
            | GetTaskSuccessResponse
            | CancelTaskSuccessResponse
            | SetTaskPushNotificationConfigSuccessResponse
            | GetTaskPushNotificationConfigSuccessResponse
            | ListTaskPushNotificationConfigSuccessResponse
            | DeleteTaskPushNotificationConfigSuccessResponse
            | GetAuthenticatedExtendedCardSuccessResponse,
            Tag("2.0"),
        ]
        | Annotated[UnknownJSONRPCResponse, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    A discriminated union representing all possible JSON-RPC 2.0 responses
    for the A2A specification methods.
    """


class SendMessageResponse(
    RootModel[
        Annotated[
            Annotated[JSONRPCErrorResponse | SendMessageSuccessResponse, Tag("2.0")]
            | Annotated[UnknownSendMessageResponse, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[JSONRPCErrorResponse | SendMessageSuccessResponse, Tag("2.0")]
        | Annotated[UnknownSendMessageResponse, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    Represents a JSON-RPC response for the `message/send` method.
    """


class SendStreamingMessageResponse(
    RootModel[
        Annotated[
            Annotated[JSONRPCErrorResponse | SendStreamingMessageSuccessResponse, Tag("2.0")]
            | Annotated[UnknownSendStreamingMessageResponse, Tag(UNTAGGED)],
            by_tag("jsonrpc", ("2.0",)),
        ]
    ]
):
    root: Annotated[
        Annotated[JSONRPCErrorResponse | SendStreamingMessageSuccessResponse, Tag("2.0")]
        | Annotated[UnknownSendStreamingMessageResponse, Tag(UNTAGGED)],
        by_tag("jsonrpc", ("2.0",)),
    ]
    """
    Represents a JSON-RPC response for the `message/stream` method.
    """


Part: TypeAlias = TextPart | FilePart | DataPart
"""A discriminated union representing a part of a message or artifact, which can be text, a file, or structured data."""


SecurityScheme: TypeAlias = (
    APIKeySecurityScheme
    | HTTPAuthSecurityScheme
    | OAuth2SecurityScheme
    | OpenIdConnectSecurityScheme
    | MutualTLSSecurityScheme
)
"""Defines a security scheme that can be used to secure an agent's endpoints. This is a discriminated union type based on the OpenAPI 3.0 Security Scheme Object."""
