"""Spec tables (``schemas/<protocol>/spec.yaml``) → :class:`~codegen.ir.Protocol`.

A table is validated against ``codegen/data/spec_table.schema.json`` and then cross-checked
against the protocol's type schema: every type it names must exist. ACP's operations are not
written in the table; they are read from the schema's ``x-method`` / ``x-side`` annotations.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from codegen.errors import BuildError, Problem, to_pointer
from codegen.inputs import corpus, dialects
from codegen.inputs.sources import (
    builtin_schema,
    check_is_schema,
    display_path,
    load_document,
    validate_or_raise,
)
from codegen.ir import (
    Capabilities,
    Direction,
    EndRule,
    ErrorDef,
    ModelUnit,
    Operation,
    Pagination,
    Protocol,
    QueryParam,
    StreamSpec,
)

SPEC_FILE = "spec.yaml"
_SIDE_TO_DIRECTION: dict[str, Direction] = {
    "agent": "client_to_server",  # handled by the agent: the editor (client) sends it
    "client": "server_to_client",  # handled by the editor: the agent sends it
    "protocol": "both",  # the runtime's own ($/cancel_request)
    "both": "both",  # either side sends it to the other (mcp/message)
    "proxy": "both",  # between a proxy and its conductor, in both directions (proxy chains)
}
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def snake_case(name: str) -> str:
    """``SetSessionModeRequest`` → ``set_session_mode_request``."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return re.sub(r"[^0-9A-Za-z]+", "_", name).strip("_").lower()


def load_protocols(folder: Path, root: Path) -> list[Protocol]:
    """Load and check one protocol folder: its spec table, then the tables of its editions
    (other versions of the protocol, generated beside it)."""
    main = load_protocol(folder, root)
    protocols = [main]
    table = read_table(folder, root)
    for index, name in enumerate(table.get("editions", ())):
        shown = display_path(folder / SPEC_FILE, root)
        if not (folder / name).is_file():
            raise BuildError.single(shown, f"/editions/{index}", f"no such file {name!r}")
        edition = load_protocol(folder, root, name)
        if edition.edition is None:
            raise BuildError.single(
                display_path(folder / name, root), "", "an edition's table needs `edition`"
            )
        protocols.append(edition)
    keys = [p.key for p in protocols]
    if len(set(keys)) != len(keys):
        raise BuildError.single(
            display_path(folder / SPEC_FILE, root), "/editions", f"editions repeat: {keys}"
        )
    return protocols


def load_protocol(folder: Path, root: Path, table_file: str = SPEC_FILE) -> Protocol:
    """Load and check one spec table of a protocol folder."""
    table_path = folder / table_file
    shown = display_path(table_path, root)
    table = read_table(folder, root, table_file)
    validate_or_raise(table, builtin_schema("spec_table.schema.json"), shown)
    if table["protocol"] != folder.name:
        raise BuildError.single(
            shown, "/protocol", f"is {table['protocol']!r} but the folder is {folder.name!r}"
        )
    if table_file != SPEC_FILE and "editions" in table:
        raise BuildError.single(shown, "/editions", "only the main table lists editions")

    units = model_units(folder, table, root, check=True)
    schema = units[0].schema
    unstable = units[1].schema if len(units) > 1 else None
    for unit in units:
        _check_excludes(unit, root)

    errors = tuple(
        ErrorDef(
            name=e["name"],
            description=e["description"],
            code=e.get("code"),
            http_status=tuple(e.get("http_status", ())),
            retryable=e.get("retryable", False),
            local=e.get("local", False),
            class_name=e.get("class"),
            message=e.get("message"),
        )
        for e in table.get("errors", ())
    )
    raw_ops = table["operations"]
    if isinstance(raw_ops, list):
        operations = tuple(_table_operation(op) for op in raw_ops)
    elif raw_ops["derive"] == "x-method":
        operations = derive_x_method(schema, unstable, raw_ops.get("names", {}))
    elif raw_ops["derive"] == "bundles":
        operations = corpus.bundle_operations(folder, schema, root)
    else:
        operations = corpus.manifest_operations(folder, schema, root)

    _cross_check(shown, table, operations, errors, schema, unstable)
    if table["transport"]["kind"].startswith("jsonrpc-") and isinstance(raw_ops, list):
        operations = _envelopes(shown, operations, schema)
    _check_errors(shown, table, errors, schema)
    if table["transport"].get("also") and table["transport"]["kind"] != "jsonrpc-http":
        raise BuildError.single(shown, "/transport/also", "other carriers are for jsonrpc-http")
    capabilities = _capabilities(shown, table, operations, unstable or schema)
    edition = table.get("edition")
    return Protocol(
        id=table["protocol"],
        title=table["title"],
        version=table["version"],
        package=_package(table),
        transport=table["transport"],
        operations=operations,
        errors=errors,
        models=tuple(units),
        notes=tuple(table.get("notes", ())),
        spec=table.get("spec"),
        edition=edition,
        capabilities=capabilities,
        derive=None if isinstance(raw_ops, list) else str(raw_ops["derive"]),
    )


