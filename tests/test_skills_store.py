"""The provider kit's execution stores, one contract for all three: in memory, SQLite (a file)
and PostgreSQL (a real server started for the test session, tests/support/postgres.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import anyio
import pytest
from agentproto.skills.store import (
    ExecutionStore,
    MemoryExecutionStore,
    SQLiteExecutionStore,
    StoreError,
    open_execution_store,
)
from agentproto.skills.store_postgres import PostgresExecutionStore

from tests.support.postgres import PostgresServer

pytestmark = pytest.mark.anyio

Make = Callable[..., ExecutionStore]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Make:
    if request.param == "memory":
        return lambda **bounds: MemoryExecutionStore(**bounds)
    if request.param == "sqlite":
        return lambda **bounds: SQLiteExecutionStore(tmp_path / "executions.db", **bounds)
    server: PostgresServer = request.getfixturevalue("postgres")
    dsn = server.database()
    return lambda **bounds: PostgresExecutionStore(dsn, **bounds)


@pytest.fixture
async def store(make_store: Make) -> AsyncIterator[ExecutionStore]:
    found = make_store()
    await found.open()
    try:
        yield found
    finally:
        await found.aclose()


async def test_an_execution_round_trips_as_its_json_text(store: ExecutionStore) -> None:
    text = '{"execution_id":"e1","status":"accepted","note":"Sé ✓"}'
    await store.create("e1", "alice", "t/skill", "accepted", text, 30)
    found = await store.get("e1")
    assert found is not None
    assert (found.principal, found.skill_id, found.status, found.document) == (
        "alice", "t/skill", "accepted", text,
    )  # fmt: skip
    assert not found.orphaned
    assert await store.get("nope") is None
    assert await store.update("e1", "completed", '{"status":"completed"}', lease=None)
    found = await store.get("e1")
    assert found is not None and found.status == "completed" and not found.orphaned
    # a finished execution is no longer held: a late write is refused
    assert not await store.update("e1", "failed", "{}", lease=None)
    assert await store.count() == 1


async def test_an_execution_whose_lease_ran_out_is_orphaned_and_ended_once(
    store: ExecutionStore,
) -> None:
    await store.create("e1", None, "t/s", "accepted", "{}", 0.2)
    await store.create("e2", None, "t/s", "accepted", "{}", 0.2)
    await anyio.sleep(0.1)
    renewal = await store.renew(["e2", "gone"], 30)
    assert renewal.lost == {"gone"} and not renewal.cancelled
    await anyio.sleep(0.3)
    first = await store.get("e1")
    assert first is not None and first.orphaned
    second = await store.get("e2")
    assert second is not None and not second.orphaned  # renewed
    assert await store.fail_orphan("e1", '{"status":"failed"}')
    assert not await store.fail_orphan("e1", '{"status":"failed"}')  # once
    assert not await store.fail_orphan("e2", "{}")  # still held
    ended = await store.get("e1")
    assert ended is not None and ended.status == "failed" and not ended.orphaned
    # the stalled process comes back: its writes are refused
    assert not await store.update("e1", "completed", "{}", lease=None)
    assert (await store.renew(["e1"], 30)).lost == {"e1"}


async def test_a_cancel_request_reaches_the_holder_at_its_next_renewal(
    store: ExecutionStore,
) -> None:
    await store.create("e1", None, "t/s", "running", "{}", 30)
    assert await store.request_cancel("e1")
    renewal = await store.renew(["e1"], 30)
    assert renewal.cancelled == {"e1"} and not renewal.lost
    assert await store.update("e1", "failed", "{}", lease=None)
    assert not await store.request_cancel("e1")  # it has ended
    assert not await store.request_cancel("nope")


async def test_at_most_max_size_kept_and_each_forgotten_after_its_ttl(make_store: Make) -> None:
    store = make_store(ttl=0.5, max_size=3)
    await store.open()
    try:
        for n in range(5):
            await store.create(f"e{n}", None, "t/s", "accepted", "{}", 30)
            await anyio.sleep(0.01)  # distinct change times
        assert await store.count() == 3
        assert [await store.get(f"e{n}") is None for n in range(5)] == [True] * 2 + [False] * 3
        await store.update("e2", "running", "{}", lease=30)  # e2 is now the youngest
        await store.create("e5", None, "t/s", "accepted", "{}", 30)
        assert await store.get("e3") is None and await store.get("e2") is not None
        await anyio.sleep(0.6)
        assert await store.count() == 0
        assert await store.get("e2") is None
    finally:
        await store.aclose()


@pytest.fixture(params=["sqlite", "postgres"])
def make_shared(request: pytest.FixtureRequest, tmp_path: Path) -> Make:
    if request.param == "sqlite":
        return lambda: SQLiteExecutionStore(tmp_path / "shared.db")
    server: PostgresServer = request.getfixturevalue("postgres")
    dsn = server.database()
    return lambda: PostgresExecutionStore(dsn)


async def test_the_shared_stores_keep_executions_across_a_reopen(make_shared: Make) -> None:
    first = make_shared()
    await first.open()
    await first.create("kept", "bob", "t/s", "completed", '{"x":1}', 30)
    await first.aclose()
    second = make_shared()
    await second.open()
    try:
        found = await second.get("kept")
        assert found is not None and found.document == '{"x":1}' and found.principal == "bob"
    finally:
        await second.aclose()


async def test_bad_urls_and_closed_stores_are_clear_errors(tmp_path: Path) -> None:
    assert isinstance(open_execution_store("memory:"), MemoryExecutionStore)
    assert isinstance(open_execution_store(f"sqlite:///{tmp_path}/x.db"), SQLiteExecutionStore)
    assert isinstance(
        open_execution_store("postgresql://u:p@127.0.0.1:1/db"), PostgresExecutionStore
    )
    for url in ("redis://x", "sqlite://relative.db", "sqlite:///"):
        with pytest.raises(StoreError):
            open_execution_store(url)
    with pytest.raises(StoreError, match="not open"):
        await SQLiteExecutionStore(tmp_path / "y.db").get("e")
    secret = PostgresExecutionStore("postgresql://u:hunter2-pw@127.0.0.1:1/db", connect_timeout=2)
    assert "hunter2" not in repr(secret)
    with pytest.raises(StoreError) as caught:
        await secret.open()
    assert "hunter2" not in str(caught.value)
    with pytest.raises(ValueError):
        MemoryExecutionStore(ttl=0)
    with pytest.raises(ValueError):
        SQLiteExecutionStore(tmp_path / "z.db", max_size=0)


def test_a_graceful_shutdown_ends_running_executions_at_once(tmp_path: Path) -> None:
    """The lifespan's shutdown writes EXECUTION_LOST for what runs (a crash leaves it to the
    lease, tests/test_skills_workers.py); the next process answers it at once."""
    from typing import Any

    from agentproto.skills import SkillProvider
    from agentproto.skills.models import InvocationRequest
    from starlette.testclient import TestClient

    def build() -> SkillProvider:
        store = SQLiteExecutionStore(tmp_path / "graceful.db")
        kit = SkillProvider({"name": "G"}, base_url="http://testserver", store=store)

        @kit.skill(id="g/slow", name="S", capability_type="task", description="d", version="1.0.0")
        async def slow(inputs: dict[str, Any], request: InvocationRequest) -> Any:
            await anyio.sleep(60)

        return kit

    body = {"skill_id": "g/slow", "caller": {"id": "t", "type": "agent"}, "inputs": {}}
    with TestClient(build().app) as http:
        execution_id = http.post("/skills/g%2Fslow/invoke", json=body).json()["execution_id"]
        for _ in range(100):
            if http.get(f"/executions/{execution_id}").json()["status"] == "running":
                break
    with TestClient(build().app) as http:  # a new process on the same file, at once
        document = http.get(f"/executions/{execution_id}").json()
    assert document["status"] == "failed" and document["error"]["code"] == "EXECUTION_LOST"
