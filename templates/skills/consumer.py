"""The Skill Sharing consumer: discovery, validation, invocation and polling (hand-written).

:class:`SkillsClient` (blocking) and :class:`AsyncSkillsClient` share one policy core. Every
decision the spec leaves open is written down in the package README ("Skill Sharing
decisions"); in short:

- a descriptor is validated (and its protocol MAJOR checked) before every invocation, and an
  invalid or incompatible one is never sent;
- credentials go only where the descriptor's ``auth`` says: ``api_key`` in ``auth.header``
  (``X-API-Key`` when absent), ``oauth2`` as ``Authorization: Bearer``, ``custom`` by your
  signing hook, ``none`` nothing, and nothing else; ``caller.credentials`` is only sent when you
  set it; a missing credential raises AUTH_REQUIRED before anything is sent, with the §8.3.2
  details (``required_auth_type``, ``header`` / ``authorization_url``, ``token_url``,
  ``scopes`` / ``instructions``, ``parameters``) and a retry hint of one attempt;
- where no descriptor says (discovery, registry search, descriptor fetches) the API key goes in
  ``Credentials.api_key_header`` (``X-API-Key`` unless you name another) and the token as a
  bearer, and only to trusted origins: the domain you ``discover``, the registry you search,
  and the origins you list in ``Credentials.origins``. A ``descriptor_url`` on any other origin
  (say, one a hostile index lists) is fetched without credentials; redirects are not followed;
- ``status_url``/``result_url`` get ``{execution_id}`` substituted (percent-encoded), or
  ``/<execution_id>`` appended when they have no placeholder; relative URLs resolve against
  ``endpoint.url``;
- polling starts at ``poll_interval`` (50 ms, so a fast skill answers fast) and doubles up to
  ``max_poll_interval`` (5 s); it goes on while the execution runs, until the consumer's own
  deadline: ``wait(timeout)``, else ``context.timeout_ms``, else the client's ``wait_timeout``
  (300 s; None waits as long as the provider reports the execution running). The provider's
  ``endpoint.timeout_ms`` does not end polling: the provider reports its own ``timeout``
  status. Passing the deadline raises INVOCATION_TIMEOUT locally; ``result_url`` is fetched
  only when a completed status carries no output;
- ENDPOINT_UNREACHABLE and INVOCATION_TIMEOUT are retried with exponential backoff (§8.3.6):
  from ``endpoint.retry.backoff_ms``, or from the error's own ``retry.suggested_delay_ms`` when
  the provider sent advice, doubling each time, each pause at most ``MAX_RETRY_DELAY`` (30 s);
  ``max_attempts`` (the advice's, else the descriptor's, else 3) counts every attempt and is
  capped at ``MAX_ATTEMPTS`` (10); ``invoke`` is retried only when the provider cannot have run
  it (connection failure, 502/503);
- what a provider sends is bounded by ``limits=`` (:class:`~agentproto._runtime.limits.Limits`):
  a body past ``max_body_bytes`` or JSON nested past ``max_json_depth`` is a VALIDATION_ERROR,
  never a bare exception; messages built from a provider's answer mask the credentials the
  client holds (a provider may echo them back).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, Self, TypeVar
from urllib.parse import quote, urljoin

import anyio
import httpx
import pydantic
from agentproto._runtime.http import AsyncHTTP, Call, HTTPBase, RetryPolicy
from agentproto._runtime.http_errors import (
    APIConnectionError,
    APIError,
    APIStatusError,
    APITimeoutError,
)
from agentproto._runtime.limits import Limits
from agentproto._runtime.redact import Secret, scrub
from agentproto._runtime.telemetry import shared
from agentproto.skills.documents import parse, parse_index, pointer, to_document, validate
from agentproto.skills.errors import (
    BY_STATUS,
    ERRORS,
    AuthRequiredError,
    CancelNotSupportedError,
    EndpointUnreachableError,
    ExecutionFailedError,
    InvocationTimeoutError,
    SkillSharingError,
    ValidationError,
)
from agentproto.skills.models import (
    ApiKeyAuthConfig,
    CallerInfo,
    CapabilityType,
    CustomAuthConfig,
    ErrorResponse,
    ExecutionStatus,
    InvocationContext,
    InvocationRequest,
    InvocationResponse,
    InvocationResult,
    InvocationStatusResponse,
    OAuth2AuthConfig,
    RetryAdvice,
    SkillDescriptor,
    SkillIndex,
    ValidationErrorDetail,
)
from agentproto.skills.oauth2 import OAuth2Grant, TokenCache
from agentproto.skills.semver import CONSUMER_VERSION, check_compatible

# unasync: derive-sync

INSTRUMENTATION = "agentproto.skills"
"""The instrumentation name of the Skill Sharing spans (consumer and provider kit)."""
logger: logging.Logger = logging.getLogger("agentproto.skills")

WELL_KNOWN = "/.well-known/skill-sharing"
DEFAULT_API_KEY_HEADER = "X-API-Key"
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "timeout"})
DEFAULT_ATTEMPTS = 3
DEFAULT_BACKOFF_MS = 500
MAX_ATTEMPTS = 10  # a provider's retry advice cannot make the consumer try more often
MAX_RETRY_DELAY = 30.0  # seconds: the longest pause between two attempts
DEFAULT_WAIT_TIMEOUT = 300.0  # seconds: the consumer's own deadline when nothing else sets one
AUTH_RETRY = RetryAdvice(suggested_delay_ms=0, max_attempts=1)  # §8.3.2: once, with credentials
R = TypeVar("R", bound=pydantic.BaseModel)
Signer = Callable[[httpx.Request, CustomAuthConfig], httpx.Request]


@dataclass(frozen=True)
class Credentials:
    """What the consumer can present; which one is sent depends on the descriptor's ``auth``.

    ``sign`` is the hook for ``custom`` auth: it gets the request and the descriptor's custom
    settings (instructions, parameters) and returns the signed request. ``api_key_header`` is
    the header the key goes in where no descriptor names one (discovery, registry search,
    descriptor fetches: a provider whose private skills take ``X-Internal-Key``);
    ``origins`` are the extra origins (``https://host[:port]``) those requests may send the
    credentials to, beyond the domain you discover and the registry you search. ``oauth2``
    is a grant (:class:`~agentproto.skills.oauth2.OAuth2Grant`: client credentials or a
    refresh token) the client uses to obtain ``oauth2`` skills' access tokens itself, from
    their descriptors' ``token_url`` and scopes (``oauth2_token``, when given, wins).
    """

    api_key: Secret | None = None
    oauth2_token: Secret | None = None
    sign: Signer | None = None
    api_key_header: str = DEFAULT_API_KEY_HEADER
    origins: frozenset[str] = frozenset()
    oauth2: OAuth2Grant | None = None

    @classmethod
    def of(
        cls,
        *,
        api_key: str | Secret | None = None,
        oauth2_token: str | Secret | None = None,
        sign: Signer | None = None,
        api_key_header: str = DEFAULT_API_KEY_HEADER,
        origins: Iterable[str] = (),
        oauth2: OAuth2Grant | None = None,
    ) -> Credentials:
        return cls(
            api_key=Secret(api_key) if api_key is not None else None,
            oauth2_token=Secret(oauth2_token) if oauth2_token is not None else None,
            sign=sign,
            api_key_header=api_key_header,
            origins=frozenset(origin_of(o) for o in origins),
            oauth2=oauth2,
        )

    def secrets(self) -> tuple[Secret, ...]:
        """The credentials held (masked in messages built from a provider's answer)."""
        held = tuple(s for s in (self.api_key, self.oauth2_token) if s is not None)
        return held + (self.oauth2.secrets() if self.oauth2 is not None else ())

    def discovery_headers(self) -> dict[str, str]:
        """Headers for discovery, where no descriptor says which scheme to use."""
        headers: dict[str, str] = {}
        if self.api_key is not None:
            headers[self.api_key_header] = self.api_key.reveal()
        if self.oauth2_token is not None:
            headers["Authorization"] = f"Bearer {self.oauth2_token.reveal()}"
        return headers


def origin_of(url: str) -> str:
    """``scheme://host:port`` of a URL (default port filled in), for origin comparisons."""
    parsed = httpx.URL(url if "://" in url else f"https://{url}")
    port = parsed.port or {"http": 80, "https": 443}.get(parsed.scheme, 0)
    return f"{parsed.scheme}://{parsed.host}:{port}"


def auth_headers(descriptor: SkillDescriptor, credentials: Credentials) -> dict[str, str]:
    """The headers ``descriptor.auth`` asks for; AUTH_REQUIRED (locally) when one is missing."""
    auth = descriptor.auth
    if isinstance(auth, ApiKeyAuthConfig):
        header = auth.header or DEFAULT_API_KEY_HEADER
        if credentials.api_key is None:
            raise AuthRequiredError(
                f"skill {descriptor.id!r} needs an API key in header {header}",
                details={"required_auth_type": "api_key", "header": header},
                retry=AUTH_RETRY,
            )
        return {header: credentials.api_key.reveal()}
    if isinstance(auth, OAuth2AuthConfig):
        if credentials.oauth2_token is None:
            raise AuthRequiredError(
                f"skill {descriptor.id!r} needs an OAuth 2.0 access token",
                details={
                    "required_auth_type": "oauth2",
                    "authorization_url": str(auth.oauth2.authorization_url),
                    "token_url": str(auth.oauth2.token_url),
                    "scopes": dict(auth.oauth2.scopes or {}),
                },
                retry=AUTH_RETRY,
            )
        return {"Authorization": f"Bearer {credentials.oauth2_token.reveal()}"}
    if isinstance(auth, CustomAuthConfig) and credentials.sign is None:
        raise AuthRequiredError(
            f"skill {descriptor.id!r} uses custom auth: pass Credentials(sign=...)",
            details={
                "required_auth_type": "custom",
                "instructions": auth.custom.instructions,
                "parameters": [
                    p.model_dump(mode="json", by_alias=True, exclude_none=True)
                    for p in auth.custom.parameters or []
                ],
            },
            retry=AUTH_RETRY,
        )
    return {}


def signer_hook(
    descriptor: SkillDescriptor, credentials: Credentials
) -> Callable[[httpx.Request], httpx.Request] | None:
    auth = descriptor.auth
    if isinstance(auth, CustomAuthConfig) and credentials.sign is not None:
        sign = credentials.sign
        return lambda request: sign(request, auth)
    return None


def execution_url(template: str, endpoint_url: str, execution_id: str) -> str:
    """``status_url``/``result_url`` for one execution (see the module docs)."""
    escaped = quote(execution_id, safe="")
    if "{execution_id}" in template:
        url = template.replace("{execution_id}", escaped)
    else:
        url = template.rstrip("/") + "/" + escaped
    return urljoin(endpoint_url, url)


def discovery_url(domain: str) -> str:
    """``example.com`` or ``https://example.com/base`` -> its well-known Skill Index URL."""
    base = domain if "://" in domain else f"https://{domain}"
    return base.rstrip("/") + WELL_KNOWN


def error_from(exc: APIError, secrets: Iterable[Secret] = ()) -> SkillSharingError:
    """The protocol error for a failed HTTP exchange (§8.1, §8.2); ``secrets`` are masked in
    its message (a provider may echo a credential back)."""
    if isinstance(exc, APITimeoutError):
        return InvocationTimeoutError(f"no answer in time from {exc.url}")
    if isinstance(exc, APIConnectionError):
        return EndpointUnreachableError(f"cannot reach {exc.url}: {exc}")
    if not isinstance(exc, APIStatusError):  # a body past a limit, or one that cannot be read
        return ValidationError(f"the provider's answer is not usable: {exc}")
    envelope = None
    try:
        envelope = ErrorResponse.model_validate_json(exc.body)
    except pydantic.ValidationError:
        pass
    if envelope is not None:
        info = envelope.error
        cls = ERRORS.get(info.code, SkillSharingError)
        return cls(
            scrub(info.message, secrets),
            details=info.details,
            retry=info.retry,
            status_code=exc.status_code,
        )
    cls = BY_STATUS.get(exc.status_code, SkillSharingError)
    return cls(scrub(str(exc), secrets), status_code=exc.status_code)


@dataclass(frozen=True)
class _Attempts:
    """Retry budget for one call: ``endpoint.retry`` or the defaults."""

    max_attempts: int
    backoff_ms: int

    def delay(self, attempt: int, error: SkillSharingError) -> float | None:
        """Seconds before attempt ``attempt + 1``, or None to give up: exponential from the
        error's ``suggested_delay_ms`` (or ``backoff_ms``), bounded (see the module docs)."""
        limit, base_ms = self.max_attempts, float(self.backoff_ms)
        if error.retry is not None:
            limit, base_ms = int(error.retry.max_attempts), float(error.retry.suggested_delay_ms)
        if attempt >= min(limit, MAX_ATTEMPTS):
            return None
        return min(MAX_RETRY_DELAY, max(0.0, base_ms) * 2.0 ** (attempt - 1) / 1000)


class _Core:
    """Policy shared by both flavours: URLs, requests, validation, error mapping."""

    def __init__(
        self,
        *,
        credentials: Credentials | None,
        caller: CallerInfo | None,
        consumer_version: str,
        poll_interval: float,
        max_poll_interval: float,
        wait_timeout: float | None,
    ) -> None:
        self.credentials = credentials or Credentials()
        self.caller = caller or CallerInfo(id="agentproto-skills", type="agent")
        self.consumer_version = consumer_version
        self.poll_interval = poll_interval
        self.max_poll_interval = max_poll_interval
        self.wait_timeout = wait_timeout
        self.trusted: set[str] = set()  # origins the caller named: discovered, searched
        self.tokens = TokenCache()  # OAuth 2.0 access tokens the client obtained

    def unauthenticated_headers(self, url: str, credentials: Credentials) -> dict[str, str]:
        """Discovery-style credentials for ``url``, or none when its origin is not trusted."""
        origin = origin_of(url)
        if origin in self.trusted or origin in credentials.origins:
            return credentials.discovery_headers()
        return {}

    @staticmethod
    def read_index(
        body: bytes, type: CapabilityType | None, limits: Limits | None = None
    ) -> SkillIndex:
        """A fetched Skill Index, validated, version-checked and filtered by ``type``."""
        index = parse_index(body) if limits is None else parse_index(body, limits=limits)
        check_compatible(index.protocol.version)
        if type is not None:
            index = index.model_copy(
                update={"skills": [s for s in index.skills if s.capability_type == type]}
            )
        return index

    def ready(self, descriptor: SkillDescriptor | Mapping[str, Any]) -> SkillDescriptor:
        """Validate (§3.1, §10.1) and version-check (§6.4) a descriptor before use."""
        if isinstance(descriptor, SkillDescriptor):
            report = validate(to_document(descriptor))
            if not report.valid:
                raise ValidationError(
                    f"invalid SkillDescriptor at {report.errors[0].path}: "
                    f"{report.errors[0].message}",
                    details=report.errors,
                )
        else:
            descriptor = parse(descriptor)
        check_compatible(descriptor.protocol.version, self.consumer_version)
        return descriptor

    def invocation(
        self,
        http: HTTPBase,
        descriptor: SkillDescriptor,
        inputs: Mapping[str, Any],
        context: InvocationContext | None,
        credentials: Credentials,
        caller_credentials: Mapping[str, Any] | None,
    ) -> Call:
        caller = self.caller
        if caller_credentials is not None:
            caller = caller.model_copy(update={"credentials": dict(caller_credentials)})
        request = InvocationRequest(
            caller=caller, skill_id=descriptor.id, inputs=dict(inputs), context=context
        )
        endpoint = descriptor.endpoint
        headers = auth_headers(descriptor, credentials)
        headers["Content-Type"] = endpoint.content_type or "application/json"
        return http.call(
            endpoint.method,
            str(endpoint.url),
            json=request,
            headers=headers,
            idempotent=False,
            retry=False,
            expected=(200, 201, 202),
            auth=signer_hook(descriptor, credentials),
        )

    @staticmethod
    def get(
        http: HTTPBase,
        url: str,
        descriptor: SkillDescriptor | None,
        credentials: Credentials,
        headers: Mapping[str, str] | None,
        params: Mapping[str, Any] | None,
    ) -> Call:
        if descriptor is not None:
            headers = {**auth_headers(descriptor, credentials), **(headers or {})}
        return http.call(
            "GET",
            url,
            headers=headers,
            params=params,
            retry=False,
            auth=signer_hook(descriptor, credentials) if descriptor is not None else None,
        )

    @staticmethod
    def attempts(descriptor: SkillDescriptor) -> _Attempts:
        retry = descriptor.endpoint.retry
        if retry is None:
            return _Attempts(DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS)
        return _Attempts(max(1, retry.max_attempts), retry.backoff_ms)

    def deadline(self, context: InvocationContext | None) -> float | None:
        """The consumer's own deadline (see the module docs); never the provider's."""
        if context is not None and context.timeout_ms is not None:
            return time.monotonic() + context.timeout_ms / 1000
        if self.wait_timeout is not None:
            return time.monotonic() + self.wait_timeout
        return None

    @staticmethod
    def retryable(error: SkillSharingError, *, idempotent: bool) -> bool:
        if isinstance(error, EndpointUnreachableError):
            return True  # the provider did not run it (connection failure, 502/503)
        return idempotent and isinstance(error, InvocationTimeoutError)


def _parse_response(model: type[R], response: httpx.Response) -> R:
    try:
        return model.model_validate_json(response.content)
    except pydantic.ValidationError as exc:
        issues = [
            ValidationErrorDetail(
                path=pointer(e["loc"]), message=e["msg"], expected=e["type"], actual=e.get("input")
            )
            for e in exc.errors()
        ]
        raise ValidationError(
            f"the provider's answer is not a valid {model.__name__}: {issues[0].message}",
            details=issues,
        ) from None


class AsyncDocumentGetter(Protocol):
    """How an execution reads its status and result: its client's GET, with the skill's auth
    and the client's retry policy."""

    async def __call__(
        self,
        url: str,
        model: type[R],
        descriptor: SkillDescriptor | None,
        credentials: Credentials,
    ) -> R: ...


class AsyncExecution:
    """A started execution: poll it, wait for it, read its result."""

    def __init__(
        self,
        client: AsyncSkillsClient,
        descriptor: SkillDescriptor,
        response: InvocationResponse,
        credentials: Credentials,
        deadline: float | None,
        get: AsyncDocumentGetter,
    ) -> None:
        self.client = client
        self.descriptor = descriptor
        self.last: InvocationResponse = response
        self._credentials = credentials
        self._deadline = deadline
        self._get = get

    @property
    def execution_id(self) -> str:
        return self.last.execution_id

    @property
    def credentials(self) -> Credentials:
        """The credentials the execution was started with (its polls and cancel use them)."""
        return self._credentials

    @property
    def status(self) -> ExecutionStatus:
        return self.last.status

    @property
    def done(self) -> bool:
        return self.last.status in TERMINAL

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.execution_id!r} of {self.descriptor.id!r}: "
            f"{self.status}>"
        )

    async def poll(self) -> InvocationStatusResponse:
        """One status request (§5.5)."""
        endpoint = self.descriptor.endpoint
        url = execution_url(endpoint.status_url, str(endpoint.url), self.execution_id)
        with shared(INSTRUMENTATION).span(
            f"skills poll {self.descriptor.id}",
            {"skills.skill.id": self.descriptor.id, "skills.execution.id": self.execution_id},
            kind="client",
        ) as span:
            status = await self._get(
                url, InvocationStatusResponse, self.descriptor, self._credentials
            )
            span.set("skills.execution.status", status.status)
        self.last = status
        return status

    async def fetch_result(self) -> InvocationResult:
        """The result document at ``result_url`` (§5.2)."""
        template = self.descriptor.endpoint.result_url
        if template is None:
            raise ValueError(f"skill {self.descriptor.id!r} declares no result_url")
        url = execution_url(template, str(self.descriptor.endpoint.url), self.execution_id)
        result = await self._get(url, InvocationResult, self.descriptor, self._credentials)
        self.last = result
        return result

    async def cancel(self) -> InvocationStatusResponse:
        """Ask the provider to cancel the execution (an agentproto extension, off the spec:
        ``POST {status_url}/cancel``; the provider kit offers it) and return the status it
        answers: ``failed`` with the code ``CANCELLED`` once cancelled, still ``running`` while
        the cancellation travels to the process running it (poll or :meth:`wait`), or the
        final status of an execution that had already ended.
        :class:`~agentproto.skills.errors.CancelNotSupportedError` when the provider does not
        offer it."""
        status = await self.client.cancel_execution(self)
        self.last = status
        return status

    async def wait(self, timeout: float | None = None) -> InvocationResponse:
        """Poll until completed, failed or timeout and return the last response.

        ``timeout`` (seconds) replaces the deadline taken from the context or the descriptor.
        """
        with shared(INSTRUMENTATION).span(
            f"skills wait {self.descriptor.id}",
            {"skills.skill.id": self.descriptor.id, "skills.execution.id": self.execution_id},
        ) as span:
            final = await self._wait(timeout)
            span.set("skills.execution.status", final.status)
            return final

    async def _wait(self, timeout: float | None) -> InvocationResponse:
        deadline = time.monotonic() + timeout if timeout is not None else self._deadline
        interval = self.client.poll_interval
        while not self.done:
            if deadline is not None and time.monotonic() >= deadline:
                raise InvocationTimeoutError(
                    f"execution {self.execution_id!r} not finished before the deadline",
                    details={"execution_id": self.execution_id, "status": self.status},
                )
            pause = interval if deadline is None else min(interval, deadline - time.monotonic())
            await anyio.sleep(max(0.0, pause))
            interval = min(interval * 2, self.client.max_poll_interval)
            await self.poll()
        return self.last

    async def result(self, timeout: float | None = None) -> Any:
        """Wait, then the output of a completed execution; a failure or timeout raises."""
        final = await self.wait(timeout)
        if final.status == "completed":
            if "output" not in final.model_fields_set and self.descriptor.endpoint.result_url:
                final = await self.fetch_result()
            return final.output
        if final.status == "timeout":
            error = final.error
            raise InvocationTimeoutError(
                error.message if error else "the execution timed out",
                details=error.details if error else None,
                retry=error.retry if error else None,
            )
        raise ExecutionFailedError(final)


