"""The PostgreSQL execution store (hand-written; needs the ``postgres`` extra: ``asyncpg``).

Same table and rules as :class:`~agentproto.skills.store.SQLiteExecutionStore` (see
:mod:`agentproto.skills.store`), over a connection pool opened like the AAP server's
(:func:`agentproto._runtime.sql.open_pool`), for provider processes on any number of hosts:
times (TTL, leases, eviction order) are the database's clock, so hosts need not agree on the
time. The DSN's password never appears in ``repr`` or error messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from agentproto._runtime.sql import Connection, PostgresPoolStore, rows
from agentproto.skills.store import (
    DEFAULT_EXECUTION_TTL,
    DEFAULT_MAX_EXECUTIONS,
    Renewal,
    StoredExecution,
)

__all__ = ["PostgresExecutionStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS {p}executions (
    id TEXT PRIMARY KEY,
    principal TEXT,
    skill_id TEXT NOT NULL,
    status TEXT NOT NULL,
    document TEXT NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    expires DOUBLE PRECISION NOT NULL,
    lease DOUBLE PRECISION,
    cancel BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX IF NOT EXISTS {p}executions_updated ON {p}executions (updated);
CREATE INDEX IF NOT EXISTS {p}executions_expires ON {p}executions (expires);
"""
_NOW = "extract(epoch from clock_timestamp())::double precision"
_LOCK_KEY = 0x534B494C4C5F4558  # "SKILL_EX": serialises table creation across processes


class PostgresExecutionStore(PostgresPoolStore):
    """Executions in PostgreSQL (``dsn``: ``postgresql://user:pass@host:port/db``)."""

    _what = "PostgresExecutionStore"
    _schema = _SCHEMA
    _lock_key = _LOCK_KEY

    def __init__(
        self,
        dsn: str,
        *,
        ttl: float = DEFAULT_EXECUTION_TTL,
        max_size: int = DEFAULT_MAX_EXECUTIONS,
        prefix: str = "skills_",
        min_connections: int = 1,
        max_connections: int = 10,
        connect_timeout: float = 10.0,
        command_timeout: float = 30.0,
    ) -> None:
        if ttl <= 0 or max_size < 1:
            raise ValueError("execution_ttl must be > 0 and max_executions >= 1")
        self.ttl = ttl
        self.max_size = max_size
        super().__init__(
            dsn,
            prefix=prefix,
            min_connections=min_connections,
            max_connections=max_connections,
            connect_timeout=connect_timeout,
            command_timeout=command_timeout,
        )
        self._table = f"{self.prefix}executions"

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
        async with self.pool.acquire() as db:
            conn = cast("Connection", db)
            async with conn.transaction():
                await conn.execute(f"DELETE FROM {t} WHERE expires <= {_NOW}")
                await conn.execute(
                    f"INSERT INTO {t} (id, principal, skill_id, status, document, updated, "
                    f"expires, lease) VALUES ($1, $2, $3, $4, $5, {_NOW}, {_NOW} + $6, "
                    f"{_NOW} + $7)",
                    execution_id, principal, skill_id, status, document,
                    float(self.ttl), float(lease),
                )  # fmt: skip
                await conn.execute(
                    f"DELETE FROM {t} WHERE id IN (SELECT id FROM {t} "
                    "ORDER BY updated DESC, id DESC OFFSET $1)",
                    self.max_size,
                )

    async def get(self, execution_id: str) -> StoredExecution | None:
        async with self.pool.acquire() as db:
            row = await cast("Connection", db).fetchrow(
                f"SELECT principal, skill_id, status, document, "
                f"(lease IS NOT NULL AND lease < {_NOW}) FROM {self._table} "
                f"WHERE id = $1 AND expires > {_NOW}",
                execution_id,
            )
        if row is None:
            return None
        return StoredExecution(
            execution_id,
            None if row[0] is None else str(row[0]),
            str(row[1]),
            str(row[2]),
            str(row[3]),
            bool(row[4]),
        )

    async def update(
        self, execution_id: str, status: str, document: str, *, lease: float | None
    ) -> bool:
        async with self.pool.acquire() as db:
            status_line = await cast("Connection", db).execute(
                f"UPDATE {self._table} SET status = $1, document = $2, updated = {_NOW}, "
                f"expires = {_NOW} + $3, lease = {_NOW} + $4 "
                "WHERE id = $5 AND lease IS NOT NULL",
                status, document, float(self.ttl), lease, execution_id,
            )  # fmt: skip
        return rows(status_line) == 1

    async def renew(self, execution_ids: Sequence[str], lease: float) -> Renewal:
        if not execution_ids:
            return Renewal()
        async with self.pool.acquire() as db:
            found = await cast("Connection", db).fetch(
                f"UPDATE {self._table} SET lease = {_NOW} + $1 "
                "WHERE id = ANY($2::text[]) AND lease IS NOT NULL RETURNING id, cancel",
                float(lease),
                list(execution_ids),
            )
        held = {str(r[0]) for r in found}
        return Renewal(
            frozenset(e for e in execution_ids if e not in held),
            frozenset(str(r[0]) for r in found if r[1]),
        )

    async def fail_orphan(self, execution_id: str, document: str) -> bool:
        async with self.pool.acquire() as db:
            status_line = await cast("Connection", db).execute(
                f"UPDATE {self._table} SET status = 'failed', document = $1, "
                f"updated = {_NOW}, expires = {_NOW} + $2, lease = NULL "
                f"WHERE id = $3 AND lease IS NOT NULL AND lease < {_NOW}",
                document, float(self.ttl), execution_id,
            )  # fmt: skip
        return rows(status_line) == 1

    async def request_cancel(self, execution_id: str) -> bool:
        async with self.pool.acquire() as db:
            status_line = await cast("Connection", db).execute(
                f"UPDATE {self._table} SET cancel = true WHERE id = $1 AND lease IS NOT NULL",
                execution_id,
            )
        return rows(status_line) == 1

    async def count(self) -> int:
        async with self.pool.acquire() as db:
            found = await cast("Connection", db).fetchval(
                f"SELECT count(*) FROM {self._table} WHERE expires > {_NOW}"
            )
        return int(found)
