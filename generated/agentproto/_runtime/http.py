"""The HTTP runtime every HTTP client of agentproto stands on.

One base, :class:`HTTPBase`, holds the policy: base URL, auth, headers, timeouts, retries,
typed errors and redacted logging. :class:`SyncHTTP` (over ``httpx.Client``) and
:class:`AsyncHTTP` (over ``httpx.AsyncClient``) only move bytes. Both are context managers;
a client built on an ``httpx`` client you pass in leaves closing it to you. ``AsyncHTTP`` is
written once; ``SyncHTTP`` is derived from it when the package is built.

Retries: see :class:`RetryPolicy`. A call is retried only when it is idempotent (GET, HEAD,
PUT, DELETE, or an operation the protocol marks so) unless the call asks for it.

Every request says who sends it: ``User-Agent: agentproto/<version> python/<version>
httpx/<version>`` (:func:`user_agent`), unless the caller gives its own ``User-Agent`` in the
client's ``headers``, a call's headers, or as a default header of the ``httpx`` client it
passes in.
"""

from __future__ import annotations

import email.utils
import inspect
import logging
import random
import re
import sys
import time
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, Generic, Self, TypeGuard, TypeVar
from urllib.parse import quote

import anyio
import httpx

from agentproto._runtime.http_errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    ResponseValidationError,
    error_from_response,
    request_id_of,
)
from agentproto._runtime.redact import MASK, Secret, redact_headers, redact_url

if TYPE_CHECKING:  # pydantic is imported when a model is used, not by ``import`` (LLM client)
    from pydantic import BaseModel, RootModel

# Written once as async code: each blocking twin below (the class or function without
# ``Async``) is derived from its async original by codegen's unasync rewrite.

logger: logging.Logger = logging.getLogger("agentproto.http")

T = TypeVar("T")


class _NotGiven(Enum):
    NOT_GIVEN = "NOT_GIVEN"

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Final = _NotGiven.NOT_GIVEN
"""Marks an argument left out (``None`` can be a real value, e.g. "no timeout")."""
NotGiven = _NotGiven

TimeoutTypes = float | httpx.Timeout | None
AuthHook = Callable[[httpx.Request], httpx.Request]
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=10.0)
_HTTPX_AGENT: Final = f"python-httpx/{httpx.__version__}"


def user_agent() -> str:
    """What agentproto's HTTP clients send as ``User-Agent`` unless told otherwise."""
    from agentproto import __version__

    python = ".".join(str(part) for part in sys.version_info[:3])
    return f"agentproto/{__version__} python/{python} httpx/{httpx.__version__}"


def merge_headers(base: Mapping[str, str], extra: Mapping[str, str] | None) -> dict[str, str]:
    """``base`` with ``extra`` on top; header names compare without case (a ``user-agent``
    in ``extra`` replaces a ``User-Agent`` in ``base``, never goes out beside it)."""
    merged = dict(base)
    for name, value in (extra or {}).items():
        lowered = name.lower()
        for key in [k for k in merged if k.lower() == lowered]:
            del merged[key]
        merged[name] = value
    return merged


@dataclass(frozen=True)
class RetryPolicy:
    """When and how long to wait before trying a request again.

    Retried: connection errors and timeouts (when ``retry_connection_errors``) and the statuses
    in ``statuses`` (408, 409, 429 and every 5xx by default). The wait before retry *n* (0-based)
    is ``min(max_delay, initial_delay * multiplier ** n)``, reduced by up to ``jitter`` of itself
    at random, and never below ``min_delay`` (capped by ``max_delay``) unless the server said
    how long to wait; a ``retry-after-ms`` or ``Retry-After`` (seconds or HTTP date) header of
    at most ``max_retry_after`` seconds replaces it.

    The one retry policy of the package: every client's ``retry=`` takes it, and
    :func:`agentproto.llm.classify.retry_policy` builds one from a provider manifest.
    """

    max_retries: int = 2
    initial_delay: float = 0.5
    max_delay: float = 8.0
    multiplier: float = 2.0
    jitter: float = 0.25
    max_retry_after: float = 60.0
    statuses: frozenset[int] = frozenset({408, 409, 429})
    retry_server_errors: bool = True
    retry_connection_errors: bool = True
    rng: Callable[[], float] = field(default=random.random, repr=False, compare=False)
    # Consulted first for a failed response (its body read): True retries, False gives up,
    # None leaves the decision to ``statuses`` (e.g. a provider's error status in the body).
    should_retry: Callable[[httpx.Response], bool | None] | None = field(
        default=None, repr=False, compare=False
    )
    min_delay: float = 0.0

    @classmethod
    def disabled(cls) -> RetryPolicy:
        return cls(max_retries=0)

    def retries_status(self, status: int) -> bool:
        return status in self.statuses or (self.retry_server_errors and status >= 500)

    def delay(self, attempt: int, headers: Mapping[str, str] | None = None) -> float:
        """Seconds to wait before retry number ``attempt`` (0 for the first retry)."""
        hinted = retry_after(headers) if headers is not None else None
        if hinted is not None and 0 <= hinted <= self.max_retry_after:
            return hinted
        base = min(self.max_delay, self.initial_delay * self.multiplier**attempt)
        wait = max(0.0, base * (1.0 - self.jitter * self.rng()))
        if hinted is None:  # a floor under the jitter, not under what the server asked for
            wait = max(wait, min(self.min_delay, self.max_delay))
        return wait


