"""The server side of a spec table's HTTP operations: what ``templates/http/routes.py.j2``
renders (a route table and a handler base class with one typed method per operation).

Everything is derived from the same :func:`codegen.clients.http_ops.http_ops` rows the client
template reads, so an operation added to the table appears in the client and the server from
one build. Names that reach code are the table's checked identifiers; values go through
``pyrepr``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codegen.clients.http_ops import HttpOp
from codegen.errors import BuildError
from codegen.ir import Protocol
from codegen.package.render import pyrepr

_PRIMITIVE = {"string": "str", "integer": "int", "boolean": "bool"}


@dataclass(frozen=True)
class RouteQuery:
    name: str
    annotation: str  # what the handler receives
    required: bool
    values: tuple[str, ...] | None  # the enum's values, checked before the handler runs


@dataclass(frozen=True)
class RouteRow:
    h: HttpOp
    query: tuple[RouteQuery, ...]
    returns: str  # the handler's return annotation
    events: tuple[str, ...]  # every event model a stream may carry (empty: no stream)


def route_rows(
    protocol: Protocol, ops: list[HttpOp], schema: dict[str, Any], shown: str
) -> list[RouteRow]:
    defs: dict[str, Any] = schema.get("$defs", {})
    rows = []
    for h in ops:
        query = []
        for spec in h.op.query:
            definition = defs.get(spec.type, {})
            enum = definition.get("enum")
            if isinstance(enum, list) and all(isinstance(v, str) for v in enum):
                values = tuple(str(v) for v in enum)
                annotation = "Literal[" + ", ".join(pyrepr(v) for v in values) + "]"
            else:
                kind = spec.type if spec.type in _PRIMITIVE else str(definition.get("type"))
                if kind != "string":
                    raise BuildError.single(
                        shown,
                        f"/operations/{h.op.name}/http/query",
                        f"{spec.name}: a server reads query parameters as strings or string enums",
                    )
                values = None
                annotation = "str"
            query.append(RouteQuery(spec.name, annotation, spec.required, values))
        answer = "None" if h.op.response is None else h.op.response
        events: tuple[str, ...] = ()
        if h.stream_any is not None:
            events = h.stream_any.members
            answer = f"{answer} | EventSource[{' | '.join(events)}]"
        rows.append(RouteRow(h, tuple(query), answer, events))
    return rows


def error_statuses(protocol: Protocol, shown: str) -> dict[str, int]:
    """Each error name of the table and the status a server answers it with (its first)."""
    found = {}
    for error in protocol.errors:
        if not error.http_status:
            raise BuildError.single(shown, "/errors", f"{error.name}: needs an http_status")
        found[error.name] = error.http_status[0]
    return found
