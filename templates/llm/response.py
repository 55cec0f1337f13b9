"""What a chat call returns: :class:`ChatResponse`, with its candidates, standard tool-use
blocks, usage and the provider's rate-limit headers.

A non-streamed answer is read with the manifest's ``response_paths`` (tool calls with
``features.response_mapping.tool_calls`` when present, else ``response_paths.tool_calls`` read
with ``tooling.tool_use``); a streamed one is folded from its events by :class:`Collector`, so
both give the same object.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentproto._runtime.http_errors import ResponseTooLargeError, ResponseValidationError
from agentproto._runtime.json_types import JSONObject, JSONValue
from agentproto._runtime.limits import describe, loads
from agentproto.llm.events import (
    FinalCandidate,
    Metadata,
    PartialContentDelta,
    StreamEnd,
    StreamError,
    StreamEvent,
    ThinkingDelta,
    ToolCallEnded,
)
from agentproto.llm.paths import MISSING, Missing, Reader
from agentproto.llm.streaming import map_reason

if TYPE_CHECKING:
    from agentproto.llm.fallback import Attempt
    from agentproto.llm.manifest import Manifest
    from agentproto.llm.pricing import Cost

__all__ = [
    "ANTHROPIC_TOOL_MAPPING",
    "RESPONSE_DEFAULTS",
    "Candidate",
    "ChatResponse",
    "Collector",
    "ToolArgumentsError",
    "ToolCall",
    "Usage",
    "parts_reader",
]

_INPUT_KEYS = ("prompt_tokens", "input_tokens", "promptTokenCount", "inputTokens")
_OUTPUT_KEYS = ("completion_tokens", "output_tokens", "candidatesTokenCount", "outputTokens")
_TOTAL_KEYS = ("total_tokens", "totalTokenCount", "totalTokens")
_REASONING_KEYS = ("reasoning_tokens", "thoughtsTokenCount", "reasoningTokens")
_DETAIL_KEYS = ("completion_tokens_details", "output_tokens_details")
_INPUT_DETAIL_KEYS = ("prompt_tokens_details", "input_tokens_details")
_CACHE_READ_KEYS = (
    "cache_read_input_tokens",  # Anthropic (not part of its input_tokens)
    "cachedContentTokenCount",  # Gemini (part of promptTokenCount)
    "prompt_cache_hit_tokens",  # DeepSeek (part of prompt_tokens)
    "cached_tokens",  # OpenAI, in prompt_tokens_details (part of prompt_tokens)
)
_CACHE_WRITE_KEYS = ("cache_creation_input_tokens",)  # Anthropic (not part of input_tokens)


_OPENAI_PATHS: dict[str, str] = {
    "content": "choices[0].message.content",
    "tool_calls": "choices[0].message.tool_calls",
    "usage": "usage",
    "finish_reason": "choices[0].finish_reason",
    "reasoning": "choices[0].message.reasoning_content",
}
RESPONSE_DEFAULTS: dict[str, dict[str, str]] = {
    "openai_style": _OPENAI_PATHS,
    "ai21_style": _OPENAI_PATHS,
    "cohere_v2": {
        "content": "message.content[0].text",
        "tool_calls": "message.tool_calls",
        "usage": "usage",
        "finish_reason": "finish_reason",
    },
    "anthropic_style": {
        "content": "content[0].text",
        "usage": "usage",
        "stop_reason": "stop_reason",
    },
    "gemini_style": {
        "content": "candidates[0].content.parts[0].text",
        "tool_calls": "candidates[0].content.parts[0].functionCall",
        "usage": "usageMetadata",
        "finish_reason": "candidates[0].finishReason",
    },
    "baidu_style": {
        "content": "result",
        "function_call": "function_call",
        "usage": "usage",
        "finish_reason": "finish_reason",
    },
    "replicate_style": {"content": "output"},
}
"""The ``response_paths`` of each payload format, for what a manifest does not give."""
ANTHROPIC_TOOL_MAPPING: dict[str, Any] = {
    "path": "content",
    "filter": "type == 'tool_use'",
    "fields": {"id": "id", "name": "name", "args": "input"},
}
"""Where an Anthropic-format answer's tool calls are, when the manifest does not say."""
_CANDIDATE_LISTS = ("choices", "candidates")


