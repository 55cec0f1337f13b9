"""SemVer and the protocol's compatibility rule (§6.1, §6.3, §6.4; hand-written).

Versions follow SemVer 2.0.0: ``MAJOR.MINOR.PATCH`` without leading zeros, with optional
pre-release (``-rc.1``) and build (``+sha``) suffixes. Compatibility looks at MAJOR only: a
descriptor whose MAJOR is higher than the consumer's is incompatible; equal or lower is
compatible. Edge cases, decided: a pre-release counts by its MAJOR (``2.0.0-rc.1`` is MAJOR 2,
so incompatible with a 1.x consumer; ``1.1.0-beta`` is compatible); ``0.y.z`` (initial
development) is MAJOR 0, lower than 1, so compatible; build metadata is ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agentproto.skills.errors import VersionIncompatibleError
from agentproto.skills.models import VersionIncompatibleDetails
from agentproto.skills.schema import PROTOCOL_VERSION

_SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)
CONSUMER_VERSION = PROTOCOL_VERSION


@dataclass(frozen=True)
class Version:
    major: int
    minor: int
    patch: int
    prerelease: str | None = None
    build: str | None = None

    @classmethod
    def parse(cls, text: str) -> Version:
        match = _SEMVER.match(text)
        if match is None:
            raise ValueError(f"{text!r} is not a SemVer version (MAJOR.MINOR.PATCH)")
        major, minor, patch, pre, build = match.groups()
        return cls(int(major), int(minor), int(patch), pre, build)

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            text += f"-{self.prerelease}"
        if self.build:
            text += f"+{self.build}"
        return text


def is_compatible(document_version: str, consumer_version: str = CONSUMER_VERSION) -> bool:
    return Version.parse(document_version).major <= Version.parse(consumer_version).major


def check_compatible(document_version: str, consumer_version: str = CONSUMER_VERSION) -> None:
    """Raise ``VersionIncompatibleError`` (VERSION_INCOMPATIBLE, §6.4) unless compatible."""
    if is_compatible(document_version, consumer_version):
        return
    supported = Version.parse(consumer_version).major
    raise VersionIncompatibleError(
        f"protocol version {document_version} is not supported: this consumer speaks "
        f"{consumer_version} (MAJOR {supported})",
        details=VersionIncompatibleDetails(
            descriptor_version=document_version,
            consumer_version=consumer_version,
            supported_major=supported,
        ),
    )
