"""ACP soak: many prompts over real subprocess pipes while callers drop calls and agents die.

Run from the repository root:  python benchmarks/bench_soak_acp.py [--prompts 10000]

Four editors (our async connection, each with its own agent process, the scripted test agent
of tests/acp_peers/) share --prompts prompts. Each prompt, at random: runs to its answer
(most), is dropped by its caller at a random point (the awaiting task cancelled after 0-2 ms:
``$/cancel_request`` goes out, or nothing was sent yet), asks the agent to crash mid-prompt, or
has its agent killed from outside (SIGKILL to its process group) at a random point. A dead
agent is respawned. Every wait is bounded (10 s): a hang is counted, and fails the run.
Prints open file descriptors, threads, child processes and RSS at the start (after the first
spawns), the middle and the end (they must stay flat), and the end against the start.
``--smoke``: 200 prompts (the suite runs it, so the benchmark cannot rot).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))

from agentproto.acp import Client, ConnectionClosed, RpcError, spawn_agent  # noqa: E402

AGENT = str(ROOT / "tests" / "acp_peers" / "our_agent.py")
WORKERS = 4
BOUND = 10.0  # seconds: any single wait longer than this counts as a hang


class QuietEditor(Client):
    async def session_update(self, params: Any) -> None:
        return None


def children() -> int:
    me = str(os.getpid())
    count = 0
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            count += stat[1] == me
    return count


class Mark(NamedTuple):
    label: str
    done: int
    fds: int
    threads: int
    children: int
    rss: float  # MiB

    def __str__(self) -> str:
        return (
            f"  {self.label:<6} after {self.done:>6} prompts: fds {self.fds:>4}  threads "
            f"{self.threads:>3}  child processes {self.children:>2}  RSS {self.rss:7.1f} MiB"
        )


def snapshot(label: str, done: int) -> Mark:
    rss = next(
        line.split()[1]
        for line in Path("/proc/self/status").read_text().splitlines()
        if line.startswith("VmRSS:")
    )
    fds = len(os.listdir("/proc/self/fd"))
    return Mark(label, done, fds, threading.active_count(), children(), int(rss) / 1024)


class Soak:
    def __init__(self, prompts: int, seed: int) -> None:
        self.prompts = prompts
        self.rng = random.Random(seed)
        self.outcomes: Counter[str] = Counter()
        self.done = 0
        self.marks: list[Mark] = []
        self.middle_taken = False
        self.want_middle = False

    def take(self) -> bool:
        if self.done >= self.prompts:
            return False
        self.done += 1
        if not self.middle_taken and self.done >= self.prompts // 2:
            self.middle_taken = True
            self.want_middle = True
        return True

    async def worker(self, first: asyncio.Event, started: list[int]) -> None:
        while self.done < self.prompts:
            async with spawn_agent(sys.executable, [AGENT], client=QuietEditor()) as conn:
                assert conn.process is not None
                try:
                    await asyncio.wait_for(conn.initialize(protocol_version=1), BOUND)
                    sid = (
                        await asyncio.wait_for(conn.new_session(cwd="/", mcp_servers=[]), BOUND)
                    ).session_id
                except (ConnectionClosed, RpcError):
                    self.outcomes["agent died while starting"] += 1
                    continue
                started.append(1)
                if len(started) == WORKERS:
                    first.set()
                await first.wait()
                while self.take():
                    if self.want_middle:
                        self.want_middle = False
                        self.marks.append(snapshot("middle", self.done))
                    if not await self.one(conn, sid):
                        break  # the agent is gone: respawn
            self.outcomes["agents spawned"] += 1

    async def one(self, conn: Any, sid: str) -> bool:
        """One prompt; False when the agent died."""
        roll = self.rng.random()
        script = "crash" if roll < 0.004 else f"hello {self.rng.randint(0, 5)}"
        call = asyncio.ensure_future(
            conn.prompt(session_id=sid, prompt=[{"type": "text", "text": script}])
        )
        try:
            if 0.004 <= roll < 0.007:  # killed from outside at a random point
                await asyncio.sleep(self.rng.random() * 0.002)
                os.killpg(conn.process.pgid, signal.SIGKILL)
            elif 0.007 <= roll < 0.15:  # the caller drops the call at a random point
                await asyncio.sleep(self.rng.random() * 0.002)
                call.cancel()
            await asyncio.wait_for(asyncio.shield(call), BOUND)
            self.outcomes["answered"] += 1
            return True
        except asyncio.CancelledError:
            self.outcomes["dropped by the caller"] += 1
            return True
        except ConnectionClosed:
            self.outcomes["agent died mid-prompt"] += 1
            return False
        except RpcError as error:
            self.outcomes[f"error {error.code}"] += 1
            return True
        except TimeoutError:
            self.outcomes["HANG (no answer within 10 s)"] += 1
            call.cancel()
            return False

    async def run(self) -> None:
        first = asyncio.Event()
        started: list[int] = []
        workers = [asyncio.ensure_future(self.worker(first, started)) for _ in range(WORKERS)]
        await asyncio.wait_for(first.wait(), 60)
        self.marks.append(snapshot("start", self.done))
        await asyncio.wait_for(asyncio.gather(*workers), max(120.0, self.prompts * 0.05))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prompts", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--smoke", action="store_true", help="200 prompts")
    args = parser.parse_args()
    if args.smoke:
        args.prompts = 200
    soak = Soak(args.prompts, args.seed)
    started = time.monotonic()
    asyncio.run(soak.run())
    soak.marks.append(snapshot("end", soak.done))
    print(
        f"ACP soak: {args.prompts} prompts, {WORKERS} editors, {time.monotonic() - started:.1f} s"
    )
    for mark in soak.marks:
        print(mark)
    start, end = soak.marks[0], soak.marks[-1]
    print(
        f"  end against start: RSS x{end.rss / start.rss:.2f}, fds {end.fds - start.fds:+d}, "
        f"threads {end.threads - start.threads:+d}, child processes "
        f"{end.children - start.children:+d}"
    )
    for outcome, count in sorted(soak.outcomes.items()):
        print(f"  {outcome}: {count}")
    if any("HANG" in outcome for outcome in soak.outcomes):
        sys.exit(1)


if __name__ == "__main__":
    main()
