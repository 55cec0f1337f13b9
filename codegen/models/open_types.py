"""Enums and tagged unions as users' type checkers and newer peers need them.

Two rewrites of a generated models module (before formatting):

- Every enum becomes a ``Literal`` type alias: a plain string is accepted wherever the schema
  has an enum (``stop_reason="end_turn"``), pyright and mypy check it against the values, and
  ``match`` on the strings narrows. No enum class means no ``StopReason.end_turn`` to import.
- Where the protocol's spec table says ``unknown_values: keep``, the values are open: the alias
  also admits ``UnknownValue`` (a ``str`` a newer peer sent), and every tagged union gets an
  ``Unknown<Union>`` variant that holds a member this version does not know, every field as
  sent, so it is written back unchanged. With ``reject`` an unknown value fails validation.

A tagged union appears once per module, as a named alias; its inline uses (a field's union
with ``Field(discriminator=...)``, an ``Annotated[..., Field(discriminator=...)]`` in a list)
are replaced by that name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from codegen import parsed
from codegen.package.render import docline
from codegen.textedit import NodeSource, apply, insert_imports

UNKNOWN_VALUE = "UnknownValue"  # agentproto._runtime.base: NewType("UnknownValue", str)


class OpenTypesError(ValueError):
    """A union the rewrite cannot make open (reported by the caller with the schema file)."""


# --- enums ----------------------------------------------------------------------------------


def _docstring(node: ast.stmt | None) -> str | None:
    if (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ):
        return node.value.value
    return None


def _enum_members(node: ast.ClassDef) -> list[tuple[str, str | int, str | None]]:
    """(member name, value, member docstring) of a string or integer enum class."""
    members: list[tuple[str, str | int, str | None]] = []
    body = node.body
    for i, item in enumerate(body):
        if (
            isinstance(item, ast.Assign)
            and len(item.targets) == 1
            and isinstance(item.targets[0], ast.Name)
            and isinstance(item.value, ast.Constant)
            and isinstance(value := item.value.value, str | int)
            and not isinstance(value, bool)
        ):
            doc = _docstring(body[i + 1]) if i + 1 < len(body) else None
            members.append((item.targets[0].id, value, doc))
    return members


_ENUM_BASES = (["StrEnum"], ["str", "Enum"], ["IntEnum"], ["int", "Enum"])


def _is_enum(node: ast.ClassDef) -> bool:
    return [parsed.unparse(b) for b in node.bases] in _ENUM_BASES and bool(_enum_members(node))


def enums_to_literals(text: str, *, keep_unknown: bool) -> str:
    """Each enum class as a ``Literal`` alias (open: ``| UnknownValue`` for strings, ``| int``
    for integers); uses of its members (defaults) as the values."""
    source = NodeSource(text)
    tree = parsed.tree(text)
    enums = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef) and _is_enum(n)}
    if not enums:
        return text
    values = {name: {m: v for m, v, _ in _enum_members(n)} for name, n in enums.items()}
    edits = []
    for name, enum in enums.items():
        start, end = source.lines_span(enum)
        edits.append((start, end, _enum_alias(name, enum, keep_unknown=keep_unknown)))
    for node in parsed.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in values
            and node.attr in values[node.value.id]
        ):
            start, end = source.span(node)
            edits.append((start, end, repr(values[node.value.id][node.attr])))
    text = apply(text, edits)
    imports = "from typing import Literal, TypeAlias\n"
    if keep_unknown:
        imports += f"\nfrom agentproto._runtime.base import {UNKNOWN_VALUE}\n"
    return insert_imports(text, imports)


def _enum_alias(name: str, node: ast.ClassDef, *, keep_unknown: bool) -> str:
    members = _enum_members(node)
    literal = f"Literal[{', '.join(repr(v) for _, v, _ in members)}]"
    strings = all(isinstance(v, str) for _, v, _ in members)
    unknown = UNKNOWN_VALUE if strings else "int"
    value = f"{literal} | {unknown}" if keep_unknown else literal
    lines = []
    description = _docstring(node.body[0]) if node.body else None
    if description and description.strip():
        lines += [docline(description), ""]
    documented = [(v, doc) for _, v, doc in members if doc and doc.strip()]
    if documented:
        lines += [f"- ``{docline(v)}``: {docline(doc)}" for v, doc in documented]
    if keep_unknown:
        if lines and lines[-1]:
            lines.append("")
        lines.append(
            "A value this version does not know (from a newer peer) is kept as sent, typed "
            f"``{unknown}``."
        )
    doc = "\n".join(lines).strip("\n")
    if not doc:
        return f"{name}: TypeAlias = {value}\n\n\n"
    docstring = f'"""{doc}\n"""\n' if "\n" in doc else f'"""{doc}"""\n'
    return f"{name}: TypeAlias = {value}\n{docstring}\n\n"


# --- tagged unions --------------------------------------------------------------------------


@dataclass
class _Union:
    """One tagged union of the module: its members, in order, and where it is written."""

    members: tuple[str, ...]
    discriminator: str  # the attribute (snake_case) name of the tag field
    alias: ast.AnnAssign | ast.ClassDef | None = None  # its own definition, if the module has one
    uses: list[ast.expr | ast.AnnAssign] = field(default_factory=list)


def _members(node: ast.expr) -> list[str | None] | None:
    """The names of an ``A | B | None`` union (None for ``None``), or None if not one."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _members(node.left), _members(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Constant) and node.value is None:
        return [None]
    return None


