"""Bad input stops the build with file, JSON pointer and reason, and writes nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from codegen.errors import BuildError
from codegen.flows.normalise import strict_bundles
from codegen.package.output import read_tree
from codegen.pipeline import Layout, build
from tests.conftest import CORPUS, GENERATED, ROOT, clone_project, copy_project


def seed_output(layout: Layout) -> dict[str, bytes]:
    """Give the scratch project a generated/ (a copy of the real one) and the release history
    it was built with, and return its bytes."""
    shutil.copytree(GENERATED, layout.out)
    shutil.copytree(ROOT / "release", layout.root / "release", dirs_exist_ok=True)
    return read_tree(layout.out)


def failed_build(layout: Layout) -> BuildError:
    before = seed_output(layout)
    with pytest.raises(BuildError) as info:
        build(layout)
    assert read_tree(layout.out) == before, "a failed build must leave generated/ untouched"
    leftovers = [p.name for p in layout.root.iterdir() if p.name.startswith(".generated-")]
    assert leftovers == []
    return info.value


@pytest.fixture
def llm_project(tmp_path: Path) -> Layout:
    """The AI-Protocol inputs alone: a manifest the client cannot follow is refused late (when
    the LLM client is rendered, after the models), and a build of the one protocol gets there
    in a fraction of the time of the whole package's."""
    return copy_project(tmp_path, protocols=("ai_protocol",))


@pytest.mark.parametrize(
    ("name", "pointer", "words"),
    [
        # refused by the seed schema and by upstream's current v1 schema (relative $schema)
        ("anyscale.json", "/$schema", "../../schemas/v1.json"),
        ("deepinfra.json", "/$schema", "../../schemas/v1.json"),
        # valid for upstream's current v1 schema (availability.notes), but not chat APIs
        ("huggingface.json", "/payload_format", "inference_api"),
        ("jina.json", "/payload_format", "jina_api"),
    ],
)
def test_invalid_manifests_are_rejected(
    llm_project: Layout, name: str, pointer: str, words: str
) -> None:
    shutil.copy(
        CORPUS / "ai-protocol" / "invalid" / name,
        llm_project.schemas / "ai_protocol" / "providers" / name,
    )
    error = failed_build(llm_project)
    problems = [p for p in error.problems if p.file.endswith(f"providers/{name}")]
    assert problems, str(error)
    assert any(p.pointer == pointer and words in p.reason for p in problems), str(error)


def test_anyscale_is_judged_by_the_current_v1_schema(project: Layout) -> None:
    """The seed schema also refuses anyscale's top-level `notes`; upstream's current v1 schema
    allows it, so only the relative `$schema` is reported."""
    shutil.copy(
        CORPUS / "ai-protocol" / "invalid" / "anyscale.json",
        project.schemas / "ai_protocol" / "providers" / "anyscale.json",
    )
    error = failed_build(project)
    pointers = {p.pointer for p in error.problems if p.file.endswith("anyscale.json")}
    assert pointers == {"/$schema"}, str(error)


def test_manifest_expression_the_client_cannot_follow(llm_project: Layout) -> None:
    """Valid against the schema, but its event map has a broken match: the build compiles every
    expression with the client's own parser and refuses it."""
    project = llm_project
    path = project.schemas / "ai_protocol" / "providers" / "groq.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["streaming"]["event_map"][0]["match"] = "exists($.choices[*].delta.content"
    manifest["payload_format"] = "klingon_style"
    path.write_text(json.dumps(manifest), encoding="utf-8")
    error = failed_build(project)
    found = {(p.file.rsplit("/", 1)[-1], p.pointer) for p in error.problems}
    assert ("groq.json", "/streaming/event_map/0/match") in found, str(error)
    assert ("groq.json", "/payload_format") in found, str(error)


@pytest.mark.parametrize(
    ("bundle", "pointer_part", "words"),
    [
        ("hubspotcontacts", "/requestBody", "None is not of type 'object'"),
        ("theodds", "/fields/parameters", "Additional properties"),
    ],
)
def test_invalid_bundles_are_rejected(
    project: Layout, bundle: str, pointer_part: str, words: str
) -> None:
    target = project.schemas / "agents_json" / "bundles" / f"{bundle}_raw"  # beside ours
    # the corpus's invalid bundles, byte-identical to the ones we ship (tests/fixtures/corpus)
    source = ROOT / "schemas" / "agents_json" / "bundles" / bundle
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("bundle.yaml"))
    (target / "bundle.yaml").write_text(f"sources:\n  {bundle}: openapi.yaml\n")
    sources = json.loads((target / "agents.json").read_text())["sources"]
    (target / "bundle.yaml").write_text(
        "sources:\n" + "".join(f"  {s['id']}: openapi.yaml\n" for s in sources)
    )
    with strict_bundles():  # a default build reads these deviations leniently (issue 18)
        error = failed_build(project)
    problems = [p for p in error.problems if p.file.endswith(f"bundles/{bundle}_raw/agents.json")]
    assert problems, str(error)
    assert any(pointer_part in p.pointer and words in p.reason for p in problems), str(error)


