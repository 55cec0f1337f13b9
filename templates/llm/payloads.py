"""Standard messages and tools, and the request shapes of each ``payload_format``.

Callers speak one language:

- a message is ``{"role": "system" | "user" | "assistant" | "tool", "content": ...}`` whose
  content is text or a list of blocks: ``{"type": "text", "text": ...}``,
  ``{"type": "image", "url": ...}`` or ``{"type": "image", "data": <base64>, "media_type":
  "image/png"}`` (a user's image; a ``data:`` URL works too, and Anthropic's ``source`` and
  OpenAI's ``image_url`` blocks are read as well),
  ``{"type": "tool_use", "id": ..., "name": ..., "input": {...}}`` (an assistant's call) and
  ``{"type": "tool_result", "tool_use_id": ..., "content": ..., "is_error": bool}`` (its answer;
  a ``{"role": "tool", "tool_call_id": ..., "content": ...}`` message means the same);
- a tool is ``{"name": ..., "description": ..., "parameters": <JSON Schema>}``
  (``input_schema`` is accepted for ``parameters``);
- ``tool_choice`` is ``"auto"``, ``"none"``, ``"required"`` or ``{"name": ...}``.

:func:`shape` turns them into the pieces a format needs, keyed by *standard parameter names*
(``messages``, ``system_message``, ``tools``, ``tool_choice``, ``prompt``); the manifest's
``parameter_mappings`` then says where each piece goes in the body (with per-format defaults,
:data:`DEFAULT_TARGETS`, for pieces a manifest does not map).

Documents: ``{"type": "document", "data": <base64>, "media_type": "application/pdf"}`` (or a
``url``) become Anthropic ``document`` blocks or Gemini ``inlineData`` / ``fileData`` parts; a
document given by reference (``"source_type": "ref"``) is refused before anything is encoded.

Prompt caching: ``"cache_control": {"type": "ephemeral"}`` (optionally with ``"ttl"``) on a
block, on a message (it applies to the message's last block), on a system message or on a tool
is carried to Anthropic's body (the system prompt is then sent as blocks, not flattened);
the other formats have no per-block cache hint and refuse one (``drop_cache_hints=True`` drops
them instead, for APIs that cache prefixes by themselves).

Nothing is dropped: a block, a message field or an image the format (or, for images, the
manifest's ``capabilities.vision: false``) cannot carry raises :class:`PayloadError`.
openai_style carries any other message field as is (``name``, ``metadata``...); the other
formats take only ``role``, ``content``, and ``tool_call_id`` / ``name`` on tool messages. A
tool result's ``is_error`` becomes an ``Error:`` prefix where the format has no such flag.
"""

from __future__ import annotations

import json
import mimetypes
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypeAlias, TypedDict, TypeGuard

from agentproto._runtime.errors import AgentprotoError

__all__ = [
    "CONVENTIONAL_PARAMETERS",
    "DEFAULT_TARGETS",
    "FORMATS",
    "ImageBlock",
    "Message",
    "PayloadError",
    "Tool",
    "ToolChoice",
    "merge_into",
    "set_dotted",
    "shape",
]


class TextBlock(TypedDict):
    type: Literal["text"]
    text: str


class ImageBlock(TypedDict):
    """An image: ``url`` (``https:`` or a ``data:`` URL), or base64 ``data`` with its
    ``media_type``. ``detail`` (``auto`` / ``low`` / ``high``) is for OpenAI-format providers."""

    type: Literal["image"]
    url: NotRequired[str]
    data: NotRequired[str]
    media_type: NotRequired[str]
    detail: NotRequired[str]


class ToolUseBlock(TypedDict):
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]


class ToolResultBlock(TypedDict):
    type: Literal["tool_result"]
    tool_use_id: str
    content: str | list[TextBlock | ImageBlock]
    is_error: NotRequired[bool]
    name: NotRequired[str]


Block: TypeAlias = TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock


class Message(TypedDict):
    role: Literal["system", "user", "assistant", "tool"]
    content: str | list[Block]
    tool_call_id: NotRequired[str]
    name: NotRequired[str]
    metadata: NotRequired[dict[str, Any]]


class Tool(TypedDict):
    name: str
    description: NotRequired[str]
    parameters: NotRequired[dict[str, Any]]
    input_schema: NotRequired[dict[str, Any]]
    cache_control: NotRequired[dict[str, Any]]


