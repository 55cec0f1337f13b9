"""agents.json flows: build time per bundle, and the executor's per-flow overhead.

Run from the repository root:  python benchmarks/bench_flows.py [--calls 500] [--runs 3]

- build: the flow-plan + render step of `codegen build` for each bundle alone (loading and
  checking the bundle, parsing its OpenAPI files, resolving its operations, rendering and
  formatting its module), median of --runs; alpaca (two OpenAPI files, 864 KB) is the largest.
  cold: the OpenAPI YAML parsed; warm: read from the parsed-OpenAPI cache (JSON).
- rejection: wall time of `python -m codegen build` (a fresh process, like a user's) on a scratch
  copy of the project holding one bad bundle, until it exits 2: a seed-schema violation under
  --strict (theodds as published) and a broken link in a default build; median of --runs.
- overhead: the same GET (giphy's search flow, one action) issued --calls times through the
  generated flow client and directly with httpx (same `httpx.Client`, same loopback server in
  its own process, same query), in one run; the difference per call is what the executor adds.
  The same again for the async flavour (`AsyncGiphyFlows` and one `httpx.AsyncClient`).

``--smoke``: one tiny round (linkup's build, one rejection of each kind, 20 calls), so the suite
runs this benchmark and it cannot rot; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import importlib
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))
sys.path.insert(0, str(ROOT))

import anyio  # noqa: E402
import httpx  # noqa: E402
from agentproto.flows import ApiKeyAuth, giphy  # noqa: E402

from codegen.clients.flows import bundle_module  # noqa: E402
from codegen.inputs import corpus  # noqa: E402
from codegen.inputs.sources import load_document  # noqa: E402
from codegen.package.output import format_text  # noqa: E402
from codegen.package.render import environment  # noqa: E402

SERVER = """
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
body = json.dumps({"data": [{"id": "abc"}], "meta": {"status": 200}}).encode()
import socket
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""


def build_times(runs: int, only: list[str] | None = None) -> dict[str, tuple[float, float]]:
    """(cold, warm) seconds per bundle: cold parses its OpenAPI YAML (no parsed-OpenAPI cache),
    warm reads the JSON kept in ``.codegen-cache/openapi/`` (a scratch root, so the project's
    own cache is left alone)."""
    folder = ROOT / "schemas" / "agents_json"
    schema = load_document(folder / "agents-json.schema.json", ROOT)
    env = environment(ROOT / "templates")
    times = {}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        shutil.copytree(folder / "bundles", root / "bundles")
        for bundle in corpus.bundle_folders(root, root):
            if only is not None and bundle.name not in only:
                continue
            samples: dict[bool, list[float]] = {True: [], False: []}
            for _ in range(runs):
                for cold in (True, False):
                    corpus._parsed.cache_clear()  # parse every run, as a new build does
                    if cold:
                        shutil.rmtree(root / ".codegen-cache", ignore_errors=True)
                    started = time.perf_counter()
                    # the build's own renderer: the module `codegen build` writes
                    format_text(bundle_module(bundle, schema, root, env, warn=_quiet))
                    samples[cold].append(time.perf_counter() - started)
            times[bundle.name] = (
                statistics.median(samples[True]),
                statistics.median(samples[False]),
            )
    return times


def _quiet(*args: object) -> None:
    pass


def rejection_times(runs: int) -> dict[str, tuple[float, float]]:
    """(wall, CPU) seconds until ``codegen build`` exits 2 on a project with one bad bundle
    (CPU: user + system of the child, which a loaded machine does not inflate)."""
    cases: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for case, argv in (
            ("--strict, seed schema (theodds)", ["--strict"]),
            ("default, broken link (alpaca)", []),
        ):
            root = Path(scratch) / case.split(",")[0].strip("-")
            for name in ("schemas", "templates"):
                shutil.copytree(ROOT / name, root / name)
            if not argv:
                path = root / "schemas" / "agents_json" / "bundles" / "alpaca" / "agents.json"
                document = json.loads(path.read_text())
                link = document["flows"][7]["links"][8]  # its origin now runs after its target
                link["origin"]["actionId"] = "order_roundtrip_get_action"
                path.write_text(json.dumps(document))
            samples, cpu = [], []
            for _ in range(runs):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                started = time.perf_counter()
                done = subprocess.run(
                    [sys.executable, "-m", "codegen", "--root", str(root), "build", *argv],
                    capture_output=True,
                    text=True,
                    cwd=ROOT,
                    timeout=120,
                )
                samples.append(time.perf_counter() - started)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
                assert done.returncode == 2, done.stderr
            cases[case] = (statistics.median(samples), statistics.median(cpu))
    return cases