def _discriminator(call: ast.expr) -> str | None:
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "Field":
        for keyword in call.keywords:
            if keyword.arg == "discriminator" and isinstance(keyword.value, ast.Constant):
                value = keyword.value.value
                return value if isinstance(value, str) else None
    return None


def _annotated_union(node: ast.AST) -> tuple[tuple[str, ...], str] | None:
    """``Annotated[A | B, Field(discriminator="t")]``: ((A, B), "t")."""
    if not (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Annotated"
        and isinstance(node.slice, ast.Tuple)
        and len(node.slice.elts) == 2
    ):
        return None
    tag = _discriminator(node.slice.elts[1])
    names = _members(node.slice.elts[0])
    if tag is None or names is None or None in names:
        return None
    return tuple(n for n in names if n is not None), tag


def _root_union(node: ast.ClassDef) -> tuple[tuple[str, ...], str] | None:
    """``class X(RootModel[A | B]): root: A | B = Field(discriminator="t")``."""
    if not (len(node.bases) == 1 and parsed.unparse(node.bases[0]).startswith("RootModel[")):
        return None
    fields = [s for s in node.body if not isinstance(s, ast.Expr)]
    if not (
        len(fields) == 1
        and isinstance(root := fields[0], ast.AnnAssign)
        and parsed.unparse(root.target) == "root"
        and root.value is not None
        and (tag := _discriminator(root.value)) is not None
        and (names := _members(root.annotation)) is not None
        and None not in names
    ):
        return None
    return tuple(n for n in names if n is not None), tag


def _find_unions(tree: ast.Module) -> dict[tuple[tuple[str, ...], str], _Union]:
    unions: dict[tuple[tuple[str, ...], str], _Union] = {}

    def union(members: tuple[str, ...], tag: str) -> _Union:
        key = (tuple(sorted(members)), tag)
        return unions.setdefault(key, _Union(members, tag))

    for statement in tree.body:
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and parsed.unparse(statement.annotation) == "TypeAlias"
            and statement.value is not None
            and (found := _annotated_union(statement.value))
        ):
            union(*found).alias = statement
            continue
        if isinstance(statement, ast.ClassDef) and (found := _root_union(statement)):
            union(*found).alias = statement  # a RootModel of the union: the alias replaces it
            continue
        for node in parsed.walk(statement):
            if (found := _annotated_union(node)) is not None:
                assert isinstance(node, ast.Subscript)
                union(*found).uses.append(node)
            elif (
                isinstance(node, ast.AnnAssign)
                and node.value is not None
                and (tag := _discriminator(node.value)) is not None
            ):
                names = _members(node.annotation)
                if names is None:
                    raise OpenTypesError(
                        f"field {parsed.unparse(node.target)!r}: a discriminator on "
                        f"{parsed.unparse(node.annotation)!r}, which is not a union of classes"
                    )
                members = tuple(n for n in names if n is not None)
                union(members, tag).uses.append(node)
    return unions