def parts_reader(parts: Callable[[JSONValue], JSONValue | Missing], what: str) -> Reader:
    """A reader over every element of a list of parts: ``text`` joins the text parts,
    ``thinking`` the thinking ones (Anthropic ``thinking`` blocks, Gemini ``thought`` parts);
    any other key gives the list of the parts' values under it."""

    def items(body: JSONValue) -> list[JSONValue] | None:
        found = parts(body)
        if isinstance(found, dict):
            return [found]
        return found if isinstance(found, list) else None

    if what == "text":

        def text(body: JSONValue) -> JSONValue | Missing:
            found = items(body)
            if found is None:
                return MISSING
            return "".join(
                str(p["text"])
                for p in found
                if isinstance(p, dict)
                and isinstance(p.get("text"), str)
                and p.get("type", "text") == "text"
                and not p.get("thought")
            )

        return text

    if what == "thinking":

        def thinking(body: JSONValue) -> JSONValue | Missing:
            found = items(body) or []
            out: list[str] = []
            for p in found:
                if not isinstance(p, dict):
                    continue
                if p.get("type") == "thinking" and isinstance(p.get("thinking"), str):
                    out.append(str(p["thinking"]))
                elif p.get("thought") is True and isinstance(p.get("text"), str):
                    out.append(str(p["text"]))
            return "".join(out)

        return thinking

    def values(body: JSONValue) -> JSONValue | Missing:
        found = items(body)
        if found is None:
            return MISSING
        return [p[what] for p in found if isinstance(p, dict) and p.get(what) is not None]

    return values


class ToolArgumentsError(ResponseValidationError):
    """The model called a tool with arguments that are not a JSON object (cut off, or not
    JSON at all). Raised instead of handing out a call with made-up input; ``arguments`` is
    the text the provider sent."""

    def __init__(
        self, message: str, *, tool_call_id: str, tool_name: str, arguments: str, status_code: int
    ) -> None:
        super().__init__(message, status_code=status_code, body=arguments.encode())
        self.tool_call_id = tool_call_id
        self.tool_name = tool_name
        self.arguments = arguments


@dataclass(frozen=True)
class ToolCall:
    """A tool call (a standard ``tool_use`` block): the model asks for ``name`` with ``input``.

    Answer it with ``{"type": "tool_result", "tool_use_id": id, "content": ...}``
    (:meth:`result` builds that message).
    """

    id: str
    name: str
    input: dict[str, Any]
    arguments: str = ""  # the arguments as the provider sent them (JSON text)

    def block(self) -> dict[str, Any]:
        return {"type": "tool_use", "id": self.id, "name": self.name, "input": self.input}

    def result(self, content: str, *, is_error: bool = False) -> dict[str, Any]:
        """A user message carrying this call's ``tool_result``."""
        block: dict[str, Any] = {
            "type": "tool_result",
            "tool_use_id": self.id,
            "content": content,
            "name": self.name,
        }
        if is_error:
            block["is_error"] = True
        return {"role": "user", "content": [block]}


