"""Skill Sharing discovery at scale: a Skill Index of 10,000 skills, against raw httpx + json.loads.

Run from the repository root:  python benchmarks/bench_skills.py [--skills 10000] [--runs 5]

The provider kit registers --skills skills and builds its Skill Index once; a static loopback
server (a separate process, so it shares no GIL with the client) then serves those bytes. On
them, alternated, median of --runs, wall and CPU time (``time.process_time``, which the shared
machine disturbs less):

- ours: ``SkillsClient.discover()`` end to end (fetch, validation, duplicate ids, typed parse);
- raw: the same GET with an ``httpx.Client`` and ``json.loads`` of the body: the anchor;

and the ratio ours / raw (target <= 3x), the parts on the same bytes (``validate()``, which
reports, and ``parse_index()``), the peak Python memory of one call of each (tracemalloc), and
the cyclic collector's work during --runs calls of each (collections per generation, CPU time
in the collector). ``AsyncSkillsClient.discover()`` against raw ``httpx.AsyncClient`` likewise.

Then invocations per second through the kit (a plain HTTP client: invoke, then poll until the
execution ends; --invocations of them, 20 at a time) with a blocking handler (``time.sleep``,
run in a worker thread) and an async one (``anyio.sleep``), each sleeping 5 ms, while a
discovery loop keeps fetching a small Skill Index: its latency idle and under that load.

Last, each execution store (in memory, SQLite in a file, PostgreSQL on a throwaway loopback
server from tests/support/postgres.py): invoke -> result latency (one at a time: invoke, poll
every 1 ms until completed; median and p95 of --store-invocations) and throughput (20 at a
time), for an async handler that returns at once, with the ratio to the in-memory store
measured in the same run.

``--smoke``: one tiny round (300 skills, 40 invocations), so the suite runs this benchmark and
it cannot rot; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))
sys.path.insert(0, str(ROOT))

import anyio  # noqa: E402
import httpx  # noqa: E402
from agentproto.skills import (  # noqa: E402
    AsyncSkillsClient,
    SkillProvider,
    SkillsClient,
    parse_index,
    validate,
)
from agentproto.skills.models import SkillIndex  # noqa: E402
from rounds import ratio_line  # noqa: E402

from tests.servers.loopback import serve  # noqa: E402


def provider(base_url: str, count: int) -> SkillProvider:
    kit = SkillProvider({"name": "Bench"}, base_url=base_url)
    kinds = ["plugin", "api", "knowledge", "task"]

    def handler(inputs: dict[str, Any], request: Any) -> Any:
        return inputs

    for i in range(count):
        kit.skill(
            id=f"bench/skill-{i:05d}",
            name=f"Skill {i}",
            description=f"Benchmark skill number {i}",
            capability_type=kinds[i % 4],
            version="1.0.0",
        )(handler)
    return kit


def invocation_kit(base_url: str) -> SkillProvider:
    kit = SkillProvider({"name": "Bench"}, base_url=base_url)

    @kit.skill(
        id="bench/blocking",
        name="Blocking",
        description="time.sleep",
        version="1.0.0",
        capability_type="task",
    )
    def blocking(inputs: dict[str, Any], request: Any) -> Any:
        time.sleep(0.005)
        return "ok"

    @kit.skill(
        id="bench/async",
        name="Async",
        description="anyio.sleep",
        version="1.0.0",
        capability_type="task",
    )
    async def asynchronous(inputs: dict[str, Any], request: Any) -> Any:
        await anyio.sleep(0.005)
        return "ok"

    return kit


async def invocations(url: str, skill_id: str, count: int) -> tuple[float, list[float]]:
    """Invocations per second of ``skill_id`` (20 at a time) and the discovery latencies
    (seconds) seen meanwhile."""
    latencies: list[float] = []
    done = anyio.Event()
    body = {"caller": {"id": "bench", "type": "service"}, "skill_id": skill_id, "inputs": {}}
    invoke = f"{url}/skills/{skill_id.replace('/', '%2F')}/invoke"
    limits = httpx.Limits(max_connections=40)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:

        async def discover_loop() -> None:
            while not done.is_set():
                started = time.perf_counter()
                (await http.get(url + "/.well-known/skill-sharing")).raise_for_status()
                latencies.append(time.perf_counter() - started)
                await anyio.sleep(0.005)

        async def one() -> None:
            accepted = (await http.post(invoke, json=body)).json()
            status = accepted["status"]
            while status in ("accepted", "running"):
                await anyio.sleep(0.005)
                polled = await http.get(f"{url}/executions/{accepted['execution_id']}")
                status = polled.json()["status"]
            assert status == "completed", status

        async def worker(share: int) -> None:
            for _ in range(share):
                await one()

        started = time.perf_counter()
        async with anyio.create_task_group() as group:
            group.start_soon(discover_loop)
            async with anyio.create_task_group() as workers:
                for i in range(20):
                    workers.start_soon(worker, count // 20 + (1 if i < count % 20 else 0))
            elapsed = time.perf_counter() - started
            done.set()
    return count / elapsed, latencies


async def idle_discovery(url: str, runs: int = 50) -> list[float]:
    samples: list[float] = []
    async with httpx.AsyncClient(timeout=30) as http:
        for _ in range(runs):
            started = time.perf_counter()
            (await http.get(url + "/.well-known/skill-sharing")).raise_for_status()
            samples.append(time.perf_counter() - started)
    return samples


def p95(samples: list[float]) -> float:
    return sorted(samples)[max(0, int(len(samples) * 0.95) - 1)]


def invocation_report(count: int) -> None:
    holder: dict[str, SkillProvider] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await holder["kit"].app(scope, receive, send)

    with serve(app) as url:
        holder["kit"] = invocation_kit(url)
        idle = anyio.run(idle_discovery, url)
        print(f"\ninvocations through the kit ({count}, 20 at a time, handler sleeps 5 ms):")
        print(
            f"  discovery idle:                median {statistics.median(idle) * 1e3:6.2f} ms"
            f"  p95 {p95(idle) * 1e3:6.2f} ms"
        )
        for label, skill_id in (("blocking", "bench/blocking"), ("async", "bench/async")):
            rate, latencies = anyio.run(invocations, url, skill_id, count)
            print(f"  {label:<8} handler: {rate:7.0f} invocations/s")
            print(
                f"    discovery meanwhile:         median "
                f"{statistics.median(latencies) * 1e3:6.2f} ms  p95 {p95(latencies) * 1e3:6.2f} ms"
                f"  ({len(latencies)} requests)"
            )


async def store_figures(url: str, count: int) -> tuple[list[float], float]:
    """invoke -> result latencies (one at a time) and invocations per second (20 at a time)."""
    body = {"caller": {"id": "bench", "type": "service"}, "skill_id": "w/pid", "inputs": {}}
    invoke = f"{url}/skills/w%2Fpid/invoke"
    headers = {"X-API-Key": "key-alice"}
    limits = httpx.Limits(max_connections=40)
    async with httpx.AsyncClient(timeout=30, limits=limits, headers=headers) as http:

        async def one() -> float:
            started = time.perf_counter()
            accepted = (await http.post(invoke, json=body)).json()
            status = accepted["status"]
            while status in ("accepted", "running"):
                await anyio.sleep(0.001)
                polled = await http.get(f"{url}/executions/{accepted['execution_id']}/result")
                status = polled.json()["status"]
            assert status == "completed", status
            return time.perf_counter() - started

        await one()  # warm-up: connections, tables
        latencies = [await one() for _ in range(count)]

        async def worker(share: int) -> None:
            for _ in range(share):
                await one()

        started = time.perf_counter()
        async with anyio.create_task_group() as workers:
            for i in range(20):
                workers.start_soon(worker, count // 20 + (1 if i < count % 20 else 0))
        rate = count / (time.perf_counter() - started)
    return latencies, rate


def store_report(count: int) -> None:
    """Each store behind the kit served by uvicorn in a process of its own (in this process,
    a loopback round trip costs ~44 ms here: the client and the server share one GIL)."""
    from tests.support.postgres import start_postgres
    from tests.test_skills_workers import kit

    print(f"\nexecution stores (invoke -> result, {count} one at a time, then 20 at a time):")
    with tempfile.TemporaryDirectory() as folder, start_postgres() as server:
        stores = {
            "memory": "memory:",
            "sqlite": f"sqlite:///{folder}/executions.db",
            "postgres": server.database(),
        }
        baseline: tuple[float, float] | None = None
        for name, store in stores.items():
            with kit(store, Path(folder) / "kit.log") as url:
                latencies, rate = anyio.run(store_figures, url, count)
            median = statistics.median(latencies)
            if baseline is None:
                baseline = (median, rate)
            print(
                f"  execution store {name:<8}: invoke->result median {median * 1e3:6.2f} ms"
                f"  p95 {p95(latencies) * 1e3:6.2f} ms ({median / baseline[0]:.2f}x memory),"
                f" {rate:6.0f} invocations/s ({rate / baseline[1]:.2f}x memory)"
            )


STATIC = """
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
body = open(sys.argv[1], "rb").read()
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
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


