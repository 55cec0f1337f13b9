"""The PostgreSQL session store (hand-written; needs the ``postgres`` extra: ``asyncpg``).

Same tables and rules as :class:`~agentproto.aap.store.SQLiteStore` (see
:mod:`agentproto.aap.store`), over a connection pool, for server processes on any number of
hosts: the turn lease is a conditional ``UPDATE`` judged by the database's clock, so hosts
need not agree on the time; messages are ``text`` (their JSON exactly as written, which
``jsonb`` would reorder); tables are created once under an advisory lock, so workers
starting together do not race. No LISTEN/NOTIFY is needed: the only cross-process signal, a
session deleted while one of its turns runs elsewhere, is seen by that turn at its next
lease renewal or write.

The DSN's password never appears in ``repr`` or error messages.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from agentproto._runtime.sql import Connection as _Connection
from agentproto._runtime.sql import Pool as _Pool
from agentproto._runtime.sql import PostgresPoolStore
from agentproto._runtime.sql import Record as _Record
from agentproto._runtime.sql import rows as _rows
from agentproto.aap.store import SessionRecord, SessionStore, TurnStart, dumps

__all__ = ["PostgresStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS {p}sessions (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    owner TEXT,
    agent TEXT NOT NULL,
    tools TEXT,
    length INTEGER NOT NULL DEFAULT 0,
    created TIMESTAMPTZ NOT NULL DEFAULT now(),
    turn_id TEXT,
    turn_expires TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS {p}sessions_owner ON {p}sessions (owner, seq);
CREATE TABLE IF NOT EXISTS {p}messages (
    session_seq BIGINT NOT NULL REFERENCES {p}sessions (seq) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (session_seq, n)
);
"""
_COLUMNS = "id, owner, agent, tools, seq, length"
_LOCK_KEY = 0x4141505F53544F52  # "AAP_STOR": serialises table creation across processes


def _record(row: _Record) -> SessionRecord:
    return SessionRecord(
        str(row[0]),
        None if row[1] is None else str(row[1]),
        json.loads(row[2]),
        None if row[3] is None else json.loads(row[3]),
        int(row[4]),
        int(row[5]),
    )


