"""Skill Sharing discovery at scale: a provider-kit server with 10,000 skills on loopback.

Run from the repository root:  python benchmarks/bench_skills.py [--skills 10000] [--runs 3]

Measures, in one run, `SkillsClient.discover()` end to end (HTTP fetch of the Skill Index,
JSON Schema validation of every entry, the duplicate-id check, typed parsing) and its parts on
the same bytes, plus the peak Python memory of one discovery (tracemalloc), the size of the
index, and `AsyncSkillsClient.discover()` end to end. Medians of --runs.

Then invocations per second through the kit (a plain HTTP client: invoke, then poll until the
execution ends; --invocations of them, 20 at a time) with a blocking handler (``time.sleep``,
run in a worker thread) and an async one (``anyio.sleep``), each sleeping 5 ms, while a
discovery loop keeps fetching a small Skill Index: its latency idle and under that load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
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
    validate,
)
from agentproto.skills.models import SkillIndex  # noqa: E402

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


async def async_discover(url: str, count: int, runs: int) -> float:
    """Median seconds of ``AsyncSkillsClient.discover()`` on the same server."""
    async with AsyncSkillsClient() as client:
        index = await client.discover(url)
        assert len(index.skills) == count
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            await client.discover(url)
            samples.append(time.perf_counter() - started)
    return statistics.median(samples)


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


def timed(fn: Any, runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skills", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--invocations", type=int, default=1000)
    args = parser.parse_args()
    holder: dict[str, SkillProvider] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await holder["kit"].app(scope, receive, send)

    with serve(app) as url:
        started = time.perf_counter()
        holder["kit"] = provider(url, args.skills)
        register = time.perf_counter() - started
        body = httpx.get(url + "/.well-known/skill-sharing").content
        with SkillsClient() as client:
            index = client.discover(url)
            assert len(index.skills) == args.skills
            total = timed(lambda: client.discover(url), args.runs)
            fetch = timed(lambda: httpx.get(url + "/.well-known/skill-sharing"), args.runs)
            check = timed(lambda: validate(body, "SkillIndex"), args.runs)
            typed = timed(lambda: SkillIndex.model_validate_json(body), args.runs)
            tracemalloc.start()
            client.discover(url)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        total_async = anyio.run(async_discover, url, args.skills, args.runs)

    print(f"skills: {args.skills}  index: {len(body) / 1e6:.2f} MB  (median of {args.runs})")
    print(f"provider kit: registering {args.skills} skills       {register:8.3f} s")
    print(f"discover() end to end (fetch+validate+parse): {total:8.3f} s")
    print(f"  HTTP fetch alone (server builds the index):  {fetch:8.3f} s")
    print(f"  validate() (JSON Schema + duplicate ids):    {check:8.3f} s")
    print(f"  typed parse (pydantic):                      {typed:8.3f} s")
    print(f"per skill, end to end:                        {total / args.skills * 1e6:8.1f} us")
    print(f"AsyncSkillsClient.discover() end to end:      {total_async:8.3f} s")
    print(f"peak Python memory of one discover():         {peak / 1e6:8.1f} MB")
    invocation_report(args.invocations)


if __name__ == "__main__":
    main()
