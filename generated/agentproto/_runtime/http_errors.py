"""Typed errors of the HTTP clients.

Every error a client raises is an :class:`APIError`. A response with an unexpected status is an
:class:`APIStatusError` subclass chosen by status, carrying the status, headers, body and
request id; a network failure is an :class:`APIConnectionError` (a timeout, including a stalled
stream, is its subclass :class:`APITimeoutError`). Messages never contain credentials: URLs are
shown with secret-looking query parameters masked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.json_types import JSONValue
from agentproto._runtime.limits import loads
from agentproto._runtime.redact import redact_url

REQUEST_ID_HEADERS = ("x-request-id", "request-id", "x-amzn-requestid", "x-amz-request-id")
_BODY_SNIPPET = 300


def request_id_of(headers: Mapping[str, str]) -> str | None:
    """The request id a server put in its response headers, if any."""
    for name in REQUEST_ID_HEADERS:
        if name in headers:
            return headers[name]
    return None


class APIError(AgentprotoError):
    """Base of every error raised by an agentproto HTTP client."""


class APIConnectionError(APIError):
    """The request did not get a response: DNS, connect, read or write failure."""

    def __init__(self, message: str, *, method: str = "", url: str = "") -> None:
        super().__init__(message)
        self.method = method
        self.url = url


class APITimeoutError(APIConnectionError):
    """The request (or a stream read) took longer than its timeout."""


class PoolTimeoutError(APITimeoutError):
    """Every connection of the client's pool was in use (each open stream holds one) and none
    came free within the call's pool timeout. ``max_connections`` is the pool's size when the
    client built its pool (``Limits.max_connections``), else ``None``."""

    def __init__(
        self, message: str, *, method: str = "", url: str = "", max_connections: int | None = None
    ) -> None:
        super().__init__(message, method=method, url=url)
        self.max_connections = max_connections


class APIStatusError(APIError):
    """The server answered with a status the operation does not expect.

    ``body`` holds at most ``Limits.max_error_body_bytes`` of the body (decoded);
    ``body_truncated`` says whether there was more (it was not read)."""

    status_code: int
    body_truncated: bool = False

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        headers: Mapping[str, str],
        body: bytes,
        method: str,
        url: str,
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.headers: httpx.Headers = httpx.Headers(headers)
        self.body = body
        self.method = method
        self.url = url

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    @property
    def json(self) -> Any:
        """The body parsed as JSON, or ``None`` when it is not JSON (or nested too deeply)."""
        try:
            return loads(self.body)
        except ValueError:
            return None

    @property
    def request_id(self) -> str | None:
        return request_id_of(self.headers)


class BadRequestError(APIStatusError):
    status_code = 400


class AuthenticationError(APIStatusError):
    status_code = 401


class PermissionDeniedError(APIStatusError):
    status_code = 403


class NotFoundError(APIStatusError, LookupError):
    """404. Also a :class:`LookupError`, like a missing key in a mapping."""

    status_code = 404


class RequestTimeoutError(APIStatusError):
    status_code = 408


class ConflictError(APIStatusError):
    status_code = 409


class UnprocessableEntityError(APIStatusError):
    status_code = 422


class RateLimitError(APIStatusError):
    status_code = 429


class InternalServerError(APIStatusError):
    """Any 5xx status."""

    status_code = 500


class ResponseValidationError(APIError):
    """The response (or a stream event) does not match the type the protocol promises."""

    def __init__(self, message: str, *, status_code: int, body: bytes) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.body = body


class ResponseTooLargeError(ResponseValidationError):
    """The response (its body, a line or an event of its stream) is larger than a limit of
    :class:`~agentproto._runtime.limits.Limits`: ``limit`` names it, ``value`` is its setting,
    ``size`` what was read when reading stopped."""

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        body: bytes,
        limit: str,
        value: float,
        size: float | None = None,
    ) -> None:
        super().__init__(message, status_code=status_code, body=body)
        self.limit = limit
        self.value = value
        self.size = size


_BY_STATUS: dict[int, type[APIStatusError]] = {
    cls.status_code: cls
    for cls in (
        BadRequestError,
        AuthenticationError,
        PermissionDeniedError,
        NotFoundError,
        RequestTimeoutError,
        ConflictError,
        UnprocessableEntityError,
        RateLimitError,
    )
}


def status_error_class(status: int) -> type[APIStatusError]:
    if status >= 500:
        return InternalServerError
    return _BY_STATUS.get(status, APIStatusError)


def error_from_response(response: httpx.Response, body: bytes) -> APIStatusError:
    """The typed error for a response whose status was not expected (``body`` already read)."""
    request = response.request
    url = redact_url(str(request.url))
    snippet = _snippet(response, body)
    message = f"{request.method} {url} answered {response.status_code} {response.reason_phrase}"
    if snippet:
        message += f": {snippet}"
    cls = status_error_class(response.status_code)
    error = cls(
        message,
        status_code=response.status_code,
        headers=response.headers,
        body=body,
        method=request.method,
        url=url,
    )
    error.status_code = response.status_code
    return error


def _snippet(response: httpx.Response, body: bytes) -> str:
    if not body:
        return ""
    try:
        data: JSONValue = loads(body)
    except ValueError:  # not JSON, or nested too deeply: shown as text
        data = None
    if isinstance(data, dict):
        for key in ("error", "message", "detail"):
            value = data.get(key)
            if isinstance(value, dict):  # {"error": {"message": ...}}
                value = value.get("message")
            if isinstance(value, str):
                return value[:_BODY_SNIPPET]
    text = body.decode("utf-8", "replace").strip()
    return text[:_BODY_SNIPPET] + ("..." if len(text) > _BODY_SNIPPET else "")