ToolChoice: TypeAlias = Literal["auto", "none", "required"] | Mapping[str, str]

FORMATS = (
    "openai_style",
    "anthropic_style",
    "gemini_style",
    "cohere_v2",
    "ai21_style",
    "baidu_style",
    "replicate_style",
)
"""The payload formats this client can build."""

DEFAULT_TARGETS: dict[str, dict[str, str]] = {
    "gemini_style": {"messages": "contents", "system_message": "systemInstruction"},
    "replicate_style": {"prompt": "input.prompt", "system_message": "input.system_prompt"},
    "anthropic_style": {"system_message": "system"},
    "baidu_style": {"system_message": "system", "tools": "functions"},
}
"""Where a piece goes when the manifest's ``parameter_mappings`` does not say."""

CONVENTIONAL_PARAMETERS: dict[str, dict[str, str]] = {
    "openai_style": {
        "temperature": "temperature",
        "max_tokens": "max_tokens",
        "top_p": "top_p",
        "stop_sequences": "stop",
        "frequency_penalty": "frequency_penalty",
        "presence_penalty": "presence_penalty",
        "seed": "seed",
        "tools": "tools",
        "tool_choice": "tool_choice",
    },
}
"""The chat parameters of a format's own request shape, for a manifest that has no
``parameter_mappings`` at all (upstream's minimal v1.1 manifests of OpenAI-compatible APIs:
deepinfra, siliconflow, together). A manifest with mappings of its own gets only those: what it
leaves out, it does not support. ``stream`` is not among them: such a manifest has no stream
program either, and a stream is refused rather than read with no event map."""


class PayloadError(AgentprotoError, ValueError):
    """A message, tool or choice the payload format cannot express."""


def shape(
    fmt: str,
    messages: Sequence[Message | Mapping[str, Any]],
    tools: Sequence[Tool | Mapping[str, Any]] | None,
    tool_choice: ToolChoice | None,
    tooling: Mapping[str, Any] | None = None,
    *,
    vision: bool | None = None,
    drop_cache_hints: bool = False,
) -> dict[str, Any]:
    """The standard-named pieces of a request body in format ``fmt``. ``tooling`` is the
    manifest's ``tooling`` section: its ``tool_result`` paths say where a tool result's id,
    name and output (or error) go, for formats that carry results as structured parts.
    ``vision=False`` (the manifest's ``capabilities.vision``) refuses images."""
    builder = _BUILDERS.get(fmt)
    if builder is None:
        raise PayloadError(f"payload_format {fmt!r} is not supported (known: {', '.join(FORMATS)})")
    if drop_cache_hints:
        messages = [_without_hints(m) for m in messages]
        tools = [_without_hints(t) for t in tools] if tools else tools
    elif fmt not in _CACHE_HINT_FORMATS:
        where = _first_hint(messages, tools)
        if where is not None:
            raise PayloadError(
                f"{where}: cache_control: {fmt} has no per-block cache hint (the API caches "
                "prompt prefixes by itself, or not at all); pass drop_cache_hints=True to "
                "send the request without it"
            )
    system, turns = _split_system(messages, fmt)
    if vision is False:
        for message in turns:
            if any(_is_image(b) for b in _blocks(message)):
                raise PayloadError(
                    f"messages: an image in a {message['role']} message, but the manifest says "
                    "the provider has no vision (capabilities.vision: false)"
                )
    result_paths: Mapping[str, str] = (tooling or {}).get("tool_result") or {}
    if builder is _gemini:
        pieces = _gemini(system, turns, result_paths)
    elif builder is _anthropic:
        pieces = _anthropic(system, turns, _system_blocks(messages))
    else:
        pieces = builder(system, turns)
    if tools:
        pieces["tools"] = _TOOL_SHAPERS.get(fmt, _openai_tools)([_tool(t) for t in tools])
    if tool_choice is not None:
        pieces["tool_choice"] = _CHOICE_SHAPERS.get(fmt, _openai_choice)(tool_choice)
    return pieces


# -- common -----------------------------------------------------------------------------------

# isinstance checks on caller data, written as type guards. Messages and tools are typed, but
# callers without a type checker pass whatever they have (JSON read from elsewhere), so the checks
# stay: a wrong shape is a PayloadError, not an AttributeError deep inside a builder. (A bare
# isinstance narrows such data to Mapping[Unknown, Unknown], and on a typed argument a checker
# calls it unnecessary.)


