"""The provider kit: publish skills over HTTP (an ASGI app built on Starlette; hand-written).

Needs the ``provider`` extra (``pip install agentproto[provider]``)::

    provider = SkillProvider({"name": "Acme"}, base_url="https://skills.acme.dev",
                             api_keys={"key-123": "alice"})

    @provider.skill(id="acme/translate", name="Translate", capability_type="api",
                    description="Translate text", version="1.0.0",
                    inputs=[{"name": "text", "type": "string", "required": True}],
                    auth={"type": "api_key", "header": "X-API-Key"}, access="restricted")
    async def translate(inputs, request):
        return {"text": inputs["text"][::-1]}

    app = provider.app   # serve with any ASGI server

Routes (relative to ``base_url``'s path): ``GET /.well-known/skill-sharing`` (the Skill Index:
private skills only for authenticated callers, ``?type=`` filter), ``GET
/skills/{id}/descriptor``, ``POST /skills/{id}/invoke`` (202 ``accepted`` and the execution runs
in the background: accepted -> running -> completed / failed / timeout), ``GET
/executions/{execution_id}`` and ``GET /executions/{execution_id}/result``. A caller is
authenticated by an API key in ``X-API-Key`` (or the header its skill's auth names) found in
``api_keys``, or by a bearer token ``verify_token`` accepts, or by ``verify_custom`` for
``custom`` skills; a private skill is listed for any credential its descriptor accepts. Only
the kind of credential a skill's ``auth`` names is accepted for it: an API key does not open an
``oauth2`` skill, nor a bearer token an ``api_key`` one (a skill with ``auth: none`` and a
restricted access takes either).

Safe to expose:

- handlers run off the event loop: a plain function in a worker thread
  (``anyio.to_thread``), a coroutine function on the loop (it must not block); the skill's
  ``timeout_ms`` (or the request's ``context.timeout_ms``, or ``default_timeout_ms``: the
  smallest wins) is enforced: past it the execution ends ``timeout`` while the server keeps
  serving (a thread cannot be killed: a blocking handler's late result is dropped). At most
  ``max_handler_threads`` (default 16) plain handlers run at once, counting those that outlived
  their timeout and still hold their thread: an execution waiting for a thread waits within
  its own timeout, so handlers stuck forever cost a bounded number of threads, not one each;
- every request passes :class:`~agentproto._runtime.guard.Guard` first: its ``Host`` must be
  an allowed one (``allowed_hosts``; by default loopback names on a loopback address), a
  browser's ``Origin`` a listed one (``allowed_origins``; none by default), a body JSON
  (never ``text/plain`` or a form, what a web page sends without a preflight);
- a request body larger than ``Limits.max_document_bytes`` (or nested deeper than
  ``max_json_depth``) is refused (VALIDATION_ERROR) before it is parsed, and one that does
  not arrive whole within ``Limits.request_body_deadline`` (30 s) is answered 408
  (VALIDATION_ERROR) and the connection closed: a client dripping its body holds nothing
  for long (headers are the ASGI server's business: ``python -m agentproto.skills.serve``
  serves with a head deadline and connection caps, see docs/limits.md);
- an execution belongs to the principal that created it: anyone else (another principal, or
  an anonymous caller) gets 404 for its status and result;
- every error response (unknown routes, wrong methods, handler and hook exceptions included)
  is the §8.2 envelope with one of the seven codes, §8.3 details (``required_auth_type``, the
  header, the OAuth URLs...) and retry advice where the spec gives it; exception text goes to
  the ``agentproto.skills.provider`` logger only, never to the caller (a handler that wants a
  message to reach the caller raises a ``SkillSharingError``);
- the execution store is bounded: an execution is kept ``execution_ttl`` seconds (default
  3600) after its last change and at most ``max_executions`` (default 10,000) are kept, the
  oldest evicted first;
- an output that cannot be encoded as JSON (NaN, a datetime, a set...) ends the execution
  ``failed`` with the code ``OUTPUT_NOT_JSON``; a NaN or Infinity in a request is refused
  (VALIDATION_ERROR).

Executions live in ``store`` (an :class:`~agentproto.skills.store.ExecutionStore`; by default
in this process's memory, bounded by ``execution_ttl`` and ``max_executions``). With a shared
store (:class:`~agentproto.skills.store.SQLiteExecutionStore`,
:class:`~agentproto.skills.store_postgres.PostgresExecutionStore`) any number of server
processes serve the same executions: a handler runs in the process the invocation reached,
any process answers status and result, and an execution whose process died ends ``failed``
with the code ``EXECUTION_LOST`` once its lease (``execution_lease`` seconds, renewed while it
runs) runs out. The store is opened on first use (or at the ASGI lifespan's startup) and closed
at its shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import inspect
import json
import logging
import threading
import uuid
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast
from urllib.parse import quote

import anyio
import pydantic

from agentproto._runtime.base import known_values
from agentproto._runtime.errors import needs_extra
from agentproto._runtime.guard import Guard, GuardPolicy, Refusal
from agentproto._runtime.limits import DEFAULT_LIMITS, LimitError, Limits, describe, loads
from agentproto._runtime.redact import install_log_filter
from agentproto._runtime.telemetry import extract, shared
from agentproto.skills.documents import to_document, validate
from agentproto.skills.errors import (
    AuthRequiredError,
    EndpointUnreachableError,
    InvocationTimeoutError,
    PermissionDeniedError,
    SkillNotFoundError,
    SkillSharingError,
    ValidationError,
)
from agentproto.skills.models import (
    AccessPolicy,
    ApiKeyAuthConfig,
    CapabilityType,
    CustomAuthConfig,
    InvocationRequest,
    NoneAuthConfig,
    OAuth2AuthConfig,
    ProtocolVersion,
    ProviderInfo,
    RetryAdvice,
    SkillDescriptor,
    SkillIndex,
    SkillIndexEntry,
)
from agentproto.skills.schema import PROTOCOL_VERSION
from agentproto.skills.store import (
    DEFAULT_EXECUTION_TTL,
    DEFAULT_MAX_EXECUTIONS,
    TERMINAL,
    ExecutionStore,
    MemoryExecutionStore,
    StoredExecution,
)

with needs_extra("provider", feature="SkillProvider (agentproto.skills.provider)"):
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.requests import ClientDisconnect, Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

Handler = Callable[[dict[str, Any], InvocationRequest], Any]
"""A skill's code: gets the inputs and the whole request; returns the output (JSON-able).
May be async. Raising a ``SkillSharingError`` fails the execution with that code."""
Admission = Callable[[Request, SkillDescriptor], Awaitable[None] | None]
DEFAULT_API_KEY_HEADER = "X-API-Key"
DEFAULT_EXECUTION_LEASE = 30.0
DEFAULT_MAX_HANDLER_THREADS = 16
AUTH_RETRY = RetryAdvice(suggested_delay_ms=0, max_attempts=1)
"""§8.3.2: retry once, after obtaining credentials."""
TIMEOUT_RETRY = RetryAdvice(suggested_delay_ms=1000, max_attempts=3)
"""§8.3.5: the spec's example advice for a timed-out execution."""
UNAVAILABLE_RETRY = RetryAdvice(suggested_delay_ms=2000, max_attempts=3)
"""§8.3.6: back off exponentially from this delay."""
log: logging.Logger = logging.getLogger("agentproto.skills.provider")
INSTRUMENTATION = "agentproto.skills"
"""The instrumentation name of the kit's spans: one SERVER span per request (a child of the
trace context the request carries), and ``execute_tool <skill>`` around each execution (a
child of its invocation's request, with ``skills.execution.status``)."""
_cancel_flag: contextvars.ContextVar[threading.Event | None] = contextvars.ContextVar(
    "agentproto_skills_cancel", default=None
)


