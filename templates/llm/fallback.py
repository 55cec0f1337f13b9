"""Fallback chains: one call, tried on an ordered list of (provider, model) targets.

::

    from agentproto.llm import FallbackChain, LLMClient

    chain = FallbackChain(
        [
            (LLMClient("anthropic"), "claude-sonnet-4-5"),
            (LLMClient("openai"), "gpt-4o-mini"),
            (LLMClient("deepseek@v2"), "deepseek-v4-flash"),
        ]
    )
    reply = chain.chat([{"role": "user", "content": "Hi"}], max_tokens=256)
    print(reply.content, [(a.provider, a.outcome) for a in reply.attempts])

    with chain.stream([{"role": "user", "content": "A story"}]) as stream:
        for event in stream:
            ...

``AsyncFallbackChain`` is the same with ``AsyncLLMClient`` targets and ``await``.

The next target is tried when the error says another provider may succeed: a
:class:`~agentproto.llm.errors.ProviderError` whose class is ``fallbackable`` (upstream's
error-code table: rate limited, quota exhausted, authentication, server error, overloaded,
timeout...), a connection failure or timeout, and (with ``context_window_fallback``, on by
default) a request too large for its model's context, but then only to a target whose model
the manifests say has a larger window (targets with a smaller or unknown window are skipped,
and say so). Any other error (an invalid request, a budget spent, a request a target cannot
express) stops the chain and is raised as it is. When every target failed,
:class:`FallbackError` carries each attempt and the last error as its cause.

Streams fall back too, as long as nothing has been delivered: a target that fails to open its
stream, or whose stream breaks or reports an error before its first event (usage-only events
do not count: they are held back), is closed and the next one is tried. Once an event has been
delivered the stream is that target's: if it then breaks, the caller gets
:class:`StreamInterruptedError` saying what was delivered (``partial``, ``delivered_events``)
and from which target; an answer is never spliced from two providers.

Every answer carries ``attempts``: each target tried, in order, with its outcome.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, replace
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, Protocol, Self

import httpx
from agentproto._runtime.http_errors import APIConnectionError, APIError, APIStatusError
from agentproto._runtime.telemetry import Telemetry
from agentproto.llm.errors import ProviderError, ProviderStreamError, RequestTooLargeError
from agentproto.llm.events import Metadata, StreamEvent
from agentproto.llm.pricing import Budget, Cost, ModelCatalog, Price, context_window
from agentproto.llm.streaming import IncompleteStreamError

if TYPE_CHECKING:
    from agentproto.llm.client import AsyncChatStream, AsyncLLMClient
    from agentproto.llm.manifest import Manifest
    from agentproto.llm.response import ChatResponse

# unasync: derive-sync

__all__ = [
    "AsyncFallbackChain",
    "AsyncFallbackStream",
    "Attempt",
    "FallbackChain",  # noqa: F822 (the blocking twins are derived at build time)
    "FallbackError",
    "FallbackStream",  # noqa: F822
    "StreamInterruptedError",
    "should_fall_back",
]

Outcome = Literal["answered", "failed", "skipped"]


class _Target(Protocol):
    """What the chain reads of a client of either flavour."""

    manifest: Manifest
    catalog: ModelCatalog
    budget: Budget | None

    def price(self, model: str | None = None) -> Price | None: ...


@dataclass(frozen=True)
class Attempt:
    """One target of a chain, tried (or skipped) for one call."""

    provider: str
    model: str
    outcome: Outcome
    error_class: str | None = None
    """The standard error class (``rate_limited``...), or the error's type name."""
    status_code: int | None = None
    elapsed: float = 0.0
    reason: str = ""
    """Why it failed or was skipped, in a sentence."""


class FallbackError(APIError):
    """Every target of a chain failed (or was skipped). ``attempts`` lists them in order;
    the last target's error is the ``__cause__``."""

    def __init__(self, message: str, *, attempts: tuple[Attempt, ...]) -> None:
        super().__init__(message)
        self.attempts: tuple[Attempt, ...] = attempts


