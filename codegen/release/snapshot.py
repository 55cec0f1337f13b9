"""The public-API snapshot of a generated package: ``generated/API.txt``.

Derived statically (``ast``, never an import) from the formatted package files, so it is fast
and byte-for-byte deterministic. One line per public thing, indented under its parent:

``module``, ``class``, ``def`` / ``async def`` (full signature), ``field`` (type, required or
optional, wire name where it is not the attribute's own), ``property``, ``alias`` (a type
alias: enum-like ``Literal`` values show here), ``const`` (annotation and the value, or a digest
of a long value), ``export`` (a name in a package's ``__all__``; ``# from <module>`` when it is
a re-export of another public module's thing; what a public module exports from a private one
is also described there, as if defined there: that is where users import it from). A thing
with a docstring ends in
``# doc <digest>``, so an edited description shows without the snapshot carrying every
docstring. Then the files' digests (``[implementation]``), the protocol versions the package
was built from (``[protocols]``) and, when the build knows them, the input files with their
SOURCE.md origin (``[inputs]``).

A module is public when no part of its dotted path starts with ``_``; a name when it does not
start with ``_``. A public class lists what a user can call on it: its own members and those it
inherits from the package's classes, in any module, private ones too
(:mod:`codegen.release.inheritance`), in method resolution order. A class with a base the
package defines ends in ``# mro <ancestors>``.
"""

from __future__ import annotations

import ast
import gc
import hashlib
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from codegen import parsed
from codegen.release.inheritance import (
    ClassRef,
    Module,
    Package,
    base_name,
    bound_names,
    dotted,
    index_module,
)

SNAPSHOT_FILE = "API.txt"
HEADER = (
    "# Public API of the agentproto package, written by codegen on every build; do not edit.\n"
    "# `codegen build` compares it with the last recorded version (release/history.json) to\n"
    "# classify a change (major / minor / patch) and bump the version; see CHANGELOG.md.\n"
)
# Files that carry the version or the history themselves: not part of the implementation digest.
_VERSIONED = ("pyproject.toml", "CHANGELOG.md", SNAPSHOT_FILE)
_SPECIAL_CONSTS = ("__version__", "PROTOCOL_VERSIONS", "GENERATOR_VERSION")
_KEPT_DUNDERS = ("__init__", "__call__")
_SHORT_VALUE = 60


def digest(text: str | bytes, size: int = 12) -> str:
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:size]


def _doc(node: ast.AST) -> str | None:
    if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        text = ast.get_docstring(node, clean=True)
        return digest(text, 8) if text else None
    return None


def _with_doc(line: str, doc: str | None) -> str:
    return f"{line}  # doc {doc}" if doc else line


# ``ast.unparse`` of the nodes of the trees ``derive`` holds, by id, while it holds them (the
# node is kept beside its text, so a reused id never answers): a base class's members are
# written again for each class that inherits them; half the unparse calls were repeats.
_unparsed: dict[int, tuple[ast.AST, str]] | None = None


def _unparse(node: ast.AST | None) -> str:
    if isinstance(node, ast.Name):  # most of them (annotations, bases): what unparse gives
        return node.id
    if node is None:
        return ""
    if _unparsed is None:
        return parsed.unparse(node)
    found = _unparsed.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    text = parsed.unparse(node)
    _unparsed[id(node)] = (node, text)
    return text


def signature(fn: ast.FunctionDef | ast.AsyncFunctionDef, *, method: bool) -> str:
    """``(a: int, /, b: str = ..., *, c: bool = ...) -> R``; defaults shown as ``...``."""
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    if method and positional and positional[0].arg in ("self", "cls"):
        if not any(_unparse(d) == "staticmethod" for d in fn.decorator_list):
            positional = positional[1:]
            posonly = max(0, len(args.posonlyargs) - 1)
        else:
            posonly = len(args.posonlyargs)
    else:
        posonly = len(args.posonlyargs)
    first_default = len(positional) - len(args.defaults)
    parts: list[str] = []

    def one(arg: ast.arg, has_default: bool) -> str:
        text = arg.arg + (f": {_unparse(arg.annotation)}" if arg.annotation else "")
        return text + (" = ..." if has_default else "")

    for index, arg in enumerate(positional):
        parts.append(one(arg, index >= first_default))
        if posonly and index == posonly - 1:
            parts.append("/")
    if args.vararg:
        parts.append("*" + one(args.vararg, False))
    elif args.kwonlyargs:
        parts.append("*")
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        parts.append(one(arg, default is not None))
    if args.kwarg:
        parts.append("**" + one(args.kwarg, False))
    returns = f" -> {_unparse(fn.returns)}" if fn.returns else ""
    return f"({', '.join(parts)}){returns}"