class AsyncSkillsClient:
    """Skill Sharing consumer (see the module docs for every policy)."""

    def __init__(
        self,
        *,
        credentials: Credentials | None = None,
        caller: CallerInfo | None = None,
        timeout: float = 30.0,
        http_client: httpx.AsyncClient | None = None,
        consumer_version: str = CONSUMER_VERSION,
        poll_interval: float = 0.05,
        max_poll_interval: float = 5.0,
        wait_timeout: float | None = DEFAULT_WAIT_TIMEOUT,
        limits: Limits | None = None,
    ) -> None:
        self._core = _Core(
            credentials=credentials,
            caller=caller,
            consumer_version=consumer_version,
            poll_interval=poll_interval,
            max_poll_interval=max_poll_interval,
            wait_timeout=wait_timeout,
        )
        # Retries are decided here, per the protocol's rules, not by the HTTP layer.
        self._http = AsyncHTTP(
            "http://localhost/",
            timeout=timeout,
            retry=RetryPolicy.disabled(),
            http_client=http_client,
            limits=limits,
            secrets=self._core.credentials.secrets(),
        )
        self.poll_interval = poll_interval
        self.max_poll_interval = max_poll_interval

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} consumer_version={self._core.consumer_version}>"

    async def _send(self, call: Call, credentials: Credentials | None = None) -> httpx.Response:
        try:
            return await self._http.send(call, stream=False)
        except APIError as exc:
            held = (credentials or self._core.credentials).secrets()
            raise error_from(exc, held) from None

    async def _retrying(
        self,
        descriptor: SkillDescriptor | None,
        idempotent: bool,
        send: Callable[[], Awaitable[httpx.Response]],
    ) -> httpx.Response:
        budget = (
            self._core.attempts(descriptor)
            if descriptor is not None
            else _Attempts(DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS)
        )
        attempt = 1
        while True:
            try:
                return await send()
            except SkillSharingError as error:
                delay = budget.delay(attempt, error)
                if delay is None or not self._core.retryable(error, idempotent=idempotent):
                    raise
                logger.info(
                    "retrying after %s in %.2f s (attempt %d)", error.code, delay, attempt + 1
                )
                await anyio.sleep(delay)
                attempt += 1

    async def _get(
        self,
        url: str,
        model: type[R],
        descriptor: SkillDescriptor | None,
        credentials: Credentials,
        headers: Mapping[str, str] | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> R:
        creds = await self._authorised(descriptor, credentials)
        call = self._core.get(self._http, url, descriptor, creds, headers, params)
        response = await self._retrying(descriptor, True, lambda: self._send(call, creds))
        return _parse_response(model, response)

    async def _authorised(
        self, descriptor: SkillDescriptor | None, credentials: Credentials
    ) -> Credentials:
        """``credentials`` with an access token for an ``oauth2`` skill, obtained (or taken
        from the cache) with the grant they hold; unchanged for any other skill."""
        grant = credentials.oauth2
        if (
            descriptor is None
            or grant is None
            or credentials.oauth2_token is not None
            or TokenCache.config(descriptor) is None
        ):
            return credentials
        found = self._core.tokens.request(descriptor, grant)
        if isinstance(found, str):
            return dataclasses.replace(credentials, oauth2_token=Secret(found))
        call = dataclasses.replace(
            self._http.call("POST", found.url, headers=found.headers, retry=False),
            content=found.form,
        )
        try:
            response = await self._http.send(call, stream=False)
        except APIStatusError as exc:
            self._core.tokens.store(found, exc.status_code, exc.body, grant)
            raise  # store() raised: the endpoint refused
        except APIError as exc:
            raise error_from(exc, credentials.secrets()) from None
        token = self._core.tokens.store(found, response.status_code, response.content, grant)
        return dataclasses.replace(credentials, oauth2_token=Secret(token))

    def _refused(self, descriptor: SkillDescriptor, credentials: Credentials) -> bool:
        """After a 401: forget the access token the grant obtained; True to try once more."""
        if credentials.oauth2 is None or credentials.oauth2_token is None:
            return False
        self._core.tokens.forget(descriptor, credentials.oauth2, credentials.oauth2_token.reveal())
        return True

    # -- discovery ----------------------------------------------------------------------------

    async def discover(
        self,
        domain: str,
        *,
        type: CapabilityType | None = None,
        credentials: Credentials | None = None,
    ) -> SkillIndex:
        """The Skill Index a domain serves at ``/.well-known/skill-sharing`` (§4.3), validated
        (duplicate ids are an error), optionally filtered by capability type (§4.5)."""
        creds = credentials or self._core.credentials
        params = {"type": type} if type is not None else None
        url = discovery_url(domain)
        self._core.trusted.add(origin_of(url))  # the caller named it
        call = self._http.call("GET", url, headers=creds.discovery_headers(), params=params)
        with shared(INSTRUMENTATION).span(
            f"skills discover {domain}", {"skills.domain": domain}, kind="client"
        ) as span:
            response = await self._retrying(None, True, lambda: self._send(call, creds))
            index = self._core.read_index(response.content, type, self._http.limits)
            span.set("skills.count", len(index.skills))
            return index

    async def search_registry(
        self,
        registry_url: str,
        *,
        type: CapabilityType | None = None,
        credentials: Credentials | None = None,
    ) -> SkillIndex:
        """``GET {registry}/skills?type=`` (§4.2), read as a Skill Index; ``credentials``
        (else the client's) go to the registry in the discovery headers."""
        creds = credentials or self._core.credentials
        params = {"type": type} if type is not None else None
        url = registry_url.rstrip("/") + "/skills"
        self._core.trusted.add(origin_of(url))  # the caller named it
        call = self._http.call("GET", url, headers=creds.discovery_headers(), params=params)
        response = await self._retrying(None, True, lambda: self._send(call, creds))
        return self._core.read_index(response.content, type, self._http.limits)

    async def get_descriptor(
        self, url: str, *, credentials: Credentials | None = None
    ) -> SkillDescriptor:
        """A descriptor by URL, validated against the schema (VALIDATION_ERROR otherwise).

        Credentials go along only to a trusted origin (see the module docs): a descriptor URL
        on another host is fetched anonymously unless ``Credentials.origins`` lists it."""
        creds = credentials or self._core.credentials
        call = self._http.call("GET", url, headers=self._core.unauthenticated_headers(url, creds))
        response = await self._retrying(None, True, lambda: self._send(call, creds))
        return parse(response.content, limits=self._http.limits)

    # -- invocation ---------------------------------------------------------------------------

    async def invoke(
        self,
        descriptor: SkillDescriptor | Mapping[str, Any],
        inputs: Mapping[str, Any],
        *,
        context: InvocationContext | None = None,
        credentials: Credentials | None = None,
        caller_credentials: Mapping[str, Any] | None = None,
    ) -> AsyncExecution:
        """Start an execution and return its handle (nothing is sent for an invalid or
        incompatible descriptor, or when its auth needs credentials you did not give)."""
        ready = self._core.ready(descriptor)
        with shared(INSTRUMENTATION).span(
            f"execute_tool {ready.id}",
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": ready.id,
                "gen_ai.tool.type": "extension",
                "skills.skill.id": ready.id,
                "skills.skill.version": ready.version,
            },
            kind="client",
        ) as span:
            execution = await self._invoke(ready, inputs, context, credentials, caller_credentials)
            span.set("skills.execution.id", execution.execution_id)
            span.set("skills.execution.status", execution.status)
            return execution

    async def _invoke(
        self,
        ready: SkillDescriptor,
        inputs: Mapping[str, Any],
        context: InvocationContext | None,
        credentials: Credentials | None,
        caller_credentials: Mapping[str, Any] | None,
    ) -> AsyncExecution:
        held = credentials or self._core.credentials
        deadline = self._core.deadline(context)
        for attempt in (1, 2):
            creds = await self._authorised(ready, held)
            call = self._core.invocation(
                self._http, ready, inputs, context, creds, caller_credentials
            )
            try:
                response = await self._retrying(
                    ready, False, functools.partial(self._send, call, creds)
                )
            except AuthRequiredError as error:
                # the provider refused a token the grant obtained (revoked, expired early):
                # it did not run the skill, so once more with a fresh one
                if attempt == 2 or not error.from_provider or not self._refused(ready, creds):
                    raise
                continue
            started = _parse_response(InvocationResponse, response)
            return AsyncExecution(self, ready, started, held, deadline, self._get)
        raise AssertionError("unreachable")  # pragma: no cover

    async def cancel_execution(self, execution: AsyncExecution) -> InvocationStatusResponse:
        """``execution.cancel()``: see :meth:`AsyncExecution.cancel`."""
        descriptor = execution.descriptor
        creds = await self._authorised(descriptor, execution.credentials)
        endpoint = descriptor.endpoint
        url = execution_url(endpoint.status_url, str(endpoint.url), execution.execution_id)
        call = self._http.call(
            "POST",
            url.rstrip("/") + "/cancel",
            headers=auth_headers(descriptor, creds),
            retry=False,
            expected=(200, 202),
            auth=signer_hook(descriptor, creds),
        )
        try:
            response = await self._retrying(descriptor, True, lambda: self._send(call, creds))
        except SkillSharingError as error:
            if error.from_provider and error.status_code in (404, 405, 501):
                raise CancelNotSupportedError(
                    f"{origin_of(url)} does not cancel execution {execution.execution_id!r}: "
                    f"{error.message}",
                    details={"execution_id": execution.execution_id, "code": error.code},
                    status_code=error.status_code,
                ) from None
            raise
        return _parse_response(InvocationStatusResponse, response)

    async def invoke_and_wait(
        self,
        descriptor: SkillDescriptor | Mapping[str, Any],
        inputs: Mapping[str, Any],
        *,
        context: InvocationContext | None = None,
        credentials: Credentials | None = None,
        timeout: float | None = None,
    ) -> Any:
        """Invoke, poll to the end, and return the output (failures raise)."""
        execution = await self.invoke(descriptor, inputs, context=context, credentials=credentials)
        return await execution.result(timeout)
