"""An AAP agent answering with any provider of :mod:`agentproto.llm` (hand-written).

::

    from agentproto.aap import AAPServer, ApiKeys, LLMAgent
    from agentproto.llm import AsyncLLMClient

    agent = LLMAgent("assistant", AsyncLLMClient("openai"), model="gpt-4o-mini",
                     system="You are concise.")
    server = AAPServer([agent], store="sqlite:///aap.db", auth=ApiKeys.from_env("AAP_API_KEYS"))
    app = server.app

Each step sends the session's history (as :meth:`Agent.compact` gives it) and the tools the
model may call to the provider. In ``delta`` mode it streams (``AsyncLLMClient.stream``): text
and reasoning deltas are passed on as they come, tool calls when the client has assembled
them; in ``message`` and ``none`` modes it asks for the whole answer (``chat``). The
provider's stop reason maps onto AAP's: a tool call is ``tool_use``, ``max_tokens`` and
``refusal`` (and a content filter) keep their meaning, anything else is ``end_turn``.

What the model is sent, from the AAP history: system, user and assistant messages with their
text and image blocks, tool calls as ``tool_use`` blocks and tool messages as
``tool_result`` s. Thinking blocks are kept in the session's history but not sent back (each
provider wants its own signed form of them), and a message of a role this version does not
know (a newer client's seed history) is left out of what the model sees (logged), never
failing the turn. A ``model`` option, when the agent declares one, picks the model per session.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

from agentproto.aap.agent import (
    Agent,
    StepContext,
    StepEvent,
    StepStop,
    Stop,
    TextDelta,
    ThinkingDelta,
    ToolUse,
)
from agentproto.aap.models import (
    AssistantMessage,
    ContentBlock,
    HistoryMessage,
    ImageContentBlock,
    SystemMessage,
    TextContentBlock,
    ThinkingContentBlock,
    ToolMessage,
    ToolUseContentBlock,
    UserMessage,
)
from agentproto.llm.client import AsyncLLMClient
from agentproto.llm.events import PartialContentDelta, StreamEnd, ToolCallEnded
from agentproto.llm.events import ThinkingDelta as LLMThinkingDelta

__all__ = ["LLMAgent", "to_llm_messages"]

log: logging.Logger = logging.getLogger("agentproto.aap.server")


def _blocks(content: str | list[ContentBlock]) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks: list[dict[str, Any]] = []
    for block in content:
        if isinstance(block, TextContentBlock):
            blocks.append({"type": "text", "text": block.text})
        elif isinstance(block, ImageContentBlock):
            blocks.append({"type": "image", "url": block.url})
        elif isinstance(block, ToolUseContentBlock):
            blocks.append(
                {
                    "type": "tool_use",
                    "id": block.tool_call_id,
                    "name": block.name,
                    "input": block.input,
                }
            )
        elif isinstance(block, ThinkingContentBlock):
            continue  # kept in the history, not sent back (see the module docstring)
        else:
            log.debug("a content block of an unknown type is left out of the model's view")
    return blocks


def _text_only(blocks: list[dict[str, Any]]) -> str | list[dict[str, Any]]:
    if all(b["type"] == "text" for b in blocks):
        return "".join(str(b["text"]) for b in blocks)
    return blocks


def to_llm_messages(
    history: Sequence[HistoryMessage], system: str | None = None
) -> list[dict[str, Any]]:
    """The AAP history as :mod:`agentproto.llm` standard messages (see the module docstring);
    ``system`` first when given."""
    messages: list[dict[str, Any]] = []
    if system:
        messages.append({"role": "system", "content": system})
    for message in history:
        if isinstance(message, SystemMessage):
            messages.append({"role": "system", "content": message.content})
        elif isinstance(message, UserMessage | AssistantMessage):
            blocks = _blocks(message.content)
            if blocks:
                messages.append({"role": message.role, "content": _text_only(blocks)})
        elif isinstance(message, ToolMessage):
            blocks = _blocks(message.content)
            content = _text_only(blocks) if blocks else ""
            messages.append(
                {"role": "tool", "tool_call_id": message.tool_call_id, "content": content}
            )
        else:
            log.warning("a history message of an unknown role is left out of the model's view")
    return messages


def _stop(finish: str | None, called: bool) -> StepStop:
    if called:
        return "tool_use"
    if finish == "max_tokens":
        return "max_tokens"
    if finish in ("refusal", "content_filter", "safety"):
        return "refusal"
    return "end_turn"


class LLMAgent(Agent):
    """An :class:`~agentproto.aap.agent.Agent` whose steps are chats with ``llm``.

    ``model`` is the model id (a ``model`` option of the agent overrides it per session);
    ``system`` a system prompt put before the history; ``params`` any other standard
    parameter the provider's manifest maps (``temperature``, ``max_tokens``...). The other
    keywords are :class:`Agent`'s.
    """

    def __init__(
        self,
        name: str,
        llm: AsyncLLMClient,
        *,
        model: str | None = None,
        system: str | None = None,
        params: dict[str, Any] | None = None,
        **agent: Any,
    ) -> None:
        super().__init__(name, **agent)
        self.llm: AsyncLLMClient = llm
        self.model: str | None = model
        self.system: str | None = system
        self.params: dict[str, Any] = dict(params or {})

    def __repr__(self) -> str:
        return f"<LLMAgent {self.name!r} {self.llm.manifest.id}/{self.model}>"

    def _model(self, context: StepContext) -> str | None:
        return context.options.get("model") or self.model

    async def step(self, context: StepContext) -> AsyncIterator[StepEvent]:
        messages = to_llm_messages(context.history, self.system)
        tools = [
            {"name": t.name, "description": t.description, "parameters": t.parameters}
            for t in context.tools
        ]
        model = self._model(context)
        if context.stream:
            called = False
            finish: str | None = None
            async with self.llm.stream(
                messages, model=model, tools=tools or None, params=self.params or None
            ) as stream:
                async for event in stream:
                    if isinstance(event, PartialContentDelta):
                        if event.content:
                            yield TextDelta(event.content)
                    elif isinstance(event, LLMThinkingDelta):
                        if event.thinking:
                            yield ThinkingDelta(event.thinking)
                    elif isinstance(event, ToolCallEnded) and event.input is not None:
                        called = True  # (arguments that are not JSON: the stream raises next)
                        yield ToolUse(event.tool_call_id, event.tool_name, event.input)
                    elif isinstance(event, StreamEnd):
                        finish = event.finish_reason
            yield Stop(_stop(finish, called))
            return
        answer = await self.llm.chat(
            messages, model=model, tools=tools or None, params=self.params or None
        )
        if answer.thinking:
            yield ThinkingDelta(answer.thinking)
        if answer.content:
            yield TextDelta(answer.content)
        for call in answer.tool_calls:
            yield ToolUse(call.id, call.name, dict(call.input))
        yield Stop(_stop(answer.finish_reason, bool(answer.tool_calls)))
