"""The generated AAP client against a reference AAP server on a loopback socket."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import anyio
import httpx
import pytest
from agentproto._runtime.http_errors import (
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    NotFoundError,
    ResponseValidationError,
)
from agentproto._runtime.redact import Secret
from agentproto._runtime.streaming import UnknownEvent
from agentproto.aap import (
    AAPClient,
    AsyncAAPClient,
    AsyncSession,
    ClientTool,
    Session,
    ToolDecision,
    fold_events,
)
from agentproto.aap.models import (
    AgentConfig,
    AssistantMessage,
    GetMetaResponse,
    PostSessionsRequest,
    PostSessionTurnRequest,
    StopReason,
    TextContentBlock,
    TextDeltaEvent,
    TextEvent,
    ToolMessage,
    ToolUseContentBlock,
    TurnStartEvent,
    TurnStopEvent,
    UserMessage,
)
from agentproto.aap.session import CapabilityError

from tests.conftest import within
from tests.servers.aap_server import API_KEY, AAPServer
from tests.servers.loopback import serve


@pytest.fixture
def server() -> AAPServer:
    return AAPServer(page_size=2)


@pytest.fixture
def base_url(server: AAPServer) -> Iterator[str]:
    with serve(server.app) as url:
        yield url + "/v1"


@pytest.fixture
def client(base_url: str) -> Iterator[AAPClient]:
    with AAPClient(base_url, api_key=API_KEY, timeout=10) as c:
        yield c


def new_session(client: AAPClient, agent: str = "echo", **extra: object) -> str:
    request = PostSessionsRequest.model_validate({"agent": {"name": agent}, **extra})
    return client.create_session(request).session_id


def user_turn(text: str, stream: str | None = None) -> PostSessionTurnRequest:
    body: dict[str, object] = {"messages": [{"role": "user", "content": text}]}
    if stream is not None:
        body["stream"] = stream
    return PostSessionTurnRequest.model_validate(body)


# -- endpoints ----------------------------------------------------------------------------------


def test_meta_is_typed_and_needs_no_auth(base_url: str) -> None:
    with AAPClient(base_url) as anonymous:
        meta = anonymous.get_meta()
    assert isinstance(meta, GetMetaResponse)
    assert meta.version == 3
    echo = meta.agents[0]
    assert echo.name == "echo"
    assert echo.capabilities is not None and echo.capabilities.stream is not None
    assert echo.capabilities.stream.delta is not None
    assert [type(o).__name__ for o in echo.options or []] == [
        "SelectAgentOption",
        "SecretAgentOption",
    ]


def test_session_crud_and_bearer_auth(client: AAPClient, server: AAPServer) -> None:
    sid = new_session(client, tools=[{"name": "add", "description": "Add", "parameters": {}}])
    assert server.seen_auth[-1] == f"Bearer {API_KEY}"
    info = client.get_session(sid)
    assert info.session_id == sid
    assert info.agent.name == "echo"
    assert info.tools is not None and info.tools[0].name == "add"
    assert client.delete_session(sid) is None
    with pytest.raises(NotFoundError) as caught:
        client.get_session(sid)
    assert isinstance(caught.value, LookupError)
    assert caught.value.status_code == 404
    assert caught.value.json == {"error": f"session {sid} not found"}
    assert f"session {sid} not found" in str(caught.value)
    with pytest.raises(NotFoundError):
        client.delete_session(sid)


def test_mapping_requests_are_validated_and_sent_by_wire_name(client: AAPClient) -> None:
    created = client.create_session({"agent": {"name": "echo", "options": {"model": "large"}}})
    assert client.get_session(created.session_id).agent.options == {"model": "large"}
    with pytest.raises(ValueError, match="agent"):
        client.create_session({"agents": []})


def test_requests_as_keyword_fields_are_validated_and_sent_by_wire_name(
    client: AAPClient, server: AAPServer
) -> None:
    created = client.create_session(agent=AgentConfig(name="echo", options={"model": "large"}))
    sid = created.session_id
    assert client.get_session(sid).agent.options == {"model": "large"}
    hello = UserMessage(role="user", content=[TextContentBlock(type="text", text="hi")])
    answer = client.create_turn(sid, messages=[hello])
    assert answer.stop_reason == "end_turn"
    with client.create_turn_stream(sid, messages=[hello], mode="delta") as events:
        kinds = [type(event) for event in events]
    assert kinds[0] is TurnStartEvent and kinds[-1] is TurnStopEvent
    raw = client.with_raw_response.create_session(agent=AgentConfig(name="echo"))
    assert raw.status_code == 201 and raw.parse().session_id != sid
    with pytest.raises(TypeError, match="not both"):
        client.create_session(PostSessionsRequest(agent=AgentConfig(name="echo")), tools=[])
    with pytest.raises(ValueError, match="agent"):
        client.create_session()  # a required field left out is refused before sending


def test_streams_dropped_unclosed_give_their_connection_back_at_once(base_url: str) -> None:
    """``for event in stream: break`` with no ``with``, again and again, on a pool of two
    connections and with the garbage collector off: each dropped stream closes its response
    right away. Through a reference cycle it was left to the collector, which could run inside
    httpx's pool lock and freeze the blocking client for good."""
    pool = httpx.Limits(max_connections=2)

    def blocking() -> None:
        http = httpx.Client(limits=pool)
        with AAPClient(base_url, api_key=API_KEY, timeout=5, http_client=http) as c:
            sid = new_session(c)
            for _ in range(50):
                for _event in c.create_turn_stream(sid, user_turn("hi"), mode="delta"):
                    break
            assert c.get_session(sid).session_id == sid
        http.close()

    async def main() -> None:
        async with httpx.AsyncClient(limits=pool) as http:
            async with AsyncAAPClient(base_url, api_key=API_KEY, timeout=5, http_client=http) as c:
                sid = (await c.create_session({"agent": {"name": "echo"}})).session_id
                for _ in range(50):
                    stream = await c.create_turn_stream(sid, user_turn("hi"), mode="delta")
                    async for _event in stream:
                        break
                    del stream
                assert (await c.get_session(sid)).session_id == sid

    within(60, blocking)
    within(60, lambda: anyio.run(main))


