"""The documentation: the root README, and the site built from docs/ with MkDocs Material and
mkdocstrings in strict mode, offline (a broken link, anchor or API reference fails); the API
reference covers every public module; and every Python block of the README and the site runs
and prints what its marker expects, against a local peer where it talks to one.

(The blocks are type-checked with the rest of the docs' code in tests/test_typing.py.)
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import GENERATED, ROOT
from tests.docs_blocks import Block, blocks_of, doc_pages
from tests.servers.targets import (
    Json,
    Status,
    Stream,
    Targets,
    openai_answer,
    openai_text_stream,
    targets_server,
)

README = ROOT / "README.md"
# The two set-up commands, exactly as CI (.ci/run) and a new user run them.
BUILD_COMMAND = "python3 -m pip install -e . && codegen build"
TEST_COMMAND = 'python3 -m pip install -e ".[test]" && python3 -m pytest'
# Any request that is not to loopback fails at once: the docs build and the blocks run offline.
OFFLINE = {
    "HTTP_PROXY": "http://127.0.0.1:9",
    "HTTPS_PROXY": "http://127.0.0.1:9",
    "ALL_PROXY": "http://127.0.0.1:9",
    "NO_PROXY": "127.0.0.1,localhost",
}


def offline_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.lower() not in {p.lower() for p in OFFLINE}}
    return {**env, **OFFLINE, "PYTHONPATH": str(GENERATED), **extra}


# -- the README -------------------------------------------------------------------------------


def test_readme_is_short_and_holds_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 300
    assert BUILD_COMMAND in text.splitlines() and TEST_COMMAND in text.splitlines()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert TEST_COMMAND in ci, "CI must run the README's test command verbatim"


def _anchor(heading: str) -> str:
    """The id MkDocs (Python-Markdown's toc) gives a heading: lower case, punctuation dropped,
    spaces and hyphens runs made one hyphen."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"[-\s]+", "-", text).strip("-")


def test_readme_links_resolve() -> None:
    """The root README is outside the site's strict build: each relative link it holds names a
    file of the repository, and an anchor one of that page's headings."""
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    relative = [link for link in links if "://" not in link and not link.startswith("#")]
    assert len(relative) >= 10
    for link in relative:
        path, _, anchor = link.partition("#")
        target = ROOT / path
        assert target.exists(), f"README links to {link}: no such file"
        if anchor:
            headings = re.findall(r"^#+ (.+)$", target.read_text(encoding="utf-8"), re.M)
            assert anchor in {_anchor(h) for h in headings}, f"README links to {link}: no anchor"


# -- the site ---------------------------------------------------------------------------------


def public_modules() -> list[str]:
    """Every public module of the generated package (no ``_``-prefixed part in its path)."""
    names = []
    for path in sorted((GENERATED / "agentproto").rglob("*.py")):
        parts = list(path.relative_to(GENERATED).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if not any(part.startswith("_") for part in parts):
            names.append(".".join(parts))
    return names


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mkdocs build --strict`` into a temporary folder, offline."""
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env=offline_env(NO_MKDOCS_2_WARNING="1"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    return out


def test_site_builds_in_strict_mode_with_every_page(site: Path) -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["validation"]["links"]["anchors"] == "warn"  # --strict makes them errors
    for page in (ROOT / "docs").rglob("*.md"):
        relative = page.relative_to(ROOT / "docs").with_suffix("")
        built = site / (
            relative.parent / "index.html" if relative.name == "index" else relative / "index.html"
        )
        assert built.is_file(), f"{page} was not built"


def test_api_reference_covers_every_public_module(site: Path) -> None:
    modules = public_modules()
    assert {"agentproto", "agentproto.acp.models", "agentproto.llm.client"} <= set(modules)
    missing = []
    for module in modules:
        folder = site / "reference" / Path(*module.split("."))
        page = folder / "index.html"
        if not page.is_file() or f'id="{module}"' not in page.read_text(encoding="utf-8"):
            missing.append(module)
    assert not missing, f"no API reference page for {missing}"
    models = (site / "reference/agentproto/acp/models/index.html").read_text(encoding="utf-8")
    assert 'id="agentproto.acp.models.PromptRequest"' in models  # rendered from the types
    assert "Request parameters for sending a user prompt" in models  # and the docstrings


def test_a_broken_link_fails_the_strict_build(tmp_path: Path) -> None:
    """What the strict build guards against: a page linking to a page that does not exist."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n[gone](missing.md)\n")
    config = {"site_name": "t", "docs_dir": "docs", "validation": {"links": {"not_found": "warn"}}}
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump(config))
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "s")],
        cwd=tmp_path,
        env=offline_env(NO_MKDOCS_2_WARNING="1"),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0 and "missing.md" in result.stderr


