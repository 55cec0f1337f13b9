"""Fallback chains over loopback HTTP (issue 27): the next target on a fallbackable error, the
context-window rule, streams falling back before their first event and never spliced after
it, every attempt recorded; sync and async."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import anyio
import pytest
from agentproto.llm import (
    AsyncFallbackChain,
    AsyncLLMClient,
    Budget,
    BudgetExceededError,
    FallbackChain,
    FallbackError,
    LLMClient,
    StreamInterruptedError,
)
from agentproto.llm.errors import InvalidRequestError, RateLimitedError, RequestTooLargeError
from agentproto.llm.events import Metadata, PartialContentDelta, StreamEnd
from agentproto.llm.fallback import should_fall_back
from agentproto.llm.response import ChatResponse

from tests.servers.targets import (
    Json,
    Stream,
    Targets,
    anthropic_sse,
    openai_answer,
    openai_error,
    openai_text_stream,
    sse,
    targets_server,
)

USER = [{"role": "user", "content": "hi"}]
KEY = "sk-test-fallback"


@pytest.fixture(scope="module")
def server() -> Iterator[Targets]:
    with targets_server() as targets:
        yield targets


def client(provider: str, url: str, **options: Any) -> LLMClient:
    return LLMClient(provider, api_key=KEY, base_url=url, retry=False, timeout=10.0, **options)


def aclient(provider: str, url: str, **options: Any) -> AsyncLLMClient:
    return AsyncLLMClient(provider, api_key=KEY, base_url=url, retry=False, timeout=10.0, **options)


ANTHROPIC_START = {
    "type": "message_start",
    "message": {"id": "msg_1", "usage": {"input_tokens": 9, "output_tokens": 0}},
}


def plan_three_target_stream(server: Targets, tag: str) -> tuple[str, str, str]:
    """t1 answers 429 (fallbackable); t2 starts an Anthropic stream and breaks before its
    first token (a usage-only message_start, then the connection drops); t3 answers."""
    t1 = server.plan(f"{tag}1", openai_error(429, "rate_limit_exceeded", "slow down"))
    t2 = server.plan(f"{tag}2", Stream(anthropic_sse(ANTHROPIC_START), break_after=1))
    t3 = server.plan(f"{tag}3", Stream(openai_text_stream("the third answers")))
    return t1, t2, t3


def test_three_target_stream_falls_back_before_the_first_event(server: Targets) -> None:
    t1, t2, t3 = plan_three_target_stream(server, "s")
    chain = FallbackChain(
        [
            (client("openai", t1), "gpt-a"),
            (client("anthropic", t2), "claude-b"),
            (client("openai", t3), "gpt-c"),
        ]
    )
    with chain, chain.stream(USER, max_tokens=32) as stream:
        events = list(stream)
        final = stream.final_response()
    text = "".join(e.content for e in events if isinstance(e, PartialContentDelta))
    assert text == "the third answers" == final.content
    # nothing of t2 was delivered: its usage-only message_start was held back, then dropped
    assert not any(
        isinstance(e, Metadata) and (e.usage or {}).get("input_tokens") == 9 for e in events
    )
    assert isinstance(events[-1], StreamEnd)
    assert (stream.provider, stream.model) == ("openai", "gpt-c")
    outcomes = [(a.provider, a.model, a.outcome, a.error_class) for a in final.attempts]
    assert outcomes == [
        ("openai", "gpt-a", "failed", "rate_limited"),
        ("anthropic", "claude-b", "failed", "APIConnectionError"),
        ("openai", "gpt-c", "answered", None),
    ]
    assert final.attempts[0].status_code == 429
    assert [server.calls(t) for t in ("s1", "s2", "s3")] == [1, 1, 1]


def test_three_target_stream_async(server: Targets) -> None:
    t1, t2, t3 = plan_three_target_stream(server, "a")

    async def main() -> tuple[str, list[str]]:
        chain = AsyncFallbackChain(
            [
                (aclient("openai", t1), "gpt-a"),
                (aclient("anthropic", t2), "claude-b"),
                (aclient("openai", t3), "gpt-c"),
            ]
        )
        async with chain, chain.stream(USER, max_tokens=32) as stream:
            text = "".join([e.content async for e in stream if isinstance(e, PartialContentDelta)])
            final = await stream.final_response()
        return text, [a.outcome for a in final.attempts]

    text, outcomes = anyio.run(main)
    assert text == "the third answers"
    assert outcomes == ["failed", "failed", "answered"]


def test_chat_falls_back_on_fallbackable_errors_and_records_each_attempt(
    server: Targets,
) -> None:
    t1 = server.plan("c1", openai_error(429, "rate_limit_exceeded"))
    t2 = server.plan("c2", openai_error(503, "overloaded"))
    t3 = server.plan("c3", Json(openai_answer("third")))
    with FallbackChain(
        [(client("openai", t1), "a"), (client("openai", t2), "b"), (client("openai", t3), "c")]
    ) as chain:
        reply = chain.chat(USER, temperature=0.1)
    assert reply.content == "third" and reply.model == "c"
    assert [(a.outcome, a.error_class, a.status_code) for a in reply.attempts] == [
        ("failed", "rate_limited", 429),
        ("failed", "server_error", 503),  # the bundled openai manifest says so
        ("answered", None, None),
    ]
    assert server.body("c3")["temperature"] == 0.1  # the call's options go to every target


def test_a_non_fallbackable_error_stops_the_chain(server: Targets) -> None:
    t1 = server.plan("n1", openai_error(400, "invalid_request_error", "bad"))
    t2 = server.plan("n2", Json(openai_answer("never")))
    with FallbackChain([(client("openai", t1), "a"), (client("openai", t2), "b")]) as chain:
        with pytest.raises(InvalidRequestError):
            chain.chat(USER)
    assert server.calls("n2") == 0


def test_every_target_failing_raises_with_every_attempt(server: Targets) -> None:
    t1 = server.plan("e1", openai_error(429, "rate_limit_exceeded"))
    t2 = server.plan("e2", openai_error(500, "server_error"))
    with FallbackChain([(client("openai", t1), "a"), (client("openai", t2), "b")]) as chain:
        with pytest.raises(FallbackError) as info:
            chain.chat(USER)
    error = info.value
    assert [a.error_class for a in error.attempts] == ["rate_limited", "server_error"]
    assert error.__cause__ is not None and "500" in str(error.__cause__)


def test_a_stream_broken_mid_way_is_never_spliced(server: Targets) -> None:
    """Two deltas delivered, then the connection drops: the caller gets a typed error saying
    what was delivered; the next target is not asked (its answer would not continue this)."""
    frames = openai_text_stream("one two three four")
    t1 = server.plan("m1", Stream(frames, break_after=2))
    t2 = server.plan("m2", Stream(openai_text_stream("other")))
    delivered: list[str] = []
    with FallbackChain([(client("openai", t1), "a"), (client("openai", t2), "b")]) as chain:
        with pytest.raises(StreamInterruptedError) as info, chain.stream(USER) as stream:
            for event in stream:
                if isinstance(event, PartialContentDelta):
                    delivered.append(event.content)
    error = info.value
    assert "".join(delivered) == "one two"
    assert error.partial is not None and error.partial.content == "one two"
    assert error.delivered_events == 2 and (error.provider, error.model) == ("openai", "a")
    assert error.__cause__ is not None
    assert server.calls("m2") == 0


def test_a_single_client_stream_broken_mid_way_raises_too(server: Targets) -> None:
    """Without a chain the same break is an error, not a short answer."""
    url = server.plan("x1", Stream(openai_text_stream("one two three"), break_after=2))
    with client("openai", url) as llm, pytest.raises(Exception) as info:
        with llm.stream(USER, model="m") as stream:
            stream.final_response()
    assert "broke" in str(info.value)


def test_request_too_large_falls_back_only_to_a_larger_window(server: Targets) -> None:
    """openai@v2's metadata.models: gpt-4o-mini 128k, gpt-5.4 400k, gpt-5.5 1M tokens; an
    unknown model's window is unknown. After a context overflow on gpt-5.4 the chain skips
    the smaller and the unknown windows and asks gpt-5.5."""
    overflow = openai_error(400, "context_length_exceeded", "maximum context length")
    t1 = server.plan("w1", overflow)
    t2 = server.plan("w2", Json(openai_answer("never")))
    t3 = server.plan("w3", Json(openai_answer("never")))
    t4 = server.plan("w4", Json(openai_answer("big")))
    targets = [
        (client("openai@v2", t1), "gpt-5.4"),
        (client("openai@v2", t2), "gpt-4o-mini"),
        (client("openai@v2", t3), "some-unknown-model"),
        (client("openai@v2", t4), "gpt-5.5"),
    ]
    with FallbackChain(targets) as chain:
        reply = chain.chat(USER)
    assert reply.content == "big"
    assert [(a.model, a.outcome) for a in reply.attempts] == [
        ("gpt-5.4", "failed"),
        ("gpt-4o-mini", "skipped"),
        ("some-unknown-model", "skipped"),
        ("gpt-5.5", "answered"),
    ]
    assert "400000" in reply.attempts[1].reason
    assert server.calls("w2") == server.calls("w3") == 0
    # without the rule (or with no larger window) a context overflow is not fallbackable
    t1 = server.plan("w1", overflow)
    fresh = [(client("openai@v2", t1), "gpt-5.4"), (client("openai@v2", t4), "gpt-5.5")]
    with FallbackChain(fresh, context_window_fallback=False) as chain:
        with pytest.raises(RequestTooLargeError):
            chain.chat(USER)


def test_a_chain_budget_refuses_before_sending(server: Targets) -> None:
    """openai@v2 prices gpt-4o at 2.50 / 10.00 per 1M tokens: one answer of 1M input
    tokens spends a 2.00 budget; the next call is refused before anything is sent."""
    usage = {"prompt_tokens": 1_000_000, "completion_tokens": 0, "total_tokens": 1_000_000}
    url = server.plan("b1", Json(openai_answer("costly", usage=usage)))
    budget = Budget("2.00", currency=None)
    with FallbackChain([(client("openai@v2", url), "gpt-4o")], budget=budget) as chain:
        reply = chain.chat(USER)
        assert reply.cost is not None and reply.cost.total == Decimal("2.5")
        assert budget.spent == reply.cost.total
        with pytest.raises(BudgetExceededError, match="budget is spent"):
            chain.chat(USER)
    assert server.calls("b1") == 1


def test_should_fall_back_follows_the_error_table() -> None:
    """Upstream's table (compliance adv-009..012): overloaded and rate limited are
    fallbackable, invalid request and request too large are not."""
    from agentproto.llm.errors import error_class

    verdicts = {code: error_class(code).fallbackable for code in ("E3002", "E2001", "E1001")}
    assert verdicts == {"E3002": True, "E2001": True, "E1001": False}
    assert error_class("E1005").fallbackable is False
    assert should_fall_back(RateLimitedError.__new__(RateLimitedError)) is True
    assert should_fall_back(ValueError("not a provider error")) is False


def test_a_chain_needs_targets_and_models() -> None:
    with pytest.raises(ValueError, match="at least one target"):
        FallbackChain([])
    with LLMClient("openai", api_key=KEY) as llm:
        with pytest.raises(ValueError, match="do not pass model"):
            FallbackChain([(llm, "m")]).chat(USER, model="x")


def test_usage_only_events_before_the_answer_are_held_not_lost(server: Targets) -> None:
    """An Anthropic stream opens with message_start (usage only): held back until the first
    real event, then delivered in order (nothing dropped when the stream goes on)."""
    frames = anthropic_sse(
        ANTHROPIC_START,
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}},
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn"},
            "usage": {"output_tokens": 1},
        },
        {"type": "message_stop"},
    )
    url = server.plan("h1", Stream(frames))
    with FallbackChain([(client("anthropic", url), "c")]) as chain, chain.stream(USER) as stream:
        events = list(stream)
        final = stream.final_response()
    assert (
        isinstance(events[0], Metadata) and events[0].usage == ANTHROPIC_START["message"]["usage"]
    )
    assert final.content == "hi" and final.usage is not None and final.usage.input_tokens == 9
    assert [a.outcome for a in final.attempts] == ["answered"]


def test_sse_helper_frames() -> None:
    assert sse({"a": 1})[-1] == b"data: [DONE]\n\n"


def test_a_chain_stream_dropped_unclosed_is_freed_at_once(server: Targets) -> None:
    """The chain's event generator holds the delivery, not the stream: no reference cycle."""
    url = server.plan("drop1", Stream(openai_text_stream("a b c")))
    with FallbackChain([(client("openai", url), "m")]) as chain:
        gc.disable()
        try:
            stream = chain.stream(USER)
            events = iter(stream)
            assert isinstance(next(events), PartialContentDelta)
            ref = weakref.ref(stream)
            del stream, events
            assert ref() is None
        finally:
            gc.enable()


