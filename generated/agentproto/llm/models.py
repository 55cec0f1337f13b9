"""Generated from schemas/ai_protocol/ai-protocol.v1.1.schema.json. Do not edit: run `codegen build`."""

from __future__ import annotations

from typing import ClassVar, Literal, TypeAlias

from pydantic import ConfigDict, Field, RootModel

from agentproto._runtime.base import Model, Url

SchemaEnum: TypeAlias = Literal[
    "https://raw.githubusercontent.com/ailib-official/ai-protocol/main/schemas/v1.json"
]
"""Schema reference: GitHub raw URL (preferred) or relative path (for local development)"""


class SchemaPattern(RootModel[str]):
    root: str = Field(
        pattern="^(https://raw\\.githubusercontent\\.com/hiddenpath/ai-protocol/(main|master|v\\d+\\.\\d+)/schemas/v1\\.json|\\.\\./schemas/v1\\.json)$",
        title="SchemaPattern",
    )
    """
    Schema reference: GitHub raw URL (preferred) or relative path (for local development)
    """


ProtocolVersion: TypeAlias = Literal["1.1", "1.5"]
"""AI-Protocol version this specification conforms to"""


Status: TypeAlias = Literal["stable", "beta", "deprecated"]
"""Provider status"""


Category: TypeAlias = Literal["ai_provider", "model_provider", "third_party_aggregator"]
"""Provider category"""


Protocol: TypeAlias = Literal["https", "http", "ws", "wss"]
"""Protocol used for communication"""


class Endpoint(Model):
    """
    Structured endpoint definition (v1.1+ extension)
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    base_url: Url
    """
    Absolute base URL of the provider API
    """
    protocol: Protocol | None = None
    """
    Protocol used for communication
    """
    timeout_ms: int | None = Field(default=None, ge=100)
    """
    Default timeout for requests in milliseconds
    """


Region: TypeAlias = Literal["cn", "global", "us", "eu"]


Method: TypeAlias = Literal["HEAD", "GET"]
"""HTTP method for health check"""


class ExpectedStatu(RootModel[int]):
    root: int = Field(ge=100, le=599)


class Check(Model):
    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    method: Method
    """
    HTTP method for health check
    """
    path: str = Field(pattern="^/")
    """
    Path relative to base_url for health check
    """
    expected_status: list[ExpectedStatu] = Field(min_length=1)
    """
    HTTP status codes that indicate healthy state
    """
    timeout_ms: int | None = Field(default=None, ge=100)
    """
    Timeout for health check in milliseconds
    """


class Availability(Model):
    """
    Provider availability configuration and health check (v1.1+ extension)
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    required: bool
    """
    Whether the provider must be reachable at runtime startup
    """
    regions: list[Region] = Field(min_length=1)
    """
    Geographic regions where the provider is available
    """
    check: Check


Type: TypeAlias = Literal["bearer", "api_key", "query_param"]


class ExtraHeader(Model):
    name: str
    value: str


class Auth(Model):
    type: Type
    token_env: str | None = None
    """
    Environment variable containing the token
    """
    param_name: str | None = None
    """
    Query parameter name for auth
    """
    key_env: str | None = None
    """
    Environment variable for API key
    """
    header_name: str | None = None
    """
    Custom header name for API key
    """
    extra_headers: list[ExtraHeader] | None = None


DecoderFormat: TypeAlias = Literal["sse", "anthropic_sse", "gemini_json", "cohere_native"]


class Decoder(Model):
    format: DecoderFormat | None = Field(default=None, title="DecoderFormat")
    strategy: str | None = None
    """
    Specific decoding strategy
    """
    delimiter: str | None = None
    prefix: str | None = None
    done_signal: str | None = None


class Candidate(Model):
    candidate_id_path: str | None = None
    fan_out: bool | None = None


class Accumulator(Model):
    stateful_tool_parsing: bool | None = None
    key_path: str | None = None
    flush_on: str | None = None


Emit: TypeAlias = Literal[
    "PartialContentDelta",
    "ThinkingDelta",
    "PartialToolCall",
    "ToolCallStarted",
    "ToolCallEnded",
    "Metadata",
    "FinalCandidate",
    "StreamEnd",
    "StreamError",
]


class EventMapItem(Model):
    match: str
    emit: Emit
    fields: dict[str, str] | None = None
    extract: dict[str, str] | None = None


class Streaming(Model):
    event_format: str | None = None
    """
    Streaming event format identifier
    """
    decoder: Decoder | None = None
    frame_selector: str | None = None
    """
    JSONPath expression to identify valid frames
    """
    candidate: Candidate | None = None
    accumulator: Accumulator | None = None
    event_map: list[EventMapItem] | None = None
    stop_condition: str | None = None
    extra_metadata_path: str | None = None
    content_path: str | None = None
    tool_call_path: str | None = None
    usage_path: str | None = None


