"""Local peers for the examples: an ASGI app served on a loopback port in a background thread,
and the independent ``ai-protocol-mock`` provider server (PyPI) started offline on a free port.

Only the examples that need a stand-in import this. It needs the package and, for these
stand-ins, ``uvicorn`` and ``ai-protocol-mock`` (``pip install uvicorn ai-protocol-mock``);
nothing else of the repository: copy ``examples/`` anywhere and it still runs.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Generator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import yaml
from agentproto.llm.registry import manifest_json

MOCK_PROVIDERS = ("openai", "anthropic")
# The bundled openai manifest names no stream decoder: the mock's resolver needs a v2 contract.
MOCK_CONTRACTS = {"openai": {"provider_id": "openai", "api_style": "openai_chat"}}
MOCK_CONTENT = "Mock response from ai-protocol-mock"
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def serve(app: Any) -> Generator[str, None, None]:
    """Serve an ASGI app on 127.0.0.1 (a free port) for the block; yields its base URL."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the loopback server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=5)
        sock.close()


def mock_manifests(folder: Path) -> Path:
    """The offline MANIFEST_DIR the mock reads: the package's bundled manifests, as YAML."""
    providers = folder / "manifests" / "v1" / "providers"
    contracts = folder / "manifests" / "v2" / "contracts"
    providers.mkdir(parents=True)
    contracts.mkdir(parents=True)
    for provider in MOCK_PROVIDERS:
        document = json.loads(manifest_json(provider))
        (providers / f"{provider}.yaml").write_text(
            yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8"
        )
    for provider, contract in MOCK_CONTRACTS.items():
        (contracts / f"{provider}.contract.yaml").write_text(
            yaml.safe_dump(contract, sort_keys=False), encoding="utf-8"
        )
    return folder / "manifests"


@contextmanager
def mock_llm_provider() -> Generator[str, None, None]:
    """ai-protocol-mock on a free loopback port (OpenAI and Anthropic formats); yields the
    base URL a client takes (``http://127.0.0.1:N/v1``)."""
    with tempfile.TemporaryDirectory(prefix="agentproto-mock-") as name:
        folder = Path(name)
        port = free_port()
        env = {k: v for k, v in os.environ.items() if k not in PROXY_VARIABLES}
        env.update(  # every setting the mock reads, pinned: no stray .env changes it
            MANIFEST_DIR=str(mock_manifests(folder)),
            MANIFEST_SYNC_URL="http://127.0.0.1:9/",
            HTTP_PORT=str(port),
            MCP_PORT=str(port),
            RESPONSE_DELAY="0",
            ERROR_RATE="0",
            MOCK_CONTENT=MOCK_CONTENT,
            PYTHON_DOTENV_DISABLED="1",
            NO_PROXY="*",
            no_proxy="*",
        )
        command = [sys.executable, "-m", "uvicorn", "ai_protocol_mock.main:app"]
        command += ["--host", "127.0.0.1", "--port", str(port), "--no-access-log"]
        with (folder / "mock.log").open("wb") as log:
            process = subprocess.Popen(
                command, cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log
            )
        try:
            base_url = f"http://127.0.0.1:{port}"
            wait_healthy(process, base_url + "/health", folder / "mock.log")
            yield base_url + "/v1"
        finally:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)


def wait_healthy(process: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + 30
    with httpx.Client(trust_env=False, timeout=1.0) as client:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"ai-protocol-mock exited: {log.read_text(errors='replace')}")
            try:
                if client.get(url).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"ai-protocol-mock did not answer {url} within 30 s")
            time.sleep(0.05)
