"""The build's fast paths give what the slow ones gave (issue 26).

- ``textedit.code_tokens`` (one regular expression) reads the tokens tokenize reads, on every
  Python file of the repository and on snippets that trip lexers up;
- ``rename_names`` renames what the tokenize round trip renamed, nothing in strings or comments;
- ``parsed.tree`` shares one tree per text, holds few, and forgets them all at a build's end;
- the duplicate-class pass drops, in one go, the classes the pair-by-pair loop dropped;
- ``insert_imports`` finds its place from a module's first lines as from the whole module;
- the compiled 2020-12 meta-schema check agrees with jsonschema (real schemas, edge cases, and
  random breakages of real schemas);
- a build leaves the cyclic collector's thresholds as it found them;
- the client import check's line-by-line reading finds the imports the whole tree holds;
- ``plain_fields`` rewrites each ``Field(`` call read alone as the whole token list did;
- ``parsed.walk`` visits what ``ast.walk`` visits, in its order.
- ``parsed.unparse`` writes what ``ast.unparse`` writes, for every expression of the
  repository and of snippets at the edges of its direct path (quotes, precedence, tuples).
- the alias carrier leaves out only plain object types: a module is the same as with every
  referenced type carried, and an object the generator inlines keeps its alias.
"""

from __future__ import annotations

import ast
import copy
import gc
import io
import json
import tokenize
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codegen import parsed
from codegen.errors import BuildError
from codegen.inputs.metaschema import is_valid_schema
from codegen.models.generate import (
    _drop_classes,
    _later_of_each,
    _lines,
    duplicate_classes,
    plain_fields,
)
from codegen.package.render import _all_imports, _models_imports
from codegen.pipeline import Layout, build
from codegen.textedit import _rename_tokens, code_tokens, insert_imports, rename_names
from tests.conftest import GENERATED, ROOT

_KINDS = {
    tokenize.NAME: "name",
    tokenize.OP: "op",
    tokenize.STRING: "string",
    tokenize.NUMBER: "number",
    tokenize.COMMENT: "comment",
    tokenize.NL: "nl",
    tokenize.NEWLINE: "nl",
}
SNIPPETS = [
    "x = rb'a\\'b' + Rb\"c\" + f'{y!r:>{w}}' + u'z' + BR'''q''' + fr\"\"\"{a}\n\"\"\"\n",
    "s = '''one\n'two' ''three'' \\'''\n'''\nt = \"\\\n\"\n",
    "n = 1e-5 + 0x1F + 1_000j + .5 + 5. + 0o17 + 0b1 + 1.5e100.real\n",
    "def f(*a, **k) -> None:  # a comment with 'quotes' and Foo\n    ...\n",
    "x = (1 +\n     2)  \\\n  # trailing\ny = a if b else c; z = a ** -b // c @ d\n",
    "x = a == b != c <= d >= e; y = a << b >> c; x **= 2; x //= 3; x >>= 1; x <<= 1\n",
    "if (n := 10) > 5:\n    pass\nlambda: 0\nx = [*a, *b]\n",
    # escapes where a string's body ends, quotes that do not end it, # inside strings
    r"""a = '\\' + "\\\\" + '\'' + "\"" + '#' + "# x"  # c""" + "\n",
    r'''b = """q "r" ""s"" \"""" + 'a\\' + """"x" """''' + "\n",
    "buf\"x\"\nub = 1\nclass Foo1(Foo, metaclass=M):\n    '''Foo1 in a docstring'''\n",
]


def reference_tokens(text: str) -> list[tuple[str, str]]:
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in _KINDS and not (tok.type == tokenize.NEWLINE and tok.string == ""):
            out.append((_KINDS[tok.type], tok.string))
    return out


def reference_rename(text: str, mapping: dict[str, str]) -> str:
    """The rename as it was: a tokenize round trip."""
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME and tok.string in mapping:
            tok = tok._replace(string=mapping[tok.string])
        out.append(tok)
    return tokenize.untokenize(out)


