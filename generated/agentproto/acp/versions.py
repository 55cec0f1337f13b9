"""Protocol version negotiation: an editor that offers ACP v2 and falls back to v1
(:func:`negotiate_agent`, :func:`negotiate_agent_sync`), and an agent that serves v1 and v2
editors on the same command (:func:`serve_versions`, a router).

How it goes on the wire (ACP's ``initialize``: the client names the latest version it
supports, the agent answers with that version or the latest one it supports):

- The editor sends one ``initialize`` holding the highest offered version's request, plus the
  fields of the lower versions' requests that it lacks (v1's ``clientCapabilities`` and
  ``clientInfo`` beside v2's ``capabilities`` and ``info``), so that a v1 agent reading it
  learns what a v1 editor would have told it. The version the agent answers selects the
  offer: its handler serves the agent's calls and the connection is that version's
  ``AgentConnection``. A version not offered closes the connection (:class:`VersionError`).
- The router reads the first ``initialize`` and hands the connection to the agent of the
  highest configured version at or below the requested one (a v1-only agent takes every
  request, as v1 agents answer with their own version). Before that, a request gets -32600
  and a notification is dropped with a warning (ACP sends none before ``initialize``); a
  requested version below every configured one is answered -32022 and the editor may try
  again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, cast

from agentproto._runtime.json_types import JSONValue
from agentproto._runtime.jsonrpc import (
    DEFAULT_LIMIT,
    Connection,
    InvalidParams,
    InvalidRequest,
    RpcError,
    Writer,
    spawn,
    stdio_connection,
)
from agentproto.acp.core import (
    Dispatch,
    Edition,
    Handshake,
    VersionError,
    dump,
    protocol_error,
    start_loop,
)

if TYPE_CHECKING:
    from pydantic import BaseModel

    from agentproto.acp import connection as _v1
    from agentproto.acp import models as _v1_models
    from agentproto.acp import params as _v1_params
    from agentproto.acp.v2 import connection as _v2
    from agentproto.acp.v2 import models as _v2_models
    from agentproto.acp.v2 import params as _v2_params

logger: logging.Logger = logging.getLogger("agentproto.acp")

_EARLY_LIMIT: Final = 1000  # notifications kept while the version is not known yet


class UnsupportedProtocolVersion(RpcError):
    """No protocol version the agent supports is at or below the requested one (-32022)."""

    code = -32022


def _edition(version: int) -> Edition:
    """The generated module's description of a protocol version (imported on first use)."""
    if version == 1:
        from agentproto.acp.connection import EDITION as V1

        return V1
    if version == 2:
        from agentproto.acp.v2.connection import EDITION as V2

        return V2
    raise ValueError(f"this package speaks ACP versions 1 and 2, not {version}")


@dataclass(frozen=True)
class Offer:
    """One protocol version an editor offers: the handler serving the agent's calls in that
    version and its ``initialize`` request. Made with :meth:`v1` or :meth:`v2`, which type the
    handler and the request for their version."""

    version: int
    client: Any
    initialize: Any
    unstable: bool = False

    @classmethod
    def v1(
        cls,
        client: _v1.Client | _v1.SyncClient,
        initialize: _v1_models.InitializeRequest | _v1_params.InitializeRequestParam,
        *,
        unstable: bool = False,
    ) -> Offer:
        """Offer ACP v1 (its ``protocolVersion`` is set to 1)."""
        return cls(1, client, initialize, unstable)

    @classmethod
    def v2(
        cls,
        client: _v2.Client | _v2.SyncClient,
        initialize: _v2_models.InitializeRequest | _v2_params.InitializeRequestParam,
        *,
        unstable: bool = False,
    ) -> Offer:
        """Offer the draft ACP v2 (its ``protocolVersion`` is set to 2)."""
        return cls(2, client, initialize, unstable)

    def request(self) -> dict[str, JSONValue]:
        """The ``initialize`` request as the wire has it, checked against this version's
        schema (``protocolVersion`` set to the version)."""
        model: type[BaseModel] = _edition(self.version).model("InitializeRequest", False)
        value = (
            self.initialize
            if isinstance(self.initialize, model)
            else model.model_validate(self.initialize)
        )
        wire: dict[str, JSONValue] = value.model_dump(mode="json", by_alias=True, exclude_none=True)
        wire["protocolVersion"] = self.version
        return wire


