"""Skill Sharing provider kit, safe on the internet: a plain HTTP client on loopback against it
(blocking handlers off the loop, timeouts enforced, executions bound to their principal, every
error the §8.2 envelope with §8.3 details, a bounded execution store, private skills listed for
the credentials they accept)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from agentproto.skills import SkillProvider
from agentproto.skills.errors import ERRORS
from agentproto.skills.models import InvocationRequest, SkillDescriptor

from tests.conftest import within
from tests.servers.loopback import serve

ALICE = {"X-API-Key": "key-alice"}
BOB = {"X-API-Key": "key-bob"}
SECRET = "db password=hunter2"


def build(base_url: str, **options: Any) -> SkillProvider:
    def admit(request: Any, descriptor: SkillDescriptor) -> None:
        if descriptor.id == "t/hook-crash":
            raise RuntimeError(SECRET)

    provider = SkillProvider(
        {"name": "Test"},
        base_url=base_url,
        api_keys={"key-alice": "alice", "key-bob": "bob", "key-internal": "ops"},
        verify_token=lambda token: "carol" if token == "tok-good" else None,
        admit=admit,
        **options,
    )

    @provider.skill(
        id="t/block",
        name="Block",
        capability_type="task",
        description="A blocking handler",
        version="1.0.0",
        timeout_ms=300,
    )
    def block(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        time.sleep(float(inputs.get("seconds", 2)))
        return "woke"

    @provider.skill(
        id="t/async-slow",
        name="Async slow",
        capability_type="task",
        description="An async handler past its timeout",
        version="1.0.0",
        timeout_ms=200,
    )
    async def async_slow(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        await anyio.sleep(5)

    @provider.skill(
        id="t/sync-fast",
        name="Sync fast",
        capability_type="api",
        description="A quick blocking handler",
        version="1.0.0",
    )
    def sync_fast(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return {"thread": threading.current_thread().name}

    @provider.skill(
        id="t/mine",
        name="Mine",
        capability_type="api",
        description="Restricted, for alice and bob",
        version="1.0.0",
        auth={"type": "api_key"},
        access="restricted",
        allow=["alice", "bob"],
    )
    def mine(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return {"secret-of": inputs.get("who")}

    @provider.skill(
        id="t/open",
        name="Open",
        capability_type="api",
        description="Public, no auth",
        version="1.0.0",
    )
    def open_skill(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return "open"

    @provider.skill(
        id="t/crash",
        name="Crash",
        capability_type="task",
        description="A handler that raises",
        version="1.0.0",
    )
    def crash(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        raise RuntimeError(SECRET)

    @provider.skill(
        id="t/hook-crash",
        name="Hook crash",
        capability_type="task",
        description="The admission hook raises",
        version="1.0.0",
    )
    def hook_crash(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return "never"

    @provider.skill(
        id="t/oauth",
        name="OAuth",
        capability_type="knowledge",
        description="OAuth skill",
        version="1.0.0",
        auth={
            "type": "oauth2",
            "oauth2": {
                "authorization_url": "https://auth.t.example/authorize",
                "token_url": "https://auth.t.example/token",
                "scopes": {"read": "Read"},
            },
        },
    )
    def oauth(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return "oauth ok"

    @provider.skill(
        id="t/internal",
        name="Internal",
        capability_type="plugin",
        description="Private, keyed in a named header",
        version="1.0.0",
        auth={"type": "api_key", "header": "X-Internal-Key"},
        access="private",
        allow=["ops"],
    )
    def internal(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return "internal ok"

    return provider


class Site:
    def __init__(self, url: str, provider: SkillProvider) -> None:
        self.url = url
        self.provider = provider
        self.http = httpx.Client(base_url=url, timeout=5)

    def invoke(
        self, skill_id: str, inputs: dict[str, Any] | None = None, **headers: str
    ) -> httpx.Response:
        body = {
            "caller": {"id": "t", "type": "service"},
            "skill_id": skill_id,
            "inputs": inputs or {},
        }
        path = f"/skills/{skill_id.replace('/', '%2F')}/invoke"
        return self.http.post(path, json=body, headers=headers)

    def wait(self, execution_id: str, headers: dict[str, str], seconds: float = 5) -> Any:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            document = self.http.get(f"/executions/{execution_id}", headers=headers).json()
            if document["status"] not in ("accepted", "running"):
                return document
            time.sleep(0.02)
        raise AssertionError(f"execution {execution_id} still running after {seconds} s")


def serve_site(**options: Any) -> Iterator[Site]:
    holder: dict[str, SkillProvider] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await holder["provider"].app(scope, receive, send)

    with serve(app) as url:
        holder["provider"] = build(url, **options)
        site = Site(url, holder["provider"])
        try:
            yield site
        finally:
            site.http.close()


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    yield from serve_site()


def assert_envelope(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """A §8.2 envelope: JSON, only ``error``, one of the seven codes, a message."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    error: dict[str, Any] = body["error"]
    assert error["code"] == code and code in ERRORS
    assert isinstance(error["message"], str) and error["message"]
    assert set(error) <= {"code", "message", "details", "retry"}
    if "retry" in error:
        assert set(error["retry"]) == {"suggested_delay_ms", "max_attempts"}
    return error