def retry_after(headers: Mapping[str, str]) -> float | None:
    """The server's wait hint in seconds: ``retry-after-ms``, else ``Retry-After``."""
    lowered = {k.lower(): v for k, v in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return float(millis) / 1000.0
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class BearerAuth(httpx.Auth):
    """``Authorization: Bearer <token>``; the token never shows in ``repr``."""

    def __init__(self, token: str | Secret) -> None:
        self._token = Secret(token)

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = f"Bearer {self._token.reveal()}"
        yield request

    def __repr__(self) -> str:
        return f"BearerAuth({MASK!r})"


class APIResponse(Generic[T]):
    """A response with its parsed value: the raw-response view of a call.

    ``http_response`` is the ``httpx.Response``; :meth:`parse` gives the typed value the plain
    call would return.
    """

    def __init__(self, http_response: httpx.Response, parse: Callable[[httpx.Response], T]):
        self.http_response = http_response
        self._parse = parse

    @property
    def status_code(self) -> int:
        return self.http_response.status_code

    @property
    def headers(self) -> httpx.Headers:
        return self.http_response.headers

    @property
    def request_id(self) -> str | None:
        return request_id_of(self.headers)

    def parse(self) -> T:
        return self._parse(self.http_response)

    def __repr__(self) -> str:
        request = self.http_response.request
        return f"<APIResponse {request.method} {redact_url(str(request.url))} [{self.status_code}]>"


def parse_json(model: type[T]) -> Callable[[httpx.Response], T]:
    """A parser validating a JSON body against ``model`` (a pydantic model or any type)."""
    from pydantic import BaseModel, TypeAdapter, ValidationError

    validate: Callable[[bytes], T]
    # Not every type is a class at run time: ``list[Item]`` is a generic alias.
    if inspect.isclass(model) and issubclass(model, BaseModel):
        validate = model.model_validate_json
    else:
        validate = TypeAdapter(model).validate_json

    def parse(response: httpx.Response) -> T:
        try:
            return validate(response.content)
        except ValidationError as exc:
            raise ResponseValidationError(
                f"{response.request.method} {redact_url(str(response.request.url))}: the "
                f"response does not match {getattr(model, '__name__', model)}: {exc}",
                status_code=response.status_code,
                body=response.content,
            ) from None

    return parse


def parse_nothing(response: httpx.Response) -> None:
    return None


def to_json(value: Any) -> Any:
    """A request body in wire form: models by alias; fields never set, or set to ``None``,
    are left out (an optional field is absent on the wire, not ``null``)."""
    if _is_model(value):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True, exclude_none=True)
    return value


def _is_model(value: object) -> TypeGuard[BaseModel]:
    if "pydantic" not in sys.modules:
        return False  # no model can exist before pydantic is imported
    from pydantic import BaseModel

    return isinstance(value, BaseModel)


def _is_root_model(value: object) -> TypeGuard[RootModel[Any]]:
    if "pydantic" not in sys.modules:
        return False
    from pydantic import RootModel

    return isinstance(value, RootModel)


def query_value(value: Any) -> str:
    """One query parameter value as text (enums by value, booleans as true/false)."""
    if _is_root_model(value):
        value = value.root
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def format_path(template: str, **params: Any) -> str:
    """``template`` with each ``{name}`` replaced by its parameter, escaped so it stays one
    path segment (``/`` and ``..`` cannot climb out of it)."""

    def value(match: re.Match[str]) -> str:
        text = quote(query_value(params[match.group(1)]), safe="")
        if text in ("", ".", ".."):
            raise ValueError(f"path parameter {match.group(1)!r} cannot be {text!r}")
        return text

    return re.sub(r"{([A-Za-z_][A-Za-z0-9_]*)}", value, template)


M = TypeVar("M", bound="BaseModel")


def coerce(model: type[M], value: M | Mapping[str, Any]) -> M:
    """``value`` as a ``model``: an instance as is, a mapping validated (wire or Python names)."""
    if isinstance(value, model):
        return value
    return model.model_validate(value)


def build_query(params: Mapping[str, Any]) -> dict[str, str]:
    return {k: query_value(v) for k, v in sorted(params.items()) if v is not None}


