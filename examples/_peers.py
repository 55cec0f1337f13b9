"""Local peers for the examples, taken from the repository's test suite (tests/servers/): an
ASGI app served on a loopback port in a background thread, and the independent
``ai-protocol-mock`` provider server (PyPI) started offline on a free port.

Only the examples that need a stand-in import this; it needs a clone of the repository (the
examples run from anywhere inside it) and the test extra (``pip install -e ".[test]"``).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Generator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[1]
if str(REPOSITORY) not in sys.path:
    sys.path.insert(0, str(REPOSITORY))

from tests.servers.loopback import serve as _serve  # noqa: E402
from tests.servers.mock_provider import start_mock_provider  # noqa: E402


@contextmanager
def serve(app: Any) -> Generator[str, None, None]:
    """Serve an ASGI app on 127.0.0.1 (a free port) for the block; yields its base URL."""
    with _serve(app) as url:
        yield url


@contextmanager
def mock_llm_provider() -> Generator[str, None, None]:
    """ai-protocol-mock on a free loopback port (OpenAI and Anthropic formats); yields the
    base URL a client takes (``http://127.0.0.1:N/v1``)."""
    with tempfile.TemporaryDirectory(prefix="agentproto-mock-") as folder:
        with start_mock_provider(Path(folder)) as provider:
            yield provider.base_url + "/v1"
