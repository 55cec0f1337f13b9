"""Data from a newer peer is kept: unknown object fields are exposed and written back as they
came, at the top and nested, in every protocol's models (unless the schema closes the type)."""

from __future__ import annotations

import json

import pytest
from agentproto.aap.models import GetSessionResponse
from agentproto.acp.models import SessionNotification
from agentproto.skills.models import SkillIndex
from pydantic import BaseModel, ValidationError

NEWER = {"addedInV2": {"nested": [1, "two", None]}}

CASES: list[tuple[type[BaseModel], dict[str, object]]] = [
    (
        SessionNotification,
        {
            "sessionId": "s-1",
            "update": {
                "sessionUpdate": "agent_message_chunk",
                "content": {"type": "text", "text": "hi", **NEWER},
                **NEWER,
            },
            **NEWER,
        },
    ),
    (
        GetSessionResponse,
        {"sessionId": "s-1", "agent": {"name": "echo", **NEWER}, **NEWER},
    ),
    (
        SkillIndex,
        {
            "protocol": {"version": "1.0.0", **NEWER},
            "provider": {"name": "Acme", **NEWER},
            "skills": [],
            **NEWER,
        },
    ),
]


@pytest.mark.parametrize(("model", "message"), CASES, ids=lambda v: getattr(v, "__name__", ""))
def test_unknown_fields_are_kept_exposed_and_written_back(
    model: type[BaseModel], message: dict[str, object]
) -> None:
    parsed = model.model_validate_json(json.dumps(message))
    assert parsed.model_extra == NEWER
    assert json.loads(parsed.model_dump_json(exclude_none=True)) == message


def test_a_type_the_schema_closes_still_refuses_unknown_fields() -> None:
    from agentproto.aap.models import EmptyObject

    assert EmptyObject.model_config.get("extra") == "forbid"  # additionalProperties: false
    with pytest.raises(ValidationError, match="addedInV2"):
        EmptyObject.model_validate(NEWER)
