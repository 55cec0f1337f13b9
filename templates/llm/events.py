"""The unified stream events: what ``stream()`` yields, whatever the provider.

A manifest's ``streaming.event_map`` says which provider frame becomes which event; the client
adds what the map cannot say on its own: assembled tool calls (:class:`ToolCallEnded` carries
the parsed input), standard stop reasons (``termination.mapping``), and exactly one
:class:`StreamEnd`, always last. Events are small slotted classes, cheap to make and easy to
``match``::

    for event in stream:
        match event:
            case PartialContentDelta(content=text):
                print(text, end="")
            case ToolCallEnded(tool_name=name, input=args):
                run_tool(name, args)
            case StreamEnd(finish_reason=reason):
                print("\\n", reason)

``candidate_index`` tells candidates apart when a request asks for several (``n``); it is 0
otherwise. ``finish_reason`` / ``stop_reason`` fields hold the standard reason (``end_turn``,
``max_tokens``, ``stop_sequence``, ``tool_use``, ``refusal``, ``pause_turn``, ``other``...);
``raw_*`` keeps what the provider said.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

__all__ = [
    "EVENT_TYPES",
    "FinalCandidate",
    "Metadata",
    "PartialContentDelta",
    "PartialToolCall",
    "StreamEnd",
    "StreamError",
    "StreamEvent",
    "ThinkingDelta",
    "ToolCallEnded",
    "ToolCallStarted",
]


@dataclass(slots=True)
class PartialContentDelta:
    """A piece of the answer's text."""

    content: str
    candidate_index: int = 0
    type: Literal["PartialContentDelta"] = field(default="PartialContentDelta", repr=False)


@dataclass(slots=True)
class ThinkingDelta:
    """A piece of the model's reasoning text (where the provider streams it)."""

    thinking: str
    candidate_index: int = 0
    type: Literal["ThinkingDelta"] = field(default="ThinkingDelta", repr=False)


@dataclass(slots=True)
class ToolCallStarted:
    """The model began calling a tool. ``index`` orders the calls of one candidate."""

    tool_call_id: str
    tool_name: str
    index: int = 0
    candidate_index: int = 0
    type: Literal["ToolCallStarted"] = field(default="ToolCallStarted", repr=False)


@dataclass(slots=True)
class PartialToolCall:
    """A piece of a tool call's arguments (JSON text, joined in order)."""

    arguments: str
    tool_call_id: str
    index: int = 0
    candidate_index: int = 0
    type: Literal["PartialToolCall"] = field(default="PartialToolCall", repr=False)


@dataclass(slots=True)
class ToolCallEnded:
    """A tool call is complete: ``input`` is its parsed arguments.

    ``input`` is ``None`` and ``error`` says why when the arguments are not a JSON object.
    """

    tool_call_id: str
    tool_name: str
    arguments: str
    input: dict[str, Any] | None
    index: int = 0
    candidate_index: int = 0
    error: str | None = None
    type: Literal["ToolCallEnded"] = field(default="ToolCallEnded", repr=False)


@dataclass(slots=True)
class Metadata:
    """Usage and other side information (token counts, a stop reason sent early)."""

    usage: dict[str, Any] | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    stop_reason: str | None = None
    raw_stop_reason: str | None = None
    candidate_index: int = 0
    extra: dict[str, Any] = field(default_factory=dict[str, Any])
    type: Literal["Metadata"] = field(default="Metadata", repr=False)


@dataclass(slots=True)
class FinalCandidate:
    """A candidate finished, for ``finish_reason``."""

    finish_reason: str
    raw_finish_reason: str | None = None
    candidate_index: int = 0
    usage: dict[str, Any] | None = None
    type: Literal["FinalCandidate"] = field(default="FinalCandidate", repr=False)


@dataclass(slots=True)
class StreamEnd:
    """The stream is over (always the last event). ``finish_reason`` is that of candidate 0."""

    finish_reason: str | None = None
    raw_finish_reason: str | None = None
    type: Literal["StreamEnd"] = field(default="StreamEnd", repr=False)


@dataclass(slots=True)
class StreamError:
    """The provider reported an error inside the stream.

    ``error_class`` is the standard class (``rate_limited``, ``overloaded``...) when the error
    names a status, code or type the manifest classifies; ``error`` is the provider's error
    object, ``code`` its code (else its type), ``error_type`` its type. The stream ends with
    it: iterating raises :class:`~agentproto.llm.errors.ProviderStreamError` right after.
    """

    message: str
    error: Any = None
    error_class: str = "other"
    code: str | None = None
    extra: dict[str, Any] = field(default_factory=dict[str, Any])
    error_type: str | None = None
    type: Literal["StreamError"] = field(default="StreamError", repr=False)


StreamEvent: TypeAlias = (
    PartialContentDelta
    | ThinkingDelta
    | ToolCallStarted
    | PartialToolCall
    | ToolCallEnded
    | Metadata
    | FinalCandidate
    | StreamEnd
    | StreamError
)

EVENT_TYPES: dict[str, type[StreamEvent]] = {
    cls.__name__: cls
    for cls in (
        PartialContentDelta,
        ThinkingDelta,
        ToolCallStarted,
        PartialToolCall,
        ToolCallEnded,
        Metadata,
        FinalCandidate,
        StreamEnd,
        StreamError,
    )
}
"""The event classes by the names manifests use in ``event_map[].emit``."""
