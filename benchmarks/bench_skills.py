"""Skill Sharing discovery at scale: a provider-kit server with 10,000 skills on loopback.

Run from the repository root:  python benchmarks/bench_skills.py [--skills 10000] [--runs 3]

Measures, in one run, `SkillsClient.discover()` end to end (HTTP fetch of the Skill Index,
JSON Schema validation of every entry, the duplicate-id check, typed parsing) and its parts on
the same bytes, plus the peak Python memory of one discovery (tracemalloc), the size of the
index, and `AsyncSkillsClient.discover()` end to end. Medians of --runs.
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


if __name__ == "__main__":
    main()
