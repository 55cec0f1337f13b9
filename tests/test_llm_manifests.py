"""Manifests of every AI-Protocol version: v1.1, the 1.5 shape and v2 (issue 16).

- Every upstream v2 manifest vendored under ``schemas/ai_protocol/v2/providers/`` loads and
  builds its standard chat request (and stream request), checked against recorded expectations
  ``tests/fixtures/llm_requests/v2/<id>.json`` by the recording loopback server of
  ``tests/test_llm_requests.py`` (regenerate with ``LLM_REQUESTS_RECORD=1``, then review).
- A manifest of an unsupported version says so; a bad one lists every problem with its
  pointer, at run time and in the build.
- Typed ``parameters``: defaults sent when a call does not set them, aliases mapped.
- The credential chain and its report; the standard error codes and classes.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
import yaml
from agentproto._runtime.http_errors import ResponseValidationError
from agentproto.llm import LLMClient, Manifest, ManifestError, ProviderError
from agentproto.llm.client import MissingAPIKeyError
from agentproto.llm.credentials import CredentialSource, resolve_credential
from agentproto.llm.errors import (
    ERROR_CLASSES,
    OtherProviderError,
    QuotaExhaustedError,
    RequestTooLargeError,
    error_class,
)
from agentproto.llm.events import PartialContentDelta, StreamEnd, ToolCallEnded
from agentproto.llm.problems import UnsupportedError
from agentproto.llm.registry import PROVIDER_IDS, UPSTREAM_IDS
from agentproto.llm.streaming import IncompleteStreamError, StreamDecoder

from tests.conftest import ROOT
from tests.servers.loopback import serve
from tests.servers.mock_provider import MockProvider, start_mock_provider
from tests.servers.scripted import Answer, scripted_server
from tests.test_llm import ANTHROPIC_STREAM
from tests.test_llm_requests import (
    API_KEY,
    BASE_PATH,
    FIXTURES,
    MODEL,
    RECORD,
    STANDARD_MESSAGES,
    TEXT_MESSAGES,
    Recorder,
    chat_arguments,
    key_carrier,
    key_places,
    summarize,
)

V2_FILES = sorted((ROOT / "schemas" / "ai_protocol" / "v2" / "providers").glob("*.yaml"))
V2_IDS = [p.stem for p in V2_FILES]
ALPHA_DIR = ROOT / "tests" / "fixtures" / "ai-protocol-compliance" / "upstream" / "dist"
UPSTREAM = [
    *(
        f"{version}/{p.stem}"
        for version in ("v1", "v2")
        for p in sorted((ROOT / "schemas" / "ai_protocol" / version / "providers").glob("*.yaml"))
    ),
    *(f"v2-alpha/{p.stem}" for p in sorted((ALPHA_DIR / "v2-alpha" / "providers").glob("*.json"))),
]
"""The vendored upstream manifests besides the bundled ones, as ``v1/<id>`` / ``v2/<id>``
(and upstream's ``dist/v2-alpha`` ones, vendored with the compliance suite that loads them)."""
NON_CHAT = {
    "v1/huggingface": "/auth/payload_format",
    "v1/jina": "/auth/payload_format",
    "v1/stability": "/auth/payload_format",
    "v2/jina": "",
}
"""Vendored manifests of APIs that are not chat APIs: refused with one reason naming the API
(a non-chat request format at that pointer; jina's v2 manifest loads and declares rerank only,
so a chat request is refused before it is sent)."""
NO_STREAM = frozenset({"v1/deepinfra", "v1/siliconflow", "v1/together"})
"""Upstream v1.1 manifests of OpenAI-compatible APIs with neither a streaming section nor a
``stream`` mapping: their chat works; a stream is refused (``UnsupportedError``: the manifest
gives no way to ask for one, nor to read one) rather than sent and read with no event map."""
COMPLIANCE_FIXTURES = (
    ROOT / "tests" / "fixtures" / "ai-protocol-compliance" / "fixtures" / "providers"
)


@pytest.fixture(scope="module")
def loopback() -> Iterator[tuple[str, Recorder]]:
    """The recording server of ``test_llm_requests`` on a loopback socket."""
    recorder = Recorder()
    with serve(recorder) as url:
        yield url + BASE_PATH, recorder


@pytest.fixture
def recorder(loopback: tuple[str, Recorder]) -> Iterator[Recorder]:
    loopback[1].take()
    yield loopback[1]
    loopback[1].take()


@pytest.fixture
def base_url(loopback: tuple[str, Recorder]) -> str:
    return loopback[0]


def load_v2(name: str) -> Manifest:
    return load_upstream(f"v2/{name}")


def load_upstream(key: str) -> Manifest:
    version, name = key.split("/")
    if version == "v2-alpha":
        return Manifest.load(ALPHA_DIR / version / "providers" / f"{name}.json")
    return Manifest.load(ROOT / "schemas" / "ai_protocol" / version / "providers" / f"{name}.yaml")


def refused(name: str, kind: str) -> bool:
    """For a non-chat manifest: check (or record) that it is refused with one reason naming
    the non-chat API, before anything is sent. ``True`` when ``name`` is one of those."""
    if name not in NON_CHAT:
        return False
    try:
        manifest = load_upstream(name)
    except ManifestError as exc:
        assert exc.pointer == NON_CHAT[name] and len(exc.problems) == 1
        reason = f"{exc.pointer}: {exc.reason}"
    else:
        with client_for(manifest, "http://127.0.0.1:9/never") as client:
            with pytest.raises(UnsupportedError) as info:
                if kind == "chat":
                    client.chat(TEXT_MESSAGES, model=MODEL)
                else:
                    client.stream(TEXT_MESSAGES, model=MODEL)
        reason = str(info.value)
    assert "non-chat API" in reason or "declares no chat endpoint" in reason
    check(name, kind, {"refused": reason})
    return True


def check(name: str, kind: str, actual: dict[str, Any]) -> None:
    """Compare with (or record) ``tests/fixtures/llm_requests/<name>.json`` (``v2/openai``)."""
    file = FIXTURES / f"{name}.json"
    stored: dict[str, Any] = json.loads(file.read_text("utf-8")) if file.exists() else {}
    if RECORD:
        stored[kind] = actual
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n", "utf-8")
        return
    assert kind in stored, f"no expectation {kind!r} in {file}: run with LLM_REQUESTS_RECORD=1"
    if "refused" in stored[kind] or "refused" in actual:
        assert actual == stored[kind], f"{name} {kind}: the refusal differs"
        return
    for part in ("method", "path", "query", "headers", "body"):
        assert actual[part] == stored[kind][part], f"{name} {kind}: {part} differs"


def client_for(manifest: Manifest, base_url: str) -> LLMClient:
    return LLMClient(manifest, api_key=API_KEY, base_url=base_url, retry=False, timeout=10.0)


# -- upstream v2 manifests: standard requests ---------------------------------------------------


def test_the_upstream_manifests_are_vendored() -> None:
    assert len(V2_IDS) >= 8 and len(UPSTREAM) >= 10
    if not RECORD:
        recorded = sorted(
            f"{v}/{p.stem}" for v in ("v1", "v2", "v2-alpha") for p in (FIXTURES / v).glob("*.json")
        )
        assert recorded == sorted(UPSTREAM)
    # every upstream provider manifest of both versions (37 v1, 22 v2): the 19 bundled ones
    # are upstream's v1 manifests in their dist form
    v1 = {k.split("/")[1] for k in UPSTREAM if k.startswith("v1/")} | set(PROVIDER_IDS)
    assert len(v1) == 37 and len(V2_IDS) == 22


@pytest.mark.parametrize("name", UPSTREAM)
def test_upstream_chat_request(name: str, recorder: Recorder, base_url: str) -> None:
    if refused(name, "chat"):
        assert recorder.take() == []
        return
    manifest = load_upstream(name)
    assert manifest.protocol_version.startswith(name[1] + ".")
    with client_for(manifest, base_url) as client:
        try:
            client.chat(STANDARD_MESSAGES, **chat_arguments(manifest))
        except ResponseValidationError:
            pass  # the answer `{}` has no content: only the request matters here
    [request] = recorder.take()
    where, key_name, value = key_carrier(manifest)
    assert key_places(request) == {(where, key_name)}, f"{name}: the key is sent elsewhere"
    if where == "query":
        assert parse_qs(request["query"])[key_name] == [value]
    else:
        assert request["headers"][key_name] == value
    check(name, "chat", summarize(manifest, request))


@pytest.mark.parametrize("name", UPSTREAM)
def test_upstream_stream_request(name: str, recorder: Recorder, base_url: str) -> None:
    if refused(name, "stream"):
        assert recorder.take() == []
        return
    manifest = load_upstream(name)
    if name in NO_STREAM:
        with client_for(manifest, base_url) as client, pytest.raises(UnsupportedError) as info:
            client.stream(TEXT_MESSAGES, model=MODEL, max_tokens=64)
        assert recorder.take() == []
        check(name, "stream", {"refused": str(info.value)})
        return
    with client_for(manifest, base_url) as client:
        try:
            with client.stream(TEXT_MESSAGES, model=MODEL, max_tokens=64) as stream:
                stream.final_response()
        except (IncompleteStreamError, ProviderError, ResponseValidationError):
            pass  # the recorder sends no events: only the request matters here
    [request] = recorder.take()
    assert request["headers"].get("accept") == "text/event-stream"
    check(name, "stream", summarize(manifest, request))


def test_v2_manifests_read_as_their_api_style() -> None:
    styles = {name: load_v2(name).payload_format for name in V2_IDS}
    assert styles["anthropic"] == "anthropic_style"
    assert styles["gemini"] == "gemini_style"
    assert {styles[n] for n in ("openai", "deepseek", "groq", "mistral")} == {"openai_style"}
    anthropic = load_v2("anthropic")  # endpoint.auth custom_header: the key in x-api-key
    assert (anthropic.auth_type, anthropic.auth_header) == ("api_key", "x-api-key")
    assert anthropic.extra_headers == {"anthropic-version": "2023-06-01"}
    gemini = load_v2("gemini")
    assert (gemini.auth_type, gemini.auth_param) == ("query_param", "key")
    # its stream endpoint (no ?alt=sse) answers a streamed JSON array: read as one
    assert gemini.endpoints["chat_stream"][1].endswith(":streamGenerateContent")
    assert gemini.stream.decoder_format == "gemini_json"
    # by_error_code and the typed parameters come through
    assert load_v2("openai").by_error_code["context_length_exceeded"] == "request_too_large"
    assert gemini.mappings["max_tokens"] == "generationConfig.maxOutputTokens"  # alias
    assert load_v2("perplexity").capabilities["tools"] is False


def test_parameter_defaults_are_sent_unless_given(recorder: Recorder, base_url: str) -> None:
    mistral = load_v2("mistral")  # temperature: {default: 0.7}
    assert mistral.parameter_defaults == {"temperature": 0.7}
    with client_for(mistral, base_url) as client:
        for kwargs in ({}, {"temperature": 0.2}, {"temperature": None}):
            with pytest.raises(ResponseValidationError):  # the recorder answers {}
                client.chat(TEXT_MESSAGES, model=MODEL, **kwargs)
        with pytest.raises(ResponseValidationError):
            client.chat(TEXT_MESSAGES, model=MODEL, params={"temperature": None})
    first, second, third, fourth = recorder.take()
    assert first["body"]["temperature"] == 0.7  # not given: the manifest's default
    assert second["body"]["temperature"] == 0.2
    # None: send nothing, not even the default (issue 27)
    assert "temperature" not in third["body"] and "temperature" not in fourth["body"]


def test_none_removes_a_v2_default_zhipu_reasoning_effort(
    recorder: Recorder, base_url: str
) -> None:
    """zhipu's v2 manifest declares ``reasoning_effort: {default: "max"}``: sent when the call
    does not say, never when it says None (issue 27: it went out on every call)."""
    zhipu = load_v2("zhipu")
    assert zhipu.parameter_defaults["reasoning_effort"] == "max"
    with client_for(zhipu, base_url) as client:
        for kwargs in ({}, {"reasoning_effort": None}, {"reasoning_effort": "high"}):
            with pytest.raises(ResponseValidationError):  # the recorder answers {}
                client.chat(TEXT_MESSAGES, model=MODEL, **kwargs)
        with pytest.raises(UnsupportedError, match="not one the manifest declares"):
            client.chat(TEXT_MESSAGES, model=MODEL, reasoning_effort="low")
    default, removed, given = recorder.take()
    assert default["body"]["reasoning_effort"] == "max"
    assert "reasoning_effort" not in removed["body"]
    assert given["body"]["reasoning_effort"] == "high"


def test_a_rerank_only_default_never_goes_with_a_chat(recorder: Recorder, base_url: str) -> None:
    """cohere's v2 manifest declares rerank's ``max_tokens_per_doc`` (default 4096) among its
    parameters: a chat request does not carry it (issue 27); a call may still set it."""
    cohere = load_v2("cohere")
    assert cohere.non_chat_defaults == {"max_tokens_per_doc": 4096}
    assert "max_tokens_per_doc" not in cohere.parameter_defaults
    with client_for(cohere, base_url) as client:
        for params in (None, {"max_tokens_per_doc": 512}):
            with pytest.raises(ResponseValidationError):  # the recorder answers {}
                client.chat(TEXT_MESSAGES, model=MODEL, params=params)
    plain, explicit = recorder.take()
    assert "max_tokens_per_doc" not in plain["body"]
    assert plain["body"]["temperature"] == 0.3  # a chat parameter's default still goes
    assert explicit["body"]["max_tokens_per_doc"] == 512


def test_a_manifest_without_a_chat_endpoint_is_refused_before_sending(
    recorder: Recorder, base_url: str
) -> None:
    """jina's v2 manifest declares ``endpoint.rerank`` only: chat() and stream() raise
    UnsupportedError naming what it declares; nothing is sent to an invented /chat/completions
    (issue 27)."""
    jina = load_v2("jina")
    with client_for(jina, base_url) as client:
        for call in (client.chat, client.stream):
            with pytest.raises(UnsupportedError, match=r"declares no chat endpoint.*rerank"):
                call(TEXT_MESSAGES, model=MODEL)
    assert recorder.take() == []


# -- versions and problems ------------------------------------------------------------------------


def v2_data(name: str = "deepseek") -> dict[str, Any]:
    path = ROOT / "schemas" / "ai_protocol" / "v2" / "providers" / f"{name}.yaml"
    data: dict[str, Any] = yaml.safe_load(path.read_text("utf-8"))
    return data


@pytest.mark.parametrize("version", ["3.0", "0.9", "10"])
def test_an_unsupported_version_says_so(version: str) -> None:
    data = v2_data()
    data["protocol_version"] = version
    with pytest.raises(ManifestError) as info:
        Manifest.from_dict(data, source="x.yaml")
    assert info.value.pointer == "/protocol_version"
    assert info.value.reason == (
        f"protocol_version {version} is not supported; this client reads 1.x and 2.x"
    )
    with pytest.raises(ManifestError):  # not only the validation: the constructor too
        Manifest(data, "x.yaml")


def test_every_problem_of_a_v2_manifest_is_listed() -> None:
    data = v2_data()
    data["endpoint"]["auth"]["type"] = "basic"
    data["retry_policy"]["jitter"] = "lots"
    data["capabilities"]["required"].append("telepathy")
    del data["error_classification"]
    with pytest.raises(ManifestError) as info:
        Manifest.from_dict(data, source="deepseek.yaml")
    pointers = [p for p, _ in info.value.problems]
    assert pointers == sorted(pointers)
    assert set(pointers) >= {
        "",  # error_classification is required
        "/endpoint/auth/type",
        "/retry_policy/jitter",
        "/capabilities/required/3",
    }
    text = str(info.value)
    assert "deepseek.yaml" in text and "/retry_policy/jitter" in text and "more" in text


def test_a_v15_manifest_is_judged_by_the_15_shape() -> None:
    data = yaml.safe_load((COMPLIANCE_FIXTURES / "mock-openai.yaml").read_text("utf-8"))
    assert Manifest.from_dict(copy.deepcopy(data)).payload_format == "openai_style"
    data["parameters"]["temperature"]["range"] = "wide"
    data["endpoint"]["auth"]["type"] = "magic"
    with pytest.raises(ManifestError) as info:
        Manifest.from_dict(data)
    assert [p for p, _ in info.value.problems] == [
        "/endpoint/auth/type",
        "/parameters/temperature/range",
    ]


def test_the_invalid_compliance_fixture_names_what_is_missing() -> None:
    with pytest.raises(ManifestError) as info:
        Manifest.load(COMPLIANCE_FIXTURES / "mock-invalid.yaml")
    reasons = " ".join(r for _, r in info.value.problems)
    for word in ("'id'", "'protocol_version'", "'endpoint'"):
        assert word in reasons


def test_the_build_refuses_a_bad_v2_manifest(tmp_path: Path) -> None:
    """The build's own check (codegen) reports every problem with file and pointer."""
    from codegen.clients import llm as build_llm
    from codegen.errors import Problem

    folder = ROOT / "schemas" / "ai_protocol"
    schemas = build_llm._schemas(folder, ROOT)
    unit_schema = json.loads((folder / "ai-protocol.v1.1.schema.json").read_text("utf-8"))
    validators = build_llm._validators(unit_schema, schemas, build_llm._unvendored(schemas))
    versions = build_llm._standalone(ROOT / "templates", "versions")
    data = v2_data()
    data["retry_policy"]["strategy"] = "hope"
    data["protocol_version"] = "2.1"
    found = build_llm._validate(data, "v2/providers/deepseek.yaml", versions, validators)
    assert [(p.file, p.pointer) for p in found] == [
        ("v2/providers/deepseek.yaml", "/retry_policy/strategy")
    ]
    data["protocol_version"] = "3.0"
    assert build_llm._validate(data, "f.yaml", versions, validators) == [
        Problem(
            "f.yaml",
            "/protocol_version",
            "protocol_version 3.0 is not supported; this client reads 1.x and 2.x",
        )
    ]


# -- credentials --------------------------------------------------------------------------------


def fixture(name: str) -> Manifest:
    return Manifest.load(COMPLIANCE_FIXTURES / f"{name}.yaml")


def test_the_credential_chain() -> None:
    manifest = fixture("mock-credential-v1")  # token_env REPLICATE_API_TOKEN
    env = {"REPLICATE_API_TOKEN": "from-token-env", "REPLICATE_API_KEY": "from-convention"}
    key, source = resolve_credential(manifest, "given", env)
    assert key is not None and key.reveal() == "given"
    assert (source.kind, source.name) == ("explicit", "explicit")
    key, source = resolve_credential(manifest, None, env)
    assert key is not None and key.reveal() == "from-token-env"
    assert (source.kind, source.name) == ("manifest_env", "REPLICATE_API_TOKEN")
    del env["REPLICATE_API_TOKEN"]
    key, source = resolve_credential(manifest, None, env)
    assert key is not None and key.reveal() == "from-convention"
    assert (source.kind, source.name) == ("conventional_env", "REPLICATE_API_KEY")
    assert "REPLICATE_API_TOKEN" in str(source)  # says what the manifest wanted
    key, source = resolve_credential(manifest, None, {})
    assert key is None and (source.status, source.kind, source.name) == ("missing", "none", None)
    assert source.required == ("REPLICATE_API_TOKEN",)
    assert source.conventional == ("REPLICATE_API_KEY",)


def test_endpoint_auth_is_the_single_source() -> None:
    manifest = fixture("mock-credential-dual-auth")
    env = {"DUALAUTH_LEGACY_KEY": "legacy-secret"}
    key, source = resolve_credential(manifest, None, env)
    assert key is None and source.required == ("DUALAUTH_API_TOKEN",)
    assert source.shadowed == ("DUALAUTH_LEGACY_KEY",)
    assert "DUALAUTH_LEGACY_KEY" in source.diagnostic()
    assert "legacy-secret" not in source.diagnostic()


def test_the_client_reports_where_its_key_came_from(monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = fixture("mock-credential-v1")
    monkeypatch.delenv("REPLICATE_API_TOKEN", raising=False)
    monkeypatch.setenv("REPLICATE_API_KEY", "conventional-SECRET")
    with LLMClient(manifest, model="m") as client:
        assert isinstance(client.credential, CredentialSource)
        assert client.credential.name == "REPLICATE_API_KEY"
        for text in (repr(client), str(client.credential), repr(client.credential)):
            assert "conventional-SECRET" not in text
    monkeypatch.delenv("REPLICATE_API_KEY")
    with pytest.raises(MissingAPIKeyError) as info:
        LLMClient(manifest)
    assert info.value.credential.status == "missing"
    assert "$REPLICATE_API_TOKEN" in str(info.value) and "$REPLICATE_API_KEY" in str(info.value)


def test_query_param_auth_from_the_manifest_env(
    monkeypatch: pytest.MonkeyPatch, recorder: Recorder, base_url: str
) -> None:
    monkeypatch.setenv("QUERYAUTH_API_KEY", "query-SECRET")
    with LLMClient(fixture("mock-credential-query-param"), base_url=base_url, retry=False) as c:
        assert c.credential.name == "QUERYAUTH_API_KEY"
        with pytest.raises(ResponseValidationError):  # the recorder answers {}
            c.chat(TEXT_MESSAGES, model=MODEL)
    [request] = recorder.take()
    assert parse_qs(request["query"])["api_key"] == ["query-SECRET"]
    assert "authorization" not in request["headers"]


# -- error classes ------------------------------------------------------------------------------


def test_standard_codes_on_the_error_classes() -> None:
    table = {
        name: (cls.code, cls.retryable, cls.fallbackable) for name, cls in ERROR_CLASSES.items()
    }
    assert table["invalid_request"] == ("E1001", False, False)
    assert table["authentication"] == ("E1002", False, True)
    assert table["request_too_large"] == ("E1005", False, False)
    assert table["rate_limited"] == ("E2001", True, True)
    assert table["quota_exhausted"] == ("E2002", False, True)
    assert table["overloaded"] == ("E3002", True, True)
    assert table["conflict"] == ("E4001", True, False)
    assert table["other"] == ("E9999", False, False)
    assert len({code for code, _, _ in table.values()}) == len(table)
    assert error_class("E1005") is RequestTooLargeError
    assert error_class("unknown") is OtherProviderError
    assert error_class("E2002") is QuotaExhaustedError


# -- v2 manifests drive real exchanges --------------------------------------------------------


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockProvider]:
    provider = start_mock_provider(tmp_path_factory.mktemp("mock-v2"))
    try:
        yield provider
    finally:
        provider.stop()


@pytest.mark.parametrize("name", ["openai", "anthropic"])
def test_v2_manifests_drive_the_independent_mock(mock: MockProvider, name: str) -> None:
    """ai-protocol-mock (PyPI) answers as OpenAI / Anthropic do; the v2 manifests, read through
    their API style's program, get the same answers as the bundled v1 ones."""
    tools = [{"name": "get_weather", "parameters": {"type": "object"}}]
    user = [{"role": "user", "content": "hi"}]
    with LLMClient(load_v2(name), api_key=API_KEY, base_url=mock.base_url + "/v1") as llm:
        reply = llm.chat(user, model="m", max_tokens=32)
        with llm.stream(user, model="m", max_tokens=32) as stream:
            deltas = [e for e in stream if isinstance(e, PartialContentDelta)]
            streamed = stream.final_response()
        called = llm.chat(user, model="m", tools=tools, extra_headers={"X-Mock-Tool-Calls": "1"})
        with pytest.raises(ProviderError) as overflow:
            llm.chat(user, model="m", extra_headers={"X-Mock-Error": "context_overflow"})
    assert reply.content == "Mock response from ai-protocol-mock"
    assert reply.finish_reason == "end_turn" and reply.usage is not None
    assert streamed.content == reply.content == "".join(d.content for d in deltas)
    assert [(c.name, c.input) for c in called.tool_calls] == [("get_weather", {"city": "Tokyo"})]
    assert called.finish_reason == "tool_use"
    # OpenAI's body has code context_length_exceeded (E1005); Anthropic's only the type
    # invalid_request_error, which its manifest's by_error_code maps to invalid_request (E1001)
    wanted = {"openai": "E1005", "anthropic": "E1001"}[name]
    assert (overflow.value.code, overflow.value.retryable) == (wanted, False)


def test_v2_anthropic_stream_on_loopback() -> None:
    """A recorded Anthropic stream (thinking, text, a tool call) through the v2 manifest: the
    key goes in ``x-api-key`` as its ``endpoint.auth`` says."""
    with scripted_server() as server:
        server.answer(Answer(body=ANTHROPIC_STREAM, content_type="text/event-stream"))
        with LLMClient(load_v2("anthropic"), api_key=API_KEY, base_url=server.base_url) as llm:
            with llm.stream([{"role": "user", "content": "hi"}], model="m") as stream:
                reply = stream.final_response()
        [request] = server.requests
    assert request.headers["x-api-key"] == API_KEY and "authorization" not in request.headers
    assert (reply.thinking, reply.content) == ("hm", "Let me look.")
    assert [(c.id, c.name, c.input) for c in reply.tool_calls] == [
        ("toolu_1", "search", {"q": "weather"})
    ]
    assert reply.finish_reason == "tool_use"


GEMINI_ARRAY = json.dumps(
    [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hel"}]}, "index": 0}]},
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"text": "lo"},
                            {"functionCall": {"name": "f", "args": {"x": 1}}},
                        ],
                    },
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 5},
        },
    ],
    indent=1,
).encode()


