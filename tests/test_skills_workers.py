"""The provider kit as deployed: two uvicorn processes on one execution store (SQLite file,
or a real PostgreSQL from tests/support/postgres.py). An invocation made through one is
polled and fetched through the other; after both are killed (SIGKILL: a crash, no shutdown)
and restarted, finished results are still there and the execution that was running ends
``failed`` with ``EXECUTION_LOST``, not 404."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import GENERATED, ROOT
from tests.support.postgres import PostgresServer
from tests.test_aap_workers import free_port, kill

ALICE = {"X-API-Key": "key-alice"}
LEASE = 1.0


@contextmanager
def kit(store: str, log: Path, workers: int = 1) -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(GENERATED), str(ROOT)]),
        "SKILLS_STORE": store,
        "SKILLS_BASE_URL": url,
        "SKILLS_LEASE": str(LEASE),
    }
    command = [
        sys.executable, "-m", "uvicorn", "tests.servers.skills_workers:app",
        "--port", str(port), "--workers", str(workers), "--log-level", "warning",
        "--timeout-keep-alive", "5",
    ]  # fmt: skip
    with log.open("ab") as out:
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, log.read_text()[-3000:]
            try:
                if httpx.get(url + "/.well-known/skill-sharing", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the kit did not start:\n" + log.read_text()
            time.sleep(0.1)
        yield url
    finally:
        kill(process)


def invoke(url: str, seconds: float) -> str:
    body = {
        "skill_id": "w/pid",
        "caller": {"id": "tester", "type": "service"},
        "inputs": {"seconds": seconds},
    }
    response = httpx.post(f"{url}/skills/w%2Fpid/invoke", json=body, headers=ALICE, timeout=10)
    assert response.status_code == 202, response.text
    return str(response.json()["execution_id"])


def status(url: str, execution_id: str, path: str = "") -> dict[str, Any]:
    response = httpx.get(f"{url}/executions/{execution_id}{path}", headers=ALICE, timeout=10)
    assert response.status_code == 200, response.text
    document: dict[str, Any] = response.json()
    return document


def wait(url: str, execution_id: str, seconds: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        document = status(url, execution_id)
        if document["status"] in ("completed", "failed", "timeout"):
            return document
        assert time.monotonic() < deadline, document
        time.sleep(0.05)


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/executions.db"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.database()


@pytest.mark.slow
def test_two_processes_share_executions_and_a_crash_loses_no_finished_result(
    store: str, tmp_path: Path
) -> None:
    log = tmp_path / "kit.log"
    with kit(store, log) as a, kit(store, log) as b:
        pid_b = wait(b, invoke(b, 0))["output"]["pid"]
        done = invoke(a, 0.3)
        assert status(b, done)["status"] in ("accepted", "running")  # B sees A's execution
        finished = wait(b, done)
        assert finished["status"] == "completed"
        pid_a = finished["output"]["pid"]
        assert pid_a != pid_b  # run where it arrived, answered by the other
        assert status(b, done, "/result") == finished
        response = httpx.get(f"{b}/executions/{done}", timeout=10)  # anonymous: not theirs
        assert response.status_code == 404
        # a cancel through B reaches the handler running in A (at A's next lease renewal)
        cancelled = invoke(a, 60)
        time.sleep(0.2)
        asked = httpx.post(f"{b}/executions/{cancelled}/cancel", headers=ALICE, timeout=10)
        assert asked.status_code == 202 and asked.json()["status"] == "running", asked.text
        ended = wait(b, cancelled, seconds=LEASE + 10)
        assert (ended["status"], ended["error"]["code"]) == ("failed", "CANCELLED")
        running = invoke(a, 60)
        time.sleep(2 * LEASE)  # A renews its lease: B still sees it running
        assert status(b, running)["status"] == "running"
    # both processes died (SIGKILL) with `running` running
    with kit(store, log) as c, kit(store, log) as d:
        assert status(c, done) == finished
        assert status(d, done, "/result") == finished
        lost = wait(d, running, seconds=LEASE + 10)
        assert lost["status"] == "failed"
        assert lost["error"]["code"] == "EXECUTION_LOST"
        assert status(c, running) == lost  # ended once, the same for everyone
