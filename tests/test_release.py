"""Deterministic release of every stream (issue 25): a stream dropped before its first read,
dropped by the cyclic collector, or cancelled mid-read gives its pooled connection back (at
once, or at the client's next call), in the AAP and LLM clients, sync and async; a
``ResourceWarning`` names the line that opened a stream left unclosed.

Every test runs on a pool of one or two connections, with the cyclic collector off (see
``tests.conftest.within``): a leaked connection makes the next call wait for the pool and fail,
it cannot hide behind a collection.
"""

from __future__ import annotations

import gc
import inspect
import warnings
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from agentproto.aap import AAPClient, AsyncAAPClient
from agentproto.aap.models import PostSessionTurnRequest
from agentproto.llm import AsyncLLMClient, LLMClient

from tests.conftest import within
from tests.servers.aap_server import API_KEY, AAPServer
from tests.servers.loopback import serve
from tests.servers.mock_provider import MockProvider, start_mock_provider
from tests.servers.scripted import Answer, Script, scripted_server

ONE = httpx.Limits(max_connections=1)
TWO = httpx.Limits(max_connections=2)
USER = [{"role": "user", "content": "hi"}]
KEY = "sk-test-release-0123"
HI = PostSessionTurnRequest.model_validate({"messages": [{"role": "user", "content": "hi"}]})


@pytest.fixture(scope="module")
def aap_url() -> Iterator[str]:
    with serve(AAPServer().app) as url:
        yield url + "/v1"


@pytest.fixture(scope="module")
def mock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MockProvider]:
    provider = start_mock_provider(tmp_path_factory.mktemp("mock"))
    try:
        yield provider
    finally:
        provider.stop()


@pytest.fixture(scope="module")
def slow() -> Iterator[Script]:
    """An OpenAI-format stream that sends one chunk and then waits 30 s."""
    with scripted_server() as script:
        chunk = b'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\n'
        script.answer(
            Answer(chunks=[chunk, chunk], delay=0.0, content_type="text/event-stream"),
        )
        yield script


def session(client: AAPClient) -> str:
    return client.create_session({"agent": {"name": "echo"}}).session_id


# -- never read ---------------------------------------------------------------------------------


def test_aap_streams_never_read_give_their_connection_back(aap_url: str) -> None:
    """Dropped before the first read, a stream's generator never started, so its ``finally``
    never ran: after as many streams as the pool has connections, every call timed out."""

    def blocking() -> None:
        with (
            httpx.Client(limits=TWO) as http,
            AAPClient(aap_url, api_key=API_KEY, timeout=3, http_client=http) as client,
        ):
            sid = session(client)
            for _ in range(6):
                client.create_turn_stream(sid, HI, mode="delta")  # never bound to a name
                stream = client.create_turn_stream(sid, HI, mode="delta")
                del stream
            assert client.get_session(sid).session_id == sid

    async def main() -> None:
        async with (
            httpx.AsyncClient(limits=TWO) as http,
            AsyncAAPClient(aap_url, api_key=API_KEY, timeout=3, http_client=http) as client,
        ):
            sid = (await client.create_session({"agent": {"name": "echo"}})).session_id
            for _ in range(6):
                await client.create_turn_stream(sid, HI, mode="delta")
                stream = await client.create_turn_stream(sid, HI, mode="delta")
                del stream
                await anyio.sleep(0)  # the close scheduled by the drop runs
            assert (await client.get_session(sid)).session_id == sid

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        within(60, blocking)
        within(60, lambda: anyio.run(main))


