"""A command run in the editor's terminal, from the agent's side (ACP v1, ``terminal/*``).

A :class:`TerminalHandle` wraps one terminal: every wait has a bound, and leaving the
``async with`` block releases the terminal (killing the command if it still runs)::

    async with await TerminalHandle.create(
        self.client, params.session_id, "pytest", ["-q"], cwd="/repo"
    ) as term:
        result = await term.wait(timeout=300)   # kills the command on timeout
        print(result.exit_code, result.output)

Needs the editor's ``terminal`` capability (checked before anything is sent).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING

from agentproto.acp.models import EnvVariable, TerminalOutputResponse

if TYPE_CHECKING:
    from agentproto.acp.connection import ClientConnection

DEFAULT_WAIT = 600.0
"""Seconds a wait lasts unless told otherwise."""
_STEP_TIMEOUT = 30.0  # a single terminal/output, kill or release


@dataclass(frozen=True)
class TerminalResult:
    """How the command ended (``exit_code``, or the ``signal`` that ended it; both ``None``
    when it was still running, as after a timeout), and its output (``truncated``: the
    editor kept only the last ``output_byte_limit`` bytes)."""

    exit_code: int | None
    signal: str | None
    output: str
    truncated: bool
    timed_out: bool = False


class TerminalHandle:
    """One terminal in the editor (see the module's docstring)."""

    def __init__(self, client: ClientConnection, session_id: str, terminal_id: str) -> None:
        self.client = client
        self.session_id = session_id
        self.terminal_id = terminal_id
        self._released = False

    @classmethod
    async def create(
        cls,
        client: ClientConnection,
        session_id: str,
        command: str,
        args: Sequence[str] = (),
        *,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        output_byte_limit: int | None = None,
        timeout: float = _STEP_TIMEOUT,
    ) -> TerminalHandle:
        """Start ``command`` in a new terminal (``terminal/create``, at most ``timeout``
        seconds)."""
        made = await asyncio.wait_for(
            client.create_terminal(
                session_id=session_id,
                command=command,
                args=list(args),
                cwd=cwd,
                env=[EnvVariable(name=k, value=v) for k, v in (env or {}).items()],
                output_byte_limit=output_byte_limit,
            ),
            timeout,
        )
        return cls(client, session_id, made.terminal_id)

    async def output(self, *, timeout: float = _STEP_TIMEOUT) -> TerminalOutputResponse:
        """The output so far, and the exit status once the command has ended."""
        return await asyncio.wait_for(
            self.client.terminal_output(session_id=self.session_id, terminal_id=self.terminal_id),
            timeout,
        )

    async def wait(
        self, *, timeout: float = DEFAULT_WAIT, kill_on_timeout: bool = True
    ) -> TerminalResult:
        """Wait for the command to end (at most ``timeout`` seconds), then read its output.
        On timeout the command is killed (unless ``kill_on_timeout`` is false) and the result
        says ``timed_out``; its exit status is what the editor reports then."""
        timed_out = False
        try:
            await asyncio.wait_for(
                self.client.wait_for_terminal_exit(
                    session_id=self.session_id, terminal_id=self.terminal_id
                ),
                timeout,
            )
        except TimeoutError:
            timed_out = True
            if kill_on_timeout:
                await self.kill()
        out = await self.output()
        status = out.exit_status
        return TerminalResult(
            exit_code=status.exit_code if status else None,
            signal=status.signal if status else None,
            output=out.output,
            truncated=out.truncated,
            timed_out=timed_out,
        )

    async def kill(self, *, timeout: float = _STEP_TIMEOUT) -> None:
        """Kill the command (the terminal stays, with its output, until released)."""
        await asyncio.wait_for(
            self.client.kill_terminal(session_id=self.session_id, terminal_id=self.terminal_id),
            timeout,
        )

    async def release(self, *, timeout: float = _STEP_TIMEOUT) -> None:
        """Release the terminal (the editor kills the command if it still runs); once."""
        if self._released:
            return
        self._released = True
        await asyncio.wait_for(
            self.client.release_terminal(session_id=self.session_id, terminal_id=self.terminal_id),
            timeout,
        )

    async def __aenter__(self) -> TerminalHandle:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if exc is None:
            await self.release()
            return
        with contextlib.suppress(Exception):  # the block's own exception goes on
            await self.release()