def _is_mapping(value: object) -> TypeGuard[Mapping[str, Any]]:
    return isinstance(value, Mapping)


def _is_list(value: object) -> TypeGuard[list[Any]]:
    return isinstance(value, list)


def _is_dict(value: object) -> TypeGuard[dict[str, Any]]:
    return isinstance(value, dict)


_PLAIN_KEYS = frozenset({"role", "content", "cache_control"})
_TOOL_KEYS = frozenset({"role", "content", "tool_call_id", "name", "cache_control"})
_CACHE_HINT_FORMATS = frozenset({"anthropic_style"})
"""The formats whose API takes per-block ``cache_control`` hints."""


def _hinted(value: Any) -> bool:
    return _is_mapping(value) and "cache_control" in value


def _first_hint(
    messages: Sequence[Message | Mapping[str, Any]],
    tools: Sequence[Tool | Mapping[str, Any]] | None,
) -> str | None:
    """Where the first cache hint is (``messages[2].content[0]``, ``tools[1]``), if any."""
    for i, message in enumerate(messages):
        if _hinted(message):
            return f"messages[{i}]"
        content = message.get("content") if _is_mapping(message) else None
        if _is_list(content):
            for j, block in enumerate(content):
                if _hinted(block):
                    return f"messages[{i}].content[{j}]"
    for i, tool in enumerate(tools or ()):
        if _hinted(tool):
            return f"tools[{i}]"
    return None


def _without_hints(item: Any) -> Any:
    """A message or tool without its cache hints (its blocks' too)."""
    if not _is_mapping(item):
        return item
    out = {k: v for k, v in item.items() if k != "cache_control"}
    content = out.get("content")
    if _is_list(content):
        out["content"] = [
            {k: v for k, v in b.items() if k != "cache_control"} if _is_mapping(b) else b
            for b in content
        ]
    return out


def _system_blocks(
    messages: Sequence[Message | Mapping[str, Any]],
) -> list[dict[str, Any]] | None:
    """The system messages as text blocks, hints kept, when they carry a hint or were given
    as blocks (Anthropic then gets blocks); ``None`` for plain system text."""
    system = [m for m in messages if _is_mapping(m) and m.get("role") == "system"]
    if not any(_hinted(m) or _is_list(m.get("content")) for m in system):
        return None
    blocks: list[dict[str, Any]] = []
    for message in system:
        content = message.get("content", "")
        if _is_list(content):
            for b in content:
                text = _text([b], "system content")
                block: dict[str, Any] = {"type": "text", "text": text}
                if _hinted(b):
                    block["cache_control"] = b["cache_control"]
                blocks.append(block)
        else:
            blocks.append({"type": "text", "text": _text(content, "system content")})
        if _hinted(message) and blocks:
            blocks[-1]["cache_control"] = message["cache_control"]
    return blocks


def _split_system(
    messages: Sequence[Message | Mapping[str, Any]], fmt: str
) -> tuple[str | None, list[Mapping[str, Any]]]:
    system: list[str] = []
    turns: list[Mapping[str, Any]] = []
    for i, message in enumerate(messages):
        if not _is_mapping(message) or "role" not in message:
            raise PayloadError(f"messages[{i}] must be a mapping with a 'role'")
        role = message["role"]
        if role not in ("system", "user", "assistant", "tool"):
            raise PayloadError(f"messages[{i}]: unknown role {role!r}")
        if fmt not in _OPENAI_FORMATS or role == "system":
            allowed = _TOOL_KEYS if role == "tool" else _PLAIN_KEYS
            extra = sorted(k for k in message if k not in allowed)
            if extra:
                raise PayloadError(
                    f"messages[{i}]: {fmt} {role} messages cannot carry {', '.join(extra)}"
                )
        if role == "system":
            system.append(_text(message.get("content", ""), f"messages[{i}] (system)"))
        else:
            turns.append(message)
    return ("\n\n".join(system) if system else None), turns