def cancel_requested() -> bool:
    """Inside a handler: whether its caller asked to cancel the execution (the cancel
    extension). A coroutine handler is cancelled outright (``asyncio.CancelledError`` at its
    next ``await``); a plain one in a worker thread cannot be, so it may check this and
    return early (whatever it returns then is dropped: the execution has ended)."""
    flag = _cancel_flag.get()
    return flag is not None and flag.is_set()


def envelope(error: SkillSharingError, status: int | None = None) -> JSONResponse:
    """The §8.2 error envelope for ``error``, with ``status`` or the code's first HTTP status."""
    if status is None:
        status = error.http_status[0] if error.http_status else 400
    return JSONResponse({"error": _error_body(error)}, status_code=status)


def _jsonable(value: Any) -> Any:
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", exclude_none=True)
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in cast("Sequence[Any]", value)]
    return value


def _now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def _dumps(document: Mapping[str, Any]) -> str:
    """A status document as strict JSON text (``ValueError`` / ``TypeError`` for values JSON
    cannot carry: NaN, infinities, datetimes, sets...)."""
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


@dataclass
class _Skill:
    descriptor: SkillDescriptor
    handler: Handler
    allow: frozenset[str] | None  # principals allowed for restricted skills (None: any)


class SkillProvider:
    """Registered skills, their executions, and the ASGI app serving them."""

    def __init__(
        self,
        provider: ProviderInfo | Mapping[str, Any],
        *,
        base_url: str,
        api_keys: Mapping[str, str] | None = None,
        verify_token: Callable[[str], str | None] | None = None,
        verify_custom: Callable[[Request, CustomAuthConfig], str | None] | None = None,
        admit: Admission | None = None,
        default_timeout_ms: int | None = None,
        execution_ttl: float = DEFAULT_EXECUTION_TTL,
        max_executions: int = DEFAULT_MAX_EXECUTIONS,
        max_handler_threads: int = DEFAULT_MAX_HANDLER_THREADS,
        limits: Limits | None = None,
        store: ExecutionStore | None = None,
        execution_lease: float = DEFAULT_EXECUTION_LEASE,
        allowed_hosts: Sequence[str] | None = None,
        allowed_origins: Sequence[str] = (),
    ) -> None:
        if max_handler_threads < 1:
            raise ValueError("max_handler_threads must be at least 1")
        if execution_lease <= 0:
            raise ValueError("execution_lease must be > 0")
        self.info: ProviderInfo = (
            provider
            if isinstance(provider, ProviderInfo)
            else ProviderInfo.model_validate(provider)
        )
        self.base_url: str = base_url.rstrip("/")
        self._api_keys = dict(api_keys or {})
        self._verify_token = verify_token
        self._verify_custom = verify_custom
        self._admit = admit
        self._default_timeout_ms = default_timeout_ms
        self.limits: Limits = limits if limits is not None else DEFAULT_LIMITS
        self.max_handler_threads = max_handler_threads
        # Threads running a plain handler (stuck ones included), and what waits for one.
        self._threads_busy = 0
        self._thread_freed: asyncio.Event | None = None
        install_log_filter()
        self.skills: dict[str, _Skill] = {}
        self.executions: ExecutionStore = (
            store
            if store is not None
            else MemoryExecutionStore(ttl=execution_ttl, max_size=max_executions)
        )
        self.execution_lease: float = execution_lease
        self._opened = False
        self._opening: asyncio.Lock | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._running: dict[str, asyncio.Task[None]] = {}
        self._cancels: dict[str, threading.Event] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.guard: GuardPolicy = GuardPolicy(
            allowed_hosts=None if allowed_hosts is None else tuple(allowed_hosts),
            allowed_origins=tuple(allowed_origins),
            # the body's size and deadline are this kit's own (400 / 408, VALIDATION_ERROR)
            max_body_bytes=None,
            limits=self.limits.replace(request_body_deadline=None),
            error_body=guard_error,
        )
        self.app: Starlette = Starlette(
            lifespan=self._lifespan,
            middleware=[Middleware(Guard, policy=self.guard)],
            exception_handlers={HTTPException: _http_error, Exception: _internal_error},
            routes=[
                Route("/.well-known/skill-sharing", _guarded(self._index), methods=["GET"]),
                Route(
                    "/skills/{skill_id:path}/descriptor",
                    _guarded(self._descriptor),
                    methods=["GET"],
                ),
                Route(
                    "/skills/{skill_id:path}/invoke",
                    _guarded(self._invoke),
                    methods=["POST", "PUT", "GET", "DELETE"],
                ),
                Route("/executions/{execution_id}/result", _guarded(self._result), methods=["GET"]),
                Route(
                    "/executions/{execution_id}/cancel", _guarded(self._cancel), methods=["POST"]
                ),
                Route("/executions/{execution_id}", _guarded(self._status), methods=["GET"]),
            ],
        )

    def __repr__(self) -> str:
        return f"<SkillProvider {self.info.name!r} skills={len(self.skills)}>"

    def has_credentials(self) -> bool:
        """Whether any caller can authenticate (API keys, a token or a custom check)."""
        return (
            bool(self._api_keys)
            or self._verify_token is not None
            or (self._verify_custom is not None)
        )

    # -- the execution store ----------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncGenerator[None]:
        await self.open()
        try:
            yield
        finally:
            await self.aclose()

    async def open(self) -> None:
        """Open the execution store (done on first use when the ASGI server runs no lifespan)."""
        if self._opened:
            return
        if self._opening is None:
            self._opening = asyncio.Lock()
        async with self._opening:
            if not self._opened:
                await self.executions.open()
                self._opened = True

    async def aclose(self) -> None:
        """Stop the executions running here (each ends ``failed``, ``EXECUTION_LOST``, for
        its callers: it will not finish) and close the store. The ASGI lifespan's shutdown
        calls it: a graceful restart ends them at once, a crash when their lease runs out."""
        heartbeat, self._heartbeat = self._heartbeat, None
        if heartbeat is not None:
            heartbeat.cancel()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)
        if self._opened:
            self._opened = False
            await self.executions.aclose()

    async def _renew_leases(self) -> None:
        """Renew the leases of the executions running here, every third of a lease; cancel
        those whose cancellation was asked (through any process) or that were taken over."""
        while True:
            await asyncio.sleep(self.execution_lease / 3)
            running = list(self._running)
            if not running:
                continue
            try:
                renewal = await self.executions.renew(running, self.execution_lease)
            except Exception:
                log.exception("cannot renew execution leases")
                continue
            for execution_id in renewal.cancelled:
                self._cancel_here(execution_id)
            for execution_id in renewal.lost:
                task = self._running.get(execution_id)
                if task is not None:
                    task.cancel()

    def _cancel_here(self, execution_id: str) -> bool:
        """Cancel an execution running in this process (False: it does not run here)."""
        task = self._running.get(execution_id)
        flag = self._cancels.get(execution_id)
        if task is None or flag is None:
            return False
        if not flag.is_set():
            flag.set()
            task.cancel()
        return True

    def _lost_document(self, stored: StoredExecution) -> str:
        """The final document of an execution whose process stopped running it."""
        document: dict[str, Any]
        try:
            document = cast("dict[str, Any]", json.loads(stored.document))
        except ValueError:
            document = {"execution_id": stored.execution_id, "skill_id": stored.skill_id}
        document.pop("output", None)
        document["status"] = "failed"
        document["error"] = {
            "code": "EXECUTION_LOST",
            "message": "the provider process running this execution stopped before it ended",
            "details": {"execution_id": stored.execution_id},
        }
        now = _now()
        timestamps = document.setdefault("timestamps", {"created_at": now})
        if isinstance(timestamps, dict):
            cast("dict[str, Any]", timestamps).update(updated_at=now, completed_at=now)
        return _dumps(document)

    # -- registration -------------------------------------------------------------------------

    def descriptor_url(self, skill_id: str) -> str:
        return f"{self.base_url}/skills/{quote(skill_id, safe='')}/descriptor"

    def register(
        self,
        descriptor: SkillDescriptor | Mapping[str, Any],
        handler: Handler,
        *,
        allow: Sequence[str] | None = None,
    ) -> SkillDescriptor:
        """Publish a complete descriptor (validated first) served by ``handler``."""
        document = (
            to_document(descriptor) if isinstance(descriptor, SkillDescriptor) else descriptor
        )
        report = validate(dict(document))
        if not report.valid:
            raise ValidationError(
                f"invalid descriptor: {report.errors[0].path}: {report.errors[0].message}",
                details=report.errors,
            )
        parsed = SkillDescriptor.model_validate(document)
        if parsed.id in self.skills:
            raise ValueError(f"skill id {parsed.id!r} is already registered (§4.3.4)")
        self.skills[parsed.id] = _Skill(parsed, handler, frozenset(allow) if allow else None)
        return parsed

    def skill(
        self,
        *,
        id: str,
        name: str,
        description: str,
        capability_type: CapabilityType,
        version: str,
        inputs: Sequence[Mapping[str, Any]] = (),
        output: Mapping[str, Any] | None = None,
        auth: Mapping[str, Any] | None = None,
        access: AccessPolicy = "public",
        timeout_ms: int | None = None,
        retry: Mapping[str, int] | None = None,
        tags: Sequence[str] | None = None,
        allow: Sequence[str] | None = None,
    ) -> Callable[[Handler], Handler]:
        """Decorator: publish the decorated function as a skill; the endpoint URLs point here."""

        def register(handler: Handler) -> Handler:
            quoted = quote(id, safe="")
            endpoint: dict[str, Any] = {
                "url": f"{self.base_url}/skills/{quoted}/invoke",
                "method": "POST",
                "status_url": f"{self.base_url}/executions/{{execution_id}}",
                "result_url": f"{self.base_url}/executions/{{execution_id}}/result",
            }
            if timeout_ms is not None:
                endpoint["timeout_ms"] = timeout_ms
            if retry is not None:
                endpoint["retry"] = dict(retry)
            document: dict[str, Any] = {
                "protocol": {"version": PROTOCOL_VERSION},
                "id": id,
                "name": name,
                "version": version,
                "capability_type": capability_type,
                "description": description,
                "provider": to_document(self.info),
                "endpoint": endpoint,
                "inputs": [dict(p) for p in inputs],
                "output": dict(output or {"content_type": "application/json"}),
                "auth": dict(auth or {"type": "none"}),
                "access": access,
            }
            if tags is not None:
                document["tags"] = list(tags)
            self.register(document, handler, allow=allow)
            return handler

        return register

    # -- auth -----------------------------------------------------------------------------------

    def _principal(self, request: Request, skill: SkillDescriptor | None) -> str | None:
        """Who the request authenticates as (None: anonymous), with the kind of credential
        ``skill``'s auth names (any kind for the index, or a skill with ``auth: none``)."""
        auth = skill.auth if skill is not None else None
        any_kind = auth is None or isinstance(auth, NoneAuthConfig)
        if any_kind or isinstance(auth, ApiKeyAuthConfig):
            # the header the skill's auth names, and only it (X-API-Key when it names none)
            headers = [DEFAULT_API_KEY_HEADER]
            if isinstance(auth, ApiKeyAuthConfig) and auth.header:
                headers = [auth.header]
            for header in headers:
                key = request.headers.get(header)
                if key is not None and key in self._api_keys:
                    return self._api_keys[key]
        if any_kind or isinstance(auth, OAuth2AuthConfig):
            authorization = request.headers.get("authorization", "")
            if authorization.lower().startswith("bearer ") and self._verify_token is not None:
                principal = self._verify_token(authorization[7:].strip())
                if principal is not None:
                    return principal
        if isinstance(auth, CustomAuthConfig) and self._verify_custom is not None:
            return self._verify_custom(request, auth)
        return None

    def _authorise(self, request: Request, skill: _Skill) -> str | None:
        """The principal allowed to use ``skill``, or raise AUTH_REQUIRED / PERMISSION_DENIED."""
        descriptor = skill.descriptor
        principal = self._principal(request, descriptor)
        needs_auth = not isinstance(descriptor.auth, NoneAuthConfig) or (
            descriptor.access != "public"
        )
        if needs_auth and principal is None:
            raise AuthRequiredError(
                f"skill {descriptor.id!r} needs {descriptor.auth.type} credentials",
                details=auth_details(descriptor),
                retry=AUTH_RETRY,
            )
        if skill.allow is not None and principal not in skill.allow:
            raise PermissionDeniedError(
                f"these credentials may not use skill {descriptor.id!r}",
                details={"skill_id": descriptor.id},
            )
        return principal

    def _visible(self, request: Request, skill: _Skill) -> bool:
        """Whether a private skill shows to this caller: a credential its descriptor accepts,
        of a principal it allows."""
        principal = self._principal(request, skill.descriptor)
        return principal is not None and (skill.allow is None or principal in skill.allow)

    def _skill(self, request: Request) -> _Skill:
        skill_id = str(request.path_params["skill_id"])
        skill = self.skills.get(skill_id)
        if skill is None:
            raise SkillNotFoundError(f"no skill {skill_id!r}", details={"skill_id": skill_id})
        return skill

    # -- endpoints ------------------------------------------------------------------------------

    async def _index(self, request: Request) -> Response:
        wanted = request.query_params.get("type")
        if wanted is not None and wanted not in known_values(CapabilityType):
            return envelope(ValidationError(f"unknown capability type {wanted!r}"))
        entries: list[SkillIndexEntry] = []
        for skill in self.skills.values():
            d = skill.descriptor
            if wanted is not None and d.capability_type != wanted:
                continue
            if d.access == "private" and not self._visible(request, skill):
                continue
            entries.append(
                SkillIndexEntry(
                    id=d.id,
                    name=d.name,
                    capability_type=d.capability_type,
                    description=d.description,
                    descriptor_url=self.descriptor_url(d.id),
                    access=d.access,
                    version=d.version,
                )
            )
        index = SkillIndex(
            protocol=ProtocolVersion(version=PROTOCOL_VERSION),
            provider=self.info,
            skills=entries,
        )
        return JSONResponse(to_document(index))

    async def _descriptor(self, request: Request) -> Response:
        try:
            skill = self._skill(request)
            if skill.descriptor.access == "private" and not self._visible(request, skill):
                skill_id = skill.descriptor.id
                raise SkillNotFoundError(  # do not reveal it
                    f"no skill {skill_id!r}", details={"skill_id": skill_id}
                )
        except SkillSharingError as error:
            return envelope(error)
        return JSONResponse(to_document(skill.descriptor))

    async def _invoke(self, request: Request) -> Response:
        try:
            skill = self._skill(request)
            principal = self._authorise(request, skill)
            if self._admit is not None:
                admitted = self._admit(request, skill.descriptor)
                if inspect.isawaitable(admitted):
                    await admitted
            body = await self._body(request)
            report = validate(body, "InvocationRequest")
            if not report.valid:
                raise ValidationError("invalid InvocationRequest", details=report.errors)
            invocation = InvocationRequest.model_validate(body)
            self._check_inputs(skill.descriptor, invocation)
        except _BodyRefused as error:
            response = envelope(error, error.status)
            response.headers["Connection"] = "close"
            return response
        except ClientDisconnect:  # gone, or refused by the guard mid-body (answered there)
            return Response(status_code=400)
        except SkillSharingError as error:
            return envelope(error)
        await self.open()
        execution_id = uuid.uuid4().hex
        now = _now()
        document: dict[str, Any] = {
            "execution_id": execution_id,
            "status": "accepted",
            "skill_id": skill.descriptor.id,
            "timestamps": {"created_at": now, "updated_at": now},
        }
        text = _dumps(document)
        await self.executions.create(
            execution_id, principal, skill.descriptor.id, "accepted", text, self.execution_lease
        )
        if self._heartbeat is None or self._heartbeat.done():
            self._heartbeat = asyncio.get_running_loop().create_task(self._renew_leases())
        task = asyncio.get_running_loop().create_task(
            self._run(execution_id, skill, document, invocation)
        )
        self._tasks.add(task)
        self._running[execution_id] = task
        self._cancels[execution_id] = threading.Event()

        def finished(_: asyncio.Task[None]) -> None:
            self._tasks.discard(task)
            self._running.pop(execution_id, None)
            self._cancels.pop(execution_id, None)

        task.add_done_callback(finished)
        return Response(text, status_code=202, media_type="application/json")

    async def _body(self, request: Request) -> Any:
        """The request's JSON body, read within ``max_document_bytes`` and parsed within
        ``max_json_depth`` (VALIDATION_ERROR past either, or for what is not JSON)."""
        limit = self.limits.max_document_bytes
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise _BodyRefused(
                str(LimitError("the request body", "max_document_bytes", limit, int(declared))),
                400,
                {"limit": "max_document_bytes", "bytes": limit},
            )
        parts: list[bytes] = []
        size = 0
        deadline = self.limits.request_body_deadline
        try:
            with anyio.fail_after(deadline):
                async for chunk in request.stream():
                    size += len(chunk)
                    if size > limit:
                        raise _BodyRefused(
                            str(LimitError("the request body", "max_document_bytes", limit, size)),
                            400,
                            {"limit": "max_document_bytes", "bytes": limit},
                        )
                    parts.append(chunk)
        except TimeoutError:
            raise _BodyRefused(
                f"the request body did not arrive within {describe('deadline', deadline)} "
                "(Limits.request_body_deadline)",
                408,
                {"limit": "request_body_deadline", "seconds": deadline},
            ) from None
        try:
            return loads(b"".join(parts), self.limits.max_json_depth, allow_nan=False)
        except LimitError as exc:
            raise ValidationError(str(exc)) from None
        except ValueError:
            raise ValidationError(
                "the request body is not JSON (NaN and Infinity are not JSON either)"
            ) from None

    async def _in_thread(self, call: Callable[[], Any]) -> Any:
        """Run a plain handler in a worker thread, at most ``max_handler_threads`` at once
        (a thread is counted until its handler returns, even after its execution timed
        out): waiting for one is cancelled with the execution, so no thread starts late."""
        while self._threads_busy >= self.max_handler_threads:
            if self._thread_freed is None:
                self._thread_freed = asyncio.Event()
            await self._thread_freed.wait()
        self._threads_busy += 1
        loop = asyncio.get_running_loop()
        # Who gives the thread back: the handler's thread when it ran, or this coroutine
        # when it was cancelled before the thread started the handler (else the count leaks
        # one slot per such cancellation, and the kit ends up refusing every plain handler).
        gate = threading.Lock()
        state = {"started": False, "abandoned": False}

        def run() -> Any:
            with gate:
                if state["abandoned"]:
                    return None  # cancelled before it started: already given back
                state["started"] = True
            try:
                return call()
            finally:
                try:
                    loop.call_soon_threadsafe(self._thread_done)
                except RuntimeError:  # the loop is closed: nothing waits any more
                    pass

        try:
            return await anyio.to_thread.run_sync(run, abandon_on_cancel=True)
        except BaseException:
            with gate:
                never_started = not state["started"]
                state["abandoned"] = True
            if never_started:
                self._thread_done()
            raise

    def _thread_done(self) -> None:
        self._threads_busy -= 1
        freed, self._thread_freed = self._thread_freed, None
        if freed is not None:
            freed.set()

    @staticmethod
    def _check_inputs(descriptor: SkillDescriptor, invocation: InvocationRequest) -> None:
        if invocation.skill_id != descriptor.id:
            raise ValidationError(
                f"skill_id {invocation.skill_id!r} does not match {descriptor.id!r}",
                details=[{"path": "/skill_id", "message": "must be the invoked skill's id"}],
            )
        missing = [
            p.name for p in descriptor.inputs if p.required and p.name not in invocation.inputs
        ]
        if missing:
            raise ValidationError(
                f"missing required inputs {missing}",
                details=[
                    {"path": f"/inputs/{name}", "message": "required input is missing"}
                    for name in missing
                ],
            )

    async def _run(
        self,
        execution_id: str,
        skill: _Skill,
        doc: dict[str, Any],
        invocation: InvocationRequest,
    ) -> None:
        descriptor = skill.descriptor
        limits = [
            t
            for t in (
                descriptor.endpoint.timeout_ms,
                invocation.context.timeout_ms if invocation.context else None,
                self._default_timeout_ms,
            )
            if t is not None
        ]
        limit = min(limits) if limits else None
        with shared(INSTRUMENTATION).span(
            f"execute_tool {descriptor.id}",
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": descriptor.id,
                "gen_ai.tool.type": "extension",
                "skills.skill.id": descriptor.id,
                "skills.execution.id": execution_id,
            },
        ) as span:
            await self._execute(execution_id, skill, doc, invocation, limit)
            span.set("skills.execution.status", doc.get("status"))
            error = doc.get("error")
            if isinstance(error, dict):
                span.set("error.type", cast("dict[str, Any]", error).get("code"))

    async def _execute(
        self,
        execution_id: str,
        skill: _Skill,
        doc: dict[str, Any],
        invocation: InvocationRequest,
        limit: int | None,
    ) -> None:
        descriptor = skill.descriptor
        lease = self.execution_lease
        flag = self._cancels.get(execution_id)
        _cancel_flag.set(flag)
        try:
            doc.update(status="running")
            doc["timestamps"]["updated_at"] = _now()
            await self.executions.update(execution_id, "running", _dumps(doc), lease=lease)
            handler = skill.handler
            inputs = dict(invocation.inputs)
            try:
                with anyio.fail_after(limit / 1000 if limit is not None else None):
                    if _is_async(handler):
                        output = await handler(inputs, invocation)
                    else:
                        output = await self._in_thread(
                            functools.partial(handler, inputs, invocation)
                        )
                    if inspect.isawaitable(output):
                        output = await output
                doc.update(status="completed", output=_jsonable(output))
            except TimeoutError:
                error = InvocationTimeoutError(
                    f"skill {descriptor.id!r} ran past {limit} ms",
                    details={"timeout_ms": limit, "execution_id": execution_id},
                    retry=TIMEOUT_RETRY,
                )
                doc.update(status="timeout", error=_error_body(error))
            except SkillSharingError as error:
                doc.update(status="failed", error=_error_body(error))
            except asyncio.CancelledError:
                if flag is None or not flag.is_set():
                    await self._abandon(execution_id, doc)  # the server is stopping
                    raise
                doc.update(
                    status="failed",
                    error={
                        "code": "CANCELLED",
                        "message": "the execution was cancelled by its caller",
                        "details": {"execution_id": execution_id},
                    },
                )
            except Exception:
                log.exception("skill %r failed (execution %s)", descriptor.id, execution_id)
                failure = EndpointUnreachableError(
                    f"skill {descriptor.id!r} failed",
                    details={"skill_id": descriptor.id, "execution_id": execution_id},
                    retry=UNAVAILABLE_RETRY,
                )
                doc.update(status="failed", error=_error_body(failure))
            now = _now()
            doc["timestamps"].update(updated_at=now, completed_at=now)
            try:
                text = _dumps(doc)
            except (TypeError, ValueError) as exc:
                log.error(
                    "skill %r returned an output JSON cannot carry (execution %s): %s",
                    descriptor.id, execution_id, exc,
                )  # fmt: skip
                doc.pop("output", None)
                doc.update(
                    status="failed",
                    error={
                        "code": "OUTPUT_NOT_JSON",
                        "message": f"skill {descriptor.id!r} returned an output that cannot "
                        "be encoded as JSON",
                        "details": {"skill_id": descriptor.id, "execution_id": execution_id},
                    },
                )
                text = _dumps(doc)
            # shielded: a cancel arriving now (the handler has ended) must not lose the result
            final = self.executions.update(execution_id, str(doc["status"]), text, lease=None)
            await asyncio.shield(final)
        except Exception:
            log.exception("cannot store execution %s", execution_id)

    async def _abandon(self, execution_id: str, doc: dict[str, Any]) -> None:
        """The server stops while the execution runs: it ends ``EXECUTION_LOST`` now, for
        its callers, rather than when its lease runs out (skipped if the store cannot be
        written within a second: the lease does it then)."""
        stored = StoredExecution(execution_id, None, str(doc.get("skill_id", "")), "", _dumps(doc))
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self.executions.update(
                    execution_id, "failed", self._lost_document(stored), lease=None
                ),
                timeout=1.0,
            )

    async def _execution(self, request: Request) -> StoredExecution:
        """The execution, for its creator only: to anyone else it does not exist. One whose
        process stopped running it is ended here (``failed``, ``EXECUTION_LOST``)."""
        execution_id = str(request.path_params["execution_id"])
        await self.open()
        stored = await self.executions.get(execution_id)
        if stored is not None:
            skill = self.skills.get(stored.skill_id)
            descriptor = skill.descriptor if skill is not None else None
            if self._principal(request, descriptor) != stored.principal:
                stored = None
        if stored is None:
            raise SkillNotFoundError(
                f"no execution {execution_id!r}", details={"execution_id": execution_id}
            )
        if stored.orphaned:
            await self.executions.fail_orphan(execution_id, self._lost_document(stored))
            again = await self.executions.get(execution_id)
            if again is not None:
                stored = again
        return stored

    async def _status(self, request: Request) -> Response:
        try:
            stored = await self._execution(request)
        except SkillSharingError as error:
            return envelope(error)
        return Response(stored.document, media_type="application/json")

    async def _result(self, request: Request) -> Response:
        return await self._status(request)

    async def _cancel(self, request: Request) -> Response:
        """The cancel extension: ``POST /executions/{id}/cancel`` by the execution's creator.
        Answers the status document: 202 when the cancellation is under way (the handler is
        cancelled by the process running it at its next lease renewal), 200 when it has
        ended: before (nothing changes), or now (it ran in this process: cancelled at once)."""
        try:
            stored = await self._execution(request)
        except SkillSharingError as error:
            return envelope(error)
        if stored.status in TERMINAL:
            return Response(stored.document, media_type="application/json")
        task = self._running.get(stored.execution_id)
        if self._cancel_here(stored.execution_id) and task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(task), timeout=1.0)
        else:
            await self.executions.request_cancel(stored.execution_id)
        again = await self.executions.get(stored.execution_id)
        document = again.document if again is not None else stored.document
        ended = again is not None and again.status in TERMINAL
        return Response(document, status_code=200 if ended else 202, media_type="application/json")


