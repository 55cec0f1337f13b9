"""Browser safety and request-body bounds for any ASGI application (hand-written; no dependency
beyond the standard library).

:class:`Guard` wraps an ASGI 3 app (``Guard(app, policy=GuardPolicy(...))``, or as a Starlette
middleware: ``Middleware(Guard, policy=...)``). Per HTTP request or WebSocket handshake, before
the app sees it:

1. **Host**: the ``Host`` header must name an allowed host (:attr:`GuardPolicy.allowed_hosts`).
   By default (``None``) a request that came in on a loopback address must name a loopback
   host (``localhost``, ``127.0.0.1``, ``[::1]``; any port): a page on another site that
   rebinds its DNS name to 127.0.0.1 (DNS rebinding) is refused, 421. A request that came in on
   another address is not checked by default: list the names it is served under.
2. **Origin**: a request carrying an ``Origin`` header (a browser's, cross-site or not) is
   refused (403) unless that origin is listed in :attr:`GuardPolicy.allowed_origins`. Editors,
   scripts and SDKs send no ``Origin``.
3. **Content type** (HTTP, with :attr:`GuardPolicy.json_only`): a request with a body, or with
   a ``Content-Type``, on a method other than GET / HEAD / OPTIONS must be JSON
   (``application/json`` or ``*/*+json``), else 415: the types a web page can send without a
   CORS preflight (``text/plain``, forms) never reach a JSON endpoint.
4. **The body**, as the app reads it: larger than :attr:`GuardPolicy.max_body_bytes` (declared
   or counted) is 413; not arrived whole within ``Limits.request_body_deadline`` of the app's
   start (a client dripping its body) is 408; a JSON body nested deeper than
   ``Limits.max_json_depth`` is 400 as soon as the nesting shows, before it is parsed. The app
   then reads ``http.disconnect`` and whatever it answers is dropped; the refusal carries
   ``Connection: close``, so the rest of the body is never read.

Every refusal is answered with the protocol's own error body: :attr:`GuardPolicy.error_body`
turns a :class:`Refusal` into JSON (:func:`plain_error`: ``{"error": message}``;
:func:`jsonrpc_error`: a JSON-RPC error with id ``null``, -32700 for nesting). Nothing of the
request is echoed. WebSocket handshakes are checked for Host and Origin (refused with the
status when the server supports ``websocket.http.response``, else close code 1008 and the
server's 403); frames are the app's and the ASGI server's (``ws_max_size``).

The connection-level bounds (the request head's deadline and size, the connection caps) are the
ASGI server's: :mod:`agentproto._runtime.serve` runs uvicorn with them.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field
from ipaddress import ip_address
from typing import Any, Final, Literal

from agentproto._runtime.limits import DEFAULT_LIMITS, Limits, describe

__all__ = [
    "ASGIApp",
    "ErrorBody",
    "Guard",
    "GuardPolicy",
    "Refusal",
    "RefusalKind",
    "allowed_names",
    "is_loopback",
    "jsonrpc_error",
    "plain_error",
    "refusal_response",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

RefusalKind = Literal[
    "host",
    "origin",
    "content_type",
    "body_too_large",
    "body_deadline",
    "json_depth",
    "header_deadline",
    "header_too_large",
    "too_many_connections",
]
"""Why a request or connection was refused (the guard's and :mod:`~agentproto._runtime.serve`'s)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request refused before (or while) the app read it: the HTTP ``status``, a ``kind`` a
    protocol can map to its own error code, and a ``message`` safe to show (never the input)."""

    status: int
    kind: RefusalKind
    message: str


ErrorBody = Callable[[Refusal], Mapping[str, Any]]
"""A refusal -> the JSON body of its answer, in the protocol's error shape."""


def plain_error(refusal: Refusal) -> Mapping[str, Any]:
    """``{"error": message}`` (AAP's ``ErrorResponse``, and most HTTP APIs)."""
    return {"error": refusal.message}


