"""An A2A 0.3 agent served with agentproto's generated server kit (``agentproto.a2a``).

Run it, then point any A2A client at it (``examples/a2a_client.py``, or the official
``a2a-sdk`` client)::

    python3 examples/a2a_agent.py --port 9999   # serves http://127.0.0.1:9999/ (its first
                                                # line of output is that URL; --port 0: any)

It echoes: a message saying ``hello`` (or anything) becomes a task that works, adds an
``echo`` artifact and completes; ``wait`` gives a task that keeps working until it is
cancelled; ``direct`` is answered with a plain message, no task. Tasks and push notification
configurations live in memory (a real agent keeps them in a store).
"""

from __future__ import annotations

import argparse
import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

from agentproto.a2a import (
    A2AHandler,
    RequestContext,
    TaskNotCancelable,
    TaskNotFound,
    serve_a2a,
)
from agentproto.a2a.models import (
    AgentCapabilities,
    AgentCard,
    AgentSkill,
    Artifact,
    DeleteTaskPushNotificationConfigParams,
    GetTaskPushNotificationConfigParams,
    ListTaskPushNotificationConfigParams,
    Message,
    MessageSendParams,
    Task,
    TaskArtifactUpdateEvent,
    TaskIdParams,
    TaskPushNotificationConfig,
    TaskQueryParams,
    TaskState,
    TaskStatus,
    TaskStatusUpdateEvent,
    TextPart,
)

Event = Task | Message | TaskStatusUpdateEvent | TaskArtifactUpdateEvent
TERMINAL = frozenset({"completed", "canceled", "failed", "rejected"})


def text_of(message: Message) -> str:
    return "".join(part.text for part in message.parts if isinstance(part, TextPart))


