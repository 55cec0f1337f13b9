"""Parsed Python source, once per text: the trees every step of a build reads.

A build reads the same module text many times over: the model rewrites (drop a class, find
duplicates, name merged variants, check names, enums, unions), the package renderer (public
names, the clients' model imports, the request signatures) and the API snapshot. ``tree``
parses each distinct text once and gives every caller the same tree, so **callers must not
change it** (copy first, as ``signatures.strip_annotated`` does).

The cache is keyed by the text itself and holds the last few trees only: most reuse is by the
next step of a chain of rewrites, and a tree of a large module is hundreds of thousands of
objects that the cyclic collector would otherwise walk again and again. ``clear`` (called at
the end of every build) drops them all.

``unparse`` is ``ast.unparse``'s text, written directly for the common shapes.
"""

from __future__ import annotations

import ast
import gc
from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from typing import TypeVar

# Trees kept: a model unit's chain of rewrites re-reads the text the last step wrote, and
# rendering reads the few models modules of one protocol at a time.
_LIMIT = 8
_trees: OrderedDict[str | bytes, ast.Module] = OrderedDict()
_memos: list[Callable[[], None]] = []

T = TypeVar("T")


def tree(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source)``, shared: the same tree for the same text (do not modify it).
    ``filename`` only names the file in a ``SyntaxError``."""
    found = _trees.get(source)
    if found is not None:
        _trees.move_to_end(source)
        return found
    parsed = parse(source, filename)
    _trees[source] = parsed
    if len(_trees) > _LIMIT:
        _trees.popitem(last=False)
    return parsed


def parse(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse`` with the cyclic collector paused: a tree is many new objects and no
    cycle (reference counts free them). At the collector's default thresholds, collections
    walking the half-made tree were half the parse of a large models module (0.15 s against
    0.08 s for 1 MB); a build raises the thresholds, so there it saves less."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(source, filename=filename)
    finally:
        if enabled:
            gc.enable()


def walk(node: ast.AST) -> list[ast.AST]:
    """``list(ast.walk(node))``, in the same (breadth-first) order, read from ``_fields``
    directly: about twice as fast on a large module, where the rewrites walk whole trees."""
    found = [node]
    index = 0
    while index < len(found):
        current = found[index]
        index += 1
        for name in current._fields:
            value = getattr(current, name, None)
            if isinstance(value, list):
                found.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                found.append(value)
    return found


def memo(function: Callable[[str], T]) -> Callable[[str], T]:
    """A fact derived from one text's tree (its public names...), computed once per text
    until ``clear``. The value is shared like the tree: return immutable values."""
    values: dict[str, T] = {}

    @wraps(function)
    def cached(text: str) -> T:
        if text not in values:
            values[text] = function(text)
        return values[text]

    _memos.append(values.clear)
    return cached


def clear() -> None:
    """Forget every tree and derived fact (the end of a build)."""
    _trees.clear()
    for forget in _memos:
        forget()


def unparse(node: ast.AST) -> str:
    """``ast.unparse(node)``, the same text, written directly for the shapes annotations,
    bases and defaults mostly have (names, dotted names, subscripts, ``|`` unions, plain
    constants, lists): ``ast.unparse`` builds a writer and walks with precedence bookkeeping
    for each call, and a build makes some 30,000 of them. Anything else is left to
    ``ast.unparse``."""
    text = _simple(node)
    return ast.unparse(node) if text is None else text


def _simple(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        value = node.value
        head = _simple(value) if isinstance(value, ast.Name | ast.Attribute) else None
        return None if head is None else f"{head}.{node.attr}"
    if isinstance(node, ast.Constant):
        return _constant(node)
    if isinstance(node, ast.Subscript):
        value, index = node.value, node.slice
        head = _simple(value) if isinstance(value, ast.Name | ast.Attribute) else None
        if isinstance(index, ast.Tuple):  # written without parentheses, as ast.unparse does
            inner = _items(index.elts) if len(index.elts) > 1 else None
        else:
            inner = _simple(index)
        return None if head is None or inner is None else f"{head}[{inner}]"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = node.left, node.right
        # ``|`` binds left to right: a union on the left needs no parentheses; one on the
        # right would, as would any operand binding less tightly (left to ast.unparse).
        if not _atom(right) or not (_atom(left) or isinstance(left, ast.BinOp)):
            return None
        head, tail = _simple(left), _simple(right)
        return None if head is None or tail is None else f"{head} | {tail}"
    if isinstance(node, ast.List):
        inner = _items(node.elts) if node.elts else ""
        return None if inner is None else f"[{inner}]"
    return None


def _atom(node: ast.AST) -> bool:
    return isinstance(node, ast.Name | ast.Attribute | ast.Subscript | ast.Constant)


_ITEM = (ast.Name, ast.Attribute, ast.Subscript, ast.Constant, ast.BinOp, ast.List)


def _items(items: list[ast.expr]) -> str | None:
    parts = []
    for item in items:
        text = _simple(item) if isinstance(item, _ITEM) else None
        if text is None:
            return None
        parts.append(text)
    return ", ".join(parts)


def _constant(node: ast.Constant) -> str | None:
    value = node.value
    if value is None or value is True or value is False:
        return str(value)
    if value is ...:
        return "..."
    if type(value) is int:
        return repr(value)
    if isinstance(value, str) and node.kind is None:
        # printable, no quote or backslash: ast.unparse writes it in single quotes, as repr
        if value.isprintable() and "'" not in value and '"' not in value and "\\" not in value:
            return f"'{value}'"
    return None
