"""agents.json flows: what a bundle costs to build and to import, and the executor's overhead.

Run from the repository root:  python benchmarks/bench_flows.py [--calls 500] [--runs 5]

- modules: per shipped bundle, the size of its OpenAPI documents -> the size of its generated
  module -> the time and memory ``import agentproto.flows.<bundle>`` takes in a fresh process
  (the runtime and pydantic imported first, so the figure is the module's own; median of
  --runs processes).
- build: the build's own per-bundle step (load and check the bundle, plan it, render and
  format its module: ``codegen.clients.flows.bundle_module``) for the largest shipped bundle
  (alpaca, two OpenAPI files, 864 KB) and for a synthetic bundle whose OpenAPI document is
  ~3 MB (tests/servers/synthetic_api.py: 4 flows on operations whose schemas form a DAG that
  written out in full is 3^12 copies of its last level, and 1,500 operations no flow uses):
  wall time (median of --runs, the OpenAPI already parsed, as the build's parse cache leaves
  it), peak memory of the step (tracemalloc) and the module's size.
- rejection: wall time of ``python -m codegen build`` (a fresh process, like a user's) on a
  scratch copy of the project holding one bad bundle, until it exits 2: a seed-schema
  violation under --strict (theodds as published) and an override that leads nowhere in a
  default build (a broken link only leaves its flow out there).
- overhead: the same GET (giphy's search flow, one action) issued --calls times through the
  generated flow client and directly with httpx (same ``httpx.Client``, same loopback server
  in its own process, same query), alternating call by call so load drift hits both alike;
  the ratio is what the executor costs per call (the target: at most 1.2x). The same again
  for the async flavour.

``--smoke``: one tiny round (linkup's module, a small synthetic bundle, one rejection of each
kind, 20 calls), so the suite runs this benchmark and it cannot rot; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))
sys.path.insert(0, str(ROOT))

import anyio  # noqa: E402
import httpx  # noqa: E402
import yaml  # noqa: E402
from agentproto.flows import ApiKeyAuth, giphy  # noqa: E402

from codegen.clients.flows import bundle_module  # noqa: E402
from codegen.inputs import corpus  # noqa: E402
from codegen.inputs.sources import load_document  # noqa: E402
from codegen.package.output import format_text  # noqa: E402
from codegen.package.render import environment  # noqa: E402
from tests.servers.synthetic_api import synthetic_api, synthetic_bundle  # noqa: E402

BUNDLES = ROOT / "schemas" / "agents_json" / "bundles"
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
IMPORT = """
import json, sys, time, tracemalloc
sys.path.insert(0, {generated!r})
started = time.perf_counter()
import agentproto._runtime.flows, agentproto._runtime.base  # what every flows module shares
shared = time.perf_counter() - started
if {memory}:
    tracemalloc.start()  # slows allocation down: the time is measured in another process