def jsonrpc_error(refusal: Refusal) -> Mapping[str, Any]:
    """A JSON-RPC 2.0 error with id ``null``: -32700 (parse error) for nesting past the limit,
    -32600 (invalid request) for anything else refused."""
    code = -32700 if refusal.kind == "json_depth" else -32600
    return {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": refusal.message}}


def refusal_response(refusal: Refusal, error_body: ErrorBody = plain_error) -> bytes:
    """A whole HTTP/1.1 answer to ``refusal`` (status line, headers, JSON body), closing the
    connection: for servers that answer before any app runs."""
    body = _encode(error_body(refusal))
    head = (
        f"HTTP/1.1 {refusal.status} {_REASONS.get(refusal.status, 'Error')}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body


_REASONS: Final = {
    400: "Bad Request",
    403: "Forbidden",
    408: "Request Timeout",
    413: "Content Too Large",
    415: "Unsupported Media Type",
    421: "Misdirected Request",
    431: "Request Header Fields Too Large",
    503: "Service Unavailable",
}
_LOOPBACK_NAMES: Final = frozenset({"localhost", "localhost.", "ip6-localhost"})
_SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})


def _encode(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is loopback:
    ``localhost``, 127.0.0.0/8, ``::1``. The wildcard addresses (``0.0.0.0``, ``::``) are not:
    they listen on every interface."""
    name = host.strip().lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    if name in _LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        return ip_address(name.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _host_name(value: str) -> str:
    """The host of a ``Host`` header value (without the port; IPv6 without brackets)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1 : value.find("]")] if "]" in value else value
    if value.count(":") == 1:
        return value.partition(":")[0]
    return value


def _pattern(name: str) -> str:
    name = name.strip().lower()
    return name[1:-1] if name.startswith("[") and name.endswith("]") else name


@dataclass(frozen=True)
class GuardPolicy:
    """What :class:`Guard` lets through (see the module docstring)."""

    allowed_hosts: tuple[str, ...] | None = None
    """Host names (or addresses) requests may name, without port; ``*.example.com`` matches
    its subdomains, ``*`` any host. ``None``: loopback names for requests that came in on a
    loopback address, anything otherwise."""
    allowed_origins: tuple[str, ...] = ()
    """Browser origins (``https://app.example.com``) allowed; ``*`` any. Empty: a request
    with an ``Origin`` header is refused."""
    json_only: bool = True
    """Refuse request bodies that are not JSON (415)."""
    max_body_bytes: int | None = None
    """The largest request body (413 past it); ``None``: the app's business."""
    limits: Limits = DEFAULT_LIMITS
    """``request_body_deadline`` and ``max_json_depth`` apply to request bodies."""
    error_body: ErrorBody = field(default=plain_error)
    """The JSON body of every refusal, in the protocol's shape."""
    read_first: bool = False
    """Read the whole body (within the bounds) before the app starts, and hand it over in one
    piece: for apps that read it whole anyway and would log a refusal mid-body as an error
    (the MCP SDK). A client gone before its body's end never reaches the app."""

    def __post_init__(self) -> None:
        if self.allowed_hosts is not None:
            object.__setattr__(
                self, "allowed_hosts", tuple(_pattern(h) for h in self.allowed_hosts)
            )
        object.__setattr__(self, "allowed_origins", tuple(self.allowed_origins))

    def host_allowed(self, host: str | None, local: str | None) -> bool:
        """Whether a request naming ``host`` (the Host header, ``None`` when absent) that came
        in on the local address ``local`` passes."""
        if self.allowed_hosts is None:
            if local is None or not is_loopback(local):
                return True
            return host is not None and is_loopback(_host_name(host))
        if host is None:
            return False
        name = _host_name(host)
        for allowed in self.allowed_hosts:
            if allowed == "*" or allowed == name:
                return True
            if allowed.startswith("*.") and name.endswith(allowed[1:]):
                return True
        return False

    def origin_allowed(self, origin: str) -> bool:
        return "*" in self.allowed_origins or origin in self.allowed_origins


# Nesting is only worth scanning for once a body holds more opening brackets than the limit.
_SPECIAL: Final = re.compile(rb'[\[\]{}"\\]')


