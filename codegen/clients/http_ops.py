"""What the HTTP client template needs to know about each operation, read from the IR.

Everything here is derived from the spec table and the type schema: Python annotations for
parameters, the item type of a paginated list, the event members of each stream mode. Names
that reach generated code are checked identifiers; text goes through the template filters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codegen.clients.signatures import Variant, variants
from codegen.errors import BuildError
from codegen.ir import Operation, Protocol
from codegen.package.render import pyrepr

_PRIMITIVE = {"string": "str", "integer": "int", "boolean": "bool"}
_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


@dataclass(frozen=True)
class Param:
    name: str
    annotation: str
    model: str | None  # the $def the annotation names, if any
    required: bool
    description: str


@dataclass(frozen=True)
class Page:
    method: str  # name of the auto-paginating iterator method
    cursor_param: str
    next_field: str
    items_field: str
    item_type: str


@dataclass(frozen=True)
class StreamMode:
    mode: str
    event_type: str  # the RootModel union for this mode
    members: tuple[str, ...]  # its variant classes
    tags: tuple[str, ...]  # their discriminator values


@dataclass(frozen=True)
class HttpOp:
    op: Operation
    method: str
    path: str
    path_params: tuple[str, ...]
    query: tuple[Param, ...]
    expected: tuple[int, ...]
    idempotent: bool
    errors: tuple[str, ...]
    page: Page | None
    stream_method: str | None
    stream_modes: tuple[StreamMode, ...]
    stream_any: StreamMode | None  # all events of the stream's union type

    @property
    def returns_none(self) -> bool:
        return self.op.response is None


def http_ops(protocol: Protocol, schema: dict[str, Any], shown: str) -> list[HttpOp]:
    """The fixed-path HTTP operations of ``protocol``, in table order."""
    defs: dict[str, Any] = schema.get("$defs", {})
    errors = {e.name: e for e in protocol.errors}
    result = []
    for op in protocol.operations:
        if op.http_method is None or op.http_path is None:
            continue
        query = tuple(
            Param(q.name, *_query_annotation(q.type, defs), q.required, q.description)
            for q in op.query
        )
        expected = op.success_status or ((204,) if op.response is None else (200,))
        error_notes = []
        for name in op.errors:
            statuses = "/".join(str(s) for s in errors[name].http_status)
            error_notes.append(f"{name} ({statuses})" if statuses else name)
        stream_modes: tuple[StreamMode, ...] = ()
        stream_any = None
        stream_method = None
        if op.stream is not None:
            tag = op.stream.discriminator
            if tag is None or op.stream.mode_field is None:
                raise BuildError.single(
                    shown, f"/operations/{op.name}/stream", "needs discriminator and mode_field"
                )
            stream_method = f"{op.name}_stream"
            stream_modes = tuple(
                _stream_mode(mode, type_name, tag, defs, shown)
                for mode, type_name in op.stream.modes
            )
            stream_any = _stream_mode("*", op.stream.event, tag, defs, shown)
        result.append(
            HttpOp(
                op=op,
                method=op.http_method,
                path=op.http_path,
                path_params=op.path_params,
                query=query,
                expected=tuple(expected),
                idempotent=op.idempotent
                if op.idempotent is not None
                else op.http_method in _IDEMPOTENT,
                errors=tuple(error_notes),
                page=_page(op, defs, shown),
                stream_method=stream_method,
                stream_modes=stream_modes,
                stream_any=stream_any,
            )
        )
    return result


def model_names(ops: list[HttpOp]) -> list[str]:
    """Every model name the client module refers to, sorted."""
    names: set[str] = set()
    for h in ops:
        names.update(n for n in (h.op.request, h.op.response) if n is not None)
        if h.page is not None:
            names.add(h.page.item_type)
        for mode in (*h.stream_modes, *([h.stream_any] if h.stream_any else [])):
            names.add(mode.event_type)
            names.update(mode.members)
        names.update(q.model for q in h.query if q.model is not None)
    return sorted(names)


def _query_annotation(type_name: str, defs: dict[str, Any]) -> tuple[str, str | None]:
    """The Python annotation of a query parameter, and the model it names (if any).

    An enum $def accepts its members and their plain values; a $def that is a plain primitive
    (a named string, say) is that primitive.
    """
    if type_name in _PRIMITIVE:
        return _PRIMITIVE[type_name], None
    definition = defs.get(type_name, {})
    if "enum" in definition and all(isinstance(v, str) for v in definition["enum"]):
        values = ", ".join(pyrepr(v) for v in definition["enum"])
        return f"{type_name} | Literal[{values}]", type_name
    primitive = _PRIMITIVE.get(str(definition.get("type")))
    return (primitive, None) if primitive is not None else (type_name, type_name)


def _ref_name(node: Any) -> str | None:
    ref = node.get("$ref") if isinstance(node, dict) else None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return ref[len("#/$defs/") :]
    return None


def _page(op: Operation, defs: dict[str, Any], shown: str) -> Page | None:
    if op.pagination is None:
        return None
    where = f"/operations/{op.name}/pagination"
    response = defs.get(op.response or "", {})
    props = response.get("properties", {})
    items = props.get(op.pagination.items_field, {})
    item_type = _ref_name(items.get("items")) if items.get("type") == "array" else None
    if item_type is None:
        raise BuildError.single(
            shown, where, f"{op.response}.{op.pagination.items_field} must be an array of a $def"
        )
    if op.pagination.next_field not in props:
        raise BuildError.single(
            shown, where, f"{op.response} has no field {op.pagination.next_field!r}"
        )
    if op.pagination.cursor_param not in {q.name for q in op.query}:
        raise BuildError.single(
            shown, where, f"cursor_param {op.pagination.cursor_param!r} is not a query parameter"
        )
    return Page(
        method=f"iter_{op.pagination.items_field}",
        cursor_param=op.pagination.cursor_param,
        next_field=op.pagination.next_field,
        items_field=op.pagination.items_field,
        item_type=item_type,
    )


def _stream_mode(
    mode: str, type_name: str, tag: str, defs: dict[str, Any], shown: str
) -> StreamMode:
    union = defs.get(type_name, {})
    variants = union.get("oneOf") or union.get("anyOf") or []
    members = []
    tags = []
    for variant in variants:
        name = _ref_name(variant)
        const = defs.get(name or "", {}).get("properties", {}).get(tag, {}).get("const")
        if name is None or not isinstance(const, str):
            raise BuildError.single(
                shown,
                f"/$defs/{type_name}",
                f"stream events must be $refs to types with a const {tag!r}",
            )
        members.append(name)
        tags.append(const)
    if not members:
        raise BuildError.single(shown, f"/$defs/{type_name}", "a stream event type must be a union")
    return StreamMode(mode, type_name, tuple(members), tuple(tags))


# The keywords every operation method has besides the request's fields.
_METHOD_KEYWORDS = frozenset({"self", "request", "extra_headers", "timeout", "retry", "mode"})


def keyword_forms(ops: list[HttpOp], models_text: str, shown: str) -> dict[str, list[Variant]]:
    """Per operation with a request body, its keyword forms (the body's fields as keywords;
    a nested model may also be given as its dict form, ``_params.<Name>Param``)."""
    forms: dict[str, list[Variant]] = {}
    for h in ops:
        if h.op.request is None:
            continue
        found = variants(
            models_text, h.op.request, lambda name: name, shown, lambda name: f"_params.{name}Param"
        )
        taken = _METHOD_KEYWORDS | set(h.path_params) | {q.name for q in h.query}
        for form in found:
            clash = sorted(taken & {p.name for p in form.params})
            if clash:
                raise BuildError.single(
                    shown, "", f"{h.op.name}: body fields {clash} clash with the method's own"
                )
        forms[h.op.name] = found
    return forms
