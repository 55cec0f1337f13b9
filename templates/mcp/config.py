"""What ``python -m agentproto.mcp`` serves, as the operator says it: command-line flags or a
config file (JSON or YAML). Credentials are the operator's: each is a reference to an
environment variable (``env:NAME``) or a file (``file:PATH``), never a value on the command
line (where ``ps`` shows it) and never an argument a model can give.

Flows auth, per source id (as a generated client takes it)::

    bearer:REF           BearerAuth          oauth2:REF      OAuth2Token
    header:NAME:REF      ApiKeyAuth, header  query:NAME:REF  ApiKeyAuth, query
    cookie:NAME:REF      ApiKeyAuth, cookie  basic:USER:REF  BasicAuth

Skills auth, per provider: ``api_key:REF`` (sent in the header each descriptor names) and
``oauth2:REF`` (a bearer token).

A config file::

    bundles:
      - bundle: giphy                       # shipped with the package
        auth: {giphy: ["query:api_key:env:GIPHY_API_KEY"]}
      - agents_json: https://example.com/agents.json   # loaded at start-up
        openapi: {example: https://example.com/openapi.yaml}
        auth: {example: ["bearer:env:EXAMPLE_TOKEN"]}
        prefix: ex_
    skills:
      - url: https://skills.example.com
        auth: ["api_key:env:SKILLS_KEY"]
    transport: http          # or stdio (default)
    host: 127.0.0.1
    port: 8000
    path: /mcp
    http_token: env:MCP_TOKEN   # clients must send it as a bearer token
"""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal, TypeGuard, cast

from agentproto._runtime.errors import AgentprotoError, needs_extra
from agentproto._runtime.flows import (
    ApiKeyAuth,
    BasicAuth,
    BearerAuth,
    OAuth2Token,
    Plan,
    SourceAuth,
)
from agentproto._runtime.redact import Secret
from agentproto.flows.loading import AsyncBundleFlows, aload_bundle
from agentproto.mcp.tools import FlowTools, SkillTools, ToolSource
from agentproto.skills import Credentials

_BUNDLE: Final = re.compile(r"^[a-z][a-z0-9_]*$")


class MCPConfigError(AgentprotoError, ValueError):
    """The operator's configuration cannot be served: says what and where."""


@dataclass(frozen=True)
class SecretRef:
    """Where a credential is read from: ``env:NAME`` or ``file:PATH``."""

    kind: Literal["env", "file"]
    where: str

    @classmethod
    def parse(cls, text: str, what: str) -> SecretRef:
        kind, sep, where = text.partition(":")
        if not sep or kind not in ("env", "file") or not where:
            raise MCPConfigError(
                f"{what}: a credential must be a reference, env:NAME or file:PATH (a value "
                "written out here would show in process lists and logs)"
            )
        return cls("env" if kind == "env" else "file", where)

    def read(self, environ: Mapping[str, str]) -> Secret:
        if self.kind == "env":
            value = environ.get(self.where)
            if not value:
                raise MCPConfigError(f"environment variable {self.where} is not set")
            return Secret(value)
        try:
            return Secret(Path(self.where).read_text(encoding="utf-8").strip())
        except OSError as exc:
            raise MCPConfigError(f"cannot read {self.where}: {exc.strerror or exc}") from None

    def __str__(self) -> str:
        return f"{self.kind}:{self.where}"


def flows_auth(spec: str, environ: Mapping[str, str]) -> SourceAuth:
    """One flows credential from its spec (see the module docs)."""
    kind, _, rest = spec.partition(":")
    if kind in ("bearer", "oauth2"):
        secret = SecretRef.parse(rest, f"{kind} auth").read(environ)
        return BearerAuth(secret) if kind == "bearer" else OAuth2Token(secret)
    if kind in ("header", "query", "cookie", "basic"):
        name, sep, ref = rest.partition(":")
        if not sep or not name:
            raise MCPConfigError(f"{kind} auth is {kind}:NAME:REF")
        secret = SecretRef.parse(ref, f"{kind} auth {name}").read(environ)
        if kind == "basic":
            return BasicAuth(name, secret)
        return ApiKeyAuth(name, secret, location=kind)
    raise MCPConfigError(
        f"unknown auth kind {kind!r}: bearer, oauth2, header, query, cookie or basic"
    )