class EchoAgent(A2AHandler):
    """Every operation of A2A 0.3, typed by the generated ``A2AHandler``."""

    def __init__(self, url: str = "") -> None:
        self.url = url  # where its card says it is (set once the server listens)
        self.tasks: dict[str, Task] = {}
        self.configs: dict[str, dict[str, TaskPushNotificationConfig]] = {}
        self.watchers: dict[str, list[asyncio.Queue[Event]]] = {}
        self.cancelled: dict[str, asyncio.Event] = {}
        self.work: set[asyncio.Task[None]] = set()

    async def get_agent_card(self, context: RequestContext) -> AgentCard:
        return AgentCard(
            name="agentproto echo agent",
            description="Echoes what it is told, as an A2A task.",
            url=self.url,
            version="1.0.0",
            protocol_version="0.3.0",
            preferred_transport="JSONRPC",
            capabilities=AgentCapabilities(streaming=True, push_notifications=True),
            default_input_modes=["text/plain"],
            default_output_modes=["text/plain"],
            skills=[AgentSkill(id="echo", name="echo", description="Echoes text", tags=["echo"])],
        )

    # -- messages ---------------------------------------------------------------------------

    async def send_message(
        self, context: RequestContext, params: MessageSendParams
    ) -> Task | Message:
        text = text_of(params.message)
        if text == "direct":
            return self._reply(params.message, "direct answer")
        task = self._start(params.message)
        blocking = params.configuration is None or params.configuration.blocking is not False
        if blocking and text != "wait":
            await self._until_done(task.id)
        return self.tasks[task.id]

    async def stream_message(
        self, context: RequestContext, params: MessageSendParams
    ) -> AsyncIterator[Event]:
        if text_of(params.message) == "direct":
            yield self._reply(params.message, "direct answer")
            return
        queue = self._watch_new()
        task = self._start(params.message, queue)
        yield task
        async for event in self._follow(task.id, queue):
            yield event

    # -- tasks ------------------------------------------------------------------------------

    async def get_task(self, context: RequestContext, params: TaskQueryParams) -> Task:
        task = self._task(params.id)
        if params.history_length is not None and task.history:
            kept = task.history[-params.history_length :] if params.history_length else []
            return task.model_copy(update={"history": kept})
        return task

    async def cancel_task(self, context: RequestContext, params: TaskIdParams) -> Task:
        task = self._task(params.id)
        if task.status.state in TERMINAL:
            raise TaskNotCancelable()
        self._publish(task.id, self._status(task, "canceled", final=True))
        self.cancelled.setdefault(task.id, asyncio.Event()).set()
        return self.tasks[task.id]

    async def resubscribe_task(
        self, context: RequestContext, params: TaskIdParams
    ) -> AsyncIterator[Event]:
        task = self._task(params.id)
        queue = self._watch_new()
        self.watchers.setdefault(task.id, []).append(queue)
        yield task
        if task.status.state in TERMINAL:
            return
        async for event in self._follow(task.id, queue):
            yield event

    # -- push notification configurations ----------------------------------------------------

    async def set_push_notification_config(
        self, context: RequestContext, params: TaskPushNotificationConfig
    ) -> TaskPushNotificationConfig:
        self._task(params.task_id)
        config_id = params.push_notification_config.id or params.task_id
        config = params.model_copy(
            update={
                "push_notification_config": params.push_notification_config.model_copy(
                    update={"id": config_id}
                )
            }
        )
        self.configs.setdefault(params.task_id, {})[config_id] = config
        return config

    async def get_push_notification_config(
        self,
        context: RequestContext,
        params: TaskIdParams | GetTaskPushNotificationConfigParams,
    ) -> TaskPushNotificationConfig:
        self._task(params.id)
        configs = self.configs.get(params.id, {})
        wanted = getattr(params, "push_notification_config_id", None)
        found = configs.get(wanted) if wanted else next(iter(configs.values()), None)
        if found is None:
            raise TaskNotFound("no such push notification configuration")
        return found

    async def list_push_notification_configs(
        self, context: RequestContext, params: ListTaskPushNotificationConfigParams
    ) -> list[TaskPushNotificationConfig]:
        self._task(params.id)
        return list(self.configs.get(params.id, {}).values())

    async def delete_push_notification_config(
        self, context: RequestContext, params: DeleteTaskPushNotificationConfigParams
    ) -> None:
        self._task(params.id)
        self.configs.get(params.id, {}).pop(params.push_notification_config_id, None)

    # -- the work ---------------------------------------------------------------------------

    def _task(self, task_id: str) -> Task:
        task = self.tasks.get(task_id)
        if task is None:
            raise TaskNotFound()
        return task

    def _reply(self, message: Message, text: str) -> Message:
        return Message(
            message_id=uuid.uuid4().hex,
            role="agent",
            parts=[TextPart(text=text)],
            context_id=message.context_id,
        )

    def _watch_new(self) -> asyncio.Queue[Event]:
        return asyncio.Queue()

    def _start(self, message: Message, queue: asyncio.Queue[Event] | None = None) -> Task:
        task_id = uuid.uuid4().hex
        context_id = message.context_id or uuid.uuid4().hex
        stored = message.model_copy(update={"task_id": task_id, "context_id": context_id})
        task = Task(
            id=task_id,
            context_id=context_id,
            status=TaskStatus(state="submitted", timestamp=_now()),
            history=[stored],
        )
        self.tasks[task_id] = task
        if queue is not None:
            self.watchers.setdefault(task_id, []).append(queue)
        job = asyncio.get_running_loop().create_task(self._work(task_id, text_of(message)))
        self.work.add(job)
        job.add_done_callback(self.work.discard)
        return task

    async def _work(self, task_id: str, text: str) -> None:
        await asyncio.sleep(0)
        task = self.tasks[task_id]
        self._publish(task_id, self._status(task, "working", final=False))
        if text == "wait":
            await self.cancelled.setdefault(task_id, asyncio.Event()).wait()
            return
        if self.tasks[task_id].status.state in TERMINAL:
            return
        artifact = Artifact(
            artifact_id=uuid.uuid4().hex, name="echo", parts=[TextPart(text=f"echo: {text}")]
        )
        self._publish(
            task_id,
            TaskArtifactUpdateEvent(task_id=task_id, context_id=task.context_id, artifact=artifact),
        )
        self._publish(task_id, self._status(self.tasks[task_id], "completed", final=True))

    def _status(self, task: Task, state: TaskState, *, final: bool) -> TaskStatusUpdateEvent:
        return TaskStatusUpdateEvent(
            task_id=task.id,
            context_id=task.context_id,
            status=TaskStatus(state=state, timestamp=_now()),
            final=final,
        )

    def _publish(
        self, task_id: str, event: TaskStatusUpdateEvent | TaskArtifactUpdateEvent
    ) -> None:
        task = self.tasks[task_id]
        if isinstance(event, TaskStatusUpdateEvent):
            task = task.model_copy(update={"status": event.status})
        else:
            task = task.model_copy(update={"artifacts": [*(task.artifacts or []), event.artifact]})
        self.tasks[task_id] = task
        for queue in self.watchers.get(task_id, []):
            queue.put_nowait(event)

    async def _follow(self, task_id: str, queue: asyncio.Queue[Event]) -> AsyncIterator[Event]:
        try:
            while True:
                event = await queue.get()
                yield event
                if isinstance(event, TaskStatusUpdateEvent) and event.final:
                    return
        finally:
            watching = self.watchers.get(task_id, [])
            if queue in watching:
                watching.remove(queue)

    async def _until_done(self, task_id: str) -> None:
        queue = self._watch_new()
        self.watchers.setdefault(task_id, []).append(queue)
        if self.tasks[task_id].status.state in TERMINAL:
            return
        async for _ in self._follow(task_id, queue):
            pass


def _now() -> str:
    return datetime.now(UTC).isoformat()


def main() -> None:
    parser = argparse.ArgumentParser(description="An A2A 0.3 echo agent on loopback.")
    parser.add_argument("--port", type=int, default=9999, help="0: any free port")
    port = parser.parse_args().port
    agent = EchoAgent()

    def ready(url: str) -> None:
        agent.url = url.rstrip("/") + "/"
        print(agent.url, flush=True)

    # On loopback without auth; a public address needs `authenticate=` (or, said out loud,
    # public_without_auth=True).
    serve_a2a(agent, port=port, ready=ready)


if __name__ == "__main__":
    main()
