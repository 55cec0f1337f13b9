"""Any ACP agent offered as an AAP agent: one agent process (and ACP session) per AAP session.

The coding agents people run from their editors (claude-agent-acp, codex-acp, gemini-cli, an
agent built with :mod:`agentproto.acp`...) speak ACP over stdio; :class:`ACPAgent` serves one
over AAP, with the AAP server's auth, limits, durable store and hardening::

    agent = ACPAgent("coder", ["claude-agent-acp"], permissions="client")
    server = AAPServer([agent], store="sqlite:///aap.db", auth=ApiKeys.from_env())

or ``python -m agentproto.aap.serve --acp-agent "claude-agent-acp" --name coder``.

How the two protocols meet:

- **Process**: an AAP session's first turn starts the agent (``command``, in a process group
  of its own; or a connection to a remote ACP agent at ``url``, Streamable HTTP or WebSocket),
  ``initialize`` and ``session/new`` (with ``cwd`` and the operator's ``mcp_servers``). The
  process serves that session's later turns; it ends when the AAP session is deleted, after
  ``idle_timeout`` seconds without a turn, or when the server stops (stdin closed, then
  SIGTERM and SIGKILL to its group). At most ``max_processes`` run at once: a new one ends the
  longest idle (not one running a turn); when all are busy the turn ends ``error``. A turn on a
  session whose process is gone (ended idle, or this server restarted: the history is in the
  store) starts a new one and gives it the conversation so far with the new message.
- **Turns**: the turn's user message (text and images) becomes ``session/prompt``;
  ``agent_message_chunk`` becomes text (``text_delta`` / ``text`` events, whatever the stream
  mode), ``agent_thought_chunk`` thinking; the prompt's stop reason ends the turn
  (``end_turn``, ``max_tokens``, ``refusal``; ``max_turn_requests`` is reported as
  ``max_tokens``, a budget ran out; ``cancelled`` and any failure as ``error``). Content the AAP
  events cannot carry (an image, audio, a resource in a chunk) is given as a bracketed note
  naming it (``[image/png]``), never dropped silently.
- **Tools**: the agent runs its own tools. Each ACP tool call becomes a ``tool_call`` event
  (its name the ACP ``kind``; its input ``title``, ``kind``, ``rawInput``) followed by its
  ``tool_result`` (the call's text content; ``failed`` ones as errors), both sent when the call
  ends (an AAP tool call is only ever shown with its result, so a turn never stops on a call
  the client cannot answer); stored in the history like any tool call, each ending a step of
  the turn (so ``ServerSettings.max_steps`` bounds the tool calls of one turn: raise it for
  coding agents; ``python -m agentproto.aap.serve --acp-agent`` makes it 256).
- **Permissions** (``session/request_permission``), by ``permissions``: ``"allow"`` (the first
  allow option), ``"reject"`` (the first reject option), or ``"client"``: the AAP client
  decides, through the client tool :data:`PERMISSION_TOOL` (``acp_permission``) that its
  session declares: the turn stops ``tool_use`` with a call of it (input: ``toolCall`` and
  ``options``, as ACP sent them) and the agent waits; the client's next turn answers it with
  a tool result naming an ``optionId`` (or an option kind such as ``allow_once``, or
  ``allow`` / ``reject``) and the prompt goes on, its events in that turn. A session that did
  not declare the tool gets ``reject``; an answer that names no option is a rejection (logged).
- **Cancel**, both ways: an AAP turn that ends early (the client drops the stream, the session
  is deleted, the turn time runs out) sends ``session/cancel`` and answers a waiting
  permission ``cancelled``; an ACP prompt that ends ``cancelled`` ends the turn (``error``).

ACP requests carry the turn's trace context in ``_meta`` (see :mod:`agentproto.acp.core`), so
the agent's spans continue the AAP client's trace.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shlex
import time
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Any, Final, Literal, cast

import anyio

from agentproto.aap.agent import (
    Agent,
    StepContext,
    StepEvent,
    Stop,
    TextDelta,
    ThinkingDelta,
    ToolResult,
    ToolUse,
)
from agentproto.aap.models import (
    AssistantMessage,
    HistoryMessage,
    ImageContentBlock,
    TextContentBlock,
    ToolMessage,
    UserMessage,
)

if TYPE_CHECKING:
    from agentproto.acp.connection import AgentConnection
    from agentproto.acp.models import (
        ContentBlock as ACPContentBlock,
    )
    from agentproto.acp.models import (
        McpServer,
        RequestPermissionRequest,
        RequestPermissionResponse,
        SessionNotification,
    )

__all__ = ["PERMISSION_TOOL", "ACPAgent", "PermissionPolicy", "stdio_mcp_server"]

log: Final = logging.getLogger("agentproto.aap.acp")

PERMISSION_TOOL: Final = "acp_permission"
"""The client tool through which the AAP client answers the ACP agent's permission requests
(``permissions="client"``)."""
PERMISSION_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "toolCall": {"type": "object", "description": "The ACP tool call asking (toolCallId...)"},
        "options": {
            "type": "array",
            "description": "The answers to choose from: optionId, name, kind",
            "items": {"type": "object"},
        },
    },
    "required": ["toolCall", "options"],
}
"""The input schema of :data:`PERMISSION_TOOL` (a client declares it with this schema)."""

PermissionPolicy = Literal["allow", "reject", "client"]
_STOPS: Final[dict[str, Literal["end_turn", "max_tokens", "refusal", "error"]]] = {
    "end_turn": "end_turn",
    "max_tokens": "max_tokens",
    "max_turn_requests": "max_tokens",
    "refusal": "refusal",
}
_ALLOW: Final = ("allow_once", "allow_always")
_REJECT: Final = ("reject_once", "reject_always")


_CLOSING: set[asyncio.Task[None]] = set()
"""Processes being closed in the background (kept referenced until they are)."""


class _Process:
    """One agent process (or remote connection) and its ACP session, serving one AAP
    session."""

    def __init__(self, owner: ACPAgent, session_id: str) -> None:
        self.owner = owner
        self.session_id = session_id
        self.stack = AsyncExitStack()
        self.connection: AgentConnection | None = None
        self.acp_session: str | None = None
        self.queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.prompt: asyncio.Task[Any] | None = None
        self.permission: tuple[str, RequestPermissionRequest, asyncio.Future[Any]] | None = None
        self.started: dict[str, Any] = {}  # ACP tool calls started, not finished: id -> call
        self.used = time.monotonic()
        self.busy = False
        self.fresh = True  # no prompt sent yet in this ACP session
        self.closed = False
        self.calls = 0

    # -- the editor's side of the ACP connection -------------------------------------------

    def handler(self) -> Any:
        from agentproto.acp.connection import Client

        process = self

        class Editor(Client):
            async def session_update(self, params: SessionNotification) -> None:
                process.queue.put_nowait(("update", params.update))

            async def request_permission(
                self, params: RequestPermissionRequest
            ) -> RequestPermissionResponse:
                return await process.ask(params)

        return Editor()

    async def ask(self, params: RequestPermissionRequest) -> RequestPermissionResponse:
        from agentproto.acp.models import RequestPermissionResponse

        policy = self.owner.permissions
        if policy != "client":
            return RequestPermissionResponse.model_validate(
                {"outcome": _choose(params, policy == "allow")}
            )
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.calls += 1
        call_id = f"perm_{self.calls}_{params.tool_call.tool_call_id}"[:64]
        waiting = (call_id, params, future)
        self.permission = waiting
        self.queue.put_nowait(("permission", None))
        try:
            outcome = await future
        finally:
            if self.permission is waiting:
                self.permission = None
        return RequestPermissionResponse.model_validate({"outcome": outcome})

    # -- life --------------------------------------------------------------------------------

    async def open(self) -> None:
        from agentproto.acp.connection import spawn_agent

        owner = self.owner
        if owner.url is not None:
            from agentproto.acp.remote import connect_remote_agent

            connection: AgentConnection = await self.stack.enter_async_context(
                connect_remote_agent(owner.url, client=self.handler(), token=owner.token)
            )
        else:
            assert owner.command is not None
            connection = await self.stack.enter_async_context(
                spawn_agent(owner.command, client=self.handler(), env=owner.env, cwd=owner.cwd)
            )
        self.connection = connection
        await asyncio.wait_for(connection.initialize(protocol_version=1), owner.start_timeout)
        created = await asyncio.wait_for(
            connection.new_session(cwd=owner.cwd, mcp_servers=list(owner.mcp_servers)),
            owner.start_timeout,
        )
        self.acp_session = created.session_id

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.permission is not None:
            _settle(self.permission[2], {"outcome": "cancelled"})
        prompt = self.prompt
        if prompt is not None and not prompt.done():
            prompt.cancel()
        try:
            await asyncio.wait_for(self.stack.aclose(), self.owner.grace * 3 + 5)
        except Exception:
            log.warning("session %s: the ACP agent did not close cleanly", self.session_id)

    # -- one AAP step ------------------------------------------------------------------------

    async def step(self, context: StepContext) -> AsyncIterator[StepEvent]:
        settled = False
        try:
            if self.prompt is None:
                self._start(context)
            else:
                self._answer_permission(context)
            while True:
                kind, value = await self.queue.get()
                if kind == "update":
                    events = self._events(value)
                    for event in events:
                        yield event
                    if events and isinstance(events[-1], ToolResult) and not self.started:
                        # the step ends with its tool calls' results (the history stays
                        # assistant, tool, assistant...); the next step reads on
                        settled = True
                        yield Stop("tool_use")
                        return
                elif kind == "permission":
                    found = self.permission
                    if found is None:
                        continue
                    if not any(t.name == PERMISSION_TOOL for t in context.tools):
                        _settle(found[2], _choose(found[1], False))
                        log.warning(
                            "session %s: the client declared no %s tool: the permission is "
                            "rejected",
                            self.session_id,
                            PERMISSION_TOOL,
                        )
                        continue
                    request = found[1].model_dump(mode="json", by_alias=True, exclude_none=True)
                    yield ToolUse(
                        found[0],
                        PERMISSION_TOOL,
                        {"toolCall": request["toolCall"], "options": request["options"]},
                    )
                    settled = True
                    yield Stop("tool_use")
                    return
                else:  # the prompt ended
                    self.prompt = None
                    for event in self._unfinished():
                        yield event
                    settled = True
                    yield Stop(self._stop(value))
                    return
        finally:
            self.used = time.monotonic()
            if not settled:  # the turn ends early (cancelled): so does the prompt
                with anyio.CancelScope(shield=True):
                    await self._cancel()

    def _start(self, context: StepContext) -> None:
        connection = self.connection
        assert connection is not None and self.acp_session is not None
        blocks: list[Any] = _prompt(context.history, with_transcript=self.fresh)
        self.fresh = False
        self.queue = asyncio.Queue()
        self.started.clear()
        prompt = connection.prompt(session_id=self.acp_session, prompt=blocks)
        task = asyncio.ensure_future(prompt)
        self.prompt = task
        queue = self.queue

        def ended(done: asyncio.Task[Any]) -> None:
            queue.put_nowait(("done", done))

        task.add_done_callback(ended)

    def _answer_permission(self, context: StepContext) -> None:
        found = self.permission
        if found is None:
            return
        call_id, request, future = found
        for message in reversed(context.history):
            if isinstance(message, ToolMessage) and message.tool_call_id == call_id:
                _settle(future, _answer(request, _text_of(message.content), self.session_id))
                return
        log.warning("session %s: the turn did not answer %s: rejected", self.session_id, call_id)
        _settle(future, _choose(request, False))

    def _events(self, update: Any) -> list[StepEvent]:
        from agentproto.acp.models import (
            SessionUpdateAgentMessageChunk,
            SessionUpdateAgentThoughtChunk,
            SessionUpdateToolCall,
            SessionUpdateToolCallUpdate,
        )

        if isinstance(update, SessionUpdateAgentMessageChunk):
            return [TextDelta(_chunk_text(update.content))]
        if isinstance(update, SessionUpdateAgentThoughtChunk):
            return [ThinkingDelta(_chunk_text(update.content))]
        if isinstance(update, SessionUpdateToolCall):
            call = update.model_dump(mode="json", by_alias=True, exclude_none=True)
            self.started[update.tool_call_id] = call
            if update.status in ("completed", "failed"):
                return self._finished(update.tool_call_id, call)
            return []
        if isinstance(update, SessionUpdateToolCallUpdate):
            known = self.started.get(update.tool_call_id)
            if known is None:
                return []  # reported already, or never started in this turn
            change = update.model_dump(mode="json", by_alias=True, exclude_none=True)
            known.update({k: v for k, v in change.items() if k != "sessionUpdate"})
            if update.status in ("completed", "failed"):
                return self._finished(update.tool_call_id, known)
            return []
        return []  # plans, usage, modes, commands: not part of an AAP turn

    def _finished(self, call_id: str, call: Mapping[str, Any]) -> list[StepEvent]:
        self.started.pop(call_id, None)
        arguments: dict[str, Any] = {"title": call.get("title", ""), "kind": call.get("kind")}
        if "rawInput" in call:
            arguments["rawInput"] = call["rawInput"]
        name = str(call.get("kind") or "other")
        failed = call.get("status") == "failed"
        return [
            ToolUse(call_id, name, {k: v for k, v in arguments.items() if v is not None}),
            ToolResult(call_id, _tool_content(call), error=failed),
        ]

    def _unfinished(self) -> list[StepEvent]:
        events: list[StepEvent] = []
        for call_id, call in list(self.started.items()):
            note = dict(call)
            note["content"] = [
                {"type": "content", "content": {"type": "text", "text": "(no result reported)"}}
            ]
            events.extend(self._finished(call_id, note))
        return events

    def _stop(
        self, done: asyncio.Task[Any]
    ) -> Literal["end_turn", "max_tokens", "refusal", "error"]:
        if done.cancelled():
            return "error"
        error = done.exception()
        if error is not None:
            log.warning(
                "session %s: the ACP prompt failed: %s", self.session_id, type(error).__name__
            )
            if self.connection is not None and self.connection.connection.closed:
                self.owner.forget(self.session_id)  # its process is gone: the next turn starts one
            return "error"
        reason = str(getattr(done.result(), "stop_reason", ""))
        return _STOPS.get(reason, "error")

    async def _cancel(self) -> None:
        """The AAP turn ended early: ``session/cancel``, a waiting permission ``cancelled``,
        and the prompt's end awaited (``grace`` seconds)."""
        prompt = self.prompt
        if self.permission is not None:
            _settle(self.permission[2], {"outcome": "cancelled"})
        if prompt is None or prompt.done():
            self.prompt = None
            return
        connection = self.connection
        with contextlib.suppress(Exception):
            if connection is not None and self.acp_session is not None:
                await asyncio.shield(connection.cancel(session_id=self.acp_session))
        try:
            await asyncio.wait_for(asyncio.shield(prompt), self.owner.grace)
        except BaseException:
            prompt.cancel()
        self.prompt = None