def test_path_parameters_are_escaped(client: AAPClient) -> None:
    with pytest.raises(NotFoundError) as caught:
        client.get_session("../meta")
    assert caught.value.url.endswith("/sessions/..%2Fmeta")


def test_wrong_key_is_an_authentication_error_without_the_key(base_url: str) -> None:
    wrong = "sk-wrong-key-value-42"
    with AAPClient(base_url, api_key=wrong) as bad, pytest.raises(AuthenticationError) as caught:
        bad.list_sessions()
    err = caught.value
    assert err.status_code == 401
    assert err.text == "Unauthorized"
    assert wrong not in str(err) and wrong not in repr(err)
    assert wrong not in repr(bad)


def test_pagination_follows_next_until_the_last_page(client: AAPClient) -> None:
    ids = [new_session(client) for _ in range(5)]
    first = client.list_sessions()
    assert [s.session_id for s in first.sessions] == ids[:2]
    assert first.next is not None
    last = client.list_sessions(after=ids[3])
    assert [s.session_id for s in last.sessions] == ids[4:]
    assert last.next is None
    assert [s.session_id for s in client.iter_sessions()] == ids


def test_history_by_type(client: AAPClient) -> None:
    sid = new_session(client, messages=[{"role": "system", "content": "be brief"}])
    client.create_turn(sid, user_turn("hi"))
    full = client.get_session_history(sid, type="full").history
    assert full.full is not None and full.compacted is None
    assert [m.role for m in full.full] == ["system", "user", "assistant"]
    compacted = client.get_session_history(sid, type="compacted").history
    assert compacted.compacted is not None
    with pytest.raises(BadRequestError):
        client.get_session_history(sid, type="everything")  # type: ignore[arg-type]


def test_raw_response_gives_status_headers_and_parse(client: AAPClient) -> None:
    raw = client.with_raw_response.get_meta()
    assert raw.status_code == 200
    assert raw.headers["content-type"] == "application/json"
    assert raw.parse().version == 3
    created = client.with_raw_response.create_session({"agent": {"name": "echo"}})
    assert created.status_code == 201


# -- turns --------------------------------------------------------------------------------------


def test_turn_without_stream_is_typed(client: AAPClient) -> None:
    sid = new_session(client)
    response = client.create_turn(sid, user_turn("hello"))
    assert response.stop_reason == "end_turn"
    (message,) = response.messages
    assert isinstance(message, AssistantMessage)
    assert [b.type for b in message.content] == ["thinking", "text"]  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="create_turn_stream"):
        client.create_turn(sid, user_turn("hello", stream="delta"))


