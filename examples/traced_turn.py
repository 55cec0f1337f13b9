"""One agent turn across four processes, exported as one OpenTelemetry trace and drawn as a tree.

    python examples/traced_turn.py              # needs opentelemetry-sdk, uvicorn, ai-protocol-mock

- this process is an AAP client: one turn (``Session.send``) in its own span;
- ``python -m agentproto.aap.serve --acp-agent ...`` serves an ACP agent over AAP
  (:mod:`agentproto.aap.acp_agent`);
- the ACP agent is ``examples/acp_llm_agent.py``: its prompt is an LLM tool loop on the mock
  provider (ai-protocol-mock), asking the editor's permission before each tool call;
- the tool is on an MCP server (this file, ``--mcp-server``) the operator gives the ACP agent
  in ``session/new`` (``--mcp-server`` of the AAP server).

Each child runs under ``--run SERVICE``, which installs the OpenTelemetry SDK exporting its
spans as JSON lines into a shared folder (``--console`` prints them instead, with the SDK's
console exporter; an OTLP exporter goes the same way). The trace context crosses every hop:
HTTP headers (AAP), ``_meta`` (ACP, both ways; MCP). The example reads every span back and
prints the one trace as a tree.
"""

from __future__ import annotations

import json
import os
import runpy
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FOLDER = "TRACED_TURN_SPANS"


def install_sdk(service: str) -> None:
    """The OpenTelemetry SDK as this process's tracer provider: spans to ``$TRACED_TURN_SPANS``
    (a JSON line each, written when the span ends), or to the console."""
    from opentelemetry import trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
    from opentelemetry.sdk.trace.export import (
        ConsoleSpanExporter,
        SimpleSpanProcessor,
        SpanExporter,
        SpanExportResult,
    )

    folder = os.environ.get(FOLDER)

    class Lines(SpanExporter):
        def export(self, spans: Any) -> SpanExportResult:
            assert folder is not None
            with open(f"{folder}/{service}-{os.getpid()}.jsonl", "a", encoding="utf-8") as out:
                for span in spans:
                    out.write(json.dumps(record(span, service)) + "\n")
            return SpanExportResult.SUCCESS

    provider = TracerProvider(resource=Resource.create({"service.name": service}))
    exporter: SpanExporter = Lines() if folder else ConsoleSpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    _ = ReadableSpan


def record(span: Any, service: str) -> dict[str, Any]:
    parent = span.parent
    return {
        "service": service,
        "name": span.name,
        "trace": format(span.context.trace_id, "032x"),
        "id": format(span.context.span_id, "016x"),
        "parent": format(parent.span_id, "016x") if parent is not None else None,
        "start": span.start_time,
    }


def mcp_server() -> None:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("steps")

    @server.tool()
    def step_1_tool(step: int) -> dict[str, Any]:
        """Run one step."""
        return {"step": step, "ok": True}

    server.run("stdio")


def draw(spans: list[dict[str, Any]], trace_id: str) -> str:
    mine = [s for s in spans if s["trace"] == trace_id]
    ids = {s["id"] for s in mine}
    lines: list[str] = []

    def walk(parent: str | None, depth: int) -> None:
        children = [s for s in mine if (s["parent"] if s["parent"] in ids else None) == parent]
        for span in sorted(children, key=lambda s: s["start"]):
            lines.append(f"{'  ' * depth}{span['name']}  [{span['service']}]")
            walk(span["id"], depth + 1)

    walk(None, 0)
    return "\n".join(lines)


def main() -> None:
    from _peers import free_port, mock_llm_provider
    from agentproto._runtime.telemetry import shared
    from agentproto.aap import AAPClient, Session

    install_sdk_here = [sys.executable, str(Path(__file__).resolve()), "--run"]
    with tempfile.TemporaryDirectory() as folder, mock_llm_provider() as llm_url:
        os.environ[FOLDER] = folder
        install_sdk("aap-client")
        agent = [*install_sdk_here, "acp-agent", str(HERE / "acp_llm_agent.py")]
        agent += ["--base-url", llm_url, "--model", "m", "--ask"]
        agent += ["--header", "X-Mock-Tool-Calls:recursive", "--header", "X-Mock-Tool-Depth:2"]
        env_prefix = ["/usr/bin/env", f"{FOLDER}={folder}"]
        if os.environ.get("PYTHONPATH"):
            env_prefix.append(f"PYTHONPATH={os.environ['PYTHONPATH']}")
        mcp = env_prefix + install_sdk_here + ["mcp-server", "--mcp-server"]
        port = free_port()
        server = subprocess.Popen(
            [
                *install_sdk_here,
                "aap-server",
                "-m",
                "agentproto.aap.serve",
                "--acp-agent",
                shlex.join(agent),
                "--name",
                "coder",
                "--permissions",
                "allow",
                "--mcp-server",
                f"steps={shlex.join(mcp)}",
                "--no-auth",
                "--port",
                str(port),
                "--store",
                f"sqlite:///{folder}/aap.db",
                "--log-level",
                "warning",
            ],
            stdout=subprocess.DEVNULL,  # its "serving AAP on ..." line
            stderr=subprocess.DEVNULL,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            with AAPClient(url, api_key="unused", timeout=60) as client:
                deadline = time.monotonic() + 60
                while True:
                    try:
                        client.get_meta()
                        break
                    except Exception:
                        if time.monotonic() > deadline or server.poll() is not None:
                            raise
                        time.sleep(0.2)
                session = Session.create(client, "coder", mode="delta")
                with shared("example").span("user asks") as span:
                    result = session.send("Do the steps")
                    trace_id = format(span.otel_span.get_span_context().trace_id, "032x")
                print(f"answer: {result.text} [{result.stop_reason}]")
                session.delete()
        finally:
            server.terminate()
            server.wait(15)
        spans: list[dict[str, Any]] = []
        for path in sorted(Path(folder).glob("*.jsonl")):
            spans += [json.loads(line) for line in path.read_text().splitlines() if line]
    print(draw(spans, trace_id))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--run":  # a child: SDK, then the program
        service, rest = sys.argv[2], sys.argv[3:]
        install_sdk(service)
        if rest == ["--mcp-server"]:
            mcp_server()
        elif rest[0] == "-m":
            sys.argv = [rest[1], *rest[2:]]
            runpy.run_module(rest[1], run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(rest)
            runpy.run_path(rest[0], run_name="__main__")
    else:
        main()