class ACPAgent(Agent):
    """An ACP agent served over AAP (see the module docstring). ``command``: the agent's
    command line (or ``url``: a remote ACP agent, with ``token``); ``cwd``: the sessions'
    working directory (absolute; the current one by default); ``env`` adds to the agent's
    environment; ``mcp_servers``: ACP ``McpServer`` s given in every ``session/new``."""

    def __init__(
        self,
        name: str,
        command: Sequence[str] | None = None,
        *,
        url: str | None = None,
        token: str | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        mcp_servers: Sequence[McpServer] = (),
        permissions: PermissionPolicy = "client",
        max_processes: int = 16,
        idle_timeout: float = 600.0,
        start_timeout: float = 60.0,
        grace: float = 2.0,
        version: str = "1.0.0",
        title: str | None = None,
        description: str | None = None,
    ) -> None:
        if (command is None) == (url is None):
            raise ValueError("give the ACP agent's command or its url (one of them)")
        if permissions not in ("allow", "reject", "client"):
            raise ValueError(f"permissions must be allow, reject or client, not {permissions!r}")
        super().__init__(
            name,
            version=version,
            title=title,
            description=description or "An ACP agent",
            images=("data", "http"),
        )
        self.command: list[str] | None = list(command) if command is not None else None
        self.url: str | None = url
        self.token: str | None = token
        self.cwd: str = os.path.abspath(cwd or os.getcwd())
        self.env: dict[str, str] | None = dict(env) if env is not None else None
        self.mcp_servers: tuple[McpServer, ...] = tuple(mcp_servers)
        self.permissions: PermissionPolicy = permissions
        self.max_processes: int = max_processes
        self.idle_timeout: float = idle_timeout
        self.start_timeout: float = start_timeout
        self.grace: float = grace
        self._processes: dict[str, _Process] = {}
        self._starting = asyncio.Lock()
        self._reaper: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        shown = self.url if self.url is not None else (self.command or ["?"])[0]
        return f"<ACPAgent {self.name!r} {shown!r}: {len(self._processes)} processes>"

    def processes(self) -> dict[str, int | None]:
        """The agent process of each AAP session served now: session id -> pid (``None`` for a
        remote agent)."""
        found: dict[str, int | None] = {}
        for session_id, process in self._processes.items():
            connection = process.connection
            spawned = connection.process if connection is not None else None
            found[session_id] = spawned.process.pid if spawned is not None else None
        return found

    async def step(self, context: StepContext) -> AsyncIterator[StepEvent]:
        process = await self._process(context.session_id)
        if process is None:
            yield Stop("error")
            return
        process.busy = True
        try:
            async for event in process.step(context):
                yield event
        finally:
            process.busy = False

    async def _process(self, session_id: str) -> _Process | None:
        async with self._starting:
            found = self._processes.get(session_id)
            if found is not None and not found.closed:
                return found
            await self._reap(time.monotonic() - self.idle_timeout)
            if len(self._processes) >= self.max_processes:
                idle = [p for p in self._processes.values() if not p.busy]
                if not idle:
                    log.warning("no room for another ACP agent process (%d)", self.max_processes)
                    return None
                oldest = min(idle, key=lambda p: p.used)
                await self.end_session(oldest.session_id)
            process = _Process(self, session_id)
            try:
                await process.open()
            except Exception as exc:
                log.warning("session %s: the ACP agent did not start: %s", session_id, exc)
                await asyncio.shield(process.close())
                return None
            except BaseException:  # cancelled while starting: nothing of it may stay
                await asyncio.shield(process.close())
                raise
            self._processes[session_id] = process
            if self._reaper is None or self._reaper.done():
                self._reaper = asyncio.get_running_loop().create_task(self._reap_idle())
            return process

    def forget(self, session_id: str) -> None:
        """Stop serving ``session_id`` with its process (gone, or broken); it is closed in the
        background."""
        process = self._processes.pop(session_id, None)
        if process is not None:
            task = asyncio.get_running_loop().create_task(process.close())
            _CLOSING.add(task)
            task.add_done_callback(_CLOSING.discard)

    async def _reap(self, before: float) -> None:
        for process in list(self._processes.values()):
            if not process.busy and process.used < before:
                await self.end_session(process.session_id)

    async def _reap_idle(self) -> None:
        interval = max(self.idle_timeout / 4, 0.05)
        while self._processes:
            await asyncio.sleep(interval)
            await self._reap(time.monotonic() - self.idle_timeout)

    async def end_session(self, session_id: str) -> None:
        """End the process of ``session_id`` (its session was deleted, or it idled)."""
        process = self._processes.pop(session_id, None)
        if process is not None:
            await process.close()

    async def aclose(self) -> None:
        """End every process."""
        for session_id in list(self._processes):
            await self.end_session(session_id)
        reaper = self._reaper
        if reaper is not None and not reaper.done():
            reaper.cancel()
            with contextlib.suppress(BaseException):
                await reaper


