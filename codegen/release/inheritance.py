"""Which class a base names, and a class's method resolution order, across a whole package.

Static (``ast``, never an import), for the API snapshot: a user calls on a class what it
defines and what it inherits, whether the base lives in the same module, in another public
module (``agentproto.acp.core.Caller``) or in a private one (``agentproto._runtime``). A base
is followed through ``import`` and ``from ... import`` (absolute or relative, re-exports
included) to the module that defines it. A base the package does not define (``BaseModel``,
``Exception``, ``TypedDict``) is a leaf: its own members are not the package's API.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass, field

from codegen import parsed

# Longest chain of re-exports followed (``a`` imports it from ``b``, which imports it from ``c``).
_MAX_HOPS = 20


def dotted(rel: str) -> str | None:
    """``agentproto/_runtime/base.py`` → ``agentproto._runtime.base``, private modules too."""
    if not rel.endswith(".py"):
        return None
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) if parts else None


def base_name(text: str) -> str:
    """The class a base expression names, for matching: ``pkg.Base[T]`` → ``Base``."""
    return re.sub(r"\[.*\]$", "", text).rsplit(".", 1)[-1]


@dataclass
class Module:
    name: str
    tree: ast.Module
    is_package: bool  # an ``__init__``: relative imports start from the module itself
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    defined: set[str] = field(default_factory=set)  # every top-level name it binds itself
    imports: dict[str, str] = field(default_factory=dict)  # local name -> dotted target


@dataclass(frozen=True)
class ClassRef:
    """A class the package defines: its node, the module its names resolve in and its
    qualified name there (``Outer.Inner`` for a nested class)."""

    module: Module
    node: ast.ClassDef
    qualname: str

    @property
    def key(self) -> tuple[str, str]:
        return (self.module.name, self.qualname)

    def nested(self, node: ast.ClassDef) -> ClassRef:
        return ClassRef(self.module, node, f"{self.qualname}.{node.name}")


def _import_lines(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """Top-level imports, those under ``if TYPE_CHECKING:`` / ``try:`` included."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If):
            found += _import_lines(node.body) + _import_lines(node.orelse)
        elif isinstance(node, ast.Try):
            found += _import_lines(node.body) + _import_lines(node.orelse)
            for handler in node.handlers:
                found += _import_lines(handler.body)
    return found


def _absolute(module: Module, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = module.name.split(".")
    if not module.is_package:
        parts = parts[:-1]
    parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
    return ".".join([*parts, *([node.module] if node.module else [])])


def bound_names(node: ast.stmt) -> list[str]:
    """The names a top-level statement binds itself: a class, a function, an assignment's
    plain targets (imports aside)."""
    if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def index_module(name: str, tree: ast.Module, *, is_package: bool) -> Module:
    module = Module(name, tree, is_package)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            module.classes[node.name] = node
        module.defined.update(bound_names(node))
    for node in _import_lines(tree.body):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    module.imports[alias.asname] = alias.name
                else:  # ``import a.b`` binds ``a``
                    head = alias.name.split(".")[0]
                    module.imports[head] = head
        else:
            source = _absolute(module, node)
            for alias in node.names:
                if alias.name != "*":
                    module.imports[alias.asname or alias.name] = f"{source}.{alias.name}"
    return module


class Package:
    """Every module of a package (private ones too), by dotted name."""

    def __init__(self, modules: dict[str, Module]) -> None:
        self.modules = modules
        self._mro: dict[tuple[str, str], list[ClassRef | str]] = {}

    # -- names ------------------------------------------------------------------------------

    def definition(self, target: str) -> tuple[Module, str] | None:
        """The module that defines ``pkg.mod.Name`` itself (re-exports followed), and the name
        there; None when the package does not define it."""
        for _ in range(_MAX_HOPS):
            head, _, name = target.rpartition(".")
            module = self.modules.get(head)
            if module is None or target in self.modules:  # outside the package, or a module
                return None
            if name in module.defined:
                return module, name
            following = module.imports.get(name)
            if following is None or following == target:
                return None
            target = following
        return None

    def _class_at(self, target: str) -> ClassRef | None:
        found = self.definition(target)
        if found is None:
            return None
        module, name = found
        node = module.classes.get(name)
        return ClassRef(module, node, name) if node is not None else None

    def resolve(self, module: Module, expr: ast.expr) -> ClassRef | None:
        """The package class a base expression of ``module`` names; None when it names
        something the package does not define."""
        if isinstance(expr, ast.Subscript):  # Generic[T], RootModel[str], Base[T]
            expr = expr.value
        parts: list[str] = []
        while isinstance(expr, ast.Attribute):
            parts.insert(0, expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        if not parts and expr.id in module.classes:
            return ClassRef(module, module.classes[expr.id], expr.id)
        start = module.imports.get(expr.id)
        if start is None:
            return None
        return self._class_at(".".join([start, *parts]))

    # -- method resolution order ------------------------------------------------------------

    def mro(self, cls: ClassRef) -> list[ClassRef | str]:
        """C3 linearisation of ``cls`` (itself first). A base the package does not define is a
        leaf, named as the source writes it without subscript; ``object`` is left out. An
        inconsistent hierarchy (Python would refuse it) falls back to depth-first order."""
        return self._linearise(cls, set())

    def _linearise(self, cls: ClassRef, active: set[tuple[str, str]]) -> list[ClassRef | str]:
        cached = self._mro.get(cls.key)
        if cached is not None:
            return cached
        if cls.key in active:  # a cycle: Python would refuse it; stop here
            return [cls]
        active = active | {cls.key}
        heads: list[list[ClassRef | str]] = []
        direct: list[ClassRef | str] = []
        for base in cls.node.bases:
            ref = self.resolve(cls.module, base)
            if ref is not None:
                heads.append(self._linearise(ref, active))
                direct.append(ref)
            else:
                text = re.sub(r"\[.*\]$", "", parsed.unparse(base))
                if text != "object":
                    leaf: list[ClassRef | str] = [*builtin_mro(text, cls.module)]
                    heads.append(leaf)
                    direct.append(text)
        order = _merge([*[list(h) for h in heads], list(direct)])
        if order is None:
            order = []
            for head in heads:
                order += [entry for entry in head if entry not in order]
        result: list[ClassRef | str] = [cls, *order]
        self._mro[cls.key] = result
        return result


def builtin_mro(name: str, module: Module | None = None) -> list[str]:
    """``ValueError`` → ``[ValueError, Exception, BaseException]``: a builtin class's ancestry
    is Python's own (``module``: where the name is written, unless it rebinds the name)."""
    if module is not None and (name in module.defined or name in module.imports):
        return [name]
    found = getattr(builtins, name, None)
    if not isinstance(found, type):
        return [name]
    return [c.__name__ for c in found.__mro__ if c is not object]


def _merge(sequences: list[list[ClassRef | str]]) -> list[ClassRef | str] | None:
    def ident(entry: ClassRef | str) -> object:
        return entry.key if isinstance(entry, ClassRef) else entry

    order: list[ClassRef | str] = []
    pending = [s for s in sequences if s]
    while pending:
        for sequence in pending:
            candidate = ident(sequence[0])
            if not any(candidate in map(ident, other[1:]) for other in pending):
                break
        else:
            return None
        chosen = sequence[0]
        order.append(chosen)
        pending = [[e for e in s if ident(e) != candidate] or [] for s in pending]
        pending = [s for s in pending if s]
    return order
