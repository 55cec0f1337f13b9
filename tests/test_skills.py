"""Skill Sharing: the consumer against the provider kit, over real loopback HTTP."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from agentproto.skills import (
    AsyncSkillsClient,
    Credentials,
    SkillProvider,
    SkillsClient,
    parse,
    parse_index,
    serialize,
    validate,
)
from agentproto.skills.consumer import ExecutionFailedError, execution_url
from agentproto.skills.errors import (
    AuthRequiredError,
    EndpointUnreachableError,
    InvocationTimeoutError,
    PermissionDeniedError,
    SkillNotFoundError,
    ValidationError,
    VersionIncompatibleError,
)
from agentproto.skills.models import (
    InvocationContext,
    InvocationRequest,
    RetryAdvice,
    SkillDescriptor,
)
from agentproto.skills.semver import Version, check_compatible, is_compatible
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.conftest import ROOT
from tests.servers.loopback import serve

EXAMPLES = ROOT / "schemas" / "skills" / "examples"
FAST_POLL = {"poll_interval": 0.02, "max_poll_interval": 0.05}


class Faults:
    """What the provider's admission hook does to the next invocations of ``acme/flaky``."""

    def __init__(self) -> None:
        self.plan: list[Exception] = []
        self.calls = 0

    def admit(self, request: Request, descriptor: SkillDescriptor) -> None:
        if descriptor.id != "acme/flaky":
            return
        self.calls += 1
        if self.plan:
            raise self.plan.pop(0)


