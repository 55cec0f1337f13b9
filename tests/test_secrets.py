"""Secrets (issue 25): one redaction filter on every logger the package and httpx write to,
installed by every client; error messages built from a server's body mask the credentials the
client holds; reprs mask credentials in URLs."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from agentproto._runtime.http_errors import AuthenticationError
from agentproto._runtime.redact import LOGGERS, MASK, RedactFilter, Secret, redact_text
from agentproto.aap import AAPClient, AsyncAAPClient
from agentproto.flows import ApiKeyAuth, FlowHTTPError, giphy
from agentproto.llm import LLMClient, ProviderError
from agentproto.skills import Credentials, SkillsClient
from agentproto.skills.errors import SkillSharingError

from tests.servers.scripted import Answer, Script, scripted_server

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-live-4f9a8b7c6d5e"


@pytest.fixture(scope="module")
def script() -> Iterator[Script]:
    with scripted_server() as s:
        yield s


def echo(status: int, text: str) -> Answer:
    return Answer(status=status, body=f'{{"error": {{"message": "{text}"}}}}'.encode())


def test_a_key_the_server_echoes_is_masked_in_error_messages(script: Script) -> None:
    script.answer(echo(401, f"invalid api key {KEY} for this project"))
    with AAPClient(script.base_url, api_key=KEY, timeout=5) as client:
        with pytest.raises(AuthenticationError) as caught:
            client.get_meta()
    assert KEY not in str(caught.value) and f"invalid api key {MASK}" in str(caught.value)
    assert KEY.encode() in caught.value.body  # the body itself is the server's, kept as sent

    script.answer(echo(400, f"bad request with key={KEY}"))
    with LLMClient("openai", api_key=KEY, base_url=script.base_url, retry=False) as llm:
        with pytest.raises(ProviderError) as llm_error:
            llm.chat([{"role": "user", "content": "hi"}], model="m")
    assert KEY not in str(llm_error.value) and MASK in str(llm_error.value)

    script.answer(echo(403, f"the key {KEY} is revoked"))
    auth = {"giphy": ApiKeyAuth("api_key", KEY, location="query")}
    with giphy.GiphyFlows(auth=auth, base_urls={"giphy": script.base_url}) as flows:
        with pytest.raises(FlowHTTPError) as flow_error:
            flows.get_trending_gifs_flow()
    assert KEY not in str(flow_error.value) and KEY not in str(flow_error.value.cause)

    message = {"error": {"code": "PERMISSION_DENIED", "message": f"key {KEY} denied"}}
    envelope = json.dumps(message).encode()
    script.answer(Answer(status=403, body=envelope))
    creds = Credentials.of(api_key=KEY, origins=[script.base_url])
    with SkillsClient(credentials=creds, timeout=5) as skills:
        with pytest.raises(SkillSharingError) as skill_error:
            skills.get_descriptor(script.base_url + "/d.json")
    assert KEY not in str(skill_error.value) and MASK in str(skill_error.value)


def test_reprs_mask_credentials_in_urls() -> None:
    for url in (f"https://api.example.com/v1?api_key={KEY}", f"https://me:{KEY}@api.example.com"):
        for cls in (AAPClient, AsyncAAPClient):
            client = cls(url)
            assert KEY not in repr(client), repr(client)
            assert KEY not in repr(client._http)


def test_flows_query_keys_stay_out_of_httpx_logs(
    script: Script, caplog: pytest.LogCaptureFixture
) -> None:
    """httpx logs every request at INFO, URL and query included: a flow's key sent as a query
    parameter was in that line."""
    script.answer(Answer(body=b'{"data": [], "meta": {}}'))
    auth = {"giphy": ApiKeyAuth("api_key", KEY, location="query")}
    with caplog.at_level(logging.INFO, logger="httpx"):
        with giphy.GiphyFlows(auth=auth, base_urls={"giphy": script.base_url}) as flows:
            flows.get_trending_gifs_flow()
    lines = [r.getMessage() for r in caplog.records if r.name == "httpx"]
    assert lines and all(KEY not in line for line in lines), lines
    assert any(f"api_key={MASK}" in line for line in lines), lines
    assert script.requests[-1].query == f"api_key={KEY}"  # the server got it, of course


def test_every_logger_of_the_package_carries_the_filter() -> None:
    """Filters act on their own logger only (not on what children pass up): the filter is on
    each logger the templates create, and on httpx's."""
    AAPClient("http://127.0.0.1:9")
    names = set()
    for path in (ROOT / "templates").rglob("*"):
        if path.suffix in (".py", ".j2"):
            names.update(re.findall(r'getLogger\("([^"]+)"\)', path.read_text()))
    names.discard("httpx")
    assert names and names <= set(LOGGERS), names - set(LOGGERS)
    for name in [*names, "httpx", "httpcore.http11", "httpcore.connection"]:
        assert any(isinstance(f, RedactFilter) for f in logging.getLogger(name).filters), name


def test_a_live_secret_is_masked_wherever_it_shows_in_a_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    secret = Secret("tok-9f8e7d6c5b4a")
    AAPClient("http://127.0.0.1:9")
    with caplog.at_level(logging.DEBUG, logger="agentproto.http"):
        logging.getLogger("agentproto.http").debug("sending %s to %s", secret.reveal(), "x")
    assert caplog.records[-1].getMessage() == f"sending {MASK} to x"
    assert redact_text("see https://u:p@h/x?token=abc") == f"see https://{MASK}@h/x?token={MASK}"
