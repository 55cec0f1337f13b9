"""An AAP application as a user writes it from the docs: typed requests built with keywords."""

from __future__ import annotations

from agentproto.aap.models import (
    AgentConfig,
    PostSessionsRequest,
    TextContentBlock,
    UserMessage,
)


def create_request(agent: str, text: str) -> PostSessionsRequest:
    message = UserMessage(role="user", content=[TextContentBlock(type="text", text=text)])
    return PostSessionsRequest(agent=AgentConfig(name=agent), messages=[message])


if __name__ == "__main__":
    print(create_request("echo", "hi").model_dump_json(exclude_none=True))
