"""Tool calls as an agent reports them (ACP v1): a :class:`ToolCallTracker` gives each call an
id, sends its ``tool_call`` and ``tool_call_update`` notifications, and remembers where each
one is, so the agent never sends an update for a call it did not start or after it ended::

    tools = ToolCallTracker(self.client, params.session_id)
    async with tools.run("Read conftest.py", kind="read", locations=["conftest.py"]) as call:
        text = read("conftest.py")
        await call.progress(content=[f"{len(text)} bytes"])
        call.result(content=["done"])          # sent as the completing update
    # an exception in the block reports the call failed (and is raised on)
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncGenerator, Iterable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from agentproto._runtime.jsonrpc import ProtocolError
from agentproto.acp import builders
from agentproto.acp.accumulator import ToolCallView
from agentproto.acp.models import ContentBlock, ToolCallContent, ToolCallLocation, ToolKind

if TYPE_CHECKING:
    from agentproto.acp.connection import ClientConnection

Content = Iterable[str | ContentBlock | ToolCallContent]


class ToolCallError(ProtocolError):
    """An update for a tool call the tracker did not start, or that has ended (nothing is
    sent): ACP has no such update."""

    def __init__(self, tool_call_id: str, message: str) -> None:
        super().__init__("session/update", "toolCallId", message)
        Exception.__init__(self, message)  # the message as given, not "malformed answer"
        self.tool_call_id: str = tool_call_id


@dataclass
class RunningCall:
    """A call started by :meth:`ToolCallTracker.run`: report progress, set the result."""

    tracker: ToolCallTracker
    tool_call_id: str
    final_content: list[str | ContentBlock | ToolCallContent] | None = None
    """What the completing update carries (set by :meth:`result`)."""
    final_raw_output: Any = None

    async def progress(
        self, *, title: str | None = None, content: Content | None = None, raw_output: Any = None
    ) -> None:
        """Send an ``in_progress`` update (only the fields given change)."""
        await self.tracker.progress(
            self.tool_call_id, title=title, content=content, raw_output=raw_output
        )

    def result(self, *, content: Content | None = None, raw_output: Any = None) -> None:
        """What the completing update carries (sent when the ``async with`` block ends)."""
        self.final_content = list(content) if content is not None else None
        self.final_raw_output = raw_output


@dataclass
class ToolCallTracker:
    """Starts, updates and ends a session's tool calls, sending each change to the editor."""

    client: ClientConnection
    session_id: str
    prefix: str = "call"
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _calls: dict[str, ToolCallView] = field(default_factory=dict[str, ToolCallView])

    @property
    def calls(self) -> tuple[ToolCallView, ...]:
        """Every call started, as last reported."""
        return tuple(self._calls.values())

    def get(self, tool_call_id: str) -> ToolCallView:
        try:
            return self._calls[tool_call_id]
        except KeyError:
            raise ToolCallError(
                tool_call_id, f"no tool call {tool_call_id!r} was started here"
            ) from None

    async def start(
        self,
        title: str,
        *,
        kind: ToolKind | None = None,
        content: Content | None = None,
        locations: Iterable[str | ToolCallLocation] | None = None,
        raw_input: Any = None,
        tool_call_id: str | None = None,
    ) -> str:
        """Report a new call (``pending``); returns its id (made here unless given)."""
        call_id = tool_call_id or f"{self.prefix}-{next(self._ids)}"
        if call_id in self._calls:
            raise ToolCallError(call_id, f"tool call {call_id!r} was started already")
        update = builders.tool_started(
            call_id, title, kind=kind, content=content, locations=locations, raw_input=raw_input
        )
        self._calls[call_id] = ToolCallView(call_id).merged(update)
        await self.client.session_update(session_id=self.session_id, update=update)
        return call_id

    async def progress(
        self,
        tool_call_id: str,
        *,
        title: str | None = None,
        content: Content | None = None,
        locations: Iterable[str | ToolCallLocation] | None = None,
        raw_output: Any = None,
    ) -> None:
        """Report the call running (``in_progress``), with what changed."""
        await self._update(
            tool_call_id,
            builders.tool_progress(
                tool_call_id,
                title=title,
                content=content,
                locations=locations,
                raw_output=raw_output,
            ),
        )

    async def complete(
        self, tool_call_id: str, *, content: Content | None = None, raw_output: Any = None
    ) -> None:
        """Report the call completed."""
        await self._update(
            tool_call_id,
            builders.tool_finished(tool_call_id, content=content, raw_output=raw_output),
        )

    async def fail(
        self, tool_call_id: str, *, content: Content | None = None, raw_output: Any = None
    ) -> None:
        """Report the call failed (say why in ``content``)."""
        await self._update(
            tool_call_id, builders.tool_failed(tool_call_id, content=content, raw_output=raw_output)
        )

    async def _update(self, tool_call_id: str, update: Any) -> None:
        known = self.get(tool_call_id)
        if known.finished:
            raise ToolCallError(
                tool_call_id, f"tool call {tool_call_id!r} has ended ({known.status})"
            )
        self._calls[tool_call_id] = known.merged(update)
        await self.client.session_update(session_id=self.session_id, update=update)

    @asynccontextmanager
    async def run(
        self,
        title: str,
        *,
        kind: ToolKind | None = None,
        locations: Iterable[str | ToolCallLocation] | None = None,
        raw_input: Any = None,
    ) -> AsyncGenerator[RunningCall, None]:
        """A call for the length of the block: started (and ``in_progress``) on entry,
        completed on exit, failed if the block raises (the exception goes on; its text stays
        here: say what the editor should see with :meth:`fail` first)."""
        call_id = await self.start(title, kind=kind, locations=locations, raw_input=raw_input)
        await self.progress(call_id)
        call = RunningCall(self, call_id)
        try:
            yield call
        except BaseException:
            if not self.get(call_id).finished:
                await self.fail(call_id)
            raise
        if not self.get(call_id).finished:
            await self.complete(
                call_id, content=call.final_content, raw_output=call.final_raw_output
            )
