"""Error classes and retries, as a manifest says.

:func:`classify` names the standard error class of an error answer; :func:`retry_policy` turns
the manifest's ``retry_policy`` into the HTTP runtime's policy; :func:`retry_after_of` reads
the wait a provider asked for (header, else the manifest's ``retry_after_extraction`` on the
body); :func:`retry_decision` answers "retry this error at this attempt, and after how long?"
the way the client's retry loop does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

import httpx

from agentproto._runtime.http import RetryPolicy, retry_after
from agentproto._runtime.limits import loads
from agentproto.llm.errors import KNOWN_ERROR_CODES, SPEC_STATUS, error_class
from agentproto.llm.manifest import Manifest

__all__ = ["classify", "retry_after_of", "retry_decision", "retry_policy"]

QUOTA: Final = re.compile(r"quota|billing|plan\b|insufficient", re.IGNORECASE)
_JITTER: Final = {"full": 1.0, "equal": 0.5, "none": 0.0}
_MULTIPLIER: Final = {"exponential_backoff": 2.0, "linear_backoff": 1.0, "fixed_delay": 1.0}


def _text(value: Any) -> str | None:
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else None


def classify(manifest: Manifest, status: int, body: Any) -> str:
    """The standard error id of an error answer, first found: the manifest's
    ``by_error_code`` (on the body's error code, type, then status), ``by_error_status`` (on its
    status), ``by_message_contains`` (a substring of its message); upstream's table of
    provider error codes; the manifest's ``by_http_status``; the spec table; ``server_error``
    for a 5xx, else ``other``. A ``rate_limited`` whose message speaks of quota or billing is
    ``quota_exhausted``."""
    shape = manifest.response
    code = _text(shape.error_code(body))
    kind = _text(shape.error_type(body))
    error_status = _text(shape.error_status(body))
    found: str | None = None
    # by_error_code names the body's code, or its type (Anthropic) or status (Google)
    for key in (code, kind, error_status):
        if found is None and key is not None:
            found = manifest.by_error_code.get(key)
    if found is None and error_status is not None:
        found = manifest.by_error_status.get(error_status)
    if found is None and manifest.by_message_contains:
        message = str(shape.error_message(body) or "")
        found = next((v for k, v in manifest.by_message_contains.items() if k in message), None)
    if found is None:
        # a provider's own error code is more precise than its HTTP status (a 400 that is a
        # context overflow is `request_too_large`, not `invalid_request`)
        found = KNOWN_ERROR_CODES.get(code or "") or KNOWN_ERROR_CODES.get(error_status or "")
    if found is None:
        found = manifest.by_http_status.get(status)
    if found is None:
        found = SPEC_STATUS.get(status)
    if found is None:
        found = "server_error" if status >= 500 else "other"
    if found == "unknown":
        found = "other"
    if found == "rate_limited" and QUOTA.search(str(shape.error_message(body) or "")):
        found = "quota_exhausted"
    return found


def retry_after_of(manifest: Manifest, headers: Mapping[str, str], body: bytes) -> float | None:
    """Seconds the provider asked to wait: ``retry-after-ms`` / ``Retry-After``, else the
    manifest's ``retry_after_extraction`` pattern on the body (first group, in its ``unit``)."""
    hinted = retry_after(headers)
    if hinted is not None or manifest.retry_after_pattern is None:
        return hinted
    found = manifest.retry_after_pattern.search(body.decode("utf-8", "replace"))
    if not found:
        return None
    try:
        value = float(found.group(1) if found.groups() else found.group(0))
    except ValueError:
        return None
    return value / 1000.0 if manifest.retry_after_unit == "milliseconds" else value


def retry_policy(manifest: Manifest) -> RetryPolicy:
    """The manifest's ``retry_policy`` as a :class:`RetryPolicy` (the one policy class every
    client takes: ``LLMClient(retry=...)`` accepts this one, or any other).

    Waits start at ``min_delay_ms`` and grow (doubling for ``exponential_backoff``, constant
    for ``fixed_delay`` / ``linear_backoff``) up to ``max_delay_ms``, with ``full`` /
    ``equal`` / ``none`` jitter, never below ``min_delay_ms``; only ``retry_on_http_status``
    statuses (and connection errors) are retried, plus bodies whose error status is in
    ``retry_on_error_status``. An error the manifest classifies as not retryable
    (``quota_exhausted``: a 429 about quota or billing) is not retried. A ``retry-after``
    header up to ``max_delay_ms`` replaces the computed wait.
    """
    spec = manifest.retry
    if not spec or spec.get("strategy") == "none":
        return RetryPolicy.disabled()
    max_delay = spec.get("max_delay_ms", 8000) / 1000.0
    error_statuses: frozenset[str] = frozenset(spec.get("retry_on_error_status") or ())
    read_status = manifest.response.error_status

    def should_retry(response: httpx.Response) -> bool | None:
        try:
            body = loads(response.content) if response.content else None
        except ValueError:
            return None
        if error_statuses and str(read_status(body)) in error_statuses:
            return True
        if not error_class(classify(manifest, response.status_code, body)).retryable:
            if response.status_code in (429, 529) or response.status_code >= 500:
                return False
        return None

    return RetryPolicy(
        max_retries=int(spec.get("max_retries", 2)),
        initial_delay=spec.get("min_delay_ms", 1000) / 1000.0,
        max_delay=max_delay,
        multiplier=_MULTIPLIER.get(str(spec.get("strategy")), 2.0),
        jitter=_JITTER.get(str(spec.get("jitter", "full")), 1.0),
        max_retry_after=max(max_delay, 1.0),
        statuses=frozenset(int(s) for s in spec.get("retry_on_http_status") or ()),
        retry_server_errors=False,
        retry_connection_errors=True,
        should_retry=should_retry,
        min_delay=spec.get("min_delay_ms", 0) / 1000.0,
    )


def retry_decision(
    policy: RetryPolicy, error_class_name: str, attempt: int
) -> tuple[bool, float | None]:
    """Whether attempt number ``attempt`` (1 for the first retry) of a request that failed
    with ``error_class_name`` (a standard id or code) is made, and the wait before it."""
    cls = error_class(error_class_name)
    if not cls.retryable or attempt < 1 or attempt > policy.max_retries:
        return False, None
    return True, policy.delay(attempt - 1)
