"""OpenTelemetry spans and metrics for every client, at no cost when OpenTelemetry is absent.

``opentelemetry-api`` is optional (``pip install agentproto[otel]``). It is imported on first
use, once; when it is not installed every helper here is a no-op whose calls cost a few
attribute reads. When it is, spans and metrics go to the global tracer and meter providers (or
the ones given), so whatever SDK and exporter the application configured receives them.

Shared by every side of every protocol: the LLM client names its spans and attributes after the
GenAI semantic conventions (``gen_ai.*``); ACP (requests both ways), AAP (client and server
turns, tool calls), Skill Sharing (consumer and provider kit), flows and the MCP client open
theirs with the same helpers (each through :func:`shared`, which :func:`configure_telemetry`
points at other providers or turns off). A span opened with :meth:`Telemetry.span` is the
current span while its block runs, so the calls made inside it (an agent turn's LLM calls)
become its children.

**Propagation** (W3C trace context, so that one agent turn is one trace across processes):
:func:`inject` writes the current span's ``traceparent`` / ``tracestate`` (and ``baggage``)
into a carrier, :func:`extract` reads them back as the parent of a span
(``Telemetry.span(..., parent=...)``). The HTTP clients inject them into every request's
headers, the HTTP servers extract them; ACP carries them as root keys of a request's
``_meta`` (the extensibility rules reserve those names, as MCP does). They go through
OpenTelemetry's configured propagator (``OTEL_PROPAGATORS``; W3C trace context and baggage by
default).

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

import contextvars
import os
import time
from collections.abc import Generator, Mapping, Sequence
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import Any, Protocol, cast

__all__ = [
    "Histogram",
    "SpanHandle",
    "Telemetry",
    "configure_telemetry",
    "context_with",
    "extract",
    "inject",
    "otel_available",
    "shared",
]

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


@cache
def _propagate() -> ModuleType:
    """``opentelemetry.propagate`` (its import reads ``OTEL_PROPAGATORS`` once)."""
    from opentelemetry import propagate

    return propagate


@cache
def _no_sdk(trace: ModuleType) -> tuple[type, ...]:
    """The global tracer providers that record nothing: OpenTelemetry's proxy (no SDK set
    yet) and its no-op one."""
    return (trace.ProxyTracerProvider, trace.NoOpTracerProvider)


@cache
def _provider_from_environment() -> bool:
    return "OTEL_PYTHON_TRACER_PROVIDER" in os.environ


_UNKNOWN = object()


def _sdk_missing(trace: ModuleType) -> bool:
    """No global tracer provider that records is installed. Asked of every span that would
    go to the global provider, so it reads the API's global directly (a module attribute)
    rather than through ``get_tracer_provider()``, which consults ``os.environ`` on every call
    until a provider is set (10x the cost of the rest of a no-op span); it falls back to that
    call when the attribute is not there, or when the environment names a provider."""
    provider = getattr(trace, "_TRACER_PROVIDER", _UNKNOWN)
    if provider is _UNKNOWN or (provider is None and _provider_from_environment()):
        provider = trace.get_tracer_provider()
    return provider is None or isinstance(provider, _no_sdk(trace))


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
        self._global: bool = tracer_provider is None
        """Spans go to the global provider: none is made while that is not an SDK's."""
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
        self,
        name: str,
        attributes: Mapping[str, Any] | None = None,
        *,
        kind: str = "client",
        parent: Any = None,
    ) -> SpanHandle:
        """A span that its owner ends (a stream's: it lives until the stream closes). It is a
        child of ``parent`` (a context from :func:`extract`) when given, else of the current
        span, and not made current itself."""
        if not self.active:
            return SpanHandle()  # times the call for hooks; records nothing
        otel = _otel()
        assert otel is not None
        trace = otel[0]
        if self._global and _sdk_missing(trace):
            return SpanHandle()  # no SDK installed (yet): nothing could record
        span_kind = getattr(trace.SpanKind, kind.upper(), trace.SpanKind.INTERNAL)
        span = self._tracer.start_span(
            name, context=parent, kind=span_kind, attributes=_clean(attributes or {})
        )
        # no SDK configured: a non-recording span, treated as none at all (nothing to pay for)
        return SpanHandle(span if span.is_recording() else None)

    @contextmanager
    def span(
        self,
        name: str,
        attributes: Mapping[str, Any] | None = None,
        *,
        kind: str = "internal",
        parent: Any = None,
    ) -> Generator[SpanHandle, None, None]:
        """A span that is the current one while the block runs (calls made inside become its
        children); an exception leaving the block marks it failed (a cancellation too: the
        work did not finish). ``parent``: as for :meth:`start`."""
        handle = self.start(name, attributes, kind=kind, parent=parent)
        if not handle.recording:
            yield handle
            return
        with current(handle):
            try:
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