def _package(table: dict[str, Any]) -> str:
    """Where the table's modules go, relative to ``agentproto``: ``acp``, or ``acp/v2`` for
    an edition."""
    edition = table.get("edition")
    return f"{table['package']}/{edition}" if edition else str(table["package"])


def _capabilities(
    shown: str, table: dict[str, Any], operations: tuple[Operation, ...], schema: dict[str, Any]
) -> Capabilities | None:
    """The table's ``capabilities``, each method and capability path checked against the
    operations and the schema (every path must lead through the handshake's types)."""
    spec = table.get("capabilities")
    if spec is None:
        return None
    defs = schema.get("$defs", {})
    by_rpc = {op.rpc: op for op in operations if op.rpc is not None}
    problems: list[Problem] = []
    handshake = by_rpc.get(spec["handshake"])
    if handshake is None or handshake.request is None or handshake.response is None:
        raise BuildError.single(
            shown, "/capabilities/handshake", f"{spec['handshake']!r} is not a request method"
        )
    roots = {
        "server_to_client": _property_type(defs, handshake.request, spec["request_field"]),
        "client_to_server": _property_type(defs, handshake.response, spec["response_field"]),
    }
    for key, field_name, where in (
        ("server_to_client", spec["request_field"], "request_field"),
        ("client_to_server", spec["response_field"], "response_field"),
    ):
        if roots[key] is None:
            problems.append(
                Problem(shown, f"/capabilities/{where}", f"no object field {field_name!r}")
            )
    methods = []
    for rpc, path in spec["methods"].items():
        pointer = f"/capabilities/methods{to_pointer([rpc])}"
        ops = [op for op in operations if op.rpc == rpc]
        if not ops:
            problems.append(Problem(shown, pointer, f"{rpc!r} is not a method of the schema"))
            continue
        for op in ops:
            root = roots.get(op.direction)
            if root is None:
                problems.append(Problem(shown, pointer, "the method's side has no capabilities"))
                continue
            if not _path_exists(defs, root, path.split(".")):
                problems.append(
                    Problem(shown, pointer, f"{path!r} is not a capability of {root!r}")
                )
        methods.append((rpc, path))
    if problems:
        raise BuildError(problems)
    return Capabilities(
        handshake=spec["handshake"],
        request_field=spec["request_field"],
        response_field=spec["response_field"],
        methods=tuple(sorted(methods)),
    )


def _ref_name(node: Any) -> str | None:
    """The $defs name a property refers to (directly, or through allOf/anyOf with null)."""
    if not isinstance(node, dict):
        return None
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return ref.rsplit("/", 1)[1]
    for key in ("allOf", "anyOf", "oneOf"):
        for item in node.get(key, ()):
            found = _ref_name(item)
            if found is not None:
                return found
    return None


def _property_type(defs: dict[str, Any], type_name: str, field_name: str) -> str | None:
    definition = defs.get(type_name)
    while isinstance(definition, dict):
        prop = (definition.get("properties") or {}).get(field_name)
        if prop is not None:
            return _ref_name(prop)
        base = _ref_name({"allOf": definition.get("allOf", [])})  # allOf: [{$ref: base}]
        definition = defs.get(base) if base else None
    return None


def _path_exists(defs: dict[str, Any], type_name: str, path: list[str]) -> bool:
    definition = defs.get(type_name)
    if not isinstance(definition, dict):
        return False
    prop = (definition.get("properties") or {}).get(path[0])
    if prop is None:
        return False
    if len(path) == 1:
        return True
    child = _ref_name(prop)
    return child is not None and _path_exists(defs, child, path[1:])