def build_provider(base_url: str, faults: Faults) -> SkillProvider:
    provider = SkillProvider(
        {"name": "Acme Skills", "url": "https://acme.example"},
        base_url=base_url,
        api_keys={"key-alice": "alice", "key-bob": "bob"},
        verify_token=lambda token: "carol" if token == "tok-good" else None,
        verify_custom=lambda request, auth: (
            "dave" if request.headers.get("x-signature") == "signed-ok" else None
        ),
        admit=faults.admit,
    )
    text_in = [{"name": "text", "type": "string", "required": True}]

    @provider.skill(
        id="acme/echo",
        name="Echo",
        capability_type="api",
        description="Echo inputs",
        version="1.0.0",
        inputs=text_in,
    )
    def echo(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return {"echo": inputs["text"], "caller": request.caller.id}

    @provider.skill(
        id="acme/slow",
        name="Slow",
        capability_type="task",
        description="Takes a while",
        version="1.2.0",
    )
    async def slow(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        await anyio.sleep(float(inputs.get("seconds", 0.3)))
        return "done"

    @provider.skill(
        id="acme/fail",
        name="Fail",
        capability_type="task",
        description="Always fails",
        version="1.0.0",
    )
    def fail(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        raise RuntimeError("no luck")

    @provider.skill(
        id="acme/timeout",
        name="Timeout",
        capability_type="task",
        description="Too slow",
        version="1.0.0",
        timeout_ms=100,
    )
    async def too_slow(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        await anyio.sleep(5)

    @provider.skill(
        id="acme/keyed",
        name="Keyed",
        capability_type="plugin",
        description="API key skill",
        version="1.0.0",
        auth={"type": "api_key", "header": "X-Acme-Key"},
        access="restricted",
        allow=["alice"],
    )
    def keyed(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return "keyed ok"

    @provider.skill(
        id="acme/oauth",
        name="OAuth",
        capability_type="knowledge",
        description="OAuth skill",
        version="1.0.0",
        auth={
            "type": "oauth2",
            "oauth2": {
                "authorization_url": "https://auth.acme.example/authorize",
                "token_url": "https://auth.acme.example/token",
                "scopes": {"read": "Read things"},
            },
        },
    )
    def oauth(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return "oauth ok"

    @provider.skill(
        id="acme/custom",
        name="Custom",
        capability_type="api",
        description="Custom auth",
        version="1.0.0",
        auth={
            "type": "custom",
            "custom": {
                "instructions": "Sign with X-Signature",
                "parameters": [{"name": "secret", "type": "string"}],
            },
        },
    )
    def custom(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return "custom ok"

    @provider.skill(
        id="acme/private",
        name="Private",
        capability_type="api",
        description="Hidden",
        version="1.0.0",
        auth={"type": "api_key"},
        access="private",
    )
    def private(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return "private ok"

    @provider.skill(
        id="acme/flaky",
        name="Flaky",
        capability_type="api",
        description="Sometimes down",
        version="1.0.0",
        retry={"max_attempts": 3, "backoff_ms": 10},
    )
    def flaky(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return "flaky ok"

    return provider


class Site:
    def __init__(self, url: str, provider: SkillProvider, faults: Faults) -> None:
        self.url = url
        self.provider = provider
        self.faults = faults

    def descriptor(self, skill_id: str) -> SkillDescriptor:
        return self.provider.skills[skill_id].descriptor


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    faults = Faults()
    holder: dict[str, SkillProvider] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await holder["provider"].app(scope, receive, send)

    with serve(app) as url:
        holder["provider"] = build_provider(url, faults)
        yield Site(url, holder["provider"], faults)


@pytest.fixture
def client() -> Iterator[SkillsClient]:
    with SkillsClient(**FAST_POLL) as c:  # type: ignore[arg-type]
        yield c


def executions(site: Site) -> int:
    return len(site.provider.executions)


# -- discovery ------------------------------------------------------------------------------------


def test_discovery_hides_private_skills_from_anonymous_callers(
    client: SkillsClient, site: Site
) -> None:
    index = client.discover(site.url)
    ids = [s.id for s in index.skills]
    assert "acme/private" not in ids
    assert "acme/keyed" in ids  # restricted skills are listed
    assert index.provider.name == "Acme Skills"
    alice = Credentials.of(api_key="key-alice")
    assert "acme/private" in [s.id for s in client.discover(site.url, credentials=alice).skills]


def test_discovery_filters_by_capability_type(client: SkillsClient, site: Site) -> None:
    index = client.discover(site.url, type="task")
    assert sorted(s.id for s in index.skills) == ["acme/fail", "acme/slow", "acme/timeout"]
    assert {s.capability_type for s in index.skills} == {"task"}


def test_descriptor_urls_give_valid_descriptors(client: SkillsClient, site: Site) -> None:
    entry = next(s for s in client.discover(site.url).skills if s.id == "acme/oauth")
    descriptor = client.get_descriptor(str(entry.descriptor_url))
    assert descriptor.auth.type == "oauth2"
    assert str(descriptor.auth.oauth2.authorization_url).startswith("https://auth.acme")  # type: ignore[union-attr]
    with pytest.raises(SkillNotFoundError) as caught:
        client.get_descriptor(f"{site.url}/skills/acme%2Fnope/descriptor")
    assert caught.value.status_code == 404


def test_an_index_with_duplicate_ids_is_rejected(client: SkillsClient) -> None:
    document = json.loads(
        (EXAMPLES / "semantic_invalid" / "SkillIndex.duplicate-skill-ids.json").read_text()
    )

    async def index(request: Request) -> JSONResponse:
        return JSONResponse(document)

    app = Starlette(routes=[Route("/.well-known/skill-sharing", index)])
    with serve(app) as url, pytest.raises(ValidationError) as caught:
        client.discover(url)
    assert any("duplicate skill id" in d.message for d in caught.value.errors)
    report = validate(document, "SkillIndex")
    assert not report.valid and report.errors[0].path.endswith("/id")


# -- invocation and polling -------------------------------------------------------------------


def test_invoke_and_wait_returns_the_output(client: SkillsClient, site: Site) -> None:
    output = client.invoke_and_wait(site.descriptor("acme/echo"), {"text": "hi"})
    assert output == {"echo": "hi", "caller": "agentproto-skills"}


def test_polling_walks_accepted_running_completed(client: SkillsClient, site: Site) -> None:
    execution = client.invoke(site.descriptor("acme/slow"), {"seconds": 0.3})
    seen: list[str] = [execution.status]
    while not execution.done:
        seen.append(execution.poll().status)
        time.sleep(0.02)
    assert seen[0] == "accepted"
    assert "running" in seen and seen[-1] == "completed"
    assert execution.result() == "done"
    assert execution.fetch_result().output == "done"


def test_failed_and_timed_out_executions_raise(client: SkillsClient, site: Site) -> None:
    with pytest.raises(ExecutionFailedError) as failed:
        client.invoke_and_wait(site.descriptor("acme/fail"), {})
    assert failed.value.execution_code == "ENDPOINT_UNREACHABLE"  # one of the seven (§8.2)
    assert "no luck" not in str(failed.value)  # exception text stays in the provider's log
    with pytest.raises(InvocationTimeoutError) as timed_out:
        client.invoke_and_wait(site.descriptor("acme/timeout"), {})
    assert "100 ms" in timed_out.value.message


def test_the_local_deadline_bounds_polling(client: SkillsClient, site: Site) -> None:
    started = time.monotonic()
    with pytest.raises(InvocationTimeoutError) as caught:
        client.invoke_and_wait(
            site.descriptor("acme/slow"), {"seconds": 3}, context=InvocationContext(timeout_ms=200)
        )
    assert time.monotonic() - started < 2
    details = caught.value.details or {}
    if "status" in details:  # our deadline came first: the execution was still going
        assert details["status"] in ("accepted", "running")
    else:  # the provider's own timeout (the same 200 ms, sent with the call) ended it first
        assert "200 ms" in caught.value.message, caught.value.message


def test_missing_required_input_is_a_validation_error(client: SkillsClient, site: Site) -> None:
    with pytest.raises(ValidationError) as caught:
        client.invoke(site.descriptor("acme/echo"), {})
    assert caught.value.status_code == 400


# -- auth -----------------------------------------------------------------------------------------


def test_api_key_goes_in_the_named_header(client: SkillsClient, site: Site) -> None:
    keyed = site.descriptor("acme/keyed")
    before = executions(site)
    with pytest.raises(AuthRequiredError) as local:
        client.invoke(keyed, {})
    assert local.value.details == {"required_auth_type": "api_key", "header": "X-Acme-Key"}
    assert executions(site) == before  # refused locally, nothing sent
    with pytest.raises(AuthRequiredError) as remote:
        client.invoke(keyed, {}, credentials=Credentials.of(api_key="key-wrong"))
    assert remote.value.status_code == 401
    with pytest.raises(PermissionDeniedError) as denied:
        client.invoke(keyed, {}, credentials=Credentials.of(api_key="key-bob"))
    assert denied.value.status_code == 403
    alice = Credentials.of(api_key="key-alice")
    assert client.invoke_and_wait(keyed, {}, credentials=alice) == "keyed ok"


def test_oauth2_bearer_and_exposed_urls(client: SkillsClient, site: Site) -> None:
    oauth = site.descriptor("acme/oauth")
    with pytest.raises(AuthRequiredError) as caught:
        client.invoke(oauth, {})
    assert caught.value.details["token_url"] == "https://auth.acme.example/token"
    assert caught.value.details["scopes"] == {"read": "Read things"}
    good = Credentials.of(oauth2_token="tok-good")
    assert client.invoke_and_wait(oauth, {}, credentials=good) == "oauth ok"


def test_custom_auth_uses_the_signing_hook(client: SkillsClient, site: Site) -> None:
    custom = site.descriptor("acme/custom")
    with pytest.raises(AuthRequiredError) as caught:
        client.invoke(custom, {})
    assert caught.value.details["instructions"] == "Sign with X-Signature"

    def sign(request: httpx.Request, auth: Any) -> httpx.Request:
        assert auth.custom.parameters[0].name == "secret"
        request.headers["X-Signature"] = "signed-ok"
        return request

    assert client.invoke_and_wait(custom, {}, credentials=Credentials.of(sign=sign)) == "custom ok"


def test_credentials_never_show(site: Site) -> None:
    creds = Credentials.of(api_key="key-alice-secret", oauth2_token="tok-secret")
    assert "secret" not in repr(creds)


# -- errors, retries and versions ---------------------------------------------------------------


def test_endpoint_unreachable_is_retried_per_endpoint_retry(
    client: SkillsClient, site: Site
) -> None:
    site.faults.calls = 0
    site.faults.plan = [EndpointUnreachableError("down"), EndpointUnreachableError("still down")]
    assert client.invoke_and_wait(site.descriptor("acme/flaky"), {}) == "flaky ok"
    assert site.faults.calls == 3  # max_attempts 3 counts every attempt


def test_retry_advice_overrides_the_descriptor(client: SkillsClient, site: Site) -> None:
    site.faults.calls = 0
    advice = RetryAdvice(suggested_delay_ms=80, max_attempts=2)
    site.faults.plan = [EndpointUnreachableError("busy", retry=advice) for _ in range(5)]
    started = time.monotonic()
    with pytest.raises(EndpointUnreachableError) as caught:
        client.invoke(site.descriptor("acme/flaky"), {})
    assert site.faults.calls == 2
    assert time.monotonic() - started >= 0.08
    assert caught.value.retry == advice and caught.value.status_code == 502
    site.faults.plan = []


@pytest.mark.parametrize(
    ("fault", "cls", "status"),
    [
        (InvocationTimeoutError("gateway timeout"), InvocationTimeoutError, 408),
        (VersionIncompatibleError("too new"), VersionIncompatibleError, 422),
        (SkillNotFoundError("gone"), SkillNotFoundError, 404),
    ],
)
def test_remote_error_codes_map_to_the_hierarchy(
    client: SkillsClient, site: Site, fault: Exception, cls: type[Exception], status: int
) -> None:
    site.faults.calls = 0
    site.faults.plan = [fault]
    with pytest.raises(cls) as caught:
        client.invoke(site.descriptor("acme/flaky"), {})
    assert caught.value.status_code == status  # type: ignore[attr-defined]
    assert site.faults.calls == 1  # invoke is not idempotent: a timeout is not retried


def test_network_failure_is_endpoint_unreachable(client: SkillsClient, site: Site) -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    document = json.loads(serialize(site.descriptor("acme/flaky")))
    document["endpoint"]["url"] = f"http://127.0.0.1:{port}/invoke"
    with pytest.raises(EndpointUnreachableError):
        client.invoke(document, {})


def test_incompatible_descriptor_is_refused_before_sending(
    client: SkillsClient, site: Site
) -> None:
    document = json.loads(serialize(site.descriptor("acme/echo")))
    document["protocol"]["version"] = "2.0.0"
    before = executions(site)
    with pytest.raises(VersionIncompatibleError) as caught:
        client.invoke(document, {"text": "x"})
    assert caught.value.details == {
        "descriptor_version": "2.0.0",
        "consumer_version": "1.0.0",
        "supported_major": 1,
    }
    assert executions(site) == before


def test_invalid_descriptor_is_never_invoked(client: SkillsClient, site: Site) -> None:
    document = json.loads(serialize(site.descriptor("acme/echo")))
    del document["access"]
    document["endpoint"]["method"] = "PATCH"
    before = executions(site)
    with pytest.raises(ValidationError) as caught:
        client.invoke(document, {"text": "x"})
    paths = [d.path for d in caught.value.errors]
    assert paths == ["/access", "/endpoint/method"]
    assert executions(site) == before


def test_semver_rules() -> None:
    assert Version.parse("1.2.3-rc.1+build.5") == Version(1, 2, 3, "rc.1", "build.5")
    for bad in ("01.0.0", "1.0", "v1.0.0", "1.0.0-"):
        with pytest.raises(ValueError):
            Version.parse(bad)
    assert is_compatible("1.9.0") and is_compatible("0.3.0") and is_compatible("1.1.0-beta")
    assert not is_compatible("2.0.0-rc.1")
    with pytest.raises(VersionIncompatibleError):
        check_compatible("3.0.0")


def test_execution_url_templates() -> None:
    base = "https://p.example/skills/x/invoke"
    assert (
        execution_url("https://p.example/e/{execution_id}", base, "a/b")
        == "https://p.example/e/a%2Fb"
    )
    assert execution_url("https://p.example/status", base, "e1") == "https://p.example/status/e1"
    assert execution_url("/executions/{execution_id}/result", base, "e1") == (
        "https://p.example/executions/e1/result"
    )


# -- documents ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", sorted((EXAMPLES / "invalid").glob("*.json")), ids=lambda p: p.stem
)
def test_invalid_examples_are_reported_with_pointers(path: Path) -> None:
    kind = path.name.split(".")[0]
    report = validate(path.read_text(), kind)
    assert not report.valid
    for error in report.errors:
        assert error.path == "" or error.path.startswith("/")
        assert error.message
    if kind == "SkillDescriptor":
        with pytest.raises(ValidationError):
            parse(path.read_text())


def test_valid_examples_parse_and_report_valid() -> None:
    descriptor = parse((EXAMPLES / "SkillDescriptor.1.json").read_text())
    assert validate(json.loads(serialize(descriptor))).valid
    index = parse_index((EXAMPLES / "SkillIndex.1.json").read_text())
    assert index.skills
    report = validate((EXAMPLES / "SkillDescriptor.1.json").read_text())
    assert report.as_dict() == {"valid": True, "errors": []}


def test_auth_errors_report_only_the_chosen_variant() -> None:
    document = json.loads((EXAMPLES / "SkillDescriptor.1.json").read_text())
    document["auth"] = {"type": "oauth2"}
    (error,) = validate(document).errors
    assert error.path == "/auth/oauth2" and error.actual is None
    document["auth"] = {"type": "bearer"}
    (error,) = validate(document).errors
    assert error.path == "/auth/type" and error.actual == "bearer"
    assert error.expected == ["api_key", "oauth2", "custom", "none"]


_text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20)
_descriptors = st.fixed_dictionaries(
    {
        "protocol": st.fixed_dictionaries({"version": st.sampled_from(["1.0.0", "1.2.3-rc.1"])}),
        "id": _text,
        "name": _text,
        "version": st.sampled_from(["0.1.0", "1.0.0", "2.10.3+b.1"]),
        "capability_type": st.sampled_from(["plugin", "api", "knowledge", "task"]),
        "description": _text,
        "provider": st.fixed_dictionaries({"name": _text}),
        "endpoint": st.fixed_dictionaries(
            {
                "url": st.sampled_from(["https://a.example/x", "http://127.0.0.1:8080/inv"]),
                "method": st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
                "status_url": st.just("https://a.example/s/{execution_id}"),
            },
            optional={"timeout_ms": st.integers(0, 10**6)},
        ),
        "inputs": st.lists(
            st.fixed_dictionaries(
                {"name": _text, "type": st.sampled_from(["string", "number"])},
                optional={"required": st.booleans(), "default": st.integers() | st.none()},
            ),
            max_size=3,
        ),
        "output": st.fixed_dictionaries({"content_type": st.just("application/json")}),
        "auth": st.sampled_from(
            [{"type": "none"}, {"type": "api_key", "header": "X-Key"}, {"type": "api_key"}]
        ),
        "access": st.sampled_from(["public", "restricted", "private"]),
    },
    optional={"tags": st.lists(_text, max_size=3)},
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_descriptors)
def test_serialize_parse_round_trip(document: dict[str, Any]) -> None:
    descriptor = parse(document)
    text = serialize(descriptor)
    assert text.endswith("}\n") and text.startswith('{\n  "')
    again = parse(text)
    assert again == descriptor
    assert serialize(again) == text


# -- async flavour --------------------------------------------------------------------------------


def test_async_consumer(site: Site) -> None:
    async def main() -> None:
        async with AsyncSkillsClient(**FAST_POLL) as client:  # type: ignore[arg-type]
            index = await client.discover(site.url, type="api")
            assert "acme/echo" in [s.id for s in index.skills]
            descriptor = await client.get_descriptor(site.provider.descriptor_url("acme/echo"))
            execution = await client.invoke(descriptor, {"text": "async"})
            assert execution.status == "accepted"
            assert (await execution.result())["echo"] == "async"
            with pytest.raises(AuthRequiredError):
                await client.invoke(site.descriptor("acme/keyed"), {})
            with pytest.raises(ExecutionFailedError):
                await client.invoke_and_wait(site.descriptor("acme/fail"), {})

    anyio.run(main)


def _kind(path: Path) -> str:
    return path.name.split(".")[0]


@pytest.mark.parametrize(
    "path",
    sorted(EXAMPLES.glob("*.json")) + sorted((EXAMPLES / "invalid").glob("*.json")),
    ids=lambda p: p.stem,
)
def test_fast_path_agrees_with_jsonschema_on_the_examples(path: Path) -> None:
    from agentproto.skills.documents import _fast_valid, _validator

    document = json.loads(path.read_text())
    assert _fast_valid(_kind(path), document) == _validator(_kind(path)).is_valid(document)


_mutations = st.sampled_from(
    [
        ("access", "secret"),
        ("version", "1.0"),
        ("version", "1.0.0-rc.1"),
        ("capability_type", 3),
        ("inputs", [{"name": "x"}]),
        ("auth", {"type": "custom"}),
        ("auth", {"type": "custom", "custom": {"instructions": "x"}}),
        ("endpoint", {"url": "https://x", "method": "PATCH", "status_url": "s"}),
        ("endpoint", {"url": "https://x", "method": "GET", "status_url": "s", "retry": {}}),
        ("protocol", {"version": "01.0.0"}),
        ("tags", "not a list"),
        ("extra_field", {"anything": True}),
    ]
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_descriptors, st.lists(_mutations, max_size=3))
def test_fast_path_agrees_with_jsonschema_on_mutants(
    document: dict[str, Any], mutations: list[tuple[str, Any]]
) -> None:
    from agentproto.skills.documents import _fast_valid, _validator

    mutant = {**document, **dict(mutations)}
    assert _fast_valid("SkillDescriptor", mutant) == _validator("SkillDescriptor").is_valid(mutant)


def test_registry_search_passes_the_type_and_filters(client: SkillsClient, site: Site) -> None:
    seen: list[str | None] = []
    index = json.loads(serialize(client.discover(site.url)))

    async def skills(request: Request) -> JSONResponse:
        seen.append(request.query_params.get("type"))
        return JSONResponse(index)  # a registry that ignores the filter: the SDK applies it

    with serve(Starlette(routes=[Route("/registry/skills", skills)])) as url:
        found = client.search_registry(url + "/registry", type="knowledge")
    assert seen == ["knowledge"]
    assert [s.id for s in found.skills] == ["acme/oauth"]