def _blocks(message: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A message's content as blocks (a ``tool`` role message becomes one tool_result)."""
    content = message.get("content", "")
    if message["role"] == "tool":
        return [
            {
                "type": "tool_result",
                "tool_use_id": str(message.get("tool_call_id", "")),
                "content": content,
                **({"name": message["name"]} if "name" in message else {}),
            }
        ]
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not _is_list(content):
        raise PayloadError(f"message content must be text or a list of blocks, not {content!r}")
    for block in content:
        if not _is_mapping(block) or not isinstance(block.get("type"), str):
            raise PayloadError(f"a content block must be a mapping with a 'type': {block!r}")
    return content


def _text(content: Any, where: str = "this content") -> str:
    """Text content, or the text of a list of text blocks (any other block raises)."""
    if isinstance(content, str):
        return content
    if _is_list(content):
        parts: list[str] = []
        for b in content:
            if isinstance(b, str):
                parts.append(b)
            elif _is_mapping(b) and b.get("type") == "text":
                parts.append(str(b.get("text", "")))
            else:
                kind = b.get("type") if _is_mapping(b) else type(b).__name__
                raise PayloadError(f"{where} carries text only, not a {kind!r} block")
        return "".join(parts)
    if content is None:
        return ""
    return str(content)


def _result_text(block: Mapping[str, Any], fmt: str) -> str:
    """A tool result's content as text, ``Error: ``-prefixed when ``is_error`` and the
    format has no flag for it."""
    text = _text(block.get("content", ""), f"{fmt} tool results")
    return f"Error: {text}" if block.get("is_error") else text


def _tool(tool: Tool | Mapping[str, Any]) -> dict[str, Any]:
    if not _is_mapping(tool) or not isinstance(tool.get("name"), str):
        raise PayloadError(f"a tool must be a mapping with a 'name': {tool!r}")
    schema: dict[str, Any] = tool.get("parameters", tool.get("input_schema")) or {
        "type": "object",
        "properties": {},
    }
    out: dict[str, Any] = {
        "name": tool["name"],
        "description": tool.get("description", ""),
        "parameters": schema,
    }
    if "cache_control" in tool:  # only anthropic_style gets here with one
        out["cache_control"] = tool["cache_control"]
    return out


def set_dotted(body: dict[str, Any], target: str, value: Any) -> None:
    """``body[a][b][c] = value`` for ``target`` ``"a.b.c"`` (missing levels are made)."""
    parts = target.split(".")
    node = body
    for part in parts[:-1]:
        child = node.get(part)
        if not _is_dict(child):
            child = node[part] = {}
        node = child
    node[parts[-1]] = value


def merge_into(body: dict[str, Any], extra: Mapping[str, Any]) -> None:
    """Merge ``extra`` (a call's ``extra_body``) into ``body``: a mapping meeting a dict merges
    into it, level by level; anything else replaces what was there."""
    for key, value in extra.items():
        current = body.get(key)
        if _is_mapping(value) and _is_dict(current):
            merge_into(current, value)
        else:
            body[key] = value


def _json_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


# -- images -----------------------------------------------------------------------------------


class _Image:
    """An image block, read: ``url`` (http(s); a data: URL is split into data and
    media_type) or base64 ``data``."""

    __slots__ = ("data", "detail", "media_type", "url")

    def __init__(
        self, url: str | None, data: str | None, media_type: str | None, detail: str | None
    ) -> None:
        self.url = url
        self.data = data
        self.media_type = media_type
        self.detail = detail

    def data_url(self) -> str:
        return self.url or f"data:{self.media_type};base64,{self.data}"


def _is_image(block: Mapping[str, Any]) -> bool:
    return block.get("type") in ("image", "image_url")


def _image(block: Mapping[str, Any]) -> _Image:
    """Any accepted image block (ours, Anthropic's ``source``, OpenAI's ``image_url``)."""
    url: Any = block.get("url")
    data: Any = block.get("data")
    media_type: Any = block.get("media_type")
    detail: Any = block.get("detail")
    source = block.get("source")
    if _is_mapping(source):
        url = source.get("url", url)
        data = source.get("data", data)
        media_type = source.get("media_type", media_type)
    image_url = block.get("image_url")
    if _is_mapping(image_url):
        url = image_url.get("url")
        detail = image_url.get("detail", detail)
    elif isinstance(image_url, str):
        url = image_url
    if isinstance(url, str) and url.startswith("data:"):
        head, sep, payload = url[5:].partition(",")
        if not sep or not head.endswith(";base64"):
            raise PayloadError("an image data: URL must be 'data:<media type>;base64,<data>'")
        url, data, media_type = None, payload, head[: -len(";base64")]
    if isinstance(url, str) and url:
        return _Image(url, None, media_type if isinstance(media_type, str) else None, detail)
    if not isinstance(data, str) or not data:
        raise PayloadError("an image block needs a 'url' or base64 'data'")
    if not isinstance(media_type, str) or not media_type:
        raise PayloadError("an image given as base64 'data' needs its 'media_type'")
    return _Image(None, data, media_type, detail if isinstance(detail, str) else None)


def _no_images(fmt: str, role: str) -> PayloadError:
    return PayloadError(f"{fmt}: images go in user messages only, not in a {role} message")


# -- openai_style (also cohere_v2 and ai21_style) ---------------------------------------------


_OPENAI_FORMATS = frozenset({"openai_style", "cohere_v2", "ai21_style"})


def _openai(system: str | None, turns: list[Mapping[str, Any]]) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    if system is not None:
        out.append({"role": "system", "content": system})
    for message in turns:
        role = message["role"]
        extra = {k: v for k, v in message.items() if k not in _TOOL_KEYS}
        if role != "tool" and "name" in message:
            extra["name"] = message["name"]
        results: list[Mapping[str, Any]] = []
        calls: list[Mapping[str, Any]] = []
        parts: list[dict[str, Any]] = []  # text and image parts, in order
        for b in _blocks(message):
            kind = b["type"]
            if kind == "tool_result":
                results.append(b)
            elif kind == "tool_use":
                calls.append(b)
            elif kind == "text":
                parts.append({"type": "text", "text": str(b.get("text", ""))})
            elif _is_image(b):
                if role != "user":
                    raise _no_images("openai_style", role)
                image = _image(b)
                url: dict[str, Any] = {"url": image.data_url()}
                if image.detail:
                    url["detail"] = image.detail
                parts.append({"type": "image_url", "image_url": url})
            else:
                raise PayloadError(f"openai_style cannot send a {kind!r} block")
        only_results = bool(results) and not calls and not parts
        for b in results:
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": b["tool_use_id"],
                    "content": _result_text(b, "openai_style"),
                    **(extra if only_results else {}),  # the message's own fields go along
                }
            )
        if only_results:
            continue
        content: Any
        if any(p["type"] != "text" for p in parts):
            content = parts
        else:
            content = "".join(p["text"] for p in parts)
        entry: dict[str, Any] = {"role": role, "content": content}
        if calls:
            entry["content"] = content or None
            entry["tool_calls"] = [
                {
                    "id": b["id"],
                    "type": "function",
                    "function": {"name": b["name"], "arguments": _json_text(b.get("input", {}))},
                }
                for b in calls
            ]
        entry.update(extra)
        out.append(entry)
    return {"messages": out}


