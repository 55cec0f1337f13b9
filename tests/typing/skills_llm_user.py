"""Skill Sharing and LLM client code as a user writes it from the docs."""

from __future__ import annotations

from agentproto.llm import ChatResponse, LLMClient
from agentproto.skills import SkillsClient
from agentproto.skills.models import InvocationContext, SkillIndex


def skills_of(domain: str) -> list[str]:
    with SkillsClient() as client:
        index: SkillIndex = client.discover(domain)
        return [entry.id for entry in index.skills]


def context(seconds: int) -> InvocationContext:
    return InvocationContext(timeout_ms=seconds * 1000)


def ask(question: str) -> str:
    with LLMClient("openai", api_key="sk-test") as llm:
        reply: ChatResponse = llm.chat([{"role": "user", "content": question}], model="gpt-4o")
        return reply.content
