"""The request every bundled provider manifest builds for a standard chat call.

A tiny recording ASGI app on a loopback socket answers every request with ``200 {}`` (or an
empty event stream) and keeps what it received: method, path, query, lower-cased headers and
the JSON body. For each provider id in ``agentproto.llm.registry.PROVIDER_IDS`` the test makes
``LLMClient(provider, api_key=API_KEY, base_url=<loopback>/base, ...)``, sends the standard
conversation (a system message, a user message, an assistant ``tool_use`` and its
``tool_result``; text only for the formats that cannot carry tool blocks) with the standard
parameters the manifest maps, and compares the recorded request with the checked-in
expectation ``tests/fixtures/llm_requests/<provider>.json`` (``chat`` and ``stream``).

The expectations were recorded once and then read one by one against the provider's manifest
(``schemas/ai_protocol/providers/<id>.json``) and its public API conventions; they say what is
*right*, so a test that fails here shows a request the client builds wrongly.

To regenerate the expectations (then review every diff by hand)::

    LLM_REQUESTS_RECORD=1 python3 -m pytest tests/test_llm_requests.py -q

With ``LLM_REQUESTS_RECORD=1`` the request tests write the files instead of comparing.

Also here: the API key stays out of ``repr(client)`` and out of the error raised for a 4xx
answer (Gemini carries it in the query string); invalid manifests of the vendored corpus raise
``ManifestError`` with the right JSON pointer; ``Manifest.load`` of a file.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
import yaml
from agentproto._runtime.http_errors import ResponseValidationError
from agentproto.llm import LLMClient, Manifest, ManifestError, ProviderError, UnsupportedError
from agentproto.llm.registry import PROVIDER_IDS
from agentproto.llm.streaming import IncompleteStreamError

from tests.conftest import ROOT
from tests.servers.loopback import serve

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "llm_requests"
PROVIDER_FILES = ROOT / "schemas" / "ai_protocol" / "providers"
RECORD = os.environ.get("LLM_REQUESTS_RECORD") == "1"

API_KEY = "sk-test-SECRET"
MODEL = "test-model"
BASE_PATH = "/base"
STATUS_HEADER = "x-recorder-status"
"""A request carrying this header is answered with that status and a JSON error body."""

VARIABLES: dict[str, dict[str, str]] = {
    "replicate": {"owner": "test-owner"},
    "azure": {"AZURE_RESOURCE_NAME": "test-resource", "AZURE_DEPLOYMENT_ID": "test-deployment"},
}
TEXT_ONLY_FORMATS = frozenset({"baidu_style", "replicate_style"})

WEATHER_TOOL: dict[str, Any] = {
    "name": "get_weather",
    "description": "The current weather in a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "City name"}},
        "required": ["city"],
    },
}
STANDARD_MESSAGES: list[dict[str, Any]] = [
    {"role": "system", "content": "You are a terse weather assistant."},
    {"role": "user", "content": "What is the weather in Paris?"},
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Paris"}},
        ],
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": "18 C, sunny"}],
    },
]
TEXT_MESSAGES: list[dict[str, Any]] = [
    {"role": "system", "content": "You are a terse weather assistant."},
    {"role": "user", "content": "What is the weather in Paris?"},
    {"role": "assistant", "content": "Sunny, 18 C."},
    {"role": "user", "content": "And tomorrow?"},
]
SELECTED_HEADERS = ("authorization", "x-api-key", "api-key", "content-type", "accept")


# -- the recording server -----------------------------------------------------------------------


class Recorder:
    """An ASGI app that records every request and answers 200 ``{}`` (streams: no events)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def take(self) -> list[dict[str, Any]]:
        with self._lock:
            taken, self.requests = self.requests, []
        return taken

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        headers: dict[str, str] = {}
        for name, value in scope["headers"]:
            headers[name.decode("latin-1").lower()] = value.decode("latin-1")
        record = {
            "method": scope["method"],
            "path": scope["path"],
            "query": scope["query_string"].decode("latin-1"),
            "headers": headers,
            "body": body,
        }
        with self._lock:
            self.requests.append(record)
        if STATUS_HEADER in headers:
            status = int(headers[STATUS_HEADER])
            payload = json.dumps(
                {"error": {"message": "API key not valid.", "status": "INVALID_ARGUMENT"}}
            ).encode()
            kind = b"application/json"
        elif headers.get("accept") == "text/event-stream":
            status, payload, kind = 200, b"", b"text/event-stream"
        else:
            status, payload, kind = 200, b"{}", b"application/json"
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", kind), (b"content-length", b"%d" % len(payload))],
            }
        )
        await send({"type": "http.response.body", "body": payload})


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Recorder]]:
    recorder = Recorder()
    with serve(recorder) as url:
        yield url, recorder


