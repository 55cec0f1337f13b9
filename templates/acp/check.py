"""ACP conformance checker: drive a live agent through the protocol's rules (hand-written).

Run::

    python -m agentproto.acp.check [--json] [--timeout S] -- <agent command> [args...]
    python -m agentproto.acp.check [--json] --url http://host:port/acp [--token T]
    python -m agentproto.acp.check [--json] --url ws://host:port/acp [--token T]

It starts the agent (or connects to it by URL, over Streamable HTTP or WebSocket), then speaks
raw JSON-RPC to it as an editor would: ``initialize``, ``session/new``, a prompt (watching its
``session/update`` notifications), a cancelled prompt, unknown methods and notifications,
malformed params, an unknown session, and hostile lines (not JSON, not an object, a batch, no
``"jsonrpc"``). Each check is one rule, with its level (MUST / SHOULD) and the section of the
ACP documentation it comes from. What it can, it takes from the spec rather than from this
file: the method names and the capability each method needs come from the generated route
table (:data:`agentproto.acp.connection.EDITION`), answers are validated against the schema's
models, error codes come from the JSON-RPC error classes. So a schema refresh that adds a
capability-gated method adds its check.

The report is text, or JSON with ``--json`` (the same classes as the other kits,
:mod:`agentproto._runtime.conformance`). Exit status: 1 when a MUST fails, 2 when the agent
cannot be started or reached at all, else 0. The checker advertises no client capabilities
(no file system, no terminal): an agent that calls those anyway breaks a MUST.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from agentproto._runtime.conformance import Checks, Level, Report, as_object, finish
from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.json_types import JSONValue
from agentproto._runtime.jsonrpc import (
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    ParseError,
    command_line,
)
from agentproto.acp.connection import EDITION, PROTOCOL_VERSION

__all__ = [
    "Channel",
    "CheckOptions",
    "StdioChannel",
    "check_agent",
    "check_url",
    "main",
    "run_checks",
]

DEFAULT_TIMEOUT = 10.0
MAX_LINE = 16 * 1024 * 1024  # bytes: a longer line from the agent ends the check (no memory pin)
_CANCEL_WORDS = 400  # the default cancel probe: long enough that an echoing agent is still busy


class Channel(Protocol):
    """A raw line channel to an agent: what the checker writes is exactly what the agent
    reads (one JSON-RPC message, or a hostile line, per :meth:`send`)."""

    async def send(self, line: bytes) -> None: ...

    async def receive(self) -> bytes | None:
        """The agent's next message (one line), or ``None`` when it went away."""
        ...

    async def close(self) -> None: ...


class StdioChannel:
    """An agent subprocess, spoken to over its stdin/stdout (its stderr is discarded)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process

    @classmethod
    async def spawn(cls, command: Sequence[str]) -> StdioChannel:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            limit=MAX_LINE,
            start_new_session=True,
        )
        return cls(process)

    async def send(self, line: bytes) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        stdin.write(line if line.endswith(b"\n") else line + b"\n")
        await stdin.drain()

    async def receive(self) -> bytes | None:
        stdout = self._process.stdout
        assert stdout is not None
        try:
            line = await stdout.readline()
        except (ValueError, asyncio.LimitOverrunError):  # a line over MAX_LINE
            return None
        return line or None

    async def close(self) -> None:
        process = self._process
        if process.stdin is not None:
            with contextlib.suppress(Exception):
                process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 2.0)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 15)
            try:
                await asyncio.wait_for(process.wait(), 2.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, 9)
                await process.wait()


@dataclass
class CheckOptions:
    """What the checker sends: ``prompt`` for the plain turn, ``cancel_prompt`` for the turn
    it cancels (by default a long text, so that an echoing agent is still busy), ``cwd`` the
    session's working directory; ``timeout`` bounds every wait (seconds)."""

    timeout: float = DEFAULT_TIMEOUT
    prompt: str = "Hello from the ACP conformance checker"
    cancel_prompt: str = " ".join(["cancel"] * _CANCEL_WORDS)
    cwd: str = field(default_factory=os.getcwd)


class _Gone(AgentprotoError):
    """The agent went away (or sent a line too long to keep)."""


class _Timeout(AgentprotoError):
    """The agent did not answer within the timeout."""


