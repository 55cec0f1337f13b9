"""The shared HTTP runtime: retries, typed errors, timeouts, auth hooks and redaction,
over a real loopback server (Starlette + uvicorn)."""

from __future__ import annotations

import email.utils
import logging
import socket
import time
from collections import Counter
from collections.abc import Iterator

import anyio
import httpx
import pytest
from agentproto._runtime.http import (
    AsyncHTTP,
    BearerAuth,
    RetryPolicy,
    SyncHTTP,
    format_path,
    parse_json,
    parse_nothing,
    retry_after,
)
from agentproto._runtime.http_errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    ConflictError,
    InternalServerError,
    RateLimitError,
    ResponseValidationError,
    status_error_class,
)
from agentproto._runtime.redact import MASK, Secret, redact_headers, redact_url
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from tests.servers.loopback import serve

FAST = RetryPolicy(max_retries=3, initial_delay=0.01, max_delay=0.05)


class Flaky:
    """Answers ``fail`` times with ``status`` (per key), then 200 ``{"ok": true}``."""

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()
        self.headers_seen: list[dict[str, str]] = []

    async def endpoint(self, request: Request) -> Response:
        key = request.path_params["key"]
        self.hits[key] += 1
        self.headers_seen.append(dict(request.headers))
        fail = int(request.query_params.get("fail", "0"))
        if self.hits[key] <= fail:
            status = int(request.query_params.get("status", "503"))
            headers = {"x-request-id": f"req-{key}-{self.hits[key]}"}
            if "after_ms" in request.query_params:
                headers["retry-after-ms"] = request.query_params["after_ms"]
            return JSONResponse({"error": {"message": "try later"}}, status, headers=headers)
        return JSONResponse({"ok": True, "hits": self.hits[key]})

    async def slow(self, request: Request) -> Response:
        await anyio.sleep(float(request.query_params.get("s", "2")))
        return PlainTextResponse("late")

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/api/flaky/{key}", self.endpoint, methods=["GET", "POST"]),
                Route("/api/slow", self.slow),
            ]
        )


@pytest.fixture(scope="module")
def flaky() -> Flaky:
    return Flaky()


@pytest.fixture(scope="module")
def base_url(flaky: Flaky) -> Iterator[str]:
    with serve(flaky.app()) as url:
        yield url + "/api"


def ok(response: httpx.Response) -> dict[str, object]:
    data = response.json()
    assert isinstance(data, dict)
    return data


def test_idempotent_calls_are_retried_until_success(base_url: str, flaky: Flaky) -> None:
    with SyncHTTP(base_url, retry=FAST) as http:
        result = http.request(http.call("GET", "flaky/a", params={"fail": 2}), ok).parse()
    assert result == {"ok": True, "hits": 3}
    assert flaky.hits["a"] == 3


def test_retries_give_up_with_the_typed_error(base_url: str, flaky: Flaky) -> None:
    with SyncHTTP(base_url, retry=FAST) as http, pytest.raises(InternalServerError) as caught:
        http.request(http.call("GET", "flaky/b", params={"fail": 10, "status": 502}), ok)
    assert flaky.hits["b"] == 4  # first try + 3 retries
    err = caught.value
    assert err.status_code == 502
    assert err.request_id == "req-b-4"
    assert err.json == {"error": {"message": "try later"}}
    assert "try later" in str(err)


def test_non_idempotent_calls_are_not_retried_unless_asked(base_url: str, flaky: Flaky) -> None:
    with SyncHTTP(base_url, retry=FAST) as http:
        with pytest.raises(InternalServerError):
            http.request(http.call("POST", "flaky/c", params={"fail": 1}, json={}), ok)
        assert flaky.hits["c"] == 1
        result = http.request(
            http.call("POST", "flaky/d", params={"fail": 1}, json={}, retry=True), ok
        ).parse()
        assert result["hits"] == 2


@pytest.mark.parametrize(("status", "cls"), [(429, RateLimitError), (409, ConflictError)])
def test_retry_after_ms_is_honoured(
    base_url: str, flaky: Flaky, status: int, cls: type[APIStatusError]
) -> None:
    slow_policy = RetryPolicy(max_retries=1, initial_delay=5, max_delay=5)
    with SyncHTTP(base_url, retry=slow_policy) as http:
        started = time.monotonic()
        params = {"fail": 1, "status": status, "after_ms": 50}
        result = http.request(http.call("GET", f"flaky/e{status}", params=params), ok).parse()
        elapsed = time.monotonic() - started
    assert result["hits"] == 2
    assert 0.04 <= elapsed < 2  # the 50 ms hint, not the 5 s backoff
    assert status_error_class(status) is cls