@contextmanager
def current(handle: SpanHandle) -> Generator[None, None, None]:
    """Make ``handle``'s span the current one while the block runs (for a detached span from
    :meth:`Telemetry.start` whose work happens in several places); nothing when it records
    nothing."""
    if not handle.recording:
        yield
        return
    otel = _otel()
    assert otel is not None
    with otel[0].use_span(handle.otel_span, end_on_exit=False):
        yield


def context_with(handle: SpanHandle) -> contextvars.Context:
    """A copy of the current context in which ``handle``'s span is the current one: for work
    run in a task of its own (``create_task(..., context=...)``), where entering and leaving
    :func:`current` could happen in two different contexts (a coroutine started eagerly in one
    and resumed in a task)."""
    context = contextvars.copy_context()
    if handle.recording:
        otel = _otel()
        assert otel is not None
        trace = otel[0]
        from opentelemetry import context as otel_context

        context.run(otel_context.attach, trace.set_span_in_context(handle.otel_span))
    return context


# -- one Telemetry per instrumentation, and where they send -------------------------------------

_settings: dict[str, Any] = {"enabled": True, "tracer_provider": None, "meter_provider": None}
_shared: dict[str, Telemetry] = {}


def configure_telemetry(
    *, enabled: bool = True, tracer_provider: Any = None, meter_provider: Any = None
) -> None:
    """Where the package's own spans and metrics go: by default OpenTelemetry's global
    providers (whatever SDK and exporter the application installed); ``tracer_provider`` /
    ``meter_provider`` send them elsewhere; ``enabled=False`` turns them off, propagation
    included. Applies at once to every ACP connection, AAP server and client, Skill Sharing
    consumer and provider, flows client and MCP tool set, and to the LLM clients made
    afterwards with the default ``telemetry=True``. Without ``opentelemetry-api`` there is
    nothing to configure: everything stays off at no cost."""
    _settings.update(
        enabled=enabled, tracer_provider=tracer_provider, meter_provider=meter_provider
    )
    _shared.clear()


def shared(instrumentation: str) -> Telemetry:
    """The :class:`Telemetry` of ``instrumentation`` (``"agentproto.acp"``...) as
    :func:`configure_telemetry` set it up; made once (importing OpenTelemetry at most once)."""
    found = _shared.get(instrumentation)
    if found is None:
        found = _shared[instrumentation] = Telemetry(
            instrumentation,
            enabled=bool(_settings["enabled"]),
            tracer_provider=_settings["tracer_provider"],
            meter_provider=_settings["meter_provider"],
        )
    return found


# -- propagation ---------------------------------------------------------------------------------


def inject(carrier: dict[str, Any], span: SpanHandle | None = None) -> None:
    """Write the W3C trace context of ``span`` (else of the current span) into ``carrier``
    (HTTP headers, an ACP ``_meta``): ``traceparent``, and ``tracestate`` / ``baggage`` when
    there are any. Nothing when there is no valid span (telemetry off, no SDK, no span), and a
    key already in ``carrier`` is kept (the caller's own)."""
    otel = _otel()
    if otel is None or not _settings["enabled"]:
        return
    trace = otel[0]
    if span is not None:
        if not span.recording:
            return
        context = trace.set_span_in_context(span.otel_span)
        found = span.otel_span
    else:
        context = None
        found = trace.get_current_span()
    if not found.get_span_context().is_valid:
        return
    fresh: dict[str, str] = {}
    _propagate().inject(fresh, context=context)
    for key, value in fresh.items():
        if key not in carrier:
            carrier[key] = value


def extract(carrier: Mapping[str, Any] | None) -> Any:
    """The context a peer sent in ``carrier`` (headers with lower-case names, or an ACP
    ``_meta``), for :meth:`Telemetry.span`'s ``parent``; ``None`` when it holds no valid
    ``traceparent`` (the span is then a child of the current one) or telemetry is off. What a
    peer sends is checked by the propagator: a malformed value is ignored, never an error."""
    if not carrier or "traceparent" not in carrier:
        return None
    otel = _otel()
    if otel is None or not _settings["enabled"]:
        return None
    text = {k: v for k, v in carrier.items() if isinstance(v, str)}
    try:
        context = _propagate().extract(text)
    except (ValueError, TypeError):
        return None
    if not otel[0].get_current_span(context).get_span_context().is_valid:
        return None
    return context
