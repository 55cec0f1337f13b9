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
from collections.abc import Callable, Sequence
from typing import Any

from codegen.errors import BuildError, Problem
from codegen.flows.normalise import PARAMETER_KEYS, SCHEMA_KEYWORDS, Deviation, group
from codegen.progress import Topic, topic_extra

log = logging.getLogger("codegen")
LENIENT_BUNDLES = Topic("agents.json", "bundles", "kinds of lenient reading or warning")
"""What a build's summary line counts (codegen.progress): the full text with --verbose."""

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
_CREDENTIAL_NAMES = frozenset(
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


def identifier(text: str) -> str:
    """A Python identifier for a wire name (``from`` -> ``from_``, ``x-id`` -> ``x_id``)."""
    name = re.sub(r"[^0-9A-Za-z_]+", "_", text).strip("_")
    if not name or name[0].isdigit():
        name = f"f_{name}"
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        name += "_"
    return name


_RUNNER_NAMES = frozenset({"run_flow", "close", "aclose"})
"""Public methods of ``SyncFlows`` / ``AsyncFlows`` (templates/runtime/flows.py), the base of
every generated flows class: a flow method of that name would replace them."""


def snake_name(text: str) -> str:
    """A Python method name for a wire id: ``chat_postMessage`` -> ``chat_post_message``."""
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", text)
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", text)
    return identifier(re.sub(r"_+", "_", text).lower())


def class_name(text: str) -> str:
    return "".join(part.capitalize() for part in identifier(text).split("_") if part)


def python_type(schema: Any) -> str:
    kind = schema.get("type") if isinstance(schema, dict) else None
    if isinstance(kind, list):
        kinds = [_PRIMITIVES.get(k, "Any") for k in kind if k != "null"]
        return " | ".join(dict.fromkeys(kinds)) or "Any"
    return _PRIMITIVES.get(str(kind), "Any")


def _resolve(spec: dict[str, Any], node: Any, active: frozenset[str] = frozenset()) -> Any:
    """``node`` with local ``$ref``s resolved. ``active``: the refs being expanded on the way
    here; a ref met again inside itself (a recursive schema: a comment's replies are comments)
    is cut there as ``{}``, so a schema that refers to itself twice stays linear, not 2^n."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            if ref in active:
                return {}
            target: Any = spec
            for token in ref[2:].split("/"):
                target = target.get(token.replace("~1", "/").replace("~0", "~"), {})
            return _resolve(spec, target, active | {ref})
        return {k: _resolve(spec, v, active) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve(spec, v, active) for v in node]
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
            security = self.security(spec, op, source, operation_id)
            slots = {(s["in"], s["name"].lower()) for alt in security for s in alt if "name" in s}
            params = []
            for p in op.get("parameters") or []:
                if isinstance(p, dict) and "name" in p and "in" in p:
                    params.append(
                        {
                            "name": str(p["name"]),
                            "in": str(p["in"]),
                            "required": bool(p.get("required", p["in"] == "path")),
                            "schema": p.get("schema") or {},
                            "credential": _is_credential(str(p["name"]), str(p["in"]), slots),
                        }
                    )
            body = op.get("requestBody")
            body_plan = None
            if isinstance(body, dict):
                content = body.get("content") or {}
                media = next(iter(content), "application/json")
                schema = (content.get(media) or {}).get("schema") or {}
                required = schema.get("required") if isinstance(schema, dict) else None
                body_plan = {
                    "content_type": media,
                    "required": bool(body.get("required", False)),
                    "schema": schema,
                    "required_fields": sorted(map(str, required or [])),
                }
            result[key] = {
                "method": method,
                "path": path,
                "server": _server(spec, item, op),
                "params": params,
                "indexed": own,
                "body": body_plan,
                "security": security,
                "response_schema": _success_schema(op),
            }
        return result

    def security(
        self, spec: dict[str, Any], op: dict[str, Any], source: str, operation_id: str
    ) -> list[list[dict[str, str]]]:
        """The operation's security alternatives, as what an auth must put on a request:
        ``apiKey`` (name, in), ``bearer`` (also OAuth 2 / OpenID Connect) or ``basic``.
        An alternative that needs something no auth can give (a cookie key, mutual TLS) is
        left out with a warning; an empty alternative means "no auth needed"."""
        schemes = (spec.get("components") or {}).get("securitySchemes") or {}
        requirements = op.get("security", spec.get("security")) or []
        result: list[list[dict[str, str]]] = []
        for requirement in requirements if isinstance(requirements, list) else []:
            alternative: list[dict[str, str]] = []
            for name in sorted(requirement or {}):
                scheme = _resolve(spec, schemes.get(name) or {})
                kind = str(scheme.get("type", "")).lower()
                http = str(scheme.get("scheme", "")).lower()
                if kind == "apikey" and scheme.get("in") in ("header", "query"):
                    alternative.append(
                        {"type": "apiKey", "name": str(scheme["name"]), "in": scheme["in"]}
                    )
                elif kind in ("oauth2", "openidconnect") or (kind == "http" and http == "bearer"):
                    alternative.append({"type": "bearer"})
                elif kind == "http" and http == "basic":
                    alternative.append({"type": "basic"})
                else:
                    self.warn(
                        self.shown,
                        f"{source}:{operation_id}",
                        f"security scheme {name!r} ({kind or 'unknown'}) cannot be sent by any "
                        "auth: that alternative is left out",
                    )
                    break
            else:
                result.append(alternative)
        if requirements and not result:
            self.warn(
                self.shown,
                f"{source}:{operation_id}",
                "no security alternative of the operation can be met by any auth: every call fails",
            )
            result.append([{"type": "unsupported"}])
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
                    **{
                        k: v
                        for k, v in op.items()
                        if k not in ("response_schema", "indexed", "security")
                    },
                    "params": [dict(p) for p in op["params"]],
                    "security": [[dict(s) for s in alt] for alt in op["security"]],
                }
            )
        order = {a["id"]: i for i, a in enumerate(actions)}
        by_id = {a["id"]: a for a in actions}
        inputs, body_args, variants = self.inputs(where, flow)
        links = []
        written = list(flow.get("links") or [])
        if not written and len(actions) == 1:
            self.warn(
                self.shown,
                where,
                "a one-action flow without links: its inputs go to the action by name",
            )
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
        for l_index, link in enumerate(written):
            lw = f"{where}/links/{l_index}"
            origin, target = link["origin"], link["target"]
            src = origin.get("actionId")
            dst = target.get("actionId")
            src = None if src in (None, flow_id) else src
            dst = None if dst in (None, flow_id) else dst
            for from_field, to_field in self.expand(
                where if link.get("implicit") else lw,
                src,
                dst,
                origin["fieldPath"],
                target["fieldPath"],
                inputs,
                by_id,
                quiet=bool(link.get("implicit")),
            ):
                made = self.link(
                    lw, flow, ops, order, by_id, inputs, body_args, src, dst, from_field, to_field
                )
                if made is not None:
                    links.append(made)
        used = {tuple(link["from_path"][:2]) for link in links if link["from"] is None}
        if any(link["from_path"] == ["requestBody"] for link in links if link["from"] is None):
            used |= {tuple(i["origin"]) for i in inputs if i["origin"][0] == "requestBody"}
        if any(link["from_path"] == ["parameters"] for link in links if link["from"] is None):
            used |= {tuple(i["origin"]) for i in inputs if i["origin"][0] == "parameters"}
        kept = []
        param_names = [p.get("name") for p in (flow.get("fields") or {}).get("parameters") or []]
        for i in inputs:
            if tuple(i["origin"]) in used:
                kept.append(i)
            else:
                at = (
                    f"{where}/fields/parameters/{param_names.index(i['wire'])}"
                    if i["origin"][0] == "parameters" and i["wire"] in param_names
                    else f"{where}/fields/requestBody ({i['wire']})"
                )
                self.warn(
                    self.shown,
                    at,
                    "a flow input that no link carries to an action is left out of the "
                    "method (it would be accepted and never sent)",
                )
        inputs = kept
        self.credentials(where, inputs, links, by_id)
        self.uncallable(where, actions, links)
        last = flow["actions"][-1] if flow["actions"] else None
        response_schema = None
        if last is not None and (last["sourceId"], last["operationId"]) in ops:
            response_schema = ops[(last["sourceId"], last["operationId"])]["response_schema"]
        outputs = [link for link in links if link["to"] is None]
        return {
            "id": flow_id,
            "name": snake_name(flow_id),
            "title": flow.get("title", flow_id),
            "description": flow.get("description", ""),
            "inputs": inputs,
            "body_variants": variants,
            "actions": actions,
            "links": links,
            "result_fields": _result_fields(outputs, response_schema),
        }

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
        props = _properties((body or {}).get("schema") or {})
        result = []
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
                self.shown,
                where,
                f"a whole-object link ({from_field!r} -> {to_field!r}) read as one link per flow "
                "input the action declares (matched by name)",
            )
        return result

    def link(
        self,
        lw: str,
        flow: dict[str, Any],
        ops: dict[tuple[str, str], dict[str, Any]],
        order: dict[str, int],
        by_id: dict[str, dict[str, Any]],
        inputs: list[dict[str, Any]],
        body_args: set[str],
        src: str | None,
        dst: str | None,
        from_field: str,
        to_field: str,
    ) -> dict[str, Any] | None:
        src_path = self.origin_path(lw, src, from_field)
        indexed = ops[key]["indexed"] if (key := _action_key(flow, dst)) in ops else []
        dst_path = self.target_path(lw, dst, to_field, indexed)
        if src is not None and src not in order:
            self.problem(f"{lw}/origin/actionId", f"unknown action {src!r}")
            return None
        if dst is not None and dst not in order:
            self.problem(f"{lw}/target/actionId", f"unknown action {dst!r}")
            return None
        if src is not None and dst is not None and order[src] >= order[dst]:
            self.problem(lw, f"origin action {src!r} does not run before target {dst!r}")
            return None
        if src is None and not self.input_known(src_path, inputs, body_args):
            self.problem(
                f"{lw}/origin/fieldPath",
                f"{from_field!r} is not a flow input (fields.parameters/requestBody)",
            )
            return None
        action = by_id[dst] if dst is not None else None
        if (
            action is not None
            and dst_path[0] == "parameters"
            and len(dst_path) == 2
            and not self.target_known(action, dst_path)
        ):
            props = _properties((action["body"] or {}).get("schema") or {})
            if action["body"] is not None and dst_path[1] in props:
                self.warn(
                    self.shown,
                    f"{lw}/target/fieldPath",
                    "the operation declares no such parameter but a body field of that name: "
                    "read as requestBody.<name>",
                )
                dst_path = ["requestBody", dst_path[1]]
            else:
                self.warn(
                    self.shown,
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
                    }
                )
        if action is not None and dst_path[0] == "requestBody" and action["body"] is None:
            self.warn(
                self.shown,
                f"{lw}/target/fieldPath",
                "the operation declares no requestBody: sent as a JSON body",
            )
            action["body"] = {
                "content_type": "application/json",
                "required": False,
                "schema": {},
                "required_fields": [],
            }
        body = action["body"] if action is not None else None
        if (
            body is not None
            and len(dst_path) == 2
            and dst_path[0] == "requestBody"
            and (body.get("schema") or {}).get("type") == "array"
        ):
            self.warn(
                self.shown,
                f"{lw}/target/fieldPath",
                "the operation's body is an array: 'requestBody.<field>' read as the whole "
                "requestBody",
            )
            dst_path = ["requestBody"]
        if action is not None and not self.target_known(action, dst_path):
            self.problem(
                f"{lw}/target/fieldPath",
                f"{to_field!r} is not a parameter or body of action {dst!r}",
            )
            return None
        return {"from": src, "from_path": src_path, "to": dst, "to_path": dst_path}

    def credentials(
        self,
        where: str,
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
                if p["required"] and not p["credential"] and ["parameters", p["name"]] not in into:
                    self.warn(
                        self.shown,
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
                    self.shown,
                    where,
                    f"action {action['id']!r} needs a request body and no link gives it: every "
                    "call fails",
                )
            elif body is not None and ["requestBody"] not in into:
                given = {path[1] for path in into if path[0] == "requestBody" and len(path) > 1}
                unfilled = [n for n in body.get("required_fields", ()) if n not in given]
                for name in unfilled:
                    self.warn(
                        self.shown,
                        where,
                        f"action {action['id']!r} needs body field {name!r} and no link "
                        "gives it: every call fails",
                    )
                if unfilled:
                    action["unfilled_body_fields"] = unfilled  # the executor refuses the call

    def inputs(
        self, where: str, flow: dict[str, Any]
    ) -> tuple[list[dict[str, Any]], set[str], list[dict[str, Any]]]:
        fields = flow.get("fields") or {}
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

        for p in fields.get("parameters") or []:
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
        body = fields.get("requestBody") or {}
        body_args: set[str] = set()
        variants: list[dict[str, Any]] = []
        for media in (body.get("content") or {}).values():
            schema = (media or {}).get("schema") or {}
            whole = body.get("required", True)
            required = set(schema.get("required") or []) if whole else set()
            branches = [b for b in _branches(schema) if isinstance(b, dict)]
            properties = dict(schema.get("properties") or {})
            if branches:
                everywhere = None
                for b_index, branch in enumerate(branches):
                    names = list(branch.get("properties") or {})
                    for name in names:
                        properties.setdefault(name, branch["properties"][name])
                    own = set(branch.get("required") or [])
                    everywhere = own if everywhere is None else everywhere & own
                    distinct = sorted(own - set(schema.get("required") or []))
                    variants.append(
                        {
                            "name": str(branch.get("title") or "+".join(distinct) or b_index),
                            "required": sorted(own | set(schema.get("required") or [])),
                            "fields": sorted(set(names) | set(schema.get("properties") or {})),
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
                    prop if isinstance(prop, dict) else {},
                    (prop or {}).get("description", ""),
                )
            break
        return inputs, body_args, variants

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
                f"origin {head!r}.* (no status key) read as responses.success.*",
            )
            return ["responses", "success", *tokens[1:]]
        if head == "responses" and (len(tokens) < 2 or not _is_status_key(tokens[1])):
            self.warn(
                self.shown,
                f"{where}/origin/fieldPath",
                f"origin {head!r}.* (no status key) read as responses.success.*",
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
                self.shown,
                f"{where}/target/fieldPath",
                "target query.* / path.* / header.* / cookie.* read as parameters.*",
            )
            return ["parameters", *tokens[1:]]
        return tokens


def _is_credential(name: str, where: str, slots: set[tuple[str, str]]) -> bool:
    """A parameter that carries a credential: a security scheme's key, or a well-known name
    (``token``, ``apiKey``, ``access_token``, ``Authorization``, ...)."""
    squashed = re.sub(r"[^a-z]", "", name.lower())
    return (where, name.lower()) in slots or (
        where in ("header", "query") and squashed in _CREDENTIAL_NAMES
    )


def _branches(schema: dict[str, Any]) -> list[Any]:
    for key in ("oneOf", "anyOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            return list(schema[key])
    return []


def _properties(schema: dict[str, Any]) -> dict[str, Any]:
    """A body schema's properties, those of its oneOf/anyOf/allOf branches included."""
    props = dict(schema.get("properties") or {})
    for key in ("oneOf", "anyOf", "allOf"):
        for branch in schema.get(key) or []:
            if isinstance(branch, dict):
                for name, prop in _properties(branch).items():
                    props.setdefault(name, prop)
    return props


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
    deviations: Sequence[Deviation] = (),
) -> dict[str, Any]:
    """The execution plan of one bundle (plain data), or BuildError.

    Warnings (the deviations the bundle was read with, and the links rewritten) go to ``warn``
    one per kind, each naming every pointer; without ``warn`` they are logged as one compact
    message per bundle."""
    found = [(d.kind, d.pointer) for d in deviations]

    def collect(file: str, pointer: str, reason: str) -> None:
        found.append((reason, pointer))

    planner = _Planner(shown, collect)
    ops = planner.operations(document, specs)
    flows = [planner.flow(i, flow, ops) for i, flow in enumerate(document["flows"])]
    names = [f["name"] for f in flows]
    for i, flow_name in enumerate(names):
        if names.index(flow_name) != i:
            planner.problem(f"/flows/{i}/id", f"flow name {flow_name!r} is used twice")
        elif flow_name in _RUNNER_NAMES:
            planner.problem(
                f"/flows/{i}/id",
                f"flow name {flow_name!r} is a method every flows class has; rename the flow",
            )
    if planner.problems:
        raise BuildError(planner.problems)
    grouped = group([Deviation(pointer, kind) for kind, pointer in found])
    if warn is not None:
        for kind, pointers in grouped:
            warn(shown, ", ".join(pointers), kind)
    elif grouped:
        lines = [f"  {kind}: {', '.join(pointers)}" for kind, pointers in grouped]
        log.warning(
            "%s: read with %d kind(s) of normalisation:\n%s",
            shown,
            len(lines),
            "\n".join(lines),
            extra=topic_extra(LENIENT_BUNDLES, shown, len(lines)),
        )
    return {
        "bundle": name,
        "title": document["info"]["title"],
        "sources": sorted({a["source"] for f in flows for a in f["actions"]}),
        "flows": flows,
    }
