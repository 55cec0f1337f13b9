"""SSE decode throughput: our decoder against httpx-sse and a raw parse loop, in one run.

Run from the repository root:  python benchmarks/bench_sse.py [--events 200000] [--runs 3]

A static loopback HTTP server (a separate process, so it does not share our GIL) serves one
pre-built ``text/event-stream`` body of small JSON events. Three readers consume the same body
over ``httpx`` (sync) and count events:

- ours: ``agentproto._runtime.sse.iter_sse(response.iter_bytes())``;
- httpx-sse: ``httpx_sse.EventSource(response).iter_sse()`` (lines from ``iter_lines``);
- raw loop: a minimal hand loop over ``response.iter_lines()`` collecting ``data:`` lines.

The same three also decode the body from memory (64 KiB chunks, no network). Prints events/s
(median of --runs) and the ratios ours / httpx-sse and ours / raw.

``--smoke``: one tiny round (2,000 events, one run), so the suite runs this benchmark and it
cannot rot; its figures mean nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import httpx
from httpx_sse import EventSource
from httpx_sse._decoders import SSEDecoder as HttpxSSEDecoder

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "generated"))

from agentproto._runtime.sse import iter_sse  # noqa: E402

CHUNK = 64 * 1024
SERVER = """
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
body = open(sys.argv[1], "rb").read()
class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        view = memoryview(body)
        for i in range(0, len(body), 65536):
            self.wfile.write(view[i:i + 65536])
    def log_message(self, *args):
        pass
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
"""


def make_body(count: int) -> bytes:
    parts = []
    for i in range(count):
        data = json.dumps({"id": i, "delta": f"token {i} ", "index": 0})
        parts.append(f"event: text_delta\ndata: {data}\n\n")
    return "".join(parts).encode()


def raw_loop(lines: Iterable[str]) -> int:
    count = 0
    data: list[str] = []
    for line in lines:
        if not line:
            if data:
                count += 1
                data = []
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())
    return count


def httpx_sse_lines(lines: Iterable[str]) -> int:
    decoder = HttpxSSEDecoder()
    count = 0
    for line in lines:
        if decoder.decode(line) is not None:
            count += 1
    return count


def chunks(body: bytes) -> Iterator[bytes]:
    for i in range(0, len(body), CHUNK):
        yield body[i : i + CHUNK]


def measure(fn: Callable[[], int], expected: int, runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        got = fn()
        samples.append(time.perf_counter() - started)
        assert got == expected, (got, expected)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="one tiny round")
    args = parser.parse_args()
    if args.smoke:
        args.events, args.runs = 2_000, 1
    body = make_body(args.events)
    n = args.events

    with tempfile.NamedTemporaryFile(suffix=".sse") as file:
        file.write(body)
        file.flush()
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, file.name], stdout=subprocess.PIPE, text=True
        )
        try:
            assert server.stdout is not None
            url = f"http://127.0.0.1:{server.stdout.readline().strip()}/"
            with httpx.Client(timeout=60) as client:

                def ours() -> int:
                    with client.stream("GET", url) as r:
                        return sum(1 for _ in iter_sse(r.iter_bytes(CHUNK)))

                def theirs() -> int:
                    with client.stream("GET", url) as r:
                        return sum(1 for _ in EventSource(r).iter_sse())

                def raw() -> int:
                    with client.stream("GET", url) as r:
                        return raw_loop(r.iter_lines())

                net = {
                    "ours": measure(ours, n, args.runs),
                    "httpx-sse": measure(theirs, n, args.runs),
                    "raw loop": measure(raw, n, args.runs),
                }
        finally:
            server.terminate()
            server.wait()

    def text_lines() -> Iterator[str]:
        # what httpx's iter_lines hands the other two: decoded text, split into lines
        yield from body.decode().splitlines()

    mem = {
        "ours": measure(lambda: sum(1 for _ in iter_sse(chunks(body))), n, args.runs),
        "httpx-sse": measure(lambda: httpx_sse_lines(text_lines()), n, args.runs),
        "raw loop": measure(lambda: raw_loop(text_lines()), n, args.runs),
    }

    print(f"events: {n}  body: {len(body) / 1e6:.1f} MB  (median of {args.runs} runs)")
    for title, table in (("loopback HTTP (httpx, sync)", net), ("in memory", mem)):
        print(f"\n{title}:")
        for name, seconds in table.items():
            print(f"  {name:<10} {n / seconds:>12,.0f} events/s  ({seconds:.3f} s)")
        print(f"  ours / httpx-sse: {table['httpx-sse'] / table['ours']:.2f}x")
        print(f"  ours / raw loop:  {table['raw loop'] / table['ours']:.2f}x")


if __name__ == "__main__":
    main()
