"""Standard messages and tools, and the request shapes of each ``payload_format``.

Callers speak one language:

- a message is ``{"role": "system" | "user" | "assistant" | "tool", "content": ...}`` whose
  content is text or a list of blocks: ``{"type": "text", "text": ...}``,
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
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal, NotRequired, TypeAlias, TypedDict, TypeGuard

__all__ = [
    "DEFAULT_TARGETS",
    "FORMATS",
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


class ToolUseBlock(TypedDict):
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]


class ToolResultBlock(TypedDict):
    type: Literal["tool_result"]
    tool_use_id: str
    content: str | list[TextBlock]
    is_error: NotRequired[bool]
    name: NotRequired[str]


Block: TypeAlias = TextBlock | ToolUseBlock | ToolResultBlock


class Message(TypedDict):
    role: Literal["system", "user", "assistant", "tool"]
    content: str | list[Block]
    tool_call_id: NotRequired[str]
    name: NotRequired[str]


class Tool(TypedDict):
    name: str
    description: NotRequired[str]
    parameters: NotRequired[dict[str, Any]]
    input_schema: NotRequired[dict[str, Any]]


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


class PayloadError(ValueError):
    """A message, tool or choice the payload format cannot express."""


def shape(
    fmt: str,
    messages: Sequence[Message | Mapping[str, Any]],
    tools: Sequence[Tool | Mapping[str, Any]] | None,
    tool_choice: ToolChoice | None,
    tooling: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The standard-named pieces of a request body in format ``fmt``. ``tooling`` is the
    manifest's ``tooling`` section: its ``tool_result`` paths say where a tool result's id,
    name and output (or error) go, for formats that carry results as structured parts."""
    builder = _BUILDERS.get(fmt)
    if builder is None:
        raise PayloadError(f"payload_format {fmt!r} is not supported (known: {', '.join(FORMATS)})")
    system, turns = _split_system(messages)
    result_paths: Mapping[str, str] = (tooling or {}).get("tool_result") or {}
    pieces = _gemini(system, turns, result_paths) if builder is _gemini else builder(system, turns)
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


def _split_system(
    messages: Sequence[Message | Mapping[str, Any]],
) -> tuple[str | None, list[Mapping[str, Any]]]:
    system: list[str] = []
    turns: list[Mapping[str, Any]] = []
    for i, message in enumerate(messages):
        if not _is_mapping(message) or "role" not in message:
            raise PayloadError(f"messages[{i}] must be a mapping with a 'role'")
        if message["role"] == "system":
            system.append(_text(message.get("content", "")))
        elif message["role"] in ("user", "assistant", "tool"):
            turns.append(message)
        else:
            raise PayloadError(f"messages[{i}]: unknown role {message['role']!r}")
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
    return content


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if _is_list(content):
        return "".join(
            str(b.get("text", "")) for b in content if _is_mapping(b) and b.get("type") == "text"
        )
    return str(content)


def _tool(tool: Tool | Mapping[str, Any]) -> dict[str, Any]:
    if not _is_mapping(tool) or not isinstance(tool.get("name"), str):
        raise PayloadError(f"a tool must be a mapping with a 'name': {tool!r}")
    schema: dict[str, Any] = tool.get("parameters", tool.get("input_schema")) or {
        "type": "object",
        "properties": {},
    }
    return {"name": tool["name"], "description": tool.get("description", ""), "parameters": schema}


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


# -- openai_style (also cohere_v2 and ai21_style) ---------------------------------------------


def _openai(system: str | None, turns: list[Mapping[str, Any]]) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    if system is not None:
        out.append({"role": "system", "content": system})
    for message in turns:
        blocks = _blocks(message)
        results = [b for b in blocks if b.get("type") == "tool_result"]
        for b in results:
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": b["tool_use_id"],
                    "content": _text(b.get("content", "")),
                }
            )
        calls = [b for b in blocks if b.get("type") == "tool_use"]
        text = _text([b for b in blocks if b.get("type") == "text"])
        if results and not calls and not text:
            continue
        entry: dict[str, Any] = {"role": message["role"], "content": text}
        if calls:
            entry["content"] = text or None
            entry["tool_calls"] = [
                {
                    "id": b["id"],
                    "type": "function",
                    "function": {"name": b["name"], "arguments": _json_text(b.get("input", {}))},
                }
                for b in calls
            ]
        out.append(entry)
    return {"messages": out}


def _openai_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"type": "function", "function": t} for t in tools]


def _openai_choice(choice: ToolChoice) -> Any:
    if isinstance(choice, str):
        return choice
    return {"type": "function", "function": {"name": choice["name"]}}


# -- anthropic_style --------------------------------------------------------------------------


def _anthropic(system: str | None, turns: list[Mapping[str, Any]]) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for message in turns:
        role = "user" if message["role"] == "tool" else message["role"]
        blocks: list[dict[str, Any]] = []
        for b in _blocks(message):
            kind = b.get("type")
            if kind == "text":
                blocks.append({"type": "text", "text": b["text"]})
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
                result: dict[str, Any] = {
                    "type": "tool_result",
                    "tool_use_id": b["tool_use_id"],
                    "content": _text(b.get("content", "")),
                }
                if b.get("is_error"):
                    result["is_error"] = True
                blocks.append(result)
            else:
                blocks.append(dict(b))
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)  # Anthropic wants roles to alternate
        else:
            out.append({"role": role, "content": blocks})
    pieces: dict[str, Any] = {"messages": out}
    if system is not None:
        pieces["system_message"] = system
    return pieces


def _anthropic_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {"name": t["name"], "description": t["description"], "input_schema": t["parameters"]}
        for t in tools
    ]


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
            kind = b.get("type")
            if kind == "text":
                parts.append({"text": b["text"]})
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
                set_dotted(part, where, _text(b.get("content", "")))
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


def _baidu(system: str | None, turns: list[Mapping[str, Any]]) -> dict[str, Any]:
    out: list[dict[str, Any]] = []
    for message in turns:
        if any(b.get("type") != "text" for b in _blocks(message)):
            raise PayloadError("baidu_style messages carry text only")
        out.append({"role": message["role"], "content": _text(message.get("content", ""))})
    pieces: dict[str, Any] = {"messages": out}
    if system is not None:
        pieces["system_message"] = system
    return pieces


def _plain_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return tools


def _replicate(system: str | None, turns: list[Mapping[str, Any]]) -> dict[str, Any]:
    lines: list[str] = []
    for message in turns:
        if any(b.get("type") != "text" for b in _blocks(message)):
            raise PayloadError("replicate_style prompts carry text only")
        text = _text(message.get("content", ""))
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