def _common_prefix(names: tuple[str, ...]) -> str:
    """The longest prefix all names share that ends where each name's next word begins."""
    prefix = names[0]
    for other in names[1:]:
        while not other.startswith(prefix):
            prefix = prefix[:-1]
    while prefix and not all(n[len(prefix) : len(prefix) + 1].isupper() for n in names):
        prefix = prefix[:-1]
    return prefix


def _common_suffix(names: tuple[str, ...]) -> str:
    """The longest suffix all names share that starts a word in each (``ContentBlock`` of
    ``TextContentBlock`` and ``ImageContentBlock``)."""
    suffix = names[0]
    for other in names[1:]:
        while not other.endswith(suffix):
            suffix = suffix[1:]
    while suffix and not (suffix[0].isupper() and all(len(n) > len(suffix) for n in names)):
        suffix = suffix[1:]
    return suffix


def _tag_field(
    classes: dict[str, ast.ClassDef], name: str, attribute: str
) -> tuple[str, str] | None:
    """(wire name, tag value) of a member's tag field, looked up through its bases."""
    node = classes.get(name)
    if node is None:
        return None
    for item in node.body:
        if (
            isinstance(item, ast.AnnAssign)
            and isinstance(item.target, ast.Name)
            and item.target.id == attribute
        ):
            annotation = item.annotation
            if not (
                isinstance(annotation, ast.Subscript)
                and parsed.unparse(annotation.value) == "Literal"
                and isinstance(annotation.slice, ast.Constant)
                and isinstance(annotation.slice.value, str)
            ):
                raise OpenTypesError(
                    f"{name}.{attribute}: a union's tag must be a single string Literal, "
                    f"not {parsed.unparse(annotation)!r}"
                )
            wire = attribute
            if isinstance(item.value, ast.Call):
                for keyword in item.value.keywords:
                    if keyword.arg == "validation_alias" and isinstance(
                        keyword.value, ast.Constant
                    ):
                        wire = str(keyword.value.value)
            return wire, annotation.slice.value
    for base in node.bases:
        if isinstance(base, ast.Name) and (found := _tag_field(classes, base.id, attribute)):
            return found
    return None


def _union_members(tree: ast.Module, classes: dict[str, ast.ClassDef]) -> set[str]:
    """Every class that is a member of some union of classes: tagged (``Field(discriminator=
    ...)``) or not (a smart union of const-tagged variants, perhaps beside an untagged one)."""
    members: set[str] = set()
    for union in _find_unions(tree).values():
        members.update(union.members)
    for node in parsed.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            names = [n for n in (_members(node) or []) if n is not None and n in classes]
            if len(names) > 1:
                members.update(names)
    return members


def _constant_fields(
    classes: dict[str, ast.ClassDef], name: str, seen: set[str]
) -> Iterator[ast.AnnAssign]:
    """The fields of ``name`` and its bases whose type is one string literal (a tag)."""
    node = classes.get(name)
    if node is None or name in seen:
        return
    seen.add(name)
    for item in node.body:
        annotation = item.annotation if isinstance(item, ast.AnnAssign) else None
        if (
            isinstance(item, ast.AnnAssign)
            and isinstance(annotation, ast.Subscript)
            and parsed.unparse(annotation.value) == "Literal"
            and isinstance(annotation.slice, ast.Constant)
            and isinstance(annotation.slice.value, str)
        ):
            yield item
    for base in node.bases:
        if isinstance(base, ast.Name):
            yield from _constant_fields(classes, base.id, seen)


TAG_HELPER = "constant_tag"  # agentproto._runtime.base.constant_tag
_TAG_KEYWORDS = frozenset({"validation_alias", "serialization_alias"})


