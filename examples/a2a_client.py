"""An A2A client: read an agent's card, send a message, follow a streamed one, cancel a task.

    python examples/a2a_client.py                          # starts a2a_agent.py itself
    python examples/a2a_client.py http://127.0.0.1:9999/   # an A2A 0.3 agent already running

Every call is typed: the params as keywords (or a model, or a dict), the results and the
stream's events as the models of ``agentproto.a2a.models``, the agent's errors as exceptions.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

from agentproto.a2a import A2AClient, TaskNotCancelable
from agentproto.a2a.models import (
    Message,
    Task,
    TaskArtifactUpdateEvent,
    TaskStatusUpdateEvent,
    TextPart,
)

AGENT = Path(__file__).with_name("a2a_agent.py")


def user_message(text: str) -> Message:
    return Message(message_id=uuid.uuid4().hex, role="user", parts=[TextPart(text=text)])


def talk(url: str) -> None:
    with A2AClient(url) as client:
        card = client.get_agent_card()
        streaming = card.capabilities.streaming
        print(f"agent: {card.name} (A2A {card.protocol_version}, streaming: {streaming})")

        answer = client.send_message(message=user_message("hello"))
        match answer:
            case Task(status=status, artifacts=[artifact, *_]):
                text = "".join(p.text for p in artifact.parts if isinstance(p, TextPart))
                print(f"task {status.state}: {text}")
            case Message(parts=parts):
                print("message:", parts)
            case _:
                print("task without artifacts:", answer)

        with client.stream_message(message=user_message("streamed")) as events:
            for event in events:
                match event:
                    case Task(status=status):
                        print(f"  task {status.state}")
                    case TaskStatusUpdateEvent(status=status, final=final):
                        print(f"  status {status.state}{' (final)' if final else ''}")
                    case TaskArtifactUpdateEvent(artifact=artifact):
                        print(f"  artifact {artifact.name}")
                    case _:
                        print(f"  {type(event).__name__}")

        waiting = client.send_message(
            message=user_message("wait"), configuration={"blocking": False}
        )
        assert isinstance(waiting, Task)
        print("cancelled:", client.cancel_task(id=waiting.id).status.state)
        try:
            client.cancel_task(id=waiting.id)
        except TaskNotCancelable as exc:
            print(f"again: {exc.message} ({exc.code})")


def main() -> None:
    if len(sys.argv) > 1:
        talk(sys.argv[1])
        return
    with subprocess.Popen(
        [sys.executable, str(AGENT), "--port", "0"], stdout=subprocess.PIPE, text=True
    ) as agent:
        try:
            assert agent.stdout is not None
            url = agent.stdout.readline().strip()  # its first line: its URL
            if not url:
                raise SystemExit(f"{AGENT.name} did not start (exit code {agent.wait()})")
            talk(url)
        finally:
            agent.terminate()


if __name__ == "__main__":
    main()
