"""The build: load + validate → IR → models → templates → format → stage → compare/swap."""

from __future__ import annotations

import gc
import hashlib
import json
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from codegen import parsed
from codegen.errors import BuildError, Problem
from codegen.ir import ModelUnit, Protocol
from codegen.package.output import read_tree, stage, swap_in, tree_digest, unified_diff
from codegen.progress import Progress

if TYPE_CHECKING:
    from codegen.release.publishing import Release

CACHE_DIR = ".codegen-cache"
_PINNED = ("datamodel-code-generator", "ruff", "pydantic", "jinja2", "black")


@dataclass(frozen=True)
class Layout:
    """Where a build reads and writes; all relative to the project root by default."""

    root: Path
    schemas: Path
    templates: Path
    out: Path
    release: Path | None = None  # the release history's folder (default ROOT/release)

    @property
    def history_file(self) -> Path:
        from codegen.release.changelog import HISTORY_FILE

        return (self.release or self.root / "release") / HISTORY_FILE

    @property
    def released_file(self) -> Path:
        """The API snapshot of the newest released version, beside the history."""
        from codegen.release.changelog import RELEASED_FILE

        return self.history_file.parent / RELEASED_FILE

    @classmethod
    def for_root(
        cls, root: Path, *, schemas: Path | None = None, out: Path | None = None
    ) -> Layout:
        return cls(
            root=root,
            schemas=schemas or root / "schemas",
            templates=root / "templates",
            out=out or root / "generated",
        )


@dataclass(frozen=True)
class BuildResult:
    changed: bool
    up_to_date: bool  # skipped: inputs and output unchanged since the last build
    diff: str = ""
    files: int = 0
    report: str = ""  # the semver report when the public API changed (codegen.release.publishing)
    version: str = ""  # the newest released version (the package's)
    pending: str = ""  # the unreleased changes' level, e.g. "minor" ("": none)
    next_version: str = ""  # what `codegen release` would record for them
    recorded: bool = False  # a version was recorded (the initial one, or a release)


