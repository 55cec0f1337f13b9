"""Where the provider kit keeps executions: a small interface and three stores (hand-written).

- :class:`MemoryExecutionStore`: a dict in the process (the default; lost on restart, seen
  by one process only);
- :class:`SQLiteExecutionStore`: one SQLite file, the embedded default that survives a
  restart and is shared by the server processes of one host;
- :class:`~agentproto.skills.store_postgres.PostgresExecutionStore`: PostgreSQL, for workers on
  any number of hosts (the ``postgres`` extra).

:func:`open_execution_store` picks one from a URL. Each keeps an execution ``ttl`` seconds after
its last change and at most ``max_size`` of them, the least recently changed evicted first.

**Who runs what.** A handler runs in the process the invocation reached; any process answers
status and result, from the store. The running process holds a *lease* on each of its
executions and renews them together (:meth:`ExecutionStore.renew`); an execution whose lease
ran out (its process was killed, or stalled past the lease) is *orphaned*: the next read ends
it as ``failed`` with the code ``EXECUTION_LOST`` (:meth:`ExecutionStore.fail_orphan`, a
conditional write, so it happens once) and a late write from the stalled process is refused.
A cancel request is a flag in the store that the running process sees at its next renewal,
so it reaches the handler whichever process received it.

The status document is kept as its JSON text, served as is.
"""

from __future__ import annotations

import sqlite3
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from agentproto._runtime.sql import SQLiteDatabase, StoreError, check_prefix, transaction

__all__ = [
    "DEFAULT_EXECUTION_TTL",
    "DEFAULT_MAX_EXECUTIONS",
    "TERMINAL",
    "ExecutionStore",
    "MemoryExecutionStore",
    "Renewal",
    "SQLiteExecutionStore",
    "StoreError",
    "StoredExecution",
    "open_execution_store",
]

DEFAULT_EXECUTION_TTL = 3600.0
DEFAULT_MAX_EXECUTIONS = 10_000
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "timeout"})


@dataclass(frozen=True, slots=True)
class StoredExecution:
    """One execution as stored: its status document as JSON text; ``orphaned`` when it has
    not finished and the lease of the process running it has run out."""

    execution_id: str
    principal: str | None
    skill_id: str
    status: str
    document: str
    orphaned: bool = False


@dataclass(frozen=True, slots=True)
class Renewal:
    """What :meth:`ExecutionStore.renew` found: executions no longer held (gone, or ended by
    another process) and those whose cancellation was asked for."""

    lost: frozenset[str] = frozenset()
    cancelled: frozenset[str] = frozenset()


@runtime_checkable
class ExecutionStore(Protocol):
    """The interface every execution store implements (all I/O methods are coroutines)."""

    ttl: float
    max_size: int

    async def open(self) -> None:
        """Connect and create tables if needed (idempotent, safe from several processes)."""
        ...

    async def aclose(self) -> None:
        """Release connections and threads."""
        ...

    async def create(
        self,
        execution_id: str,
        principal: str | None,
        skill_id: str,
        status: str,
        document: str,
        lease: float,
    ) -> None:
        """Add an execution held by the caller for ``lease`` seconds (evicting the oldest
        past ``max_size``)."""
        ...

    async def get(self, execution_id: str) -> StoredExecution | None:
        """The execution (None when unknown or expired)."""
        ...

    async def update(
        self, execution_id: str, status: str, document: str, *, lease: float | None
    ) -> bool:
        """Write the execution while the caller holds it: ``lease`` renews the hold, None
        ends it (a final state). False (nothing written) when it is no longer held."""
        ...

    async def renew(self, execution_ids: Sequence[str], lease: float) -> Renewal:
        """Extend the leases of the caller's running executions in one call."""
        ...

    async def fail_orphan(self, execution_id: str, document: str) -> bool:
        """End an orphaned execution as ``failed`` with ``document`` (only if its lease has
        still run out: another process may have done it first). True when written."""
        ...

    async def request_cancel(self, execution_id: str) -> bool:
        """Ask the process running the execution to cancel it; False when it has ended."""
        ...

    async def count(self) -> int:
        """Executions kept now (expired ones not counted)."""
        ...


def _check_bounds(ttl: float, max_size: int) -> None:
    if ttl <= 0 or max_size < 1:
        raise ValueError("execution_ttl must be > 0 and max_executions >= 1")


@dataclass
class _Row:
    principal: str | None
    skill_id: str
    status: str
    document: str
    expires: float
    lease: float | None
    cancel: bool = False


