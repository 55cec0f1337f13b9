"""Model generation: one JSON Schema → one pydantic v2 module, via datamodel-code-generator.

Everything runs in this process (the generator's import and template compilation are paid once
per build). Output is deterministic: no timestamps, no version header, fixed options; the
formatting pass happens later for the whole tree at once (:mod:`codegen.package.output`).
"""

from __future__ import annotations

import ast
import io
import itertools
import json
import re
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from codegen import parsed
from codegen.errors import BuildError
from codegen.inputs.sources import display_path
from codegen.ir import ModelUnit
from codegen.models.normalise import DISCARDED_ROOT, normalise
from codegen.models.open_types import (
    OpenTypesError,
    default_tags,
    dispatch_unions,
    enums_to_literals,
    open_unions,
)
from codegen.package.render import docline
from codegen.textedit import Token, apply, code_names, code_tokens, insert_imports, rename_names

# Integer formats of the ACP schema that the model generator does not know: plain ints.
_TYPE_MAPPINGS = [f"integer+{fmt}=integer" for fmt in ("uint8", "uint16", "uint32", "uint64")]
_NUMBERED = re.compile(r"^(\w*?[A-Za-z_])(\d+)$")
_MODEL_CONFIG = re.compile(r"^( +)model_config =", re.MULTILINE)
_FUTURE = re.compile(r"^(from __future__ import annotations\n)", re.MULTILINE)

# Types the model generator inlines (unions, constrained scalars: "collapsed root models") have
# no class to import. A def added for the generation only, with one required field per type,
# shows the exact annotation the generator uses for each; those become type aliases.
_CARRIER = "CodegenAliasCarrier"
_SAFE_KEY = re.compile(r"^[A-Za-z0-9_.-]+$")  # keys a $ref can name without escaping
_ALIAS_FIELD_ARGS = frozenset(
    {"discriminator", "ge", "gt", "le", "lt", "min_length", "max_length", "pattern", "multiple_of"}
)


def _options() -> dict[str, Any]:
    from datamodel_code_generator import (  # type: ignore[attr-defined]
        DataModelType,
        InputFileType,
        PythonVersion,
    )

    return {
        "input_file_type": InputFileType.JsonSchema,
        "output_model_type": DataModelType.PydanticV2BaseModel,
        "target_python_version": PythonVersion.PY_311,
        "disable_timestamp": True,
        "enable_version_header": False,
        "snake_case_field": True,
        "use_schema_description": True,
        "use_field_description": True,
        "field_constraints": True,
        "use_annotated": False,
        "use_title_as_name": True,
        "use_double_quotes": True,
        "use_standard_collections": True,
        "use_union_operator": True,
        "set_default_enum_member": True,
        "use_default_kwarg": True,
        "remove_special_field_name_prefix": True,
        "collapse_root_models": True,
        "base_class": "agentproto._runtime.base.Model",
        "type_mappings": _TYPE_MAPPINGS,
        "formatters": [],
    }


@dataclass(frozen=True)
class Prepared:
    """What the model generator is given for one unit: the normalised schema with the alias
    carrier added, as JSON (``source``) with the generator's keyword arguments (``options``),
    and what the rewrites after it need."""

    schema: dict[str, Any]
    suffixes: dict[str, str]
    carried: dict[str, str]
    carrier: str | None
    source: str
    options: dict[str, Any]


def prepare(unit: ModelUnit, root: Path) -> Prepared:
    """Normalise the unit's schema and add the carrier (``BuildError`` naming the file)."""
    try:
        schema, suffixes = normalise(
            unit.schema,
            root_name=unit.root_name,
            exclude=unit.exclude,
            open_catch_alls=unit.keep_unknown and unit.drop_catch_alls,
        )
    except BuildError as exc:
        shown = display_path(unit.schema_file, root)
        raise BuildError([p if p.file else replace(p, file=shown) for p in exc.problems]) from None
    carried, carrier = _add_alias_carrier(schema)
    options = {
        "input_filename": unit.schema_file.name,
        "custom_file_header": _header(unit.header),
        **_options(),
    }
    return Prepared(
        schema, suffixes, carried, carrier, json.dumps(schema, sort_keys=False), options
    )


