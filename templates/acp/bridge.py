"""Serve a local stdio ACP agent over Streamable HTTP and WebSocket (hand-written).

Run::

    python -m agentproto.acp.bridge --host 127.0.0.1 --port 8000 [--token T] -- <agent command>

and any existing stdio agent (on any SDK, in any language) becomes a remote one: editors connect
with :func:`~agentproto.acp.remote.connect_remote_agent`, the official SDKs' HTTP/WS clients, or
anything that speaks the RFD's wire (described in :mod:`agentproto.acp.remote`).

**One agent process per remote connection.** ACP has no notion of several editors on one agent
process (``initialize`` is once per connection; sessions, permissions, file system calls all
belong to the one editor), so each connection (an ``initialize`` POST, or a WebSocket) starts
its own process, in a process group of its own. When the connection ends (``DELETE``, the socket
closed, the idle timeout, the server stopping) its stdin is closed, then the whole group gets
SIGTERM and, after ``grace`` seconds, SIGKILL: whatever the agent spawned ends with it. When the
agent exits on its own, the connection ends (the editor's calls fail with
:class:`~agentproto.acp.remote.RemoteError`).

The bridge relays messages as they are, without parsing them into models: the agent's protocol
version, its extensions and unstable methods pass through untouched. Its bounds are those of
:class:`~agentproto.acp.remote_server.AgentApp` (the token, the origin check, ``limits``,
``max_connections`` — here also the most agent processes at once —, ``max_sessions``,
``idle_timeout``); a line from the agent over ``limits.max_message_bytes`` ends that connection.
The token may be given in the ``AGENTPROTO_BRIDGE_TOKEN`` environment variable rather than on
the command line (where ``ps`` shows it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
from collections.abc import Sequence
from typing import Any

from agentproto._runtime.guard import allowed_names
from agentproto._runtime.limits import Limits
from agentproto._runtime.serve import UnsafeBindError, serve
from agentproto.acp.remote_server import AgentApp, Peer, ServedConnection, error_body

__all__ = ["BridgeApp", "main", "serve_bridge"]

logger: logging.Logger = logging.getLogger("agentproto.acp.bridge")

TOKEN_ENV = "AGENTPROTO_BRIDGE_TOKEN"


class _ProcessPeer:
    """One agent process serving one remote connection: the editor's messages go to its stdin,
    each line of its stdout goes to the connection."""

    def __init__(
        self, app: BridgeApp, remote: ServedConnection, process: asyncio.subprocess.Process
    ) -> None:
        self.app = app
        self.remote = remote
        self.process = process
        self._closing = False
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                try:
                    line = await stdout.readline()
                except (ValueError, asyncio.LimitOverrunError):  # over max_message_bytes
                    logger.warning("the agent sent a line over the size limit: disconnecting")
                    break
                if not line:
                    break
                if line.strip():
                    self.remote.write(line)
                    await self.remote.drain()  # a slow event stream holds the agent back
        finally:
            if not self._closing:  # the agent exited (or broke the limit): end the connection
                await self.app.drop(self.remote)

    def feed(self, chunk: bytes) -> None:
        stdin = self.process.stdin
        if stdin is not None and not stdin.is_closing():
            stdin.write(chunk)

    async def ready(self) -> None:
        stdin = self.process.stdin
        if stdin is not None and not stdin.is_closing():
            with contextlib.suppress(ConnectionError):
                await stdin.drain()

    async def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        stdin = self.process.stdin
        if stdin is not None:
            with contextlib.suppress(OSError):
                stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), self.app.grace)
        except TimeoutError:
            pass
        # The whole group, whether the agent exited or not: what it spawned ends with it.
        _signal_group(self.process.pid, signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), self.app.grace)
        except TimeoutError:
            _signal_group(self.process.pid, signal.SIGKILL)
            await self.process.wait()
        _signal_group(self.process.pid, signal.SIGKILL)  # stragglers that ignored SIGTERM
        if self._reader is not asyncio.current_task():
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader


def _signal_group(pid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, sig)


class BridgeApp(AgentApp):
    """An ASGI app serving the stdio agent ``command`` over Streamable HTTP and WebSocket: one
    process per connection (see the module's text). Takes :class:`AgentApp`'s keywords, and
    ``env`` / ``cwd`` for the process and ``grace`` (seconds between closing its stdin,
    SIGTERM to its group, and SIGKILL)."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        grace: float = 2.0,
        token: str | None = None,
        allowed_origins: tuple[str, ...] = (),
        allowed_hosts: tuple[str, ...] | None = None,
        limits: Limits | None = None,
        max_connections: int = 100,
        max_sessions: int = 100,
        idle_timeout: float = 300.0,
        max_buffered_bytes: int = 4 * 1024 * 1024,
        keepalive: float = 15.0,
    ) -> None:
        if not command:
            raise ValueError("the bridge needs the agent's command")
        super().__init__(
            _no_factory,
            token=token,
            allowed_origins=allowed_origins,
            allowed_hosts=allowed_hosts,
            limits=limits,
            max_connections=max_connections,
            max_sessions=max_sessions,
            idle_timeout=idle_timeout,
            max_buffered_bytes=max_buffered_bytes,
            keepalive=keepalive,
        )
        self.command: list[str] = list(command)
        self.env: dict[str, str] | None = env
        self.cwd: str | None = cwd
        self.grace: float = grace

    def __repr__(self) -> str:  # the token never shows
        return f"<BridgeApp {self.command[0]!r}: {len(self.connections)} connections>"

    async def attach(self, remote: ServedConnection) -> Peer:
        process = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=self.env,
            cwd=self.cwd,
            limit=self.limits.max_message_bytes + 1,
            start_new_session=True,  # its own process group, ended with the connection
        )
        return _ProcessPeer(self, remote, process)

    def processes(self) -> dict[str, int]:
        """The agent process of each open connection: connection id -> pid (its group id)."""
        return {
            key: remote.connection.process.pid
            for key, remote in self.connections.items()
            if isinstance(remote.connection, _ProcessPeer)
        }

    async def drop(self, remote: ServedConnection) -> None:
        """End ``remote``'s connection (its process group with it)."""
        await self._drop(remote)


