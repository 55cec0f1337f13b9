"""The AAP server kit: serve agents over AAP as an ASGI app (hand-written; the ``provider``
extra, Starlette).

::

    from agentproto.aap import AAPServer, Agent, ApiKeys

    server = AAPServer([agent], store="sqlite:///aap.db", auth=ApiKeys({"sk-...": "alice"}))
    app = server.app          # uvicorn module:app --workers 4

Every endpoint of the spec table is served from the generated route table
(:mod:`agentproto.aap.routes`): the routes, their parameters, body and answer models,
success statuses, stream modes and error statuses all come from ``schemas/aap/spec.yaml``,
the same table the client is built from; this module implements the operations
(:class:`~agentproto.aap.routes.AAPOperations`).

- **State** lives in a :class:`~agentproto.aap.store.SessionStore` (SQLite by default,
  PostgreSQL for workers on several hosts): sessions, their agent configuration and client
  tools, the full history, and who runs a turn. Any worker serves any session; a restart
  loses nothing.
- **Auth**: ``Authorization: Bearer <key>``, keys mapped to principals (:class:`ApiKeys`, or
  any function); ``GET /meta`` is open. A session belongs to the principal that created it:
  others get 404 for it and never see it listed. ``auth=None`` serves everyone as one
  anonymous principal (logged as a warning at start).
- **Turns**: one at a time per session (a second gets 409 ``conflict``), claimed with a lease
  in the store so the rule holds across workers; see :mod:`agentproto.aap.turn` for the loop
  (streams in the three modes, client tools, server tools with trust and ``tool_permission``).
  A client that disconnects from a stream cancels its turn.
- **Checked before anything runs** (400 ``bad_request`` with the reason): the agent exists;
  options are declared ones (a ``select`` within its values); server tools are exposed ones;
  client tools only where the agent accepts them, with names unique across client and enabled
  server tools; images only of the kinds the agent declares; a turn's tool results and
  permissions answer exactly the calls that wait (all of them), permissions only for server
  tools; the stream mode is one the agent supports; the agent name of a session never changes.
- **Bounds** (:class:`ServerSettings`): body size (413), messages and tools per request,
  history length, sessions per principal, page size, model silence, turn time, steps per turn,
  tool time, event size, SSE keep-alive.
- **Safety**: no exception text reaches a client (logged under ``agentproto.aap.server``);
  secret options are ``"***"`` in every answer, kept out of reprs and logs, and reach an agent
  only as :class:`~agentproto._runtime.redact.Secret` s; API keys are kept as digests.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import logging
import os
import uuid
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, cast

import anyio
import pydantic
from agentproto._runtime.guard import GuardPolicy, plain_error
from agentproto._runtime.http_server import RouteOptions, route_app
from agentproto._runtime.limits import DEFAULT_LIMITS, Limits
from agentproto._runtime.redact import Secret
from agentproto._runtime.routes import OperationError, RequestContext
from agentproto.aap.agent import Agent, ServerTool
from agentproto.aap.models import (
    AgentConfig,
    ApplicationMessage,
    AssistantMessage,
    ContentBlock,
    GetMetaResponse,
    GetSessionHistoryResponse,
    GetSessionResponse,
    GetSessionsResponse,
    HistoryMessage,
    ImageContentBlock,
    PostSessionsRequest,
    PostSessionsResponse,
    PostSessionTurnRequest,
    PostSessionTurnResponse,
    ServerToolRef,
    SessionHistory,
    ToolMessage,
    ToolPermissionMessage,
    ToolSpec,
    ToolUseContentBlock,
    UserMessage,
)
from agentproto.aap.routes import ERROR_STATUS, ROUTES, AAPOperations
from agentproto.aap.store import SessionRecord, SessionStore, open_store
from agentproto.aap.turn import (
    INSTRUMENTATION,
    LeaseKeeper,
    TurnLimits,
    TurnPlan,
    TurnRunner,
    wire,
)
from starlette.applications import Starlette

__all__ = ["AAPServer", "ApiKeys", "Authenticate", "ServerSettings"]

log: logging.Logger = logging.getLogger("agentproto.aap.server")
Authenticate = Callable[[str], Awaitable[str | None] | str | None]
"""A bearer token -> the principal it identifies, or ``None`` to refuse it."""
REDACTED = "***"
ANONYMOUS = "anonymous"
"""The one principal of a server without auth (``auth=None``)."""
_HISTORY: pydantic.TypeAdapter[list[HistoryMessage]] = pydantic.TypeAdapter(list[HistoryMessage])


@dataclass(frozen=True)
class ServerSettings:
    """Every bound the server keeps, in one place (times in seconds)."""

    max_request_bytes: int = 1 << 20
    """Largest request body read (413 beyond, refused before it is read)."""
    max_event_bytes: int = 4 << 20
    """Largest SSE event (JSON) a turn may send; a larger one ends the turn with ``error``."""
    max_messages_per_request: int = 256
    """Messages in one request (a session's seed history, or a turn)."""
    max_tools_per_request: int = 128
    """Client tools or server-tool references in one request."""
    max_history_messages: int = 10_000
    """Messages a session may hold; a turn that would go past it is refused."""
    max_sessions_per_principal: int = 10_000
    """Sessions one principal may hold; a further one is refused (409)."""
    page_size: int = 50
    """Sessions per page of ``GET /sessions``."""
    stream_idle_timeout: float = 120.0
    """The longest an agent's model step may go without producing an event."""
    turn_timeout: float = 600.0
    """The longest a turn may run."""
    max_steps: int = 16
    """Model steps in one turn (trusted tool calls make a turn take several)."""
    tool_timeout: float = 60.0
    """The longest one server tool call may run."""
    turn_lease: float = 30.0
    """How long a turn's claim on its session lasts unless renewed (a crashed worker's turn
    blocks its session this long at most)."""
    keepalive: float = 15.0
    """Seconds of silence on an SSE stream before a comment line is sent."""

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if not isinstance(value, int | float) or value <= 0:
                raise ValueError(f"ServerSettings.{name} must be a positive number")

    def turn_limits(self) -> TurnLimits:
        return TurnLimits(
            stream_idle_timeout=self.stream_idle_timeout,
            turn_timeout=self.turn_timeout,
            max_steps=self.max_steps,
            tool_timeout=self.tool_timeout,
            turn_lease=self.turn_lease,
            max_event_bytes=self.max_event_bytes,
        )


def _digest(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()


class ApiKeys:
    """API keys and the principals they identify (``{"sk-...": "alice"}``).

    Only SHA-256 digests of the keys are kept (a repr, a log line or a memory dump shows none),
    and a presented key is compared digest against digest in constant time.
    """

    def __init__(self, keys: Mapping[str, str]) -> None:
        if not keys:
            raise ValueError("ApiKeys needs at least one key (or pass auth=None for no auth)")
        self._keys = [(_digest(k), p) for k, p in keys.items()]

    def __repr__(self) -> str:
        return f"<ApiKeys: {len(self._keys)} key(s)>"

    def __call__(self, token: str) -> str | None:
        presented = _digest(token)
        found: str | None = None
        for digest, principal in self._keys:
            if hmac.compare_digest(digest, presented):
                found = principal
        return found

    @classmethod
    def from_env(cls, variable: str = "AAP_API_KEYS") -> ApiKeys:
        """Keys from an environment variable: ``principal:key`` pairs (or bare keys, whose
        principal is ``key-<n>``), separated by commas."""
        text = os.environ.get(variable, "")
        keys: dict[str, str] = {}
        for n, item in enumerate((i.strip() for i in text.split(",")), 1):
            if not item:
                continue
            principal, sep, key = item.partition(":")
            keys[key if sep else principal] = principal if sep else f"key-{n}"
        if not keys:
            raise ValueError(f"${variable} holds no API key")
        return cls(keys)


def _bad(message: str) -> OperationError:
    return OperationError("bad_request", message)


def _not_found(session_id: str) -> OperationError:
    return OperationError("not_found", f"session {session_id} not found")


def _cursor(seq: int) -> str:
    return base64.urlsafe_b64encode(f"s{seq}".encode()).decode().rstrip("=")


def _read_cursor(cursor: str) -> int:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise _bad("the cursor is not one this server gave") from None
    if not text.startswith("s") or not text[1:].isdigit() or len(text) > 20:
        raise _bad("the cursor is not one this server gave")
    return int(text[1:])


def _images(content: str | list[ContentBlock], agent: Agent) -> None:
    if isinstance(content, str):
        return
    for block in content:
        if isinstance(block, ImageContentBlock):
            kind = "data" if block.url.startswith("data:") else "http"
            if kind == "http" and not block.url.startswith("https://"):
                raise _bad("an image URL must be https:// or data:")
            if kind not in agent.images:
                raise _bad(f"agent {agent.name!r} does not take {kind} images")


def _pending(history: Sequence[HistoryMessage]) -> dict[str, ToolUseContentBlock]:
    """Tool calls of the history that no tool message answers yet, by id."""
    calls: dict[str, ToolUseContentBlock] = {}
    for message in history:
        if isinstance(message, AssistantMessage) and not isinstance(message.content, str):
            for block in message.content:
                if isinstance(block, ToolUseContentBlock):
                    calls[block.tool_call_id] = block
        elif isinstance(message, ToolMessage):
            calls.pop(message.tool_call_id, None)
    return calls


class AAPServer(AAPOperations):
    """Serves ``agents`` over AAP (see the module docstring).

    ``store``: a :class:`~agentproto.aap.store.SessionStore` or a URL for
    :func:`~agentproto.aap.store.open_store` (``sqlite:///aap.db``, ``postgresql://...``);
    ``auth``: :class:`ApiKeys`, a function token -> principal (or ``None`` to refuse), or
    ``None`` for no auth. Every request passes :class:`~agentproto._runtime.guard.Guard`
    first: ``allowed_hosts`` (``None``: loopback names on a loopback address),
    ``allowed_origins`` (browsers; none by default), JSON bodies only, ``limits``'
    ``request_body_deadline`` and ``max_json_depth``. The store opens on first use or at the
    app's startup, and closes at its shutdown (or :meth:`aclose`).
    """

    def __init__(
        self,
        agents: Agent | Sequence[Agent],
        *,
        store: SessionStore | str,
        auth: ApiKeys | Authenticate | None,
        settings: ServerSettings | None = None,
        allowed_hosts: Sequence[str] | None = None,
        allowed_origins: Sequence[str] = (),
        limits: Limits | None = None,
    ) -> None:
        found = [agents] if isinstance(agents, Agent) else list(agents)
        if not found:
            raise ValueError("AAPServer needs at least one agent")
        self.agents: dict[str, Agent] = {}
        for agent in found:
            if agent.name in self.agents:
                raise ValueError(f"two agents are named {agent.name!r}")
            self.agents[agent.name] = agent
        self.store: SessionStore = open_store(store) if isinstance(store, str) else store
        self.settings: ServerSettings = settings or ServerSettings()
        self._auth = auth
        self.guard: GuardPolicy = GuardPolicy(
            allowed_hosts=None if allowed_hosts is None else tuple(allowed_hosts),
            allowed_origins=tuple(allowed_origins),
            max_body_bytes=self.settings.max_request_bytes,
            limits=limits or DEFAULT_LIMITS,
            error_body=plain_error,
        )
        self._leases = LeaseKeeper(self.store, self.settings.turn_lease)
        self._opened = False
        self._opening = anyio.Lock()
        self._app: Starlette | None = None

    def __repr__(self) -> str:
        return f"<AAPServer agents={list(self.agents)} store={self.store!r}>"

    # -- lifecycle --------------------------------------------------------------------------

    @property
    def app(self) -> Starlette:
        """The ASGI application (built once)."""
        if self._app is None:

            @asynccontextmanager
            async def lifespan(app: Starlette) -> AsyncGenerator[None, None]:
                await self.open()
                try:
                    yield
                finally:
                    await self.aclose()

            self._app = route_app(
                ROUTES,
                self,
                error_status=ERROR_STATUS,
                authenticate=self._authenticate,
                options=RouteOptions(
                    max_request_bytes=self.settings.max_request_bytes,
                    keepalive=self.settings.keepalive,
                    realm="aap",
                    anonymous=ANONYMOUS if self._auth is None else None,
                    instrumentation=INSTRUMENTATION,
                ),
                lifespan=lifespan,
                guard=self.guard,
            )
            if self._auth is None:
                log.warning("AAP server without auth: every caller is the same principal")
        return self._app

    async def open(self) -> None:
        async with self._opening:
            if not self._opened:
                await self.store.open()
                self._opened = True

    async def aclose(self) -> None:
        async with self._opening:
            for agent in self.agents.values():
                try:
                    await agent.aclose()
                except Exception:
                    log.exception("agent %s did not close", agent.name)
            if self._opened:
                self._opened = False
                await self.store.aclose()

    async def __aenter__(self) -> AAPServer:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _ready(self) -> SessionStore:
        if not self._opened:
            await self.open()
        return self.store

    async def _authenticate(self, token: str) -> str | None:
        if self._auth is None:
            return ANONYMOUS
        found = self._auth(token)
        return await found if isinstance(found, Awaitable) else found

    # -- helpers ----------------------------------------------------------------------------

    def _agent(self, name: str) -> Agent:
        agent = self.agents.get(name)
        if agent is None:  # the name is the client's: never echoed
            raise _bad(f"no such agent here (GET /meta lists {len(self.agents)})")
        return agent

    def _info(self, record: SessionRecord) -> dict[str, Any]:
        """The session as ``SessionInfo`` JSON, secret options redacted."""
        agent = dict(record.agent)
        served = self.agents.get(str(agent.get("name")))
        options = agent.get("options")
        if isinstance(options, dict) and served is not None:
            secret = served.secret_options()
            values = cast("dict[str, Any]", options)
            agent["options"] = {k: REDACTED if k in secret else v for k, v in values.items()}
        info: dict[str, Any] = {"sessionId": record.session_id, "agent": agent}
        if record.tools is not None:
            info["tools"] = record.tools
        return info

    def _check_agent_tools(self, agent: Agent, refs: Sequence[ServerToolRef]) -> None:
        if len(refs) > self.settings.max_tools_per_request:
            raise _bad(f"more than {self.settings.max_tools_per_request} server tools")
        names = [r.name for r in refs]
        for name in names:
            tool = agent.tools.get(name)
            if tool is None or not tool.exposed:
                raise _bad(f"agent {agent.name!r} exposes no tool {name!r}")
        if len(set(names)) != len(names):
            raise _bad("a server tool is named twice")

    def _check_options(self, agent: Agent, options: Mapping[str, str]) -> None:
        for name, value in options.items():
            problem = agent.check_option(name, value)
            if problem is not None:
                raise _bad(problem)

    def _check_client_tools(
        self, agent: Agent, tools: Sequence[ToolSpec], refs: Sequence[ServerToolRef]
    ) -> None:
        if tools and not agent.client_tools:
            raise _bad(f"agent {agent.name!r} does not take client tools")
        if len(tools) > self.settings.max_tools_per_request:
            raise _bad(f"more than {self.settings.max_tools_per_request} client tools")
        names = [t.name for t in tools]
        clash = sorted(
            {n for n in names if names.count(n) > 1} | (set(names) & {r.name for r in refs})
        )
        if clash:
            raise _bad(f"tool names must be unique across client and server tools: {clash}")

    # -- the operations ---------------------------------------------------------------------

    async def get_meta(self, context: RequestContext) -> GetMetaResponse:
        return GetMetaResponse(version=3, agents=[a.info() for a in self.agents.values()])

    async def list_sessions(
        self, context: RequestContext, *, after: str | None
    ) -> GetSessionsResponse:
        store = await self._ready()
        start = _read_cursor(after) if after is not None else None
        size = self.settings.page_size
        records = await store.list_sessions(context.principal, start, size + 1)
        page = records[:size]
        return GetSessionsResponse.model_validate(
            {
                "sessions": [self._info(r) for r in page],
                **({"next": _cursor(page[-1].seq)} if len(records) > size else {}),
            }
        )

    async def create_session(
        self, context: RequestContext, body: PostSessionsRequest
    ) -> PostSessionsResponse:
        store = await self._ready()
        agent = self._agent(body.agent.name)
        refs = body.agent.tools or []
        self._check_agent_tools(agent, refs)
        self._check_options(agent, body.agent.options or {})
        self._check_client_tools(agent, body.tools or [], refs)
        messages = body.messages or []
        if len(messages) > self.settings.max_messages_per_request:
            raise _bad(f"more than {self.settings.max_messages_per_request} messages")
        for message in messages:
            if isinstance(message, UserMessage):
                _images(message.content, agent)
        if (
            await store.count_sessions(context.principal)
            >= self.settings.max_sessions_per_principal
        ):
            raise OperationError("conflict", "too many sessions: delete some first")
        session_id = f"sess_{uuid.uuid4().hex}"
        await store.create_session(
            session_id,
            context.principal,
            wire(body.agent),
            None if body.tools is None else [wire(t) for t in body.tools],
            [wire(m) for m in messages],
        )
        return PostSessionsResponse(session_id=session_id)

    async def get_session(self, context: RequestContext, session_id: str) -> GetSessionResponse:
        store = await self._ready()
        record = await store.get_session(session_id, context.principal)
        if record is None:
            raise _not_found(session_id)
        return GetSessionResponse.model_validate(self._info(record))

    async def delete_session(self, context: RequestContext, session_id: str) -> None:
        store = await self._ready()
        if not await store.delete_session(session_id, context.principal):
            raise _not_found(session_id)
        for agent in self.agents.values():  # what an agent holds for it (an ACP process)
            try:
                await agent.end_session(session_id)
            except Exception:
                log.exception("agent %s could not end session %s", agent.name, session_id)

    async def get_session_history(
        self, context: RequestContext, session_id: str, *, type: str
    ) -> GetSessionHistoryResponse:
        store = await self._ready()
        record = await store.get_session(session_id, context.principal)
        if record is None:
            raise _not_found(session_id)
        agent = self.agents.get(str(record.agent.get("name")))
        if agent is None or type not in agent.history_types:
            raise OperationError("not_found", f"this agent keeps no {type} history")
        history = _HISTORY.validate_python(await store.messages(session_id))
        shown = history if type == "full" else agent.compact(history)
        return GetSessionHistoryResponse(history=SessionHistory(**{type: shown}))

    async def create_turn(
        self, context: RequestContext, session_id: str, body: PostSessionTurnRequest
    ) -> PostSessionTurnResponse | TurnRunner:
        store = await self._ready()
        if not body.messages:
            raise _bad("a turn needs at least one message")
        if len(body.messages) > self.settings.max_messages_per_request:
            raise _bad(f"more than {self.settings.max_messages_per_request} messages")
        turn_id = uuid.uuid4().hex
        start = await store.begin_turn(
            session_id, context.principal, turn_id, self.settings.turn_lease
        )
        if start.claim == "busy":
            raise OperationError("conflict", "a turn is already running in this session")
        if start.record is None:
            raise _not_found(session_id)
        try:
            runner = self._plan(context, start.record, start.messages or [], turn_id, body)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await store.end_turn(session_id, turn_id)
            raise
        if runner.plan.mode == "none":
            return await runner.run_to_end()
        return runner

    def _plan(
        self,
        context: RequestContext,
        record: SessionRecord,
        stored: list[dict[str, Any]],
        turn_id: str,
        body: PostSessionTurnRequest,
    ) -> TurnRunner:
        """The checked turn (raises ``bad_request`` for anything a turn may not do)."""
        agent = self._agent(str(record.agent.get("name")))
        mode = str(body.stream or "none")
        if mode not in ("delta", "message", "none"):
            raise _bad(f"unknown stream mode {mode!r}")
        if mode not in agent.stream_modes:
            raise _bad(f"agent {agent.name!r} does not support stream mode {mode!r}")
        config = AgentConfig.model_validate(record.agent)
        new_agent: dict[str, Any] | None = None
        if body.agent is not None:
            extra = body.agent.model_extra or {}
            if "name" in extra and extra["name"] != agent.name:
                raise _bad("the agent of a session cannot change")
            if body.agent.tools is not None:
                self._check_agent_tools(agent, body.agent.tools)
                config.tools = list(body.agent.tools)
            if body.agent.options is not None:
                self._check_options(agent, body.agent.options)
                config.options = {**(config.options or {}), **body.agent.options}
            new_agent = wire(config)
        refs = config.tools or []
        client_tools = body.tools if body.tools is not None else ToolSpecs.read(record.tools)
        self._check_client_tools(agent, client_tools, refs)
        for message in body.messages:
            if isinstance(message, UserMessage):
                _images(message.content, agent)
            elif not isinstance(message, ToolMessage | ToolPermissionMessage):
                raise _bad(
                    f"a turn takes user, tool and tool_permission messages, not {message.role!r}"
                )
        history = _HISTORY.validate_python(stored)
        if len(history) + len(body.messages) > self.settings.max_history_messages:
            raise _bad(f"the session's history is full ({self.settings.max_history_messages})")
        server_tools = self._enabled(agent, refs)
        calls = self._answers(body.messages, history, server_tools, client_tools)
        values = agent.option_values(config.options or {})
        secret = agent.secret_options()
        return TurnRunner(
            plan=TurnPlan(
                session_id=record.session_id,
                turn_id=turn_id,
                principal=context.principal,
                agent=agent,
                mode=mode,
                history=history,
                incoming=list(body.messages),
                calls=calls,
                server_tools=server_tools,
                client_tools=list(client_tools),
                options={k: v for k, v in values.items() if k not in secret},
                secrets={k: Secret(v) for k, v in values.items() if k in secret},
                new_agent=new_agent,
                new_tools=None if body.tools is None else [wire(t) for t in body.tools],
            ),
            store=self.store,
            limits=self.settings.turn_limits(),
            leases=self._leases,
        )

    def _enabled(
        self, agent: Agent, refs: Sequence[ServerToolRef]
    ) -> dict[str, tuple[ServerTool, bool]]:
        enabled: dict[str, tuple[ServerTool, bool]] = {
            t.name: (t, True) for t in agent.tools.values() if not t.exposed
        }
        for ref in refs:
            tool = agent.tools.get(ref.name)
            if tool is not None and tool.exposed:
                enabled[ref.name] = (tool, bool(ref.trust))
        return enabled

    def _answers(
        self,
        messages: Sequence[ApplicationMessage],
        history: Sequence[HistoryMessage],
        server_tools: Mapping[str, tuple[ServerTool, bool]],
        client_tools: Sequence[ToolSpec],
    ) -> dict[str, ToolUseContentBlock]:
        """The pending calls a turn answers, checked (see the module docstring)."""
        pending = _pending(history)
        answered: dict[str, ToolUseContentBlock] = {}
        for message in messages:
            if not isinstance(message, ToolMessage | ToolPermissionMessage):
                continue
            call = pending.get(message.tool_call_id)
            if call is None:
                raise _bad(f"no tool call {message.tool_call_id!r} waits for an answer")
            if message.tool_call_id in answered:
                raise _bad(f"tool call {message.tool_call_id!r} is answered twice")
            if isinstance(message, ToolPermissionMessage) and call.name not in server_tools:
                raise _bad(
                    f"tool call {call.tool_call_id!r} is not a server tool's: send its result"
                )
            answered[message.tool_call_id] = call
        unanswered = sorted(set(pending) - set(answered))
        if unanswered:
            raise _bad(f"tool calls wait for an answer first: {unanswered}")
        return answered


class ToolSpecs:
    """Reading stored client tools back."""

    _adapter: pydantic.TypeAdapter[list[ToolSpec]] = pydantic.TypeAdapter(list[ToolSpec])

    @classmethod
    def read(cls, stored: list[Any] | None) -> list[ToolSpec]:
        return [] if stored is None else cls._adapter.validate_python(stored)
