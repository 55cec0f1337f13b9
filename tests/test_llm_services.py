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

import anyio
import pydantic
import pytest
from agentproto.llm import (
    AsyncLLMClient,
    LLMClient,
    Manifest,
    ParsedChatResponse,
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
    assert "$defs" not in json.dumps(schema) and "$ref" not in json.dumps(schema)
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