def default_tags(text: str) -> str:
    """The tag fields of every union member are made with ``constant_tag``: a variant is made
    without spelling its tag (``ContentBlockText(text="hi")``: type checkers see a default and
    the runtime's ``Model`` fills it in, counted as set so ``exclude_unset`` dumps keep it),
    while data must carry the tag, as the schema requires. A plain default would let data
    without the tag match this variant where the schema gives such data to another one (a
    smart union takes the first member that validates)."""
    tree = parsed.tree(text)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    source = NodeSource(text)
    edits: dict[int, tuple[int, int, str]] = {}
    for member in sorted(_union_members(tree, classes)):
        for item in _constant_fields(classes, member, set()):
            if id(item) in edits:
                continue
            assert isinstance(item.annotation, ast.Subscript)
            assert isinstance(item.annotation.slice, ast.Constant)
            tag = repr(item.annotation.slice.value)
            value = item.value
            if value is None:
                end = source.span(item.annotation)[1]
                edits[id(item)] = (end, end, f" = {TAG_HELPER}({tag})")
            elif (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id == "Field"
                and not value.args
                and all(k.arg not in ("default", "default_factory") for k in value.keywords)
            ):
                aliases = {k.arg: k.value for k in value.keywords}
                if set(aliases) - _TAG_KEYWORDS:
                    raise OpenTypesError(
                        f"{member}.{parsed.unparse(item.target)}: a tag field with "
                        f"{parsed.unparse(value)!r}: only its wire name is expected"
                    )
                wire = "".join(f", {k}={parsed.unparse(v)}" for k, v in sorted(aliases.items()))
                start, end = source.span(value)
                edits[id(item)] = (start, end, f"{TAG_HELPER}({tag}{wire})")
    if not edits:
        return text
    text = apply(text, edits.values())
    return insert_imports(text, f"from agentproto._runtime.base import {TAG_HELPER}\n")


def open_unions(text: str, *, closed: Iterable[str] = ()) -> str:
    """Every tagged union as one named, open alias (see the module docstring), except those
    named in ``closed``."""
    tree = parsed.tree(text)
    unions = _find_unions(tree)
    if not unions:
        return text
    source = NodeSource(text)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    bound = set(classes) | {
        s.target.id
        for s in tree.body
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
    }
    edits: list[tuple[int, int, str]] = []
    appended: list[str] = []
    named: dict[frozenset[str], str] = {}
    for union in sorted(unions.values(), key=lambda u: u.members):
        name = _union_name(union)
        if name in set(closed):
            continue
        unknown, invalid = f"Unknown{name}", f"Invalid{name}"
        if unknown in bound or invalid in bound or (union.alias is None and name in bound):
            raise OpenTypesError(
                f"the union of {', '.join(union.members)} would be named {name!r} with "
                f"{unknown!r} and {invalid!r} variants, but the module already has that name"
            )
        tags = []
        wire = union.discriminator
        for member in union.members:
            found = _tag_field(classes, member, union.discriminator)
            if found is None:
                raise OpenTypesError(f"{member}: no tag field {union.discriminator!r}")
            wire, tag = found
            tags.append(tag)
        doc = None
        if isinstance(union.alias, ast.ClassDef):
            start, end = source.lines_span(union.alias)
            docs = [d for d in map(_docstring, union.alias.body) if d is not None]
            doc = docs[0] if docs else None
        elif union.alias is not None:
            start, end = source.lines_span(union.alias)
            following = _next_statement(tree, union.alias)
            if (doc := _docstring(following)) is not None:
                assert following is not None
                end = source.lines_span(following)[1]
        definition = (
            _unknown_class(unknown, name, union.discriminator, wire, tags)
            + _invalid_class(invalid, name, union.discriminator, wire, tags)
            + _open_alias(name, union, unknown, invalid, doc)
        )
        defined_before = union.alias is not None and all(
            member in classes and classes[member].lineno < union.alias.lineno
            for member in union.members
        )
        if defined_before:
            edits.append((start, end, definition))
        else:  # at the end, after every member (the alias's value is evaluated at import)
            if union.alias is not None:
                edits.append((start, end, ""))
            appended.append(definition)
        for use in union.uses:
            edits.extend(_use_edits(use, name, source))
        named[frozenset(union.members)] = name
    # The same members written as a bare union, where the model generator left the
    # discriminator out (a union as a ``dict``'s values): the open alias too.
    for node in _outer_unions(tree):
        names = _members(node)
        start, end = source.span(node)
        if names is None or any(a <= start < b or a < end <= b for a, b, _ in edits):
            continue
        alias = named.get(frozenset(n for n in names if n is not None))
        if alias is not None and len(names) > 1:
            edits.append((start, end, f"{alias} | None" if None in names else alias))
    text = apply(text, edits)
    imports = (
        "from typing import Annotated, TypeAlias\n\nfrom pydantic import Field\n\n"
        "from agentproto._runtime.base import InvalidVariant, Model, not_one_of, one_of\n"
    )
    text = insert_imports(text, imports)
    return text.rstrip("\n") + "\n" + "".join(f"\n\n{a}" for a in appended)


