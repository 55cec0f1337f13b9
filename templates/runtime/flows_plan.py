"""agents.json bundles -> execution plans (plain data): the one planner of the build (codegen
embeds each plan in ``agentproto/flows/<bundle>.py``) and of bundles loaded at run time
(``agentproto.flows.load_bundle``). Standard library only: codegen loads this very file.

Everything that can be decided before the first call is decided here: overrides applied to
the OpenAPI operations, each action's method, path, server, parameters (with their OpenAPI
serialisation: ``style``, ``explode``, ``allowReserved``, ``content``), body (media type and
``encoding``) and security; flow inputs with Python argument names and JSON Schemas; links in
canonical form.

**Compact plans.** Schemas keep their ``$ref``s, rewritten to ``#/$defs/<key>``; the plan's
``$defs`` holds each schema piece the flows reach, once. Nothing the flows do not use is
copied, so a plan (and the time and memory to make it) grows with what the flows use, not
with the size of the OpenAPI documents.

**Bundles as people publish them.** :func:`normalise` reads the seed schema's known deviations
(JSON-Schema keywords and other extras in flow parameters, ``null`` fields); the planner reads
the link forms of real bundles and reports each as a warning:

- origins ``response.*``, ``responseBody.*``, ``responses.*`` (no status key): the action's
  ``responses.success.*``; targets ``query.*`` / ``path.*`` / ``header.*`` / ``cookie.*`` and
  ``parameters.<index>.value``: ``parameters.<name>``;
- an ``actionId`` equal to the flow id: the flow's inputs (origin) or result (target); when
  an action of the flow has that id too, the field path decides (``responses.*``: the action;
  a flow input's path: the flow);
- schema paths: ``requestBody.content.<media>.schema.properties.a.properties.b`` and
  ``requestBody.properties.a`` (when the body has no field named ``properties``), in flow
  inputs, action bodies and responses, read as the data path (``requestBody.a.b``);
- ``parameters.f[k]`` into a parameter ``f`` (a ``deepObject``): the member ``k`` of ``f``;
- whole-object links, parameters that are body fields, bodies an operation does not declare,
  array bodies, one-action flows without links (see the guide).

A problem confined to one flow (an unknown action or operation, a link that cannot work) is
reported with its JSON pointer and the fix; by default that flow is left out with a warning
(listed in the plan's ``dropped``) and the rest of the bundle is planned; ``strict`` makes it
an error. Problems of the bundle as a whole (an override that leads nowhere, two flows of one
name) are always errors.
"""

from __future__ import annotations

import copy
import keyword
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard

# -- JSON, typed -------------------------------------------------------------------------------


def _is_obj(value: Any) -> TypeGuard[dict[str, Any]]:
    """Whether a parsed JSON/YAML value is an object."""
    return isinstance(value, dict)


def _is_arr(value: Any) -> TypeGuard[list[Any]]:
    """Whether a parsed JSON/YAML value is an array."""
    return isinstance(value, list)


def _obj(value: Any) -> dict[str, Any]:
    """``value`` when it is an object, else an empty one (absent, ``null``, another type)."""
    return value if _is_obj(value) else {}


def _arr(value: Any) -> list[Any]:
    """``value`` when it is an array, else an empty one."""
    return value if _is_arr(value) else []


# -- reading bundles as people publish them ----------------------------------------------------

PARAMETER_KEYS: Final = frozenset({"name", "description", "required", "type"})
SCHEMA_KEYWORDS: Final = frozenset(
    {
        "additionalProperties",
        "allOf",
        "anyOf",
        "const",
        "default",
        "enum",
        "example",
        "examples",
        "exclusiveMaximum",
        "exclusiveMinimum",
        "format",
        "items",
        "maxItems",
        "maxLength",
        "maximum",
        "minItems",
        "minLength",
        "minimum",
        "multipleOf",
        "nullable",
        "oneOf",
        "pattern",
        "properties",
        "title",
        "uniqueItems",
    }
)


@dataclass(frozen=True)
class Deviation:
    """Something read leniently: where (a JSON pointer) and what kind of thing."""

    pointer: str
    kind: str


def normalise(document: Any) -> tuple[Any, Any, list[Deviation]]:
    """``(lenient, checkable, deviations)``: the document the planner reads (extras kept),
    the one to validate against the seed schema (extras taken out), and what was read
    leniently. Array indices are unchanged, so every other schema message keeps its pointer:

    - JSON-Schema keywords (``enum``, ``items``, ``default``, ...) in a flow parameter become
      part of that input's JSON Schema; any other unknown key is kept in the input's
      ``extras``;
    - ``requestBody`` / ``responses`` / ``parameters`` ``null`` in a flow's ``fields`` are read
      as absent.
    """
    if not _is_obj(document) or not _is_arr(document.get("flows")):
        return document, document, []
    lenient = copy.deepcopy(document)
    deviations: list[Deviation] = []
    for f_index, flow in enumerate(lenient["flows"]):
        fields = flow.get("fields") if _is_obj(flow) else None
        if not _is_obj(fields):
            continue
        for key in ("requestBody", "responses", "parameters"):
            if key in fields and fields[key] is None:
                del fields[key]
                deviations.append(
                    Deviation(f"/flows/{f_index}/fields/{key}", f"`{key}: null` read as absent")
                )
        for p_index, param in enumerate(_arr(fields.get("parameters"))):
            if not _is_obj(param):
                continue
            where = f"/flows/{f_index}/fields/parameters/{p_index}"
            for key in sorted(set(param) - PARAMETER_KEYS):
                kind = (
                    f"JSON-Schema keyword {key!r} in a flow parameter: part of the input's schema"
                    if key in SCHEMA_KEYWORDS
                    else f"unknown key {key!r} in a flow parameter: kept in the input's extras"
                )
                deviations.append(Deviation(where, kind))
    checkable = copy.deepcopy(lenient)
    for flow in checkable["flows"]:
        fields = flow.get("fields") if _is_obj(flow) else None
        if _is_obj(fields):
            for param in _arr(fields.get("parameters")):
                if _is_obj(param):
                    for key in set(param) - PARAMETER_KEYS:
                        del param[key]
    return lenient, checkable, deviations


def group(deviations: Sequence[Deviation]) -> list[tuple[str, list[str]]]:
    """``(kind, pointers)`` per kind, in order of first appearance."""
    grouped: dict[str, list[str]] = {}
    for deviation in deviations:
        pointers = grouped.setdefault(deviation.kind, [])
        if deviation.pointer not in pointers:
            pointers.append(deviation.pointer)
    return list(grouped.items())


# -- names -------------------------------------------------------------------------------------

_PRIMITIVES: Final = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
    "array": "list[Any]",
    "object": "dict[str, Any]",
}
RUNNER_NAMES: Final = frozenset({"run_flow", "dry_run", "plan", "close", "aclose"})
"""Public methods of every flows class (the runtime's ``SyncFlows`` / ``AsyncFlows``): a flow
method of that name would replace them."""


def identifier(text: str) -> str:
    """A Python identifier for a wire name (``from`` -> ``from_``, ``x-id`` -> ``x_id``)."""
    name = re.sub(r"[^0-9A-Za-z_]+", "_", text).strip("_")
    if not name or name[0].isdigit():
        name = f"f_{name}"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        name += "_"
    return name


def snake_name(text: str) -> str:
    """A Python method name for a wire id: ``chat_postMessage`` -> ``chat_post_message``."""
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", text)
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)
    return identifier(re.sub(r"_+", "_", text).lower())


