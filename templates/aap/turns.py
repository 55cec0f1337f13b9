"""Folding a turn's events into the messages it produced (hand-written, shipped as is).

A streamed turn (``delta`` or ``message`` mode) arrives as events; :func:`fold_events` turns
them into the same shape a ``none`` turn answers with: agent messages and a stop reason.
It tolerates what real servers do: no ``turn_stop`` (``stop_reason`` is then ``None`` and
``complete`` false), a repeated ``turn_stop`` (the first one counts), an empty stream, and
events it does not know (kept in ``unknown_events``).

:class:`IncompleteTurnError` is what the session helper raises for a turn it could not finish
(no ``turn_stop``, or tool calls left unanswered); it carries the partial :class:`TurnResult`.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterable, Iterable
from dataclasses import dataclass, field

from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.streaming import UnknownEvent
from agentproto.aap.models import (
    AgentMessage,
    AssistantMessage,
    ContentBlock,
    PostSessionTurnResponse,
    StopReason,
    TextContentBlock,
    TextDeltaEvent,
    TextEvent,
    ThinkingContentBlock,
    ThinkingDeltaEvent,
    ThinkingEvent,
    ToolCallEvent,
    ToolMessage,
    ToolResultEvent,
    ToolUseContentBlock,
    TurnStartEvent,
    TurnStopEvent,
)

logger: logging.Logger = logging.getLogger("agentproto.aap")

TurnEvent = (
    TurnStartEvent
    | TextDeltaEvent
    | ThinkingDeltaEvent
    | TextEvent
    | ThinkingEvent
    | ToolCallEvent
    | ToolResultEvent
    | TurnStopEvent
    | UnknownEvent
)


@dataclass
class TurnResult:
    """What one turn produced: the agent's messages, and why it stopped."""

    messages: list[AgentMessage] = field(default_factory=list[AgentMessage])
    stop_reason: StopReason | None = None
    unknown_events: list[UnknownEvent] = field(default_factory=list[UnknownEvent])
    """Events of a newer server this version cannot fold, kept as they came."""
    answered_tool_call_ids: frozenset[str] = frozenset()
    """Tool calls answered outside ``messages``: the results and permissions the application
    sent back (the session helper's tool loop), or answers earlier in the session history."""

    @property
    def complete(self) -> bool:
        """Whether the turn ended with a stop reason (a stream can end without one)."""
        return self.stop_reason is not None

    @property
    def text(self) -> str:
        """The assistant's text in this turn, joined."""
        parts: list[str] = []
        for message in self.messages:
            if isinstance(message, AssistantMessage):
                if isinstance(message.content, str):
                    parts.append(message.content)
                else:
                    parts.extend(b.text for b in message.content if isinstance(b, TextContentBlock))
        return "".join(parts)

    @property
    def tool_calls(self) -> list[ToolUseContentBlock]:
        """Every tool call of the turn, in order."""
        return [
            block
            for message in self.messages
            if isinstance(message, AssistantMessage) and not isinstance(message.content, str)
            for block in message.content
            if isinstance(block, ToolUseContentBlock)
        ]

    @property
    def pending_tool_calls(self) -> list[ToolUseContentBlock]:
        """Tool calls nobody answered yet: no result in ``messages`` (a server tool run inline)
        and not in ``answered_tool_call_ids`` (answered by the application, or earlier)."""
        answered = self.answered_tool_call_ids | {
            m.tool_call_id for m in self.messages if isinstance(m, ToolMessage)
        }
        return [call for call in self.tool_calls if call.tool_call_id not in answered]

    @classmethod
    def from_response(cls, response: PostSessionTurnResponse) -> TurnResult:
        return cls(messages=list(response.messages), stop_reason=response.stop_reason)


class IncompleteTurnError(AgentprotoError, RuntimeError):
    """A turn the session helper could not finish, so that it is never mistaken for a finished
    one: the stream ended without ``turn_stop``, the agent stopped with tool calls nobody
    answered, or the tool loop hit its round limit. ``result`` holds what the turn produced
    (every round's messages, ``stop_reason`` of the last round, ``pending_tool_calls``)."""

    def __init__(self, message: str, result: TurnResult) -> None:
        super().__init__(message)
        self.result = result


class TurnFolder:
    """Incremental fold: :meth:`add` each event, read :attr:`result` at any time."""

    def __init__(self) -> None:
        self.stop_reason: StopReason | None = None
        self.unknown_events: list[UnknownEvent] = []
        # assistant content being built (a list of blocks) or a finished tool message
        self._items: list[list[ContentBlock] | ToolMessage] = []

    def _blocks(self) -> list[ContentBlock]:
        if not self._items or isinstance(self._items[-1], ToolMessage):
            self._items.append([])
        last = self._items[-1]
        assert isinstance(last, list)
        return last

    @property
    def result(self) -> TurnResult:
        messages: list[AgentMessage] = [
            item
            if isinstance(item, ToolMessage)
            else AssistantMessage(role="assistant", content=[b.model_copy() for b in item])
            for item in self._items
        ]
        return TurnResult(
            messages=messages,
            stop_reason=self.stop_reason,
            unknown_events=list(self.unknown_events),
        )

    def add(self, event: TurnEvent) -> None:
        if self.stop_reason is not None:
            logger.debug("ignoring %s after turn_stop", event.event)
            return
        if isinstance(event, UnknownEvent):
            self.unknown_events.append(event)
        elif isinstance(event, TurnStopEvent):
            self.stop_reason = event.stop_reason
        elif isinstance(event, TextDeltaEvent | ThinkingDeltaEvent):
            blocks = self._blocks()
            last = blocks[-1] if blocks else None
            if isinstance(event, TextDeltaEvent):
                if isinstance(last, TextContentBlock):
                    last.text += event.delta
                else:
                    blocks.append(TextContentBlock(type="text", text=event.delta))
            elif isinstance(last, ThinkingContentBlock):
                last.thinking += event.delta
            else:
                blocks.append(ThinkingContentBlock(type="thinking", thinking=event.delta))
        elif isinstance(event, TextEvent):
            self._blocks().append(TextContentBlock(type="text", text=event.text))
        elif isinstance(event, ThinkingEvent):
            self._blocks().append(ThinkingContentBlock(type="thinking", thinking=event.thinking))
        elif isinstance(event, ToolCallEvent):
            self._blocks().append(
                ToolUseContentBlock(
                    type="tool_use",
                    tool_call_id=event.tool_call_id,
                    name=event.name,
                    input=event.input,
                )
            )
        elif isinstance(event, ToolResultEvent):
            self._items.append(
                ToolMessage(role="tool", tool_call_id=event.tool_call_id, content=event.content)
            )


def fold_events(events: Iterable[TurnEvent]) -> TurnResult:
    """Fold a turn's events (from ``create_turn_stream``) into messages and a stop reason."""
    folder = TurnFolder()
    for event in events:
        folder.add(event)
    return folder.result


async def afold_events(events: AsyncIterable[TurnEvent]) -> TurnResult:
    """:func:`fold_events` for an async stream."""
    folder = TurnFolder()
    async for event in events:
        folder.add(event)
    return folder.result
