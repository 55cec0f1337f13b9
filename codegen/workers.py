"""Model generation in worker processes, overlapping with input validation.

Generating models is the build's longest step and is independent per schema; validating the
inputs (meta-schema checks, manifests, bundles) is the second longest. So the build parses the
spec tables without validating them, starts one generation job per schema on a process pool,
validates everything in the parent meanwhile, and only then takes the results. A job is used
only if its unit is exactly the one validation produced; anything else is generated again in
the parent, and a failed validation discards every job.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from types import TracebackType

from codegen.ir import ModelUnit
from codegen.models import generate_models


def unit_key(unit: ModelUnit) -> tuple[object, ...]:
    content = hashlib.sha256(json.dumps(unit.schema, sort_keys=True).encode()).hexdigest()
    return (unit.module, str(unit.schema_file), unit.root_name, unit.exclude, unit.renames, content)


class ModelJobs:
    def __init__(self, root: Path, workers: int | None = None) -> None:
        self.root = root
        self.workers = workers if workers is not None else min(2, os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None
        self._futures: dict[tuple[object, ...], Future[str]] = {}

    def __enter__(self) -> ModelJobs:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._pool is None:
            return
        if kind is not None:
            # The build failed (bad input): its models are not wanted, so do not wait for them.
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def start(self, units: list[ModelUnit]) -> None:
        """Submit every unit, largest schema first, so the longest job starts first."""
        if self.workers < 2 or len(units) < 2:
            return
        context = multiprocessing.get_context("fork") if os.name == "posix" else None
        self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        for unit in sorted(units, key=lambda u: -len(json.dumps(u.schema))):
            self._futures[unit_key(unit)] = self._pool.submit(generate_models, unit, self.root)

    def result(self, unit: ModelUnit) -> str:
        """The models text for a validated unit (a worker's, when it made this very unit)."""
        future = self._futures.pop(unit_key(unit), None)
        if future is None:
            return generate_models(unit, self.root)
        return future.result()
