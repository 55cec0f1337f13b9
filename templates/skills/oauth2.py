"""OAuth 2.0 for the Skill Sharing consumer: the grant you hold, and the token cache
(hand-written; the token requests themselves are sent by the client, sync or async).

Give the client an :class:`OAuth2Grant` in ``Credentials(oauth2=...)`` and, for a skill whose
descriptor says ``auth: oauth2``, it obtains the access token itself from the descriptor's
``token_url`` and scopes:

- **client credentials** (RFC 6749 §4.4): ``client_id`` + ``client_secret``;
- **refresh token** (§6): a ``refresh_token`` you obtained once (by the authorization-code flow
  in a browser, say); a new refresh token the server sends back replaces it (rotation).

Tokens are cached per token endpoint origin, client and scope set, and fetched again
``refresh_margin`` seconds (default 30) before ``expires_in`` says they expire, or after the
provider refused one (401). The secret, the tokens and the refresh token are
:class:`~agentproto._runtime.redact.Secret` values: never in ``repr``, logs or error text.

The grant goes only where you allow it: to ``token_url`` when you pin one (a descriptor naming
another token endpoint is refused), else to a descriptor's ``token_url`` whose origin is one of
``token_origins``, and always over HTTPS (plain HTTP only to a loopback host). A descriptor comes
from the provider: without this rule, any provider could name a token endpoint of its own and
collect your client secret.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import json
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import urlencode

import httpx
from agentproto._runtime.redact import Secret, scrub
from agentproto.skills.errors import AuthRequiredError
from agentproto.skills.models import OAuth2AuthConfig, SkillDescriptor

__all__ = ["OAuth2Error", "OAuth2Grant", "TokenCache", "TokenRequest"]

DEFAULT_REFRESH_MARGIN = 30.0


class OAuth2Error(AuthRequiredError):
    """A token could not be obtained: the token endpoint refused the grant (``error`` is its
    RFC 6749 §5.2 code, such as ``invalid_client``), answered something that is not a token,
    or is not one the grant may be sent to."""

    def __init__(self, message: str, *, error: str | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.error: str | None = error


def _origin(url: str) -> str:
    parsed = httpx.URL(url)
    port = parsed.port or {"http": 80, "https": 443}.get(parsed.scheme, 0)
    return f"{parsed.scheme}://{parsed.host}:{port}"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class OAuth2Grant:
    """What the consumer may present to a token endpoint (see the module docstring)."""

    client_id: str
    client_secret: Secret | None = None
    refresh_token: Secret | None = None
    token_url: str | None = None
    token_origins: frozenset[str] = frozenset()
    scopes: tuple[str, ...] | None = None
    """The scopes to ask for; None: every scope the descriptor lists."""
    basic_auth: bool = False
    """Send the client credentials in ``Authorization: Basic`` instead of the form."""
    refresh_margin: float = DEFAULT_REFRESH_MARGIN

    @classmethod
    def of(
        cls,
        client_id: str,
        *,
        client_secret: str | Secret | None = None,
        refresh_token: str | Secret | None = None,
        token_url: str | None = None,
        token_origins: Iterable[str] = (),
        scopes: Iterable[str] | None = None,
        basic_auth: bool = False,
        refresh_margin: float = DEFAULT_REFRESH_MARGIN,
    ) -> OAuth2Grant:
        if client_secret is None and refresh_token is None:
            raise ValueError("an OAuth2Grant needs a client_secret or a refresh_token")
        return cls(
            client_id=client_id,
            client_secret=Secret(client_secret) if client_secret is not None else None,
            refresh_token=Secret(refresh_token) if refresh_token is not None else None,
            token_url=token_url,
            token_origins=frozenset(_origin(o) for o in token_origins),
            scopes=tuple(scopes) if scopes is not None else None,
            basic_auth=basic_auth,
            refresh_margin=refresh_margin,
        )

    def secrets(self) -> tuple[Secret, ...]:
        return tuple(s for s in (self.client_secret, self.refresh_token) if s is not None)


@dataclass
class _Token:
    access: Secret
    expires_at: float | None
    refresh: Secret | None = None


@dataclass(frozen=True)
class TokenRequest:
    """One request to a token endpoint: where, the form, the headers, and the cache key."""

    url: str
    form: str
    headers: dict[str, str]
    key: tuple[str, str, tuple[str, ...]]
    refreshing: bool


@dataclass
class TokenCache:
    """Access tokens by (token endpoint origin, client id, scopes); shared by one client."""

    _tokens: dict[tuple[str, str, tuple[str, ...]], _Token] = field(
        default_factory=dict[tuple[str, str, tuple[str, ...]], _Token]
    )
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __repr__(self) -> str:
        return f"<TokenCache {len(self._tokens)} tokens>"

    @staticmethod
    def config(descriptor: SkillDescriptor) -> OAuth2AuthConfig | None:
        auth = descriptor.auth
        return auth if isinstance(auth, OAuth2AuthConfig) else None

    def request(self, descriptor: SkillDescriptor, grant: OAuth2Grant) -> TokenRequest | str:
        """The cached access token for ``descriptor`` (its value: a str), or the request to
        send for a new one (:class:`OAuth2Error` when the grant may not go there)."""
        auth = self.config(descriptor)
        if auth is None:
            raise ValueError(f"skill {descriptor.id!r} does not use oauth2")
        url = str(auth.oauth2.token_url)
        origin = _origin(url)
        parsed = httpx.URL(url)
        if grant.token_url is not None and url.rstrip("/") != grant.token_url.rstrip("/"):
            raise OAuth2Error(
                f"skill {descriptor.id!r} names token endpoint {origin}, not the one "
                "the grant is pinned to (OAuth2Grant.token_url)",
                details={"token_url": url},
            )
        if grant.token_url is None and origin not in grant.token_origins:
            raise OAuth2Error(
                f"the grant may not be sent to {origin}: list it in OAuth2Grant.token_origins "
                "(or pin OAuth2Grant.token_url)",
                details={"token_url": url},
            )
        if parsed.scheme != "https" and not (parsed.scheme == "http" and _loopback(parsed.host)):
            raise OAuth2Error(f"token endpoint {origin} is not HTTPS", details={"token_url": url})
        scopes = grant.scopes if grant.scopes is not None else tuple(auth.oauth2.scopes or {})
        key = (origin, grant.client_id, tuple(sorted(scopes)))
        with self._lock:
            token = self._tokens.get(key)
        now = time.monotonic()
        if token is not None and (
            token.expires_at is None or token.expires_at - grant.refresh_margin > now
        ):
            return token.access.reveal()
        refresh = (token.refresh if token is not None else None) or grant.refresh_token
        form: dict[str, str] = (
            {"grant_type": "refresh_token", "refresh_token": refresh.reveal()}
            if refresh is not None
            else {"grant_type": "client_credentials"}
        )
        if scopes:
            form["scope"] = " ".join(scopes)
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
        }
        if grant.basic_auth and grant.client_secret is not None:
            basic = httpx.BasicAuth(grant.client_id, grant.client_secret.reveal())
            headers["Authorization"] = next(basic.auth_flow(httpx.Request("POST", url))).headers[
                "Authorization"
            ]
        else:
            form["client_id"] = grant.client_id
            if grant.client_secret is not None:
                form["client_secret"] = grant.client_secret.reveal()
        return TokenRequest(url, urlencode(form), headers, key, refresh is not None)

    def store(self, request: TokenRequest, status: int, body: bytes, grant: OAuth2Grant) -> str:
        """Read a token endpoint's answer: cache the token and return it, or raise
        :class:`OAuth2Error` (the secrets never appear in it)."""
        secrets = grant.secrets()
        try:
            document: Any = json.loads(body)
        except ValueError:
            document = None
        found = cast("dict[str, Any]", document) if isinstance(document, dict) else {}
        if status != 200:
            code = found.get("error")
            described = found.get("error_description")
            with self._lock:
                self._tokens.pop(request.key, None)
            raise OAuth2Error(
                scrub(
                    f"the token endpoint refused the grant (HTTP {status}"
                    + (f", {code}" if isinstance(code, str) else "")
                    + (f": {described}" if isinstance(described, str) else "")
                    + ")",
                    secrets,
                ),
                error=code if isinstance(code, str) else None,
                details={"token_url": request.url, "status": status},
            )
        access = found.get("access_token")
        kind = found.get("token_type", "bearer")
        expires_in = found.get("expires_in")
        if not isinstance(access, str) or not access or not isinstance(kind, str):
            raise OAuth2Error(
                "the token endpoint's answer has no access_token",
                details={"token_url": request.url},
            )
        if kind.lower() != "bearer":
            raise OAuth2Error(
                f"the token endpoint issued a {kind!r} token; only bearer tokens are sent",
                details={"token_url": request.url},
            )
        expires_at = None
        if isinstance(expires_in, int | float) and not isinstance(expires_in, bool):
            expires_at = time.monotonic() + max(0.0, float(expires_in))
        refresh = found.get("refresh_token")
        previous = self._tokens.get(request.key)
        token = _Token(
            Secret(access),
            expires_at,
            Secret(refresh)
            if isinstance(refresh, str) and refresh
            else (previous.refresh if previous is not None else None),
        )
        with self._lock:
            self._tokens[request.key] = token
        return access

    def forget(self, descriptor: SkillDescriptor, grant: OAuth2Grant, token: str) -> None:
        """The provider refused ``token`` (401): the next call fetches a new one (its refresh
        token, if any, is kept)."""
        with self._lock:
            for key, held in list(self._tokens.items()):
                if key[1] == grant.client_id and held.access.reveal() == token:
                    self._tokens[key] = dataclasses.replace(held, expires_at=0.0)

    @staticmethod
    def headers_for(token: str) -> Mapping[str, str]:
        return {"Authorization": f"Bearer {token}"}
