"""The AAP server kit (``agentproto.aap.server``), driven by our AAP client over loopback HTTP
(uvicorn), on a SQLite store: every endpoint, the three stream modes, client tools, server
tools with trust and ``tool_permission``, the checks before a turn runs, one turn at a time,
cancellation, every bound, and what never reaches a client (exception text, secrets)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from agentproto._runtime.http_errors import (
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    NotFoundError,
)
from agentproto.aap import (
    AAPClient,
    AAPServer,
    Agent,
    ApiKeys,
    AsyncAAPClient,
    AsyncSession,
    ClientTool,
    ServerSettings,
    Session,
    ToolDecision,
    afold_events,
    fold_events,
)
from agentproto.aap.models import (
    ToolMessage,
    ToolPermissionMessage,
    ToolUseContentBlock,
    UserMessage,
)

from tests.conftest import within
from tests.servers.aap_agents import CANCELLED, LEAK, agents, make_echo
from tests.servers.loopback import serve

KEY = "sk-alice-0123456789abcdef"
OTHER = "sk-bob-0123456789abcdef"
KEYS = ApiKeys({KEY: "alice", OTHER: "bob"})


def user(text: str) -> UserMessage:
    return UserMessage(role="user", content=text)


class Site:
    def __init__(self, url: str, server: AAPServer) -> None:
        self.url = url
        self.server = server

    def client(self, key: str = KEY, **options: Any) -> AAPClient:
        return AAPClient(self.url, api_key=key, **options)

    def raw(self, key: str | None = KEY) -> httpx.Client:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=10)


@contextmanager
def site(tmp: Path, **settings: Any) -> Iterator[Site]:
    server = AAPServer(
        agents(),
        store=f"sqlite:///{tmp / 'aap.db'}",
        auth=KEYS,
        settings=ServerSettings(**settings),
    )
    with serve(server.app) as url:
        yield Site(url, server)


@pytest.fixture(scope="module")
def aap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with site(tmp_path_factory.mktemp("aap"), page_size=2) as found:
        yield found


def new_session(client: AAPClient, **agent: Any) -> str:
    config = {"name": "echo", **agent}
    return client.create_session(agent=config).session_id


# -- endpoints ------------------------------------------------------------------------------


def test_meta_is_open_and_describes_the_agents(aap: Site) -> None:
    with aap.raw(key=None) as raw:
        body = raw.get("/meta").json()
    assert body["version"] == 3
    echo = body["agents"][0]
    assert [t["name"] for t in echo["tools"]] == ["clock", "delete_files"]
    assert echo["tools"][1]["parameters"]["required"] == ["path"]
    assert echo["capabilities"] == {
        "history": {"compacted": {}, "full": {}},
        "stream": {"delta": {}, "message": {}, "none": {}},
        "application": {"tools": {}},
        "image": {"http": {}, "data": {}},
    }
    assert body["agents"][1]["capabilities"] == {"history": {"full": {}}, "stream": {"none": {}}}
    with aap.client() as client:
        assert client.get_meta().agents[0].options[1].type == "secret"  # type: ignore[index]


def test_sessions_crud_and_404(aap: Site) -> None:
    with aap.client() as client:
        sid = client.create_session(
            agent={
                "name": "echo",
                "tools": [{"name": "clock", "trust": True}],
                "options": {"model": "large"},
            },
            messages=[{"role": "system", "content": "Be brief."}],
            tools=[{"name": "add", "description": "Add", "parameters": {"type": "object"}}],
        ).session_id
        info = client.get_session(sid)
        assert info.session_id == sid and info.agent.options == {"model": "large"}
        assert info.tools is not None and info.tools[0].name == "add"
        history = client.get_session_history(sid, type="full").history.full
        assert history is not None and history[0].role == "system"
        client.delete_session(sid)
        with pytest.raises(NotFoundError):
            client.get_session(sid)
        with pytest.raises(NotFoundError):
            client.delete_session(sid)
        with pytest.raises(NotFoundError):
            client.create_turn(sid, messages=[user("hi")])
        with pytest.raises(NotFoundError):
            client.get_session_history(sid, type="full")
    with aap.raw() as raw:
        answer = raw.post("/sessions", json={"agent": {"name": "echo"}})
        assert answer.status_code == 201 and list(answer.json()) == ["sessionId"]
        gone = raw.get("/sessions/nope")
        assert gone.status_code == 404 and gone.json() == {"error": "session nope not found"}
        assert raw.delete(f"/sessions/{answer.json()['sessionId']}").status_code == 204


def test_bearer_auth_and_sessions_belong_to_their_principal(aap: Site) -> None:
    with aap.raw(key=None) as raw:
        missing = raw.get("/sessions")
        assert missing.status_code == 401 and missing.headers["www-authenticate"].startswith(
            "Bearer"
        )
        assert missing.json() == {"error": "missing credentials (Authorization: Bearer)"}
        assert raw.get("/sessions", headers={"Authorization": "Basic eDp5"}).status_code == 401
    with aap.client(key="sk-wrong") as wrong, pytest.raises(AuthenticationError):
        wrong.list_sessions()
    with aap.client() as alice, aap.client(key=OTHER) as bob:
        sid = new_session(alice)
        with pytest.raises(NotFoundError):
            bob.get_session(sid)
        with pytest.raises(NotFoundError):
            bob.create_turn(sid, messages=[user("hi")])
        with pytest.raises(NotFoundError):
            bob.delete_session(sid)
        assert sid not in {s.session_id for s in bob.iter_sessions()}
        assert sid in {s.session_id for s in alice.iter_sessions()}


def test_pagination_follows_next_until_it_is_absent(tmp_path: Path) -> None:
    with site(tmp_path, page_size=2) as aap:
        with aap.client(key=OTHER) as client:
            made = [new_session(client) for _ in range(5)]
            first = client.list_sessions()
            assert len(first.sessions) == 2 and first.next is not None
            assert [s.session_id for s in client.iter_sessions()] == made  # creation order
            last = client.list_sessions(after=client.list_sessions(after=first.next).next)
            assert [s.session_id for s in last.sessions] == made[4:] and last.next is None
            with pytest.raises(BadRequestError, match="cursor"):
                client.list_sessions(after="not-a-cursor")


def test_history_types_follow_the_agents_capabilities(aap: Site) -> None:
    with aap.client() as client:
        sid = client.create_session(agent={"name": "plain"}).session_id
        client.create_turn(sid, messages=[user("hello")])
        full = client.get_session_history(sid, type="full").history.full
        assert full is not None and [m.role for m in full] == ["user", "assistant"]
        with pytest.raises(NotFoundError, match="no compacted history"):
            client.get_session_history(sid, type="compacted")
    with aap.raw() as raw:
        assert raw.get(f"/sessions/{sid}/history").status_code == 400
        assert raw.get(f"/sessions/{sid}/history", params={"type": "all"}).status_code == 400
        twice = raw.get(f"/sessions/{sid}/history?type=full&type=full")
        assert twice.status_code == 400 and "repeated" in twice.json()["error"]


# -- turns in the three modes ---------------------------------------------------------------


def test_a_turn_in_each_stream_mode(aap: Site) -> None:
    with aap.client() as client:
        sid = new_session(client)
        reply = client.create_turn(sid, messages=[user("hello there")])
        assert reply.stop_reason == "end_turn"
        assert reply.messages[0].model_dump()["content"] == [
            {"type": "text", "text": "echo: hello there"}
        ]
        with client.create_turn_stream(sid, messages=[user("think fast")], mode="delta") as events:
            seen = [(e.event, getattr(e, "delta", None)) for e in events]
        assert seen == [
            ("turn_start", None),
            ("thinking_delta", "considering "),
            ("thinking_delta", "it"),
            ("text_delta", "fast"),
            ("turn_stop", None),
        ]
        with client.create_turn_stream(
            sid, messages=[user("think fast")], mode="message"
        ) as events:
            seen = [(e.event, getattr(e, "text", getattr(e, "thinking", None))) for e in events]
        assert seen == [
            ("turn_start", None),
            ("thinking", "considering it"),
            ("text", "fast"),
            ("turn_stop", None),
        ]
        history = client.get_session_history(sid, type="compacted").history.compacted
        assert history is not None and len(history) == 6


def test_the_sse_wire_format(aap: Site) -> None:
    with aap.client() as client:
        sid = new_session(client)
    with aap.raw() as raw:
        answer = raw.post(
            f"/sessions/{sid}/turns",
            json={"stream": "delta", "messages": [{"role": "user", "content": "abcdefgh"}]},
        )
    assert answer.headers["content-type"].startswith("text/event-stream")
    frames = answer.text.split("\n\n")
    assert frames[0] == "event: turn_start\ndata: {}"
    assert frames[1] == 'event: text_delta\ndata: {"delta":"echo"}'
    assert frames[-2] == 'event: turn_stop\ndata: {"stopReason":"end_turn"}' and frames[-1] == ""


# -- tools ----------------------------------------------------------------------------------


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def test_client_tools_round_trip_through_the_session_helper(aap: Site) -> None:
    with aap.client() as client:
        session = Session.create(
            client, "echo", tools=[ClientTool.from_function(add)], mode="delta"
        )
        result = session.send('call add {"a": 2, "b": 40}')
        assert result.stop_reason == "end_turn" and result.text.endswith("=42")
        history = session.history()
        assert [m.role for m in history] == ["user", "assistant", "tool", "assistant"]


def test_trusted_server_tools_run_inline_and_untrusted_ones_wait_for_permission(aap: Site) -> None:
    with aap.client() as client:
        sid = new_session(
            client, tools=[{"name": "clock", "trust": True}, {"name": "delete_files"}]
        )
        with client.create_turn_stream(
            sid, messages=[user("call tools")], mode="message"
        ) as events:
            first = fold_events(events)
        names = [c.name for c in first.tool_calls]
        assert names == ["clock", "delete_files"] and first.stop_reason == "tool_use"
        assert [m.role for m in first.messages] == ["assistant", "tool"]  # clock ran inline
        pending = first.pending_tool_calls
        assert [c.name for c in pending] == ["delete_files"]
        grant = ToolPermissionMessage(
            role="tool_permission", tool_call_id=pending[0].tool_call_id, granted=True
        )
        with client.create_turn_stream(sid, messages=[grant], mode="delta") as events:
            second = list(events)
        assert [e.event for e in second][:2] == ["turn_start", "tool_result"]
        assert second[1].content == "deleted /tmp/x"  # type: ignore[union-attr]
        with client.create_turn_stream(
            sid, messages=[user('call delete_files {"path": "/"}')], mode="delta"
        ) as events:
            call = fold_events(events).pending_tool_calls[0]
        deny = ToolPermissionMessage(
            role="tool_permission", tool_call_id=call.tool_call_id, granted=False, reason="no way"
        )
        reply = client.create_turn(sid, messages=[deny])
        assert reply.messages[0] == ToolMessage(
            role="tool", tool_call_id=call.tool_call_id, content="Tool call denied: no way"
        )
        roles = [m.role for m in client.get_session_history(sid, type="full").history.full or []]
        assert "tool_permission" not in roles  # permissions are never stored


def test_the_session_helper_asks_for_permission(aap: Site) -> None:
    asked: list[str] = []

    def decide(call: ToolUseContentBlock) -> ToolDecision:
        asked.append(call.name)
        return ToolDecision.deny("not today")

    with aap.client() as client:
        session = Session.create(
            client, "echo", tools=[ClientTool.from_function(add)],
            server_tools={"clock": True, "delete_files": False}, on_permission=decide,
        )  # fmt: skip
        result = session.send("call tools")
        assert asked == ["delete_files"] and result.stop_reason == "end_turn"
        assert "=5" in result.text and "Tool call denied: not today" in result.text
        assert "=12:00" in result.text  # clock ran inline, trusted


def test_a_tool_nobody_has_is_answered_with_an_error_for_the_model(aap: Site) -> None:
    with aap.client() as client:
        sid = new_session(client)
        reply = client.create_turn(sid, messages=[user("call rm_rf")])
        assert reply.stop_reason == "end_turn"
        tool = reply.messages[1]
        assert isinstance(tool, ToolMessage) and tool.content == "Error: there is no tool 'rm_rf'"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"agent": {"name": "nobody"}}, "no such agent here"),
        ({"agent": {"name": "echo", "options": {"colour": "red"}}}, "no option 'colour'"),
        ({"agent": {"name": "echo", "options": {"model": "huge"}}}, "must be one of: small, large"),
        ({"agent": {"name": "echo", "tools": [{"name": "rm"}]}}, "exposes no tool 'rm'"),
        (
            {
                "agent": {"name": "plain"},
                "tools": [{"name": "t", "description": "d", "parameters": {}}],
            },
            "does not take client tools",
        ),
        (
            {
                "agent": {"name": "echo", "tools": [{"name": "clock"}]},
                "tools": [{"name": "clock", "description": "d", "parameters": {}}],
            },
            "unique",
        ),
        (
            {
                "agent": {"name": "echo"},
                "messages": [
                    {"role": "user", "content": [{"type": "image", "url": "http://x/y.png"}]}
                ],
            },
            "https:// or data:",
        ),
        ({"agent": {}}, "/agent/name: Field required"),
    ],
)
def test_a_session_is_checked_before_it_is_created(
    aap: Site, body: dict[str, Any], reason: str
) -> None:
    with aap.raw() as raw:
        answer = raw.post("/sessions", json=body)
    assert answer.status_code == 400, answer.text
    assert reason in answer.json()["error"]


def test_a_turn_is_checked_before_it_runs(aap: Site) -> None:
    with aap.client() as client, aap.raw() as raw:
        sid = client.create_session(agent={"name": "echo"}, tools=[add_spec()]).session_id
        plain = client.create_session(agent={"name": "plain"}).session_id

        def turn(session: str, **body: Any) -> str:
            answer = raw.post(f"/sessions/{session}/turns", json=body)
            assert answer.status_code == 400, answer.text
            return str(answer.json()["error"])

        assert "stream mode 'delta'" in turn(
            plain, stream="delta", messages=[{"role": "user", "content": "x"}]
        )
        assert "at least one message" in turn(sid, messages=[])
        assert "no tool call 'c9'" in turn(
            sid, messages=[{"role": "tool", "toolCallId": "c9", "content": "x"}]
        )
        assert "cannot change" in turn(
            sid, agent={"name": "plain"}, messages=[{"role": "user", "content": "x"}]
        )
        assert "not 'system'" in turn(sid, messages=[{"role": "system", "content": "x"}])
        call = client.create_turn(sid, messages=[user('call add {"a": 1, "b": 1}')]).messages[0]
        call_id = call.model_dump()["content"][0]["toolCallId"]
        assert "wait for an answer first" in turn(sid, messages=[{"role": "user", "content": "x"}])
        permission = {"role": "tool_permission", "toolCallId": call_id, "granted": True}
        assert "not a server tool's" in turn(sid, messages=[permission])
        answer = {"role": "tool", "toolCallId": call_id, "content": "2"}
        assert "answered twice" in turn(sid, messages=[answer, answer])
        done = client.create_turn(sid, messages=[ToolMessage.model_validate(answer), user("and?")])
        assert done.stop_reason == "end_turn"


def add_spec() -> dict[str, Any]:
    return ClientTool.from_function(add).spec().model_dump(exclude_none=True)


def test_turn_overrides_persist_for_the_session(aap: Site) -> None:
    with aap.client() as client:
        sid = new_session(client, options={"model": "large", "upstream_key": "k-1"})
        client.create_turn(
            sid,
            agent={"tools": [{"name": "clock", "trust": True}], "options": {"upstream_key": "k-2"}},
            tools=[add_spec()],
            messages=[user("options")],
        )
        info = client.get_session(sid)
        assert info.agent.options == {"model": "large", "upstream_key": "***"}
        assert [t.name for t in info.agent.tools or []] == ["clock"]
        assert [t.name for t in info.tools or []] == ["add"]
        seen = json.loads(
            client.create_turn(sid, messages=[user("options")])
            .messages[0]
            .model_dump()["content"][0]["text"]
        )
        assert seen["options"] == {"model": "large", "upstream_key": "k-2"}
        assert "k-2" not in seen["repr"]  # the agent's context shows no secret


# -- one turn at a time, cancellation, bounds -----------------------------------------------


def test_a_second_turn_while_one_runs_is_refused(aap: Site) -> None:
    with aap.client() as client, aap.client() as other:
        sid = new_session(client)
        with client.create_turn_stream(sid, messages=[user("hold 1.5")], mode="delta") as events:
            assert next(iter(events)).event == "turn_start"
            with pytest.raises(ConflictError, match="already running"):
                other.create_turn(sid, messages=[user("hi")])
            rest = [e.event for e in events]
        assert rest[-1] == "turn_stop"
        assert other.create_turn(sid, messages=[user("hi")]).stop_reason == "end_turn"


def test_a_client_that_goes_away_cancels_its_turn(aap: Site) -> None:
    def work() -> None:
        with aap.client() as client:
            sid = new_session(client)
            with client.create_turn_stream(sid, messages=[user("hold 30")], mode="delta") as events:
                assert next(iter(events)).event == "turn_start"
            deadline = time.monotonic() + 5
            while sid not in CANCELLED:
                assert time.monotonic() < deadline, "the turn was not cancelled"
                time.sleep(0.02)
            # the claim is released with it: the session takes a turn at once
            assert client.create_turn(sid, messages=[user("hi")]).stop_reason == "end_turn"

    within(20, work)


def test_bounds(tmp_path: Path) -> None:
    with site(
        tmp_path, max_request_bytes=4000, stream_idle_timeout=0.3, max_event_bytes=3000,
        max_messages_per_request=3, keepalive=0.1,
    ) as aap:  # fmt: skip
        with aap.client() as client, aap.raw() as raw:
            sid = new_session(client)
            with pytest.raises(APIStatusError) as caught:
                client.create_turn(sid, messages=[user("x" * 5000)])
            assert caught.value.status_code == 413 and caught.value.json == {
                "error": "the body is larger than 4000 bytes"
            }
            pieces = iter([b'"' + b"x" * 3000, b"x" * 3000 + b'"'])
            typed = {"Content-Type": "application/json"}
            chunked = raw.post(f"/sessions/{sid}/turns", content=pieces, headers=typed)
            assert chunked.status_code == 413  # no content-length: counted while read
            with pytest.raises(BadRequestError, match="more than 3 messages"):
                client.create_turn(sid, messages=[user("a")] * 4)
            started = time.monotonic()
            silent = client.create_turn(sid, messages=[user("hold 5")])
            assert silent.stop_reason == "error" and time.monotonic() - started < 3
            assert client.create_turn(sid, messages=[user("big 2000")]).stop_reason == "end_turn"
            with client.create_turn_stream(
                sid, messages=[user("big 3500")], mode="message"
            ) as events:
                assert [e.event for e in events] == ["turn_start", "turn_stop"]
            with client.create_turn_stream(
                sid, messages=[user("big 3500")], mode="delta"
            ) as events:
                assert [e.event for e in events] == ["turn_start", "turn_stop"]
            answer = raw.post(
                f"/sessions/{sid}/turns",
                json={"stream": "delta", "messages": [{"role": "user", "content": "hold 0.25"}]},
            )
            assert ": keepalive\n\n" in answer.text and answer.text.endswith(
                'data: {"stopReason":"end_turn"}\n\n'
            )


def test_turn_time_steps_history_and_sessions_are_bounded(tmp_path: Path) -> None:
    with site(
        tmp_path, turn_timeout=0.5, max_steps=3, max_history_messages=6,
        max_sessions_per_principal=2,
    ) as aap, aap.client() as client:  # fmt: skip
        sid = new_session(client, tools=[{"name": "clock", "trust": True}])
        started = time.monotonic()
        assert client.create_turn(sid, messages=[user("hold 3")]).stop_reason == "error"
        assert time.monotonic() - started < 2
        looped = client.create_turn(sid, messages=[user("loop")])
        assert looped.stop_reason == "error", looped
        assert [m.role for m in looped.messages] == ["assistant", "tool"] * 3  # three steps
        with pytest.raises(BadRequestError, match="history is full"):
            client.create_turn(sid, messages=[user("hi")])
        new_session(client)
        with pytest.raises(ConflictError, match="too many sessions"):
            new_session(client)


def test_no_exception_text_and_no_secret_reaches_a_client(
    aap: Site, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with aap.client() as client:
        sid = new_session(client, options={"upstream_key": LEAK})
        failed = client.create_turn(sid, messages=[user("fail")])
        assert failed.stop_reason == "error" and failed.messages == []
        with client.create_turn_stream(sid, messages=[user("fail")], mode="delta") as events:
            raw_events = [e.model_dump_json() for e in events]
        listed = [s.model_dump_json() for s in client.iter_sessions()]
        shown = client.get_session(sid).model_dump_json()
    assert LEAK not in "".join(raw_events + listed) + shown
    assert "RuntimeError" in caplog.text  # the failure is logged for the operator...
    logged_secret = [r for r in caplog.records if LEAK in r.getMessage()]
    assert logged_secret == []  # ...but the secret option never is
    assert (
        LEAK not in repr(aap.server) and KEY not in repr(aap.server) and "alice" not in repr(KEYS)
    )


def test_unknown_routes_and_methods_answer_the_error_shape(aap: Site) -> None:
    with aap.raw() as raw:
        route = raw.get("/nope")
        method = raw.put("/sessions")
        broken = raw.post(
            "/sessions", content=b"{not json", headers={"content-type": "application/json"}
        )
    assert (route.status_code, route.json()) == (404, {"error": "no such route"})
    assert (method.status_code, method.json()) == (405, {"error": "method not allowed"})
    assert broken.status_code == 400 and broken.json()["error"].startswith(
        "invalid body: /: Invalid JSON"
    )


def test_a_deleted_session_stops_its_running_turn(tmp_path: Path) -> None:
    with site(tmp_path, turn_lease=0.3) as aap:
        with aap.client() as client:
            sid = new_session(client)
            with client.create_turn_stream(sid, messages=[user("hold 3")], mode="delta") as events:
                assert next(iter(events)).event == "turn_start"
                client.delete_session(sid)
                started = time.monotonic()
                assert [e.event for e in events] == ["turn_stop"]
                assert time.monotonic() - started < 2


def test_async_client_and_session(aap: Site) -> None:
    import anyio

    async def main() -> None:
        async with AsyncAAPClient(aap.url, api_key=KEY) as client:
            session = await AsyncSession.create(
                client, "echo", tools=[ClientTool.from_function(add)], mode="message"
            )
            result = await session.send('call add {"a": 3, "b": 4}')
            assert result.text.endswith("=7")
            sid = (await client.create_session(agent={"name": "echo"})).session_id
            async with await client.create_turn_stream(
                sid, messages=[user("hey")], mode="delta"
            ) as events:
                folded = await afold_events(events)
            assert folded.text == "echo: hey"

    anyio.run(main)


def test_a_server_needs_agents_with_distinct_names(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="two agents"):
        AAPServer([make_echo(), make_echo()], store=f"sqlite:///{tmp_path}/x.db", auth=None)
    with pytest.raises(ValueError, match="positive"):
        ServerSettings(turn_timeout=0)
    with pytest.raises(ValueError, match="at least one key"):
        ApiKeys({})
    assert isinstance(Agent("a").info().name, str)
