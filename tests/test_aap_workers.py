"""The AAP server as deployed: ``python -m agentproto.aap.serve --workers 2`` on one real
PostgreSQL store (tests/support/postgres.py). A session created through one worker is
continued through the other, and a restart in the middle of a conversation (killed, not
stopped: SIGKILL to every process) loses nothing."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from agentproto.aap import AAPClient, ToolMessage
from agentproto.aap.models import UserMessage

from tests.conftest import GENERATED, ROOT
from tests.support.postgres import PostgresServer

KEY = "sk-worker-test-0123456789"


def user(text: str) -> UserMessage:
    return UserMessage(role="user", content=text)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def aap_server(store: str, port: int, workers: int, log: Path) -> Iterator[str]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(GENERATED), str(ROOT)]),
        "AAP_API_KEYS": f"tester:{KEY}",
    }
    command = [
        sys.executable, "-m", "agentproto.aap.serve",
        "--agent", "tests.servers.aap_agents:agents", "--store", store,
        "--port", str(port), "--workers", str(workers), "--log-level", "warning",
    ]  # fmt: skip
    with log.open("ab") as out:
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, log.read_text()[-3000:]
            try:
                if httpx.get(url + "/meta", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start:\n" + log.read_text()
            time.sleep(0.1)
        yield url
    finally:
        kill(process)


def kill(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the whole process group (the master and its workers): a crash, no shutdown."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


def pid_of(client: AAPClient, sid: str) -> int:
    text = (
        client.create_turn(sid, messages=[user("pid")])
        .messages[0]
        .model_dump()["content"][0]["text"]
    )
    return int(text.removeprefix("pid "))


class Spinner(threading.Thread):
    """A turn that blocks the worker serving it for ``seconds``; ``pid`` says which one."""

    def __init__(self, url: str, sid: str, seconds: float) -> None:
        super().__init__(daemon=True)
        self.url, self.sid, self.seconds = url, sid, seconds
        self.pid: int | None = None
        self.started = threading.Event()

    def run(self) -> None:
        with AAPClient(self.url, api_key=KEY, timeout=30) as client:
            events = client.create_turn_stream(
                self.sid, messages=[user(f"spin {self.seconds}")], mode="delta"
            )
            with events:
                for event in events:
                    if event.event == "text_delta":
                        self.pid = int(str(getattr(event, "delta", "")).removeprefix("pid "))
                        self.started.set()


def busy(url: str, sid: str, seconds: float) -> Spinner:
    spinner = Spinner(url, sid, seconds)
    spinner.start()
    assert spinner.started.wait(15), "the spinning turn did not start"
    time.sleep(0.5)  # the agent blocks its worker 0.2 s after it sent the pid
    return spinner


@pytest.mark.slow
def test_two_workers_share_sessions_and_a_restart_loses_nothing(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    store = postgres.database()
    port = free_port()
    log = tmp_path / "server.log"
    with aap_server(store, port, 2, log) as url:
        with AAPClient(url, api_key=KEY, timeout=30) as client:
            spin_a = client.create_session(agent={"name": "echo"}).session_id
            spin_b = client.create_session(agent={"name": "echo"}).session_id
            # worker X is blocked: the session is created and answered by worker Y
            first = busy(url, spin_a, 3.0)
            with AAPClient(url, api_key=KEY, timeout=30) as fresh:
                sid = fresh.create_session(
                    agent={"name": "echo"},
                    tools=[
                        {"name": "lookup", "description": "d", "parameters": {"type": "object"}}
                    ],
                ).session_id
                served_by_y = pid_of(fresh, sid)
            assert served_by_y != first.pid
            # now Y is blocked too, until after X is free: X continues the session
            second = busy(url, spin_b, 3.0)
            assert second.pid == served_by_y
            first.join(15)
            with AAPClient(url, api_key=KEY, timeout=30) as fresh:
                served_by_x = pid_of(fresh, sid)
            assert served_by_x == first.pid != served_by_y
            second.join(15)
            # the conversation stops on a client tool call...
            pending = client.create_turn(sid, messages=[user('call lookup {"q": "x"}')])
            assert pending.stop_reason == "tool_use"
            call_id = pending.messages[0].model_dump()["content"][0]["toolCallId"]
            before = client.get_session_history(sid, type="full").history.full
    # ...and the server dies (every process, SIGKILL) before the application answers
    with aap_server(store, free_port(), 2, log) as url:
        with AAPClient(url, api_key=KEY, timeout=30) as client:
            assert client.get_session_history(sid, type="full").history.full == before
            assert {spin_a, spin_b, sid} <= {s.session_id for s in client.iter_sessions()}
            answer = ToolMessage(role="tool", tool_call_id=call_id, content="found it")
            done = client.create_turn(sid, messages=[answer])
            assert done.stop_reason == "end_turn"
            assert (
                done.messages[0].model_dump()["content"][0]["text"]
                == f"results: {call_id}=found it"
            )
            roles = [
                m.role for m in client.get_session_history(sid, type="full").history.full or []
            ]
            assert roles == ["user", "assistant"] * 3 + ["tool", "assistant"]