@pytest.fixture
def recorder(server: tuple[str, Recorder]) -> Iterator[Recorder]:
    server[1].take()
    yield server[1]
    server[1].take()


@pytest.fixture
def base_url(server: tuple[str, Recorder]) -> str:
    return server[0] + BASE_PATH


# -- helpers --------------------------------------------------------------------------------------


def make_client(provider: str, base_url: str) -> LLMClient:
    return LLMClient(
        provider,
        api_key=API_KEY,
        base_url=base_url,
        variables=VARIABLES.get(provider),
        retry=False,
        timeout=10.0,
    )


def chat_arguments(manifest: Manifest) -> dict[str, Any]:
    """The standard chat call's keyword arguments, keeping what the manifest maps."""
    mapped = manifest.mappings
    tools_ok = "tools" in mapped and manifest.capabilities.get("tools") is not False
    arguments: dict[str, Any] = {"model": MODEL, "temperature": 0.5, "max_tokens": 64}
    if "top_p" in mapped:
        arguments["top_p"] = 0.9
    if "stop_sequences" in mapped:
        arguments["stop_sequences"] = ["END"]
    if tools_ok:
        arguments["tools"] = [WEATHER_TOOL]
        if "tool_choice" in mapped:
            arguments["tool_choice"] = "auto"
    return arguments


def standard_messages(manifest: Manifest) -> list[dict[str, Any]]:
    text_only = manifest.payload_format in TEXT_ONLY_FORMATS
    return TEXT_MESSAGES if text_only else STANDARD_MESSAGES


def key_carrier(manifest: Manifest) -> tuple[str, str, str]:
    """(where, name, value) of the API key in a request, as the manifest's auth says."""
    if manifest.auth_type == "query_param":
        return ("query", manifest.auth_param, API_KEY)
    if manifest.auth_type == "api_key":
        return ("header", manifest.auth_header.lower(), API_KEY)
    return ("header", "authorization", f"Bearer {API_KEY}")


def summarize(manifest: Manifest, request: dict[str, Any]) -> dict[str, Any]:
    """The parts of a recorded request an expectation file holds."""
    names = [*SELECTED_HEADERS, *(h.lower() for h in manifest.extra_headers)]
    where, name, _ = key_carrier(manifest)
    if where == "header":
        names.append(name)
    headers = request["headers"]
    return {
        "method": request["method"],
        "path": request["path"],
        "query": {k: v for k, v in sorted(parse_qs(request["query"]).items())},
        "headers": {n: headers.get(n) for n in sorted(set(names))},
        "body": request["body"],
    }


def key_places(request: dict[str, Any]) -> set[tuple[str, str]]:
    """Everywhere the API key shows in a recorded request."""
    places = {("header", n) for n, v in request["headers"].items() if API_KEY in v}
    places |= {
        ("query", k)
        for k, vs in parse_qs(request["query"]).items()
        if any(API_KEY in v for v in vs)
    }
    if API_KEY in json.dumps(request["body"]):
        places.add(("body", ""))
    return places


def check(provider: str, kind: str, actual: dict[str, Any]) -> None:
    """Compare ``actual`` with the expectation file's ``kind`` entry (or record it)."""
    file = FIXTURES / f"{provider}.json"
    stored: dict[str, Any] = json.loads(file.read_text("utf-8")) if file.exists() else {}
    if RECORD:
        stored[kind] = actual
        FIXTURES.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n", "utf-8")
        return
    if kind not in stored:
        pytest.fail(f"no expectation {kind!r} in {file}: run with LLM_REQUESTS_RECORD=1")
    expected = stored[kind]
    for part in ("method", "path", "query", "headers", "body"):
        assert actual[part] == expected[part], f"{provider} {kind}: {part} differs"


# -- the requests -------------------------------------------------------------------------------


def test_every_bundled_provider_is_covered() -> None:
    assert len(PROVIDER_IDS) == 19
    if not RECORD:
        files = sorted(p.stem for p in FIXTURES.glob("*.json"))
        assert files == sorted(PROVIDER_IDS)


@pytest.mark.parametrize("provider", PROVIDER_IDS)
def test_chat_request(provider: str, recorder: Recorder, base_url: str) -> None:
    manifest = Manifest.bundled(provider)
    with make_client(provider, base_url) as client:
        try:
            client.chat(standard_messages(manifest), **chat_arguments(manifest))
        except ResponseValidationError:
            pass  # the answer `{}` has no content: only the request matters here
    requests = recorder.take()
    assert len(requests) == 1
    request = requests[0]
    where, name, value = key_carrier(manifest)
    assert key_places(request) == {(where, name)}, f"{provider}: the key is sent elsewhere"
    if where == "query":
        assert parse_qs(request["query"])[name] == [value]
        assert "authorization" not in request["headers"]
    else:
        assert request["headers"][name] == value
    check(provider, "chat", summarize(manifest, request))