def merged_initialize(offers: Sequence[Offer]) -> dict[str, JSONValue]:
    """One ``initialize`` request for every offer: the highest version's, plus the fields of
    the lower versions' requests that it does not have."""
    merged: dict[str, JSONValue] = {}
    for offer in sorted(offers, key=lambda o: o.version):
        merged.update(offer.request())
    return merged


@dataclass(frozen=True)
class Negotiated:
    """The outcome of :func:`negotiate_agent`: the version the agent answered, its typed
    ``initialize`` response and that version's connection."""

    version: int
    initialize: _v1_models.InitializeResponse | _v2_models.InitializeResponse
    connection: _v1.AgentConnection | _v2.AgentConnection

    @property
    def v1(self) -> _v1.AgentConnection | None:
        """The connection when the agent speaks v1."""
        from agentproto.acp.connection import AgentConnection

        return self.connection if isinstance(self.connection, AgentConnection) else None

    @property
    def v2(self) -> _v2.AgentConnection | None:
        """The connection when the agent speaks v2."""
        from agentproto.acp.v2.connection import AgentConnection

        return self.connection if isinstance(self.connection, AgentConnection) else None


class _Pending:
    """The editor's dispatch while the version is not known: requests wait for it, and
    notifications are kept (in order, up to a bound) and delivered once it is."""

    def __init__(self) -> None:
        self.chosen: asyncio.Future[Dispatch] = asyncio.get_running_loop().create_future()
        self._early: list[tuple[str, Any]] = []

    async def request(self, method: str, params: Any) -> Any:
        dispatch = await asyncio.shield(self.chosen)
        return await dispatch.request(method, params)

    async def notify(self, method: str, params: Any) -> None:
        if self.chosen.done() and not self.chosen.cancelled() and self.chosen.exception() is None:
            await self.chosen.result().notify(method, params)
            return
        if len(self._early) >= _EARLY_LIMIT:
            logger.warning("dropping a %r notification sent before initialize was answered", method)
            return
        self._early.append((method, params))

    async def choose(self, dispatch: Dispatch) -> None:
        self.chosen.set_result(dispatch)
        early, self._early = self._early, []
        for method, params in early:
            await dispatch.notify(method, params)

    def fail(self, error: BaseException) -> None:
        if not self.chosen.done():
            self.chosen.set_exception(error)
            self.chosen.exception()  # retrieved: waiting requests get it


def _check_offers(offers: Sequence[Offer]) -> dict[int, Offer]:
    by_version: dict[int, Offer] = {}
    for offer in offers:
        _edition(offer.version)  # a version this package speaks
        if offer.version in by_version:
            raise ValueError(f"version {offer.version} is offered twice")
        by_version[offer.version] = offer
    if not by_version:
        raise ValueError("offer at least one protocol version")
    return by_version


async def _negotiate(
    connection: Connection,
    pending: _Pending,
    offers: Mapping[int, Offer],
    check_capabilities: bool,
    process: Any = None,
) -> Negotiated:
    """Send the merged ``initialize`` and attach the version the agent answers."""
    request = merged_initialize(list(offers.values()))
    try:
        raw = await connection.request("initialize", dump(request))
        answer: dict[str, JSONValue] = (
            cast("dict[str, JSONValue]", raw) if isinstance(raw, dict) else {}
        )
        answered = answer.get("protocolVersion")
        version = answered if isinstance(answered, int) and not isinstance(answered, bool) else None
        offer = offers.get(version) if version is not None else None
        if offer is None:
            raise VersionError(version, tuple(sorted(offers, reverse=True)))
        edition = _edition(offer.version)
        handshake = Handshake(edition)
        handshake.record(request, answer)
        model = edition.model("InitializeResponse", False)
        from agentproto._runtime.base import PEER_CONTEXT

        try:
            response = model.model_validate(answer, context=PEER_CONTEXT)
        except ValueError as exc:
            raise protocol_error("initialize", exc) from exc
    except BaseException as exc:
        pending.fail(
            exc if isinstance(exc, Exception) else RuntimeError("negotiation was cancelled")
        )
        raise
    await pending.choose(Dispatch(offer.client, edition, "client", offer.unstable, handshake))
    connection_class = _connection_class(offer.version)
    conn = connection_class(
        connection,
        unstable=offer.unstable,
        process=process,
        handshake=handshake,
        check_capabilities=check_capabilities,
    )
    typed = cast("_v1_models.InitializeResponse | _v2_models.InitializeResponse", response)
    return Negotiated(offer.version, typed, conn)


