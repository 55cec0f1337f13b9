"""Conformance kit: check a live AAP server against the protocol's rules (hand-written).

Run::

    python -m agentproto.aap.conformance https://agents.example.com/v1 --api-key KEY [--json]

It reads ``GET /meta``, picks an agent (``--agent``, else the first), and goes through every
endpoint: creates sessions (one with a secret option when the agent declares one), reads them
back, lists them page by page, reads each declared history type and an undeclared one, sends
one turn in each stream mode the agent declares (a short user message; ``--no-turns`` skips
them, for an agent whose turns cost money), changes an option in a turn, deletes what it
created, and probes unknown sessions. Every check is one rule of the protocol (the section is
the page of the AAP docs it comes from), with its level: MUST (the docs say must, or the
schema requires it), SHOULD (the reference server's behaviour that clients rely on) or MAY.
The report is text, or JSON with ``--json``; the exit status is 1 when a MUST fails, 2 when
the server cannot be reached, else 0. The API key is sent to the server only and never
printed. Tool calls are not checked: whether an agent calls a tool is the agent's choice.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from collections.abc import Sequence
from typing import Any, cast

import httpx
import pydantic

from agentproto._runtime.conformance import (
    Check,
    Checks,
    Report,
    as_list,
    as_object,
    finish,
    json_of,
    reaching,
)
from agentproto._runtime.sse import SSEDecoder
from agentproto.aap.models import (
    DeltaSSEEvent,
    GetMetaResponse,
    GetSessionHistoryResponse,
    GetSessionResponse,
    GetSessionsResponse,
    HistoryMessage,
    MessageSSEEvent,
    PostSessionsResponse,
    PostSessionTurnResponse,
)

__all__ = ["Check", "Conformance", "Report", "main", "run"]

STOP_REASONS = ("end_turn", "tool_use", "max_tokens", "refusal", "error")
PROMPT = "This is an AAP conformance check. Please answer with one short sentence."
_MAX_PAGES = 200


class _History(pydantic.BaseModel):
    messages: list[HistoryMessage]


def _problem(model: type[pydantic.BaseModel], data: Any) -> str | None:
    """Why ``data`` is not a valid ``model`` (None: it is)."""
    try:
        model.model_validate(data)
    except pydantic.ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = "/" + "/".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}"
    return None


def _events(response: httpx.Response) -> list[tuple[str, Any]]:
    """The SSE events of a finished response, as (name, parsed data or the raw text)."""
    decoder = SSEDecoder()
    found: list[tuple[str, Any]] = []
    for event in [*decoder.feed(response.content), *decoder.close()]:
        try:
            data: Any = json.loads(event.data)
        except ValueError:
            data = event.data
        found.append((event.event or "message", data))
    return found


class Conformance(Checks):
    """Runs the checks against ``base_url`` with ``client``; ``run()`` returns the report."""

    def __init__(
        self,
        base_url: str,
        client: httpx.Client,
        *,
        api_key: str | None = None,
        agent: str | None = None,
        turns: bool = True,
    ) -> None:
        super().__init__(Report(base_url.rstrip("/"), protocol="AAP"))
        self.base_url: str = base_url.rstrip("/")
        self.client: httpx.Client = client
        self._api_key = api_key
        self.agent_name: str | None = agent
        self.turns: bool = turns
        self._created: list[str] = []

    def __repr__(self) -> str:
        return f"<Conformance {self.base_url!r}>"

    def _headers(self, key: str | None = None) -> dict[str, str]:
        key = key if key is not None else self._api_key
        return {"Authorization": f"Bearer {key}"} if key else {}

    def _call(
        self, method: str, path: str, *, json_body: Any = None, key: str | None = None, **kw: Any
    ) -> httpx.Response:
        headers = self._headers(key)
        if json_body is not None:
            return self.client.request(
                method, self.base_url + path, json=json_body, headers=headers, **kw
            )
        return self.client.request(method, self.base_url + path, headers=headers, **kw)

    # -- the checks ---------------------------------------------------------------------------

    def run(self) -> Report:
        agent = self.meta()
        self.auth()
        if agent is not None:
            sid = self.sessions(agent)
            self.listing()
            if sid is not None:
                if self.turns:
                    self.turn_modes(agent, sid)
                    self.overrides(agent, sid)
                else:
                    for rule in self._turn_rules():
                        rule(None, "--no-turns")
                self.history(agent, sid)
            self.unknown_sessions()
            self.deletion()
        return self.report

    def meta(self) -> dict[str, Any] | None:
        found = self.check("meta.ok", "MUST", "endpoints", "GET /meta answers 200 with JSON")
        version = self.check("meta.version", "MUST", "endpoints", "GET /meta says version 3")
        valid = self.check("meta.valid", "MUST", "schema", "GET /meta matches GetMetaResponse")
        unique = self.check("meta.unique-agents", "MUST", "endpoints", "agent names are unique")
        open_ = self.check("meta.open", "MAY", "endpoints", "GET /meta answers without auth")
        anonymous = self._call("GET", "/meta", key="")
        open_(anonymous.status_code == 200, f"HTTP {anonymous.status_code}")
        response = anonymous if anonymous.status_code == 200 else self._call("GET", "/meta")
        body = as_object(json_of(response))
        found(response.status_code == 200 and body is not None, f"HTTP {response.status_code}")
        if body is None:
            for record in (version, valid, unique):
                record(None, "no /meta to look at")
            return None
        version(body.get("version") == 3, f"version {body.get('version')!r}")
        problem = _problem(GetMetaResponse, {**body, "version": 3})  # version: its own rule
        valid(problem is None, problem or "")
        agents = [a for a in (as_object(x) for x in as_list(body.get("agents"))) if a]
        names = [str(a.get("name")) for a in agents]
        unique(len(set(names)) == len(names) if names else None, f"agents: {names}")
        if not agents:
            return None
        if self.agent_name is None:
            return agents[0]
        chosen = next((a for a in agents if a.get("name") == self.agent_name), None)
        if chosen is None:
            found(False, f"no agent named {self.agent_name!r} in /meta")
        return chosen

    def auth(self) -> None:
        missing = self.check(
            "auth.missing", "SHOULD", "endpoints", "GET /sessions without credentials answers 401"
        )
        wrong = self.check(
            "auth.invalid", "SHOULD", "endpoints", "GET /sessions with an unknown key answers 401"
        )
        response = self._call("GET", "/sessions", key="")
        missing(response.status_code == 401, f"HTTP {response.status_code}")
        bogus = f"aap-conformance-invalid-{uuid.uuid4().hex}"
        response = self._call("GET", "/sessions", key=bogus)
        wrong(response.status_code == 401, f"HTTP {response.status_code}")

    def _options(self, agent: dict[str, Any], kind: str) -> list[dict[str, Any]]:
        return [
            o
            for o in (as_object(x) for x in as_list(agent.get("options")))
            if o and o.get("type") == kind
        ]

    def _create(self, agent: dict[str, Any], **extra: Any) -> httpx.Response:
        response = self._call(
            "POST", "/sessions", json_body={"agent": {"name": agent.get("name"), **extra}}
        )
        sid = (as_object(json_of(response)) or {}).get("sessionId")
        if isinstance(sid, str):
            self._created.append(sid)
        return response

    def sessions(self, agent: dict[str, Any]) -> str | None:
        created = self.check(
            "sessions.create", "MUST", "endpoints", "POST /sessions answers 201 {sessionId}"
        )
        read = self.check(
            "sessions.get", "MUST", "endpoints", "GET /sessions/{id} answers 200 with the session"
        )
        secret = self.check(
            "sessions.secret-redacted",
            "MUST",
            "endpoints",
            "a secret option's value is never returned as plaintext",
        )
        response = self._create(agent)
        body = as_object(json_of(response))
        sid = (body or {}).get("sessionId")
        problem = _problem(PostSessionsResponse, body)
        created(
            response.status_code == 201 and problem is None,
            f"HTTP {response.status_code}" + (f": {problem}" if problem else ""),
        )
        if not isinstance(sid, str):
            read(None, "no session was created")
            secret(None, "no session was created")
            return None
        got = self._call("GET", f"/sessions/{sid}")
        info = as_object(json_of(got)) or {}
        problem = _problem(GetSessionResponse, info)
        same = info.get("sessionId") == sid and (as_object(info.get("agent")) or {}).get(
            "name"
        ) == agent.get("name")
        read(
            got.status_code == 200 and problem is None and same,
            f"HTTP {got.status_code}"
            + (f": {problem}" if problem else "" if same else ": another session"),
        )
        secrets = self._options(agent, "secret")
        if not secrets:
            secret(None, "the agent declares no secret option")
            return sid
        value = f"aap-conformance-secret-{uuid.uuid4().hex}"
        name = str(secrets[0].get("name"))
        made = self._create(agent, options={name: value})
        secret_sid = (as_object(json_of(made)) or {}).get("sessionId")
        if not isinstance(secret_sid, str):
            secret(None, f"a session with option {name} was not created (HTTP {made.status_code})")
            return sid
        shown = self._call("GET", f"/sessions/{secret_sid}").text + self._list_text()
        secret(value not in shown, f"option {name!r} shown as plaintext" if value in shown else "")
        return sid

    def _list_text(self) -> str:
        return "".join(self._pages()[1])

    def _pages(self) -> tuple[list[dict[str, Any]], list[str], list[str]]:
        """Follow ``next``: the sessions seen, the raw pages, and the problems found."""
        sessions: list[dict[str, Any]] = []
        texts: list[str] = []
        problems: list[str] = []
        cursors: set[str] = set()
        after: str | None = None
        for _ in range(_MAX_PAGES):
            response = self._call("GET", "/sessions", params={"after": after} if after else {})
            texts.append(response.text)
            body = as_object(json_of(response))
            if response.status_code != 200 or body is None:
                problems.append(f"page {len(texts)}: HTTP {response.status_code}")
                break
            problem = _problem(GetSessionsResponse, body)
            if problem:
                problems.append(f"page {len(texts)}: {problem}")
            sessions += [s for s in (as_object(x) for x in as_list(body.get("sessions"))) if s]
            after = body.get("next") if isinstance(body.get("next"), str) else None
            if after is None:
                break
            if after in cursors:
                problems.append(f"cursor {after!r} came back: the pages loop")
                break
            cursors.add(after)
        else:
            problems.append(f"still a next cursor after {_MAX_PAGES} pages")
        return sessions, texts, problems

    def listing(self) -> None:
        listed = self.check(
            "sessions.list",
            "MUST",
            "endpoints",
            "GET /sessions answers 200 with GetSessionsResponse pages",
        )
        pages = self.check(
            "sessions.pagination",
            "MUST",
            "endpoints",
            "following next ends (next absent on the last page) and lists each session once",
        )
        found = self.check(
            "sessions.list-complete", "MUST", "endpoints", "every session created is listed"
        )
        sessions, _, problems = self._pages()
        status_problems = [p for p in problems if "HTTP" in p or ": /" in p]
        listed(not status_problems, "; ".join(status_problems[:3]))
        ids = [str(s.get("sessionId")) for s in sessions]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        loops = [p for p in problems if p not in status_problems]
        pages(
            not loops and not twice,
            "; ".join(loops[:2]) + (f" listed twice: {twice[:3]}" if twice else ""),
        )
        missing = [s for s in self._created if s not in ids]
        found(
            not missing if self._created else None, f"not listed: {missing[:3]}" if missing else ""
        )

    def _turn_rules(self) -> list[Any]:
        return [
            self.check(
                "turn.none",
                "MUST",
                "response",
                "stream none answers 200 JSON PostSessionTurnResponse",
            ),
            self.check(
                "turn.delta",
                "MUST",
                "response",
                "stream delta answers an SSE stream of delta-mode events",
            ),
            self.check(
                "turn.message",
                "MUST",
                "response",
                "stream message answers an SSE stream of message-mode events",
            ),
            self.check(
                "turn.start-stop",
                "MUST",
                "response",
                "a stream starts with turn_start and ends with one turn_stop",
            ),
            self.check("turn.stop-reason", "MUST", "schema", "stopReason is one of the protocol's"),
        ]

    def turn_modes(self, agent: dict[str, Any], sid: str) -> None:
        none, delta, message, ends, reasons = self._turn_rules()
        declared = as_object((as_object(agent.get("capabilities")) or {}).get("stream"))
        modes = set(declared) if declared is not None else {"none"}
        stops: list[str] = []
        framing: list[str] = []
        if "none" in modes:
            response = self._call(
                "POST",
                f"/sessions/{sid}/turns",
                json_body={"messages": [{"role": "user", "content": PROMPT}]},
            )
            body = as_object(json_of(response))
            problem = _problem(PostSessionTurnResponse, body)
            kind = response.headers.get("content-type", "")
            none(
                response.status_code == 200
                and kind.startswith("application/json")
                and problem is None,
                f"HTTP {response.status_code} {kind}" + (f": {problem}" if problem else ""),
            )
            if body is not None:
                stops.append(str(body.get("stopReason")))
        else:
            none(None, "the agent does not declare stream none")
        for mode, record, union in (
            ("delta", delta, DeltaSSEEvent),
            ("message", message, MessageSSEEvent),
        ):
            if mode not in modes:
                record(None, f"the agent does not declare stream {mode}")
                continue
            response = self._call(
                "POST",
                f"/sessions/{sid}/turns",
                json_body={"stream": mode, "messages": [{"role": "user", "content": PROMPT}]},
            )
            kind = response.headers.get("content-type", "")
            events = _events(response) if kind.startswith("text/event-stream") else []
            wrong: list[str] = []
            for name, data in events:
                found = as_object(data)
                payload: Any = {**found, "event": name} if found is not None else data
                if _problem(union, payload) is not None:
                    wrong.append(name)
            record(
                response.status_code == 200 and kind.startswith("text/event-stream") and not wrong,
                f"HTTP {response.status_code} {kind}"
                + (f"; not {mode}-mode events: {wrong[:3]}" if wrong else ""),
            )
            names = [n for n, _ in events]
            if (
                names[:1] != ["turn_start"]
                or names[-1:] != ["turn_stop"]
                or names.count("turn_stop") != 1
            ):
                framing.append(f"{mode}: {names[:2]}...{names[-2:]}")
            for name, data in events:
                stop = as_object(data) if name == "turn_stop" else None
                if stop is not None:
                    stops.append(str(stop.get("stopReason")))
        tried = bool(modes & {"delta", "message"})
        ends(not framing if tried else None, "; ".join(framing))
        bad = [s for s in stops if s not in STOP_REASONS]
        reasons(not bad if stops else None, f"stop reasons: {stops}")

    def overrides(self, agent: dict[str, Any], sid: str) -> None:
        persisted = self.check(
            "turn.overrides-persist",
            "MUST",
            "endpoints",
            "a turn's agent.options are merged into the session and kept",
        )
        candidates = [
            o for o in self._options(agent, "select") if len(as_list(o.get("options"))) > 1
        ] + self._options(agent, "text")
        if not candidates:
            persisted(None, "the agent declares no text or select option")
            return
        option = candidates[0]
        name = str(option.get("name"))
        choices = [str(c) for c in as_list(option.get("options"))]
        value = next((c for c in choices if c != option.get("default")), "aap-conformance")
        modes = as_object((as_object(agent.get("capabilities")) or {}).get("stream")) or {
            "none": {}
        }
        mode = "none" if "none" in modes else next(iter(modes))
        response = self._call(
            "POST",
            f"/sessions/{sid}/turns",
            json_body={
                "agent": {"options": {name: value}},
                "stream": mode,
                "messages": [{"role": "user", "content": PROMPT}],
            },
        )
        info = as_object(json_of(self._call("GET", f"/sessions/{sid}"))) or {}
        shown = (as_object((as_object(info.get("agent")) or {}).get("options")) or {}).get(name)
        persisted(
            response.status_code == 200 and shown == value,
            f"turn HTTP {response.status_code}; option {name} reads {shown!r}, sent {value!r}",
        )

    def history(self, agent: dict[str, Any], sid: str) -> None:
        declared_rule = self.check(
            "history.declared",
            "MUST",
            "history",
            "each declared history type answers 200 with history.<type>: messages",
        )
        undeclared_rule = self.check(
            "history.undeclared",
            "MUST",
            "endpoints",
            "a history type the agent does not declare answers 404",
        )
        full_rule = self.check(
            "history.full-exact",
            "MUST",
            "history",
            "the full history holds the user messages sent, unaltered",
        )
        missing_rule = self.check(
            "history.type-required", "SHOULD", "endpoints", "GET history without type answers 400"
        )
        declared = as_object((as_object(agent.get("capabilities")) or {}).get("history")) or {}
        problems: list[str] = []
        for kind in ("compacted", "full"):
            response = self._call("GET", f"/sessions/{sid}/history", params={"type": kind})
            if kind not in declared:
                undeclared_rule(
                    response.status_code == 404, f"type={kind}: HTTP {response.status_code}"
                )
                continue
            body = as_object(json_of(response))
            problem = _problem(GetSessionHistoryResponse, body)
            history = as_list((as_object((body or {}).get("history")) or {}).get(kind))
            if (
                response.status_code != 200
                or problem
                or kind not in ((body or {}).get("history") or {})
            ):
                problems.append(f"type={kind}: HTTP {response.status_code} {problem or ''}".strip())
            if kind == "full":
                if not self.turns:
                    full_rule(None, "--no-turns: nothing was sent")
                    continue
                users = [
                    m.get("content")
                    for m in (as_object(x) for x in history)
                    if m and m.get("role") == "user"
                ]
                full_rule(PROMPT in users, f"user messages in the full history: {len(users)}")
                if _problem(_History, {"messages": history}) is not None:
                    problems.append("type=full: a message is not a HistoryMessage")
        if "full" not in declared:
            full_rule(None, "the agent keeps no full history")
        if len(declared) == 2:
            undeclared_rule(None, "the agent declares both types")
        declared_rule(not problems if declared else None, "; ".join(problems[:3]))
        response = self._call("GET", f"/sessions/{sid}/history")
        missing_rule(response.status_code == 400, f"HTTP {response.status_code}")

    def unknown_sessions(self) -> None:
        rules = {
            "GET": self.check(
                "sessions.get-unknown", "MUST", "endpoints", "GET an unknown session answers 404"
            ),
            "DELETE": self.check(
                "sessions.delete-unknown",
                "MUST",
                "endpoints",
                "DELETE an unknown session answers 404",
            ),
            "POST": self.check(
                "turn.unknown-session",
                "MUST",
                "endpoints",
                "a turn for an unknown session answers 404",
            ),
            "HISTORY": self.check(
                "history.unknown-session",
                "MUST",
                "endpoints",
                "the history of an unknown session answers 404",
            ),
        }
        shape = self.check(
            "errors.json", "SHOULD", "endpoints", 'a 404 body is JSON {"error": string}'
        )
        sid = f"aap-conformance-missing-{uuid.uuid4().hex}"
        answers = {
            "GET": self._call("GET", f"/sessions/{sid}"),
            "DELETE": self._call("DELETE", f"/sessions/{sid}"),
            "POST": self._call(
                "POST",
                f"/sessions/{sid}/turns",
                json_body={"messages": [{"role": "user", "content": PROMPT}]},
            ),
            "HISTORY": self._call("GET", f"/sessions/{sid}/history", params={"type": "full"}),
        }
        for key, response in answers.items():
            rules[key](response.status_code == 404, f"HTTP {response.status_code}")
        bodies = [as_object(json_of(r)) for r in answers.values() if r.status_code == 404]
        good = all(b is not None and isinstance(b.get("error"), str) for b in bodies)
        shape(good if bodies else None, "" if good else 'a 404 body is not {"error": ...}')

    def deletion(self) -> None:
        deleted = self.check(
            "sessions.delete",
            "MUST",
            "endpoints",
            "DELETE /sessions/{id} answers 204, and the session is gone",
        )
        problems: list[str] = []
        for sid in self._created:
            response = self._call("DELETE", f"/sessions/{sid}")
            after = self._call("GET", f"/sessions/{sid}")
            if response.status_code != 204 or after.status_code != 404:
                problems.append(
                    f"{sid}: DELETE {response.status_code}, then GET {after.status_code}"
                )
        deleted(not problems if self._created else None, "; ".join(problems[:3]))


def run(
    base_url: str,
    *,
    api_key: str | None = None,
    agent: str | None = None,
    turns: bool = True,
    timeout: float = 60.0,
) -> Report:
    """Check the server at ``base_url``. Raises ``agentproto.errors.APIConnectionError``
    (``APITimeoutError`` for a timeout) when it cannot be reached, ``APIError`` when a run
    stops on another HTTP failure."""
    with reaching(base_url), httpx.Client(timeout=timeout, follow_redirects=False) as client:
        return Conformance(base_url, client, api_key=api_key, agent=agent, turns=turns).run()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agentproto.aap.conformance",
        description="Check a live AAP server against the protocol's MUST/SHOULD/MAY rules.",
    )
    parser.add_argument("base_url", help="the server's base URL (where /meta lives)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--api-key", help="the API key (Authorization: Bearer)")
    parser.add_argument("--agent", help="the agent to check (default: the first in /meta)")
    parser.add_argument("--no-turns", action="store_true", help="send no turn (they may cost)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per request")
    args = parser.parse_args(argv)
    base_url = str(args.base_url)
    if "://" not in base_url:
        base_url = "https://" + base_url
    return finish(
        lambda: run(
            base_url,
            api_key=cast("str | None", args.api_key),
            agent=cast("str | None", args.agent),
            turns=not args.no_turns,
            timeout=float(args.timeout),
        ),
        as_json=bool(args.json),
    )


if __name__ == "__main__":
    sys.exit(main())
