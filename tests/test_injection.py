"""Nothing in schema text can inject code into a generated file.

Hostile strings go everywhere a schema carries text (type names, titles, descriptions, property
names, enum values, defaults, patterns) and into spec-table text. Every generated module must
compile, import, and have exactly the shape of a models module: a docstring, imports, classes
made of docstrings, annotated fields and config, and nothing that runs.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

from agentproto._runtime.base import known_values
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from codegen.clients.params import render_params
from codegen.errors import BuildError
from codegen.ir import ModelUnit
from codegen.models.generate import generate_models
from codegen.package.output import format_text
from codegen.package.render import docline, environment, pyrepr

NASTY = [
    '"',
    "'",
    '"""',
    "'''",
    "\\",
    "\\n",
    "\n",
    "\r\n",
    "\t",
    "\x00",
    "#",
    "{{",
    "}}",
    "{%",
    "__import__('os').system('echo pwned')",
    "import os",
    "class",
    "def",
    "lambda",
    "None",
    "__init__",
    "__class__",
    "__dict__",
    "model_config",
    "root",
    "self",
    "\u202e",
    "é",
    "ß",
    "\U0001d518\U0001d52b\U0001d526",
    "\u00a0",
    "0day",
    "-",
    " ",
    "",
    "r'",
    'b"',
    "f'{x}'",
    '"""\nimport os\n"""',
]
hostile = st.lists(st.sampled_from(NASTY) | st.text(max_size=6), min_size=1, max_size=5).map(
    "".join
)
ALLOWED_CALLS = {"Field", "ConfigDict", "not_one_of"}
TYPE_EXPRESSION_NODES = (
    ast.Name,
    ast.Load,
    ast.BinOp,
    ast.BitOr,
    ast.Subscript,
    ast.Tuple,
    ast.Constant,
    ast.Call,  # Field(...) only: checked with every call below
    ast.keyword,
    ast.UnaryOp,
    ast.USub,
)


def schema_for(names: list[str], text: str, values: list[str]) -> dict[str, Any]:
    defs: dict[str, Any] = {}
    for index, name in enumerate(names):
        defs[name] = {
            "title": text if index == 0 else name,
            "description": text,
            "type": "object",
            "properties": {
                text or "p": {"type": "string", "description": text, "default": text},
                "pattern_field": {"type": "string", "pattern": re.escape(text)},
                "choice": {"type": "string", "enum": values, "description": text},
            },
        }
    # A union, referenced by a class: it comes out as a type alias, with the text in its
    # docstring.
    for side in ("Left", "Right"):
        defs[f"Codegen{side}"] = {
            "type": "object",
            "description": text,
            "properties": {side.lower(): {"type": "integer"}},
            "required": [side.lower()],
        }
    defs["CodegenEither"] = {
        "description": text,
        "anyOf": [{"$ref": "#/$defs/CodegenLeft"}, {"$ref": "#/$defs/CodegenRight"}],
    }
    defs["CodegenHolder"] = {
        "type": "object",
        "properties": {"either": {"$ref": "#/$defs/CodegenEither"}},
    }
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}


def check_shape(tree: ast.Module) -> list[str]:
    """The module does nothing but define classes and type aliases; returns the class names."""
    body = list(tree.body)
    assert isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    classes = []
    for node in body[1:]:
        if isinstance(node, ast.ImportFrom | ast.Import):
            continue
        if isinstance(node, ast.ClassDef):
            classes.append(node.name)
            assert not node.decorator_list
            for item in node.body:
                assert isinstance(item, ast.Expr | ast.Assign | ast.AnnAssign), ast.dump(item)
                if isinstance(item, ast.Expr):
                    assert isinstance(item.value, ast.Constant) and isinstance(
                        item.value.value, str
                    )
            continue
        if isinstance(node, ast.AnnAssign):
            # A type alias: `Name: TypeAlias = <type expression>`, nothing executable in it.
            assert isinstance(node.target, ast.Name), ast.dump(node)
            assert isinstance(node.annotation, ast.Name) and node.annotation.id == "TypeAlias"
            assert node.value is not None
            for part in ast.walk(node.value):
                assert isinstance(part, TYPE_EXPRESSION_NODES), ast.dump(part)
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            assert isinstance(node.value.value, str)  # an alias's docstring
            continue
        # model_rebuild() calls for forward references are the only statements allowed.
        assert isinstance(node, ast.Expr), ast.dump(node)
        call = node.value
        assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
        assert call.func.attr == "model_rebuild" and not call.args
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            assert name in ALLOWED_CALLS | {"model_rebuild"}, ast.dump(node)
        assert not isinstance(node, ast.Lambda | ast.FunctionDef | ast.AsyncFunctionDef)
    return classes


