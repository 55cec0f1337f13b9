"""Typed rows of a protocol's operation table (see each protocol's ``operations.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Direction = Literal["client_to_server", "server_to_client", "both"]


@dataclass(frozen=True, slots=True)
class OperationSpec:
    """One operation: how it is addressed on the wire and which types it carries."""

    name: str
    summary: str
    direction: Direction
    request: str | None
    response: str | None
    rpc: str | None = None
    notification: bool = False
    http_method: str | None = None
    http_path: str | None = None
    url_from: str | None = None
    stream_event: str | None = None
    errors: tuple[str, ...] = ()
    unstable: bool = False
    group: str | None = None


@dataclass(frozen=True, slots=True)
class ErrorSpec:
    """One error the protocol defines."""

    name: str
    description: str
    code: str | int | None = None
    http_status: tuple[int, ...] = ()
    retryable: bool = False
    local: bool = False
