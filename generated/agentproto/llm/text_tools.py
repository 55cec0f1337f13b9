"""Tool calls a model wrote as text, read per the manifest's ``tool_calling.text_fallback``.

Some models answer a tool call as markup in their text instead of the API's native tool call
(upstream's DeepSeek v2 manifest says so: ``reliability: partial``, "the LLM often outputs
``<shell>`` instead"). Such a manifest declares how the text looks::

    tool_calling:
      text_fallback:
        format: xml_json          # <tool_call>{"name": ..., "arguments": {...}}</tool_call>
        wrapper: tool_call
        name_location: json_field # or: attribute (<tool_call name="x">{...args}</tool_call>)
        args_key: arguments
        known_dialects: [{tag: shell, map_to: shell}, ...]

:func:`parse_text_tool_calls` reads them out of a text; :func:`hybrid_tool_calls` takes the
native calls when there are any and reads the text only when there are none. Nothing is lost:
markup that looks like a call but cannot be read stays in ``remaining_text`` and is listed in
``unparsed``; the client never rewrites an answer's ``content`` by itself.

Strict parsing (``lenient=False``) reads only the declared shape. Lenient parsing (the default)
also reads what models write in practice: the name as an attribute or in the JSON, the
arguments under ``arguments``/``parameters``/``params``/``args``/``input``, a ``<tool_calls>``
wrapper around several calls, the declared dialect tags (``<shell><command>ls</command></shell>``)
and DeepSeek's DSML markup (``invoke`` elements with ``parameter`` elements, the tags written
``<`` + two U+FF5C bars + ``DSML`` + two bars + the element name).

Scanning is linear in the text (each tag is found with ``str.find``, never a backtracking
pattern over the whole text).
"""

from __future__ import annotations

import bisect
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, cast

from agentproto.llm.problems import UnsupportedError
from agentproto.llm.response import ToolCall

__all__ = [
    "ARGUMENT_KEYS",
    "DEFAULT_DIALECTS",
    "TextToolConfig",
    "TextToolParse",
    "hybrid_tool_calls",
    "parse_text_tool_calls",
]

ARGUMENT_KEYS: Final = ("arguments", "parameters", "params", "args", "input")
"""Where lenient parsing looks for a call's arguments in its JSON (after the declared key)."""

DEFAULT_DIALECTS: Final[Mapping[str, str]] = {"shell": "shell", "bash": "shell"}
"""Dialect tags read when a manifest declares none (``<shell>...</shell>`` is a ``shell`` call)."""

_ATTRIBUTE = re.compile(r'([A-Za-z_][\w.-]*)\s*=\s*"([^"]*)"')
_DSML_BAR = "[|\uff5c]{1,2}"
_DSML = re.compile(rf"<(/?){_DSML_BAR}DSML{_DSML_BAR}([a-z_]+)")


@dataclass(frozen=True)
class TextToolConfig:
    """How tool calls look in a model's text (see the module's documentation)."""

    wrapper: str = "tool_call"
    name_location: str = "json_field"
    args_key: str = "arguments"
    dialects: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_DIALECTS))
    lenient: bool = True

    @classmethod
    def of(cls, manifest: Any, *, lenient: bool = True) -> TextToolConfig | None:
        """The manifest's declared text fallback (``None``: it declares none). A format other
        than ``xml_json`` raises :class:`UnsupportedError` (it cannot be read here)."""
        spec = _text_fallback(_mapping(getattr(manifest, "raw", manifest)))
        if spec is None:
            return None
        fmt = spec.get("format", "xml_json")
        where = f"{getattr(manifest, 'id', 'the manifest')}: tool_calling.text_fallback"
        if fmt != "xml_json" or spec.get("body", "json") != "json":
            raise UnsupportedError(
                f"{where}: format {fmt!r} with body {spec.get('body', 'json')!r} is not read "
                "(only xml_json with a JSON body)"
            )
        dialects: dict[str, str] = {}
        listed = spec.get("known_dialects")
        for entry in cast("list[object]", listed) if isinstance(listed, list) else []:
            dialect = _mapping(entry)
            if "tag" in dialect and "map_to" in dialect:
                dialects[str(dialect["tag"])] = str(dialect["map_to"])
        return cls(
            wrapper=str(spec.get("wrapper") or "tool_call"),
            name_location=str(spec.get("name_location") or "json_field"),
            args_key=str(spec.get("args_key") or "arguments"),
            dialects=dialects or dict(DEFAULT_DIALECTS),
            lenient=lenient,
        )


def _mapping(value: object) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def _text_fallback(raw: Mapping[str, Any]) -> Mapping[str, Any] | None:
    for holder in (_mapping(raw.get("capabilities")), raw):
        if isinstance(holder.get("tool_calling"), Mapping):
            spec: object = _mapping(holder["tool_calling"]).get("text_fallback")
            found = _mapping(spec)
            return found if isinstance(spec, Mapping) else None
    return None


