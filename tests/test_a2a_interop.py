"""agentproto.a2a (generated from schemas/a2a/ alone) against the official ``a2a-sdk``, both
directions, on loopback: our client against the SDK's server, and the SDK's client against our
generated server (the A2A example agent, ``examples/a2a_agent.py``, run as its own process).

The SDK (1.3.0) speaks A2A 1.0 natively and 0.3 through its compatibility layer: its server with
``enable_v0_3_compat=True``, its client when the agent card says ``protocolVersion: 0.3.x``.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import GENERATED, ROOT
from tests.servers.a2a_sdk_server import app as sdk_app
from tests.servers.loopback import serve_made

pytestmark = pytest.mark.slow


# -- our client, the SDK's server -------------------------------------------------------------


@pytest.fixture(scope="module")
def sdk_server() -> Iterator[str]:
    with serve_made(sdk_app) as url:
        yield url + "/"


def hello(text: str = "hello") -> dict[str, Any]:
    """A user message in its dict form, every tag left out (the call forms must add them)."""
    message_id = f"m-{text}-{time.monotonic_ns()}"
    return {"messageId": message_id, "role": "user", "parts": [{"text": text}]}


def test_our_async_client_calls_every_method_of_the_sdk_server(sdk_server: str) -> None:
    from agentproto.a2a import AsyncA2AClient, TaskNotFound, UnknownEvent
    from agentproto.a2a.models import (
        AgentCard,
        Message,
        Task,
        TaskArtifactUpdateEvent,
        TaskStatusUpdateEvent,
        TextPart,
    )

    async def main() -> None:
        async with AsyncA2AClient(sdk_server) as client:
            card = await client.get_agent_card()
            assert isinstance(card, AgentCard)
            assert card.name == "sdk echo agent" and card.protocol_version == "0.3"
            assert card.url == sdk_server and card.capabilities.streaming is True
            assert "supportedInterfaces" in (card.model_extra or {})  # the 1.0 field, kept

            # send: keyword form (dict message), model form, and the params as one mapping
            task = await client.send_message(message=hello())
            assert isinstance(task, Task) and task.status.state == "completed"
            assert task.artifacts is not None
            assert task.artifacts[0].parts[0] == TextPart(text="echo: hello")
            direct = await client.send_message(
                {"message": Message(message_id="d1", role="user", parts=[TextPart(text="direct")])}
            )
            assert isinstance(direct, Message) and direct.role == "agent"
            assert direct.parts == [TextPart(text="direct answer")]

            # stream: typed events, in order, over after the final status update
            kinds: list[str] = []
            async with await client.stream_message(message=hello()) as stream:
                async for event in stream:
                    assert not isinstance(event, UnknownEvent)
                    kinds.append(type(event).__name__)
                    if isinstance(event, TaskStatusUpdateEvent) and event.final:
                        assert event.status.state == "completed"
            assert kinds == [
                "Task",
                "TaskStatusUpdateEvent",
                "TaskArtifactUpdateEvent",
                "TaskStatusUpdateEvent",
            ]
            assert isinstance(TaskArtifactUpdateEvent, type)

            # get, and an unknown task as the typed error
            got = await client.get_task(id=task.id, history_length=1)
            assert got.id == task.id and got.status.state == "completed"
            with pytest.raises(TaskNotFound) as raised:
                await client.get_task(id="no-such-task")
            assert raised.value.code == -32001

            # cancel a working task; resubscribe sees it end
            waiting = await client.send_message(
                message=hello("wait"), configuration={"blocking": False}
            )
            assert isinstance(waiting, Task)
            following = await client.resubscribe_task(id=waiting.id)
            cancelled = await client.cancel_task(id=waiting.id)
            assert cancelled.status.state == "canceled"
            async with following:
                seen = [event async for event in following]
            assert isinstance(seen[-1], TaskStatusUpdateEvent) and seen[-1].final
            assert seen[-1].status.state == "canceled"

            # push notification configurations: set, get, list, delete
            config = await client.set_push_notification_config(
                task_id=task.id,
                push_notification_config={"id": "c1", "url": "https://example.com/callback"},
            )
            assert config.push_notification_config.url == "https://example.com/callback"
            one = await client.get_push_notification_config(
                id=task.id, push_notification_config_id="c1"
            )
            assert one == config
            assert await client.list_push_notification_configs(id=task.id) == [config]
            assert (
                await client.delete_push_notification_config(
                    id=task.id, push_notification_config_id="c1"
                )
                is None
            )
            assert await client.list_push_notification_configs(id=task.id) == []

    asyncio.run(asyncio.wait_for(main(), 60))


def test_our_blocking_client_against_the_sdk_server(sdk_server: str) -> None:
    from agentproto.a2a import A2AClient, TaskNotCancelable
    from agentproto.a2a.models import Task, TaskStatusUpdateEvent

    with A2AClient(sdk_server) as client:
        assert client.get_agent_card().name == "sdk echo agent"
        done = client.send_message(message=hello())
        assert isinstance(done, Task) and done.status.state == "completed"
        with client.stream_message(message=hello()) as stream:
            last = list(stream)[-1]
        assert isinstance(last, TaskStatusUpdateEvent) and last.final
        with pytest.raises(TaskNotCancelable):
            client.cancel_task(id=done.id)


# -- the SDK's client, our server -------------------------------------------------------------


@pytest.fixture(scope="module")
def our_server() -> Iterator[str]:
    """The example agent (agentproto's generated server kit) as a process of its own."""
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "a2a_agent.py"), "--port", "0"],
        env={"PYTHONPATH": str(GENERATED), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()  # its first line: its URL
        assert url.startswith("http://127.0.0.1:"), f"the example agent did not start: {url!r}"
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def test_the_sdk_client_calls_every_method_of_our_server(our_server: str) -> None:
    from a2a.client import ClientConfig, create_client
    from a2a.types import a2a_pb2 as pb
    from a2a.utils.errors import TaskNotFoundError

    def message(text: str) -> pb.SendMessageRequest:
        parts = [pb.Part(text=text)]
        message_id = f"s-{text}-{time.monotonic_ns()}"
        return pb.SendMessageRequest(
            message=pb.Message(message_id=message_id, role=pb.Role.ROLE_USER, parts=parts)
        )

    async def main() -> None:
        # send (no streaming): the finished task
        client = await create_client(our_server, client_config=ClientConfig(streaming=False))
        answers = [r async for r in client.send_message(message("hello"))]
        assert len(answers) == 1 and answers[0].HasField("task")
        task = answers[0].task
        assert task.status.state == pb.TaskState.TASK_STATE_COMPLETED
        assert task.artifacts[0].parts[0].text == "echo: hello"
        direct = [r async for r in client.send_message(message("direct"))]
        assert direct[0].HasField("message") and direct[0].message.parts[0].text == "direct answer"
        await client.close()

        # stream: task, working, artifact, completed
        client = await create_client(our_server)
        kinds = [r.WhichOneof("payload") async for r in client.send_message(message("hello"))]
        assert kinds == ["task", "status_update", "artifact_update", "status_update"]

        # get; an unknown task is the SDK's TaskNotFoundError (our -32001)
        got = await client.get_task(pb.GetTaskRequest(id=task.id))
        assert got.id == task.id and got.status.state == pb.TaskState.TASK_STATE_COMPLETED
        with pytest.raises(TaskNotFoundError):
            await client.get_task(pb.GetTaskRequest(id="no-such-task"))

        # cancel a waiting task while a resubscription follows it
        config = ClientConfig(streaming=False)
        quick = await create_client(our_server, client_config=config)
        request = message("wait")
        request.configuration.return_immediately = True
        (answer,) = [r async for r in quick.send_message(request)]
        started = answer.task
        assert started.status.state in (
            pb.TaskState.TASK_STATE_SUBMITTED,
            pb.TaskState.TASK_STATE_WORKING,
        )
        follow = client.subscribe(pb.SubscribeToTaskRequest(id=started.id))
        first = await anext(follow)
        assert first.HasField("task") and first.task.id == started.id
        cancelled = await quick.cancel_task(pb.CancelTaskRequest(id=started.id))
        assert cancelled.status.state == pb.TaskState.TASK_STATE_CANCELED
        rest = [r async for r in follow]
        assert rest[-1].status_update.status.state == pb.TaskState.TASK_STATE_CANCELED
        await quick.close()

        # push notification configurations
        created = await client.create_task_push_notification_config(
            pb.TaskPushNotificationConfig(task_id=task.id, id="c1", url="https://example.com/cb")
        )
        assert created.url == "https://example.com/cb" and created.id == "c1"
        fetched = await client.get_task_push_notification_config(
            pb.GetTaskPushNotificationConfigRequest(task_id=task.id, id="c1")
        )
        assert fetched.url == "https://example.com/cb"
        listed = await client.list_task_push_notification_configs(
            pb.ListTaskPushNotificationConfigsRequest(task_id=task.id)
        )
        assert [c.id for c in listed.configs] == ["c1"]
        await client.delete_task_push_notification_config(
            pb.DeleteTaskPushNotificationConfigRequest(task_id=task.id, id="c1")
        )
        listed = await client.list_task_push_notification_configs(
            pb.ListTaskPushNotificationConfigsRequest(task_id=task.id)
        )
        assert list(listed.configs) == []
        await client.close()

    asyncio.run(asyncio.wait_for(main(), 60))


# -- the generated conformance check ----------------------------------------------------------


def test_the_conformance_check_passes_both_servers(sdk_server: str, our_server: str) -> None:
    from agentproto.a2a.conformance import check

    for url in (sdk_server, our_server):
        report = check(url)
        assert report.must_failures == [], report.text()
        assert len(report.checks) > 20


def test_the_conformance_check_fails_a_server_that_answers_everything() -> None:
    """A server that answers every POST with a result (whatever was sent) breaks the MUST
    rules: not JSON is not -32700, an unknown method is not -32601, params are not checked."""
    from agentproto.a2a.conformance import check
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def anything(request: Request) -> JSONResponse:
        return JSONResponse({"jsonrpc": "2.0", "id": 1, "result": {}})

    app = Starlette(routes=[Route("/", anything, methods=["POST"])])
    with serve_made(lambda _: app) as url:
        report = check(url)
    failed = {c.id for c in report.must_failures}
    assert {"jsonrpc.parse-error", "jsonrpc.method-not-found", "table.params.tasks/get"} <= failed
    assert "table.route.get_agent_card" in failed  # no card: 404