def test_other_client_errors_are_not_retried(base_url: str, flaky: Flaky) -> None:
    with SyncHTTP(base_url, retry=FAST) as http, pytest.raises(APIStatusError) as caught:
        http.request(http.call("GET", "flaky/f", params={"fail": 5, "status": 418}), ok)
    assert flaky.hits["f"] == 1
    assert type(caught.value) is APIStatusError and caught.value.status_code == 418


def test_connection_errors_are_retried_then_typed() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    attempts: list[float] = []
    policy = RetryPolicy(max_retries=2, initial_delay=0.01, rng=lambda: attempts.append(1) or 0.0)
    with SyncHTTP(f"http://127.0.0.1:{port}", retry=policy) as http:
        with pytest.raises(APIConnectionError) as caught:
            http.request(http.call("GET", "x"), parse_nothing)
    assert not isinstance(caught.value, APITimeoutError)
    assert len(attempts) == 2


def test_per_call_timeout_beats_the_default(base_url: str) -> None:
    with SyncHTTP(base_url, timeout=30, retry=RetryPolicy.disabled()) as http:
        started = time.monotonic()
        with pytest.raises(APITimeoutError):
            http.request(http.call("GET", "slow", params={"s": 3}, timeout=0.2), parse_nothing)
        assert time.monotonic() - started < 2


def test_async_flavour_has_the_same_policy(base_url: str, flaky: Flaky) -> None:
    async def main() -> None:
        async with AsyncHTTP(base_url, retry=FAST) as http:
            call = http.call("GET", "flaky/g", params={"fail": 2})
            assert (await http.request(call, ok)).parse()["hits"] == 3
            with pytest.raises(InternalServerError):
                await http.request(http.call("POST", "flaky/h", params={"fail": 1}), ok)

    anyio.run(main)
    assert flaky.hits["h"] == 1


def test_response_validation_error_names_the_type(base_url: str) -> None:
    from agentproto.aap.models import GetMetaResponse

    with SyncHTTP(base_url) as http, pytest.raises(ResponseValidationError) as caught:
        http.request(http.call("GET", "flaky/i"), parse_json(GetMetaResponse)).parse()
    assert "GetMetaResponse" in str(caught.value)


def test_auth_hook_and_bearer_are_applied(base_url: str, flaky: Flaky) -> None:
    def sign(request: httpx.Request) -> httpx.Request:
        request.headers["X-Signature"] = "signed"
        return request

    with SyncHTTP(base_url, auth=sign) as http:
        http.request(http.call("GET", "flaky/j"), ok)
    assert flaky.headers_seen[-1]["x-signature"] == "signed"
    with SyncHTTP(base_url, api_key=Secret("tok-123")) as http:
        http.request(http.call("GET", "flaky/k"), ok)
    assert flaky.headers_seen[-1]["authorization"] == "Bearer tok-123"
    with pytest.raises(ValueError):
        SyncHTTP(base_url, api_key="a", auth=sign)


def test_logs_and_reprs_are_redacted(base_url: str, caplog: pytest.LogCaptureFixture) -> None:
    key = "sk-live-abcdef123456"
    caplog.set_level(logging.DEBUG, logger="agentproto")
    with SyncHTTP(base_url, api_key=key, retry=FAST) as http:
        http.request(http.call("GET", "flaky/l", params={"fail": 1, "api_key": key}), ok)
        assert key not in repr(http)
    assert "retrying GET" in caplog.text
    assert key not in caplog.text
    assert MASK in caplog.text
    assert key not in repr(BearerAuth(key))
    assert key not in repr(Secret(key)) and key not in f"{Secret(key)}"


def test_redaction_helpers() -> None:
    assert redact_headers({"Authorization": "Bearer x", "X-Api-Key": "y", "Accept": "a"}) == {
        "Authorization": MASK,
        "X-Api-Key": MASK,
        "Accept": "a",
    }
    assert redact_url("https://u:p@h/p?key=s&q=1") == f"https://{MASK}@h/p?key={MASK}&q=1"


def test_backoff_grows_with_jitter_and_honours_retry_after() -> None:
    policy = RetryPolicy(initial_delay=1, multiplier=2, max_delay=5, jitter=0.5, rng=lambda: 1.0)
    assert [policy.delay(n) for n in range(4)] == [0.5, 1.0, 2.0, 2.5]
    assert policy.delay(0, {"Retry-After": "3"}) == 3
    assert policy.delay(0, {"Retry-After": "3600"}) == 0.5  # beyond max_retry_after: ignored
    future = email.utils.formatdate(time.time() + 10, usegmt=True)
    hinted = retry_after({"retry-after": future})
    assert hinted is not None and 8 < hinted <= 10
    assert retry_after({"retry-after": "soon"}) is None


def test_paths_are_templated_and_escaped() -> None:
    assert format_path("/s/{id}/t", id="a b/c") == "/s/a%20b%2Fc/t"
    with pytest.raises(ValueError):
        format_path("/s/{id}", id="..")