def import_text(text: str, tmp: Path, name: str) -> Any:
    path = tmp / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    names=st.lists(hostile, min_size=1, max_size=3, unique=True),
    text=hostile,
    values=st.lists(hostile, min_size=1, max_size=4, unique=True),
)
# Found by this test: a definition named after a keyword once came out as `None1`; a title
# ending in a digit next to the same title without it was once taken for a positional name;
# a \x1e in an enum value (str.splitlines breaks there, the parser does not) once made the
# removal of a class cut the wrong lines.
@example(names=['"', "None"], text='"', values=['"'])
@example(names=['"'], text="#", values=["\x1e"])
@example(
    names=['"', "__import__('os').system('echo pwned')0"],
    text="__import__('os').system('echo pwned')",
    values=['"'],
)
def test_hostile_schema_text_stays_data(
    names: list[str], text: str, values: list[str], tmp_path: Path
) -> None:
    schema = schema_for(names, text, values)
    path = tmp_path / "hostile.schema.json"
    path.write_text(json.dumps(schema))
    unit = ModelUnit(
        module="hostile/models.py",
        schema_file=path,
        schema=schema,
        root_name=None,
        exclude=(),
        renames=(),
        header="Generated from a hostile schema",
        keep_unknown=True,  # the open forms too: enum aliases admit UnknownValue
    )
    try:
        source = generate_models(unit, tmp_path)
    except BuildError as exc:
        # Two hostile names that make one class name: a clear error, never `Foo1`.
        for problem in exc.problems:
            assert problem.file == "hostile.schema.json"
            assert problem.pointer.startswith("/$defs/") and "distinct title" in problem.reason
        return
    tree = ast.parse(source)
    classes = check_shape(tree)
    # One class per definition, and the union's; each definition's inline enum is an alias.
    assert len(classes) == len(names) + 3, classes
    assert "CodegenEither" not in classes
    module = import_text(source, tmp_path, f"hostile_{abs(hash(source))}")
    exported = {k for k, v in vars(module).items() if isinstance(v, type) and k in classes}
    assert exported == set(classes)
    either = TypeAdapter(module.CodegenEither).validate_python({"right": 2})
    assert isinstance(either, module.CodegenRight) and either.right == 2
    assert isinstance(module.CodegenHolder(either={"left": 1}).either, module.CodegenLeft)
    # The text survives as data: every enum value round-trips, and nothing else is known.
    aliases = [
        n.target.id
        for n in tree.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    ]
    enums = [getattr(module, a) for a in aliases if a != "CodegenEither"]
    assert len(enums) == len(names)
    assert all(list(known_values(e)) == values for e in enums)


@given(text=hostile)
def test_template_filters_keep_text_inert(text: str) -> None:
    env = environment(Path(__file__).parent)
    rendered = env.from_string('"""{{ t | docline }}"""\nVALUE = {{ t | pyrepr }}\n').render(t=text)
    tree = ast.parse(rendered)
    assert len(tree.body) == 2
    value = tree.body[1]
    assert isinstance(value, ast.Assign)
    assert ast.literal_eval(value.value) == text
    assert pyrepr(text) == repr(text)
    assert "\n" not in docline(text)


def test_a_known_hostile_schema_generates_fully(tmp_path: Path) -> None:
    """A fixed worst case that must not take the BuildError exit of the property test."""
    names = ["class", "__import__('os').system('x')", 'Ünï"""code']
    text = '"""\nimport os\nos.system("echo pwned")\n"""\\'
    values = ["'", '"""', "a\nb", "import os"]
    schema = schema_for(names, text, values)
    path = tmp_path / "hostile.schema.json"
    path.write_text(json.dumps(schema))
    unit = ModelUnit(
        "h/models.py", path, schema, None, (), (), "Generated from a hostile schema", True
    )
    source = generate_models(unit, tmp_path)
    classes = check_shape(ast.parse(source))
    assert len(classes) == 6, classes  # the three definitions, Left, Right and Holder
    module = import_text(source, tmp_path, "hostile_known")
    assert "pwned" not in "".join(dir(module))
    # The dict forms of the same models (what the typed client calls accept): TypedDicts whose
    # keys are exactly the hostile wire names, in a module that only defines them.
    params_source = format_text(render_params(source, "hostile_known", text))
    calls = [n for n in ast.walk(ast.parse(params_source)) if isinstance(n, ast.Call)]
    assert all(isinstance(c.func, ast.Name) and c.func.id == "TypedDict" for c in calls)
    sys.modules["hostile_known"] = module
    try:
        params = import_text(params_source, tmp_path, "hostile_known_params")
    finally:
        del sys.modules["hostile_known"]
    for name in classes:
        model = getattr(module, name)
        wire = {f.validation_alias or key for key, f in model.model_fields.items()}
        typed = getattr(params, f"{name}Param")
        assert set(typed.__required_keys__) | set(typed.__optional_keys__) == wire, name
