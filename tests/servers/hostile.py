"""Hostile HTTP clients on raw sockets, for the servers' tests (issue 40): clients that never
finish their headers or their body, idle floods, and one-shot hostile requests.

Each helper connects from a given loopback source address (Linux routes all of 127.0.0.0/8
to the loopback interface), so an attacker and a legitimate client can be told apart by the
per-client bound. Every socket a helper opens is closed by :meth:`Crowd.close` (or the
``with`` block)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", int(parts.port or 80)


def connect(url: str, source: str = "127.0.0.1", timeout: float = 10.0) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(address(url))
    return sock


@dataclass
class Crowd:
    """Connections a hostile client holds; ``closed_at[i]``: when the server closed socket
    ``i`` (seconds after it was opened), once :meth:`watch` saw it."""

    socks: list[socket.socket] = field(default_factory=list)
    opened: list[float] = field(default_factory=list)
    closed_at: dict[int, float] = field(default_factory=dict)
    answers: dict[int, bytes] = field(default_factory=dict)
    refused: int = 0  # connections the server closed at once (no slot)

    def __enter__(self) -> Crowd:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for sock in self.socks:
            with contextlib.suppress(OSError):
                sock.close()
        self.socks.clear()

    def open(self, url: str, count: int, source: str, first: bytes = b"") -> None:
        for _ in range(count):
            try:
                sock = connect(url, source)
                if first:
                    sock.sendall(first)
            except OSError:
                self.refused += 1
                continue
            sock.setblocking(False)
            self.socks.append(sock)
            self.opened.append(time.monotonic())

    def drip(self, data: bytes = b"x") -> None:
        """One more byte (or ``data``) on every connection still open."""
        for n, sock in enumerate(self.socks):
            if n in self.closed_at:
                continue
            with contextlib.suppress(OSError):
                sock.send(data)

    def watch(self) -> int:
        """Note the connections the server closed since the last look; how many are open."""
        for n, sock in enumerate(self.socks):
            if n in self.closed_at:
                continue
            try:
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        self.closed_at[n] = time.monotonic() - self.opened[n]
                        break
                    self.answers[n] = self.answers.get(n, b"") + chunk
            except BlockingIOError:
                continue
            except OSError:
                self.closed_at[n] = time.monotonic() - self.opened[n]
        return len(self.socks) - len(self.closed_at)

    def hold(self, seconds: float, every: float = 0.25, data: bytes | None = b"x") -> None:
        """Drip ``data`` every ``every`` seconds for ``seconds`` (``None``: stay silent)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if data is not None:
                self.drip(data)
            self.watch()
            time.sleep(every)

    def statuses(self) -> list[int]:
        found = []
        for answer in self.answers.values():
            line = answer.split(b"\r\n", 1)[0].split()
            if len(line) >= 2 and line[1].isdigit():
                found.append(int(line[1]))
        return found


def head(method: str, path: str, host: str, extra: dict[str, str] | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
    lines += [f"{k}: {v}" for k, v in (extra or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def request(
    url: str,
    method: str,
    path: str,
    body: bytes = b"",
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
    timeout: float = 20.0,
) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP/1.1 request (``Connection: close``): status, headers, body."""
    host, port = address(url)
    sent = {"Connection": "close", **(headers or {})}
    if (body or method in ("POST", "PUT", "PATCH")) and "Transfer-Encoding" not in sent:
        sent.setdefault("Content-Length", str(len(body)))
    sent.setdefault("Host", f"{host}:{port}")
    lines = [f"{method} {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in sent.items()]
    with connect(url, source, timeout) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        data = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                data += chunk
    top, _, rest = data.partition(b"\r\n\r\n")
    status_line, *header_lines = top.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()
    if found.get("transfer-encoding") == "chunked":
        rest = _unchunk(rest)
    return int(status_line.split()[1]), found, rest


def _unchunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out += data[:size]
        data = data[size + 2 :]
    return out


def json_body(body: bytes) -> object:
    return json.loads(body)


DEEP = b"[" * 100_000 + b"]" * 100_000


def deep_object(key: str = "params") -> bytes:
    """A JSON-RPC-looking request whose ``key`` is 100,000 arrays deep."""
    return b'{"jsonrpc":"2.0","id":1,"method":"initialize","' + key.encode() + b'":' + DEEP + b"}"


# -- a server process's resources ------------------------------------------------------------


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def settle(pid: int, baseline: tuple[int, int], seconds: float = 15.0) -> tuple[int, int]:
    """Wait (bounded) for ``pid``'s descriptors and threads to come back to ``baseline`` (or
    below); what they are at the end."""
    deadline = time.monotonic() + seconds
    while True:
        now = (descriptors(pid), threads(pid))
        if (now[0] <= baseline[0] and now[1] <= baseline[1]) or time.monotonic() > deadline:
            return now
        time.sleep(0.1)


def log_has_traceback(path: Path) -> bool:
    text = path.read_text(errors="replace") if path.exists() else ""
    return "Traceback" in text or "RecursionError" in text


@contextlib.contextmanager
def background(work: object) -> Iterator[threading.Thread]:
    thread = threading.Thread(target=work, daemon=True)  # type: ignore[arg-type]
    thread.start()
    try:
        yield thread
    finally:
        thread.join(30)
