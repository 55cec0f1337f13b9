"""Keeping credentials out of reprs, logs and error messages.

- :class:`Secret` holds a credential; its text shows a mask.
- :func:`redact_url` / :func:`redact_headers` mask credential-looking query parameters,
  userinfo and headers (and the names :func:`declare_secret_name` adds).
- :func:`scrub` masks the values of given secrets in a text (an error message built from a
  server's body that echoes the key the client sent).
- :func:`install_log_filter` puts one :class:`RedactFilter` on every logger this package and
  httpx write to: URLs in log records are redacted, and the value of any live :class:`Secret`
  is masked wherever it shows. Every client installs it when it is made.
"""

from __future__ import annotations

import logging
import re
import threading
import weakref
from collections.abc import Iterable, Mapping
from typing import Final, cast
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

MASK = "**********"
_SECRET_NAME = re.compile(
    r"(auth|token|key|secret|password|passwd|signature|sig|credential|cookie|session-id)",
    re.IGNORECASE,
)


class Secret:
    """A credential: its value is only reachable through :meth:`reveal`.

    ``repr``, ``str`` and f-strings show a mask, so a secret passed around by mistake does not
    end up in a log line or a traceback.
    """

    __slots__ = ("__weakref__", "_value")

    def __init__(self, value: str | Secret) -> None:
        self._value = value.reveal() if isinstance(value, Secret) else str(value)
        if len(self._value) >= _MIN_SECRET:
            with _LIVE_LOCK:
                _LIVE[id(self)] = self

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return f"Secret({MASK!r})"

    def __str__(self) -> str:
        return MASK

    def __format__(self, spec: str) -> str:
        return MASK

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(("Secret", self._value))

    def __bool__(self) -> bool:
        return bool(self._value)

    def __reduce__(self) -> str | tuple[object, ...]:
        raise TypeError("a Secret cannot be pickled")


_MIN_SECRET: Final = 4  # shorter values are not masked in free text (it would garble it)
# By identity: equal secrets are each tracked (a WeakSet would keep one of them only).
_LIVE: weakref.WeakValueDictionary[int, Secret] = weakref.WeakValueDictionary()
_LIVE_LOCK = threading.Lock()


def live_secrets() -> list[str]:
    """The values of every :class:`Secret` alive in this process (for the log filter)."""
    with _LIVE_LOCK:
        return sorted({s.reveal() for s in _LIVE.values()}, key=len, reverse=True)


def scrub(text: str, secrets: Iterable[str | Secret]) -> str:
    """``text`` with each secret's value (as is, and percent-encoded) masked: for messages
    built from what a server sent, which may echo a credential back."""
    for secret in secrets:
        value = secret.reveal() if isinstance(secret, Secret) else secret
        if len(value) < _MIN_SECRET:
            continue
        for form in {value, quote(value, safe="")}:
            if form in text:
                text = text.replace(form, MASK)
    return text


_DECLARED: set[str] = set()


def declare_secret_name(name: str) -> None:
    """From now on, mask ``name`` wherever headers and URLs are redacted (error messages, reprs,
    logs): a credential an API carries under a name that does not look like one (a query
    parameter ``appid``). Process-wide, so every layer that shows a URL agrees."""
    _DECLARED.add(name.lower())


def is_secret_name(name: str) -> bool:
    """Whether a header, query parameter or option name holds a credential: it looks like one,
    or was declared one (:func:`declare_secret_name`)."""
    return name.lower() in _DECLARED or bool(_SECRET_NAME.search(name))


def redact_headers(
    headers: Mapping[str, str] | Iterable[tuple[str, str]], extra: Iterable[str] = ()
) -> dict[str, str]:
    """A copy of ``headers`` with credential-looking values masked."""
    names = {n.lower() for n in extra}
    items: Iterable[tuple[str, str]] = (
        cast("Mapping[str, str]", headers).items() if isinstance(headers, Mapping) else headers
    )
    return {k: (MASK if is_secret_name(k) or k.lower() in names else v) for k, v in items}


def redact_url(url: str, extra: Iterable[str] = ()) -> str:
    """``url`` with credential-looking query parameters (and any userinfo) masked."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{MASK}@{netloc.rsplit('@', 1)[1]}"
    if not parts.query:
        return urlunsplit(parts._replace(netloc=netloc))
    names = {n.lower() for n in extra}
    query = [
        (k, MASK if is_secret_name(k) or k.lower() in names else v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
    ]
    return urlunsplit(parts._replace(netloc=netloc, query=urlencode(query, safe="*")))


_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>]+")


def redact_text(text: str) -> str:
    """``text`` with every URL in it redacted (:func:`redact_url`) and the value of every live
    :class:`Secret` masked."""
    if "://" in text:
        text = _URL.sub(lambda m: redact_url(m.group(0)), text)
    return scrub(text, live_secrets())


class RedactFilter(logging.Filter):
    """Masks credentials in log records: URLs (credential query parameters, userinfo) and the
    values of live secrets, in the message and its arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot be formatted is left to the handler
            return True
        clean = redact_text(message)
        if clean != message:
            record.msg = clean
            record.args = None
        return True


_FILTER: Final = RedactFilter()
LOGGERS: Final = (
    "agentproto",
    "agentproto.aap",
    "agentproto.aap.acp",
    "agentproto.aap.server",
    "agentproto.acp",
    "agentproto.acp.bridge",
    "agentproto.acp.remote",
    "agentproto.flows",
    "agentproto.http",
    "agentproto.jsonrpc",
    "agentproto.llm",
    "agentproto.mcp",
    "agentproto.mcp.acp",
    "agentproto.mcp.client",
    "agentproto.server",
    "agentproto.skills",
    "agentproto.skills.provider",
    "httpx",
    "httpcore",
    "httpcore.connection",
    "httpcore.http11",
    "httpcore.http2",
    "httpcore.proxy",
    # the servers' own (a WebSocket handshake's headers are logged at DEBUG)
    "uvicorn",
    "uvicorn.error",
    "uvicorn.access",
    "websockets",
    "websockets.server",
    "websockets.client",
)
"""The loggers the filter goes on: this package's and httpx's (a filter acts only on records
logged to its own logger, not on those its children pass up)."""


def install_log_filter() -> None:
    """Put the redaction filter on every logger of :data:`LOGGERS` and every other logger
    named ``agentproto.*``, ``httpx.*`` or ``httpcore.*`` that exists (idempotent)."""
    names: set[str] = set(LOGGERS)
    names.update(
        name
        for name in list(logging.root.manager.loggerDict)
        if name.split(".", 1)[0] in ("agentproto", "httpx", "httpcore")
    )
    for name in sorted(names):
        log = logging.getLogger(name)
        if _FILTER not in log.filters:
            log.addFilter(_FILTER)
