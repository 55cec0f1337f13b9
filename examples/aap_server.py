"""An AAP agent, served over HTTP, offline (no LLM: a few rules stand in for the model).

    pip install "./generated[provider]"      # or: export PYTHONPATH=generated
    python examples/aap_server.py --port 8000

then ``python examples/aap_client.py http://127.0.0.1:8000`` talks to it (the API key is
``sk-example``). The agent answers "weather in <city>" with its own server tool
``forecast`` (the client trusts it, so it runs inline), and "where am I?" by calling the
client's tool ``locate``; sessions are kept in a SQLite file, so they survive a restart.
For a real model, replace ``rules`` with ``LLMAgent(..., AsyncLLMClient("openai"), ...)`` or
run ``python -m agentproto.aap.serve --provider openai --model gpt-4o-mini``.
"""

from __future__ import annotations

import argparse
import uuid
from collections.abc import AsyncIterator

import uvicorn
from agentproto.aap import AAPServer, Agent, ApiKeys, StepContext
from agentproto.aap.agent import StepEvent, Stop, TextDelta, ToolUse, last_user_text
from agentproto.aap.models import ToolMessage


def forecast(city: str) -> str:
    """Tomorrow's weather in a city."""
    return f"{city}: 21°C and sunny"


async def rules(context: StepContext) -> AsyncIterator[StepEvent]:
    """One step of the stand-in model: call a tool, or answer."""
    last = context.history[-1]
    if isinstance(last, ToolMessage):  # a tool answered: say what it said
        yield TextDelta(f"Here is what I found: {last.content}")
        yield Stop("end_turn")
        return
    text = last_user_text(context.history).strip().rstrip("?").lower()
    if text.startswith("weather in "):
        yield ToolUse(f"call_{uuid.uuid4().hex[:8]}", "forecast", {"city": text[11:].title()})
    elif text == "where am i" and any(t.name == "locate" for t in context.tools):
        yield ToolUse(f"call_{uuid.uuid4().hex[:8]}", "locate", {})
    else:
        for word in f"You said: {text}. Ask me about the weather.".split(" "):
            yield TextDelta(word + " ")
        yield Stop("end_turn")


agent = Agent(
    "weather",
    step=rules,
    title="Weather",
    description="Knows tomorrow's weather; asks the application where the user is.",
    tools=[forecast],
)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--store", default="sqlite:///aap-example.db")
    args = parser.parse_args()
    server = AAPServer(agent, store=args.store, auth=ApiKeys({"sk-example": "demo"}))
    uvicorn.run(server.app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
