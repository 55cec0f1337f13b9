"""Errors about manifests and requests, raised before anything is sent."""

from __future__ import annotations

__all__ = ["ManifestError", "UnsupportedError"]


class ManifestError(ValueError):
    """A manifest that is not valid, or that this client cannot follow.

    ``source`` names the manifest (file or provider id), ``pointer`` is the JSON Pointer of the
    offending value and ``reason`` says what is wrong with it.
    """

    def __init__(self, source: str, pointer: str, reason: str) -> None:
        super().__init__(f"{source}: {pointer or '/'}: {reason}")
        self.source = source
        self.pointer = pointer
        self.reason = reason


class UnsupportedError(ValueError):
    """The request asks for something the provider's manifest does not offer (a parameter it
    does not map, streaming it gives no way to ask for, tools on a provider without them...)."""
