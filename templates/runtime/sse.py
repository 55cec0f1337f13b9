"""An incremental Server-Sent Events decoder (the WHATWG ``text/event-stream`` rules).

Feed it the body's bytes as they arrive, in chunks of any size; it returns the events each
chunk completes. It follows the parsing rules of the HTML standard:

- UTF-8, with one leading byte-order mark ignored;
- lines end with CRLF, LF or CR, including a CR at the end of one chunk whose LF starts the next
  (that is one line end, not two);
- a line starting with ``:`` is a comment; ``field: value`` loses one space after the colon; a
  line without a colon is a field with an empty value; unknown fields are ignored;
- ``data`` lines are joined with ``\\n``; ``event`` names the event (``message`` when absent);
  ``id`` sets the last event id (ignored when it contains NUL) which every later event carries;
  ``retry`` is kept when it is all ASCII digits (and at most 10 of them: a reconnection time
  past 115 days is no time, and a number of thousands of digits costs quadratic time to read);
- a blank line dispatches the event; an event with no ``data`` line is not dispatched;
- at the end of the stream an event without its blank line is discarded (the standard's rule:
  a truncated event is not trusted).

Line ends are found on whole chunks (C-level ``bytes`` operations) and all complete lines of a
chunk are decoded in one call, so no per-character work is done in Python.

Limits: a line longer than ``Limits.max_sse_line_bytes`` or an event whose data is larger than
``Limits.max_sse_event_bytes`` raises :class:`~agentproto._runtime.limits.LimitError` as soon
as it is seen (what it held is dropped: memory stays bounded); bytes that are not UTF-8 are
replaced by U+FFFD, as the standard says.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from typing import Any, NamedTuple

from agentproto._runtime.limits import DEFAULT_LIMITS, LimitError, Limits

_BOM = b"\xef\xbb\xbf"
_MAX_RETRY_DIGITS = 10


class ServerSentEvent(NamedTuple):
    """One dispatched event (a named tuple: immutable and cheap to make)."""

    event: str
    data: str
    id: str | None
    retry: int | None

    def json(self) -> Any:
        """The data parsed as JSON."""
        return json.loads(self.data)


class SSEDecoder:
    """Bytes in, events out; keeps what an incomplete line or event needs between chunks."""

    __slots__ = (
        "_cr",
        "_data",
        "_data_size",
        "_event",
        "_failed",
        "_last_id",
        "_max_event",
        "_max_line",
        "_partial",
        "_partial_size",
        "_retry",
        "_started",
    )

    def __init__(self, limits: Limits = DEFAULT_LIMITS) -> None:
        self._max_line = limits.max_sse_line_bytes
        self._max_event = limits.max_sse_event_bytes
        self._partial: list[bytes] = []  # the current line, not yet ended
        self._partial_size = 0
        self._data_size = 0  # characters of the current event's data
        self._failed: LimitError | None = None  # raised at the next call
        self._cr = False  # the previous chunk ended with CR: skip one LF at the next start
        self._started = False  # the BOM check is done
        self._data: list[str] = []
        self._event = ""
        self._retry: int | None = None
        self._last_id: str | None = None

    @property
    def last_event_id(self) -> str | None:
        return self._last_id

    def feed(self, chunk: bytes) -> list[ServerSentEvent]:
        """The events completed by ``chunk``. A line or an event past its limit raises
        :class:`LimitError`, after the events before it were handed on (at the next call when
        there are some: what they say never depends on how the bytes were cut)."""
        if self._failed is not None:
            raise self._failed
        if not chunk:
            return []
        if not self._started:
            head = b"".join(self._partial) + chunk
            if len(head) < len(_BOM) and _BOM.startswith(head):
                self._partial = [head]  # could still be a BOM: wait for more
                return []
            self._partial = []
            self._started = True
            chunk = head[len(_BOM) :] if head.startswith(_BOM) else head
        if self._cr:
            self._cr = False
            if chunk[:1] == b"\n":
                chunk = chunk[1:]
        if b"\r" in chunk:
            self._cr = chunk.endswith(b"\r")
            chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        last = chunk.rfind(b"\n")
        if last < 0:
            if chunk:
                self._partial.append(chunk)
                self._partial_size += len(chunk)
                if self._partial_size > self._max_line:
                    self._failed = self._too_long(self._partial_size)
                    raise self._failed
            return []
        # Lines end at line ends, never inside a UTF-8 sequence: decode them all at once.
        if self._partial:
            self._partial.append(chunk[:last])
            complete = b"".join(self._partial)
        else:
            complete = chunk[:last]
        rest = chunk[last + 1 :]
        self._partial = [rest] if rest else []
        self._partial_size = len(rest)
        lines = complete.decode("utf-8", "replace").split("\n")
        failed: LimitError | None = None
        if len(complete) > self._max_line:  # only then can a line in it be too long
            sizes = [len(line) for line in complete.split(b"\n")]
            bad = next((i for i, n in enumerate(sizes) if n > self._max_line), None)
            if bad is not None:
                lines = lines[:bad]
                failed = self._too_long(sizes[bad])
        if failed is None and self._partial_size > self._max_line:
            failed = self._too_long(self._partial_size)
        events = self._lines(lines)
        failed = failed or self._failed
        if failed is not None:
            self._failed = failed
            if not events:
                raise failed
        return events

    def _too_long(self, size: int) -> LimitError:
        self._partial, self._partial_size = [], 0
        return LimitError("an SSE line", "max_sse_line_bytes", self._max_line, size)

    def _lines(self, lines: list[str]) -> list[ServerSentEvent]:
        events: list[ServerSentEvent] = []
        data = self._data
        size = self._data_size
        event = self._event
        retry = self._retry
        last_id = self._last_id
        for line in lines:
            if not line:
                if data:
                    text = data[0] if len(data) == 1 else "\n".join(data)
                    events.append(ServerSentEvent(event or "message", text, last_id, retry))
                    data = []
                    size = 0
                event = ""
                retry = None
                continue
            name, _, value = line.partition(":")
            if not name:
                continue  # a comment
            if value[:1] == " ":
                value = value[1:]
            if name == "data":
                data.append(value)
                size += len(value) + 1
                if size > self._max_event:
                    self._failed = LimitError(
                        "an SSE event", "max_sse_event_bytes", self._max_event, size
                    )
                    data, size = [], 0
                    break
            elif name == "event":
                event = value
            elif name == "id":
                if "\x00" not in value:
                    last_id = value
            elif (
                name == "retry"
                and value.isascii()
                and value.isdigit()
                and len(value) <= _MAX_RETRY_DIGITS
            ):
                retry = int(value)
        self._data = data
        self._data_size = size
        self._event = event
        self._retry = retry
        self._last_id = last_id
        return events

    def close(self) -> list[ServerSentEvent]:
        """End of stream: an event still missing its blank line is discarded (a limit error
        still pending is raised)."""
        if self._failed is not None:
            raise self._failed
        self._partial = []
        self._partial_size = 0
        self._data = []
        self._data_size = 0
        self._event = ""
        self._retry = None
        return []


def iter_sse(chunks: Iterable[bytes], limits: Limits = DEFAULT_LIMITS) -> Iterator[ServerSentEvent]:
    """The events of a byte stream given as chunks."""
    decoder = SSEDecoder(limits)
    for chunk in chunks:
        yield from decoder.feed(chunk)
    yield from decoder.close()


async def aiter_sse(
    chunks: AsyncIterable[bytes], limits: Limits = DEFAULT_LIMITS
) -> AsyncIterator[ServerSentEvent]:
    """The events of an async byte stream given as chunks."""
    decoder = SSEDecoder(limits)
    async for chunk in chunks:
        for event in decoder.feed(chunk):
            yield event
    for event in decoder.close():
        yield event
