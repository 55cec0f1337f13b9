"""One limits policy for everything a peer sends: sizes, nesting, waits and concurrency.

:class:`Limits` holds every bound in one place, with defaults generous for real traffic and
tight enough that no peer can take more than a bounded amount of memory or time. Every client
takes ``limits=Limits(...)`` (a copy with changed fields: ``Limits().replace(...)``); the
table of limits, with what each applies to and what happens past it, is in ``docs/limits.md``.

The helpers here are the pieces every protocol shares, and a server can use them the same way:

- :func:`loads`: ``json.loads`` with a nesting limit (never a bare ``RecursionError``);
- :func:`load_yaml`: a YAML loader without aliases that expand past a node budget (no "billion
  laughs") and without nesting past the limit;
- :func:`check_size` / :func:`check_depth`: a document's size against ``max_document_bytes``,
  data given already parsed against ``max_json_depth``.

They raise :class:`LimitError` or ``ValueError`` (bad input), which each client turns into the
error family of its protocol (``ResponseValidationError``, ``ManifestError``, the Skill Sharing
``ValidationError``...), naming the limit and how to raise it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.json_types import JSONValue

__all__ = [
    "DEFAULT_LIMITS",
    "LimitError",
    "Limits",
    "check_depth",
    "check_size",
    "describe",
    "json_depth",
    "load_yaml",
    "loads",
]

KiB: Final = 1024
MiB: Final = 1024 * KiB


@dataclass(frozen=True)
class Limits:
    """Every bound on what a peer may send or make us wait for (see ``docs/limits.md``).

    Sizes are in bytes, times in seconds; ``None`` turns a time bound off. A client takes
    ``limits=Limits(max_body_bytes=...)``; fields left out keep their defaults.
    """

    max_body_bytes: int = 128 * MiB
    """An HTTP response body, decoded (after gzip/deflate/br), read whole (not a stream)."""
    max_error_body_bytes: int = 1 * MiB
    """How much of an error response's body is read; the rest is not (the error says so)."""
    max_sse_line_bytes: int = 32 * MiB
    """One line of an event stream (SSE, newline-delimited JSON), decoded."""
    max_sse_event_bytes: int = 64 * MiB
    """One event of an event stream (its data lines together; one LLM stream frame)."""
    max_json_depth: int = 200
    """Nesting of JSON from a peer (arrays and objects inside one another)."""
    max_document_bytes: int = 16 * MiB
    """A document read from a file or given as text: a provider manifest, a skill document."""
    max_yaml_nodes: int = 1_000_000
    """Nodes of a YAML document with its aliases expanded (an alias bomb is refused)."""
    call_deadline: float | None = 600.0
    """A whole call: connect, send, and every read of the answer (``timeout`` bounds each
    read on its own, so a server dripping bytes cannot stretch a call past this)."""
    stream_deadline: float | None = 3600.0
    """A whole stream, from the request to the last event."""
    request_body_deadline: float | None = 30.0
    """A request body a server reads (every server of the package), from the end of the
    request's head to the body's last byte: a client that never finishes sending it (slow
    loris) is answered 408 and disconnected."""
    header_deadline: float | None = 10.0
    """A server: the head of a request (request line and headers), from the connection's start
    (or, on a kept-alive connection, the next request's first byte) to its end; past it the
    connection is answered 408 and closed."""
    max_header_bytes: int = 64 * KiB
    """A server: the head of a request (request line and headers); past it 431 and closed."""
    max_server_connections: int = 4096
    """A server process: connections open at once. Past it the oldest idle one (no request in
    progress: waiting for a head, or kept alive between requests) is closed to make room; when
    none is idle the new one is answered 503 and closed."""
    max_connections_per_client: int = 256
    """A server process: connections open at once from one client address, the same rule
    (behind a reverse proxy every client has the proxy's address: raise it to
    ``max_server_connections``)."""
    max_message_bytes: int = 64 * MiB
    """One JSON-RPC message (ACP line)."""
    max_incoming_requests: int = 256
    """JSON-RPC requests from the peer handled at once; past it, reading pauses until one
    finishes (back-pressure: the peer's writes block on the full pipe)."""
    max_connections: int = 100
    """HTTP connections a client holds at once (each open stream holds one until closed; the
    same default as ``httpx``). Past it a call waits for one to come free, with a warning, up to
    its pool timeout, then ``PoolTimeoutError``. Applies to the ``httpx`` client a client builds
    itself; one passed in (``http_client=``) keeps its own ``httpx.Limits``."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.name.endswith("deadline"):
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise ValueError(f"Limits.{f.name} must be a positive number, not {value!r}")

    def replace(self, **changes: Any) -> Limits:
        """A copy with ``changes`` (field names as keywords)."""
        return dataclasses.replace(self, **changes)


DEFAULT_LIMITS: Final = Limits()
"""The limits a client uses when none are given."""


class LimitError(AgentprotoError, ValueError):
    """Input went past one of the :class:`Limits`: ``limit`` names the field, ``value`` is its
    setting and ``size`` what was seen (at least; reading stops at the limit)."""

    def __init__(self, what: str, limit: str, value: float, size: float | None = None) -> None:
        shown = describe(limit, value)
        seen = f" ({describe(limit, size)} or more)" if size is not None else ""
        super().__init__(
            f"{what} is over the limit{seen}: Limits.{limit} is {shown} "
            f"(raise it with limits=Limits({limit}=...) if this is expected)"
        )
        self.limit = limit
        self.value = value
        self.size = size


def describe(limit: str, value: float | None) -> str:
    """A limit's value for a message: bytes in KiB/MiB, seconds, or a count."""
    if value is None:
        return "none"
    if limit.endswith("_bytes"):
        for unit, size in (("GiB", MiB * KiB), ("MiB", MiB), ("KiB", KiB)):
            if value >= size:
                return f"{value / size:g} {unit}"
        return f"{value:g} bytes"
    if limit.endswith(("deadline", "timeout")):
        return f"{value:g} s"
    return f"{value:g}"