def _openai_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"type": "function", "function": t} for t in tools]


def _openai_choice(choice: ToolChoice) -> Any:
    if isinstance(choice, str):
        return choice
    return {"type": "function", "function": {"name": choice["name"]}}


# -- anthropic_style --------------------------------------------------------------------------


def _anthropic_image(block: Mapping[str, Any]) -> dict[str, Any]:
    image = _image(block)
    if image.url is not None:
        return {"type": "image", "source": {"type": "url", "url": image.url}}
    return {
        "type": "image",
        "source": {"type": "base64", "media_type": image.media_type, "data": image.data},
    }


_ANTHROPIC_PASS = frozenset({"thinking", "redacted_thinking", "document", "server_tool_use"})


def _anthropic(
    system: str | None,
    turns: list[Mapping[str, Any]],
    system_blocks: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for message in turns:
        role = "user" if message["role"] == "tool" else message["role"]
        blocks: list[dict[str, Any]] = []
        for b in _blocks(message):
            kind = b["type"]
            start = len(blocks)
            if kind == "text":
                blocks.append({"type": "text", "text": b["text"]})
            elif _is_image(b):
                if role != "user":
                    raise _no_images("anthropic_style", role)
                blocks.append(_anthropic_image(b))
            elif kind == "document" and "source" not in b:
                if role != "user":
                    raise PayloadError(
                        f"anthropic_style: documents go in user messages, not {role}"
                    )
                blocks.append(_anthropic_document(b))
            elif kind == "tool_use":
                blocks.append(
                    {
                        "type": "tool_use",
                        "id": b["id"],
                        "name": b["name"],
                        "input": b.get("input", {}),
                    }
                )
            elif kind == "tool_result":
                content = b.get("content", "")
                result: dict[str, Any] = {
                    "type": "tool_result",
                    "tool_use_id": b["tool_use_id"],
                    "content": _anthropic_result(content),
                }
                if b.get("is_error"):
                    result["is_error"] = True
                blocks.append(result)
            elif kind in _ANTHROPIC_PASS:
                blocks.append(dict(b))  # Anthropic's own blocks, sent back as they came
            else:
                raise PayloadError(f"anthropic_style cannot send a {kind!r} block")
            if _hinted(b) and len(blocks) > start:
                blocks[-1]["cache_control"] = b["cache_control"]
        if _hinted(message):
            if not blocks:
                raise PayloadError("anthropic_style: cache_control on a message without content")
            blocks[-1]["cache_control"] = message["cache_control"]
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)  # Anthropic wants roles to alternate
        else:
            out.append({"role": role, "content": blocks})
    pieces: dict[str, Any] = {"messages": out}
    if system_blocks is not None:
        pieces["system_message"] = system_blocks  # blocks: hints and boundaries kept
    elif system is not None:
        pieces["system_message"] = system
    return pieces


