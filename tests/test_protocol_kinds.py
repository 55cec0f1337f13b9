"""A new protocol is input, not code: a schema, a SOURCE and a spec table give typed clients and
a server, and the faults such an input used to pass silently are refused with file and pointer.

The fixture (tests/fixtures/protocols/notes/) is JSON-RPC over HTTP with a draft-07 schema, a
union stream event and nested constants; it is built alone into a scratch package, which its
wire cases (``wire.yaml``) then run against, in a process of their own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from codegen.errors import BuildError
from codegen.pipeline import Layout, build
from tests.conftest import ROOT, copy_project

FIXTURE = ROOT / "tests" / "fixtures" / "protocols" / "notes"

pytestmark = pytest.mark.slow


def notes_project(tmp_path: Path) -> Layout:
    """A scratch project whose only protocol is the fixture."""
    layout = copy_project(tmp_path, protocols=("none",))
    shutil.copytree(FIXTURE, layout.schemas / "notes")
    return layout


def edit_table(layout: Layout, change: dict[str, object]) -> None:
    path = layout.schemas / "notes" / "spec.yaml"
    table = yaml.safe_load(path.read_text())
    table.update(change)
    path.write_text(yaml.safe_dump(table, sort_keys=False))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Layout:
    layout = notes_project(tmp_path_factory.mktemp("notes"))
    build(layout)
    return layout


def test_a_draft07_jsonrpc_protocol_builds_from_inputs_alone(built: Layout) -> None:
    package = built.out / "agentproto" / "notes"
    assert sorted(p.name for p in package.iterdir() if p.suffix == ".py") == [
        "__init__.py",
        "client.py",
        "conformance.py",
        "errors.py",
        "models.py",
        "operations.py",
        "params.py",
        "server.py",
    ]
    client = (package / "client.py").read_text()
    assert "class AsyncNotesClient" in client and "class NotesClient" in client
    # the union stream event is typed member by member, from the draft-07 `definitions`
    assert '"created": validator(NoteCreated)' in client
    assert '"deleted": validator(NoteDeleted)' in client
    assert "class NoteExists(RpcError)" in (package / "errors.py").read_text()
    assert "class NotesHandler" in (package / "server.py").read_text()


def test_the_fixture_passes_its_wire_cases(built: Layout) -> None:
    """Client and server of the built package against the fixture's cases (constants sent
    from every call form, the typed error, the union stream ending on its rule)."""
    result = subprocess.run(
        [sys.executable, "-m", "tests.wire.runner", str(FIXTURE / "wire.yaml")],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{built.out}{os.pathsep}{ROOT}"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert result.stdout.strip().endswith("0 failed")


@pytest.mark.parametrize("carrier", ["stdio", "ws"])
def test_the_other_carriers_serve_the_same_methods(built: Layout, carrier: str) -> None:
    """``also: [jsonrpc-websocket, jsonrpc-stdio]``: the same typed methods, the table's error
    as its class and every constant sent, over a subprocess's pipes and over a WebSocket,
    async and blocking."""
    result = subprocess.run(
        [sys.executable, str(FIXTURE / "carriers.py"), carrier],
        env={**os.environ, "PYTHONPATH": str(built.out)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert result.stdout.splitlines() == [
        "created Note {'kind': 'note', 'noteId': 'n1', 'text': 'hi', 'labels': "
        "[{'kind': 'label', 'name': 'red'}, {'kind': 'pin', 'priority': 2}]}",
        "refused NoteExists -32050 The note exists",
        "sync sync",
    ]


def test_the_built_package_type_checks(built: Layout) -> None:
    result = subprocess.run(
        # the runtime is the whole package's (it names the LLM client, absent here): only what
        # the fixture's renderers wrote is judged
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "agentproto/notes"],
        cwd=built.out,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout


def test_a_package_name_the_package_has_is_refused(tmp_path: Path) -> None:
    layout = notes_project(tmp_path)
    edit_table(layout, {"package": "mcp"})
    with pytest.raises(BuildError) as raised:
        build(layout)
    (problem,) = raised.value.problems
    assert problem.file == "schemas/notes/spec.yaml" and problem.pointer == "/package"
    assert "agentproto.mcp" in problem.reason
    assert not layout.out.exists()


def test_an_rpc_that_is_not_the_request_types_method_is_refused(tmp_path: Path) -> None:
    layout = notes_project(tmp_path)
    table = yaml.safe_load((layout.schemas / "notes" / "spec.yaml").read_text())
    table["operations"][1]["rpc"] = "notes/make"
    edit_table(layout, {"operations": table["operations"]})
    with pytest.raises(BuildError) as raised:
        build(layout)
    (problem,) = raised.value.problems
    assert problem.file == "schemas/notes/spec.yaml" and problem.pointer == "/operations/1/rpc"
    assert "'notes/create'" in problem.reason


def test_an_exception_class_hiding_a_schema_type_is_refused(tmp_path: Path) -> None:
    layout = notes_project(tmp_path)
    edit_table(
        layout,
        {
            "errors": [
                {"name": "note_exists", "class": "Note", "code": -32050, "description": "Clash."}
            ]
        },
    )
    with pytest.raises(BuildError) as raised:
        build(layout)
    (problem,) = raised.value.problems
    assert problem.pointer == "/errors/0/class" and "'Note'" in problem.reason


def test_a_pointer_to_nothing_is_refused(tmp_path: Path) -> None:
    layout = notes_project(tmp_path)
    table = yaml.safe_load((layout.schemas / "notes" / "spec.yaml").read_text())
    table["operations"][1]["response"] = "CreateNoteSuccessResponse#/properties/outcome"
    edit_table(layout, {"operations": table["operations"]})
    with pytest.raises(BuildError) as raised:
        build(layout)
    (problem,) = raised.value.problems
    assert problem.pointer == "/operations/1/response" and "points to nothing" in problem.reason
