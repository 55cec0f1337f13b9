"""OpenAPI 3.0 / 3.1 serialisation: parameters by ``style`` and ``explode``, request bodies by
media type. Plain functions over JSON values; no I/O.

Parameters (the Parameter Object's ``style`` / ``explode`` / ``allowReserved``, as in the
specification's "Style Examples" table):

- path: ``simple`` (default), ``label``, ``matrix``;
- query: ``form`` (default), ``spaceDelimited``, ``pipeDelimited``, ``deepObject``, and
  ``allowReserved`` (RFC 3986 reserved characters and percent-encoded triples pass through,
  except ``[ ] # & = +``, which would change the query's structure and are always encoded);
- header: ``simple``, never percent-encoded (the value must be a legal header value);
- cookie: ``form`` (default: percent-encoded; exploded pairs joined by ``"; "``, since ``&`` is
  never a cookie delimiter) and 3.2's ``cookie`` (no encoding).

Values: first as the parameter's schema declares them (:func:`declared_value`: an object or
array for a ``type: string`` parameter is its JSON text; for a number, an error); then a
string is sent as is, a boolean as ``true``/``false``, a number as its JSON text; an
array or object is expanded by the style (RFC 6570: ``None`` members are left out, an empty
array or object is "undefined", so a query or cookie parameter with one is not sent); a value
nested inside an array or object (which no style defines) is sent as its compact JSON text,
except under ``deepObject``, which nests brackets (``f[a][b]=1``, arrays by index
``f[a][0]=x``): the convention of the APIs that use it. A combination the specification marks
*n/a* (``spaceDelimited`` or ``pipeDelimited`` with ``explode: true``, or with a primitive value;
``deepObject`` with a primitive) is sent as ``form`` would send it.

A parameter described with ``content`` (one media type) is serialised by that media type
(``application/json``: compact JSON text) and then percent-encoded where it goes.

Bodies: JSON media types (``application/json``, ``*/*+json``): JSON; ``application/
x-www-form-urlencoded``: each property by its Encoding Object (``style``/``explode``/
``allowReserved`` as a query parameter; else by ``contentType``: objects and arrays of objects as
JSON, arrays of primitives as repeated pairs, everything else as text; ``+`` for spaces);
``multipart/form-data``: a part per property (an array: a part per item), ``bytes`` as a file
part (``application/octet-stream`` unless the encoding names a type), objects as JSON, text as
``text/plain`` (RFC 7578's default, left implicit); ``text/*``: a string; anything else: a
string or ``bytes`` as given.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, TypeGuard, cast
from urllib.parse import quote, quote_plus

from agentproto._runtime.errors import AgentprotoError

PATH_STYLES: Final = frozenset({"simple", "label", "matrix"})
QUERY_STYLES: Final = frozenset({"form", "spaceDelimited", "pipeDelimited", "deepObject"})
HEADER_STYLES: Final = frozenset({"simple"})
COOKIE_STYLES: Final = frozenset({"form", "cookie"})
STYLES: Final[Mapping[str, frozenset[str]]] = {
    "path": PATH_STYLES,
    "query": QUERY_STYLES,
    "header": HEADER_STYLES,
    "cookie": COOKIE_STYLES,
}
DEFAULT_STYLE: Final[Mapping[str, str]] = {
    "path": "simple",
    "query": "form",
    "header": "simple",
    "cookie": "form",
}

# RFC 3986 reserved characters that may stand unencoded in a query value with allowReserved:
# all of gen-delims and sub-delims except those that would end or split the query or a pair.
_RESERVED_SAFE: Final = ":/?@!$'()*,;"
_TRIPLE: Final = re.compile(r"%[0-9A-Fa-f]{2}")
_BAD_HEADER: Final = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def _is_mapping(value: Any) -> TypeGuard[Mapping[str, Any]]:
    return isinstance(value, Mapping)


def _encodings(value: Mapping[str, Any] | None, name: str) -> Mapping[str, Any]:
    """The Encoding Object of property ``name`` (empty when there is none)."""
    found = (value or {}).get(name)
    return cast("Mapping[str, Any]", found) if isinstance(found, Mapping) else {}


class SerialisationError(AgentprotoError, ValueError):
    """A value that cannot be sent where the operation puts it (a header with a line break,
    a body of the wrong kind for its media type). The flow executor reports it as a
    ``FlowInputError`` naming the flow, the action and the parameter."""


def is_json_media(media: str) -> bool:
    """A JSON media type: ``application/json``, ``text/json`` or any ``...+json``."""
    kind = media.split(";", 1)[0].strip().lower()
    return kind == "application/json" or kind.endswith("+json") or kind == "text/json"


# -- values as text --------------------------------------------------------------------------


def to_json(value: Any) -> str:
    """Compact JSON text (no NaN or infinities: JSON has none)."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise SerialisationError(f"not JSON: {exc}") from None


