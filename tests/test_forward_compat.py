"""Data from a newer peer is never lost. Unknown object fields are exposed and written back as
they came, in every protocol's models (unless the schema closes the type); unknown enum values
and union variants follow each protocol's spec-table policy (types.unknown_values)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from agentproto.aap.models import GetSessionResponse
from agentproto.acp.models import SessionNotification
from agentproto.skills.models import SkillIndex
from pydantic import BaseModel, ValidationError

from tests.servers.scripted import Answer, scripted_server

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


# --- unknown values over the wire, per the spec table's policy -----------------------------
#
# ACP and AAP keep what a newer peer sends (types.unknown_values: keep): an unknown union
# variant arrives as the union's Unknown... model, an unknown enum value as the string, an
# unknown field in model_extra; each is written back as it came. AI-Protocol manifests,
# agents.json bundles and Skill Sharing documents reject them with the value's location.

# A newer ACP agent, speaking raw JSON-RPC lines: a session/update kind, a tool kind, a stop
# reason and fields that this version's schema does not have.
NEWER_UPDATE = {
    "sessionUpdate": "hologram_chunk",
    "frames": [{"at": 0, "png": "AAAA"}],
    "content": {"type": "text", "text": "kept"},
}
NEWER_TOOL_CALL = {
    "sessionUpdate": "tool_call",
    "toolCallId": "t-1",
    "title": "Beam up",
    "kind": "teleport",
    "status": "queued",
    "content": [{"type": "hologram", "uri": "holo://1"}],
    "risk": {"level": 3},
}
NEWER_PROMPT_ANSWER = {"stopReason": "paused_for_review", "review": {"by": "human"}}
NEWER_AGENT = f"""
import json, sys
UPDATES = {json.dumps([NEWER_UPDATE, NEWER_TOOL_CALL])!r}
ANSWER = {json.dumps(NEWER_PROMPT_ANSWER)!r}
for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        result = {{"protocolVersion": 1, "agentCapabilities": {{"holograms": True}}}}
    elif method == "session/new":
        result = {{"sessionId": "s-1"}}
    elif method == "session/prompt":
        for update in json.loads(UPDATES):
            note = {{"sessionId": "s-1", "update": update}}
            out = {{"jsonrpc": "2.0", "method": "session/update", "params": note}}
            sys.stdout.write(json.dumps(out) + "\\n")
        result = json.loads(ANSWER)
    else:
        continue
    sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": mid, "result": result}}) + "\\n")
    sys.stdout.flush()
