"""A conformance check of a JSON-RPC over HTTP server, from the rules its spec table and
JSON-RPC 2.0 state (hand-written; a generated ``<protocol>/conformance.py`` calls it with its
table).

Rules, each MUST / SHOULD with where it comes from:

- JSON-RPC 2.0 §5.1: a body that is not JSON is answered -32700 with id ``null``; a message that
  is not a request (no ``"jsonrpc": "2.0"``) -32600; an unknown method -32601; every answer is
  ``"jsonrpc": "2.0"``, carries the request's id (a string id as sent) and exactly one of
  ``result`` and ``error``;
- the table: every method it lists is served (not -32601), and a call whose params lack what
  the method's params type requires is refused (-32602, or one of the table's error codes),
  never answered with a result; every error code answered is a standard one or the table's;
  every plain HTTP operation without parameters answers its type (the A2A agent card...).

Nothing is changed on the server: each call either carries no params it could act on or is a
GET. The report is :class:`~agentproto._runtime.conformance.Report`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from agentproto._runtime.conformance import Checks, Report, as_object, json_of, reaching
from agentproto._runtime.jsonrpc import STANDARD_ERRORS, RpcError
from agentproto._runtime.jsonrpc_server import RpcRoute
from agentproto._runtime.redact import Secret
from agentproto._runtime.routes import RouteSpec

__all__ = ["check_rpc_server"]


def _requires_params(kind: Any) -> bool:
    """Whether ``{}`` is not a valid value of the params type (it has required fields)."""
    from pydantic import TypeAdapter, ValidationError

    if kind is None:
        return False
    try:
        TypeAdapter(kind).validate_python({})
    except ValidationError:
        return True
    return False


def check_rpc_server(
    base_url: str,
    *,
    protocol: str,
    endpoint: str,
    methods: Sequence[RpcRoute],
    routes: Sequence[RouteSpec] = (),
    errors: Mapping[int, type[RpcError]],
    api_key: str | Secret | None = None,
    timeout: float = 10.0,
) -> Report:
    """Check the server at ``base_url`` against the rules of the module docstring."""
    report = Report(base_url, protocol=protocol)
    checks = Checks(report)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if api_key is not None:
        headers["Authorization"] = f"Bearer {Secret(api_key).reveal()}"
    known = set(STANDARD_ERRORS) | set(errors)
    url = base_url.rstrip("/") + "/" + endpoint.lstrip("/")
    seen_codes: set[int] = set()

    with reaching(base_url), httpx.Client(timeout=timeout, headers=headers) as http:

        def post(body: bytes) -> dict[str, Any] | None:
            answer = as_object(json_of(http.post(url, content=body)))
            error = as_object(answer.get("error")) if answer is not None else None
            if error is not None and isinstance(error.get("code"), int):
                seen_codes.add(error["code"])
            return answer

        def error_code(answer: dict[str, Any] | None) -> int | None:
            error = as_object(answer.get("error")) if answer is not None else None
            code = error.get("code") if error is not None else None
            return code if isinstance(code, int) else None

        def well_formed(answer: dict[str, Any] | None, request_id: object) -> str:
            if answer is None:
                return "the answer is not a JSON object"
            if answer.get("jsonrpc") != "2.0":
                return 'the answer lacks "jsonrpc": "2.0"'
            if answer.get("id") != request_id:
                return f"the answer's id is {answer.get('id')!r}, not {request_id!r}"
            if ("result" in answer) == ("error" in answer):
                return "the answer holds both or neither of result and error"
            return ""

        parse = post(b"{not json")
        checks.check(
            "jsonrpc.parse-error", "MUST", "5.1", "a body that is not JSON is -32700, id null"
        )(
            error_code(parse) == -32700 and parse is not None and parse.get("id") is None,
            "" if parse is None else json.dumps(parse)[:200],
        )
        invalid = post(b'{"id": 1, "method": "x"}')
        checks.check("jsonrpc.invalid-request", "MUST", "5.1", 'no "jsonrpc": "2.0" is -32600')(
            error_code(invalid) == -32600, "" if invalid is None else json.dumps(invalid)[:200]
        )
        unknown = post(
            json.dumps(
                {"jsonrpc": "2.0", "id": "conformance-1", "method": "no/such/method"}
            ).encode()
        )
        checks.check("jsonrpc.method-not-found", "MUST", "5.1", "an unknown method is -32601")(
            error_code(unknown) == -32601, "" if unknown is None else json.dumps(unknown)[:200]
        )
        problem = well_formed(unknown, "conformance-1")
        checks.check(
            "jsonrpc.response", "MUST", "5", "an answer is 2.0, carries the id, one of result/error"
        )(not problem, problem)

        for index, method in enumerate(methods):
            request_id = f"conformance-m{index}"
            body: dict[str, object] = {"jsonrpc": "2.0", "id": request_id, "method": method.rpc}
            if method.params is not None:
                body["params"] = {}
            answer = post(json.dumps(body).encode())
            code = error_code(answer)
            checks.check(
                f"table.served.{method.rpc}", "SHOULD", "table", f"{method.rpc} is served"
            )(code != -32601, f"answered {code}" if code is not None else "")
            if method.stream or not _requires_params(method.params):
                continue  # a call it might act on: not made
            problem = well_formed(answer, request_id)
            refused = code is not None and code != -32601
            checks.check(
                f"table.params.{method.rpc}",
                "MUST",
                "table",
                f"{method.rpc} without its required params is refused, not answered",
            )(
                None if code == -32601 else refused and not problem,
                problem or ("" if refused else "answered with a result"),
            )

        unexpected = sorted(seen_codes - known)
        checks.check(
            "table.error-codes", "SHOULD", "table", "every error code is standard or the table's"
        )(not unexpected, f"codes {unexpected}" if unexpected else "")

        for route in routes:
            if route.method != "GET" or route.path_params or route.query or route.response is None:
                continue
            response = http.get(base_url.rstrip("/") + route.path)
            outcome = response.status_code == route.success_status
            detail = f"status {response.status_code}"
            if outcome:
                try:
                    route.response.model_validate_json(response.content)
                    detail = ""
                except ValueError as exc:
                    outcome, detail = False, str(exc)[:300]
            checks.check(
                f"table.route.{route.name}",
                "MUST",
                "table",
                f"GET {route.path} answers {route.response.__name__}",
            )(outcome, detail)
    return report
