"""Errors about manifests and requests, raised before anything is sent."""

from __future__ import annotations

from collections.abc import Sequence

from agentproto._runtime.errors import AgentprotoError

__all__ = ["ManifestError", "UnsupportedError"]


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