def test_bundle_action_must_resolve_in_its_openapi_source(project: Layout) -> None:
    """An action naming no operation of its source: an error with its pointer under
    ``--strict``; by default that flow alone is left out, with the same words."""
    from codegen.flows.plan import plan_bundle
    from codegen.inputs.corpus import bundle_sources

    folder = project.schemas / "agents_json" / "bundles" / "giphy"
    document = json.loads((folder / "agents.json").read_text())
    document["flows"][1]["actions"][0]["operationId"] = "no_such_operation"
    specs = bundle_sources(folder, project.root)
    with strict_bundles(), pytest.raises(BuildError) as caught:
        plan_bundle("giphy", document, specs, "giphy/agents.json")
    assert any(
        p.pointer == "/flows/1/actions/0/operationId" and "no_such_operation" in p.reason
        for p in caught.value.problems
    ), str(caught.value)
    warned: list[tuple[str, str]] = []
    plan = plan_bundle(
        "giphy", document, specs, "giphy/agents.json", lambda _f, p, k: warned.append((p, k))
    )
    assert document["flows"][1]["id"] not in [f["id"] for f in plan["flows"]]
    assert len(plan["flows"]) == len(document["flows"]) - 1
    assert any(
        p == "/flows/1/actions/0/operationId" and "no_such_operation" in k for p, k in warned
    )


def test_spec_table_with_unknown_key_and_unknown_type(project: Layout) -> None:
    path = project.schemas / "aap" / "spec.yaml"
    table = yaml.safe_load(path.read_text())
    table["operations"][0]["response"] = "NoSuchType"
    table["colour"] = "blue"
    path.write_text(yaml.safe_dump(table))
    error = failed_build(project)
    text = str(error)
    assert "schemas/aap/spec.yaml: /: Additional properties are not allowed ('colour'" in text


def test_spec_table_naming_a_missing_type(project: Layout) -> None:
    path = project.schemas / "aap" / "spec.yaml"
    table = yaml.safe_load(path.read_text())
    table["operations"][0]["response"] = "NoSuchType"
    path.write_text(yaml.safe_dump(table))
    error = failed_build(project)
    assert any(
        p.file == "schemas/aap/spec.yaml"
        and p.pointer == "/operations/0/response"
        and "'NoSuchType' is not in the schema's $defs" in p.reason
        for p in error.problems
    ), str(error)


def test_http_details_are_cross_checked(project: Layout) -> None:
    path = project.schemas / "aap" / "spec.yaml"
    table = yaml.safe_load(path.read_text())
    get_session = table["operations"][3]
    get_session["http"]["path"] = "/sessions/{id}"
    table["operations"][5]["http"]["query"][0]["type"] = "NoSuchEnum"
    table["operations"][1]["http"]["query"][0]["name"] = "class"
    path.write_text(yaml.safe_dump(table))
    error = failed_build(project)
    found = {(p.pointer, p.reason) for p in error.problems if p.file == "schemas/aap/spec.yaml"}
    assert (
        "/operations/3/http/path_params",
        "path placeholders ['id'] do not match path_params ['session_id']",
    ) in found, str(error)
    assert ("/operations/5/http/query/0/type", "type 'NoSuchEnum' is not known") in found
    assert ("/operations/1/http/query", "'class' is not a Python identifier") in found


def test_schema_that_is_not_json(project: Layout) -> None:
    path = project.schemas / "skills" / "skills.schema.json"
    path.write_text(path.read_text()[:-20])
    error = failed_build(project)
    assert any(
        p.file == "schemas/skills/skills.schema.json" and "invalid JSON: line" in p.reason
        for p in error.problems
    ), str(error)


def test_schema_that_is_not_a_valid_json_schema(project: Layout) -> None:
    path = project.schemas / "acp" / "schema.v1.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["StopReason"]["type"] = "strin"
    path.write_text(json.dumps(schema))
    error = failed_build(project)
    assert any(
        p.file == "schemas/acp/schema.v1.json"
        and p.pointer == "/$defs/StopReason/type"
        and "not a valid JSON Schema" in p.reason
        for p in error.problems
    ), str(error)


def test_yaml_syntax_error_names_the_line(project: Layout) -> None:
    path = project.schemas / "acp" / "spec.yaml"
    path.write_text(path.read_text() + "\n  bad: [unclosed\n")
    error = failed_build(project)
    assert any("invalid YAML: line" in p.reason for p in error.problems), str(error)


