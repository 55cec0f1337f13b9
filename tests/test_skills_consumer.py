"""Skill Sharing consumer under hostile or scripted providers (issue 17), over real loopback HTTP.

Each provider is a scripted server (tests/servers/scripted.py) that records every request, so
the tests assert what was actually sent: which credentials reached which origin, how long the
consumer paused between attempts, how often it polled.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from agentproto import skills
from agentproto.skills import Credentials, SkillsClient
from agentproto.skills.errors import (
    ERRORS,
    AuthRequiredError,
    EndpointUnreachableError,
    ExecutionFailedError,
    InvocationTimeoutError,
    SkillSharingError,
    ValidationError,
    VersionIncompatibleError,
)
from agentproto.skills.models import InvocationContext, RetryAdvice

from tests.conftest import ROOT, within
from tests.servers.scripted import Answer, Recorded, Script, scripted_server

EXAMPLE = json.loads((ROOT / "schemas/skills/examples/SkillDescriptor.1.json").read_text())
SECRETS = ("key-secret", "tok-secret")
BOTH = Credentials.of(api_key="key-secret", oauth2_token="tok-secret")


@pytest.fixture
def a() -> Iterator[Script]:
    with scripted_server() as script:
        yield script


@pytest.fixture
def b() -> Iterator[Script]:
    with scripted_server() as script:
        yield script


def descriptor(base: str, auth: dict[str, Any] | None = None, **endpoint: Any) -> dict[str, Any]:
    document = json.loads(json.dumps(EXAMPLE))
    document["endpoint"] = {
        "url": f"{base}/invoke",
        "method": "POST",
        "status_url": f"{base}/status/{{execution_id}}",
        **endpoint,
    }
    document["auth"] = auth or {"type": "none"}
    return document


def ok(document: Any) -> Answer:
    return Answer(body=json.dumps(document).encode())


def status(state: str, **extra: Any) -> Answer:
    return ok({"execution_id": "e-1", "skill_id": EXAMPLE["id"], "status": state, **extra})


def index(descriptor_url: str) -> Answer:
    entry = {
        "id": EXAMPLE["id"],
        "name": "Weather",
        "capability_type": "api",
        "description": "Forecasts",
        "descriptor_url": descriptor_url,
        "access": "public",
        "version": "2.1.0",
    }
    return ok({"protocol": {"version": "1.0.0"}, "provider": {"name": "Idx"}, "skills": [entry]})


def leaked(request: Recorded) -> list[str]:
    """The request's headers that carry a secret."""
    return [k for k, v in request.headers.items() if any(s in v for s in SECRETS)]


# -- credentials go only where they are due --------------------------------------------------


def test_a_descriptor_on_another_origin_never_receives_a_credential(a: Script, b: Script) -> None:
    a.answer(index(f"{b.base_url}/d.json"))
    b.answer(ok(descriptor(b.base_url)))

    def run() -> None:
        with SkillsClient(credentials=BOTH) as client:
            entry = client.discover(a.base_url).skills[0]
            client.get_descriptor(str(entry.descriptor_url))
        assert leaked(a.requests[0]) == ["x-api-key", "authorization"]  # the origin you named
        assert len(b.requests) == 1 and leaked(b.requests[0]) == []
        # Per-call credentials too; and an explicit allow-list opens the other origin.
        with SkillsClient() as client:
            client.discover(a.base_url, credentials=BOTH)
            client.get_descriptor(f"{b.base_url}/d.json", credentials=BOTH)
            assert leaked(b.requests[-1]) == []
            trusted = Credentials.of(api_key="key-secret", origins=[b.base_url])
            client.get_descriptor(f"{b.base_url}/d.json", credentials=trusted)
            assert leaked(b.requests[-1]) == ["x-api-key"]
            # A descriptor on the discovered origin itself gets them.
            a.answer(ok(descriptor(a.base_url)))
            client.get_descriptor(f"{a.base_url}/d.json", credentials=BOTH)
            assert leaked(a.requests[-1]) == ["x-api-key", "authorization"]

    within(20, run)