# -- translation -----------------------------------------------------------------------------------


def stdio_mcp_server(spec: str) -> McpServer:
    """An MCP server over stdio for ``session/new`` from ``NAME=COMMAND [ARGS...]`` (the form
    of ``python -m agentproto.aap.serve --mcp-server``); ``ValueError`` for another form."""
    from agentproto.acp.models import McpServerStdio

    name, _, line = spec.partition("=")
    argv = shlex.split(line)
    if not name or not argv:
        raise ValueError(f"{spec!r}: write NAME=COMMAND [ARGS...]")
    return McpServerStdio(name=name, command=argv[0], args=argv[1:], env=[])


def _settle(future: asyncio.Future[Any], outcome: Mapping[str, Any]) -> None:
    if not future.done():
        future.set_result(dict(outcome))


def _choose(request: RequestPermissionRequest, allow: bool) -> dict[str, Any]:
    """The first option of the wanted kind (allow / reject); ``cancelled`` when none."""
    kinds = _ALLOW if allow else _REJECT
    for kind in kinds:
        for option in request.options:
            if option.kind == kind:
                return {"outcome": "selected", "optionId": option.option_id}
    return {"outcome": "cancelled"}


def _answer(request: RequestPermissionRequest, text: str, session_id: str) -> dict[str, Any]:
    """The outcome the client's answer names: an optionId, an option kind, allow / reject
    (or ``{"optionId": ...}``); anything else is a rejection, logged."""
    wanted = text.strip()
    try:
        parsed: object = json.loads(wanted)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        named = cast("dict[str, Any]", parsed).get("optionId")
        if isinstance(named, str):
            wanted = named
    elif isinstance(parsed, str):
        wanted = parsed
    for option in request.options:
        if wanted in (option.option_id, option.kind):
            return {"outcome": "selected", "optionId": option.option_id}
    lowered = wanted.lower()
    if lowered in ("allow", "allowed", "yes", "granted", "true"):
        return _choose(request, True)
    if lowered not in ("reject", "rejected", "deny", "denied", "no", "false"):
        log.warning("session %s: a permission answer names no option: rejected", session_id)
    return _choose(request, False)


