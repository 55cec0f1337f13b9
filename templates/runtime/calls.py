"""What every generated client method shares, with no imports (ACP's import time stays low)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def one_request(request: Any, fields: Mapping[str, Any]) -> Any:
    """The request of a call, given as a model (or a mapping) or as keyword fields: not both,
    so no keyword is silently dropped."""
    if request is None:
        return fields
    if fields:
        raise TypeError(
            f"give the request or its fields as keywords, not both (got {sorted(fields)} too)"
        )
    return request
