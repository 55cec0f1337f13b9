"""The cancel extension, both sides over loopback: ``Execution.cancel()`` (sync and async)
reaches the handler (a coroutine is cancelled, a thread sees ``cancel_requested()``), the
execution ends ``failed`` with ``CANCELLED``; an ended execution is left as it was; a
provider without the route is a typed ``CancelNotSupportedError``; the conformance kit
counts it as optional (MAY)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from agentproto.skills import (
    AsyncSkillsClient,
    CancelNotSupportedError,
    Credentials,
    ExecutionFailedError,
    SkillProvider,
    SkillsClient,
)
from agentproto.skills.conformance import run as conformance_run
from agentproto.skills.models import InvocationRequest
from agentproto.skills.provider import cancel_requested
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tests.servers.loopback import serve

SEEN: dict[str, threading.Event] = {
    "coroutine": threading.Event(),
    "thread": threading.Event(),
}


def build(base_url: str) -> SkillProvider:
    provider = SkillProvider({"name": "Cancel"}, base_url=base_url, api_keys={"k": "alice"})

    @provider.skill(
        id="c/quick", name="Q", capability_type="api", description="quick", version="1.0.0"
    )
    async def quick(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        return {"ok": 1}

    @provider.skill(
        id="c/async", name="A", capability_type="task", description="waits", version="1.0.0"
    )
    async def waits(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            SEEN["coroutine"].set()
            raise
        return "never"

    @provider.skill(
        id="c/thread", name="T", capability_type="task", description="polls", version="1.0.0"
    )
    def polls(inputs: dict[str, Any], request: InvocationRequest) -> Any:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if cancel_requested():
                SEEN["thread"].set()
                return "stopped"
            time.sleep(0.01)
        return "never"

    return provider


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    holder: dict[str, SkillProvider] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await holder["provider"].app(scope, receive, send)

    with serve(app) as base:
        holder["provider"] = build(base)
        yield base


@pytest.mark.parametrize("kind", ["coroutine", "thread"])
def test_cancel_reaches_the_handler_and_ends_the_execution(url: str, kind: str) -> None:
    skill_id = "c%2Fasync" if kind == "coroutine" else "c%2Fthread"
    with SkillsClient(timeout=10) as client:
        skill = client.get_descriptor(f"{url}/skills/{skill_id}/descriptor")
        execution = client.invoke(skill, {})
        time.sleep(0.2)
        assert execution.poll().status == "running"
        status = execution.cancel()
        assert status.status == "failed" and status.error is not None
        assert status.error.code == "CANCELLED"
        assert SEEN[kind].wait(5)
        with pytest.raises(ExecutionFailedError) as caught:
            execution.result(timeout=5)
        assert caught.value.code == "CANCELLED"


def test_cancel_through_the_async_client_and_on_an_ended_execution(url: str) -> None:
    async def work() -> None:
        async with AsyncSkillsClient(timeout=10) as client:
            skill = await client.get_descriptor(f"{url}/skills/c%2Fquick/descriptor")
            execution = await client.invoke(skill, {})
            assert await execution.result(timeout=5) == {"ok": 1}
            again = await execution.cancel()  # ended: nothing changes
            assert again.status == "completed" and again.output == {"ok": 1}

    asyncio.run(work())


def test_only_the_creator_may_cancel(url: str) -> None:
    with SkillsClient(timeout=10) as client:
        skill = client.get_descriptor(f"{url}/skills/c%2Fasync/descriptor")
        execution = client.invoke(skill, {})
    stranger = httpx.post(
        f"{url}/executions/{execution.execution_id}/cancel", headers={"X-API-Key": "k"}
    )
    assert stranger.status_code == 404
    assert stranger.json()["error"]["code"] == "SKILL_NOT_FOUND"
    assert httpx.get(f"{url}/executions/{execution.execution_id}").json()["status"] == "running"
    assert httpx.post(f"{url}/executions/{execution.execution_id}/cancel").status_code == 200


def plain_provider() -> Starlette:
    """A provider without the extension: descriptor, invoke and status only."""
    state: dict[str, str] = {}

    async def descriptor(request: Request) -> Response:
        base = state["base"]
        return JSONResponse(
            {
                "protocol": {"version": "1.0.0"},
                "id": "p/s",
                "name": "S",
                "version": "1.0.0",
                "capability_type": "api",
                "description": "d",
                "provider": {"name": "Plain"},
                "endpoint": {
                    "url": f"{base}/invoke",
                    "method": "POST",
                    "status_url": f"{base}/executions/{{execution_id}}",
                },
                "inputs": [],
                "output": {"content_type": "application/json"},
                "auth": {"type": "none"},
                "access": "public",
            }
        )

    async def invoke(request: Request) -> Response:
        return JSONResponse(
            {"execution_id": "e1", "status": "accepted", "skill_id": "p/s"}, status_code=202
        )

    async def status(request: Request) -> Response:
        return JSONResponse({"execution_id": "e1", "status": "running", "skill_id": "p/s"})

    app = Starlette(
        routes=[
            Route("/descriptor", descriptor),
            Route("/invoke", invoke, methods=["POST"]),
            Route("/executions/{execution_id}", status),
        ]
    )
    app.state.holder = state
    return app


def test_a_provider_without_the_extension_is_a_typed_error() -> None:
    app = plain_provider()
    with serve(app) as base:
        app.state.holder["base"] = base
        with SkillsClient(timeout=10, credentials=Credentials()) as client:
            skill = client.get_descriptor(f"{base}/descriptor")
            execution = client.invoke(skill, {})
            with pytest.raises(CancelNotSupportedError) as caught:
                execution.cancel()
    assert caught.value.status_code in (404, 405)
    assert caught.value.code == "CANCEL_NOT_SUPPORTED"


def test_the_conformance_kit_treats_cancel_as_optional(url: str) -> None:
    report = conformance_run(url)
    checks = {c.id: c for c in report.checks}
    assert checks["ext.cancel"].level == "MAY"
    assert checks["ext.cancel"].outcome == "pass", checks["ext.cancel"].detail
    assert not report.must_failures
