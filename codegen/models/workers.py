"""Model generation in worker processes, overlapping with input validation.

Generating models is the build's longest step and is independent per schema; validating the
inputs (meta-schema checks, manifests, bundles) is the second longest. So the build parses the
spec tables without validating them, starts the generation jobs on worker processes, validates
everything in the parent meanwhile, and only then takes the results. A job is used only if its
unit is exactly the one validation produced; anything else is generated again in the parent,
and a failed validation discards every job.

Workers only pay where cores are spare. On a 2-core host they saved no time and cost CPU (the
cold build, alternated runs: 3.69 and 3.33 s of CPU in one process, 3.77 and 3.79 s with two
workers; wall times equal within the host's noise), so the build uses them from 4 usable cores
up, where the largest schema generates beside the others while the parent validates.

Each worker is a forked process with its own pipe, and only the parent reads, when it wants a
result: stopping the workers after a failed validation can never leave a reader waiting on a
half-written message (``ProcessPoolExecutor`` could hang exactly there).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import TracebackType
from typing import Any

from codegen.ir import ModelUnit
from codegen.models.generate import generate_models

Key = tuple[object, ...]


def unit_key(unit: ModelUnit) -> Key:
    content = hashlib.sha256(json.dumps(unit.schema, sort_keys=True).encode()).hexdigest()
    return (unit.module, str(unit.schema_file), unit.root_name, unit.exclude, unit.renames, content)


def _work(units: list[ModelUnit], root: Path, out: Connection) -> None:
    """Worker body: generate each unit in turn and send (key, ok, text-or-exception)."""
    for unit in units:
        try:
            message: tuple[Key, bool, Any] = (unit_key(unit), True, generate_models(unit, root))
        except BaseException as exc:  # sent to the parent, which raises it
            message = (unit_key(unit), False, exc)
        try:
            out.send(message)
        except Exception as exc:  # e.g. an exception that does not pickle
            out.send((unit_key(unit), False, RuntimeError(f"{type(exc).__name__}: {exc}")))
    out.close()


def _usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class ModelJobs:
    def __init__(self, root: Path, workers: int | None = None) -> None:
        self.root = root
        self.workers = workers if workers is not None else (2 if _usable_cores() >= 4 else 0)
        self._procs: list[tuple[BaseProcess, Connection, set[Key]]] = []
        self._done: dict[Key, tuple[bool, Any]] = {}

    def __enter__(self) -> ModelJobs:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        for process, conn, _ in self._procs:
            if kind is not None or process.is_alive():
                process.terminate()  # unwanted work (failed build, or results left unread)
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join(timeout=5)
            conn.close()
        self._procs = []

    def start(self, units: list[ModelUnit]) -> None:
        """Deal the units to the workers, largest schema first, so the longest job starts first."""
        if self.workers < 2 or len(units) < 2 or os.name != "posix":
            return
        context = multiprocessing.get_context("fork")
        ordered = sorted(units, key=lambda u: -len(json.dumps(u.schema)))
        shares: list[list[ModelUnit]] = [[] for _ in range(self.workers)]
        loads = [0] * self.workers
        for unit in ordered:  # greedy: each unit to the least loaded worker
            i = loads.index(min(loads))
            shares[i].append(unit)
            loads[i] += len(json.dumps(unit.schema))
        for share in shares:
            if not share:
                continue
            reader, writer = context.Pipe(duplex=False)
            process = context.Process(target=_work, args=(share, self.root, writer), daemon=True)
            process.start()
            writer.close()
            self._procs.append((process, reader, {unit_key(u) for u in share}))

    def result(self, unit: ModelUnit) -> str:
        """The models text for a validated unit (a worker's, when it made this very unit)."""
        key = unit_key(unit)
        if key not in self._done:
            owner = next(((p, c) for p, c, keys in self._procs if key in keys), None)
            if owner is not None:
                self._read_until(owner[1], key)
        if key not in self._done:
            return generate_models(unit, self.root)
        ok, value = self._done.pop(key)
        if not ok:
            raise value
        text: str = value
        return text

    def _read_until(self, conn: Connection, key: Key) -> None:
        while key not in self._done:
            try:
                got, ok, value = conn.recv()
            except (EOFError, OSError):
                return  # the worker died: the parent generates what is missing
            self._done[got] = (ok, value)
