"""An AAP application as a user writes it from the docs: typed requests built with keywords,
nested inputs as models or as dicts."""

from __future__ import annotations

from typing import assert_type

from agentproto.aap import (
    AAPClient,
    AsyncAAPClient,
    AsyncSession,
    CapabilityError,
    IncompleteTurnError,
    Session,
    TurnEvent,
    TurnResult,
    afold_events,
)
from agentproto.aap.models import (
    AgentConfig,
    HistoryMessage,
    PostSessionsRequest,
    StopReason,
    TextContentBlock,
    TextDeltaEvent,
    ToolCallEvent,
    UserMessage,
)


def create_request(agent: str, text: str) -> PostSessionsRequest:
    message = UserMessage(role="user", content=[TextContentBlock(type="text", text=text)])
    return PostSessionsRequest(agent=AgentConfig(name=agent), messages=[message])


if __name__ == "__main__":
    print(create_request("echo", "hi").model_dump_json(exclude_none=True))


def converse(client: AAPClient, agent: str, text: str) -> StopReason | None:
    """Client calls with keywords, checked key by key."""
    created = client.create_session(agent=AgentConfig(name=agent))
    hello = UserMessage(role="user", content=[TextContentBlock(type="text", text=text)])
    return client.create_turn(created.session_id, messages=[hello]).stop_reason


async def converse_async(client: AsyncAAPClient, agent: str) -> str:
    """Nested inputs as plain dicts with the wire's keys: checked too."""
    created = await client.create_session(agent={"name": agent, "options": {"tone": "dry"}})
    await client.create_turn(
        created.session_id,
        messages=[{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
    )
    return created.session_id


def stream_text(client: AAPClient, session_id: str, text: str) -> list[str]:
    hello = UserMessage(role="user", content=[TextContentBlock(type="text", text=text)])
    with client.create_turn_stream(session_id, messages=[hello], mode="delta") as events:
        return [type(event).__name__ for event in events]


def show(event: TurnEvent) -> None:
    """``on_event`` gets the typed event union, narrowed with ``isinstance``."""
    if isinstance(event, TextDeltaEvent):
        print(event.delta, end="")
    elif isinstance(event, ToolCallEvent):
        print(event.name, event.input)


def session_turn(client: AAPClient) -> TurnResult | None:
    """Typed history, per-turn changes, and the errors exported where the session lives."""
    try:
        session = Session.create(client, "echo", mode="delta", server_tools={"clock": True})
    except CapabilityError:
        return None
    history = session.history()
    assert_type(history, list[HistoryMessage])
    try:
        return session.send("Hi", on_event=show, server_tools={}, options={"model": "large"})
    except IncompleteTurnError as exc:
        return exc.result


async def session_turn_async(client: AsyncAAPClient, session_id: str) -> str:
    session = await AsyncSession.load(client, session_id)
    assert_type(await session.history("full"), list[HistoryMessage])
    stream = await client.create_turn_stream(
        session_id, messages=[UserMessage(role="user", content="Hi")], mode="message"
    )
    async with stream as events:
        return (await afold_events(events)).text