@pytest.mark.parametrize("mode", ["delta", "message"])
def test_streamed_turn_yields_typed_events_and_folds(client: AAPClient, mode: str) -> None:
    sid = new_session(client)
    with client.create_turn_stream(sid, user_turn("hello world"), mode=mode) as events:  # type: ignore[call-overload]
        received = list(events)
    assert isinstance(received[0], TurnStartEvent)
    assert isinstance(received[-1], TurnStopEvent)
    text_type = TextDeltaEvent if mode == "delta" else TextEvent
    assert any(isinstance(e, text_type) for e in received)
    if mode == "delta":
        assert sum(isinstance(e, TextDeltaEvent) for e in received) > 1
    result = fold_events(received)
    assert result.complete and result.stop_reason == "end_turn"
    assert result.text == "echo: hello world"
    (message,) = result.messages
    assert [b.type for b in message.content] == ["thinking", "text"]  # type: ignore[union-attr]


def test_async_client_streams_and_paginates(base_url: str) -> None:
    async def main() -> None:
        async with AsyncAAPClient(base_url, api_key=API_KEY) as client:
            meta = await client.get_meta()
            assert meta.agents[0].name == "echo"
            ids = [
                (await client.create_session({"agent": {"name": "echo"}})).session_id
                for _ in range(3)
            ]
            assert [s.session_id async for s in client.iter_sessions()] == ids
            stream = await client.create_turn_stream(ids[0], user_turn("async"), mode="delta")
            async with stream as events:
                received = [e async for e in events]
            assert fold_events(received).text == "echo: async"
            with pytest.raises(NotFoundError):
                await client.get_session("nope")

    anyio.run(main)


@pytest.mark.parametrize(
    ("misbehave", "expected_stop", "events"),
    [
        ("no_turn_stop", None, None),
        ("dup_turn_stop", "end_turn", None),
        ("empty", None, 0),
        ("unknown_event", "end_turn", None),
    ],
)
def test_stream_misbehaviours_do_not_hang_or_crash(
    client: AAPClient, misbehave: str, expected_stop: StopReason | None, events: int | None
) -> None:
    sid = new_session(client)
    with client.create_turn_stream(
        sid, user_turn("hi"), mode="message", extra_headers={"X-Misbehave": misbehave}
    ) as stream:
        received = list(stream)
    if events is not None:
        assert len(received) == events
    stops = [e for e in received if isinstance(e, TurnStopEvent)]
    assert len(stops) <= 1  # the stream ends at the first turn_stop
    result = fold_events(received)
    assert result.stop_reason == expected_stop
    assert result.complete is (expected_stop is not None)
    if misbehave != "empty":
        assert result.text == "echo: hi"
    unknown = [e for e in received if isinstance(e, UnknownEvent)]
    assert result.unknown_events == unknown  # a newer server's event is kept, not dropped
    if misbehave == "unknown_event":
        assert unknown == [UnknownEvent("usage", {"tokens": 3})]  # what the server sent


def test_fold_keeps_the_first_of_duplicated_turn_stops() -> None:
    events = [
        TurnStartEvent(event="turn_start"),
        TextEvent(event="text", text="a"),
        TurnStopEvent(event="turn_stop", stop_reason="max_tokens"),
        TextEvent(event="text", text="late"),
        TurnStopEvent(event="turn_stop", stop_reason="end_turn"),
    ]
    result = fold_events(events)
    assert result.stop_reason == "max_tokens"
    assert result.text == "a"


def test_stalled_stream_ends_in_a_timeout(client: AAPClient) -> None:
    sid = new_session(client)
    started = time.monotonic()
    with pytest.raises(APITimeoutError, match="stalled"):
        with client.create_turn_stream(
            sid, user_turn("hi"), mode="delta", timeout=0.5, extra_headers={"X-Misbehave": "stall"}
        ) as stream:
            for _ in stream:
                pass
    assert time.monotonic() - started < 5


def test_json_answer_to_a_stream_request_is_a_clear_error(client: AAPClient) -> None:
    sid = new_session(client)
    with pytest.raises(ResponseValidationError, match="text/event-stream"):
        with client.create_turn_stream(
            sid, user_turn("hi"), mode="delta", extra_headers={"X-Misbehave": "json"}
        ) as stream:
            list(stream)


# -- the session helper and the tool loop ---------------------------------------------------------


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


ADD = ClientTool.from_function(add)


