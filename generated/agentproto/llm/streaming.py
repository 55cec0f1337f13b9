"""From a provider's streamed bytes to unified events, as the manifest's ``streaming`` says.

:func:`compile_stream` turns a manifest into a :class:`StreamProgram` once (every path and
expression compiled); :class:`StreamDecoder` is one stream's state: feed it the body's chunks,
it returns events. Per frame it does what the manifest says, in this order:

1. **decoder**: ``sse`` / ``anthropic_sse`` frames are split on ``delimiter`` and their
   ``prefix`` lines joined (``event:`` and comment lines are read too, CR/LF normalised);
   ``cohere_native`` is one JSON object a line; ``gemini_json`` is a streamed JSON array. A
   frame whose data is ``done_signal`` (or whose SSE event name is) ends the stream. Data that
   is not a JSON object becomes ``{"event": <name>, "data": <text>}``.
2. **frame_selector**: frames it rejects are skipped.
3. **event_map**: *every* rule whose ``match`` holds emits (a final chunk carrying usage and a
   finish reason yields both a ``Metadata`` and a ``FinalCandidate``). A rule whose fields go
   through ``[*]`` emits once per element, fields lined up element by element.
   ``candidate.fan_out`` tags events with the candidate they come from.
4. **accumulator**: tool-call arguments are assembled per candidate and call; a call is closed
   (``ToolCallEnded`` with the parsed input) by a ``ToolCallEnded`` rule, by
   ``accumulator.flush_on``, by its candidate's ``FinalCandidate``, or at the end of the stream.
5. **stop_condition**: the stream is complete after the frame that meets it; trailing frames up
   to a ``done_signal`` (OpenAI's usage chunk) are still read when the manifest has one.

``termination.mapping`` gives standard reasons. Exactly one ``StreamEnd`` closes the stream. A
body that ends before the done signal or the stop condition is an interrupted stream:
:class:`IncompleteStreamError`.

Bytes are decoded incrementally, so the events never depend on how the body was cut into
chunks (a UTF-8 character split between two chunks is one character) and the cost grows
linearly with the size of a frame, however many chunks it comes in. A frame that is not UTF-8
raises :class:`StreamFormatError` (its text would otherwise be lost), and so does JSON nested
deeper than ``Limits.max_json_depth``; a frame larger than ``Limits.max_sse_event_bytes``
raises :class:`~agentproto._runtime.http_errors.ResponseTooLargeError`.

Manifests without an ``event_map`` get rules made from ``content_path``, ``tool_call_path``,
``usage_path`` and ``stop_condition``.
"""

from __future__ import annotations

import codecs
import dataclasses
import json
import json.scanner
import re
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard, cast

from agentproto._runtime.http_errors import (
    APIConnectionError,
    ResponseTooLargeError,
    ResponseValidationError,
)
from agentproto._runtime.json_types import JSONObject, JSONValue
from agentproto._runtime.limits import DEFAULT_LIMITS, Limits, describe, json_depth, loads
from agentproto.llm.errors import KNOWN_ERROR_CODES
from agentproto.llm.events import (
    EVENT_TYPES,
    FinalCandidate,
    Metadata,
    PartialContentDelta,
    PartialToolCall,
    StreamEnd,
    StreamError,
    StreamEvent,
    ThinkingDelta,
    ToolCallEnded,
    ToolCallStarted,
)
from agentproto.llm.paths import (
    MISSING,
    ExpressionError,
    Getter,
    Match,
    Missing,
    Scope,
    Segment,
    common_scope,
    compile_match,
    compile_path,
    parse_path,
    section,
)
from agentproto.llm.problems import ManifestError
from agentproto.llm.rules import CompiledFrame, FrameRule, compile_frame

__all__ = [
    "REASON_DEFAULTS",
    "STANDARD_REASONS",
    "IncompleteStreamError",
    "StreamDecoder",
    "StreamFormatError",
    "StreamProgram",
    "compile_stream",
    "map_reason",
]

STANDARD_REASONS = frozenset(
    {
        "end_turn",
        "max_tokens",
        "stop_sequence",
        "tool_use",
        "refusal",
        "pause_turn",
        "content_filter",
        "other",
    }
)
GENERATE_ID = "_generate_uuid"

_ANY = frozenset[str]()  # Metadata and StreamError keep unknown fields (in ``extra``)
KNOWN_FIELDS: Mapping[str, frozenset[str]] = {
    "PartialContentDelta": frozenset({"content", "candidate_index"}),
    "ThinkingDelta": frozenset({"thinking", "candidate_index"}),
    "ToolCallStarted": frozenset(
        {"tool_call_id", "tool_name", "index", "arguments", "candidate_index"}
    ),
    "PartialToolCall": frozenset(
        {
            "arguments",
            "index",
            "tool_name",
            "tool_call_id",
            "candidate_index",
            "tool_calls",  # a list of OpenAI-format tool-call deltas (v2 manifests)
            "tool_call",  # one call object: {name, args | arguments, id?} (v2 gemini)
        }
    ),
    "ToolCallEnded": frozenset({"index", "tool_call_id", "candidate_index"}),
    "FinalCandidate": frozenset({"finish_reason", "candidate_index", "usage"}),
    "StreamEnd": frozenset({"finish_reason", "usage"}),
    "Metadata": _ANY,
    "StreamError": _ANY,
}
"""The field names each event rule may fill (``fields`` / ``extract``); a rule naming another
is refused when the manifest is compiled, since the client would read nothing from it."""
FIELD_ALIASES: Mapping[str, str] = {"partial_json": "arguments"}
"""Other names manifests use for a field (v2's ``partial_json``)."""
EVENT_ALIASES: Mapping[str, str] = {"UsageReport": "Metadata"}
"""Other names manifests use for an event (v2's ``UsageReport``)."""


class IncompleteStreamError(APIConnectionError):
    """The body ended before the stream said it was complete (no done signal, no stop)."""


class StreamFormatError(ResponseValidationError):
    """The stream's bytes cannot be read as its format says: a frame that is not UTF-8, or
    JSON nested deeper than ``Limits.max_json_depth``. ``body`` holds (the start of) the
    frame."""

    def __init__(self, message: str, body: bytes = b"") -> None:
        super().__init__(message, status_code=200, body=body)