def test_json_blocks_are_valid_json() -> None:
    """The settings snippets (Zed's agent_servers) can be pasted as they are."""
    found = 0
    for page in doc_pages():
        for block in re.findall(r"```json\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            json.loads(block)
            found += 1
    assert found >= 1


# -- the Python blocks, run -------------------------------------------------------------------

BLOCKS = [block for page in doc_pages() for block in blocks_of(page)]
RUNNABLE = [block for block in BLOCKS if not block.only_embeds]


def test_blocks_that_embed_are_examples_and_every_page_has_runnable_code() -> None:
    for block in BLOCKS:
        assert all(path.startswith("examples/") for path in block.included), block.id
    pages = {block.page for block in RUNNABLE}
    for guide in ("a2a", "acp", "aap", "skills", "flows", "mcp", "llm", "models"):
        assert f"docs/guides/{guide}.md" in pages
    assert "README.md" in pages and "docs/getting-started.md" in pages


class Peers:
    """The local peers the blocks talk to, started on first use, stopped at the end. Each
    gives the replacements that point a block's placeholder service at it."""

    def __init__(self, stack: ExitStack, tmp: Path) -> None:
        self._stack = stack
        self._tmp = tmp
        self._started: dict[str, dict[str, str]] = {}
        self._starters: dict[str, Callable[[], AbstractContextManager[dict[str, str]]]] = {
            "a2a": self._a2a,
            "aap": self._aap,
            "skills": self._skills,
            "llm": self._llm,
            "llm-api": self._llm_api,
            "llm-fallback": self._llm_fallback,
            "llm-providers": self._llm_providers,
            "flows": self._flows,
        }
        self._mock_url = ""
        self._targets: Targets | None = None

    def replacements(self, name: str) -> dict[str, str]:
        if name not in self._started:
            assert name in self._starters, f"unknown peer {name!r}: one of {list(self._starters)}"
            self._started[name] = self._stack.enter_context(self._starters[name]())
        return self._started[name]

    @staticmethod
    @contextmanager
    def _a2a() -> Iterator[dict[str, str]]:
        with subprocess.Popen(
            [sys.executable, str(ROOT / "examples" / "a2a_agent.py"), "--port", "0"],
            env=offline_env(),
            stdout=subprocess.PIPE,
            text=True,
        ) as agent:
            try:
                assert agent.stdout is not None
                url = agent.stdout.readline().strip()
                assert url.startswith("http://127.0.0.1:"), "the example agent did not start"
                yield {"https://agent.example.com/": url}
            finally:
                agent.terminate()

    @staticmethod
    @contextmanager
    def _aap() -> Iterator[dict[str, str]]:
        from tests.servers.aap_server import API_KEY, AAPServer
        from tests.servers.loopback import serve

        with serve(AAPServer().app) as url:
            yield {"https://agents.example.com/v1": f"{url}/v1", '"sk-example"': f'"{API_KEY}"'}

    @staticmethod
    @contextmanager
    def _skills() -> Iterator[dict[str, str]]:
        with subprocess.Popen(
            [sys.executable, str(ROOT / "examples" / "skills_provider.py"), "--port", "0"],
            env=offline_env(),
            stdout=subprocess.PIPE,
            text=True,
        ) as provider:
            try:
                assert provider.stdout is not None
                url = provider.stdout.readline().strip()
                assert url.startswith("http://127.0.0.1:"), "the example provider did not start"
                yield {"http://127.0.0.1:8765": url}
            finally:
                provider.terminate()

    def _mock(self) -> str:
        """ai-protocol-mock's base URL (OpenAI's and Anthropic's routes), started once."""
        if not self._mock_url:
            from tests.servers.mock_provider import start_mock_provider

            mock = self._stack.enter_context(start_mock_provider(self._tmp / "mock"))
            self._mock_url = f"{mock.base_url}/v1"
        return self._mock_url

    def _scripted(self) -> Targets:
        """One loopback server of scripted providers (tests/servers/targets.py), started once."""
        if self._targets is None:
            self._targets = self._stack.enter_context(targets_server())
        return self._targets

    @contextmanager
    def _llm(self) -> Iterator[dict[str, str]]:
        yield {'LLMClient("openai"': f'LLMClient("openai", base_url="{self._mock()}"'}

    @contextmanager
    def _llm_fallback(self) -> Iterator[dict[str, str]]:
        """Anthropic rate-limited (429), OpenAI answered by ai-protocol-mock, DeepSeek's stream
        broken after three words (the connection dropped mid-body)."""
        scripted = self._scripted()
        limited = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
        # Anthropic sends retry-after with a 429: 0 lets the client's retries pass at once.
        anthropic = scripted.plan("fallback-anthropic", Status(429, limited, {"retry-after": "0"}))
        words = openai_text_stream("Once upon a time, there was a stream.")
        deepseek = scripted.plan("fallback-deepseek", Stream(words, break_after=3))
        yield {
            'LLMClient("anthropic"': f'LLMClient("anthropic", base_url="{anthropic}"',
            'LLMClient("openai"': f'LLMClient("openai", base_url="{self._mock()}"',
            'LLMClient("deepseek@v2"': f'LLMClient("deepseek@v2", base_url="{deepseek}"',
        }

    @contextmanager
    def _llm_providers(self) -> Iterator[dict[str, str]]:
        """OpenAI and Anthropic answered by ai-protocol-mock (its Anthropic answers report
        cache writes and reads), DeepSeek and Gemini (which it does not serve) by scripted
        answers: DeepSeek's with cache hits and a tool call written as text."""
        scripted = self._scripted()
        deepseek = scripted.plan("providers-deepseek", Json(DEEPSEEK_ANSWER))
        gemini = scripted.plan("providers-gemini", Json(GEMINI_ANSWER))
        mock = self._mock()
        yield {
            'LLMClient("openai"': f'LLMClient("openai", base_url="{mock}"',
            'LLMClient("anthropic"': f'LLMClient("anthropic", base_url="{mock}"',
            'LLMClient("deepseek@v2"': f'LLMClient("deepseek@v2", base_url="{deepseek}"',
            'LLMClient("gemini@v2"': f'LLMClient("gemini@v2", base_url="{gemini}"',
        }

    @staticmethod
    @contextmanager
    def _llm_api() -> Iterator[dict[str, str]]:
        from tests.servers.loopback import serve

        with serve(openai_stand_in()) as url:
            yield {'LLMClient("openai"': f'LLMClient("openai", base_url="{url}/v1"'}

    @staticmethod
    @contextmanager
    def _flows() -> Iterator[dict[str, str]]:
        from tests.servers.loopback import serve
        from tests.servers.openapi_server import OpenAPIServer

        bundle = ROOT / "schemas" / "agents_json" / "bundles" / "giphy" / "openapi.yaml"
        with serve(OpenAPIServer(yaml.safe_load(bundle.read_text())).app) as url:
            yield {
                "GiphyFlows(": f'GiphyFlows(base_urls={{"giphy": "{url}"}}, ',
                '"https://api.giphy.com/v1"': f'"{url}"',  # a base URL a block names
            }


# DeepSeek's answer: 12,000 prompt tokens of which 10,000 read from its cache, and a tool call
# written as text (the model's "text_fallback" its v2 manifest declares).
DEEPSEEK_ANSWER = openai_answer(
    'Let me look.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>',
    usage={
        "prompt_tokens": 12000,
        "completion_tokens": 500,
        "total_tokens": 12500,
        "prompt_cache_hit_tokens": 10000,
        "prompt_cache_miss_tokens": 2000,
    },
    model="deepseek-v4-flash",
)
GEMINI_ANSWER = {
    "candidates": [
        {
            "content": {"role": "model", "parts": [{"text": "No: 1001 = 7 x 11 x 13."}]},
            "finishReason": "STOP",
        }
    ],
    "usageMetadata": {
        "promptTokenCount": 6,
        "candidatesTokenCount": 12,
        "thoughtsTokenCount": 300,
        "totalTokenCount": 318,
    },
    "modelVersion": "gemini-2.5-flash",
}


def openai_stand_in() -> Any:
    """The routes of the OpenAI API that ai-protocol-mock does not serve, in OpenAI's shapes:
    the model list, embeddings, and a chat that calls ``get_weather`` for the city the user
    names, then answers from the tool's result."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    usage = {"prompt_tokens": 8, "completion_tokens": 6, "total_tokens": 14}

    async def models(request: Request) -> JSONResponse:
        data = [{"id": m, "object": "model", "owned_by": "openai"} for m in ("gpt-4o-mini",)]
        return JSONResponse({"object": "list", "data": data})

    async def embeddings(request: Request) -> JSONResponse:
        body = await request.json()
        size = int(body.get("dimensions") or 8)
        data = [
            {"object": "embedding", "index": i, "embedding": [0.5] * size}
            for i, _ in enumerate(body["input"])
        ]
        return JSONResponse(
            {"object": "list", "data": data, "model": body["model"], "usage": usage}
        )

    async def chat(request: Request) -> JSONResponse:
        body = await request.json()
        results = [m for m in body["messages"] if m["role"] == "tool"]
        if results:
            weather = json.loads(results[-1]["content"])
            text = f"It is {weather['temp']} {weather['unit']} in {weather['city']}."
            message: dict[str, Any] = {"role": "assistant", "content": text}
            finish = "stop"
        else:
            city = body["messages"][-1]["content"].removeprefix("Weather in ").rstrip("?")
            call = {"name": "get_weather", "arguments": json.dumps({"city": city})}
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "call_1", "type": "function", "function": call}],
            }
            finish = "tool_calls"
        choice = {"index": 0, "message": message, "finish_reason": finish}
        return JSONResponse(
            {"id": "c1", "object": "chat.completion", "choices": [choice], "usage": usage}
        )

    return Starlette(
        routes=[
            Route("/v1/models", models, methods=["GET"]),
            Route("/v1/embeddings", embeddings, methods=["POST"]),
            Route("/v1/chat/completions", chat, methods=["POST"]),
        ]
    )


@pytest.fixture(scope="module")
def peers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Peers]:
    with ExitStack() as stack:
        yield Peers(stack, tmp_path_factory.mktemp("peers"))


def pointed_at_peer(block: Block, peers: Peers) -> str:
    """The block's code with its placeholder service replaced by the local peer."""
    code = block.code
    if block.peer is None:
        return code
    replacements = peers.replacements(block.peer)
    used = [old for old in replacements if old in code]
    assert used, f"{block.id}: marked peer={block.peer} but holds none of {list(replacements)}"
    for old in used:
        code = code.replace(old, replacements[old])
    ast.parse(code)  # still a program
    return code


# The keys the blocks read from the environment, as a user's program does (the peers take any).
BLOCK_KEYS = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "DEEPSEEK_API_KEY",
    "GEMINI_API_KEY",
    "AAP_API_KEYS",
)


@pytest.mark.parametrize("block", RUNNABLE, ids=[block.id for block in RUNNABLE])
def test_block_runs_and_prints_what_it_says(block: Block, peers: Peers, tmp_path: Path) -> None:
    program = tmp_path / "block.py"
    program.write_text(pointed_at_peer(block, peers), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, str(program)],
        cwd=ROOT,  # blocks name the repository's files (examples/...) from its root
        env=offline_env(**{name: "sk-docs-test" for name in BLOCK_KEYS}),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, f"{block.id}:\n{result.stdout}\n{result.stderr}"
    for text in block.expect:
        assert text in result.stdout, f"{block.id}: {text!r} not printed:\n{result.stdout}"
