"""agents.json bundles -> execution plans (plain data) for the generated flow clients.

Everything that can be decided once is decided here, at build time: overrides are applied to
the OpenAPI operations, ``$ref``s are resolved, each action gets its method, path, server and
parameters, flow inputs get Python argument names and types, and links are normalised. Real
bundles write links in several non-canonical ways; they are rewritten to the canonical form
with a warning:

- origin (an action's response): ``response.x``, ``responseBody.x`` and ``responses.x`` (no
  status key) become ``responses.success.x``;
- origin ``actionId`` equal to the flow id means a flow input, like ``null``;
- target ``query.x``, ``path.x``, ``header.x``, ``cookie.x`` become ``parameters.x``;
- target ``actionId`` equal to the flow id means a flow output, like ``null``.

A link that cannot work (a parameter the operation does not have, an origin action that runs
after its target, an unknown action) stops the build with file, JSON pointer and reason.
"""

from __future__ import annotations

import copy
import keyword
import logging
import re
from collections.abc import Callable
from typing import Any

from codegen.errors import BuildError, Problem

log = logging.getLogger("codegen")

Warn = Callable[[str, str, str], None]
_HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_PRIMITIVES = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
    "array": "list[Any]",
    "object": "dict[str, Any]",
}
_PARAM_PREFIXES = ("query", "path", "header", "cookie")


def identifier(text: str) -> str:
    """A Python identifier for a wire name (``from`` -> ``from_``, ``x-id`` -> ``x_id``)."""
    name = re.sub(r"[^0-9A-Za-z_]+", "_", text).strip("_")
    if not name or name[0].isdigit():
        name = f"f_{name}"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        name += "_"
    return name


def class_name(text: str) -> str:
    return "".join(part.capitalize() for part in identifier(text).split("_") if part)


def python_type(schema: Any) -> str:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if isinstance(kind, list):
        kinds = [_PRIMITIVES.get(k, "Any") for k in kind if k != "null"]
        return " | ".join(dict.fromkeys(kinds)) or "Any"
    return _PRIMITIVES.get(str(kind), "Any")


def _resolve(spec: dict[str, Any], node: Any, depth: int = 0) -> Any:
    """``node`` with local ``$ref``s resolved (recursively, cycles cut after 20 levels)."""
    if depth > 20:
        return {}
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target: Any = spec
            for token in ref[2:].split("/"):
                target = target.get(token.replace("~1", "/").replace("~0", "~"), {})
            return _resolve(spec, target, depth + 1)
        return {k: _resolve(spec, v, depth + 1) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve(spec, v, depth + 1) for v in node]
    return node


def _find_operation(
    spec: dict[str, Any], operation_id: str
) -> tuple[str, str, dict[str, Any], dict[str, Any]]:
    for path, item in (spec.get("paths") or {}).items():
        if not isinstance(item, dict):
            continue
        for method in _HTTP_METHODS:
            op = item.get(method)
            if isinstance(op, dict) and op.get("operationId") == operation_id:
                return method.upper(), str(path), op, item
    raise KeyError(operation_id)


def _set_path(target: Any, tokens: list[str], value: Any) -> None:
    for token in tokens[:-1]:
        target = target[int(token)] if isinstance(target, list) else target.setdefault(token, {})
    last = tokens[-1]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value


def _server(spec: dict[str, Any], item: dict[str, Any], op: dict[str, Any]) -> str:
    servers = op.get("servers") or item.get("servers") or spec.get("servers") or [{"url": "/"}]
    server = servers[0]
    url = str(server.get("url", "/"))
    for name, var in (server.get("variables") or {}).items():
        url = url.replace("{" + name + "}", str(var.get("default", "")))
    return url


def _success_schema(op: dict[str, Any]) -> dict[str, Any] | None:
    responses = op.get("responses") or {}
    for status in sorted(responses, key=str):
        if str(status).startswith("2"):
            content = (responses[status] or {}).get("content") or {}
            for media, body in content.items():
                if (
                    "json" in media
                    and isinstance(body, dict)
                    and isinstance(body.get("schema"), dict)
                ):
                    return dict(body["schema"])
    return None