def _public(name: str) -> bool:
    return not name.startswith("_")


def _is_type_expr(node: ast.AST | None, annotation: ast.AST | None) -> bool:
    if annotation is not None and "TypeAlias" in _unparse(annotation):
        return True
    if annotation is not None or node is None:
        return False
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return True
    if isinstance(node, ast.Subscript):
        head = _unparse(node.value)
        return head.split(".")[-1] in ("Literal", "Union", "Optional", "Annotated")
    return False


def _alias_text(node: ast.expr) -> str:
    """An alias as the snapshot writes it: a string quoted, anything else (``AliasChoices``,
    ``AliasPath``) as written."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return repr(node.value)
    return _unparse(node)


def wire_names(name: str, keywords: Mapping[str, ast.expr]) -> tuple[str, str]:
    """The names a field has on the wire, (read, written), from its ``Field(...)``: pydantic
    reads ``validation_alias`` else ``alias`` and writes ``serialization_alias`` else
    ``alias``; without one, the attribute's own name. Quoted like :func:`_alias_text`."""
    alias = keywords.get("alias")
    plain = repr(name) if alias is None else _alias_text(alias)
    read, written = keywords.get("validation_alias"), keywords.get("serialization_alias")
    return (
        plain if read is None else _alias_text(read),
        plain if written is None else _alias_text(written),
    )


def _field_line(node: ast.AnnAssign, *, typed_dict: bool | None) -> str:
    """``typed_dict``: None for a class that is no TypedDict, else its ``total``. A wire name
    shows only where it is not the attribute's own name (an alias equal to the name is no
    alias: the same bytes on the wire); ``alias='a' serialization_alias='b'`` when reading and
    writing differ."""
    assert isinstance(node.target, ast.Name)
    name = node.target.id
    value = node.value
    required = value is None
    wire = (repr(name), repr(name))
    annotation = node.annotation
    if typed_dict is not None:
        required = typed_dict
        if isinstance(annotation, ast.Subscript):
            head = _unparse(annotation.value).split(".")[-1]
            if head in ("NotRequired", "Required"):
                required = head == "Required"
                annotation = annotation.slice
    if isinstance(value, ast.Call) and _unparse(value.func).split(".")[-1] == "Field":
        keywords = {k.arg: k.value for k in value.keywords if k.arg}
        has_default = "default" in keywords or "default_factory" in keywords
        if value.args and not (
            isinstance(value.args[0], ast.Constant) and value.args[0].value is Ellipsis
        ):
            has_default = True
        required = not has_default
        wire = wire_names(name, keywords)
    elif isinstance(value, ast.Call) and _unparse(value.func).split(".")[-1] == "field":
        names = {k.arg for k in value.keywords if k.arg}
        required = not ({"default", "default_factory"} & names)
    elif isinstance(value, ast.Constant) and value.value is Ellipsis:
        required = True
    line = f"field {name}: {_unparse(annotation)} "
    line += "required" if required else "optional"
    read, written = wire
    if read != written:
        line += f" alias={read} serialization_alias={written}"
    elif read != repr(name):
        line += f" alias={read}"
    return line


def _is_dataclass_like(cls: ast.ClassDef) -> bool:
    for deco in cls.decorator_list:
        text = _unparse(deco)
        if text.split("(")[0].split(".")[-1] == "dataclass" and "kw_only=True" not in text:
            return True
    return any(_unparse(b).split(".")[-1] == "NamedTuple" for b in cls.bases)


def _is_typed_dict(mro: list[ClassRef | str]) -> bool:
    return any(isinstance(e, str) and base_name(e) == "TypedDict" for e in mro)


def _total(cls: ast.ClassDef) -> bool:
    return not any(k.arg == "total" and _unparse(k.value) == "False" for k in cls.keywords)