def python_files() -> list[Path]:
    roots = (ROOT / "codegen", ROOT / "templates", GENERATED / "agentproto")
    return sorted(p for root in roots for p in root.rglob("*.py") if "fixtures" not in p.parts)


def test_code_tokens_are_tokenizes_tokens_on_every_file_and_snippet() -> None:
    texts = [p.read_text(encoding="utf-8") for p in python_files()] + SNIPPETS
    assert len(texts) > 100
    for text in texts:
        mine = list(code_tokens(text))
        assert [(t.kind, t.string) for t in mine] == reference_tokens(text)
        assert all(text[t.start : t.end] == t.string for t in mine)


def test_rename_is_the_tokenize_round_trip_and_leaves_strings_and_comments() -> None:
    snippet = SNIPPETS[-1]
    renamed = rename_names(snippet, {"Foo1": "Foo", "Foo": "FooBase", "ub": "u2"})
    assert renamed == reference_rename(snippet, {"Foo1": "Foo", "Foo": "FooBase", "ub": "u2"})
    assert "class Foo(FooBase, metaclass=M)" in renamed
    assert "'''Foo1 in a docstring'''" in renamed and 'buf"x"' in renamed and "u2 = 1" in renamed
    models = (GENERATED / "agentproto" / "acp" / "models.py").read_text(encoding="utf-8")
    classes = [n.name for n in ast.parse(models).body if isinstance(n, ast.ClassDef)]
    mapping = {name: f"{name}Renamed" for name in classes[::3]}
    assert rename_names(models, mapping) == reference_rename(models, mapping)
    assert rename_names(models, {}) is models


def test_rename_agrees_with_the_round_trip_on_every_file() -> None:
    """Names found by search, kept outside strings and comments, are the name tokens the
    token-by-token rename (the round trip's, above) renames: every file of the generator,
    the templates and the package, with a mapping of every fifth name it holds (keywords,
    prefixes of others, names in docstrings too)."""
    renamed = 0
    for text in [p.read_text(encoding="utf-8") for p in python_files()] + SNIPPETS:
        names = sorted({t.string for t in code_tokens(text) if t.kind == "name"})
        mapping = {n: f"{n}_r" for n in names[::5] if not n[0].isdigit()}
        mine = rename_names(text, mapping)
        assert mine == _rename_tokens(text, mapping)
        renamed += mine != text
    assert renamed > 100
    number = "x = 1.e5 + a.e5\n"  # a dot after a digit: the token-by-token rename
    assert rename_names(number, {"e5": "E"}) == "x = 1.e5 + a.E\n"


def test_one_tree_per_text_few_kept_and_none_after_a_build(project: Layout) -> None:
    parsed.clear()
    first = parsed.tree("x = 1\n")
    assert parsed.tree("x = 1\n") is first
    assert parsed.tree("x = 2\n") is not first
    for i in range(20):
        parsed.tree(f"y = {i}\n")
    assert len(parsed._trees) <= 8
    assert parsed.tree("x = 1\n") is not first  # evicted, parsed again

    calls: list[str] = []

    @parsed.memo
    def names(text: str) -> tuple[str, ...]:
        calls.append(text)
        return tuple(n.id for n in ast.walk(parsed.tree(text)) if isinstance(n, ast.Name))

    assert names("a = b\n") == ("a", "b") and names("a = b\n") == ("a", "b")
    assert calls == ["a = b\n"]
    with pytest.raises(BuildError):  # a build clears the cache, also when it fails
        (project.schemas / "aap" / "spec.yaml").write_text("protocol: [\n")
        build(project)
    assert not parsed._trees
    names("a = b\n")
    assert calls == ["a = b\n", "a = b\n"]


MODULE_WITH_DUPLICATES = '''"""Generated."""

from __future__ import annotations


class Item1(Model):
    a: int


class Item(Model):
    a: int


class Item2(Model):
    a: int


class Other(Model):
    item: Item1 | Item | Item2
    more: Thing3


class Thing3(Model):
    b: str


class Thing(Model):
    b: str


Item1.model_rebuild()
Item.model_rebuild()
Thing.model_rebuild()
'''