def generate_models(unit: ModelUnit, root: Path) -> str:
    """The module text for one model unit (not yet formatted)."""
    from datamodel_code_generator import generate

    shown = display_path(unit.schema_file, root)
    prepared = prepare(unit, root)
    schema, suffixes = prepared.schema, prepared.suffixes
    carried, carrier = prepared.carried, prepared.carrier
    with warnings.catch_warnings():
        # Format warnings (uint16...) are handled by _TYPE_MAPPINGS; nothing else is expected.
        warnings.simplefilter("ignore")
        try:
            text = generate(prepared.source, **prepared.options)
        except BuildError:
            raise
        except Exception as exc:  # the model generator's own error, with our file name
            raise BuildError.single(shown, "", f"model generation failed: {exc}") from None
    assert isinstance(text, str)
    text = own_url_type(text)
    # The module's classes, read from the generator's text: the steps up to the renames only
    # drop classes, add imports and aliases, so they need no parse of their own.
    classes = _top_classes(text)
    # the root the schema had no class for goes with the carrier (one pass over the text)
    dropped = {DISCARDED_ROOT} if unit.root_name is None else set()
    if carrier is not None:
        text = _aliases_from_carrier(text, carried, carrier, schema, also_drop=dropped)
        dropped.add(carrier)
    elif dropped:
        text = _drop_classes(text, dropped)
    classes = {name: node for name, node in classes.items() if name not in dropped}
    duplicates = _duplicates(classes)
    if duplicates:
        # Keep the definition that comes first (later ones may be used before they are
        # defined, in a base class or a RootModel[...]), under the unnumbered name.
        order = {name: node.lineno for name, node in classes.items()}  # the order is the text's
        text = _drop_classes(text, _later_of_each(duplicates, order))
        text = rename_identifiers(text, duplicates.items())
        classes = _top_classes(text)
    renames = {**_merged_names(classes, suffixes), **dict(unit.renames)}
    if renames:
        text = rename_identifiers(text, renames.items())
    text = plain_fields(text)
    text = _annotated_config(text)
    _check_class_names([renames.get(name, name) for name in classes], schema, shown)
    text = enums_to_literals(text, keep_unknown=unit.keep_unknown)
    text = default_tags(text)
    if unit.keep_unknown:
        try:
            text = open_unions(text, closed=unit.transport_unions)
        except OpenTypesError as exc:
            raise BuildError.single(shown, "", f"unknown_values: keep: {exc}") from None
    try:
        text = dispatch_unions(text, keep_unknown=unit.keep_unknown)
    except OpenTypesError as exc:
        raise BuildError.single(shown, "", str(exc)) from None
    return text


_PYDANTIC_IMPORT = re.compile(r"^from pydantic import (?:\(([^)]*)\)|([^\n(]*))$", re.MULTILINE)


def own_url_type(text: str) -> str:
    """``AnyUrl`` (the model generator's type for ``"format": "uri"``) as the runtime's
    ``Url``: a ``str`` kept exactly as sent, its syntax checked (``AnyUrl`` rewrites what it
    reads: ``https://example.com`` comes back as ``https://example.com/``)."""
    if "AnyUrl" not in text:
        return text
    text = rename_names(text, {"AnyUrl": "Url"})

    def without_url(match: re.Match[str]) -> str:
        names = [n.strip() for n in (match.group(1) or match.group(2)).split(",")]
        kept = [n for n in names if n and n != "Url"]
        return f"from pydantic import {', '.join(kept)}" if kept else ""

    text = _PYDANTIC_IMPORT.sub(without_url, text, count=1)
    return insert_imports(text, "from agentproto._runtime.base import Url\n")


def _annotated_config(text: str) -> str:
    """``model_config: ClassVar[ConfigDict] = ...``, as the base class declares it (an
    unannotated override is an ambiguous type to pyright's completeness check)."""
    new, count = _MODEL_CONFIG.subn(r"\1model_config: ClassVar[ConfigDict] =", text)
    if not count:
        return new
    return _FUTURE.sub(r"\1\nfrom typing import ClassVar\n", new, count=1)


def plain_fields(text: str) -> str:
    """``Field(...)`` calls as type checkers read them with no plugin (pyright, mypy): a
    required field has no default argument at all (not ``...``), and a wire name is a
    ``validation_alias`` + ``serialization_alias`` pair, never ``alias``, which both checkers
    take as the constructor's keyword. The constructor then takes the snake_case names, input
    accepts both (``validate_by_name``) and output uses the wire names (``serialize_by_alias``)
    by the base model's config."""
    edits: list[tuple[int, int, str]] = []
    for at in code_names(text, "Field"):  # each call read alone: tokenizing all was slow
        tokens = code_tokens(text, at)
        next(tokens)
        opening = next(tokens, None)
        if opening is not None and opening.string == "(":
            _field_edits(_call(opening, tokens), edits)
    return apply(text, edits)