def class_name(text: str) -> str:
    return "".join(part.capitalize() for part in identifier(text).split("_") if part)


def python_type(schema: Any) -> str:
    kind = schema.get("type") if _is_obj(schema) else None
    if _is_arr(kind):
        kinds = [_PRIMITIVES.get(k, "Any") for k in kind if k != "null"]
        return " | ".join(dict.fromkeys(kinds)) or "Any"
    return _PRIMITIVES.get(str(kind), "Any")


# -- OpenAPI documents -------------------------------------------------------------------------

_HTTP_METHODS: Final = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_STYLES: Final[Mapping[str, frozenset[str]]] = {
    "path": frozenset({"simple", "label", "matrix"}),
    "query": frozenset({"form", "spaceDelimited", "pipeDelimited", "deepObject"}),
    "header": frozenset({"simple"}),
    "cookie": frozenset({"form", "cookie"}),
}
_DEFAULT_STYLE: Final[Mapping[str, str]] = {
    "path": "simple",
    "query": "form",
    "header": "simple",
    "cookie": "form",
}
_CREDENTIAL_NAMES: Final = frozenset(
    {
        "accesstoken",
        "apikey",
        "apitoken",
        "authorization",
        "authtoken",
        "hapikey",
        "token",
        "xapikey",
        "xauthtoken",
    }
)


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


class _Source:
    """One OpenAPI document: its operations by id (indexed once), references followed on
    demand."""

    def __init__(self, source_id: str, spec: Any) -> None:
        self.id = source_id
        self.spec: dict[str, Any] = spec if _is_obj(spec) else {}
        self._operations: dict[str, tuple[str, str, dict[str, Any], dict[str, Any]]] | None = None

    def operation(
        self, operation_id: str
    ) -> tuple[str, str, dict[str, Any], dict[str, Any]] | None:
        """``(METHOD, path, operation, path item)`` of an operationId."""
        if self._operations is None:
            self._operations = {}
            for path, item in (_obj(self.spec.get("paths"))).items():
                item = self.deref(item)
                if not _is_obj(item):
                    continue
                for method in _HTTP_METHODS:
                    op = item.get(method)
                    if _is_obj(op) and isinstance(op.get("operationId"), str):
                        self._operations.setdefault(
                            op["operationId"], (method.upper(), str(path), op, item)
                        )
        return self._operations.get(operation_id)

    def target(self, ref: str) -> Any:
        """What a local ``$ref`` points at (``None`` when it leads nowhere)."""
        node: Any = self.spec
        for token in ref[2:].split("/") if ref != "#" else []:
            key = _unescape(token)
            if _is_obj(node) and key in node:
                node = node[key]
            elif _is_arr(node) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            else:
                return None
        return node

    def deref(self, node: Any) -> Any:
        """``node`` with its own ``$ref`` chain followed (a cycle or a dead end: ``{}``);
        what it contains is left as it is."""
        seen: set[str] = set()
        while _is_obj(node) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if not ref.startswith("#") or ref in seen:
                return {} if ref in seen else node
            seen.add(ref)
            found = self.target(ref)
            node = found if found is not None else {}
        return node


class _Defs:
    """The plan's ``$defs``: each schema piece a plan value refers to, once, under a key made
    from its source and name (``trading.Order``)."""

    def __init__(self) -> None:
        self.table: dict[str, Any] = {}
        self._keys: dict[tuple[str, str], str] = {}

    def localise(self, source: _Source, node: Any) -> Any:
        """A copy of ``node`` whose local ``$ref``s point into ``$defs``; the pieces they name
        are copied in (once each, their own references likewise)."""
        pending: list[tuple[str, str]] = []
        result = self._rewrite(source, node, pending)
        while pending:
            key, ref = pending.pop()
            target = source.target(ref)
            self.table[key] = self._rewrite(source, target if target is not None else {}, pending)
        return result

    def _rewrite(self, source: _Source, node: Any, pending: list[tuple[str, str]]) -> Any:
        if _is_obj(node):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/"):
                key = self._keys.get((source.id, ref))
                if key is None:
                    key = self._key(source.id, ref)
                    self._keys[(source.id, ref)] = key
                    self.table[key] = {}  # reserved; filled from ``pending``
                    pending.append((key, ref))
                rest = {
                    k: self._rewrite(source, v, pending) for k, v in node.items() if k != "$ref"
                }
                return {"$ref": f"#/$defs/{key}", **rest}
            return {k: self._rewrite(source, v, pending) for k, v in node.items()}
        if _is_arr(node):
            return [self._rewrite(source, v, pending) for v in node]
        return node

    def _key(self, source_id: str, ref: str) -> str:
        tokens = [_unescape(t) for t in ref[2:].split("/")]
        if tokens[:2] == ["components", "schemas"] and len(tokens) == 3:
            base = f"{source_id}.{tokens[2]}"
        else:
            base = f"{source_id}." + ".".join(tokens)
        base = re.sub(r"[^0-9A-Za-z_.\-]+", "_", base)
        key, n = base, 2
        while key in self.table:
            key, n = f"{base}_{n}", n + 1
        return key


def resolve(plan: Mapping[str, Any], node: Any, depth: int = 8) -> Any:
    """``node`` (a schema in ``plan``) with ``#/$defs/...`` references replaced by what they
    name, ``depth`` levels of references deep (deeper ones, and cycles, stay references)."""
    defs: Mapping[str, Any] = _obj(plan.get("$defs"))

    def walk(value: Any, left: int) -> Any:
        if _is_obj(value):
            ref = value.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/") and left > 0:
                key = ref[len("#/$defs/") :]
                if key in defs:
                    return walk(defs[key], left - 1)
            return {k: walk(v, left) for k, v in value.items()}
        if _is_arr(value):
            return [walk(v, left) for v in value]
        return value

    return walk(node, depth)


