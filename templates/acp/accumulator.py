"""A session as an editor shows it: every ``session/update`` merged into one snapshot (ACP v1).

Feed each update (or the whole notification) to a :class:`SessionAccumulator`; read
:meth:`SessionAccumulator.snapshot` whenever the UI redraws::

    class Editor(Client):
        def __init__(self) -> None:
            self.sessions: dict[str, SessionAccumulator] = {}

        async def session_update(self, params: SessionNotification) -> None:
            acc = self.sessions.setdefault(params.session_id, SessionAccumulator())
            acc.apply(params.update)
            redraw(acc.snapshot())

Message chunks with the same ``messageId`` (or consecutive ones without) join into one message;
a tool call's updates merge into it (only the fields an update carries change it); the plan,
the mode, the title, the commands, the config options and the usage keep their latest value.
An update this version does not know (``Unknown...``) or whose data does not match its schema
(``Invalid...``, e.g. a ``usage_update`` whose ``used`` is ``null``) is kept in ``others``
(with notices and compaction updates) and, where it can be read (such a usage update), also
used: nothing the agent sent is lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

from agentproto.acp.models import (
    AvailableCommand,
    ContentBlock,
    ContentBlockText,
    InvalidSessionUpdate,
    PlanEntry,
    SessionConfigOption,
    SessionNotification,
    SessionUpdate,
    SessionUpdateAgentMessageChunk,
    SessionUpdateAgentThoughtChunk,
    SessionUpdateAvailableCommandsUpdate,
    SessionUpdateConfigOptionUpdate,
    SessionUpdateCurrentModeUpdate,
    SessionUpdatePlan,
    SessionUpdateSessionInfoUpdate,
    SessionUpdateToolCall,
    SessionUpdateToolCallUpdate,
    SessionUpdateUsageUpdate,
    SessionUpdateUserMessageChunk,
    ToolCallContent,
    ToolCallLocation,
    ToolCallStatus,
    ToolKind,
)

Role = Literal["user", "agent", "thought"]


@dataclass(frozen=True)
class Message:
    """One message of the conversation: its chunks joined."""

    role: Role
    blocks: tuple[ContentBlock, ...]
    message_id: str | None = None

    @property
    def text(self) -> str:
        """The text of its text blocks, joined."""
        return "".join(b.text for b in self.blocks if isinstance(b, ContentBlockText))


@dataclass(frozen=True)
class ToolCallView:
    """A tool call with every update merged in."""

    tool_call_id: str
    title: str = ""
    kind: ToolKind | None = None
    status: ToolCallStatus | None = None
    content: tuple[ToolCallContent, ...] = ()
    locations: tuple[ToolCallLocation, ...] = ()
    raw_input: Any = None
    raw_output: Any = None
    updates: int = 0
    """How many ``tool_call`` / ``tool_call_update`` notifications it was made from."""

    @property
    def finished(self) -> bool:
        return self.status in ("completed", "failed")

    def merged(self, update: SessionUpdateToolCall | SessionUpdateToolCallUpdate) -> ToolCallView:
        """This call with ``update`` applied: the fields it carries replace the old ones."""
        changes: dict[str, Any] = {"updates": self.updates + 1}
        given = update.model_fields_set
        for name in ("title", "kind", "status", "raw_input", "raw_output"):
            value = getattr(update, name)
            if name in given and value is not None:
                changes[name] = value
        if "content" in given and update.content is not None:
            changes["content"] = tuple(update.content)
        if "locations" in given and update.locations is not None:
            changes["locations"] = tuple(update.locations)
        return replace(self, **changes)


@dataclass(frozen=True)
class Usage:
    """The latest usage report: tokens in context (``used``: ``None`` when the agent sent
    none, as some do), the window's ``size``, and the session's cost so far."""

    used: int | None
    size: int | None
    cost: float | None = None
    currency: str | None = None


@dataclass(frozen=True)
class SessionSnapshot:
    """Everything the updates said so far, merged (immutable: take one per redraw)."""

    messages: tuple[Message, ...] = ()
    tool_calls: tuple[ToolCallView, ...] = ()  # in the order they started
    plan: tuple[PlanEntry, ...] = ()
    mode_id: str | None = None
    title: str | None = None
    commands: tuple[AvailableCommand, ...] = ()
    config_options: tuple[SessionConfigOption, ...] = ()
    usage: Usage | None = None
    others: tuple[SessionUpdate, ...] = ()
    """The updates not merged into the fields above, in order: those this version does not
    know (``Unknown...``) or whose data does not match their schema (``Invalid...``), and
    the kinds kept as they came (notices, compaction)."""
    updates: int = 0

    @property
    def agent_text(self) -> str:
        """The text of every agent message, joined."""
        return "".join(m.text for m in self.messages if m.role == "agent")

    def tool_call(self, tool_call_id: str) -> ToolCallView | None:
        return next((c for c in self.tool_calls if c.tool_call_id == tool_call_id), None)


@dataclass
class SessionAccumulator:
    """Merges a session's updates (see the module's docstring). Not thread-safe: feed it
    from the connection's handler."""

    _messages: list[Message] = field(default_factory=list[Message])
    _calls: dict[str, ToolCallView] = field(default_factory=dict[str, ToolCallView])
    _state: SessionSnapshot = field(default_factory=SessionSnapshot)
    _others: list[SessionUpdate] = field(default_factory=list[SessionUpdate])
    _count: int = 0

    def apply(self, update: SessionUpdate | SessionNotification) -> None:
        """Merge one update (or a whole ``session/update`` notification)."""
        if isinstance(update, SessionNotification):
            update = update.update
        self._count += 1
        state = self._state
        if isinstance(update, SessionUpdateAgentMessageChunk):
            self._chunk("agent", update.content, update.message_id)
        elif isinstance(update, SessionUpdateUserMessageChunk):
            self._chunk("user", update.content, update.message_id)
        elif isinstance(update, SessionUpdateAgentThoughtChunk):
            self._chunk("thought", update.content, update.message_id)
        elif isinstance(update, SessionUpdateToolCall | SessionUpdateToolCallUpdate):
            known = self._calls.get(update.tool_call_id) or ToolCallView(update.tool_call_id)
            self._calls[update.tool_call_id] = known.merged(update)
        elif isinstance(update, SessionUpdatePlan):
            self._state = replace(state, plan=tuple(update.entries))
        elif isinstance(update, SessionUpdateCurrentModeUpdate):
            self._state = replace(state, mode_id=update.current_mode_id)
        elif isinstance(update, SessionUpdateSessionInfoUpdate):
            if update.title is not None:
                self._state = replace(state, title=update.title)
        elif isinstance(update, SessionUpdateAvailableCommandsUpdate):
            self._state = replace(state, commands=tuple(update.available_commands))
        elif isinstance(update, SessionUpdateConfigOptionUpdate):
            self._state = replace(state, config_options=tuple(update.config_options))
        elif isinstance(update, SessionUpdateUsageUpdate):
            cost = update.cost
            self._state = replace(
                state,
                usage=Usage(
                    update.used,
                    update.size,
                    cost.amount if cost else None,
                    cost.currency if cost else None,
                ),
            )
        else:  # unknown, invalid, or a kind kept as it came
            self._others.append(update)
            if isinstance(update, InvalidSessionUpdate) and update.session_update == "usage_update":
                self._lenient_usage(update.raw)

    def add_prompt(self, blocks: list[ContentBlock]) -> None:
        """Record a prompt the editor sends as a user message (it also ends the agent's
        previous message: the next chunk starts a new one)."""
        self._messages.append(Message("user", tuple(blocks)))

    def _chunk(self, role: Role, block: ContentBlock, message_id: str | None) -> None:
        last = self._messages[-1] if self._messages else None
        if last is not None and last.role == role and last.message_id == message_id:
            self._messages[-1] = replace(last, blocks=(*last.blocks, block))
        else:
            self._messages.append(Message(role, (block,), message_id))

    def _lenient_usage(self, raw: dict[str, Any]) -> None:
        """A usage update whose data does not match the schema (claude-agent-acp sends
        ``"used": null``): the fields that are readable are used."""

        def number(value: Any) -> int | None:
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        cost = raw.get("cost")
        fields: dict[str, Any] = cast("dict[str, Any]", cost) if isinstance(cost, dict) else {}
        amount, currency = fields.get("amount"), fields.get("currency")
        self._state = replace(
            self._state,
            usage=Usage(
                number(raw.get("used")),
                number(raw.get("size")),
                float(amount)
                if isinstance(amount, int | float) and not isinstance(amount, bool)
                else None,
                currency if isinstance(currency, str) else None,
            ),
        )

    def snapshot(self) -> SessionSnapshot:
        """Everything so far, merged."""
        return replace(
            self._state,
            messages=tuple(self._messages),
            tool_calls=tuple(self._calls.values()),
            others=tuple(self._others),
            updates=self._count,
        )
