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
/executions/{execution_id}`` and ``GET /executions/{execution_id}/result``. Errors use the
spec's envelope (§8.2). A caller is authenticated by an API key in ``X-API-Key`` (or the header
its skill's auth names) found in ``api_keys``, or by a bearer token ``verify_token`` accepts, or
by ``verify_custom`` for ``custom`` skills.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast
from urllib.parse import quote

import anyio
import pydantic
from agentproto._runtime.base import known_values
from agentproto.skills.documents import to_document, validate
from agentproto.skills.errors import (
    AuthRequiredError,
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
    ProtocolVersion,
    ProviderInfo,
    SkillDescriptor,
    SkillIndex,
    SkillIndexEntry,
)
from agentproto.skills.schema import PROTOCOL_VERSION
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

Handler = Callable[[dict[str, Any], InvocationRequest], Any]
"""A skill's code: gets the inputs and the whole request; returns the output (JSON-able).
May be async. Raising a ``SkillSharingError`` fails the execution with that code."""
Admission = Callable[[Request, SkillDescriptor], Awaitable[None] | None]
DEFAULT_API_KEY_HEADER = "X-API-Key"


def envelope(error: SkillSharingError) -> JSONResponse:
    """The §8.2 error envelope for ``error``, with its first HTTP status."""
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


@dataclass
class _Skill:
    descriptor: SkillDescriptor
    handler: Handler
    allow: frozenset[str] | None  # principals allowed for restricted skills (None: any)


@dataclass
class _Execution:
    skill: _Skill
    principal: str | None
    document: dict[str, Any] = field(default_factory=dict[str, Any])


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
    ) -> None:
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
        self.skills: dict[str, _Skill] = {}
        self.executions: dict[str, _Execution] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.app: Starlette = Starlette(
            routes=[
                Route("/.well-known/skill-sharing", self._index, methods=["GET"]),
                Route("/skills/{skill_id:path}/descriptor", self._descriptor, methods=["GET"]),
                Route(
                    "/skills/{skill_id:path}/invoke",
                    self._invoke,
                    methods=["POST", "PUT", "GET", "DELETE"],
                ),
                Route("/executions/{execution_id}", self._status, methods=["GET"]),
                Route("/executions/{execution_id}/result", self._result, methods=["GET"]),
            ]
        )

    def __repr__(self) -> str:
        return f"<SkillProvider {self.info.name!r} skills={len(self.skills)}>"

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
        """Who the request authenticates as (None: anonymous)."""
        headers = [DEFAULT_API_KEY_HEADER]
        if skill is not None and isinstance(skill.auth, ApiKeyAuthConfig) and skill.auth.header:
            headers.insert(0, skill.auth.header)
        for header in headers:
            key = request.headers.get(header)
            if key is not None and key in self._api_keys:
                return self._api_keys[key]
        authorization = request.headers.get("authorization", "")
        if authorization.lower().startswith("bearer ") and self._verify_token is not None:
            principal = self._verify_token(authorization[7:].strip())
            if principal is not None:
                return principal
        if (
            skill is not None
            and isinstance(skill.auth, CustomAuthConfig)
            and self._verify_custom is not None
        ):
            return self._verify_custom(request, skill.auth)
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
                details={"auth": descriptor.auth.type},
            )
        if skill.allow is not None and principal not in skill.allow:
            raise PermissionDeniedError(f"{principal!r} may not use skill {descriptor.id!r}")
        return principal

    def _skill(self, request: Request) -> _Skill:
        skill = self.skills.get(request.path_params["skill_id"])
        if skill is None:
            raise SkillNotFoundError(f"no skill {request.path_params['skill_id']!r}")
        return skill

    # -- endpoints ------------------------------------------------------------------------------

    async def _index(self, request: Request) -> Response:
        wanted = request.query_params.get("type")
        if wanted is not None and wanted not in known_values(CapabilityType):
            return envelope(ValidationError(f"unknown capability type {wanted!r}"))
        authenticated = self._principal(request, None) is not None
        entries: list[SkillIndexEntry] = []
        for skill in self.skills.values():
            d = skill.descriptor
            if d.access == "private" and not authenticated:
                continue
            if wanted is not None and d.capability_type != wanted:
                continue
            entries.append(
                SkillIndexEntry(
                    id=d.id,
                    name=d.name,
                    capability_type=d.capability_type,
                    description=d.description,
                    descriptor_url=pydantic.AnyUrl(self.descriptor_url(d.id)),
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
            if skill.descriptor.access == "private" and (
                self._principal(request, skill.descriptor) is None
            ):
                raise SkillNotFoundError(f"no skill {skill.descriptor.id!r}")  # do not reveal it
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
            try:
                body = json.loads(await request.body())
            except ValueError:
                raise ValidationError("the request body is not JSON") from None
            report = validate(body, "InvocationRequest")
            if not report.valid:
                raise ValidationError("invalid InvocationRequest", details=report.errors)
            invocation = InvocationRequest.model_validate(body)
            self._check_inputs(skill.descriptor, invocation)
        except SkillSharingError as error:
            return envelope(error)
        execution_id = uuid.uuid4().hex
        record = _Execution(skill, principal)
        record.document = {
            "execution_id": execution_id,
            "status": "accepted",
            "skill_id": skill.descriptor.id,
            "timestamps": {"created_at": _now(), "updated_at": _now()},
        }
        self.executions[execution_id] = record
        task = asyncio.get_running_loop().create_task(self._run(record, invocation))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return JSONResponse(record.document, status_code=202)

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

    async def _run(self, record: _Execution, invocation: InvocationRequest) -> None:
        doc = record.document
        descriptor = record.skill.descriptor
        limits = [
            t
            for t in (
                descriptor.endpoint.timeout_ms,
                invocation.context.timeout_ms if invocation.context else None,
                self._default_timeout_ms,
            )
            if t is not None
        ]
        doc.update(status="running")
        doc["timestamps"]["updated_at"] = _now()
        try:
            with anyio.fail_after(min(limits) / 1000 if limits else None):
                output = record.skill.handler(dict(invocation.inputs), invocation)
                if inspect.isawaitable(output):
                    output = await output
            doc.update(status="completed", output=output)
        except TimeoutError:
            error = InvocationTimeoutError(f"skill {descriptor.id!r} ran past {min(limits)} ms")
            doc.update(status="timeout", error=_error_body(error))
        except SkillSharingError as error:
            doc.update(status="failed", error=_error_body(error))
        except Exception as exc:
            doc.update(
                status="failed",
                error={"code": "SKILL_FAILED", "message": f"{type(exc).__name__}: {exc}"},
            )
        now = _now()
        doc["timestamps"].update(updated_at=now, completed_at=now)

    def _execution(self, request: Request) -> _Execution:
        record = self.executions.get(request.path_params["execution_id"])
        if record is None:
            raise SkillNotFoundError(f"no execution {request.path_params['execution_id']!r}")
        self._authorise(request, record.skill)
        return record

    async def _status(self, request: Request) -> Response:
        try:
            record = self._execution(request)
        except SkillSharingError as error:
            return envelope(error)
        return JSONResponse(record.document)

    async def _result(self, request: Request) -> Response:
        return await self._status(request)


def _error_body(error: SkillSharingError) -> dict[str, Any]:
    body: dict[str, Any] = {"code": error.code, "message": error.message}
    if error.details is not None:
        body["details"] = _jsonable(error.details)
    if error.retry is not None:
        body["retry"] = error.retry.model_dump(mode="json")
    return body