def _outer_unions(tree: ast.Module) -> Iterator[ast.BinOp]:
    """Every ``A | B ...`` of the module that is not part of a larger one."""
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, inside = stack.pop()
        union = isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr)
        if union and not inside:
            assert isinstance(node, ast.BinOp)
            yield node
        stack.extend((child, union) for child in ast.iter_child_nodes(node))


# --- unions whose members are partly tagged ---------------------------------------------------


def _wire(item: ast.AnnAssign) -> str:
    """The wire name of a field (its ``validation_alias``)."""
    assert isinstance(item.target, ast.Name)
    if isinstance(item.value, ast.Call):
        for keyword in item.value.keywords:
            if keyword.arg == "validation_alias" and isinstance(keyword.value, ast.Constant):
                return str(keyword.value.value)
    return item.target.id


def _tags(classes: dict[str, ast.ClassDef], name: str) -> dict[str, str]:
    """wire name -> value of a class's one-value string fields (its tags), bases included."""
    found: dict[str, str] = {}
    for item in _constant_fields(classes, name, set()):
        assert isinstance(item.annotation, ast.Subscript)
        assert isinstance(item.annotation.slice, ast.Constant)
        found.setdefault(_wire(item), str(item.annotation.slice.value))
    return found


def dispatch_unions(text: str, *, keep_unknown: bool = False) -> str:
    """Unions of classes that are tagged in part (ACP's ``AuthMethod``: ``terminal`` carries
    ``"type": "terminal"``, ``agent`` no ``type`` at all) or whose tag is shared (ACP's
    ``StateUpdate``: eight ``idle`` members told apart by ``stopReason``), read as the schema
    says: data with one of the tags goes to the members with that tag, anything else to the
    untagged members (``by_tag``, a pydantic callable discriminator; members sharing a tag are
    told apart the same way by their next tag). Left to pydantic's smart mode, such a union
    took the first member that validates: data without the tag could become a tagged member,
    and a tagged body that does not match its member an untagged one (a catch-all).

    With ``keep_unknown``, a union with no untagged member (its catch-all dropped: the models
    open it) gets an ``Unknown<Union>`` member for the tags it does not know, as
    :func:`open_unions` gives a tagged union."""
    tree = parsed.tree(text)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    source = NodeSource(text)
    named = _named_unions(tree)
    edits: list[tuple[int, int, str]] = []
    unknowns: dict[str, str] = {}
    for node in _outer_unions(tree):
        names = _members(node)
        members = [n for n in names or () if n is not None]
        if names is None or len(members) < 2 or any(m not in classes for m in members):
            continue
        tags = {m: _tags(classes, m) for m in members}
        expression = _dispatch(members, tags, set())
        if expression is None:
            continue
        if keep_unknown and all(tags[m] for m in members):
            expression = _with_unknown(members, tags, classes, named, unknowns)
        start, end = source.span(node)
        edits.append((start, end, f"{expression} | None" if None in names else expression))
    if not edits:
        return text
    if unknowns:
        first = next(n for n in tree.body if isinstance(n, ast.ClassDef))
        at = source.lines_span(first)[0]
        edits.append((at, at, "".join(unknowns[name] for name in sorted(unknowns))))
    text = apply(text, edits)
    imports = (
        "from typing import Annotated\n\nfrom pydantic import Field, Tag\n\n"
        "from agentproto._runtime.base import UNTAGGED, Model, by_tag, not_one_of\n"
    )
    return insert_imports(text, imports)