class StreamInterruptedError(APIError):
    """A stream broke after events had been delivered: no other target was tried (its answer
    would not continue this one). ``partial`` is what was delivered, folded (``None`` when it
    cannot be folded), ``delivered_events`` how many events the caller got, ``provider`` /
    ``model`` the target; the transport or provider error is the ``__cause__``."""

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        model: str,
        partial: ChatResponse | None,
        delivered_events: int,
        attempts: tuple[Attempt, ...],
    ) -> None:
        super().__init__(message)
        self.provider: str = provider
        self.model: str = model
        self.partial: ChatResponse | None = partial
        self.delivered_events: int = delivered_events
        self.attempts: tuple[Attempt, ...] = attempts


def _error_class(error: BaseException) -> str:
    found = getattr(error, "error_class", None)
    return str(found) if isinstance(found, str) else type(error).__name__


def should_fall_back(error: BaseException) -> bool:
    """Whether another provider may succeed where this error failed (the context-window
    rule aside): a ``fallbackable`` provider error (also one reported inside a stream), a
    connection failure or timeout, a stream cut off before its end."""
    if isinstance(error, ProviderError):
        return type(error).fallbackable
    if isinstance(error, ProviderStreamError):
        from agentproto.llm.errors import error_class

        return error_class(error.error_class).fallbackable
    return isinstance(error, APIConnectionError | IncompleteStreamError | httpx.TransportError)


def _attempt(
    client: _Target, model: str, outcome: Outcome, started: float, error: BaseException
) -> Attempt:
    status = error.status_code if isinstance(error, APIStatusError) else None
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return Attempt(
        client.manifest.id,
        model,
        outcome,
        _error_class(error),
        status,
        time.perf_counter() - started,
        text[:300],
    )


class _Plan:
    """The order a call walks the targets in, with the context-window rule."""

    def __init__(self, budget: Budget | None, context_window_fallback: bool) -> None:
        self.budget = budget
        self.context_window_fallback = context_window_fallback
        self.attempts: list[Attempt] = []
        self.needs_window: int | None = None
        """After a request-too-large error: the window the next target's model must exceed."""
        self.last_error: BaseException | None = None

    def window(self, client: _Target, model: str) -> int | None:
        return context_window(client.manifest, model, client.catalog)

    def admit(self, client: _Target, model: str) -> bool:
        """Whether this target is tried (a skipped one is recorded)."""
        if self.needs_window is not None:
            window = self.window(client, model)
            if window is None or window <= self.needs_window:
                said = "unknown" if window is None else f"{window} tokens"
                self.attempts.append(
                    Attempt(
                        client.manifest.id,
                        model,
                        "skipped",
                        reason=f"its context window ({said}) is not known to be larger than "
                        f"{self.needs_window} tokens",
                    )
                )
                return False
        if self.budget is not None:
            self.budget.check(f"{client.manifest.id} {model}", client.price(model))
        return True

    def failed(self, client: _Target, model: str, started: float, error: BaseException) -> bool:
        """Record a failure; ``True`` to go on to the next target."""
        self.attempts.append(_attempt(client, model, "failed", started, error))
        self.last_error = error
        if isinstance(error, RequestTooLargeError) and self.context_window_fallback:
            window = self.window(client, model)
            if window is None:
                return False  # no way to know a larger one
            self.needs_window = max(window, self.needs_window or 0)
            return True
        return should_fall_back(error)

    def answered(self, client: _Target, model: str, started: float) -> None:
        self.attempts.append(
            Attempt(client.manifest.id, model, "answered", elapsed=time.perf_counter() - started)
        )

    def charge(self, client: _Target, cost: Cost | None) -> None:
        """Charge an answer to the chain's budget, unless it is the answering client's own
        budget too (the client charged it already: one answer counts once)."""
        if self.budget is not None and self.budget is not client.budget:
            self.budget.charge(cost)

    def exhausted(self) -> FallbackError:
        tried = ", ".join(f"{a.provider}/{a.model}: {a.outcome}" for a in self.attempts)
        return FallbackError(
            f"every target of the fallback chain failed ({tried})", attempts=tuple(self.attempts)
        )


