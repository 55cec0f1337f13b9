"""A Skill Sharing provider built with the package's provider kit, served on loopback.

    python examples/skills_provider.py [--port 8765]      # then: examples/skills_consumer.py URL

Two skills: ``text/word-count`` (public, no credentials) and ``text/shout`` (restricted: an
API key in ``X-Text-Key``; the key ``demo-key`` belongs to the principal ``alice``). The first
line printed is the provider's base URL; it serves until interrupted. Needs the provider extra
and an ASGI server: ``pip install "agentproto[provider]" uvicorn``.
"""

from __future__ import annotations

import argparse
import socket
from typing import Any

import uvicorn
from agentproto.skills import SkillProvider
from agentproto.skills.models import InvocationRequest

API_KEY = "demo-key"


def build_provider(base_url: str) -> SkillProvider:
    provider = SkillProvider(
        {"name": "Text tools", "url": "https://example.org/text-tools"},
        base_url=base_url,
        api_keys={API_KEY: "alice"},  # key -> principal
    )

    @provider.skill(
        id="text/word-count",
        name="Word count",
        description="Counts the words of a text.",
        capability_type="api",
        version="1.0.0",
        inputs=[{"name": "text", "type": "string", "required": True}],
        output={"content_type": "application/json"},
    )
    def word_count(inputs: dict[str, Any], request: InvocationRequest) -> dict[str, int]:
        return {"words": len(str(inputs["text"]).split())}

    @provider.skill(
        id="text/shout",
        name="Shout",
        description="Upper-cases a text, for callers with a key.",
        capability_type="api",
        version="1.1.0",
        inputs=[{"name": "text", "type": "string", "required": True}],
        auth={"type": "api_key", "header": "X-Text-Key"},
        access="restricted",
    )
    async def shout(inputs: dict[str, Any], request: InvocationRequest) -> str:
        return f"{str(inputs['text']).upper()}!"

    return provider


def main() -> None:
    parser = argparse.ArgumentParser(description="A Skill Sharing provider on loopback.")
    parser.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    port = parser.parse_args().port
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    provider = build_provider(base_url)
    print(base_url, flush=True)
    config = uvicorn.Config(provider.app, log_level="warning", lifespan="off")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