class _Depth:
    """The nesting of JSON text fed in pieces (strings and their escapes skipped)."""

    __slots__ = ("depth", "escaped", "held", "in_string", "limit", "opens", "scanning")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.opens = 0
        self.held: list[bytes] = []
        self.scanning = False
        self.depth = 0
        self.in_string = False
        self.escaped = False  # the next piece's first byte is escaped

    def too_deep(self, data: bytes) -> bool:
        if not self.scanning:
            self.opens += data.count(b"[") + data.count(b"{")
            if self.opens <= self.limit:
                self.held.append(data)
                return False
            self.scanning = True
            held, self.held = self.held, []
            return any(self._scan(piece) for piece in (*held, data))
        return self._scan(data)

    def _scan(self, data: bytes) -> bool:
        depth, in_string, limit = self.depth, self.in_string, self.limit
        skip = 0 if self.escaped else -1
        for match in _SPECIAL.finditer(data):
            at = match.start()
            if at == skip:
                continue
            char = data[at]
            if in_string:
                if char == 0x5C:  # backslash: the next byte is escaped
                    skip = at + 1
                elif char == 0x22:
                    in_string = False
            elif char == 0x22:
                in_string = True
            elif char in (0x5B, 0x7B):
                depth += 1
                if depth > limit:
                    return True
            elif char in (0x5D, 0x7D):
                depth -= 1
        self.depth, self.in_string = depth, in_string
        self.escaped = skip == len(data)
        return False


class Guard:
    """An ASGI app that checks requests before ``app`` sees them (see the module docstring)."""

    def __init__(self, app: ASGIApp, *, policy: GuardPolicy | None = None) -> None:
        self.app: ASGIApp = app
        self.policy: GuardPolicy = policy or GuardPolicy()

    def __repr__(self) -> str:
        return f"Guard({self.app!r})"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind != "http" and kind != "websocket":
            await self.app(scope, receive, send)
            return
        host = origin = content_type = length = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"host":
                host = value.decode("latin-1")
            elif name == b"origin":
                origin = value.decode("latin-1")
            elif name == b"content-type":
                content_type = value
            elif name == b"content-length":
                length = value
            elif name == b"transfer-encoding":
                chunked = True
        refusal = self._check_request(scope, host, origin)
        if kind == "websocket":
            if refusal is not None:
                await self._refuse_websocket(scope, receive, send, refusal)
            else:
                await self.app(scope, receive, send)
            return
        if refusal is None:
            refusal = self._check_body(scope, content_type, length, chunked)
        if refusal is not None:
            await _answer(send, refusal, self.policy.error_body)
            return
        has_body = chunked or (length is not None and length != b"0")
        if not has_body:
            await self.app(scope, receive, send)
            return
        json_body = content_type is not None and _is_json(content_type)
        body = _Body(self.policy, receive, send, json_body)
        if not self.policy.read_first:
            await self.app(scope, body.receive, body.send)
            return
        pieces: list[bytes] = []
        while not body.done:
            message = await body.receive()
            if message["type"] != "http.request":
                return  # refused (answered already), or the client went away
            pieces.append(message.get("body", b""))
        whole: list[Message] = [{"type": "http.request", "body": b"".join(pieces)}]

        async def replay() -> Message:
            return whole.pop() if whole else await receive()

        await self.app(scope, replay, body.send)

    def _check_request(self, scope: Scope, host: str | None, origin: str | None) -> Refusal | None:
        server = scope.get("server")
        local = str(server[0]) if server else None
        if not self.policy.host_allowed(host, local):
            return Refusal(421, "host", "this server is not reached under that Host")
        if origin is not None and not self.policy.origin_allowed(origin):
            return Refusal(403, "origin", "requests from this origin are not allowed")
        return None

    def _check_body(
        self, scope: Scope, content_type: bytes | None, length: bytes | None, chunked: bool
    ) -> Refusal | None:
        policy = self.policy
        has_body = chunked or (length is not None and length != b"0")
        if policy.json_only and (has_body or scope.get("method") not in _SAFE_METHODS):
            if (content_type is None and has_body) or (
                content_type is not None and not _is_json(content_type)
            ):
                return Refusal(415, "content_type", "the body must be JSON (application/json)")
        limit = policy.max_body_bytes
        if limit is not None and length is not None:
            try:
                declared = int(length)
            except ValueError:
                return None  # the server refuses a malformed Content-Length itself
            if declared > limit:
                return _too_large(limit)
        return None

    async def _refuse_websocket(
        self, scope: Scope, receive: Receive, send: Send, refusal: Refusal
    ) -> None:
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        if "websocket.http.response" in scope.get("extensions", {}):
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": refusal.status,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            body = _encode(self.policy.error_body(refusal))
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008})