def test_llm_streams_never_read_give_their_connection_back(mock: MockProvider) -> None:
    base = mock.base_url + "/v1"

    def blocking() -> None:
        with (
            httpx.Client(limits=TWO) as http,
            LLMClient("openai", api_key=KEY, base_url=base, http_client=http, timeout=3) as llm,
        ):
            for _ in range(6):
                llm.stream(USER, model="m")
                stream = llm.stream(USER, model="m")
                del stream
            assert llm.chat(USER, model="m").content

    async def main() -> None:
        async with (
            httpx.AsyncClient(limits=TWO) as http,
            AsyncLLMClient(
                "openai", api_key=KEY, base_url=base, http_client=http, timeout=3
            ) as llm,
        ):
            for _ in range(6):
                await llm.stream(USER, model="m")
                stream = await llm.stream(USER, model="m")
                del stream
                await anyio.sleep(0)
            assert (await llm.chat(USER, model="m")).content

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        within(60, blocking)
        within(60, lambda: anyio.run(main))


# -- where it was opened ------------------------------------------------------------------------


def test_an_unclosed_stream_warns_where_it_was_opened(aap_url: str, mock: MockProvider) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with AAPClient(aap_url, api_key=API_KEY, timeout=3) as client:
            sid = session(client)
            line = inspect.currentframe().f_lineno + 1  # type: ignore[union-attr]
            client.create_turn_stream(sid, HI, mode="delta")
            with client.create_turn_stream(sid, HI, mode="delta") as events:
                next(iter(events))  # closed by its with block: no warning
            list(client.create_turn_stream(sid, HI, mode="delta"))  # read to its end: none
        with LLMClient("openai", api_key=KEY, base_url=mock.base_url + "/v1") as llm:
            llm_line = inspect.currentframe().f_lineno + 1  # type: ignore[union-attr]
            for _event in llm.stream(USER, model="m"):
                break
    found = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    assert len(found) == 2, found
    assert f"EventStream opened at {__file__}:{line} was not closed" in found[0]
    assert f"ChatStream opened at {__file__}:{llm_line} was not closed" in found[1]


# -- dropped by the cyclic collector -------------------------------------------------------------


def test_a_stream_the_collector_drops_is_closed_at_the_next_call(aap_url: str) -> None:
    """The collector may run anywhere (inside httpcore's pool lock, where closing would
    deadlock): a stream it frees is queued on its client and closed at the next call."""

    def blocking() -> None:
        with (
            httpx.Client(limits=ONE) as http,
            AAPClient(aap_url, api_key=API_KEY, timeout=3, http_client=http) as client,
        ):
            sid = session(client)
            stream = client.create_turn_stream(sid, HI, mode="delta")
            cycle: list[Any] = [stream]
            cycle.append(cycle)
            del stream, cycle
            gc.collect()
            assert len(client._http.orphans) == 1
            assert client.get_session(sid).session_id == sid  # the one connection is free
            assert len(client._http.orphans) == 0

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        within(30, blocking)


# -- cancelled mid-read -------------------------------------------------------------------------


def test_a_stream_cancelled_mid_read_gives_its_connection_back(aap_url: str, slow: Script) -> None:
    """A read cancelled by a cancel scope (level-triggered: every await in it is cancelled
    again) used to abandon the close in the stream's ``finally``."""

    async def main() -> None:
        async with (
            httpx.AsyncClient(limits=ONE) as http,
            AsyncAAPClient(aap_url, api_key=API_KEY, timeout=5, http_client=http) as client,
        ):
            sid = (await client.create_session({"agent": {"name": "echo"}})).session_id
            for _ in range(3):
                stream = await client.create_turn_stream(
                    sid, HI, mode="delta", extra_headers={"X-Misbehave": "stall"}
                )
                with anyio.move_on_after(0.2):
                    async for _ in stream:
                        pass
                del stream
            assert (await client.get_session(sid)).session_id == sid
        async with (
            httpx.AsyncClient(limits=ONE) as http,
            AsyncLLMClient(
                "openai", api_key=KEY, base_url=slow.base_url, http_client=http, timeout=5
            ) as llm,
        ):
            for _ in range(3):
                chat = await llm.stream(USER, model="m")
                with anyio.move_on_after(0.2):
                    async for _ in chat:
                        pass
                del chat

    slow.answer(
        Answer(
            chunks=[b'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\n\n'] * 2,
            delay=1.0,
            content_type="text/event-stream",
        )
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        within(60, lambda: anyio.run(main))