def _attribute_doc(body: list[ast.stmt], index: int) -> str | None:
    """The digest of the docstring that follows the assignment ``body[index]`` (an attribute
    docstring), if one does."""
    following = body[index + 1] if index + 1 < len(body) else None
    if (
        isinstance(following, ast.Expr)
        and isinstance(following.value, ast.Constant)
        and isinstance(following.value.value, str)
    ):
        return digest(" ".join(following.value.value.split()), 8)
    return None


def _own_member_lines(
    cls: ClassRef, package: Package, depth: int, seen: set[str], typed_dict: bool | None
) -> list[str]:
    """The public members ``cls`` defines itself that ``seen`` (the members of the classes
    before it in the method resolution order) does not hold yet."""
    pad = "  " * depth
    lines: list[str] = []
    overloads: dict[str, int] = {}
    inherited = frozenset(seen)  # defined by a class before this one: its overloads too
    body = list(cls.node.body)
    for index, node in enumerate(body):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
            annotation = _unparse(node.annotation)
            if not _public(name) or name == "model_config" or "ClassVar" in annotation:
                continue
            if name in seen:
                continue
            seen.add(name)
            line = _field_line(node, typed_dict=typed_dict)
            lines.append(_with_doc(pad + line, _attribute_doc(body, index)))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = node.name
            if not (_public(name) or name in _KEPT_DUNDERS):
                continue
            decorators = [_unparse(d) for d in node.decorator_list]
            if "overload" in [d.split(".")[-1] for d in decorators]:
                if name in inherited:
                    continue
                overloads[name] = overloads.get(name, 0) + 1
                label = f"{name}[overload {overloads[name]}]"
            else:
                if name in seen:
                    continue
                label = name
            if label in seen:
                continue
            seen.add(label)
            if any(d.split(".")[-1] in ("property", "cached_property") for d in decorators):
                line = f"property {name}: {_unparse(node.returns)}"
            else:
                kind = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
                marks = [d for d in decorators if d in ("staticmethod", "classmethod")]
                prefix = f"@{marks[0]} " if marks else ""
                line = f"{prefix}{kind} {label}{signature(node, method=True)}"
            lines.append(_with_doc(pad + line, _doc(node)))
        elif isinstance(node, ast.ClassDef) and _public(node.name) and node.name not in seen:
            seen.add(node.name)
            lines.extend(_class_lines(cls.nested(node), package, depth))
    return lines


def _member_lines(cls: ClassRef, package: Package, depth: int) -> list[str]:
    """What a user calls on ``cls``: its own public members, then those it inherits from the
    package's classes (of any module, private ones too), in method resolution order; the
    first definition of a name is the one that counts."""
    mro = package.mro(cls)
    typed_dict = _is_typed_dict(mro)
    seen: set[str] = set()
    lines: list[str] = []
    for ref in mro:
        if isinstance(ref, ClassRef):
            total = _total(ref.node) if typed_dict else None
            lines.extend(_own_member_lines(ref, package, depth, seen, total))
    return lines


def _mro_text(cls: ClassRef, package: Package) -> str | None:
    """``A, B, C``: the ancestors of a class with a base the package defines (whose own bases
    the line does not show). The classifier knows from it that a base replaced by one of its
    subclasses is still a base, and sees an ancestor lost deeper down."""
    if not any(package.resolve(cls.module, base) is not None for base in cls.node.bases):
        return None
    return ", ".join(e.node.name if isinstance(e, ClassRef) else e for e in package.mro(cls)[1:])


def _class_lines(cls: ClassRef, package: Package, depth: int) -> list[str]:
    pad = "  " * depth
    node = cls.node
    bases = ", ".join(_unparse(b) for b in node.bases)
    marks = "@dataclass " if _is_dataclass_like(node) and node.decorator_list else ""
    head = f"{pad}{marks}class {node.name}({bases})"
    ancestry = _mro_text(cls, package)
    if ancestry is not None:
        head += f"  # mro {ancestry}"
    return [_with_doc(head, _doc(node)), *_member_lines(cls, package, depth + 1)]


def _value_text(node: ast.AST | None) -> str:
    if node is None:
        return ""
    text = _unparse(node)
    return f" = {text}" if len(text) <= _SHORT_VALUE else f" = <{digest(text, 8)}>"


