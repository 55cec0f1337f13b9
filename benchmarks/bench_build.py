"""Build speed: cold `codegen build` against bare `datamodel-codegen` CLI runs, and no-op rebuild.

Run from the repository root:  python benchmarks/bench_build.py [--runs 3]

- cold: `codegen build --force` in a fresh process, into an empty output folder, in a scratch
  copy of the project (no cache), so it pays interpreter start, imports, validation, model
  generation for every schema, templates and formatting.
- bare: one `datamodel-codegen` CLI process per schema codegen generates models from (the same
  files, ruff formatting, no validation, no templates), summed.
- no-op: `codegen build` again with nothing changed, in a fresh process and in-process.

Prints medians and the ratio cold / bare (target <= 1.3) and the no-op time (target <= 0.3 s).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from codegen.pipeline import Layout, build, load_protocols  # noqa: E402

BARE_FLAGS = [
    "--input-file-type",
    "jsonschema",
    "--output-model-type",
    "pydantic_v2.BaseModel",
    "--disable-timestamp",
    "--formatters",
    "ruff-format",
]


def timed(command: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - started


def scratch_project(base: Path) -> Layout:
    for name in ("schemas", "templates"):
        shutil.copytree(ROOT / name, base / name)
    return Layout.for_root(base)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    codegen = [sys.executable, "-m", "codegen"]
    schemas = [u.schema_file for p in load_protocols(Layout.for_root(ROOT)) for u in p.models]

    cold, bare, noop_process, noop_inproc = [], [], [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            layout = scratch_project(Path(tmp))
            cold.append(timed([*codegen, "--root", tmp, "build", "--force"], ROOT))
            noop_process.append(timed([*codegen, "--root", tmp, "build"], ROOT))
            started = time.perf_counter()
            result = build(layout)
            noop_inproc.append(time.perf_counter() - started)
            assert result.up_to_date
            total = 0.0
            for schema in schemas:
                out = Path(tmp) / f"bare_{schema.stem}.py"
                total += timed(
                    [
                        sys.executable,  # the CLI of this interpreter, whatever PATH says
                        "-m",
                        "datamodel_code_generator",
                        "--input",
                        str(schema),
                        "--output",
                        str(out),
                        *BARE_FLAGS,
                    ],
                    schema.parent,
                )
            bare.append(total)

    med = statistics.median
    print(f"schemas: {len(schemas)} ({', '.join(s.name for s in schemas)})")
    print(
        f"cold codegen build (fresh process, all protocols): {med(cold):6.2f} s  "
        f"(runs: {', '.join(f'{t:.2f}' for t in cold)})"
    )
    print(
        f"bare datamodel-codegen CLI, sum over schemas:      {med(bare):6.2f} s  "
        f"(runs: {', '.join(f'{t:.2f}' for t in bare)})"
    )
    print(
        f"ratio cold / bare:                                 {med(cold) / med(bare):6.2f}  "
        "(target <= 1.3)"
    )
    print(
        f"no-op rebuild, in process:                         {med(noop_inproc):6.3f} s  "
        "(target <= 0.3)"
    )
    print(f"no-op rebuild, fresh `codegen build` process:      {med(noop_process):6.3f} s")


if __name__ == "__main__":
    main()