def _named_unions(tree: ast.Module) -> dict[frozenset[str], str]:
    """The names the module gives unions of classes: ``X: TypeAlias = A | B`` and ``class
    X(RootModel[A | B])``."""
    found: dict[frozenset[str], str] = {}
    for statement in tree.body:
        value: ast.expr | None = None
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and parsed.unparse(statement.annotation) == "TypeAlias"
        ):
            value, name = statement.value, statement.target.id
        elif (
            isinstance(statement, ast.ClassDef)
            and len(statement.bases) == 1
            and isinstance(base := statement.bases[0], ast.Subscript)
            and parsed.unparse(base.value) == "RootModel"
        ):
            value, name = base.slice, statement.name
        members = _members(value) if value is not None else None
        if members:
            found.setdefault(frozenset(m for m in members if m is not None), name)
    return found


def _with_unknown(
    members: list[str],
    tags: dict[str, dict[str, str]],
    classes: dict[str, ast.ClassDef],
    named: dict[frozenset[str], str],
    unknowns: dict[str, str],
) -> str:
    """The dispatch of a union every member of which is tagged, with an ``Unknown...`` member
    (made once per union) for the tags none of them has."""
    name = named.get(frozenset(members)) or _common_prefix(tuple(members))
    if not name:
        raise OpenTypesError(f"the union of {', '.join(members)} has no name for its Unknown")
    counts: dict[str, int] = {}
    for m in members:
        for wire in tags[m]:
            counts[wire] = counts.get(wire, 0) + 1
    wire = min(counts, key=lambda w: (-counts[w], w))
    attribute = wire
    for item in _constant_fields(classes, members[0], set()):
        if _wire(item) == wire:
            assert isinstance(item.target, ast.Name)
            attribute = item.target.id
    known = list(dict.fromkeys(tags[m][wire] for m in members))
    unknown = f"Unknown{name}"
    if unknown in classes:
        raise OpenTypesError(f"the union {name!r} would have an {unknown!r}, a class already")
    unknowns[unknown] = _unknown_class(unknown, name, attribute, wire, known)
    extended = {**tags, unknown: {}}
    expression = _dispatch([*members, unknown], extended, set())
    assert expression is not None
    return expression


def _dispatch(members: list[str], tags: dict[str, dict[str, str]], used: set[str]) -> str | None:
    """The ``by_tag`` expression telling ``members`` apart (None where pydantic's smart mode
    does it exactly: every member tagged by one field, each with a value of its own; or no
    tag at all). The field is the one most members carry."""
    counts: dict[str, int] = {}
    for m in members:
        for wire in tags[m]:
            if wire not in used:
                counts[wire] = counts.get(wire, 0) + 1
    if not counts:
        return None
    wire = min(counts, key=lambda w: (-counts[w], w))
    groups: dict[str, list[str]] = {}
    untagged: list[str] = []
    for m in members:
        if wire in tags[m]:
            groups.setdefault(tags[m][wire], []).append(m)
        else:
            untagged.append(m)
    if not untagged and all(len(g) == 1 for g in groups.values()):
        return None
    parts = []
    for value, group in groups.items():
        inner = _dispatch(group, tags, used | {wire}) if len(group) > 1 else None
        parts.append(f"Annotated[{inner or ' | '.join(group)}, Tag({value!r})]")
    if untagged:
        inner = _dispatch(untagged, tags, used | {wire}) if len(untagged) > 1 else None
        parts.append(f"Annotated[{inner or ' | '.join(untagged)}, Tag(UNTAGGED)]")
    known = "".join(f"{value!r}, " for value in groups)
    return f"Annotated[{' | '.join(parts)}, by_tag({wire!r}, ({known}))]"


