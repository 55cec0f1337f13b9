"""Tag fields of union members default to their one value (issue 32), in every protocol: a
variant is made without spelling its tag, every dump keeps the tag, and reading data still
needs it where a tagged union tells its members apart by it."""

from __future__ import annotations

import importlib
import inspect
import typing

import pytest
from pydantic import BaseModel, ValidationError


def test_acp_variant_made_without_its_tag() -> None:
    from agentproto.acp.models import (
        ContentBlockText,
        PromptRequest,
        SessionNotification,
        SessionUpdateAgentMessageChunk,
    )

    block = ContentBlockText(text="hi")
    assert block.type == "text"
    update = SessionUpdateAgentMessageChunk(content=block)
    wire = SessionNotification(session_id="s", update=update).model_dump(
        mode="json", exclude_none=True
    )
    assert wire == {
        "sessionId": "s",
        "update": {
            "sessionUpdate": "agent_message_chunk",
            "content": {"type": "text", "text": "hi"},
        },
    }
    # A dump that leaves out what was not given keeps the tag: it counts as given.
    assert PromptRequest(session_id="s", prompt=[block]).model_dump(exclude_unset=True) == {
        "sessionId": "s",
        "prompt": [{"type": "text", "text": "hi"}],
    }


def test_a_tagged_union_still_needs_the_tag_in_data() -> None:
    from agentproto.acp.models import SessionNotification

    with pytest.raises(ValidationError):
        SessionNotification.model_validate(
            {"sessionId": "s", "update": {"content": {"type": "text", "text": "x"}}}
        )


def test_aap_request_body_keeps_the_defaulted_tag() -> None:
    from agentproto._runtime.http import to_json
    from agentproto.aap.models import TextContentBlock, UserMessage

    body = to_json(UserMessage(content=[TextContentBlock(text="hi")]))
    assert body["content"] == [{"type": "text", "text": "hi"}]


def test_smart_union_member_made_without_its_tag() -> None:
    from agentproto.acp.models import CreateElicitationResponseDecline, McpServerHttpModel

    assert CreateElicitationResponseDecline().model_dump(exclude_none=True) == {"action": "decline"}
    server = McpServerHttpModel(name="m", url="http://x", headers=[])
    assert server.model_dump(mode="json", exclude_unset=True)["type"] == "http"


@pytest.mark.parametrize(
    "module",
    [
        "agentproto.acp.models",
        "agentproto.acp.unstable.models",
        "agentproto.aap.models",
        "agentproto.skills.models",
        "agentproto.llm.models",
    ],
)
def test_tags_are_for_construction_only(module: str) -> None:
    """Every one-value literal field (a union member's tag, or a constant) is filled in by the
    constructor when not given (nested mappings too); which member a union gives data
    without the tag is decided by the union's dispatch (``by_tag``), never by this default
    (issue 43)."""
    from agentproto._runtime.base import _constant_fields

    loaded = importlib.import_module(module)
    tags = [
        (cls, field, info)
        for name, cls in vars(loaded).items()
        if inspect.isclass(cls) and issubclass(cls, BaseModel) and cls.__module__ == module
        for field, info in cls.model_fields.items()
        if typing.get_origin(info.annotation) is typing.Literal
        and len(typing.get_args(info.annotation)) == 1
    ]
    assert tags or module.endswith("llm.models")  # the manifest has no union of tagged members
    for cls, field, _info in tags:
        assert field in _constant_fields(cls), f"{cls.__name__}.{field}: not filled in"


def test_data_without_the_tag_goes_where_the_schema_gives_it() -> None:
    from agentproto.acp.models import AuthMethod, AuthMethodTerminalModel
    from pydantic import TypeAdapter

    untagged = TypeAdapter(AuthMethod).validate_python({"id": "a", "name": "b"})
    assert not isinstance(untagged, AuthMethodTerminalModel)
    assert "type" not in TypeAdapter(AuthMethod).dump_python(untagged, mode="json")
    assert AuthMethodTerminalModel(id="a", name="b").type == "terminal"