# -- handlers off the loop, timeouts enforced --------------------------------------------------


def test_a_blocking_handler_does_not_block_the_server_and_times_out(site: Site) -> None:
    def work() -> None:
        started = time.monotonic()
        accepted = site.invoke("t/block", {"seconds": 2})
        assert accepted.status_code == 202
        execution_id = accepted.json()["execution_id"]
        index_started = time.monotonic()
        assert site.http.get("/.well-known/skill-sharing").status_code == 200
        assert time.monotonic() - index_started < 0.5  # served while the handler sleeps
        done = site.wait(execution_id, {})
        assert done["status"] == "timeout"
        assert time.monotonic() - started < 1.5  # 300 ms enforced, not the handler's 2 s
        error = done["error"]
        assert error["code"] == "INVOCATION_TIMEOUT"
        assert error["details"] == {"timeout_ms": 300, "execution_id": execution_id}
        assert error["retry"] == {"suggested_delay_ms": 1000, "max_attempts": 3}

    within(10, work)


def test_an_async_handler_past_its_timeout_ends_timeout(site: Site) -> None:
    def work() -> None:
        execution_id = site.invoke("t/async-slow").json()["execution_id"]
        done = site.wait(execution_id, {}, seconds=3)
        assert done["status"] == "timeout" and done["error"]["details"]["timeout_ms"] == 200

    within(10, work)


def test_a_sync_handler_runs_in_a_worker_thread(site: Site) -> None:
    def work() -> None:
        execution_id = site.invoke("t/sync-fast").json()["execution_id"]
        done = site.wait(execution_id, {})
        assert done["status"] == "completed"
        assert done["output"]["thread"] != threading.main_thread().name
        assert "completed_at" in done["timestamps"]

    within(10, work)


# -- executions belong to their principal ------------------------------------------------------


def test_one_principal_cannot_see_poll_or_fetch_anothers_execution(site: Site) -> None:
    def work() -> None:
        accepted = site.invoke("t/mine", {"who": "alice"}, **ALICE)
        assert accepted.status_code == 202
        execution_id = accepted.json()["execution_id"]
        assert site.wait(execution_id, ALICE)["output"] == {"secret-of": "alice"}
        for path in (f"/executions/{execution_id}", f"/executions/{execution_id}/result"):
            assert site.http.get(path, headers=ALICE).status_code == 200
            for others in (
                BOB,
                {},
                {"X-API-Key": "key-wrong"},
                {"Authorization": "Bearer tok-good"},
            ):
                error = assert_envelope(site.http.get(path, headers=others), 404, "SKILL_NOT_FOUND")
                assert "alice" not in str(error)  # the same answer as an unknown id
        unknown = assert_envelope(
            site.http.get("/executions/nope", headers=BOB), 404, "SKILL_NOT_FOUND"
        )
        assert unknown["details"] == {"execution_id": "nope"}
        # nothing lists executions
        assert_envelope(site.http.get("/executions", headers=BOB), 404, "SKILL_NOT_FOUND")
        # bob's own execution is his; alice cannot read it
        bobs = site.invoke("t/mine", {"who": "bob"}, **BOB).json()["execution_id"]
        assert site.wait(bobs, BOB)["output"] == {"secret-of": "bob"}
        assert_envelope(
            site.http.get(f"/executions/{bobs}/result", headers=ALICE), 404, "SKILL_NOT_FOUND"
        )

    within(10, work)