@dataclass
class _Answer:
    """A response, with the notifications and agent requests that arrived before it."""

    message: dict[str, JSONValue]
    updates: list[dict[str, JSONValue]]

    @property
    def error_code(self) -> int | None:
        error = as_object(self.message.get("error"))
        code = error.get("code") if error is not None else None
        return code if isinstance(code, int) and not isinstance(code, bool) else None

    @property
    def result(self) -> JSONValue:
        return self.message.get("result")

    @property
    def is_result(self) -> bool:
        return "result" in self.message and "error" not in self.message


class _Probe:
    """The editor's side, raw: ids, collecting ``session/update`` notifications, answering
    the agent's requests (a permission request is answered "cancelled"; anything else
    -32601, since the checker advertises no client capability), and noting every method the
    agent called."""

    def __init__(self, channel: Channel, timeout: float) -> None:
        self.channel = channel
        self.timeout = timeout
        self._next = 0
        self.agent_calls: list[str] = []  # methods of the agent's requests, in order
        self.stray: list[dict[str, JSONValue]] = []  # answers to ids never sent
        self.gone = False

    def new_id(self) -> int:
        self._next += 1
        return self._next

    async def send(self, message: dict[str, JSONValue] | bytes) -> None:
        line = message if isinstance(message, bytes) else json.dumps(message).encode()
        try:
            await asyncio.wait_for(self.channel.send(line), self.timeout)
        except (OSError, ConnectionError, TimeoutError) as exc:
            self.gone = True
            raise _Gone(str(exc)) from exc

    async def _next_message(self, deadline: float) -> dict[str, JSONValue] | None:
        """The next message, or None for a line that is not a JSON object (kept in stray)."""
        loop = asyncio.get_running_loop()
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise _Timeout
        try:
            line = await asyncio.wait_for(self.channel.receive(), remaining)
        except TimeoutError:
            raise _Timeout from None
        if line is None:
            self.gone = True
            raise _Gone("the agent closed the connection")
        try:
            parsed: JSONValue = json.loads(line)
        except ValueError:
            self.stray.append({"unparsed": line[:200].decode("utf-8", "replace")})
            return None
        found = as_object(parsed)
        if found is None:
            self.stray.append({"unparsed": line[:200].decode("utf-8", "replace")})
        return found

    async def _answer_agent(self, message: dict[str, JSONValue]) -> None:
        method = message.get("method")
        assert isinstance(method, str)
        self.agent_calls.append(method)
        reply: dict[str, JSONValue] = {"jsonrpc": "2.0", "id": message.get("id")}
        if method == "session/request_permission":
            reply["result"] = {"outcome": {"outcome": "cancelled"}}
        else:
            reply["error"] = {"code": MethodNotFound.code, "message": "not offered"}
        await self.send(reply)

    async def wait_for(self, wanted: JSONValue, *, timeout: float | None = None) -> _Answer:
        """Read until the response with id ``wanted``; notifications are collected."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (self.timeout if timeout is None else timeout)
        updates: list[dict[str, JSONValue]] = []
        while True:
            message = await self._next_message(deadline)
            if message is None:
                continue
            if "method" in message:
                if "id" in message:
                    await self._answer_agent(message)
                else:
                    updates.append(message)
                continue
            if message.get("id") == wanted:
                return _Answer(message, updates)
            self.stray.append(message)

    async def call(
        self, method: str, params: JSONValue, *, timeout: float | None = None
    ) -> _Answer:
        request_id = self.new_id()
        request: dict[str, JSONValue] = {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": method,
            "params": params,
        }
        await self.send(request)
        return await self.wait_for(request_id, timeout=timeout)


def _validates(model: str, value: JSONValue) -> str | None:
    """Why ``value`` is not a valid ``model`` of the schema (None: it is)."""
    from pydantic import ValidationError

    try:
        EDITION.model(model, False).model_validate(value)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        return f"{where}: {first['msg']}"
    return None


def _rpc(name: str) -> str:
    """The JSON-RPC method of an agent route, from the spec table."""
    return EDITION.agent_methods[name].rpc


def _describe(answer: _Answer) -> str:
    if answer.is_result:
        return "a result"
    if "httpStatus" in answer.message:  # refused by the HTTP transport, before the agent
        return f"HTTP {answer.message['httpStatus']}"
    code = answer.error_code
    return f"error {code}" if code is not None else "a malformed answer"


async def run_checks(
    open_channel: Callable[[], Awaitable[Channel]],
    report: Report,
    options: CheckOptions | None = None,
) -> Report:
    """Run every check into ``report``: ``open_channel`` makes a new connection to the agent
    (one for the main run, one per hostile line); each is closed when done with."""
    options = options or CheckOptions()
    kit = Checks(report)
    probe = _Probe(await open_channel(), options.timeout)
    try:
        return await _run(kit, probe, open_channel, report, options)
    finally:
        await probe.channel.close()


async def _run(
    kit: Checks,
    probe: _Probe,
    open_channel: Callable[[], Awaitable[Channel]],
    report: Report,
    options: CheckOptions,
) -> Report:
    steps: list[Callable[[], Awaitable[None]]] = []
    state: dict[str, Any] = {}

    # -- initialization -------------------------------------------------------------------
    init_answers = kit.check(
        "init.answers", "MUST", "initialization", "initialize is answered with a result"
    )
    init_schema = kit.check(
        "init.schema", "MUST", "initialization", "the result is a valid InitializeResponse"
    )
    init_version = kit.check(
        "init.version",
        "MUST",
        "initialization",
        f"offered version {PROTOCOL_VERSION} (supported), the agent answers that version",
    )

    async def initialize() -> None:
        answer = await probe.call(
            _rpc("initialize"),
            {
                "protocolVersion": PROTOCOL_VERSION,
                "clientCapabilities": {
                    "fs": {"readTextFile": False, "writeTextFile": False},
                    "terminal": False,
                },
                "clientInfo": {"name": "agentproto-acp-check", "version": "1"},
            },
        )
        if not answer.is_result:
            init_answers(False, f"answered {_describe(answer)}")
            return
        init_answers(True, "")
        state["init"] = answer.result
        problem = _validates(EDITION.agent_methods["initialize"].response or "", answer.result)
        init_schema(problem is None, problem or "")
        version = as_object(answer.result) or {}
        got = version.get("protocolVersion")
        init_version(got == PROTOCOL_VERSION, f"answered protocolVersion {got!r}")

    steps.append(initialize)

    # -- sessions -----------------------------------------------------------------------------
    new_answers = kit.check(
        "session.new", "MUST", "session-setup", "session/new is answered with a sessionId"
    )

    async def new_session() -> None:
        if "init" not in state:
            new_answers(None, "initialize failed")
            return
        answer = await probe.call(_rpc("new_session"), {"cwd": options.cwd, "mcpServers": []})
        problem = (
            _validates(EDITION.agent_methods["new_session"].response or "", answer.result)
            if answer.is_result
            else f"answered {_describe(answer)}"
        )
        new_answers(problem is None, problem or "")
        if problem is None:
            state["session"] = (as_object(answer.result) or {}).get("sessionId")

    steps.append(new_session)

    # -- a prompt turn ------------------------------------------------------------------------
    prompt_answers = kit.check(
        "prompt.answers", "MUST", "prompt-turn", "session/prompt is answered with a stopReason"
    )
    updates_valid = kit.check(
        "prompt.updates.schema",
        "MUST",
        "prompt-turn",
        "every session/update is a valid SessionNotification naming the prompt's session",
    )
    updates_sent = kit.check(
        "prompt.updates.sent",
        "SHOULD",
        "prompt-turn",
        "the agent reports its work with session/update before answering the prompt",
    )
    resource_link = kit.check(
        "prompt.resource_link",
        "MUST",
        "content",
        "a prompt with a resource_link block is accepted (baseline prompt content)",
    )

    def judge_updates(session: JSONValue, updates: list[dict[str, JSONValue]]) -> None:
        sent = [u for u in updates if u.get("method") == "session/update"]
        state.setdefault("updates", []).extend(sent)
        for update in sent:
            params = update.get("params")
            problem = _validates("SessionNotification", params)
            if problem is None and (as_object(params) or {}).get("sessionId") != session:
                problem = "a session/update names another session"
            if problem is not None:
                state["bad_update"] = problem

    async def prompt() -> None:
        session = state.get("session")
        if session is None:
            for record in (prompt_answers, updates_sent, resource_link):
                record(None, "no session")
            return
        answer = await probe.call(
            _rpc("prompt"),
            {"sessionId": session, "prompt": [{"type": "text", "text": options.prompt}]},
        )
        judge_updates(session, answer.updates)
        problem = (
            _validates(EDITION.agent_methods["prompt"].response or "", answer.result)
            if answer.is_result
            else f"answered {_describe(answer)}"
        )
        prompt_answers(problem is None, problem or "")
        count = sum(1 for u in answer.updates if u.get("method") == "session/update")
        updates_sent(count > 0, f"{count} session/update notifications")
        link: dict[str, JSONValue] = {
            "type": "resource_link",
            "uri": "file:///conformance.txt",
            "name": "conformance",
        }
        answer = await probe.call(
            _rpc("prompt"),
            {"sessionId": session, "prompt": [{"type": "text", "text": "see"}, link]},
        )
        judge_updates(session, answer.updates)
        resource_link(answer.is_result, f"answered {_describe(answer)}")

    steps.append(prompt)

    # -- cancellation -------------------------------------------------------------------------
    cancel_answers = kit.check(
        "cancel.answers",
        "MUST",
        "prompt-turn#cancellation",
        "a prompt cancelled with session/cancel is still answered, with a stopReason",
    )
    cancel_reason = kit.check(
        "cancel.stop_reason",
        "MUST",
        "prompt-turn#cancellation",
        'a turn still running when session/cancel arrives ends with stopReason "cancelled"',
    )

    async def cancel() -> None:
        session = state.get("session")
        if session is None:
            cancel_answers(None, "no session")
            cancel_reason(None, "no session")
            return
        request_id = probe.new_id()
        await probe.send(
            {
                "jsonrpc": "2.0",
                "id": request_id,
                "method": _rpc("prompt"),
                "params": {
                    "sessionId": session,
                    "prompt": [{"type": "text", "text": options.cancel_prompt}],
                },
            }
        )
        # Wait for the turn's first update (it is running), then cancel it.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + options.timeout
        early: _Answer | None = None
        seen: list[dict[str, JSONValue]] = []
        while early is None:
            message = await probe._next_message(deadline)  # pyright: ignore[reportPrivateUsage]
            if message is None:
                continue
            if "method" in message and "id" in message:
                await probe._answer_agent(message)  # pyright: ignore[reportPrivateUsage]
            elif "method" in message:
                seen.append(message)
                if message.get("method") == "session/update":
                    break
            elif message.get("id") == request_id:
                early = _Answer(message, seen)
        if early is None:
            await probe.send(
                {
                    "jsonrpc": "2.0",
                    "method": _rpc("cancel"),
                    "params": {"sessionId": session},
                }
            )
            answer = await probe.wait_for(request_id)
            answer.updates[:0] = seen
        else:
            answer = early
        judge_updates(session, answer.updates)
        if not answer.is_result:
            cancel_answers(False, f"answered {_describe(answer)}")
            cancel_reason(None, "not answered with a result")
            return
        reason = (as_object(answer.result) or {}).get("stopReason")
        problem = _validates(EDITION.agent_methods["prompt"].response or "", answer.result)
        cancel_answers(problem is None, problem or f"stopReason {reason!r}")
        if early is not None:
            cancel_reason(None, f"the turn ended ({reason!r}) before it could be cancelled")
        else:
            cancel_reason(reason == "cancelled", f"stopReason {reason!r}")

    steps.append(cancel)

    # -- capabilities honoured ----------------------------------------------------------------
    advertised = kit.check(
        "capabilities.advertised_methods",
        "MUST",
        "initialization#agent-capabilities",
        "every method the agent advertises a capability for exists (not -32601)",
    )
    client_caps = kit.check(
        "capabilities.client_honoured",
        "MUST",
        "initialization#client-capabilities",
        "the agent calls no client method whose capability the client did not advertise",
    )

    async def capabilities() -> None:
        init = as_object(state.get("init"))
        if init is None:
            advertised(None, "initialize failed")
            return
        agent_caps: JSONValue = init.get("agentCapabilities") or {}
        missing: list[str] = []
        tried: list[str] = []
        for name, route in sorted(EDITION.agent_methods.items()):
            if route.unstable or route.notification or route.capability is None:
                continue
            value: JSONValue = agent_caps
            for part in route.capability.split("."):
                value = (as_object(value) or {}).get(part)
            if value is None or value is False:
                continue
            tried.append(route.rpc)
            answer = await probe.call(route.rpc, {})
            if answer.error_code == MethodNotFound.code:
                missing.append(f"{route.rpc} ({route.capability})")
            del name
        if not tried:
            advertised(None, "the agent advertises no capability-gated method")
        else:
            shown = "missing: " + ", ".join(missing) if missing else ", ".join(tried)
            advertised(not missing, shown)

    steps.append(capabilities)

    # -- errors -------------------------------------------------------------------------------
    unknown_method = kit.check(
        "errors.unknown_method",
        "MUST",
        "json-rpc",
        f"a request for an unknown method is answered {MethodNotFound.code}",
    )
    unknown_ext = kit.check(
        "errors.unknown_extension",
        "MUST",
        "extensibility",
        f"an unknown extension (_-prefixed) request is answered {MethodNotFound.code}",
    )
    unknown_notification = kit.check(
        "errors.unknown_notification",
        "MUST",
        "json-rpc",
        "an unknown notification gets no answer and breaks nothing",
    )
    invalid_params = kit.check(
        "errors.invalid_params",
        "SHOULD",
        "json-rpc",
        f"session/new without its required cwd is answered {InvalidParams.code}",
    )
    unknown_session = kit.check(
        "errors.unknown_session",
        "SHOULD",
        "session-setup",
        "a prompt for a session that was never created is answered with an error",
    )

    async def errors() -> None:
        answer = await probe.call("conformance/no_such_method", {})
        unknown_method(answer.error_code == MethodNotFound.code, f"answered {_describe(answer)}")
        answer = await probe.call("_conformance/no_such_extension", {})
        unknown_ext(answer.error_code == MethodNotFound.code, f"answered {_describe(answer)}")
        await probe.send({"jsonrpc": "2.0", "method": "conformance/no_such_notice", "params": {}})
        await probe.send({"jsonrpc": "2.0", "method": "_conformance/no_such_notice"})
        before = len(probe.stray)
        answer = await probe.call("conformance/no_such_method", {})
        answered = len(probe.stray) > before
        ok = not answered and answer.error_code is not None
        unknown_notification(ok, "the notification was answered" if answered else "")
        answer = await probe.call(_rpc("new_session"), {"mcpServers": []})
        invalid_params(answer.error_code == InvalidParams.code, f"answered {_describe(answer)}")
        answer = await probe.call(
            _rpc("prompt"),
            {"sessionId": "conformance-no-such-session", "prompt": [{"type": "text", "text": "x"}]},
        )
        unknown_session(not answer.is_result, f"answered {_describe(answer)}")

    steps.append(errors)

    # -- hostile lines ------------------------------------------------------------------------
    hostile: list[tuple[str, Level, bytes, int, str]] = [
        ("hostile.not_json", "MUST", b'{"jsonrpc": "2.0", "id": ', ParseError.code, "not JSON"),
        ("hostile.not_object", "SHOULD", b"42", InvalidRequest.code, "a JSON scalar"),
        ("hostile.batch", "SHOULD", b"[]", InvalidRequest.code, "an empty batch"),
        (
            "hostile.no_jsonrpc",
            "SHOULD",
            b'{"id": "conformance-bare", "method": "conformance/no_such_method"}',
            InvalidRequest.code,
            'a request without "jsonrpc": "2.0"',
        ),
    ]
    records = [
        (kit.check(rule, level, "json-rpc", f"{what}: answered {code}, and it goes on"), line, code)
        for rule, level, line, code, what in hostile
    ]

    async def hostile_lines() -> None:
        # Each line goes to a fresh connection (initialized first), so that a line which ends
        # the agent fails its own rule and no other.
        for record, line, code in records:
            fresh = _Probe(await open_channel(), options.timeout)
            try:
                init = await fresh.call(_rpc("initialize"), {"protocolVersion": PROTOCOL_VERSION})
                if not init.is_result:
                    record(None, "initialize failed")
                    continue
                await fresh.send(line)
                try:  # answered in order: the hostile line's answer comes before this one's
                    alive = (await fresh.call("conformance/no_such_method", {})).error_code
                except (_Gone, _Timeout):
                    record(False, "the agent stopped answering after it")
                    continue
                codes = [
                    c
                    for c in ((as_object(m.get("error")) or {}).get("code") for m in fresh.stray)
                    if isinstance(c, int)
                ]
                record(code in codes and alive is not None, f"answers: {codes}")
            except (_Gone, _Timeout) as exc:
                record(False, f"the agent went away or stopped answering: {exc}")
            finally:
                await fresh.channel.close()

    steps.append(hostile_lines)

    # -- the updates of the whole run ---------------------------------------------------------
    async def final() -> None:
        problem = state.get("bad_update")
        if not state.get("updates") and problem is None:
            updates_valid(None, "no session/update was sent")
        else:
            updates_valid(problem is None, problem or f"{len(state['updates'])} updates")
        offered = {
            route.rpc: route.capability
            for route in EDITION.client_methods.values()
            if route.capability is not None and not route.notification
        }
        wrong = sorted({m for m in probe.agent_calls if m in offered})
        client_caps(not wrong, "called: " + ", ".join(wrong) if wrong else "")

    for step in steps:
        if probe.gone and step is not hostile_lines:
            continue
        try:
            await step()
        except _Timeout:
            _fail_open(report, f"no answer within {options.timeout:g} s")
        except _Gone as exc:
            _fail_open(report, f"the agent went away: {exc}")
    await final()
    _fail_open(report, "the agent went away or stopped answering before this check")
    return report


def _fail_open(report: Report, why: str) -> None:
    """Rules declared but left unrecorded by a step that could not finish: failed, with why
    (a later step's rules are declared only when it runs, so they stay skipped)."""
    for check in report.checks:
        if check.outcome == "skip" and not check.detail:
            check.outcome = "fail"
            check.detail = why


async def check_agent(command: Sequence[str], options: CheckOptions | None = None) -> Report:
    """Start ``command`` and check it over its stdio."""
    report = Report(" ".join(command), protocol="ACP")

    async def open_channel() -> Channel:
        return await StdioChannel.spawn(command)

    return await run_checks(open_channel, report, options)


async def check_url(
    url: str, options: CheckOptions | None = None, *, token: str | None = None
) -> Report:
    """Connect to the agent at ``url`` (``http(s)://``: Streamable HTTP; ``ws(s)://``:
    WebSocket) and check it."""
    from agentproto.acp.remote import open_line_channel

    report = Report(url, protocol="ACP")
    timeout = (options or CheckOptions()).timeout

    async def open_channel() -> Channel:
        return await open_line_channel(url, token=token, timeout=timeout)

    return await run_checks(open_channel, report, options)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    command: list[str] = []
    if "--" in arguments:
        split = arguments.index("--")
        arguments, command = arguments[:split], arguments[split + 1 :]
    parser = argparse.ArgumentParser(
        prog="python -m agentproto.acp.check",
        description="Check an ACP agent against the protocol's rules.",
        usage="%(prog)s [options] -- <agent command> | %(prog)s [options] --url URL",
    )
    parser.add_argument(
        "--url", help="an agent served over Streamable HTTP (http://) or WebSocket (ws://)"
    )
    parser.add_argument("--token", help="bearer token for --url (never printed)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per wait")
    parser.add_argument("--prompt", help="the text of the plain prompt")
    parser.add_argument("--cancel-prompt", help="the text of the prompt that gets cancelled")
    options = parser.parse_args(arguments)
    if bool(command) == bool(options.url):
        parser.error("give an agent command after --, or --url (not both)")
    settings = CheckOptions(timeout=options.timeout)
    if options.prompt:
        settings.prompt = options.prompt
    if options.cancel_prompt:
        settings.cancel_prompt = options.cancel_prompt

    def check() -> Report:
        if options.url:
            return asyncio.run(check_url(options.url, settings, token=options.token))
        return asyncio.run(check_agent(command_line(command), settings))

    return finish(
        check,
        as_json=bool(options.json),
        unreachable=(OSError, ConnectionError),
        because="cannot reach the agent: ",
    )


if __name__ == "__main__":
    sys.exit(main())