def skills_credentials(specs: Sequence[str], environ: Mapping[str, str]) -> Credentials:
    api_key: Secret | None = None
    token: Secret | None = None
    for spec in specs:
        kind, _, rest = spec.partition(":")
        if kind == "api_key":
            api_key = SecretRef.parse(rest, "skills api_key").read(environ)
        elif kind == "oauth2":
            token = SecretRef.parse(rest, "skills oauth2").read(environ)
        else:
            raise MCPConfigError(f"unknown skills auth kind {kind!r}: api_key or oauth2")
    return Credentials.of(api_key=api_key, oauth2_token=token)


@dataclass
class FlowsConfig:
    """One bundle: shipped (``bundle``) or loaded at start-up (``agents_json``)."""

    bundle: str | None = None
    agents_json: str | None = None
    openapi: dict[str, str] = field(default_factory=dict[str, str])
    auth: dict[str, list[str]] = field(default_factory=dict[str, list[str]])
    base_urls: dict[str, str] = field(default_factory=dict[str, str])
    prefix: str | None = None
    strict: bool = False


@dataclass
class SkillsConfig:
    """One Skill Sharing provider, found by discovery (a domain or a base URL)."""

    url: str
    auth: list[str] = field(default_factory=list[str])
    prefix: str = ""


@dataclass
class ServeConfig:
    """Everything ``python -m agentproto.mcp`` serves, and how."""

    bundles: list[FlowsConfig] = field(default_factory=list[FlowsConfig])
    skills: list[SkillsConfig] = field(default_factory=list[SkillsConfig])
    transport: Literal["stdio", "http"] = "stdio"
    host: str = "127.0.0.1"
    port: int = 8000
    path: str = "/mcp"
    http_token: str | None = None
    allowed_hosts: list[str] = field(default_factory=list[str])
    """``Host`` names clients use (loopback names on a loopback address when empty)."""
    allowed_origins: list[str] = field(default_factory=list[str])
    """Browser origins accepted (none when empty)."""
    public_without_auth: bool = False
    """Serve a non-loopback address without ``http_token`` (refused otherwise)."""
    limits: dict[str, Any] = field(default_factory=dict[str, Any])
    """:class:`~agentproto.Limits` fields for the server (deadlines, connection caps)."""

    def token(self, environ: Mapping[str, str]) -> Secret | None:
        if self.http_token is None:
            return None
        return SecretRef.parse(self.http_token, "http_token").read(environ)


def shipped_plan(name: str) -> Plan:
    """The plan of a bundle shipped with the package (``agentproto.flows.<name>``)."""
    module = None
    if _BUNDLE.match(name):
        try:
            module = importlib.import_module(f"agentproto.flows.{name}")
        except ModuleNotFoundError:
            module = None
    plan = getattr(module, "PLAN", None)
    if plan is None:
        raise MCPConfigError(f"no bundle {name!r} ships with agentproto (agentproto.flows)")
    return cast("Plan", plan)


async def open_source(config: FlowsConfig | SkillsConfig, environ: Mapping[str, str]) -> ToolSource:
    """The tool source one configured bundle or provider gives (clients open)."""
    if isinstance(config, SkillsConfig):
        return await SkillTools.discover(
            config.url,
            credentials=skills_credentials(config.auth, environ),
            prefix=config.prefix,
        )
    if (config.bundle is None) == (config.agents_json is None):
        raise MCPConfigError("a bundle entry names either bundle or agents_json")
    warnings: list[tuple[str, list[str]]] = []
    if config.bundle is not None:
        plan = shipped_plan(config.bundle)
    else:
        assert config.agents_json is not None
        loaded = await aload_bundle(
            config.agents_json, dict(config.openapi) or None, strict=config.strict
        )
        plan, warnings = loaded.plan, loaded.warnings
        await loaded.aclose()
    sources = set(plan["sources"])  # the operator's auth and base URLs are by source id
    auth = {
        source: [flows_auth(spec, environ) for spec in specs]
        for source, specs in config.auth.items()
        if source in sources
    }
    base_urls = {k: v for k, v in config.base_urls.items() if k in sources}
    client = AsyncBundleFlows(plan, warnings=warnings, auth=auth, base_urls=base_urls)
    return FlowTools(client, prefix=config.prefix)


