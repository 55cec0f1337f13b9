"""An ACP agent on agentproto whose handlers misbehave on request (run by test_acp_hostile).

Extension methods: ``_echo`` answers its params; ``_boom`` raises an exception carrying a
secret; ``_nan`` answers a float NaN; ``initialize`` answers a mapping that does not match
InitializeResponse when protocolVersion is 99 (``{"protocolVersion": "not-an-int"}``), and a
pydantic model of the wrong type when it is 98. ``--expose`` opts in to sending error details.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "generated"))

from agentproto.acp import Agent, serve_agent
from agentproto.acp.models import InitializeRequest, InitializeResponse, NewSessionResponse


class EchoAgent(Agent):
    async def initialize(self, params: InitializeRequest) -> InitializeResponse:
        wrong: Any = None
        if params.protocol_version == 99:
            wrong = {"protocolVersion": "not-an-int"}
        elif params.protocol_version == 98:
            wrong = NewSessionResponse(session_id="s")
        if wrong is not None:
            return wrong  # what a careless handler might return
        return InitializeResponse(protocol_version=params.protocol_version)

    async def ext_method(self, method: str, params: Any) -> Any:
        if method == "_echo":
            return {"echo": params}
        if method == "_boom":
            raise AttributeError("'Secret' object has no attribute 'internals'")
        if method == "_nan":
            return {"value": float("nan")}
        return await super().ext_method(method, params)


if __name__ == "__main__":
    asyncio.run(serve_agent(EchoAgent(), expose_errors="--expose" in sys.argv))