@dataclass(frozen=True)
class TextToolParse:
    """What :func:`parse_text_tool_calls` found: the calls, the text without them, and the
    markup that looked like a call but could not be read (kept in ``remaining_text`` too)."""

    remaining_text: str
    tool_calls: list[ToolCall]
    unparsed: list[str] = field(default_factory=list[str])


@dataclass
class _Found:
    start: int
    end: int
    call: ToolCall | None
    markup: str


def parse_text_tool_calls(text: str, config: TextToolConfig | None = None) -> TextToolParse:
    """The tool calls written as text in ``text`` (see the module's documentation)."""
    config = config or TextToolConfig()
    found: list[_Found] = []
    if config.lenient:
        found.extend(_dsml(text))
    found.extend(_tagged(text, config.wrapper, config, _covered(found)))
    if config.lenient:
        for tag, name in sorted(config.dialects.items()):
            if tag != config.wrapper:
                found.extend(_dialect(text, tag, name, _covered(found)))
    found.sort(key=lambda f: f.start)
    calls: list[ToolCall] = []
    unparsed: list[str] = []
    kept: list[str] = []
    position = 0
    for item in found:
        if item.call is None:
            unparsed.append(item.markup)
            continue
        kept.append(text[position : item.start])
        position = item.end
        calls.append(_numbered(item.call, len(calls)))
    kept.append(text[position:])
    remaining = "".join(kept)
    if config.lenient:
        remaining = _unwrap(remaining, f"{config.wrapper}s")
    return TextToolParse(remaining.strip(), calls, unparsed)


def hybrid_tool_calls(
    content: str, native: Sequence[ToolCall], config: TextToolConfig | None = None
) -> TextToolParse:
    """The native calls when there are any (``content`` is then left as it is), else the calls
    read from ``content``."""
    if native:
        return TextToolParse(content, list(native), [])
    return parse_text_tool_calls(content, config)


def _covered(found: Sequence[_Found]) -> list[tuple[int, int]]:
    return sorted((f.start, f.end) for f in found)


def _inside(spans: Sequence[tuple[int, int]], start: int) -> bool:
    """Whether ``start`` falls in one of the sorted, disjoint ``spans`` (a binary search)."""
    index = bisect.bisect_right(spans, (start, sys.maxsize)) - 1
    return index >= 0 and spans[index][0] <= start < spans[index][1]


def _numbered(call: ToolCall, index: int) -> ToolCall:
    return (
        call if call.id else ToolCall(f"text_call_{index}", call.name, call.input, call.arguments)
    )


def _elements(text: str, tag: str) -> list[tuple[int, int, str, str]]:
    """Every ``<tag ...>body</tag>`` of ``text``: (start, end, attributes, body)."""
    out: list[tuple[int, int, str, str]] = []
    opening, closing = f"<{tag}", f"</{tag}>"
    position = 0
    while True:
        start = text.find(opening, position)
        if start < 0:
            return out
        head_end = text.find(">", start)
        after = text[start + len(opening) : start + len(opening) + 1]
        if head_end < 0:
            return out
        if after not in (">", " ", "\t", "\n"):  # <tool_calls> is not <tool_call>
            position = start + 1
            continue
        end = text.find(closing, head_end)
        if end < 0:
            return out  # no closing tag anywhere after: nothing further can close
        out.append(
            (
                start,
                end + len(closing),
                text[start + len(opening) : head_end],
                text[head_end + 1 : end],
            )
        )
        position = end + len(closing)


def _unwrap(text: str, tag: str) -> str:
    """``text`` without ``<tag ...>`` / ``</tag>`` lines (the wrapper of several calls)."""
    for start, end, _attrs, body in reversed(_elements(text, tag)):
        text = text[:start] + body + text[end:]
    return text


def _tagged(
    text: str, tag: str, config: TextToolConfig, covered: Sequence[tuple[int, int]]
) -> list[_Found]:
    out: list[_Found] = []
    for start, end, attrs, body in _elements(text, tag):
        if _inside(covered, start):
            continue
        attributes: dict[str, str] = dict(_ATTRIBUTE.findall(attrs))
        if attributes and not config.lenient and config.name_location != "attribute":
            out.append(_Found(start, end, None, text[start:end]))
            continue
        out.append(_Found(start, end, _call(body, attributes, config), text[start:end]))
    return out