def _union_name(union: _Union) -> str:
    if isinstance(union.alias, ast.ClassDef):
        return union.alias.name
    if union.alias is not None:
        assert isinstance(union.alias.target, ast.Name)
        return union.alias.target.id
    name = _common_prefix(union.members) or _common_suffix(union.members)
    if not name:
        raise OpenTypesError(
            f"the union of {', '.join(union.members)} has no name: its members share no "
            "prefix or suffix and the schema gives it no definition of its own"
        )
    return name


def _next_statement(tree: ast.Module, statement: ast.stmt) -> ast.stmt | None:
    index = tree.body.index(statement)
    return tree.body[index + 1] if index + 1 < len(tree.body) else None


def _unknown_class(unknown: str, name: str, attribute: str, wire: str, tags: list[str]) -> str:
    """The Unknown variant: its tag is any string but the known ones (a known tag with a body
    that does not match its variant is an error about that variant, never an Unknown)."""
    alias = (
        f" = Field(validation_alias={wire!r}, serialization_alias={wire!r})"
        if wire != attribute
        else ""
    )
    known = ", ".join(repr(t) for t in tags)
    return (
        f"class {unknown}(Model):\n"
        f'    """A variant of ``{name}`` this version does not know (from a newer peer). Every '
        'field is kept as sent (in ``model_extra``) and written back unchanged."""\n\n'
        f"    {attribute}: Annotated[str, not_one_of(({known},))]{alias}\n"
        f'    """The tag, as sent."""\n\n\n'
    )


def _invalid_class(invalid: str, name: str, attribute: str, wire: str, tags: list[str]) -> str:
    """The Invalid variant: a known tag whose data does not match its variant, accepted only
    in data a peer sent (the runtime's ``one_of`` checks the validation context)."""
    alias = (
        f" = Field(validation_alias={wire!r}, serialization_alias={wire!r})"
        if wire != attribute
        else ""
    )
    known = ", ".join(repr(t) for t in tags)
    return (
        f"class {invalid}(InvalidVariant):\n"
        f'    """A known variant of ``{name}`` whose data, as a peer sent it, does not match '
        "its schema: kept as sent (``raw``), with what does not match (``errors``); never "
        'made from data of our own."""\n\n'
        f"    {attribute}: Annotated[str, one_of(({known},))]{alias}\n"
        f'    """The tag, as sent."""\n\n\n'
    )


def _open_alias(name: str, union: _Union, unknown: str, invalid: str, doc: str | None) -> str:
    """The known members as pydantic's tagged union (validated in its core, no Python call),
    then the Unknown variant, then the Invalid one, tried only when the others fail."""
    members = " | ".join(union.members)
    about = docline(doc) if doc else f"One of the ``{name}`` variants."
    return (
        f"{name}: TypeAlias = Annotated[\n"
        f"    Annotated[{members}, Field(discriminator={union.discriminator!r})]\n"
        f"    | {unknown}\n    | {invalid},\n"
        f'    Field(union_mode="left_to_right"),\n]\n'
        f'"""{about} A variant this version does not know (from a newer peer) is an '
        f"``{unknown}``; a known one whose data a peer sent does not match its schema, an "
        f'``{invalid}``."""\n'
    )


def _use_edits(
    use: ast.expr | ast.AnnAssign, name: str, source: NodeSource
) -> Iterator[tuple[int, int, str]]:
    if not isinstance(use, ast.AnnAssign):  # Annotated[A | B, Field(discriminator=...)]
        start, end = source.span(use)
        yield start, end, name
        return
    # a field: ``update: A | B | None = Field(default=None, discriminator="t")``
    optional = None in (_members(use.annotation) or [])
    annotation = f"{name} | None" if optional else name
    start, end = source.span(use.annotation)
    yield start, end, annotation
    assert isinstance(use.value, ast.Call)
    rest = [source.segment(a) for a in use.value.args] + [
        f"{k.arg}={source.segment(k.value)}" if k.arg else f"**{source.segment(k.value)}"
        for k in use.value.keywords
        if k.arg != "discriminator"
    ]
    value_start, value_end = source.span(use.value)
    if rest:
        yield value_start, value_end, f"Field({', '.join(rest)})"
    else:  # ``= Field(discriminator=...)`` alone: no default at all
        yield end, value_end, ""
