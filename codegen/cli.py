"""``codegen``: build the agentproto SDK, check it for drift, list protocols.

Exit codes: 0 success; 1 ``build --check`` found drift; 2 bad input (file, JSON pointer, reason
on stderr; nothing written). ``diff`` exits 0 (no change), 3 (patch), 4 (minor) or 5 (major).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from codegen import __version__
from codegen.errors import BuildError

EXIT_DRIFT = 1
EXIT_BAD_INPUT = 2
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
        "--strict",
        action="store_true",
        help="agents.json bundles must match the seed schema exactly (no lenient reading)",
    )

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
        from codegen.progress import Progress

        started = time.perf_counter()
        from codegen.flows.normalise import strict_bundles

        with strict_bundles(args.strict):
            result = build(layout, check=args.check, force=args.force, progress=Progress())
    except BuildError as exc:
        print(
            f"codegen: {len(exc.problems)} problem(s) in the inputs; nothing was written.",
            file=sys.stderr,
        )
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    elapsed = time.perf_counter() - started
    if result.report and not args.check:  # the API changed: the semver report (publishing)
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
            f"codegen: wrote {result.files} files to {layout.out}, version {result.version} "
            f"({elapsed:.2f}s).",
            file=sys.stderr,
        )
    else:
        print(
            f"codegen: {layout.out} already matched the inputs ({elapsed:.2f}s).", file=sys.stderr
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
