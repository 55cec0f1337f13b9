"""Request shapes as dicts: a ``TypedDict`` per model, keyed by the wire's names.

A client call takes its request's fields as keywords; a nested input (a prompt's content
blocks, an MCP server, a message) may then be the model or a plain dict, and the dict is
checked key by key too: ``prompt=[{"type": "text", "text": "Hi"}]``. The dicts are what the
wire carries (``sessionId``, ``_meta``), so JSON from a protocol's documentation type-checks
as it is written; the runtime validates either form into the models.

For a models module ``<package>/models.py`` this writes ``<package>/params.py``:

- ``class XParam(TypedDict)`` for each model ``X`` (its fields and those of its bases; an
  optional field is ``NotRequired``), in the functional form when a wire name is not an
  identifier;
- ``XParam: TypeAlias`` for each ``RootModel`` class and each alias whose type reaches a model
  (unions: ``ContentBlockParam`` is the union of its members' dicts).

Enums and scalar aliases are the models' own (imported for type checking only: the module
costs nothing at import beyond its classes, and clients import it for type checking only).
"""

from __future__ import annotations

import ast
import keyword
from dataclasses import dataclass

from codegen import parsed
from codegen.clients.signatures import ModelField, module_fields, parse_models, strip_annotated
from codegen.package.render import docline

SUFFIX = "Param"
_PLAIN = frozenset(
    {"Any", "Literal", "None", "str", "int", "float", "bool", "bytes", "list", "dict", "tuple"}
)


@dataclass(frozen=True)
class ParamTypes:
    """Which names of a models module have a dict form (``name`` + ``Param``)."""

    classes: frozenset[str]
    aliases: frozenset[str]  # aliases and RootModel classes: a dict form that is an alias
    unknown: frozenset[str]  # the open unions' Unknown... variants: models only

    @property
    def names(self) -> frozenset[str]:
        return self.classes | self.aliases


def _is_unknown_variant(node: ast.ClassDef) -> bool:
    """An ``Unknown...`` or ``Invalid...`` variant of an open union (its tag refuses the known
    ones, or accepts them only from a peer): models only."""
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id in ("not_one_of", "one_of")
        for n in ast.walk(node)
    )


@parsed.memo
def param_types(text: str) -> ParamTypes:
    module = parse_models(text)
    unknown = frozenset(n for n, c in module.classes.items() if _is_unknown_variant(c))
    roots = frozenset(n for n in module.classes if module.root_type(n) is not None)
    classes = frozenset(module.classes) - unknown - roots
    aliases: set[str] = set(roots)
    changed = True
    while changed:  # an alias has a dict form when its type reaches a class or such an alias
        changed = False
        for name, value in module.aliases.items():
            if name in aliases:
                continue
            used = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
            if used & (classes | aliases):
                aliases.add(name)
                changed = True
    return ParamTypes(classes, frozenset(aliases), unknown)


def dict_annotation(node: ast.expr, types: ParamTypes, used: set[str]) -> str:
    """A model field's type as a dict's value type: models as their ``...Param`` (an open
    union's Unknown variant left out: a dict names a known variant, or is built as the
    model); ``Url`` and ``AwareDatetime`` as ``str``; other names of the models module
    recorded in ``used``."""

    class Rewrite(ast.NodeTransformer):
        def visit_BinOp(self, op: ast.BinOp) -> ast.AST:
            for side, other in ((op.left, op.right), (op.right, op.left)):
                if isinstance(side, ast.Name) and side.id in types.unknown:
                    visited: ast.AST = self.visit(other)
                    return visited
            return self.generic_visit(op)

        def visit_Name(self, name: ast.Name) -> ast.AST:
            if name.id in types.names:
                return ast.Name(name.id + SUFFIX, ast.Load())
            if name.id in ("Url", "AwareDatetime"):  # strings on the wire
                return ast.Name("str", ast.Load())
            if name.id not in _PLAIN:
                used.add(name.id)
            return name

    return parsed.unparse(Rewrite().visit(strip_annotated(node)))


