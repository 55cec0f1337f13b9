"""Wire cases as data, run against what a renderer generated (Smithy's protocol tests, for our
transport kinds).

A case file (YAML) names a transport kind and a protocol package, and lists cases:

- ``side: client``: a call of the generated client (``operation``, ``form``: ``model`` /
  ``mapping`` / ``keywords``, ``args``); the ``request`` it must put on the wire (method,
  path, headers that must be there, the JSON body); the canned ``response`` a loopback server
  answers (status, headers, a ``json`` body, or ``sse``: the data of each event); and what the
  call must give: ``result`` (its class, and its wire form must be the JSON received: typed
  value out, and back), ``events`` (the classes of a stream's events, each one's wire form the
  JSON received) or ``raises`` (the exception class, and its code).
- ``side: server``: the ``request`` bytes sent to the generated server; what its ``handler``
  receives (``params``: class, and its wire form must be the JSON sent) and returns
  (``returns``: class and JSON) or raises (``raises``); the ``response`` expected (status and
  JSON body).

Everything goes over real loopback sockets (uvicorn), with the generated modules found under
``agentproto.<package>``. ``python -m tests.wire.runner CASES`` runs one file (for a package
built elsewhere: put it first on ``PYTHONPATH``) and prints one line per failure.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import yaml
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.servers.loopback import serve

HERE = Path(__file__).parent


@dataclass(frozen=True)
class CaseFile:
    path: Path
    kind: str
    package: str
    cases: tuple[dict[str, Any], ...]
    event_names: str | None = None  # SSE events are named; the name is this field's value

    @property
    def ids(self) -> list[str]:
        return [str(c["id"]) for c in self.cases]


def load(path: Path) -> CaseFile:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return CaseFile(
        path,
        str(data["kind"]),
        str(data["package"]),
        tuple(data["cases"]),
        data.get("event_names"),
    )


def case_files(folder: Path = HERE) -> list[Path]:
    """Every case file under ``folder`` (one folder per transport kind)."""
    return sorted(folder.glob("*/*.yaml"))


# -- helpers ----------------------------------------------------------------------------------


def module(package: str, name: str) -> ModuleType:
    return importlib.import_module(f"agentproto.{package}.{name}")


def exported(package: str, name: str) -> Any:
    """A public name of the protocol package (a model, an exception...), or a builtin."""
    if hasattr(__builtins__, name) if not isinstance(__builtins__, dict) else name in __builtins__:
        return getattr(importlib.import_module("builtins"), name)
    for where in ("", ".models", ".errors"):
        found = getattr(importlib.import_module(f"agentproto.{package}{where}"), name, None)
        if found is not None:
            return found
    raise LookupError(f"agentproto.{package} has no {name}")


def wire(value: Any) -> Any:
    """A value's wire form as it came (a received model dumped back; an unknown event's data)."""
    from agentproto._runtime.streaming import UnknownEvent
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(value, UnknownEvent):
        return value.data
    if isinstance(value, list | tuple):
        return [wire(v) for v in value]
    return value


def _payload(message: Any) -> Any:
    """What a response carries: a JSON-RPC message's result, or a plain HTTP body."""
    if isinstance(message, dict) and message.get("jsonrpc") == "2.0":
        return message.get("result")
    return message


def _headers_hold(expected: Mapping[str, str], actual: Mapping[str, str], what: str) -> None:
    lowered = {k.lower(): v for k, v in actual.items()}
    for name, value in expected.items():
        got = lowered.get(name.lower())
        assert got == value, f"{what}: header {name} is {got!r}, not {value!r}"


def _sse(events: list[Any], named: bool) -> bytes:
    """SSE frames: ``data:`` of each item, or, with ``named``, ``event:`` + ``data:`` of each
    ``{event, data}`` item."""
    frames = []
    for e in events:
        head = b"event: " + str(e["event"]).encode() + b"\n" if named else b""
        frames.append(head + b"data: " + json.dumps(e["data"] if named else e).encode() + b"\n\n")
    return b"".join(frames)