SupportType: TypeAlias = Literal["native", "simulated"]


class MultiCandidate(Model):
    support_type: SupportType
    param_name: str | None = None
    max_concurrent: int | None = None


class ToolCalls(Model):
    path: str | None = None
    filter: str | None = None
    fields: dict[str, str] | None = None
    array_fan_out: bool | None = None
    id_strategy: str | None = None


class Error(Model):
    message_path: str | None = None
    code_path: str | None = None
    type_path: str | None = None
    param_path: str | None = None
    request_id_path: str | None = None
    status_path: str | None = None
    errors_path: str | None = None
    details_path: str | None = None


class ResponseMapping(Model):
    tool_calls: ToolCalls | None = None
    error: Error | None = None


class Features(Model):
    multi_candidate: MultiCandidate | None = None
    response_mapping: ResponseMapping | None = None


class Capabilities(Model):
    """
    Provider capability definitions
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    streaming: bool
    """
    Supports streaming responses
    """
    tools: bool
    """
    Supports tool / function calling
    """
    vision: bool
    """
    Supports image or multimodal inputs
    """
    agentic: bool | None = False
    """
    Supports agentic reasoning and multi-turn tool sequences
    """
    reasoning: bool | None = False
    """
    Supports extended reasoning / thinking blocks
    """
    parallel_tools: bool | None = False
    """
    Supports parallel tool invocations
    """


class Endpoints(Model):
    path: str
    method: str | None = "POST"
    adapter: str | None = None


class Services(Model):
    path: str
    method: str | None = "GET"
    headers: dict[str, str] | None = None
    query_params: dict[str, str] | None = None
    response_binding: str | None = None


class Termination(Model):
    """
    Provider-specific termination fields and mapping guidance.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    source_field: str
    """
    Field name or JSON path where provider reports termination reason (e.g., finish_reason, stop_reason).
    """
    mapping: dict[str, str] | None = None
    """
    Optional mapping from provider-specific reasons to ai-protocol standard termination reasons.
    """
    notes: list[str] | None = None
    """
    Optional human-readable notes about streaming/non-streaming behavior.
    """


SourceModel: TypeAlias = Literal[
    "openai_tool_calls", "anthropic_content_blocks", "gemini_function_call", "unknown"
]
"""How the provider represents tool invocations in responses/streams."""


InputFormat: TypeAlias = Literal["json_string", "json_object", "unknown"]


class ToolUse(Model):
    """
    Field mapping hints for normalizing tool invocation to standard_schema.content_blocks.tool_use.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    id_path: str | None = None
    index_path: str | None = None
    """
    Optional path for tool-call index in streaming deltas when id is not present on every frame.
    """
    name_path: str | None = None
    input_path: str | None = None
    input_format: InputFormat | None = None


ToolResultFormat: TypeAlias = Literal["json_object", "unknown"]


class ToolResult(Model):
    """
    Field mapping hints for normalizing tool results to standard_schema.content_blocks.tool_result.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    id_path: str | None = None
    name_path: str | None = None
    response_path: str | None = None
    output_path: str | None = None
    error_path: str | None = None
    format: ToolResultFormat | None = Field(default=None, title="ToolResultFormat")


class Tooling(Model):
    """
    Provider-specific tool invocation representation and normalization hints.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    source_model: SourceModel
    """
    How the provider represents tool invocations in responses/streams.
    """
    tool_use: ToolUse | None = None
    """
    Field mapping hints for normalizing tool invocation to standard_schema.content_blocks.tool_use.
    """
    tool_result: ToolResult | None = None
    """
    Field mapping hints for normalizing tool results to standard_schema.content_blocks.tool_result.
    """
    notes: list[str] | None = None


class RateLimitHeaders(Model):
    """
    Provider-specific HTTP response headers that expose rate limit information.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    requests_limit: str | None = None
    requests_remaining: str | None = None
    requests_reset: str | None = None
    tokens_limit: str | None = None
    tokens_remaining: str | None = None
    tokens_reset: str | None = None
    retry_after: str | None = None
    """
    Header indicating seconds until retry allowed, if provided by the API.
    """


Strategy: TypeAlias = Literal["none", "exponential_backoff"]
"""Retry strategy to apply for retryable errors."""


Jitter: TypeAlias = Literal["none", "full", "equal"]
"""Optional jitter mode for backoff."""


