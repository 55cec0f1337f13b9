"""URI fields (``"format": "uri"``) are ``agentproto.Url``: a ``str`` kept exactly as the peer
wrote it, its syntax checked. (They were pydantic's ``AnyUrl``, which rewrites what it reads:
``https://example.com`` came back as ``https://example.com/``, hosts lower-cased, default ports
dropped, so a URL read and written back was no longer the one sent.)"""

from __future__ import annotations

import json
import typing
from typing import Any

import agentproto
import pytest
from agentproto.acp.models import ElicitationUrlModeSession
from agentproto.skills import parse_index
from agentproto.skills.errors import ValidationError as SkillsValidationError
from agentproto.skills.models import SkillIndexEntry
from pydantic import TypeAdapter, ValidationError

ENTRY = {
    "id": "acme/echo",
    "name": "Echo",
    "capability_type": "api",
    "description": "Says it back",
    "access": "public",
    "version": "1.0.0",
}

AS_SENT = [
    "https://example.com",
    "HTTP://Example.COM:80/a%7eb?x=1#Frag",
    "http://[::1]:8080/v1/",
    "https://user@host.example/p/%2F/q?a=1&b=%20",
    "http://a.example/caf\u00e9",
    "https://a.example/s/{execution_id}",
    "file:///tmp/skills.json",
    "mailto:ops@example.com",
    "urn:isbn:0451450523",
    "data:text/plain,hi",
]

REFUSED = [
    "",
    "not a url",
    "//host.example/path",
    "1http://a.example",
    "http://",
    "https://exa mple.com",
    " https://a.example",
    "https://a.example\n",
    "https://a.example/\x00",
    "https://a.example/\x7f",
]


@pytest.mark.parametrize("url", AS_SENT)
def test_a_url_is_kept_exactly_as_sent(url: str) -> None:
    entry = SkillIndexEntry.model_validate({**ENTRY, "descriptor_url": url})
    assert entry.descriptor_url == url and type(entry.descriptor_url) is str
    assert json.loads(entry.model_dump_json())["descriptor_url"] == url
    elicitation = ElicitationUrlModeSession.model_validate(
        {"sessionId": "s", "elicitationId": "e", "url": url}
    )
    assert json.loads(elicitation.model_dump_json())["url"] == url


@pytest.mark.parametrize("url", REFUSED)
def test_a_malformed_url_is_refused(url: str) -> None:
    with pytest.raises(ValidationError) as raised:
        SkillIndexEntry.model_validate({**ENTRY, "descriptor_url": url})
    error = raised.value.errors()[0]
    assert error["loc"] == ("descriptor_url",) and error["type"] == "uri_syntax"
    assert error["msg"].startswith("Input should be a URI (RFC 3986)")
    with pytest.raises(ValidationError):
        ElicitationUrlModeSession.model_validate(
            {"sessionId": "s", "elicitationId": "e", "url": url}
        )


def test_the_same_verdicts_from_json_text_and_in_an_index() -> None:
    """Discovery validates JSON text in pydantic-core: the same rule, the same URL back."""
    for url in AS_SENT:
        text = json.dumps({**ENTRY, "descriptor_url": url})
        assert SkillIndexEntry.model_validate_json(text).descriptor_url == url
    index: dict[str, Any] = {
        "protocol": {"version": "1.0.0"},
        "provider": {"name": "Acme"},
        "skills": [{**ENTRY, "descriptor_url": "https://acme.example"}],
    }
    parsed = parse_index(json.dumps(index))
    assert parsed.skills[0].descriptor_url == "https://acme.example"
    index["skills"][0]["descriptor_url"] = "acme.example/echo"
    with pytest.raises(
        SkillsValidationError, match="/skills/0/descriptor_url: Input should be a URI"
    ):
        parse_index(json.dumps(index))


def test_url_is_a_public_str_type_with_the_uri_format() -> None:
    assert typing.get_args(agentproto.Url)[0] is str
    schema = TypeAdapter(agentproto.Url).json_schema()
    assert schema["type"] == "string" and schema["format"] == "uri"
    assert SkillIndexEntry.model_json_schema()["properties"]["descriptor_url"]["format"] == "uri"