def model_units(folder: Path, table: dict[str, Any], root: Path, *, check: bool) -> list[ModelUnit]:
    """The models modules a protocol's table asks for: its schema, and its unstable superset.

    With ``check=False`` the schemas are only parsed (for starting model generation early,
    while the full validation runs); a build always validates before it uses the result.
    """
    types = table["types"]
    renames = _load_renames(folder, types.get("renames"), root)
    files = [("models.py", types["schema"])]
    if "unstable_schema" in types:
        files.append(("unstable/models.py", types["unstable_schema"]))
    loaded = [
        (module, name, *_load_schema(folder / name, root, check=check)) for module, name in files
    ]
    return [
        ModelUnit(
            module=f"{_package(table)}/{module}",
            schema_file=folder / name,
            schema=schema,
            old_dialect=old_dialect,
            source=source if source is not schema else None,
            root_name=types.get("root_name"),
            exclude=tuple(types.get("exclude", ())),
            renames=renames,
            header=f"Generated from schemas/{folder.name}/{name}",
            keep_unknown=types.get("unknown_values") == "keep",
            drop_catch_alls=types.get("catch_alls") == "drop",
            transport_unions=_stream_event_types(table),
        )
        for module, name, schema, old_dialect, source in loaded
    ]


def _stream_event_types(table: dict[str, Any]) -> tuple[str, ...]:
    """The union types a table's streams are typed with (``stream.event`` and its modes)."""
    operations = table.get("operations")
    names: set[str] = set()
    for op in operations if isinstance(operations, list) else ():
        stream = op.get("stream") if isinstance(op, dict) else None
        if isinstance(stream, dict):
            names.add(str(stream.get("event")))
            modes = stream.get("modes")
            names.update(map(str, modes.values() if isinstance(modes, dict) else ()))
    return tuple(sorted(names))


def read_table(folder: Path, root: Path, table_file: str = SPEC_FILE) -> dict[str, Any]:
    """A spec table of a protocol folder (its main one by default), parsed but not
    validated."""
    table: dict[str, Any] = load_document(folder / table_file, root)
    return table


def edition_tables(folder: Path, root: Path) -> list[dict[str, Any]]:
    """The main table and the tables of its editions, parsed but not validated (for starting
    model generation early; a file that does not parse is left to validation)."""
    table = read_table(folder, root)
    tables = [table]
    for name in table.get("editions", ()) if isinstance(table, dict) else ():
        try:
            tables.append(read_table(folder, root, str(name)))
        except Exception:
            continue
    return tables


def _load_schema(
    path: Path, root: Path, *, check: bool = True
) -> tuple[dict[str, Any], bool, dict[str, Any]]:
    """A type schema, checked against the meta-schema of its own dialect, then in the one
    shape every later stage reads (2020-12: ``$defs``; :mod:`codegen.inputs.dialects`), and
    whether the file is in an older dialect (its pointers say ``definitions``), and the schema
    as the file has it."""
    shown = display_path(path, root)
    schema = load_document(path, root)
    if check:
        check_is_schema(schema, shown)
    if not isinstance(schema, dict):
        raise BuildError.single(shown, "", "a JSON Schema must be an object")
    return dialects.upgrade(schema), dialects.is_old_dialect(schema), schema


def _load_renames(folder: Path, name: str | None, root: Path) -> tuple[tuple[str, str], ...]:
    if name is None:
        return ()
    path = folder / name
    shown = display_path(path, root)
    data = load_document(path, root)
    if not isinstance(data, dict):
        raise BuildError.single(shown, "", "a rename map is a mapping of class name to class name")
    problems = []
    for old, new in data.items():
        for value in (old, new):
            if not isinstance(value, str) or not _IDENT.match(value) or keyword.iskeyword(value):
                problems.append(
                    Problem(shown, to_pointer([str(old)]), f"{value!r} is not a class name")
                )
    if problems:
        raise BuildError(problems)
    return tuple(sorted(data.items()))


