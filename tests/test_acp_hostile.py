"""ACP under hostile peers and careless callers (issue 15), over real subprocess pipes: every
line handled and answered on its own, nothing but JSON sent, no internals leaked, handler
results checked, re-entrant sync handlers, process groups ended, typed errors; and a property
test of the runtime fed random chunkings of valid and hostile lines."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from agentproto._runtime import jsonrpc
from agentproto.acp import (
    Client,
    ConnectionClosed,
    InternalError,
    MethodNotFound,
    ProtocolError,
    RpcError,
    SyncAgentConnection,
    SyncClient,
    spawn_agent,
)
from agentproto.acp.models import SessionNotification
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import fd_set, fds_opened_since, threads_left, within

PEERS = Path(__file__).resolve().parent / "acp_peers"
OUR_AGENT = str(PEERS / "our_agent.py")
ECHO_AGENT = str(PEERS / "echo_agent.py")
RAW_AGENT = str(PEERS / "raw_agent.py")
SHIM = str(PEERS / "shim.py")
DEEP = b"[" * 100_000 + b"]" * 100_000
SECRET = "'Secret' object has no attribute 'internals'"


def text(prompt: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": prompt}]


def alive(pid: int) -> bool:
    """Running (a zombie waiting for init to reap it has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != b"Z"


# -- the agent side: our runtime serving a hostile editor -------------------------------------


def exchange(lines: list[bytes], answers: int, *args: str) -> list[dict[str, Any]]:
    """Write ``lines`` to the echo agent in ONE write, read ``answers`` answers."""
    process = subprocess.Popen(
        [sys.executable, ECHO_AGENT, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None
    got: list[dict[str, Any]] = []

    def run() -> None:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(b"\n".join(lines) + b"\n")
        process.stdin.flush()
        for _ in range(answers):
            got.append(json.loads(process.stdout.readline()))

    try:
        within(20, run)
    finally:
        process.kill()
        process.wait(5)
        process.stdin.close()
        process.stdout.close()
        assert process.stderr is not None
        process.stderr.close()
    return got


def by_id(answers: list[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    return {a.get("id"): a for a in answers}


def test_each_line_of_one_read_is_answered_in_isolation() -> None:
    """Deep nesting, a lone surrogate echoed back, NaN: each gets its answer, and the lines
    after them in the same read are still handled (they used to be lost)."""
    lines = [
        DEEP,
        b'{"jsonrpc":"2.0","id":1,"method":"_echo","params":{"s":"\\ud800 and \\udfff"}}',
        b'{"jsonrpc":"2.0","id":2,"method":"_echo","params":{"n":NaN}}',
        b'{"jsonrpc":"2.0","id":3,"method":"_echo","params":{"n":Infinity}}',
        b'{"jsonrpc":"2.0","id":4,"method":"_echo","params":' + DEEP + b"}",
        b'{"jsonrpc":"2.0","id":5,"method":"_echo","params":{"s":"\xed\xa0\x80"}}',  # raw
        b'{"jsonrpc":"2.0","id":6,"method":"_echo","params":{"big":1e400}}',
        b'{"jsonrpc":"2.0","id":7,"method":"_echo","params":{"big":' + b"9" * 200 + b"}}",
        b'{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"protocolVersion":1}}',
    ]
    answers = exchange(lines, 9)
    codes = [a.get("error", {}).get("code") for a in answers]
    assert codes.count(-32700) == 5  # DEEP, NaN, Infinity, nested request, invalid UTF-8
    keyed = by_id(answers)
    # The lone surrogates came escaped and go back escaped: JSON, and the same string.
    assert keyed[1]["result"] == {"echo": {"s": "\ud800 and \udfff"}}
    # 1e400 is a JSON number beyond a float: it cannot be sent back, so -32603.
    assert keyed[6]["error"]["code"] == -32603
    assert keyed[7]["result"] == {"echo": {"big": int("9" * 200)}}
    assert keyed[8]["result"]["protocolVersion"] == 1


def test_a_handler_exception_is_answered_generically_and_details_only_on_opt_in() -> None:
    boom = b'{"jsonrpc":"2.0","id":1,"method":"_boom","params":{}}'
    (answer,) = exchange([boom], 1)
    assert answer["error"] == {"code": -32603, "message": "internal error"}
    assert "Secret" not in json.dumps(answer)
    (answer,) = exchange([boom], 1, "--expose")
    assert answer["error"]["message"] == f"AttributeError: {SECRET}"


def test_nan_is_never_sent_and_bad_handler_results_are_not_sent() -> None:
    answers = by_id(
        exchange(
            [
                b'{"jsonrpc":"2.0","id":1,"method":"_nan","params":{}}',
                b'{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":99}}',
                b'{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":98}}',
                b'{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":1}}',
            ],
            4,
        )
    )
    for msg_id in (1, 2, 3):
        assert answers[msg_id]["error"]["code"] == -32603, answers[msg_id]
        assert "not-an-int" not in json.dumps(answers[msg_id])
    assert answers[4]["result"]["protocolVersion"] == 1


# -- the editor side: our connections with a hostile agent ------------------------------------


class EchoEditor(Client):
    def __init__(self) -> None:
        self.echoed: list[Any] = []

    async def ext_method(self, method: str, params: Any) -> Any:
        if method == "_boom":
            raise AttributeError(SECRET)
        self.echoed.append(params)
        return {"echo": params}


class SyncEchoEditor(SyncClient):
    def __init__(self) -> None:
        self.echoed: list[Any] = []

    def ext_method(self, method: str, params: Any) -> Any:
        if method == "_boom":
            raise AttributeError(SECRET)
        self.echoed.append(params)
        return {"echo": params}


def check_raw_log(log: Path, echoed: list[Any]) -> None:
    """What the editor answered the hostile agent's lines that shared the prompt's read."""
    answers = [json.loads(line) for line in log.read_bytes().splitlines()]
    answers = [a for a in answers if "method" not in a]
    keyed = by_id(answers)
    assert keyed["e1"]["result"] == {"echo": {"s": "\ud800"}}
    assert keyed["e4"]["error"] == {"code": -32603, "message": "internal error"}
    assert sorted(a["error"]["code"] for a in answers if a.get("id") is None) == [-32700] * 4
    assert echoed == [{"s": "\ud800"}]


def test_hostile_lines_sharing_a_read_with_the_prompts_answer_async(tmp_path: Path) -> None:
    log = tmp_path / "log"
    editor = EchoEditor()

    async def main() -> None:
        async with spawn_agent(sys.executable, [RAW_AGENT, str(log)], client=editor) as conn:
            await conn.initialize(protocol_version=1)
            sid = (await conn.new_session(cwd="/", mcp_servers=[])).session_id
            done = await asyncio.wait_for(conn.prompt(session_id=sid, prompt=text("x")), 10)
            assert done.stop_reason == "end_turn"

    within(30, lambda: asyncio.run(main()))
    check_raw_log(log, editor.echoed)


def test_hostile_lines_sharing_a_read_with_the_prompts_answer_sync(tmp_path: Path) -> None:
    log = tmp_path / "log"
    editor = SyncEchoEditor()
    before = set(threading.enumerate())

    def main() -> None:
        with SyncAgentConnection.spawn([sys.executable, RAW_AGENT, str(log)], client=editor) as c:
            c.initialize(protocol_version=1)
            sid = c.new_session(cwd="/", mcp_servers=[]).session_id
            assert c.prompt(session_id=sid, prompt=text("x"), timeout=10).stop_reason == "end_turn"
            c.ext_notification("_hello", {"a": 1})
            c.initialize(protocol_version=1)  # after the notification: it was sent

    within(30, main)
    check_raw_log(log, editor.echoed)
    sent = [json.loads(line) for line in log.read_bytes().splitlines()]
    assert {"jsonrpc": "2.0", "method": "_hello", "params": {"a": 1}} in sent
    # the loop thread, the worker the blocking handler ran on and the child watcher end
    assert threads_left(before) == []


def test_a_malformed_answer_raises_a_protocol_error_naming_method_and_field(
    tmp_path: Path,
) -> None:
    log = tmp_path / "log"

    async def main() -> None:
        async with spawn_agent([sys.executable, RAW_AGENT, str(log)]) as conn:
            with pytest.raises(ProtocolError) as caught:
                await conn.new_session(cwd="/malformed", mcp_servers=[])
            assert caught.value.method == "session/new"
            assert caught.value.field == "sessionId"
            assert "'session/new'" in str(caught.value) and "sessionId" in str(caught.value)

    within(20, lambda: asyncio.run(main()))
    with SyncAgentConnection.spawn([sys.executable, RAW_AGENT, str(log)]) as conn:
        with pytest.raises(ProtocolError, match="sessionId"):
            conn.new_session(cwd="/malformed", mcp_servers=[], timeout=10)


# -- errors, exports and spawning -----------------------------------------------------------------


def test_public_errors_are_exported_and_the_old_paths_still_work() -> None:
    import agentproto.acp as acp

    for name in ("ConnectionClosed", "RpcError", "ParseError", "InvalidRequest", "InvalidParams"):
        assert getattr(acp, name) is getattr(jsonrpc, name)
    for name in ("MethodNotFound", "InternalError", "RequestCancelled", "ProtocolError"):
        assert getattr(acp, name) is getattr(jsonrpc, name)
    assert issubclass(MethodNotFound, RpcError) and issubclass(InternalError, RpcError)
    assert issubclass(ConnectionClosed, ConnectionError)


def test_connection_closed_names_the_agent_command_and_its_exit_status() -> None:
    async def main() -> None:
        async with spawn_agent(sys.executable, [OUR_AGENT]) as conn:
            await conn.initialize(protocol_version=1)
            sid = (await conn.new_session(cwd="/", mcp_servers=[])).session_id
            with pytest.raises(ConnectionClosed) as caught:
                await asyncio.wait_for(conn.prompt(session_id=sid, prompt=text("crash")), 10)
            assert "our_agent.py" in str(caught.value)
            assert "exited with code 3" in str(caught.value)
            assert caught.value.returncode == 3 and caught.value.command is not None

    within(30, lambda: asyncio.run(main()))


def test_spawn_takes_an_argument_list_and_explains_a_wrong_command() -> None:
    with SyncAgentConnection.spawn([sys.executable, OUR_AGENT]) as conn:
        assert conn.initialize(protocol_version=1, timeout=10).protocol_version == 1
    with pytest.raises(TypeError, match="as a list, or as a string and args, not both"):
        SyncAgentConnection.spawn([sys.executable], [OUR_AGENT])
    with pytest.raises(TypeError, match="a string or a non-empty list of strings"):
        SyncAgentConnection.spawn([])
    with pytest.raises(TypeError, match="args must be a list of strings"):
        SyncAgentConnection.spawn(sys.executable, OUR_AGENT)


# -- calling back into the connection from handlers ---------------------------------------------


class CallbackEditor(SyncClient):
    """Cancels from its session_update, tries a call that needs an answer, and may close."""

    def __init__(self, close: bool = False) -> None:
        self.conn: SyncAgentConnection | None = None
        self.errors: list[BaseException] = []
        self.close_inside = close

    def session_update(self, params: SessionNotification) -> None:
        assert self.conn is not None
        self.conn.cancel(session_id=params.session_id)  # a notification: sent, no wait
        try:
            self.conn.new_session(cwd="/", mcp_servers=[])
        except RuntimeError as exc:
            self.errors.append(exc)
        if self.close_inside:
            self.conn.close()


def test_a_sync_notification_handler_may_call_back_without_deadlock() -> None:
    editor = CallbackEditor()

    def main() -> None:
        conn = SyncAgentConnection.spawn(sys.executable, [OUR_AGENT], client=editor)
        editor.conn = conn
        conn.initialize(protocol_version=1)
        sid = conn.new_session(cwd="/", mcp_servers=[]).session_id
        # "slow" streams one update and waits for session/cancel: the handler's cancel ends it.
        done = conn.prompt(session_id=sid, prompt=text("slow"), timeout=10)
        assert done.stop_reason == "cancelled"
        conn.close()

    within(30, main)
    assert len(editor.errors) == 1 and "notification handler" in str(editor.errors[0])


def test_a_sync_notification_handler_may_close_its_connection() -> None:
    editor = CallbackEditor(close=True)

    def main() -> None:
        conn = SyncAgentConnection.spawn(sys.executable, [OUR_AGENT], client=editor)
        editor.conn = conn
        conn.initialize(protocol_version=1)
        sid = conn.new_session(cwd="/", mcp_servers=[]).session_id
        # The close inside the first update's handler fails the prompt, whether its answer
        # came in the same read as that update or later.
        with pytest.raises(ConnectionClosed, match="was closed"):
            conn.prompt(session_id=sid, prompt=text("hello 3"), timeout=10)
        conn.close()  # waits for the shutdown the handler began
        assert conn.closed
        assert conn.connection.process is not None
        assert not alive(conn.connection.process.process.pid)

    within(30, main)


def test_a_close_in_a_sync_handler_stops_the_read_it_came_in(tmp_path: Path) -> None:
    """The agent writes two updates and the prompt's answer in ONE write. The handler of the
    first sends a notification and closes: the notification goes out first, the second update
    is not handled, and the prompt fails with ConnectionClosed (its answer, read in the same
    chunk, arrived after the close)."""
    log = tmp_path / "log"

    class Editor(SyncClient):
        def __init__(self) -> None:
            self.conn: SyncAgentConnection | None = None
            self.seen: list[str] = []

        def session_update(self, params: SessionNotification) -> None:
            assert self.conn is not None
            self.seen.append(getattr(params.update.content, "text", "?"))
            self.conn.ext_notification("_bye", {"after": self.seen[-1]})
            self.conn.close()

    editor = Editor()

    def main() -> None:
        conn = SyncAgentConnection.spawn([sys.executable, RAW_AGENT, str(log)], client=editor)
        editor.conn = conn
        conn.initialize(protocol_version=1)
        sid = conn.new_session(cwd="/", mcp_servers=[]).session_id
        with pytest.raises(ConnectionClosed, match="was closed"):
            conn.prompt(session_id=sid, prompt=text("updates"), timeout=10)
        assert conn.closed
        assert conn.connection.process is not None
        process = conn.connection.process.process
        conn.close()  # waits for the shutdown the handler began: the agent is gone
        assert process.returncode is not None and not alive(process.pid)

    within(30, main)
    assert editor.seen == ["u1"]
    sent = [json.loads(line) for line in log.read_bytes().splitlines()]
    assert sent[-1] == {"jsonrpc": "2.0", "method": "_bye", "params": {"after": "u1"}}


def test_an_async_notification_handler_may_notify_but_not_wait_for_an_answer() -> None:
    class Editor(Client):
        conn: Any = None
        error: BaseException | None = None

        async def session_update(self, params: SessionNotification) -> None:
            await self.conn.cancel(session_id=params.session_id)
            try:
                await self.conn.new_session(cwd="/", mcp_servers=[])
            except RuntimeError as exc:
                self.error = exc

    editor = Editor()

    async def main() -> None:
        async with spawn_agent(sys.executable, [OUR_AGENT], client=editor) as conn:
            editor.conn = conn
            await conn.initialize(protocol_version=1)
            sid = (await conn.new_session(cwd="/", mcp_servers=[])).session_id
            done = await asyncio.wait_for(conn.prompt(session_id=sid, prompt=text("slow")), 10)
            assert done.stop_reason == "cancelled"

    within(30, lambda: asyncio.run(main()))
    assert editor.error is not None and "start a task" in str(editor.error)


def test_an_unclosed_sync_connection_warns_and_cleans_up() -> None:
    before = set(threading.enumerate())

    def main() -> None:
        conn = SyncAgentConnection.spawn(sys.executable, [OUR_AGENT])
        conn.initialize(protocol_version=1)
        assert conn.connection.process is not None
        pid = conn.connection.process.process.pid
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            del conn  # the last reference (the GC is off in within())
        assert [w.category for w in caught] == [ResourceWarning]
        assert "unclosed SyncAgentConnection" in str(caught[0].message)
        assert not alive(pid)

    within(30, main)
    assert threads_left(before) == []


# -- process groups: a launcher shim and its real agent ----------------------------------------


@pytest.mark.parametrize(
    "shim_args",
    [[], ["--ignore-term"]],
    ids=["agent-ignores-eof", "agent-ignores-eof-and-sigterm"],
)
def test_closing_ends_the_shim_and_the_agent_it_started(
    shim_args: list[str], tmp_path: Path
) -> None:
    pid_file = tmp_path / "pid"
    pids: list[int] = []

    async def session() -> None:
        async with spawn_agent(sys.executable, [SHIM, str(pid_file), *shim_args]) as conn:
            assert (await conn.initialize(protocol_version=1)).protocol_version == 1
            assert conn.process is not None
            pids[:] = [conn.process.process.pid, int(pid_file.read_text())]
            assert all(alive(pid) for pid in pids)

    def main() -> None:
        asyncio.run(session())
        assert not any(alive(pid) for pid in pids), pids

    within(30, main)  # a first run opens what stays open
    threads, fds = set(threading.enumerate()), fd_set()
    within(30, main)
    assert fds_opened_since(fds) == [] and threads_left(threads) == []


def test_the_sync_connection_ends_the_group_too(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"

    def main() -> None:
        with SyncAgentConnection.spawn([sys.executable, SHIM, str(pid_file)]) as conn:
            conn.initialize(protocol_version=1)
            assert conn.connection.process is not None
            pids = [conn.connection.process.process.pid, int(pid_file.read_text())]
        assert not any(alive(pid) for pid in pids), pids

    within(30, main)


EDITOR_EXITS = """
import asyncio, sys
sys.path.insert(0, {generated!r})
from agentproto.acp import SyncAgentConnection, spawn_agent

async def main():
    context = spawn_agent(sys.executable, [{shim!r}, {pid_file!r}])
    conn = await context.__aenter__()
    await conn.initialize(protocol_version=1)
    print(conn.process.process.pid, flush=True)
    return context

loop = asyncio.new_event_loop()
keep = loop.run_until_complete(main())  # never closed: the editor just exits
sync = SyncAgentConnection.spawn([sys.executable, {shim!r}, {pid_file!r} + "2"])
sync.initialize(protocol_version=1)
print(sync.connection.process.process.pid, flush=True)  # never closed either
"""


def test_the_editors_exit_ends_the_groups_it_never_closed(tmp_path: Path) -> None:
    pid_file = str(tmp_path / "pid")
    code = EDITOR_EXITS.format(
        generated=str(Path(__file__).resolve().parent.parent / "generated"),
        shim=SHIM,
        pid_file=pid_file,
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    pids = [int(p) for p in out.stdout.split()]
    pids += [int(Path(pid_file).read_text()), int(Path(pid_file + "2").read_text())]
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(alive(pid) for pid in pids), (pids, out.stderr[-2000:])


# -- the runtime, fed random chunkings of valid and hostile lines --------------------------------


class _Echo:
    async def request(self, method: str, params: Any) -> Any:
        if method == "_wait":
            await asyncio.sleep(0)
        if method == "_boom":
            raise AttributeError(SECRET)
        return {"echo": params}

    async def notify(self, method: str, params: Any) -> None:
        if method == "_wait":
            await asyncio.sleep(0)


class _Sink:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, data: bytes) -> None:
        self.data += data

    async def drain(self) -> None:
        return None

    def close(self) -> None:
        return None


HOSTILE = [
    DEEP,
    b'{"jsonrpc":"2.0","id":"h-deep","method":"_echo","params":' + DEEP + b"}",
    b'{"jsonrpc":"2.0","id":"h-lone","method":"_echo","params":["\\ud800","\\udc00x"]}',
    b'{"jsonrpc":"2.0","id":"h-raw","method":"_echo","params":["\xed\xa0\x80"]}',
    b'{"jsonrpc":"2.0","id":"h-nan","method":"_echo","params":[NaN]}',
    b'{"jsonrpc":"2.0","id":"h-inf","method":"_echo","params":[-Infinity]}',
    b'{"jsonrpc":"2.0","id":"h-big","method":"_echo","params":[1e999]}',
    b'{"jsonrpc":"2.0","id":"h-int","method":"_echo","params":[' + b"7" * 4000 + b"]}",
    b'{"jsonrpc":"2.0","id":"h-boom","method":"_boom"}',
    b"\xff\xfe\x00garbage",
    b"42",
    b'"just a string"',
    b"null",
    b'[{"jsonrpc":"2.0","id":"h-batch","method":"_echo"}]',
    b"[]",
    b'{"jsonrpc":"2.0","method":"_wait"}',
    b'{"jsonrpc":"2.0","id":true,"method":"_echo"}',
    b'{"jsonrpc":"2.0","id":"h-stray","result":1}',
    b"{",
]
# Hostile lines that are nonetheless requests with an id: each gets exactly one answer too.
ANSWERED = {"h-lone", "h-big", "h-int", "h-boom"}


def valid(n: int, wait: bool) -> bytes:
    method = "_wait" if wait else "_echo"
    return json.dumps({"jsonrpc": "2.0", "id": f"v{n}", "method": method, "params": [n]}).encode()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.one_of(st.booleans(), st.sampled_from(range(len(HOSTILE)))), max_size=25),
    st.lists(st.integers(min_value=1, max_value=400_000), max_size=12),
)
def test_random_chunkings_of_valid_and_hostile_lines(items: list[Any], cuts: list[int]) -> None:
    lines: list[bytes] = []
    expected: set[str] = set()
    for item in items:
        if isinstance(item, bool):
            lines.append(valid(len(lines), item))
            expected.add(f"v{len(lines) - 1}")
        else:
            lines.append(HOSTILE[item])
            key = HOSTILE[item].split(b'"id":"', 1)[-1].split(b'"', 1)[0].decode("latin-1")
            if key in ANSWERED and key not in expected:
                expected.add(key)
            elif key in ANSWERED:  # the same id twice: keep the test's count simple
                lines.pop()
    data = b"\n".join(lines) + b"\n"
    points = sorted({min(c, len(data)) for c in cuts} | {0, len(data)})
    chunks = [data[a:b] for a, b in itertools.pairwise(points)]

    async def main() -> bytes:
        sink = _Sink()
        conn = jsonrpc.Connection(None, sink, _Echo(), name="hostile")
        conn.start()
        for chunk in chunks:
            conn.feed(chunk)
            await asyncio.sleep(0)
        conn.feed(valid(10_000, True) + b"\n")  # still serving
        for _ in range(200):
            await asyncio.sleep(0)
        await conn.close()
        return bytes(sink.data)

    out = asyncio.run(main())
    answers = [json.loads(line) for line in out.splitlines()]  # all of it is JSON
    assert b"NaN" not in out and b"Infinity" not in out and SECRET.encode() not in out
    ids = [a.get("id") for a in answers if a.get("id") is not None]
    assert sorted(ids) == sorted(expected | {"v10000"})  # each exactly once
    for answer in answers:
        if isinstance(answer.get("id"), str) and answer["id"].startswith("v"):
            assert answer["result"] == {"echo": [int(answer["id"][1:])]}
