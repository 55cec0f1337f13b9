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
Limits (:class:`~agentproto._runtime.limits.Limits`): a body is read within
``max_body_bytes`` once decoded (gzip, deflate and br are inflated within the bound: see
``bodies.py``), an error body within ``max_error_body_bytes`` (the rest is not read, and the
error says so), and a whole call, retries included, within ``call_deadline`` (a stream within
``stream_deadline``) besides the per-read ``timeout``. Responses of streams dropped unclosed
are closed (see ``release.py``); those the garbage collector dropped at the next call.
"""

from __future__ import annotations

import email.utils
import inspect
import logging
import random
import re
import sys
import time
import weakref
from collections.abc import AsyncIterator, Callable, Generator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Final, Generic, Self, TypeGuard, TypeVar, cast
from urllib.parse import quote

import anyio
import httpx
from agentproto._runtime.bodies import ACCEPT_ENCODING, BodyDecoder, _DecodeError
from agentproto._runtime.http_errors import (
    APIConnectionError,
    APIError,
    APIStatusError,
    APITimeoutError,
    PoolTimeoutError,
    ResponseTooLargeError,
    ResponseValidationError,
    error_from_response,
    request_id_of,
)
from agentproto._runtime.limits import DEFAULT_LIMITS, Limits, describe
from agentproto._runtime.pool import AsyncPooledTransport, PoolFullError, environment_mounts
from agentproto._runtime.redact import (
    MASK,
    Secret,
    install_log_filter,
    is_secret_name,
    redact_headers,
    redact_url,
    scrub,
)
from agentproto._runtime.release import (
    Orphans,
    aclose_orphans,
    aclose_shielded,
    pump,
)
from agentproto._runtime.telemetry import inject

if TYPE_CHECKING:  # pydantic is imported when a model is used, not by ``import`` (LLM client)
    from pydantic import BaseModel, RootModel

# unasync: derive-sync

logger: logging.Logger = logging.getLogger("agentproto.http")

T = TypeVar("T")
E = TypeVar("E", bound=APIError)


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


_DEADLINES: weakref.WeakKeyDictionary[httpx.Response, tuple[float | None, bool]] = (
    weakref.WeakKeyDictionary()
)
"""Each response's call deadline (``time.monotonic()`` seconds, or ``None``) and whether it
is a stream's: reading its body checks it between reads."""


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
    are left out (an optional field is absent on the wire, not ``null``); constant fields
    (tags) always sent (:func:`~agentproto._runtime.base.wire_form`)."""
    if _is_model(value):
        from agentproto._runtime.base import wire_form

        return wire_form(value)
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
        limits: Limits | None = None,
        secrets: tuple[str | Secret, ...] = (),
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
        self.limits: Limits = limits if limits is not None else DEFAULT_LIMITS
        self.orphans: Orphans = Orphans()
        """Responses of streams the garbage collector dropped unclosed: closed at the next
        call (see ``release.py``)."""
        held = [Secret(s) for s in secrets]
        if api_key is not None:
            held.append(Secret(api_key))
        names = {n.lower() for n in secret_headers}
        held += [
            Secret(v) for k, v in self._headers.items() if is_secret_name(k) or k.lower() in names
        ]
        self._secrets: tuple[Secret, ...] = tuple(held)
        install_log_filter()

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
        return f"<{type(self).__name__} base_url={redact_url(str(self.base_url))!r} auth={auth}>"

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
        if isinstance(exc, httpx.PoolTimeout):
            return _pool_timeout(call.method, redact_url(url), exc)
        cls = APITimeoutError if isinstance(exc, httpx.TimeoutException) else APIConnectionError
        what = "timed out" if cls is APITimeoutError else f"failed: {type(exc).__name__}"
        shown = redact_url(url)
        return cls(f"{call.method} {shown} {what}", method=call.method, url=shown)

    @staticmethod
    def _broken(request: httpx.Request, exc: httpx.TransportError) -> APIConnectionError:
        """The error for a body that could not be read to its end."""
        url = redact_url(str(request.url))
        if isinstance(exc, httpx.TimeoutException):
            return APITimeoutError(
                f"{request.method} {url}: reading the body timed out",
                method=request.method,
                url=url,
            )
        return APIConnectionError(
            f"{request.method} {url}: reading the body failed: {type(exc).__name__}",
            method=request.method,
            url=url,
        )

    # -- limits -----------------------------------------------------------------------------

    def _deadline(self, stream: bool) -> float | None:
        seconds = self.limits.stream_deadline if stream else self.limits.call_deadline
        return None if seconds is None else time.monotonic() + seconds

    def _timeout_within(self, call: Call, deadline: float | None) -> TimeoutTypes:
        """The call's timeout, each part cut to what is left before ``deadline``."""
        timeout = self._timeout(call)
        if deadline is None:
            return timeout
        left = max(0.001, deadline - time.monotonic())
        given = httpx.Timeout(timeout)

        def cut(value: float | None) -> float:
            return left if value is None else min(value, left)

        return httpx.Timeout(
            connect=cut(given.connect),
            read=cut(given.read),
            write=cut(given.write),
            pool=cut(given.pool),
        )

    def _after_deadline(self, request: httpx.Request, stream: bool) -> APITimeoutError:
        limit = "stream_deadline" if stream else "call_deadline"
        seconds = self.limits.stream_deadline if stream else self.limits.call_deadline
        url = redact_url(str(request.url))
        return APITimeoutError(
            f"{request.method} {url} went past its deadline: Limits.{limit} is "
            f"{describe(limit, seconds)} for the whole {'stream' if stream else 'call'} (each "
            "read has its own timeout besides)",
            method=request.method,
            url=url,
        )

    def _status_error(self, response: httpx.Response, body: bytes, cut: bool) -> APIStatusError:
        """The typed error for an unexpected status, its message free of the credentials this
        client holds (a server may echo them in its body)."""
        error = self._error_factory(response, body)
        if cut:
            error.body_truncated = True
            limit = self.limits.max_error_body_bytes
            error.args = (
                f"{error.args[0] if error.args else error} (body cut at "
                f"{describe('max_error_body_bytes', limit)}: Limits.max_error_body_bytes)",
                *error.args[1:],
            )
        return self.scrubbed(error)

    def scrub_text(self, text: str) -> str:
        """``text`` with the credentials this client holds masked."""
        return scrub(text, self._secrets) if self._secrets else text

    def scrubbed(self, error: E) -> E:
        """``error`` with the credentials this client holds masked in its message."""
        if self._secrets:
            error.args = tuple(
                scrub(a, self._secrets) if isinstance(a, str) else a for a in error.args
            )
        return error

    def _headers_for(self, call: Call) -> dict[str, str]:
        """The call's headers, asking only for encodings decoded within a bound (unless the
        caller names its own), with the current span's W3C trace context (``traceparent``...;
        unless the caller gives its own, and only while a span records)."""
        if any(k.lower() == "accept-encoding" for k in call.headers):
            headers = dict(call.headers)
        else:
            headers = {"Accept-Encoding": ACCEPT_ENCODING, **call.headers}
        if not any(k.lower() == "traceparent" for k in headers):
            inject(headers)
        return headers

    @staticmethod
    def _decode_error(response: httpx.Response, exc: _DecodeError) -> ResponseValidationError:
        request = response.request
        return ResponseValidationError(
            f"{request.method} {redact_url(str(request.url))}: the body cannot be decoded "
            f"({response.headers.get('content-encoding')}): {exc}",
            status_code=response.status_code,
            body=b"",
        )

    def _too_large(self, response: httpx.Response, limit: str, size: int) -> ResponseTooLargeError:
        request = response.request
        value = getattr(self.limits, limit)
        return ResponseTooLargeError(
            f"{request.method} {redact_url(str(request.url))}: the body is larger than "
            f"{describe(limit, value)} (Limits.{limit}; raise it with "
            f"limits=Limits({limit}=...) if this is expected)",
            status_code=response.status_code,
            body=b"",
            limit=limit,
            value=value,
            size=size,
        )


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
        self._http = (
            http_client
            if http_client is not None
            else httpx.AsyncClient(
                transport=AsyncPooledTransport(max_connections=self.limits.max_connections),
                mounts=environment_mounts(self._proxied_pool),
            )
        )
        if http_client is not None:
            self._keep_client_agent(http_client.headers)

    def _proxied_pool(self, proxy: httpx.Proxy) -> AsyncPooledTransport:
        """The pool of a proxy the environment names: as large as the direct one."""
        return AsyncPooledTransport(max_connections=self.limits.max_connections, proxy=proxy)

    async def aclose(self) -> None:
        await aclose_orphans(self.orphans)
        if self._owns_client:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def send(self, call: Call, *, stream: bool) -> httpx.Response:
        """Send ``call`` (built by :meth:`call`) with retries; a status ``call`` does not
        expect raises its typed error. With ``stream`` the body is left unread (read it with
        :meth:`stream_body`); without, it is read (within ``max_body_bytes``) and closed."""
        await aclose_orphans(self.orphans)
        url = self._url(call)
        deadline = self._deadline(stream)
        attempt = 0
        while True:
            request = self._http.build_request(
                call.method,
                url,
                params=call.params or None,
                json=call.json,
                content=call.content,
                headers=self._headers_for(call),
                timeout=self._timeout_within(call, deadline),
            )
            started = time.perf_counter()
            try:
                # unasync: async-only
                with anyio.fail_after(_left(deadline)):
                    response = await self._http.send(
                        request, auth=self._auth_for(call), stream=True
                    )
                # unasync: sync-only
                # response = self._http.send(request, auth=self._auth_for(call), stream=True)
                # unasync: end
            except TimeoutError:
                raise self._after_deadline(request, stream) from None
            except httpx.TransportError as exc:
                # a full pool is not retried: the call waited its whole pool timeout already
                full = isinstance(exc, httpx.PoolTimeout)
                delay = None if full else self._retry_delay(call, attempt, None)
                if delay is None or not _fits(deadline, delay):
                    raise self.scrubbed(self._connection_error(call, exc, str(url))) from exc
                self._log_retry(call, delay, attempt, type(exc).__name__)
                await anyio.sleep(delay)
                attempt += 1
                continue
            _DEADLINES[response] = (deadline, stream)
            self._log_response(response, started)
            if response.status_code in call.expected:
                if not stream:
                    await self.read_body(response)
                return response
            body, cut = await self._read(response, self.limits.max_error_body_bytes, cut=True)
            delay = self._retry_delay(call, attempt, response)
            if delay is None or not _fits(deadline, delay):
                raise self._status_error(response, body, cut)
            self._log_retry(call, delay, attempt, f"status {response.status_code}")
            await anyio.sleep(delay)
            attempt += 1

    async def request(self, call: Call, parse: Callable[[httpx.Response], T]) -> APIResponse[T]:
        return APIResponse(await self.send(call, stream=False), parse)

    async def read_body(self, response: httpx.Response) -> bytes:
        """Read a response's whole body within ``max_body_bytes`` (decoded) and its call's
        deadline, and close it; ``response.content`` then holds it."""
        body, _ = await self._read(response, self.limits.max_body_bytes, cut=False)
        return body

    async def _read(self, response: httpx.Response, limit: int, *, cut: bool) -> tuple[bytes, bool]:
        """The decoded body, at most ``limit`` bytes: past it, ``cut`` keeps what fits and
        stops reading, else :class:`ResponseTooLargeError`. Closes the response."""
        name = "max_error_body_bytes" if cut else "max_body_bytes"
        parts: list[bytes] = []
        size = 0
        truncated = False
        try:
            # unasync: async-only
            with anyio.fail_after(_left(_DEADLINES.get(response, (None, False))[0])):
                async for piece in self.stream_body(response):
                    size += len(piece)
                    if size > limit:
                        if not cut:
                            raise self._too_large(response, name, size)
                        parts.append(piece[: len(piece) - (size - limit)])
                        truncated = True
                        break
                    parts.append(piece)
            # unasync: sync-only
            # for piece in self.stream_body(response):
            #     size += len(piece)
            #     if size > limit:
            #         if not cut:
            #             raise self._too_large(response, name, size)
            #         parts.append(piece[: len(piece) - (size - limit)])
            #         truncated = True
            #         break
            #     parts.append(piece)
            # unasync: end
        except TimeoutError:
            raise self._after_deadline(response.request, False) from None
        except httpx.TransportError as exc:
            raise self._broken(response.request, exc) from exc
        finally:
            await aclose_shielded(response)
        body = b"".join(parts)
        # What ``aread()`` would have kept: parsers read ``response.content`` as usual.
        setattr(response, "_content", body)  # noqa: B010
        return body, truncated

    async def stream_body(self, response: httpx.Response) -> AsyncIterator[bytes]:
        """The decoded body of a streamed response, piece by piece (each at most 256 KiB
        however much a compressed chunk inflates to); past the call's deadline
        :class:`APITimeoutError`, a body that does not decode ``ResponseValidationError``.
        Transport errors are ``httpx``'s (the caller names them)."""
        deadline, stream = _DEADLINES.get(response, (None, False))
        if response.is_stream_consumed:
            # Read already (a transport that answers with a body in hand, e.g. httpx's
            # MockTransport): httpx decoded it when it was made.
            if response.content:
                yield response.content
            return
        decoder = BodyDecoder(response.headers.get("content-encoding"))
        identity = decoder.identity
        # unasync: async-only
        # The stream itself, not ``aiter_raw()`` (which closes the response at the end of the
        # body, in the reader's task), read by a pump in a task of its own: a cancellation of
        # the reader landing inside httpcore's close leaves its connection busy for good (see
        # ``release.py``). The owner closes the response (``aclose_shielded``).
        raw_chunks = cast(httpx.AsyncByteStream, response.stream).__aiter__()
        reader = pump(response, raw_chunks)
        # unasync: sync-only
        # raw_chunks = response.iter_raw()
        # unasync: end
        try:
            while True:
                # unasync: async-only
                raw = await (reader.next() if reader is not None else anext(raw_chunks, None))
                # unasync: sync-only
                # raw = next(raw_chunks, None)
                # unasync: end
                if raw is None:
                    break
                if deadline is not None and time.monotonic() > deadline:
                    raise self._after_deadline(response.request, stream)
                if identity:
                    yield raw
                    continue
                for piece in decoder.feed(raw):
                    yield piece
            for piece in decoder.flush():
                yield piece
        except _DecodeError as exc:
            raise self._decode_error(response, exc) from None


def _pool_timeout(method: str, url: str, exc: httpx.PoolTimeout) -> PoolTimeoutError:
    """The typed error for a call that found no free connection in time: ours names the limit
    (``PoolFullError``), a pool of an ``httpx`` client passed in names ``httpx.Limits``."""
    if isinstance(exc, PoolFullError):
        return PoolTimeoutError(
            f"{method} {url}: {exc}", method=method, url=url, max_connections=exc.max_connections
        )
    return PoolTimeoutError(
        f"{method} {url}: no connection of the http_client's pool came free within the pool "
        "timeout (each open stream holds one): close the streams you are done with, or give "
        "the httpx client larger limits (httpx.Limits(max_connections=...))",
        method=method,
        url=url,
    )


def _left(deadline: float | None) -> float | None:
    """Seconds left before ``deadline`` (``None``: no deadline)."""
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def _fits(deadline: float | None, delay: float) -> bool:
    """Whether waiting ``delay`` seconds still leaves time before ``deadline``."""
    return deadline is None or time.monotonic() + delay < deadline
