"""Run the independent ``ai-protocol-mock`` provider server (PyPI 1.1.1) offline on loopback.

``start_mock_provider(tmp_dir)`` builds a private MANIFEST_DIR from the repository's provider
manifests (JSON converted to the YAML the mock loads), starts
``python -m uvicorn ai_protocol_mock.main:app`` on a free 127.0.0.1 port and waits for
``GET /health``.  The mock never syncs manifests by itself (its ``sync`` package is empty); the
environment below still pins every setting it reads so that no stray ``.env`` or shell variable
can change its behaviour, and all polling here uses ``trust_env=False`` so it never goes through
a proxy.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import IO, Any

import httpx
import yaml

_REPO_ROOT = Path(__file__).resolve().parents[2]
_MANIFEST_SOURCE = _REPO_ROOT / "schemas" / "ai_protocol" / "providers"
_PROVIDERS = ("openai", "anthropic")
# openai.json has no streaming.decoder.strategy, so the mock's resolver needs a v2 contract.
_CONTRACTS: dict[str, dict[str, Any]] = {
    "openai": {"provider_id": "openai", "api_style": "openai_chat"},
}
_DEFAULT_CONTENT = "Mock response from ai-protocol-mock"
_STARTUP_TIMEOUT_S = 30.0
_STOP_GRACE_S = 5.0
_PROXY_VARS = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
)


class MockProviderError(RuntimeError):
    """The mock provider server could not be started."""


class MockProvider:
    """A running ``ai-protocol-mock`` subprocess; ``base_url`` is ``http://127.0.0.1:PORT``."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        port: int,
        manifest_dir: Path,
        log_files: tuple[IO[bytes], IO[bytes]],
        stderr_path: Path,
    ) -> None:
        self.process = process
        self.port = port
        self.base_url = f"http://127.0.0.1:{port}"
        self.manifest_dir = manifest_dir
        self.stderr_path = stderr_path
        self._log_files = log_files

    def stderr_text(self) -> str:
        """Everything the server has written to stderr so far."""
        try:
            return self.stderr_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        """Terminate the server; kill it if it has not exited after 5 s.  Idempotent."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=_STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=_STOP_GRACE_S)
        for handle in self._log_files:
            if not handle.closed:
                handle.close()

    def __enter__(self) -> MockProvider:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def build_manifest_dir(tmp_dir: Path) -> Path:
    """Write the offline MANIFEST_DIR the mock needs under ``tmp_dir`` and return it."""
    manifest_dir = tmp_dir / "manifests"
    providers_dir = manifest_dir / "v1" / "providers"
    contracts_dir = manifest_dir / "v2" / "contracts"
    providers_dir.mkdir(parents=True, exist_ok=True)
    contracts_dir.mkdir(parents=True, exist_ok=True)
    for provider in _PROVIDERS:
        data = json.loads((_MANIFEST_SOURCE / f"{provider}.json").read_text(encoding="utf-8"))
        (providers_dir / f"{provider}.yaml").write_text(
            yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8"
        )
    for provider, contract in _CONTRACTS.items():
        (contracts_dir / f"{provider}.contract.yaml").write_text(
            yaml.safe_dump(contract, sort_keys=False), encoding="utf-8"
        )
    return manifest_dir


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _server_env(manifest_dir: Path, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _PROXY_VARS}
    env.update(
        {
            # Every variable ai_protocol_mock.config reads, pinned (load_dotenv never overrides).
            "MANIFEST_DIR": str(manifest_dir),
            "MANIFEST_SYNC_URL": "http://127.0.0.1:9/",  # unused by 1.1.1; never a real host
            "HTTP_PORT": str(port),
            "MCP_PORT": str(port),
            "RESPONSE_DELAY": "0",
            "ERROR_RATE": "0",
            "MOCK_CONTENT": _DEFAULT_CONTENT,
            "PYTHON_DOTENV_DISABLED": "1",
            "NO_PROXY": "*",
            "no_proxy": "*",
            "PYTHONUNBUFFERED": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    return env


def _wait_healthy(provider: MockProvider, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    url = f"{provider.base_url}/health"
    with httpx.Client(trust_env=False, timeout=1.0) as client:
        while True:
            if provider.process.poll() is not None:
                raise MockProviderError(
                    f"ai-protocol-mock exited with code {provider.process.returncode} before "
                    f"answering {url}; stderr:\n{provider.stderr_text()}"
                )
            try:
                if client.get(url).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise MockProviderError(
                    f"ai-protocol-mock did not answer {url} within {timeout:g} s; "
                    f"stderr:\n{provider.stderr_text()}"
                )
            time.sleep(0.05)


def start_mock_provider(tmp_dir: Path, *, timeout: float = _STARTUP_TIMEOUT_S) -> MockProvider:
    """Start ``ai-protocol-mock`` on a free 127.0.0.1 port, wait for ``/health``, return it.

    The caller must call ``.stop()`` (or use the result as a context manager).
    """
    tmp_dir = tmp_dir.resolve()
    tmp_dir.mkdir(parents=True, exist_ok=True)
    manifest_dir = build_manifest_dir(tmp_dir)
    port = _free_port()
    stdout_path = tmp_dir / "mock_provider.stdout.log"
    stderr_path = tmp_dir / "mock_provider.stderr.log"
    stdout_file = stdout_path.open("wb")
    stderr_file = stderr_path.open("wb")
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        "ai_protocol_mock.main:app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-access-log",
    ]
    try:
        process = subprocess.Popen(
            cmd,
            cwd=tmp_dir,
            env=_server_env(manifest_dir, port),
            stdin=subprocess.DEVNULL,
            stdout=stdout_file,
            stderr=stderr_file,
        )
    except BaseException:
        stdout_file.close()
        stderr_file.close()
        raise
    provider = MockProvider(process, port, manifest_dir, (stdout_file, stderr_file), stderr_path)
    try:
        _wait_healthy(provider, timeout)
    except BaseException:
        provider.stop()
        raise
    return provider
