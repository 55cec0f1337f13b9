"""Rendering: IR + generated model text → the files of the ``agentproto`` package.

Templates only lay text out; every value that reaches Python source goes through ``pyrepr``
(a literal) or ``docline`` (docstring-safe text), so nothing from a schema or table can become
code.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import jinja2

from codegen import __version__, parsed
from codegen.clients import client_exports, client_files
from codegen.errors import BuildError
from codegen.ir import Protocol
from codegen.package.output import gitignore
from codegen.package.unasync import ship
from codegen.textedit import code_names

PACKAGE = "agentproto"
VERSION = "0.1.0"
# Runtime dependencies of the generated package (kept to what its modules import).
DEPENDENCIES = (
    "anyio>=4.5,<5",
    "fastjsonschema>=2.19,<3",
    "httpcore>=1.0.5,<2",  # _runtime.netio and _runtime.pool speak to httpcore directly
    "httpx>=0.27,<1",
    "jsonschema>=4.18,<5",
    "pydantic>=2.11,<3",
)
# Optional extras: the server kits (Skill Sharing provider, AAP server) serve with Starlette,
# `python -m agentproto.aap.serve` runs uvicorn; the AAP server's PostgreSQL store is asyncpg;
# the clients report spans and metrics through the OpenTelemetry API when it is installed. The
# MCP server (agentproto.mcp) stands on the official MCP SDK, pinned to the minor series it is
# tested with (its API moves between minors), and reads YAML bundles and configs with PyYAML.
EXTRAS = {
    "mcp": ("mcp>=2.3,<2.4", "PyYAML>=6,<7"),
    "otel": ("opentelemetry-api>=1.20,<2",),
    "provider": ("starlette>=0.37,<2", "uvicorn>=0.30,<1"),
    "postgres": ("asyncpg>=0.29,<1",),
    # ACP over the network (agentproto.acp.remote, remote_server): the WebSocket client, and
    # an ASGI server to run AgentApp (any ASGI server does; uvicorn is the one tested).
    "remote": ("websockets>=13,<18", "uvicorn>=0.30,<1"),
}
# Hand-written subpackages shipped as they are (``templates/<name>/*.py`` ->
# ``agentproto/<name>/``): they stand on several protocols' clients, not on one schema.
SHIPPED_PACKAGES = ("mcp",)
_TITLES = {
    "acp": "Agent Client Protocol: JSON-RPC 2.0 over stdio between an editor and a coding agent",
    "aap": "Agent Application Protocol: HTTP + SSE sessions and turns",
    "skills": "Skill Sharing Protocol: discovery, descriptors, invocation and polling",
    "flows": "agents.json flows: OpenAPI operations chained through links",
    "llm": "AI-Protocol provider manifests: one LLM client driven by data",
}


def reserved_modules() -> dict[str, str]:
    """Names of ``agentproto``'s own modules and subpackages that no protocol may take, and
    what each one is."""
    reserved = {
        "_runtime": "the runtime every protocol shares",
        "errors": "the public errors module (agentproto.errors)",
    }
    for name in SHIPPED_PACKAGES:
        reserved[name] = f"the hand-written package agentproto.{name} (templates/{name}/)"
    return reserved


def pyrepr(value: Any) -> str:
    """A Python literal for a plain value; refuses anything that is not plain data."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    if value is None or isinstance(value, bool | int | float | str):
        return repr(value)
    if isinstance(value, dict):
        items = ", ".join(f"{pyrepr(str(k))}: {pyrepr(v)}" for k, v in value.items())
        return "{" + items + "}"
    if isinstance(value, tuple | list):
        inner = ", ".join(pyrepr(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    raise TypeError(f"cannot render {type(value).__name__} as a literal")


def docline(value: Any) -> str:
    """Text safe inside a triple-quoted docstring, on one line: backslashes and quotes are
    escaped, and characters that are not printable (NUL, bidi controls...) become escapes."""
    text = " ".join(str(value).split()).replace("\\", "\\\\").replace('"', '\\"')
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def environment(template_dir: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.globals["template_root"] = str(template_dir)
    env.filters["pyrepr"] = pyrepr
    env.filters["docline"] = docline
    return env


@parsed.memo
def public_names(module_text: str) -> tuple[str, ...]:
    """Top-level classes and type aliases a models module defines, sorted."""
    names = []
    for node in parsed.tree(module_text).body:
        if isinstance(node, ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and not target.id.startswith("_"):
                names.append(target.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if not node.target.id.startswith("_"):
                names.append(node.target.id)
    return tuple(sorted(set(names)))


def render_package(
    protocols: Iterable[Protocol],
    models: Mapping[str, str],
    template_dir: Path,
    runtime_dir: Path,
) -> dict[str, str]:
    """Every file of generated/, as relative path → text (unformatted)."""
    env = environment(template_dir)
    protocols = sorted(protocols, key=lambda p: p.package)
    packages = frozenset(p.package for p in protocols)
    files: dict[str, str] = {}

    def render(name: str, **ctx: Any) -> str:
        return env.get_template(name).render(**ctx)

    files["pyproject.toml"] = render(
        "package/pyproject.toml.j2", version=VERSION, dependencies=DEPENDENCIES, extras=EXTRAS
    )
    files["README.md"] = render("package/README.md.j2", protocols=protocols)
    files[f"{PACKAGE}/__init__.py"] = render(
        "package/__init__.py.j2", protocols=protocols, version=VERSION, generator=__version__
    )
    files[f"{PACKAGE}/errors.py"] = ship(template_dir / "package" / "errors.py")  # hand-written
    files[f"{PACKAGE}/py.typed"] = ""
    files["LICENSE"] = (template_dir / "package" / "LICENSE").read_text(encoding="utf-8")
    files["MANIFEST.in"] = "include CHANGELOG.md LICENSE README.md\n"
    files[".gitignore"] = gitignore()
    for path in sorted(runtime_dir.rglob("*.py")):
        rel = path.relative_to(runtime_dir).as_posix()
        if "__pycache__" not in rel:
            files[f"{PACKAGE}/_runtime/{rel}"] = ship(path)
    for name in SHIPPED_PACKAGES:
        for path in sorted((template_dir / name).glob("*.py")):
            files[f"{PACKAGE}/{name}/{path.name}"] = ship(path)

    for protocol in protocols:
        for unit in protocol.models:
            text = models[unit.module]
            files[f"{PACKAGE}/{unit.module}"] = text
            package_dir = unit.module.rsplit("/", 1)[0]
            module = f"{PACKAGE}." + package_dir.replace("/", ".")
            title = _TITLES.get(protocol.package, protocol.title)
            if package_dir != protocol.package:
                title = f"Unstable additions to {title}; opt in explicitly"
            files[f"{PACKAGE}/{package_dir}/__init__.py"] = render(
                "package/protocol_init.py.j2",
                protocol=protocol,
                title=title,
                module=module,
                names=list(public_names(text)),
                extras=_homes(module, client_exports(protocol, template_dir, packages))
                if package_dir == protocol.package
                else {},
            )
        for rel, text in sorted(client_files(protocol, env, models, packages).items()):
            _check_model_imports(rel, text, models, protocol)
            files[f"{PACKAGE}/{rel}"] = text
        stable_ops = [op for op in protocol.operations if not op.unstable]
        unstable_ops = [op for op in protocol.operations if op.unstable]
        files[f"{PACKAGE}/{protocol.package}/operations.py"] = render(
            "package/operations.py.j2", protocol=protocol, operations=stable_ops
        )
        if unstable_ops:
            files[f"{PACKAGE}/{protocol.package}/unstable/operations.py"] = render(
                "package/operations.py.j2", protocol=protocol, operations=unstable_ops
            )
    return files


def _homes(module: str, exports: Mapping[str, str]) -> dict[str, str]:
    """Each re-exported name's module: relative to the protocol package (``"client"``), or
    absolute (``"agentproto._runtime.http"``: a runtime type the package's users meet)."""
    return {
        name: home if home.startswith(f"{PACKAGE}.") else f"{module}.{home}"
        for name, home in exports.items()
    }


_MODELS_IMPORT = re.compile(r"from[ \t]+[\w.]+\.models[ \t]+import[ \t]*(?:\([^)]*\)|[^\n]*)")


def _models_imports(text: str) -> list[ast.ImportFrom]:
    """The ``from ....models import ...`` statements of a module, each read from its own
    lines: parsing whole client modules for their imports was a tenth of the build's own
    time. A ``from`` counts where it starts a line of code (not in a string or comment); a
    match that does not parse as one import falls back to the whole module's tree."""
    found: list[ast.ImportFrom] = []
    for at in code_names(text, "from"):
        if text[text.rfind("\n", 0, at) + 1 : at].strip(" \t"):
            continue  # ``yield from``, ``raise ... from``, or after a ``;``
        match = _MODELS_IMPORT.match(text, at)
        if match is None:
            continue
        try:
            body = ast.parse(match.group(0)).body
        except SyntaxError:
            body = []
        if len(body) != 1 or not isinstance(body[0], ast.ImportFrom):
            return _all_imports(parsed.tree(text).body)
        found.append(body[0])
    return found


def _all_imports(body: list[ast.stmt]) -> list[ast.ImportFrom]:
    """Every ``from ... import`` of a body, nested ones included."""
    found: list[ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.ImportFrom):
            found.append(node)
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, name, None)
            if isinstance(inner, list):
                found += _all_imports(inner)
    return found


def _check_model_imports(
    rel: str, text: str, models: Mapping[str, str], protocol: Protocol
) -> None:
    """A client module may only import names its protocol's models module defines."""
    if not rel.endswith(".py") or "models" not in text:  # no such import: nothing to parse
        return
    for node in _models_imports(text):
        if not (node.module or "").endswith(".models"):
            continue
        unit = (node.module or "").removeprefix(f"{PACKAGE}.").replace(".", "/") + ".py"
        defined = set(public_names(models[unit])) if unit in models else set()
        missing = sorted(a.name for a in node.names if a.name not in defined)
        if missing:
            raise BuildError.single(
                f"schemas/{protocol.id}",
                "",
                f"client module {rel} needs types the models of {unit} do not define: {missing}",
            )