def _check_excludes(unit: ModelUnit, root: Path) -> None:
    defs = dialects.defs_of(unit.schema)
    shown = display_path(unit.schema_file, root)
    missing = [name for name in unit.exclude if name not in defs]
    if missing:
        raise BuildError.single(
            shown, unit.pointer("/$defs"), f"types.exclude names unknown types {missing}"
        )


def _table_operation(op: dict[str, Any]) -> Operation:
    http = op.get("http", {})
    stream = op.get("stream") or {}
    return Operation(
        name=op["name"],
        summary=op["summary"],
        direction=op["direction"],
        request=op["request"],
        response=op["response"],
        rpc=op.get("rpc"),
        http_method=http.get("method"),
        http_path=http.get("path"),
        url_from=http.get("url_from"),
        stream_event=stream.get("event"),
        errors=tuple(op.get("errors", ())),
        path_params=tuple(http.get("path_params", ())),
        query=tuple(
            QueryParam(
                name=q["name"],
                type=q["type"],
                required=q.get("required", False),
                description=q.get("description", ""),
            )
            for q in http.get("query", ())
        ),
        success_status=tuple(http.get("success_status", ())),
        idempotent=op.get("idempotent"),
        auth_optional=op.get("auth_optional", False),
        pagination=Pagination(**op["pagination"]) if "pagination" in op else None,
        stream=_stream(stream) if stream else None,
    )


def _stream(stream: dict[str, Any]) -> StreamSpec:
    rules = [
        EndRule(
            tag=rule.get("tag"),
            field=rule.get("field"),
            values=tuple(rule["in"])
            if "in" in rule
            else (rule["equals"],)
            if "equals" in rule
            else (),
        )
        for rule in stream.get("end", ())
    ]
    if stream.get("terminal_event") is not None:
        rules.append(EndRule(tag=stream["terminal_event"]))
    return StreamSpec(
        event=stream["event"],
        discriminator=stream.get("discriminator"),
        terminal_event=stream.get("terminal_event"),
        mode_field=stream.get("mode_field"),
        modes=tuple(sorted(stream.get("modes", {}).items())),
        format=stream["format"],
        tag_from=stream.get(
            "tag_from", "data" if stream["format"] == "jsonrpc-sse" else "sse_event"
        ),
        always=stream.get("always", False),
        end=tuple(rules),
    )


def type_name(ref: str) -> str:
    """The $defs entry a type reference names (``Task``, or ``Response`` of
    ``Response#/properties/result``)."""
    return ref.split("#", 1)[0]


def resolve_ref(defs: dict[str, Any], ref: str) -> Any:
    """The schema a type reference names (``None`` when it leads nowhere)."""
    name, _, pointer = ref.partition("#")
    node: Any = defs.get(name)
    for token in pointer.split("/")[1:] if pointer else []:
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
    return node


def _envelopes(
    shown: str, operations: tuple[Operation, ...], schema: dict[str, Any]
) -> tuple[Operation, ...]:
    """JSON-RPC operations whose ``request`` is a request envelope (a type whose ``method`` is a
    constant): ``rpc`` must be that constant, and the request becomes the ``params``' type
    (none when the envelope has no ``params``)."""
    defs = dialects.defs_of(schema)
    problems: list[Problem] = []
    result = []
    for index, op in enumerate(operations):
        definition = defs.get(op.request) if op.request and "#" not in op.request else None
        props = definition.get("properties") if isinstance(definition, dict) else None
        method = props.get("method") if isinstance(props, dict) else None
        if not isinstance(method, dict) or "const" not in method:
            result.append(op)
            continue
        where = f"/operations/{index}"
        if op.rpc != method["const"]:
            problems.append(
                Problem(
                    shown,
                    f"{where}/rpc",
                    f"is {op.rpc!r} but {op.request}'s method is {method['const']!r}: "
                    "the request type names another method",
                )
            )
            continue
        params = props.get("params") if isinstance(props, dict) else None
        request: str | None = None
        if isinstance(params, dict):
            target = _ref_name(params) if "$ref" in params else None
            request = target if target is not None else f"{op.request}#/properties/params"
        result.append(replace(op, request=request, envelope=op.request))
    if problems:
        raise BuildError(problems)
    return tuple(result)