_OPENAI_REASONS = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "content_filter": "refusal",
}
REASON_DEFAULTS: Mapping[str, Mapping[str, str]] = {
    "openai_style": _OPENAI_REASONS,
    "ai21_style": _OPENAI_REASONS,
    "cohere_v2": {
        "COMPLETE": "end_turn",
        "MAX_TOKENS": "max_tokens",
        "STOP_SEQUENCE": "stop_sequence",
        "TOOL_CALL": "tool_use",
    },
    "gemini_style": {
        "STOP": "end_turn",
        "MAX_TOKENS": "max_tokens",
        "SAFETY": "refusal",
        "RECITATION": "refusal",
    },
}
"""Standard reasons by payload format, under the manifest's ``termination.mapping`` (a
manifest without one still says ``end_turn`` for OpenAI's ``stop``)."""


def _payload_format(manifest: Mapping[str, Any]) -> str:
    return str(
        manifest.get("payload_format")
        or section(manifest, "auth").get("payload_format")
        or manifest.get("response_format")
        or "openai_style"
    )


def map_reason(mapping: Mapping[str, str], raw: JSONValue | Missing) -> str | None:
    """A provider's finish/stop reason as a standard one (``other`` when unknown)."""
    if raw is None or raw is MISSING:
        return None
    text = str(raw)
    found = mapping.get(text)
    if found is not None:
        return found
    return text if text in STANDARD_REASONS else "other"


# -- compiled program -------------------------------------------------------------------------


class _Field:
    """One field of an event rule: a compiled path, or a literal (``get`` None)."""

    __slots__ = ("get", "literal", "name")

    def __init__(self, name: str, get: Getter | None, literal: JSONValue = None) -> None:
        self.name = name
        self.get = get
        self.literal = literal

    def value(self, frame: JSONValue, bound: Sequence[JSONValue]) -> JSONValue | Missing:
        if self.get is None:
            return self.literal
        return self.get(frame, bound)


class _Rule:
    """One compiled ``event_map`` entry (plain slotted classes: nothing to build at import)."""

    __slots__ = ("candidate", "content", "emit", "fields", "match", "scope", "slot")

    def __init__(
        self,
        *,
        emit: str,
        scope: Scope,
        match: Match,
        fields: tuple[_Field, ...],
        candidate: Getter | None,  # the candidate index under this rule's scope
        slot: int = -1,  # the scope's place in StreamProgram.scopes (-1: the frame itself)
        content: Getter | None = None,  # a PartialContentDelta rule's only field, read directly
    ) -> None:
        self.emit = emit
        self.scope = scope
        self.match = match
        self.fields = fields
        self.candidate = candidate
        self.slot = slot
        self.content = content


@dataclass(frozen=True)
class StreamProgram:
    """A manifest's streaming section, compiled."""

    decoder_format: str
    delimiter: bytes
    prefix: bytes
    done_signal: str | None
    selector: Match | None
    rules: tuple[_Rule, ...]
    stop: Match | None
    flush_on: Match | None
    fan_out: bool
    reasons: Mapping[str, str]
    input_format: str
    error_status: Mapping[str, str] = field(default_factory=dict[str, str])
    error_code: Mapping[str, str] = field(default_factory=dict[str, str])
    http_status: Mapping[str, str] = field(default_factory=dict[str, str])
    scopes: tuple[Scope, ...] = ()  # the rules' distinct scopes, bound once per frame
    frame: CompiledFrame | None = None  # selector, rules and stop as one function (rules.py)


