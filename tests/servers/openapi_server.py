"""A loopback server built from an OpenAPI document, for the flow tests.

Every operation becomes a route. A request is checked against its operation: method and path
(routing), required path/query/header parameters, the request body against the operation's
schema (jsonschema), enum values of parameters, and the operation's security (one of its
alternatives: API keys in a header or the query, bearer, basic). A valid
request gets the operation's 2xx response: its example, or a value made from its schema. Every
request is recorded. ``fail`` maps an operationId to a status to answer instead.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def resolve(spec: dict[str, Any], node: Any, depth: int = 0) -> Any:
    """``node`` with local ``$ref``s resolved; ``depth`` counts ``$ref`` hops (a cycle is cut
    after 12 of them), so plain nesting keeps every value."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            if depth > 12:
                return {}
            target: Any = spec
            for token in ref[2:].split("/"):
                target = target[token]
            return resolve(spec, target, depth + 1)
        return {k: resolve(spec, v, depth) for k, v in node.items()}
    if isinstance(node, list):
        return [resolve(spec, v, depth) for v in node]
    return node


def sample(schema: Any, depth: int = 0) -> Any:
    """A value valid against ``schema`` (the subset OpenAPI documents use)."""
    if not isinstance(schema, dict) or depth > 5:
        return None
    if "example" in schema:
        return schema["example"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("oneOf", "anyOf", "allOf"):
        if schema.get(key):
            return sample(schema[key][0], depth + 1)
    kind = schema.get("type", "object" if "properties" in schema else None)
    if kind == "object":
        return {k: sample(v, depth + 1) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        return [sample(schema.get("items") or {}, depth + 1)]
    return {"string": "sample", "integer": 1, "number": 1.5, "boolean": True}.get(str(kind))


class OpenAPIServer:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.requests: list[dict[str, Any]] = []
        self.rejections: list[str] = []
        self.fail: dict[str, int] = {}
        self.responses: dict[str, Any] = {}  # operationId -> body to answer instead
        self.schemes = (spec.get("components") or {}).get("securitySchemes") or {}
        routes = []
        for path, item in (spec.get("paths") or {}).items():
            for method in _METHODS:
                op = item.get(method)
                if isinstance(op, dict):
                    op = resolve(
                        spec,
                        {
                            **op,
                            "security": op.get("security", spec.get("security")) or [],
                            "parameters": [
                                *(item.get("parameters") or []),
                                *(op.get("parameters") or []),
                            ],
                        },
                    )
                    routes.append(Route(path, self._endpoint(op), methods=[method.upper()]))
        self.app = Starlette(routes=routes)

    def _met(self, name: str, request: Request) -> bool:
        """Whether the request carries what security scheme ``name`` asks for."""
        scheme = self.schemes.get(name) or {}
        kind = str(scheme.get("type", "")).lower()
        auth = request.headers.get("authorization", "")
        if kind == "apikey":
            where = {"header": request.headers, "cookie": request.cookies}.get(
                str(scheme.get("in")), request.query_params
            )
            return bool(where.get(scheme["name"]))
        if kind == "http" and str(scheme.get("scheme")).lower() == "basic":
            return auth.startswith("Basic ")
        return auth.startswith("Bearer ") and len(auth) > len("Bearer ")

    def _reject(self, status: int, reason: str) -> Response:
        self.rejections.append(reason)
        return JSONResponse({"error": reason}, status_code=status)

    def _endpoint(self, op: dict[str, Any]) -> Any:
        async def endpoint(request: Request) -> Response:
            raw = await request.body()
            kind = request.headers.get("content-type", "").split(";")[0].strip()
            form: list[tuple[str, Any]] | None = None
            if kind in ("application/x-www-form-urlencoded", "multipart/form-data"):
                parsed = await request.form()
                form = [
                    (k, v if isinstance(v, str) else (v.filename, await v.read()))
                    for k, v in parsed.multi_items()
                ]
            record = {
                "operationId": op.get("operationId"),
                "method": request.method,
                "path": request.url.path,
                "query": dict(request.query_params),
                "query_items": list(request.query_params.multi_items()),
                "raw_query": request.url.query,
                "headers": dict(request.headers),
                "cookies": dict(request.cookies),
                "raw_body": raw,
                "form": form,
                "body": json.loads(raw)
                if raw and form is None and ("json" in kind or not kind)
                else None,
            }
            self.requests.append(record)
            alternatives = op.get("security") or []
            if alternatives and not any(
                all(self._met(name, request) for name in alt) for alt in alternatives
            ):
                return self._reject(401, f"no security alternative met: {alternatives}")
            for param in op.get("parameters") or []:
                where = {
                    "query": request.query_params,
                    "header": request.headers,
                    "path": request.path_params,
                    "cookie": request.cookies,
                }.get(param.get("in"))
                deep = (param.get("style") == "deepObject" and param.get("in") == "query") and any(
                    k.startswith(param["name"] + "[") for k in request.query_params
                )
                if (
                    where is not None
                    and param.get("required")
                    and param["name"] not in where
                    and not deep
                ):
                    return self._reject(
                        400, f"missing required {param['in']} parameter {param['name']}"
                    )
                enum = (param.get("schema") or {}).get("enum")
                value = where.get(param["name"]) if where is not None else None
                if enum and value is not None and value not in [str(e) for e in enum]:
                    return self._reject(400, f"{param['name']}={value!r} is not one of {enum}")
            body_spec = op.get("requestBody")
            if isinstance(body_spec, dict):
                media = (body_spec.get("content") or {}).get("application/json") or {}
                if record["body"] is None and body_spec.get("required"):
                    return self._reject(400, "missing request body")
                schema = media.get("schema")
                if record["body"] is not None and isinstance(schema, dict):
                    errors = list(jsonschema.Draft7Validator(schema).iter_errors(record["body"]))
                    if errors:
                        return self._reject(422, f"invalid body: {errors[0].message}")
            status = self.fail.get(str(op.get("operationId")))
            if status is not None:
                return JSONResponse({"error": "injected failure"}, status_code=status)
            if op.get("operationId") in self.responses:
                record["response"] = self.responses[op["operationId"]]
                return JSONResponse(self.responses[op["operationId"]])
            for code, response in sorted(
                (op.get("responses") or {}).items(), key=lambda kv: str(kv[0])
            ):
                if str(code).startswith("2"):
                    content = (response or {}).get("content") or {}
                    media = content.get("application/json")
                    if media is None:
                        return Response(status_code=int(code) if str(code).isdigit() else 200)
                    body = media.get("example", sample(media.get("schema") or {}))
                    record["response"] = body
                    return JSONResponse(body, status_code=int(code) if str(code).isdigit() else 200)
            return JSONResponse({})

        return endpoint