class MemoryExecutionStore:
    """Executions in this process only (see the module docstring): the default."""

    def __init__(
        self, *, ttl: float = DEFAULT_EXECUTION_TTL, max_size: int = DEFAULT_MAX_EXECUTIONS
    ) -> None:
        _check_bounds(ttl, max_size)
        self.ttl = ttl
        self.max_size = max_size
        self._rows: OrderedDict[str, _Row] = OrderedDict()

    def __repr__(self) -> str:
        return f"MemoryExecutionStore(ttl={self.ttl:g}, max_size={self.max_size})"

    def __len__(self) -> int:
        self._expire()
        return len(self._rows)

    async def open(self) -> None:
        return None

    async def aclose(self) -> None:
        return None

    async def create(
        self,
        execution_id: str,
        principal: str | None,
        skill_id: str,
        status: str,
        document: str,
        lease: float,
    ) -> None:
        self._expire()
        now = time.monotonic()
        self._rows[execution_id] = _Row(
            principal, skill_id, status, document, now + self.ttl, now + lease
        )
        while len(self._rows) > self.max_size:
            self._rows.popitem(last=False)

    async def get(self, execution_id: str) -> StoredExecution | None:
        self._expire()
        row = self._rows.get(execution_id)
        if row is None:
            return None
        orphaned = row.lease is not None and row.lease < time.monotonic()
        return StoredExecution(
            execution_id, row.principal, row.skill_id, row.status, row.document, orphaned
        )

    async def update(
        self, execution_id: str, status: str, document: str, *, lease: float | None
    ) -> bool:
        row = self._rows.get(execution_id)
        if row is None or row.lease is None:
            return False
        now = time.monotonic()
        row.status, row.document, row.expires = status, document, now + self.ttl
        row.lease = None if lease is None else now + lease
        self._rows.move_to_end(execution_id)
        return True

    async def renew(self, execution_ids: Sequence[str], lease: float) -> Renewal:
        lost: set[str] = set()
        cancelled: set[str] = set()
        now = time.monotonic()
        for execution_id in execution_ids:
            row = self._rows.get(execution_id)
            if row is None or row.lease is None:
                lost.add(execution_id)
                continue
            row.lease = now + lease
            if row.cancel:
                cancelled.add(execution_id)
        return Renewal(frozenset(lost), frozenset(cancelled))

    async def fail_orphan(self, execution_id: str, document: str) -> bool:
        row = self._rows.get(execution_id)
        now = time.monotonic()
        if row is None or row.lease is None or row.lease >= now:
            return False
        row.status, row.document, row.lease, row.expires = "failed", document, None, now + self.ttl
        self._rows.move_to_end(execution_id)
        return True

    async def request_cancel(self, execution_id: str) -> bool:
        row = self._rows.get(execution_id)
        if row is None or row.lease is None:
            return False
        row.cancel = True
        return True

    async def count(self) -> int:
        return len(self)

    def _expire(self) -> None:
        now = time.monotonic()
        while self._rows:
            oldest = next(iter(self._rows.values()))
            if oldest.expires > now:
                break
            self._rows.popitem(last=False)


_SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS {p}executions (
    id TEXT PRIMARY KEY,
    principal TEXT,
    skill_id TEXT NOT NULL,
    status TEXT NOT NULL,
    document TEXT NOT NULL,
    updated REAL NOT NULL,
    expires REAL NOT NULL,
    lease REAL,
    cancel INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS {p}executions_updated ON {p}executions (updated);
CREATE INDEX IF NOT EXISTS {p}executions_expires ON {p}executions (expires);
"""


class SQLiteExecutionStore:
    """Executions in one SQLite file (see the module docstring); the table is
    ``<prefix>executions``. Times are this host's clock: processes sharing the file share it."""

    def __init__(
        self,
        path: str | Path,
        *,
        ttl: float = DEFAULT_EXECUTION_TTL,
        max_size: int = DEFAULT_MAX_EXECUTIONS,
        prefix: str = "skills_",
        busy_timeout: float = 10.0,
    ) -> None:
        _check_bounds(ttl, max_size)
        self.ttl = ttl
        self.max_size = max_size
        self.path: str = str(path)
        self.prefix: str = check_prefix(prefix)
        self._database = SQLiteDatabase(path, busy_timeout=busy_timeout)
        self._table = f"{self.prefix}executions"

    def __repr__(self) -> str:
        return f"SQLiteExecutionStore({self.path!r})"

    async def open(self) -> None:
        await self._database.open(_SQLITE_SCHEMA.format(p=self.prefix))

    async def aclose(self) -> None:
        await self._database.aclose()

    async def create(
        self,
        execution_id: str,
        principal: str | None,
        skill_id: str,
        status: str,
        document: str,
        lease: float,
    ) -> None:
        t = self._table

        def work(db: sqlite3.Connection) -> None:
            now = time.time()

            def write() -> None:
                db.execute(f"DELETE FROM {t} WHERE expires <= ?", (now,))
                db.execute(
                    f"INSERT INTO {t} (id, principal, skill_id, status, document, updated, "
                    "expires, lease) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (execution_id, principal, skill_id, status, document, now,
                     now + self.ttl, now + lease),
                )  # fmt: skip
                db.execute(
                    f"DELETE FROM {t} WHERE id IN (SELECT id FROM {t} "
                    "ORDER BY updated DESC, id DESC LIMIT -1 OFFSET ?)",
                    (self.max_size,),
                )

            transaction(db, write)

        await self._database.run(work)

    async def get(self, execution_id: str) -> StoredExecution | None:
        sql = (
            f"SELECT principal, skill_id, status, document, lease FROM {self._table} "
            "WHERE id = ? AND expires > ?"
        )

        def work(db: sqlite3.Connection) -> StoredExecution | None:
            now = time.time()
            row = db.execute(sql, (execution_id, now)).fetchone()
            if row is None:
                return None
            principal, skill_id, status, document, lease = row
            return StoredExecution(
                execution_id,
                None if principal is None else str(principal),
                str(skill_id),
                str(status),
                str(document),
                lease is not None and float(lease) < now,
            )

        return await self._database.run(work)

    async def update(
        self, execution_id: str, status: str, document: str, *, lease: float | None
    ) -> bool:
        sql = (
            f"UPDATE {self._table} SET status = ?, document = ?, updated = ?, expires = ?, "
            "lease = ? WHERE id = ? AND lease IS NOT NULL"
        )

        def work(db: sqlite3.Connection) -> bool:
            now = time.time()
            held = None if lease is None else now + lease
            values = (status, document, now, now + self.ttl, held, execution_id)
            return db.execute(sql, values).rowcount == 1

        return await self._database.run(work)

    async def renew(self, execution_ids: Sequence[str], lease: float) -> Renewal:
        t = self._table

        def work(db: sqlite3.Connection) -> Renewal:
            expires = time.time() + lease
            lost: set[str] = set()
            cancelled: set[str] = set()

            def write() -> None:
                for execution_id in execution_ids:
                    row = db.execute(
                        f"UPDATE {t} SET lease = ? WHERE id = ? AND lease IS NOT NULL "
                        "RETURNING cancel",
                        (expires, execution_id),
                    ).fetchone()
                    if row is None:
                        lost.add(execution_id)
                    elif row[0]:
                        cancelled.add(execution_id)

            transaction(db, write)
            return Renewal(frozenset(lost), frozenset(cancelled))

        return await self._database.run(work)

    async def fail_orphan(self, execution_id: str, document: str) -> bool:
        sql = (
            f"UPDATE {self._table} SET status = 'failed', document = ?, updated = ?, "
            "expires = ?, lease = NULL WHERE id = ? AND lease IS NOT NULL AND lease < ?"
        )

        def work(db: sqlite3.Connection) -> bool:
            now = time.time()
            return db.execute(sql, (document, now, now + self.ttl, execution_id, now)).rowcount == 1

        return await self._database.run(work)

    async def request_cancel(self, execution_id: str) -> bool:
        sql = f"UPDATE {self._table} SET cancel = 1 WHERE id = ? AND lease IS NOT NULL"
        return await self._database.run(lambda db: db.execute(sql, (execution_id,)).rowcount == 1)

    async def count(self) -> int:
        sql = f"SELECT count(*) FROM {self._table} WHERE expires > ?"
        return await self._database.run(
            lambda db: int(db.execute(sql, (time.time(),)).fetchone()[0])
        )


def open_execution_store(url: str, **options: Any) -> ExecutionStore:
    """A store from a URL: ``memory:``, ``sqlite:///relative.db``, ``sqlite:////abs/path.db``,
    or ``postgresql://user:pass@host:port/db`` (also ``postgres://``). ``options`` go to the
    store's constructor (``ttl=``, ``max_size=``, ``prefix=``, pool sizes...)."""
    if url in ("memory:", "memory://"):
        return MemoryExecutionStore(**options)
    if url.startswith("sqlite://"):
        path = url.removeprefix("sqlite://")
        if path != ":memory:":
            if not path.startswith("/") or not path[1:]:
                raise StoreError(f"{url!r}: write sqlite:///file.db or sqlite:////abs/file.db")
            path = path[1:]
        return SQLiteExecutionStore(path, **options)
    if url.startswith(("postgresql://", "postgres://")):
        from agentproto.skills.store_postgres import PostgresExecutionStore

        return PostgresExecutionStore(url, **options)
    scheme = url.split("://", 1)[0] if "://" in url else url[:20]
    raise StoreError(
        f"unknown execution store {scheme!r}: use memory:, sqlite:/// or postgresql://"
    )
