"""Typed event streams over an SSE response, sync and async (``AsyncEventStream`` is written
once; ``EventStream`` is derived from it when the package is built).

A stream owns its HTTP response: it is closed when the stream ends, when the terminal event
arrives (anything after it is not read), on an error, or by ``close()`` / the ``with`` block;
a stream dropped unclosed (never read, partly read, broken out of) gives it back too, and
warns (``ResourceWarning``) naming where it was opened (see ``release.py``). Closing is
shielded from cancellation, so a cancelled read still gives the connection back.
A read that stalls longer than the call's read timeout raises
:class:`~agentproto._runtime.http_errors.APITimeoutError`, and so does a stream past
``Limits.stream_deadline``; a line, an event or JSON past its limit raises
:class:`~agentproto._runtime.http_errors.ResponseTooLargeError` /
:class:`~agentproto._runtime.http_errors.ResponseValidationError`; a stream that just ends,
with or without a terminal event, ends the iteration.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import httpx
from pydantic import RootModel, ValidationError

from agentproto._runtime.http import AsyncHTTP, SyncHTTP
from agentproto._runtime.http_errors import (
    APIConnectionError,
    APITimeoutError,
    ResponseTooLargeError,
    ResponseValidationError,
)
from agentproto._runtime.json_types import JSONValue
from agentproto._runtime.limits import DEFAULT_LIMITS, LimitError, Limits, json_depth
from agentproto._runtime.redact import redact_url
from agentproto._runtime.release import Orphans, aclose_shielded, close_shielded, guard
from agentproto._runtime.sse import ServerSentEvent, aiter_sse, iter_sse

# Written once as async code: each blocking twin below (the class or function without
# ``Async``) is derived from its async original by codegen's unasync rewrite.

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
logger: logging.Logger = logging.getLogger("agentproto.http")


@dataclass(frozen=True)
class UnknownEvent:
    """An event this version does not know (a newer server's), kept as it came: its SSE
    ``event:`` name, and its data (parsed JSON, or the text when it is not JSON)."""

    event: str
    data: Any


def _json(text: str) -> Any:
    """``json.loads``; nesting is checked by the stream first (``Limits.max_json_depth``),
    this only turns the parser's own ``RecursionError`` into a ``ValueError``."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None


def _unknown(sse: ServerSentEvent) -> UnknownEvent:
    try:
        data: Any = _json(sse.data)
    except ValueError:
        data = sse.data
    return UnknownEvent(sse.event, data)


def sse_parser(
    model: type[RootModel[T]], discriminator: str | None, known: tuple[str, ...]
) -> Callable[[ServerSentEvent], T | UnknownEvent | None]:
    """Parse SSE events into the variants of the union ``model``.

    With a ``discriminator``, the SSE ``event:`` name is the variant's tag and the JSON data
    does not repeat it: it is added under that key before validation. An event name outside
    ``known`` (a newer server's) becomes an :class:`UnknownEvent` carrying its data: it breaks
    nothing and is not lost. Data that is not the promised JSON raises
    :class:`ResponseValidationError`.
    """
    tags = frozenset(known)

    def parse(sse: ServerSentEvent) -> T | UnknownEvent | None:
        if discriminator is not None and sse.event not in tags:
            logger.debug("unknown SSE event %r (not one of %s)", sse.event, sorted(tags))
            return _unknown(sse)
        try:
            data: JSONValue = _json(sse.data) if sse.data.strip() else {}
            if discriminator is not None:
                if not isinstance(data, dict):
                    raise ValueError(f"the data of event {sse.event!r} is not a JSON object")
                data[discriminator] = sse.event
            return model.model_validate(data).root
        except (ValueError, ValidationError) as exc:
            raise ResponseValidationError(
                f"SSE event {sse.event!r} does not match {model.__name__}: {exc}",
                status_code=200,
                body=sse.data.encode(),
            ) from None

    return parse


def tagged(discriminator: str, value: str | None) -> Callable[[object], bool]:
    """A predicate: is this item the variant tagged ``value``?"""
    return lambda item: value is not None and getattr(item, discriminator, None) == value


def _media(response: httpx.Response) -> str:
    media: str = response.headers.get("content-type", "")
    return media.split(";", 1)[0].strip().lower()


def _check_content_type(response: httpx.Response) -> None:
    kind = _media(response)
    if kind and kind != "text/event-stream":
        raise ResponseValidationError(
            f"{response.request.method} {redact_url(str(response.request.url))}: expected an "
            f"SSE stream (text/event-stream) but the server answered {kind!r}",
            status_code=response.status_code,
            body=b"",
        )


def _transport_error(response: httpx.Response, exc: httpx.TransportError) -> APIConnectionError:
    request = response.request
    url = redact_url(str(request.url))
    if isinstance(exc, httpx.TimeoutException):
        return APITimeoutError(
            f"{request.method} {url}: the stream stalled longer than the read timeout",
            method=request.method,
            url=url,
        )
    return APIConnectionError(
        f"{request.method} {url}: the stream broke: {type(exc).__name__}",
        method=request.method,
        url=url,
    )


def _too_large(response: httpx.Response, exc: LimitError) -> ResponseTooLargeError:
    request = response.request
    return ResponseTooLargeError(
        f"{request.method} {redact_url(str(request.url))}: {exc}",
        status_code=response.status_code,
        body=b"",
        limit=exc.limit,
        value=exc.value,
        size=exc.size,
    )


def _too_deep(
    response: httpx.Response, sse: ServerSentEvent, limit: int
) -> ResponseValidationError:
    request = response.request
    return ResponseValidationError(
        f"{request.method} {redact_url(str(request.url))}: SSE event {sse.event!r} holds JSON "
        f"nested deeper than Limits.max_json_depth ({limit})",
        status_code=response.status_code,
        body=b"",
    )


def _events(
    response: httpx.Response,
    parse: Callable[[ServerSentEvent], T | None],
    is_terminal: Callable[[object], bool],
    http: SyncHTTP | None,
    limits: Limits,
    single: Callable[[bytes], T] | None = None,
) -> Generator[T, None]:
    depth = limits.max_json_depth
    try:
        if single is not None and _media(response) == "application/json":
            # One JSON answer where events were asked for: the stream of that one item.
            body = http.read_body(response) if http is not None else response.read()
            yield single(body)
            return
        _check_content_type(response)
        chunks = http.stream_body(response) if http is not None else response.iter_bytes()
        for sse in iter_sse(chunks, limits):
            data = sse.data
            if data.count("[") + data.count("{") > depth and json_depth(data) > depth:
                raise _too_deep(response, sse, depth)
            item = parse(sse)
            if item is None:
                continue
            yield item
            if is_terminal(item):
                return
    except httpx.TransportError as exc:
        raise _transport_error(response, exc) from exc
    except LimitError as exc:
        raise _too_large(response, exc) from None
    finally:
        close_shielded(response)  # a cancelled read still gives the connection back


async def _aevents(
    response: httpx.Response,
    parse: Callable[[ServerSentEvent], T | None],
    is_terminal: Callable[[object], bool],
    http: AsyncHTTP | None,
    limits: Limits,
    single: Callable[[bytes], T] | None = None,
) -> AsyncGenerator[T, None]:
    depth = limits.max_json_depth
    try:
        if single is not None and _media(response) == "application/json":
            # One JSON answer where events were asked for: the stream of that one item.
            body = await http.read_body(response) if http is not None else await response.aread()
            yield single(body)
            return
        _check_content_type(response)
        chunks = http.stream_body(response) if http is not None else response.aiter_bytes()
        async for sse in aiter_sse(chunks, limits):
            data = sse.data
            if data.count("[") + data.count("{") > depth and json_depth(data) > depth:
                raise _too_deep(response, sse, depth)
            item = parse(sse)
            if item is None:
                continue
            yield item
            if is_terminal(item):
                return
    except httpx.TransportError as exc:
        raise _transport_error(response, exc) from exc
    except LimitError as exc:
        raise _too_large(response, exc) from None
    finally:
        await aclose_shielded(response)  # a cancelled read still gives the connection back


_NOBODY = Orphans()  # streams made without their client: closed at once or by the collector


class EventStream(Generic[T_co]):
    """An iterator of typed events read from a streamed response."""

    def __init__(
        self,
        response: httpx.Response,
        parse: Callable[[ServerSentEvent], T_co | None],
        is_terminal: Callable[[object], bool] = lambda _: False,
        *,
        http: SyncHTTP | None = None,
        single: Callable[[bytes], T_co] | None = None,
    ) -> None:
        """``http``: the client that sent the request (its limits, its deadline, and where a
        stream the garbage collector drops is closed). ``single``: how to read a JSON answer
        (``application/json``) given where events were asked for, as the stream's one item
        (without it, such an answer is a ``ResponseValidationError``)."""
        self.response = response
        limits = http.limits if http is not None else DEFAULT_LIMITS
        # The generator does not refer back to the stream: a stream dropped unclosed (a
        # ``break`` out of a ``for``, no ``with``) is freed at once, which closes the response
        # right there. Through a reference cycle it was left to the garbage collector, which
        # could close it from inside httpcore's pool lock and freeze the client for good.
        self._iterator = _events(response, parse, is_terminal, http, limits, single)
        # A stream never read has a generator that never started (its ``finally`` never
        # runs): the guard closes the response when the stream goes away.
        self._guard = guard(
            self,
            response,
            http.orphans if http is not None else _NOBODY,
            what=type(self).__name__,
        )

    def __iter__(self) -> Iterator[T_co]:
        return self

    def __next__(self) -> T_co:
        return self._iterator.__next__()

    def close(self) -> None:
        self._guard.detach()
        close_shielded(self.response)
        self._iterator.close()

    def __enter__(self) -> EventStream[T_co]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncEventStream(Generic[T_co]):
    """An iterator of typed events read from a streamed response."""

    def __init__(
        self,
        response: httpx.Response,
        parse: Callable[[ServerSentEvent], T_co | None],
        is_terminal: Callable[[object], bool] = lambda _: False,
        *,
        http: AsyncHTTP | None = None,
        single: Callable[[bytes], T_co] | None = None,
    ) -> None:
        """``http``: the client that sent the request (its limits, its deadline, and where a
        stream the garbage collector drops is closed). ``single``: how to read a JSON answer
        (``application/json``) given where events were asked for, as the stream's one item
        (without it, such an answer is a ``ResponseValidationError``)."""
        self.response = response
        limits = http.limits if http is not None else DEFAULT_LIMITS
        # The generator does not refer back to the stream: a stream dropped unclosed (a
        # ``break`` out of a ``for``, no ``with``) is freed at once, which closes the response
        # right there. Through a reference cycle it was left to the garbage collector, which
        # could close it from inside httpcore's pool lock and freeze the client for good.
        self._iterator = _aevents(response, parse, is_terminal, http, limits, single)
        # A stream never read has a generator that never started (its ``finally`` never
        # runs): the guard closes the response when the stream goes away.
        self._guard = guard(
            self,
            response,
            http.orphans if http is not None else _NOBODY,
            what=type(self).__name__,
        )

    def __aiter__(self) -> AsyncIterator[T_co]:
        return self

    async def __anext__(self) -> T_co:
        return await self._iterator.__anext__()

    async def aclose(self) -> None:
        self._guard.detach()
        await aclose_shielded(self.response)
        await self._iterator.aclose()

    async def __aenter__(self) -> AsyncEventStream[T_co]:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