def test_a_budget_shared_by_a_chain_and_its_client_is_charged_once(server: Targets) -> None:
    """One Budget given to the chain and to the client inside it: each answer counts once
    (a chat, and a stream's final answer), sync and async."""
    usage = {"prompt_tokens": 100_000, "completion_tokens": 0, "total_tokens": 100_000}
    url = server.plan("once", Json(openai_answer("priced", usage=usage)))
    budget = Budget("10.00")
    target = [(client("openai@v2", url, budget=budget), "gpt-4o")]
    with FallbackChain(target, budget=budget) as chain:
        reply = chain.chat(USER)
    assert reply.cost is not None and reply.cost.total == Decimal("0.25")
    assert (budget.spent, budget.charges) == (Decimal("0.25"), 1)

    streamed = server.plan("once-s", Stream(openai_text_stream("streamed", usage=usage)))

    async def main() -> ChatResponse:
        atarget = [(aclient("openai@v2", streamed, budget=budget), "gpt-4o")]
        async with AsyncFallbackChain(atarget, budget=budget) as achain:
            async with achain.stream(USER) as stream:
                return await stream.final_response()

    final = anyio.run(main)
    assert final.cost is not None and final.cost.total == Decimal("0.25")
    assert (budget.spent, budget.charges) == (Decimal("0.50"), 2)


