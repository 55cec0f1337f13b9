"""Every server we ship, started with its own command, against the hostile-client harness
(tests/servers/hostile.py, issue 40): slow headers, slow bodies, an idle flood, deep JSON, a
huge body, a foreign Origin and Host, a text/plain CSRF post, a wrong auth header; legitimate
requests succeed meanwhile, and the server process's descriptors and threads come back to
their starting count after it. Deadlines and caps are configured short (``--limits``) so the
checks take seconds; ``benchmarks/bench_hostile.py`` runs the full-size version (500 + 500
slow connections, 2,000 idle ones) at the default limits."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.servers.hostile import (
    DEEP,
    Crowd,
    background,
    descriptors,
    head,
    request,
    settle,
    threads,
)

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
LIMITS = {
    "header_deadline": 1.5,
    "request_body_deadline": 2.0,
    "max_server_connections": 60,
    "max_connections_per_client": 20,
}
KEY = "sk-hostile-test-0123456789"


@dataclass
class Target:
    name: str
    command: list[str]
    env: dict[str, str]
    path: str  # a JSON endpoint
    valid: bytes  # a body it accepts
    auth: dict[str, str]
    wrong_auth: dict[str, str]
    shape: Callable[[Any], bool]  # the protocol's error shape
    deep_shape: Callable[[Any], bool]
    legit: Callable[[str], None]
    url: str = ""
    process: subprocess.Popen[str] | None = None
    log: Path = field(default_factory=Path)


def plain(body: Any) -> bool:
    return isinstance(body, dict) and set(body) == {"error"} and isinstance(body["error"], str)


def rpc(code: int | None = None) -> Callable[[Any], bool]:
    def check(body: Any) -> bool:
        error = body.get("error") if isinstance(body, dict) else None
        return (
            body.get("jsonrpc") == "2.0"
            and isinstance(error, dict)
            and (code is None or error.get("code") == code)
        )

    return check


def envelope(body: Any) -> bool:
    error = body.get("error") if isinstance(body, dict) else None
    return isinstance(error, dict) and isinstance(error.get("code"), str) and "message" in error


JSON = {"Content-Type": "application/json"}


def aap_legit(url: str) -> None:
    code, _, body = request(
        url,
        "POST",
        "/sessions",
        b'{"agent":{"name":"echo"}}',
        {**JSON, "Authorization": f"Bearer {KEY}"},
    )
    assert code == 201, body


def acp_legit(url: str) -> None:
    initialize = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}'
    code, headers, body = request(
        url, "POST", "/", initialize, {**JSON, "Authorization": f"Bearer {KEY}"}
    )
    assert code == 200 and json.loads(body)["result"]["protocolVersion"] == 1, body
    closed = request(
        url,
        "DELETE",
        "/",
        b"",
        {"Authorization": f"Bearer {KEY}", "Acp-Connection-Id": headers["acp-connection-id"]},
    )
    assert closed[0] == 202


def mcp_legit(url: str) -> None:
    initialize = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            },
        }
    ).encode()
    accept = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {KEY}"}
    code, _, body = request(url, "POST", "/mcp", initialize, {**JSON, **accept})
    assert code == 200 and b"protocolVersion" in body, body


def skills_legit(url: str) -> None:
    code, _, body = request(url, "GET", "/.well-known/skill-sharing", b"")
    assert code == 200 and b"Workers" in body, body


def targets(folder: Path, settings: dict[str, Any] | None = None) -> list[Target]:
    """The four servers, each with its own command and ``--limits settings`` (LIMITS)."""
    python = sys.executable
    limits = json.dumps(LIMITS if settings is None else settings)
    base = {**os.environ, "PYTHONPATH": os.pathsep.join([str(GENERATED), str(ROOT)])}
    return [
        Target(
            "aap",
            [python, "-m", "agentproto.aap.serve", "--agent", "tests.servers.aap_agents:agents",
             "--store", f"sqlite:///{folder}/aap.db", "--port", "0", "--limits", limits],
            {**base, "AAP_API_KEYS": f"bench:{KEY}"},
            "/sessions", b'{"agent":{"name":"echo"}}',
            {"Authorization": f"Bearer {KEY}"}, {"Authorization": f"Basic {KEY}"},
            plain, plain, aap_legit,
        ),
        Target(
            "acp",
            [python, "-m", "agentproto.acp.bridge", "--port", "0", "--limits", limits, "--",
             python, str(ROOT / "tests" / "acp_peers" / "echo_agent.py")],
            {**base, "AGENTPROTO_BRIDGE_TOKEN": KEY},
            "/", b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}',
            {"Authorization": f"Bearer {KEY}"}, {"Authorization": f"Bearer {KEY}x"},
            plain, rpc(-32700), acp_legit,
        ),
        Target(
            "mcp",
            [python, "-m", "agentproto.mcp", "--bundle", "giphy", "--auth",
             "giphy=query:api_key:env:GIPHY_KEY", "--transport", "http", "--port", "0",
             "--http-token", "env:MCP_TOKEN", "--limits", limits],
            {**base, "MCP_TOKEN": KEY, "GIPHY_KEY": "giphy-key"},
            "/mcp", b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
            {"Authorization": f"Bearer {KEY}", "Accept": "application/json, text/event-stream"},
            {"X-API-Key": KEY},
            rpc(), rpc(-32700), mcp_legit,
        ),
        Target(
            "skills",
            [python, "-m", "agentproto.skills.serve", "tests.servers.skills_workers:provider",
             "--port", "0", "--limits", limits],
            {**base, "SKILLS_STORE": "memory:"},
            "/skills/w%2Fpid/invoke", b'{"skill_id":"w/pid","inputs":{}}',
            {"X-API-Key": "key-alice"}, {"Authorization": "Bearer key-alice"},
            envelope, envelope, skills_legit,
        ),
    ]  # fmt: skip


@pytest.fixture(params=["aap", "acp", "mcp", "skills"])
def target(request: pytest.FixtureRequest) -> Iterator[Target]:
    with started(request.param) as found:
        yield found


@contextlib.contextmanager
def started(name: str, settings: dict[str, Any] | None = None) -> Iterator[Target]:
    """Server ``name`` running its own command (the URL it printed in ``url``)."""
    with tempfile.TemporaryDirectory() as folder:
        found = next(t for t in targets(Path(folder), settings) if t.name == name)
        found.log = Path(folder) / "stderr.log"
        with found.log.open("w") as errors:
            process = subprocess.Popen(
                found.command, env=found.env, cwd=ROOT, stdout=subprocess.PIPE,
                stderr=errors, text=True, start_new_session=True,
            )  # fmt: skip
        found.process = process
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            match = re.search(r"http://127\.0\.0\.1:\d+", line)
            assert match, f"{line!r} {found.log.read_text()[-2000:]}"
            found.url = match.group(0)
            yield found
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            if process.stdout is not None:
                process.stdout.close()


def body_of(answer: bytes) -> Any:
    return json.loads(answer.partition(b"\r\n\r\n")[2] or b"null")


def test_the_server_survives_the_hostile_harness(target: Target) -> None:
    url, pid = target.url, target.process.pid  # type: ignore[union-attr]
    target.legit(url)  # warm: lazily made threads and pools exist before the baseline
    time.sleep(0.5)
    baseline = (descriptors(pid), threads(pid))
    typed = {**JSON, **target.auth}
    host = url.removeprefix("http://")

    # Slow headers (20) and slow bodies (10), from another address than the legit client
    with Crowd() as heads, Crowd() as bodies:
        heads.open(
            url, 20, "127.0.0.2", f"POST {target.path} HTTP/1.1\r\nHost: {host}\r\n".encode()
        )
        start = head("POST", target.path, host, {**typed, "Content-Length": "100000"})
        bodies.open(url, 10, "127.0.0.3", start + b"[")
        with (
            background(lambda: heads.hold(3.0, every=0.2, data=b"X-A: b\r\n")),
            background(lambda: bodies.hold(3.6, every=0.2, data=b" ")),
        ):
            time.sleep(0.3)
            target.legit(url)  # served while they hang on
            target.legit(url)
        assert heads.watch() == 0 and bodies.watch() == 0
        assert max(heads.closed_at.values()) < 1.5 + 1.5, target.name
        assert max(bodies.closed_at.values()) < 2.0 + 1.0 + 2.0
        assert set(heads.statuses()) == {408}
        assert set(bodies.statuses()) == {408}
        assert all(target.shape(body_of(a)) for a in bodies.answers.values())

    # An idle flood: 5 addresses x 30 connections, past the per-client bound and the cap
    with Crowd() as idle:
        for n in range(4, 9):
            idle.open(url, 30, f"127.0.0.{n}")
        idle.hold(0.3, data=None)
        assert idle.watch() <= LIMITS["max_server_connections"]
        target.legit(url)
        target.legit(url)

    # Deep JSON (before auth, and after), a huge body, browsers, a wrong auth header
    code, _, body = request(url, "POST", target.path, DEEP, JSON)  # no credentials: never read
    assert code in (400, 401) and isinstance(json.loads(body), dict), (code, body[:200])
    code, _, body = request(url, "POST", target.path, DEEP, typed)
    assert code == 400 and target.deep_shape(json.loads(body)), (code, body[:200])
    code, _, body = request(
        url, "POST", target.path, b"", {**typed, "Content-Length": str(1 << 30)}
    )
    assert code in (400, 413) and target.shape(json.loads(body)), (code, body[:200])
    code, _, body = request(
        url, "POST", target.path, target.valid, {**typed, "Origin": "https://evil.example"}
    )
    assert code == 403 and target.shape(json.loads(body)), (code, body)
    code, _, body = request(
        url, "POST", target.path, target.valid, {**typed, "Host": "evil.example"}
    )
    assert code == 421 and target.shape(json.loads(body)), (code, body)
    csrf = {**target.auth, "Content-Type": "text/plain"}
    code, _, body = request(url, "POST", target.path, target.valid, csrf)
    assert code == 415 and target.shape(json.loads(body)), (code, body)
    code, _, body = request(url, "POST", target.path, target.valid, {**JSON, **target.wrong_auth})
    assert code == 401, (code, body)
    target.legit(url)

    # Everything given back; nothing leaked to the log
    now = settle(pid, baseline)
    assert now[0] <= baseline[0] and now[1] <= baseline[1], (baseline, now)
    log = target.log.read_text(errors="replace")
    assert "Traceback" not in log and "RecursionError" not in log, log[-3000:]
    assert KEY not in log


@pytest.mark.parametrize(
    "command",
    [
        ["-m", "agentproto.aap.serve", "--agent", "tests.servers.aap_agents:agents", "--no-auth"],
        ["-m", "agentproto.acp.bridge", "--", sys.executable, "-c", "pass"],
        ["-m", "agentproto.mcp", "--bundle", "giphy", "--auth", "giphy=query:api_key:env:K",
         "--transport", "http"],
    ],
    ids=["aap", "acp", "mcp"],
)  # fmt: skip
def test_a_public_address_without_auth_is_refused_by_every_command(command: list[str]) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(GENERATED), str(ROOT)]), "K": "k"}
    env.pop("AGENTPROTO_BRIDGE_TOKEN", None)
    done = subprocess.run(
        [sys.executable, *command[:2], "--host", "0.0.0.0", "--port", "0", *command[2:]],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "without authentication" in done.stderr and "--public-without-auth" in done.stderr