class _Planner:
    def __init__(self, shown: str, warn: Warn) -> None:
        self.shown = shown
        self.warn = warn
        self.problems: list[Problem] = []

    def problem(self, pointer: str, reason: str) -> None:
        self.problems.append(Problem(self.shown, pointer, reason))

    def operations(
        self, document: dict[str, Any], specs: dict[str, dict[str, Any]]
    ) -> dict[tuple[str, str], dict[str, Any]]:
        """Every (sourceId, operationId) the flows use, overrides applied, as plan actions."""
        overrides: dict[tuple[str, str], list[tuple[int, dict[str, Any]]]] = {}
        for index, override in enumerate(document.get("overrides") or []):
            key = (override["sourceId"], override["operationId"])
            overrides.setdefault(key, []).append((index, override))
        wanted = {
            (a["sourceId"], a["operationId"]) for f in document["flows"] for a in f["actions"]
        } | set(overrides)
        result = {}
        for key in sorted(wanted):
            source, operation_id = key
            spec = specs.get(source)
            if spec is None:
                continue  # reported by the bundle loader
            try:
                method, path, raw_op, item = _find_operation(spec, operation_id)
            except KeyError:
                for index, _ in overrides.get(key, []):
                    self.problem(
                        f"/overrides/{index}/operationId", f"unknown operation {operation_id!r}"
                    )
                continue
            op = _resolve(spec, copy.deepcopy(raw_op))
            own = [p.get("name") for p in op.get("parameters") or [] if isinstance(p, dict)]
            op["parameters"] = [
                *_resolve(spec, item.get("parameters") or []),
                *(op.get("parameters") or []),
            ]
            for index, override in overrides.get(key, []):
                tokens = override["fieldPath"].split(".")
                try:
                    _set_path(op, tokens, copy.deepcopy(override["value"]))
                except (KeyError, IndexError, ValueError, TypeError, AttributeError):
                    self.problem(
                        f"/overrides/{index}/fieldPath",
                        f"{override['fieldPath']!r} does not lead into operation {operation_id!r}",
                    )
            params = []
            for p in op.get("parameters") or []:
                if isinstance(p, dict) and "name" in p and "in" in p:
                    params.append(
                        {
                            "name": str(p["name"]),
                            "in": str(p["in"]),
                            "required": bool(p.get("required", p["in"] == "path")),
                            "schema": p.get("schema") or {},
                        }
                    )
            body = op.get("requestBody")
            body_plan = None
            if isinstance(body, dict):
                content = body.get("content") or {}
                media = next(iter(content), "application/json")
                body_plan = {
                    "content_type": media,
                    "required": bool(body.get("required", False)),
                    "schema": (content.get(media) or {}).get("schema") or {},
                }
            result[key] = {
                "method": method,
                "path": path,
                "server": _server(spec, item, op),
                "params": params,
                "indexed": own,
                "body": body_plan,
                "response_schema": _success_schema(op),
            }
        return result

    def flow(
        self, f_index: int, flow: dict[str, Any], ops: dict[tuple[str, str], dict[str, Any]]
    ) -> dict[str, Any]:
        where = f"/flows/{f_index}"
        flow_id = flow["id"]
        actions = []
        for action in flow["actions"]:
            op = ops.get((action["sourceId"], action["operationId"]))
            if op is None:
                continue
            actions.append(
                {
                    "id": action["id"],
                    "source": action["sourceId"],
                    **{k: v for k, v in op.items() if k not in ("response_schema", "indexed")},
                    "params": [dict(p) for p in op["params"]],
                }
            )
        order = {a["id"]: i for i, a in enumerate(actions)}
        by_id = {a["id"]: a for a in actions}
        inputs, body_args = self.inputs(where, flow)
        links = []
        for l_index, link in enumerate(flow.get("links") or []):
            lw = f"{where}/links/{l_index}"
            origin, target = link["origin"], link["target"]
            src = origin.get("actionId")
            dst = target.get("actionId")
            src = None if src in (None, flow_id) else src
            dst = None if dst in (None, flow_id) else dst
            if origin.get("actionId") == flow_id or target.get("actionId") == flow_id:
                self.warn(self.shown, lw, "an actionId equal to its flow's id read as null")
            src_path = self.origin_path(lw, src, origin["fieldPath"])
            indexed = ops[key]["indexed"] if (key := _action_key(flow, dst)) in ops else []
            dst_path = self.target_path(lw, dst, target["fieldPath"], indexed)
            if src is not None and src not in order:
                self.problem(f"{lw}/origin/actionId", f"unknown action {src!r}")
                continue
            if dst is not None and dst not in order:
                self.problem(f"{lw}/target/actionId", f"unknown action {dst!r}")
                continue
            if src is not None and dst is not None and order[src] >= order[dst]:
                self.problem(lw, f"origin action {src!r} does not run before target {dst!r}")
                continue
            if src is None and not self.input_known(src_path, inputs, body_args):
                self.problem(
                    f"{lw}/origin/fieldPath",
                    f"{origin['fieldPath']!r} is not a flow input (fields.parameters/requestBody)",
                )
                continue
            if (
                dst is not None
                and not self.target_known(by_id[dst], dst_path)
                and dst_path[0] == "parameters"
                and len(dst_path) == 2
            ):
                self.warn(
                    self.shown,
                    f"{lw}/target/fieldPath",
                    f"the operation declares no parameter {dst_path[1]!r}: sent in the query",
                )
                by_id[dst]["params"].append(
                    {"name": dst_path[1], "in": "query", "required": False, "schema": {}}
                )
            if dst is not None and dst_path[0] == "requestBody" and by_id[dst]["body"] is None:
                self.warn(
                    self.shown,
                    f"{lw}/target/fieldPath",
                    "the operation declares no requestBody: sent as a JSON body",
                )
                by_id[dst]["body"] = {
                    "content_type": "application/json",
                    "required": False,
                    "schema": {},
                }
            body = by_id[dst]["body"] if dst is not None else None
            if (
                body is not None
                and len(dst_path) == 2
                and dst_path[0] == "requestBody"
                and (body.get("schema") or {}).get("type") == "array"
            ):
                self.warn(
                    self.shown,
                    f"{lw}/target/fieldPath",
                    f"the operation's body is an array: {target['fieldPath']!r} read as the "
                    "whole requestBody",
                )
                dst_path = ["requestBody"]
            if dst is not None and not self.target_known(by_id[dst], dst_path):
                self.problem(
                    f"{lw}/target/fieldPath",
                    f"{target['fieldPath']!r} is not a parameter or body of action {dst!r}",
                )
                continue
            links.append({"from": src, "from_path": src_path, "to": dst, "to_path": dst_path})
        last = flow["actions"][-1] if flow["actions"] else None
        response_schema = None
        if last is not None and (last["sourceId"], last["operationId"]) in ops:
            response_schema = ops[(last["sourceId"], last["operationId"])]["response_schema"]
        outputs = [link for link in links if link["to"] is None]
        return {
            "id": flow_id,
            "name": identifier(flow_id),
            "title": flow.get("title", flow_id),
            "description": flow.get("description", ""),
            "inputs": inputs,
            "actions": actions,
            "links": links,
            "result_fields": _result_fields(outputs, response_schema),
        }

    def inputs(self, where: str, flow: dict[str, Any]) -> tuple[list[dict[str, Any]], set[str]]:
        fields = flow.get("fields") or {}
        inputs: list[dict[str, Any]] = []
        used: set[str] = set()

        def add(
            wire: str, origin: list[str], required: bool, schema: dict[str, Any], doc: str
        ) -> None:
            arg = identifier(wire)
            while arg in used:
                arg += "_"
            used.add(arg)
            inputs.append(
                {
                    "arg": arg,
                    "wire": wire,
                    "origin": origin,
                    "required": required,
                    "type": python_type(schema),
                    "schema": schema,
                    "description": doc,
                }
            )

        for p in fields.get("parameters") or []:
            schema = {"type": p["type"]} if p.get("type") in _PRIMITIVES else {}
            add(
                p["name"],
                ["parameters", p["name"]],
                bool(p.get("required")),
                schema,
                p.get("description", ""),
            )
        body = fields.get("requestBody") or {}
        body_args: set[str] = set()
        for media in (body.get("content") or {}).values():
            schema = (media or {}).get("schema") or {}
            required = set(schema.get("required") or []) if body.get("required", True) else set()
            for name, prop in (schema.get("properties") or {}).items():
                body_args.add(name)
                add(
                    name,
                    ["requestBody", name],
                    name in required,
                    prop if isinstance(prop, dict) else {},
                    (prop or {}).get("description", ""),
                )
            break
        return inputs, body_args

    @staticmethod
    def input_known(path: list[str], inputs: list[dict[str, Any]], body_args: set[str]) -> bool:
        if path == ["requestBody"]:
            return bool(body_args)
        return any(i["origin"] == path[:2] for i in inputs)

    @staticmethod
    def target_known(action: dict[str, Any], path: list[str]) -> bool:
        if path[0] == "parameters":
            return len(path) == 2 and any(p["name"] == path[1] for p in action["params"])
        return path[0] == "requestBody" and action["body"] is not None

    def origin_path(self, where: str, action: str | None, field_path: str) -> list[str]:
        tokens = field_path.split(".")
        if action is None:
            return tokens
        head = tokens[0]
        if head in ("response", "responseBody"):
            self.warn(
                self.shown,
                f"{where}/origin/fieldPath",
                f"{field_path!r} read as responses.success.*",
            )
            return ["responses", "success", *tokens[1:]]
        if head == "responses" and (len(tokens) < 2 or not _is_status_key(tokens[1])):
            self.warn(
                self.shown,
                f"{where}/origin/fieldPath",
                f"{field_path!r} read as responses.success.*",
            )
            return ["responses", "success", *tokens[1:]]
        return tokens

    def target_path(
        self, where: str, action: str | None, field_path: str, indexed: list[str]
    ) -> list[str]:
        tokens = field_path.split(".")
        if (
            action is not None
            and tokens[0] == "parameters"
            and len(tokens) >= 2
            and tokens[1].isdigit()
            and int(tokens[1]) < len(indexed)
            and tokens[2:] in ([], ["value"])
        ):
            self.warn(
                self.shown,
                f"{where}/target/fieldPath",
                "parameters.<index>.value (the operation's parameter by position) read as "
                "parameters.<name>",
            )
            return ["parameters", indexed[int(tokens[1])]]
        if action is None:
            if tokens[0] == "responses" and len(tokens) > 1 and _is_status_key(tokens[1]):
                return tokens[2:] or tokens
            return (
                tokens[1:] if tokens[0] in ("responses", "response") and len(tokens) > 1 else tokens
            )
        if tokens[0] in _PARAM_PREFIXES:
            self.warn(
                self.shown, f"{where}/target/fieldPath", f"{field_path!r} read as parameters.*"
            )
            return ["parameters", *tokens[1:]]
        return tokens