def test_a_stream_read_to_its_end_is_charged_to_the_chain_once(server: Targets) -> None:
    """A caller that reads a chain's stream event by event (no ``final_response()``) still
    pays for the answer in the chain's budget; asking for the final response afterwards does
    not charge it again. Sync and async."""
    usage = {"prompt_tokens": 100_000, "completion_tokens": 0, "total_tokens": 100_000}
    url = server.plan("read-out", Stream(openai_text_stream("read out", usage=usage)))
    budget = Budget("10.00")
    with FallbackChain([(client("openai@v2", url), "gpt-4o")], budget=budget) as chain:
        with chain.stream(USER) as stream:
            events = list(stream)  # read to the end, event by event
            assert any(isinstance(event, PartialContentDelta) for event in events)
            assert (budget.spent, budget.charges) == (Decimal("0.25"), 1)
            assert stream.final_response().cost.total == Decimal("0.25")  # type: ignore[union-attr]
    assert (budget.spent, budget.charges) == (Decimal("0.25"), 1)

    async def main() -> None:
        async with AsyncFallbackChain([(aclient("openai@v2", url), "gpt-4o")], budget=budget) as c:
            async with c.stream(USER) as stream:
                async for _ in stream:
                    pass
                assert (budget.spent, budget.charges) == (Decimal("0.50"), 2)
                await stream.final_response()

    anyio.run(main)
    assert (budget.spent, budget.charges) == (Decimal("0.50"), 2)
