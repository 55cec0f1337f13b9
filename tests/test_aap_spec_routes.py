"""The spec table is the single source of both sides of AAP: the server's routes (generated
``agentproto.aap.routes``) and the client's methods come from the same rows, and a row added
to ``schemas/aap/spec.yaml`` shows up in both from one build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from agentproto.aap import AAPClient, AAPServer, AsyncAAPClient
from agentproto.aap.operations import OPERATIONS
from agentproto.aap.routes import ERROR_STATUS, ROUTES, AAPOperations

from codegen.pipeline import Layout, build
from tests.conftest import ROOT, copy_project


def test_every_row_is_a_route_a_client_method_and_a_server_handler() -> None:
    table = yaml.safe_load((ROOT / "schemas" / "aap" / "spec.yaml").read_text())
    rows = [(op["name"], op["http"]["method"], op["http"]["path"]) for op in table["operations"]]
    assert [(r.name, r.method, r.path) for r in ROUTES] == rows
    assert [(o.name, o.http_method, o.http_path) for o in OPERATIONS] == rows
    for route in ROUTES:
        assert callable(getattr(AAPClient, route.name)) and callable(
            getattr(AsyncAAPClient, route.name)
        )
        assert getattr(AAPServer, route.name) is not getattr(AAPOperations, route.name), route.name
    statuses = {e["name"]: e["http_status"][0] for e in table["errors"]}
    assert dict(ERROR_STATUS) == statuses
    turn = next(r for r in ROUTES if r.name == "create_turn")
    assert turn.stream is not None and set(turn.stream.modes) == {"delta", "message"}
    assert turn.success_status == 200 and "conflict" in turn.errors


SCRIPT = """
from agentproto._runtime.http_errors import APIStatusError
from agentproto.aap import AAPClient, AAPServer, Agent, ApiKeys
from agentproto.aap.routes import ROUTES
from tests.servers.loopback import serve


class Summaries(AAPServer):
    async def get_session_summary(self, context, session_id):
        return await self.get_session(context, session_id)


for kind in (AAPServer, Summaries):
    server = kind(Agent("a"), store="sqlite://:memory:", auth=ApiKeys({"k": "p"}))
    with serve(server.app) as url, AAPClient(url, api_key="k") as client:
        sid = client.create_session(agent={"name": "a"}).session_id
        try:
            print(kind.__name__, client.get_session_summary(sid).session_id == sid)
        except APIStatusError as exc:
            print(kind.__name__, exc.status_code, exc.json)
print([(r.method, r.path, r.success_status) for r in ROUTES if r.name == "get_session_summary"])
"""


def test_a_row_added_to_the_table_is_served_and_called(tmp_path: Path) -> None:
    layout = copy_project(tmp_path)
    for other in ("acp", "agents_json", "ai_protocol", "skills"):  # an AAP-only package
        shutil.rmtree(layout.schemas / other)
    spec = layout.schemas / "aap" / "spec.yaml"
    table = yaml.safe_load(spec.read_text())
    table["operations"].append(
        {
            "name": "get_session_summary",
            "summary": "A session's summary.",
            "direction": "client_to_server",
            "http": {
                "method": "GET",
                "path": "/sessions/{session_id}/summary",
                "path_params": ["session_id"],
                "success_status": [200],
            },
            "request": None,
            "response": "GetSessionResponse",
            "idempotent": True,
            "errors": ["unauthorized", "not_found", "server_error"],
        }
    )
    spec.write_text(yaml.safe_dump(table, sort_keys=False))
    build(Layout.for_root(tmp_path))
    # the ACP agent bridge stands on ACP too (templates/aap/requires.yaml): left out here
    assert not (layout.out / "agentproto" / "aap" / "acp_agent.py").exists()
    assert "ACPAgent" not in (layout.out / "agentproto" / "aap" / "__init__.py").read_text()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(layout.out), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        # the base server serves the new route (not a 404) and says it is not implemented...
        "AAPServer 501 {'error': 'get_session_summary is not implemented by this server'}",
        # ...a server implementing it answers, and the client has the typed method
        "Summaries True",
        "[('GET', '/sessions/{session_id}/summary', 200)]",
    ]