def _export_line(name: str, module: Module, package: Package) -> str:
    """``export X``; ``  # from pkg.mod`` when ``X`` is a re-export of what another public
    module defines (the classifier knows from it where a moved thing went)."""
    line = f"  export {name}"
    target = module.imports.get(name) if name not in module.defined else None
    found = package.definition(target) if target is not None else None
    if found is not None and found[1] == name and found[0].name != module.name:
        if module_name_public(found[0].name):
            line += f"  # from {found[0].name}"
    return line


def _node_lines(module: Module, index: int, package: Package) -> list[str]:
    """The lines of the top-level statement ``index`` of ``module``: a public class, function,
    alias or constant (nothing for anything else)."""
    body = module.tree.body
    node = body[index]
    doc = _attribute_doc(body, index)
    if isinstance(node, ast.ClassDef) and _public(node.name):
        return _class_lines(ClassRef(module, node, node.name), package, 1)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _public(node.name):
        kind = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
        sig = signature(node, method=False)
        return [_with_doc(f"  {kind} {node.name}{sig}", _doc(node))]
    if not isinstance(node, ast.Assign | ast.AnnAssign):
        return []
    target = node.targets[0] if isinstance(node, ast.Assign) else node.target
    annotation = node.annotation if isinstance(node, ast.AnnAssign) else None
    if not isinstance(target, ast.Name) or target.id == "__all__":
        return []
    name = target.id
    if not _public(name) and name != "__version__":
        return []
    if name in _SPECIAL_CONSTS:  # version data: in [protocols], never a value here
        return [f"  const {name}: {_unparse(annotation) or '?'}"]
    if _is_type_expr(node.value, annotation):
        return [_with_doc(f"  alias {name} = {_unparse(node.value)}", doc)]
    ann = f": {_unparse(annotation)}" if annotation is not None else ""
    return [_with_doc(f"  const {name}{ann}{_value_text(node.value)}", doc)]


def _exports(module: Module) -> list[str]:
    """The names of the module's ``__all__``, sorted."""
    for node in module.tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if (
                isinstance(target, ast.Name)
                and target.id == "__all__"
                and isinstance(node.value, ast.List | ast.Tuple)
            ):
                return sorted(
                    {
                        e.value
                        for e in node.value.elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    }
                )
    return []


def _private_origin_lines(name: str, module: Module, package: Package) -> list[str]:
    """What a public module exports from a private one, described as if it were defined
    there: that is where users import it from, so a thing moved into ``agentproto._runtime``
    and exported where it was keeps its lines (no false "removed"), and a change to it shows
    in every public module that exports it."""
    target = module.imports.get(name) if name not in module.defined else None
    found = package.definition(target) if target is not None else None
    if found is None or found[1] != name or module_name_public(found[0].name):
        return []
    origin = found[0]
    for index, node in enumerate(origin.tree.body):
        if name in bound_names(node):
            return _node_lines(origin, index, package)
    return []


def _module_lines(module: Module, package: Package) -> list[str]:
    lines = [_with_doc(f"module {module.name}", _doc(module.tree))]
    for index in range(len(module.tree.body)):
        lines.extend(_node_lines(module, index, package))
    exports = _exports(module)
    for name in exports:
        lines.extend(_private_origin_lines(name, module, package))
    lines.extend(_export_line(name, module, package) for name in exports)
    return lines


def module_name_public(name: str) -> bool:
    return not any(p.startswith("_") for p in name.split("."))


def module_name(rel: str) -> str | None:
    """``agentproto/acp/__init__.py`` → ``agentproto.acp``; None for a private module."""
    name = dotted(rel)
    return name if name is not None and module_name_public(name) else None