def _text_of(content: str | list[Any]) -> str:
    if isinstance(content, str):
        return content
    return "".join(b.text for b in content if isinstance(b, TextContentBlock))


def _chunk_text(block: Any) -> str:
    text = getattr(block, "text", None)
    if isinstance(text, str) and getattr(block, "type", None) == "text":
        return text
    kind = getattr(block, "mime_type", None) or getattr(block, "type", "content")
    uri = getattr(block, "uri", None)
    return f"[{kind}{' ' + uri if isinstance(uri, str) else ''}]"


def _tool_content(call: Mapping[str, Any]) -> str:
    """A finished ACP tool call's result as text: its text content, diffs and terminals
    named."""
    parts: list[str] = []
    for entry in cast("list[Any]", call.get("content") or []):
        if not isinstance(entry, dict):
            continue
        item = cast("dict[str, Any]", entry)
        kind = item.get("type")
        if kind == "content":
            block = cast("dict[str, Any]", item.get("content") or {})
            if block.get("type") == "text":
                parts.append(str(block.get("text", "")))
            else:
                parts.append(f"[{block.get('mimeType') or block.get('type', 'content')}]")
        elif kind == "diff":
            parts.append(f"[diff {item.get('path', '')}]")
        elif kind == "terminal":
            parts.append(f"[terminal {item.get('terminalId', '')}]")
        else:
            parts.append(f"[{kind}]")
    if not parts and "rawOutput" in call:
        parts.append(json.dumps(call["rawOutput"], ensure_ascii=False))
    return "\n".join(parts) or str(call.get("title") or "")