@dataclass(frozen=True)
class Call:
    """One request as the client means it, before retries: built by `HTTPBase.call`."""

    method: str
    path: str
    params: Mapping[str, str]
    json: Any
    headers: Mapping[str, str]
    timeout: TimeoutTypes | _NotGiven
    retries: bool
    expected: tuple[int, ...]
    auth: httpx.Auth | AuthHook | _NotGiven | None = NOT_GIVEN
    content: str | bytes | None = None  # a body that is not JSON (``json`` is then None)


class HTTPBase:
    """Policy shared by the sync and async flavours (never used on its own)."""

    def __init__(
        self,
        base_url: str | httpx.URL,
        *,
        api_key: str | Secret | None = None,
        auth: httpx.Auth | AuthHook | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        secret_headers: tuple[str, ...] = (),
        error_factory: Callable[[httpx.Response, bytes], APIStatusError] | None = None,
    ) -> None:
        if api_key is not None and auth is not None:
            raise ValueError("give either api_key or auth, not both")
        url = httpx.URL(str(base_url))
        if not url.raw_path.endswith(b"/"):
            url = url.copy_with(raw_path=url.raw_path + b"/")
        self.base_url = url
        self._base = str(url) if str(url).endswith("/") else str(url) + "/"
        self.retry: RetryPolicy = retry if retry is not None else RetryPolicy()
        self.timeout = timeout
        self._auth: httpx.Auth | AuthHook | None = (
            BearerAuth(api_key) if api_key is not None else auth
        )
        self._headers = merge_headers({"User-Agent": user_agent()}, headers)
        self._secret_headers = secret_headers
        self._error_factory = error_factory or error_from_response

    def _keep_client_agent(self, client_headers: httpx.Headers) -> None:
        """An ``httpx`` client passed in with its own ``User-Agent``: that one is sent (unless
        ``headers`` gave one too)."""
        theirs = client_headers.get("user-agent")
        if (
            theirs is not None
            and theirs != _HTTPX_AGENT
            and self._headers.get("User-Agent") == user_agent()
        ):
            del self._headers["User-Agent"]

    def __repr__(self) -> str:
        auth = "set" if self._auth is not None else "none"
        return f"<{type(self).__name__} base_url={str(self.base_url)!r} auth={auth}>"

    # -- building ---------------------------------------------------------------------------

    def call(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        headers: Mapping[str, str] | None = None,
        timeout: TimeoutTypes | _NotGiven = NOT_GIVEN,
        idempotent: bool | None = None,
        retry: bool | None = None,
        expected: tuple[int, ...] = (200,),
        auth: httpx.Auth | AuthHook | _NotGiven | None = NOT_GIVEN,
    ) -> Call:
        """A request as the caller means it (``auth`` replaces the client's for this call)."""
        if retry is None:
            retry = idempotent if idempotent is not None else method in IDEMPOTENT_METHODS
        return Call(
            method=method,
            path=path.lstrip("/"),
            params=build_query(params or {}),
            json=to_json(json),
            headers=merge_headers(self._headers, headers),
            timeout=timeout,
            retries=retry,
            expected=expected,
            auth=auth,
        )

    def _url(self, call: Call) -> str:
        """The call's absolute URL: its path under the base URL (which ends in ``/``), or the
        path itself when it is already absolute. Plain concatenation: paths are made by
        ``format_path``, which escapes parameters and refuses ``.``/``..`` segments."""
        if "://" in call.path:
            return call.path
        return self._base + call.path

    def _auth_for(self, call: Call) -> httpx.Auth | AuthHook | None:
        return self._auth if isinstance(call.auth, _NotGiven) else call.auth

    def _timeout(self, call: Call) -> TimeoutTypes:
        return self.timeout if isinstance(call.timeout, _NotGiven) else call.timeout

    def _retry_delay(
        self, call: Call, attempt: int, response: httpx.Response | None
    ) -> float | None:
        """Seconds before trying again, or ``None`` to give up."""
        if not call.retries or attempt >= self.retry.max_retries:
            return None
        if response is None:
            if not self.retry.retry_connection_errors:
                return None
            return self.retry.delay(attempt)
        verdict = self.retry.should_retry(response) if self.retry.should_retry else None
        if verdict is None:
            verdict = self.retry.retries_status(response.status_code)
        if not verdict:
            return None
        return self.retry.delay(attempt, response.headers)

    def _log_response(self, response: httpx.Response, started: float) -> None:
        if logger.isEnabledFor(logging.DEBUG):
            request = response.request
            logger.debug(
                "%s %s -> %s in %.1f ms; request headers %s",
                request.method,
                redact_url(str(request.url)),
                response.status_code,
                (time.perf_counter() - started) * 1000,
                redact_headers(request.headers.multi_items(), self._secret_headers),
            )

    def _log_retry(self, call: Call, delay: float, attempt: int, why: str) -> None:
        logger.info(
            "retrying %s %s in %.2f s (retry %d of %d) after %s",
            call.method,
            redact_url(self._url(call)),
            delay,
            attempt + 1,
            self.retry.max_retries,
            why,
        )

    @staticmethod
    def _connection_error(call: Call, exc: httpx.TransportError, url: str) -> APIConnectionError:
        cls = APITimeoutError if isinstance(exc, httpx.TimeoutException) else APIConnectionError
        what = "timed out" if cls is APITimeoutError else f"failed: {type(exc).__name__}"
        return cls(f"{call.method} {redact_url(url)} {what}", method=call.method, url=url)


