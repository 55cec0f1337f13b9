"""What a server needs to know about each HTTP operation of a spec table (hand-written).

A protocol's generated ``routes.py`` holds one :class:`RouteSpec` per operation (method,
path, parameters, body and answer models, success status, stream modes, errors) and a base
class with one method per operation; :mod:`agentproto._runtime.http_server` serves them.
Nothing here imports a web framework: the table can be read (and tested) without one.

Handlers raise :class:`OperationError` with an error *name* of the spec table
(``"not_found"``...); the server answers the status the table gives that name, never a
status chosen in code, and the message is the only text the client sees.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from agentproto._runtime.http_errors import APIError

HttpMethod = Literal["GET", "POST", "PUT", "PATCH", "DELETE"]
E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class QuerySpec:
    """A query parameter: required or not, and the values it may take (None: any string)."""

    name: str
    required: bool = False
    values: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class PageSpec:
    """Cursor pagination: the page's ``next_field`` comes back as the ``cursor_param``."""

    cursor_param: str
    next_field: str
    items_field: str


@dataclass(frozen=True, slots=True)
class StreamSpec:
    """An operation whose answer is an SSE stream when the request's ``mode_field`` names one
    of ``modes`` (mode -> the union model of the events it may carry). Each event is a model
    whose ``discriminator`` field is the SSE ``event:`` name, left out of the ``data:`` JSON."""

    mode_field: str
    modes: Mapping[str, type[Any]]
    event: type[Any]
    discriminator: str
    terminal_event: str | None = None


@dataclass(frozen=True, slots=True)
class RouteSpec:
    """One operation as a server serves it (read from the spec table at build time)."""

    name: str  # also the handler method's name
    method: HttpMethod
    path: str  # with {param} placeholders, e.g. /sessions/{session_id}
    success_status: int
    request: type[Any] | None = None
    response: type[Any] | None = None
    path_params: tuple[str, ...] = ()
    query: tuple[QuerySpec, ...] = ()
    auth_optional: bool = False
    errors: tuple[str, ...] = ()
    pagination: PageSpec | None = None
    stream: StreamSpec | None = None


@dataclass(frozen=True, slots=True)
class RequestContext:
    """Who is calling and with what headers, given to every handler.

    ``principal`` is what the credentials identify (the name the server's key table or token
    check gave), ``None`` for an anonymous call on a route where auth is optional.
    ``headers`` are the request's, names lower-cased; ``Authorization`` is left out.
    """

    principal: str | None
    request_id: str
    headers: Mapping[str, str] = field(default_factory=dict[str, str])


class OperationError(APIError):
    """What a handler raises to answer with one of the spec table's errors.

    ``error`` is the table's error name (``"not_found"``, ``"conflict"``...): the server
    answers the status the table gives it. ``message`` is sent to the client as is, so it
    must hold nothing internal (no exception text, no secret)."""

    def __init__(self, error: str, message: str, *, headers: Mapping[str, str] | None = None):
        super().__init__(message)
        self.error: str = error
        self.message: str = message
        self.headers: dict[str, str] = dict(headers or {})


class NotImplementedOperation(OperationError):
    """An operation of the spec table that this server does not implement (answered 501)."""

    def __init__(self, operation: str) -> None:
        super().__init__("not_implemented", f"{operation} is not implemented by this server")
        self.operation: str = operation


class EventSource(Generic[E]):
    """What a stream operation's handler may answer with: the server calls :meth:`run` once,
    frames each event ``emit`` is given, and ends the stream when ``run`` returns.

    ``run`` is a plain coroutine, not an async generator, so it may hold cancel scopes and
    task groups (timeouts, helpers) without yielding inside them; when the client goes away,
    the task running it is cancelled (its ``finally`` blocks run; shield what must finish).
    """

    async def run(self, emit: Callable[[E], Awaitable[None]]) -> None:
        raise NotImplementedError