def _call(opening: Token, tokens: Iterator[Token]) -> list[tuple[Token, int]]:
    """A call's tokens from its ``(`` to its ``)``, each with its bracket depth (1 inside the
    call's own parentheses), and the three tokens after it (depth 0)."""
    call = [(opening, 1)]
    depth = 1
    for t in tokens:
        if t.kind == "op" and t.string in "([{":
            depth += 1
        elif t.kind == "op" and t.string in ")]}":
            depth -= 1
        call.append((t, max(depth, 1)))
        if depth == 0:
            break
    return call + [(t, 0) for t in itertools.islice(tokens, 3)]


def _field_edits(call: list[tuple[Token, int]], edits: list[tuple[int, int, str]]) -> None:
    """The edits of one ``Field(...)`` call: no ``...`` default, aliases as pairs."""
    tokens = [t for t, _ in call]
    if len(tokens) < 3:
        return
    first = tokens[1]
    if first.string == "...":  # required: drop the Ellipsis (and its comma)
        end = tokens[3].start if tokens[2].string == "," and len(tokens) > 3 else first.end
        edits.append((first.start, end, ""))
    for j, (t, depth) in enumerate(call):
        if (
            depth == 1
            and t.kind == "name"
            and t.string == "alias"
            and j + 2 < len(tokens)
            and tokens[j + 1].string == "="
            and tokens[j + 2].kind == "string"
        ):
            value = tokens[j + 2].string
            pair = f"validation_alias={value}, serialization_alias={value}"
            edits.append((t.start, tokens[j + 2].end, pair))


def _add_alias_carrier(schema: dict[str, Any]) -> tuple[dict[str, str], str | None]:
    """Add the carrier def to ``schema`` (normalised, ours to change); returns its field
    names mapped to the class name of the type each one refers to, and the carrier's name."""
    defs_key = "$defs" if "$defs" in schema else "definitions"
    defs = schema.get(defs_key)
    if not isinstance(defs, dict):
        return {}, None
    # Only types referenced already: an unreferenced one stays a class (a RootModel, if it is
    # one), and a reference from the carrier must not change that.
    referenced = _referenced(schema, f"#/{defs_key}/")
    carried: dict[str, str] = {}
    properties: dict[str, Any] = {}
    for index, (key, definition) in enumerate(defs.items()):
        if not isinstance(definition, dict) or not _SAFE_KEY.match(key) or key not in referenced:
            continue
        if _always_a_class(definition):  # nothing to learn, and a third of the generation
            continue
        title = definition.get("title")
        carried[f"f{index}"] = title if isinstance(title, str) else key
        properties[f"f{index}"] = {"$ref": f"#/{defs_key}/{key}"}
    if not properties:
        return {}, None
    carrier = _CARRIER
    while carrier in defs or carrier in carried.values():
        carrier += "X"
    defs[carrier] = {
        "title": carrier,
        "type": "object",
        "properties": properties,
        "required": list(properties),
    }
    return carried, carrier


# The keywords a plain object type may have beside its properties (an annotation keyword, or
# one that shapes a class): anything else may make the model generator inline it instead
# (``patternProperties`` beside empty ``properties`` becomes ``dict[constr(...), ...]``).
_PLAIN_OBJECT_KEYS = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "title",
        "description",
        "examples",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
    }
)


def _always_a_class(definition: dict[str, Any]) -> bool:
    """A plain object type with properties: the model generator always makes it a class of
    its own, never an inlined annotation, so the carrier has nothing to say about it (and a
    reference from the carrier cost the generator as much as the rest of the type's use).
    Anything less plain is carried, as before."""
    properties = definition.get("properties")
    return (
        definition.get("type") == "object"
        and isinstance(properties, dict)
        and bool(properties)
        and all(k in _PLAIN_OBJECT_KEYS or k.startswith("x-") for k in definition)
    )


