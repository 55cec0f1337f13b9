"""Errors about manifests and requests, raised before anything is sent."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from agentproto._runtime.errors import AgentprotoError

__all__ = ["ManifestError", "UnknownProviderError", "UnsupportedError"]


class ManifestError(AgentprotoError, ValueError):
    """A manifest that is not valid, or that this client cannot follow.

    ``source`` names the manifest (file or provider id), ``pointer`` is the JSON Pointer of the
    offending value and ``reason`` says what is wrong with it; ``problems`` lists every
    (pointer, reason) found, the first being ``pointer`` and ``reason``.
    """

    def __init__(
        self,
        source: str,
        pointer: str,
        reason: str,
        problems: Sequence[tuple[str, str]] = (),
    ) -> None:
        self.problems: tuple[tuple[str, str], ...] = tuple(problems) or ((pointer, reason),)
        text = f"{source}: {pointer or '/'}: {reason}"
        if len(self.problems) > 1:
            more = "".join(f"\n  {p or '/'}: {r}" for p, r in self.problems[1:])
            text += f"\n  (and {len(self.problems) - 1} more){more}"
        super().__init__(text)
        self.source = source
        self.pointer = pointer
        self.reason = reason

    @classmethod
    def many(cls, source: str, problems: Sequence[tuple[str, str]]) -> ManifestError:
        """One error for several problems (at least one)."""
        pointer, reason = problems[0]
        return cls(source, pointer, reason, problems)


class UnsupportedError(AgentprotoError, ValueError):
    """The request asks for something the provider's manifest does not offer (a parameter it
    does not map, streaming it gives no way to ask for, tools on a provider without them...)."""


class UnknownProviderError(AgentprotoError, LookupError):
    """No manifest ships under this provider id (``LLMClient("opnai")``). ``provider`` is
    the id asked for, ``suggestions`` the nearest bundled ids (``"openai"``), ``known`` every
    bundled id. Also a :class:`LookupError`, as before."""

    def __init__(self, provider: str, known: Sequence[str]) -> None:
        self.provider = provider
        self.known: tuple[str, ...] = tuple(known)
        bare = {k.split("@", 1)[0]: k for k in reversed(self.known)}
        near = difflib.get_close_matches(provider, [*self.known, *bare], n=3, cutoff=0.6)
        self.suggestions: tuple[str, ...] = tuple(dict.fromkeys(near))
        hint = (
            f"did you mean {' or '.join(repr(n) for n in self.suggestions)}? "
            if self.suggestions
            else ""
        )
        super().__init__(
            f"no bundled provider {provider!r}: {hint}Give a bundled id ({', '.join(self.known)}), "
            "or a manifest of your own: LLMClient(Manifest.load(path))"
        )