class ManifestRetryPolicy(Model):
    """
    Provider-specific retry guidance that runtimes can apply consistently.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    strategy: Strategy
    """
    Retry strategy to apply for retryable errors.
    """
    max_retries: int | None = Field(default=None, ge=0)
    """
    Maximum number of retries (not counting the initial attempt).
    """
    min_delay_ms: int | None = Field(default=None, ge=0)
    """
    Minimum delay before the first retry.
    """
    max_delay_ms: int | None = Field(default=None, ge=0)
    """
    Maximum delay cap for exponential backoff.
    """
    jitter: Jitter | None = None
    """
    Optional jitter mode for backoff.
    """
    retry_on_http_status: list[int] | None = None
    """
    HTTP status codes that are considered retryable.
    """
    retry_on_error_status: list[str] | None = None
    """
    Canonical provider error status strings considered retryable (e.g., RESOURCE_EXHAUSTED).
    """
    notes: list[str] | None = None


ByHttpStatus: TypeAlias = Literal[
    "invalid_request",
    "authentication",
    "permission_denied",
    "not_found",
    "quota_exhausted",
    "rate_limited",
    "request_too_large",
    "timeout",
    "conflict",
    "cancelled",
    "server_error",
    "overloaded",
    "other",
]


ByErrorStatus: TypeAlias = Literal[
    "invalid_request",
    "authentication",
    "permission_denied",
    "not_found",
    "quota_exhausted",
    "rate_limited",
    "request_too_large",
    "timeout",
    "conflict",
    "cancelled",
    "server_error",
    "overloaded",
    "other",
]


class ErrorClassification(Model):
    """
    Provider-specific hints for mapping errors into standard_schema.error_handling.error_classes.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    by_http_status: dict[str, ByHttpStatus] | None = None
    """
    Map HTTP status codes (as strings) to standard error_class ids. Values MUST be one of: invalid_request, authentication, permission_denied, not_found, quota_exhausted, rate_limited, request_too_large, timeout, conflict, cancelled, server_error, overloaded, other.
    """
    by_error_status: dict[str, ByErrorStatus] | None = None
    """
    Map provider error status strings (e.g., Google canonical status) to standard error_class ids. Values MUST be one of: invalid_request, authentication, permission_denied, not_found, quota_exhausted, rate_limited, request_too_large, timeout, conflict, cancelled, server_error, overloaded, other.
    """
    notes: list[str] | None = None


class ProviderManifest(Model):
    """
    JSON Schema for AI-Protocol v1.1 provider and model specifications
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
    )
    schema_: SchemaEnum | SchemaPattern | None = Field(
        default=None, validation_alias="$schema", serialization_alias="$schema"
    )
    """
    Schema reference: GitHub raw URL (preferred) or relative path (for local development)
    """
    id: str
    """
    Unique identifier for the provider
    """
    provider_id: str | None = None
    """
    Optional provider identifier used for auth key lookup and compatibility aliases.
    """
    protocol_version: ProtocolVersion
    """
    AI-Protocol version this specification conforms to
    """
    version: str | None = None
    """
    Provider API version
    """
    name: str | None = None
    """
    Human-readable provider name
    """
    status: Status | None = None
    """
    Provider status
    """
    category: Category | None = None
    """
    Provider category
    """
    official_url: Url | None = None
    """
    Official documentation website
    """
    support_contact: Url | None = None
    """
    Support or feedback link
    """
    endpoint: Endpoint
    """
    Structured endpoint definition (v1.1+ extension)
    """
    availability: Availability
    """
    Provider availability configuration and health check (v1.1+ extension)
    """
    base_url_template: str | None = None
    """
    Template for dynamic base URL construction
    """
    auth: Auth | None = None
    payload_format: str | None = None
    """
    Format identifier for request payload structure
    """
    parameter_mappings: dict[str, str] | None = None
    """
    Mapping from standard parameters to provider-specific parameters
    """
    response_format: str | None = None
    """
    Format identifier for response structure
    """
    response_paths: dict[str, str] | None = None
    """
    JSON paths for extracting response data
    """
    streaming: Streaming | None = None
    features: Features | None = None
    capabilities: Capabilities
    """
    Provider capability definitions
    """
    experimental_features: list[str] | None = None
    connection_vars: dict[str, str] | None = None
    """
    Template variables for dynamic URL construction
    """
    api_families: list[str] | None = None
    """
    Declares which API families are supported by this provider configuration (helps avoid mixing incompatible request/response models).
    """
    default_api_family: str | None = None
    """
    The default API family to use when the runtime does not specify one explicitly.
    """
    endpoints: dict[str, Endpoints | Url] | None = None
    """
    Named capability endpoints (e.g., chat, embed, vision).
    """
    services: dict[str, Services] | None = None
    """
    Management service endpoints (e.g., list_models, billing).
    """
    termination: Termination | None = None
    """
    Provider-specific termination fields and mapping guidance.
    """
    tooling: Tooling | None = None
    """
    Provider-specific tool invocation representation and normalization hints.
    """
    rate_limit_headers: RateLimitHeaders | None = None
    """
    Provider-specific HTTP response headers that expose rate limit information.
    """
    retry_policy: ManifestRetryPolicy | None = None
    """
    Provider-specific retry guidance that runtimes can apply consistently.
    """
    error_classification: ErrorClassification | None = None
    """
    Provider-specific hints for mapping errors into standard_schema.error_handling.error_classes.
    """
