"""Client renderers: how each protocol's clients (and server kits) are written.

A protocol is rendered by the renderer of its **wire**, the spec table's ``transport.kind``,
from its table alone: ``jsonrpc-http`` by :mod:`codegen.clients.jsonrpc_http`, ``http`` and
``http+sse`` by :mod:`codegen.clients.rest`. What the protocol adds beyond its wire is
hand-written in ``templates/<package>/*.py``: shipped beside the generated modules, and
re-exported by the protocol package as ``templates/<package>/exports.yaml`` lists (``name:
module``). A hand-written module that stands on another protocol's package as well (AAP's
``acp_agent``: an ACP agent served over AAP) is listed in ``templates/<package>/requires.yaml``
(``module: [package, ...]``): it and its names ship only in a build that has those packages.
A protocol whose operations are **derived** from other inputs has the renderer of that
derivation: ACP's ``x-method`` table (:mod:`codegen.clients.acp`), agents.json's bundles
(:mod:`codegen.clients.flows`), AI-Protocol's manifests (:mod:`codegen.clients.llm`); and the
Skill Sharing wire, discovery and polling (``http+polling``), has :mod:`codegen.clients.skills`.

A renderer is a module with ``render(protocol, env, models) -> dict[str, str]`` (``models``:
models module path -> text; the result: files relative to the ``agentproto`` folder, e.g.
``"a2a/client.py"``) and ``exports(protocol)`` or ``EXPORTS`` (public name -> module of the
protocol package, or an absolute ``agentproto._runtime...`` module for a runtime type its users
meet) that the package's ``__init__`` re-exports lazily.
"""

from __future__ import annotations

import importlib
import keyword
import re
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Protocol as TypingProtocol
from typing import cast

import jinja2

from codegen.errors import BuildError, Problem, to_pointer
from codegen.inputs.sources import load_document
from codegen.ir import Protocol
from codegen.package.unasync import ship

# The renderer of each wire that needs no code of its protocol's.
_BY_KIND = {
    "jsonrpc-http": "codegen.clients.jsonrpc_http",
    "http": "codegen.clients.rest",
    "http+sse": "codegen.clients.rest",
    "http+polling": "codegen.clients.skills",
}
# The renderer of each derivation of the operations from other inputs.
_BY_DERIVATION = {
    "x-method": "codegen.clients.acp",
    "bundles": "codegen.clients.flows",
    "manifests": "codegen.clients.llm",
}
# Renderers that ship their protocol's hand-written modules themselves.
_SHIPS_ITS_OWN = frozenset(_BY_DERIVATION.values()) | {"codegen.clients.skills"}
EXPORTS_FILE = "exports.yaml"
REQUIRES_FILE = "requires.yaml"
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MODULE = re.compile(r"^[a-z_][a-z0-9_]*$|^agentproto(\.[A-Za-z_][A-Za-z0-9_]*)+$")


class ClientRenderer(TypingProtocol):
    def render(
        self, protocol: Protocol, env: jinja2.Environment, models: Mapping[str, str]
    ) -> dict[str, str]: ...


def _renderer_name(protocol: Protocol) -> str | None:
    if protocol.derive is not None:
        return _BY_DERIVATION.get(protocol.derive)
    return _BY_KIND.get(protocol.kind)


def _renderer(protocol: Protocol) -> ClientRenderer | None:
    name = _renderer_name(protocol)
    return None if name is None else cast(ClientRenderer, importlib.import_module(name))


def _helpers(protocol: Protocol, env: jinja2.Environment) -> Path | None:
    """The folder of the protocol's hand-written modules, when the generic machinery ships
    them (a renderer of a derivation ships its own)."""
    if protocol.edition is not None or _renderer_name(protocol) in _SHIPS_ITS_OWN:
        return None
    folder = Path(str(env.globals["template_root"])) / protocol.package
    return folder if folder.is_dir() else None


