"""Connection handling shared by the package's stores (hand-written): the AAP server's sessions
and the Skill Sharing provider's executions are kept by the same two pieces.

- :class:`SQLiteDatabase`: one SQLite file over stdlib :mod:`sqlite3`, every statement on a
  thread of its own (never on the event loop), one at a time per store, WAL journal so several
  server processes on one host can share the file, ``busy_timeout`` so they wait for each
  other's writes instead of failing. On asyncio the thread takes what waits in one batch per
  wake-up and hands the results back in one call (a thread hop per batch, not one each way
  per statement: at 200 concurrent clients the hand-off, not SQLite, was the store's cost).
- :func:`open_pool`: an ``asyncpg`` pool (the ``postgres`` extra) whose tables are created once
  under an advisory lock, so workers starting together do not race; the DSN's password never
  appears in an error. :class:`PostgresPoolStore` is what the PostgreSQL stores build on it:
  their settings, ``open`` / ``aclose`` and the ``pool`` they run their statements on.

Both raise :class:`StoreError` for a store that cannot be opened or used.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import importlib
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeVar, cast

import anyio
import anyio.to_thread
from agentproto._runtime.errors import AgentprotoError
from agentproto._runtime.redact import redact_url

__all__ = [
    "Connection",
    "Pool",
    "PostgresPoolStore",
    "Record",
    "SQLiteDatabase",
    "StoreError",
    "check_prefix",
    "open_pool",
    "rows",
    "transaction",
]

_T = TypeVar("_T")


class StoreError(AgentprotoError, RuntimeError):
    """The store cannot be opened or used (a bad URL, a schema it cannot create)."""


def check_prefix(prefix: str) -> str:
    """A table prefix, checked: it is pasted into SQL, so letters, digits and underscores."""
    if not prefix.replace("_", "").isalnum() or not prefix[:1].isalpha():
        raise StoreError(f"table prefix {prefix!r} must be letters, digits and underscores")
    return prefix


_Item = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[], Any]]


def _deliver(done: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    for future, value, error in done:
        if future.cancelled():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)


class _Batches:
    """The thread running one store's statements, in batches (see the module docstring)."""

    def __init__(self) -> None:
        self._pending: collections.deque[_Item] = collections.deque()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._serve, name="agentproto-sqlite", daemon=True)
        self._thread.start()

    def submit(self, work: Callable[[], _T]) -> asyncio.Future[_T]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[_T] = loop.create_future()
        with self._lock:
            self._pending.append((loop, future, work))
        self._wake.set()
        return future

    def _serve(self) -> None:
        while True:
            self._wake.wait()
            with self._lock:
                batch = list(self._pending)
                self._pending.clear()
                self._wake.clear()
                if self._stopping and not batch:
                    return
            results: dict[asyncio.AbstractEventLoop, list[Any]] = {}
            for loop, future, work in batch:
                try:
                    outcome: tuple[Any, BaseException | None] = (work(), None)
                except BaseException as exc:  # handed to the caller, whatever it is
                    outcome = (None, exc)
                results.setdefault(loop, []).append((future, *outcome))
            for loop, done in results.items():
                with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                    loop.call_soon_threadsafe(_deliver, done)

    def stop(self) -> None:
        """Run what waits, then end the thread."""
        with self._lock:
            self._stopping = True
        self._wake.set()
        self._thread.join()


def _on_asyncio() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # trio (anyio's other backend): its own thread hand-off
        return False
    return True


class SQLiteDatabase:
    """One SQLite connection run on a thread of its own (see the module docstring)."""

    def __init__(self, path: str | Path, *, busy_timeout: float = 10.0) -> None:
        self.path: str = str(path)
        self.busy_timeout: float = busy_timeout
        self._db: sqlite3.Connection | None = None
        self._limiter = anyio.CapacityLimiter(1)
        self._lock = threading.Lock()
        self._batches: _Batches | None = None

    def __repr__(self) -> str:
        return f"SQLiteDatabase({self.path!r})"

    @property
    def is_open(self) -> bool:
        return self._db is not None

    async def run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """``work(connection)`` on the store's thread, one call at a time."""

        def call() -> _T:
            with self._lock:
                if self._db is None:
                    raise StoreError("the store is not open (call open() first)")
                return work(self._db)

        if self._db is not None and _on_asyncio():
            if self._batches is None:
                self._batches = _Batches()
            return await self._batches.submit(call)
        return await anyio.to_thread.run_sync(call, limiter=self._limiter)

    async def open(self, schema: str) -> None:
        """Connect and run ``schema`` (a script of ``CREATE ... IF NOT EXISTS``); idempotent."""
        if self._db is not None:
            return

        def prepare() -> sqlite3.Connection:
            try:
                db = sqlite3.connect(
                    self.path,
                    timeout=self.busy_timeout,
                    isolation_level=None,  # explicit BEGIN / COMMIT by the callers
                    check_same_thread=False,
                )
            except sqlite3.Error as exc:
                raise StoreError(f"cannot open {self.path}: {exc}") from None
            try:
                db.execute("PRAGMA foreign_keys = ON")
                db.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
                if self.path != ":memory:":
                    db.execute("PRAGMA journal_mode = WAL")
                    db.execute("PRAGMA synchronous = NORMAL")
                db.executescript(schema)
            except BaseException:
                db.close()
                raise
            return db

        def connect() -> sqlite3.Connection:
            # Switching to WAL and creating the schema take the file's write lock, and SQLite
            # answers "database is locked" there without calling the busy handler when another
            # process opens the same file at that moment: retried within ``busy_timeout``.
            deadline = time.monotonic() + self.busy_timeout
            while True:
                try:
                    return prepare()
                except sqlite3.OperationalError as exc:
                    locked = "locked" in str(exc) or "busy" in str(exc)
                    if not locked or time.monotonic() >= deadline:
                        raise StoreError(f"cannot prepare {self.path}: {exc}") from None
                except sqlite3.Error as exc:
                    raise StoreError(f"cannot prepare {self.path}: {exc}") from None
                time.sleep(0.05)

        db = await anyio.to_thread.run_sync(connect, limiter=self._limiter)
        self._db = db

    async def aclose(self) -> None:
        batches, self._batches = self._batches, None
        if batches is not None:  # what it was given runs first
            await anyio.to_thread.run_sync(batches.stop, limiter=self._limiter)
        db, self._db = self._db, None
        if db is not None:
            await anyio.to_thread.run_sync(db.close, limiter=self._limiter)


