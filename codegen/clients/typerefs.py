"""Type references of a spec table, read against the generated models.

A table names a type as a ``$defs`` entry (``Task``) or as a JSON pointer into one
(``SendMessageSuccessResponse#/properties/result``: the type of that property, for a result
that is an inline union). Renderers need the Python annotation of either, the models it names
(to import them), and, for requests, the classes a call may build (one keyword form each).
Everything is read from the models module itself (its AST), so what a client says is what the
models are.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from codegen import parsed
from codegen.clients.signatures import (
    ModelsModule,
    module_fields,
    parse_models,
    strip_annotated,
)
from codegen.errors import BuildError


@dataclass(frozen=True)
class TypeRef:
    """A resolved type reference."""

    ref: str  # as the table writes it
    annotation: str  # the Python type, in the models' names (``Task | Message``, ``None``)
    names: frozenset[str]  # the models names the annotation uses
    members: tuple[str, ...]  # the classes it is (one, or a union's), empty otherwise

    @property
    def is_none(self) -> bool:
        return self.annotation == "None"


def resolve(text: str, ref: str, where: str, pointer: str) -> TypeRef:
    """``ref`` against the models module ``text``; a reference that leads to no class, alias
    or field of the models is a :class:`BuildError` at ``where`` + ``pointer``."""
    module = parse_models(text)
    name, _, path = ref.partition("#")
    if name not in module.names:
        raise BuildError.single(where, pointer, f"{name!r} is not a type of the models")
    if not path:
        return _named(module, ref, name)
    tokens = path.split("/")[1:]
    node: ast.expr = ast.Name(name)
    for index in range(0, len(tokens), 2):
        if tokens[index] != "properties" or index + 1 >= len(tokens):
            raise BuildError.single(
                where, pointer, f"{ref!r}: only /properties/<name> steps are supported"
            )
        owner = _single_class(module, node)
        if owner is None:
            raise BuildError.single(
                where, pointer, f"{ref!r}: {parsed.unparse(node)} has no fields"
            )
        wire = tokens[index + 1]
        found = [f for f in module_fields(module, owner) if f.wire == wire]
        if not found:
            raise BuildError.single(where, pointer, f"{ref!r}: {owner} has no field {wire!r}")
        node = strip_annotated(found[0].annotation)
        if not found[0].required:
            node = _without_none(node)
    annotation = parsed.unparse(node)
    return TypeRef(ref, annotation, _model_names(module, node), _members(module, node))


def _named(module: ModelsModule, ref: str, name: str) -> TypeRef:
    members: tuple[str, ...] = (name,) if name in module.classes else ()
    root = module.root_type(name) if name in module.classes else None
    if root is not None:  # a RootModel: what it holds (the members of a union)
        members = _members(module, strip_annotated(root)) or members
    if name in module.aliases:
        members = _members(module, strip_annotated(module.aliases[name]))
    return TypeRef(ref, name, frozenset({name}), members)


def _single_class(module: ModelsModule, node: ast.expr) -> str | None:
    if isinstance(node, ast.Name) and node.id in module.classes:
        return node.id
    return None


def _without_none(node: ast.expr) -> ast.expr:
    """``T | None`` of an optional field is ``T``: the table points at what is there."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        if isinstance(node.right, ast.Constant) and node.right.value is None:
            return node.left
    return node


def _union(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union(node.left) + _union(node.right)
    return [node]


def _members(module: ModelsModule, node: ast.expr) -> tuple[str, ...]:
    """The classes a type is: itself, or every member of a union of classes."""
    parts = _union(node)
    names = [p.id for p in parts if isinstance(p, ast.Name) and p.id in module.classes]
    return tuple(names) if len(names) == len(parts) else ()


def _model_names(module: ModelsModule, node: ast.expr) -> frozenset[str]:
    return frozenset(
        n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in module.names
    )


def tag_of(text: str, model: str, wire: str) -> str | None:
    """The constant value of ``model``'s field ``wire`` (a union member's tag), if it has one."""
    module = parse_models(text)
    for field in module_fields(module, model):
        if field.wire != wire:
            continue
        annotation = strip_annotated(field.annotation)
        if (
            isinstance(annotation, ast.Subscript)
            and isinstance(annotation.value, ast.Name)
            and annotation.value.id == "Literal"
            and isinstance(annotation.slice, ast.Constant)
            and isinstance(annotation.slice.value, str)
        ):
            return annotation.slice.value
    return None