def _no_factory() -> Any:
    raise RuntimeError("the bridge serves a process, not an in-process agent")


def serve_bridge(
    command: Sequence[str],
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    token: str | None = None,
    allowed_origins: tuple[str, ...] = (),
    allowed_hosts: tuple[str, ...] | None = None,
    limits: Limits | None = None,
    max_connections: int = 100,
    idle_timeout: float = 300.0,
    public_without_auth: bool = False,
    ready: Any = None,
) -> None:
    """Serve ``command`` (a stdio ACP agent) on ``host:port`` until stopped (SIGINT /
    SIGTERM), through :func:`agentproto._runtime.serve.serve` (head and body deadlines,
    connection caps, from ``limits``): every process it started ends before this returns.
    ``port`` 0 picks a free port; ``ready(url)`` is called with the address once it listens.
    Without ``token``, a non-loopback ``host`` needs ``public_without_auth``
    (:class:`~agentproto.errors.UnsafeBindError` otherwise)."""
    app = BridgeApp(
        command,
        token=token,
        allowed_origins=allowed_origins,
        allowed_hosts=allowed_hosts,
        limits=limits,
        max_connections=max_connections,
        idle_timeout=idle_timeout,
    )

    def announce(url: str) -> None:
        if ready is not None:
            ready(url + "/")

    serve(
        app,
        host=host,
        port=port,
        authenticated=token is not None,
        public_without_auth=public_without_auth,
        ready=announce,
        limits=app.limits,
        error_body=error_body,
        lifespan="on",
        ws_max_size=app.max_message_bytes,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agentproto.acp.bridge",
        description="Serve a stdio ACP agent over Streamable HTTP and WebSocket.",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0: a free port")
    parser.add_argument(
        "--token", help=f"bearer token the editors must send (or ${TOKEN_ENV})", default=None
    )
    parser.add_argument(
        "--allow-origin", action="append", default=[], help="a browser origin to accept"
    )
    parser.add_argument(
        "--allow-host", action="append", default=[], help="a Host name editors use (repeat)"
    )
    parser.add_argument(
        "--public-without-auth",
        action="store_true",
        help="without a token, serve a non-loopback address anyway (anyone reaching it can use it)",
    )
    parser.add_argument(
        "--limits", default="{}", help="Limits fields as JSON, e.g. '{\"header_deadline\": 5}'"
    )
    parser.add_argument("--max-connections", type=int, default=100)
    parser.add_argument("--idle-timeout", type=float, default=300.0)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- <agent command> [args...]")
    options = parser.parse_args(argv)
    command = list(options.command)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        parser.error("give the agent's command after --")
    token = options.token or os.environ.get(TOKEN_ENV) or None

    def ready(url: str) -> None:
        print(f"serving {command[0]} on {url} (ws: {url.replace('http', 'ws', 1)})", flush=True)

    try:
        limits = Limits(**json.loads(options.limits))
        hosts = allowed_names(options.allow_host)
    except (TypeError, ValueError) as exc:
        parser.error(f"--limits / --allow-host: {exc}")
    try:
        serve_bridge(
            command,
            host=options.host,
            port=options.port,
            token=token,
            allowed_origins=tuple(options.allow_origin),
            allowed_hosts=hosts or None,
            limits=limits,
            max_connections=options.max_connections,
            idle_timeout=options.idle_timeout,
            public_without_auth=options.public_without_auth,
            ready=ready,
        )
    except UnsafeBindError as exc:
        print(f"cannot start: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # uvicorn re-raises the Ctrl-C it shut down for: done
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
