"""The AAP example runs as documented: examples/aap_server.py serves, examples/aap_client.py
talks to it (delta streaming, a trusted server tool, a client tool), and a restarted server
still has the session."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.conftest import GENERATED, ROOT

EXAMPLES = ROOT / "examples"


def start(port: int, store: str, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(GENERATED)}
    with log.open("ab") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                str(EXAMPLES / "aap_server.py"),
                "--port",
                str(port),
                "--store",
                store,
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, log.read_text()
        try:
            httpx.get(f"http://127.0.0.1:{port}/meta", timeout=1)
            return process
        except httpx.HTTPError:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)


def test_the_aap_example_server_and_client(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    store = f"sqlite:///{tmp_path / 'example.db'}"
    server = start(port, store, tmp_path / "server.log")
    try:
        done = subprocess.run(
            [sys.executable, str(EXAMPLES / "aap_client.py"), f"http://127.0.0.1:{port}"],
            env={**os.environ, "PYTHONPATH": str(GENERATED)},
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("agent: weather 1.0.0")
    assert "  [a server tool answered: Bergen: 21°C and sunny]" in lines
    assert "  [the agent calls locate]" in lines
    assert "  (end_turn) Here is what I found: Oslo" in lines
    session = lines[-1].split()[1].rstrip(":")
    assert lines[-1].endswith("10 messages kept by the server")
    server = start(port, store, tmp_path / "server.log")  # restarted: the session is kept
    try:
        answer = httpx.get(
            f"http://127.0.0.1:{port}/sessions/{session}/history",
            params={"type": "full"},
            headers={"Authorization": "Bearer sk-example"},
        )
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert answer.status_code == 200 and len(answer.json()["history"]["full"]) == 10
