"""Document collections that are build inputs besides the type schemas.

- agents.json bundles: ``schemas/agents_json/bundles/<name>/`` holds ``agents.json``, the
  OpenAPI files it uses, and ``bundle.yaml`` mapping each ``sources[].id`` to a local file
  (real bundles point at remote URLs; the build never fetches).
- AI-Protocol manifests: ``schemas/ai_protocol/providers/<id>.json``.

Each document is validated against the protocol's schema; a bad one stops the build with file,
JSON pointer and reason.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from codegen.errors import BuildError, Problem, to_pointer
from codegen.flows.normalise import Deviation, is_strict, normalise
from codegen.flows.plan import plan_bundle
from codegen.inputs.sources import display_path, load_document, schema_problems
from codegen.ir import Operation

BUNDLES_DIR = "bundles"
PROVIDERS_DIR = "providers"
_BUNDLE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def _identifier(text: str) -> str:
    name = re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_").lower()
    return name if name and not name[0].isdigit() else f"op_{name}"


def load_bundle(folder: Path, schema: dict[str, Any], root: Path) -> dict[str, Any]:
    """Load one bundle and check it; returns the agents.json document (as the planner reads
    it: known deviations normalised unless the build is strict)."""
    return read_bundle(folder, schema, root)[0]


def read_bundle(
    folder: Path, schema: dict[str, Any], root: Path
) -> tuple[dict[str, Any], list[Deviation]]:
    """Load one bundle and check it: the agents.json document and the deviations from the
    seed schema that were read leniently (none in a strict build; see codegen.flows.normalise)."""
    agents_path = folder / "agents.json"
    shown = display_path(agents_path, root)
    raw = load_document(agents_path, root)
    deviations: list[Deviation] = []
    if is_strict():
        document, checkable = raw, raw
    else:
        document, checkable, deviations = normalise(raw)
    problems = schema_problems(checkable, schema, shown, check_schema=False)
    if problems:
        raise BuildError(problems)

    mapping_path = folder / "bundle.yaml"
    mapping_shown = display_path(mapping_path, root)
    mapping = load_document(mapping_path, root)
    sources = mapping.get("sources") if isinstance(mapping, dict) else None
    if not isinstance(sources, dict):
        raise BuildError.single(mapping_shown, "/sources", "must map each source id to a file")

    for index, source in enumerate(document["sources"]):
        local = sources.get(source["id"])
        if not isinstance(local, str):
            problems.append(
                Problem(
                    shown,
                    f"/sources/{index}/id",
                    f"source {source['id']!r} has no local file in {mapping_shown}",
                )
            )
            continue
        spec_path = folder / local
        if folder.resolve() not in spec_path.resolve().parents:
            problems.append(
                Problem(
                    mapping_shown,
                    to_pointer(["sources", source["id"]]),
                    "must name a file inside the bundle folder",
                )
            )
    # Each action's source and operation are the planner's to check: a flow whose action
    # names neither is left out with a warning (an error under --strict).
    if problems:
        raise BuildError(problems)
    result: dict[str, Any] = document
    return result, deviations


def bundle_sources(folder: Path, root: Path) -> dict[str, Any]:
    """The OpenAPI documents of a (loaded, checked) bundle, by source id."""
    mapping = load_document(folder / "bundle.yaml", root)
    return {sid: _openapi(folder / local, root) for sid, local in mapping["sources"].items()}


def _openapi(path: Path, root: Path) -> Any:
    """An OpenAPI document, parsed once per build process (the bundle check, the operation
    list and the planner all read it; nothing mutates it)."""
    stat = path.stat() if path.is_file() else None
    key = (path.resolve(), stat.st_mtime_ns if stat else 0, stat.st_size if stat else -1)
    return _parsed(key, root)


@lru_cache(maxsize=16)
def _parsed(key: tuple[Path, int, int], root: Path) -> Any:
    """Parse an OpenAPI file. YAML is slow (alpaca's 500 KB: ~250 ms with libyaml), so a YAML
    file whose parse survives a JSON round trip exactly is kept as JSON under
    ``.codegen-cache/openapi/<sha256 of its bytes>.json`` (~15 ms to read); the content hash
    is the key, so an edited file is parsed again."""
    path = key[0]
    if path.suffix not in (".yaml", ".yml") or not path.is_file():
        return load_document(path, root)
    cache = root / ".codegen-cache"
    stored = cache / "openapi" / f"{hashlib.sha256(path.read_bytes()).hexdigest()}.json"
    try:
        return json.loads(stored.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    document = load_document(path, root)
    try:
        text = json.dumps(document, ensure_ascii=False)
        if json.loads(text) == document:  # no dates, no non-string keys: exact as JSON
            stored.parent.mkdir(parents=True, exist_ok=True)
            if not (cache / ".gitignore").exists():
                (cache / ".gitignore").write_text("*\n")
            partial = stored.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(text, encoding="utf-8")
            partial.replace(stored)
    except (OSError, TypeError, ValueError):
        pass  # an unwritable project or a document JSON cannot hold: parsed every time
    return document


def bundle_folders(protocol_folder: Path, root: Path) -> list[Path]:
    base = protocol_folder / BUNDLES_DIR
    folders = sorted(p for p in base.iterdir() if p.is_dir()) if base.is_dir() else []
    for folder in folders:
        if not _BUNDLE_NAME.match(folder.name):
            raise BuildError.single(
                display_path(folder, root),
                "",
                "a bundle folder name must be a lower-case identifier",
            )
    return folders


def bundle_operations(
    protocol_folder: Path, schema: dict[str, Any], root: Path
) -> tuple[Operation, ...]:
    """One operation per flow of every bundle."""
    result = []
    problems: list[Problem] = []
    for folder in bundle_folders(protocol_folder, root):
        try:
            document = load_bundle(folder, schema, root)
        except BuildError as exc:  # report every bad bundle at once
            problems.extend(exc.problems)
            continue
        for flow in document["flows"]:
            result.append(
                Operation(
                    name=_identifier(flow["id"]),
                    summary=flow.get("title") or flow["id"],
                    direction="client_to_server",
                    request=None,
                    response=None,
                    http_method=None,
                    errors=(),
                    group=folder.name,
                )
            )
    if problems:
        raise BuildError(problems)
    return tuple(result)


def manifest_files(protocol_folder: Path) -> list[Path]:
    base = protocol_folder / PROVIDERS_DIR
    return sorted(base.glob("*.json")) if base.is_dir() else []


def load_manifest(path: Path, schema: dict[str, Any], root: Path) -> dict[str, Any]:
    """A bundled manifest, valid for the seed schema or for upstream's current v1 schema
    (``v1/v1.json`` beside it, when vendored): either accepting it is enough, and when both
    refuse it the current schema's problems are reported."""
    shown = display_path(path, root)
    document = load_document(path, root)
    problems = schema_problems(document, schema, shown, check_schema=False)
    current = path.parent.parent / "v1" / "v1.json"
    if problems and current.is_file():
        problems = schema_problems(
            document, load_document(current, root), shown, check_schema=False
        )
    if not problems and document.get("id") != path.stem:
        problems.append(
            Problem(shown, "/id", f"is {document.get('id')!r}; the file is named {path.name!r}")
        )
    if problems:
        raise BuildError(problems)
    result: dict[str, Any] = document
    return result


def manifest_operations(
    protocol_folder: Path, schema: dict[str, Any], root: Path
) -> tuple[Operation, ...]:
    """One chat operation per provider manifest."""
    result = []
    problems: list[Problem] = []
    for path in manifest_files(protocol_folder):
        try:
            manifest = load_manifest(path, schema, root)
        except BuildError as exc:  # report every bad manifest at once
            problems.extend(exc.problems)
            continue
        chat = (manifest.get("endpoints") or {}).get("chat") or {}
        result.append(
            Operation(
                name=_identifier(manifest["id"]),
                summary=f"{manifest.get('name', manifest['id'])} chat completion",
                direction="client_to_server",
                request=None,
                response=None,
                http_method=str(chat.get("method", "POST")) if isinstance(chat, dict) else "POST",
                http_path=str(chat.get("path", "?")) if isinstance(chat, dict) else str(chat),
                group=manifest["id"],
            )
        )
    if problems:
        raise BuildError(problems)
    return tuple(result)


def _quiet(file: str, pointer: str, reason: str) -> None:
    """Warnings are the build's to show (once); the early check only looks for problems."""


def check_bundles(schemas: Path, root: Path) -> None:
    """Validate every agents.json bundle first, alone (file, pointer, reason; BuildError).

    Each bundle is validated and planned (its links checked). The full build does this too,
    but only after the meta-schema checks of every protocol's schemas (seconds); a bad bundle
    is the most common bad input, so :func:`codegen.pipeline.build` calls this first (after its
    no-op check) and a rejected bundle reports in well under a second. A protocol folder whose
    spec table does not even parse is left to the build to report.
    """
    problems: list[Problem] = []
    folders = sorted(p for p in schemas.iterdir() if p.is_dir()) if schemas.is_dir() else []
    for protocol in folders:
        table_path = protocol / "spec.yaml"
        try:
            table = load_document(table_path, root) if table_path.is_file() else None
            if not isinstance(table, dict):
                continue
            operations = table.get("operations")
            if not (isinstance(operations, dict) and operations.get("derive") == "bundles"):
                continue
            schema = load_document(protocol / table["types"]["schema"], root)
        except (BuildError, KeyError, TypeError):
            continue
        if not isinstance(schema, dict):
            continue
        folders = bundle_folders(protocol, root)
        for folder in folders:  # the agents.json documents alone first: no OpenAPI parsed
            agents_path = folder / "agents.json"
            try:
                raw = load_document(agents_path, root)
                checkable = raw if is_strict() else normalise(raw)[1]
                problems.extend(
                    schema_problems(
                        checkable, schema, display_path(agents_path, root), check_schema=False
                    )
                )
            except BuildError as exc:
                problems.extend(exc.problems)
        if problems:
            break
        for folder in folders:
            try:
                document, _ = read_bundle(folder, schema, root)
                specs = bundle_sources(folder, root)
                shown = display_path(folder / "agents.json", root)
                plan_bundle(folder.name, document, specs, shown, warn=_quiet)  # links
            except BuildError as exc:
                problems.extend(exc.problems)
    if problems:
        raise BuildError(problems)