def test_duplicates_dropped_at_once_as_pair_by_pair() -> None:
    text = MODULE_WITH_DUPLICATES
    duplicates = duplicate_classes(text)
    assert duplicates == {"Item1": "Item", "Item2": "Item", "Thing3": "Thing"}
    old = text
    for duplicate, original in duplicates.items():  # the loop this replaced
        _, second = sorted((duplicate, original), key=_lines(old).__getitem__)
        old = _drop_classes(old, {second})
        old = reference_rename(old, {duplicate: original})
    new = rename_names(_drop_classes(text, _later_of_each(duplicates, _lines(text))), duplicates)
    assert new == old
    assert [n.name for n in ast.parse(new).body if isinstance(n, ast.ClassDef)] == [
        "Item",
        "Other",
        "Thing",
    ]


@pytest.mark.parametrize(
    "head",
    [
        '"""One line."""\n\nfrom __future__ import annotations\n',
        '"""' + "long\n" * 60 + '"""\nfrom __future__ import annotations\n',
        '"""' + "longer\n" * 300 + '"""\nfrom __future__ import annotations\n',
        '"""Doc."""\nfrom __future__ import annotations\nx = (\n' + "    1,\n" * 90 + ")\n",
        "from __future__ import annotations\n",
        "import os\n",
        '"""Doc."""\nx = (\n' + "    1,\n" * 50 + ")\n",
        "",
    ],
)
def test_imports_go_where_the_whole_module_says(head: str) -> None:
    text = head + "\n".join(f"X{i} = {i}" for i in range(80)) + "\n"
    body = ast.parse(text).body
    after = 0
    for statement in body[:2]:
        docstring = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        future = isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
        if not (docstring or future):
            break
        after = statement.end_lineno or 0
    lines = io.StringIO(text, newline="").readlines()
    expected = "".join(lines[:after]) + "import sys\n" + "".join(lines[after:])
    assert insert_imports(text, "import sys\n") == expected


def _model_imports(nodes: list[ast.ImportFrom]) -> list[tuple[str, list[str]]]:
    return [
        (n.module or "", [a.name for a in n.names])
        for n in nodes
        if (n.module or "").endswith(".models")
    ]


MODEL_IMPORT_EDGES = [
    "from agentproto.acp.models import A, B\n",
    "from agentproto.acp.models import (\n    A,  # a comment\n    B,\n)\n",
    "if TYPE_CHECKING:\n    from agentproto.acp.v2.models import (\n        C,\n    )\n",
    "from agentproto.acp.models import A as Z\n",
    "from agentproto.acp.models import A, \\\n    B\n",
    '"""Usage:\n\nfrom agentproto.acp.models import Nothing\n"""\n'
    "from agentproto.aap.models import D\n",
    "x = 1; from agentproto.acp.models import E\n",
    "from .models import F\nfrom agentproto.acp.models import G\n",
]


@pytest.mark.parametrize("text", MODEL_IMPORT_EDGES)
def test_model_imports_are_those_the_whole_tree_holds(text: str) -> None:
    """The import check reads the ``....models`` imports from their lines alone; what it finds
    is what the whole module's tree holds, edge cases included (an import's text in a
    docstring is not one; one after ``;`` is not read, as no template writes one)."""
    whole = _model_imports(_all_imports(ast.parse(text).body))
    found = _model_imports(_models_imports(text))
    if text.startswith("x = 1;"):
        assert found == [] and whole == [("agentproto.acp.models", ["E"])]
    else:
        assert found == whole


def test_model_imports_of_every_client_module_are_those_the_whole_tree_holds() -> None:
    modules = [
        p for p in (GENERATED / "agentproto").rglob("*.py") if not p.name.endswith("models.py")
    ]
    read = 0
    for path in modules:
        text = path.read_text(encoding="utf-8")
        whole = _model_imports(_all_imports(ast.parse(text).body))
        assert _model_imports(_models_imports(text)) == whole, path
        read += bool(whole)
    assert read >= 20  # the check read real imports


META = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)
SCHEMAS = [
    ROOT / "schemas" / "acp" / "schema.v1.json",
    ROOT / "schemas" / "aap" / "aap.schema.json",
    ROOT / "schemas" / "skills" / "skills.schema.json",
    ROOT / "schemas" / "ai_protocol" / "ai-protocol.v1.1.schema.json",
    ROOT / "codegen" / "data" / "spec_table.schema.json",
]
EDGES: list[Any] = [
    {"minLength": True},
    {"minLength": 1.0},
    {"minLength": 1.5},
    {"minLength": -1},
    {"minimum": True},
    {"required": ["a", "a"]},
    {"required": ["a", 1]},
    {"type": []},
    {"type": ["string", "string"]},
    {"type": "strin"},
    {"enum": 5},
    {"enum": []},
    {"properties": {"a": 5}},
    {"properties": {"a": True}},
    {"$defs": {"a": {"type": 1}}},
    {"definitions": {"a": {"type": 1}}},
    {"dependencies": {"a": ["b", "b"]}},
    {"$id": "a#b"},
    {"$anchor": "1a"},
    {"pattern": "("},
    {"items": [{}]},
    {"prefixItems": []},
    {"allOf": []},
    {"$ref": 5},
    {"multipleOf": 0},
    {"exclusiveMinimum": True},
    {"$vocabulary": {"a": 1}},
    {"contentSchema": {"type": 2}},
    {"examples": {}},
    {"propertyNames": {"minLength": -1}},
    {"x-anything": {"type": 1}},
    {"maxContains": 0},
    {"minLength": 10**30},
    5,
    True,
    [],
]


def test_meta_schema_check_agrees_with_jsonschema_on_real_schemas_and_edges() -> None:
    for path in SCHEMAS:
        document = json.loads(path.read_text(encoding="utf-8"))
        assert is_valid_schema(document) and META.is_valid(document)
    for document in EDGES:
        assert is_valid_schema(document) == META.is_valid(document), document


def _nodes(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _nodes(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _nodes(value, (*path, index))
    return found


AAP = json.loads((ROOT / "schemas" / "aap" / "aap.schema.json").read_text(encoding="utf-8"))
AAP_NODES = _nodes(AAP)[1:]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=5,
) | st.sampled_from(["object", "string", "#/$defs/Nope", "^(", [], {}, ["a", "a"]])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(AAP_NODES), JSON_VALUES), min_size=1, max_size=3))
def test_meta_schema_check_agrees_with_jsonschema_on_broken_schemas(
    breaks: list[tuple[tuple[Any, ...], Any]],
) -> None:
    document = copy.deepcopy(AAP)
    for path, value in breaks:
        node = document
        for key in path[:-1]:
            if not isinstance(node, dict | list):
                break
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                break
        else:
            if isinstance(node, dict) or (isinstance(node, list) and path[-1] < len(node)):
                node[path[-1]] = value
    before = json.dumps(document, sort_keys=True)
    assert is_valid_schema(document) == META.is_valid(document)
    assert json.dumps(document, sort_keys=True) == before  # no default written into it


def test_a_build_restores_the_collector_thresholds(project: Layout) -> None:
    before = gc.get_threshold()
    (project.schemas / "aap" / "spec.yaml").write_text("protocol: [\n")
    with pytest.raises(BuildError):
        build(project)
    assert gc.get_threshold() == before


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            'a: int = Field(..., alias="A")\n',
            'a: int = Field(validation_alias="A", serialization_alias="A")\n',
        ),
        ("c: int = Field(...)\n", "c: int = Field()\n"),
        (
            "b: str = Field('x', alias='b-b', description=\"Field(alias='c')\")"
            "  # Field(..., alias='d')\n",
            "b: str = Field('x', validation_alias='b-b', serialization_alias='b-b', "
            "description=\"Field(alias='c')\")  # Field(..., alias='d')\n",
        ),
        (
            'd: list[int] = Field(default_factory=lambda: Field(..., alias="e"), alias="f")\n',
            'd: list[int] = Field(default_factory=lambda: Field(validation_alias="e", '
            'serialization_alias="e"), validation_alias="f", serialization_alias="f")\n',
        ),
        ('e = MyField(..., alias="g")\nf = Field\n', 'e = MyField(..., alias="g")\nf = Field\n'),
    ],
)
def test_plain_fields_reads_each_field_call_alone(line: str, expected: str) -> None:
    """Each ``Field(`` in code is read from its own tokens: strings, comments and other
    names holding ``Field`` are left alone, nested calls are each rewritten once."""
    assert plain_fields(line) == expected