def text(value: Any) -> str:
    """A scalar as text: strings as is, booleans ``true``/``false``, numbers as JSON, ``None``
    as the empty string; an array or object (nested, where no style defines it) as compact
    JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    return to_json(value)


def encode(value: str, allow_reserved: bool = False) -> str:
    """Percent-encode ``value`` (UTF-8) for a URL: everything but RFC 3986's unreserved
    characters; with ``allow_reserved``, the reserved characters a query value can hold and
    percent-encoded triples pass through (RFC 6570 reserved expansion)."""
    if not allow_reserved:
        return quote(value, safe="")
    out: list[str] = []
    at = 0
    for match in _TRIPLE.finditer(value):
        out.append(quote(value[at : match.start()], safe=_RESERVED_SAFE))
        out.append(match.group(0))
        at = match.end()
    out.append(quote(value[at:], safe=_RESERVED_SAFE))
    return "".join(out)


def _same(part: str) -> str:
    return part


def _members(value: Any) -> list[tuple[str | None, Any]]:
    """``(key, item)`` of an array (key None) or object, ``None`` members left out."""
    if _is_mapping(value):
        return [(str(k), v) for k, v in value.items() if v is not None]
    items: list[Any] = list(value)
    return [(None, v) for v in items if v is not None]


def _is_compound(value: Any) -> bool:
    return _is_mapping(value) or (
        isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray)
    )


# -- parameters ------------------------------------------------------------------------------


def path_value(name: str, value: Any, style: str = "simple", explode: bool = False) -> str:
    """What replaces ``{name}`` in the path (percent-encoded, with the style's prefix)."""
    if style not in PATH_STYLES:
        style = "simple"
    if style == "simple":
        return _joined(value, explode, sep=",", enc=encode)
    if style == "label":
        sep = "." if explode else ","
        return "." + _joined(value, explode, sep=sep, enc=encode)
    return _matrix(name, value, explode)


def _joined(value: Any, explode: bool, *, sep: str, enc: Callable[[str], str]) -> str:
    """simple / label bodies: items joined by ``sep``; object pairs ``k=v`` when exploded,
    else ``k,v``."""
    if not _is_compound(value):
        return enc(text(value))
    parts: list[str] = []
    for key, item in _members(value):
        if key is None:
            parts.append(enc(text(item)))
        elif explode:
            parts.append(f"{enc(key)}={enc(text(item))}")
        else:
            parts.extend((enc(key), enc(text(item))))
    return sep.join(parts)


def _matrix(name: str, value: Any, explode: bool) -> str:
    key = encode(name)

    def pair(k: str, item: str) -> str:
        return f";{k}={item}" if item else f";{k}"

    if not _is_compound(value):
        return pair(key, encode(text(value)))
    members = _members(value)
    if not members:
        return ""
    if not explode:
        return pair(key, _joined(value, False, sep=",", enc=encode))
    return "".join(pair(key if k is None else encode(k), encode(text(item))) for k, item in members)


def query_pairs(
    name: str,
    value: Any,
    style: str = "form",
    explode: bool | None = None,
    allow_reserved: bool = False,
) -> list[str]:
    """The ``key=value`` pieces one query parameter adds (percent-encoded; joined with ``&``).
    An empty array or object adds none (RFC 6570: undefined)."""
    if style not in QUERY_STYLES:
        style = "form"
    if explode is None:
        explode = style in ("form", "deepObject")

    def enc(part: str) -> str:
        return encode(part, allow_reserved)

    key = encode(name)
    if not _is_compound(value):
        return [f"{key}={enc(text(value))}"]
    members = _members(value)
    if not members:
        return []
    if style == "deepObject":
        return _deep(key, value, enc)
    if explode:  # form; spaceDelimited / pipeDelimited with explode are n/a: sent as form
        return [f"{key if k is None else encode(k)}={enc(text(item))}" for k, item in members]
    sep = {"form": ",", "spaceDelimited": "%20", "pipeDelimited": "%7C"}[style]
    return [f"{key}={_joined(value, False, sep=sep, enc=enc)}"]


def _deep(prefix: str, value: Any, enc: Callable[[str], str]) -> list[str]:
    """``prefix[k]=v`` for each member, brackets percent-encoded; nested members nest."""
    pieces: list[str] = []
    for index, (key, item) in enumerate(_members(value)):
        name = f"{prefix}%5B{encode(key) if key is not None else index}%5D"
        if _is_compound(item):
            pieces.extend(_deep(name, item, enc))
        else:
            pieces.append(f"{name}={enc(text(item))}")
    return pieces


def header_value(value: Any, explode: bool = False) -> str:
    """A header's value (``simple``; never percent-encoded). A line break or control
    character is refused: it would end the header."""
    result = _joined(value, explode, sep=",", enc=_same)
    if _BAD_HEADER.search(result):
        raise SerialisationError("a header value cannot hold line breaks or control characters")
    return result


def cookie_pairs(
    name: str, value: Any, style: str = "form", explode: bool | None = None
) -> list[str]:
    """The ``name=value`` pairs one cookie parameter adds (joined with ``"; "``). ``form``
    percent-encodes (RFC 6570); 3.2's ``cookie`` sends values as given."""
    if explode is None:
        explode = True
    raw = style == "cookie"

    def enc(part: str) -> str:
        return part if raw else encode(part)

    key = enc(name)
    if not _is_compound(value):
        pieces = [f"{key}={enc(text(value))}"]
    else:
        members = _members(value)
        if not members:
            return []
        if explode:
            pieces = [f"{key if k is None else enc(k)}={enc(text(item))}" for k, item in members]
        else:
            pieces = [f"{key}={_joined(value, False, sep=',', enc=enc)}"]
    joined = "; ".join(pieces)
    if _BAD_HEADER.search(joined):
        raise SerialisationError("a cookie cannot hold line breaks or control characters")
    return pieces


_SCALARS: Final = frozenset({"string", "number", "integer", "boolean"})


def declared_value(value: Any, declared: str | None) -> Any:
    """A parameter's value as its schema's ``type`` has it, before its style serialises it.

    An object or array given for a ``type: string`` parameter is sent as its compact JSON text
    (as Slack's ``views.open`` documents its ``view``: "a JSON-encoded string"), so the style
    sends one ``name=<text>`` and never spreads the members under their own names (which
    drops the parameter's name). One given for a number, integer or boolean, an array for an
    object or an object for an array cannot be sent as declared: a ``SerialisationError``
    (the executor names the parameter). Anything else is sent as given."""
    if declared is None or not _is_compound(value):
        return value
    is_object = _is_mapping(value)
    if declared == "string":
        return to_json(value)
    if declared in _SCALARS:
        kind = "an object" if is_object else "an array"
        raise SerialisationError(f"{kind} given, the operation declares `type: {declared}`")
    if declared == "array" and is_object:
        raise SerialisationError("an object given, the operation declares `type: array`")
    if declared == "object" and not is_object:
        raise SerialisationError("an array given, the operation declares `type: object`")
    return value


def content_text(media: str, value: Any) -> str:
    """A parameter described with ``content``: its value serialised by the media type."""
    if is_json_media(media):
        return to_json(value)
    return text(value)


def serialise(
    location: str,
    name: str,
    value: Any,
    style: str | None = None,
    explode: bool | None = None,
    allow_reserved: bool = False,
) -> str:
    """One parameter as the specification's examples show it: a path fragment, a header
    value, the query pieces joined by ``&`` or the cookie pairs joined by ``"; "``."""
    style = style or DEFAULT_STYLE[location]
    if explode is None:
        explode = style in ("form", "cookie", "deepObject")
    if location == "path":
        return path_value(name, value, style, explode)
    if location == "header":
        return header_value(value, explode)
    if location == "cookie":
        return "; ".join(cookie_pairs(name, value, style, explode))
    return "&".join(query_pairs(name, value, style, explode, allow_reserved))


# -- bodies ----------------------------------------------------------------------------------


def _styled(encoding: Mapping[str, Any]) -> bool:
    """An Encoding Object that asks for RFC 6570 serialisation (any of its three fields)."""
    return any(k in encoding for k in ("style", "explode", "allowReserved"))


def form_body(value: Mapping[str, Any], encodings: Mapping[str, Any] | None = None) -> str:
    """An ``application/x-www-form-urlencoded`` body (no leading ``?``)."""
    pieces: list[str] = []
    for name, item in value.items():
        if item is None:
            continue
        encoding = _encodings(encodings, name)
        if _styled(encoding):
            style = str(encoding.get("style", "form"))
            explode = encoding.get("explode")
            pieces.extend(
                query_pairs(
                    name,
                    item,
                    style,
                    None if explode is None else bool(explode),
                    bool(encoding.get("allowReserved", False)),
                )
            )
            continue
        media = str(encoding.get("contentType", "")).split(",", 1)[0].strip()
        key = quote_plus(name, safe="")
        for part in _content_parts(item, media):
            pieces.append(f"{key}={quote_plus(part, safe='')}")
    return "&".join(pieces)


def _content_parts(item: Any, media: str) -> list[str]:
    """One property by content type: JSON when asked or for objects, arrays of primitives as
    one value per item, everything else as text."""
    if (media and is_json_media(media)) or _is_mapping(item):
        return [to_json(item)]
    if _is_compound(item):
        members: list[Any] = list(item)
        return [to_json(v) if _is_compound(v) else text(v) for v in members if v is not None]
    if isinstance(item, bytes | bytearray):
        raise SerialisationError("a form-urlencoded body cannot carry bytes; give text")
    return [text(item)]


def multipart_body(
    value: Mapping[str, Any],
    encodings: Mapping[str, Any] | None = None,
    boundary: str | None = None,
) -> tuple[bytes, str]:
    """A ``multipart/form-data`` body and its ``Content-Type`` (with the boundary)."""
    boundary = boundary or "agentproto-" + secrets.token_hex(12)
    parts: list[bytes] = []
    for name, item in value.items():
        if item is None:
            continue
        encoding = _encodings(encodings, name)
        if _styled(encoding):  # RFC 6570 pairs, no percent-encoding: a part per pair
            style = str(encoding.get("style", "form"))
            explode = encoding.get("explode", style == "form")
            for key, part in _plain_pairs(name, item, style, bool(explode)):
                parts.append(_part(boundary, key, part.encode(), None))
            continue
        media = str(encoding.get("contentType", "")).split(",", 1)[0].strip() or None
        items: list[Any] = list(item) if _is_compound(item) and not _is_mapping(item) else [item]
        for one in items:
            if one is None:
                continue
            if isinstance(one, bytes | bytearray):
                parts.append(
                    _part(boundary, name, bytes(one), media or "application/octet-stream", True)
                )
            elif (media and is_json_media(media)) or _is_compound(one):
                data = to_json(one).encode()
                parts.append(_part(boundary, name, data, media or "application/json"))
            else:
                kind = None if media in (None, "text/plain") else media
                parts.append(_part(boundary, name, text(one).encode(), kind))
    body = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def _plain_pairs(name: str, value: Any, style: str, explode: bool) -> list[tuple[str, str]]:
    if not _is_compound(value):
        return [(name, text(value))]
    members = _members(value)
    if explode:
        return [(name if k is None else k, text(v)) for k, v in members]
    sep = {"spaceDelimited": " ", "pipeDelimited": "|"}.get(style, ",")
    return [(name, _joined(value, False, sep=sep, enc=_same))]


def _part(
    boundary: str,
    name: str,
    data: bytes,
    media: str | None,
    file: bool = False,
) -> bytes:
    quoted = name.replace("\\", "\\\\").replace('"', '\\"')
    if "\r" in quoted or "\n" in quoted:
        raise SerialisationError("a multipart field name cannot hold line breaks")
    disposition = f'form-data; name="{quoted}"' + (f'; filename="{quoted}"' if file else "")
    head = f"--{boundary}\r\nContent-Disposition: {disposition}\r\n"
    if media:
        head += f"Content-Type: {media}\r\n"
    return head.encode() + b"\r\n" + data + b"\r\n"


def body_content(
    media: str, value: Any, encodings: Mapping[str, Any] | None = None
) -> tuple[bytes, str]:
    """A request body as bytes and its ``Content-Type``, by the operation's media type."""
    kind = media.split(";", 1)[0].strip().lower()
    if is_json_media(kind):
        return to_json(value).encode(), media
    if kind == "application/x-www-form-urlencoded":
        if not _is_mapping(value):
            raise SerialisationError(f"a {kind} body must be an object of fields")
        return form_body(value, encodings).encode(), media
    if kind == "multipart/form-data":
        if not _is_mapping(value):
            raise SerialisationError(f"a {kind} body must be an object of fields")
        return multipart_body(value, encodings)
    if isinstance(value, bytes | bytearray):
        return bytes(value), media
    if isinstance(value, str):
        return value.encode(), media
    raise SerialisationError(f"a {media} body must be text or bytes, not {type(value).__name__}")