class PostgresStore(PostgresPoolStore, SessionStore):
    """Sessions in PostgreSQL (``dsn``: ``postgresql://user:pass@host:port/db``)."""

    _what = "PostgresStore"
    _schema = _SCHEMA
    _lock_key = _LOCK_KEY

    def __init__(
        self,
        dsn: str,
        *,
        prefix: str = "aap_",
        min_connections: int = 1,
        max_connections: int = 10,
        connect_timeout: float = 10.0,
        command_timeout: float = 30.0,
    ) -> None:
        super().__init__(
            dsn,
            prefix=prefix,
            min_connections=min_connections,
            max_connections=max_connections,
            connect_timeout=connect_timeout,
            command_timeout=command_timeout,
        )

    @property
    def pool(self) -> _Pool:  # as the published API has always written it
        return super().pool

    def _t(self, name: str) -> str:
        return f"{self.prefix}{name}"

    async def create_session(
        self,
        session_id: str,
        owner: str | None,
        agent: dict[str, Any],
        tools: list[Any] | None,
        messages: Sequence[dict[str, Any]],
    ) -> SessionRecord:
        bodies = [dumps(m) for m in messages]
        async with self.pool.acquire() as db:
            conn = cast("_Connection", db)
            async with conn.transaction():
                seq = await conn.fetchval(
                    f"INSERT INTO {self._t('sessions')} (id, owner, agent, tools, length) "
                    "VALUES ($1, $2, $3, $4, $5) RETURNING seq",
                    session_id,
                    owner,
                    dumps(agent),
                    None if tools is None else dumps(tools),
                    len(bodies),
                )
                if bodies:
                    await conn.executemany(
                        f"INSERT INTO {self._t('messages')} (session_seq, n, body) "
                        "VALUES ($1, $2, $3)",
                        [(seq, n, body) for n, body in enumerate(bodies, 1)],
                    )
        return SessionRecord(session_id, owner, agent, tools, int(seq), len(bodies))

    async def get_session(self, session_id: str, owner: str | None) -> SessionRecord | None:
        async with self.pool.acquire() as db:
            row = await cast("_Connection", db).fetchrow(
                f"SELECT {_COLUMNS} FROM {self._t('sessions')} "
                "WHERE id = $1 AND owner IS NOT DISTINCT FROM $2",
                session_id,
                owner,
            )
        return None if row is None else _record(row)

    async def list_sessions(
        self, owner: str | None, after: int | None, limit: int
    ) -> list[SessionRecord]:
        async with self.pool.acquire() as db:
            rows = await cast("_Connection", db).fetch(
                f"SELECT {_COLUMNS} FROM {self._t('sessions')} "
                "WHERE owner IS NOT DISTINCT FROM $1 AND seq > $2 ORDER BY seq LIMIT $3",
                owner,
                after or 0,
                limit,
            )
        return [_record(r) for r in rows]

    async def count_sessions(self, owner: str | None) -> int:
        async with self.pool.acquire() as db:
            found = await cast("_Connection", db).fetchval(
                f"SELECT count(*) FROM {self._t('sessions')} WHERE owner IS NOT DISTINCT FROM $1",
                owner,
            )
        return int(found)

    async def delete_session(self, session_id: str, owner: str | None) -> bool:
        async with self.pool.acquire() as db:
            status = await cast("_Connection", db).execute(
                f"DELETE FROM {self._t('sessions')} "
                "WHERE id = $1 AND owner IS NOT DISTINCT FROM $2",
                session_id,
                owner,
            )
        return _rows(status) == 1

    async def messages(self, session_id: str) -> list[dict[str, Any]]:
        async with self.pool.acquire() as db:
            rows = await cast("_Connection", db).fetch(
                f"SELECT m.body FROM {self._t('messages')} m "
                f"JOIN {self._t('sessions')} s ON s.seq = m.session_seq "
                "WHERE s.id = $1 ORDER BY m.n",
                session_id,
            )
        return [json.loads(r[0]) for r in rows]

    async def begin_turn(
        self, session_id: str, owner: str | None, turn_id: str, lease: float
    ) -> TurnStart:
        async with self.pool.acquire() as db:
            conn = cast("_Connection", db)
            async with conn.transaction():
                row = await conn.fetchrow(
                    f"UPDATE {self._t('sessions')} SET turn_id = $1, "
                    "turn_expires = clock_timestamp() + make_interval(secs => $2) "
                    "WHERE id = $3 AND owner IS NOT DISTINCT FROM $4 AND "
                    "(turn_id IS NULL OR turn_expires < clock_timestamp()) "
                    f"RETURNING {_COLUMNS}",
                    turn_id,
                    float(lease),
                    session_id,
                    owner,
                )
                if row is None:
                    found = await conn.fetchval(
                        f"SELECT 1 FROM {self._t('sessions')} "
                        "WHERE id = $1 AND owner IS NOT DISTINCT FROM $2",
                        session_id,
                        owner,
                    )
                    return TurnStart("busy" if found else "missing")
                record = _record(row)
                bodies = await conn.fetch(
                    f"SELECT body FROM {self._t('messages')} WHERE session_seq = $1 ORDER BY n",
                    record.seq,
                )
        return TurnStart("started", record, [json.loads(b[0]) for b in bodies])

    async def renew_turn(self, session_id: str, turn_id: str, lease: float) -> bool:
        async with self.pool.acquire() as db:
            status = await cast("_Connection", db).execute(
                f"UPDATE {self._t('sessions')} "
                "SET turn_expires = clock_timestamp() + make_interval(secs => $1) "
                "WHERE id = $2 AND turn_id = $3",
                float(lease),
                session_id,
                turn_id,
            )
        return _rows(status) == 1

    async def renew_turns(
        self, turns: Sequence[tuple[str, str]], lease: float
    ) -> set[tuple[str, str]]:
        if not turns:
            return set()
        async with self.pool.acquire() as db:
            rows = await cast("_Connection", db).fetch(
                f"UPDATE {self._t('sessions')} AS s "
                "SET turn_expires = clock_timestamp() + make_interval(secs => $1) "
                "FROM unnest($2::text[], $3::text[]) AS t(id, turn) "
                "WHERE s.id = t.id AND s.turn_id = t.turn RETURNING s.id, s.turn_id",
                float(lease),
                [s for s, _ in turns],
                [t for _, t in turns],
            )
        held = {(str(r[0]), str(r[1])) for r in rows}
        return {turn for turn in turns if turn not in held}

    async def end_turn(self, session_id: str, turn_id: str) -> None:
        async with self.pool.acquire() as db:
            await cast("_Connection", db).execute(
                f"UPDATE {self._t('sessions')} SET turn_id = NULL, turn_expires = NULL "
                "WHERE id = $1 AND turn_id = $2",
                session_id,
                turn_id,
            )

    async def save_turn(
        self,
        session_id: str,
        turn_id: str,
        *,
        agent: dict[str, Any] | None = None,
        tools: list[Any] | None = None,
        messages: Sequence[dict[str, Any]] = (),
        release: bool = False,
    ) -> bool:
        bodies = [dumps(m) for m in messages]
        sessions = self._t("sessions")
        async with self.pool.acquire() as db:
            conn = cast("_Connection", db)
            async with conn.transaction():
                row = await conn.fetchrow(
                    f"SELECT seq, length FROM {sessions} WHERE id = $1 AND turn_id = $2 FOR UPDATE",
                    session_id,
                    turn_id,
                )
                if row is None:
                    return False
                seq, length = int(row[0]), int(row[1])
                if agent is not None:
                    await conn.execute(
                        f"UPDATE {sessions} SET agent = $1 WHERE seq = $2", dumps(agent), seq
                    )
                if tools is not None:
                    await conn.execute(
                        f"UPDATE {sessions} SET tools = $1 WHERE seq = $2", dumps(tools), seq
                    )
                if bodies:
                    await conn.executemany(
                        f"INSERT INTO {self._t('messages')} (session_seq, n, body) "
                        "VALUES ($1, $2, $3)",
                        [(seq, length + n, body) for n, body in enumerate(bodies, 1)],
                    )
                    await conn.execute(
                        f"UPDATE {sessions} SET length = $1 WHERE seq = $2",
                        length + len(bodies),
                        seq,
                    )
                if release:
                    await conn.execute(
                        f"UPDATE {sessions} SET turn_id = NULL, turn_expires = NULL WHERE seq = $1",
                        seq,
                    )
        return True