@pytest.mark.parametrize("chunk", [None, 1, 7, 64])
def test_v2_gemini_streams_a_json_array(chunk: int | None) -> None:
    """Gemini v2 names ``:streamGenerateContent`` without ``?alt=sse``: the answer is one JSON
    array, read element by element at any chunking."""
    decoder = StreamDecoder(load_v2("gemini").stream)
    events: list[Any] = []
    step = chunk or len(GEMINI_ARRAY)
    for i in range(0, len(GEMINI_ARRAY), step):
        events += decoder.feed(GEMINI_ARRAY[i : i + step])
    assert decoder.complete
    events += decoder.finish()
    assert "".join(e.content for e in events if isinstance(e, PartialContentDelta)) == "Hello"
    assert [(e.tool_name, e.input) for e in events if isinstance(e, ToolCallEnded)] == [
        ("f", {"x": 1})
    ]
    assert isinstance(events[-1], StreamEnd) and events[-1].raw_finish_reason == "STOP"


def test_v2_gemini_stream_through_the_client() -> None:
    with scripted_server() as server:
        server.answer(Answer(body=GEMINI_ARRAY, content_type="application/json"))
        with LLMClient(load_v2("gemini"), api_key=API_KEY, base_url=server.base_url) as llm:
            with llm.stream([{"role": "user", "content": "hi"}], model="g") as stream:
                reply = stream.final_response()
        [request] = server.requests
    assert request.path == "/models/g:streamGenerateContent"
    assert parse_qs(request.query) == {"key": [API_KEY]}
    assert reply.content == "Hello" and [c.name for c in reply.tool_calls] == ["f"]
    assert reply.usage is not None and (reply.usage.input_tokens, reply.usage.output_tokens) == (
        3,
        5,
    )


