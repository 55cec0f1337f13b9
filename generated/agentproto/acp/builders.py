"""Short ways to make the content and ``session/update`` values an agent sends (ACP v1).

Each returns the typed model, ready for ``client.session_update(session_id=..., update=...)``::

    from agentproto.acp import builders as b

    await self.client.session_update(session_id=sid, update=b.say("Looking at the tests"))
    await self.client.session_update(
        session_id=sid, update=b.tool_started("t1", "Read conftest.py", kind="read")
    )
    await self.client.session_update(
        session_id=sid, update=b.tool_finished("t1", content=[b.text("42 lines")])
    )

Content: :func:`text`, :func:`image`, :func:`audio`, :func:`link`, :func:`embedded_text`.
Updates: :func:`say` (an agent message chunk), :func:`think` (a thought chunk), :func:`echo`
(a user message chunk), :func:`tool_started`, :func:`tool_progress`, :func:`tool_finished`,
:func:`tool_failed`, :func:`plan`, :func:`mode_changed`, :func:`title_changed`, :func:`usage`.
Tool-call content: :func:`shows` (a content block), :func:`diff`, :func:`terminal_output`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from agentproto.acp.models import (
    ContentBlock,
    ContentBlockAudio,
    ContentBlockImage,
    ContentBlockResource,
    ContentBlockResourceLink,
    ContentBlockText,
    Cost,
    InvalidToolCallContent,
    PlanEntry,
    PlanEntryPriority,
    PlanEntryStatus,
    SessionUpdateAgentMessageChunk,
    SessionUpdateAgentThoughtChunk,
    SessionUpdateCurrentModeUpdate,
    SessionUpdatePlan,
    SessionUpdateSessionInfoUpdate,
    SessionUpdateToolCall,
    SessionUpdateToolCallUpdate,
    SessionUpdateUsageUpdate,
    SessionUpdateUserMessageChunk,
    TextResourceContents,
    ToolCallContent,
    ToolCallContentContent,
    ToolCallContentDiff,
    ToolCallContentTerminal,
    ToolCallLocation,
    ToolCallStatus,
    ToolKind,
    UnknownToolCallContent,
)

# -- content blocks ----------------------------------------------------------------------------


def text(value: str) -> ContentBlockText:
    """A text content block (Markdown, as clients render it)."""
    return ContentBlockText(text=value)


def image(data: str, mime_type: str, *, uri: str | None = None) -> ContentBlockImage:
    """An image block: ``data`` base64-encoded (needs the agent's ``image`` prompt
    capability in a prompt)."""
    return ContentBlockImage(data=data, mime_type=mime_type, uri=uri)


def audio(data: str, mime_type: str) -> ContentBlockAudio:
    """An audio block: ``data`` base64-encoded."""
    return ContentBlockAudio(data=data, mime_type=mime_type)


def link(uri: str, name: str, *, mime_type: str | None = None) -> ContentBlockResourceLink:
    """A link to a resource the other side can fetch."""
    return ContentBlockResourceLink(uri=uri, name=name, mime_type=mime_type)


def embedded_text(uri: str, value: str, *, mime_type: str | None = None) -> ContentBlockResource:
    """A resource's text, embedded (needs the ``embeddedContext`` prompt capability)."""
    return ContentBlockResource(
        resource=TextResourceContents(uri=uri, text=value, mime_type=mime_type)
    )


def _block(content: str | ContentBlock) -> ContentBlock:
    return text(content) if isinstance(content, str) else content


# -- message chunks ----------------------------------------------------------------------------


def say(
    content: str | ContentBlock, *, message_id: str | None = None
) -> SessionUpdateAgentMessageChunk:
    """A chunk of the agent's reply (text or any block)."""
    return SessionUpdateAgentMessageChunk(content=_block(content), message_id=message_id)


def think(
    content: str | ContentBlock, *, message_id: str | None = None
) -> SessionUpdateAgentThoughtChunk:
    """A chunk of the agent's reasoning."""
    return SessionUpdateAgentThoughtChunk(content=_block(content), message_id=message_id)


def echo(
    content: str | ContentBlock, *, message_id: str | None = None
) -> SessionUpdateUserMessageChunk:
    """A chunk of the user's message (replaying a loaded session)."""
    return SessionUpdateUserMessageChunk(content=_block(content), message_id=message_id)


# -- tool calls ------------------------------------------------------------------------------


def shows(content: str | ContentBlock) -> ToolCallContentContent:
    """Tool-call content: a content block (text, an image...)."""
    return ToolCallContentContent(content=_block(content))


def diff(path: str, new_text: str, *, old_text: str | None = None) -> ToolCallContentDiff:
    """Tool-call content: a file edit (``old_text`` ``None``: a new file)."""
    return ToolCallContentDiff(path=path, new_text=new_text, old_text=old_text)