@dataclass(frozen=True)
class Usage:
    """Token counts, read from any provider's usage object; ``raw`` is that object.

    The same meaning for every provider: ``input_tokens`` counts every prompt token, cached
    ones included (Anthropic reports cache reads and writes beside its ``input_tokens``: they
    are added); ``cache_read_tokens`` / ``cache_write_tokens`` are the prompt tokens read from
    or written to the provider's prompt cache (OpenAI ``prompt_tokens_details.cached_tokens``,
    Anthropic ``cache_read_input_tokens`` / ``cache_creation_input_tokens``, Gemini
    ``cachedContentTokenCount``, DeepSeek ``prompt_cache_hit_tokens``); ``output_tokens``
    counts every output token, reasoning included (Gemini reports ``thoughtsTokenCount`` beside
    ``candidatesTokenCount``: added); ``reasoning_tokens`` are those spent thinking, where the
    provider says. ``cost`` is what the answer cost by the manifest's prices
    (:mod:`agentproto.llm.pricing`), ``None`` where unknown.
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None
    raw: dict[str, Any] = field(default_factory=dict[str, Any])
    reasoning_tokens: int | None = None
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    cost: Cost | None = None

    @classmethod
    def from_raw(
        cls,
        raw: Any,
        *,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
    ) -> Usage | None:
        found: JSONValue | Missing = raw  # a decoded usage object, or whatever was there
        if not isinstance(found, dict) and input_tokens is None and output_tokens is None:
            return None
        data: JSONObject = found if isinstance(found, dict) else {}

        def first(keys: tuple[str, ...], source: JSONObject = data) -> int | None:
            for key in keys:
                value = source.get(key)
                if isinstance(value, int):
                    return int(value)
            return None

        inp = input_tokens if input_tokens is not None else first(_INPUT_KEYS)
        out = output_tokens if output_tokens is not None else first(_OUTPUT_KEYS)
        total = first(_TOTAL_KEYS)
        reasoning = first(_REASONING_KEYS)
        for key in _DETAIL_KEYS:
            details = data.get(key)
            if reasoning is None and isinstance(details, dict):
                reasoning = first(_REASONING_KEYS, details)
        read = first(_CACHE_READ_KEYS)
        for key in _INPUT_DETAIL_KEYS:
            details = data.get(key)
            if read is None and isinstance(details, dict):
                read = first(_CACHE_READ_KEYS, details)
        write = first(_CACHE_WRITE_KEYS)
        if inp is not None:  # Anthropic's input_tokens leave out the cache's
            for key in ("cache_read_input_tokens", "cache_creation_input_tokens"):
                cached = data.get(key)
                if isinstance(cached, int) and not isinstance(cached, bool):
                    inp += cached
        thoughts = data.get("thoughtsTokenCount")
        if out is not None and isinstance(thoughts, int) and "candidatesTokenCount" in data:
            out += thoughts  # Gemini counts thinking beside the candidates' tokens
        if total is None and inp is not None and out is not None:
            total = inp + out
        return cls(inp, out, total, dict(data), reasoning, read, write)


@dataclass(frozen=True)
class Candidate:
    """One of the answers (there is one unless the request asked for ``n`` > 1)."""

    index: int
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: str | None = None
    raw_finish_reason: str | None = None
    thinking: str = ""

    def message(self) -> dict[str, Any]:
        """This answer as an assistant message, to put back into the history."""
        blocks: list[dict[str, Any]] = []
        if self.content:
            blocks.append({"type": "text", "text": self.content})
        blocks.extend(call.block() for call in self.tool_calls)
        return {"role": "assistant", "content": blocks}


@dataclass(frozen=True)
class ChatResponse:
    """The answer to ``chat()`` (or a stream, folded).

    ``content``, ``tool_calls`` and ``finish_reason`` are those of the first candidate;
    ``finish_reason`` is the standard reason (``end_turn``, ``tool_use``, ``max_tokens``...),
    ``raw_finish_reason`` the provider's. ``rate_limits`` holds the manifest's
    ``rate_limit_headers`` found on the response (``requests_remaining``, ``tokens_reset``...).
    """

    provider: str
    candidates: tuple[Candidate, ...]
    usage: Usage | None = None
    rate_limits: dict[str, str] = field(default_factory=dict[str, str])
    request_id: str | None = None
    raw: Any = field(default=None, repr=False)
    extra: dict[str, Any] = field(default_factory=dict[str, Any])
    model: str | None = None
    """The model the request asked for."""
    attempts: tuple[Attempt, ...] = ()
    """Each target a fallback chain tried for this answer, in order (empty without a chain)."""

    @property
    def cost(self) -> Cost | None:
        """What this answer cost (``usage.cost``); ``None`` where unknown."""
        return self.usage.cost if self.usage is not None else None

    @property
    def content(self) -> str:
        return self.candidates[0].content if self.candidates else ""

    @property
    def thinking(self) -> str:
        return self.candidates[0].thinking if self.candidates else ""

    @property
    def tool_calls(self) -> tuple[ToolCall, ...]:
        return self.candidates[0].tool_calls if self.candidates else ()

    @property
    def finish_reason(self) -> str | None:
        return self.candidates[0].finish_reason if self.candidates else None

    @property
    def raw_finish_reason(self) -> str | None:
        return self.candidates[0].raw_finish_reason if self.candidates else None

    def message(self) -> dict[str, Any]:
        """The first candidate as an assistant message."""
        return (
            self.candidates[0].message()
            if self.candidates
            else {"role": "assistant", "content": ""}
        )

    @classmethod
    def from_body(
        cls,
        manifest: Manifest,
        body: Any,
        *,
        rate_limits: dict[str, str],
        request_id: str | None,
    ) -> ChatResponse:
        """Read a non-streamed answer with the manifest's paths. An answer with several
        ``choices`` / ``candidates`` (``n`` > 1) gives one :class:`Candidate` each."""
        shape = manifest.response
        views: list[tuple[int, Any]] = [(0, body)]
        document: JSONValue = body  # whatever json.loads gave
        if isinstance(document, dict):
            for key in _CANDIDATE_LISTS:
                items = document.get(key)
                if isinstance(items, list) and len(items) > 1:
                    # Each candidate read with the same paths, as if it were the only one.
                    views = [
                        (_index(item, i), {**document, key: [item]}) for i, item in enumerate(items)
                    ]
                    break
        candidates = tuple(_candidate(manifest, view, i) for i, view in views)
        usage = Usage.from_raw(shape.usage(body)) if shape.usage else None
        extra: JSONObject = {}
        for key, get in shape.extra.items():
            value = get(body)
            if value is not MISSING:
                extra[key] = value
        return cls(manifest.id, candidates, usage, rate_limits, request_id, body, extra)


def _index(item: JSONValue, position: int) -> int:
    found = item.get("index") if isinstance(item, dict) else None
    return found if isinstance(found, int) else position


def _candidate(manifest: Manifest, body: Any, index: int) -> Candidate:
    shape = manifest.response
    content = shape.content(body) if shape.content else MISSING
    raw = shape.finish_reason(body) if shape.finish_reason else MISSING
    raw_reason = None if raw is MISSING or raw is None else str(raw)
    thinking = shape.thinking(body) if shape.thinking else MISSING
    calls = tuple(_tool_calls(manifest, body))
    reason = map_reason(manifest.stream.reasons, raw_reason)  # with the format's defaults
    if reason == "end_turn" and calls:
        reason = "tool_use"  # gemini says STOP after a function call
    if content is MISSING and not calls and not thinking and reason in (None, "end_turn"):
        # a 200 answer without its content field: never handed out as an empty answer (a
        # refusal or a cut-off answer says so in its finish reason, and passes)
        shown = json.dumps(body, ensure_ascii=False)[:300]
        raise ResponseValidationError(
            f"{manifest.id}: the answer has no content field (nor a tool call, nor a finish "
            f"reason saying why): {shown}",
            status_code=200,
            body=shown.encode(),
        )
    return Candidate(
        index=index,
        content=_text(content),
        tool_calls=calls,
        finish_reason=reason,
        raw_finish_reason=raw_reason,
        thinking=thinking if isinstance(thinking, str) else "",
    )


def _text(value: JSONValue | Missing) -> str:
    if value is MISSING or value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # a list of text parts
        return "".join(_part_text(v) for v in value if v)
    return json.dumps(value, ensure_ascii=False)


def _part_text(part: JSONValue) -> str:
    """One text part: a string, or an object's ``text``."""
    if isinstance(part, str):
        return part
    if isinstance(part, dict):
        return str(part.get("text", ""))
    return str(part)


