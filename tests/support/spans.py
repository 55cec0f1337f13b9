"""Spans from several processes, for the tests that follow one trace across them.

A process started through this module (``python -m tests.support.spans SERVICE -m MODULE
ARGS...`` or ``... SERVICE SCRIPT ARGS...``) installs the OpenTelemetry SDK as its global
tracer provider when ``AGENTPROTO_TEST_SPANS`` names a folder: every span it ends is written
there at once (a JSON line per span, one file per process), so a process that is killed
loses nothing it finished. :func:`read_spans` reads them all back; :func:`tree` draws them.
"""

from __future__ import annotations

import json
import os
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ENV = "AGENTPROTO_TEST_SPANS"


def configure_from_env(service: str) -> bool:
    """Install the SDK (this process's spans to the folder ``$AGENTPROTO_TEST_SPANS``);
    ``False`` when the variable is not set."""
    folder = os.environ.get(ENV)
    if not folder:
        return False
    from opentelemetry import trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import (
        SimpleSpanProcessor,
        SpanExporter,
        SpanExportResult,
    )

    path = Path(folder) / f"{service}-{os.getpid()}.jsonl"

    class Lines(SpanExporter):
        def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
            with path.open("a", encoding="utf-8") as file:
                for span in spans:
                    file.write(json.dumps(as_record(span, service)) + "\n")
            return SpanExportResult.SUCCESS

    provider = TracerProvider(resource=Resource.create({"service.name": service}))
    provider.add_span_processor(SimpleSpanProcessor(Lines()))
    trace.set_tracer_provider(provider)
    return True


def as_record(span: Any, service: str) -> dict[str, Any]:
    """A finished SDK span as plain data."""
    context = span.context
    parent = span.parent
    return {
        "service": service,
        "name": span.name,
        "kind": span.kind.name,
        "trace_id": format(context.trace_id, "032x"),
        "span_id": format(context.span_id, "016x"),
        "parent_id": format(parent.span_id, "016x") if parent is not None else None,
        "start": span.start_time,
        "attributes": {
            k: (list(v) if isinstance(v, tuple) else v) for k, v in span.attributes.items()
        },
        "status": span.status.status_code.name,
    }


def read_spans(folder: Path) -> list[dict[str, Any]]:
    spans: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                spans.append(json.loads(line))
    return spans


def tree(spans: list[dict[str, Any]]) -> str:
    """The spans as an indented tree (children in start order): ``name [service]``."""
    by_id = {s["span_id"]: s for s in spans}
    children: dict[str | None, list[dict[str, Any]]] = {}
    for span in spans:
        parent = span["parent_id"] if span["parent_id"] in by_id else None
        children.setdefault(parent, []).append(span)
    lines: list[str] = []

    def walk(parent: str | None, depth: int) -> None:
        for span in sorted(children.get(parent, []), key=lambda s: s["start"]):
            lines.append(f"{'  ' * depth}{span['name']} [{span['service']}]")
            walk(span["span_id"], depth + 1)

    walk(None, 0)
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    service, rest = argv[0], argv[1:]
    configure_from_env(service)
    if rest and rest[0] == "-m":
        sys.argv = [rest[1], *rest[2:]]
        runpy.run_module(rest[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(rest)
        runpy.run_path(rest[0], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