def _document(block: Mapping[str, Any], fmt: str) -> _Image:
    """A document block, read: base64 ``data`` with its ``media_type`` (``application/pdf``
    when not given), or a ``url``. A document by reference (``source_type: ref``) is refused:
    it must be resolved before it can be encoded."""
    if block.get("source_type") == "ref" or block.get("ref") is not None:
        raise PayloadError(
            f"{fmt}: a document given by reference must be resolved before it is encoded "
            "(give its base64 'data' or a 'url')"
        )
    url, data = block.get("url"), block.get("data")
    media_type = block.get("media_type") or block.get("mime_type") or "application/pdf"
    if isinstance(url, str) and url and not url.startswith("data:"):
        return _Image(url, None, str(media_type), None)
    found = _image(
        {**block, "media_type": media_type, "url": url}
        if url
        else {"data": data, "media_type": media_type}
    )
    return found


def _anthropic_document(block: Mapping[str, Any]) -> dict[str, Any]:
    doc = _document(block, "anthropic_style")
    if doc.url is not None:
        return {"type": "document", "source": {"type": "url", "url": doc.url}}
    return {
        "type": "document",
        "source": {"type": "base64", "media_type": doc.media_type, "data": doc.data},
    }


def _anthropic_result(content: Any) -> Any:
    """A tool result's content: text, or text and image blocks."""
    if not _is_list(content) or not any(_is_mapping(b) and _is_image(b) for b in content):
        return _text(content, "anthropic_style tool results")
    parts: list[dict[str, Any]] = []
    for b in content:
        if _is_mapping(b) and _is_image(b):
            parts.append(_anthropic_image(b))
        else:
            parts.append({"type": "text", "text": _text([b], "anthropic_style tool results")})
    return parts


def _anthropic_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for t in tools:
        tool = {"name": t["name"], "description": t["description"], "input_schema": t["parameters"]}
        if "cache_control" in t:
            tool["cache_control"] = t["cache_control"]
        out.append(tool)
    return out


def _anthropic_choice(choice: ToolChoice) -> Any:
    if isinstance(choice, str):
        return {"type": {"auto": "auto", "none": "none", "required": "any"}[choice]}
    return {"type": "tool", "name": choice["name"]}


# -- gemini_style -----------------------------------------------------------------------------


_GEMINI_RESULT_PATHS = {
    "name_path": "functionResponse.name",
    "output_path": "functionResponse.response.output",
    "error_path": "functionResponse.response.error",
}


def _gemini_image(block: Mapping[str, Any]) -> dict[str, Any]:
    image = _image(block)
    if image.url is None:
        return {"inlineData": {"mimeType": image.media_type, "data": image.data}}
    media_type = image.media_type or mimetypes.guess_type(image.url)[0]
    if not media_type:
        raise PayloadError(
            f"gemini_style needs the media type of the image {image.url!r}: give 'media_type'"
        )
    return {"fileData": {"mimeType": media_type, "fileUri": image.url}}