def _action_key(flow: dict[str, Any], action_id: str | None) -> tuple[str, str] | None:
    for action in flow["actions"]:
        if action["id"] == action_id:
            return (action["sourceId"], action["operationId"])
    return None


def _is_status_key(token: str) -> bool:
    return token in ("success", "default") or bool(re.fullmatch(r"[1-5](\d\d|XX)", token))


def _result_fields(
    outputs: list[dict[str, Any]], schema: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """Typed fields of a flow's result: its output links, or the last response's properties."""
    fields: dict[str, dict[str, Any]] = {}
    if outputs:
        for link in outputs:
            wire = link["to_path"][0]
            fields.setdefault(wire, {"wire": wire, "type": "Any"})
    elif schema is not None and schema.get("type", "object") == "object":
        for wire, prop in (schema.get("properties") or {}).items():
            fields[wire] = {"wire": wire, "type": python_type(prop)}
    used: set[str] = set()
    result = []
    for wire, field in fields.items():
        attr = identifier(wire)
        while attr in used or attr in ("model_config", "model_fields"):
            attr += "_"
        used.add(attr)
        result.append({**field, "attr": attr})
    return result


def plan_bundle(
    name: str,
    document: dict[str, Any],
    specs: dict[str, dict[str, Any]],
    shown: str,
    warn: Warn | None = None,
) -> dict[str, Any]:
    """The execution plan of one bundle (plain data), or BuildError."""

    def log_warning(file: str, pointer: str, reason: str) -> None:
        log.warning("%s: %s: %s", file, pointer, reason)

    seen: dict[str, list[str]] = {}

    def collect(file: str, pointer: str, reason: str) -> None:
        seen.setdefault(reason, []).append(pointer)

    planner = _Planner(shown, collect)
    ops = planner.operations(document, specs)
    flows = [planner.flow(i, flow, ops) for i, flow in enumerate(document["flows"])]
    emit = warn or log_warning
    for reason, pointers in seen.items():  # one line per kind of rewrite, not per link
        more = f" ({len(pointers)} links, the first here)" if len(pointers) > 1 else ""
        emit(shown, pointers[0], reason + more)
    names = [f["name"] for f in flows]
    for i, flow_name in enumerate(names):
        if names.index(flow_name) != i:
            planner.problem(f"/flows/{i}/id", f"flow name {flow_name!r} is used twice")
    if planner.problems:
        raise BuildError(planner.problems)
    return {
        "bundle": name,
        "title": document["info"]["title"],
        "sources": sorted({a["source"] for f in flows for a in f["actions"]}),
        "flows": flows,
    }