@pytest.mark.parametrize("mode", ["none", "delta", "message"])
def test_tool_loop_runs_client_tools_and_asks_permission(
    client: AAPClient, server: AAPServer, mode: str
) -> None:
    asked: list[str] = []

    def permission(call: ToolUseContentBlock) -> ToolDecision:
        asked.append(call.name)
        return ToolDecision.deny("too risky")

    session = Session.create(
        client,
        "echo",
        tools=[ADD],
        server_tools={"clock": True, "delete_files": False},
        on_permission=permission,
        mode=mode,  # type: ignore[arg-type]
    )
    result = session.send("call tools")
    assert asked == ["delete_files"]  # clock is trusted: run inline by the server
    assert result.stop_reason == "end_turn"
    assert "call_add=5" in result.text
    assert "call_delete_files=denied(too risky)" in result.text
    # all answers went back in one turn
    answer_turn = server.turn_requests[-1]
    assert sorted(m["role"] for m in answer_turn["messages"]) == ["tool", "tool_permission"]
    inline = [m for m in result.messages if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in inline] == ["call_clock"]
    assert ADD.spec().parameters["required"] == ["a", "b"]


def test_granted_permission_runs_the_server_tool(client: AAPClient) -> None:
    session = Session.create(
        client,
        "echo",
        server_tools={"delete_files": False},
        on_permission=lambda call: True,
        mode="delta",
    )
    result = session.send("call tools")
    assert "call_delete_files=granted" in result.text
    assert any(
        isinstance(m, ToolMessage) and m.tool_call_id == "call_delete_files"
        for m in result.messages
    )


def test_failing_client_tool_is_reported_to_the_agent(client: AAPClient) -> None:
    def broken(a: int, b: int) -> int:
        raise RuntimeError("disk on fire")

    tool = ClientTool.from_function(broken, name="add")
    session = Session.create(client, "echo", tools=[tool])
    result = session.send("call tools")
    assert "call_add=Error: RuntimeError: disk on fire" in result.text


def test_pending_tool_calls_are_resumed_after_a_load(client: AAPClient, server: AAPServer) -> None:
    created = client.create_session(
        {
            "agent": {"name": "echo", "tools": [{"name": "delete_files"}]},
            "tools": [ADD.spec().model_dump(by_alias=True, exclude_none=True)],
        }
    )
    sid = created.session_id
    first = client.create_turn(sid, user_turn("call tools"))  # the process "crashes" here
    assert first.stop_reason == "tool_use"

    session = Session.load(client, sid, tools=[ADD], on_permission=lambda c: ToolDecision.deny())
    result = session.resume()
    assert result is not None
    assert "call_add=5" in result.text and "call_delete_files=denied(None)" in result.text
    assert session.resume() is None  # nothing is pending any more


def test_capabilities_are_checked_before_sending(client: AAPClient, server: AAPServer) -> None:
    with pytest.raises(CapabilityError, match="stream mode 'delta'"):
        Session.create(client, "plain", mode="delta")
    with pytest.raises(CapabilityError, match="client-side tools"):
        Session.create(client, "plain", tools=[ADD])
    with pytest.raises(CapabilityError, match="no agent 'missing'"):
        Session.create(client, "missing")
    plain = Session.create(client, "plain")
    with pytest.raises(CapabilityError, match="history"):
        plain.history()
    assert plain.send("hi").text == "echo: hi"
    assert len(server.sessions) == 1  # the refused ones never reached the server


def test_secrets_stay_out_of_repr_and_logs(
    client: AAPClient, server: AAPServer, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "upstream-secret-value-987"
    caplog.set_level(logging.DEBUG, logger="agentproto")
    session = Session.create(
        client, "echo", options={"upstream_key": Secret(secret), "model": "large"}
    )
    session.send("hello")
    stored = server.sessions[session.session_id]["agent"]["options"]
    assert stored == {"upstream_key": secret, "model": "large"}
    assert caplog.records, "debug logging should have produced records"
    for text in (repr(session), repr(client), caplog.text):
        assert secret not in text
        assert API_KEY not in text
    assert "upstream_key=***" in repr(session)


def test_async_session_runs_the_tool_loop(base_url: str, server: AAPServer) -> None:
    async def async_add(a: int, b: int) -> int:
        await anyio.sleep(0)
        return a + b

    async def permission(call: ToolUseContentBlock) -> ToolDecision:
        return ToolDecision.grant()

    async def main() -> None:
        async with AsyncAAPClient(base_url, api_key=API_KEY) as client:
            session = await AsyncSession.create(
                client,
                "echo",
                tools=[ClientTool.from_function(async_add, name="add")],
                server_tools={"delete_files": False},
                on_permission=permission,
                mode="delta",
            )
            seen: list[object] = []
            result = await session.send("call tools", on_event=seen.append)
            assert "call_add=5" in result.text and "call_delete_files=granted" in result.text
            assert any(isinstance(e, TextDeltaEvent) for e in seen)
            history = await session.history("full")
            assert isinstance(history[-1], AssistantMessage)
            await session.delete()
            assert session.session_id not in server.sessions

    anyio.run(main)