def client_files(
    protocol: Protocol,
    env: jinja2.Environment,
    models: Mapping[str, str],
    packages: Collection[str],
) -> dict[str, str]:
    """The protocol package's modules: rendered, then its hand-written ones (those whose
    ``requires.yaml`` packages are all in the build, ``packages``)."""
    renderer = _renderer(protocol)
    files = renderer.render(protocol, env, models) if renderer is not None else {}
    helpers = _helpers(protocol, env)
    if helpers is None:
        return files
    left_out = _left_out(helpers, packages)
    for path in sorted(helpers.glob("*.py")):
        if path.stem in left_out:
            continue
        rel = f"{protocol.package}/{path.name}"
        if rel in files:
            raise BuildError.single(
                str(path), "", f"a hand-written module would replace the generated {rel}"
            )
        files[rel] = ship(path)
    return files


def client_exports(
    protocol: Protocol, template_root: Path, packages: Collection[str]
) -> dict[str, str]:
    """Names the protocol package re-exports lazily from its client modules and hand-written
    helpers (an edition's: the renderer's ``EDITION_EXPORTS``, when it has them); a helper
    left out of the build (``requires.yaml``) exports nothing."""
    renderer = _renderer(protocol)
    exports: dict[str, str] = {}
    if renderer is not None:
        by_protocol = getattr(renderer, "exports", None)
        if callable(by_protocol):
            exports.update(by_protocol(protocol))
        else:
            key = "EXPORTS" if protocol.edition is None else "EDITION_EXPORTS"
            exports.update(getattr(renderer, key, {}))
    folder = template_root / protocol.package
    if (
        protocol.edition is None
        and _renderer_name(protocol) not in _SHIPS_ITS_OWN
        and (folder / EXPORTS_FILE).is_file()
    ):
        left_out = _left_out(folder, packages)
        helpers = _helper_exports(folder / EXPORTS_FILE, exports)
        exports.update({n: m for n, m in helpers.items() if m not in left_out})
    return dict(sorted(exports.items()))


def _left_out(folder: Path, packages: Collection[str]) -> frozenset[str]:
    """The hand-written modules of ``folder`` that need a package this build has not."""
    return frozenset(
        module
        for module, needed in _requires(folder).items()
        if not all(package in packages for package in needed)
    )


def _requires(folder: Path) -> dict[str, tuple[str, ...]]:
    """``requires.yaml``: hand-written module -> the other packages it imports, checked."""
    path = folder / REQUIRES_FILE
    if not path.is_file():
        return {}
    data = load_document(path)
    if not isinstance(data, dict):
        raise BuildError.single(str(path), "", "a map of module to the packages it needs")
    problems = []
    found: dict[str, tuple[str, ...]] = {}
    for module, needed in data.items():
        pointer = to_pointer([str(module)])
        if not isinstance(module, str) or not (folder / f"{module}.py").is_file():
            problems.append(Problem(str(path), pointer, f"no module {module}.py here"))
        elif (
            not isinstance(needed, list)
            or not needed
            or not all(isinstance(p, str) and _IDENT.match(p) for p in needed)
        ):
            problems.append(Problem(str(path), pointer, "a list of package names"))
        else:
            found[module] = tuple(cast("list[str]", needed))
    if problems:
        raise BuildError(problems)
    return found


def _helper_exports(path: Path, generated: Mapping[str, str]) -> dict[str, str]:
    """``exports.yaml``: public name -> module (of the folder, or ``agentproto....``), checked."""
    data = load_document(path)
    if not isinstance(data, dict):
        raise BuildError.single(str(path), "", "a map of public name to module")
    problems = []
    found: dict[str, str] = {}
    for name, module in data.items():
        pointer = to_pointer([str(name)])
        if not isinstance(name, str) or not _IDENT.match(name) or keyword.iskeyword(name):
            problems.append(Problem(str(path), pointer, f"{name!r} is not a public name"))
        elif not isinstance(module, str) or not _MODULE.match(module):
            problems.append(Problem(str(path), pointer, f"{module!r} is not a module"))
        elif not module.startswith("agentproto.") and not (path.parent / f"{module}.py").is_file():
            problems.append(Problem(str(path), pointer, f"no module {module}.py here"))
        elif name in generated:
            problems.append(Problem(str(path), pointer, f"{name} is a generated name already"))
        else:
            found[name] = module
    if problems:
        raise BuildError(problems)
    return found
