"""Request content is carried or refused, never dropped (issue 16): images per payload format,
blocks and message fields a format cannot carry, and the manifest's ``vision: false``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from agentproto.llm import LLMClient
from agentproto.llm.payloads import PayloadError, shape

from tests.servers.scripted import Answer, scripted_server

KEY = "sk-test-payloads"
PNG = (  # a 1x1 PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)
URL = "https://example.com/cat.jpg"


def user(*blocks: Any) -> list[dict[str, Any]]:
    return [{"role": "user", "content": [{"type": "text", "text": "What is this?"}, *blocks]}]


URL_IMAGE = {"type": "image", "url": URL, "detail": "low"}
DATA_IMAGE = {"type": "image", "data": PNG, "media_type": "image/png"}
DATA_URL_IMAGE = {"type": "image", "url": f"data:image/png;base64,{PNG}"}
ANTHROPIC_IMAGE = {
    "type": "image",
    "source": {"type": "base64", "media_type": "image/png", "data": PNG},
}
OPENAI_IMAGE = {"type": "image_url", "image_url": {"url": URL}}


def test_openai_style_images_are_image_url_parts() -> None:
    pieces = shape("openai_style", user(URL_IMAGE, DATA_IMAGE, ANTHROPIC_IMAGE), None, None)
    (message,) = pieces["messages"]
    assert message["content"] == [
        {"type": "text", "text": "What is this?"},
        {"type": "image_url", "image_url": {"url": URL, "detail": "low"}},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
    ]
    # Without an image the content stays a plain string (what every server takes).
    plain = shape("openai_style", [{"role": "user", "content": "hi"}], None, None)
    assert plain["messages"] == [{"role": "user", "content": "hi"}]


def test_anthropic_style_images_are_source_blocks() -> None:
    pieces = shape("anthropic_style", user(OPENAI_IMAGE, DATA_URL_IMAGE), None, None)
    (message,) = pieces["messages"]
    assert message["content"][1:] == [
        {"type": "image", "source": {"type": "url", "url": URL}},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
    ]


def test_gemini_style_images_are_inline_or_file_data() -> None:
    pieces = shape("gemini_style", user(DATA_IMAGE, {"type": "image", "url": URL}), None, None)
    (message,) = pieces["messages"]
    assert message["parts"][1:] == [
        {"inlineData": {"mimeType": "image/png", "data": PNG}},
        {"fileData": {"mimeType": "image/jpeg", "fileUri": URL}},
    ]
    with pytest.raises(PayloadError, match="media type"):
        shape("gemini_style", user({"type": "image", "url": "gs://bucket/blob"}), None, None)


@pytest.mark.parametrize("fmt", ["baidu_style", "replicate_style"])
def test_text_only_formats_refuse_images(fmt: str) -> None:
    with pytest.raises(PayloadError, match="text only"):
        shape(fmt, user(URL_IMAGE), None, None)


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        ({"type": "image"}, "needs a 'url' or base64 'data'"),
        ({"type": "image", "data": PNG}, "needs its 'media_type'"),
        ({"type": "image", "url": "data:image/png,raw"}, "base64"),
    ],
)
def test_incomplete_images_are_refused(bad: dict[str, Any], reason: str) -> None:
    with pytest.raises(PayloadError, match=reason):
        shape("openai_style", user(bad), None, None)


@pytest.mark.parametrize(
    ("fmt", "messages", "reason"),
    [
        (
            "openai_style",
            [{"role": "assistant", "content": [{"type": "thinking", "thinking": "x"}]}],
            "cannot send a 'thinking' block",
        ),
        ("anthropic_style", user({"type": "video", "url": URL}), "cannot send a 'video' block"),
        ("gemini_style", user({"type": "audio", "data": "x"}), "cannot send a 'audio' block"),
        (
            "openai_style",
            [{"role": "system", "content": [{"type": "text", "text": "a"}, URL_IMAGE]}],
            "text only",
        ),
        (
            "openai_style",
            [{"role": "assistant", "content": [URL_IMAGE]}],
            "user messages only",
        ),
        (
            "openai_style",
            [
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": "c", "content": [URL_IMAGE]}
                    ],
                }
            ],
            "text only",
        ),
        (
            "anthropic_style",
            [{"role": "user", "content": "hi", "metadata": {"id": "m1"}}],
            "cannot carry metadata",
        ),
        ("gemini_style", [{"role": "user", "content": "hi", "name": "bob"}], "cannot carry name"),
        ("openai_style", [{"role": "user", "content": ["bare text"]}], "mapping with a 'type'"),
    ],
)
def test_what_a_format_cannot_carry_raises(
    fmt: str, messages: list[dict[str, Any]], reason: str
) -> None:
    with pytest.raises(PayloadError, match=reason):
        shape(fmt, messages, None, None)


def test_openai_style_keeps_message_fields_and_flags_errors() -> None:
    """msg-004: a message's ``metadata`` (and ``name``) goes out with it; a failed tool
    result says so in its text, since the format has no is_error flag."""
    messages = [
        {"role": "user", "content": "Hello", "metadata": {"message_id": "msg-abc123"}},
        {"role": "assistant", "content": "Hi", "name": "helper"},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "c1", "content": "boom", "is_error": True}
            ],
            "metadata": {"step": 2},
        },
    ]
    pieces = shape("openai_style", messages, None, None)
    assert pieces["messages"] == [
        {"role": "user", "content": "Hello", "metadata": {"message_id": "msg-abc123"}},
        {"role": "assistant", "content": "Hi", "name": "helper"},
        {"role": "tool", "tool_call_id": "c1", "content": "Error: boom", "metadata": {"step": 2}},
    ]


def test_anthropic_tool_results_keep_their_images() -> None:
    messages = [
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "t1",
                    "content": [{"type": "text", "text": "shot:"}, DATA_IMAGE],
                }
            ],
        }
    ]
    (message,) = shape("anthropic_style", messages, None, None)["messages"]
    assert message["content"][0]["content"] == [
        {"type": "text", "text": "shot:"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
    ]


def test_images_reach_the_server_and_no_vision_manifests_refuse_them() -> None:
    ok = json.dumps({"choices": [{"message": {"content": "a cat"}, "finish_reason": "stop"}]})
    with scripted_server() as server:
        server.answer(Answer(body=ok.encode()))
        with LLMClient("openai", api_key=KEY, base_url=server.base_url) as llm:
            assert llm.chat(user(URL_IMAGE), model="gpt-4o").content == "a cat"
        sent = json.loads(server.requests[0].body)
        assert sent["messages"][0]["content"][1] == {
            "type": "image_url",
            "image_url": {"url": URL, "detail": "low"},
        }
        # groq's manifest says vision: false: refused before anything is sent.
        with LLMClient("groq", api_key=KEY, base_url=server.base_url) as llm:
            with pytest.raises(ValueError, match="no vision"):
                llm.chat(user(URL_IMAGE), model="llama")
        assert len(server.requests) == 1
