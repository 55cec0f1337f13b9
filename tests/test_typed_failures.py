"""Every failure typed (issue 25): what a hostile or broken peer sends ends in the package's own
errors, with a message a user can act on, never a bare RecursionError, ValueError, KeyError,
yaml or pydantic exception; and the LLM decoder loses nothing to bad UTF-8 or to chunking."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from agentproto._runtime.http_errors import (
    APIStatusError,
    InternalServerError,
    ResponseValidationError,
)
from agentproto._runtime.sse import iter_sse
from agentproto.aap import AAPClient
from agentproto.flows import ApiKeyAuth, FlowError, FlowHTTPError, FlowResultError, giphy
from agentproto.llm import LLMClient, Manifest, ManifestError
from agentproto.llm.events import PartialContentDelta
from agentproto.llm.registry import manifest_json
from agentproto.llm.streaming import StreamDecoder, StreamFormatError
from agentproto.skills import SkillsClient
from agentproto.skills.documents import parse, validate
from agentproto.skills.errors import SkillSharingError, ValidationError

from tests.servers.scripted import Answer, Script, scripted_server

DEEP = "[" * 100_000 + "]" * 100_000
KEY = "sk-typed-0123456789"
USER = [{"role": "user", "content": "hi"}]


@pytest.fixture(scope="module")
def script() -> Iterator[Script]:
    with scripted_server() as s:
        yield s


# -- deeply nested JSON from a peer ---------------------------------------------------------------


def test_deep_json_from_an_aap_server_is_typed(script: Script) -> None:
    with AAPClient(script.base_url, timeout=5) as client:
        event = f'event: text_delta\ndata: {{"delta": {DEEP}}}\n\n'.encode()
        script.answer(Answer(body=event, content_type="text/event-stream"))
        with pytest.raises(ResponseValidationError, match="nested deeper"):
            with client.create_turn_stream("s", messages=[], mode="delta") as events:
                list(events)
        script.answer(Answer(status=500, body=DEEP.encode()))
        with pytest.raises(InternalServerError) as caught:
            client.get_meta()
        assert caught.value.json is None  # not parsed, and no RecursionError either
        script.answer(Answer(body=DEEP.encode()))
        with pytest.raises(ResponseValidationError):
            client.get_meta()


def test_deep_json_from_an_llm_provider_is_typed(script: Script) -> None:
    with LLMClient("openai", api_key=KEY, base_url=script.base_url, retry=False) as llm:
        script.answer(Answer(body=DEEP.encode()))
        with pytest.raises(ResponseValidationError, match="max_json_depth"):
            llm.chat(USER, model="m")
        script.answer(Answer(status=400, body=DEEP.encode()))
        with pytest.raises(APIStatusError):
            llm.chat(USER, model="m")
        frame = f'data: {{"choices": {DEEP}}}\n\n'.encode()
        script.answer(Answer(body=frame, content_type="text/event-stream"))
        with (
            pytest.raises(StreamFormatError, match="max_json_depth"),
            llm.stream(USER, model="m") as stream,
        ):
            list(stream)


def test_deep_json_for_skills_is_typed(script: Script) -> None:
    with pytest.raises(ValidationError, match="max_json_depth"):
        parse(DEEP)
    assert not validate(DEEP).valid
    nested: Any = {}
    for _ in range(5000):
        nested = {"a": nested}
    assert not validate(nested).valid  # given as data: refused before any recursive walk
    script.answer(Answer(body=DEEP.encode()))
    with SkillsClient(timeout=5) as client, pytest.raises(ValidationError):
        client.get_descriptor(script.base_url + "/skill.json")


def test_deep_json_and_bad_results_in_flows_are_flow_errors(script: Script) -> None:
    auth = {"giphy": ApiKeyAuth("api_key", KEY, location="query")}
    with giphy.GiphyFlows(auth=auth, base_urls={"giphy": script.base_url}) as client:
        script.answer(Answer(body=DEEP.encode()))
        with pytest.raises(FlowHTTPError, match="max_json_depth"):
            client.get_trending_gifs_flow()
        script.answer(Answer(body=b'{"data": "not a list", "meta": {}}'))
        with pytest.raises(FlowResultError) as caught:
            client.get_trending_gifs_flow()
    error = caught.value
    assert isinstance(error, FlowError) and error.flow == "get_trending_gifs_flow"
    assert error.errors[0]["loc"] == ("data",) and error.value["data"] == "not a list"
    assert "data" in str(error)


def test_deep_manifests_are_manifest_errors(tmp_path: Path) -> None:
    file = tmp_path / "deep.json"
    file.write_text(DEEP)
    with pytest.raises(ManifestError, match="max_json_depth"):
        Manifest.load(file)
    nested: Any = {}
    for _ in range(5000):
        nested = {"a": nested}
    data = json.loads(manifest_json("openai"))
    data["extra"] = nested
    with pytest.raises(ManifestError, match="max_json_depth"):
        Manifest.from_dict(data)


# -- manifests ----------------------------------------------------------------------------------


def test_a_v2_endpoint_without_a_path_is_a_manifest_error_with_its_pointer() -> None:
    data = json.loads(manifest_json("openai@v2"))
    del data["endpoints"]["chat"]["path"]
    with pytest.raises(ManifestError) as caught:
        Manifest.from_dict(data, source="mine.yaml")
    assert caught.value.pointer == "/endpoints/chat/path"
    assert "needs a path" in str(caught.value)


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("bad.yaml", b"id: x\nname: [unclosed\n", "not valid JSON/YAML"),
        ("two.yaml", b"id: x\n---\nid: y\n", "not valid JSON/YAML"),
        ("latin1.json", '{"id": "caf\xe9"}'.encode("latin-1"), "not UTF-8"),
        ("latin1.yaml", "id: caf\xe9\n".encode("latin-1"), "not UTF-8"),
    ],
)
def test_yaml_and_utf8_errors_in_manifests_are_manifest_errors(
    tmp_path: Path, name: str, content: bytes, reason: str
) -> None:
    file = tmp_path / name
    file.write_bytes(content)
    with pytest.raises(ManifestError, match=reason) as caught:
        Manifest.load(file)
    assert caught.value.source == str(file)


# -- SSE ----------------------------------------------------------------------------------------


def test_an_sse_retry_of_thousands_of_digits_does_not_end_the_stream(script: Script) -> None:
    """``int()`` refuses more than 4,300 digits: the bare ValueError killed the turn stream."""
    body = b"retry: " + b"9" * 5000 + b"\nevent: turn_start\ndata: {}\n\n"
    assert [e.retry for e in iter_sse([body])] == [None]
    body += b'event: turn_stop\ndata: {"stopReason": "end_turn"}\n\n'
    script.answer(Answer(body=body, content_type="text/event-stream"))
    with AAPClient(script.base_url, timeout=5) as client:
        with client.create_turn_stream("s", messages=[], mode="delta") as events:
            kinds = [type(e).__name__ for e in events]
    assert kinds == ["TurnStartEvent", "TurnStopEvent"]
    assert [e.retry for e in iter_sse([b"retry: 1234567890\ndata: x\n\n"])] == [1234567890]


# -- the LLM decoder: UTF-8 and chunking --------------------------------------------------------


def openai_frame(text: str) -> bytes:
    chunk = {"choices": [{"index": 0, "delta": {"content": text}}]}
    return b"data: " + json.dumps(chunk, ensure_ascii=False).encode() + b"\n\n"


def texts(provider: str, chunks: list[bytes]) -> str:
    decoder = StreamDecoder(Manifest.bundled(provider).stream)
    out = [e for c in chunks for e in decoder.feed(c)] + decoder.end_of_body()
    return "".join(e.content for e in out if isinstance(e, PartialContentDelta))


def test_a_frame_with_invalid_utf8_raises_instead_of_losing_its_text() -> None:
    """``"Hello " + "caf\\xc3 world" + "!"`` gave ``"Hello !"``: the middle frame's text
    delta vanished without an error."""
    bad = openai_frame("caf\x00 world").replace(b"\\u0000", b"\xc3")
    chunks = [openai_frame("Hello "), bad, openai_frame("!")]
    with pytest.raises(StreamFormatError, match="not UTF-8") as caught:
        texts("openai", chunks)
    assert b"caf\xc3" in caught.value.body
    assert isinstance(caught.value, ResponseValidationError)


def test_gemini_output_does_not_depend_on_chunking() -> None:
    """A character split between two chunks of a Gemini stream became U+FFFD."""
    parts = [
        {"candidates": [{"content": {"parts": [{"text": word}]}, "index": 0}]}
        for word in ("naïve café ", "日本語 ", "emoji 🎉")
    ]
    body = ("[" + ",\r\n".join(json.dumps(p, ensure_ascii=False) for p in parts) + "]").encode()
    whole = texts("gemini@v2", [body])
    assert whole == "naïve café 日本語 emoji 🎉"
    for step in (1, 2, 3, 5, 7, 64):
        pieces = [body[i : i + step] for i in range(0, len(body), step)]
        assert texts("gemini@v2", pieces) == whole, step
    with pytest.raises(StreamFormatError):
        texts("gemini@v2", [body.replace("日".encode(), b"\xe6\x97")])


def test_gemini_elements_that_are_not_json_are_kept_as_text() -> None:
    decoder = StreamDecoder(Manifest.bundled("gemini@v2").stream)
    frames = list(decoder._json_array(b'[{"candidates": 1,}, "tail", 12, {"a": "}\\""}]'))
    assert frames == [
        {"event": "message", "data": '{"candidates": 1,}'},
        {"event": "message", "data": "tail"},
        {"event": "message", "data": 12},
        {"a": '}"'},
    ]


# -- typed means under the families -------------------------------------------------------------


def test_the_new_errors_sit_under_their_families() -> None:
    assert issubclass(StreamFormatError, ResponseValidationError)
    assert issubclass(FlowResultError, FlowError)
    assert issubclass(ValidationError, SkillSharingError)