class AsyncFallbackChain:
    """An ordered list of ``(client, model)`` targets; see the module's documentation.

    ``budget`` caps the whole chain (each attempt is checked against it, each answer charged;
    the clients' own budgets apply too; one budget given to both counts each answer once).
    ``context_window_fallback=False`` stops at a request too large instead of looking for a
    larger window. ``telemetry``: a span around each call
    (its attempts' spans are its children), as for the clients. The chain does not own the
    clients: close them yourself, or use the chain as a context manager to close them all.
    """

    def __init__(
        self,
        targets: Sequence[tuple[AsyncLLMClient, str]],
        *,
        budget: Budget | None = None,
        context_window_fallback: bool = True,
        telemetry: bool | Telemetry = True,
    ) -> None:
        if not targets:
            raise ValueError("a fallback chain needs at least one target")
        self.targets: tuple[tuple[AsyncLLMClient, str], ...] = tuple(targets)
        self.budget: Budget | None = budget
        self.context_window_fallback: bool = context_window_fallback
        self.telemetry: Telemetry = (
            telemetry
            if isinstance(telemetry, Telemetry)
            else Telemetry("agentproto.llm", enabled=telemetry)
        )

    def __repr__(self) -> str:
        names = ", ".join(f"{c.manifest.id}/{m}" for c, m in self.targets)
        return f"<{type(self).__name__} [{names}]>"

    async def chat(self, messages: Sequence[Mapping[str, Any]], **options: Any) -> ChatResponse:
        """``chat()`` on each target in turn (``options`` are ``chat()``'s keywords, the
        model aside) until one answers; the answer's ``attempts`` lists the tries."""
        if "model" in options:
            raise ValueError("the targets name the models; do not pass model=")
        plan = _Plan(self.budget, self.context_window_fallback)
        with self.telemetry.span("fallback chat", {"gen_ai.operation.name": "chat"}) as span:
            for client, model in self.targets:
                if not plan.admit(client, model):
                    continue
                started = time.perf_counter()
                try:
                    response = await client.chat(messages, model=model, **options)
                except Exception as exc:
                    if not plan.failed(client, model, started, exc):
                        raise
                    continue
                plan.answered(client, model, started)
                plan.charge(client, response.cost)
                span.set("agentproto.fallback.attempts", len(plan.attempts))
                span.set("agentproto.fallback.provider", client.manifest.id)
                return replace(response, attempts=tuple(plan.attempts))
            span.set("agentproto.fallback.attempts", len(plan.attempts))
            raise plan.exhausted() from plan.last_error

    def stream(self, messages: Sequence[Mapping[str, Any]], **options: Any) -> AsyncFallbackStream:
        """A stream from the first target that delivers an event (``async with`` it)."""
        if "model" in options:
            raise ValueError("the targets name the models; do not pass model=")
        return AsyncFallbackStream(self, messages, options)

    async def aclose(self) -> None:
        """Close every target's client."""
        for client, _ in self.targets:
            await client.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


@dataclass
class _AsyncDelivery:
    """What a chain's stream delivers: the target that answered, the events it held back while
    deciding, and how many events went out. Shared by the stream and its event generator (the
    generator holds this, not the stream: a stream dropped unclosed is freed at once)."""

    client: AsyncLLMClient
    stream: AsyncChatStream
    held: list[StreamEvent]
    provider: str
    model: str
    delivered: int = 0
    charged: bool = False  # the answer was charged to the chain's budget (once)

    async def settle(self, plan: _Plan) -> ChatResponse:
        """The answer of a stream read to its end, charged to the chain's budget once
        (whether the caller read the events or asked for the final response)."""
        final = await self.stream.final_response()
        if not self.charged:
            self.charged = True
            plan.charge(self.client, final.cost)
        return final

    def interrupted(
        self, attempts: tuple[Attempt, ...], error: BaseException
    ) -> StreamInterruptedError:
        """The error for this stream broken by ``error`` after its first event."""
        return StreamInterruptedError(
            f"{self.provider} {self.model}: the stream broke after {self.delivered} "
            f"delivered event(s) ({type(error).__name__}); nothing was spliced in from "
            "another target",
            provider=self.provider,
            model=self.model,
            partial=self.stream.partial(),
            delivered_events=self.delivered,
            attempts=attempts,
        )