class _DictAnnotations:
    """:func:`dict_annotation` for one models module, once per distinct annotation: a few
    hundred distinct types stand for thousands of fields (``str | None``...)."""

    def __init__(self, types: ParamTypes, used: set[str]) -> None:
        self.types, self.used = types, used
        self.known: dict[str, tuple[str, frozenset[str]]] = {}

    def __call__(self, node: ast.expr) -> str:
        key = parsed.unparse(node)
        found = self.known.get(key)
        if found is None:
            names: set[str] = set()
            found = self.known[key] = (dict_annotation(node, self.types, names), frozenset(names))
        self.used |= found[1]
        return found[0]


def render_params(text: str, models_module: str, header: str) -> str:
    """The params module for the models module text ``text`` (``models_module`` is its
    import path)."""
    module = parse_models(text)
    types = param_types(text)
    used: set[str] = set()
    annotation = _DictAnnotations(types, used)
    classes = []
    for name in sorted(types.classes, key=list(module.classes).index):
        keys = [
            (f.wire, annotation(f.annotation), f.required or _is_tag(f))
            for f in module_fields(module, name)
        ]
        classes.append(_typed_dict(name, sorted(keys, key=lambda k: not k[2])))
    # Aliases are evaluated at import: after every class, each after the aliases it names.
    values: dict[str, str] = {}
    for name in types.aliases:
        root = module.root_type(name) if name in module.classes else None
        values[name] = annotation(root if root is not None else module.aliases[name])
    aliases = []
    for name in _dependency_order(values):
        about = "as sent" if name in module.classes else "as dicts (each member's dict form)"
        aliases.append(f'{name}{SUFFIX}: TypeAlias = {values[name]}\n"""``{name}`` {about}."""\n')
    names = ", ".join(sorted(used))
    imports = f"from {models_module} import {names}\n" if used else ""
    return (
        f'"""{docline(header)}. Do not edit: run `codegen build`.\n\n'
        "Each model of the models module as a TypedDict with the wire's keys: what a client\n"
        'call accepts wherever it accepts the model."""\n\n'
        "from __future__ import annotations\n\n"
        "from typing import Any, Literal, NotRequired, TypeAlias, TypedDict\n\n"
        f"{imports}\n\n" + "\n\n".join(classes + aliases)
    )


def _is_tag(field: ModelField) -> bool:
    """A tagged union member's tag: one literal value, defaulted in the model (made without
    it, the model fills it in) but required in a dict, which is told apart by it."""
    annotation = field.annotation
    return (
        isinstance(annotation, ast.Subscript)
        and parsed.unparse(annotation.value) == "Literal"
        and isinstance(annotation.slice, ast.Constant)
        and isinstance(annotation.slice.value, str)
    )


def _dependency_order(values: dict[str, str]) -> list[str]:
    order: list[str] = []

    def visit(name: str, seen: frozenset[str]) -> None:
        if name in order or name in seen:
            return
        for node in ast.walk(ast.parse(values[name], mode="eval")):
            if isinstance(node, ast.Name) and node.id.endswith(SUFFIX):
                base = node.id[: -len(SUFFIX)]
                if base in values:
                    visit(base, seen | {name})
        order.append(name)

    for name in sorted(values):
        visit(name, frozenset())
    return order


def _typed_dict(name: str, keys: list[tuple[str, str, bool]]) -> str:
    def value(annotation: str, required: bool) -> str:
        return annotation if required else f"NotRequired[{annotation}]"

    doc = f'"""``{name}`` as a dict, with the wire\'s keys."""'
    if all(_plain_key(k) for k, _, _ in keys):
        body = "".join(f"    {k}: {value(a, r)}\n" for k, a, r in keys)
        return f"class {name}{SUFFIX}(TypedDict):\n    {doc}\n\n{body}"
    fields = "".join(f"        {k!r}: {value(a, r)!r},\n" for k, a, r in keys)
    return (
        f'{name}{SUFFIX} = TypedDict(\n    "{name}{SUFFIX}",\n    {{\n{fields}    }},\n)\n{doc}\n'
    )


def _plain_key(key: str) -> bool:
    """A key the class form can hold (the functional form takes any string)."""
    return key.isidentifier() and not keyword.iskeyword(key) and not key.startswith("__")