def find_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` holding schemas/ and templates/."""
    for folder in (start, *start.parents):
        if (folder / "schemas").is_dir() and (folder / "templates").is_dir():
            return folder
    raise BuildError.single(str(start), "", "no codegen project here (no schemas/ and templates/)")


def load_protocols(layout: Layout) -> list[Protocol]:
    from codegen.inputs.spec_table import SPEC_FILE
    from codegen.inputs.spec_table import load_protocols as load_folder

    if not layout.schemas.is_dir():
        raise BuildError.single(str(layout.schemas), "", "schemas folder not found")
    folders = sorted(p for p in layout.schemas.iterdir() if p.is_dir() and p.name[0] != ".")
    if not folders:
        raise BuildError.single(
            str(layout.schemas),
            "",
            "no protocols: each protocol is a folder here holding a spec table "
            f"({SPEC_FILE}) and its schemas",
        )
    protocols: list[Protocol] = []
    problems: list[Problem] = []
    for folder in folders:
        if not (folder / SPEC_FILE).is_file():
            problems.extend(
                BuildError.single(f"{folder.name}/{SPEC_FILE}", "", "missing spec table").problems
            )
            continue
        try:
            protocols.extend(load_folder(folder, layout.root))
        except BuildError as exc:  # report every protocol's problems in one go
            problems.extend(exc.problems)
    if problems:
        raise BuildError(problems)
    check_packages(protocols, layout)
    return protocols


def check_packages(protocols: list[Protocol], layout: Layout) -> None:
    """Every protocol's package is its own: not another protocol's, and not a module the
    package has besides the protocols (``agentproto.errors``, ``agentproto._runtime``, the
    hand-written ``agentproto.mcp``...), which it would silently replace."""
    from codegen.inputs.spec_table import SPEC_FILE
    from codegen.package.render import reserved_modules

    reserved = reserved_modules()
    owners: dict[str, str] = {}
    problems: list[Problem] = []
    for protocol in protocols:
        if protocol.edition is not None:
            continue
        shown = f"{layout.schemas.name}/{protocol.id}/{SPEC_FILE}"
        if protocol.package in reserved:
            problems.append(
                Problem(
                    shown,
                    "/package",
                    f"agentproto.{protocol.package} is {reserved[protocol.package]}: "
                    "choose another package name",
                )
            )
        elif protocol.package in owners:
            problems.append(
                Problem(
                    shown,
                    "/package",
                    f"agentproto.{protocol.package} is protocol {owners[protocol.package]!r}'s "
                    "package already",
                )
            )
        owners.setdefault(protocol.package, protocol.id)
    if problems:
        raise BuildError(problems)


def early_units(layout: Layout) -> list[ModelUnit]:
    """Model units read from the spec tables without validation, to start generating early.
    A folder that does not even parse is skipped here; validation reports it."""
    from codegen.inputs.spec_table import edition_tables, model_units

    units: list[ModelUnit] = []
    for folder in sorted(p for p in layout.schemas.iterdir() if p.is_dir()):
        try:
            tables = edition_tables(folder, layout.root)
        except Exception:
            continue
        for table in tables:
            try:
                units.extend(model_units(folder, table, layout.root, check=False))
            except Exception:
                continue
    return units


def generate(layout: Layout, progress: Progress) -> dict[str, str]:
    """Load and validate the inputs, generate models (in workers meanwhile), render."""
    from codegen.models.workers import ModelJobs
    from codegen.package.render import render_package

    with ModelJobs(layout.root) as jobs:
        if layout.schemas.is_dir():
            jobs.start(early_units(layout))
        progress.step("loading and validating schemas, spec tables, manifests, bundles")
        protocols = load_protocols(layout)
        models = {}
        for protocol in protocols:
            for unit in protocol.models:
                progress.step(f"models: {unit.module}")
                models[unit.module] = jobs.result(unit)
    progress.step("templates")
    return render_package(protocols, models, layout.templates, layout.templates / "runtime")


def inputs_digest(layout: Layout) -> str:
    """Hash of everything a build reads: inputs, templates, generator code, pinned tools."""
    digest = hashlib.sha256()
    generator = Path(__file__).parent
    for base in (layout.schemas, layout.templates, generator):
        for path in sorted(base.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(base)).encode() + b"\0")
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    for path in (layout.history_file, layout.released_file):
        digest.update(path.read_bytes() if path.is_file() else b"none")
    for dist in _PINNED:
        digest.update(f"{dist}=={metadata.version(dist)}".encode())
    digest.update(f"{sys.version_info[:2]}|{layout.out.resolve()}".encode())
    return digest.hexdigest()


def _cache_file(layout: Layout) -> Path:
    return layout.root / CACHE_DIR / "state.json"


def _up_to_date(layout: Layout, inputs: str) -> bool:
    try:
        state = json.loads(_cache_file(layout).read_text())
    except (OSError, ValueError):
        return False
    return bool(
        state.get("inputs") == inputs and state.get("output") == tree_digest(read_tree(layout.out))
    )


def _remember(layout: Layout, inputs: str) -> None:
    path = _cache_file(layout)
    path.parent.mkdir(exist_ok=True)
    (path.parent / ".gitignore").write_text("*\n")
    state = {"inputs": inputs, "output": tree_digest(read_tree(layout.out))}
    path.write_text(json.dumps(state, indent=2) + "\n")


def build(
    layout: Layout,
    *,
    check: bool = False,
    force: bool = False,
    progress: Progress | None = None,
    release: Release | None = None,
) -> BuildResult:
    """Regenerate ``layout.out``. With ``check``, write nothing and return the drift as a diff.

    ``release`` (``codegen release``): also record the unreleased changes as the next version
    (with ``check``: say what would be recorded, writing nothing). A build whose inputs,
    generator and output are unchanged since the last one is skipped (unless ``force``);
    ``check`` and ``release`` never skip.
    """
    from codegen.flows.normalise import is_strict

    progress = progress or Progress(enabled=False)
    inputs = inputs_digest(layout)
    # --strict judges bundles the last (lenient) build accepted: never skipped
    skippable = not check and not force and release is None and not is_strict()
    if skippable and _up_to_date(layout, inputs):
        return BuildResult(changed=False, up_to_date=True)
    with _batch_collection():
        try:
            return _rebuild(layout, check=check, progress=progress, release=release)
        finally:
            parsed.clear()


@contextmanager
def _batch_collection() -> Iterator[None]:
    """The cyclic collector tuned for a build, which is a batch job.

    A build allocates large short-lived trees (parsed JSON documents, the model generator's,
    ``ast`` trees of modules of up to 260 KB) that hold no cycles and are freed by their
    reference counts. With the default threshold (a young collection every 700 allocations)
    each large tree is promoted while it is being built and triggers full collections of the
    whole heap: 13 of them cost 1.0 s of a 5 s build. Young collections every 50,000
    allocations collect the same cycles 15 times over a build, for 0.17 s. Restored after.
    """
    old = gc.get_threshold()
    gc.set_threshold(50_000, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def _rebuild(
    layout: Layout, *, check: bool, progress: Progress, release: Release | None
) -> BuildResult:
    # The most common bad input, alone and first: a rejected bundle reports in well under a
    # second, before the seconds of meta-schema checks and model generation.
    from codegen.inputs.corpus import check_bundles

    check_bundles(layout.schemas, layout.root)
    files = generate(layout, progress)
    progress.step("formatting")
    staging = stage(files, parent=None if check else layout.out.parent)
    try:
        from codegen.release import changelog, publishing

        progress.step("API snapshot, version, changelog")
        outcome = publishing.apply(
            staging,
            layout.out,
            layout.schemas,
            layout.history_file,
            layout.released_file,
            release,
        )
        new = read_tree(staging)
        old = read_tree(layout.out)
        result = BuildResult(
            changed=new != old,
            up_to_date=False,
            files=len(new),
            report=outcome.report,
            version=outcome.version,
            pending=outcome.pending.level if outcome.pending else "",
            next_version=outcome.pending.version if outcome.pending else "",
            recorded=outcome.history is not None,
        )
        if check:
            diff = unified_diff(old, new, layout.out.name)
            if outcome.history is not None:
                diff += (
                    f"# {layout.history_file} would record version {outcome.version}:\n"
                    + "".join(f"# {line}\n" for line in outcome.report.splitlines())
                )
            return replace(result, changed=bool(diff), diff=diff)
        # before the swap: a history ahead, never behind
        if outcome.history is not None:
            changelog.save(layout.history_file, outcome.history)
        if outcome.released is not None:
            changelog.save_text(layout.released_file, outcome.released)
        if result.changed:
            progress.step("swapping into place")
            swap_in(staging, layout.out)
        _remember(layout, inputs_digest(layout))
        return result
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        progress.done()
