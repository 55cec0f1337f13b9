"""The one way every server serves (agentproto._runtime.serve, issue 40): header and body
deadlines, the head's size, the connection caps with eviction of idle connections, and the
ASGI guard (Host, Origin, content type, body size and nesting), over real loopback sockets
with short deadlines configured. Each check fails with the protection removed: plain uvicorn
keeps every one of these connections open."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

import httpx
import pytest
from agentproto import Limits
from agentproto._runtime.guard import Guard, GuardPolicy, Refusal, is_loopback, jsonrpc_error
from agentproto._runtime.serve import UnsafeBindError, check_bind

from tests.servers.hostile import DEEP, Crowd, head, request
from tests.servers.loopback import serve_guarded

SHORT = Limits(
    header_deadline=1.0,
    request_body_deadline=1.5,
    max_server_connections=30,
    max_connections_per_client=10,
    max_header_bytes=4096,
)


async def echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Reads the whole body, answers its length (``/ignore``: answers without reading)."""
    if scope["type"] != "http":
        return
    size = 0
    if scope["path"] != "/ignore":
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            size += len(message.get("body", b""))
            if not message.get("more_body"):
                break
    body = json.dumps({"read": size}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": body})


def guarded(**policy: Any) -> Guard:
    return Guard(echo, policy=GuardPolicy(limits=SHORT, **policy))


def ok(url: str, source: str = "127.0.0.1") -> None:
    answer = httpx.post(url + "/x", json={"a": 1}, timeout=5)
    assert answer.status_code == 200, answer.text


def test_slow_headers_are_answered_408_and_closed_at_the_deadline() -> None:
    with serve_guarded(guarded(), limits=SHORT) as url, Crowd() as crowd:
        crowd.open(url, 8, "127.0.0.2", b"POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        crowd.hold(0.6, every=0.1, data=b"X-A: b\r\n")
        assert crowd.watch() == 8  # within the deadline, dripping: still open
        ok(url)
        crowd.hold(1.2, every=0.1, data=b"X-A: b\r\n")
        assert crowd.watch() == 0
        assert all(0.9 < t < 2.0 for t in crowd.closed_at.values()), crowd.closed_at
        assert crowd.statuses() == [408] * 8
        ok(url)


def test_a_silent_connection_is_closed_at_the_header_deadline() -> None:
    with serve_guarded(guarded(), limits=SHORT) as url, Crowd() as crowd:
        crowd.open(url, 5, "127.0.0.2")
        crowd.hold(2.0, every=0.1, data=None)
        assert crowd.watch() == 0
        assert all(t < 2.0 for t in crowd.closed_at.values())


def test_the_next_request_on_a_kept_alive_connection_has_its_own_head_deadline() -> None:
    with serve_guarded(guarded(), limits=SHORT) as url, Crowd() as crowd:
        first = head(
            "POST", "/x", "127.0.0.1", {"Content-Length": "2", "Content-Type": "application/json"}
        )
        crowd.open(url, 1, "127.0.0.2", first + b"{}")
        time.sleep(0.3)
        crowd.watch()
        assert crowd.statuses() == [200]
        crowd.drip(b"GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the next head, never finished
        crowd.hold(2.0, every=0.2, data=b"X-A: b\r\n")
        assert crowd.watch() == 0
        assert crowd.statuses() == [200]  # and the 408 after it, in the same answer bytes
        assert b"408 Request Timeout" in next(iter(crowd.answers.values()))


def test_a_dripped_body_is_answered_408_by_the_guard_and_closed() -> None:
    with serve_guarded(guarded(), limits=SHORT) as url, Crowd() as crowd:
        start = head(
            "POST",
            "/x",
            "127.0.0.1",
            {"Content-Length": "1000", "Content-Type": "application/json"},
        )
        crowd.open(url, 6, "127.0.0.2", start + b"[")
        crowd.hold(2.5, every=0.2, data=b" ")
        assert crowd.watch() == 0
        assert crowd.statuses() == [408] * 6
        body = json.loads(next(iter(crowd.answers.values())).partition(b"\r\n\r\n")[2])
        assert body == {"error": "the body did not arrive within 1.5 s"}
        ok(url)


def test_a_body_the_app_never_reads_cannot_hold_the_connection() -> None:
    with serve_guarded(echo, limits=SHORT) as url, Crowd() as crowd:  # no guard: the server alone
        start = head("POST", "/ignore", "127.0.0.1", {"Content-Length": "100000"})
        crowd.open(url, 4, "127.0.0.2", start)
        crowd.hold(3.5, every=0.2, data=b"x")
        assert crowd.watch() == 0
        assert all(t < 3.5 for t in crowd.closed_at.values())


def test_a_head_past_max_header_bytes_is_431() -> None:
    with serve_guarded(guarded(), limits=SHORT) as url, Crowd() as crowd:
        crowd.open(url, 1, "127.0.0.2", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for _ in range(10):
            crowd.drip(b"X-Pad: " + b"a" * 1000 + b"\r\n")
            time.sleep(0.05)
        crowd.hold(0.3, data=None)
        assert crowd.watch() == 0
        assert crowd.statuses() == [431]


def test_an_idle_flood_is_held_to_the_cap_and_legitimate_clients_are_served() -> None:
    with serve_guarded(guarded(), limits=SHORT) as url, Crowd() as crowd:
        for n in range(2, 10):  # 8 addresses x 10 idle connections: past the cap of 30
            crowd.open(url, 10, f"127.0.0.{n}")
        crowd.hold(0.3, data=None)
        assert crowd.watch() <= SHORT.max_server_connections
        for _ in range(5):
            ok(url)  # each takes an idle connection's place
        assert crowd.watch() <= SHORT.max_server_connections


def test_one_client_is_held_to_its_bound_and_others_are_not() -> None:
    with serve_guarded(guarded(), limits=SHORT) as url, Crowd() as crowd:
        crowd.open(url, 25, "127.0.0.2")
        crowd.hold(0.3, data=None)
        assert crowd.watch() == SHORT.max_connections_per_client
        ok(url)


def test_busy_connections_are_not_evicted_the_newcomer_is_refused_503() -> None:
    async def hold(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"x", "more_body": True})
            await asyncio.sleep(3)

    limits = SHORT.replace(max_connections_per_client=3)
    with serve_guarded(hold, limits=limits) as url, Crowd() as crowd:
        crowd.open(url, 3, "127.0.0.2", head("GET", "/", "127.0.0.1"))
        crowd.hold(0.3, data=None)
        crowd.open(url, 1, "127.0.0.2", head("GET", "/", "127.0.0.1"))
        crowd.hold(0.3, data=None)
        assert crowd.watch() == 3
        assert sorted(crowd.statuses()) == [200, 200, 200, 503]


@pytest.mark.parametrize(
    ("headers", "status", "kind"),
    [
        ({"Host": "evil.example"}, 421, "host"),
        ({"Origin": "https://evil.example"}, 403, "origin"),
        ({"Content-Type": "text/plain"}, 415, "content_type"),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "content_type"),
        ({}, 415, "content_type"),  # a body without a type
    ],
)
def test_the_guard_refuses_what_a_web_page_could_send(
    headers: dict[str, str], status: int, kind: str
) -> None:
    with serve_guarded(guarded(), limits=SHORT) as url:
        code, _, body = request(url, "POST", "/x", b'{"a":1}', headers)
        assert code == status
        assert list(json.loads(body)) == ["error"]  # the protocol's shape, nothing echoed
        assert b"evil" not in body and b"text/plain" not in body


def test_the_guard_lets_allowed_hosts_and_origins_through() -> None:
    app = guarded(allowed_hosts=("api.example.com",), allowed_origins=("https://app.example.com",))
    with serve_guarded(app, limits=SHORT) as url:
        typed = {"Content-Type": "application/json"}
        assert request(url, "POST", "/x", b"{}", {"Host": "api.example.com", **typed})[0] == 200
        assert request(url, "POST", "/x", b"{}", {"Host": "127.0.0.1", **typed})[0] == 421
        good = {"Host": "api.example.com", "Origin": "https://app.example.com", **typed}
        assert request(url, "POST", "/x", b"{}", good)[0] == 200


def test_deep_json_is_refused_before_the_app_parses_it_in_the_protocols_shape() -> None:
    app = guarded(error_body=jsonrpc_error)
    with serve_guarded(app, limits=SHORT) as url:
        code, _, body = request(url, "POST", "/x", DEEP, {"Content-Type": "application/json"})
        assert code == 400
        assert json.loads(body)["error"]["code"] == -32700
        # deep-looking text inside strings is not nesting
        text = json.dumps({"s": "[" * 5000, "t": '\\"[[[' * 100}).encode()
        code, _, body = request(url, "POST", "/x", text, {"Content-Type": "application/json"})
        assert (code, json.loads(body)) == (200, {"read": len(text)})


def test_a_body_past_max_body_bytes_is_413_declared_or_not() -> None:
    app = guarded(max_body_bytes=1000)
    with serve_guarded(app, limits=SHORT) as url:
        typed = {"Content-Type": "application/json"}
        assert request(url, "POST", "/x", b"[" + b"1," * 600 + b"1]", typed)[0] == 413
        chunked = {**typed, "Transfer-Encoding": "chunked"}
        piece = b"[" + b"1," * 600 + b"1]"
        framed = b"%x\r\n%s\r\n0\r\n\r\n" % (len(piece), piece)
        assert request(url, "POST", "/x", framed, chunked)[0] == 413


def test_a_foreign_origin_websocket_handshake_is_refused() -> None:
    websockets = pytest.importorskip("websockets.sync.client")
    from websockets.exceptions import ConnectionClosed, InvalidStatus

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            await receive()
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 1000})

    with serve_guarded(Guard(app, policy=GuardPolicy(limits=SHORT)), limits=SHORT) as url:
        ws_url = "ws" + url.removeprefix("http") + "/"
        with websockets.connect(ws_url) as socket_:
            with pytest.raises(ConnectionClosed):
                socket_.recv(timeout=2)  # accepted, then closed normally
        with pytest.raises(InvalidStatus, match="403"):
            websockets.connect(ws_url, origin="https://evil.example")  # type: ignore[arg-type]
        with pytest.raises(InvalidStatus, match="421"):
            websockets.connect(ws_url, additional_headers={"Host": "evil.example"})


