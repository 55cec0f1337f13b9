"""Keeping credentials out of reprs, logs and error messages."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

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

    __slots__ = ("_value",)

    def __init__(self, value: str | Secret) -> None:
        self._value = value.reveal() if isinstance(value, Secret) else str(value)

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