def compile_stream(manifest: Mapping[str, Any], source: str) -> StreamProgram:
    """Compile ``manifest["streaming"]``; a bad expression is a :class:`ManifestError`."""
    streaming = section(manifest, "streaming")
    decoder = section(streaming, "decoder")
    where = "/streaming"

    def expr(text: str, pointer: str, scope: Scope | None = None) -> Match:
        try:
            return compile_match(text, scope)
        except ExpressionError as exc:
            raise ManifestError(source, pointer, exc.reason) from None

    candidate = section(streaming, "candidate")
    candidate_path: tuple[Segment, ...] | None = None
    if candidate.get("candidate_id_path"):
        try:
            candidate_path = parse_path(candidate["candidate_id_path"])
        except ExpressionError as exc:
            raise ManifestError(
                source, f"{where}/candidate/candidate_id_path", exc.reason
            ) from None
    fan_out = bool(candidate.get("fan_out"))

    rules: list[_Rule] = []
    specs_for_frame: list[FrameRule] = []
    slots: dict[tuple[Segment, ...], int] = {}
    scopes: dict[int, Scope] = {}
    event_map: Sequence[Mapping[str, Any]] | None = streaming.get("event_map")
    if event_map is None:
        event_map = _fallback_rules(manifest)
        map_where = f"{where} (content_path, tool_call_path, usage_path)"
    else:
        map_where = f"{where}/event_map"
    if _payload_format(manifest) in ("openai_style", "ai21_style") and not any(
        EVENT_ALIASES.get(e["emit"], e["emit"]) == "ThinkingDelta" for e in event_map
    ):
        # OpenAI-compatible reasoning deltas (deepseek's reasoning_content, OpenRouter's and
        # groq's reasoning) that the manifests do not map: surfaced, not dropped.
        event_map = [*event_map, *_OPENAI_REASONING]
    if decoder.get("format") == "anthropic_sse":
        # Anthropic sends the input token count in message_start only; the manifests map
        # message_delta's usage (output tokens). Read both: the collector merges them.
        event_map = [*event_map, _ANTHROPIC_START]
    for i, entry in enumerate(event_map):
        pointer = f"{map_where}/{i}" if "(" not in map_where else map_where
        emit = EVENT_ALIASES.get(entry["emit"], entry["emit"])
        if emit not in EVENT_TYPES:
            raise ManifestError(source, f"{pointer}/emit", f"unknown event {entry['emit']!r}")
        specs: dict[str, Any] = {}
        known = KNOWN_FIELDS[emit]
        for key in ("fields", "extract"):
            for name, value in section(entry, key).items():
                name = FIELD_ALIASES.get(name, name)
                if known and name not in known:
                    raise ManifestError(
                        source,
                        f"{pointer}/{key}/{name}",
                        f"{emit} has no field {name!r} (it reads: {', '.join(sorted(known))})",
                    )
                specs[name] = value
        paths = [v for v in specs.values() if _is_path(v)]
        try:
            scope = common_scope(paths)
            fields = tuple(
                _Field(name, scope.getter(v)[0]) if _is_path(v) else _Field(name, None, v)
                for name, v in specs.items()
            )
        except ExpressionError as exc:
            raise ManifestError(source, f"{pointer}/fields", exc.reason) from None
        slot = -1
        if scope:
            slot = slots.setdefault(scope.segments, len(slots))
            scopes.setdefault(slot, scope)
        only = fields[0] if len(fields) == 1 else None
        is_text = emit == "PartialContentDelta" and only is not None and only.name == "content"
        rule = _Rule(
            emit=emit,
            scope=scope,
            match=expr(entry["match"], f"{pointer}/match", scope),
            fields=fields,
            candidate=_candidate_getter(scope, candidate_path) if fan_out else None,
            slot=slot,
            content=only.get if is_text and only is not None else None,
        )
        rules.append(rule)
        specs_for_frame.append(
            FrameRule(
                emit=emit,
                match_text=entry["match"],
                match=rule.match,
                scope=scope,
                rule=rule,
                content=parse_path(specs["content"]) if rule.content is not None else None,
                content_get=rule.content,
                candidate=(
                    _candidate_rest(scope, candidate_path) if rule.candidate is not None else None
                ),
                candidate_get=rule.candidate,
            )
        )

    accumulator = section(streaming, "accumulator")
    tool_use = section(manifest, "tooling", "tool_use")
    done = decoder.get("done_signal")
    program = StreamProgram(
        decoder_format=str(decoder.get("format", "sse")),
        delimiter=str(decoder.get("delimiter") or "\n\n").encode(),
        prefix=str(
            decoder.get("prefix") if decoder.get("prefix") is not None else "data: "
        ).encode(),
        done_signal=str(done) if done else None,
        selector=(
            expr(streaming["frame_selector"], f"{where}/frame_selector")
            if streaming.get("frame_selector")
            else None
        ),
        rules=tuple(rules),
        stop=(
            expr(streaming["stop_condition"], f"{where}/stop_condition")
            if streaming.get("stop_condition")
            else None
        ),
        flush_on=(
            expr(accumulator["flush_on"], f"{where}/accumulator/flush_on")
            if accumulator.get("flush_on")
            else None
        ),
        fan_out=fan_out,
        reasons={
            **REASON_DEFAULTS.get(_payload_format(manifest), {}),
            **section(manifest, "termination", "mapping"),
        },
        input_format=str(tool_use.get("input_format", "json_string")),
        error_status=dict(section(manifest, "error_classification", "by_error_status")),
        error_code=dict(section(manifest, "error_classification", "by_error_code")),
        http_status={
            str(k): str(v)
            for k, v in section(manifest, "error_classification", "by_http_status").items()
        },
        scopes=tuple(scopes[i] for i in range(len(scopes))),
    )
    frame = compile_frame(
        selector=_pair(streaming.get("frame_selector"), program.selector),
        rules=specs_for_frame,
        flush_on=_pair(accumulator.get("flush_on"), program.flush_on),
        stop=_pair(streaming.get("stop_condition"), program.stop),
        stops_stream=program.done_signal is None,
        env=_FRAME_ENV,
    )
    return dataclasses.replace(program, frame=frame)


def _pair(text: object, match: Match | None) -> tuple[str, Match] | None:
    return (str(text), match) if match is not None else None


_OPENAI_REASONING: tuple[Mapping[str, Any], ...] = tuple(
    {
        "match": f"exists($.choices[*].delta.{key})",
        "emit": "ThinkingDelta",
        "fields": {"thinking": f"$.choices[*].delta.{key}"},
    }
    for key in ("reasoning_content", "reasoning")
)
_ANTHROPIC_START: Mapping[str, Any] = {
    "match": "$.type == 'message_start'",
    "emit": "Metadata",
    "fields": {"usage": "$.message.usage"},
}