@contextmanager
def static_server(body: bytes) -> Iterator[str]:
    """Serve ``body`` at every path from another process; yields its base URL."""
    with tempfile.NamedTemporaryFile(suffix=".json") as file:
        file.write(body)
        file.flush()
        server = subprocess.Popen(
            [sys.executable, "-c", STATIC, file.name], stdout=subprocess.PIPE, text=True
        )
        try:
            assert server.stdout is not None
            yield f"http://127.0.0.1:{server.stdout.readline().strip()}"
        finally:
            server.terminate()
            server.wait()


class Collector:
    """The cyclic collector's work while active: collections per generation, CPU seconds."""

    def __init__(self) -> None:
        self.counts = [0, 0, 0]
        self.cpu = 0.0
        self._started = 0.0
        self.active = False

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if not self.active:
            return
        if phase == "start":
            self._started = time.process_time()
        else:
            self.counts[info["generation"]] += 1
            self.cpu += time.process_time() - self._started

    def __str__(self) -> str:
        return f"collections {'/'.join(map(str, self.counts))}, {self.cpu * 1e3:.0f} ms CPU"


# (wall, CPU) seconds per round of each contender of the last alternated() run by its name
ROUNDS: dict[str, list[tuple[float, float]]] = {}


def alternated(
    contenders: dict[str, Callable[[], object]], runs: int
) -> dict[str, tuple[float, float, Collector]]:
    """Median (wall, CPU) seconds of each contender, called in turn --runs times, and what
    the collector did during its calls."""
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in contenders}
    ROUNDS.update(samples)  # the per-round figures, for the per-round ratios
    collectors = {name: Collector() for name in contenders}
    for collector in collectors.values():
        gc.callbacks.append(collector)
    try:
        for fn in contenders.values():
            fn()  # warm-up: connection, lazy imports, validators built on first use
        for i in range(runs):  # alternated: the order reversed every other round
            for name, fn in list(contenders.items())[:: 1 if i % 2 == 0 else -1]:
                collectors[name].active = True
                cpu, started = time.process_time(), time.perf_counter()
                fn()
                samples[name].append((time.perf_counter() - started, time.process_time() - cpu))
                collectors[name].active = False
    finally:
        for collector in collectors.values():
            gc.callbacks.remove(collector)
    med = statistics.median
    return {
        name: (med(w for w, _ in values), med(c for _, c in values), collectors[name])
        for name, values in samples.items()
    }