def _connection_class(version: int) -> type[_v1.AgentConnection] | type[_v2.AgentConnection]:
    if version == 1:
        from agentproto.acp.connection import AgentConnection as V1Connection

        return V1Connection
    from agentproto.acp.v2.connection import AgentConnection as V2Connection

    return V2Connection


@asynccontextmanager
async def negotiate_agent(
    command: str | Sequence[str],
    args: Sequence[str] = (),
    *,
    offers: Sequence[Offer],
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    limit: int = DEFAULT_LIMIT,
    expose_errors: bool = False,
    check_capabilities: bool = True,
    stderr: bool = False,
) -> AsyncGenerator[Negotiated, None]:
    """Start an agent process, negotiate the protocol version with it (see the module's
    docstring) and yield the outcome; on exit the agent is shut down as by ``spawn_agent``.
    ``offers``: one :class:`Offer` per version, e.g. ``[Offer.v2(...), Offer.v1(...)]``."""
    by_version = _check_offers(offers)
    pending = _Pending()
    process = await spawn(
        pending,
        command,
        args,
        env=env,
        cwd=cwd,
        limit=limit,
        expose_errors=expose_errors,
        pass_stderr=stderr,
    )
    try:
        for version in by_version:
            _edition(version).warm_up()
        negotiated = await _negotiate(
            process.connection, pending, by_version, check_capabilities, process
        )
        yield negotiated
    finally:
        pending.fail(RuntimeError("the connection was closed"))
        await process.close()


async def connect_negotiated(
    reader: asyncio.StreamReader,
    writer: Writer,
    *,
    offers: Sequence[Offer],
    expose_errors: bool = False,
    check_capabilities: bool = True,
) -> Negotiated:
    """:func:`negotiate_agent` over streams you already have (any byte stream)."""
    by_version = _check_offers(offers)
    pending = _Pending()
    connection = Connection(reader, writer, pending, name="agent", expose_errors=expose_errors)
    connection.start()
    try:
        return await _negotiate(connection, pending, by_version, check_capabilities)
    except BaseException:
        await connection.close()
        raise


def negotiate_agent_sync(
    command: str | Sequence[str],
    args: Sequence[str] = (),
    *,
    offers: Sequence[Offer],
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    expose_errors: bool = False,
    check_capabilities: bool = True,
    stderr: bool = False,
) -> _v1.SyncAgentConnection | _v2.SyncAgentConnection:
    """The blocking :func:`negotiate_agent`: that version's ``SyncAgentConnection`` (its
    ``protocol_version`` says which; ``close()`` or a ``with`` block shuts the agent down).
    The handlers may be ``SyncClient`` subclasses."""
    by_version = _check_offers(offers)

    async def start() -> Negotiated:
        pending = _Pending()
        process = await spawn(
            pending,
            command,
            args,
            env=env,
            cwd=cwd,
            expose_errors=expose_errors,
            pass_stderr=stderr,
        )
        try:
            return await _negotiate(
                process.connection, pending, by_version, check_capabilities, process
            )
        except BaseException:
            await process.close()
            raise

    loop, negotiated = start_loop("acp-editor", start)
    if negotiated.version == 1:
        from agentproto.acp.connection import AgentConnection as V1Connection
        from agentproto.acp.connection import SyncAgentConnection as V1Sync

        assert isinstance(negotiated.connection, V1Connection)
        return V1Sync(loop, negotiated.connection)
    from agentproto.acp.v2.connection import AgentConnection as V2Connection
    from agentproto.acp.v2.connection import SyncAgentConnection as V2Sync

    assert isinstance(negotiated.connection, V2Connection)
    return V2Sync(loop, negotiated.connection)


