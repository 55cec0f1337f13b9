"""Where the AAP server keeps sessions: a small store interface and its SQLite implementation
(hand-written; PostgreSQL is :mod:`agentproto.aap.store_postgres`).

A store holds, per session: its id, owner (the principal that created it), agent
configuration and client tools (as the wire JSON), the full message history (append-only,
each message as the JSON text it was built from, so nothing is re-encoded or lost), and the
turn lease: which turn runs now and until when. Everything a server process knows about a
session is here, so any number of processes can serve the same sessions and a restart loses
nothing.

**One turn at a time.** :meth:`SessionStore.begin_turn` claims a session for a turn
atomically (a conditional update): it succeeds when no turn runs, or when the running turn's
lease has expired (its process died), and reads the session and its history in the same call.
The running turn renews its lease (:meth:`SessionStore.renew_turn`) and writes only while it
holds it (:meth:`SessionStore.save_turn` checks the holder in the same transaction, and may
release the lease in it), so a turn whose session was deleted, or whose lease was taken over
after a stall, cannot write into it. A turn costs three store calls: begin, the request's
messages, the answer (and release).

:class:`SQLiteStore` is the embedded default: one file, stdlib :mod:`sqlite3` on a worker
thread (never on the event loop), WAL journal so several server processes on one host can
share the file. Use :class:`~agentproto.aap.store_postgres.PostgresStore` for workers on
several hosts. :func:`open_store` picks one from a URL.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from agentproto._runtime.sql import SQLiteDatabase, StoreError, check_prefix

__all__ = [
    "SQLiteStore",
    "SessionRecord",
    "SessionStore",
    "StoreError",
    "TurnClaim",
    "TurnStart",
    "open_store",
]

TurnClaim = Literal["started", "busy", "missing"]
"""What :meth:`SessionStore.begin_turn` found: the turn may start, another one runs, or the
session does not exist (for this owner)."""
_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """One session as stored. ``agent`` and ``tools`` are the wire JSON (``AgentConfig`` and
    the client ``ToolSpec`` list); ``seq`` orders sessions by creation (the list cursor);
    ``length`` is the number of messages in its history."""

    session_id: str
    owner: str | None
    agent: dict[str, Any]
    tools: list[Any] | None
    seq: int
    length: int


@dataclass(frozen=True, slots=True)
class TurnStart:
    """What :meth:`SessionStore.begin_turn` found: the claim, and when it started, the
    session and its full history (read in the same transaction as the claim)."""

    claim: TurnClaim
    record: SessionRecord | None = None
    messages: list[dict[str, Any]] | None = None


class SessionStore:
    """The interface every store implements (all methods are coroutines).

    ``owner`` scopes every read and write a client asks for: a session is only found by the
    principal that created it (``None`` on a server without auth). JSON values go in and come
    out as plain Python data; each message is stored as its JSON text.
    """

    async def open(self) -> None:
        """Connect and create the tables if needed (idempotent, safe from several processes)."""
        raise NotImplementedError

    async def aclose(self) -> None:
        """Release connections and threads."""
        raise NotImplementedError

    async def create_session(
        self,
        session_id: str,
        owner: str | None,
        agent: dict[str, Any],
        tools: list[Any] | None,
        messages: Sequence[dict[str, Any]],
    ) -> SessionRecord:
        raise NotImplementedError

    async def get_session(self, session_id: str, owner: str | None) -> SessionRecord | None:
        raise NotImplementedError

    async def list_sessions(
        self, owner: str | None, after: int | None, limit: int
    ) -> list[SessionRecord]:
        """Sessions of ``owner`` with ``seq`` greater than ``after``, oldest first."""
        raise NotImplementedError

    async def count_sessions(self, owner: str | None) -> int:
        raise NotImplementedError

    async def delete_session(self, session_id: str, owner: str | None) -> bool:
        """Delete a session and its history; False when there was none."""
        raise NotImplementedError

    async def messages(self, session_id: str) -> list[dict[str, Any]]:
        """The session's full history, in order."""
        raise NotImplementedError

    async def begin_turn(
        self, session_id: str, owner: str | None, turn_id: str, lease: float
    ) -> TurnStart:
        """Claim the session for ``turn_id`` for ``lease`` seconds (see the module docstring);
        when started, with the session and its history."""
        raise NotImplementedError

    async def renew_turn(self, session_id: str, turn_id: str, lease: float) -> bool:
        """Extend the lease; False when ``turn_id`` no longer holds it (or the session is gone)."""
        raise NotImplementedError

    async def renew_turns(
        self, turns: Sequence[tuple[str, str]], lease: float
    ) -> set[tuple[str, str]]:
        """Extend the leases of many ``(session_id, turn_id)`` in one call; returns those no
        longer held (their sessions deleted, or their leases taken over)."""
        lost: set[tuple[str, str]] = set()
        for session_id, turn_id in turns:
            if not await self.renew_turn(session_id, turn_id, lease):
                lost.add((session_id, turn_id))
        return lost

    async def end_turn(self, session_id: str, turn_id: str) -> None:
        """Release the lease if ``turn_id`` holds it."""
        raise NotImplementedError

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
        """In one transaction, while ``turn_id`` holds the lease: replace the agent
        configuration and client tools when given, append ``messages`` to the history, and
        with ``release`` end the lease. False (nothing written) when the lease is lost or the
        session is gone."""
        raise NotImplementedError


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


_SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS {p}sessions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    owner TEXT,
    agent TEXT NOT NULL,
    tools TEXT,
    length INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL,
    turn_id TEXT,
    turn_expires REAL
);
CREATE INDEX IF NOT EXISTS {p}sessions_owner ON {p}sessions (owner, seq);
CREATE TABLE IF NOT EXISTS {p}messages (
    session_seq INTEGER NOT NULL REFERENCES {p}sessions (seq) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (session_seq, n)
);
"""
_COLUMNS = "id, owner, agent, tools, seq, length"


def _record(row: tuple[Any, ...]) -> SessionRecord:
    session_id, owner, agent, tools, seq, length = row
    return SessionRecord(
        str(session_id),
        None if owner is None else str(owner),
        json.loads(agent),
        None if tools is None else json.loads(tools),
        int(seq),
        int(length),
    )


class SQLiteStore(SessionStore):
    """Sessions in one SQLite file (``":memory:"`` for a throwaway store in one process).

    Every statement runs on a worker thread, one at a time per store, over one connection
    (WAL journal, foreign keys on, ``busy_timeout`` so processes sharing the file wait for
    each other's writes instead of failing). Tables are named ``<prefix>sessions`` and
    ``<prefix>messages``.
    """

    def __init__(self, path: str | Path, *, prefix: str = "aap_", busy_timeout: float = 10.0):
        self.path: str = str(path)
        self.prefix: str = check_prefix(prefix)
        self.busy_timeout: float = busy_timeout
        self._database = SQLiteDatabase(path, busy_timeout=busy_timeout)

    def __repr__(self) -> str:
        return f"SQLiteStore({self.path!r})"

    async def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        return await self._database.run(work)

    async def open(self) -> None:
        await self._database.open(_SQLITE_SCHEMA.format(p=self.prefix))

    async def aclose(self) -> None:
        await self._database.aclose()

    def _table(self, name: str) -> str:
        return f"{self.prefix}{name}"

    async def create_session(
        self,
        session_id: str,
        owner: str | None,
        agent: dict[str, Any],
        tools: list[Any] | None,
        messages: Sequence[dict[str, Any]],
    ) -> SessionRecord:
        sessions, table = self._table("sessions"), self._table("messages")
        bodies = [dumps(m) for m in messages]

        def work(db: sqlite3.Connection) -> SessionRecord:
            db.execute("BEGIN IMMEDIATE")
            try:
                cursor = db.execute(
                    f"INSERT INTO {sessions} (id, owner, agent, tools, length, created) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        session_id,
                        owner,
                        dumps(agent),
                        None if tools is None else dumps(tools),
                        len(bodies),
                        time.time(),
                    ),
                )
                seq = int(cursor.lastrowid or 0)
                db.executemany(
                    f"INSERT INTO {table} (session_seq, n, body) VALUES (?, ?, ?)",
                    [(seq, n, body) for n, body in enumerate(bodies, 1)],
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return SessionRecord(session_id, owner, agent, tools, seq, len(bodies))

        return await self._run(work)

    async def get_session(self, session_id: str, owner: str | None) -> SessionRecord | None:
        sql = f"SELECT {_COLUMNS} FROM {self._table('sessions')} WHERE id = ? AND owner IS ?"

        def work(db: sqlite3.Connection) -> SessionRecord | None:
            row = db.execute(sql, (session_id, owner)).fetchone()
            return None if row is None else _record(row)

        return await self._run(work)

    async def list_sessions(
        self, owner: str | None, after: int | None, limit: int
    ) -> list[SessionRecord]:
        sql = (
            f"SELECT {_COLUMNS} FROM {self._table('sessions')} "
            "WHERE owner IS ? AND seq > ? ORDER BY seq LIMIT ?"
        )

        def work(db: sqlite3.Connection) -> list[SessionRecord]:
            return [_record(r) for r in db.execute(sql, (owner, after or 0, limit)).fetchall()]

        return await self._run(work)

    async def count_sessions(self, owner: str | None) -> int:
        sql = f"SELECT count(*) FROM {self._table('sessions')} WHERE owner IS ?"
        return await self._run(lambda db: int(db.execute(sql, (owner,)).fetchone()[0]))

    async def delete_session(self, session_id: str, owner: str | None) -> bool:
        sql = f"DELETE FROM {self._table('sessions')} WHERE id = ? AND owner IS ?"
        return await self._run(lambda db: db.execute(sql, (session_id, owner)).rowcount == 1)

    async def messages(self, session_id: str) -> list[dict[str, Any]]:
        sql = (
            f"SELECT m.body FROM {self._table('messages')} m "
            f"JOIN {self._table('sessions')} s ON s.seq = m.session_seq "
            "WHERE s.id = ? ORDER BY m.n"
        )

        def work(db: sqlite3.Connection) -> list[dict[str, Any]]:
            return [json.loads(body) for (body,) in db.execute(sql, (session_id,)).fetchall()]

        return await self._run(work)

    async def begin_turn(
        self, session_id: str, owner: str | None, turn_id: str, lease: float
    ) -> TurnStart:
        sessions, table = self._table("sessions"), self._table("messages")

        def work(db: sqlite3.Connection) -> TurnStart:
            now = time.time()
            db.execute("BEGIN IMMEDIATE")
            try:
                cursor = db.execute(
                    f"UPDATE {sessions} SET turn_id = ?, turn_expires = ? WHERE id = ? AND "
                    "owner IS ? AND (turn_id IS NULL OR turn_expires < ?)",
                    (turn_id, now + lease, session_id, owner, now),
                )
                if cursor.rowcount != 1:
                    found = db.execute(
                        f"SELECT 1 FROM {sessions} WHERE id = ? AND owner IS ?",
                        (session_id, owner),
                    ).fetchone()
                    db.execute("COMMIT")
                    return TurnStart("busy" if found else "missing")
                row = db.execute(
                    f"SELECT {_COLUMNS} FROM {sessions} WHERE id = ?", (session_id,)
                ).fetchone()
                record = _record(row)
                bodies = db.execute(
                    f"SELECT body FROM {table} WHERE session_seq = ? ORDER BY n", (record.seq,)
                ).fetchall()
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return TurnStart("started", record, [json.loads(b) for (b,) in bodies])

        return await self._run(work)

    async def renew_turn(self, session_id: str, turn_id: str, lease: float) -> bool:
        sql = f"UPDATE {self._table('sessions')} SET turn_expires = ? WHERE id = ? AND turn_id = ?"
        return await self._run(
            lambda db: db.execute(sql, (time.time() + lease, session_id, turn_id)).rowcount == 1
        )

    async def renew_turns(
        self, turns: Sequence[tuple[str, str]], lease: float
    ) -> set[tuple[str, str]]:
        sql = f"UPDATE {self._table('sessions')} SET turn_expires = ? WHERE id = ? AND turn_id = ?"

        def work(db: sqlite3.Connection) -> set[tuple[str, str]]:
            expires = time.time() + lease
            lost: set[tuple[str, str]] = set()
            db.execute("BEGIN IMMEDIATE")
            try:
                for session_id, turn_id in turns:
                    if db.execute(sql, (expires, session_id, turn_id)).rowcount != 1:
                        lost.add((session_id, turn_id))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return lost

        return await self._run(work)

    async def end_turn(self, session_id: str, turn_id: str) -> None:
        sql = (
            f"UPDATE {self._table('sessions')} SET turn_id = NULL, turn_expires = NULL "
            "WHERE id = ? AND turn_id = ?"
        )
        await self._run(lambda db: db.execute(sql, (session_id, turn_id)))

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
        sessions, table = self._table("sessions"), self._table("messages")
        bodies = [dumps(m) for m in messages]

        def work(db: sqlite3.Connection) -> bool:
            db.execute("BEGIN IMMEDIATE")
            try:
                row = db.execute(
                    f"SELECT seq, length FROM {sessions} WHERE id = ? AND turn_id = ?",
                    (session_id, turn_id),
                ).fetchone()
                if row is None:
                    db.execute("ROLLBACK")
                    return False
                seq, length = int(row[0]), int(row[1])
                if agent is not None:
                    db.execute(
                        f"UPDATE {sessions} SET agent = ? WHERE seq = ?", (dumps(agent), seq)
                    )
                if tools is not None:
                    db.execute(
                        f"UPDATE {sessions} SET tools = ? WHERE seq = ?", (dumps(tools), seq)
                    )
                if bodies:
                    db.executemany(
                        f"INSERT INTO {table} (session_seq, n, body) VALUES (?, ?, ?)",
                        [(seq, length + n, body) for n, body in enumerate(bodies, 1)],
                    )
                    db.execute(
                        f"UPDATE {sessions} SET length = ? WHERE seq = ?",
                        (length + len(bodies), seq),
                    )
                if release:
                    db.execute(
                        f"UPDATE {sessions} SET turn_id = NULL, turn_expires = NULL WHERE seq = ?",
                        (seq,),
                    )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return True

        return await self._run(work)


def open_store(url: str, **options: Any) -> SessionStore:
    """A store from a URL: ``sqlite:///relative.db``, ``sqlite:////abs/path.db``,
    ``sqlite://:memory:``, or ``postgresql://user:pass@host:port/db`` (also ``postgres://``).
    ``options`` go to the store's constructor (``prefix=``, pool sizes...)."""
    if url.startswith("sqlite://"):
        path = url.removeprefix("sqlite://")
        if path != ":memory:":
            if not path.startswith("/"):
                raise StoreError(f"{url!r}: write sqlite:///file.db or sqlite:////abs/file.db")
            path = path[1:] or ""
            if not path:
                raise StoreError(f"{url!r} names no file")
        return SQLiteStore(path, **options)
    if url.startswith(("postgresql://", "postgres://")):
        from agentproto.aap.store_postgres import PostgresStore

        return PostgresStore(url, **options)
    scheme = url.split("://", 1)[0] if "://" in url else url[:20]
    raise StoreError(f"unknown store {scheme!r}: use sqlite:///... or postgresql://...")