started = time.perf_counter()
import agentproto.flows.{name}
took = time.perf_counter() - started
print(json.dumps([took, shared, tracemalloc.get_traced_memory()[1]]))
"""


def openapi_bytes(folder: Path) -> int:
    mapping = yaml.safe_load((folder / "bundle.yaml").read_text())["sources"]
    return sum((folder / local).stat().st_size for local in mapping.values())


def module_figures(
    runs: int, only: list[str] | None
) -> dict[str, tuple[int, int, float, float, int]]:
    """(OpenAPI bytes, module bytes, import seconds, shared runtime's import seconds, import
    peak bytes) per shipped bundle, each import in a fresh process (``.pyc`` files as an
    installed package has them: the first run writes them, the median hides it)."""
    figures = {}
    for folder in sorted(p for p in BUNDLES.iterdir() if p.is_dir()):
        if only is not None and folder.name not in only:
            continue
        module = ROOT / "generated" / "agentproto" / "flows" / f"{folder.name}.py"
        samples = []
        for memory in [False] * runs + [True]:
            code = IMPORT.format(generated=str(ROOT / "generated"), name=folder.name, memory=memory)
            done = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            )
            samples.append(json.loads(done.stdout))
        took = statistics.median(s[0] for s in samples[:-1])
        shared = statistics.median(s[1] for s in samples[:-1])
        peak = int(samples[-1][2])
        figures[folder.name] = (openapi_bytes(folder), module.stat().st_size, took, shared, peak)
    return figures


def build_figures(root: Path, folder: Path, runs: int) -> tuple[float, int, int]:
    """(seconds, peak bytes, module bytes) of the build's step for one bundle folder, its
    OpenAPI parsed once before (the build's parse cache)."""
    schema = load_document(ROOT / "schemas" / "agents_json" / "agents-json.schema.json", ROOT)
    env = environment(ROOT / "templates")
    corpus.bundle_sources(folder, root)  # parsed and cached, as a build's earlier check leaves it
    samples, peaks, size = [], [], 0
    for _ in range(runs):
        tracemalloc.start()
        started = time.perf_counter()
        text = format_text(bundle_module(folder, schema, root, env, warn=_quiet))
        samples.append(time.perf_counter() - started)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        size = len(text.encode())
    return statistics.median(samples), int(statistics.median(peaks)), size


def synthetic_folder(scratch: Path, padding: int, depth: int) -> Path:
    folder = scratch / "synthetic"
    folder.mkdir()
    api = synthetic_api(depth=depth, fan=3, padding=padding, flows=4)
    (folder / "openapi.json").write_text(json.dumps(api, indent=1))
    (folder / "agents.json").write_text(json.dumps(synthetic_bundle(flows=4)))
    (folder / "bundle.yaml").write_text("sources:\n  synthetic: openapi.json\n")
    return folder


def _quiet(*args: object) -> None:
    pass


def rejection_times(runs: int) -> dict[str, tuple[float, float]]:
    """(wall, CPU) seconds until ``codegen build`` exits 2 on a project with one bad bundle
    (CPU: user + system of the child, which a loaded machine does not inflate)."""
    cases: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        for case, argv in (
            ("--strict, seed schema (theodds)", ["--strict"]),
            ("default, bad override (alpaca)", []),
        ):
            root = Path(scratch) / case.split(",")[0].strip("-")
            for name in ("schemas", "templates"):
                shutil.copytree(ROOT / name, root / name)
            if not argv:
                path = root / "schemas" / "agents_json" / "bundles" / "alpaca" / "agents.json"
                document = json.loads(path.read_text())
                document["overrides"] = [
                    {
                        "sourceId": "alpacatrading",
                        "operationId": "alpacatrading_post_order",
                        "fieldPath": "parameters.99.required",
                        "value": True,
                    }
                ]
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
        for _ in range(runs):  # call by call, alternating: load drift hits both alike
            spent = dict.fromkeys(samples, 0.0)
            for _ in range(calls):
                for name, fn in pairs:
                    started = time.perf_counter()
                    await fn()
                    spent[name] += time.perf_counter() - started
            for name in samples:
                samples[name].append(spent[name] / calls)
    return samples


def overhead(calls: int, runs: int) -> dict[str, float]:
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
        pairs = (("flow client", via_flow), ("httpx direct", direct))
        for _ in range(runs):  # call by call, alternating: load drift hits both alike
            spent = dict.fromkeys(samples, 0.0)
            for _ in range(calls):
                for name, fn in pairs:
                    started = time.perf_counter()
                    fn()
                    spent[name] += time.perf_counter() - started
            for name in samples:
                samples[name].append(spent[name] / calls)
        http.close()
        samples.update(anyio.run(async_samples, url, calls, runs))
        return {name: statistics.median(values) for name, values in samples.items()}
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bundles", nargs="*", help="module figures of these bundles only")
    parser.add_argument("--smoke", action="store_true", help="one tiny round")
    args = parser.parse_args()
    padding, depth = 1_500, 12
    if args.smoke:
        args.calls, args.runs, args.bundles = 20, 1, ["linkup"]
        padding, depth = 20, 4

    modules = module_figures(args.runs, args.bundles or None)
    builds: dict[str, tuple[float, int, int, int]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        largest = "linkup" if args.smoke else "alpaca"
        shutil.copytree(BUNDLES / largest, root / largest)
        took, peak, size = build_figures(root, root / largest, args.runs)
        builds[largest] = (took, peak, size, openapi_bytes(root / largest))
        folder = synthetic_folder(root, padding, depth)
        took, peak, size = build_figures(root, folder, args.runs)
        builds["synthetic"] = (took, peak, size, openapi_bytes(folder))
    rejections = rejection_times(args.runs)
    medians = overhead(args.calls, args.runs)

    print(f"modules (import in a fresh process, median of {args.runs}):")
    print(
        f"  {'bundle':<16} {'OpenAPI':>9} -> {'module':>8} -> {'import':>8} {'peak':>9}"
        "   (the shared runtime's import)"
    )
    for name, (spec, module, took, shared, peak) in modules.items():
        print(
            f"  {name:<16} {spec / 1024:7.0f} KB -> {module / 1024:5.0f} KB -> "
            f"{took * 1000:5.1f} ms {peak / 2**20:6.1f} MB   ({shared * 1000:.0f} ms)"
        )
    print(f"\nbuild step per bundle (plan + render + format, median of {args.runs}):")
    for name, (took, peak, size, spec) in builds.items():
        print(
            f"  {name:<16} OpenAPI {spec / 2**20:5.2f} MB: {took * 1000:7.1f} ms, "
            f"peak {peak / 2**20:6.1f} MB, module {size / 1024:5.1f} KB"
        )
    print(f"\nrejection of a bad bundle (codegen build in a new process, median of {args.runs}):")
    for case, (wall, cpu) in rejections.items():
        print(f"  {case:<34} {wall * 1000:8.1f} ms  (CPU {cpu * 1000:.0f} ms)")
    print(f"\nper call, {args.calls} calls x {args.runs} runs (loopback, one action):")
    for flavour in ("", "async "):
        flow, raw = medians[f"{flavour}flow client"], medians[f"{flavour}httpx direct"]
        print(f"  {flavour}flow client   {flow * 1e6:8.1f} us")
        print(f"  {flavour}httpx direct  {raw * 1e6:8.1f} us")
        print(
            f"  {flavour}executor overhead: {(flow - raw) * 1e6:.1f} us per flow "
            f"({flow / raw:.2f}x), target <= 1.20x"
        )


if __name__ == "__main__":
    main()