def _call(body: str, attributes: Mapping[str, str], config: TextToolConfig) -> ToolCall | None:
    try:
        decoded: object = json.loads(body)
    except ValueError:
        return None
    if not isinstance(decoded, dict):
        return None
    data = cast("dict[str, Any]", decoded)
    call_id = attributes.get("id", "")
    named = "name" in attributes and (config.lenient or config.name_location == "attribute")
    name: object
    if named:
        name = attributes["name"]
        keys = (config.args_key, *ARGUMENT_KEYS) if config.lenient else (config.args_key,)
        inner: object = next((data[k] for k in keys if isinstance(data.get(k), dict)), None)
        # <tool_call name="x">{args}</tool_call>: the body is the arguments (unless it wraps them)
        arguments: object = inner if inner is not None and "name" in data else data
    else:
        name = data.get("name")
        keys = (config.args_key, *ARGUMENT_KEYS) if config.lenient else (config.args_key,)
        nothing: dict[str, Any] = {}
        arguments = next((data[k] for k in keys if k in data), nothing)
        if isinstance(arguments, str):  # JSON text, as the OpenAI wire has it
            try:
                arguments = json.loads(arguments)
            except ValueError:
                return None
    if not isinstance(name, str) or not name or not isinstance(arguments, dict):
        return None
    found = cast("dict[str, Any]", arguments)
    return ToolCall(call_id, name, found, json.dumps(found, ensure_ascii=False))


def _dialect(text: str, tag: str, mapped: str, covered: Sequence[tuple[int, int]]) -> list[_Found]:
    out: list[_Found] = []
    for start, end, attrs, body in _elements(text, tag):
        if _inside(covered, start):
            continue
        attributes: dict[str, str] = dict(_ATTRIBUTE.findall(attrs))
        name = mapped or attributes.get("name", "")
        arguments = _element_arguments(body)
        call = (
            ToolCall("", name, arguments, json.dumps(arguments, ensure_ascii=False))
            if name and arguments is not None
            else None
        )
        out.append(_Found(start, end, call, text[start:end]))
    return out


def _element_arguments(body: str) -> dict[str, Any] | None:
    """``<k>v</k>...`` children as ``{k: v}``, or a JSON object body; else ``None``."""
    stripped = body.strip()
    if stripped.startswith("{"):
        try:
            data: object = json.loads(stripped)
        except ValueError:
            return None
        return cast("dict[str, Any]", data) if isinstance(data, dict) else None
    out: dict[str, Any] = {}
    position = 0
    while True:
        start = stripped.find("<", position)
        if start < 0:
            break
        if stripped[position:start].strip():
            return None  # text between the elements: not an argument list
        head_end = stripped.find(">", start)
        if head_end < 0:
            return None
        key = stripped[start + 1 : head_end].strip()
        if not key or not re.fullmatch(r"[A-Za-z_][\w.-]*", key):
            return None
        closing = f"</{key}>"
        end = stripped.find(closing, head_end)
        if end < 0:
            return None
        out[key] = stripped[head_end + 1 : end]
        position = end + len(closing)
    if stripped[position:].strip():
        return None
    return out or None


def _dsml(text: str) -> list[_Found]:
    """DeepSeek's DSML markup: a ``tool_calls`` element around ``invoke`` elements, each
    with ``parameter`` elements (``string="true"``: the value as written; else JSON if it
    reads as JSON). The wrapper goes with its calls when every one of them was read."""
    calls: list[_Found] = []
    wrappers: list[tuple[int, int]] = []
    wrapper_start: int | None = None
    invoke: tuple[int, str, dict[str, Any]] | None = None
    parameter: tuple[str, bool, int] | None = None
    broken = False
    for match in _DSML.finditer(text):
        start, closing, kind = match.start(), match.group(1) == "/", match.group(2)
        head_end = text.find(">", match.end())
        if head_end < 0:
            break
        attributes: dict[str, str] = dict(_ATTRIBUTE.findall(text[match.end() : head_end]))
        if kind == "tool_calls":
            if not closing:
                wrapper_start = start
            elif wrapper_start is not None:
                wrappers.append((wrapper_start, head_end + 1))
                wrapper_start = None
        elif kind == "invoke" and not closing:
            fresh: dict[str, Any] = {}
            invoke, broken = (start, attributes.get("name", ""), fresh), False
        elif kind == "invoke" and invoke is not None:
            call_start, name, arguments = invoke
            call = None
            if name and not broken:
                call = ToolCall("", name, arguments, json.dumps(arguments, ensure_ascii=False))
            calls.append(_Found(call_start, head_end + 1, call, text[call_start : head_end + 1]))
            invoke = None
        elif kind == "parameter" and not closing:
            raw = attributes.get("string") == "true"
            parameter = (attributes.get("name", ""), raw, head_end + 1)
        elif kind == "parameter" and parameter is not None and invoke is not None:
            key, raw, value_start = parameter
            value: Any = text[value_start:start]
            if not raw:
                try:
                    value = json.loads(value)
                except ValueError:
                    pass  # not JSON: the text as written
            if key:
                invoke[2][key] = value
            else:
                broken = True
            parameter = None
    for begin, end in wrappers:
        inside = [f for f in calls if begin <= f.start and f.end <= end]
        if inside and all(f.call is not None for f in inside):
            inside[0].start, inside[-1].end = begin, end
    return calls