def test_a_redirect_to_another_origin_is_not_followed(a: Script, b: Script) -> None:
    a.answer(index(f"{a.base_url}/d.json"))

    def run() -> None:
        with SkillsClient(credentials=BOTH) as client:
            client.discover(a.base_url)
            a.answer(Answer(status=302, headers={"location": f"{b.base_url}/d.json"}))
            with pytest.raises(SkillSharingError) as caught:
                client.get_descriptor(f"{a.base_url}/d.json")
            assert caught.value.status_code == 302
        assert b.requests == []

    within(20, run)


@pytest.mark.parametrize(
    ("auth", "sent"),
    [
        ({"type": "api_key", "header": "X-Internal-Key"}, {"x-internal-key": "key-secret"}),
        ({"type": "api_key"}, {"x-api-key": "key-secret"}),
        (
            {
                "type": "oauth2",
                "oauth2": {"authorization_url": "https://a.example/a", "token_url": "https://a/t"},
            },
            {"authorization": "Bearer tok-secret"},
        ),
        ({"type": "none"}, {}),
    ],
)
def test_invocation_sends_exactly_what_the_auth_asks(
    a: Script, auth: dict[str, Any], sent: dict[str, str]
) -> None:
    a.answer(status("completed", output=1))

    def run() -> None:
        with SkillsClient(credentials=BOTH) as client:
            assert client.invoke_and_wait(descriptor(a.base_url, auth), {}) == 1
        for request in a.requests:
            assert {k: request.headers[k] for k in leaked(request)} == sent

    within(20, run)


def test_the_named_header_for_discovery_and_the_registry(a: Script) -> None:
    a.answer(index(f"{a.base_url}/d.json"))
    internal = Credentials.of(api_key="key-secret", api_key_header="X-Internal-Key")

    def run() -> None:
        with SkillsClient() as client:
            client.discover(a.base_url, credentials=internal)
            client.search_registry(a.base_url, credentials=internal, type="api")
        assert [leaked(r) for r in a.requests] == [["x-internal-key"], ["x-internal-key"]]
        assert a.requests[1].path == "/skills" and a.requests[1].query == "type=api"

    within(20, run)


# -- missing credentials ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("auth", "expected"),
    [
        (
            {"type": "api_key", "header": "X-Internal-Key"},
            {"required_auth_type": "api_key", "header": "X-Internal-Key"},
        ),
        (
            {
                "type": "oauth2",
                "oauth2": {"authorization_url": "https://a.example/a", "token_url": "https://a/t"},
            },
            {
                "required_auth_type": "oauth2",
                "authorization_url": "https://a.example/a",
                "token_url": "https://a/t",
                "scopes": {},
            },
        ),
        (
            {
                "type": "custom",
                "custom": {
                    "instructions": "HMAC",
                    "parameters": [{"name": "k", "type": "object", "schema": {"type": "object"}}],
                },
            },
            {
                "required_auth_type": "custom",
                "instructions": "HMAC",
                "parameters": [
                    {"name": "k", "type": "object", "required": False, "schema": {"type": "object"}}
                ],
            },
        ),
    ],
)
def test_missing_credentials_raise_auth_required_in_spec_terms(
    a: Script, auth: dict[str, Any], expected: dict[str, Any]
) -> None:
    a.answer(status("completed", output=1))

    def run() -> None:
        with SkillsClient() as client, pytest.raises(AuthRequiredError) as caught:
            client.invoke(descriptor(a.base_url, auth), {})
        error = caught.value
        assert error.details == expected
        assert "schema_" not in json.dumps(error.details) and "schema_" not in str(error)
        assert error.retry == RetryAdvice(suggested_delay_ms=0, max_attempts=1)
        assert (error.status_code, error.from_provider) == (401, False)
        assert a.requests == []  # refused before sending

    within(20, run)


def test_details_have_one_type_and_every_error_is_importable() -> None:
    for name in [*(cls.__name__ for cls in ERRORS.values()), "ExecutionFailedError"]:
        assert getattr(skills, name).__name__ == name
    version = VersionIncompatibleError("x", details=None)
    assert version.details is None
    validation = ValidationError("x", details=[{"path": "/a", "message": "m"}])
    assert validation.details == {"errors": [{"path": "/a", "message": "m"}]}
    assert validation.errors[0].path == "/a"
    assert validation.wire_details == [{"path": "/a", "message": "m"}]