def transaction(db: sqlite3.Connection, work: Callable[[], _T]) -> _T:
    """``work()`` inside ``BEGIN IMMEDIATE`` ... ``COMMIT`` (rolled back if it raises)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = work()
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return result


class Record(Protocol):
    def __getitem__(self, key: int | str) -> Any: ...


class Connection(Protocol):
    """The part of ``asyncpg.Connection`` the stores use."""

    async def execute(self, query: str, *args: Any) -> str: ...
    async def fetch(self, query: str, *args: Any) -> list[Record]: ...
    async def fetchrow(self, query: str, *args: Any) -> Record | None: ...
    async def fetchval(self, query: str, *args: Any) -> Any: ...
    async def executemany(self, query: str, args: Sequence[Sequence[Any]]) -> None: ...
    def transaction(self) -> Any: ...


class Pool(Protocol):
    def acquire(self) -> Any: ...
    async def close(self) -> None: ...


def rows(status: str) -> int:
    """The row count of an asyncpg status string (``"UPDATE 1"``, ``"DELETE 0"``)."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


async def _keep_session(connection: object) -> None:
    """A connection given back to the pool is not reset with a query (``RESET ALL``, ``UNLISTEN
    *``, ``CLOSE ALL``...: asyncpg's default, one round trip per statement run, a third of the
    AAP server's time under load): the stores leave no session state behind (no LISTEN, no
    cursor or temporary table, advisory locks held by transactions only). Transactions left
    open are still rolled back by asyncpg before this is called."""


async def open_pool(
    dsn: str,
    *,
    schema: str,
    lock_key: int,
    what: str,
    min_connections: int = 1,
    max_connections: int = 10,
    connect_timeout: float = 10.0,
    command_timeout: float = 30.0,
) -> Pool:
    """A connection pool on ``dsn`` with ``schema`` created (under the advisory lock
    ``lock_key``, so processes starting together do not race); ``what`` names the store in
    the error raised when ``asyncpg`` is missing."""
    try:
        asyncpg: Any = importlib.import_module("asyncpg")
    except ImportError:
        raise StoreError(f"{what} needs asyncpg: pip install 'agentproto[postgres]'") from None
    try:
        created = await asyncpg.create_pool(
            dsn,
            min_size=min_connections,
            max_size=max_connections,
            timeout=connect_timeout,
            command_timeout=command_timeout,
            reset=_keep_session,
        )
    except (OSError, asyncpg.PostgresError) as exc:
        raise StoreError(f"cannot connect to {redact_url(dsn)}: {type(exc).__name__}") from None
    pool = cast("Pool", created)
    try:
        async with pool.acquire() as db:
            conn = cast("Connection", db)
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", lock_key)
                await conn.execute(schema)
    except BaseException:
        await pool.close()
        raise
    return pool


class PostgresPoolStore:
    """The part the PostgreSQL stores share: the DSN (its password kept out of ``repr``), the
    table prefix, the pool settings and the pool, opened by :func:`open_pool` with the store's
    schema. A store sets ``_what`` (its class name, for ``repr`` and errors), ``_schema`` (its
    ``CREATE`` script, ``{p}`` standing for the prefix) and ``_lock_key``."""

    _what: ClassVar[str]
    _schema: ClassVar[str]
    _lock_key: ClassVar[int]

    def __init__(
        self,
        dsn: str,
        *,
        prefix: str,
        min_connections: int,
        max_connections: int,
        connect_timeout: float,
        command_timeout: float,
    ) -> None:
        self._dsn = dsn
        self.prefix: str = check_prefix(prefix)
        self.min_connections: int = min_connections
        self.max_connections: int = max_connections
        self.connect_timeout: float = connect_timeout
        self.command_timeout: float = command_timeout
        self._pool: Pool | None = None

    def __repr__(self) -> str:
        return f"{self._what}({redact_url(self._dsn)!r})"

    @property
    def pool(self) -> Pool:
        if self._pool is None:
            raise StoreError("the store is not open (call open() first)")
        return self._pool

    async def open(self) -> None:
        """Connect and create the tables if needed (idempotent, safe from several processes)."""
        if self._pool is not None:
            return
        self._pool = await open_pool(
            self._dsn,
            schema=self._schema.format(p=self.prefix),
            lock_key=self._lock_key,
            what=self._what,
            min_connections=self.min_connections,
            max_connections=self.max_connections,
            connect_timeout=self.connect_timeout,
            command_timeout=self.command_timeout,
        )

    async def aclose(self) -> None:
        """Release connections and threads."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()