def test_walk_is_ast_walk_in_its_order() -> None:
    for path in python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert [id(n) for n in parsed.walk(tree)] == [id(n) for n in ast.walk(tree)], path


UNPARSE_SNIPPETS = [
    "a | (b | c)",
    "(a | b) | c",
    "a | b.c[d, e] | None",
    "(a or b) | c",
    "a | (b if c else d)",
    "x[()]",
    "x[(a,)]",
    "x[a, (b, c)]",
    "x[a:b]",
    "x[-1]",
    "Literal['it''s', \"say \\\"hi\\\"\", 'tab\\t', u'u', b'b', 'é', '\\u2028']",
    "[a, [b | c], *d]",
    "f(a)[b]",
    "(a, b)[0]",
    "a.b.c | 1 | 1.5 | True | None | ... | -2",
    "'x'.join",
    "x[a | b]",
    "Callable[[int, str], Awaitable[None]]",
    "[]",
    "dict[str, 'Forward | Ref']",
]


def test_unparse_is_ast_unparse() -> None:
    nodes = [ast.parse(text, mode="eval").body for text in UNPARSE_SNIPPETS]
    for path in python_files():
        nodes += [
            n
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.expr)
        ]
    direct = 0
    for node in nodes:
        assert parsed.unparse(node) == ast.unparse(node)
        direct += parsed._simple(node) is not None
    assert direct > len(nodes) // 2  # the direct path is the common one, not a rare one


def test_the_alias_carrier_leaves_out_only_what_is_always_a_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain object types are not carried (the model generator always makes them classes);
    a module is the same as when every referenced type is carried, and a type the generator
    inlines still gets its alias (an object of ``patternProperties`` is a ``dict[...]``)."""
    from codegen.ir import ModelUnit
    from codegen.models import generate

    defs = {
        "Plain": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        "Extra": {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "additionalProperties": {"type": "integer"},
            "x-note": "kept",
        },
        "Empty": {"type": "object", "properties": {}},
        "Pattern": {"type": "object", "properties": {}, "patternProperties": {"^x": {}}},
        "Either": {"anyOf": [{"$ref": "#/$defs/Plain"}, {"type": "string"}]},
        "Holder": {
            "type": "object",
            "properties": {
                k.lower(): {"$ref": f"#/$defs/{k}"}
                for k in ("Plain", "Extra", "Empty", "Pattern", "Either")
            },
        },
    }
    schema = {
        "title": "Root",
        "type": "object",
        "properties": {"h": {"$ref": "#/$defs/Holder"}},
        "$defs": defs,
    }
    file = tmp_path / "schema.json"
    file.write_text(json.dumps(schema))
    unit = ModelUnit("x/models.py", file, schema, "Root", (), (), "test")
    assert [k for k, d in defs.items() if generate._always_a_class(d)] == [
        "Plain",
        "Extra",
        "Holder",
    ]
    skipping = generate.generate_models(unit, tmp_path)
    monkeypatch.setattr(generate, "_always_a_class", lambda definition: False)
    assert generate.generate_models(unit, tmp_path) == skipping
    assert "\nPattern: TypeAlias = dict[" in skipping and "\nEither: TypeAlias = " in skipping
    assert "\nclass Plain(" in skipping and "\nclass Extra(" in skipping