def _gemini(
    system: str | None,
    turns: list[Mapping[str, Any]],
    result_paths: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    names: dict[str, str] = {}  # tool_use id -> function name, for functionResponse parts
    out: list[dict[str, Any]] = []
    for message in turns:
        role = "model" if message["role"] == "assistant" else "user"
        parts: list[dict[str, Any]] = []
        for b in _blocks(message):
            kind = b["type"]
            if kind == "text":
                parts.append({"text": b["text"]})
            elif _is_image(b):
                if message["role"] != "user":
                    raise _no_images("gemini_style", message["role"])
                parts.append(_gemini_image(b))
            elif kind == "document":
                if message["role"] != "user":
                    raise PayloadError("gemini_style: documents go in user messages only")
                doc = _document(b, "gemini_style")
                if doc.url is not None:
                    parts.append({"fileData": {"mimeType": doc.media_type, "fileUri": doc.url}})
                else:
                    parts.append({"inlineData": {"mimeType": doc.media_type, "data": doc.data}})
            elif kind == "tool_use":
                names[str(b["id"])] = str(b["name"])
                parts.append({"functionCall": {"name": b["name"], "args": b.get("input", {})}})
            elif kind == "tool_result":
                name = b.get("name") or names.get(str(b["tool_use_id"]))
                if not name:
                    raise PayloadError(
                        "gemini_style needs the tool name of a tool_result: give 'name' or "
                        "keep the assistant's tool_use block in the history"
                    )
                paths = {**_GEMINI_RESULT_PATHS, **(result_paths or {})}
                part: dict[str, Any] = {}
                set_dotted(part, paths["name_path"], name)
                if paths.get("id_path"):
                    set_dotted(part, paths["id_path"], str(b["tool_use_id"]))
                where = paths["error_path"] if b.get("is_error") else paths["output_path"]
                set_dotted(part, where, _text(b.get("content", ""), "gemini_style tool results"))
                parts.append(part)
            else:
                raise PayloadError(f"gemini_style cannot send a {kind!r} block")
        if out and out[-1]["role"] == role:
            out[-1]["parts"].extend(parts)
        else:
            out.append({"role": role, "parts": parts})
    pieces: dict[str, Any] = {"messages": out}
    if system is not None:
        pieces["system_message"] = {"parts": [{"text": system}]}
    return pieces


def _gemini_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"functionDeclarations": tools}]


def _gemini_choice(choice: ToolChoice) -> Any:
    if isinstance(choice, str):
        mode = {"auto": "AUTO", "none": "NONE", "required": "ANY"}[choice]
        return {"functionCallingConfig": {"mode": mode}}
    return {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [choice["name"]]}}


# -- baidu_style and replicate_style ----------------------------------------------------------


def _text_only(fmt: str, message: Mapping[str, Any]) -> str:
    blocks = _blocks(message)
    for b in blocks:
        if b["type"] != "text":
            raise PayloadError(f"{fmt} messages carry text only, not a {b['type']!r} block")
    return _text(list(blocks), f"{fmt} messages")


def _baidu(system: str | None, turns: list[Mapping[str, Any]]) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for message in turns:
        out.append({"role": message["role"], "content": _text_only("baidu_style", message)})
    pieces: dict[str, Any] = {"messages": out}
    if system is not None:
        pieces["system_message"] = system
    return pieces


def _plain_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return tools


def _replicate(system: str | None, turns: list[Mapping[str, Any]]) -> dict[str, Any]:
    lines: list[str] = []
    for message in turns:
        text = _text_only("replicate_style", message)
        lines.append(text if message["role"] == "user" else f"{message['role']}: {text}")
    pieces: dict[str, Any] = {"prompt": "\n\n".join(lines)}
    if system is not None:
        pieces["system_message"] = system
    return pieces


_BUILDERS = {
    "openai_style": _openai,
    "cohere_v2": _openai,
    "ai21_style": _openai,
    "anthropic_style": _anthropic,
    "gemini_style": _gemini,
    "baidu_style": _baidu,
    "replicate_style": _replicate,
}
_TOOL_SHAPERS = {
    "anthropic_style": _anthropic_tools,
    "gemini_style": _gemini_tools,
    "baidu_style": _plain_tools,
}
_CHOICE_SHAPERS = {
    "anthropic_style": _anthropic_choice,
    "gemini_style": _gemini_choice,
}
