"""OpenTelemetry spans and metrics for every client, at no cost when OpenTelemetry is absent.

``opentelemetry-api`` is optional (``pip install agentproto[otel]``). It is imported on first
use, once; when it is not installed every helper here is a no-op whose calls cost a few
attribute reads. When it is, spans and metrics go to the global tracer and meter providers (or
the ones given), so whatever SDK and exporter the application configured receives them.

Shared by the protocol clients: the LLM client names its spans and attributes after the GenAI
semantic conventions (``gen_ai.*``); ACP, AAP, Skills and flows can open their own spans with
the same helpers, and a span opened with :meth:`Telemetry.span` is the current span while its
block runs, so the calls made inside it (an agent turn's LLM calls) become its children: one
trace per agent turn.

::

    telemetry = Telemetry("agentproto.llm")
    with telemetry.span("chat gpt-4o-mini", {"gen_ai.operation.name": "chat"}) as span:
        ...
        span.set("gen_ai.usage.input_tokens", 12)

    span = telemetry.start("chat gpt-4o-mini", attrs)   # detached: ended by its owner
    try:
        ...
    finally:
        span.end()
"""

from __future__ import annotations

import time
from collections.abc import Generator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import Any, Protocol, cast

__all__ = ["Histogram", "SpanHandle", "Telemetry", "otel_available"]

AttributeValue = str | bool | int | float | Sequence[str] | Sequence[int] | Sequence[float]


@cache
def _otel() -> tuple[ModuleType, ModuleType] | None:
    """``(opentelemetry.trace, opentelemetry.metrics)``, imported once; ``None`` when the
    optional dependency is not installed."""
    try:
        from opentelemetry import metrics, trace
    except ImportError:
        return None
    return trace, metrics


def otel_available() -> bool:
    """Whether ``opentelemetry-api`` can be imported."""
    return _otel() is not None


def _clean(attributes: Mapping[str, Any]) -> dict[str, AttributeValue]:
    """The attributes OpenTelemetry can carry (``None`` values left out)."""
    out: dict[str, AttributeValue] = {}
    for key, value in attributes.items():
        if value is None:
            continue
        if isinstance(value, str | bool | int | float):
            out[key] = value
        elif isinstance(value, list | tuple):
            out[key] = [str(v) for v in cast("Sequence[Any]", value)]
        else:
            out[key] = str(value)
    return out


class Histogram(Protocol):
    def record(self, amount: float, attributes: Mapping[str, Any] | None = None) -> None: ...


class _NoHistogram:
    __slots__ = ()

    def record(self, amount: float, attributes: Mapping[str, Any] | None = None) -> None:
        return None


class _Histogram:
    __slots__ = ("_inner",)

    def __init__(self, inner: Any) -> None:
        self._inner: Any = inner

    def record(self, amount: float, attributes: Mapping[str, Any] | None = None) -> None:
        self._inner.record(amount, attributes=_clean(attributes or {}))


class SpanHandle:
    """One span (a no-op one when telemetry is off): set attributes, record an error, end.
    Ending twice is harmless."""

    __slots__ = ("_ended", "_span", "started")

    def __init__(self, span: Any = None) -> None:
        self._span: Any = span
        self._ended: bool = False
        self.started: float = time.perf_counter()

    @property
    def recording(self) -> bool:
        return self._span is not None and not self._ended

    @property
    def otel_span(self) -> Any:
        """The OpenTelemetry span (``None`` when nothing is recorded)."""
        return self._span

    def set(self, key: str, value: Any) -> None:
        if self._span is not None and value is not None:
            self._span.set_attributes(_clean({key: value}))

    def set_many(self, attributes: Mapping[str, Any]) -> None:
        if self._span is not None:
            self._span.set_attributes(_clean(attributes))

    def error(self, exc: BaseException, error_type: str | None = None) -> None:
        """Mark the span failed: ``error.type`` (the error's class unless given), the
        exception as an event, status ERROR. The exception's text is recorded as OpenTelemetry
        records it; the clients' own error texts never hold credentials."""
        if self._span is None:
            return
        otel = _otel()
        assert otel is not None
        trace = otel[0]
        self._span.set_attribute("error.type", error_type or type(exc).__qualname__)
        self._span.record_exception(exc)
        self._span.set_status(trace.Status(trace.StatusCode.ERROR, type(exc).__qualname__))

    def end(self) -> None:
        if self._span is not None and not self._ended:
            self._ended = True
            self._span.end()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started


class Telemetry:
    """Spans and metrics for one instrumentation (``agentproto.llm``, ``agentproto.acp``...).

    ``enabled=False`` turns it off; ``tracer_provider`` / ``meter_provider`` replace the global
    providers (tests give an SDK provider with an in-memory exporter). Inactive when
    ``opentelemetry-api`` is not installed.
    """

    def __init__(
        self,
        instrumentation: str,
        *,
        enabled: bool = True,
        tracer_provider: Any = None,
        meter_provider: Any = None,
    ) -> None:
        self.instrumentation: str = instrumentation
        otel = _otel() if enabled else None
        self.active: bool = otel is not None
        self._tracer: Any = None
        self._meter: Any = None
        self._histograms: dict[str, Histogram] = {}
        if otel is not None:
            trace, metrics = otel
            self._tracer = (
                tracer_provider.get_tracer(instrumentation)
                if tracer_provider is not None
                else trace.get_tracer(instrumentation)
            )
            self._meter = (
                meter_provider.get_meter(instrumentation)
                if meter_provider is not None
                else metrics.get_meter(instrumentation)
            )

    def __repr__(self) -> str:
        return f"<Telemetry {self.instrumentation} {'active' if self.active else 'off'}>"

    def start(
        self, name: str, attributes: Mapping[str, Any] | None = None, *, kind: str = "client"
    ) -> SpanHandle:
        """A span that its owner ends (a stream's: it lives until the stream closes). It is a
        child of the current span, and not made current itself."""
        if not self.active:
            return SpanHandle()  # times the call for hooks; records nothing
        otel = _otel()
        assert otel is not None
        trace = otel[0]
        span_kind = getattr(trace.SpanKind, kind.upper(), trace.SpanKind.INTERNAL)
        span = self._tracer.start_span(name, kind=span_kind, attributes=_clean(attributes or {}))
        # no SDK configured: a non-recording span, treated as none at all (nothing to pay for)
        return SpanHandle(span if span.is_recording() else None)

    @contextmanager
    def span(
        self, name: str, attributes: Mapping[str, Any] | None = None, *, kind: str = "internal"
    ) -> Generator[SpanHandle, None, None]:
        """A span that is the current one while the block runs (calls made inside become its
        children); an exception leaving the block marks it failed."""
        handle = self.start(name, attributes, kind=kind)
        if not handle.recording:
            yield handle
            return
        otel = _otel()
        assert otel is not None
        trace = otel[0]
        try:
            with trace.use_span(handle.otel_span, end_on_exit=False):
                yield handle
        except BaseException as exc:
            handle.error(exc)
            raise
        finally:
            handle.end()

    def histogram(self, name: str, *, unit: str, description: str) -> Histogram:
        """A histogram instrument (created once per name)."""
        found = self._histograms.get(name)
        if found is None:
            if not self.active:
                found = _NoHistogram()
            else:
                found = _Histogram(
                    self._meter.create_histogram(name, unit=unit, description=description)
                )
            self._histograms[name] = found
        return found