class _BodyRefused(ValidationError):
    """The request body is refused before it was read whole (too large, or too slow):
    VALIDATION_ERROR, answered with ``status`` and the connection closed, so the rest of the
    body is not read (uvicorn would otherwise drain it)."""

    def __init__(self, message: str, status: int, details: dict[str, Any]) -> None:
        super().__init__(message, details=details)
        self.status = status


def _is_async(handler: Handler) -> bool:
    call: object = getattr(handler, "__call__", None)  # noqa: B004
    return inspect.iscoroutinefunction(handler) or inspect.iscoroutinefunction(call)


def auth_details(descriptor: SkillDescriptor) -> dict[str, Any]:
    """§8.3.2 details: what a caller needs to authenticate for ``descriptor``."""
    auth = descriptor.auth
    details: dict[str, Any] = {"required_auth_type": auth.type, "skill_id": descriptor.id}
    if isinstance(auth, ApiKeyAuthConfig):
        details["header"] = auth.header or DEFAULT_API_KEY_HEADER
    elif isinstance(auth, OAuth2AuthConfig):
        details["authorization_url"] = str(auth.oauth2.authorization_url)
        details["token_url"] = str(auth.oauth2.token_url)
        if auth.oauth2.scopes:
            details["scopes"] = dict(auth.oauth2.scopes)
    elif isinstance(auth, CustomAuthConfig):
        details["instructions"] = auth.custom.instructions
        if auth.custom.parameters:
            details["parameters"] = _jsonable(auth.custom.parameters)
    else:  # auth "none" on a non-public skill: any credential the provider knows
        details["header"] = DEFAULT_API_KEY_HEADER
    if auth.description:
        details["description"] = auth.description
    return details


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own errors (no route, wrong method) as the §8.2 envelope."""
    status = exc.status_code if isinstance(exc, HTTPException) else 400
    headers = dict(exc.headers or {}) if isinstance(exc, HTTPException) else {}
    error: SkillSharingError
    if status == 404:
        error = SkillNotFoundError("no such resource", details={"path": request.url.path})
    elif status == 405:
        allowed = [m.strip() for m in headers.get("Allow", headers.get("allow", "")).split(",")]
        error = ValidationError(
            f"method {request.method} is not allowed here",
            details={"method": request.method, "allowed": sorted(m for m in allowed if m)},
        )
    else:
        error = ValidationError("the request was refused", details={"status": status})
    response = envelope(error, status)
    for name, value in headers.items():
        response.headers[name] = value
    return response


def _guarded(
    endpoint: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    """``endpoint`` answering the opaque envelope for any unexpected exception itself (left to
    Starlette, the exception is re-raised after the answer and the server drops the
    connection: the caller may see a reset instead of the envelope)."""

    route = f"{endpoint.__name__.strip('_')}"

    @functools.wraps(endpoint)
    async def guarded(request: Request) -> Response:
        telemetry = shared(INSTRUMENTATION)
        with telemetry.span(
            f"{request.method} {route}",
            {"http.request.method": request.method, "url.path": request.url.path},
            kind="server",
            parent=extract(request.headers) if telemetry.active else None,
        ) as span:
            try:
                response = await endpoint(request)
            except Exception as exc:
                response = await _internal_error(request, exc)
            span.set("http.response.status_code", response.status_code)
            return response

    return guarded


async def _internal_error(request: Request, exc: Exception) -> Response:
    """Anything unexpected: logged here, an opaque 503 envelope there."""
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return envelope(
        EndpointUnreachableError(
            "the provider could not handle the request", retry=UNAVAILABLE_RETRY
        ),
        503,
    )


def guard_error(refusal: Refusal) -> dict[str, Any]:
    """A refusal of the guard or the server (Host, Origin, body, head, connections) as the
    §8.2 envelope: PERMISSION_DENIED for a foreign Host or Origin, ENDPOINT_UNREACHABLE for
    no room, VALIDATION_ERROR for the rest."""
    error: SkillSharingError
    details = {"reason": refusal.kind}
    if refusal.kind in ("host", "origin"):
        error = PermissionDeniedError(refusal.message, details=details)
    elif refusal.kind == "too_many_connections":
        error = EndpointUnreachableError(refusal.message, details=details, retry=UNAVAILABLE_RETRY)
    else:
        error = ValidationError(refusal.message, details=details)
    return {"error": _error_body(error)}


def _error_body(error: SkillSharingError) -> dict[str, Any]:
    body: dict[str, Any] = {"code": error.code, "message": error.message}
    if error.details is not None:  # as the envelope carries them (§8.3.1: an array)
        body["details"] = _jsonable(error.wire_details)
    if error.retry is not None:
        body["retry"] = error.retry.model_dump(mode="json")
    return body
