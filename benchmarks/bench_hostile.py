"""The servers against crowds of hostile clients, full size (issue 40's "done when").

Run from the repository root::

    python benchmarks/bench_hostile.py [--servers aap,acp,mcp,skills] [--slow 500] [--idle 2000]
    python benchmarks/bench_hostile.py --smoke     # the AAP server, small numbers (the suite)

Each server is started with its own command (``python -m agentproto.aap.serve``,
``agentproto.acp.bridge``, ``agentproto.mcp --transport http``, ``agentproto.skills.serve``)
at the default :class:`~agentproto.Limits` (head deadline 10 s, body deadline 30 s, 4,096
connections, 256 per client address). Then, per server:

1. ``--slow`` connections that never finish their head and ``--slow`` that drip a body (one
   byte every second), spread over loopback source addresses (``--per-address`` each, under
   the per-client bound), while one legitimate client keeps sending requests: when each slow
   connection was closed (by the server, with a 408), and how the legitimate requests fared;
2. ``--idle`` connections that send nothing, from as many addresses: how many the server holds
   at most (its descriptors), and when they are closed;
3. the server process's descriptors and threads at the start and after it all.

Exits 1 when a slow connection outlived its deadline (plus 2 s), a legitimate request failed,
or descriptors or threads did not come back.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "generated")]

from tests.servers.hostile import Crowd, descriptors, head, settle, threads  # noqa: E402
from tests.test_hostile_servers import JSON, started  # noqa: E402


def addresses(count: int, per: int, first: int) -> list[tuple[str, int]]:
    found = []
    n = first
    while count > 0:
        found.append((f"127.0.{n // 250}.{n % 250 + 2}", min(per, count)))
        count -= per
        n += 1
    return found


def run(name: str, args: argparse.Namespace, settings: dict[str, float]) -> bool:
    ok = True
    with started(name, settings) as target:
        url, pid = target.url, target.process.pid  # type: ignore[union-attr]
        target.legit(url)
        time.sleep(0.5)
        baseline = (descriptors(pid), threads(pid))
        host = url.removeprefix("http://")
        head_deadline = settings.get("header_deadline", 10.0)
        body_deadline = settings.get("request_body_deadline", 30.0)
        latencies: list[float] = []
        failures: list[str] = []
        stop = threading.Event()

        def legitimate() -> None:
            while not stop.is_set():
                started_at = time.perf_counter()
                try:
                    target.legit(url)
                    latencies.append(time.perf_counter() - started_at)
                except Exception as exc:  # counted and reported
                    failures.append(f"{type(exc).__name__}: {exc}"[:200])
                time.sleep(0.05)

        heads, bodies = Crowd(), Crowd()
        with heads, bodies:
            opened_at = time.perf_counter()
            for source, count in addresses(args.slow, args.per_address, 0):
                heads.open(
                    url, count, source, f"POST {target.path} HTTP/1.1\r\nHost: {host}\r\n".encode()
                )
            start = head(
                "POST", target.path, host, {**JSON, **target.auth, "Content-Length": "1000000"}
            )
            for source, count in addresses(args.slow, args.per_address, 100):
                bodies.open(url, count, source, start + b"[")
            opened = time.perf_counter() - opened_at
            peak = descriptors(pid)
            client = threading.Thread(target=legitimate, daemon=True)
            client.start()
            end = time.monotonic() + body_deadline + 4
            while time.monotonic() < end and (heads.watch() or bodies.watch()):
                heads.drip(b"X-A: b\r\n")
                bodies.drip(b" ")
                peak = max(peak, descriptors(pid))
                time.sleep(1.0)
            stop.set()
            client.join(30)
            left = heads.watch() + bodies.watch()
        head_times = list(heads.closed_at.values())
        body_times = list(bodies.closed_at.values())
        print(
            f"{name:<7} slow heads: {len(heads.opened)} opened ({heads.refused} refused), closed "
            f"after {min(head_times, default=0):.1f}-{max(head_times, default=0):.1f} s "
            f"(deadline {head_deadline:g} s), statuses {sorted(set(heads.statuses()))}"
        )
        print(
            f"{name:<7} slow bodies: {len(bodies.opened)} opened ({bodies.refused} refused), "
            f"closed "
            f"after {min(body_times, default=0):.1f}-{max(body_times, default=0):.1f} s "
            f"(deadline {body_deadline:g} s), statuses {sorted(set(bodies.statuses()))}; "
            f"{opened:.1f} s to open them all; server descriptors at most {peak}"
        )
        median = statistics.median(latencies) * 1000 if latencies else 0.0
        worst = max(latencies, default=0.0) * 1000
        print(
            f"{name:<7} legitimate requests meanwhile: {len(latencies)} ok, {len(failures)} "
            f"failed, median {median:.0f} ms, worst {worst:.0f} ms"
        )
        if left or failures or max(head_times + body_times, default=0) > body_deadline + 3:
            ok = False
            print(f"{name:<7} FAILED: {left} still open, failures {failures[:3]}")
        if max(head_times, default=0) > head_deadline + 2:
            ok = False
            print(f"{name:<7} FAILED: a slow head outlived its deadline")

        with Crowd() as idle:
            for source, count in addresses(args.idle, args.per_address, 200):
                idle.open(url, count, source)
            time.sleep(0.5)
            held = descriptors(pid) - baseline[0]
            cap = settings.get("max_server_connections", 4096)
            target.legit(url)
            end = time.monotonic() + head_deadline + 5
            while time.monotonic() < end and idle.watch():
                time.sleep(0.5)
            idle_times = list(idle.closed_at.values())
            print(
                f"{name:<7} idle: {len(idle.opened)} opened ({idle.refused} refused), server "
                f"held {held} more descriptors (cap {cap:g}), all closed after at most "
                f"{max(idle_times, default=0):.1f} s, {idle.watch()} left open"
            )
            if idle.watch():
                ok = False
        now = settle(pid, baseline, 30)
        print(f"{name:<7} descriptors {baseline[0]} -> {now[0]}, threads {baseline[1]} -> {now[1]}")
        if now[0] > baseline[0] or now[1] > baseline[1]:
            ok = False
            print(f"{name:<7} FAILED: descriptors or threads not back to their start")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--servers", default="aap,acp,mcp,skills")
    parser.add_argument("--slow", type=int, default=500)
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--per-address", type=int, default=125)
    parser.add_argument("--limits", default="{}", help="Limits fields as JSON for the servers")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args(argv)
    settings: dict[str, float] = json.loads(args.limits)
    if args.smoke:
        args.servers, args.slow, args.idle, args.per_address = "aap", 10, 30, 10
        settings = {"header_deadline": 1.0, "request_body_deadline": 1.5}
    ok = True
    for name in args.servers.split(","):
        ok = run(name, args, settings) and ok
    print("all held" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
