"""``codegen``: build the agentproto SDK, check it for drift, release it, list protocols.

Exit codes: 0 success; 1 ``build --check`` found drift; 2 bad input (file, JSON pointer, reason
on stderr; nothing written). ``release`` exits 0 when it recorded a version (or would, with
``--dry-run``) and 1 when there was nothing to release. ``diff`` exits 0 (no change), 3
(patch), 4 (minor) or 5 (major).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from codegen import __version__
from codegen.errors import BuildError

if TYPE_CHECKING:
    from codegen.pipeline import BuildResult, Layout

EXIT_DRIFT = 1
EXIT_BAD_INPUT = 2
EXIT_NOTHING_TO_RELEASE = 1
_ARROWS = {"client_to_server": "->", "server_to_client": "<-", "both": "<->"}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="codegen", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"codegen {__version__}")
    parser.add_argument("--root", type=Path, help="project folder (default: found from cwd)")
    parser.add_argument("--schemas", type=Path, help="schemas folder (default: ROOT/schemas)")
    sub = parser.add_subparsers(dest="command", required=True)

    build = sub.add_parser("build", help="regenerate generated/ from schemas/ and templates/")
    build.add_argument("--out", type=Path, help="output folder (default: ROOT/generated)")
    build.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 with a unified diff if generated/ is stale",
    )
    build.add_argument("--force", action="store_true", help="rebuild even if nothing changed")
    build.add_argument(
        "--verbose",
        action="store_true",
        help="print each warning in full (by default: one summary line per kind of input)",
    )
    build.add_argument(
        "--strict",
        action="store_true",
        help="agents.json bundles must match the seed schema exactly (no lenient reading)",
    )

    release = sub.add_parser(
        "release",
        help="record the unreleased API changes as the next version",
        description="Build, then record the changes since the last release (the Unreleased "
        "section of generated/CHANGELOG.md) as one version in release/history.json, at the "
        "level they call for; the package's version and changelog follow.",
    )
    release.add_argument("--out", type=Path, help="output folder (default: ROOT/generated)")
    release.add_argument(
        "--dry-run",
        action="store_true",
        help="print the version and entry that would be recorded; write nothing",
    )
    release.add_argument(
        "--level",
        choices=("patch", "minor", "major"),
        help="release at this level if it is higher than the changes call for",
    )
    release.add_argument(
        "--strict",
        action="store_true",
        help="agents.json bundles must match the seed schema exactly (no lenient reading)",
    )
    release.add_argument("--verbose", action="store_true", help="print each warning in full")

    diff = sub.add_parser(
        "diff",
        help="the semver report between two generated packages, writing nothing",
        description="OLD and NEW are each a git revision of the project (its generated/) or a "
        "folder (a generated package or a project holding one). Exit 0: no change; 3 patch; "
        "4 minor; 5 major; 2 bad input.",
    )
    diff.add_argument("old", metavar="OLD")
    diff.add_argument("new", metavar="NEW")

    listing = sub.add_parser("list", help="print the protocols and their operations")
    listing.add_argument("--unstable", action="store_true", help="include unstable operations")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from codegen.pipeline import Layout, build, find_root, load_protocols

    try:
        root = (args.root or find_root(Path.cwd())).resolve()
        layout = Layout.for_root(root, schemas=args.schemas, out=getattr(args, "out", None))
        if args.command == "list":
            return _list(load_protocols(layout), unstable=args.unstable)
        if args.command == "diff":
            from codegen.release.publishing import DIFF_EXIT, diff

            level, report = diff(args.old, args.new, root, layout.out)
            sys.stdout.write(report)
            return DIFF_EXIT[level]
        from codegen.progress import Progress, build_log

        started = time.perf_counter()
        from codegen.flows.normalise import strict_bundles

        progress = Progress()
        with strict_bundles(args.strict), build_log(progress, sys.stderr, verbose=args.verbose):
            if args.command == "release":
                from codegen.release.publishing import Release

                result = build(
                    layout, check=args.dry_run, release=Release(args.level), progress=progress
                )
            else:
                result = build(layout, check=args.check, force=args.force, progress=progress)
        if args.command == "release":
            return _released(result, layout, dry_run=args.dry_run)
    except BuildError as exc:
        print(
            f"codegen: {len(exc.problems)} problem(s); nothing was written.",
            file=sys.stderr,
        )
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    elapsed = time.perf_counter() - started
    if result.report and result.changed and not args.check:  # the semver report (publishing)
        sys.stdout.write(result.report)  # (--check shows it inside its diff)
    if args.check:
        if result.changed:
            sys.stdout.write(result.diff)
            print(f"codegen: {layout.out} is stale; run `codegen build`.", file=sys.stderr)
            return EXIT_DRIFT
        print(
            f"codegen: {layout.out} is up to date ({result.files} files, {elapsed:.2f}s).",
            file=sys.stderr,
        )
        return 0
    if result.up_to_date:
        print(f"codegen: nothing changed ({elapsed:.2f}s).", file=sys.stderr)
    elif result.changed:
        print(
            f"codegen: wrote {result.files} files to {layout.out}, version {result.version}"
            f"{_unreleased(result)} ({elapsed:.2f}s).",
            file=sys.stderr,
        )
    else:
        print(
            f"codegen: {layout.out} already matched the inputs ({elapsed:.2f}s).", file=sys.stderr
        )
    return 0


def _unreleased(result: BuildResult) -> str:
    if not result.pending:
        return ""
    return (
        f"; unreleased {result.pending} changes (`codegen release` records {result.next_version})"
    )


def _released(result: BuildResult, layout: Layout, *, dry_run: bool) -> int:
    where = layout.history_file
    if not result.recorded:
        print(
            f"codegen: nothing to release: the public API is that of version {result.version} "
            f"(the newest in {where}).",
            file=sys.stderr,
        )
        return EXIT_NOTHING_TO_RELEASE
    sys.stdout.write(result.report)
    if dry_run:
        print(
            f"codegen: --dry-run: {where} would record version {result.version}; "
            "nothing was written.",
            file=sys.stderr,
        )
    else:
        print(
            f"codegen: recorded version {result.version} in {where}; {layout.out} holds it.",
            file=sys.stderr,
        )
    return 0


def _list(protocols: list, *, unstable: bool) -> int:  # type: ignore[type-arg]
    for protocol in protocols:
        ops = [op for op in protocol.operations if unstable or not op.unstable]
        print(
            f"{protocol.key} ({protocol.title} {protocol.version}) -> agentproto."
            f"{protocol.module}, {protocol.transport['kind']}, {len(ops)} operations"
        )
        for op in ops:
            flags = " [unstable]" if op.unstable else ""
            group = f"{op.group}: " if op.group and protocol.id != "acp" else ""
            arrow = _ARROWS[op.direction]
            print(f"  {arrow:3} {group}{op.name:34} {op.target}{flags}")
    return 0
