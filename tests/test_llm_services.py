"""Structured output, model listing and embeddings of the manifest-driven LLM client.

Real bytes over loopback: the independent ``ai-protocol-mock`` server (it answers a request
carrying ``response_format`` with JSON), a scripted recording server for request shapes and
for the routes the mock does not serve (``/models``, ``/embeddings``), and the official
``openai`` SDK against the same recording server as an independent check of request shapes.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl

import anyio
import pydantic
import pytest
from agentproto._runtime.http_errors import ResponseValidationError
from agentproto.llm import (
    AsyncLLMClient,
    LLMClient,
    Manifest,
    ParsedChatResponse,
    ProviderError,
    StructuredOutputError,
    UnsupportedError,
)
from agentproto.llm.structured import (
    declares_structured_output,
    json_schema,
    parse_response,
    strict_schema,
)

from tests.servers.mock_provider import MockProvider, start_mock_provider
from tests.servers.scripted import Answer, Script, scripted_server

KEY = "sk-test-DO-NOT-LEAK-456"
USER = [{"role": "user", "content": "List three items as JSON"}]


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockProvider]:
    provider = start_mock_provider(tmp_path_factory.mktemp("mock"))
    try:
        yield provider
    finally:
        provider.stop()


@pytest.fixture()
def server() -> Iterator[Script]:
    with scripted_server() as script:
        yield script


def body_of(script: Script, index: int = -1) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(script.requests[index].body)
    return data


def openai_answer(content: str, finish: str = "stop") -> Answer:
    body = {
        "id": "c1",
        "object": "chat.completion",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish,
            }
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7},
    }
    return Answer(body=json.dumps(body).encode())


# -- structured output ------------------------------------------------------------------------


class Items(pydantic.BaseModel):
    count: int
    items: list[str]


class Address(pydantic.BaseModel):
    city: str
    zip: str | None = None


class Person(pydantic.BaseModel):
    name: str
    age: int = 3
    home: Address
    past: list[Address] = []


def test_parse_against_the_mock_sync_and_async(mock: MockProvider) -> None:
    base = mock.base_url + "/v1"
    with LLMClient("openai", api_key=KEY, base_url=base, structured_output=True) as llm:
        parsed = llm.parse(USER, model="m", response_format=Items)
        json_mode = llm.chat(USER, model="m", response_format={"type": "json_object"})

    async def main() -> ParsedChatResponse[Items]:
        async with AsyncLLMClient(
            "openai", api_key=KEY, base_url=base, structured_output=True
        ) as llm:
            return await llm.parse(USER, model="m", response_format=Items)

    assert isinstance(parsed.parsed, Items)
    assert parsed.parsed == Items(count=3, items=["a", "b", "c"])
    assert anyio.run(main).parsed == parsed.parsed
    assert json.loads(json_mode.content) == {"result": "mock_structured_output"}


def sse_chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
    chunk = {"id": "c", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


def test_streamed_structured_output(server: Script) -> None:
    """ai-protocol-mock 1.1.1 streams a structured answer as one whole completion object (no
    ``delta``), which real APIs never do; a real-shaped stream is served here instead."""
    pieces = ['{"count": 2,', ' "items": ["a",', ' "b"]}']
    body = b"".join([*(sse_chunk({"content": p}) for p in pieces), sse_chunk({}, "stop")])
    server.answer(Answer(body=body + b"data: [DONE]\n\n", content_type="text/event-stream"))
    with LLMClient("mistral", api_key=KEY, base_url=server.base_url) as llm:
        with llm.stream(USER, model="m", response_format=Items) as stream:
            final = stream.final_response()
    sent = body_of(server)
    assert sent["stream"] is True
    assert sent["response_format"]["json_schema"]["name"] == "Items"
    assert parse_response(final, Items) == Items(count=2, items=["a", "b"])


@pytest.mark.parametrize("model", [Items, Person])
def test_request_shape_matches_the_openai_sdk(
    server: Script, model: type[pydantic.BaseModel]
) -> None:
    import openai

    server.answer(openai_answer('{"count": 1, "items": ["x"]}'))
    sdk = openai.OpenAI(api_key=KEY, base_url=server.base_url, max_retries=0)
    try:
        sdk.chat.completions.parse(model="m", messages=USER, response_format=model)  # type: ignore[arg-type]
    except pydantic.ValidationError:  # Person does not fit the canned answer: the request counts
        pass
    sdk.close()
    theirs = body_of(server)["response_format"]
    with LLMClient("openai", api_key=KEY, base_url=server.base_url, structured_output=True) as llm:
        try:
            llm.parse(USER, model="m", response_format=model)
        except StructuredOutputError:
            pass
    ours = body_of(server)["response_format"]
    assert ours == theirs
    assert ours["json_schema"]["strict"] is True
    assert ours["json_schema"]["schema"]["additionalProperties"] is False


def test_json_schema_dict_and_strict_schema(server: Script) -> None:
    server.answer(openai_answer('{"ok": true}'))
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    with LLMClient("mistral", api_key=KEY, base_url=server.base_url) as llm:  # maps it
        reply = llm.chat(USER, model="m", response_format=json_schema(schema, name="flag"))
    assert body_of(server)["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "flag", "schema": schema, "strict": True},
    }
    assert json.loads(reply.content) == {"ok": True}
    with LLMClient("mistral", api_key=KEY, base_url=server.base_url) as llm:
        llm.chat(USER, model="m", params={"response_format": {"type": "json_object"}})
    assert body_of(server)["response_format"] == {"type": "json_object"}
    with LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(UnsupportedError, match="does not declare"):
            llm.chat(USER, model="m", params={"response_format": Items})
    strict = strict_schema(Person)
    assert strict["required"] == ["name", "age", "home", "past"]
    assert strict["$defs"]["Address"]["required"] == ["city", "zip"]
    assert strict["$defs"]["Address"]["additionalProperties"] is False


def test_gemini_form_inlines_references(server: Script) -> None:
    server.answer(Answer(body=b'{"candidates": [{"content": {"parts": [{"text": "{}"}]}}]}'))
    with LLMClient("gemini", api_key=KEY, base_url=server.base_url, structured_output=True) as llm:
        llm.chat(USER, model="g", response_format=Person, max_tokens=20)
        llm.chat(USER, model="g", response_format={"type": "json_object"})
    config = body_of(server, 0)["generationConfig"]
    assert config["maxOutputTokens"] == 20
    assert config["responseMimeType"] == "application/json"
    schema = config["responseSchema"]
    for absent in ("$defs", "$ref", "additionalProperties"):
        assert absent not in json.dumps(schema)
    assert schema["required"] == ["name", "home"]  # pydantic's own, not made strict
    assert schema["properties"]["home"]["properties"]["city"] == {"title": "City", "type": "string"}
    assert body_of(server, 1)["generationConfig"] == {"responseMimeType": "application/json"}


def test_recursive_schema_for_gemini_is_refused() -> None:
    class Node(pydantic.BaseModel):
        children: list[Node]

    with LLMClient(
        "gemini", api_key=KEY, base_url="http://127.0.0.1:9", structured_output=True
    ) as llm:
        with pytest.raises(UnsupportedError, match="recursive"):
            llm.chat(USER, model="g", response_format=Node)


def test_undeclared_or_impossible_structured_output_is_refused_not_dropped() -> None:
    base = "http://127.0.0.1:9"  # nothing is sent: every case fails while building
    with LLMClient("openai", api_key=KEY, base_url=base) as llm:
        with pytest.raises(UnsupportedError, match="does not declare structured output"):
            llm.chat(USER, model="m", response_format={"type": "json_object"})
        with pytest.raises(UnsupportedError, match="structured_output=True"):
            llm.stream(USER, model="m", response_format=Items)
        with pytest.raises(ValueError, match="json_schema"):
            llm.chat(USER, model="m", response_format={"type": "json_schema"})
    with LLMClient("anthropic", api_key=KEY, base_url=base, structured_output=True) as llm:
        with pytest.raises(UnsupportedError, match="no native structured output"):
            llm.chat(USER, model="m", response_format=Items)
    data = dict(Manifest.bundled("openai").data)
    data["capabilities"] = {
        **data["capabilities"],
        "feature_flags": {"structured_output": False},
    }
    denying = Manifest(data, "test")
    assert declares_structured_output(denying) is False
    with LLMClient(denying, api_key=KEY, base_url=base, structured_output=True) as llm:
        with pytest.raises(UnsupportedError, match="says the provider has no structured output"):
            llm.chat(USER, model="m", response_format=Items)
    v2_style = dict(Manifest.bundled("openai").data)
    v2_style["capabilities"] = {"required": ["text"], "optional": ["structured_output"]}
    assert declares_structured_output(Manifest(v2_style, "test")) is True
    assert declares_structured_output(Manifest.bundled("mistral")) is True
    assert declares_structured_output(Manifest.bundled("openai")) is None


def test_refusal_is_an_error_with_its_text(server: Script) -> None:
    message = {"role": "assistant", "content": None, "refusal": "I can't help with that."}
    body = {"id": "c", "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
    server.answer(Answer(body=json.dumps(body).encode()))
    with LLMClient("openai", api_key=KEY, base_url=server.base_url, structured_output=True) as llm:
        with pytest.raises(StructuredOutputError, match="refused: I can't help with that"):
            llm.parse(USER, model="m", response_format=Items)


@pytest.mark.parametrize(
    ("content", "finish", "match"),
    [
        ('{"count": 3, "items": ["a"', "length", "cut short"),
        ("not json", "stop", "not JSON"),
        ('{"count": "many", "items": []}', "stop", "count"),
    ],
)
def test_bad_structured_answers_raise(
    server: Script, content: str, finish: str, match: str
) -> None:
    server.answer(openai_answer(content, finish))
    with LLMClient("openai", api_key=KEY, base_url=server.base_url, structured_output=True) as llm:
        with pytest.raises(StructuredOutputError, match=match) as caught:
            llm.parse(USER, model="m", response_format=Items)
    assert caught.value.content == content


# -- model listing ----------------------------------------------------------------------------


def json_answer(data: Any, status: int = 200) -> Answer:
    return Answer(status=status, body=json.dumps(data).encode())


OPENAI_MODELS = {
    "object": "list",
    "data": [
        {"id": "gpt-4o", "object": "model", "created": 1, "owned_by": "openai"},
        {"id": "text-embedding-3-small", "object": "model", "created": 2, "owned_by": "openai"},
    ],
}


def test_list_models_matches_the_openai_sdk(server: Script) -> None:
    import openai

    server.answer(json_answer(OPENAI_MODELS))
    sdk = openai.OpenAI(api_key=KEY, base_url=server.base_url, max_retries=0)
    theirs = [m.id for m in sdk.models.list()]
    sdk.close()
    with LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
        ours = llm.list_models()
    sdk_request, our_request = server.requests
    assert (our_request.method, our_request.path) == (sdk_request.method, sdk_request.path)
    assert our_request.path == "/models" and our_request.method == "GET"
    assert our_request.headers["authorization"] == sdk_request.headers["authorization"]
    assert [m.id for m in ours] == theirs == ["gpt-4o", "text-embedding-3-small"]
    assert ours[0].raw == OPENAI_MODELS["data"][0]
    assert KEY not in repr(ours)


def test_list_models_follows_every_page_async(server: Script) -> None:
    server.answer(
        json_answer(
            {
                "data": [{"id": "claude-a", "display_name": "A"}],
                "has_more": True,
                "last_id": "claude-a",
            }
        ),
        json_answer({"data": [{"id": "claude-b"}], "has_more": False, "last_id": "claude-b"}),
    )

    async def main() -> list[Any]:
        async with AsyncLLMClient("anthropic", api_key=KEY, base_url=server.base_url) as llm:
            return await llm.list_models()

    models = anyio.run(main)
    assert [(m.id, m.display_name) for m in models] == [("claude-a", "A"), ("claude-b", None)]
    first, second = server.requests
    assert first.query == "" and second.query == "after_id=claude-a"
    # the manifest's auth (bearer, as anthropic.json says) and its extra headers, on every page
    assert second.headers["authorization"] == f"Bearer {KEY}"
    assert second.headers["anthropic-version"] == "2023-06-01"


def test_list_models_gemini_and_replicate_pages(server: Script) -> None:
    server.answer(
        json_answer({"models": [{"name": "models/gemini-2.0-flash"}], "nextPageToken": "p2"}),
        json_answer({"models": [{"name": "models/embedding-001", "displayName": "Embedding"}]}),
    )
    with LLMClient("gemini", api_key=KEY, base_url=server.base_url) as llm:
        gemini = llm.list_models()
    assert [(m.id, m.display_name) for m in gemini] == [
        ("gemini-2.0-flash", None),
        ("embedding-001", "Embedding"),
    ]
    assert [r.query for r in server.requests] == [f"key={KEY}", f"key={KEY}&pageToken=p2"]

    next_url = f"{server.base_url}/models?cursor=abc"
    server.answer(
        json_answer({"results": [{"owner": "meta", "name": "llama"}], "next": next_url}),
        json_answer({"results": [{"owner": "acme", "name": "tiny"}], "next": None}),
    )
    with LLMClient("replicate", api_key=KEY, base_url=server.base_url) as llm:
        replicate = llm.list_models()
    assert [m.id for m in replicate] == ["meta/llama", "acme/tiny"]
    assert server.requests[-1].path == "/models" and server.requests[-1].query == "cursor=abc"

    server.answer(json_answer({"results": [], "next": "https://elsewhere.example/models?c=1"}))
    with LLMClient("replicate", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(ResponseValidationError, match="another host"):
            llm.list_models()


def test_list_models_errors_are_clear(server: Script) -> None:
    with LLMClient("hunyuan", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(UnsupportedError, match=r"services\.list_models"):
            llm.list_models()
    assert server.requests == []
    server.answer(json_answer({"error": {"message": "bad key", "type": "auth"}}, status=401))
    with LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(ProviderError, match="bad key") as caught:
            llm.list_models()
        assert caught.value.status_code == 401 and KEY not in str(caught.value)
        server.answer(json_answer({"object": "list"}))
        with pytest.raises(ResponseValidationError, match="'data'"):
            llm.list_models()
        server.answer(Answer(body=b"<html>", content_type="text/html"))
        with pytest.raises(ResponseValidationError, match="not JSON"):
            llm.list_models()
    server.answer(json_answer({"error": {"message": "denied", "status": "PERMISSION_DENIED"}}, 403))
    with LLMClient("gemini", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(ProviderError, match="denied") as caught:
            llm.list_models()
    assert server.requests[-1].query == f"key={KEY}"  # sent where the manifest says...
    assert KEY not in str(caught.value) and KEY not in repr(caught.value)  # ...and masked
    server.answer(
        *(
            json_answer({"data": [{"id": f"m{i}"}], "has_more": True, "last_id": f"m{i}"})
            for i in range(5)
        )
    )
    with LLMClient("anthropic", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(ResponseValidationError, match="more than 3 pages"):
            llm.list_models(max_pages=3)
        with pytest.raises(ValueError, match="at least 1"):
            llm.list_models(max_pages=0)
    # a server that sends one cursor again: stopped at the repeat, not after max_pages requests
    server.answer(json_answer({"data": [{"id": "x"}], "has_more": True, "last_id": "x"}))
    sent = len(server.requests)
    with LLMClient("anthropic", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(ResponseValidationError, match="same next-page cursor twice"):
            llm.list_models()
    assert len(server.requests) - sent == 2
    # a cursor that cannot be followed, or a relative next link: never a list cut short
    for sloppy in ({"has_more": "true", "last_id": "a"}, {"nextPageToken": 5}):
        server.answer(json_answer({"data": [{"id": "a"}], **sloppy}))
        with LLMClient("anthropic", api_key=KEY, base_url=server.base_url) as llm:
            with pytest.raises(ResponseValidationError, match="model list's"):
                llm.list_models()
    server.answer(
        json_answer({"data": [{"id": "a"}], "next": "/v1/models?page=2"}),
        json_answer({"data": [{"id": "b"}]}),
    )
    with LLMClient("anthropic", api_key=KEY, base_url=server.base_url) as llm:
        assert [m.id for m in llm.list_models()] == ["a", "b"]
    assert dict(parse_qsl(server.requests[-1].query)).get("page") == "2"


# -- embeddings -------------------------------------------------------------------------------


def embedding_answer(vectors: dict[int, Any], tokens: int) -> Answer:
    return json_answer(
        {
            "object": "list",
            "data": [
                {"object": "embedding", "index": i, "embedding": v} for i, v in vectors.items()
            ],
            "model": "emb-1",
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }
    )


def test_embed_batches_in_order_and_matches_the_openai_sdk(server: Script) -> None:
    import openai

    server.answer(embedding_answer({1: [0.5, 0.25], 0: [1.0, 2]}, 4))
    sdk = openai.OpenAI(api_key=KEY, base_url=server.base_url, max_retries=0)
    theirs = sdk.embeddings.create(model="emb", input=["a", "b"], encoding_format="float")
    sdk.close()
    with LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
        same = llm.embed(["a", "b"], model="emb", encoding_format="float")
    assert body_of(server, 0) == body_of(server, 1)
    assert server.requests[1].path == server.requests[0].path == "/embeddings"
    # the SDK keeps the answer's order (its caller sorts by index); ours is input order
    by_index = [d.embedding for d in sorted(theirs.data, key=lambda d: d.index)]
    assert same.vectors == by_index == [[1.0, 2.0], [0.5, 0.25]]

    server.answer(
        embedding_answer({1: [0.2], 0: [0.1]}, 2),
        embedding_answer({0: [0.3]}, 1),
    )

    async def main() -> Any:
        async with AsyncLLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
            return await llm.embed(["x", "y", "z"], model="emb", batch_size=2, dimensions=1)

    result = anyio.run(main)
    assert result.vectors == [[0.1], [0.2], [0.3]]
    assert result.model == "emb-1" and result.usage is not None
    assert (result.usage.input_tokens, result.usage.total_tokens) == (3, 3)
    assert [body_of(server, i)["input"] for i in (2, 3)] == [["x", "y"], ["z"]]
    assert body_of(server, 2)["dimensions"] == 1 and len(result.raw) == 2


def test_embed_base64_decodes_like_the_openai_sdk(server: Script) -> None:
    import base64
    import struct

    import openai

    packed = base64.b64encode(struct.pack("<3f", 0.5, -1.25, 3.0)).decode()
    server.answer(embedding_answer({0: packed}, 1))
    sdk = openai.OpenAI(api_key=KEY, base_url=server.base_url, max_retries=0)
    theirs = sdk.embeddings.create(model="emb", input="hello")  # asks for base64 by default
    sdk.close()
    with LLMClient("writer", api_key=KEY, base_url=server.base_url) as llm:
        ours = llm.embed("hello", model="emb", encoding_format="base64")
    assert ours.vectors == [theirs.data[0].embedding] == [[0.5, -1.25, 3.0]]
    assert server.requests[-1].path == "/v1/embeddings"
    assert body_of(server)["input"] == ["hello"]


def test_embed_errors_are_clear(server: Script) -> None:
    with LLMClient("anthropic", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(UnsupportedError, match=r"endpoints\.embeddings"):
            llm.embed("x", model="m")
    with LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
        with pytest.raises(ValueError, match="at least one input"):
            llm.embed([], model="m")
        assert server.requests == []
        server.answer(embedding_answer({0: [1.0]}, 1))
        with pytest.raises(ResponseValidationError, match=r"no embedding for input\(s\) \[1\]"):
            llm.embed(["a", "b"], model="m")
        server.answer(embedding_answer({0: [1.0], 5: [2.0]}, 1))
        with pytest.raises(ResponseValidationError, match="index 5"):
            llm.embed(["a", "b"], model="m")
        server.answer(embedding_answer({0: ["x"]}, 1))
        with pytest.raises(ResponseValidationError, match="not a list of numbers"):
            llm.embed(["a"], model="m")
        # sloppy numbers are refused, never read as 1.0 / inf / an empty vector
        for vector, wanted in (
            ([True, False], "not a list of numbers"),
            ([1e400], "not finite"),
            ("", "empty"),
            ("!!", "not base64"),
        ):
            server.answer(json_answer({"data": [{"index": 0, "embedding": vector}]}))
            with pytest.raises(ResponseValidationError, match=wanted):
                llm.embed(["a"], model="m")
        server.answer(embedding_answer({0: [1.0, 2.0], 1: [3.0]}, 1))
        with pytest.raises(ResponseValidationError, match="different sizes"):
            llm.embed(["a", "b"], model="m")
        server.answer(json_answer({"data": [{"index": True, "embedding": [1.0]}]}))
        with pytest.raises(ResponseValidationError, match="has index True"):
            llm.embed(["a"], model="m")


def test_importing_the_client_leaves_these_features_unloaded() -> None:
    """Structured output, services and the tool loop cost nothing until used: the client
    imports them inside the methods that need them."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys; from agentproto.llm import LLMClient; "
        "print(sorted(m for m in sys.modules if m.split('.')[-1] in "
        "('services', 'structured', 'tool_loop')))"
    )
    generated = Path(__file__).resolve().parent.parent / "generated"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(generated), "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout.strip() == "[]"
