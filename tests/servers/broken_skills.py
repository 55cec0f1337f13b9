"""A deliberately broken Skill Sharing provider, for the conformance kit to flag.

Each break is one rule of the spec (the check id that must flag it in brackets): the index is
served as text/plain [discovery.content-type], lists a private skill to anonymous callers
[discovery.private-hidden] and an id twice [discovery.unique-ids], ignores ``?type=``
[discovery.filter-only]; one descriptor lacks ``access`` [descriptor.valid]; invocation accepts
any body [invoke.bad-request] and a protected skill without credentials [auth.missing-401,
auth.invalid-401]; a failed execution's error code is empty [invoke.error-code];
unknown executions, unknown routes and wrong methods answer in plain text
[invoke.unknown-execution, errors.unknown-route, errors.wrong-method].
"""

from __future__ import annotations

import json
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

BROKEN_RULES = {
    "discovery.content-type",
    "discovery.private-hidden",
    "discovery.unique-ids",
    "discovery.filter-only",
    "descriptor.valid",
    "invoke.bad-request",
    "invoke.error-code",
    "invoke.unknown-execution",
    "auth.missing-401",
    "auth.invalid-401",
    "errors.unknown-route",
    "errors.wrong-method",
}
"""The MUST rules this provider breaks: the conformance kit must fail exactly these."""


def broken_provider(base_url: str) -> Starlette:
    def descriptor(skill_id: str, kind: str, access: str, auth: dict[str, Any]) -> dict[str, Any]:
        return {
            "protocol": {"version": "1.0.0"},
            "id": skill_id,
            "name": skill_id,
            "version": "1.0.0",
            "capability_type": kind,
            "description": "broken on purpose",
            "provider": {"name": "Broken"},
            "endpoint": {
                "url": f"{base_url}/invoke/{skill_id}",
                "method": "POST",
                "status_url": f"{base_url}/executions/{{execution_id}}",
                "result_url": f"{base_url}/executions/{{execution_id}}",
            },
            "inputs": [],
            "output": {"content_type": "application/json"},
            "auth": auth,
            "access": access,
        }

    none = {"type": "none"}
    descriptors = {
        "echo": descriptor("echo", "api", "public", none),
        "locked": descriptor("locked", "task", "restricted", {"type": "api_key"}),
        "hidden": descriptor("hidden", "plugin", "private", none),
    }
    invalid = descriptor("invalid", "knowledge", "public", none)
    del invalid["access"]
    descriptors["invalid"] = invalid

    def entry(d: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": d["id"],
            "name": d["name"],
            "capability_type": d["capability_type"],
            "description": d["description"],
            "descriptor_url": f"{base_url}/descriptors/{d['id']}",
            "access": d.get("access", "public"),
            "version": d["version"],
        }

    entries = [entry(d) for d in descriptors.values()]
    entries.append(entry(descriptors["echo"]))  # the same id twice
    index = {"protocol": {"version": "1.0.0"}, "provider": {"name": "Broken"}, "skills": entries}

    async def well_known(request: Request) -> Response:
        return PlainTextResponse(json.dumps(index))  # text/plain, and ?type= ignored

    async def get_descriptor(request: Request) -> Response:
        found = descriptors.get(request.path_params["skill_id"])
        if found is None:
            return PlainTextResponse("nope", status_code=404)
        return JSONResponse(found)

    async def invoke(request: Request) -> Response:
        skill_id = request.path_params["skill_id"]  # no auth check, no body check
        document = {"execution_id": f"x-{skill_id}", "status": "accepted", "skill_id": skill_id}
        return JSONResponse(document, status_code=202)

    async def status(request: Request) -> Response:
        execution_id: str = request.path_params["execution_id"]
        if not execution_id.startswith("x-"):
            return PlainTextResponse("no such execution", status_code=404)
        return JSONResponse(
            {
                "execution_id": execution_id,
                "status": "failed",
                "skill_id": execution_id[2:],
                "error": {"code": "", "message": "it broke"},
            }
        )

    return Starlette(
        routes=[
            Route("/.well-known/skill-sharing", well_known, methods=["GET"]),
            Route("/descriptors/{skill_id}", get_descriptor, methods=["GET"]),
            Route("/invoke/{skill_id}", invoke, methods=["POST"]),
            Route("/executions/{execution_id}", status, methods=["GET"]),
        ]
    )