def _sent_event(item: Any, named: str | None) -> Any:
    """What a typed event's wire form must be: the data, with its SSE name under ``named``."""
    if named is None:
        return _payload(item)
    return {**item["data"], named: item["event"]}


# -- the client side --------------------------------------------------------------------------


class Recorder:
    """A loopback server answering each request with the current case's canned response."""

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []
        self.answer: dict[str, Any] = {}
        self.named = False

    async def handle(self, request: Request) -> Response:
        body = await request.body()
        self.seen.append(
            {
                "method": request.method,
                "path": request.scope["raw_path"].decode("ascii"),  # as sent (escapes kept)
                "headers": dict(request.headers),
                "json": json.loads(body) if body else None,
            }
        )
        answer = self.answer
        headers = dict(answer.get("headers", {}))
        if "sse" in answer:
            headers.setdefault("content-type", "text/event-stream")
            body = _sse(answer["sse"], self.named)
            return Response(body, answer.get("status", 200), headers=headers)
        content = json.dumps(answer["json"]).encode() if "json" in answer else b""
        headers.setdefault("content-type", "application/json")
        return Response(content, answer.get("status", 200), headers=headers)

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route(
                    "/{path:path}", self.handle, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]
                )
            ]
        )


def _client_class(kind: str, package: str) -> Any:
    client = module(package, "client")
    names = [
        n for n in getattr(client, "__all__", ()) if n.startswith("Async") and n.endswith("Client")
    ]
    assert len(names) == 1, f"agentproto.{package}.client has no single async client: {names}"
    return getattr(client, names[0])


async def _call(client: Any, case: dict[str, Any]) -> Any:
    call = case["call"]
    method = getattr(client, call["operation"])
    form = call.get("form", "keywords")
    args = call.get("args", {})
    positional = [args.pop(p) for p in call.get("positional", ())] if args else []
    if form == "keywords":
        outcome = method(*positional, **args)
    elif form == "mapping":
        outcome = method(*positional, args)
    elif form == "model":
        model = exported(client.__module__.split(".")[1], call["model"])
        outcome = method(*positional, model.model_validate(args))
    else:
        raise ValueError(f"unknown call form {form!r}")
    return await outcome


async def run_client_case(
    cases: CaseFile, case: dict[str, Any], url: str, recorder: Recorder
) -> None:
    recorder.seen.clear()
    recorder.answer = case["response"]
    recorder.named = cases.event_names is not None
    client_class = _client_class(cases.kind, cases.package)
    async with client_class(url) as client:
        raises = case.get("raises")
        try:
            outcome = await _call(client, case)
            if "events" in case:
                async with outcome as stream:
                    got = [event async for event in stream]
        except Exception as exc:
            if raises is None:
                raise
            assert type(exc).__name__ == raises["type"], f"raised {exc!r}"
            if "code" in raises:
                assert getattr(exc, "code", None) == raises["code"], f"raised {exc!r}"
            if "message" in raises:
                assert raises["message"] in str(exc), f"raised {exc!r}"
        else:
            assert raises is None, f"expected {raises}, got {outcome!r}"
            if "result" in case:
                expected = case["result"]
                assert type(outcome).__name__ == expected["type"], repr(outcome)
                received = (
                    expected["json"] if "json" in expected else _payload(case["response"]["json"])
                )
                assert wire(outcome) == received, wire(outcome)
            if "events" in case:
                sent = [_sent_event(e, cases.event_names) for e in case["response"].get("sse", [])]
                assert [type(e).__name__ for e in got] == [e["type"] for e in case["events"]]
                unknown = [i for i, e in enumerate(got) if type(e).__name__ == "UnknownEvent"]
                for i in unknown:  # an unknown event keeps its data (its name is its `event`)
                    sent[i] = (
                        case["response"]["sse"][i].get("data") if cases.event_names else sent[i]
                    )
                assert [wire(e) for e in got] == sent[: len(got)]
    assert len(recorder.seen) == 1, recorder.seen
    seen, wanted = recorder.seen[0], case["request"]
    assert seen["method"] == wanted["method"] and seen["path"] == wanted["path"], seen
    _headers_hold(wanted.get("headers", {}), seen["headers"], case["id"])
    assert seen["json"] == wanted.get("json"), f"sent {seen['json']}"