def test_loopback_names() -> None:
    assert all(
        map(is_loopback, ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "a.localhost"])
    )
    assert not any(
        map(is_loopback, ["0.0.0.0", "::", "", "10.0.0.1", "example.com", "localhost.evil"])
    )


def test_a_public_bind_without_auth_is_refused_unless_said_and_then_warned(
    caplog: pytest.LogCaptureFixture,
) -> None:
    check_bind("127.0.0.1", authenticated=False)
    check_bind("0.0.0.0", authenticated=True)
    with pytest.raises(UnsafeBindError, match="without authentication"):
        check_bind("0.0.0.0", authenticated=False)
    with caplog.at_level(logging.WARNING, "agentproto.server"):
        check_bind("0.0.0.0", authenticated=False, public_without_auth=True)
    assert "WITHOUT authentication" in caplog.text


def test_refusal_shapes() -> None:
    refusal = Refusal(400, "json_depth", "too deep")
    assert jsonrpc_error(refusal) == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32700, "message": "too deep"},
    }


def test_the_acp_token_never_reaches_the_websocket_handshake_log(
    caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]
) -> None:
    """uvicorn's WebSocket implementation logs the handshake's headers at DEBUG."""
    sync_client = pytest.importorskip("websockets.sync.client")
    from agentproto.acp import Agent
    from agentproto.acp.remote_server import AgentApp

    token = "tok-never-logged-4242"
    app = AgentApp(Agent, token=token)
    with caplog.at_level(logging.DEBUG):
        with serve_guarded(app, limits=SHORT, log_level="debug") as url:
            ws_url = "ws" + url.removeprefix("http") + "/"
            headers = {"Authorization": f"Bearer {token}"}
            with sync_client.connect(ws_url, additional_headers=headers) as socket_:
                socket_.send(
                    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}'
                )
                assert json.loads(socket_.recv(timeout=5))["id"] == 1
    logged = caplog.text + capfd.readouterr().err  # uvicorn's own handler writes to stderr
    assert "< authorization: Bearer" in logged  # the handshake was logged, the token masked
    assert token not in logged
