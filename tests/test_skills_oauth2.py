"""OAuth 2.0 on the Skill Sharing consumer, against a loopback token endpoint and the provider
kit: client-credentials and refresh-token grants from the descriptor's ``token_url`` and
scopes, tokens cached per origin and scope and fetched again before they expire or after the
provider refused one, the grant sent only where allowed, and no secret in repr, logs or errors."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

import pytest
from agentproto.skills import (
    AsyncSkillsClient,
    Credentials,
    OAuth2Error,
    OAuth2Grant,
    SkillProvider,
    SkillsClient,
)
from agentproto.skills.models import InvocationRequest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route

from tests.servers.loopback import serve

SECRET = "client-secret-0123456789abcdef"
REFRESH = "refresh-token-0123456789abcdef"


@dataclass
class Issuer:
    """The token endpoint's state: what it received, what it issued."""

    expires_in: float = 3600
    requests: list[dict[str, str]] = field(default_factory=list[dict[str, str]])
    issued: list[str] = field(default_factory=list[str])
    revoked: set[str] = field(default_factory=set[str])
    refresh: str = REFRESH

    async def token(self, request: Request) -> Response:
        form = {k: v[0] for k, v in parse_qs((await request.body()).decode()).items()}
        self.requests.append(form)
        grant = form.get("grant_type")
        if grant == "client_credentials" and form.get("client_secret") != SECRET:
            return JSONResponse(
                {"error": "invalid_client", "error_description": "bad secret"}, status_code=401
            )
        if grant == "refresh_token" and form.get("refresh_token") != self.refresh:
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        token = f"access-{len(self.issued)}-0123456789abcdef"
        self.issued.append(token)
        answer: dict[str, Any] = {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": self.expires_in,
        }
        if grant == "refresh_token":
            self.refresh = f"{REFRESH}-{len(self.issued)}"
            answer["refresh_token"] = self.refresh  # rotation
        return JSONResponse(answer)

    def verify(self, token: str) -> str | None:
        return "svc" if token in self.issued and token not in self.revoked else None


@dataclass
class Site:
    url: str
    issuer: Issuer

    @property
    def descriptor(self) -> str:
        return f"{self.url}/p/skills/o%2Fsecure/descriptor"


@pytest.fixture
def site() -> Iterator[Site]:
    issuer = Issuer()
    holder: dict[str, Any] = {}

    async def provider_app(scope: Any, receive: Any, send: Any) -> None:
        await holder["provider"].app(scope, receive, send)

    app = Starlette(
        routes=[
            Route("/oauth/token", issuer.token, methods=["POST"]),
            Mount("/p", app=provider_app),
        ]
    )
    with serve(app) as url:
        provider = SkillProvider(
            {"name": "Secure"}, base_url=f"{url}/p", verify_token=issuer.verify
        )

        @provider.skill(
            id="o/secure",
            name="Secure",
            capability_type="api",
            description="needs a token",
            version="1.0.0",
            auth={
                "type": "oauth2",
                "oauth2": {
                    "authorization_url": f"{url}/oauth/authorize",
                    "token_url": f"{url}/oauth/token",
                    "scopes": {"skills:run": "run skills", "skills:read": "read"},
                },
            },
            access="restricted",
        )
        async def secure(inputs: dict[str, Any], request: InvocationRequest) -> Any:
            return {"ok": True}

        holder["provider"] = provider
        yield Site(url, issuer)


def grant(site: Site, **options: Any) -> OAuth2Grant:
    values: dict[str, Any] = {"client_secret": SECRET, "token_origins": [site.url]}
    values.update(options)
    return OAuth2Grant.of("svc-client", **values)