async def async_samples(url: str, calls: int, runs: int) -> dict[str, list[float]]:
    """The same comparison for the async flavour (``AsyncGiphyFlows`` over one
    ``httpx.AsyncClient`` against that client directly)."""
    async with httpx.AsyncClient() as http:
        flows = giphy.AsyncGiphyFlows(
            base_urls={"giphy": url},
            auth={"giphy": ApiKeyAuth("api_key", "k", location="query")},
            http_client=http,
        )

        async def via_flow() -> None:
            await flows.search_gifs_flow(q="cats", limit=2)

        async def direct() -> None:
            params = {"api_key": "k", "limit": "2", "q": "cats"}
            r = await http.get(url + "/gifs/search", params=params)
            r.raise_for_status()
            r.json()

        pairs = (("async flow client", via_flow), ("async httpx direct", direct))
        for _, fn in pairs:
            for _ in range(20):
                await fn()
        samples: dict[str, list[float]] = {name: [] for name, _ in pairs}
        for _ in range(runs):
            for name, fn in pairs:
                started = time.perf_counter()
                for _ in range(calls):
                    await fn()
                samples[name].append((time.perf_counter() - started) / calls)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bundles", nargs="*", help="build times of these bundles only")
    parser.add_argument("--smoke", action="store_true", help="one tiny round")
    args = parser.parse_args()
    if args.smoke:
        args.calls, args.runs, args.bundles = 20, 1, ["linkup"]

    builds = build_times(args.runs, args.bundles or None)
    rejections = rejection_times(args.runs)
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = f"http://127.0.0.1:{server.stdout.readline().strip()}"
        http = httpx.Client()
        flows = giphy.GiphyFlows(
            base_urls={"giphy": url},
            auth={"giphy": ApiKeyAuth("api_key", "k", location="query")},
            http_client=http,
        )

        def via_flow() -> None:
            flows.search_gifs_flow(q="cats", limit=2)

        def direct() -> None:
            r = http.get(url + "/gifs/search", params={"api_key": "k", "limit": "2", "q": "cats"})
            r.raise_for_status()
            r.json()

        for fn in (via_flow, direct):  # warm up connections and caches
            for _ in range(20):
                fn()
        samples: dict[str, list[float]] = {"flow client": [], "httpx direct": []}
        for _ in range(args.runs):  # alternate, so drift in machine load hits both alike
            for name, fn in (("flow client", via_flow), ("httpx direct", direct)):
                started = time.perf_counter()
                for _ in range(args.calls):
                    fn()
                samples[name].append((time.perf_counter() - started) / args.calls)
        http.close()
        samples.update(anyio.run(async_samples, url, args.calls, args.runs))
        medians = {name: statistics.median(values) for name, values in samples.items()}
    finally:
        server.terminate()
        server.wait()

    print(f"build time per bundle (plan + render + format, median of {args.runs}):")
    print(f"  {'':<16} {'cold':>8}     {'warm':>8}")
    for name, (cold, warm) in builds.items():
        flows_count = len(importlib.import_module(f"agentproto.flows.{name}").PLAN["flows"])
        print(f"  {name:<16} {cold * 1000:8.1f} ms  {warm * 1000:8.1f} ms  ({flows_count} flows)")
    print(f"\nrejection of a bad bundle (codegen build in a new process, median of {args.runs}):")
    for case, (wall, cpu) in rejections.items():
        print(f"  {case:<34} {wall * 1000:8.1f} ms  (CPU {cpu * 1000:.0f} ms)")
    flow, raw = medians["flow client"], medians["httpx direct"]
    print(f"\nper call, {args.calls} calls x {args.runs} runs (loopback, one action):")
    print(f"  flow client   {flow * 1e6:8.1f} us")
    print(f"  httpx direct  {raw * 1e6:8.1f} us")
    print(f"  executor overhead: {(flow - raw) * 1e6:.1f} us per flow ({flow / raw:.2f}x)")
    flow, raw = medians["async flow client"], medians["async httpx direct"]
    print(f"  async flow client   {flow * 1e6:8.1f} us")
    print(f"  async httpx direct  {raw * 1e6:8.1f} us")
    print(f"  async executor overhead: {(flow - raw) * 1e6:.1f} us per flow ({flow / raw:.2f}x)")


if __name__ == "__main__":
    main()