def declared_type(plan: Mapping[str, Any], schema: Any) -> str | None:
    """The one JSON type a parameter's schema (in ``plan``) declares, ``null`` aside (``None``
    for none, or several): its ``$ref``s followed."""
    defs: Mapping[str, Any] = _obj(plan.get("$defs"))
    for _ in range(8):
        ref = schema.get("$ref") if _is_obj(schema) else None
        if not (isinstance(ref, str) and ref.startswith("#/$defs/")):
            break
        schema = defs.get(ref[len("#/$defs/") :])
    kind = schema.get("type") if _is_obj(schema) else None
    if _is_arr(kind):
        kinds = [k for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    return kind if isinstance(kind, str) else None


# -- the plan ----------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Problem:
    """Something in a bundle that stops it (or, read leniently, one flow) from working: where
    (a JSON pointer into the agents.json document) and why, with the fix."""

    pointer: str
    reason: str

    def __str__(self) -> str:
        return f"{self.pointer or '/'}: {self.reason}"


@dataclass
class Outcome:
    """What planning a bundle gives: the plan (plain data; ``None`` when there are
    problems), the warnings (``(kind, pointers)``, one per kind) and the problems."""

    plan: dict[str, Any] | None
    warnings: list[tuple[str, list[str]]] = field(default_factory=list[tuple[str, list[str]]])
    problems: list[Problem] = field(default_factory=list[Problem])


def plan_bundle(
    name: str,
    document: Mapping[str, Any],
    specs: Mapping[str, Any],
    *,
    deviations: Sequence[Deviation] = (),
    strict: bool = False,
) -> Outcome:
    """The execution plan of one bundle: ``document`` is the agents.json document (as
    :func:`normalise` gives it, already checked against the seed schema), ``specs`` its
    OpenAPI documents by source id. A problem confined to one flow leaves that flow out with a
    warning, unless ``strict``."""
    planner = _Planner(document, specs, strict)
    found = [Deviation(d.pointer, d.kind) for d in deviations]
    ops = planner.operations()
    flows: list[dict[str, Any]] = []
    for index, flow in enumerate(document["flows"]):
        planned = planner.flow(index, flow, ops)
        if planned is not None:
            flows.append(planned)
    names: dict[str, int] = {}
    kept: list[dict[str, Any]] = []
    for planned in flows:
        where = f"/flows/{planned['index']}/id"
        if planned["name"] in names:
            planner.problem(
                where,
                f"flow name {planned['name']!r} is used twice (also /flows/"
                f"{names[planned['name']]}); give the flows distinct ids",
            )
        elif planned["name"] in RUNNER_NAMES:
            planner.flow_problem(
                planned["index"],
                planned["id"],
                [
                    Problem(
                        where,
                        f"flow name {planned['name']!r} is a method every flows class "
                        "has; rename the flow",
                    )
                ],
            )
        else:
            names[planned["name"]] = planned["index"]
            kept.append(planned)
    for planned in kept:
        del planned["index"]
    warnings = group(found + planner.warnings)
    if planner.problems:
        return Outcome(None, warnings, sorted(set(planner.problems)))
    plan: dict[str, Any] = {
        "bundle": name,
        "title": str((_obj(document.get("info"))).get("title", name)),
        "sources": sorted({a["source"] for f in kept for a in f["actions"]}),
        "operations": _operations_table(kept, ops),
        "flows": kept,
    }
    if planner.dropped:
        plan["dropped"] = planner.dropped
    if planner.defs.table:
        plan["$defs"] = dict(sorted(planner.defs.table.items()))
    return Outcome(plan, warnings, [])


_OPERATION_KEYS: Final = ("method", "path", "server", "params", "body", "security")


def _operations_table(
    flows: list[dict[str, Any]], ops: Mapping[tuple[str, str], Mapping[str, Any]]
) -> dict[str, dict[str, dict[str, Any]]]:
    """Each operation the kept flows use, once (``operations[source][operationId]``); each
    action keeps its id, source and operation and only what its flow changed: parameters a
    link added (``extra_params``), a body a link made (``body``), body fields nothing gives
    (``unfilled_body_fields``)."""
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for flow in flows:
        compact: list[dict[str, Any]] = []
        for action in flow["actions"]:
            key = (action["source"], action["operation"])
            base = {k: ops[key][k] for k in _OPERATION_KEYS}
            table.setdefault(key[0], {})[key[1]] = base
            entry: dict[str, Any] = {k: action[k] for k in ("id", "source", "operation")}
            extra = action["params"][len(base["params"]) :]
            if extra:
                entry["extra_params"] = extra
            if action["body"] != base["body"]:
                entry["body"] = action["body"]
            if "unfilled_body_fields" in action:
                entry["unfilled_body_fields"] = action["unfilled_body_fields"]
            compact.append(entry)
        flow["actions"] = compact
    return {source: dict(sorted(found.items())) for source, found in sorted(table.items())}


def expand(plan: Mapping[str, Any]) -> dict[str, Any]:
    """``plan`` with each action whole: its operation's method, path, server, parameters
    (those its flow added last), body and security merged in. What the executor runs; a plan
    already expanded is returned as is."""
    operations: Mapping[str, Mapping[str, Any]] = _obj(plan.get("operations"))
    if not operations:
        return dict(plan)
    flows: list[dict[str, Any]] = []
    for flow in plan["flows"]:
        actions: list[dict[str, Any]] = []
        for action in flow["actions"]:
            base = operations[action["source"]][action["operation"]]
            whole = {
                "id": action["id"],
                "source": action["source"],
                "operation": action["operation"],
                **{k: base[k] for k in _OPERATION_KEYS},
            }
            whole["params"] = [*base["params"], *action.get("extra_params", ())]
            if "body" in action:
                whole["body"] = action["body"]
            if "unfilled_body_fields" in action:
                whole["unfilled_body_fields"] = action["unfilled_body_fields"]
            actions.append(whole)
        flows.append({**flow, "actions": actions})
    return {k: v for k, v in plan.items() if k != "operations"} | {"flows": flows}


def _is_credential(name: str, where: str, slots: set[tuple[str, str]]) -> bool:
    """A parameter that carries a credential: a security scheme's key, or a well-known name
    (``token``, ``apiKey``, ``access_token``, ``Authorization``, ...)."""
    squashed = re.sub(r"[^a-z]", "", name.lower())
    return (where, name.lower()) in slots or (
        where in ("header", "query") and squashed in _CREDENTIAL_NAMES
    )


def _branches(schema: Mapping[str, Any]) -> list[Any]:
    for key in ("oneOf", "anyOf"):
        if _is_arr(schema.get(key)) and schema[key]:
            return list(schema[key])
    return []


def _is_status_key(token: str) -> bool:
    return token in ("success", "default") or bool(re.fullmatch(r"[1-5](\d\d|XX)", token))


def _pick_media(content: Mapping[str, Any]) -> str:
    """The media type to send: JSON when offered, then a form, then the first listed."""
    kinds = [str(k) for k in content]
    plain = [k.split(";")[0].strip().lower() for k in kinds]
    for wanted in ("application/json", "+json", "application/x-www-form-urlencoded", "multipart/"):
        for kind, bare in zip(kinds, plain, strict=True):
            if bare == wanted or (wanted.startswith(("+", "multipart")) and wanted in bare):
                return kind
    return kinds[0] if kinds else "application/json"


def _set_path(source: _Source, target: Any, tokens: list[str], value: Any) -> None:
    """Put ``value`` at ``tokens`` inside ``target`` (an operation being overridden). Every
    object and array on the way is copied first (a ``$ref`` as what it names), so the change
    stays in this operation and the OpenAPI document is never written to."""
    for token in tokens[:-1]:
        child: Any
        if _is_arr(target):
            child = _copied(source.deref(target[int(token)]))
            target[int(token)] = child
        else:
            child = _copied(source.deref(target.get(token, {})))
            target[token] = child
        target = child
    last = tokens[-1]
    if _is_arr(target):
        target[int(last)] = value
    else:
        target[last] = value


def _copied(node: Any) -> Any:
    """A shallow copy of an object or an array (anything else as it is)."""
    if _is_obj(node):
        return dict(node)
    if _is_arr(node):
        return list(node)
    return node


class _Planner:
    def __init__(self, document: Mapping[str, Any], specs: Mapping[str, Any], strict: bool):
        self.document = document
        self.sources = {sid: _Source(sid, spec) for sid, spec in specs.items()}
        self.strict = strict
        self.defs = _Defs()
        self.problems: list[Problem] = []
        self.warnings: list[Deviation] = []
        self.dropped: list[dict[str, str]] = []
        self._flow_problems: list[Problem] = []
        # (source, operationId) -> (body schema, success response schema) as the document
        # writes them: what the planner reads (the plan holds localised copies)
        self.raw: dict[tuple[str, str], tuple[Any, Any]] = {}

    # -- reporting -----------------------------------------------------------------------------

    def warn(self, pointer: str, kind: str) -> None:
        self.warnings.append(Deviation(pointer, kind))

    def problem(self, pointer: str, reason: str) -> None:
        """A problem of the bundle as a whole: always an error."""
        self.problems.append(Problem(pointer, reason))

    def flow_problem(self, index: int, flow_id: str, problems: Sequence[Problem]) -> None:
        """Problems confined to one flow: errors when strict, else the flow is left out."""
        if self.strict:
            self.problems.extend(problems)
            return
        for p in problems:
            self.warn(p.pointer, f"flow left out: {p.reason}")
        self.dropped.append(
            {
                "id": flow_id,
                "pointer": f"/flows/{index}",
                "reason": "; ".join(f"{p.pointer}: {p.reason}" for p in problems),
            }
        )

    def _problem(self, pointer: str, reason: str) -> None:
        self._flow_problems.append(Problem(pointer, reason))

    # -- operations ----------------------------------------------------------------------------

    def operations(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Every (sourceId, operationId) the flows use, overrides applied, as plan actions
        (each made once, however many flows use it)."""
        overrides: dict[tuple[str, str], list[tuple[int, Mapping[str, Any]]]] = {}
        for index, override in enumerate(_arr(self.document.get("overrides"))):
            key = (override["sourceId"], override["operationId"])
            overrides.setdefault(key, []).append((index, override))
        wanted = {
            (a["sourceId"], a["operationId"]) for f in self.document["flows"] for a in f["actions"]
        } | set(overrides)
        result: dict[tuple[str, str], dict[str, Any]] = {}
        for key in sorted(wanted):
            source_id, operation_id = key
            source = self.sources.get(source_id)
            found = source.operation(operation_id) if source is not None else None
            if source is None or found is None:
                for index, _ in overrides.get(key, []):
                    self.problem(
                        f"/overrides/{index}/operationId",
                        f"{operation_id!r} is not an operationId of source {source_id!r}: name "
                        "one its OpenAPI document defines",
                    )
                continue
            method, path, raw_op, item = found
            op = dict(raw_op)
            params = self.parameters(source, item, op)
            op["parameters"] = params
            for index, override in overrides.get(key, []):
                try:  # ``op`` is a copy; _set_path copies what it goes through
                    _set_path(
                        source,
                        op,
                        override["fieldPath"].split("."),
                        copy.deepcopy(override["value"]),
                    )
                except (KeyError, IndexError, ValueError, TypeError, AttributeError):
                    self.problem(
                        f"/overrides/{index}/fieldPath",
                        f"{override['fieldPath']!r} does not lead into operation "
                        f"{operation_id!r}: write a dotted path into the operation object "
                        "(e.g. parameters.0.required)",
                    )
            result[key] = self.action(source, operation_id, method, path, item, op)
        return result

    def parameters(
        self, source: _Source, item: Mapping[str, Any], op: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """The path item's parameters and the operation's, those of the operation replacing
        a path-level one of the same name and location."""
        merged: dict[tuple[str, str], dict[str, Any]] = {}
        for raw in [*(_arr(item.get("parameters"))), *(_arr(op.get("parameters")))]:
            p = source.deref(raw)
            if _is_obj(p) and "name" in p and "in" in p:
                merged[(str(p["name"]), str(p["in"]))] = dict(p)
        return list(merged.values())

    def action(
        self,
        source: _Source,
        operation_id: str,
        method: str,
        path: str,
        item: Mapping[str, Any],
        op: Mapping[str, Any],
    ) -> dict[str, Any]:
        where = f"{source.id}:{operation_id}"
        security = self.security(source, op, where)
        slots = {(s["in"], s["name"].lower()) for alt in security for s in alt if "name" in s}
        params = [self.parameter(source, p, slots, where) for p in _arr(op.get("parameters"))]
        own = [
            str(p.get("name"))
            for p in (source.deref(x) for x in _arr(op.get("parameters")))
            if _is_obj(p)
        ]
        body = source.deref(op.get("requestBody"))
        media = _pick_media((_obj(body.get("content"))) if _is_obj(body) else {})
        raw_body = (
            (_obj(source.deref((_obj(body.get("content"))).get(media)))).get("schema")
            if _is_obj(body)
            else None
        )
        self.raw[(source.id, operation_id)] = (raw_body, self.response(source, op))
        return {
            "operation": operation_id,
            "method": method,
            "path": path,
            "server": self.server(source, item, op),
            "params": params,
            "indexed": own,
            "body": self.body(source, op),
            "security": security,
        }

    def parameter(
        self, source: _Source, p: Mapping[str, Any], slots: set[tuple[str, str]], where: str
    ) -> dict[str, Any]:
        location = str(p["in"])
        style = str(p.get("style") or _DEFAULT_STYLE.get(location, "form"))
        if location in _STYLES and style not in _STYLES[location]:
            self.warn(
                where,
                f"parameter style {style!r} is not defined for 'in: {location}': sent as "
                f"{_DEFAULT_STYLE[location]!r}",
            )
            style = _DEFAULT_STYLE[location]
        explode = p.get("explode")
        planned: dict[str, Any] = {
            "name": str(p["name"]),
            "in": location,
            "required": bool(p.get("required", location == "path")),
            "schema": {},
            "credential": _is_credential(str(p["name"]), location, slots),
            "style": style,
            "explode": bool(explode) if explode is not None else style in ("form", "cookie"),
        }
        if p.get("allowReserved") and location == "query":
            planned["allow_reserved"] = True
        content = p.get("content")
        if _is_obj(content) and content:
            media = _pick_media(content)
            planned["content_type"] = media
            planned["schema"] = self.defs.localise(
                source, _obj((_obj(source.deref(content[media]))).get("schema"))
            )
        else:
            planned["schema"] = self.defs.localise(source, _obj(p.get("schema")))
        return planned

    def body(self, source: _Source, op: Mapping[str, Any]) -> dict[str, Any] | None:
        body = source.deref(op.get("requestBody"))
        if not _is_obj(body):
            return None
        content = _obj(body.get("content"))
        media = _pick_media(content)
        media_object = _obj(source.deref(content.get(media)))
        raw = _obj(media_object.get("schema"))
        schema = source.deref(raw)
        required = self.required_fields(source, schema)
        planned: dict[str, Any] = {
            "content_type": media,
            "required": bool(body.get("required", False)),
            "schema": self.defs.localise(source, raw),
            "required_fields": sorted(required),
        }
        encoding = media_object.get("encoding")
        if _is_obj(encoding) and encoding:
            planned["encoding"] = {
                str(name): {
                    k: v
                    for k, v in sorted(source.deref(e).items())
                    if k in ("contentType", "style", "explode", "allowReserved")
                }
                for name, e in sorted(encoding.items())
                if _is_obj(source.deref(e))
            }
        return planned

    def required_fields(self, source: _Source, schema: Any, depth: int = 0) -> set[str]:
        """A body's required fields, those its ``allOf`` parts require included."""
        schema = source.deref(schema)
        if not _is_obj(schema) or depth > 8:
            return set()
        required = {str(n) for n in _arr(schema.get("required")) if isinstance(n, str)}
        for part in _arr(schema.get("allOf")):
            required |= self.required_fields(source, part, depth + 1)
        return required

    def properties(self, source: _Source, schema: Any, depth: int = 0) -> dict[str, Any]:
        """A schema's properties (references followed), those of its oneOf/anyOf/allOf
        branches included."""
        schema = source.deref(schema)
        if not _is_obj(schema) or depth > 8:
            return {}
        props = {str(k): v for k, v in (_obj(schema.get("properties"))).items()}
        for key in ("oneOf", "anyOf", "allOf"):
            for branch in _arr(schema.get(key)):
                for name, prop in self.properties(source, branch, depth + 1).items():
                    props.setdefault(name, prop)
        return props

    @staticmethod
    def response(source: _Source, op: Mapping[str, Any]) -> Any:
        """The success response's JSON schema, as the document writes it (for the result
        model and schema-path links; not kept in the plan)."""
        responses = _obj(op.get("responses"))
        for status in sorted(responses, key=str):
            if not str(status).startswith("2"):
                continue
            content = _obj((_obj(source.deref(responses[status]))).get("content"))
            for media, body in content.items():
                body = source.deref(body)
                if "json" in str(media) and _is_obj(body) and "schema" in body:
                    return body["schema"]
        return None

    @staticmethod
    def server(source: _Source, item: Mapping[str, Any], op: Mapping[str, Any]) -> str:
        servers = (
            op.get("servers") or item.get("servers") or source.spec.get("servers") or [{"url": "/"}]
        )
        found = source.deref(servers[0]) if _is_arr(servers) and servers else None
        server: dict[str, Any] = found if _is_obj(found) else {"url": "/"}
        url = str(server.get("url", "/"))
        for name, var in (_obj(server.get("variables"))).items():
            url = url.replace("{" + name + "}", str((_obj(var)).get("default", "")))
        return url

    def security(
        self, source: _Source, op: Mapping[str, Any], where: str
    ) -> list[list[dict[str, str]]]:
        """The operation's security alternatives, as what an auth must put on a request:
        ``apiKey`` (name, in: header, query or cookie), ``bearer`` (also OAuth 2 / OpenID
        Connect) or ``basic``. An alternative no auth can meet (mutual TLS, an unknown scheme)
        is left out with a warning; an empty alternative means "no auth needed"."""
        schemes = _obj((_obj(source.spec.get("components"))).get("securitySchemes"))
        requirements = _arr(op.get("security", source.spec.get("security")))
        result: list[list[dict[str, str]]] = []
        for requirement in requirements if _is_arr(requirements) else []:
            alternative: list[dict[str, str]] = []
            for name in sorted(_obj(requirement)):
                scheme = source.deref(_obj(schemes.get(name)))
                kind = str(scheme.get("type", "")).lower()
                http = str(scheme.get("scheme", "")).lower()
                if kind == "apikey" and scheme.get("in") in ("header", "query", "cookie"):
                    alternative.append(
                        {"type": "apiKey", "name": str(scheme["name"]), "in": str(scheme["in"])}
                    )
                elif kind in ("oauth2", "openidconnect") or (kind == "http" and http == "bearer"):
                    alternative.append({"type": "bearer"})
                elif kind == "http" and http == "basic":
                    alternative.append({"type": "basic"})
                else:
                    self.warn(
                        where,
                        f"security scheme {name!r} ({kind or 'unknown'}) cannot be sent by any "
                        "auth: that alternative is left out",
                    )
                    break
            else:
                result.append(alternative)
        if requirements and not result:
            self.warn(
                where,
                "no security alternative of the operation can be met by any auth: every call fails",
            )
            result.append([{"type": "unsupported"}])
        return result

    # -- flows ---------------------------------------------------------------------------------

    def flow(
        self, f_index: int, flow: Mapping[str, Any], ops: dict[tuple[str, str], dict[str, Any]]
    ) -> dict[str, Any] | None:
        where = f"/flows/{f_index}"
        flow_id = str(flow["id"])
        self._flow_problems = []
        actions: list[dict[str, Any]] = []
        for a_index, action in enumerate(flow["actions"]):
            op = ops.get((action["sourceId"], action["operationId"]))
            if op is None:
                if action["sourceId"] not in self.sources:
                    known = ", ".join(sorted(self.sources)) or "none"
                    self._problem(
                        f"{where}/actions/{a_index}/sourceId",
                        f"unknown source {action['sourceId']!r}: name one of the bundle's "
                        f"sources ({known})",
                    )
                else:
                    self._problem(
                        f"{where}/actions/{a_index}/operationId",
                        f"{action['operationId']!r} is not an operationId of source "
                        f"{action['sourceId']!r}: name one its OpenAPI document defines",
                    )
                continue
            actions.append(
                {
                    "id": action["id"],
                    "source": action["sourceId"],
                    **{k: v for k, v in op.items() if k not in ("indexed", "security")},
                    "params": [dict(p) for p in op["params"]],
                    "body": copy.deepcopy(op["body"]),
                    "security": [[dict(s) for s in alt] for alt in op["security"]],
                }
            )
        if self._flow_problems:
            self.flow_problem(f_index, flow_id, self._flow_problems)
            return None
        order: dict[str, int] = {str(a["id"]): i for i, a in enumerate(actions)}
        by_id: dict[str, dict[str, Any]] = {str(a["id"]): a for a in actions}
        keys = {a["id"]: (a["sourceId"], a["operationId"]) for a in flow["actions"]}
        inputs, body_args, variants = self.inputs(flow)
        links = self.links(where, flow, ops, keys, order, by_id, inputs, body_args)
        inputs = self.kept_inputs(where, flow, inputs, links)
        self.credentials(inputs, links, by_id)
        self.uncallable(where, actions, links)
        if self._flow_problems:
            self.flow_problem(f_index, flow_id, self._flow_problems)
            return None
        outputs = [link for link in links if link["to"] is None]
        return {
            "index": f_index,
            "id": flow_id,
            "name": snake_name(flow_id),
            "title": flow.get("title", flow_id),
            "description": flow.get("description", ""),
            "inputs": inputs,
            "body_variants": variants,
            "actions": actions,
            "links": links,
            "result_fields": self.result_fields(outputs, actions[-1] if actions else None),
        }

    def links(
        self,
        where: str,
        flow: Mapping[str, Any],
        ops: dict[tuple[str, str], dict[str, Any]],
        keys: dict[str, tuple[str, str]],
        order: dict[str, int],
        by_id: dict[str, dict[str, Any]],
        inputs: list[dict[str, Any]],
        body_args: set[str],
    ) -> list[dict[str, Any]]:
        flow_id = str(flow["id"])
        written: list[Any] = list(_arr(flow.get("links")))
        actions = list(by_id.values())
        if not written and len(actions) == 1:
            self.warn(where, "a one-action flow without links: its inputs go to the action by name")
            whole = "requestBody" if actions[0]["body"] is not None else "parameters"
            written = [
                {
                    "origin": {"actionId": None, "fieldPath": origin},
                    "target": {"actionId": actions[0]["id"], "fieldPath": target},
                    "implicit": True,
                }
                for origin, target in (("parameters", "parameters"), ("requestBody", whole))
                if any(i["origin"][0] == origin for i in inputs)
            ]
        links: list[dict[str, Any]] = []
        for l_index, link in enumerate(written):
            lw = f"{where}/links/{l_index}"
            origin, target = link["origin"], link["target"]
            src = self.origin_action(lw, flow_id, origin, by_id, inputs)
            dst = self.target_action(lw, flow_id, target, by_id)
            for from_field, to_field in self.expand(
                where if link.get("implicit") else lw,
                src,
                dst,
                str(origin["fieldPath"]),
                str(target["fieldPath"]),
                inputs,
                by_id,
                quiet=bool(link.get("implicit")),
            ):
                made = self.link(
                    lw,
                    flow,
                    ops,
                    keys,
                    order,
                    by_id,
                    inputs,
                    body_args,
                    src,
                    dst,
                    from_field,
                    to_field,
                )
                if made is not None:
                    links.append(made)
        return links

    def origin_action(
        self,
        lw: str,
        flow_id: str,
        origin: Mapping[str, Any],
        by_id: Mapping[str, Any],
        inputs: list[dict[str, Any]],
    ) -> str | None:
        """The action a link reads from, ``None`` for the flow's inputs. An ``actionId``
        equal to the flow id names the inputs; when an action has that id too, the field path
        decides."""
        src = origin.get("actionId")
        if src is None:
            return None
        if src != flow_id:
            return str(src)
        if src not in by_id:
            return None  # how every real bundle names its inputs: no warning
        head = str(origin["fieldPath"]).split(".", 1)[0]
        tokens = str(origin["fieldPath"]).split(".")
        reads_input = head in ("parameters", "requestBody") and (
            tokens in (["parameters"], ["requestBody"])
            or any(i["origin"] == tokens[:2] for i in inputs)
        )
        self.warn(
            f"{lw}/origin/actionId",
            "origin actionId names both the flow and one of its actions: read as "
            + ("the flow's input" if reads_input else "the action's response")
            + " by its fieldPath",
        )
        return None if reads_input else str(src)

    def target_action(
        self, lw: str, flow_id: str, target: Mapping[str, Any], by_id: Mapping[str, Any]
    ) -> str | None:
        dst = target.get("actionId")
        if dst is None:
            return None
        if dst != flow_id:
            return str(dst)
        if dst not in by_id:
            return None
        head = str(target["fieldPath"]).split(".", 1)[0]
        into_action = head in ("parameters", "requestBody", "query", "path", "header", "cookie")
        self.warn(
            f"{lw}/target/actionId",
            "target actionId names both the flow and one of its actions: read as "
            + ("the action's request" if into_action else "the flow's result")
            + " by its fieldPath",
        )
        return str(dst) if into_action else None

    def expand(
        self,
        where: str,
        src: str | None,
        dst: str | None,
        from_field: str,
        to_field: str,
        inputs: list[dict[str, Any]],
        by_id: dict[str, dict[str, Any]],
        *,
        quiet: bool = False,
    ) -> list[tuple[str, str]]:
        """A whole-object link from the flow's inputs (``parameters`` or ``requestBody``) into
        an action's ``parameters`` or ``requestBody`` becomes one link per input, matched by
        name; other links are returned unchanged."""
        if src is not None or dst not in by_id or from_field not in ("parameters", "requestBody"):
            return [(from_field, to_field)]
        if to_field not in ("parameters", "requestBody") or from_field == to_field == "requestBody":
            return [(from_field, to_field)]
        action = by_id[dst]
        declared = {p["name"] for p in action["params"]}
        body = action["body"]
        props = self.body_properties(action)
        result: list[tuple[str, str]] = []
        for i in inputs:
            if i["origin"][0] != from_field:
                continue
            name = i["wire"]
            if name in declared:
                result.append((f"{from_field}.{name}", f"parameters.{name}"))
            elif body is not None and (name in props or to_field == "requestBody"):
                result.append((f"{from_field}.{name}", f"requestBody.{name}"))
        if not quiet:
            self.warn(
                where,
                f"a whole-object link ({from_field!r} -> {to_field!r}) read as one link per flow "
                "input the action declares (matched by name)",
            )
        return result

    def raw_schemas(self, action: Mapping[str, Any]) -> tuple[_Source | None, Any, Any]:
        """The action's source and its body and response schemas as the document writes
        them (``None`` where there is none)."""
        source = self.sources.get(str(action["source"]))
        body, response = self.raw.get(
            (str(action["source"]), str(action["operation"])), (None, None)
        )
        return source, body, response

    def body_properties(self, action: Mapping[str, Any]) -> dict[str, Any]:
        source, body, _ = self.raw_schemas(action)
        if source is None or body is None or action["body"] is None:
            return {}
        return self.properties(source, body)

    def result_fields(
        self, outputs: list[dict[str, Any]], last: Mapping[str, Any] | None
    ) -> list[dict[str, Any]]:
        """Typed fields of a flow's result: its output links, or the last response's
        properties."""
        schema: Any = None
        source: _Source | None = None
        if last is not None:
            source, _, schema = self.raw_schemas(last)
        properties: dict[str, str] | None = None
        if not outputs and source is not None and schema is not None:
            top = source.deref(schema)
            if _is_obj(top) and top.get("type", "object") == "object":
                properties = {
                    name: python_type(source.deref(prop))
                    for name, prop in self.properties(source, top).items()
                }
        return _result_fields(outputs, properties)

    def link(
        self,
        lw: str,
        flow: Mapping[str, Any],
        ops: dict[tuple[str, str], dict[str, Any]],
        keys: dict[str, tuple[str, str]],
        order: dict[str, int],
        by_id: dict[str, dict[str, Any]],
        inputs: list[dict[str, Any]],
        body_args: set[str],
        src: str | None,
        dst: str | None,
        from_field: str,
        to_field: str,
    ) -> dict[str, Any] | None:
        if src is not None and src not in order:
            self._problem(
                f"{lw}/origin/actionId",
                f"unknown action {src!r}: name one of the flow's actions "
                f"({', '.join(order) or 'none'}), or null for the flow's inputs",
            )
            return None
        if dst is not None and dst not in order:
            self._problem(
                f"{lw}/target/actionId",
                f"unknown action {dst!r}: name one of the flow's actions "
                f"({', '.join(order) or 'none'}), or null for the flow's result",
            )
            return None
        src_path = self.origin_path(lw, src, from_field, flow, by_id)
        indexed: list[str] = (
            list(ops[keys[dst]]["indexed"]) if dst is not None and keys[dst] in ops else []
        )
        dst_path = self.target_path(lw, dst, to_field, indexed, by_id)
        if src_path is None or dst_path is None:
            return None
        if src is not None and dst is not None and order[src] >= order[dst]:
            self._problem(
                lw,
                f"origin action {src!r} does not run before target {dst!r}: link from an "
                "action listed earlier in the flow's actions",
            )
            return None
        if src is None and not self.input_known(src_path, inputs, body_args):
            self._problem(
                f"{lw}/origin/fieldPath",
                f"{from_field!r} is not a flow input (fields.parameters/requestBody): declare "
                "it there, or name the action it comes from in origin.actionId",
            )
            return None
        action = by_id[dst] if dst is not None else None
        if (
            action is not None
            and dst_path[0] == "parameters"
            and len(dst_path) == 2
            and not self.target_known(action, dst_path)
        ):
            if action["body"] is not None and dst_path[1] in self.body_properties(action):
                self.warn(
                    f"{lw}/target/fieldPath",
                    "the operation declares no such parameter but a body field of that name: "
                    "read as requestBody.<name>",
                )
                dst_path = ["requestBody", dst_path[1]]
            else:
                self.warn(
                    f"{lw}/target/fieldPath",
                    "the operation declares no such parameter: sent in the query",
                )
                action["params"].append(
                    {
                        "name": dst_path[1],
                        "in": "query",
                        "required": False,
                        "schema": {},
                        "credential": False,
                        "style": "form",
                        "explode": True,
                    }
                )
        if action is not None and dst_path[0] == "requestBody" and action["body"] is None:
            self.warn(
                f"{lw}/target/fieldPath",
                "the operation declares no requestBody: sent as a JSON body",
            )
            action["body"] = {
                "content_type": "application/json",
                "required": False,
                "schema": {},
                "required_fields": [],
            }
        if (
            action is not None
            and action["body"] is not None
            and len(dst_path) == 2
            and dst_path[0] == "requestBody"
            and self.body_type(action) == "array"
        ):
            self.warn(
                f"{lw}/target/fieldPath",
                "the operation's body is an array: 'requestBody.<field>' read as the whole "
                "requestBody",
            )
            dst_path = ["requestBody"]
        if action is not None and not self.target_known(action, dst_path):
            params = ", ".join(p["name"] for p in action["params"]) or "none"
            self._problem(
                f"{lw}/target/fieldPath",
                f"{to_field!r} is not a parameter or body of action {dst!r}: write "
                f"parameters.<name> (its parameters: {params}) or requestBody[.<field>]",
            )
            return None
        return {"from": src, "from_path": src_path, "to": dst, "to_path": dst_path}

    def body_type(self, action: Mapping[str, Any]) -> Any:
        source, body, _ = self.raw_schemas(action)
        schema = source.deref(body) if source is not None else None
        return schema.get("type") if _is_obj(schema) else None

    def credentials(
        self,
        inputs: list[dict[str, Any]],
        links: list[dict[str, Any]],
        by_id: dict[str, dict[str, Any]],
    ) -> None:
        """A required flow input that only feeds credential parameters (``token``, ``apiKey``,
        a security scheme's key) becomes optional: the source's auth fills it."""
        for i in inputs:
            if not i["required"]:
                continue
            targets = [
                link for link in links if link["from"] is None and link["from_path"] == i["origin"]
            ]
            if targets and all(
                link["to"] is not None
                and link["to_path"][0] == "parameters"
                and any(
                    p["name"] == link["to_path"][1] and p["credential"]
                    for p in by_id[link["to"]]["params"]
                )
                for link in targets
            ):
                i["required"] = False
                i["credential"] = True
                i["description"] = (
                    i["description"] + " (a credential: filled from the source's auth when "
                    "left out)"
                ).strip()

    def uncallable(
        self, where: str, actions: list[dict[str, Any]], links: list[dict[str, Any]]
    ) -> None:
        """Warn about a required parameter or body that nothing can give: every call of the
        flow would fail (the executor refuses it before sending)."""
        for action in actions:
            into = [link["to_path"] for link in links if link["to"] == action["id"]]
            for p in action["params"]:
                if (
                    p["required"]
                    and not p["credential"]
                    and not any(path[:2] == ["parameters", p["name"]] for path in into)
                ):
                    self.warn(
                        where,
                        f"action {action['id']!r} needs parameter {p['name']!r} ({p['in']}) and "
                        "no link or auth gives it: every call fails",
                    )
            body = action["body"]
            if (
                body is not None
                and body["required"]
                and not any(path[0] == "requestBody" for path in into)
            ):
                self.warn(
                    where,
                    f"action {action['id']!r} needs a request body and no link gives it: every "
                    "call fails",
                )
            elif body is not None and ["requestBody"] not in into:
                given = {path[1] for path in into if path[0] == "requestBody" and len(path) > 1}
                unfilled = [n for n in body.get("required_fields", ()) if n not in given]
                for name in unfilled:
                    self.warn(
                        where,
                        f"action {action['id']!r} needs body field {name!r} and no link "
                        "gives it: every call fails",
                    )
                if unfilled:
                    action["unfilled_body_fields"] = unfilled  # the executor refuses the call

    def kept_inputs(
        self,
        where: str,
        flow: Mapping[str, Any],
        inputs: list[dict[str, Any]],
        links: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """The inputs some link carries; the others are left out with a warning (they would
        be accepted and never sent)."""
        from_inputs = [link["from_path"] for link in links if link["from"] is None]
        used = {tuple(path[:2]) for path in from_inputs}
        for whole in ("parameters", "requestBody"):
            if [whole] in from_inputs:
                used |= {tuple(i["origin"]) for i in inputs if i["origin"][0] == whole}
        kept: list[dict[str, Any]] = []
        names = [p.get("name") for p in _arr((_obj(flow.get("fields"))).get("parameters"))]
        for i in inputs:
            if tuple(i["origin"]) in used:
                kept.append(i)
                continue
            at = (
                f"{where}/fields/parameters/{names.index(i['wire'])}"
                if i["origin"][0] == "parameters" and i["wire"] in names
                else f"{where}/fields/requestBody ({i['wire']})"
            )
            self.warn(
                at,
                "a flow input that no link carries to an action is left out of the method (it "
                "would be accepted and never sent)",
            )
        return kept

    def inputs(
        self, flow: Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], set[str], list[dict[str, Any]]]:
        fields = _obj(flow.get("fields"))
        inputs: list[dict[str, Any]] = []
        used: set[str] = set()

        def add(
            wire: str,
            origin: list[str],
            required: bool,
            schema: dict[str, Any],
            doc: str,
            extras: dict[str, Any] | None = None,
        ) -> None:
            arg = identifier(wire)
            while arg in used:
                arg += "_"
            used.add(arg)
            entry = {
                "arg": arg,
                "wire": wire,
                "origin": origin,
                "required": required,
                "type": python_type(schema),
                "schema": schema,
                "description": doc,
            }
            if extras:
                entry["extras"] = extras
            inputs.append(entry)

        for p in _arr(fields.get("parameters")):
            schema = {"type": p["type"]} if p.get("type") in _PRIMITIVES else {}
            schema.update({k: v for k, v in sorted(p.items()) if k in SCHEMA_KEYWORDS})
            extras = {
                k: v
                for k, v in sorted(p.items())
                if k not in PARAMETER_KEYS and k not in SCHEMA_KEYWORDS
            }
            add(
                p["name"],
                ["parameters", p["name"]],
                bool(p.get("required")),
                schema,
                p.get("description", ""),
                extras,
            )
        body = _obj(fields.get("requestBody"))
        body_args: set[str] = set()
        variants: list[dict[str, Any]] = []
        for media in (_obj(body.get("content"))).values():
            schema = _obj((_obj(media)).get("schema"))
            whole = body.get("required", True)
            required: set[str] = set(_arr(schema.get("required"))) if whole else set()
            branches = [b for b in _branches(schema) if _is_obj(b)]
            properties = dict(_obj(schema.get("properties")))
            if branches:
                everywhere: set[str] | None = None
                for b_index, branch in enumerate(branches):
                    names = list(_obj(branch.get("properties")))
                    for name in names:
                        properties.setdefault(name, branch["properties"][name])
                    own = set(_arr(branch.get("required")))
                    everywhere = own if everywhere is None else everywhere & own
                    distinct = sorted(own - set(_arr(schema.get("required"))))
                    variants.append(
                        {
                            "name": str(branch.get("title") or "+".join(distinct) or b_index),
                            "required": sorted(own | set(_arr(schema.get("required")))),
                            "fields": sorted(set(names) | set(_obj(schema.get("properties")))),
                        }
                    )
                if whole:
                    required |= everywhere or set()
            for name, prop in properties.items():
                body_args.add(name)
                add(
                    name,
                    ["requestBody", name],
                    name in required,
                    prop if _is_obj(prop) else {},
                    (_obj(prop)).get("description", ""),
                )
            break
        return inputs, body_args, variants

    @staticmethod
    def input_known(path: list[str], inputs: list[dict[str, Any]], body_args: set[str]) -> bool:
        if path == ["requestBody"]:
            return bool(body_args)
        if path == ["parameters"]:
            return any(i["origin"][0] == "parameters" for i in inputs)
        return any(i["origin"] == path[:2] for i in inputs)

    @staticmethod
    def target_known(action: Mapping[str, Any], path: list[str]) -> bool:
        if path[0] == "parameters":
            return len(path) >= 2 and any(p["name"] == path[1] for p in action["params"])
        return path[0] == "requestBody" and action["body"] is not None

    # -- field paths ---------------------------------------------------------------------------

    def origin_path(
        self,
        lw: str,
        action: str | None,
        field_path: str,
        flow: Mapping[str, Any],
        by_id: Mapping[str, Mapping[str, Any]],
    ) -> list[str] | None:
        tokens = field_path.split(".")
        if action is None:
            if tokens[0] == "requestBody" and len(tokens) > 1:
                schema = _flow_body_schema(flow)
                data = self.schema_path(
                    f"{lw}/origin/fieldPath", tokens[1:], schema, lambda s: s, field_path
                )
                return None if data is None else ["requestBody", *data]
            return tokens
        head = tokens[0]
        if head in ("response", "responseBody") or (
            head == "responses" and (len(tokens) < 2 or not _is_status_key(tokens[1]))
        ):
            self.warn(
                f"{lw}/origin/fieldPath",
                f"origin {head!r}.* (no status key) read as responses.success.*",
            )
            tokens = ["responses", "success", *tokens[1:]]
        if tokens[0] == "responses" and len(tokens) > 2 and action in by_id:
            source, _, schema = self.raw_schemas(by_id[action])
            data = self.schema_path(
                f"{lw}/origin/fieldPath",
                tokens[2:],
                schema,
                source.deref if source is not None else (lambda s: s),
                field_path,
            )
            return None if data is None else [*tokens[:2], *data]
        return tokens

    def target_path(
        self,
        lw: str,
        action: str | None,
        field_path: str,
        indexed: list[str],
        by_id: Mapping[str, Mapping[str, Any]],
    ) -> list[str] | None:
        tokens = field_path.split(".")
        if action is None:
            if tokens[0] == "responses" and len(tokens) > 1 and _is_status_key(tokens[1]):
                return tokens[2:] or tokens
            return (
                tokens[1:] if tokens[0] in ("responses", "response") and len(tokens) > 1 else tokens
            )
        if (
            tokens[0] == "parameters"
            and len(tokens) >= 2
            and tokens[1].isdigit()
            and int(tokens[1]) < len(indexed)
            and tokens[2:] in ([], ["value"])
        ):
            self.warn(
                f"{lw}/target/fieldPath",
                "parameters.<index>.value (the operation's parameter by position) read as "
                "parameters.<name>",
            )
            return ["parameters", indexed[int(tokens[1])]]
        if tokens[0] in ("query", "path", "header", "cookie"):
            self.warn(
                f"{lw}/target/fieldPath",
                "target query.* / path.* / header.* / cookie.* read as parameters.*",
            )
            tokens = ["parameters", *tokens[1:]]
        target = by_id[action]
        if tokens[0] == "parameters" and len(tokens) == 2:
            bracket = re.fullmatch(r"([^\[\]]+)((?:\[[^\[\]]*\])+)", tokens[1])
            declared = {p["name"] for p in target["params"]}
            if bracket and tokens[1] not in declared and bracket.group(1) in declared:
                members = re.findall(r"\[([^\[\]]*)\]", bracket.group(2))
                self.warn(
                    f"{lw}/target/fieldPath",
                    "parameters.<name>[<key>] read as the member <key> of parameter <name>",
                )
                return ["parameters", bracket.group(1), *members]
        if tokens[0] == "requestBody" and len(tokens) > 1 and target["body"] is not None:
            source, body, _ = self.raw_schemas(target)
            if source is not None:
                data = self.schema_path(
                    f"{lw}/target/fieldPath", tokens[1:], body, source.deref, field_path
                )
                return None if data is None else ["requestBody", *data]
        return tokens

    def schema_path(
        self,
        pointer: str,
        tokens: list[str],
        schema: Any,
        deref: Callable[[Any], Any],
        written: str,
    ) -> list[str] | None:
        """``tokens`` (after ``requestBody`` or ``responses.<status>``) as a data path. A
        schema path (``content.<media>.schema.properties.a``, or ``properties.a`` into a body
        that has no field named ``properties``) is read as the data path it names, with a
        warning; ``None`` (and a problem naming the fix) for a schema path that names no
        single value."""
        rest = tokens
        schemaish = False
        if rest and rest[0] == "content" and "schema" in rest[2:]:
            at = rest.index("schema", 2)
            rest, schemaish = rest[at + 1 :], True
        elif rest and rest[0] == "schema" and not _has_field(deref, schema, "schema"):
            rest, schemaish = rest[1:], True
        elif rest and rest[0] == "properties" and len(rest) > 1:
            schemaish = not _has_field(deref, schema, "properties")
        if not schemaish:
            return tokens
        data: list[str] = []
        at = 0
        while at < len(rest):
            token = rest[at]
            if token == "properties" and at + 1 < len(rest):
                data.append(rest[at + 1])
                at += 2
            elif token in ("allOf", "oneOf", "anyOf") and at + 1 < len(rest):
                at += 2  # a branch of the same value
            elif token == "items":
                self._problem(
                    pointer,
                    f"the schema path {written!r} goes through 'items', which names no single "
                    "element: write the data path with the element's index (e.g. data.0.id)",
                )
                return None
            else:
                self._problem(
                    pointer,
                    f"{written!r} reads like a schema path but {token!r} is not "
                    "'properties.<name>': write the data path (e.g. requestBody.a.b)",
                )
                return None
        self.warn(pointer, "a schema path (…properties.<name>…) read as the data path it names")
        return data


def _has_field(deref: Callable[[Any], Any], schema: Any, name: str) -> bool:
    """Whether ``schema`` declares a field ``name`` (in ``properties`` or a branch's)."""
    schema = deref(schema)
    if not _is_obj(schema):
        return False
    if name in (_obj(schema.get("properties"))):
        return True
    return any(
        _has_field(deref, branch, name)
        for key in ("allOf", "oneOf", "anyOf")
        for branch in _arr(schema.get(key))
    )


def _flow_body_schema(flow: Mapping[str, Any]) -> Any:
    body = _obj((_obj(flow.get("fields"))).get("requestBody"))
    for media in (_obj(body.get("content"))).values():
        return _obj((_obj(media)).get("schema"))
    return {}


def _result_fields(
    outputs: list[dict[str, Any]], properties: Mapping[str, str] | None
) -> list[dict[str, Any]]:
    """The result's fields: one per output link (untyped), else the response's properties
    (``name -> Python type``)."""
    fields: dict[str, dict[str, Any]] = {}
    if outputs:
        for link in outputs:
            wire = link["to_path"][0]
            fields.setdefault(wire, {"wire": wire, "type": "Any"})
    else:
        for wire, kind in (_obj(properties)).items():
            fields[wire] = {"wire": wire, "type": kind}
    used: set[str] = set()
    result: list[dict[str, Any]] = []
    for wire, field_ in fields.items():
        attr = identifier(wire)
        while attr in used or attr in ("model_config", "model_fields"):
            attr += "_"
        used.add(attr)
        result.append({**field_, "attr": attr})
    return result