# -- the agent's side: one command, several versions --------------------------------------------


@dataclass
class _Router:
    """Routes a connection to the agent of the version its first ``initialize`` asks for."""

    agents: dict[int, Any]
    unstable: bool
    check_capabilities: bool
    connection: Connection | None = None
    chosen: Dispatch | None = None
    version: int | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # the connection is set

    def select(self, requested: int) -> int:
        configured = sorted(self.agents)
        if configured == [1]:
            return 1  # a v1 agent answers every version (with its own)
        at_or_below = [v for v in configured if v <= requested]
        if not at_or_below:
            raise UnsupportedProtocolVersion(
                f"protocol version {requested} is not supported: this agent speaks {configured}",
                {"requested": requested, "supported": configured},
            )
        return at_or_below[-1]

    async def request(self, method: str, params: Any) -> Any:
        if self.chosen is not None:
            return await self.chosen.request(method, params)
        if method != "initialize":
            raise InvalidRequest("send initialize first")
        await self.ready.wait()
        async with self._lock:
            chosen = self.chosen
            if chosen is None:
                given = cast("dict[str, JSONValue]", params) if isinstance(params, dict) else {}
                requested = given.get("protocolVersion")
                if not isinstance(requested, int) or isinstance(requested, bool):
                    raise InvalidParams("initialize needs an integer protocolVersion")
                chosen = self._attach(self.select(requested))
        return await chosen.request(method, params)

    def _attach(self, version: int) -> Dispatch:
        assert self.connection is not None
        edition = _edition(version)
        handshake = Handshake(edition)
        agent = self.agents[version]
        self.chosen = Dispatch(agent, edition, "agent", self.unstable, handshake)
        if version == 1:
            from agentproto.acp.connection import ClientConnection as V1Client

            agent.client = V1Client(
                self.connection,
                unstable=self.unstable,
                handshake=handshake,
                check_capabilities=self.check_capabilities,
            )
        else:
            from agentproto.acp.v2.connection import ClientConnection as V2Client

            agent.client = V2Client(
                self.connection,
                unstable=self.unstable,
                handshake=handshake,
                check_capabilities=self.check_capabilities,
            )
        self.version = version
        return self.chosen

    async def notify(self, method: str, params: Any) -> None:
        if self.chosen is not None:
            await self.chosen.notify(method, params)
            return
        logger.warning("the agent dropped a %r notification sent before initialize", method)


async def serve_versions(
    *,
    v1: _v1.Agent | None = None,
    v2: _v2.Agent | None = None,
    unstable: bool = False,
    reader: asyncio.StreamReader | None = None,
    writer: Writer | None = None,
    expose_errors: bool = False,
    check_capabilities: bool = True,
) -> None:
    """Serve one editor (over this process's stdin/stdout unless streams are given) with the
    agent of the version it asks for (see the module's docstring) until it closes the
    connection. Each agent's ``client`` is set to its version's connection when chosen."""
    agents: dict[int, Any] = {}
    if v1 is not None:
        agents[1] = v1
    if v2 is not None:
        agents[2] = v2
    if not agents:
        raise ValueError("give an agent for at least one version (v1=..., v2=...)")
    router = _Router(agents, unstable, check_capabilities)
    if reader is None or writer is None:
        connection = await stdio_connection(router, name="editor", expose_errors=expose_errors)
    else:
        connection = Connection(reader, writer, router, name="editor", expose_errors=expose_errors)
        connection.start()
    router.connection = connection
    router.ready.set()
    for version in agents:
        _edition(version).warm_up()
    await connection.wait_closed()
