"""Scripted agents for the AAP server kit's tests (in-process, and in server processes through
``python -m agentproto.aap.serve --agent tests.servers.aap_agents:agents``).

``scripted`` answers the last user message:

- ``call <tool> [<json input>]``: calls that tool (any name: a client tool, a server tool, a
  name nobody knows); ``call tools``: every client tool of the step (``{"a": 2, "b": 3}``)
  and every server tool (``{"path": "/tmp/x"}``), in that order;
- ``think <text>``: thinking, then the text;
- ``hold <seconds>``: waits, then answers ``held``; ``CANCELLED`` records each step that was
  cancelled while it waited (by the turn's end, a client's disconnect, a timeout);
- ``big <n>``: a text of ``n`` characters;
- ``pid``: the server process's id; ``spin <seconds>``: the pid, then blocks its process's
  event loop that long (so the next connection goes to another worker);
- ``loop``: calls ``clock`` at every step, forever;
- ``fail``: the step raises (with a would-be secret in the message, which must never leave);
- ``options``: the option values and the secret options it sees, as text;
- anything else: ``echo: <text>``, in 4-character deltas.

After tool results (the last message is a tool message) it answers
``results: <id>=<content>; ...`` for the results that came after its last call.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
import uuid
from collections.abc import AsyncIterator

import anyio
from agentproto.aap import Agent, StepContext
from agentproto.aap.agent import Stop, TextDelta, ThinkingDelta, ToolUse, last_user_text
from agentproto.aap.models import AssistantMessage, TextContentBlock, ToolMessage

CANCELLED: list[str] = []
LEAK = "sk-internal-do-not-leak-4242"


def _results(context: StepContext) -> str:
    parts = []
    for message in reversed(context.history):
        if isinstance(message, AssistantMessage):
            break
        if isinstance(message, ToolMessage):
            content = message.content
            text = (
                content
                if isinstance(content, str)
                else "".join(b.text for b in content if isinstance(b, TextContentBlock))
            )
            parts.append(f"{message.tool_call_id}={text}")
    return "results: " + "; ".join(reversed(parts))


async def scripted(
    context: StepContext,
) -> AsyncIterator[TextDelta | ThinkingDelta | ToolUse | Stop]:
    if last_user_text(context.history) == "loop":  # calls clock forever
        yield ToolUse(f"call_{uuid.uuid4().hex[:8]}", "clock", {})
        return
    if context.history and isinstance(context.history[-1], ToolMessage):
        yield TextDelta(_results(context))
        yield Stop("end_turn")
        return
    text = last_user_text(context.history)
    word, _, rest = text.partition(" ")
    if word == "call" and rest == "tools":
        for tool in context.tools:
            server = tool.name in ("clock", "delete_files")
            args = {"path": "/tmp/x"} if server else {"a": 2, "b": 3}
            yield ToolUse(f"call_{uuid.uuid4().hex[:8]}", tool.name, args)
        return
    if word == "call":
        name, _, raw = rest.partition(" ")
        yield ToolUse(f"call_{uuid.uuid4().hex[:8]}", name, json.loads(raw) if raw else {})
        return
    if word == "think":
        yield ThinkingDelta("considering ")
        yield ThinkingDelta("it")
        yield TextDelta(rest)
        yield Stop("end_turn")
        return
    if word == "hold":
        try:
            await anyio.sleep(float(rest))
        except BaseException:
            CANCELLED.append(context.session_id)
            raise
        yield TextDelta("held")
        return
    if word in ("pid", "spin"):
        yield TextDelta(f"pid {os.getpid()}")
        if word == "spin":
            await anyio.sleep(0.2)  # the pid goes out first
            time.sleep(float(rest))  # blocks this worker on purpose
        return
    if word == "big":
        yield TextDelta("x" * int(rest))
        return
    if word == "fail":
        raise RuntimeError(f"upstream refused key {LEAK}")
    if word == "options":
        shown = {**context.options, **{k: v.reveal() for k, v in context.secrets.items()}}
        context_shown = repr(dataclasses.replace(context, history=[]))  # history may quote it
        yield TextDelta(json.dumps({"options": shown, "repr": context_shown}, sort_keys=True))
        return
    reply = f"echo: {text}"
    for i in range(0, len(reply), 4):
        yield TextDelta(reply[i : i + 4])
    yield Stop("end_turn")


def make_echo(name: str = "echo", **options: object) -> Agent:
    """The scripted agent with two server tools (``clock`` and ``delete_files``), a select
    option ``model`` and a secret option ``upstream_key``."""
    agent = Agent(
        name,
        step=scripted,
        version="1.0.0",
        title="Echo",
        description="Echoes, and calls tools when asked.",
        options=[
            {"type": "select", "name": "model", "options": ["small", "large"], "default": "small"},
            {"type": "secret", "name": "upstream_key", "default": ""},
        ],
        images=("http", "data"),
        **options,  # type: ignore[arg-type]
    )

    @agent.tool
    def clock() -> str:
        """Current time."""
        return "12:00"

    @agent.tool
    def delete_files(path: str) -> str:
        """Delete files."""
        return f"deleted {path}"

    return agent


def agents() -> list[Agent]:
    """What the server processes of the tests serve."""
    return [
        make_echo(),
        Agent("plain", step=scripted, history=("full",), stream=("none",), client_tools=False),
    ]
