"""Every exception family agentproto raises, from one public module.

:class:`AgentprotoError` is the root: ``except AgentprotoError`` catches anything the SDK
raised, and each family keeps its builtin base (``NotFoundError`` is a ``LookupError``,
``ConnectionClosed`` a ``ConnectionError``...). Here are the families shared by every protocol
(HTTP, JSON-RPC, agents.json flows, OpenAPI serialisation, a missing optional extra); a
protocol's own errors are exported by its package: ``agentproto.llm`` (``ProviderError`` and
its classes, ``ManifestError``, ``UnsupportedError``...), ``agentproto.skills``
(``SkillSharingError`` and the seven error codes), ``agentproto.aap`` (``CapabilityError``,
``IncompleteTurnError``), ``agentproto.acp`` (``UnstableMethodError``), ``agentproto.mcp``
(``MCPConfigError``).

Names load lazily: importing this module imports none of the runtime.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentproto._runtime.errors import AgentprotoError, MissingExtraError
    from agentproto._runtime.flows import (
        FlowBundleError,
        FlowError,
        FlowHTTPError,
        FlowInputError,
        FlowLinkError,
        FlowResultError,
    )
    from agentproto._runtime.http_errors import (
        APIConnectionError,
        APIError,
        APIStatusError,
        APITimeoutError,
        AuthenticationError,
        BadRequestError,
        ConflictError,
        InternalServerError,
        NotFoundError,
        PermissionDeniedError,
        PoolTimeoutError,
        RateLimitError,
        RequestTimeoutError,
        ResponseTooLargeError,
        ResponseValidationError,
        UnprocessableEntityError,
    )
    from agentproto._runtime.jsonrpc import (
        AuthRequired,
        ConnectionClosed,
        InternalError,
        InvalidParams,
        InvalidRequest,
        MethodNotFound,
        ParseError,
        ProtocolError,
        RequestCancelled,
        ResourceNotFound,
        RpcError,
    )
    from agentproto._runtime.limits import LimitError
    from agentproto._runtime.pool import PoolFullError, ProxySettingError
    from agentproto._runtime.serialise import SerialisationError
    from agentproto._runtime.serve import UnsafeBindError

_HOMES = {
    **dict.fromkeys(("AgentprotoError", "MissingExtraError"), "agentproto._runtime.errors"),
    **dict.fromkeys(
        (
            "FlowBundleError",
            "FlowError",
            "FlowHTTPError",
            "FlowInputError",
            "FlowLinkError",
            "FlowResultError",
        ),
        "agentproto._runtime.flows",
    ),
    "LimitError": "agentproto._runtime.limits",
    **dict.fromkeys(("PoolFullError", "ProxySettingError"), "agentproto._runtime.pool"),
    "SerialisationError": "agentproto._runtime.serialise",
    "UnsafeBindError": "agentproto._runtime.serve",
    **dict.fromkeys(
        (
            "APIConnectionError",
            "APIError",
            "APIStatusError",
            "APITimeoutError",
            "AuthenticationError",
            "BadRequestError",
            "ConflictError",
            "InternalServerError",
            "NotFoundError",
            "PermissionDeniedError",
            "PoolTimeoutError",
            "RateLimitError",
            "RequestTimeoutError",
            "ResponseTooLargeError",
            "ResponseValidationError",
            "UnprocessableEntityError",
        ),
        "agentproto._runtime.http_errors",
    ),
    **dict.fromkeys(
        (
            "AuthRequired",
            "ConnectionClosed",
            "InternalError",
            "InvalidParams",
            "InvalidRequest",
            "MethodNotFound",
            "ParseError",
            "ProtocolError",
            "RequestCancelled",
            "ResourceNotFound",
            "RpcError",
        ),
        "agentproto._runtime.jsonrpc",
    ),
}

__all__ = [
    "APIConnectionError",
    "APIError",
    "APIStatusError",
    "APITimeoutError",
    "AgentprotoError",
    "AuthRequired",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "ConnectionClosed",
    "FlowBundleError",
    "FlowError",
    "FlowHTTPError",
    "FlowInputError",
    "FlowLinkError",
    "FlowResultError",
    "InternalError",
    "InternalServerError",
    "InvalidParams",
    "InvalidRequest",
    "LimitError",
    "MethodNotFound",
    "MissingExtraError",
    "NotFoundError",
    "ParseError",
    "PermissionDeniedError",
    "PoolFullError",
    "PoolTimeoutError",
    "ProtocolError",
    "ProxySettingError",
    "RateLimitError",
    "RequestCancelled",
    "RequestTimeoutError",
    "ResourceNotFound",
    "ResponseTooLargeError",
    "ResponseValidationError",
    "RpcError",
    "SerialisationError",
    "UnprocessableEntityError",
    "UnsafeBindError",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
