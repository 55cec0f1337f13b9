"""The AAP server's session stores, one contract for both: SQLite (a file) and PostgreSQL (a
real server started for the test session, tests/support/postgres.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import anyio
import pytest
from agentproto.aap import PostgresStore, SessionStore, SQLiteStore
from agentproto.aap.store import StoreError, open_store

from tests.support.postgres import PostgresServer

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["sqlite", "postgres"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], SessionStore]:
    if request.param == "sqlite":
        return lambda: SQLiteStore(tmp_path / "sessions.db")
    server: PostgresServer = request.getfixturevalue("postgres")
    dsn = server.database()
    return lambda: PostgresStore(dsn)


@pytest.fixture
async def store(make_store: Callable[[], SessionStore]) -> AsyncIterator[SessionStore]:
    found = make_store()
    await found.open()
    try:
        yield found
    finally:
        await found.aclose()


AGENT = {"name": "echo", "options": {"model": "small"}}
MESSAGES = [
    {"role": "system", "content": "Sé breve ✓"},
    {
        "role": "user",
        "content": [{"type": "text", "text": "hi"}],
        "zeta": 1,
        "alpha": {"b": 1, "a": 2},
    },
]


async def test_sessions_round_trip_and_belong_to_their_owner(store: SessionStore) -> None:
    made = await store.create_session("s1", "alice", AGENT, [{"name": "t"}], MESSAGES)
    assert made.length == 2
    found = await store.get_session("s1", "alice")
    assert found is not None and found.agent == AGENT and found.tools == [{"name": "t"}]
    assert await store.get_session("s1", "bob") is None
    assert await store.get_session("s1", None) is None
    history = await store.messages("s1")
    assert history == MESSAGES
    assert list(history[1]) == ["role", "content", "zeta", "alpha"]  # key order as written
    assert await store.delete_session("s1", "bob") is False
    assert await store.delete_session("s1", "alice") is True
    assert await store.messages("s1") == []  # the history goes with it
    assert await store.delete_session("s1", "alice") is False


async def test_listing_pages_by_creation_order(store: SessionStore) -> None:
    for n in range(5):
        await store.create_session(f"s{n}", "alice", AGENT, None, [])
    await store.create_session("other", "bob", AGENT, None, [])
    await store.create_session("open", None, AGENT, None, [])
    first = await store.list_sessions("alice", None, 2)
    assert [r.session_id for r in first] == ["s0", "s1"]
    rest = await store.list_sessions("alice", first[-1].seq, 10)
    assert [r.session_id for r in rest] == ["s2", "s3", "s4"]
    assert [r.session_id for r in await store.list_sessions(None, None, 10)] == ["open"]
    assert await store.count_sessions("alice") == 5 and await store.count_sessions("carol") == 0


async def test_one_turn_at_a_time_with_a_lease(store: SessionStore) -> None:
    await store.create_session("s", "alice", AGENT, None, [])
    assert (await store.begin_turn("nope", "alice", "t0", 30)).claim == "missing"
    assert (await store.begin_turn("s", "bob", "t0", 30)).claim == "missing"
    assert (await store.begin_turn("s", "alice", "t1", 30)).claim == "started"
    assert (await store.begin_turn("s", "alice", "t2", 30)).claim == "busy"
    assert await store.save_turn("s", "t2", messages=[{"role": "user", "content": "x"}]) is False
    assert await store.messages("s") == []  # a turn without the lease writes nothing
    assert await store.save_turn("s", "t1", agent={"name": "echo"}, tools=[], messages=MESSAGES)
    assert await store.save_turn("s", "t1", messages=[{"role": "assistant", "content": "ok"}])
    again = await store.begin_turn("s", "alice", "t1b", 30)
    assert again.claim == "busy" and again.record is None and again.messages is None
    record = await store.get_session("s", "alice")
    assert record is not None and record.length == 3 and record.agent == {"name": "echo"}
    assert [m["role"] for m in await store.messages("s")] == ["system", "user", "assistant"]
    await store.end_turn("s", "t2")  # not the holder: nothing happens
    assert (await store.begin_turn("s", "alice", "t3", 30)).claim == "busy"
    await store.end_turn("s", "t1")
    started = await store.begin_turn("s", "alice", "t3", 0.2)
    assert started.claim == "started" and started.record is not None
    assert started.record.length == 3 and started.messages == [
        *MESSAGES,
        {"role": "assistant", "content": "ok"},
    ]
    assert await store.renew_turn("s", "t3", 0.2)
    await anyio.sleep(0.4)  # the holder died: its lease runs out, another turn may start
    assert (await store.begin_turn("s", "alice", "t4", 30)).claim == "started"
    assert await store.renew_turn("s", "t3", 30) is False  # the old turn learns it lost
    await store.create_session("s2", "alice", AGENT, None, [])
    assert (await store.begin_turn("s2", "alice", "u1", 30)).claim == "started"
    lost = await store.renew_turns([("s", "t3"), ("s", "t4"), ("s2", "u1"), ("gone", "x")], 30)
    assert lost == {("s", "t3"), ("gone", "x")}  # one call renews the held, names the lost
    assert await store.save_turn("s", "t3", messages=[{"role": "user", "content": "late"}]) is False
    assert await store.save_turn("s", "t4", messages=[], release=True)  # written and released
    assert (await store.begin_turn("s", "alice", "t5", 30)).claim == "started"
    await store.delete_session("s", "alice")
    assert await store.renew_turn("s", "t5", 30) is False


async def test_concurrent_claims_have_one_winner(
    store: SessionStore, make_store: Callable[[], SessionStore]
) -> None:
    await store.create_session("s", "alice", AGENT, None, [])
    other = make_store()  # a second process's connection to the same data
    await other.open()
    results: list[str] = []

    async def claim(target: SessionStore, n: int) -> None:
        results.append((await target.begin_turn("s", "alice", f"t{n}", 30)).claim)

    try:
        async with anyio.create_task_group() as group:
            for n in range(20):
                group.start_soon(claim, store if n % 2 else other, n)
    finally:
        await other.aclose()
    assert sorted(results) == ["busy"] * 19 + ["started"]


async def test_the_store_is_created_once_and_reopens_with_its_data(
    make_store: Callable[[], SessionStore],
) -> None:
    first, second = make_store(), make_store()
    async with anyio.create_task_group() as group:  # two processes starting together
        group.start_soon(first.open)
        group.start_soon(second.open)
    await first.create_session("kept", "alice", AGENT, None, MESSAGES)
    await first.aclose()
    await second.aclose()
    again = make_store()
    await again.open()
    try:
        assert await again.messages("kept") == MESSAGES
    finally:
        await again.aclose()


async def test_bad_urls_and_closed_stores_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="unknown store 'redis'"):
        open_store("redis://localhost")
    with pytest.raises(StoreError, match=r"sqlite:///file\.db"):
        open_store("sqlite://relative.db")
    assert isinstance(open_store(f"sqlite:///{tmp_path}/a.db"), SQLiteStore)
    assert open_store("sqlite:///rel.db").path == "rel.db"  # type: ignore[attr-defined]
    with pytest.raises(StoreError, match="not open"):
        await SQLiteStore(tmp_path / "b.db").messages("x")
    secret = PostgresStore("postgresql://aap:hunter2-pw@127.0.0.1:1/aap")
    assert "hunter2-pw" not in repr(secret)
    with pytest.raises(StoreError) as caught:
        await secret.open()  # nothing listens on port 1
    assert "hunter2-pw" not in str(caught.value) and "cannot connect" in str(caught.value)
    with pytest.raises(StoreError, match="prefix"):
        SQLiteStore(tmp_path / "c.db", prefix="x; DROP TABLE")


def test_workers_opening_one_new_sqlite_file_at_once_all_open_it(tmp_path: Path) -> None:
    """Workers started together open one new file at once: switching it to WAL and creating the
    schema can answer "database is locked" without waiting (SQLite calls no busy handler
    there). Each open must wait and succeed. Without the retry, about one open in 200-400
    failed here (so most runs of this test failed); the cost is 800 opens, a few seconds."""
    import threading

    failures: list[BaseException] = []
    for round_ in range(100):
        path = tmp_path / f"race-{round_}.db"
        start = threading.Barrier(8)

        def open_close(path: Path = path, start: threading.Barrier = start) -> None:
            async def main() -> None:
                store = SQLiteStore(path)
                start.wait(10)
                await store.open()
                await store.aclose()

            try:
                anyio.run(main)
            except BaseException as exc:  # collected, reported below
                failures.append(exc)

        workers = [threading.Thread(target=open_close) for _ in range(8)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
        assert not any(worker.is_alive() for worker in workers)
    assert failures == []