def _is_path(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and value.startswith("$") and value != GENERATE_ID


def _candidate_rest(
    scope: Scope, candidate_path: tuple[Segment, ...] | None
) -> tuple[Segment, ...] | None:
    """The candidate index's path from the scope's first ``[*]`` element (see below)."""
    if candidate_path is None or not scope.levels:
        return None
    first = scope.levels[0]
    if candidate_path[: len(first)] != first:
        return None
    return candidate_path[len(first) :]


def _candidate_getter(scope: Scope, candidate_path: tuple[Segment, ...] | None) -> Getter | None:
    """Where the candidate index is, relative to the scope's first ``[*]`` (when the scope
    walks the candidates list)."""
    if candidate_path is None or not scope.levels:
        return None
    first = scope.levels[0]
    if candidate_path[: len(first)] != first:
        return None
    rest = compile_path("$" + "".join(_segment_text(s) for s in candidate_path[len(first) :]))
    get = rest.first
    return lambda frame, bound: get(bound[0])


def _segment_text(segment: Segment) -> str:
    if isinstance(segment, str):
        return f".{segment}"
    if isinstance(segment, int):
        return f"[{segment}]"
    return "[*]"


def _fallback_rules(manifest: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Event rules for a manifest that only names ``content_path`` and friends."""
    streaming = section(manifest, "streaming")
    rules: list[dict[str, Any]] = []

    def absolute(path: str) -> str:
        return path if path.startswith("$") else "$." + path

    if streaming.get("content_path"):
        content = absolute(streaming["content_path"])
        rules.append(
            {
                "match": f"exists({content})",
                "emit": "PartialContentDelta",
                "fields": {"content": content},
            }
        )
    if streaming.get("tool_call_path"):
        calls = absolute(streaming["tool_call_path"]) + "[*]"
        tool_use = section(manifest, "tooling", "tool_use")
        id_path = f"{calls}.{tool_use.get('id_path', 'id')}"
        name_path = f"{calls}.{tool_use.get('name_path', 'function.name')}"
        args_path = f"{calls}.{tool_use.get('input_path', 'function.arguments')}"
        index_path = f"{calls}.{tool_use.get('index_path', 'index')}"
        rules.append(
            {
                "match": f"exists({name_path})",
                "emit": "ToolCallStarted",
                "fields": {"tool_call_id": id_path, "tool_name": name_path, "index": index_path},
            }
        )
        rules.append(
            {
                "match": f"exists({args_path})",
                "emit": "PartialToolCall",
                "fields": {"arguments": args_path, "index": index_path},
            }
        )
    if streaming.get("usage_path"):
        usage = absolute(streaming["usage_path"])
        rules.append({"match": f"exists({usage})", "emit": "Metadata", "fields": {"usage": usage}})
    stop: str | None = streaming.get("stop_condition")
    if stop:
        fields: dict[str, str] = {}
        try:
            parse_path(stop)
            fields["finish_reason"] = absolute(stop)
        except ExpressionError:
            pass
        rules.append({"match": stop, "emit": "FinalCandidate", "fields": fields})
    return rules


# -- one stream ------------------------------------------------------------------------------


class _Call:
    __slots__ = ("args", "candidate", "id", "index", "name", "obj")

    def __init__(self, id: str, name: str, index: int, candidate: int) -> None:
        self.id = id
        self.name = name
        self.index = index
        self.candidate = candidate
        self.args: list[str] = []
        self.obj: JSONValue = None  # arguments that came as a JSON object


class StreamDecoder:
    """The state of one stream: ``feed(chunk)`` -> events; ``end_of_body()`` when the body
    ends; then ``finish()``. ``error`` is the provider's in-stream error once one came (the
    decoder reads nothing after it)."""

    def __init__(self, program: StreamProgram, limits: Limits = DEFAULT_LIMITS) -> None:
        self.program = program
        self.done: bool = False  # the done signal (or an error) arrived: read nothing more
        self.stopped: bool = False  # the stop condition held
        self.error: StreamError | None = None
        self._saw_done = False  # the parser met the done signal (frames before it still count)
        self._failed: ResponseValidationError | None = None  # raised at the next call
        self._max_frame = limits.max_sse_event_bytes
        self._max_depth = limits.max_json_depth
        # An unfinished frame's bytes, kept as the pieces they came in (joined once, when the
        # frame ends: joining at every chunk made a big frame cost quadratic time).
        self._parts: list[bytes] = []
        self._size = 0
        self._tail = b""  # the last len(delimiter) - 1 bytes buffered (a delimiter may straddle)
        self._hold_cr = False
        # gemini_json: text decoded incrementally, and the scan of the element in progress.
        self._utf8 = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self._scan = _ArrayScanner()
        self._calls: dict[tuple[int, int], _Call] = {}
        self._last_call: dict[int, _Call] = {}
        self._started: dict[int, int] = {}  # calls started per candidate
        self._bound_calls: dict[int, _Call] = {}  # this frame's calls, by the element read
        self._finish: dict[int, tuple[str | None, str | None]] = {}
        self._end_literal: str | None = None
        self._closed = False
        # The frame's work: the program's compiled function (rules.py), which does what
        # _frame_interpreted does.
        self._run: Callable[[StreamDecoder, JSONObject, list[StreamEvent]], None] = (
            program.frame.run if program.frame is not None else StreamDecoder._frame_interpreted
        )
        self._parse: Callable[[bytes], Iterator[JSONObject]] = {
            "cohere_native": self._lines,
            "gemini_json": self._json_array,
        }.get(program.decoder_format, self._sse)
        self._sse_frames = self._parse == self._sse  # (feed()'s fast path for one frame)
        done_signal = program.done_signal
        self._done_bytes = done_signal.encode() if done_signal is not None else None

    # -- bytes -> frames --------------------------------------------------------------------

    def feed(self, chunk: bytes) -> list[StreamEvent]:
        if self._failed is not None:
            raise self._failed
        if self.done or not chunk:
            return []
        out: list[StreamEvent] = []
        # Frames are made one at a time and each is read before the next is made: what a
        # frame does (a done signal, a stop, an error) never depends on the frames after it
        # in the same chunk, so the events never depend on how the body was cut. A frame
        # that cannot be read fails the stream after the events before it are handed on.
        try:
            run = self._run
            delimiter = self.program.delimiter
            if (
                self._sse_frames
                and not self._parts
                and not self._hold_cr
                and chunk.endswith(delimiter)
                and chunk.find(delimiter) == len(chunk) - len(delimiter)
                and b"\r" not in chunk
            ):
                # One whole frame, as streaming APIs send them (one HTTP chunk per event):
                # what _sse() does, without a generator for one frame.
                frame = self._sse_frame(chunk[: -len(delimiter)])
                if frame is not None and frame is not _DONE:
                    run(self, frame, out)
            else:
                for frame in self._parse(chunk):
                    run(self, frame, out)
                    if self.done:  # the stop condition ended a stream with no done signal
                        break
            if self._saw_done:
                self.done = True
            if not self.done and max(self._size, self._scan.size) > self._max_frame:
                self._check_pending()
        except (ResponseTooLargeError, StreamFormatError) as exc:
            if not out:
                raise
            self._failed = exc
        return out

    def _raise_failed(self) -> None:
        if self._failed is not None:
            raise self._failed

    def _check_pending(self) -> None:
        """Refuse an unfinished frame past the limit (checked once the frames before it were
        read, and at every chunk: memory stays within the limit and one chunk)."""
        if self.program.decoder_format == "gemini_json":
            size, slack = self._scan.size, 0
        else:
            size, slack = self._size, len(self._delimiter()) - 1  # a delimiter's start
        if size > self._max_frame + slack:
            self._parts, self._size, self._tail = [], 0, b""
            self._scan.reset()
            raise self._too_large(size)

    def _delimiter(self) -> bytes:
        if self.program.decoder_format == "cohere_native":
            return b"\n"
        return self.program.delimiter

    def _frame_bytes(self, chunk: bytes, delimiter: bytes) -> list[bytes]:
        """The frames ``chunk`` completes (split on ``delimiter``); what is left is kept.
        An unfinished frame's bytes are kept as the pieces they came in and joined once, when
        it ends (joining them at every chunk made a big frame cost quadratic time)."""
        if self._parts:
            if delimiter not in self._tail + chunk:
                self._keep(chunk, len(delimiter))
                return []
            self._parts.append(chunk)
            chunk = b"".join(self._parts)
            self._parts, self._size, self._tail = [], 0, b""
        elif delimiter not in chunk:
            self._keep(chunk, len(delimiter))
            return []
        frames = chunk.split(delimiter)
        rest = frames.pop()
        self._keep(rest, len(delimiter))
        return frames

    def _keep(self, piece: bytes, width: int) -> None:
        if not piece:
            return
        self._parts.append(piece)
        self._size += len(piece)
        if width > 1:
            self._tail = (self._tail + piece)[-(width - 1) :]

    def _too_large(self, size: int) -> ResponseTooLargeError:
        limit = self._max_frame
        return ResponseTooLargeError(
            f"a stream frame is larger than {describe('max_sse_event_bytes', limit)} "
            "(Limits.max_sse_event_bytes; raise it with limits=Limits(max_sse_event_bytes=...) "
            "if this is expected)",
            status_code=200,
            body=b"",
            limit="max_sse_event_bytes",
            value=limit,
            size=size,
        )

    def _text(self, data: bytes) -> str:
        try:
            return data.decode()
        except UnicodeDecodeError as exc:
            raise StreamFormatError(
                f"a stream frame is not UTF-8 ({exc.reason} at byte {exc.start}): its text "
                "cannot be read",
                data[:1024],
            ) from None

    def _json(self, text: str) -> JSONValue | None:
        """The frame's JSON, or ``None`` when it is not JSON (kept as text by the caller)."""
        depth = self._max_depth
        if text.count("[") + text.count("{") > depth and json_depth(text) > depth:
            raise StreamFormatError(
                f"a stream frame holds JSON nested deeper than Limits.max_json_depth ({depth})",
                text[:1024].encode(),
            )
        try:
            return _DECODE(text)
        except ValueError:
            return None
        except RecursionError:  # deeper than the parser goes, within a raised limit
            raise StreamFormatError(
                "a stream frame holds JSON nested too deeply to parse", text[:1024].encode()
            ) from None

    def _sse(self, chunk: bytes) -> Iterator[JSONObject]:
        if self._hold_cr:
            chunk = b"\r" + chunk
            self._hold_cr = False
        if b"\r" in chunk:
            if chunk.endswith(b"\r"):
                self._hold_cr = True
                chunk = chunk[:-1]
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        for part in self._frame_bytes(chunk, self.program.delimiter):
            frame = self._sse_frame(part)
            if frame is _DONE:
                return
            if frame is not None:
                yield frame

    def _sse_frame(self, part: bytes) -> JSONObject | None:
        """One SSE block (delimiter removed) as a frame; ``None`` for a block without data;
        :data:`_DONE` for the done signal (which :attr:`_saw_done` then says)."""
        if len(part) > self._max_frame:
            raise self._too_large(len(part))
        program = self.program
        prefix = program.prefix
        event: str | None = None
        if part.startswith(prefix) and b"\n" not in part:
            data = part[len(prefix) :]
        else:
            found: bytes | None = None
            if part.startswith(b"event:"):  # Anthropic's shape: one event line, one data line
                end = part.find(b"\n")
                if end > 0 and part.startswith(prefix, end + 1) and b"\n" not in part[end + 1 :]:
                    try:
                        event = part[6:end].decode().strip()
                    except UnicodeDecodeError:
                        pass  # _block() raises, with the reason
                    else:
                        found = part[end + 1 + len(prefix) :]
            if found is None:
                found, event = self._block(part)
                if found is None:
                    return None
            data = found
        done = program.done_signal
        if done is not None and (data == self._done_bytes or event == done):
            self._saw_done = True
            return _DONE
        # _text() and _json(), inlined: this is the hot path.
        try:
            text = data.decode()
        except UnicodeDecodeError:
            text = self._text(data)  # raises, with the reason
        frame: JSONValue
        if text.count("[") + text.count("{") > self._max_depth:
            frame = self._json(text)  # nesting checked there
        else:
            try:  # decode(), minus its two whitespace scans when there is none
                frame, end = _SCAN(text, 0)
                if end != len(text):  # something after the value: decode() says what
                    frame = _DECODE(text)
            except StopIteration:  # no value at 0 (leading whitespace, or not JSON)
                try:
                    frame = _DECODE(text)
                except ValueError:
                    frame = None
            except ValueError:
                frame = None
        if type(frame) is not dict:
            return {"event": event or "message", "data": text}
        if event == "error" and "error" not in frame and frame.get("type") != "error":
            return {"event": "error", "data": frame}  # ``event: error`` with other JSON
        return frame

    def _block(self, part: bytes) -> tuple[bytes | None, str | None]:
        """The data and event name of one block with several lines (or an odd prefix)."""
        prefix = self.program.prefix
        loose = prefix.rstrip()
        data: list[bytes] = []
        event: str | None = None
        for line in part.split(b"\n"):
            if line.startswith(prefix):
                data.append(line[len(prefix) :])
            elif loose and line.startswith(loose):
                data.append(line[len(loose) :].lstrip(b" "))
            elif line.startswith(b"event:"):
                event = self._text(line[6:]).strip()
        if not data:
            return None, event
        return b"\n".join(data), event

    def _lines(self, chunk: bytes) -> Iterator[JSONObject]:
        done = self.program.done_signal
        done_bytes = done.encode() if done is not None else None
        limit = self._max_frame
        for line in self._frame_bytes(chunk, b"\n"):
            if len(line) > limit:
                raise self._too_large(len(line))
            line = line.strip()
            if not line:
                continue
            if done_bytes is not None and line == done_bytes:
                self._saw_done = True
                return
            text = self._text(line)
            frame = self._json(text)
            if frame is None:
                yield {"event": "message", "data": text}
            else:
                yield frame if isinstance(frame, dict) else {"event": "message", "data": frame}

    def _json_array(self, chunk: bytes, final: bool = False) -> Iterator[JSONObject]:
        # Bytes that are not UTF-8 become lone surrogates here (so the text around them is
        # still read, in order); the element holding one raises when its turn comes.
        text = self._utf8.decode(chunk, final)
        if final:
            text += "\n"  # a top-level scalar ends at its separator
        limit = self._max_frame
        for element in self._scan.feed(text):
            if len(element) > limit:
                raise self._too_large(len(element))
            try:
                element.encode()
            except UnicodeEncodeError as exc:
                raw = element.encode("utf-8", "surrogateescape")
                raise StreamFormatError(
                    f"a stream element is not UTF-8 (byte {exc.start}): its text cannot be read",
                    raw[:1024],
                ) from None
            value = self._json(element)
            if value is None:
                yield {"event": "message", "data": element}
            else:
                yield value if isinstance(value, dict) else {"event": "message", "data": value}

    # -- frames -> events -------------------------------------------------------------------

    def _frame_interpreted(self, frame: JSONObject, out: list[StreamEvent]) -> None:
        """One frame's work, read from the program's closures: the reference semantics of
        the compiled function (``program.frame``, see :mod:`agentproto.llm.rules`) that
        streams use; ``tests/test_llm_rules.py`` holds the two to the same events."""
        program = self.program
        if program.selector is not None and not program.selector(frame, ()):
            # Frames the selector drops are skipped, except an error (anthropic's selector
            # lists no ``error`` event): the provider's message must reach the caller.
            if _is_error_frame(frame):
                out.append(self._error(_error_values(frame)))
            return
        ended_before = len(out)
        if self._bound_calls:
            self._bound_calls.clear()
        scopes = program.scopes
        bound_by_scope: list[list[tuple[JSONValue, ...]] | None] = [None] * len(scopes)
        for rule in program.rules:
            slot = rule.slot
            if slot < 0:
                if rule.match(frame, ()):
                    self._emit(rule, frame, (), out)
                continue
            bindings = bound_by_scope[slot]
            if bindings is None:  # each scope walked once per frame, whatever its rules
                bindings = bound_by_scope[slot] = scopes[slot].bind_list(frame)
            for bound in bindings:
                if rule.match(frame, bound):
                    self._emit(rule, frame, bound, out)
        if self.error is None and _is_error_frame(frame):
            out.append(self._error(_error_values(frame)))  # no rule of the map took it
        if program.flush_on is not None and program.flush_on(frame, ()):
            if not any(isinstance(e, ToolCallEnded) for e in out[ended_before:]):
                self._flush_candidate(0, out)
        if program.stop is not None and program.stop(frame, ()):
            self.stopped = True
            if program.done_signal is None:
                self.done = True

    def _emit(
        self, rule: _Rule, frame: JSONObject, bound: Sequence[JSONValue], out: list[StreamEvent]
    ) -> None:
        candidate = 0
        if rule.candidate is not None:
            found = rule.candidate(frame, bound)
            if type(found) is int:
                candidate = found
        content = rule.content
        if content is not None:  # the hot path: a text delta
            text = content(frame, bound)
            if type(text) is str:
                if text:
                    if bound and type(part := bound[-1]) is dict and part.get("thought") is True:
                        out.append(ThinkingDelta(text, candidate))  # a gemini thought part
                    else:
                        out.append(PartialContentDelta(text, candidate))
                return
        values: JSONObject = {}
        for f in rule.fields:
            value = f.value(frame, bound)
            if value is not MISSING:
                values[f.name] = value
        if rule.candidate is None:
            found = values.get("candidate_index")
            if isinstance(found, int):
                candidate = found
        kind = rule.emit
        if kind == "PartialContentDelta":
            text = values.get("content")
            if isinstance(text, str):
                if text:
                    out.append(PartialContentDelta(text, candidate))
            elif isinstance(text, list):
                self._content_parts(text, candidate, out)
        elif kind == "ThinkingDelta":
            text = values.get("thinking")
            if isinstance(text, str) and text:
                out.append(ThinkingDelta(text, candidate))
        elif kind == "ToolCallStarted":
            self._start_call(values, candidate, out, bound)
        elif kind == "PartialToolCall":
            self._partial_call(values, candidate, out, bound)
        elif kind == "ToolCallEnded":
            self._flush_call(candidate, values.get("index"), out)
        elif kind == "Metadata":
            out.append(self._metadata(values, candidate))
        elif kind == "FinalCandidate":
            raw = values.get("finish_reason")
            reason = map_reason(self.program.reasons, raw) or "other"
            self._flush_candidate(candidate, out)
            if reason == "end_turn" and self._started.get(candidate):
                reason = "tool_use"  # gemini says STOP after a function call
            raw_text = None if raw is None else str(raw)
            self._finish[candidate] = (reason, raw_text)
            usage = values.get("usage")
            out.append(
                FinalCandidate(
                    reason, raw_text, candidate, usage if isinstance(usage, dict) else None
                )
            )
        elif kind == "StreamEnd":
            literal = values.get("finish_reason")
            self._end_literal = str(literal) if literal is not None else None
            usage = values.get("usage")
            if isinstance(usage, dict):  # v2 manifests put the usage on the end event
                out.append(Metadata(usage=usage, candidate_index=candidate))
            self.stopped = True
        elif kind == "StreamError":
            out.append(self._error(values))

    def _content_parts(
        self, parts: list[JSONValue], candidate: int, out: list[StreamEvent]
    ) -> None:
        """Content sent as a list of typed parts (mistral's reasoning models): text parts are
        content, ``thinking`` parts thinking; any other part is kept in a ``Metadata``."""
        for part in parts:
            if isinstance(part, str):
                if part:
                    out.append(PartialContentDelta(part, candidate))
                continue
            if not isinstance(part, dict):
                continue
            kind = part.get("type", "text")
            if kind == "text" and isinstance(part.get("text"), str):
                if part["text"]:
                    out.append(PartialContentDelta(str(part["text"]), candidate))
            elif kind == "thinking":
                thinking = part.get("thinking")
                text = _joined_text(thinking)
                if text:
                    out.append(ThinkingDelta(text, candidate))
            else:
                out.append(Metadata(candidate_index=candidate, extra={"content_part": part}))

    def _metadata(self, values: JSONObject, candidate: int) -> Metadata:
        usage = values.pop("usage", None)
        raw_stop = values.pop("stop_reason", None)
        prompt = values.pop("prompt_tokens", None)
        completion = values.pop("completion_tokens", None)
        stop = map_reason(self.program.reasons, raw_stop)
        if stop is not None and candidate not in self._finish:
            self._finish[candidate] = (stop, str(raw_stop))
        values.pop("candidate_index", None)
        return Metadata(
            usage=usage if isinstance(usage, dict) else None,
            prompt_tokens=prompt if isinstance(prompt, int) else None,
            completion_tokens=completion if isinstance(completion, int) else None,
            stop_reason=stop,
            raw_stop_reason=None if raw_stop is None else str(raw_stop),
            candidate_index=candidate,
            extra=values,
        )

    def _error(self, values: JSONObject) -> StreamError:
        """The provider's error; the stream ends with it (nothing after it is read)."""
        error = values.pop("error", None)
        message = ""
        code: JSONValue = None
        kind: JSONValue = None
        status: JSONValue = None
        if isinstance(error, dict):
            message = str(error.get("message", ""))
            code = error.get("code")
            kind = error.get("type")
            status = error.get("status")
        elif error is not None:
            message = str(error)
        program = self.program
        error_class: str | None = None
        if status is not None:
            error_class = program.error_status.get(str(status))
        for name in (code, kind):
            if error_class is None and isinstance(name, str):
                error_class = program.error_code.get(name)
        for name in (code, kind, status):  # upstream's provider codes, as for an error answer
            if error_class is None and isinstance(name, str):
                error_class = KNOWN_ERROR_CODES.get(name)
        if error_class is None and isinstance(code, int):
            error_class = program.http_status.get(str(code))
        found = StreamError(
            message or "the provider reported an error in the stream",
            error,
            error_class or "other",
            None if code is None and kind is None else str(code if code is not None else kind),
            values,
            None if kind is None else str(kind),
        )
        if self.error is None:
            self.error = found
        self.done = True
        return found

    # -- tool calls -------------------------------------------------------------------------

    def _start_call(
        self,
        values: JSONObject,
        candidate: int,
        out: list[StreamEvent],
        bound: Sequence[JSONValue] = (),
    ) -> _Call:
        index = values.get("index")
        given = values.get("tool_call_id")
        call_id = given if isinstance(given, str) and given and given != GENERATE_ID else None
        call: _Call | None
        if isinstance(index, int):
            call = self._calls.get((candidate, index))
        else:
            last = self._last_call.get(candidate)
            call = last if last is not None and call_id is not None and last.id == call_id else None
            index = call.index if call is not None else self._started.get(candidate, 0)
        if call is not None and (call_id is None or call_id == call.id):
            # The open call again: some servers repeat its id and name in every chunk.
            name = values.get("tool_name")
            if not call.name and isinstance(name, str):
                call.name = name
        else:
            if call is not None:  # a new id at an open call's index: the first one is done
                self._flush_call(candidate, index, out)
            call = _Call(
                call_id or f"call_{uuid.uuid4().hex[:24]}",
                str(values.get("tool_name") or ""),
                index,
                candidate,
            )
            self._calls[(candidate, index)] = call
            self._started[candidate] = self._started.get(candidate, 0) + 1
            out.append(ToolCallStarted(call.id, call.name, index, candidate))
        self._last_call[candidate] = call
        if bound:
            self._bound_calls[id(bound[-1])] = call
        if "arguments" in values:  # a start that carries its arguments (baidu, str-007)
            self._add_arguments(call, values["arguments"], out)
        return call

    def _partial_call(
        self,
        values: JSONObject,
        candidate: int,
        out: list[StreamEvent],
        bound: Sequence[JSONValue] = (),
    ) -> None:
        deltas = values.get("tool_calls")
        if isinstance(deltas, list):  # OpenAI-format deltas read whole (v2 manifests)
            for delta in deltas:
                if isinstance(delta, dict):
                    self._delta(delta, candidate, out)
        one = values.get("tool_call")
        if isinstance(one, dict):  # a whole call object (v2 gemini's functionCall)
            args = one.get("args", one.get("arguments"))
            self._start_call(
                {
                    "tool_name": one.get("name"),
                    "tool_call_id": one.get("id"),
                    **({"arguments": args} if args is not None else {}),
                },
                candidate,
                out,
            )
        args = values.get("arguments")
        if args is None:
            return
        index = values.get("index")
        call: _Call | None = None
        if isinstance(index, int):
            call = self._calls.get((candidate, index))
        elif bound:  # the call started from the same element of this frame (gemini parts)
            call = self._bound_calls.get(id(bound[-1]))
        if call is None:
            call = self._last_call.get(candidate)
        if call is None:  # arguments before any start: open an anonymous call
            call = self._start_call(
                {"index": index, "tool_name": values.get("tool_name", "")}, candidate, out
            )
        self._add_arguments(call, args, out)

    def _delta(self, delta: JSONObject, candidate: int, out: list[StreamEvent]) -> None:
        function = delta.get("function")
        fn: JSONObject = function if isinstance(function, dict) else {}
        values: JSONObject = {"index": delta.get("index"), "tool_call_id": delta.get("id")}
        if fn.get("arguments") is not None:
            values["arguments"] = fn["arguments"]
        if fn.get("name"):
            values["tool_name"] = fn["name"]
            self._start_call(values, candidate, out)
        elif "arguments" in values:
            self._partial_call(values, candidate, out)

    def _add_arguments(self, call: _Call, args: JSONValue, out: list[StreamEvent]) -> None:
        if isinstance(args, str):
            if not args:
                return
            call.args.append(args)
            text = args
        elif args is None:
            return
        else:
            call.obj = args
            text = json.dumps(args, ensure_ascii=False)
        out.append(PartialToolCall(text, call.id, call.index, call.candidate))

    def _flush_call(self, candidate: int, index: JSONValue, out: list[StreamEvent]) -> None:
        call = self._calls.pop((candidate, index), None) if isinstance(index, int) else None
        if call is None:
            return
        if self._last_call.get(candidate) is call:
            del self._last_call[candidate]
        out.append(self._ended(call))

    def _flush_candidate(self, candidate: int, out: list[StreamEvent]) -> None:
        for key in sorted(k for k in self._calls if k[0] == candidate):
            out.append(self._ended(self._calls.pop(key)))
        self._last_call.pop(candidate, None)

    def _ended(self, call: _Call) -> ToolCallEnded:
        value: JSONValue
        if call.obj is not None and not call.args:
            text = json.dumps(call.obj, ensure_ascii=False)
            value = call.obj
            error = None
        else:
            text = "".join(call.args)
            value, error = _parse_arguments(text)
        arguments = value if isinstance(value, dict) else None
        if error is None and arguments is None:
            error = f"the arguments are a JSON {type(value).__name__}, not an object"
        return ToolCallEnded(call.id, call.name, text, arguments, call.index, call.candidate, error)

    # -- end --------------------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        return self.done or self.stopped

    def end_of_body(self) -> list[StreamEvent]:
        """The body ended: a last frame that came without its closing delimiter is still read
        (a done signal or a usage chunk there counts), never dropped."""
        self._raise_failed()
        if self.done:
            return []
        if self.program.decoder_format == "gemini_json":
            out: list[StreamEvent] = []
            for frame in self._json_array(b"", final=True):  # what the body's end completes
                self._run(self, frame, out)
                if self.done:
                    break
            return out
        if not any(part.strip() for part in self._parts):
            return []
        return self.feed(self.program.delimiter)

    def finish(self) -> list[StreamEvent]:
        """The events that close the stream (open tool calls, then ``StreamEnd``)."""
        self._raise_failed()
        if self._closed:
            return []
        self._closed = True
        out: list[StreamEvent] = []
        for candidate in sorted({k[0] for k in self._calls}):
            self._flush_candidate(candidate, out)
        reason, raw = self._finish.get(0, (None, None))
        if reason is None and self._end_literal is not None:
            reason = map_reason(self.program.reasons, self._end_literal)
            raw = self._end_literal
        if reason == "end_turn" and self._started.get(0):
            reason = "tool_use"
        out.append(StreamEnd(reason, raw))
        return out


# what _sse_frame() gives for the done signal (compared by identity)
_DONE: dict[str, JSONValue] = {}
_DECODER = json.JSONDecoder()
_DECODE: Callable[[str], JSONValue] = _DECODER.decode  # json.loads minus its checks
_SCAN: Callable[[str, int], tuple[JSONValue, int]] = json.scanner.make_scanner(cast(Any, _DECODER))
"""The scanner ``decode()`` runs (the C one): one value at an index, and where it ends."""


_IN_STRING = re.compile(r'["\\]')
_STRUCTURE = re.compile(r'["{}\[\]]')
_VALUE_START = re.compile(r"[^\s,\[\]]")
_SCALAR_END = re.compile(r"[\s,\[\]]")


class _ArrayScanner:
    """Finds the elements of a streamed JSON array (``[{...},{...}]``) in text that arrives
    in pieces, looking at each character once: strings, nesting and escapes are tracked
    across pieces, and an element is handed on (as its text) as soon as it is complete.
    Between elements, whitespace, commas and brackets are skipped (the array's own)."""

    __slots__ = ("_depth", "_escape", "_in_string", "_parts", "_scalar", "size")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._parts: list[str] = []  # the element in progress
        self.size = 0  # characters of the element in progress
        self._depth = 0  # nesting inside the element (0: between elements, or a scalar)
        self._in_string = False
        self._escape = False  # the previous piece ended with a backslash inside a string
        self._scalar = False  # a number/true/false/null element is in progress

    def pending(self) -> bool:
        return bool(self._parts)

    def feed(self, text: str) -> list[str]:
        out: list[str] = []
        start = 0  # where the element in progress starts in ``text``
        pos = 0
        n = len(text)
        if self._escape and n:
            self._escape = False
            pos = 1
        active = bool(self._parts)
        while pos < n:
            if not active:
                found = _VALUE_START.search(text, pos)
                if found is None:
                    break
                pos = start = found.start()
                active = True
                char = text[pos]
                pos += 1
                if char == "{":
                    self._depth = 1
                elif char == '"':
                    self._in_string = True
                else:
                    self._scalar = True
                continue
            if self._in_string:
                found = _IN_STRING.search(text, pos)
                if found is None:
                    break
                pos = found.start()
                if text[pos] == "\\":
                    if pos + 1 >= n:
                        self._escape = True
                        pos = n
                        break
                    pos += 2
                    continue
                self._in_string = False
                pos += 1
                if self._depth == 0:  # a string element ended
                    out.append(self._take(text, start, pos))
                    active = False
                continue
            if self._scalar:
                found = _SCALAR_END.search(text, pos)
                if found is None:
                    break
                pos = found.start()
                self._scalar = False
                out.append(self._take(text, start, pos))
                active = False
                continue
            found = _STRUCTURE.search(text, pos)
            if found is None:
                break
            pos = found.start()
            char = text[pos]
            pos += 1
            if char == '"':
                self._in_string = True
            elif char in "{[":
                self._depth += 1
            else:
                self._depth -= 1
                if self._depth == 0:
                    out.append(self._take(text, start, pos))
                    active = False
        if active:
            piece = text[start:]
            self._parts.append(piece)
            self.size += len(piece)
        return out

    def _take(self, text: str, start: int, end: int) -> str:
        """The element that ends at ``end`` (its earlier pieces joined once, here)."""
        piece = text[start:end]
        if self._parts:
            self._parts.append(piece)
            piece = "".join(self._parts)
            self._parts, self.size = [], 0
        return piece


def _is_error_frame(frame: JSONObject) -> bool:
    """An error the provider sent in the stream: an ``error`` object, an event of type
    ``error`` (anthropic) or an SSE ``event: error`` whose data is not JSON."""
    return (
        frame.get("error") is not None
        or frame.get("type") == "error"
        or (frame.get("event") == "error" and "data" in frame)
    )


def _error_values(frame: JSONObject) -> JSONObject:
    error = frame.get("error")
    if error is None:
        error = frame.get("data", frame) if frame.get("event") == "error" else frame
    return {"error": error}


def _joined_text(value: JSONValue) -> str:
    """A string, or the text of a list of text parts."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(_joined_text(v) for v in value)
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return str(value["text"])
    return ""


def _parse_arguments(text: str) -> tuple[JSONValue, str | None]:
    if not text.strip():
        return {}, None
    try:
        return loads(text), None
    except ValueError as exc:
        return None, f"the arguments are not valid JSON: {exc}"


_FRAME_ENV: Mapping[str, object] = {
    "PartialContentDelta": PartialContentDelta,
    "ThinkingDelta": ThinkingDelta,
    "ToolCallEnded": ToolCallEnded,
    "error_values": _error_values,
}
"""The names the compiled frame function (:func:`agentproto.llm.rules.compile_frame`) uses."""