def test_an_anonymous_execution_is_not_readable_with_credentials(site: Site) -> None:
    def work() -> None:
        execution_id = site.invoke("t/open").json()["execution_id"]
        assert site.wait(execution_id, {})["output"] == "open"
        response = site.http.get(f"/executions/{execution_id}", headers=ALICE)
        assert_envelope(response, 404, "SKILL_NOT_FOUND")

    within(10, work)


# -- every error is the envelope, with no internal text ----------------------------------------


def test_a_handler_exception_is_an_envelope_code_and_its_text_stays_local(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    def work() -> None:
        execution_id = site.invoke("t/crash").json()["execution_id"]
        done = site.wait(execution_id, {})
        assert done["status"] == "failed"
        assert done["error"]["code"] == "ENDPOINT_UNREACHABLE" and done["error"]["code"] in ERRORS
        assert done["error"]["retry"] == {"suggested_delay_ms": 2000, "max_attempts": 3}
        text = site.http.get(f"/executions/{execution_id}/result").text
        assert "hunter2" not in text and "RuntimeError" not in text

    with caplog.at_level(logging.ERROR, logger="agentproto.skills.provider"):
        within(10, work)
    assert any(SECRET in r.getMessage() or SECRET in str(r.exc_info) for r in caplog.records)


def test_a_hook_exception_is_an_opaque_503_envelope(site: Site) -> None:
    for _ in range(20):  # on one kept-alive connection: answered, never reset
        response = site.invoke("t/hook-crash")
        error = assert_envelope(response, 503, "ENDPOINT_UNREACHABLE")
        assert "hunter2" not in response.text and "RuntimeError" not in response.text
        assert error["retry"]["max_attempts"] >= 1


def test_unknown_routes_and_wrong_methods_are_envelopes(site: Site) -> None:
    error = assert_envelope(site.http.get("/no/such/thing"), 404, "SKILL_NOT_FOUND")
    assert error["details"] == {"path": "/no/such/thing"}
    response = site.http.post("/.well-known/skill-sharing", json={})
    error = assert_envelope(response, 405, "VALIDATION_ERROR")
    assert error["details"] == {"method": "POST", "allowed": ["GET", "HEAD"]}
    assert {m.strip() for m in response.headers["allow"].split(",")} == {"GET", "HEAD"}
    assert_envelope(site.http.delete("/executions/x"), 405, "VALIDATION_ERROR")
    assert_envelope(site.http.get("/.well-known/skill-sharing?type=bogus"), 400, "VALIDATION_ERROR")
    missing = assert_envelope(site.http.get("/skills/t%2Fnope/descriptor"), 404, "SKILL_NOT_FOUND")
    assert missing["details"] == {"skill_id": "t/nope"}
    bad = site.http.post(
        "/skills/t%2Fopen/invoke",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert_envelope(bad, 400, "VALIDATION_ERROR")


# -- §8.3 details and retry advice -------------------------------------------------------------


def test_401_names_the_auth_type_header_and_retry(site: Site) -> None:
    error = assert_envelope(site.invoke("t/mine"), 401, "AUTH_REQUIRED")
    assert error["details"] == {
        "required_auth_type": "api_key",
        "skill_id": "t/mine",
        "header": "X-API-Key",
    }
    assert error["retry"] == {"suggested_delay_ms": 0, "max_attempts": 1}
    error = assert_envelope(site.invoke("t/oauth"), 401, "AUTH_REQUIRED")
    assert error["details"]["required_auth_type"] == "oauth2"
    assert error["details"]["authorization_url"] == "https://auth.t.example/authorize"
    assert error["details"]["token_url"] == "https://auth.t.example/token"
    assert error["details"]["scopes"] == {"read": "Read"}
    assert error["retry"] == {"suggested_delay_ms": 0, "max_attempts": 1}
    keyed = site.invoke("t/internal", **{"X-Internal-Key": "key-wrong"})
    error = assert_envelope(keyed, 401, "AUTH_REQUIRED")
    assert error["details"]["header"] == "X-Internal-Key"
    assert "key-wrong" not in keyed.text


def test_403_names_the_skill(site: Site) -> None:
    alice = {"X-Internal-Key": ALICE["X-API-Key"]}  # a key, in the header the skill names
    error = assert_envelope(site.invoke("t/internal", **alice), 403, "PERMISSION_DENIED")
    assert error["details"] == {"skill_id": "t/internal"}
    assert "alice" not in str(error)


# -- private skills ----------------------------------------------------------------------------


def test_a_private_skill_shows_for_a_key_in_the_header_its_descriptor_names(site: Site) -> None:
    def ids(headers: dict[str, str]) -> list[str]:
        response = site.http.get("/.well-known/skill-sharing", headers=headers)
        return [s["id"] for s in response.json()["skills"]]

    assert "t/internal" not in ids({})
    assert "t/internal" not in ids({"X-Internal-Key": "key-wrong"})
    assert "t/internal" not in ids(ALICE)  # a credential, but not one the skill allows
    assert "t/internal" in ids({"X-Internal-Key": "key-internal"})
    # only the header its descriptor names carries the key (issue 40: X-API-Key was taken)
    assert "t/internal" not in ids({"X-API-Key": "key-internal"})
    wrong_header = site.invoke("t/internal", **{"X-API-Key": "key-internal"})
    assert_envelope(wrong_header, 401, "AUTH_REQUIRED")
    path = "/skills/t%2Finternal/descriptor"
    assert_envelope(site.http.get(path), 404, "SKILL_NOT_FOUND")
    assert site.http.get(path, headers={"X-Internal-Key": "key-internal"}).status_code == 200
    execution_id = site.invoke("t/internal", **{"X-Internal-Key": "key-internal"}).json()[
        "execution_id"
    ]
    assert site.wait(execution_id, {"X-Internal-Key": "key-internal"})["output"] == "internal ok"


# -- the bounded execution store ---------------------------------------------------------------


def test_the_store_keeps_at_most_max_executions_oldest_evicted_first() -> None:
    def work() -> None:
        for small in serve_site(max_executions=3):
            ids = [small.invoke("t/open").json()["execution_id"] for _ in range(5)]
            for execution_id in ids[2:]:
                small.wait(execution_id, {})
            assert len(small.provider.executions) == 3
            for execution_id in ids[:2]:
                response = small.http.get(f"/executions/{execution_id}")
                assert_envelope(response, 404, "SKILL_NOT_FOUND")
            assert small.http.get(f"/executions/{ids[-1]}").status_code == 200

    within(20, work)


def test_the_store_forgets_executions_after_their_ttl() -> None:
    def work() -> None:
        for small in serve_site(execution_ttl=0.3):
            execution_id = small.invoke("t/open").json()["execution_id"]
            assert small.wait(execution_id, {})["status"] == "completed"
            time.sleep(0.5)
            assert_envelope(small.http.get(f"/executions/{execution_id}"), 404, "SKILL_NOT_FOUND")
            assert len(small.provider.executions) == 0

    within(20, work)


def test_store_bounds_are_checked() -> None:
    with pytest.raises(ValueError):
        SkillProvider({"name": "x"}, base_url="http://x", max_executions=0)
    with pytest.raises(ValueError):
        SkillProvider({"name": "x"}, base_url="http://x", execution_ttl=0)


def test_a_validation_error_carries_its_issues_as_the_spec_array(site: Site) -> None:
    """§8.3.1: VALIDATION_ERROR details are an array of {path, message, expected, actual}
    on the wire (the consumer keeps them under details["errors"], typed)."""
    response = site.http.post("/skills/t%2Fopen/invoke", json={"inputs": 5})
    error = assert_envelope(response, 400, "VALIDATION_ERROR")
    assert isinstance(error["details"], list) and error["details"], error
    assert all({"path", "message"} <= set(issue) for issue in error["details"])


# -- bounds (issue 25) ---------------------------------------------------------------------------


def test_handlers_that_outlive_their_timeout_cost_a_bounded_number_of_threads() -> None:
    """A blocking handler past ``timeout_ms`` keeps its thread (a thread cannot be killed):
    300 such calls left 305 threads. At most ``max_handler_threads`` run at once; the
    executions waiting for one time out without starting."""
    for site in serve_site(max_handler_threads=4):
        before = threading.active_count()
        ids = []
        for _ in range(40):
            accepted = site.invoke("t/block", {"seconds": 1.5})
            assert accepted.status_code == 202
            ids.append(accepted.json()["execution_id"])
        assert threading.active_count() <= before + 4 + 2
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            statuses = {site.http.get(f"/executions/{i}").json()["status"] for i in ids}
            if statuses == {"timeout"}:
                break
            time.sleep(0.05)
        assert statuses == {"timeout"}
        assert threading.active_count() <= before + 4 + 2
        deadline = time.monotonic() + 15  # the stuck handlers sleep 1.5 s (longer under load)
        while site.provider._threads_busy and time.monotonic() < deadline:
            time.sleep(0.05)
        assert site.provider._threads_busy == 0  # each thread given back when its handler ended


def test_an_api_key_does_not_open_an_oauth2_skill(site: Site) -> None:
    """The descriptor says oauth2: an API key the provider knows was accepted anyway."""
    error = assert_envelope(site.invoke("t/oauth", **ALICE), 401, "AUTH_REQUIRED")
    assert error["details"]["required_auth_type"] == "oauth2"
    assert site.invoke("t/oauth", Authorization="Bearer tok-good").status_code == 202
    bearer_for_keyed = site.invoke("t/mine", Authorization="Bearer tok-good")
    assert_envelope(bearer_for_keyed, 401, "AUTH_REQUIRED")  # and the other way round


def test_a_request_body_past_the_document_limit_is_refused_before_parsing() -> None:
    from agentproto import Limits

    for site in serve_site(limits=Limits(max_document_bytes=1000)):
        big = {
            "caller": {"id": "t", "type": "service"},
            "skill_id": "t/open",
            "inputs": {"pad": "x" * 1000},
        }
        response = site.http.post("/skills/t%2Fopen/invoke", json=big)
        error = assert_envelope(response, 400, "VALIDATION_ERROR")
        assert "max_document_bytes" in error["message"]
        deep = b'{"caller": ' + b"[" * 300 + b"]" * 300 + b"}"
        typed = {"Content-Type": "application/json"}
        response = site.http.post("/skills/t%2Fopen/invoke", content=deep, headers=typed)
        assert "max_json_depth" in assert_envelope(response, 400, "VALIDATION_ERROR")["message"]


def test_a_handler_cancelled_before_its_thread_started_gives_the_thread_back() -> None:
    """Cancelled between taking a thread slot and the thread starting (an execution timing
    out just as a slot freed, seen under load): the slot leaked, one per such cancellation."""
    provider = SkillProvider({"name": "x"}, base_url="http://x", max_handler_threads=1)
    ran: list[bool] = []

    async def main() -> None:
        with anyio.CancelScope() as scope:
            scope.cancel()
            await provider._in_thread(lambda: ran.append(True))
        await anyio.sleep(0.2)  # a thread that (wrongly) started would have run by now

    anyio.run(main, backend="asyncio")
    assert provider._threads_busy == 0 and ran == []