# -- JSON -----------------------------------------------------------------------------------------

_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in valid JSON text (strings are skipped)."""
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > deepest:
                deepest = depth
        elif token in ("]", "}"):
            depth -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(
    data: str | bytes | bytearray,
    max_depth: int = DEFAULT_LIMITS.max_json_depth,
    *,
    allow_nan: bool = True,
) -> Any:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` with a :class:`LimitError`
    (``json`` alone raises ``RecursionError`` somewhere past 900, and deep data breaks later
    code that walks it). ``ValueError`` for data that is not JSON, as ``json.loads``, and with
    ``allow_nan=False`` for ``NaN`` / ``Infinity`` / ``-Infinity`` (which ``json`` accepts)."""
    try:
        value = json.loads(data) if allow_nan else json.loads(data, parse_constant=_refuse_constant)
    except RecursionError:
        raise LimitError("JSON nesting", "max_json_depth", max_depth) from None
    # Only text with that many brackets can be that deep: the exact count (a scan in C but
    # for the brackets themselves) is only paid for such text.
    if isinstance(data, str):
        if data.count("[") + data.count("{") > max_depth and json_depth(data) > max_depth:
            raise LimitError("JSON nesting", "max_json_depth", max_depth)
    elif data.count(b"[") + data.count(b"{") > max_depth:
        text = bytes(data).decode(json.detect_encoding(data), "surrogatepass")
        if json_depth(text) > max_depth:
            raise LimitError("JSON nesting", "max_json_depth", max_depth)
    return value


def check_depth(value: Any, max_depth: int) -> None:
    """Refuse data (already parsed, e.g. given by a caller) nested deeper than ``max_depth``:
    :class:`LimitError`. Walks without recursion; shared containers are walked once."""
    stack: list[tuple[object, int]] = [(value, 1)]
    seen: set[int] = set()
    while stack:
        node, depth = stack.pop()
        ident = id(node)
        children: Iterable[object]
        if isinstance(node, Mapping):
            children = cast("Mapping[object, object]", node).values()
        elif isinstance(node, list | tuple):
            children = cast("Sequence[object]", node)
        else:
            continue
        if depth > max_depth:
            raise LimitError("data nesting", "max_json_depth", max_depth)
        if ident in seen:
            continue
        seen.add(ident)
        stack.extend((child, depth + 1) for child in children)


def check_size(size: int, limits: Limits, what: str) -> None:
    """Refuse a document of ``size`` bytes past ``max_document_bytes``: :class:`LimitError`."""
    if size > limits.max_document_bytes:
        raise LimitError(what, "max_document_bytes", limits.max_document_bytes, size)


# -- YAML -----------------------------------------------------------------------------------------


def load_yaml(text: str, limits: Limits = DEFAULT_LIMITS) -> JSONValue:
    """A YAML document as data (PyYAML's safe schema), refused with :class:`LimitError` when
    its aliases expand past ``max_yaml_nodes`` nodes or it nests deeper than
    ``max_json_depth``, and with ``ValueError`` when it is not YAML (the parser's message,
    with line and column) or an alias refers to itself.

    The document is composed first (aliases share their node: composing costs what the text
    costs), its expanded size counted without expanding it, and only then constructed.
    """
    import yaml

    check_size(len(text.encode("utf-8", "surrogatepass")), limits, "the YAML document")
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise ValueError(f"not valid YAML: {exc}") from None
    except RecursionError:
        raise LimitError("YAML nesting", "max_json_depth", limits.max_json_depth) from None
    if node is None:
        return None
    _yaml_budget(node, limits)
    loader = yaml.SafeLoader("")
    try:
        value: JSONValue = cast(Any, loader).construct_document(node)
    except yaml.YAMLError as exc:
        raise ValueError(f"not valid YAML: {exc}") from None
    except RecursionError:
        raise LimitError("YAML nesting", "max_json_depth", limits.max_json_depth) from None
    finally:
        loader.dispose()
    return value


def _yaml_budget(root: Any, limits: Limits) -> None:
    """Count the nodes ``root`` expands to (each alias counts its whole target again) and its
    depth, without recursion; a cycle is refused."""
    import yaml

    sizes: dict[int, int] = {}  # node id -> expanded size, once known
    depths: dict[int, int] = {}
    open_: set[int] = set()  # on the current path (a node met again there is a cycle)
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        children: list[Any] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        if done:
            open_.discard(key)
            size = 1 + sum(sizes[id(c)] for c in children)
            depth = 1 + max((depths[id(c)] for c in children), default=0)
            if size > limits.max_yaml_nodes:
                raise LimitError(
                    "the YAML document with its aliases expanded",
                    "max_yaml_nodes",
                    limits.max_yaml_nodes,
                    size,
                )
            if depth > limits.max_json_depth + 1:
                raise LimitError("YAML nesting", "max_json_depth", limits.max_json_depth)
            sizes[key] = size
            depths[key] = depth
            continue
        if key in sizes:
            continue
        if key in open_:
            raise ValueError("not valid YAML data: an alias refers to the node that holds it")
        open_.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in sizes)
