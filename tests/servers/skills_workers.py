"""A provider kit app for the multi-process tests: ``uvicorn tests.servers.skills_workers:app``
with ``SKILLS_STORE`` (an execution store URL), ``SKILLS_BASE_URL`` and ``SKILLS_LEASE``
(seconds) in the environment."""

from __future__ import annotations

import os
from typing import Any

import anyio
from agentproto.skills import SkillProvider
from agentproto.skills.models import InvocationRequest
from agentproto.skills.store import open_execution_store

provider = SkillProvider(
    {"name": "Workers"},
    base_url=os.environ.get("SKILLS_BASE_URL", "http://127.0.0.1"),
    api_keys={"key-alice": "alice"},
    store=open_execution_store(os.environ.get("SKILLS_STORE", "memory:")),
    execution_lease=float(os.environ.get("SKILLS_LEASE", "30")),
)


@provider.skill(
    id="w/pid",
    name="Pid",
    capability_type="api",
    description="Sleeps, then answers the process id that ran it",
    version="1.0.0",
    access="restricted",
)
async def pid(inputs: dict[str, Any], request: InvocationRequest) -> Any:
    await anyio.sleep(float(inputs.get("seconds", 0)))
    return {"pid": os.getpid()}


app = provider.app