def can_stream(provider: str) -> bool:
    manifest = Manifest.bundled(provider)
    return "stream" in manifest.mappings or "chat_stream" in manifest.endpoints


@pytest.mark.parametrize("provider", [p for p in PROVIDER_IDS if can_stream(p)])
def test_stream_request(provider: str, recorder: Recorder, base_url: str) -> None:
    manifest = Manifest.bundled(provider)
    with make_client(provider, base_url) as client:
        try:
            with client.stream(TEXT_MESSAGES, model=MODEL, max_tokens=64) as stream:
                stream.final_response()
        except (IncompleteStreamError, ProviderError, ResponseValidationError):
            pass  # the recorder sends no events: only the request matters here
    requests = recorder.take()
    assert len(requests) == 1
    request = requests[0]
    assert request["headers"].get("accept") == "text/event-stream"
    if "stream" in manifest.mappings and "chat_stream" not in manifest.endpoints:
        node: Any = request["body"]
        for part in manifest.mappings["stream"].split("."):
            node = node[part]
        assert node is True
    check(provider, "stream", summarize(manifest, request))


@pytest.mark.parametrize("provider", [p for p in PROVIDER_IDS if not can_stream(p)])
def test_a_manifest_without_streams_refuses_one(
    provider: str, recorder: Recorder, base_url: str
) -> None:
    """gemini's bundled manifest has no ``stream`` mapping and no ``chat_stream`` endpoint:
    ``stream()`` refuses before sending anything (never a plain chat passed off as a stream)."""
    with make_client(provider, base_url) as client, pytest.raises(UnsupportedError) as info:
        with client.stream(TEXT_MESSAGES, model=MODEL, max_tokens=64) as stream:
            stream.final_response()
    assert "no way to ask for a stream" in str(info.value) and provider in str(info.value)
    assert recorder.take() == []


def test_the_streamless_manifests_are_the_known_ones() -> None:
    assert [p for p in PROVIDER_IDS if not can_stream(p)] == ["gemini"]


@pytest.mark.parametrize(
    "provider", [p for p in PROVIDER_IDS if Manifest.bundled(p).payload_format in TEXT_ONLY_FORMATS]
)
def test_text_only_formats_refuse_tool_blocks(
    provider: str, recorder: Recorder, base_url: str
) -> None:
    fmt = Manifest.bundled(provider).payload_format
    with make_client(provider, base_url) as client:
        with pytest.raises(ValueError) as info:
            client.chat(STANDARD_MESSAGES, model=MODEL, max_tokens=64)
    message = str(info.value)
    assert provider in message
    assert fmt in message
    assert "text only" in message
    assert recorder.take() == []


def test_replicate_owner_from_the_model_name(recorder: Recorder, base_url: str) -> None:
    client = LLMClient("replicate", api_key=API_KEY, base_url=base_url, retry=False)
    with client:
        try:
            client.chat(TEXT_MESSAGES, model="acme/test-model", max_tokens=64)
        except ResponseValidationError:
            pass
    [request] = recorder.take()
    assert request["path"] == f"{BASE_PATH}/models/acme/test-model/predictions"
    assert "model" not in request["body"]


def test_replicate_without_owner_says_so(base_url: str) -> None:
    with LLMClient("replicate", api_key=API_KEY, base_url=base_url, retry=False) as client:
        with pytest.raises(ValueError, match="owner"):
            client.chat(TEXT_MESSAGES, model=MODEL)


def test_azure_api_version_in_the_base_url(recorder: Recorder, base_url: str) -> None:
    """Azure OpenAI wants ``?api-version=...`` on every call and the manifest has no place for
    it, so it can only come with the base URL: the path must go before the query."""
    url = f"{base_url}/openai/deployments/test-deployment?api-version=2024-10-21"
    with LLMClient("azure", api_key=API_KEY, base_url=url, retry=False) as client:
        try:
            client.chat(TEXT_MESSAGES, model=MODEL, max_tokens=64)
        except ResponseValidationError:
            pass
    [request] = recorder.take()
    assert request["path"] == f"{BASE_PATH}/openai/deployments/test-deployment/chat/completions"
    assert parse_qs(request["query"]) == {"api-version": ["2024-10-21"]}


# -- the API key stays secret -------------------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDER_IDS)
def test_repr_hides_the_key(provider: str, base_url: str) -> None:
    with make_client(provider, base_url) as client:
        text = repr(client)
    assert API_KEY not in text
    assert "SECRET" not in text
    assert provider in text


