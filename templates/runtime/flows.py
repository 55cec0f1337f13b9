"""The agents.json flow executor: runs a flow's actions in order over HTTP, moving data along
its links. Written once; every generated flow client (``agentproto.flows.<bundle>``) feeds it
the plan the generator made from the bundle (actions with method, path, server, parameters and
body; links in canonical form).

Links: an origin with no action is a flow input (``parameters.<name>``, ``requestBody`` or
``requestBody.<name>``); an origin action's value is read from its response
(``responses.success.<path>``, list indices as numbers) and a path that does not exist raises
:class:`FlowLinkError`, never a silent ``None``. A target with no action is a field of the
flow's result; otherwise ``parameters.<name>`` or ``requestBody[.<path>]`` of the action.
An optional flow input the caller left out is simply not sent.

Auth is given per source (:class:`BearerAuth`, :class:`ApiKeyAuth` in a header or the query,
:class:`BasicAuth`, :class:`OAuth2Token`, or a sequence of them); secrets never show in reprs or
errors. A credential the OpenAPI declares as an operation parameter (a required ``token``
header or ``apiKey`` query parameter) or as an API-key security scheme that the given auth does
not fill by itself is filled with that auth's secret; when none of the operation's security
alternatives can be met, the call is refused before anything is sent.

A request body with ``oneOf`` branches takes the union of the branches' fields as inputs; the
fields given must fit exactly one branch (else :class:`FlowInputError` names the branches).

Requests are serialised as the OpenAPI document says (``agentproto._runtime.serialise``): each
parameter by its ``style`` / ``explode`` / ``allowReserved`` (or ``content``), the body by its
media type (JSON, ``application/x-www-form-urlencoded`` with ``encoding``,
``multipart/form-data``). :meth:`AsyncFlows.dry_run` returns the requests a flow would send,
without sending them.

Every failure is a :class:`FlowError`: an action's call that fails (a status, a connection, a
body past ``Limits.max_body_bytes``, JSON nested past ``Limits.max_json_depth``) a
:class:`FlowHTTPError`, a result that does not fit the flow's result model a
:class:`FlowResultError`. Error messages mask the credentials the client holds, even when a
server echoes them back.
"""

from __future__ import annotations

import base64
import dataclasses
import itertools
import json
import re
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Final, Self, TypeVar

import httpx
from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.flows_plan import declared_type, expand
from agentproto._runtime.http import (
    AsyncHTTP,
    Call,
    HTTPBase,
    RetryPolicy,
    TimeoutTypes,
)
from agentproto._runtime.http_errors import APIConnectionError, APIError, APIStatusError
from agentproto._runtime.json_types import JSONObject, JSONValue
from agentproto._runtime.limits import DEFAULT_LIMITS, LimitError, Limits, loads
from agentproto._runtime.redact import (
    MASK,
    Secret,
    declare_secret_name,
    redact_headers,
    redact_url,
)
from agentproto._runtime.serialise import (
    SerialisationError,
    body_content,
    content_text,
    cookie_pairs,
    declared_value,
    encode,
    header_value,
    path_value,
    query_pairs,
)
from agentproto._runtime.telemetry import shared

if TYPE_CHECKING:  # imported when tools are made, not with the client
    from agentproto.llm.tool_loop import FunctionTool

# unasync: derive-sync

Plan = Mapping[str, Any]
M = TypeVar("M")


INSTRUMENTATION: Final = "agentproto.flows"
"""The instrumentation name of the flows' spans: ``flow <id>`` around a run, ``action <id>``
(kind CLIENT, with ``http.response.status_code``) around each of its requests."""


class _Missing(Enum):
    MISSING = "MISSING"


_MISSING: Final = _Missing.MISSING
"""What a path that does not exist reads (``None`` is a JSON value)."""


class FlowError(AgentprotoError):
    """Base of the errors a flow raises; names the flow and the action."""

    def __init__(self, message: str, *, flow: str, action: str | None = None) -> None:
        super().__init__(message)
        self.flow = flow
        self.action = action


class FlowHTTPError(FlowError):
    """An action's HTTP call failed: ``status`` is None for a connection failure."""

    def __init__(
        self,
        message: str,
        *,
        flow: str,
        action: str,
        status: int | None,
        body: bytes = b"",
        cause: Exception | None = None,
    ) -> None:
        super().__init__(message, flow=flow, action=action)
        self.status = status
        self.body = body
        self.cause = cause


class FlowLinkError(FlowError):
    """A link's origin path does not exist in the response (or input) it reads."""