# -- retries, polling, failures ------------------------------------------------------------------


def test_retry_advice_backs_off_exponentially(a: Script) -> None:
    busy = {
        "error": {
            "code": "ENDPOINT_UNREACHABLE",
            "message": "busy",
            "retry": {"suggested_delay_ms": 60, "max_attempts": 4},
        }
    }
    a.answer(*[Answer(status=503, body=json.dumps(busy).encode())] * 3, ok(descriptor("http://x")))

    def run() -> None:
        with SkillsClient() as client:
            client.get_descriptor(f"{a.base_url}/d.json")
        times = [r.at for r in a.requests]
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        assert len(gaps) == 3
        for gap, due in zip(gaps, (0.06, 0.12, 0.24), strict=True):
            assert due <= gap < due + 0.5, gaps

    within(20, run)


def test_a_hostile_retry_advice_is_bounded(a: Script) -> None:
    busy = {
        "error": {
            "code": "ENDPOINT_UNREACHABLE",
            "message": "busy",
            "retry": {"suggested_delay_ms": 1, "max_attempts": 1000000},
        }
    }
    a.answer(Answer(status=503, body=json.dumps(busy).encode()))

    def run() -> None:
        with SkillsClient() as client, pytest.raises(EndpointUnreachableError):
            client.get_descriptor(f"{a.base_url}/d.json")
        assert len(a.requests) == 10  # MAX_ATTEMPTS

    within(20, run)


def test_a_fast_skill_answers_fast(a: Script) -> None:
    a.answer(status("accepted"), status("completed", output="done"))

    def run() -> None:
        with SkillsClient() as client:  # the default polling
            started = time.monotonic()
            assert client.invoke_and_wait(descriptor(a.base_url), {}) == "done"
            assert time.monotonic() - started < 0.5

    within(20, run)


def test_polling_goes_on_past_the_providers_timeout_until_the_consumers_deadline(
    a: Script,
) -> None:
    # The provider says timeout_ms 100 but keeps the execution running for a while.
    a.answer(status("accepted"), *[status("running")] * 12, status("completed", output="late"))
    document = descriptor(a.base_url, timeout_ms=100)

    def run() -> None:
        with SkillsClient(poll_interval=0.02, max_poll_interval=0.1) as client:
            assert client.invoke_and_wait(document, {}) == "late"
            assert len(a.requests) == 14
            a.answer(status("accepted"), status("running"))  # runs for ever
            started = time.monotonic()
            with pytest.raises(InvocationTimeoutError) as caught:
                client.invoke_and_wait(document, {}, context=InvocationContext(timeout_ms=700))
            assert 0.7 <= time.monotonic() - started < 1.5
            assert caught.value.details["status"] == "running"

    within(20, run)


def test_a_failed_execution_carries_the_providers_code(a: Script) -> None:
    failure = {"code": "PERMISSION_DENIED", "message": "nope", "details": {"granted_scopes": []}}
    a.answer(status("failed", error=failure))

    def run() -> None:
        with SkillsClient() as client, pytest.raises(ExecutionFailedError) as caught:
            client.invoke_and_wait(descriptor(a.base_url), {})
        assert caught.value.code == "PERMISSION_DENIED" == caught.value.execution_code
        assert caught.value.details == {"granted_scopes": []}

    within(20, run)


def test_an_invalid_provider_answer_is_a_typed_validation_error(a: Script) -> None:
    a.answer(ok({"execution_id": "e-1", "status": "nonsense"}))

    def run() -> None:
        with SkillsClient() as client, pytest.raises(ValidationError) as caught:
            client.invoke(descriptor(a.base_url), {})
        paths = [issue.path for issue in caught.value.errors]
        assert "/status" in paths and "/skill_id" in paths
        assert caught.value.details == {"errors": caught.value.wire_details}

    within(20, run)