def load_config(path: str | os.PathLike[str]) -> ServeConfig:
    """A config file (JSON, or YAML with PyYAML), checked key by key."""
    text = Path(path).read_text(encoding="utf-8")
    data: Any
    if str(path).endswith(".json"):
        data = json.loads(text)
    else:
        with needs_extra("mcp", feature="a YAML config file (agentproto.mcp)"):
            import yaml

        data = yaml.safe_load(text)
    return config_from(data, str(path))


def _keys(data: Any, allowed: set[str], where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise MCPConfigError(f"{where}: must be a mapping")
    found = cast("dict[str, Any]", data)
    unknown = sorted(set(found) - allowed)
    if unknown:
        raise MCPConfigError(f"{where}: unknown keys {unknown} (known: {sorted(allowed)})")
    return found


def _is_dict(value: Any) -> TypeGuard[dict[Any, Any]]:
    return isinstance(value, dict)


def _is_list(value: Any) -> TypeGuard[list[Any]]:
    return isinstance(value, list)


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not _is_dict(value):
        raise MCPConfigError(f"{where}: must be a mapping")
    return {str(k): v for k, v in value.items()}


def _texts(value: Any, where: str) -> dict[str, str]:
    found = _mapping(value, where)
    if not all(isinstance(v, str) for v in found.values()):
        raise MCPConfigError(f"{where}: every value must be text")
    return {k: str(v) for k, v in found.items()}


def _list(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not _is_list(value):
        raise MCPConfigError(f"{where}: must be a list of texts")
    return [str(v) for v in value]


def _text_or_none(value: Any, where: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise MCPConfigError(f"{where}: must be text")
    return value


def config_from(data: Any, where: str = "config") -> ServeConfig:
    top = _keys(
        data,
        {
            "bundles",
            "skills",
            "transport",
            "host",
            "port",
            "path",
            "http_token",
            "allowed_hosts",
            "allowed_origins",
            "public_without_auth",
            "limits",
        },
        where,
    )
    config = ServeConfig()
    for i, raw in enumerate(top.get("bundles") or []):
        entry = _keys(
            raw,
            {"bundle", "agents_json", "openapi", "auth", "base_urls", "prefix", "strict"},
            f"{where}: bundles[{i}]",
        )
        at = f"{where}: bundles[{i}]"
        auth = _mapping(entry.get("auth"), f"{at}: auth")
        config.bundles.append(
            FlowsConfig(
                bundle=_text_or_none(entry.get("bundle"), f"{at}: bundle"),
                agents_json=_text_or_none(entry.get("agents_json"), f"{at}: agents_json"),
                openapi=_texts(entry.get("openapi"), f"{at}: openapi"),
                auth={k: _list(v, f"{at}: auth: {k}") for k, v in auth.items()},
                base_urls=_texts(entry.get("base_urls"), f"{at}: base_urls"),
                prefix=_text_or_none(entry.get("prefix"), f"{at}: prefix"),
                strict=bool(entry.get("strict", False)),
            )
        )
    for i, raw in enumerate(top.get("skills") or []):
        entry = _keys(raw, {"url", "auth", "prefix"}, f"{where}: skills[{i}]")
        if not isinstance(entry.get("url"), str):
            raise MCPConfigError(f"{where}: skills[{i}]: url is required")
        config.skills.append(
            SkillsConfig(
                url=str(entry["url"]),
                auth=_list(entry.get("auth"), f"{where}: skills[{i}]: auth"),
                prefix=str(entry.get("prefix") or ""),
            )
        )
    transport = top.get("transport", "stdio")
    if transport not in ("stdio", "http"):
        raise MCPConfigError(f"{where}: transport is stdio or http, not {transport!r}")
    config.transport = transport
    config.host = str(top.get("host", config.host))
    config.port = int(top.get("port", config.port))
    config.path = str(top.get("path", config.path))
    token = top.get("http_token")
    config.http_token = None if token is None else str(token)
    config.allowed_hosts = _list(top.get("allowed_hosts"), f"{where}: allowed_hosts")
    config.allowed_origins = _list(top.get("allowed_origins"), f"{where}: allowed_origins")
    config.public_without_auth = bool(top.get("public_without_auth", False))
    config.limits = _mapping(top.get("limits"), f"{where}: limits")
    return config