"""


def test_acp_keeps_a_newer_agents_variants_values_and_fields(tmp_path: Path) -> None:
    from agentproto.acp import SyncAgentConnection, SyncClient
    from agentproto.acp.models import (
        RequestPermissionRequest,
        RequestPermissionResponse,
        SessionUpdateToolCall,
        UnknownSessionUpdate,
        UnknownToolCallContent,
    )

    class Editor(SyncClient):
        def __init__(self) -> None:
            self.notes: list[SessionNotification] = []

        def session_update(self, params: SessionNotification) -> None:
            self.notes.append(params)

        def request_permission(self, params: RequestPermissionRequest) -> RequestPermissionResponse:
            raise AssertionError("not asked")

    script = tmp_path / "newer_agent.py"
    script.write_text(NEWER_AGENT)
    editor = Editor()
    with SyncAgentConnection.spawn(sys.executable, [str(script)], client=editor) as agent:
        init = agent.initialize(protocol_version=1)
        assert init.agent_capabilities is not None
        assert init.agent_capabilities.model_extra == {"holograms": True}
        answer = agent.prompt(session_id="s-1", prompt=[{"type": "text", "text": "hi"}])
    assert answer.stop_reason == "paused_for_review"
    assert answer.model_extra == {"review": {"by": "human"}}
    assert json.loads(answer.model_dump_json(exclude_none=True)) == NEWER_PROMPT_ANSWER

    unknown, tool_call = (note.update for note in editor.notes)
    assert isinstance(unknown, UnknownSessionUpdate)
    assert unknown.session_update == "hologram_chunk"
    assert unknown.model_extra == {k: v for k, v in NEWER_UPDATE.items() if k != "sessionUpdate"}
    assert json.loads(unknown.model_dump_json()) == NEWER_UPDATE
    assert isinstance(tool_call, SessionUpdateToolCall)
    assert (tool_call.kind, tool_call.status) == ("teleport", "queued")
    assert isinstance(tool_call.content and tool_call.content[0], UnknownToolCallContent)
    assert json.loads(tool_call.model_dump_json(exclude_none=True)) == NEWER_TOOL_CALL
    # The whole notification, written back (as a client relaying it would), is what was sent.
    for note, sent in zip(editor.notes, (NEWER_UPDATE, NEWER_TOOL_CALL), strict=True):
        assert json.loads(note.model_dump_json(exclude_none=True)) == {
            "sessionId": "s-1",
            "update": sent,
        }


def test_acp_unknown_values_are_typed_for_the_caller() -> None:
    """Constructing with an unknown value is explicit (UnknownValue), and a model holding an
    Unknown... variant validates as itself again."""
    from agentproto._runtime.base import UnknownValue
    from agentproto.acp.models import PromptResponse, UnknownSessionUpdate

    response = PromptResponse(stop_reason=UnknownValue("paused_for_review"))
    assert response.model_dump(exclude_none=True) == {"stopReason": "paused_for_review"}
    note = SessionNotification(
        session_id="s-1", update=UnknownSessionUpdate(session_update="hologram_chunk", x=1)
    )
    again = SessionNotification.model_validate_json(note.model_dump_json())
    assert isinstance(again.update, UnknownSessionUpdate) and again.update.model_extra == {"x": 1}
    # A known tag with a malformed body is an error about that variant, not an Unknown.
    with pytest.raises(ValidationError, match="tool_call"):
        SessionNotification.model_validate(
            {"sessionId": "s", "update": {"sessionUpdate": "tool_call", "title": 5}}
        )
    with pytest.raises(ValidationError, match="sessionUpdate"):  # no tag at all
        SessionNotification.model_validate({"sessionId": "s", "update": {"x": 1}})


NEWER_TURN = {
    "stopReason": "paused",
    "messages": [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "see"},
                {"type": "video", "url": "https://v.example/1", "seconds": 3},
            ],
            "mood": "cheerful",
        },
        {"role": "critic", "content": "could be shorter"},
    ],
    "turnId": "t-9",
}


def test_aap_keeps_a_newer_servers_variants_values_and_fields() -> None:
    from agentproto.aap import AAPClient
    from agentproto.aap.models import (
        AssistantMessage,
        TextContentBlock,
        UnknownAgentMessage,
        UnknownContentBlock,
    )
    from agentproto.aap.turns import TurnResult

    with scripted_server() as server:
        server.answer(Answer(body=json.dumps(NEWER_TURN).encode()))
        with AAPClient(server.base_url, api_key="k", timeout=5) as client:
            response = client.create_turn("s-1", messages=[{"role": "user", "content": "hi"}])
    assert response.stop_reason == "paused"
    assert response.model_extra == {"turnId": "t-9"}
    assistant, critic = response.messages
    assert isinstance(assistant, AssistantMessage) and assistant.model_extra == {"mood": "cheerful"}
    assert not isinstance(assistant.content, str)
    text, video = assistant.content
    assert isinstance(text, TextContentBlock)
    assert isinstance(video, UnknownContentBlock) and video.type == "video"
    assert isinstance(critic, UnknownAgentMessage) and critic.role == "critic"
    assert json.loads(response.model_dump_json(exclude_none=True)) == NEWER_TURN
    # The turn helpers read what they know and keep the rest.
    result = TurnResult.from_response(response)
    assert result.text == "see" and result.messages[1] is critic


def test_skill_documents_reject_unknown_values_with_their_path() -> None:
    from agentproto.skills.documents import parse_index
    from agentproto.skills.errors import ValidationError as SkillValidationError

    index = {
        "protocol": {"version": "1.0.0"},
        "provider": {"name": "Acme"},
        "skills": [
            {
                "id": "acme/x",
                "name": "X",
                "capability_type": "hologram",
                "description": "d",
                "descriptor_url": "https://acme.example/x.json",
                "access": "public",
                "version": "1.0.0",
                "addedInV2": True,
            }
        ],
    }
    with pytest.raises(SkillValidationError, match="/skills/0/capability_type"):
        parse_index(index)
    index["skills"][0]["capability_type"] = "api"  # type: ignore[index]
    parsed = parse_index(index)
    assert parsed.skills[0].model_extra == {"addedInV2": True}  # unknown fields are kept


def test_manifests_reject_unknown_values_with_their_pointer() -> None:
    from agentproto.llm import Manifest, ManifestError
    from agentproto.llm.registry import manifest_json

    manifest = json.loads(manifest_json("openai"))
    manifest["streaming"]["decoder"]["format"] = "hologram_frames"
    with pytest.raises(ManifestError) as caught:
        Manifest.from_dict(manifest, source="newer.json")
    assert caught.value.pointer == "/streaming/decoder/format"