def _protocol_lines(files: Mapping[str, bytes]) -> list[str]:
    """From ``PROTOCOL_VERSIONS`` and ``GENERATOR_VERSION`` of the package's ``__init__``."""
    init = next(
        (t for r, t in files.items() if r.count("/") == 1 and r.endswith("/__init__.py")), None
    )
    if init is None:
        return []
    lines: list[str] = []
    for node in parsed.tree(init).body:
        if not isinstance(node, ast.AnnAssign | ast.Assign):
            continue
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        if not isinstance(target, ast.Name) or node.value is None:
            continue
        if target.id == "GENERATOR_VERSION":
            lines.append(f"generator {ast.literal_eval(node.value)}")
        elif target.id == "PROTOCOL_VERSIONS":
            value = node.value
            if isinstance(value, ast.Call) and value.args:  # MappingProxyType({...})
                value = value.args[0]
            for key, version in sorted(ast.literal_eval(value).items()):
                lines.append(f"protocol {key} {version}")
    return lines


def implementation_digest(rel: str, data: bytes) -> str:
    if rel == "pyproject.toml":  # the version line is the build's output, not content
        data = re.sub(rb'(?m)^version = ".*"$', b'version = ""', data)
    if rel.endswith("/__init__.py") and rel.count("/") == 1:
        data = re.sub(rb'(?m)^__version__ = ".*"$', b'__version__ = ""', data)
    return digest(data)


def _outline(tree: ast.Module) -> ast.Module:
    """``tree`` without the bodies of its functions and methods (their docstrings kept): all
    the snapshot reads of them is their signature and docstring. Every module's tree is held
    until the last class is written (a base may live in any module), and the bodies are most
    of each tree: without them the cyclic collector has far less to walk."""
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0]
            docstring = (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            )
            node.body = [first] if docstring else [ast.Pass()]
        elif isinstance(node, ast.ClassDef):
            stack.extend(node.body)
        elif isinstance(node, ast.If | ast.Try):
            stack.extend(node.body)
    return tree


@contextmanager
def _trees_held() -> Iterator[None]:
    """The cyclic collector paused while every module's tree is held: a class's bases may
    live in any module, so no tree can be dropped before the last class is written, and each
    collection would walk them all (0.3 s a build, most of the snapshot's time). ``ast``
    trees hold no cycles: their reference counts free them. Restored after. The unparse memo
    lives exactly as long as the trees."""
    global _unparsed
    enabled = gc.isenabled()
    gc.disable()
    _unparsed = {}
    try:
        yield
    finally:
        _unparsed = None
        if enabled:
            gc.enable()


def _api_lines(files: Mapping[str, bytes]) -> list[tuple[str, list[str]]]:
    # Every module, private ones too: a public class inherits from classes anywhere in it.
    modules: dict[str, Module] = {}
    for rel in sorted(files):
        name = dotted(rel)
        if name is not None:
            tree = _outline(ast.parse(files[rel], filename=rel))
            modules[name] = index_module(name, tree, is_package=rel.endswith("/__init__.py"))
    package = Package(modules)
    return [(n, _module_lines(m, package)) for n, m in modules.items() if module_name_public(n)]


def derive(files: Mapping[str, bytes], inputs: list[str] | None = None) -> str:
    """The snapshot text of a generated tree (relative path → bytes)."""
    with _trees_held():
        api = _api_lines(files)
    out = [HEADER.rstrip("\n"), "", "[protocols]", *_protocol_lines(files)]
    if inputs is not None:
        out += ["", "[inputs]", *inputs]
    out += ["", "[api]"]
    for _, lines in sorted(api, key=lambda item: item[0]):
        out.extend(lines)
    out += ["", "[implementation]"]
    for rel in sorted(files):
        if rel in _VERSIONED or rel == ".gitignore":
            continue
        out.append(f"{rel} {implementation_digest(rel, files[rel])}")
    return "\n".join(out) + "\n"


# -- inputs: which schema files, at which digest, from where (SOURCE.md) ---------------------


def _source_origins(folder: Path) -> dict[str, tuple[str, str]]:
    """``file -> (origin, sha256)`` from every table of ``SOURCE.md`` whose header has ``file``
    and ``origin`` columns (plus ``version`` and ``sha256`` when there are). A header cell is
    named by its first word (``origin (path @ commit)`` is ``origin``); a sha256 cell by its
    first word too (a note may follow)."""
    path = folder / "SOURCE.md"
    if not path.is_file():
        return {}
    origins: dict[str, tuple[str, str]] = {}
    header: list[str] | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line.startswith("|"):
            header = None  # between tables
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header = [(c.lower().split() or [""])[0] for c in cells]
            continue
        if all(set(c) <= set("-: ") for c in cells):  # the |---|---| line
            continue
        if "file" in header and "origin" in header and len(cells) == len(header):
            row = dict(zip(header, cells, strict=True))
            text = row["origin"]
            if row.get("version"):
                text += f" ({row['version']})"
            sha = (row.get("sha256", "").split() or [""])[0]
            origins[row["file"].strip("`")] = (" ".join(text.split()), sha)
    return origins


