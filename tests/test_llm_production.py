"""Cost, budgets, prompt caching, reasoning controls, telemetry and hooks (issue 27), over
loopback HTTP with real provider-shaped answers."""

from __future__ import annotations

import copy
import gc
import weakref
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml
from agentproto._runtime.telemetry import Telemetry
from agentproto.llm import (
    Budget,
    BudgetExceededError,
    ErrorInfo,
    FallbackChain,
    Hooks,
    LLMClient,
    Manifest,
    ModelCatalog,
    ProviderError,
    RequestInfo,
    ResponseInfo,
)
from agentproto.llm.errors import RateLimitedError
from agentproto.llm.pricing import cost_of, price_of
from agentproto.llm.problems import UnsupportedError
from agentproto.llm.response import Usage
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from tests.conftest import ROOT
from tests.servers.targets import (
    Json,
    Stream,
    Targets,
    anthropic_sse,
    openai_answer,
    openai_error,
    openai_text_stream,
    targets_server,
)

USER = [{"role": "user", "content": "hi"}]
KEY = "sk-test-production-SECRET"
V2 = ROOT / "schemas" / "ai_protocol" / "v2" / "providers"


@pytest.fixture(scope="module")
def server() -> Iterator[Targets]:
    with targets_server() as targets:
        yield targets


def client(provider: str | Manifest, url: str, **options: Any) -> LLMClient:
    return LLMClient(provider, api_key=KEY, base_url=url, retry=False, timeout=10.0, **options)


def v2_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((V2 / f"{name}.yaml").read_text("utf-8"))
    return data


def chat_once(
    server: Targets, tag: str, provider: str | Manifest, body: Any, model: str, **kw: Any
) -> Any:
    url = server.plan(tag, Json(body))
    with client(provider, url, **kw) as llm:
        return llm.chat(USER, model=model)


# -- cost: every price shape ------------------------------------------------------------------