# -- the server side --------------------------------------------------------------------------


def _handler(cases: CaseFile, case: dict[str, Any], received: list[Any]) -> Any:
    """An instance of the generated handler base whose one operation records what it gets and
    answers (or raises) what the case says."""
    spec = case["handler"]
    if cases.kind == "jsonrpc-http":
        server = module(cases.package, "server")
        base = next(getattr(server, n) for n in server.__all__ if n.endswith("Handler"))
    else:
        routes = module(cases.package, "routes")
        base = next(getattr(routes, n) for n in routes.__all__ if n.endswith("Operations"))

    def outcome() -> Any:
        if "raises" in spec:
            error = exported(cases.package, spec["raises"]["type"])
            raise error(*spec["raises"].get("args", ()))
        returns = spec.get("returns")
        if returns is None:
            return None
        return exported(cases.package, returns["type"]).model_validate(returns["json"])

    async def answer(self: Any, context: Any, *args: Any, **kwargs: Any) -> Any:
        received.extend(args)
        return outcome()

    async def stream(self: Any, context: Any, *args: Any) -> Any:
        received.extend(args)
        for item in spec.get("yields", []):
            yield exported(cases.package, item["type"]).model_validate(item["json"])

    handler_class = type(
        "CaseHandler", (base,), {spec["operation"]: stream if "yields" in spec else answer}
    )
    return handler_class()


def _app(cases: CaseFile, handler: Any) -> Any:
    if cases.kind == "jsonrpc-http":
        server = module(cases.package, "server")
        make = next(getattr(server, n) for n in server.__all__ if n.endswith("_app"))
        return make(handler)
    from agentproto._runtime.http_server import RouteOptions, route_app

    routes = module(cases.package, "routes")
    return route_app(
        routes.ROUTES,
        handler,
        error_status=routes.ERROR_STATUS,
        authenticate=lambda token: "caller",
        options=RouteOptions(anonymous="caller"),
    )


def run_server_case(cases: CaseFile, case: dict[str, Any]) -> None:
    received: list[Any] = []
    app = _app(cases, _handler(cases, case, received))
    request = case["request"]
    with serve(app) as url, httpx.Client(base_url=url, timeout=10) as http:
        response = http.request(
            request["method"],
            request["path"],
            content=json.dumps(request["json"]).encode()
            if "json" in request
            else request.get("body"),
            headers={"content-type": "application/json", **request.get("headers", {})},
        )
    expected = case["response"]
    assert response.status_code == expected.get("status", 200), response.text
    if "sse" in expected:
        events = [
            json.loads(line[len("data: ") :])
            for line in response.text.splitlines()
            if line.startswith("data: ")
        ]
        assert events == expected["sse"], response.text
    elif "json" in expected:
        assert response.json() == expected["json"], response.text
    params = case["handler"].get("params")
    if params is not None:
        assert len(received) == 1, received
        assert type(received[0]).__name__ == params["type"], repr(received[0])
        assert wire(received[0]) == params["json"]


# -- running ----------------------------------------------------------------------------------


def run_file(path: Path, only: str | None = None) -> list[str]:
    """Run every case of a file (or one); the failures, as text."""
    cases = load(path)
    failures: list[str] = []
    recorder = Recorder()
    with serve(recorder.app()) as url:
        for case in cases.cases:
            if only is not None and case["id"] != only:
                continue
            try:
                if case["side"] == "client":
                    asyncio.run(asyncio.wait_for(run_client_case(cases, case, url, recorder), 30))
                else:
                    run_server_case(cases, case)
            except Exception as exc:  # reported with the case's id
                failures.append(f"{path.name}::{case['id']}: {type(exc).__name__}: {exc}")
    return failures


def main(argv: list[str]) -> int:
    failures = [f for path in argv for f in run_file(Path(path))]
    for failure in failures:
        print(failure)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