def test_client_credentials_are_fetched_once_and_cached(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    credentials = Credentials.of(oauth2=grant(site))
    with SkillsClient(credentials=credentials, timeout=10) as client:
        skill = client.get_descriptor(site.descriptor)
        for _ in range(3):
            assert client.invoke(skill, {}).result(timeout=10) == {"ok": True}
        shown = repr(client) + repr(credentials) + repr(credentials.oauth2)
    assert len(site.issuer.requests) == 1  # one token for three invocations and their polls
    sent = site.issuer.requests[0]
    assert sent["grant_type"] == "client_credentials" and sent["client_id"] == "svc-client"
    assert sorted(sent["scope"].split()) == ["skills:read", "skills:run"]
    logged = caplog.text + shown
    assert SECRET not in logged
    assert all(token not in logged for token in site.issuer.issued)


def test_a_token_is_fetched_again_before_it_expires(site: Site) -> None:
    site.issuer.expires_in = 0.8
    credentials = Credentials.of(oauth2=grant(site, refresh_margin=0.5))
    with SkillsClient(credentials=credentials, timeout=10) as client:
        skill = client.get_descriptor(site.descriptor)
        client.invoke(skill, {}).result(timeout=10)
        assert len(site.issuer.requests) == 1
        time.sleep(0.4)  # 0.4 s left on the token: inside the 0.5 s margin
        client.invoke(skill, {}).result(timeout=10)
    assert len(site.issuer.requests) == 2


def test_the_refresh_token_grant_rotates_and_scopes_can_be_narrowed(site: Site) -> None:
    site.issuer.expires_in = 0.1
    refreshing = OAuth2Grant.of(
        "svc-client",
        refresh_token=REFRESH,
        token_url=f"{site.url}/oauth/token",
        scopes=["skills:run"],
        refresh_margin=0,
    )

    async def work() -> None:
        async with AsyncSkillsClient(credentials=Credentials(oauth2=refreshing)) as client:
            skill = await client.get_descriptor(site.descriptor)
            for _ in range(2):
                assert await (await client.invoke(skill, {})).result(timeout=10) == {"ok": True}
                await asyncio.sleep(0.15)

    asyncio.run(work())
    sent = site.issuer.requests
    assert [r["grant_type"] for r in sent][:2] == ["refresh_token", "refresh_token"]
    assert sent[0]["refresh_token"] == REFRESH
    assert sent[1]["refresh_token"] == f"{REFRESH}-1"  # the rotated one
    assert all(r["scope"] == "skills:run" for r in sent)


def test_a_token_the_provider_refuses_is_replaced_once(site: Site) -> None:
    credentials = Credentials.of(oauth2=grant(site))
    with SkillsClient(credentials=credentials, timeout=10) as client:
        skill = client.get_descriptor(site.descriptor)
        client.invoke(skill, {}).result(timeout=10)
        site.issuer.revoked.add(site.issuer.issued[0])
        assert client.invoke(skill, {}).result(timeout=10) == {"ok": True}
    assert len(site.issuer.requests) == 2


def test_the_grant_goes_only_where_allowed_and_refusals_are_typed(site: Site) -> None:
    with SkillsClient(
        credentials=Credentials.of(oauth2=grant(site, token_origins=[])), timeout=10
    ) as client:
        skill = client.get_descriptor(site.descriptor)
        with pytest.raises(OAuth2Error, match="token_origins"):
            client.invoke(skill, {})
    pinned = grant(site, token_url="https://auth.example/token")
    with SkillsClient(credentials=Credentials.of(oauth2=pinned), timeout=10) as client:
        with pytest.raises(OAuth2Error, match="pinned"):
            client.invoke(skill, {})
    assert site.issuer.requests == []  # nothing was sent
    wrong = grant(site, client_secret="wrong-secret-0123456789")
    with SkillsClient(credentials=Credentials.of(oauth2=wrong), timeout=10) as client:
        with pytest.raises(OAuth2Error) as caught:
            client.invoke(skill, {})
    assert caught.value.error == "invalid_client"
    assert "wrong-secret" not in str(caught.value) and caught.value.code == "AUTH_REQUIRED"
    with pytest.raises(ValueError):
        OAuth2Grant.of("no-secret")