def test_retry_after_extraction_from_the_body() -> None:
    data = v2_data("deepseek")
    data["error_classification"]["retry_after_extraction"] = {
        "pattern": r"try again in (\d+)ms",
        "unit": "milliseconds",
    }
    manifest = Manifest.from_dict(data)
    body = json.dumps({"error": {"message": "Rate limited: try again in 1500ms"}}).encode()
    with scripted_server() as server:
        server.answer(Answer(status=429, body=body))
        with LLMClient(manifest, api_key=API_KEY, base_url=server.base_url, retry=False) as llm:
            with pytest.raises(ProviderError) as info:
                llm.chat([{"role": "user", "content": "hi"}], model="m")
            server.answer(Answer(status=429, body=body, headers={"retry-after": "3"}))
            with pytest.raises(ProviderError) as header:
                llm.chat([{"role": "user", "content": "hi"}], model="m")
    assert info.value.retry_after == 1.5 and info.value.code == "E2001"
    assert header.value.retry_after == 3.0  # the header wins
    data["error_classification"]["retry_after_extraction"]["pattern"] = "(unclosed"
    with pytest.raises(ManifestError) as bad:
        Manifest.from_dict(data)
    assert bad.value.pointer == "/error_classification/retry_after_extraction/pattern"


def test_by_message_contains_classifies_by_the_message() -> None:
    data = v2_data("anthropic")
    data["protocol_version"] = "1.5"  # the 1.5 shape takes v1's by_message_contains
    for key in ("capability_profile", "computer_use", "mcp"):
        del data[key]
    data["error_classification"]["by_message_contains"] = {
        "prompt is too long": "request_too_large"
    }
    manifest = Manifest.from_dict(data)
    body = json.dumps(
        {"type": "error", "error": {"type": "invalid_request_error", "message": "x"}}
    ).encode()
    long = body.replace(b'"x"', b'"prompt is too long: 210000 tokens"')
    with (
        scripted_server() as server,
        LLMClient(manifest, api_key=API_KEY, base_url=server.base_url, retry=False) as llm,
    ):
        got = []
        for answer in (long, body):
            server.answer(Answer(status=400, body=answer))
            with pytest.raises(ProviderError) as info:
                llm.chat([{"role": "user", "content": "hi"}], model="m", max_tokens=5)
            got.append(info.value.error_class)
    # by_error_code (invalid_request_error) comes first in the manifest's order: the message
    # rule only decides when the code does not
    assert got == ["invalid_request", "invalid_request"]
    del data["error_classification"]["by_error_code"]
    manifest = Manifest.from_dict(data)
    with (
        scripted_server() as server,
        LLMClient(manifest, api_key=API_KEY, base_url=server.base_url, retry=False) as llm,
    ):
        server.answer(Answer(status=400, body=long))
        with pytest.raises(RequestTooLargeError):
            llm.chat([{"role": "user", "content": "hi"}], model="m", max_tokens=5)
        server.answer(Answer(status=400, body=body))
        with pytest.raises(ProviderError) as info:
            llm.chat([{"role": "user", "content": "hi"}], model="m", max_tokens=5)
        assert info.value.error_class == "invalid_request"