class _AsyncOpener:
    """Opens the targets of a chain in turn for one stream (see :meth:`open`)."""

    def __init__(
        self,
        chain: AsyncFallbackChain,
        messages: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any],
    ) -> None:
        self.targets = chain.targets
        self.messages = messages
        self.options = dict(options)
        self.plan = _Plan(chain.budget, chain.context_window_fallback)
        self.delivery: _AsyncDelivery | None = None

    async def open(self) -> _AsyncDelivery:
        """Open targets in turn until one yields its first deliverable event (once)."""
        if self.delivery is not None:
            return self.delivery
        plan = self.plan
        for client, model in self.targets:
            if not plan.admit(client, model):
                continue
            started = time.perf_counter()
            stream: AsyncChatStream | None = None
            held: list[StreamEvent] = []
            try:
                stream = await client.stream(self.messages, model=model, **self.options)
                async for event in stream:
                    held.append(event)
                    if type(event) is not Metadata:  # a usage report is not an answer yet
                        break
            except Exception as exc:
                if stream is not None:
                    await stream.aclose()
                if not plan.failed(client, model, started, exc):
                    raise
                continue
            plan.answered(client, model, started)
            self.delivery = _AsyncDelivery(client, stream, held, client.manifest.id, model)
            return self.delivery
        raise plan.exhausted() from plan.last_error


class AsyncFallbackStream:
    """A chain's stream: iterate it for the events of the target that answered.

    ``attempts`` grows as targets are tried; ``provider`` / ``model`` name the target whose
    events are delivered (set once the stream is open).
    """

    def __init__(
        self,
        chain: AsyncFallbackChain,
        messages: Sequence[Mapping[str, Any]],
        options: Mapping[str, Any],
    ) -> None:
        self._opener = _AsyncOpener(chain, messages, options)
        self._iterator: AsyncGenerator[StreamEvent, None] | None = None

    @property
    def attempts(self) -> tuple[Attempt, ...]:
        return tuple(self._opener.plan.attempts)

    @property
    def provider(self) -> str | None:
        delivery = self._opener.delivery
        return delivery.provider if delivery is not None else None

    @property
    def model(self) -> str | None:
        delivery = self._opener.delivery
        return delivery.model if delivery is not None else None

    async def __aenter__(self) -> Self:
        await self._opener.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._iterator is not None:
            await self._iterator.aclose()
        if self._opener.delivery is not None:
            await self._opener.delivery.stream.aclose()

    def __aiter__(self) -> AsyncIterator[StreamEvent]:
        if self._iterator is None:
            self._iterator = _achain_events(self._opener)
        return self._iterator

    async def final_response(self) -> ChatResponse:
        """Read the rest and return the whole answer, with the chain's ``attempts``."""
        async for _ in self:
            pass
        delivery = await self._opener.open()
        final = await delivery.settle(self._opener.plan)
        return replace(final, attempts=self.attempts)


async def _achain_events(opener: _AsyncOpener) -> AsyncGenerator[StreamEvent, None]:
    delivery = await opener.open()
    held, delivery.held = delivery.held, []
    for event in held:
        delivery.delivered += 1
        yield event
    try:
        async for event in delivery.stream:
            delivery.delivered += 1
            yield event
        await delivery.settle(opener.plan)  # read to the end: the chain pays for it
    except (APIError, httpx.TransportError) as exc:
        raise delivery.interrupted(tuple(opener.plan.attempts), exc) from exc
