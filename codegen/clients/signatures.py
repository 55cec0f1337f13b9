"""Keyword signatures from request models: a client method takes the fields of its request
type as keyword-only parameters (snake_case, optional ones defaulted), so a type checker checks
every key and type of a call, while the ready model is still accepted (an overload).

Fields are read from the generated models module (its AST: annotations, defaults, base
classes); annotations are re-written for the client module, which names stable types directly
and unstable ones through a module alias.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from codegen import parsed
from codegen.errors import BuildError

# Names an annotation may use besides the models' own types, and where they come from.
OUTSIDE_NAMES: Mapping[str, str] = {
    "Any": "typing",
    "Literal": "typing",
    "Url": "agentproto._runtime.base",
    "AwareDatetime": "pydantic",
}
# The methods' own parameters are positional-only (``self``, the request model), so a field may
# be called ``params`` or ``self``; ``timeout`` is a keyword of the blocking calls.
RESERVED = frozenset({"timeout"})


@dataclass(frozen=True)
class Param:
    name: str  # the Python keyword (the model's attribute name)
    annotation: str
    required: bool

    def __str__(self) -> str:
        return f"{self.name}: {self.annotation}" + ("" if self.required else " = ...")


@dataclass(frozen=True)
class Variant:
    """One way to call: the model it builds and its keyword parameters."""

    model: str
    params: tuple[Param, ...]

    @property
    def keywords(self) -> str:
        """``*, a: int, b: str | None = ...`` (empty when the model has no fields)."""
        return ", ".join(["*", *map(str, self.params)]) if self.params else ""


@dataclass(frozen=True)
class ModelsModule:
    """A generated models module as the client generators read it."""

    classes: dict[str, ast.ClassDef]
    aliases: dict[str, ast.expr]  # module-level ``Name: TypeAlias = ...`` and ``Name = ...``
    names: frozenset[str]

    def root_type(self, name: str) -> ast.expr | None:
        """``T`` of ``class name(RootModel[T])``, else None."""
        for base in self.classes[name].bases:
            if (
                isinstance(base, ast.Subscript)
                and isinstance(base.value, ast.Name)
                and base.value.id == "RootModel"
            ):
                return base.slice
        return None


@dataclass(frozen=True)
class ModelField:
    name: str  # the attribute (snake_case)
    wire: str  # the key on the wire
    annotation: ast.expr
    required: bool
    constant: bool = False  # ``Literal[v]`` defaulting to ``v``: a tag, always sent as is


@parsed.memo
def parse_models(text: str) -> ModelsModule:
    tree = parsed.tree(text)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    aliases: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            aliases[node.target.id] = node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                aliases[target.id] = node.value
    return ModelsModule(classes, aliases, frozenset(classes) | frozenset(aliases))


def variants(
    text: str,
    model: str,
    qualify: Callable[[str], str],
    where: str,
    dict_form: Callable[[str], str] | None = None,
) -> list[Variant]:
    """The ways to call a method whose request type is ``model``: one per union member for a
    ``RootModel`` of a union, else one. ``qualify`` names a models type in the client module;
    ``dict_form`` names its dict form (:mod:`codegen.clients.params`), accepted beside it."""
    from codegen.clients.params import param_types  # it reads models through this module

    module = parse_models(text)
    node = module.classes.get(model)
    if node is not None:
        root = _root_union(node)
        members = root if root is not None else [model]
    elif model in module.aliases:
        # A tagged union written as an alias (open: its Unknown and Invalid variants are what
        # a peer sends, never a way to call).
        found = _union_names(strip_annotated(module.aliases[model]))
        members = [m for m in found or [] if m not in param_types(text).unknown]
        if not members or any(m not in module.classes for m in members):
            raise BuildError.single(
                where, "", f"request type {model} is an alias, but not of a union of classes"
            )
    else:
        raise BuildError.single(where, "", f"request type {model} is not a class of its models")
    named = _Names(qualify, dict_form, param_types(text).names if dict_form else frozenset())
    union = len(members) > 1
    return [Variant(m, tuple(_params(module, m, named, where, union))) for m in members]


@dataclass(frozen=True)
class _Names:
    """How the client module names a models type, and its dict form where it has one."""

    qualify: Callable[[str], str]
    dict_form: Callable[[str], str] | None
    with_dict: frozenset[str]


def union_of(text: str, model: str) -> list[str] | None:
    """The members of ``model`` when it is a ``RootModel`` of a union of classes."""
    node = parse_models(text).classes.get(model)
    return _root_union(node) if node is not None else None


def _root_union(node: ast.ClassDef) -> list[str] | None:
    for base in node.bases:
        if (
            isinstance(base, ast.Subscript)
            and isinstance(base.value, ast.Name)
            and base.value.id == "RootModel"
        ):
            members = _union_names(base.slice)
            if members:
                return members
    return None


def _union_names(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Name):
        return [node.id]
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Annotated"
        and isinstance(node.slice, ast.Tuple)
        and node.slice.elts
    ):  # a member or a union with its dispatch (``Annotated[X, Tag(...)]``, by_tag)
        return _union_names(node.slice.elts[0])
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _union_names(node.left), _union_names(node.right)
        return left + right if left is not None and right is not None else None
    return None


def _params(
    module: ModelsModule, model: str, named: _Names, where: str, union: bool = False
) -> list[Param]:
    """The keyword parameters of a call building ``model``: every field but its constants (a
    tag has one value, which the model puts in itself and the wire always carries), except
    for a member of a union (``union``), where the tag may pick the member."""
    params = []
    for field in module_fields(module, model):
        if field.constant and not union:
            continue
        if field.name in RESERVED:
            raise BuildError.single(
                where, "", f"{model}.{field.name}: a field name the client methods reserve"
            )
        annotation = _annotation(module, field.annotation, named, where)
        params.append(Param(field.name, annotation, field.required))
    return params


def module_fields(module: ModelsModule, model: str) -> list[ModelField]:
    """The fields of ``model`` and its bases (a redefinition moves a field, as dataclasses
    do), required ones first."""
    fields: dict[str, ModelField] = {}
    for cls in _lineage(module, model):
        for statement in cls.body:
            if not isinstance(statement, ast.AnnAssign) or not isinstance(
                statement.target, ast.Name
            ):
                continue
            name = statement.target.id
            if name == "model_config" or _is_classvar(statement.annotation):
                continue
            fields.pop(name, None)
            fields[name] = ModelField(
                name,
                _wire_name(statement.value) or name,
                statement.annotation,
                _required(statement.value),
                _is_constant(statement.annotation, statement.value),
            )
    return [f for f in fields.values() if f.required] + [
        f for f in fields.values() if not f.required
    ]


def _wire_name(value: ast.expr | None) -> str | None:
    if isinstance(value, ast.Call):
        for keyword in value.keywords:
            if keyword.arg == "validation_alias" and isinstance(keyword.value, ast.Constant):
                return str(keyword.value.value)
    return None


def _lineage(module: ModelsModule, model: str) -> list[ast.ClassDef]:
    """``model`` and its bases defined in the module, most basic first (the field order)."""
    order: list[ast.ClassDef] = []

    def visit(name: str) -> None:
        node = module.classes.get(name)
        if node is None or node in order:
            return
        for base in reversed(node.bases):
            if isinstance(base, ast.Name):
                visit(base.id)
        order.append(node)

    visit(model)
    return order


def _is_classvar(node: ast.expr) -> bool:
    target = node.value if isinstance(node, ast.Subscript) else node
    return isinstance(target, ast.Name) and target.id == "ClassVar"


def _is_constant(annotation: ast.expr, value: ast.expr | None) -> bool:
    """``Literal[v]`` (one value) whose default is ``v``."""
    if not (
        isinstance(annotation, ast.Subscript)
        and isinstance(annotation.value, ast.Name)
        and annotation.value.id == "Literal"
        and isinstance(annotation.slice, ast.Constant)
    ):
        return False
    default = value
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "Field"
    ):
        given = [k.value for k in value.keywords if k.arg == "default"]
        default = value.args[0] if value.args else (given[0] if given else None)
    return isinstance(default, ast.Constant) and default.value == annotation.slice.value


def _required(value: ast.expr | None) -> bool:
    if value is None:
        return True
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "Field"
    ):
        keywords = {k.arg for k in value.keywords}
        return not ({"default", "default_factory"} & keywords) and not value.args
    return False


def strip_annotated(node: ast.expr) -> ast.expr:
    """A copy of the type expression with every ``Annotated[T, ...]`` replaced by ``T`` (the
    metadata is the models' validation, not part of the type a caller gives)."""

    class Strip(ast.NodeTransformer):
        def visit_Subscript(self, sub: ast.Subscript) -> ast.AST:
            if isinstance(sub.value, ast.Name) and sub.value.id == "Annotated":
                first = sub.slice.elts[0] if isinstance(sub.slice, ast.Tuple) else sub.slice
                visited: ast.AST = self.visit(first)
                return visited
            return self.generic_visit(sub)

        def visit_BinOp(self, op: ast.BinOp) -> ast.AST:
            """``A | Annotated[B | C, ...]`` as ``A | B | C`` (a flat union, not nested)."""
            visited = self.generic_visit(op)
            if not (isinstance(visited, ast.BinOp) and isinstance(visited.op, ast.BitOr)):
                return visited
            members: list[ast.expr] = []

            def flatten(node: ast.expr) -> None:
                if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
                    flatten(node.left)
                    flatten(node.right)
                else:
                    members.append(node)

            flatten(visited)
            joined = members[0]
            for member in members[1:]:
                joined = ast.BinOp(joined, ast.BitOr(), member)
            return joined

    tree = ast.parse(parsed.unparse(node), mode="eval")
    result: ast.expr = Strip().visit(tree).body
    return result


def _annotation(module: ModelsModule, node: ast.expr, named: _Names, where: str) -> str:
    class Rewrite(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.AST:
            if name.id in module.names:
                qualified: ast.expr = ast.parse(named.qualify(name.id), mode="eval").body
                if named.dict_form is not None and name.id in named.with_dict:
                    as_dict = ast.parse(named.dict_form(name.id), mode="eval").body
                    return ast.BinOp(qualified, ast.BitOr(), as_dict)
                return qualified
            if name.id not in OUTSIDE_NAMES and name.id not in ("None", "list", "dict", "str"):
                if name.id not in ("int", "float", "bool", "bytes", "tuple", "set"):
                    raise BuildError.single(
                        where, "", f"a request field's type uses {name.id}, unknown to clients"
                    )
            return name

    return parsed.unparse(Rewrite().visit(strip_annotated(node)))


def outside_names(params: list[Param]) -> dict[str, set[str]]:
    """The non-model names the annotations use, by the module to import them from."""
    found: dict[str, set[str]] = {}
    for param in params:
        for node in ast.walk(ast.parse(param.annotation, mode="eval")):
            if isinstance(node, ast.Name) and node.id in OUTSIDE_NAMES:
                found.setdefault(OUTSIDE_NAMES[node.id], set()).add(node.id)
    return found


def model_names(params: list[Param], text: str) -> set[str]:
    """The models types (of the module ``text``) the annotations name directly."""
    names = parse_models(text).names
    return {
        node.id
        for param in params
        for node in ast.walk(ast.parse(param.annotation, mode="eval"))
        if isinstance(node, ast.Name) and node.id in names
    }