def test_every_problem_is_reported_at_once(llm_project: Layout) -> None:
    project = llm_project
    for name in ("huggingface.json", "jina.json"):
        shutil.copy(
            CORPUS / "ai-protocol" / "invalid" / name,
            project.schemas / "ai_protocol" / "providers" / name,
        )
    error = failed_build(project)
    files = {Path(p.file).name for p in error.problems}
    assert {"huggingface.json", "jina.json"} <= files


def test_a_dangling_ref_is_an_error_not_an_any_field(project: Layout) -> None:
    path = project.schemas / "acp" / "schema.v1.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["PromptRequest"]["properties"]["extra"] = {"$ref": "#/$defs/NoSuchType"}
    path.write_text(json.dumps(schema))
    error = failed_build(project)
    assert any(
        p.file == "schemas/acp/schema.v1.json"
        and p.pointer == "/$defs/PromptRequest/properties/extra/$ref"
        and "'#/$defs/NoSuchType' points to nothing" in p.reason
        for p in error.problems
    ), str(error)


@pytest.mark.parametrize("ref", ["common.json#/$defs/Meta", "https://example.com/s.json#/M"])
def test_a_ref_outside_the_file_is_an_error_before_any_read(project: Layout, ref: str) -> None:
    """The build never reads another file or the network for a schema (same inputs, same
    bytes): such a $ref is refused at its pointer, whether or not the target exists."""
    (project.schemas / "acp" / "common.json").write_text('{"$defs": {"Meta": {}}}')
    path = project.schemas / "acp" / "schema.v1.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["PromptRequest"]["properties"]["extra"] = {"$ref": ref}
    path.write_text(json.dumps(schema))
    error = failed_build(project)
    assert any(
        p.file == "schemas/acp/schema.v1.json"
        and p.pointer == "/$defs/PromptRequest/properties/extra/$ref"
        and "points outside this file" in p.reason
        for p in error.problems
    ), str(error)


def test_an_empty_schemas_folder_says_so(project: Layout) -> None:
    for folder in project.schemas.iterdir():
        shutil.rmtree(folder)
    error = failed_build(project)
    assert [p.reason for p in error.problems] == [
        "no protocols: each protocol is a folder here holding a spec table (spec.yaml) "
        "and its schemas"
    ]


def test_build_artefacts_in_generated_are_neither_drift_nor_deleted(
    built_aap: Layout, tmp_path: Path
) -> None:
    """What `pip install -e generated`, `python -m build` and checkers leave behind (in an
    AAP-only project: the artefacts are the same whatever the package holds)."""
    project = clone_project(built_aap, tmp_path)
    made = [
        "build/lib/agentproto/__init__.py",
        "dist/agentproto-0.1.0.tar.gz",
        "agentproto.egg-info/PKG-INFO",
        "agentproto/aap/__pycache__/models.cpython-311.pyc",
        ".mypy_cache/3.11/x.json",
    ]
    for rel in made:
        (project.out / rel).parent.mkdir(parents=True, exist_ok=True)
        (project.out / rel).write_text("artefact")
    assert build(project, check=True).diff == ""
    (project.out / "agentproto" / "py.typed").unlink()  # a real change: the build must swap
    assert build(project, force=True).changed
    assert (project.out / "agentproto" / "py.typed").exists()
    for rel in made[:3] + made[4:]:
        assert (project.out / rel).read_text() == "artefact", rel


def test_a_requires_file_names_modules_of_its_folder_and_packages(tmp_path: Path) -> None:
    """``templates/<package>/requires.yaml`` (a hand-written module -> the other packages it
    stands on): a module not in the folder or a list that is not of package names is refused
    with its pointer, and a module whose packages are not all built is left out."""
    from codegen.clients import REQUIRES_FILE, _left_out

    (tmp_path / "bridge.py").write_text("")
    (tmp_path / "plain.py").write_text("")
    (tmp_path / REQUIRES_FILE).write_text("bridge: [acp, skills]\n")
    assert _left_out(tmp_path, {"aap", "acp"}) == {"bridge"}
    assert _left_out(tmp_path, {"aap", "acp", "skills"}) == frozenset()
    (tmp_path / REQUIRES_FILE).write_text("bridge: acp\nmissing: [acp]\nplain: []\n")
    with pytest.raises(BuildError) as info:
        _left_out(tmp_path, {"aap"})
    found = sorted((p.pointer, p.reason) for p in info.value.problems)
    assert found == [
        ("/bridge", "a list of package names"),
        ("/missing", "no module missing.py here"),
        ("/plain", "a list of package names"),
    ]