def test_the_build_checks_the_provider_contracts(tmp_path: Path) -> None:
    """A vendored contract must be valid under upstream's contract schema (its ``$schema`` key
    aside), its api_style one the client reads, and the v2 manifest of its provider must read
    in that shape (gemini's contract names it by its alias google)."""
    from codegen.clients import llm as build_llm

    versions = build_llm._standalone(ROOT / "templates", "versions")
    folder = ROOT / "schemas" / "ai_protocol" / "v2"
    schemas = {
        "v2/provider-contract.json": json.loads((folder / "provider-contract.json").read_text())
    }
    contracts = tmp_path / "v2" / "contracts"
    contracts.mkdir(parents=True)
    formats = {"anthropic": "anthropic_style", "google": "gemini_style"}
    for file in sorted((folder / "contracts").glob("*.yaml")):
        (contracts / file.name).write_text(file.read_text("utf-8"), "utf-8")
    assert build_llm._check_contracts(tmp_path, tmp_path, versions, formats, schemas) == []
    anthropic = yaml.safe_load(
        (folder / "contracts" / "anthropic-messages.contract.yaml").read_text()
    )
    gemini = yaml.safe_load((folder / "contracts" / "gemini-generate.contract.yaml").read_text())
    (contracts / "odd.yaml").write_text(yaml.safe_dump({**gemini, "api_style": "custom"}), "utf-8")
    (contracts / "wrong.yaml").write_text(
        yaml.safe_dump({**anthropic, "api_style": "openai_compatible"}), "utf-8"
    )
    broken = {k: v for k, v in anthropic.items() if k != "response_mapping"}
    (contracts / "x-broken.yaml").write_text(yaml.safe_dump(broken), "utf-8")
    found = build_llm._check_contracts(tmp_path, tmp_path, versions, formats, schemas)
    assert [(p.file, p.pointer) for p in found] == [
        ("v2/contracts/odd.yaml", "/api_style"),
        ("v2/contracts/wrong.yaml", "/api_style"),
        ("v2/contracts/x-broken.yaml", ""),
    ]
    assert "custom" in found[0].reason and "anthropic_style" in found[1].reason
    assert "response_mapping" in found[2].reason


