"""The helpers for agent and editor authors (agentproto.acp): builders, the session
accumulator, the tool-call tracker, the permission broker, the client session and the
terminal handle — each on its own, then all together over real pipes (an agent using the
tracker, the broker and a terminal; an editor running real commands for it, driven by
ClientSession)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import pytest
from agentproto.acp import (
    Agent,
    ClientSession,
    PermissionBroker,
    SessionAccumulator,
    SessionClient,
    TerminalHandle,
    ToolCallError,
    ToolCallTracker,
    builders,
    default_permission_options,
)
from agentproto.acp.models import (
    CreateTerminalRequest,
    CreateTerminalResponse,
    InitializeRequest,
    InitializeResponse,
    InvalidSessionUpdate,
    KillTerminalRequest,
    KillTerminalResponse,
    NewSessionRequest,
    NewSessionResponse,
    PromptRequest,
    PromptResponse,
    ReleaseTerminalRequest,
    ReleaseTerminalResponse,
    RequestPermissionRequest,
    RequestPermissionResponse,
    SessionNotification,
    TerminalExitStatus,
    TerminalOutputRequest,
    TerminalOutputResponse,
    UnknownSessionUpdate,
    WaitForTerminalExitRequest,
    WaitForTerminalExitResponse,
)
from agentproto.acp.models import SessionUpdate as SessionUpdateType
from pydantic import TypeAdapter

from tests.test_acp import pair

UPDATE = TypeAdapter(SessionUpdateType)


def wire(model: Any) -> Any:
    return model.model_dump(mode="json", exclude_none=True)


def test_builders_make_the_wire_shapes() -> None:
    assert wire(builders.say("hi")) == {
        "sessionUpdate": "agent_message_chunk",
        "content": {"type": "text", "text": "hi"},
    }
    assert wire(builders.think(builders.text("hmm")))["sessionUpdate"] == "agent_thought_chunk"
    started = builders.tool_started(
        "t1", "Read a.py", kind="read", locations=["a.py"], content=["looking"]
    )
    assert wire(started) == {
        "sessionUpdate": "tool_call",
        "toolCallId": "t1",
        "title": "Read a.py",
        "kind": "read",
        "status": "pending",
        "locations": [{"path": "a.py"}],
        "content": [{"type": "content", "content": {"type": "text", "text": "looking"}}],
    }
    finished = builders.tool_finished("t1", content=[builders.diff("a.py", "new", old_text="old")])
    assert wire(finished) == {
        "sessionUpdate": "tool_call_update",
        "toolCallId": "t1",
        "status": "completed",
        "content": [{"type": "diff", "path": "a.py", "newText": "new", "oldText": "old"}],
    }
    assert wire(builders.plan(["a", ("b", "completed"), ("c", "in_progress", "high")])) == {
        "sessionUpdate": "plan",
        "entries": [
            {"content": "a", "status": "pending", "priority": "medium"},
            {"content": "b", "status": "completed", "priority": "medium"},
            {"content": "c", "status": "in_progress", "priority": "high"},
        ],
    }
    assert wire(builders.usage(10, 100, cost=0.5)) == {
        "sessionUpdate": "usage_update",
        "used": 10,
        "size": 100,
        "cost": {"amount": 0.5, "currency": "USD"},
    }
    assert wire(builders.embedded_text("file:///a", "x"))["resource"] == {
        "uri": "file:///a",
        "text": "x",
    }
    # Each is what the other side reads back, typed.
    for update in (started, finished, builders.say("hi"), builders.title_changed("T")):
        assert type(UPDATE.validate_python(wire(update))) is type(update)


def test_the_accumulator_merges_a_session() -> None:
    acc = SessionAccumulator()
    acc.add_prompt([builders.text("fix it")])
    for update in (
        builders.say("Look"),
        builders.say("ing"),
        builders.think("plan first"),
        builders.say("Done", message_id="m2"),
        builders.say("!", message_id="m2"),
        builders.tool_started("t1", "Read a.py", kind="read"),
        builders.tool_progress("t1", content=["half"]),
        builders.tool_finished("t1"),
        builders.plan(["one"]),
        builders.plan([("one", "completed")]),
        builders.mode_changed("code"),
        builders.title_changed("Fixing"),
    ):
        acc.apply(update)
    acc.apply(
        SessionNotification.model_validate(
            {"sessionId": "s", "update": {"sessionUpdate": "hologram", "frames": 3}}
        )
    )
    snap = acc.snapshot()
    assert [(m.role, m.text) for m in snap.messages] == [
        ("user", "fix it"),
        ("agent", "Looking"),
        ("thought", "plan first"),
        ("agent", "Done!"),
    ]
    assert snap.agent_text == "LookingDone!"
    (call,) = snap.tool_calls
    assert (call.title, call.kind, call.status, call.updates) == (
        "Read a.py",
        "read",
        "completed",
        3,
    )
    assert call.finished and len(call.content) == 1  # the finishing update sent no content
    assert [(e.content, e.status) for e in snap.plan] == [("one", "completed")]
    assert (snap.mode_id, snap.title, snap.updates) == ("code", "Fixing", 13)
    (other,) = snap.others
    assert isinstance(other, UnknownSessionUpdate) and other.session_update == "hologram"


def test_the_accumulator_reads_an_invalid_usage_update_leniently() -> None:
    from agentproto._runtime.base import PEER_CONTEXT

    acc = SessionAccumulator()
    raw = {
        "sessionUpdate": "usage_update",
        "used": None,
        "size": 200000,
        "cost": {"amount": 0.1, "currency": "USD"},
    }
    update = UPDATE.validate_python(raw, context=PEER_CONTEXT)
    assert isinstance(update, InvalidSessionUpdate)
    acc.apply(update)
    usage = acc.snapshot().usage
    assert usage is not None and (usage.used, usage.size, usage.cost) == (None, 200000, 0.1)
    assert acc.snapshot().others == (update,)
    acc.apply(builders.usage(5, 10))
    assert acc.snapshot().usage is not None and acc.snapshot().usage.used == 5  # type: ignore[union-attr]


def test_default_permission_options() -> None:
    options = default_permission_options()
    assert [(o.option_id, o.kind) for o in options] == [
        ("allow-once", "allow_once"),
        ("allow-always", "allow_always"),
        ("reject-once", "reject_once"),
        ("reject-always", "reject_always"),
    ]


# -- all together, over pipes --------------------------------------------------------------------


class HelpfulAgent(Agent):
    """Runs ``pytest``-like commands in the editor's terminal after asking permission,
    reporting each as a tool call."""

    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        return InitializeResponse(protocol_version=1)

    async def new_session(self, params: NewSessionRequest) -> NewSessionResponse:
        self.tools = ToolCallTracker(self.client, "s1")
        self.broker = PermissionBroker(self.client, "s1")
        return NewSessionResponse(session_id="s1")

    async def prompt(self, params: PromptRequest) -> PromptResponse:
        text = "".join(getattr(b, "text", "") for b in params.prompt)
        await self.client.session_update(session_id="s1", update=builders.say(f"Running {text}"))
        decision = await self.broker.ask("run", f"Run {text}", kind="execute")
        if not decision.allowed:
            await self.client.session_update(session_id="s1", update=builders.say("Not allowed"))
            return PromptResponse(stop_reason="end_turn")
        async with self.tools.run(f"$ {text}", kind="execute") as call:
            script = {"ok": "print('all good')", "fail": "import sys; sys.exit(3)"}.get(text)
            command = ["-c", script] if script else ["-c", "import time; time.sleep(30)"]
            async with await TerminalHandle.create(
                self.client, "s1", sys.executable, command
            ) as term:
                await call.progress(content=[builders.terminal_output(term.terminal_id)])
                result = await term.wait(timeout=1.0 if text == "hang" else 20)
            call.result(content=[f"exit {result.exit_code} {result.output.strip()}".strip()])
            self.last = result
        with pytest.raises(ToolCallError):  # ended: no more updates for it
            await self.tools.progress(call.tool_call_id)
        return PromptResponse(stop_reason="end_turn")


class TerminalEditor(SessionClient):
    """Runs the agent's terminal commands as real processes; answers permission with a
    fixed option; counts the questions."""

    def __init__(self, option: str) -> None:
        super().__init__()
        self.option = option
        self.asked = 0
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.released: list[str] = []

    async def request_permission(
        self, params: RequestPermissionRequest
    ) -> RequestPermissionResponse:
        self.asked += 1
        return RequestPermissionResponse.model_validate(
            {"outcome": {"outcome": "selected", "optionId": self.option}}
        )

    async def create_terminal(self, params: CreateTerminalRequest) -> CreateTerminalResponse:
        proc = subprocess.Popen(
            [params.command, *(params.args or [])], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        terminal_id = f"term-{len(self.procs) + 1}"
        self.procs[terminal_id] = proc
        return CreateTerminalResponse(terminal_id=terminal_id)

    def _status(self, proc: subprocess.Popen[bytes]) -> TerminalExitStatus | None:
        code = proc.poll()
        if code is None:
            return None
        return TerminalExitStatus(
            exit_code=code if code >= 0 else None, signal="SIGKILL" if code < 0 else None
        )

    async def wait_for_terminal_exit(
        self, params: WaitForTerminalExitRequest
    ) -> WaitForTerminalExitResponse:
        proc = self.procs[params.terminal_id]
        code = await asyncio.get_running_loop().run_in_executor(None, proc.wait)
        return WaitForTerminalExitResponse(exit_code=code if code >= 0 else None)

    async def terminal_output(self, params: TerminalOutputRequest) -> TerminalOutputResponse:
        proc = self.procs[params.terminal_id]
        status = self._status(proc)
        output = proc.stdout.read().decode() if status is not None and proc.stdout else ""
        return TerminalOutputResponse(output=output, truncated=False, exit_status=status)

    async def kill_terminal(self, params: KillTerminalRequest) -> KillTerminalResponse:
        self.procs[params.terminal_id].kill()
        self.procs[params.terminal_id].wait()
        return KillTerminalResponse()

    async def release_terminal(self, params: ReleaseTerminalRequest) -> ReleaseTerminalResponse:
        self.released.append(params.terminal_id)
        proc = self.procs[params.terminal_id]
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        return ReleaseTerminalResponse()


def test_helpers_together_over_pipes() -> None:
    async def main() -> None:
        agent, editor = HelpfulAgent(), TerminalEditor("allow-always")
        conn, served = await pair(agent, client=editor)
        await conn.initialize(protocol_version=1, client_capabilities={"terminal": True})
        session = await ClientSession.new(conn, editor, cwd="/tmp")

        reply = await session.prompt("ok", timeout=20)
        assert reply.stop_reason == "end_turn" and reply.text == "Running ok"
        (call,) = reply.tool_calls
        assert (call.title, call.status, call.kind) == ("$ ok", "completed", "execute")
        assert wire(call.content[0]) == {
            "type": "content",
            "content": {"type": "text", "text": "exit 0 all good"},
        }
        assert editor.released == ["term-1"]

        reply = await session.prompt("fail", timeout=20)
        assert reply.tool_calls[0].content[0].content.text == "exit 3"  # type: ignore[union-attr]
        assert editor.asked == 1  # "always allow" was remembered for execute calls

        reply = await session.prompt("hang", timeout=20)  # the wait times out: killed
        assert agent.last.timed_out and agent.last.exit_code is None
        assert editor.procs["term-3"].returncode == -9 and editor.released[-1] == "term-3"
        assert len(session.snapshot.tool_calls) == 3

        await conn.close()
        served.cancel()

        no = TerminalEditor("reject-once")
        rejecting, served2 = await pair(HelpfulAgent(), client=no)
        await rejecting.initialize(protocol_version=1, client_capabilities={"terminal": True})
        refused = await ClientSession.new(rejecting, no, cwd="/tmp")
        for _ in range(2):  # "reject once" is not remembered: asked each time
            reply = await refused.prompt("ok", timeout=20)
            assert reply.text == "Running okNot allowed" and reply.tool_calls == ()
        assert no.asked == 2 and no.procs == {}
        await rejecting.close()
        served2.cancel()

    asyncio.run(asyncio.wait_for(main(), 60))


def test_a_prompt_that_outlasts_its_timeout_is_cancelled() -> None:
    class Slow(Agent):
        def __init__(self) -> None:
            self.cancelled = asyncio.Event()

        async def initialize(self, params: InitializeRequest) -> InitializeResponse:
            return InitializeResponse(protocol_version=1)

        async def new_session(self, params: NewSessionRequest) -> NewSessionResponse:
            return NewSessionResponse(session_id="s")

        async def cancel(self, params: Any) -> None:
            self.cancelled.set()

        async def prompt(self, params: PromptRequest) -> PromptResponse:
            await self.client.session_update(session_id="s", update=builders.say("thinking"))
            await self.cancelled.wait()
            return PromptResponse(stop_reason="cancelled")

    async def main() -> None:
        editor = SessionClient()
        conn, served = await pair(Slow(), client=editor)
        session = await ClientSession.new(conn, editor, cwd="/tmp")
        reply = await session.prompt("go", timeout=0.2)
        assert reply.stop_reason == "cancelled" and reply.text == "thinking"
        await conn.close()
        served.cancel()

    asyncio.run(asyncio.wait_for(main(), 20))