def _referenced(node: Any, prefix: str) -> set[str]:
    """The keys of the definitions that some ``$ref`` in ``node`` points to."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith(prefix):
                found.add(ref[len(prefix) :].split("/")[0].replace("~1", "/").replace("~0", "~"))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def _aliases_from_carrier(
    text: str,
    carried: dict[str, str],
    carrier: str,
    schema: dict[str, Any],
    also_drop: Iterable[str] = (),
) -> str:
    """Replace the carrier class by a type alias for each carried type that has no class
    (and drop the classes ``also_drop`` names)."""
    tree = parsed.tree(text)
    classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    # Names the module binds already (``Literal`` from typing, when a type is called Literal
    # and its class LiteralModel): an alias must never shadow one.
    bound = classes | {
        (a.asname or a.name).split(".")[0]
        for n in tree.body
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    bound |= {"Annotated", "TypeAlias", "Field"}
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == carrier), None)
    text = _drop_classes(text, {carrier, *also_drop})
    if node is None:
        return text
    defs_key = "$defs" if "$defs" in schema else "definitions"
    descriptions = {
        (d.get("title") if isinstance(d.get("title"), str) else k): d.get("description")
        for k, d in schema[defs_key].items()
        if isinstance(d, dict)
    }
    aliases = []
    for item in node.body:
        if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
            continue
        name = carried.get(item.target.id)
        if name is None or name in bound:
            continue
        if isinstance(item.annotation, ast.Name) and item.annotation.id in classes:
            continue  # the type has a class, under another name
        annotation = parsed.unparse(item.annotation)
        arguments = []
        call = item.value
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "Field"
        ):
            arguments = [
                f"{k.arg}={parsed.unparse(k.value)}"
                for k in call.keywords
                if k.arg in _ALIAS_FIELD_ARGS
            ]
        value = (
            f"Annotated[{annotation}, Field({', '.join(arguments)})]" if arguments else annotation
        )
        alias = f"\n\n{name}: TypeAlias = {value}\n"
        description = descriptions.get(name)
        if isinstance(description, str) and description.strip():
            alias += f'"""{docline(description)}"""\n'
        aliases.append(alias)
    if not aliases:
        return text
    imports = "from typing import Annotated, TypeAlias\n\nfrom pydantic import Field\n"
    text = insert_imports(text, imports)
    return text.rstrip("\n") + "\n" + "".join(aliases)


def _header(line: str) -> str:
    return f'"""{line}. Do not edit: run `codegen build`."""'


def _drop_classes(text: str, names: set[str]) -> str:
    """Remove top-level classes (and their model_rebuild calls) from module text."""
    tree = parsed.tree(text)
    # Lines as the parser counts them: str.splitlines also breaks at \x1c-\x1e, \x85, \u2028...
    lines = io.StringIO(text, newline="").readlines()
    spans = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in names:
            spans.append((node.lineno - 1 - len(node.decorator_list), node.end_lineno or 0))
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and isinstance(node.value.func.value, ast.Name)
            and node.value.func.value.id in names
        ):
            spans.append((node.lineno - 1, node.end_lineno or 0))
    for start, end in sorted(spans, reverse=True):
        del lines[start:end]
    return "".join(lines)


def _later_of_each(duplicates: dict[str, str], lines: dict[str, int]) -> set[str]:
    """The class to drop of each duplicate pair: the later of the two, taken pair by pair in
    order, as if each pair were dropped and renamed before the next is looked at (a later pair
    may meet a class an earlier one renamed). Names are those of the text ``lines`` is of."""
    where = {name: (line, name) for name, line in lines.items()}  # current name -> (line, class)
    dropped = set()
    for duplicate, original in duplicates.items():
        _, second = sorted((duplicate, original), key=lambda n: where[n][0])
        dropped.add(where.pop(second)[1])
        if duplicate in where:
            where[original] = where.pop(duplicate)
    return dropped


def _top_classes(text: str) -> dict[str, ast.ClassDef]:
    """The module's top-level classes by name, in order (nodes of the shared tree: read only)."""
    return {n.name: n for n in parsed.tree(text).body if isinstance(n, ast.ClassDef)}


def class_names(text: str) -> list[str]:
    return list(_top_classes(text))


def _lines(text: str) -> dict[str, int]:
    return {name: node.lineno for name, node in _top_classes(text).items()}


def duplicate_classes(text: str) -> dict[str, str]:
    """``X1`` that is ``X`` again, body and bases alike (the generator emits some merged
    variants twice): duplicate name → original name."""
    return _duplicates(_top_classes(text))


def _duplicates(classes: dict[str, ast.ClassDef]) -> dict[str, str]:
    def shape(node: ast.ClassDef) -> str:
        return ast.dump(ast.Tuple(elts=node.bases, ctx=ast.Load())) + ast.dump(
            ast.Module(node.body, [])
        )

    found = {}
    for name in classes:
        match = _NUMBERED.match(name)
        if match and match.group(1) in classes:
            if shape(classes[name]) == shape(classes[match.group(1)]):
                found[name] = match.group(1)
    return found


