"""An A2A agent built on the official ``a2a-sdk`` (PyPI), served on loopback: the independent
peer our generated A2A client is tested against.

``app(url)`` is the ASGI app (``tests.servers.loopback.serve_made`` runs it);
``python -m tests.servers.a2a_sdk_server PORT`` serves, at ``http://127.0.0.1:PORT/``, the agent
card (``/.well-known/agent-card.json``) and JSON-RPC with the SDK's A2A 0.3 compatibility on
(``create_jsonrpc_routes(..., enable_v0_3_compat=True)``), with in-memory task and push
notification stores. Its executor:

- ``"hello"``: a task that works, adds an artifact ``echo`` holding the text, and completes;
- ``"wait"``: a task that works and stays working until it is cancelled;
- ``"direct"``: a plain agent message, no task.

Nothing here is ours but the executor: the wire is the SDK's.
"""

from __future__ import annotations

import asyncio
import sys

import uvicorn
from a2a.helpers.proto_helpers import new_task, new_text_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes.agent_card_routes import create_agent_card_routes
from a2a.server.routes.jsonrpc_routes import create_jsonrpc_routes
from a2a.server.tasks import InMemoryPushNotificationConfigStore, InMemoryTaskStore, TaskUpdater
from a2a.types import a2a_pb2 as pb
from starlette.applications import Starlette


class EchoExecutor(AgentExecutor):
    def __init__(self) -> None:
        self.waiting: dict[str, asyncio.Event] = {}

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        text = context.get_user_input()
        if text == "direct":
            await event_queue.enqueue_event(
                new_text_message("direct answer", role=pb.Role.ROLE_AGENT)
            )
            return
        assert context.task_id is not None and context.context_id is not None
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        if context.current_task is None:
            history = [context.message] if context.message is not None else []
            await event_queue.enqueue_event(
                new_task(
                    context.task_id,
                    context.context_id,
                    pb.TaskState.TASK_STATE_SUBMITTED,
                    history=history,
                )
            )
        await updater.start_work()
        if text == "wait":
            stop = self.waiting.setdefault(context.task_id, asyncio.Event())
            await stop.wait()
            return
        await updater.add_artifact([pb.Part(text=f"echo: {text}")], name="echo")
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.task_id is not None and context.context_id is not None
        updater = TaskUpdater(event_queue, context.task_id, context.context_id)
        await updater.cancel()
        stop = self.waiting.pop(context.task_id, None)
        if stop is not None:
            stop.set()


def card(url: str) -> pb.AgentCard:
    return pb.AgentCard(
        name="sdk echo agent",
        description="An a2a-sdk agent that echoes",
        version="1.0.0",
        supported_interfaces=[
            pb.AgentInterface(
                url=url.rstrip("/") + "/",
                protocol_binding="JSONRPC",
                protocol_version="0.3",
            )
        ],
        capabilities=pb.AgentCapabilities(streaming=True, push_notifications=True),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[pb.AgentSkill(id="echo", name="echo", description="echoes text", tags=["echo"])],
    )


def app(url: str) -> Starlette:
    """The agent at ``url`` (its card names it)."""
    agent_card = card(url)
    handler = DefaultRequestHandler(
        agent_executor=EchoExecutor(),
        task_store=InMemoryTaskStore(),
        agent_card=agent_card,
        push_config_store=InMemoryPushNotificationConfigStore(),
    )
    routes = [
        *create_agent_card_routes(agent_card),
        *create_jsonrpc_routes(handler, "/", enable_v0_3_compat=True),
    ]
    return Starlette(routes=routes)


if __name__ == "__main__":
    port = int(sys.argv[1])
    uvicorn.run(app(f"http://127.0.0.1:{port}"), host="127.0.0.1", port=port, log_level="warning")