def _check_errors(
    shown: str, table: dict[str, Any], errors: tuple[ErrorDef, ...], schema: dict[str, Any]
) -> None:
    """JSON-RPC error codes are integers, and one each; an exception class is an identifier
    that names no type of the schema (both are public names of the package)."""
    problems: list[Problem] = []
    jsonrpc = table["transport"]["kind"].startswith("jsonrpc-")
    types = set(dialects.defs_of(schema))
    codes: dict[object, str] = {}
    for index, error in enumerate(errors):
        where = f"/errors/{index}"
        if jsonrpc and error.code is not None and not isinstance(error.code, int):
            problems.append(Problem(shown, f"{where}/code", "a JSON-RPC error code is an integer"))
        if error.code is not None and error.code in codes:
            problems.append(
                Problem(
                    shown, f"{where}/code", f"{error.code!r} is {codes[error.code]!r}'s code too"
                )
            )
        codes.setdefault(error.code, error.name)
        standard = error.code in (-32700, -32600, -32601, -32602, -32603)  # the runtime's
        if jsonrpc and not standard and error.exception in types:
            problems.append(
                Problem(
                    shown,
                    f"{where}/class" if error.class_name else f"{where}/name",
                    f"the exception class {error.exception!r} would hide the schema's type of that "
                    "name: give the error another `class`",
                )
            )
    if problems:
        raise BuildError(problems)


def derive_x_method(
    schema: dict[str, Any], unstable: dict[str, Any] | None, names: dict[str, str]
) -> tuple[Operation, ...]:
    """Read the method table from ``x-method``/``x-side``: one operation per method.

    Methods present only in the unstable schema are marked ``unstable``. ``names`` overrides
    the default name (from the request type) by method, or by ``side:method`` when one method
    exists on both sides.
    """
    stable = _x_methods(schema)
    everything = dict(stable)
    if unstable is not None:
        for key, value in _x_methods(unstable).items():
            everything.setdefault(key, value)
    operations = []
    for (side, method), types in sorted(everything.items()):
        # A method may be both a request and a notification (proxy/successor, mcp/message):
        # one operation each, the notification's name ending in _notification.
        kinds = [k for k in ("Request", "Notification") if k in types]
        for kind in kinds:
            request = types[kind]
            base = re.sub(r"(Request|Notification)$", "", request)
            name = names.get(f"{side}:{method}", names.get(method, snake_case(base)))
            if kind == "Notification" and len(kinds) > 1:
                name += "_notification"
            operations.append(
                Operation(
                    name=name,
                    summary=_first_line(types[f"{kind}-description"]),
                    direction=_SIDE_TO_DIRECTION.get(side, "both"),
                    request=request,
                    response=types.get("Response") if kind == "Request" else None,
                    rpc=method,
                    notification=kind == "Notification",
                    unstable=(side, method) not in stable,
                    group=side,
                )
            )
    return tuple(operations)


def _x_methods(schema: dict[str, Any]) -> dict[tuple[str, str], dict[str, str]]:
    found: dict[tuple[str, str], dict[str, str]] = {}
    for name, definition in schema.get("$defs", {}).items():
        if not isinstance(definition, dict) or "x-method" not in definition:
            continue
        key = (str(definition.get("x-side", "protocol")), str(definition["x-method"]))
        entry = found.setdefault(key, {})
        for suffix in ("Request", "Response", "Notification"):
            if name.endswith(suffix):
                entry[suffix] = name
                if suffix != "Response":
                    entry[f"{suffix}-description"] = str(definition.get("description", name))
    return {k: v for k, v in found.items() if "Request" in v or "Notification" in v}


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0].strip() or "-"


