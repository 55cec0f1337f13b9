"""The intermediate representation: what every later stage reads, whatever the protocol.

Loaders (:mod:`codegen.inputs.spec_table`, :mod:`codegen.inputs.corpus`) build it from the
inputs; the model and template stages only read it. Everything is frozen and ordered, so two
builds from the same inputs see the same IR.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Direction = Literal["client_to_server", "server_to_client", "both"]


@dataclass(frozen=True)
class ErrorDef:
    name: str
    description: str
    code: str | int | None = None
    http_status: tuple[int, ...] = ()
    retryable: bool = False
    local: bool = False
    class_name: str | None = None  # the exception class, when the table names it
    message: str | None = None  # the default message

    @property
    def exception(self) -> str:
        """The exception class name: the table's ``class``, else from the name
        (``task_not_found`` -> ``TaskNotFound``)."""
        if self.class_name is not None:
            return self.class_name
        return "".join(part.capitalize() for part in self.name.split("_"))


@dataclass(frozen=True)
class QueryParam:
    """A query parameter of an HTTP operation; ``type`` is a primitive name or a $defs type."""

    name: str
    type: str
    required: bool = False
    description: str = ""


@dataclass(frozen=True)
class Pagination:
    """Cursor pagination: pass the page's ``next_field`` back as ``cursor_param``."""

    cursor_param: str
    next_field: str
    items_field: str


@dataclass(frozen=True)
class EndRule:
    """An event after which a stream is over: its tag is ``tag`` (any when ``None``) and,
    with ``field`` (a dotted path of wire names), the value there is one of ``values``."""

    tag: str | None = None
    field: str | None = None
    values: tuple[Any, ...] = ()


@dataclass(frozen=True)
class StreamSpec:
    """A response that can be an SSE stream of ``event`` (a union tagged by ``discriminator``).

    ``format``: ``sse`` (each event's data is one event) or ``jsonrpc-sse`` (each is a JSON-RPC
    response whose result is one event). ``tag_from``: the tag is the SSE event name
    (``sse_event``, added under ``discriminator``) or a field of the data (``data``).
    ``always``: the operation always streams; else ``modes`` maps a request-selected stream
    mode to the narrower event type it produces. ``end``: the events that end the stream.
    """

    event: str
    discriminator: str | None = None
    terminal_event: str | None = None
    mode_field: str | None = None
    modes: tuple[tuple[str, str], ...] = ()
    format: str = "sse"
    tag_from: str = "sse_event"
    always: bool = False
    end: tuple[EndRule, ...] = ()


@dataclass(frozen=True)
class Operation:
    """One thing a client can do or be asked to do."""

    name: str
    summary: str
    direction: Direction
    request: str | None
    response: str | None
    rpc: str | None = None
    notification: bool = False
    http_method: str | None = None
    http_path: str | None = None
    url_from: str | None = None
    stream_event: str | None = None
    errors: tuple[str, ...] = ()
    unstable: bool = False
    group: str | None = None  # bundle or provider the operation belongs to
    path_params: tuple[str, ...] = ()
    query: tuple[QueryParam, ...] = ()
    success_status: tuple[int, ...] = ()
    idempotent: bool | None = None  # None: decided by the HTTP method
    auth_optional: bool = False
    pagination: Pagination | None = None
    stream: StreamSpec | None = None
    # JSON-RPC: the request type the table names when it is an envelope (``SendMessageRequest``:
    # its ``method`` const is ``rpc``); ``request`` is then its ``params``' type.
    envelope: str | None = None

    @property
    def target(self) -> str:
        """How the operation is addressed on the wire, for listings."""
        if self.rpc is not None:
            return self.rpc
        if self.http_method is not None:
            return f"{self.http_method} {self.http_path or '{' + (self.url_from or '?') + '}'}"
        return "-"


@dataclass(frozen=True)
class ModelUnit:
    """One generated models module, made from one JSON Schema."""

    module: str  # path inside the agentproto package, e.g. "acp/models.py"
    schema_file: Path
    schema: dict[str, Any] = field(compare=False, repr=False)
    root_name: str | None
    exclude: tuple[str, ...]
    renames: tuple[tuple[str, str], ...]
    header: str  # one line naming the source, for the file's docstring
    # The file is in a dialect older than 2019-09 (``definitions``): ``schema`` is its 2020-12
    # form (``$defs``); messages point into the file with :meth:`pointer`.
    old_dialect: bool = False
    # The schema as the file has it (what a package embeds to validate documents with).
    source: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def document(self) -> dict[str, Any]:
        """The schema as its file has it (before the dialect upgrade)."""
        return self.source if self.source is not None else self.schema

    keep_unknown: bool = False  # the spec table's types.unknown_values is "keep"
    drop_catch_alls: bool = False  # types.catch_alls is "drop" (ACP v2's `other` variants)
    # Unions whose unknown members the transport handles (SSE event types: an unknown event
    # name becomes the runtime's UnknownEvent before any model sees it): left closed.
    transport_unions: tuple[str, ...] = ()

    def pointer(self, pointer: str) -> str:
        """A JSON pointer into ``schema`` as the schema file spells it."""
        if self.old_dialect:
            return pointer.replace("/$defs", "/definitions")
        return pointer


@dataclass(frozen=True)
class Capabilities:
    """What each side advertises in a capability handshake (ACP's ``initialize``), and which
    method needs which capability of the side that handles it."""

    handshake: str  # the RPC method exchanging them
    request_field: str  # wire field of its request: the sender's capabilities
    response_field: str  # wire field of its response: the answerer's capabilities
    methods: tuple[tuple[str, str], ...]  # (rpc, dotted wire path in the handler's capabilities)


@dataclass(frozen=True)
class Protocol:
    id: str
    title: str
    version: str
    package: str
    transport: dict[str, Any] = field(compare=False)
    operations: tuple[Operation, ...]
    errors: tuple[ErrorDef, ...]
    models: tuple[ModelUnit, ...]
    notes: tuple[str, ...] = ()
    spec: str | None = None
    edition: str | None = None  # another version of a protocol: agentproto.<id>.<edition>
    capabilities: Capabilities | None = None
    # where the operations come from when the table does not list them: x-method (the type
    # schema's annotations), bundles (agents.json), manifests (AI-Protocol)
    derive: str | None = None

    @property
    def kind(self) -> str:
        """The wire: ``jsonrpc-stdio``, ``jsonrpc-http``, ``http`` or ``http+sse``."""
        return str(self.transport["kind"])

    @property
    def carriers(self) -> tuple[str, ...]:
        """The wires the methods are served over besides ``kind`` (``jsonrpc-websocket``...)."""
        return tuple(self.transport.get("also", ()))

    @property
    def prefix(self) -> str:
        """Prefix of the generated client and server class names (``A2A``, ``AAP``)."""
        return str(self.transport.get("prefix") or self.id.split("_")[0].upper())

    @property
    def key(self) -> str:
        """The protocol's key in ``agentproto.PROTOCOL_VERSIONS``: ``acp``, ``acp.v2``."""
        return self.id if self.edition is None else f"{self.id}.{self.edition}"

    @property
    def module(self) -> str:
        """Its subpackage of ``agentproto``, dotted: ``acp``, ``acp.v2``."""
        return self.package.replace("/", ".")