def test_cost_from_v2_per_model_prices_per_million(server: Targets) -> None:
    """openai@v2: ``metadata.models.gpt-4o.pricing`` = 2.50 in / 10.00 out per 1M tokens."""
    usage = {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
    reply = chat_once(server, "p1", "openai@v2", openai_answer("x", usage=usage), "gpt-4o")
    cost = reply.cost
    assert cost is not None and cost.currency is None  # the manifest names no currency
    assert (cost.input, cost.output, cost.total) == (
        Decimal("0.0025"),
        Decimal("0.005"),
        Decimal("0.0075"),
    )
    assert reply.usage.cost is cost and "metadata.models.gpt-4o.pricing" in cost.source


def test_cached_reads_are_priced_at_their_own_price_or_not_at_all(server: Targets) -> None:
    """xai@v2 grok-4.20-0309-reasoning declares ``cache_read_per_1m: 0.2`` beside 1.25 / 2.5:
    400 of 1000 prompt tokens read from the cache cost 0.2 per 1M, not 1.25. openai@v2's
    gpt-4o declares no cache price: its cost is unknown (None, the part named), never the
    cached tokens at the full input price and never 0."""
    usage = {
        "prompt_tokens": 1000,
        "completion_tokens": 100,
        "total_tokens": 1100,
        "prompt_tokens_details": {"cached_tokens": 400},
    }
    answer = openai_answer("x", usage=usage)
    grok = chat_once(server, "p2", "xai@v2", answer, "grok-4.20-0309-reasoning")
    assert grok.usage.cache_read_tokens == 400 and grok.usage.input_tokens == 1000
    cost = grok.cost
    assert cost is not None
    assert cost.input == Decimal("0.00075")  # 600 fresh tokens
    assert cost.cache_read == Decimal("0.00008")  # 400 cached tokens
    assert cost.output == Decimal("0.00025") and cost.total == Decimal("0.00108")
    gpt = chat_once(server, "p3", "openai@v2", answer, "gpt-4o")
    assert gpt.cost is not None and gpt.cost.total is None
    assert gpt.cost.missing == ("cache_read price",) and gpt.cost.input == Decimal("0.0015")


def test_deepseek_cache_hits_are_priced(server: Targets) -> None:
    """deepseek@v2 deepseek-v4-flash: 0.14 / 0.28 per 1M, cache hits 0.0028 per 1M
    (``cache_hit_input_per_1m``); DeepSeek reports ``prompt_cache_hit_tokens``."""
    usage = {
        "prompt_tokens": 1000,
        "completion_tokens": 100,
        "total_tokens": 1100,
        "prompt_cache_hit_tokens": 800,
        "prompt_cache_miss_tokens": 200,
    }
    reply = chat_once(
        server, "p4", "deepseek@v2", openai_answer("x", usage=usage), "deepseek-v4-flash"
    )
    cost = reply.cost
    assert reply.usage.cache_read_tokens == 800
    assert cost is not None and cost.total == Decimal("0.000028") + Decimal("0.00000224") + Decimal(
        "0.000028"
    )


def test_anthropic_cache_writes_and_reads_each_at_their_price(server: Targets) -> None:
    """Anthropic reports cache writes and reads beside its input_tokens: input_tokens counts
    all of them (100 + 1000 + 2000), each priced by its own declared price."""
    data = v2_data("anthropic")
    data["metadata"]["models"]["claude-test"] = {
        "pricing": {
            "input_per_1m": 3.0,
            "output_per_1m": 15.0,
            "cache_read_per_1m": 0.3,
            "cache_write_per_1m": 3.75,
            "currency": "USD",
        }
    }
    manifest = Manifest.from_dict(data, source="anthropic with cache prices")
    answer = {
        "content": [{"type": "text", "text": "x"}],
        "stop_reason": "end_turn",
        "usage": {
            "input_tokens": 100,
            "cache_creation_input_tokens": 1000,
            "cache_read_input_tokens": 2000,
            "output_tokens": 50,
        },
    }
    reply = chat_once(server, "p5", manifest, answer, "claude-test")
    usage = reply.usage
    assert (usage.input_tokens, usage.cache_write_tokens, usage.cache_read_tokens) == (
        3100,
        1000,
        2000,
    )
    cost = reply.cost
    assert cost is not None and cost.currency == "USD"
    assert (cost.input, cost.cache_write, cost.cache_read, cost.output) == (
        Decimal("0.0003"),
        Decimal("0.00375"),
        Decimal("0.0006"),
        Decimal("0.00075"),
    )
    assert cost.total == Decimal("0.0054")


def test_provider_level_pricing_per_thousand_and_per_model_over_it(server: Targets) -> None:
    """v2 ``pricing`` (schemas/v2/pricing.json, per 1k tokens, a currency kept as declared);
    a model's own ``metadata.models`` price wins over it."""
    data = yaml.safe_load(
        (
            ROOT / "tests/fixtures/ai-protocol-compliance/fixtures/providers/mock-deepseek-v2.yaml"
        ).read_text()
    )
    data["pricing"] = {"input_per_1k_tokens": 0.5, "output_per_1k_tokens": 1.5, "currency": "CNY"}
    data["metadata"] = {"models": {"special": {"pricing": {"input_per_1m": 1, "output_per_1m": 2}}}}
    manifest = Manifest.from_dict(data, source="deepseek with prices")
    usage = {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
    reply = chat_once(server, "p6", manifest, openai_answer("x", usage=usage), "any-model")
    assert reply.cost is not None and reply.cost.currency == "CNY"
    assert reply.cost.total == Decimal("1.25") and "per 1k tokens" in reply.cost.source
    special = price_of(manifest, "special")
    assert special is not None and special.input == Decimal("0.000001")
    assert "metadata.models.special" in special.source


def test_v1_model_records_price_per_token(server: Targets, tmp_path: Path) -> None:
    """The bundled v1 openai manifest has no prices; upstream's v1 model records (shipped
    with the package) do: gpt-4o-mini 1.5e-7 in / 6e-7 out per token. A catalog of your own
    (a v1 model-record file) works the same."""
    usage = {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}
    reply = chat_once(server, "p7", "openai", openai_answer("x", usage=usage), "gpt-4o-mini")
    assert reply.cost is not None and reply.cost.total == Decimal("0.00021")
    assert "models.gpt-4o-mini.pricing (per token)" in reply.cost.source
    # by model_id too (the record's key is gpt-35-turbo, its model_id gpt-3.5-turbo)
    assert price_of(Manifest.bundled("openai"), "gpt-3.5-turbo", ModelCatalog.bundled("openai"))
    file = tmp_path / "models.yaml"
    file.write_text(
        yaml.safe_dump(
            {"models": {"house": {"pricing": {"input_per_token": 1e-6, "output_per_token": 2e-6}}}}
        )
    )
    reply = chat_once(
        server,
        "p8",
        "openai",
        openai_answer("x", usage=usage),
        "house",
        catalog=ModelCatalog.load(file),
    )
    assert reply.cost is not None and reply.cost.total == Decimal("0.0012")


def test_an_unknown_price_is_none_never_zero(server: Targets) -> None:
    reply = chat_once(server, "p9", "openai", openai_answer("x"), "no-such-model")
    assert reply.usage is not None and reply.usage.input_tokens == 10
    assert reply.cost is None


def test_a_streamed_answer_is_priced_too(server: Targets) -> None:
    usage = {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
    url = server.plan("p10", Stream(openai_text_stream("a b c", usage=usage)))
    with client("openai@v2", url) as llm, llm.stream(USER, model="gpt-4o") as stream:
        final = stream.final_response()
    assert final.content == "a b c" and final.cost is not None
    assert final.cost.total == Decimal("0.0075")


def test_cost_of_names_the_missing_count() -> None:
    price = price_of(Manifest.bundled("openai@v2"), "gpt-4o")
    cost = cost_of(Usage(input_tokens=None, output_tokens=5), price)
    assert cost is not None and cost.total is None and "input" in cost.missing


# -- budgets ------------------------------------------------------------------------------------


def test_a_client_budget_refuses_once_spent_and_refuses_unpriced_models(server: Targets) -> None:
    usage = {"prompt_tokens": 400_000, "completion_tokens": 0, "total_tokens": 400_000}
    url = server.plan("g1", Json(openai_answer("x", usage=usage)))
    budget = Budget(Decimal("1.5"))
    with client("openai@v2", url, budget=budget) as llm:
        llm.chat(USER, model="gpt-4o")  # 1.00
        assert budget.spent == Decimal("1") and budget.remaining == Decimal("0.5")
        llm.chat(USER, model="gpt-4o")  # 2.00: over, charged; the next is refused
        with pytest.raises(BudgetExceededError) as info:
            llm.chat(USER, model="gpt-4o")
        assert info.value.budget is budget
        with pytest.raises(BudgetExceededError, match="the budget is spent"):  # streams too
            llm.stream(USER, model="gpt-4o")
    with client("openai@v2", url, budget=Budget(100)) as llm:
        with pytest.raises(BudgetExceededError, match="no known price"):
            llm.chat(USER, model="unpriced")
    assert server.calls("g1") == 2
    assert budget.charges == 2 and "spent 2" in repr(budget)


def test_a_budget_in_one_currency_refuses_a_price_in_another(server: Targets) -> None:
    data = v2_data("openai")
    data["pricing"] = {"input_per_1k_tokens": 1, "output_per_1k_tokens": 1, "currency": "CNY"}
    url = server.plan("g2", Json(openai_answer("x")))
    with client(Manifest.from_dict(data), url, budget=Budget(10, currency="USD")) as llm:
        with pytest.raises(BudgetExceededError, match="CNY"):
            llm.chat(USER, model="no-model-price")
    assert server.calls("g2") == 0


# -- prompt caching -----------------------------------------------------------------------------

EPHEMERAL = {"type": "ephemeral"}
TOOL = {
    "name": "lookup",
    "description": "Look it up.",
    "parameters": {"type": "object", "properties": {}},
    "cache_control": EPHEMERAL,
}
ANTHROPIC_ANSWER = {"content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn"}


def test_cache_hints_reach_anthropics_body(server: Targets) -> None:
    """cache_control on a system block, a user text block, a whole message and a tool reaches
    the body; the system prompt goes as blocks, not flattened (it was dropped silently)."""
    messages = [
        {
            "role": "system",
            "content": [
                {"type": "text", "text": "You are terse."},
                {"type": "text", "text": "A long reference text.", "cache_control": EPHEMERAL},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "text",
                    "text": "A long document.",
                    "cache_control": {"type": "ephemeral", "ttl": "1h"},
                },
                {"type": "text", "text": "Question?"},
            ],
        },
        {"role": "assistant", "content": "Answer."},
        {"role": "user", "content": "More?", "cache_control": EPHEMERAL},
    ]
    url = server.plan("k1", Json(ANTHROPIC_ANSWER))
    with client("anthropic", url) as llm:
        llm.chat(messages, model="claude", tools=[TOOL])
    body = server.body("k1")
    assert body["system"] == [
        {"type": "text", "text": "You are terse."},
        {"type": "text", "text": "A long reference text.", "cache_control": EPHEMERAL},
    ]
    assert body["messages"][0]["content"][0]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    assert "cache_control" not in body["messages"][0]["content"][1]
    assert body["messages"][2]["content"][-1] == {
        "type": "text",
        "text": "More?",
        "cache_control": EPHEMERAL,
    }
    assert body["tools"][0]["cache_control"] == EPHEMERAL
    # a plain system prompt stays a string
    with client("anthropic", url) as llm:
        llm.chat([{"role": "system", "content": "plain"}, *USER], model="claude")
    assert server.body("k1")["system"] == "plain"


@pytest.mark.parametrize("provider", ["openai", "gemini", "cohere"])
def test_formats_without_cache_hints_refuse_them(server: Targets, provider: str) -> None:
    url = server.plan(f"k2{provider}", Json(openai_answer("x")))
    hinted = [
        {"role": "user", "content": [{"type": "text", "text": "x", "cache_control": EPHEMERAL}]}
    ]
    with client(provider, url) as llm:
        with pytest.raises(ValueError, match=r"messages\[0\]\.content\[0\]: cache_control"):
            llm.chat(hinted, model="m")
        with pytest.raises(ValueError, match=r"tools\[0\]: cache_control"):
            llm.chat(USER, model="m", tools=[TOOL])
    assert server.calls(f"k2{provider}") == 0


def test_drop_cache_hints_is_an_explicit_opt_in(server: Targets) -> None:
    url = server.plan("k3", Json(openai_answer("x")))
    hinted = [{"role": "system", "content": "s", "cache_control": EPHEMERAL}, *USER]
    with client("openai", url, drop_cache_hints=True) as llm:
        llm.chat(hinted, model="m", tools=[TOOL])
    body = server.body("k3")
    assert "cache_control" not in str(body)
    assert body["messages"][0] == {"role": "system", "content": "s"}


def test_cached_tokens_are_standard_usage_fields(server: Targets) -> None:
    """OpenAI (prompt_tokens_details.cached_tokens), Anthropic (cache_read / creation
    beside input_tokens), Gemini (cachedContentTokenCount within promptTokenCount)."""
    openai = chat_once(
        server,
        "u1",
        "openai",
        openai_answer(
            "x",
            usage={
                "prompt_tokens": 50,
                "completion_tokens": 5,
                "total_tokens": 55,
                "prompt_tokens_details": {"cached_tokens": 32},
            },
        ),
        "m",
    )
    assert (
        openai.usage.input_tokens,
        openai.usage.cache_read_tokens,
        openai.usage.cache_write_tokens,
    ) == (
        50,
        32,
        None,
    )
    anthropic = chat_once(
        server,
        "u2",
        "anthropic",
        {
            **ANTHROPIC_ANSWER,
            "usage": {
                "input_tokens": 5,
                "cache_read_input_tokens": 40,
                "cache_creation_input_tokens": 7,
                "output_tokens": 3,
            },
        },
        "m",
    )
    assert (
        anthropic.usage.input_tokens,
        anthropic.usage.cache_read_tokens,
        anthropic.usage.cache_write_tokens,
    ) == (
        52,
        40,
        7,
    )
    assert anthropic.usage.total_tokens == 55
    gemini = chat_once(
        server,
        "u3",
        "gemini",
        {
            "candidates": [{"content": {"parts": [{"text": "x"}]}, "finishReason": "STOP"}],
            "usageMetadata": {
                "promptTokenCount": 60,
                "cachedContentTokenCount": 48,
                "candidatesTokenCount": 4,
                "totalTokenCount": 64,
            },
        },
        "m",
    )
    assert (gemini.usage.input_tokens, gemini.usage.cache_read_tokens) == (60, 48)


# -- reasoning ----------------------------------------------------------------------------------


def test_anthropic_gets_a_thinking_budget_not_a_verbatim_field(server: Targets) -> None:
    """The bundled anthropic manifest maps reasoning_effort verbatim (a field Anthropic does not
    know); it is translated into ``thinking`` with a budget, max_tokens kept above it."""
    url = server.plan("r1", Json(ANTHROPIC_ANSWER))
    with client("anthropic", url) as llm:
        llm.chat(USER, model="m", reasoning_effort="medium")
        body = server.body("r1")
        assert "reasoning_effort" not in body
        assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
        assert body["max_tokens"] > 2048
        llm.chat(USER, model="m", reasoning_budget=5000, max_tokens=8000)
        assert server.body("r1")["thinking"]["budget_tokens"] == 5000
        with pytest.raises(ValueError, match="must exceed the thinking budget"):
            llm.chat(USER, model="m", reasoning_budget=5000, max_tokens=1000)
        with pytest.raises(UnsupportedError, match="at least 1024"):
            llm.chat(USER, model="m", reasoning_budget=100)
    assert server.calls("r1") == 2


def test_gemini_gets_a_thinking_config_where_its_manifest_declares_reasoning(
    server: Targets,
) -> None:
    answer = {"candidates": [{"content": {"parts": [{"text": "x"}]}, "finishReason": "STOP"}]}
    url = server.plan("r2", Json(answer))
    with client("gemini@v2", url) as llm:
        llm.chat(USER, model="m", reasoning_effort="low")
    assert server.body("r2")["generationConfig"]["thinkingConfig"] == {"thinkingBudget": 1024}
    with client("gemini", url) as llm:  # the v1 manifest says reasoning: false
        with pytest.raises(UnsupportedError, match="declares no reasoning"):
            llm.chat(USER, model="m", reasoning_effort="low")
    assert server.calls("r2") == 1


def test_an_openai_family_manifest_passes_the_effort_it_maps(server: Targets) -> None:
    url = server.plan("r3", Json(openai_answer("x")))
    with client("openai", url) as llm:
        llm.chat(USER, model="o3", reasoning_effort="high")
        assert server.body("r3")["reasoning_effort"] == "high"
        with pytest.raises(UnsupportedError, match="no thinking-token budget"):
            llm.chat(USER, model="o3", reasoning_budget=2048)
    with client("mistral@v2", url) as llm:  # declares no reasoning_effort
        with pytest.raises(UnsupportedError, match="declares no reasoning_effort"):
            llm.chat(USER, model="m", reasoning_effort="high")
    assert server.calls("r3") == 1


# -- telemetry and hooks ------------------------------------------------------------------------


@pytest.fixture
def otel() -> Iterator[tuple[Telemetry, InMemorySpanExporter, InMemoryMetricReader]]:
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    reader = InMemoryMetricReader()
    meter_provider = MeterProvider(metric_readers=[reader])
    telemetry = Telemetry(
        "agentproto.llm", tracer_provider=tracer_provider, meter_provider=meter_provider
    )
    yield telemetry, exporter, reader
    tracer_provider.shutdown()
    meter_provider.shutdown()


def metric_points(reader: InMemoryMetricReader) -> dict[str, list[Any]]:
    data = reader.get_metrics_data()
    out: dict[str, list[Any]] = {}
    for resource in data.resource_metrics if data else []:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                out.setdefault(metric.name, []).extend(metric.data.data_points)
    return out


def test_a_chat_span_follows_the_genai_conventions(server: Targets, otel: Any) -> None:
    telemetry, exporter, reader = otel
    usage = {"prompt_tokens": 1000, "completion_tokens": 500, "total_tokens": 1500}
    url = server.plan("t1", Json(openai_answer("x", usage=usage, model="gpt-4o-2024")))
    with client("openai@v2", url, telemetry=telemetry) as llm:
        llm.chat(USER, model="gpt-4o", temperature=0.3, max_tokens=64)
    [span] = exporter.get_finished_spans()
    attributes = dict(span.attributes or {})
    assert span.name == "chat gpt-4o" and span.kind is SpanKind.CLIENT
    assert attributes["gen_ai.operation.name"] == "chat"
    assert attributes["gen_ai.system"] == attributes["gen_ai.provider.name"] == "openai"
    assert attributes["gen_ai.request.model"] == "gpt-4o"
    assert attributes["gen_ai.response.model"] == "gpt-4o-2024"
    assert (attributes["gen_ai.request.temperature"], attributes["gen_ai.request.max_tokens"]) == (
        0.3,
        64,
    )
    assert (attributes["gen_ai.usage.input_tokens"], attributes["gen_ai.usage.output_tokens"]) == (
        1000,
        500,
    )
    assert tuple(attributes["gen_ai.response.finish_reasons"]) == ("stop",)
    assert attributes["gen_ai.usage.cost"] == pytest.approx(0.0075)
    assert attributes["server.address"] == "127.0.0.1"
    assert KEY not in str(attributes)
    points = metric_points(reader)
    tokens = {
        dict(p.attributes)["gen_ai.token.type"]: p.sum for p in points["gen_ai.client.token.usage"]
    }
    assert tokens == {"input": 1000, "output": 500}
    assert points["gen_ai.client.operation.duration"][0].count == 1
    assert points["gen_ai.client.cost"][0].sum == pytest.approx(0.0075)


GEMINI_ANSWER = {
    "candidates": [
        {"content": {"role": "model", "parts": [{"text": "x"}]}, "finishReason": "STOP"}
    ],
    "usageMetadata": {"promptTokenCount": 7, "candidatesTokenCount": 2, "totalTokenCount": 9},
    "modelVersion": "gemini-2.0-flash-001",
    "responseId": "gem-resp-77",
}
ANTHROPIC_ANSWER = {
    "id": "msg_01Abc",
    "type": "message",
    "role": "assistant",
    "model": "claude-x-2025",
    "content": [{"type": "text", "text": "x"}],
    "stop_reason": "end_turn",
    "usage": {"input_tokens": 7, "output_tokens": 2},
}


@pytest.mark.parametrize(
    ("manifest", "answer", "provider", "response_id", "answered"),
    [
        ("openai", openai_answer("x", model="gpt-4o-2024"), "openai", "chatcmpl-1", "gpt-4o-2024"),
        ("anthropic", ANTHROPIC_ANSWER, "anthropic", "msg_01Abc", "claude-x-2025"),
        ("gemini", GEMINI_ANSWER, "gcp.gemini", "gem-resp-77", "gemini-2.0-flash-001"),
    ],
)
def test_genai_attributes_per_provider(
    server: Targets,
    otel: Any,
    manifest: str,
    answer: Any,
    provider: str,
    response_id: str,
    answered: str,
) -> None:
    """Issue 43: ``gen_ai.provider.name`` is the conventions' value (``gcp.gemini``, not the
    manifest id), ``gen_ai.response.id`` the completion's id from the body (not an HTTP
    request id), and the sampling parameters are there wherever the provider's body puts
    them (Gemini: ``generationConfig``)."""
    telemetry, exporter, _reader = otel
    url = server.plan(f"g-{manifest}", Json(answer))
    with client(manifest, url, telemetry=telemetry) as llm:
        llm.chat(USER, model="m1", temperature=0.25, max_tokens=48, top_p=0.5)
    [span] = exporter.get_finished_spans()
    attributes = dict(span.attributes or {})
    assert attributes["gen_ai.provider.name"] == attributes["gen_ai.system"] == provider
    assert attributes["agentproto.llm.manifest"] == manifest
    assert attributes["gen_ai.response.id"] == response_id
    assert attributes["gen_ai.response.model"] == answered
    sent = server.body(f"g-{manifest}")
    assert (
        attributes["gen_ai.request.temperature"],
        attributes["gen_ai.request.max_tokens"],
        attributes["gen_ai.request.top_p"],
    ) == (0.25, 48, 0.5), sent
    if manifest == "gemini":  # sent where Gemini reads them
        assert sent["generationConfig"]["maxOutputTokens"] == 48


def test_a_failed_call_and_a_stream_make_spans(server: Targets, otel: Any) -> None:
    telemetry, exporter, _reader = otel
    url = server.plan(
        "t2", openai_error(429, "rate_limit_exceeded"), Stream(openai_text_stream("a b"))
    )
    with client("openai", url, telemetry=telemetry) as llm:
        with pytest.raises(RateLimitedError):
            llm.chat(USER, model="m")
        with llm.stream(USER, model="m") as stream:
            assert stream.final_response().content == "a b"
    failed, streamed = exporter.get_finished_spans()
    assert failed.status.status_code is StatusCode.ERROR
    assert dict(failed.attributes or {})["error.type"] == "rate_limited"
    assert dict(streamed.attributes or {})["gen_ai.request.stream"] is True
    assert tuple(dict(streamed.attributes or {})["gen_ai.response.finish_reasons"]) == ("stop",)


def test_a_chain_span_is_the_parent_of_its_attempts(server: Targets, otel: Any) -> None:
    telemetry, exporter, _reader = otel
    t1 = server.plan("t3", openai_error(503, "overloaded"))
    t2 = server.plan("t4", Json(openai_answer("ok")))
    targets = [
        (client("openai", t1, telemetry=telemetry), "a"),
        (client("openai", t2, telemetry=telemetry), "b"),
    ]
    with FallbackChain(targets, telemetry=telemetry) as chain:
        assert chain.chat(USER).content == "ok"
    spans = {s.name: s for s in exporter.get_finished_spans()}
    parent = spans["fallback chat"]
    assert dict(parent.attributes or {})["agentproto.fallback.attempts"] == 2
    for name in ("chat a", "chat b"):
        assert (
            spans[name].parent is not None and spans[name].parent.span_id == parent.context.span_id
        )


def test_without_an_sdk_nothing_is_recorded_and_streams_take_no_extra_step(
    server: Targets,
) -> None:
    """opentelemetry-api installed but no SDK configured: spans are non-recording, treated as
    none; a stream then has no observing step per event."""
    url = server.plan("t5", Stream(openai_text_stream("a b")))
    with client("openai", url) as llm, llm.stream(USER, model="m") as stream:
        assert stream._iterator.__name__ == "_chat_events"
        assert stream.final_response().content == "a b"
    with client("openai", url, telemetry=False) as llm:
        assert llm.observer.active is False


def test_an_observed_stream_dropped_unclosed_is_freed_at_once(server: Targets, otel: Any) -> None:
    """With a span and a budget the stream has an observing step, which holds the fold, not
    the stream: no reference cycle, so a stream dropped unclosed is freed (and its span ended,
    marked closed early) without the garbage collector."""
    telemetry, exporter, _reader = otel
    url = server.plan("t8", Stream(openai_text_stream("a b c")))
    with client("openai@v2", url, telemetry=telemetry, budget=Budget(100)) as llm:
        gc.disable()
        try:
            stream = llm.stream(USER, model="gpt-4o")
            assert stream._iterator.__name__ == "_observe"
            next(iter(stream))
            ref = weakref.ref(stream)
            del stream
            assert ref() is None
        finally:
            gc.enable()
    (span,) = exporter.get_finished_spans()
    assert dict(span.attributes or {})["agentproto.stream.closed_early"] is True


def test_hooks_see_requests_answers_and_errors_without_the_key(server: Targets) -> None:
    seen: list[Any] = []
    hooks = Hooks(on_request=seen.append, on_response=seen.append, on_error=seen.append)
    url = server.plan("t6", Json(openai_answer("hello")), openai_error(500, "server_error"))
    with client("openai", url, hooks=hooks) as llm:
        llm.chat(USER, model="m")
        with pytest.raises(ProviderError) as failed:
            llm.chat(USER, model="m")
    request, response, request2, error = seen
    assert isinstance(request, RequestInfo) and request.body["messages"] == USER
    assert isinstance(request2, RequestInfo) and isinstance(error, ErrorInfo)
    assert error.error is failed.value
    assert request.url.endswith("/t6/chat/completions") and KEY not in str(request)
    assert isinstance(response, ResponseInfo) and response.response.content == "hello"
    assert response.elapsed > 0 and not response.stream
    assert error.error.status_code == 500 and error.model == "m"


def test_a_hook_on_a_stream_fires_at_its_end(server: Targets) -> None:
    answers: list[ResponseInfo] = []
    url = server.plan(
        "t7",
        Stream(
            anthropic_sse(
                {
                    "type": "message_start",
                    "message": {"usage": {"input_tokens": 3, "output_tokens": 0}},
                },
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "text", "text": ""},
                },
                {
                    "type": "content_block_delta",
                    "index": 0,
                    "delta": {"type": "text_delta", "text": "hey"},
                },
                {"type": "content_block_stop", "index": 0},
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn"},
                    "usage": {"output_tokens": 1},
                },
                {"type": "message_stop"},
            )
        ),
    )
    with client("anthropic", url, hooks=Hooks(on_response=answers.append)) as llm:
        with llm.stream(USER, model="m") as stream:
            for _ in stream:
                pass
    [info] = answers
    assert info.stream and info.response.content == "hey" and info.response.usage.input_tokens == 3


def test_data_copies_do_not_share_state() -> None:
    data = v2_data("openai")
    assert copy.deepcopy(data) == data