@pytest.mark.parametrize(
    "name", [n for n in UPSTREAM if not n.startswith("v2-alpha/") and n not in NON_CHAT]
)
def test_upstream_manifests_ship_with_the_package(
    name: str, recorder: Recorder, base_url: str
) -> None:
    """``LLMClient("<id>@v2")`` needs no file: the package embeds the vendored upstream
    manifests, and the embedded one builds the same request as the file."""
    version, provider = name.split("/")
    key = f"{provider}@{version}"
    assert key in UPSTREAM_IDS
    embedded = Manifest.bundled(key)
    assert embedded.raw == load_upstream(name).raw
    for manifest in (embedded, load_upstream(name)):
        with client_for(manifest, base_url) as client:
            with pytest.raises(ResponseValidationError):  # the recorder answers {}
                client.chat(TEXT_MESSAGES, model=MODEL, max_tokens=8)
    first, second = recorder.take()
    assert (first["path"], first["query"], first["body"]) == (
        second["path"],
        second["query"],
        second["body"],
    )
    with LLMClient(key, api_key=API_KEY, base_url=base_url, retry=False) as by_name:
        assert by_name.manifest is embedded


def test_non_chat_manifests_are_refused_by_name() -> None:
    """The vendored manifests of non-chat APIs are not shipped as chat providers: asking for
    one by name raises ``ManifestError`` with the one reason (the non-chat request format)."""
    for name, pointer in NON_CHAT.items():
        version, provider = name.split("/")
        if not pointer:  # jina's v2 manifest loads; its chat is refused at the call
            assert f"{provider}@{version}" in UPSTREAM_IDS
            continue
        with pytest.raises(ManifestError) as info:
            Manifest.bundled(f"{provider}@{version}")
        assert info.value.pointer == pointer and "non-chat API" in info.value.reason