def _fields(node: ast.ClassDef) -> set[str]:
    return {
        n.target.id
        for n in node.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }


def merged_class_names(text: str, suffixes: dict[str, str]) -> dict[str, str]:
    """Names for the classes the model generator numbers when it merges schemas.

    Two shapes occur, both from a tagged variant whose schema is itself "properties + a union":

    - ``X1`` holds the fields shared by the merged variants, which inherit ``(BaseVariant, X1)``:
      ``StateUpdateIdle1`` → ``StateUpdateIdleFields``; ``StateUpdateIdle2(IdleStateUpdateEndTurn,
      StateUpdateIdle1)`` → ``StateUpdateIdleEndTurn``.
    - ``X`` is a variant alone and ``X1`` the same variant with its parent's properties, the
      type users meet: ``X1`` → ``X`` and ``X`` → ``XFields``.

    Names come from titles and tags, never from positions.
    """
    return _merged_names(_top_classes(text), suffixes)


def _merged_names(classes: dict[str, ast.ClassDef], suffixes: dict[str, str]) -> dict[str, str]:
    renames: dict[str, str] = {}
    bases_of = {n: [b.id for b in c.bases if isinstance(b, ast.Name)] for n, c in classes.items()}

    def mixins(first: str) -> list[str]:  # the variant bases merged with ``first``
        return sorted(b[0] for b in bases_of.values() if len(b) == 2 and b[1] == first)

    for name, node in classes.items():
        match = _NUMBERED.match(name)
        if not match:
            continue
        stem = match.group(1)
        bases = bases_of[name]
        merged_into = any(name in b[1:] for other, b in bases_of.items() if other != name)
        plain = not any(b in classes for b in bases)
        if f"{stem}1" == name and merged_into and plain:
            renames[name] = f"{stem}Fields"
        elif bases and bases[1:] == [f"{stem}1"] and bases[0] in classes:
            suffix = suffixes.get(bases[0]) or _distinct_part(bases[0], mixins(f"{stem}1"))
            if suffix:
                renames[name] = stem + suffix
        elif stem not in classes:
            continue
        elif (
            f"{stem}1" == name
            and plain
            and not any(b in classes for b in bases_of[stem])
            and _fields(classes[stem]) < _fields(node)
            and f"{stem}Fields" not in classes
        ):
            renames[name] = stem
            renames[stem] = f"{stem}Fields"
    taken = set(classes) - set(renames)
    return {old: new for old, new in renames.items() if new not in taken}


def _distinct_part(name: str, siblings: list[str]) -> str:
    """What sets ``name`` apart from its sibling mixins: the rest after the prefix they all
    share (``ElicitationFormModeSession`` among ``...Request`` -> ``Session``)."""
    if len(siblings) < 2:
        return ""
    prefix = siblings[0]
    for other in siblings[1:]:
        while not other.startswith(prefix):
            prefix = prefix[:-1]
    while prefix and not (prefix[-1].islower() and name[len(prefix) : len(prefix) + 1].isupper()):
        prefix = prefix[:-1]  # back to a word boundary
    return name[len(prefix) :]


def _titles(node: Any) -> set[str]:
    """Every title in a (normalised) schema: the class names the normaliser chose."""
    if isinstance(node, list):
        return set().union(*map(_titles, node)) if node else set()
    if not isinstance(node, dict):
        return set()
    found = set().union(*map(_titles, node.values())) if node else set()
    if isinstance(node.get("title"), str):
        found.add(node["title"])
    return found


def _check_names(text: str, schema: dict[str, Any], shown: str) -> None:
    """No positional name (``Foo1``, with or without a ``Foo`` beside it) may reach the public
    API.

    A name that is some schema's own title (``Pwned0`` from a title ending in a digit) is
    not positional, however it ends."""
    _check_class_names(class_names(text), schema, shown)


def _check_class_names(names: list[str], schema: dict[str, Any], shown: str) -> None:
    keys = set(schema.get("$defs", schema.get("definitions", {})))
    chosen = _titles(schema) | keys
    numbered = sorted(n for n in names if _NUMBERED.match(n) and n not in chosen)
    if numbered:
        raise BuildError.single(
            shown,
            "",
            f"positional class names {numbered} would reach the public API; give their schemas "
            "a title, or map them in the protocol's rename file",
        )


def rename_identifiers(text: str, renames: Iterable[tuple[str, str]]) -> str:
    """Rename NAME tokens only (never text inside strings or comments)."""
    return rename_names(text, dict(renames))