def _tool_calls(manifest: Manifest, body: JSONValue) -> list[ToolCall]:
    mapping = manifest.response.tool_calls
    if mapping is None:
        return []
    found = mapping.path(body)
    if found is MISSING or found is None:
        return []
    items = found if isinstance(found, list) else [found]
    calls: list[ToolCall] = []
    parsed: JSONValue
    for i, item in enumerate(items):
        if mapping.filter is not None and not mapping.filter(item):
            continue
        name = mapping.name(item)
        if name in (MISSING, None, ""):  # a call no tool can answer: never dropped
            shown = json.dumps(item, ensure_ascii=False)[:200]
            raise ResponseValidationError(
                f"{manifest.id}: tool call {i} has no name: {shown}", status_code=200, body=b""
            )
        args = mapping.args(item)
        problem: str | None = None
        if isinstance(args, str):
            text = args
            try:
                parsed = loads(args) if args.strip() else {}
            except ValueError as exc:
                parsed, problem = None, f"not valid JSON: {exc}"
        elif args is MISSING or args is None:
            text, parsed = "{}", {}
        else:
            text, parsed = json.dumps(args, ensure_ascii=False), args
        call_id = mapping.id(item) if mapping.id is not None else MISSING
        ident = str(call_id) if call_id not in (MISSING, None) else f"call_{i}"
        if not isinstance(parsed, dict):
            raise _bad_arguments(
                manifest.id, ident, str(name), text, problem or "a JSON value, not an object"
            )
        calls.append(ToolCall(id=ident, name=str(name), input=parsed, arguments=text))
    return calls


def _bad_arguments(
    provider: str, call_id: str, name: str, text: str, problem: str, status_code: int = 200
) -> ToolArgumentsError:
    shown = text if len(text) <= 200 else text[:200] + "..."
    return ToolArgumentsError(
        f"{provider}: the arguments of tool call {call_id!r} ({name}) are {problem}: {shown!r}",
        tool_call_id=call_id,
        tool_name=name,
        arguments=text,
        status_code=status_code,
    )


