"""Generated from schemas/skills/skills.schema.json. Do not edit: run `codegen build`."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias

from pydantic import AwareDatetime, Field

from agentproto._runtime.base import Model, Url, constant_tag

CapabilityType: TypeAlias = Literal["plugin", "api", "knowledge", "task"]
"""Capability category of a skill (§3.4.1): plugin (extension), api (API service), knowledge (knowledge pack or data source), task (task execution by humans or automation)."""


AccessPolicy: TypeAlias = Literal["public", "restricted", "private"]
"""Access control policy (§3.4.2, §7.3): public (anyone), restricted (listed to all, invocable by authorised consumers), private (hidden from unauthenticated discovery; discovery and invocation need authentication)."""


AuthType: TypeAlias = Literal["api_key", "oauth2", "custom", "none"]
"""Authentication method required to invoke a skill (§3.4.3)."""


ExecutionStatus: TypeAlias = Literal["accepted", "running", "completed", "failed", "timeout"]
"""Execution status of an invocation (§3.4.4). completed, failed and timeout are terminal."""


class ParameterDefinition(Model):
    """
    Definition of one input parameter (§3.5.2); also used for custom-auth parameters.
    """

    name: str = Field(min_length=1)
    """
    Parameter name.
    """
    type: str
    """
    JSON Schema type name (e.g. "string", "number", "object").
    """
    description: str | None = None
    """
    Human-readable description of the parameter.
    """
    required: bool | None = False
    """
    Whether the parameter must be supplied.
    """
    default: Any | None = None
    """
    Value used when the parameter is not supplied.
    """
    schema_: dict[str, Any] | None = Field(
        default=None, validation_alias="schema", serialization_alias="schema"
    )
    """
    Nested JSON Schema for complex types.
    """


class OutputDefinition(Model):
    """
    Output format definition (§3.5.4).
    """

    content_type: str
    """
    MIME type of the output (e.g. "application/json").
    """
    schema_: dict[str, Any] | None = Field(
        default=None, validation_alias="schema", serialization_alias="schema"
    )
    """
    JSON Schema of the output structure.
    """
    description: str | None = None
    """
    Human-readable description of the output.
    """


class ProviderInfo(Model):
    """
    Information about a skill provider (§3.2, §4.3.2). Only name is required.
    """

    name: str = Field(min_length=1)
    """
    Provider name.
    """
    url: Url | None = None
    """
    Provider home page.
    """
    contact: str | None = None
    """
    Contact (e-mail address or URL).
    """


HttpMethod: TypeAlias = Literal["GET", "POST", "PUT", "DELETE"]
"""HTTP method of an invocation endpoint (§3.5.3)."""


class EndpointRetry(Model):
    """
    Retry configuration of an invocation endpoint (§3.5.3).
    """

    max_attempts: int = Field(ge=0)
    """
    Maximum number of attempts.
    """
    backoff_ms: int = Field(ge=0)
    """
    Base backoff between attempts in milliseconds.
    """


class ApiKeyAuthConfig(Model):
    """
    API key authentication (§7.2.1): the key is sent in the HTTP header named by `header`.
    """

    type: Literal["api_key"] = constant_tag("api_key")
    """
    Authentication type tag.
    """
    description: str | None = None
    """
    Human-readable description of the authentication requirement.
    """
    header: str | None = Field(default=None, min_length=1)
    """
    Name of the HTTP header carrying the API key.
    """


class NoneAuthConfig(Model):
    """
    No authentication (§7.2.4).
    """

    type: Literal["none"] = constant_tag("none")
    """
    Authentication type tag.
    """
    description: str | None = None
    """
    Human-readable description of the authentication requirement.
    """


class OAuth2Config(Model):
    """
    OAuth 2.0 configuration (§3.5.5).
    """

    authorization_url: Url
    """
    OAuth 2.0 authorization URL.
    """
    token_url: Url
    """
    OAuth 2.0 token URL.
    """
    scopes: dict[str, str] | None = None
    """
    Available scopes: scope name to description.
    """


class CustomAuthSettings(Model):
    """
    Custom authentication configuration (§3.5.5).
    """

    instructions: str
    """
    Human-readable instructions for the custom authentication flow.
    """
    parameters: list[ParameterDefinition] | None = None
    """
    Parameters the custom authentication needs.
    """


class CallerInfo(Model):
    """
    Identity of the caller of an invocation (§5.3).
    """

    id: str = Field(min_length=1)
    """
    Unique identifier of the caller.
    """
    type: str
    """
    Caller type (e.g. "ifay", "service", "user").
    """
    credentials: dict[str, Any] | None = None
    """
    Authentication credentials.
    """


InvocationPriority: TypeAlias = Literal["low", "normal", "high"]
"""Execution priority of an invocation (§5.3)."""


class InvocationContext(Model):
    """
    Invocation context (§5.3).
    """

    trace_id: str | None = None
    """
    Distributed tracing identifier.
    """
    priority: InvocationPriority | None = None
    """
    Execution priority.
    """
    timeout_ms: int | None = Field(default=None, ge=0)
    """
    Client-side timeout in milliseconds.
    """


class RetryAdvice(Model):
    """
    Retry advice attached to an error (§5.4, §8.2); both fields are required when present.
    """

    suggested_delay_ms: int = Field(ge=0)
    """
    Suggested delay before retrying, in milliseconds.
    """
    max_attempts: int = Field(ge=0)
    """
    Maximum number of retry attempts.
    """


class ExecutionError(Model):
    """
    Error information of a failed or timed-out execution (§5.4). The code is a free string here, unlike the error envelope's seven codes.
    """

    code: str
    """
    Error code.
    """
    message: str
    """
    Human-readable error message.
    """
    details: Any | None = None
    """
    Additional error details.
    """
    retry: RetryAdvice | None = None
    """
    Retry advice.
    """


class ExecutionTimestamps(Model):
    """
    Timestamps of an execution (§5.4), ISO 8601.
    """

    created_at: AwareDatetime | None = None
    """
    When the execution was created.
    """
    updated_at: AwareDatetime | None = None
    """
    When the execution was last updated.
    """
    completed_at: AwareDatetime | None = None
    """
    When the execution completed.
    """


ErrorCode: TypeAlias = Literal[
    "VALIDATION_ERROR",
    "AUTH_REQUIRED",
    "PERMISSION_DENIED",
    "SKILL_NOT_FOUND",
    "INVOCATION_TIMEOUT",
    "ENDPOINT_UNREACHABLE",
    "VERSION_INCOMPATIBLE",
]
"""The seven protocol error codes (§8.1)."""


class ErrorInfo(Model):
    """
    Body of the unified error envelope (§8.2).
    """

    code: ErrorCode
    """
    One of the seven error codes.
    """
    message: str
    """
    Human-readable error message.
    """
    details: Any | None = None
    """
    Additional context-specific error details (for VALIDATION_ERROR: an array of ValidationErrorDetail; for VERSION_INCOMPATIBLE: VersionIncompatibleDetails).
    """
    retry: RetryAdvice | None = None
    """
    Retry advice.
    """


class ErrorResponse(Model):
    """
    Unified error envelope (§8.2) that every error response MUST follow.
    """

    error: ErrorInfo
    """
    The error.
    """


class ValidationErrorDetail(Model):
    """
    One entry of a VALIDATION_ERROR's details array (§8.3.1).
    """

    path: str
    """
    JSON Pointer to the invalid field.
    """
    message: str
    """
    What failed.
    """
    expected: Any | None = None
    """
    Expected value or type.
    """
    actual: Any | None = None
    """
    Value or type actually found.
    """


class VersionIncompatibleDetails(Model):
    """
    Details of a VERSION_INCOMPATIBLE error (§6.4, §8.3.7).
    """

    descriptor_version: str | None = Field(
        default=None,
        pattern="^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$",
        title="SemVer",
    )
    """
    Protocol version the descriptor requires.
    """
    consumer_version: str | None = Field(
        default=None,
        pattern="^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$",
        title="SemVer",
    )
    """
    Protocol version of the consumer.
    """
    supported_major: int | None = Field(default=None, ge=0)
    """
    Highest MAJOR version the consumer supports.
    """


class SkillIndexEntry(Model):
    """
    One entry of a Skill Index (§4.3.3): summary of a skill and the URL of its full descriptor.
    """

    id: str = Field(min_length=1)
    """
    Unique skill identifier.
    """
    name: str
    """
    Human-readable skill name.
    """
    capability_type: CapabilityType
    """
    Capability category of the skill.
    """
    description: str
    """
    Short description of the skill.
    """
    descriptor_url: Url
    """
    URL of the skill's full Skill Descriptor.
    """
    access: AccessPolicy
    """
    Access control policy of the skill.
    """
    version: str = Field(
        pattern="^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$",
        title="SemVer",
    )
    """
    Skill version (SemVer).
    """


class InvocationRequest(Model):
    """
    Invocation request (§5.3): sent by the consumer to the skill's endpoint URL to start an execution.
    """

    caller: CallerInfo
    """
    Identity of the caller.
    """
    skill_id: str = Field(min_length=1)
    """
    Identifier of the target skill.
    """
    inputs: dict[str, Any]
    """
    Input parameters as name/value pairs.
    """
    context: InvocationContext | None = None
    """
    Invocation context (tracing, priority, client timeout).
    """


class InvocationResponse(Model):
    """
    Invocation response (§5.4): returned by the provider at every stage of an execution (accepted, running, completed, failed, timeout). `output` is present when status is completed; `error` when status is failed or timeout.
    """

    execution_id: str = Field(min_length=1)
    """
    Unique identifier of this execution.
    """
    status: ExecutionStatus
    """
    Current execution status.
    """
    skill_id: str
    """
    Identifier of the target skill.
    """
    output: Any | None = None
    """
    Output data; present when status is completed.
    """
    error: ExecutionError | None = None
    """
    Error information; present when status is failed or timeout.
    """
    timestamps: ExecutionTimestamps | None = None
    """
    Execution timestamps.
    """


class ProtocolVersion(Model):
    """
    Protocol version information (§3.5.1, §6.2).
    """

    version: str = Field(
        pattern="^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$",
        title="SemVer",
    )
    """
    Protocol version, SemVer (e.g. "1.0.0").
    """
    changelog_url: Url | None = None
    """
    URL of the version changelog.
    """


class InvocationEndpoint(Model):
    """
    Invocation endpoint configuration (§3.5.3, §5.5): the invocation URL, and the status and result URL templates with an {execution_id} placeholder.
    """

    url: Url
    """
    Invocation URL the InvocationRequest is sent to.
    """
    method: HttpMethod
    """
    HTTP method of the invocation request.
    """
    content_type: str | None = "application/json"
    """
    Request content type.
    """
    status_url: str
    """
    Status endpoint template with an {execution_id} placeholder.
    """
    result_url: str | None = None
    """
    Result endpoint template with an {execution_id} placeholder.
    """
    timeout_ms: int | None = Field(default=None, ge=0)
    """
    Invocation timeout in milliseconds.
    """
    retry: EndpointRetry | None = None
    """
    Retry configuration.
    """


class OAuth2AuthConfig(Model):
    """
    OAuth 2.0 authentication (§7.2.2); `oauth2` is required.
    """

    type: Literal["oauth2"] = constant_tag("oauth2")
    """
    Authentication type tag.
    """
    description: str | None = None
    """
    Human-readable description of the authentication requirement.
    """
    oauth2: OAuth2Config
    """
    OAuth 2.0 configuration.
    """


class CustomAuthConfig(Model):
    """
    Custom authentication (§7.2.3); `custom` is required.
    """

    type: Literal["custom"] = constant_tag("custom")
    """
    Authentication type tag.
    """
    description: str | None = None
    """
    Human-readable description of the authentication requirement.
    """
    custom: CustomAuthSettings
    """
    Custom authentication configuration.
    """


class InvocationStatusResponse(InvocationResponse):
    """
    Response of a status poll (GET status_url, §5.2, §10.1 step 5): an InvocationResponse carrying the current status.
    """


class InvocationResult(InvocationResponse):
    """
    Response of a result fetch (GET result_url, §5.2): an InvocationResponse, normally with status completed and its output.
    """


class SkillIndex(Model):
    """
    Skill Index (§4.3.2): the document served at /.well-known/skill-sharing, listing the skills a provider domain declares. Skill ids MUST be unique within one index (§4.3.4; not expressible in JSON Schema, checked by the SDK).
    """

    protocol: ProtocolVersion
    """
    Protocol version.
    """
    provider: ProviderInfo
    """
    Provider information (name required, url optional).
    """
    skills: list[SkillIndexEntry]
    """
    Skill index entries; ids must be unique.
    """


class SkillDescriptor(Model):
    """
    Skill Descriptor (§3): the metadata document that fully describes one skill: identity, capability, interface, invocation and access control. It MUST validate against this schema before it is used (§3.1).
    """

    protocol: ProtocolVersion
    """
    Protocol version this descriptor follows (§6.2).
    """
    id: str = Field(min_length=1)
    """
    Globally unique skill identifier.
    """
    name: str
    """
    Human-readable skill name.
    """
    version: str = Field(
        pattern="^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$",
        title="SemVer",
    )
    """
    Skill version, SemVer (e.g. "1.0.0").
    """
    capability_type: CapabilityType
    """
    Capability category of the skill.
    """
    description: str
    """
    Human-readable description of what the skill does.
    """
    provider: ProviderInfo
    """
    Who provides the skill (name is required).
    """
    endpoint: InvocationEndpoint
    """
    Invocation endpoint configuration.
    """
    inputs: list[ParameterDefinition]
    """
    Input parameter definitions (may be empty).
    """
    output: OutputDefinition
    """
    Output format definition.
    """
    auth: ApiKeyAuthConfig | OAuth2AuthConfig | CustomAuthConfig | NoneAuthConfig = Field(
        discriminator="type", title="AuthConfig"
    )
    """
    Authentication required to invoke the skill.
    """
    access: AccessPolicy
    """
    Access control policy.
    """
    tags: list[str] | None = None
    """
    Tags for search and categorisation.
    """
    documentation_url: Url | None = None
    """
    URL of the skill's documentation.
    """
    created_at: AwareDatetime | None = None
    """
    Creation timestamp (ISO 8601).
    """
    updated_at: AwareDatetime | None = None
    """
    Last update timestamp (ISO 8601).
    """


AuthConfig: TypeAlias = Annotated[
    ApiKeyAuthConfig | OAuth2AuthConfig | CustomAuthConfig | NoneAuthConfig,
    Field(discriminator="type"),
]
"""Authentication configuration (§3.5.5, §7.2), tagged by `type`."""


SemVer: TypeAlias = Annotated[
    str,
    Field(
        pattern="^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$"
    ),
]
"""Semantic Versioning 2.0.0 version string, MAJOR.MINOR.PATCH with non-negative integers and no leading zeros (§6.1); SemVer pre-release and build suffixes are accepted."""