class FlowInputError(FlowError, TypeError):
    """A required flow input is missing, or an unknown one was given."""


class FlowBundleError(FlowError):
    """A bundle loaded at run time cannot be used: ``problems`` lists each one as
    ``(where, reason)`` (``where``: the document and a JSON pointer into it)."""

    def __init__(self, message: str, *, problems: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__(message, flow="")
        self.problems: list[tuple[str, str]] = list(problems)


@dataclass(frozen=True)
class PlannedRequest:
    """A request a flow would send (:meth:`AsyncFlows.dry_run`): credentials masked in the
    URL and headers; a value an earlier action's response would give reads
    ``<action:responses.success.path>`` unless that response was given."""

    flow: str
    action: str
    method: str
    url: str
    headers: Mapping[str, str]
    body: bytes | None = None

    def __repr__(self) -> str:
        size = "" if self.body is None else f" body={len(self.body)} bytes"
        return f"<PlannedRequest {self.flow}/{self.action}: {self.method} {self.url}{size}>"


def load_plan(text: str) -> Plan:
    """A plan embedded as JSON text in a generated flows module."""
    value: Plan = json.loads(text)
    return value


class FlowResultError(FlowError):
    """The flow's result does not fit its result model; ``errors`` lists each problem
    (``loc``, ``msg``, ``type``), ``value`` is the result as received."""

    def __init__(
        self, message: str, *, flow: str, errors: Sequence[Mapping[str, Any]], value: Any
    ) -> None:
        super().__init__(message, flow=flow)
        self.errors: list[Mapping[str, Any]] = list(errors)
        self.value = value


# -- auth per source -------------------------------------------------------------------------------


class SourceAuth:
    """How requests to one source are authenticated."""

    def apply(
        self, headers: dict[str, str], params: dict[str, str], cookies: dict[str, str]
    ) -> None:
        """Put the credential on a request: in ``headers``, the query ``params`` or
        ``cookies`` (names to raw values; the executor encodes them)."""
        raise NotImplementedError

    def credential(self) -> str | None:
        """The secret, for a credential the operation declares as a parameter or an API key
        scheme (``token``, ``apiKey``) that this auth does not fill by itself."""
        return None

    def secrets(self) -> tuple[Secret, ...]:
        """Every secret this auth sends (masked in error messages and logs)."""
        value = self.credential()
        return (Secret(value),) if value is not None else ()

    def covers(self, slots: set[tuple[str, str]], bearer: bool) -> bool:
        """Whether this auth already satisfies one of the operation's credential ``slots``
        ((in, lower-case name)) or, with ``bearer``, its bearer scheme."""
        return False

    def __repr__(self) -> str:
        return f"{type(self).__name__}({MASK!r})"


class BearerAuth(SourceAuth):
    def __init__(self, token: str | Secret) -> None:
        self._token = Secret(token)

    def apply(
        self, headers: dict[str, str], params: dict[str, str], cookies: dict[str, str]
    ) -> None:
        headers["Authorization"] = f"Bearer {self._token.reveal()}"

    def credential(self) -> str | None:
        return self._token.reveal()

    def covers(self, slots: set[tuple[str, str]], bearer: bool) -> bool:
        return bearer or ("header", "authorization") in slots


class OAuth2Token(BearerAuth):
    """An OAuth 2.0 access token you obtained (sent as a bearer token)."""


class ApiKeyAuth(SourceAuth):
    """An API key sent under ``name`` in a header (default), the query or a cookie; its name
    is declared secret, so every log line and error masks its value."""

    def __init__(self, name: str, key: str | Secret, *, location: str = "header") -> None:
        if location not in ("header", "query", "cookie"):
            raise ValueError("location must be 'header', 'query' or 'cookie'")
        self.name = name
        self.location = location
        self._key = Secret(key)
        declare_secret_name(name)

    def apply(
        self, headers: dict[str, str], params: dict[str, str], cookies: dict[str, str]
    ) -> None:
        declare_secret_name(self.name)
        where = {"header": headers, "query": params, "cookie": cookies}[self.location]
        where[self.name] = self._key.reveal()

    def credential(self) -> str | None:
        return self._key.reveal()

    def covers(self, slots: set[tuple[str, str]], bearer: bool) -> bool:
        return (self.location, self.name.lower()) in slots

    def __repr__(self) -> str:
        return f"ApiKeyAuth({self.name!r}, {MASK!r}, location={self.location!r})"


class BasicAuth(SourceAuth):
    def __init__(self, username: str, password: str | Secret) -> None:
        self.username = username
        self._password = Secret(password)

    def apply(
        self, headers: dict[str, str], params: dict[str, str], cookies: dict[str, str]
    ) -> None:
        raw = f"{self.username}:{self._password.reveal()}".encode()
        headers["Authorization"] = "Basic " + base64.b64encode(raw).decode()

    def covers(self, slots: set[tuple[str, str]], bearer: bool) -> bool:
        return True  # a username and password fill no single-value credential

    def secrets(self) -> tuple[Secret, ...]:
        raw = f"{self.username}:{self._password.reveal()}".encode()
        return (self._password, Secret(base64.b64encode(raw).decode()))

    def __repr__(self) -> str:
        return f"BasicAuth({self.username!r}, {MASK!r})"


# -- the plan, step by step ------------------------------------------------------------------------


def _get(value: JSONValue, path: Sequence[str]) -> JSONValue | _Missing:
    for token in path:
        if isinstance(value, Mapping) and str(token) in value:
            value = value[str(token)]
        elif (
            isinstance(value, list) and re.fullmatch(r"\d+", str(token)) and int(token) < len(value)
        ):
            value = value[int(token)]
        else:
            return _MISSING
    return value


def _set(target: JSONObject, path: Sequence[str], value: JSONValue) -> None:
    """Put ``value`` at ``path`` in ``target``, making the objects and lists on the way."""
    node: JSONValue = target
    for token, nxt in itertools.pairwise(path):
        node = _child(node, token, nxt)
    _put(node, path[-1], value)


def _child(node: JSONValue, token: str, nxt: str) -> JSONValue:
    """``node[token]``, made first when missing: a list when ``nxt`` is an index, else an
    object."""
    if isinstance(node, list):
        return node[int(token)]
    parent = _object(node, token)
    if token not in parent:
        parent[token] = [] if re.fullmatch(r"\d+", str(nxt)) else {}
    return parent[token]


def _put(node: JSONValue, key: str, value: JSONValue) -> None:
    """``node[key] = value``; an index past the end of a list pads it with nulls."""
    if isinstance(node, list) and re.fullmatch(r"\d+", str(key)):
        index = int(key)
        node.extend([None] * (index + 1 - len(node)))
        node[index] = value
    else:
        _object(node, key)[key] = value


def _object(node: JSONValue, key: str) -> JSONObject:
    """``node``, which holds ``key``, as an object (a TypeError when it is none)."""
    if not isinstance(node, MutableMapping):
        raise TypeError(f"{key!r} needs an object, not {type(node).__name__}")
    return node


@dataclass
class _Run:
    """State of one flow run: inputs, each action's request and response, the result.
    ``dry``: a dry run, where a response nobody gave reads as a placeholder."""

    flow: Plan
    inputs: JSONObject
    responses: dict[str, JSONValue]
    requests: dict[str, JSONObject]
    result: JSONObject
    dry: bool = False


@dataclass
class _Request:
    """One action's request as it is being assembled (raw values; encoded at the end)."""

    path: str
    headers: dict[str, str] = dataclasses.field(default_factory=dict[str, str])
    params: dict[str, str] = dataclasses.field(default_factory=dict[str, str])  # auth's, raw
    cookies: dict[str, str] = dataclasses.field(default_factory=dict[str, str])  # auth's, raw
    query: list[str] = dataclasses.field(default_factory=list[str])  # encoded pieces
    cookie_pairs: list[str] = dataclasses.field(default_factory=list[str])  # encoded pieces
    query_names: set[str] = dataclasses.field(default_factory=set[str])
    cookie_names: set[str] = dataclasses.field(default_factory=set[str])

    def supplied(self, location: str, name: str) -> bool:
        """Whether the auth (or a parameter) already put ``name`` where ``location`` says."""
        if location == "header":
            return name.lower() in {k.lower() for k in self.headers}
        if location == "query":
            return name in self.params or name in self.query_names
        if location == "cookie":
            return name in self.cookies or name in self.cookie_names
        return False


class FlowRunner:
    """Plan logic shared by both flavours; the subclasses only send requests."""

    def __init__(
        self,
        plan: Plan,
        *,
        auth: Mapping[str, SourceAuth | Sequence[SourceAuth]] | None = None,
        base_urls: Mapping[str, str] | None = None,
    ) -> None:
        self.plan = expand(plan)  # each action whole: its operation merged in, once
        self.auth: dict[str, tuple[SourceAuth, ...]] = {
            source: (given,) if isinstance(given, SourceAuth) else tuple(given)
            for source, given in (auth or {}).items()
        }
        self.base_urls = dict(base_urls or {})
        unknown = sorted((set(self.auth) | set(self.base_urls)) - set(plan["sources"]))
        if unknown:
            raise ValueError(f"unknown sources {unknown}; this bundle has {plan['sources']}")

    def flow(self, name: str) -> Plan:
        """A flow by wire id or method name; a flow the planner left out, or none of that
        name, is a :class:`FlowInputError` saying why."""
        flows: Sequence[Plan] = self.plan["flows"]
        for flow in flows:
            if flow["name"] == name or flow["id"] == name:
                return flow
        dropped: Sequence[Mapping[str, str]] = self.plan.get("dropped", ())
        for left_out in dropped:
            if left_out["id"] == name:
                raise FlowInputError(
                    f"flow {name!r} was left out when the bundle was read: {left_out['reason']}",
                    flow=name,
                )
        known = ", ".join(sorted(f["id"] for f in flows)) or "none"
        raise FlowInputError(f"no flow {name!r} in this bundle (its flows: {known})", flow=name)

    def start(
        self,
        flow: Plan,
        arguments: Mapping[str, Any],
        body_variant: str | None = None,
        *,
        dry: bool = False,
        responses: Mapping[str, JSONValue] | None = None,
    ) -> _Run:
        by_arg = {i["arg"]: i for i in flow["inputs"]}
        unknown = sorted(set(arguments) - set(by_arg))
        if unknown:
            raise FlowInputError(f"{flow['id']}: unknown inputs {unknown}", flow=flow["id"])
        missing = [
            i["arg"] for i in flow["inputs"] if i["required"] and arguments.get(i["arg"]) is None
        ]
        if missing:
            raise FlowInputError(
                f"{flow['id']}: missing required inputs {missing}", flow=flow["id"]
            )
        inputs: JSONObject = {}
        for arg, value in arguments.items():
            if value is not None:
                _set(inputs, list(by_arg[arg]["origin"]), value)
        _check_variant(flow, inputs, body_variant)
        return _Run(
            flow, inputs, dict(responses or {}), {a["id"]: {} for a in flow["actions"]}, {}, dry
        )

    def _origin(self, run: _Run, link: Mapping[str, Any]) -> JSONValue | _Missing:
        path = list(link["from_path"])
        if link["from"] is None:
            return _get(run.inputs, path)  # an optional input left out is skipped
        if run.dry and link["from"] not in run.responses:
            return f"<{link['from']}:{'.'.join(map(str, path))}>"
        response: JSONObject = {"responses": {"success": run.responses.get(link["from"])}}
        value = _get(response, path)
        if value is _MISSING:
            raise FlowLinkError(
                f"flow {run.flow['id']!r}: action {link['from']!r} answered without "
                f"{'.'.join(map(str, path))!r} (link to "
                f"{link['to'] or 'the result'}.{'.'.join(map(str, link['to_path']))})",
                flow=run.flow["id"],
                action=link["from"],
            )
        return value

    def _links_into(self, run: _Run, target: str | None) -> None:
        for link in run.flow["links"]:
            if link["to"] != target:
                continue
            value = self._origin(run, link)
            if value is _MISSING:
                continue
            into = run.result if target is None else run.requests[target]
            try:
                _set(into, list(link["to_path"]), value)
            except (TypeError, IndexError, ValueError) as exc:
                raise FlowLinkError(
                    f"flow {run.flow['id']!r}: cannot put the value of a link at "
                    f"{'.'.join(map(str, link['to_path']))}: {exc}",
                    flow=run.flow["id"],
                    action=target,
                ) from None

    def request(self, http: HTTPBase, run: _Run, action: Mapping[str, Any]) -> Call:
        """The HTTP call of ``action``, its inputs gathered from the links and serialised as
        the operation says."""
        self._links_into(run, action["id"])
        given = run.requests[action["id"]]
        try:
            values = _object(given.get("parameters", {}), "parameters")
        except TypeError as exc:  # a link put something else where the parameters go
            raise FlowLinkError(
                f"flow {run.flow['id']!r}: action {action['id']!r}: {exc}",
                flow=run.flow["id"],
                action=action["id"],
            ) from None
        req = _Request(str(action["path"]))
        spare, credential = self._authenticate(action, req)
        for p in action["params"]:
            value = values.get(p["name"])
            if (
                value is None
                and p.get("credential")
                and credential is not None
                and not req.supplied(p["in"], p["name"])
            ):
                value = credential  # a credential the operation declares as a parameter
                declare_secret_name(p["name"])
            if value is None:
                if p["required"] and not req.supplied(p["in"], p["name"]):
                    raise FlowInputError(
                        f"flow {run.flow['id']!r}: action {action['id']!r} needs parameter "
                        f"{p['name']!r} ({p['in']}) and no link gives it",
                        flow=run.flow["id"],
                        action=action["id"],
                    )
                continue
            try:
                if not p.get("content_type"):  # a media type serialises it whole
                    value = declared_value(value, declared_type(self.plan, p.get("schema")))
                self._parameter(req, p, value)
            except SerialisationError as exc:
                raise FlowInputError(
                    f"flow {run.flow['id']!r}: action {action['id']!r}, parameter "
                    f"{p['name']!r} ({p['in']}): {exc}",
                    flow=run.flow["id"],
                    action=action["id"],
                ) from None
        self._security(run, action, req, spare)
        req.query += [f"{encode(k)}={encode(v)}" for k, v in req.params.items()]
        req.cookie_pairs += [f"{k}={encode(v)}" for k, v in req.cookies.items()]
        if req.cookie_pairs:
            req.headers["Cookie"] = "; ".join(req.cookie_pairs)
        base: str | None = self.base_urls.get(action["source"])
        server = (base if base is not None else str(action["server"])).rstrip("/")
        url = server + req.path + ("?" + "&".join(req.query) if req.query else "")
        body = given.get("requestBody", _MISSING)
        _check_body(run, action, body)
        content: bytes | None = None
        if body is not _MISSING and action["body"] is not None:
            plan = action["body"]
            try:
                content, req.headers["Content-Type"] = body_content(
                    str(plan["content_type"]), body, plan.get("encoding")
                )
            except SerialisationError as exc:
                raise FlowInputError(
                    f"flow {run.flow['id']!r}: action {action['id']!r}, request body: {exc}",
                    flow=run.flow["id"],
                    action=action["id"],
                ) from None
        call = http.call(
            action["method"], url, headers=req.headers, expected=tuple(range(200, 300))
        )
        return dataclasses.replace(call, json=None, content=content)

    @staticmethod
    def _parameter(req: _Request, p: Mapping[str, Any], value: JSONValue) -> None:
        """Serialise one parameter into ``req`` by its location, style and explode (or its
        ``content`` media type)."""
        name, where = str(p["name"]), str(p["in"])
        style, explode = str(p.get("style", "")), bool(p.get("explode", False))
        media = p.get("content_type")
        if where == "path":
            if media:
                text = encode(content_text(str(media), value))
            else:
                text = path_value(name, value, style or "simple", explode)
            if text in ("", ".", "..") and style in ("", "simple"):
                raise SerialisationError(f"a path segment cannot be {text!r}")
            req.path = req.path.replace("{" + name + "}", text)
        elif where == "query":
            if media:
                pieces = [f"{encode(name)}={encode(content_text(str(media), value))}"]
            else:
                pieces = query_pairs(
                    name, value, style or "form", explode, bool(p.get("allow_reserved"))
                )
            req.query += pieces
            req.query_names.add(name)
        elif where == "header":
            text = content_text(str(media), value) if media else header_value(value, explode)
            req.headers[name] = header_value(text) if media else text
        elif where == "cookie":
            if media:
                pieces = [f"{name}={encode(content_text(str(media), value))}"]
            else:
                pieces = cookie_pairs(name, value, style or "form", explode)
            req.cookie_pairs += pieces
            req.cookie_names.add(name)

    def _authenticate(
        self, action: Mapping[str, Any], req: _Request
    ) -> tuple[str | None, str | None]:
        """Apply the source's auth; return (spare, any): the secret of an auth that fills none
        of the operation's declared credentials by itself, and the secret to put in a
        credential parameter (the spare, else the first: a ``token`` parameter required
        besides a bearer scheme)."""
        auths = self.auth.get(action["source"], ())
        for auth in auths:
            auth.apply(req.headers, req.params, req.cookies)
        slots = {
            (str(p["in"]), str(p["name"]).lower()) for p in action["params"] if p.get("credential")
        }
        bearer = False
        for alternative in action.get("security", ()):
            for scheme in alternative:
                if scheme["type"] == "apiKey":
                    slots.add((str(scheme["in"]), str(scheme["name"]).lower()))
                bearer = bearer or scheme["type"] == "bearer"
        secrets = [(auth.credential(), auth.covers(slots, bearer)) for auth in auths]
        spare = next((s for s, covered in secrets if s is not None and not covered), None)
        first = next((s for s, _ in secrets if s is not None), None)
        return spare, spare if spare is not None else first

    def _security(
        self,
        run: _Run,
        action: Mapping[str, Any],
        req: _Request,
        spare: str | None,
    ) -> None:
        """Check the operation's security alternatives before sending: one must be met, an
        API key slot left open is filled from a spare secret, else FlowInputError."""
        alternatives: Sequence[Sequence[Mapping[str, str]]] = action.get("security", ())
        if not alternatives:
            return

        def met(scheme: Mapping[str, str]) -> bool:
            if scheme["type"] == "apiKey":
                return req.supplied(scheme["in"], scheme["name"])
            if scheme["type"] not in ("bearer", "basic"):
                return False  # a scheme no auth can send (the build warned)
            prefix = "Bearer " if scheme["type"] == "bearer" else "Basic "
            lower = {k.lower(): v for k, v in req.headers.items()}
            return lower.get("authorization", "").startswith(prefix)

        if any(all(met(s) for s in alt) for alt in alternatives):
            return
        if spare is not None:
            for alt in alternatives:
                missing = [s for s in alt if not met(s)]
                if len(missing) == 1 and missing[0]["type"] == "apiKey":
                    declare_secret_name(missing[0]["name"])
                    where = {"header": req.headers, "query": req.params, "cookie": req.cookies}
                    where[missing[0]["in"]][missing[0]["name"]] = spare
                    return
        wanted = " or ".join(
            " + ".join(
                f"{s['name']} ({s['in']})" if s["type"] == "apiKey" else s["type"] for s in alt
            )
            or "none"
            for alt in alternatives
        )
        raise FlowInputError(
            f"flow {run.flow['id']!r}: action {action['id']!r} needs auth for source "
            f"{action['source']!r}: {wanted}",
            flow=run.flow["id"],
            action=action["id"],
        )

    def planned(self, run: _Run, action: Mapping[str, Any], call: Call) -> PlannedRequest:
        """What a dry run reports for one action: the request, credentials masked."""
        body = call.content if isinstance(call.content, bytes) else None
        if isinstance(call.content, str):
            body = call.content.encode()
        return PlannedRequest(
            flow=str(run.flow["id"]),
            action=str(action["id"]),
            method=call.method,
            url=redact_url(call.path),
            headers=redact_headers(call.headers),
            body=body,
        )

    def received(
        self,
        run: _Run,
        action: Mapping[str, Any],
        response: httpx.Response,
        limits: Limits = DEFAULT_LIMITS,
    ) -> None:
        """Keep an action's answer: JSON parsed, anything else as text (JSON nested deeper
        than ``limits.max_json_depth`` is a :class:`FlowHTTPError`)."""
        if response.status_code == 204 or not response.content:
            run.responses[action["id"]] = None
            return
        try:
            run.responses[action["id"]] = loads(response.content, limits.max_json_depth)
        except LimitError as exc:
            raise FlowHTTPError(
                f"flow {run.flow['id']!r}, action {action['id']!r}: the answer is not usable: "
                f"{exc}",
                flow=run.flow["id"],
                action=action["id"],
                status=response.status_code,
                body=response.content[:1024],
            ) from None
        except ValueError:
            run.responses[action["id"]] = response.text

    def failed(self, run: _Run, action: Mapping[str, Any], exc: APIError) -> FlowHTTPError:
        if isinstance(exc, APIStatusError):
            return FlowHTTPError(
                f"flow {run.flow['id']!r}, action {action['id']!r}: {action['method']} "
                f"{redact_url(exc.url)} answered {exc.status_code}",
                flow=run.flow["id"],
                action=action["id"],
                status=exc.status_code,
                body=exc.body,
                cause=exc,
            )
        return FlowHTTPError(
            f"flow {run.flow['id']!r}, action {action['id']!r}: {exc}",
            flow=run.flow["id"],
            action=action["id"],
            status=None
            if isinstance(exc, APIConnectionError)
            else getattr(exc, "status_code", None),
            body=getattr(exc, "body", b""),
            cause=exc,
        )

    def finish(self, run: _Run) -> Any:
        """The flow's result: its output links, else the last action's response."""
        self._links_into(run, None)
        if any(link["to"] is None for link in run.flow["links"]):
            return run.result
        last = run.flow["actions"][-1]["id"] if run.flow["actions"] else None
        return run.responses.get(last) if last is not None else None


def _check_body(run: _Run, action: Mapping[str, Any], body: JSONValue | _Missing) -> None:
    """Refuse, before sending, a body the operation requires but nothing gave, or a call the
    build warned about: a body field the operation requires that no link gives."""
    plan = action["body"]
    if plan is None:
        return
    missing = [f"body field {f!r}" for f in action.get("unfilled_body_fields", ())]
    if body is _MISSING and plan["required"]:
        missing.insert(0, "the request body")
    if missing:
        raise FlowInputError(
            f"flow {run.flow['id']!r}: action {action['id']!r} needs {', '.join(missing)} and "
            "no link gives it",
            flow=run.flow["id"],
            action=action["id"],
        )


def _check_variant(flow: Plan, inputs: JSONObject, named: str | None = None) -> None:
    """A body with ``oneOf`` branches: the given fields must fit exactly one branch, or the
    branch the caller ``named``."""
    variants: Sequence[Mapping[str, Any]] = flow.get("body_variants", ())
    if not variants:
        if named is not None:
            raise FlowInputError(f"{flow['id']}: its body has no branches", flow=flow["id"])
        return
    if named is not None:
        chosen = [v for v in variants if v["name"] == named]
        if not chosen:
            names = [v["name"] for v in variants]
            raise FlowInputError(
                f"{flow['id']}: unknown body branch {named!r}; the branches are {names}",
                flow=flow["id"],
            )
        variants = chosen
    body = inputs.get("requestBody")
    given: set[str] = {str(k) for k in body} if isinstance(body, dict) else set()
    fits = [
        v["name"] for v in variants if set(v["required"]) <= given and given <= set(v["fields"])
    ]
    if len(fits) == 1:
        return
    options = "; ".join(f"{v['name']!r} (requires {', '.join(v['required'])})" for v in variants)
    raise FlowInputError(
        f"{flow['id']}: the body fields {sorted(given)} fit "
        f"{'no' if not fits else 'more than one'} branch of the request body; give exactly "
        f"the fields of one of: {options}",
        flow=flow["id"],
    )


def as_result(model: Callable[[Any], M], value: Any, flow: str = "") -> M:
    """The typed result (a JSON object, or ``{"value": ...}`` for anything else); one that
    does not fit the model is a :class:`FlowResultError`."""
    from pydantic import ValidationError

    try:
        return model(value if isinstance(value, dict) else {"value": value})
    except ValidationError as exc:
        errors: list[Mapping[str, Any]] = list(exc.errors(include_url=False, include_input=False))
        first: Mapping[str, Any] = errors[0] if errors else {"loc": (), "msg": str(exc)}
        where = ".".join(str(part) for part in first.get("loc", ())) or "the result"
        raise FlowResultError(
            f"flow {flow or '?'}: the result does not fit its model: {where}: {first.get('msg')}"
            + (f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""),
            flow=flow,
            errors=errors,
            value=value,
        ) from None


class AsyncFlows:
    """The flow client over ``AsyncHTTP``: the base of each generated flow class."""

    PLAN: ClassVar[Plan] = {"bundle": "", "title": "", "sources": (), "flows": ()}

    def __init__(
        self,
        *,
        auth: Mapping[str, SourceAuth | Sequence[SourceAuth]] | None = None,
        base_urls: Mapping[str, str] | None = None,
        timeout: TimeoutTypes = 30.0,
        retry: RetryPolicy | None = None,
        http_client: httpx.AsyncClient | None = None,
        limits: Limits | None = None,
    ) -> None:
        self._runner = FlowRunner(self._flow_plan(), auth=auth, base_urls=base_urls)
        self._http = AsyncHTTP(
            "http://localhost/",
            timeout=timeout,
            retry=retry,
            http_client=http_client,
            limits=limits,
            secrets=tuple(
                secret
                for auths in self._runner.auth.values()
                for auth in auths
                for secret in auth.secrets()
            ),
        )

    def _flow_plan(self) -> Plan:
        """The plan this client runs: the class's ``PLAN`` (a bundle loaded at run time
        gives its own)."""
        return self.PLAN

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} sources={sorted(self._runner.auth)} auth set>"

    @property
    def plan(self) -> Plan:
        """The execution plan this client runs (plain data)."""
        return self._runner.plan

    def dry_run(
        self,
        name: str,
        arguments: Mapping[str, Any],
        *,
        body_variant: str | None = None,
        responses: Mapping[str, Any] | None = None,
    ) -> list[PlannedRequest]:
        """The requests ``run_flow(name, arguments)`` would send, one per action, without
        sending anything. The same checks run (inputs, body branch, auth, required
        parameters). A value an earlier action's response would give reads
        ``<action:responses.success...>`` unless ``responses`` (action id -> its JSON
        response) gives it."""
        runner = self._runner
        run = runner.start(
            runner.flow(name), arguments, body_variant, dry=True, responses=responses
        )
        planned: list[PlannedRequest] = []
        for action in run.flow["actions"]:
            call = runner.request(self._http, run, action)
            planned.append(runner.planned(run, action, call))
        return planned

    def function_tools(self, *, prefix: str = "") -> list[FunctionTool]:
        """The flows as tools for ``agentproto.llm`` ``run_tools``, run by this client (its
        auth): named ``prefix`` + the flow id, described and typed as in ``TOOLS`` less the
        inputs that are credentials (a model never supplies or reads them). A flow's failure
        (``FlowError``) is told to the model as the tool's error; the tools of an async
        client are ``async``."""
        from agentproto.llm.tool_loop import schema_tool, tool_name

        return [
            schema_tool(
                tool_name(prefix, str(definition["name"])),
                str(definition["description"]),
                definition["parameters"],
                self._flow_tool(str(definition["name"])),
            )
            for definition in model_tool_definitions(self.plan)
        ]

    def _flow_tool(self, flow_id: str) -> Callable[..., Any]:
        from agentproto.llm.tool_loop import ToolError

        async def run(**arguments: Any) -> Any:
            try:
                return await self.run_flow(flow_id, arguments)
            except FlowError as exc:
                raise ToolError(str(exc)) from None

        return run

    async def run_flow(
        self, name: str, arguments: Mapping[str, Any], *, body_variant: str | None = None
    ) -> Any:
        """Run a flow by id or function name; returns the raw result (JSON data).
        ``body_variant`` names the ``oneOf`` branch of the flow's body (default: the one the
        given fields fit)."""
        runner = self._runner
        run = runner.start(runner.flow(name), arguments, body_variant)
        telemetry = shared(INSTRUMENTATION)
        flow_id = str(run.flow["id"])
        with telemetry.span(f"flow {flow_id}", {"flows.flow.id": flow_id}):
            for action in run.flow["actions"]:
                call = runner.request(self._http, run, action)
                with telemetry.span(
                    f"action {action.get('id') or action.get('operationId')}",
                    {
                        "flows.action.id": action.get("id"),
                        "flows.action.operation_id": action.get("operationId"),
                        "http.request.method": call.method,
                    },
                    kind="client",
                ) as span:
                    try:
                        response = await self._http.send(call, stream=False)
                    except APIError as exc:
                        status = getattr(exc, "status_code", None)
                        span.set("http.response.status_code", status)
                        raise runner.failed(run, action, exc) from None
                    span.set("http.response.status_code", response.status_code)
                runner.received(run, action, response, self._http.limits)
            return runner.finish(run)


