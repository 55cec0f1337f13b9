"""The SSE decoder: every parsing rule, any chunking, agreement with httpx-sse, real sockets."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import anyio
import httpx
import pytest
from agentproto._runtime.sse import ServerSentEvent, SSEDecoder, aiter_sse, iter_sse
from httpx_sse._decoders import SSEDecoder as HttpxSSEDecoder
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import Route

from tests.servers.loopback import serve


def decode(*chunks: bytes) -> list[ServerSentEvent]:
    return list(iter_sse(chunks))


def ev(data: str, event: str = "message", id: str | None = None, retry: int | None = None):  # type: ignore[no-untyped-def]
    return ServerSentEvent(event, data, id, retry)


@pytest.mark.parametrize("end", [b"\n", b"\r\n", b"\r"])
def test_every_line_ending(end: bytes) -> None:
    body = end.join([b"event: a", b"data: 1", b"", b"data: 2", b"", b""])
    assert decode(body) == [ev("1", "a"), ev("2")]


def test_crlf_split_across_chunks_is_one_line_end() -> None:
    assert decode(b"data: 1\r", b"\n\r", b"\ndata: 2\r\n\r\n") == [ev("1"), ev("2")]
    # CR then CR is two line ends: the event is dispatched by the second one
    assert decode(b"data: x\r", b"\r") == [ev("x")]


def test_comments_and_unknown_fields_are_ignored() -> None:
    assert decode(b": keep-alive\nfoo: bar\ndata: x\n: more\n\n") == [ev("x")]


def test_multi_line_data_and_field_forms() -> None:
    body = b"data: one\ndata:two\ndata\ndata:  three\n\n"
    assert decode(body) == [ev("one\ntwo\n\n three")]


def test_id_persists_and_ignores_nul() -> None:
    body = b"id: 7\ndata: a\n\ndata: b\n\nid: bad\x00id\ndata: c\n\nid\ndata: d\n\n"
    assert [(e.data, e.id) for e in decode(body)] == [("a", "7"), ("b", "7"), ("c", "7"), ("d", "")]


def test_retry_needs_ascii_digits() -> None:
    body = b"retry: 1500\ndata: a\n\nretry: 15x\ndata: b\n\nretry: \xd9\xa3\ndata: c\n\n"
    assert [e.retry for e in decode(body)] == [1500, None, None]


def test_events_without_data_are_not_dispatched() -> None:
    assert decode(b"event: ping\n\nevent: x\ndata:\n\n") == [ev("", "x")]


def test_bom_is_stripped_even_when_split() -> None:
    assert decode(b"\xef", b"\xbb", b"\xbfdata: x\n\n") == [ev("x")]
    assert decode(b"\xef\xbb\xbf\xef\xbb\xbfdata: x\n\n") == []  # only one BOM is removed


def test_incomplete_event_at_end_of_stream_is_discarded() -> None:
    assert decode(b"data: done\n\ndata: partial\n") == [ev("done")]
    assert decode(b"data: done\n\ndata: partial") == [ev("done")]
    assert decode(b"") == []


def test_multibyte_character_split_inside_a_chunk_boundary() -> None:
    text = "héllo ✓ 🎉"
    raw = f"data: {text}\n\n".encode()
    cut = raw.index("🎉".encode()) + 2
    assert decode(raw[:cut], raw[cut:]) == [ev(text)]


def test_json_helper_and_decoder_state() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b'id: 3\ndata: {"a": [1, 2]}\n') == []
    (event,) = decoder.feed(b"\n")
    assert event.json() == {"a": [1, 2]}
    assert decoder.last_event_id == "3"


# -- any chunking gives the same events ---------------------------------------------------------

_safe_text = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x00"), max_size=12
)
_field_lines = st.one_of(
    _safe_text.map(lambda t: f"data: {t}"),
    _safe_text.map(lambda t: f"data:{t}"),
    st.sampled_from(["event: a", "event: turn_stop", "id: 9", "retry: 30", ": comment", "data"]),
)
_events = st.lists(st.lists(_field_lines, min_size=1, max_size=4), min_size=0, max_size=6)


def _stream(blocks: list[list[str]], end: str, bom: bool) -> bytes:
    text = "".join(end.join(lines) + end + end for lines in blocks)
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode()


@settings(max_examples=300, deadline=None)
@given(
    _events,
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.booleans(),
    st.lists(st.integers(min_value=0, max_value=10_000), max_size=12),
)
def test_any_split_gives_the_same_events(
    blocks: list[list[str]], end: str, bom: bool, cuts: list[int]
) -> None:
    body = _stream(blocks, end, bom)
    whole = decode(body)
    points = sorted({c % (len(body) + 1) for c in cuts})
    pieces = [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]
    assert decode(*pieces) == whole
    assert decode(*(body[i : i + 1] for i in range(len(body)))) == whole
    assert len(whole) == sum(
        1 for lines in blocks if any(line.startswith("data") for line in lines)
    )


@settings(max_examples=200, deadline=None)
@given(_events)
def test_agrees_with_httpx_sse_on_lf_streams(blocks: list[list[str]]) -> None:
    """httpx-sse's decoder takes lines from httpx (`iter_lines`), so it is compared on LF-only
    streams fed whole; there both give the same events (event, data, id, retry).

    Fact found here: httpx-sse 0.4.3 dispatches an event that has an `event:` (or `id:`) line
    but no `data:` line; the standard says not to, and so does this decoder. Blocks without
    data are left out of the comparison."""
    blocks = [lines for lines in blocks if any(line.startswith("data") for line in lines)]
    body = _stream(blocks, "\n", False)
    theirs = HttpxSSEDecoder()
    expected = []
    for line in body.decode().split("\n")[:-1]:  # the text after the last LF is not a line
        sse = theirs.decode(line)
        if sse is not None:
            expected.append((sse.event, sse.data, sse.id or None, sse.retry))
    ours = [(e.event, e.data, e.id or None, e.retry) for e in decode(body)]
    assert ours == expected


# -- over a real socket, in tiny chunks -----------------------------------------------------------

EVENTS = [{"n": i, "text": "chunk ✓ " * (i % 3)} for i in range(50)]


async def _body() -> AsyncIterator[bytes]:
    raw = b"".join(
        f"event: tick\r\nid: {e['n']}\r\ndata: {json.dumps(e)}\r\n\r\n".encode() for e in EVENTS
    )
    for i in range(0, len(raw), 7):
        yield raw[i : i + 7]


async def _stream_endpoint(request: Request) -> StreamingResponse:
    return StreamingResponse(_body(), media_type="text/event-stream")


def test_over_loopback_sync_and_async() -> None:
    app = Starlette(routes=[Route("/events", _stream_endpoint)])
    with serve(app) as url:
        with httpx.Client() as client, client.stream("GET", url + "/events") as response:
            received = [e.json() for e in iter_sse(response.iter_bytes())]
        assert received == EVENTS

        async def read() -> list[ServerSentEvent]:
            async with httpx.AsyncClient() as client:
                async with client.stream("GET", url + "/events") as response:
                    return [e async for e in aiter_sse(response.aiter_bytes())]

        events = anyio.run(read)
        assert [e.json() for e in events] == EVENTS
        assert {e.event for e in events} == {"tick"} and events[-1].id == "49"
