"""One LLM client driven by a provider manifest: chat, stream, structured output.

    python examples/llm_chat.py                            # against a local mock provider
    python examples/llm_chat.py https://api.openai.com/v1  # a real one ($OPENAI_API_KEY)

Without an argument it starts ai-protocol-mock (an independent mock of the OpenAI and Anthropic
APIs, from PyPI) on a free loopback port: offline, no key. The same calls work with any bundled
provider id (``"anthropic"``, ``"deepseek"``, ...): the manifest says how to talk to it.
"""

from __future__ import annotations

import os
import sys
from contextlib import AbstractContextManager, nullcontext

import pydantic
from agentproto.llm import LLMClient
from agentproto.llm.events import PartialContentDelta


class ShoppingList(pydantic.BaseModel):  # the mock answers every JSON schema with this shape
    count: int
    items: list[str]


def talk(base_url: str, api_key: str, model: str) -> None:
    hello = [{"role": "user", "content": "Say hello."}]
    with LLMClient("openai", base_url=base_url, api_key=api_key, structured_output=True) as llm:
        reply = llm.chat(hello, model=model, temperature=0.2)
        tokens = reply.usage.total_tokens if reply.usage else None
        print(f"chat: {reply.content!r} ({reply.finish_reason}, {tokens} tokens)")

        with llm.stream(hello, model=model) as stream:
            print("stream: ", end="")
            for event in stream:
                if isinstance(event, PartialContentDelta):
                    print(event.content, end="", flush=True)
            print(f" ({stream.final_response().finish_reason})")

        question = [{"role": "user", "content": "Three things to buy, as JSON."}]
        answer = llm.parse(question, model=model, response_format=ShoppingList)
        print(f"parsed: {answer.parsed!r}")


def main() -> None:
    if len(sys.argv) > 1:
        peer: AbstractContextManager[str] = nullcontext(sys.argv[1])
        key, model = os.environ.get("OPENAI_API_KEY", ""), "gpt-4o-mini"
    else:
        from _peers import mock_llm_provider

        peer, key, model = mock_llm_provider(), "sk-local-mock", "mock-model"
    with peer as base_url:
        talk(base_url, key, model)


if __name__ == "__main__":
    main()
