"""Build speed: a cold `codegen build` against bare `datamodel-codegen` runs, and no-op rebuilds.

Run from the repository root:  python benchmarks/bench_build.py [--runs 3] [--smoke]

- cold: `codegen build --force` in a fresh process, into an empty output folder, in a scratch
  copy of the project (schemas/, templates/, release/; no cache), so it pays interpreter start,
  imports, validation, model generation for every schema, templates, formatting and the API
  snapshot.
- bare: one `datamodel-codegen` CLI process per schema codegen generates models from (the same
  files, ruff formatting, no validation, no templates), summed.
- no-op: `codegen build` again with nothing changed, in a fresh process and in-process.
- the model generator alone, in one process (after the same imports), CPU of its calls only:
  with codegen's options on codegen's inputs (normalised schemas, the alias carrier), and with
  the bare runs' options on the raw files. What the cold build spends beyond the first is
  codegen's own work; what the bare runs spend beyond the second (run warm: the generator's
  templates compiled by the first) is their interpreter starts, imports, template compiles
  and ruff. So the first bounds how low cold / bare can go.

The anchor is bare datamodel-code-generator, measured in the same run, the two alternated
(cold first in odd rounds, bare first in even ones). The ratio that counts is CPU time (user +
system of the processes and their children: ruff, model workers), which a shared, loaded
machine disturbs much less than wall time; wall times are printed beside it. Ratios are also
printed per round (min / median / max, benchmarks/rounds.py) with the load average, against the
bare CLI runs and against the one-process floor (the generator alone on the raw files with the
bare options, no interpreter start per schema): the bare CLI pays an interpreter start per
schema, so cold / bare alone flatters the build.
Targets: cold / bare CPU <= 1.0, no-op in process <= 0.3 s.

``--smoke``: one round over the AAP protocol alone (a few seconds), so the suite runs this
benchmark and it cannot rot; its figures say nothing about the targets.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rounds import load, ratio_line  # noqa: E402

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


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of a command and every process it waited for."""
    cpu, started = _children_cpu(), time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - started, _children_cpu() - cpu


def scratch_project(base: Path, protocols: list[str] | None) -> Layout:
    for name in ("schemas", "templates", "release"):
        shutil.copytree(ROOT / name, base / name)
    for folder in (base / "schemas").iterdir():
        if protocols is not None and folder.is_dir() and folder.name not in protocols:
            shutil.rmtree(folder)
    if protocols is not None:  # a history of the whole package does not fit a part of it
        shutil.rmtree(base / "release")
    return Layout.for_root(base)


def generator_only(root: Path) -> None:
    """(In a fresh process.) Print the CPU seconds of the model generator's calls alone: with
    codegen's options and inputs, then with the bare runs' options on the raw files."""
    import warnings

    from datamodel_code_generator import (  # type: ignore[attr-defined]
        DataModelType,
        InputFileType,
        generate,
    )

    from codegen.models.generate import prepare

    units = [u for p in load_protocols(Layout.for_root(root)) for u in p.models]
    ours = [prepare(unit, root) for unit in units]  # the build's own input to the generator
    bare_options: dict[str, Any] = {
        "input_file_type": InputFileType.JsonSchema,
        "output_model_type": DataModelType.PydanticV2BaseModel,
        "disable_timestamp": True,
        "formatters": [],
    }
    warnings.simplefilter("ignore")
    seconds: dict[str, float] = {}
    started = time.process_time()
    for prepared in ours:
        generate(prepared.source, **prepared.options)
    seconds["ours"] = time.process_time() - started
    started = time.process_time()
    for unit in units:
        generate(unit.schema_file.read_text(encoding="utf-8"), **bare_options)
    seconds["bare"] = time.process_time() - started
    print(json.dumps(seconds))


