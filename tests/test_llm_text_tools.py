"""Tool calls written as text (``agentproto.llm.text_tools``), per a manifest's
``tool_calling.text_fallback``. Upstream's cases (ttc-001..009) run in the compliance suite;
these cover what they do not: the manifest's declaration, strict parsing, markup that cannot be
read (kept, never dropped), and long hostile inputs."""

from __future__ import annotations

import pytest
from agentproto.llm import (
    LLMClient,
    Manifest,
    TextToolConfig,
    ToolCall,
    hybrid_tool_calls,
    parse_text_tool_calls,
)
from agentproto.llm.problems import UnsupportedError

from tests.servers.targets import Json, Targets, openai_answer, targets_server


def test_deepseek_v2_declares_its_text_fallback() -> None:
    config = TextToolConfig.of(Manifest.bundled("deepseek@v2"))
    assert config is not None
    assert (config.wrapper, config.name_location, config.args_key) == (
        "tool_call",
        "json_field",
        "arguments",
    )
    assert config.dialects == {"shell": "shell", "bash": "shell", "function": ""}
    assert TextToolConfig.of(Manifest.bundled("mistral@v2")) is None  # text_fallback: null
    assert TextToolConfig.of(Manifest.bundled("openai")) is None  # says nothing


def test_a_format_it_cannot_read_is_refused() -> None:
    raw = {"capabilities": {"tool_calling": {"text_fallback": {"format": "markdown_fence"}}}}
    with pytest.raises(UnsupportedError, match="markdown_fence"):
        TextToolConfig.of(raw)


def test_a_bash_dialect_and_a_function_tag_with_its_name() -> None:
    config = TextToolConfig.of(Manifest.bundled("deepseek@v2"))
    text = 'a <bash><command>pwd</command></bash> b <function name="read">{"path": "x"}</function>'
    found = parse_text_tool_calls(text, config)
    assert [(c.name, c.input) for c in found.tool_calls] == [
        ("shell", {"command": "pwd"}),
        ("read", {"path": "x"}),
    ]
    assert [c.id for c in found.tool_calls] == ["text_call_0", "text_call_1"]
    assert found.remaining_text == "a  b"


def test_strict_parsing_reads_only_the_declared_shape_and_keeps_the_rest() -> None:
    strict = TextToolConfig(lenient=False)
    text = (
        '<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>\n'
        '<tool_call name="b">{"y": 2}</tool_call>\n'
        '<tool_call>{"name": "c", "params": {"z": 3}}</tool_call>\n'
        "<shell><command>ls</command></shell>"
    )
    found = parse_text_tool_calls(text, strict)
    assert [(c.name, c.input) for c in found.tool_calls] == [("a", {"x": 1}), ("c", {})]
    assert found.unparsed == ['<tool_call name="b">{"y": 2}</tool_call>']
    # what was not read stays in the text: nothing is dropped
    assert '<tool_call name="b">' in found.remaining_text and "<shell>" in found.remaining_text
    lenient = parse_text_tool_calls(text)
    assert [c.name for c in lenient.tool_calls] == ["a", "b", "c", "shell"]
    assert lenient.tool_calls[2].input == {"z": 3} and lenient.remaining_text == ""


def test_markup_that_cannot_be_read_is_kept_and_listed() -> None:
    text = "before <tool_call>{not json}</tool_call> after <shell>free text</shell>"
    found = parse_text_tool_calls(text)
    assert found.tool_calls == []
    assert found.unparsed == ["<tool_call>{not json}</tool_call>", "<shell>free text</shell>"]
    assert found.remaining_text == text


def test_arguments_given_as_json_text_are_read() -> None:
    found = parse_text_tool_calls(
        '<tool_call>{"name": "f", "arguments": "{\\"a\\": 1}"}</tool_call>'
    )
    assert found.tool_calls[0].input == {"a": 1}
    assert found.tool_calls[0].arguments == '{"a": 1}'


def test_dsml_values_are_json_unless_marked_string() -> None:
    bar = "\uff5c\uff5c"
    text = (
        f'<{bar}DSML{bar}invoke name="f">'
        f'<{bar}DSML{bar}parameter name="n" string="false">3</{bar}DSML{bar}parameter>'
        f'<{bar}DSML{bar}parameter name="s" string="true">3</{bar}DSML{bar}parameter>'
        f"</{bar}DSML{bar}invoke>"
    )
    found = parse_text_tool_calls(text)
    assert found.tool_calls[0].input == {"n": 3, "s": "3"}


def test_native_calls_win_over_text() -> None:
    native = [ToolCall("call_1", "f", {"a": 1})]
    kept = hybrid_tool_calls("<shell><command>ls</command></shell>", native)
    assert kept.tool_calls == native and kept.remaining_text.startswith("<shell>")


def test_hostile_inputs_stay_linear() -> None:
    """Many opening tags with no closing one, and many small calls: each is one scan (a
    quadratic scan of these sizes would not finish within the suite's time limit)."""
    opened = "<tool_call>" * 200_000
    many = '<tool_call>{"name": "f", "arguments": {}}</tool_call>' * 20_000
    assert parse_text_tool_calls(opened).tool_calls == []
    assert parse_text_tool_calls(opened).unparsed == []  # never closed: not a call
    assert len(parse_text_tool_calls(many).tool_calls) == 20_000


def test_a_chat_answer_with_text_calls_is_left_as_is_and_parsed_on_request() -> None:
    """The client does not rewrite ``content``; the caller asks for the calls."""
    text = 'Let me look.\n<tool_call>{"name": "shell", "arguments": {"command": "ls"}}</tool_call>'
    targets: Targets
    with targets_server() as targets:
        url = targets.plan("d1", Json(openai_answer(text)))
        with LLMClient("deepseek@v2", api_key="k", base_url=url, retry=False) as llm:
            reply = llm.chat([{"role": "user", "content": "hi"}], model="deepseek-v4-flash")
            config = TextToolConfig.of(llm.manifest)
    assert reply.content == text and not reply.tool_calls
    found = hybrid_tool_calls(reply.content, reply.tool_calls, config)
    assert found.remaining_text == "Let me look."
    assert [(c.name, c.input) for c in found.tool_calls] == [("shell", {"command": "ls"})]
