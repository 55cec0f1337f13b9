"""The provider kit's HTTP-layer bounds, over real sockets on loopback: a 100 MB body is
refused early, a body that never finishes is answered 408 at ``Limits.request_body_deadline``,
both while other callers are served; an output JSON cannot carry fails its execution with a
typed error (not a 503 on every poll); a NaN from a caller is VALIDATION_ERROR."""

from __future__ import annotations

import datetime
import math
import socket
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from agentproto import Limits
from agentproto.skills import ExecutionFailedError, SkillProvider, SkillsClient
from agentproto.skills.models import InvocationRequest

from tests.servers.loopback import serve

OUTPUTS: dict[str, Any] = {
    "nan": {"x": math.nan},
    "datetime": {"at": datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)},
    "set": {"s": {1, 2}},
    "fine": {"ok": True},
}


def build(base_url: str, limits: Limits) -> SkillProvider:
    provider = SkillProvider({"name": "Bounds"}, base_url=base_url, limits=limits)
    for name in OUTPUTS:

        def handler(inputs: dict[str, Any], request: InvocationRequest, name: str = name) -> Any:
            return OUTPUTS[name]

        provider.skill(
            id=f"b/{name}",
            name=name,
            capability_type="api",
            description=f"returns {name}",
            version="1.0.0",
        )(handler)
    return provider


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    holder: dict[str, SkillProvider] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await holder["provider"].app(scope, receive, send)

    with serve(app) as base:
        holder["provider"] = build(base, Limits(request_body_deadline=1.0))
        yield base


def connect(url: str) -> socket.socket:
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname or "", parts.port or 80), timeout=10)
    return sock


def request_head(path: str, length: int | None) -> bytes:
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    head += (
        f"Content-Length: {length}\r\n" if length is not None else "Transfer-Encoding: chunked\r\n"
    )
    return (head + "\r\n").encode()


def read_answer(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def served(url: str) -> float:
    """A normal caller's round trip: index, invoke, result (seconds)."""
    started = time.monotonic()
    with SkillsClient(timeout=10) as client:
        skill = client.get_descriptor(f"{url}/skills/b%2Ffine/descriptor")
        assert client.invoke(skill, {}).result(timeout=10) == {"ok": True}
    return time.monotonic() - started


def test_a_100_mb_body_is_refused_early_while_others_are_served(url: str) -> None:
    sock = connect(url)
    sent = 0
    try:
        sock.sendall(request_head("/skills/b%2Ffine/invoke", None))
        piece = b"x" * (1024 * 1024)
        chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
        sock.settimeout(5)
        try:
            while sent < 100 * 1024 * 1024:
                sock.sendall(chunk)
                sent += len(piece)
                if sent == 4 * 1024 * 1024:
                    assert served(url) < 5  # served while the big body streams in
        except OSError:  # the server answered and closed: what is left cannot be sent
            pass
        answer = read_answer(sock)
    finally:
        sock.close()
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"max_document_bytes" in answer or b"VALIDATION_ERROR" in answer
    assert sent < 40 * 1024 * 1024  # refused at the 16 MiB limit, not after 100 MB
    assert served(url) < 5


def test_a_declared_100_mb_body_is_refused_before_a_byte_of_it_is_read(url: str) -> None:
    sock = connect(url)
    try:
        sock.sendall(request_head("/skills/b%2Ffine/invoke", 100 * 1024 * 1024))
        answer = read_answer(sock)
    finally:
        sock.close()
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]


def test_slow_loris_bodies_are_cut_at_the_deadline_and_others_are_served(url: str) -> None:
    lorises = [connect(url) for _ in range(20)]
    try:
        for sock in lorises:
            sock.sendall(request_head("/skills/b%2Ffine/invoke", 1000) + b'{"skill_id": ')
        headers_only = connect(url)  # never finishes its headers
        headers_only.sendall(b"POST /skills/b%2Ffine/invoke HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        assert served(url) < 5  # while 21 connections hang
        for sock in lorises:
            answer = read_answer(sock)
            assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        waited = time.monotonic() - started
        assert waited < 1.0 + 5, waited  # the deadline (1 s) plus slack for a loaded machine
        assert served(url) < 5
        headers_only.close()
    finally:
        for sock in lorises:
            sock.close()


@pytest.mark.parametrize("name", ["nan", "datetime", "set"])
def test_an_output_json_cannot_carry_fails_the_execution(url: str, name: str) -> None:
    with SkillsClient(timeout=10) as client:
        skill = client.get_descriptor(f"{url}/skills/b%2F{name}/descriptor")
        execution = client.invoke(skill, {})
        with pytest.raises(ExecutionFailedError) as caught:
            execution.result(timeout=10)
    document = httpx.get(f"{url}/executions/{execution.execution_id}", timeout=10)
    assert document.status_code == 200
    body = document.json()
    assert body["status"] == "failed" and "output" not in body
    assert body["error"]["code"] == "OUTPUT_NOT_JSON"
    assert caught.value.code == "OUTPUT_NOT_JSON"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_nan_from_a_caller_is_a_validation_error(url: str, constant: str) -> None:
    body = (
        '{"skill_id": "b/fine", "caller": {"id": "t", "type": "service"}, '
        f'"inputs": {{"x": {constant}}}}}'
    )
    response = httpx.post(
        f"{url}/skills/b%2Ffine/invoke",
        content=body,
        headers={"Content-Type": "application/json"},
        timeout=10,
    )
    assert response.status_code == 400, response.text
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