def _is_json(content_type: bytes) -> bool:
    media = content_type.partition(b";")[0].strip().lower()
    return media == b"application/json" or (
        media.startswith(b"application/") and media.endswith(b"+json")
    )


def _too_large(limit: int) -> Refusal:
    return Refusal(413, "body_too_large", f"the body is larger than {limit} bytes")


async def _answer(send: Send, refusal: Refusal, error_body: ErrorBody) -> None:
    body = _encode(error_body(refusal))
    await send(
        {
            "type": "http.response.start",
            "status": refusal.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})


_DISCONNECT: Final = {"type": "http.disconnect"}


class _Body:
    """The request body as the app reads it, within the policy's bounds."""

    __slots__ = (
        "_receive",
        "_send",
        "answered",
        "deadline",
        "depth",
        "done",
        "policy",
        "size",
        "started",
    )

    def __init__(self, policy: GuardPolicy, receive: Receive, send: Send, json_body: bool) -> None:
        self.policy = policy
        self._receive = receive
        self._send = send
        limit = policy.limits.request_body_deadline
        self.deadline = None if limit is None else asyncio.get_running_loop().time() + limit
        self.depth = _Depth(policy.limits.max_json_depth) if json_body else None
        self.size = 0
        self.done = False
        self.answered = False
        self.started = False

    async def receive(self) -> Message:
        if self.answered:
            return dict(_DISCONNECT)
        if self.done or self.deadline is None:
            message = await self._receive()
        else:
            try:
                async with asyncio.timeout_at(self.deadline):
                    message = await self._receive()
            except TimeoutError:
                seconds = describe(
                    "request_body_deadline", self.policy.limits.request_body_deadline
                )
                return await self._refuse(
                    Refusal(408, "body_deadline", f"the body did not arrive within {seconds}")
                )
        if message["type"] != "http.request" or self.done:
            return message
        data: bytes = message.get("body", b"")
        self.size += len(data)
        limit = self.policy.max_body_bytes
        if limit is not None and self.size > limit:
            return await self._refuse(_too_large(limit))
        if self.depth is not None and data and self.depth.too_deep(data):
            limit_depth = self.policy.limits.max_json_depth
            return await self._refuse(
                Refusal(
                    400,
                    "json_depth",
                    f"the JSON body is nested deeper than {limit_depth} (max_json_depth)",
                )
            )
        if not message.get("more_body", False):
            self.done = True
            self.depth = None
        return message

    async def _refuse(self, refusal: Refusal) -> Message:
        self.answered = True
        if not self.started:
            await _answer(self._send, refusal, self.policy.error_body)
        return dict(_DISCONNECT)

    async def send(self, message: Message) -> None:
        if self.answered:
            return  # the guard answered: what the app says now goes nowhere
        if message["type"] == "http.response.start":
            self.started = True
        await self._send(message)


def allowed_names(names: Iterable[str]) -> tuple[str, ...]:
    """Host names given on a command line or in a config, checked (no scheme, path or port)."""
    found: list[str] = []
    for name in names:
        value = name.strip()
        if not value or "/" in value or " " in value:
            raise ValueError(f"{name!r} is not a host name (give names like api.example.com)")
        found.append(value)
    return tuple(found)