def input_lines(schemas: Path) -> list[str]:
    """``<protocol>/<file> <sha256:12> <origin>`` for every input file of every protocol."""
    lines: list[str] = []
    if not schemas.is_dir():
        return lines
    for folder in sorted(p for p in schemas.iterdir() if p.is_dir() and p.name[0] != "."):
        origins = _source_origins(folder)
        for path in sorted(folder.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.name == "SOURCE.md":
                continue
            rel = path.relative_to(folder).as_posix()
            origin, noted = origins.get(rel, ("", ""))
            data = path.read_bytes()
            if noted and noted.strip("`") != hashlib.sha256(data).hexdigest():
                origin += " [SOURCE.md: sha256 does not match this file; update the note]"
            line = f"{folder.name}/{rel} {digest(data)}"
            lines.append(f"{line} {origin}".rstrip())
    return lines


# -- parsing a snapshot back -------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    kind: str  # module, class, def, async def, field, property, alias, const, export
    text: str  # the line without indentation and its comments (doc, mro, from)
    doc: str | None
    # a class's ancestors (``# mro``), when the line shows them; None: only its bases known
    ancestors: tuple[str, ...] | None = None
    # an export's defining public module (``# from``); None: defined here, or not known
    origin: str | None = None


@dataclass
class Snapshot:
    api: dict[tuple[str, ...], Item] = field(default_factory=dict)
    protocols: dict[str, str] = field(default_factory=dict)  # "protocol acp" -> "1"
    inputs: dict[str, tuple[str, str]] = field(default_factory=dict)  # file -> (digest, origin)
    implementation: dict[str, str] = field(default_factory=dict)
    has_inputs: bool = False


_KINDS = ("module", "class", "async def", "def", "field", "property", "alias", "const", "export")


_ITEM = re.compile(
    r"(?:@\w+ )?(module|class|async def|def|field|property|alias|const|export) "
    r"([\w.]+(?:\[overload \d+\])?)?"
)


def _kind_and_name(text: str) -> tuple[str, str]:
    match = _ITEM.match(text)
    if match is None:
        raise ValueError(f"not a snapshot line: {text!r}")
    return match.group(1), match.group(2) or text[match.end() :]


def item_kind(text: str) -> str:
    return _kind_and_name(text)[0]


def item_name(text: str) -> str:
    return _kind_and_name(text)[1]


def _lines(text: str) -> Iterator[tuple[str, str]]:
    section = ""
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        yield section, line


def parse(text: str) -> Snapshot:
    snap = Snapshot()
    stack: list[str] = []
    for section, line in _lines(text):
        if section == "protocols":
            kind, name, value = [*line.split(" ", 2), "", ""][:3]  # a version may hold spaces
            snap.protocols[f"{kind} {name}"] = value
        elif section == "inputs":
            snap.has_inputs = True
            rel, _, rest = line.partition(" ")
            sha, _, origin = rest.partition(" ")
            snap.inputs[rel] = (sha, origin)
        elif section == "implementation":
            rel, _, sha = line.rpartition(" ")
            snap.implementation[rel] = sha
        elif section == "api":
            depth = (len(line) - len(line.lstrip(" "))) // 2
            body = line.strip()
            doc = ancestors = origin = None
            if "  # doc " in body:
                body, _, doc = body.rpartition("  # doc ")
            if "  # mro " in body:
                body, _, mro = body.rpartition("  # mro ")
                ancestors = tuple(mro.split(", "))
            if "  # from " in body:
                body, _, origin = body.rpartition("  # from ")
            kind, name = _kind_and_name(body)
            del stack[depth:]
            stack.append(name)
            path: tuple[str, ...] = tuple(stack)
            if kind == "export":
                path = (*stack[:-1], f"export {name}")
            snap.api[path] = Item(kind, body, doc, ancestors, origin)
    return snap