def terminal_output(terminal_id: str) -> ToolCallContentTerminal:
    """Tool-call content: a terminal's live output (made with ``terminal/create``)."""
    return ToolCallContentTerminal(terminal_id=terminal_id)


_TOOL_CONTENT = (
    ToolCallContentContent,
    ToolCallContentDiff,
    ToolCallContentTerminal,
    UnknownToolCallContent,
    InvalidToolCallContent,
)


def _content(item: str | ContentBlock | ToolCallContent) -> ToolCallContent:
    if isinstance(item, _TOOL_CONTENT):
        return item
    return shows(item)


def _contents(
    content: Iterable[str | ContentBlock | ToolCallContent] | None,
) -> list[ToolCallContent] | None:
    return None if content is None else [_content(item) for item in content]


def _locations(paths: Iterable[str | ToolCallLocation] | None) -> list[ToolCallLocation] | None:
    if paths is None:
        return None
    return [ToolCallLocation(path=p) if isinstance(p, str) else p for p in paths]


def tool_started(
    tool_call_id: str,
    title: str,
    *,
    kind: ToolKind | None = None,
    status: ToolCallStatus = "pending",
    content: Iterable[str | ContentBlock | ToolCallContent] | None = None,
    locations: Iterable[str | ToolCallLocation] | None = None,
    raw_input: Any = None,
) -> SessionUpdateToolCall:
    """A new tool call (``pending`` unless told otherwise); ``locations`` may be paths."""
    return SessionUpdateToolCall(
        tool_call_id=tool_call_id,
        title=title,
        kind=kind,
        status=status,
        content=_contents(content),
        locations=_locations(locations),
        raw_input=raw_input,
    )


def tool_progress(
    tool_call_id: str,
    *,
    status: ToolCallStatus | None = "in_progress",
    title: str | None = None,
    content: Iterable[str | ContentBlock | ToolCallContent] | None = None,
    locations: Iterable[str | ToolCallLocation] | None = None,
    raw_output: Any = None,
) -> SessionUpdateToolCallUpdate:
    """A change to a tool call: only the fields given are sent (``content`` and
    ``locations`` replace the previous ones)."""
    return SessionUpdateToolCallUpdate(
        tool_call_id=tool_call_id,
        status=status,
        title=title,
        content=_contents(content),
        locations=_locations(locations),
        raw_output=raw_output,
    )


def tool_finished(
    tool_call_id: str,
    *,
    content: Iterable[str | ContentBlock | ToolCallContent] | None = None,
    raw_output: Any = None,
) -> SessionUpdateToolCallUpdate:
    """A tool call that completed."""
    return tool_progress(tool_call_id, status="completed", content=content, raw_output=raw_output)


def tool_failed(
    tool_call_id: str,
    *,
    content: Iterable[str | ContentBlock | ToolCallContent] | None = None,
    raw_output: Any = None,
) -> SessionUpdateToolCallUpdate:
    """A tool call that failed (say why in ``content``)."""
    return tool_progress(tool_call_id, status="failed", content=content, raw_output=raw_output)


# -- session state -------------------------------------------------------------------------------


def plan(
    entries: Sequence[
        PlanEntry
        | str
        | tuple[str, PlanEntryStatus]
        | tuple[str, PlanEntryStatus, PlanEntryPriority]
    ],
) -> SessionUpdatePlan:
    """The whole plan (it replaces the previous one): entries as models, or as ``"step"``,
    ``("step", status)`` or ``("step", status, priority)`` (``pending``, ``medium`` by
    default)."""
    made: list[PlanEntry] = []
    for entry in entries:
        if isinstance(entry, PlanEntry):
            made.append(entry)
        elif isinstance(entry, str):
            made.append(PlanEntry(content=entry, status="pending", priority="medium"))
        elif len(entry) == 2:
            made.append(PlanEntry(content=entry[0], status=entry[1], priority="medium"))
        else:
            made.append(PlanEntry(content=entry[0], status=entry[1], priority=entry[2]))
    return SessionUpdatePlan(entries=made)


def mode_changed(mode_id: str) -> SessionUpdateCurrentModeUpdate:
    """The session's mode changed."""
    return SessionUpdateCurrentModeUpdate(current_mode_id=mode_id)


def title_changed(title: str) -> SessionUpdateSessionInfoUpdate:
    """The session's title changed."""
    return SessionUpdateSessionInfoUpdate(title=title)


def usage(
    used: int, size: int, *, cost: float | None = None, currency: str = "USD"
) -> SessionUpdateUsageUpdate:
    """Context window use (tokens ``used`` of ``size``) and, if known, the session's cost."""
    return SessionUpdateUsageUpdate(
        used=used,
        size=size,
        cost=Cost(amount=cost, currency=currency) if cost is not None else None,
    )