def _prompt(history: Sequence[HistoryMessage], *, with_transcript: bool) -> list[ACPContentBlock]:
    """The ACP prompt of a turn: its last user message (text and images); for a new ACP
    session of a session with earlier messages, a transcript of those first."""
    from agentproto.acp.models import ContentBlockImage, ContentBlockResourceLink, ContentBlockText

    last = max((i for i, m in enumerate(history) if isinstance(m, UserMessage)), default=-1)
    blocks: list[ACPContentBlock] = []
    if with_transcript and last > 0:
        lines = [_line(m) for m in history[:last]]
        transcript = "\n".join(line for line in lines if line)
        if transcript:
            blocks.append(
                ContentBlockText(type="text", text=f"The conversation so far:\n{transcript}\n\n")
            )
    if last < 0:
        return blocks or [ContentBlockText(type="text", text="")]
    message = history[last]
    assert isinstance(message, UserMessage)
    content = message.content
    if isinstance(content, str):
        blocks.append(ContentBlockText(type="text", text=content))
        return blocks
    for block in content:
        if isinstance(block, TextContentBlock):
            blocks.append(ContentBlockText(type="text", text=block.text))
        elif isinstance(block, ImageContentBlock):
            url = block.url
            if url.startswith("data:") and ";base64," in url:
                head, data = url[5:].split(";base64,", 1)
                blocks.append(ContentBlockImage(type="image", data=data, mime_type=head))
            else:
                blocks.append(ContentBlockResourceLink(type="resource_link", uri=url, name=url))
    return blocks


def _line(message: HistoryMessage) -> str:
    if isinstance(message, UserMessage):
        return f"user: {_text_of(message.content)}"
    if isinstance(message, AssistantMessage):
        text = _text_of(message.content)
        return f"assistant: {text}" if text else ""
    if isinstance(message, ToolMessage):
        return f"tool result: {_text_of(message.content)[:500]}"
    return ""