def model_tool_definitions(plan: Plan) -> Iterator[dict[str, Any]]:
    """:func:`tool_definitions` less the inputs that are credentials (``token``,
    ``apiKey``...): what a model is shown (the client holds the auth)."""
    for definition, flow in zip(tool_definitions(plan), plan["flows"], strict=True):
        hidden = {i["arg"] for i in flow["inputs"] if i.get("credential")}
        parameters = dict(definition["parameters"])
        parameters["properties"] = {
            k: v for k, v in parameters["properties"].items() if k not in hidden
        }
        parameters["required"] = [r for r in parameters["required"] if r not in hidden]
        yield {**definition, "parameters": parameters}


def tool_definitions(plan: Plan) -> Iterator[dict[str, Any]]:
    """Each flow as an LLM tool definition: name, description and a JSON Schema of its inputs."""
    for flow in plan["flows"]:
        properties = {}
        for i in flow["inputs"]:
            schema = dict(i["schema"])
            if i["description"]:
                schema["description"] = i["description"]
            properties[i["arg"]] = schema
        description = flow["description"] or flow["title"]
        variants: Sequence[Mapping[str, Any]] = flow.get("body_variants", ())
        if variants:
            description += " Give the fields of exactly one of: " + "; ".join(
                f"{v['name']} ({', '.join(v['required'])})" for v in variants
            )
        yield {
            "name": flow["id"],
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": [i["arg"] for i in flow["inputs"] if i["required"]],
                "additionalProperties": False,
            },
        }