def test_the_async_client_has_the_same_credential_report(
    monkeypatch: pytest.MonkeyPatch, base_url: str, recorder: Recorder
) -> None:
    import anyio
    from agentproto.llm import AsyncLLMClient

    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    monkeypatch.setenv("DEEPSEEK_API_KEY", "async-SECRET")

    async def main() -> None:
        async with AsyncLLMClient("deepseek@v2", base_url=base_url, retry=False) as llm:
            assert (llm.credential.kind, llm.credential.name) == (
                "manifest_env",
                "DEEPSEEK_API_KEY",
            )
            with pytest.raises(ResponseValidationError):  # the recorder answers {}
                await llm.chat(TEXT_MESSAGES, model=MODEL)

    anyio.run(main)
    [request] = recorder.take()
    assert request["headers"]["authorization"] == "Bearer async-SECRET"
    assert request["body"]["temperature"] == 1.0  # the v2 manifest's default


@pytest.mark.parametrize(
    ("status", "google_status", "error_class", "code"),
    [
        (504, "DEADLINE_EXCEEDED", "timeout", "E3003"),  # by_http_status has no 504
        (400, "INVALID_ARGUMENT", "invalid_request", "E1001"),
        (403, "PERMISSION_DENIED", "permission_denied", "E1003"),
        (503, "UNAVAILABLE", "overloaded", "E3002"),
    ],
)
def test_gemini_v2_by_error_code_reads_the_google_status(
    status: int, google_status: str, error_class: str, code: str
) -> None:
    body = json.dumps(
        {"error": {"code": status, "message": "no", "status": google_status}}
    ).encode()
    with scripted_server() as server:
        server.answer(Answer(status=status, body=body))
        with LLMClient("gemini@v2", api_key=API_KEY, base_url=server.base_url, retry=False) as llm:
            with pytest.raises(ProviderError) as info:
                llm.chat([{"role": "user", "content": "hi"}], model="g")
    assert (info.value.error_class, info.value.code) == (error_class, code)
    assert API_KEY not in str(info.value)  # the key rode in the query string