class SyncHTTP(HTTPBase):
    """Moves the bytes over an ``httpx.Client``."""

    def __init__(
        self,
        base_url: str | httpx.URL,
        *,
        http_client: httpx.Client | None = None,
        **options: Any,
    ) -> None:
        super().__init__(base_url, **options)
        self._owns_client = http_client is None
        self._http = http_client if http_client is not None else httpx.Client()
        if http_client is not None:
            self._keep_client_agent(http_client.headers)

    def close(self) -> None:
        if self._owns_client:
            self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, call: Call, *, stream: bool) -> httpx.Response:
        """Send ``call`` (built by :meth:`call`) with retries; a status ``call`` does not
        expect raises its typed error. With ``stream`` the body is left unread."""
        url = self._url(call)
        attempt = 0
        while True:
            request = self._http.build_request(
                call.method,
                url,
                params=call.params or None,
                json=call.json,
                content=call.content,
                headers=call.headers,
                timeout=self._timeout(call),
            )
            started = time.perf_counter()
            try:
                response = self._http.send(request, auth=self._auth_for(call), stream=stream)
            except httpx.TransportError as exc:
                delay = self._retry_delay(call, attempt, None)
                if delay is None:
                    raise self._connection_error(call, exc, str(url)) from exc
                self._log_retry(call, delay, attempt, type(exc).__name__)
                time.sleep(delay)
                attempt += 1
                continue
            self._log_response(response, started)
            if response.status_code in call.expected:
                return response
            try:
                body = response.read()
            except httpx.TransportError as exc:
                raise self._connection_error(call, exc, str(url)) from exc
            finally:
                response.close()
            delay = self._retry_delay(call, attempt, response)
            if delay is None:
                raise self._error_factory(response, body)
            self._log_retry(call, delay, attempt, f"status {response.status_code}")
            time.sleep(delay)
            attempt += 1

    def request(self, call: Call, parse: Callable[[httpx.Response], T]) -> APIResponse[T]:
        return APIResponse(self.send(call, stream=False), parse)


class AsyncHTTP(HTTPBase):
    """Moves the bytes over an ``httpx.AsyncClient``."""

    def __init__(
        self,
        base_url: str | httpx.URL,
        *,
        http_client: httpx.AsyncClient | None = None,
        **options: Any,
    ) -> None:
        super().__init__(base_url, **options)
        self._owns_client = http_client is None
        self._http = http_client if http_client is not None else httpx.AsyncClient()
        if http_client is not None:
            self._keep_client_agent(http_client.headers)

    async def aclose(self) -> None:
        if self._owns_client:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def send(self, call: Call, *, stream: bool) -> httpx.Response:
        """Send ``call`` (built by :meth:`call`) with retries; a status ``call`` does not
        expect raises its typed error. With ``stream`` the body is left unread."""
        url = self._url(call)
        attempt = 0
        while True:
            request = self._http.build_request(
                call.method,
                url,
                params=call.params or None,
                json=call.json,
                content=call.content,
                headers=call.headers,
                timeout=self._timeout(call),
            )
            started = time.perf_counter()
            try:
                response = await self._http.send(request, auth=self._auth_for(call), stream=stream)
            except httpx.TransportError as exc:
                delay = self._retry_delay(call, attempt, None)
                if delay is None:
                    raise self._connection_error(call, exc, str(url)) from exc
                self._log_retry(call, delay, attempt, type(exc).__name__)
                await anyio.sleep(delay)
                attempt += 1
                continue
            self._log_response(response, started)
            if response.status_code in call.expected:
                return response
            try:
                body = await response.aread()
            except httpx.TransportError as exc:
                raise self._connection_error(call, exc, str(url)) from exc
            finally:
                await response.aclose()
            delay = self._retry_delay(call, attempt, response)
            if delay is None:
                raise self._error_factory(response, body)
            self._log_retry(call, delay, attempt, f"status {response.status_code}")
            await anyio.sleep(delay)
            attempt += 1

    async def request(self, call: Call, parse: Callable[[httpx.Response], T]) -> APIResponse[T]:
        return APIResponse(await self.send(call, stream=False), parse)
