"""Where a provider's API key comes from, and a report of it that never holds the key.

The chain, first found wins:

1. ``api_key=`` given to the client (``explicit``);
2. the variables the manifest names (``manifest_env``): ``token_env`` / ``key_env`` of
   ``endpoint.auth`` when the manifest has one (it is then the single source: variables a
   top-level ``auth`` names are not read, only mentioned in the report), else of ``auth``;
3. the conventional ``{PROVIDER}_API_KEY`` (``conventional_env``), ``PROVIDER`` being the
   manifest's ``provider_id`` or ``id`` in upper case.

:class:`CredentialSource` says which link answered (``kind``, ``name``), what the manifest
requires and which fallbacks exist; ``str()`` of it is a sentence fit for a log or an error.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.redact import Secret
from agentproto.llm.manifest import Manifest

__all__ = ["CredentialSource", "MissingAPIKeyError", "conventional_env", "resolve_credential"]

SourceKind = Literal["explicit", "manifest_env", "conventional_env", "none"]


@dataclass(frozen=True)
class CredentialSource:
    """Where the API key of a client came from (never the key itself)."""

    provider: str
    status: Literal["available", "missing"]
    kind: SourceKind
    name: str | None
    """``"explicit"``, or the environment variable that held the key; ``None`` when missing."""
    required: tuple[str, ...]
    """The variables the manifest names."""
    conventional: tuple[str, ...]
    """The conventional fallback variables (``{PROVIDER}_API_KEY``)."""
    shadowed: tuple[str, ...] = ()
    """Variables a top-level ``auth`` names that ``endpoint.auth`` overrides (never read)."""

    def __str__(self) -> str:
        return self.diagnostic()

    def diagnostic(self) -> str:
        """One sentence: where the key came from, or what to set."""
        wanted = " or ".join(f"${n}" for n in self.required) or "an environment variable"
        if self.kind == "explicit":
            text = f"{self.provider}: API key given to the client (api_key=...)"
        elif self.kind == "manifest_env":
            text = f"{self.provider}: API key from ${self.name}"
        elif self.kind == "conventional_env":
            text = f"{self.provider}: API key from ${self.name}, the conventional fallback"
            if self.required:
                text += f" (the manifest names {wanted})"
        else:
            fallback = "".join(f" (or ${n})" for n in self.conventional)
            text = f"{self.provider}: no API key: pass api_key=... or set {wanted}{fallback}"
        if self.shadowed:
            names = ", ".join(f"${n}" for n in self.shadowed)
            text += (
                f"; {names} is not read: the manifest's endpoint.auth names "
                f"{wanted} and takes precedence over its top-level auth"
            )
        return text


class MissingAPIKeyError(AgentprotoError, ValueError):
    """No API key was given and none of the variables the manifest (or the convention)
    names is set. ``credential`` is the :class:`CredentialSource` report."""

    def __init__(self, credential: CredentialSource) -> None:
        super().__init__(credential.diagnostic())
        self.credential = credential


def conventional_env(manifest: Manifest) -> tuple[str, ...]:
    """``{PROVIDER}_API_KEY``, unless the manifest already names it."""
    name = re.sub(r"[^A-Za-z0-9]+", "_", manifest.credential_id).strip("_").upper() + "_API_KEY"
    return () if name in manifest.key_env else (name,)


def resolve_credential(
    manifest: Manifest,
    explicit: str | Secret | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[Secret | None, CredentialSource]:
    """The key (``None`` when missing) and the report of where it came from."""
    env = os.environ if environ is None else environ
    conventional = conventional_env(manifest)

    def report(kind: SourceKind, name: str | None) -> CredentialSource:
        return CredentialSource(
            provider=manifest.id,
            status="missing" if kind == "none" else "available",
            kind=kind,
            name=name,
            required=manifest.key_env,
            conventional=conventional,
            shadowed=manifest.shadowed_env,
        )

    if explicit is not None:
        return Secret(explicit), report("explicit", "explicit")
    for name in manifest.key_env:
        value = env.get(name)
        if value:
            return Secret(value), report("manifest_env", name)
    for name in conventional:
        value = env.get(name)
        if value:
            return Secret(value), report("conventional_env", name)
    return None, report("none", None)