class Collector:
    """Folds stream events into a :class:`ChatResponse`, holding at most ``max_bytes`` of
    text, thinking and tool arguments (``Limits.max_body_bytes``: a stream that never ends
    cannot grow it without bound; past it :class:`ResponseTooLargeError`)."""

    def __init__(self, manifest: Manifest, max_bytes: int | None = None) -> None:
        self.manifest = manifest
        self.max_bytes = max_bytes
        self._size = 0
        self._text: dict[int, list[str]] = {}
        self._thinking: dict[int, list[str]] = {}
        self._calls: dict[int, list[ToolCall]] = {}
        self._finish: dict[int, tuple[str | None, str | None]] = {}
        self._usage: dict[str, Any] | None = None
        self._prompt_tokens: int | None = None
        self._completion_tokens: int | None = None
        self.errors: list[StreamError] = []
        self.bad_calls: list[ToolCallEnded] = []  # calls whose arguments are not an object
        self._extra: dict[str, Any] = {}

    def _grow(self, size: int) -> None:
        self._size += size
        limit = self.max_bytes
        if limit is not None and self._size > limit:
            raise ResponseTooLargeError(
                f"the streamed answer is larger than {describe('max_body_bytes', limit)} "
                "(Limits.max_body_bytes; raise it with limits=Limits(max_body_bytes=...) if "
                "this is expected)",
                status_code=200,
                body=b"",
                limit="max_body_bytes",
                value=limit,
                size=self._size,
            )

    def add(self, event: StreamEvent) -> None:
        if type(event) is PartialContentDelta:  # the hot path: no list made per delta
            parts = self._text.get(event.candidate_index)
            if parts is None:
                parts = self._text[event.candidate_index] = []
            parts.append(event.content)
            self._grow(len(event.content))
        elif isinstance(event, PartialContentDelta):
            self._text.setdefault(event.candidate_index, []).append(event.content)
            self._grow(len(event.content))
        elif isinstance(event, ThinkingDelta):
            self._thinking.setdefault(event.candidate_index, []).append(event.thinking)
            self._grow(len(event.thinking))
        elif isinstance(event, ToolCallEnded):
            self._grow(len(event.arguments or ""))
            if event.input is None:
                self.bad_calls.append(event)
            else:
                self._calls.setdefault(event.candidate_index, []).append(
                    ToolCall(event.tool_call_id, event.tool_name, event.input, event.arguments)
                )
        elif isinstance(event, FinalCandidate):
            self._finish[event.candidate_index] = (event.finish_reason, event.raw_finish_reason)
            if event.usage is not None:
                self._usage = {**(self._usage or {}), **event.usage}
        elif isinstance(event, Metadata):
            if event.usage is not None:
                self._usage = {**(self._usage or {}), **event.usage}
            if event.prompt_tokens is not None:
                self._prompt_tokens = event.prompt_tokens
            if event.completion_tokens is not None:
                self._completion_tokens = event.completion_tokens
            if event.stop_reason is not None and event.candidate_index not in self._finish:
                self._finish[event.candidate_index] = (event.stop_reason, event.raw_stop_reason)
            for key, value in event.extra.items():  # the event map's other fields
                if key == "content_part":  # typed content parts the text had no place for
                    self._extra.setdefault("content_parts", []).append(value)
                else:
                    self._extra[key] = value
        elif isinstance(event, StreamEnd):
            if 0 not in self._finish and event.finish_reason is not None:
                self._finish[0] = (event.finish_reason, event.raw_finish_reason)
        elif isinstance(event, StreamError):
            self.errors.append(event)

    def response(self, *, rate_limits: dict[str, str], request_id: str | None) -> ChatResponse:
        """The folded answer; a tool call whose arguments are not a JSON object raises
        :class:`ToolArgumentsError` (the events carry it with ``error`` set)."""
        if self.bad_calls:
            bad = self.bad_calls[0]
            problem = (bad.error or "not a JSON object").removeprefix("the arguments are ")
            raise _bad_arguments(
                self.manifest.id, bad.tool_call_id, bad.tool_name, bad.arguments, problem
            )
        indexes = sorted({0, *self._text, *self._calls, *self._finish, *self._thinking})
        candidates = tuple(
            Candidate(
                index=i,
                content="".join(self._text.get(i, ())),
                tool_calls=tuple(self._calls.get(i, ())),
                finish_reason=self._finish.get(i, (None, None))[0],
                raw_finish_reason=self._finish.get(i, (None, None))[1],
                thinking="".join(self._thinking.get(i, ())),
            )
            for i in indexes
        )
        usage = Usage.from_raw(
            self._usage, input_tokens=self._prompt_tokens, output_tokens=self._completion_tokens
        )
        return ChatResponse(
            self.manifest.id, candidates, usage, rate_limits, request_id, extra=self._extra
        )