def main() -> None:
    if sys.argv[1:2] == ["--generator-only"]:
        generator_only(Path(sys.argv[2]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--protocols", nargs="*", help="only these protocols (default: all)")
    parser.add_argument("--smoke", action="store_true", help="one round over AAP alone")
    args = parser.parse_args()
    protocols = args.protocols or None
    if args.smoke:
        args.runs, protocols = 1, ["aap"]
    codegen = [sys.executable, "-m", "codegen"]

    cold: list[tuple[float, float]] = []
    bare: list[tuple[float, float]] = []
    noop_process: list[float] = []
    noop_inproc: list[float] = []
    alone: list[dict[str, float]] = []
    names: list[str] = []
    for round_ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            layout = scratch_project(Path(tmp), protocols)
            schemas = [u.schema_file for p in load_protocols(layout) for u in p.models]
            names = [s.name for s in schemas]

            def cold_build(tmp: str = tmp) -> None:
                cold.append(timed([*codegen, "--root", tmp, "build", "--force"], ROOT))

            def bare_runs(tmp: str = tmp, schemas: list[Path] = schemas) -> None:
                wall = cpu = 0.0
                for schema in schemas:
                    out = Path(tmp) / f"bare_{schema.stem}.py"
                    command = [
                        sys.executable,  # the CLI of this interpreter, whatever PATH says
                        "-m",
                        "datamodel_code_generator",
                        "--input",
                        str(schema),
                        "--output",
                        str(out),
                        *BARE_FLAGS,
                    ]
                    one_wall, one_cpu = timed(command, schema.parent)
                    wall, cpu = wall + one_wall, cpu + one_cpu
                bare.append((wall, cpu))

            for step in (cold_build, bare_runs) if round_ % 2 == 0 else (bare_runs, cold_build):
                step()
            alone.append(
                json.loads(
                    subprocess.run(
                        [sys.executable, __file__, "--generator-only", tmp],
                        check=True,
                        capture_output=True,
                        text=True,
                    ).stdout
                )
            )
            noop_process.append(timed([*codegen, "--root", tmp, "build"], ROOT)[0])
            started = time.perf_counter()
            result = build(layout)
            noop_inproc.append(time.perf_counter() - started)
            assert result.up_to_date

    med = statistics.median

    def runs(values: list[float]) -> str:
        return ", ".join(f"{v:.2f}" for v in values)

    cold_cpu, bare_cpu = [c for _, c in cold], [c for _, c in bare]
    cold_wall, bare_wall = [w for w, _ in cold], [w for w, _ in bare]
    print(f"schemas: {len(names)} ({', '.join(names)}); rounds: {args.runs}, alternated")
    print(f"host: {load()}")
    print(f"cold codegen build, CPU:              {med(cold_cpu):6.2f} s  (runs: {runs(cold_cpu)})")
    print(f"bare datamodel-codegen, CPU (sum):    {med(bare_cpu):6.2f} s  (runs: {runs(bare_cpu)})")
    print(
        f"ratio cold / bare, CPU:               {med(cold_cpu) / med(bare_cpu):6.2f}  "
        f"(per round: {runs([c / b for c, b in zip(cold_cpu, bare_cpu, strict=True)])}; "
        "target <= 1.0)"
    )
    print(
        f"cold / bare, wall:                    {med(cold_wall):6.2f} s / {med(bare_wall):.2f} s"
        f" = {med(cold_wall) / med(bare_wall):.2f}"
    )
    gen_ours = med([a["ours"] for a in alone])
    gen_bare = med([a["bare"] for a in alone])
    print(
        f"model generator alone, codegen's options: {gen_ours:6.2f} s  "
        f"(= {gen_ours / med(bare_cpu):.2f} of bare; codegen's own work: "
        f"{med(cold_cpu) - gen_ours:.2f} s)"
    )
    print(
        f"model generator alone, bare options:    {gen_bare:6.2f} s  "
        f"(warm; codegen's cost {gen_ours / gen_bare:.2f}x; the bare runs' starts, imports, "
        f"compiles and ruff: {med(bare_cpu) - gen_bare:.2f} s)"
    )
    floor = [a["bare"] for a in alone]
    print(ratio_line("cold / bare CLI runs, CPU", cold_cpu, bare_cpu, "<= 1.0x"))
    print(
        ratio_line(
            "cold / one-process floor (the generator alone on the raw files, bare options), CPU",
            cold_cpu,
            floor,
        )
    )
    print(f"no-op rebuild, in process:            {med(noop_inproc):6.3f} s  (target <= 0.3)")
    print(f"no-op rebuild, fresh `codegen build`: {med(noop_process):6.3f} s")


if __name__ == "__main__":
    main()
