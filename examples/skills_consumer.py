"""A Skill Sharing consumer: discover a provider's skills, read a descriptor, invoke, poll.

    python examples/skills_consumer.py                        # starts skills_provider.py itself
    python examples/skills_consumer.py http://127.0.0.1:8765  # a provider already running

Discovery reads ``/.well-known/skill-sharing``; every document is validated before use; an
invocation is started and polled to its end. The restricted skill is tried without
credentials first (refused locally, before anything is sent) and then with the API key.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from agentproto.skills import AuthRequiredError, Credentials, SkillsClient

PROVIDER = Path(__file__).with_name("skills_provider.py")


def consume(url: str) -> None:
    with SkillsClient() as client:
        index = client.discover(url)
        print(f"provider: {index.provider.name} ({len(index.skills)} skills)")
        for entry in index.skills:
            print(f"  {entry.id} {entry.version} [{entry.access}]: {entry.description}")

        count = client.get_descriptor(f"{url}/skills/text%2Fword-count/descriptor")
        print("word-count:", client.invoke_and_wait(count, {"text": "one two three four"}))

        entry = next(e for e in index.skills if e.id == "text/shout")
        shout = client.get_descriptor(str(entry.descriptor_url))
        try:
            client.invoke_and_wait(shout, {"text": "hello"})
        except AuthRequiredError as exc:
            print(f"shout without a key: {exc.code} ({exc.details})")
        key = Credentials.of(api_key="demo-key")
        print(
            "shout with a key:", client.invoke_and_wait(shout, {"text": "hello"}, credentials=key)
        )


def main() -> None:
    if len(sys.argv) > 1:
        consume(sys.argv[1].rstrip("/"))
        return
    with subprocess.Popen(
        [sys.executable, str(PROVIDER), "--port", "0"], stdout=subprocess.PIPE, text=True
    ) as provider:
        try:
            assert provider.stdout is not None
            url = provider.stdout.readline().strip()  # its first line: the base URL
            if not url:
                raise SystemExit(f"{PROVIDER.name} did not start (exit code {provider.wait()})")
            consume(url)
        finally:
            provider.terminate()


if __name__ == "__main__":
    main()