def _cross_check(
    shown: str,
    table: dict[str, Any],
    operations: tuple[Operation, ...],
    errors: tuple[ErrorDef, ...],
    schema: dict[str, Any],
    unstable: dict[str, Any] | None,
) -> None:
    defs = dict(dialects.defs_of(schema))
    if unstable is not None:
        defs = {**dialects.defs_of(unstable), **defs}
    known = set(defs)
    kind = table["transport"]["kind"]
    error_names = {e.name for e in errors}
    explicit = isinstance(table["operations"], list)
    problems: list[Problem] = []
    seen: set[str] = set()
    for index, op in enumerate(operations):
        where = f"/operations/{index}" if explicit else "/operations"
        if op.name in seen:
            problems.append(Problem(shown, where + "/name", f"duplicate operation {op.name!r}"))
        seen.add(op.name)
        if not explicit:
            continue
        for field_name in ("request", "response", "stream_event"):
            ref = getattr(op, field_name)
            if ref is None:
                continue
            sub = "stream/event" if field_name == "stream_event" else field_name
            if type_name(ref) not in known:
                problems.append(
                    Problem(shown, f"{where}/{sub}", f"type {ref!r} is not in the schema's $defs")
                )
            elif resolve_ref(defs, ref) is None:
                problems.append(
                    Problem(shown, f"{where}/{sub}", f"{ref!r} points to nothing in the schema")
                )
        for err in op.errors:
            if err not in error_names:
                problems.append(Problem(shown, f"{where}/errors", f"unknown error {err!r}"))
        problems.extend(_check_http(shown, where, op, known))
        raw = table["operations"][index]
        if kind == "jsonrpc-stdio" and "rpc" not in raw:
            problems.append(Problem(shown, where, "a JSON-RPC operation needs `rpc`"))
        elif kind == "jsonrpc-http" and ("rpc" in raw) == ("http" in raw):
            problems.append(
                Problem(shown, where, "an operation needs `rpc` (JSON-RPC) or `http` (plain HTTP)")
            )
        elif kind in ("http", "http+sse", "http+polling") and "http" not in raw:
            problems.append(Problem(shown, where, "an HTTP operation needs `http`"))
        problems.extend(_check_stream(shown, where, op, kind, "rpc" in raw))
    if len({e.name for e in errors}) != len(errors):
        problems.append(Problem(shown, "/errors", "duplicate error names"))
    if problems:
        raise BuildError(problems)


_PRIMITIVES = frozenset({"string", "integer", "boolean"})


def _check_stream(shown: str, where: str, op: Operation, kind: str, rpc: bool) -> list[Problem]:
    """A stream's format fits its operation's wire; its rules are complete."""
    stream = op.stream
    if stream is None:
        return []
    problems: list[Problem] = []
    if (stream.format == "jsonrpc-sse") != rpc:
        wanted = "jsonrpc-sse" if rpc else "sse"
        problems.append(
            Problem(
                shown, f"{where}/stream/format", f"this operation's stream format is {wanted!r}"
            )
        )
    if stream.discriminator is None:
        problems.append(Problem(shown, f"{where}/stream", "a stream needs `discriminator`"))
    if not stream.always and stream.mode_field is None:
        problems.append(
            Problem(
                shown,
                f"{where}/stream",
                "a stream needs `always: true` or `mode_field` and `modes`",
            )
        )
    for index, rule in enumerate(stream.end):
        if rule.field is not None and not rule.values:
            problems.append(
                Problem(shown, f"{where}/stream/end/{index}", "`field` needs `equals` or `in`")
            )
    return problems


def _check_http(shown: str, where: str, op: Operation, known: set[str]) -> list[Problem]:
    """Path placeholders, parameter names and the types HTTP details refer to."""
    problems: list[Problem] = []
    if op.http_path is not None:
        placeholders = re.findall(r"{([^{}]*)}", op.http_path)
        if sorted(placeholders) != sorted(op.path_params):
            problems.append(
                Problem(
                    shown,
                    f"{where}/http/path_params",
                    f"path placeholders {placeholders} do not match path_params "
                    f"{list(op.path_params)}",
                )
            )
    for i, name in enumerate([*op.path_params, *(q.name for q in op.query)]):
        if not _IDENT.match(name) or keyword.iskeyword(name):
            sub = "path_params" if i < len(op.path_params) else "query"
            problems.append(
                Problem(shown, f"{where}/http/{sub}", f"{name!r} is not a Python identifier")
            )
    for i, q in enumerate(op.query):
        if q.type not in _PRIMITIVES and q.type not in known:
            problems.append(
                Problem(shown, f"{where}/http/query/{i}/type", f"type {q.type!r} is not known")
            )
    if op.stream is not None:
        for mode, type_name in op.stream.modes:
            if type_name not in known:
                problems.append(
                    Problem(
                        shown,
                        f"{where}/stream/modes{to_pointer([mode])}",
                        f"type {type_name!r} is not in the schema's $defs",
                    )
                )
    return problems