def peak_memory(fn: Callable[[], object]) -> float:
    """Peak Python memory (MB) of one call, its result included."""
    tracemalloc.start()
    try:
        result = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del result
    return peak / 1e6


async def async_figures(url: str, count: int, runs: int) -> tuple[float, float, float, float]:
    """Median (wall, CPU) seconds of ``AsyncSkillsClient.discover()`` and of raw async httpx +
    json.loads, alternated: (ours wall, ours CPU, raw wall, raw CPU)."""
    async with AsyncSkillsClient() as client, httpx.AsyncClient() as http:
        # (the warm-up's index is not kept: the sync figures keep none either, and 20,000 more
        # objects held make each of the collector's full passes longer)
        assert len((await client.discover(url)).skills) == count
        await http.get(url + "/.well-known/skill-sharing")
        ours: list[tuple[float, float]] = []
        raw: list[tuple[float, float]] = []
        for _ in range(runs):
            cpu, started = time.process_time(), time.perf_counter()
            await client.discover(url)
            ours.append((time.perf_counter() - started, time.process_time() - cpu))
            cpu, started = time.process_time(), time.perf_counter()
            json.loads((await http.get(url + "/.well-known/skill-sharing")).content)
            raw.append((time.perf_counter() - started, time.process_time() - cpu))
    med = statistics.median
    return (
        med(w for w, _ in ours),
        med(c for _, c in ours),
        med(w for w, _ in raw),
        med(c for _, c in raw),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--invocations", type=int, default=1000)
    parser.add_argument("--store-invocations", type=int, default=500)
    parser.add_argument("--smoke", action="store_true", help="one tiny round")
    args = parser.parse_args()
    if args.smoke:
        args.skills, args.runs, args.invocations, args.store_invocations = 300, 1, 40, 20
    holder: dict[str, SkillProvider] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await holder["kit"].app(scope, receive, send)

    with serve(app) as url:
        started = time.perf_counter()
        holder["kit"] = provider(url, args.skills)
        register = time.perf_counter() - started
        body = httpx.get(url + "/.well-known/skill-sharing").content
    del holder["kit"]

    with static_server(body) as url, SkillsClient() as client, httpx.Client() as http:
        index_url = url + "/.well-known/skill-sharing"

        def ours() -> SkillIndex:
            return client.discover(url)

        def raw() -> object:
            return json.loads(http.get(index_url).content)

        assert len(ours().skills) == args.skills
        figures = alternated({"ours": ours, "raw": raw}, args.runs)
        rounds_ours, rounds_raw = ROUNDS["ours"], ROUNDS["raw"]
        parts = alternated(
            {"validate": lambda: validate(body, "SkillIndex"), "parse": lambda: parse_index(body)},
            args.runs,
        )
        memory = {"ours": peak_memory(ours), "raw": peak_memory(raw)}
        async_ours, async_ours_cpu, async_raw, async_raw_cpu = anyio.run(
            async_figures, url, args.skills, args.runs
        )

    (wall, cpu, gc_ours), (raw_wall, raw_cpu, gc_raw) = figures["ours"], figures["raw"]
    print(f"skills: {args.skills}  index: {len(body) / 1e6:.2f} MB  (median of {args.runs})")
    print(f"provider kit: registering {args.skills} skills          {register:8.3f} s")
    print(f"discover() end to end, wall:                     {wall * 1e3:8.1f} ms")
    print(f"raw httpx + json.loads, wall:                    {raw_wall * 1e3:8.1f} ms")
    print(f"discover() / raw httpx + json.loads, wall:       {wall / raw_wall:.2f}x (target <= 3)")
    print(f"discover() / raw httpx + json.loads, CPU:        {cpu / raw_cpu:.2f}x")
    for i, what in ((0, "wall"), (1, "CPU")):
        print(
            ratio_line(
                f"discover() / raw httpx + json.loads, {what}",
                [r[i] for r in rounds_ours],
                [r[i] for r in rounds_raw],
                "<= 1.5x",
            )
        )
    print(f"  validate() (JSON Schema + duplicate ids):      {parts['validate'][0] * 1e3:8.1f} ms")
    print(f"  parse_index() of the same bytes:               {parts['parse'][0] * 1e3:8.1f} ms")
    print(f"per skill, end to end:                           {wall / args.skills * 1e6:8.2f} us")
    print(
        f"peak Python memory of one call: discover() {memory['ours']:.1f} MB, "
        f"raw {memory['raw']:.1f} MB ({memory['ours'] / memory['raw']:.2f}x)"
    )
    print(f"cyclic collector over {args.runs} calls: discover() {gc_ours}; raw {gc_raw}")
    print(
        f"AsyncSkillsClient.discover() {async_ours * 1e3:.1f} ms, raw async "
        f"{async_raw * 1e3:.1f} ms: {async_ours / async_raw:.2f}x wall, "
        f"{async_ours_cpu / async_raw_cpu:.2f}x CPU"
    )
    invocation_report(args.invocations)
    store_report(args.store_invocations)


if __name__ == "__main__":
    main()