def test_query_param_key_is_not_in_errors(recorder: Recorder, base_url: str) -> None:
    manifest = Manifest.bundled("gemini")
    assert manifest.auth_type == "query_param"
    with make_client("gemini", base_url) as client:
        with pytest.raises(ProviderError) as info:
            client.chat(TEXT_MESSAGES, model=MODEL, extra_headers={STATUS_HEADER: "400"})
    error = info.value
    [request] = recorder.take()
    assert parse_qs(request["query"])[manifest.auth_param] == [API_KEY]  # it was really sent
    assert error.status_code == 400
    for text in (str(error), repr(error), str(error.url), " ".join(map(str, error.args))):
        assert API_KEY not in text
        assert "SECRET" not in text
    assert f"/models/{MODEL}:generateContent" in str(error)


def test_query_param_key_is_not_in_stream_errors(recorder: Recorder, base_url: str) -> None:
    """A broken stream's error must not carry the key either, whatever the manifest names its
    query parameter (``code`` here, as Azure Functions does: not a generic secret name)."""
    data = json.loads((PROVIDER_FILES / "gemini.json").read_text("utf-8"))
    data["auth"]["param_name"] = "code"
    manifest = Manifest.from_dict(data, source="gemini with ?code=")
    stream_path = "/models/{model}:streamGenerateContent"
    client = LLMClient(
        manifest, api_key=API_KEY, base_url=base_url, stream_path=stream_path, retry=False
    )
    with client, pytest.raises(IncompleteStreamError) as info:
        with client.stream(TEXT_MESSAGES, model=MODEL) as stream:
            stream.final_response()
    [request] = recorder.take()
    assert parse_qs(request["query"])["code"] == [API_KEY]  # it was really sent
    error = info.value
    for text in (str(error), repr(error), str(error.url)):
        assert API_KEY not in text


# -- manifests ----------------------------------------------------------------------------------


UPSTREAM_V1 = ROOT / "schemas" / "ai_protocol" / "v1" / "providers"


@pytest.mark.parametrize("name", ["anyscale", "deepinfra", "siliconflow", "together"])
def test_a_relative_v1_schema_reference_is_accepted(name: str) -> None:
    """Upstream's own v1 manifests name their schema ``../../schemas/v1.json`` (relative to
    ``v1/providers/``), which upstream's v1 schema pattern misses: they load (issue 27)."""
    data = yaml.safe_load((UPSTREAM_V1 / f"{name}.yaml").read_text("utf-8"))
    assert data["$schema"] == "../../schemas/v1.json"
    manifest = Manifest.from_dict(data, source=name)
    assert manifest.id == name and manifest.raw["$schema"] == "../../schemas/v1.json"
    other = {**data, "$schema": "https://example.com/not-the-schema.json"}
    with pytest.raises(ManifestError) as info:  # any other reference is still refused
        Manifest.from_dict(other)
    assert info.value.pointer == "/$schema"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("huggingface", ("inference_api", "Hugging Face Inference")),
        ("jina", ("jina_api", "rerank")),
        ("stability", ("stability_api", "text_to_image")),
    ],
)
def test_non_chat_manifests_are_refused_with_one_reason(name: str, words: tuple[str, ...]) -> None:
    path = UPSTREAM_V1 / f"{name}.yaml"
    with pytest.raises(ManifestError) as info:
        Manifest.load(path)
    error = info.value
    assert error.pointer == "/auth/payload_format" and len(error.problems) == 1
    assert error.source == str(path) and str(path) in str(error)
    assert "non-chat API" in error.reason
    for word in words:
        assert word in error.reason


def test_from_dict_default_source() -> None:
    data = yaml.safe_load((UPSTREAM_V1 / "jina.yaml").read_text("utf-8"))
    with pytest.raises(ManifestError) as info:
        Manifest.from_dict(data)
    assert info.value.source == "<manifest>"
    assert info.value.pointer == "/auth/payload_format"


def test_load_a_manifest_file(tmp_path: Path, recorder: Recorder, base_url: str) -> None:
    path = tmp_path / "openai.json"
    shutil.copy(PROVIDER_FILES / "openai.json", path)
    manifest = Manifest.load(path)
    assert manifest.id == "openai"
    assert manifest.source == str(path)
    assert manifest.chat_endpoint() == ("POST", "/chat/completions")
    # a client made from the file path builds the same request as the bundled one
    with LLMClient(str(path), api_key=API_KEY, base_url=base_url, retry=False) as client:
        try:
            client.chat(TEXT_MESSAGES, model=MODEL, max_tokens=64)
        except ResponseValidationError:
            pass
    [request] = recorder.take()
    assert request["path"] == f"{BASE_PATH}/chat/completions"
    assert request["headers"]["authorization"] == f"Bearer {API_KEY}"


def test_load_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"id": "broken", "name": ', "utf-8")
    with pytest.raises(ManifestError) as info:
        Manifest.load(path)
    assert info.value.source == str(path)
    assert info.value.pointer == ""
    assert "JSON" in info.value.reason
