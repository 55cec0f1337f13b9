"""MkDocs hook: one API reference page per public module of the generated package.

Every module of ``generated/agentproto`` whose dotted path has no ``_``-prefixed part gets a
page rendered by mkdocstrings (``::: agentproto.x.y``), placed in the nav under "API
reference", grouped by subpackage. A package's page shows its docstring and links to its
modules. Nothing is listed by hand, so a new public module is documented on the next build;
tests/test_docs.py checks that the built site holds a page for each one.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Any, cast

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

PACKAGE = "agentproto"
SECTION = "API reference"


def package_root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).parent / "generated"


def public_modules(root: Path) -> list[str]:
    """Dotted names of the public modules (packages included) under ``root/agentproto``."""
    names: list[str] = []
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if not any(part.startswith("_") for part in parts):
            names.append(".".join(parts))
    return sorted(names)


def page_of(module: str, packages: set[str]) -> str:
    path = "reference/" + module.replace(".", "/")
    return f"{path}/index.md" if module in packages else f"{path}.md"


def _packages(root: Path, modules: list[str]) -> set[str]:
    return {m for m in modules if (root / m.replace(".", "/") / "__init__.py").is_file()}


def _nav(modules: list[str], packages: set[str], parent: str) -> list[Any]:
    """The nav entries under ``parent`` (a package): its page, then its children."""
    entries: list[Any] = [{parent: page_of(parent, packages)}]
    for module in modules:
        if module.rpartition(".")[0] != parent:
            continue
        if module in packages:
            entries.append({module: _nav(modules, packages, module)})
        else:
            entries.append({module: page_of(module, packages)})
    return entries


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    root = package_root(config)
    modules = public_modules(root)
    packages = _packages(root, modules)
    nav = cast("list[Any]", config["nav"] or [])
    for item in nav:
        if isinstance(item, dict) and SECTION in item:
            item[SECTION] = [*item[SECTION], *_nav(modules, packages, PACKAGE)]
            break
    else:
        raise ValueError(f"mkdocs.yml: the nav has no {SECTION!r} section for the reference")
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    root = package_root(config)
    modules = public_modules(root)
    packages = _packages(root, modules)
    for module in modules:
        if module in packages:
            here = posixpath.dirname(page_of(module, packages))
            children = [m for m in modules if m.rpartition(".")[0] == module]
            links = "\n".join(
                f"- [`{child}`]({posixpath.relpath(page_of(child, packages), here)})"
                for child in children
            )
            text = f"::: {module}\n    options:\n      members: false\n\n## Modules\n\n{links}\n"
        else:
            text = f"::: {module}\n"
        files.append(File.generated(config, page_of(module, packages), content=text))
    return files
