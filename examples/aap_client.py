"""Talk to an AAP agent: the one of examples/aap_server.py (start it first), or any other.

    python examples/aap_client.py http://127.0.0.1:8000

Streams a turn as it comes (delta mode), lets the agent run its trusted server tool, answers
the agent's call of our own tool ``locate``, and reads the session back.
"""

from __future__ import annotations

import sys

from agentproto.aap import AAPClient, ClientTool, Session
from agentproto.aap.turns import TurnEvent


def locate() -> str:
    """Where the user is."""
    return "Oslo"


def show(event: TurnEvent) -> None:
    if event.event == "text_delta":
        print(getattr(event, "delta", ""), end="", flush=True)
    elif event.event == "tool_call":
        print(f"  [the agent calls {getattr(event, 'name', '?')}]")
    elif event.event == "tool_result":
        print(f"  [a server tool answered: {getattr(event, 'content', '')}]")


def main(url: str) -> None:
    with AAPClient(url, api_key="sk-example") as client:
        agent = client.get_meta().agents[0]
        print(f"agent: {agent.name} {agent.version}: {agent.description}")
        session = Session.create(
            client,
            agent.name,
            tools=[ClientTool.from_function(locate)],  # run here when the agent asks
            server_tools={"forecast": True},  # trusted: runs on the server, inline
            mode="delta",
        )
        for question in ("Hello!", "Weather in Bergen?", "Where am I?"):
            print(f"> {question}")
            result = session.send(question, on_event=show)
            print(f"\n  ({result.stop_reason}) {result.text}")
        history = session.history()
        print(f"session {session.session_id}: {len(history)} messages kept by the server")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
