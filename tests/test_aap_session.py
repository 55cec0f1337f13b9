"""The AAP session helper under a misbehaving server and careless callers (issue 15): unfinished
turns raise, pending tool calls are exact, server-tool names are checked, per-turn changes of
tools and options, typed history and events, dropped streams; sync and async, against the
reference server (tests/servers/aap_server.py) and a scripted one (tests/servers/scripted.py)."""

from __future__ import annotations

import gc
import json
import re
import typing
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Literal

import anyio
import httpx
import pytest
from agentproto._runtime.http_errors import APIConnectionError
from agentproto.aap import (
    AAPClient,
    AsyncAAPClient,
    AsyncSession,
    CapabilityError,
    ClientTool,
    IncompleteTurnError,
    Session,
    ToolDecision,
    TurnEvent,
    TurnResult,
    afold_events,
)
from agentproto.aap import session as session_module
from agentproto.aap import turns as turns_module
from agentproto.aap.models import (
    AssistantMessage,
    PostSessionTurnRequest,
    TextDeltaEvent,
    ToolCallEvent,
    ToolMessage,
    ToolUseContentBlock,
    UserMessage,
)

from tests.conftest import within
from tests.servers.aap_server import API_KEY, META, AAPServer
from tests.servers.loopback import serve
from tests.servers.scripted import Answer, Script, scripted_server


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


ADD = ClientTool.from_function(add)
MUL = ClientTool.from_function(mul)


@pytest.fixture
def server() -> AAPServer:
    return AAPServer()


@pytest.fixture
def base_url(server: AAPServer) -> Iterator[str]:
    with serve(server.app) as url:
        yield url + "/v1"


@pytest.fixture
def client(base_url: str) -> Iterator[AAPClient]:
    with AAPClient(base_url, api_key=API_KEY, timeout=10) as c:
        yield c


def run_async(main: Callable[[AsyncAAPClient], Awaitable[None]], base_url: str) -> None:
    async def outer() -> None:
        async with AsyncAAPClient(base_url, api_key=API_KEY, timeout=10) as c:
            await main(c)

    within(60, lambda: anyio.run(outer))


def ids(calls: list[ToolUseContentBlock]) -> list[str]:
    return [c.tool_call_id for c in calls]


# -- exports and types ----------------------------------------------------------------------


def test_errors_and_async_fold_are_exported_from_the_package() -> None:
    assert CapabilityError is session_module.CapabilityError
    assert IncompleteTurnError is turns_module.IncompleteTurnError
    assert afold_events is turns_module.afold_events
    assert issubclass(IncompleteTurnError, RuntimeError)


@pytest.mark.parametrize("cls", [Session, AsyncSession])
def test_history_and_event_callbacks_are_typed(cls: type[Any]) -> None:
    hints = typing.get_type_hints(cls.history, vars(session_module))
    assert "Any" not in str(hints["return"])
    assert "HistoryMessage" in str(hints["return"]) or "SystemMessage" in str(hints["return"])
    callback = typing.get_type_hints(cls.send, vars(session_module))["on_event"]
    assert callback == (Callable[[TurnEvent], object] | None)


# -- unfinished turns ---------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["delta", "message"])
def test_stream_without_turn_stop_raises_with_the_pending_calls(
    client: AAPClient, server: AAPServer, mode: Literal["delta", "message"]
) -> None:
    session = Session.create(
        client,
        "echo",
        tools=[ADD],
        server_tools={"delete_files": False},
        on_permission=lambda call: True,
        mode=mode,
    )
    server.misbehave = "no_turn_stop"
    with pytest.raises(IncompleteTurnError, match="without turn_stop") as caught:
        session.send("call tools")
    result = caught.value.result
    assert result.stop_reason is None and not result.complete
    assert ids(result.pending_tool_calls) == ["call_add", "call_delete_files"]
    assert len(server.turn_requests) == 1  # nothing was answered on a half-read turn
    with pytest.raises(IncompleteTurnError) as plain:
        session.send("hello")
    assert plain.value.result.text == "echo: hello"  # the partial text is not lost


def test_stream_cut_by_the_server_raises_a_connection_error(
    client: AAPClient, server: AAPServer
) -> None:
    session = Session.create(client, "echo", mode="delta")
    server.misbehave = "cut_after_3"
    seen: list[TurnEvent] = []
    with pytest.raises(APIConnectionError, match="stream broke"):
        session.send("hello world", on_event=seen.append)
    assert len(seen) == 3


def test_async_stream_without_turn_stop_raises(base_url: str, server: AAPServer) -> None:
    async def main(c: AsyncAAPClient) -> None:
        session = await AsyncSession.create(c, "echo", tools=[ADD], mode="message")
        server.misbehave = "no_turn_stop"
        with pytest.raises(IncompleteTurnError, match="never answered") as caught:
            await session.send("call tools")
        assert ids(caught.value.result.pending_tool_calls) == ["call_add"]
        server.misbehave = "cut_after_2"
        with pytest.raises(APIConnectionError):
            await session.send("hello")

    run_async(main, base_url)


def turn_json(stop: str, *calls: str) -> Answer:
    content = [
        {"type": "tool_use", "toolCallId": c, "name": "add", "input": {"a": 1, "b": 2}}
        for c in calls
    ]
    message = {"role": "assistant", "content": [{"type": "text", "text": "t"}, *content]}
    return Answer(body=json.dumps({"stopReason": stop, "messages": [message]}).encode())


def script_session(script: Script, *turns: Answer) -> None:
    script.answer(
        Answer(body=json.dumps(META).encode()),
        Answer(status=201, body=b'{"sessionId": "s1"}'),
        *turns,
    )


def turn_bodies(script: Script) -> list[dict[str, Any]]:
    return [json.loads(r.body) for r in script.requests if r.path.endswith("/turns")]


@pytest.mark.parametrize(
    ("turns", "match", "pending", "sent"),
    [
        # the agent ends the turn over a call it made: it was never run
        ([turn_json("end_turn", "c1")], r"end_turn\) \(tool calls never answered: \['c1'\]", 1, 1),
        # it stops for tool_use, is answered, then stops for tool_use with nothing left
        ([turn_json("tool_use", "c1"), turn_json("tool_use", "c1")], "no call left", 0, 2),
        # it asks for a new call every round: the loop gives up after max_tool_rounds
        ([turn_json("tool_use", f"c{i}") for i in range(5)], "after 2 rounds", 1, 3),
    ],
)
@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_unfinished_tool_loops_raise_with_the_partial_result(
    flavour: str, turns: list[Answer], match: str, pending: int, sent: int
) -> None:
    with scripted_server() as script:
        script_session(script, *turns)
        url = script.base_url + "/v1"
        caught: list[IncompleteTurnError] = []
        if flavour == "sync":
            with AAPClient(url, api_key=API_KEY, timeout=5) as c:
                session = Session.create(c, "echo", tools=[ADD], max_tool_rounds=2)
                try:
                    session.send("go")
                except IncompleteTurnError as exc:
                    caught.append(exc)
        else:

            async def main(c: AsyncAAPClient) -> None:
                session = await AsyncSession.create(c, "echo", tools=[ADD], max_tool_rounds=2)
                try:
                    await session.send("go")
                except IncompleteTurnError as exc:
                    caught.append(exc)

            run_async(main, url)
        (error,) = caught
        bodies = turn_bodies(script)
    assert re.search(match, str(error)), str(error)
    assert len(error.result.pending_tool_calls) == pending
    assert len(bodies) == sent
    assert error.result.text == "t" * sent  # every round's text is kept


# -- exact pending calls ------------------------------------------------------------------------


def test_a_finished_loop_has_no_pending_calls(client: AAPClient, server: AAPServer) -> None:
    session = Session.create(
        client,
        "echo",
        tools=[ADD],
        server_tools={"clock": True, "delete_files": False},
        on_permission=lambda call: ToolDecision.deny(),
        mode="delta",
    )
    result = session.send("call tools")
    assert ids(result.tool_calls) == ["call_add", "call_clock", "call_delete_files"]
    assert result.pending_tool_calls == []  # answered by us, inline, or denied
    assert result.answered_tool_call_ids == {"call_add", "call_delete_files"}


def test_pending_calls_leave_out_answers_from_the_turn_or_before() -> None:
    call = ToolUseContentBlock(type="tool_use", tool_call_id="a", name="x", input={})
    other = ToolUseContentBlock(type="tool_use", tool_call_id="b", name="x", input={})
    asked = AssistantMessage(role="assistant", content=[call, other])
    answered = ToolMessage(role="tool", tool_call_id="a", content="ok")
    assert ids(TurnResult(messages=[asked]).pending_tool_calls) == ["a", "b"]
    assert ids(TurnResult(messages=[asked, answered]).pending_tool_calls) == ["b"]
    earlier = TurnResult(messages=[asked], answered_tool_call_ids=frozenset({"b"}))
    assert ids(earlier.pending_tool_calls) == ["a"]


def test_resume_reports_nothing_pending_once_answered(client: AAPClient) -> None:
    sid = client.create_session(
        {
            "agent": {"name": "echo", "tools": [{"name": "delete_files"}]},
            "tools": [ADD.spec().model_dump(by_alias=True, exclude_none=True)],
        }
    ).session_id
    client.create_turn(
        sid, PostSessionTurnRequest(messages=[UserMessage(role="user", content="call tools")])
    )
    session = Session.load(client, sid, tools=[ADD], on_permission=lambda c: True)
    result = session.resume()
    assert result is not None and result.pending_tool_calls == []
    assert result.answered_tool_call_ids >= {"call_add", "call_delete_files"}


# -- server tools: names checked ----------------------------------------------------------------


def test_a_misspelt_server_tool_is_refused_before_sending(
    client: AAPClient, server: AAPServer
) -> None:
    with pytest.raises(CapabilityError, match=r"no server tool 'clokc' \(it has \['clock'"):
        Session.create(client, "echo", server_tools={"clokc": True})
    assert server.sessions == {}
    session = Session.create(client, "echo")
    with pytest.raises(CapabilityError, match="no server tool 'delete_file'"):
        session.send("hi", server_tools={"delete_file": False})
    with pytest.raises(CapabilityError, match="no option 'modle'"):
        session.send("hi", options={"modle": "large"})
    with pytest.raises(CapabilityError, match="no server tool"):
        Session.create(client, "plain", server_tools={"clock": True})  # plain lists none
    assert server.turn_requests == []


def test_async_misspelt_server_tool_is_refused(base_url: str, server: AAPServer) -> None:
    async def main(c: AsyncAAPClient) -> None:
        with pytest.raises(CapabilityError, match="no server tool 'clokc'"):
            await AsyncSession.create(c, "echo", server_tools={"clokc": True})
        session = await AsyncSession.create(c, "echo")
        with pytest.raises(CapabilityError, match="no server tool 'x'"):
            await session.send("hi", server_tools={"x": True})

    run_async(main, base_url)
    assert len(server.sessions) == 1 and server.turn_requests == []


# -- per-turn changes ---------------------------------------------------------------------------


def check_change(server: AAPServer, session_id: str, result: TurnResult) -> None:
    changed, answers = server.turn_requests[:2]
    assert changed["agent"] == {
        "tools": [{"name": "clock", "trust": True}],
        "options": {"model": "large"},
    }
    assert [t["name"] for t in changed["tools"]] == ["mul"]
    assert "agent" not in answers and "tools" not in answers  # sent once, kept by the server
    assert "call_mul=6" in result.text  # the new client tool ran; delete_files is gone
    assert ids(result.tool_calls) == ["call_mul", "call_clock"]
    stored = server.sessions[session_id]["agent"]
    assert stored["options"] == {"model": "large", "upstream_key": "k"}  # merged by key


def test_send_changes_tools_and_options_from_that_turn_on(
    client: AAPClient, server: AAPServer
) -> None:
    asked: list[str] = []

    def permission(call: ToolUseContentBlock) -> bool:
        asked.append(call.name)
        return True

    session = Session.create(
        client,
        "echo",
        tools=[ADD],
        server_tools={"delete_files": False},
        options={"upstream_key": "k"},
        on_permission=permission,
    )
    result = session.send(
        "call tools", tools=[MUL], server_tools={"clock": True}, options={"model": "large"}
    )
    check_change(server, session.session_id, result)
    assert asked == [] and sorted(session.tools) == ["mul"]
    assert "model=***" in repr(session)
    again = session.send("call tools")  # the server kept the change, and so did the helper
    assert "call_mul=6" in again.text and "agent" not in server.turn_requests[2]


def test_async_send_changes_tools_and_options(base_url: str, server: AAPServer) -> None:
    async def main(c: AsyncAAPClient) -> None:
        session = await AsyncSession.create(
            c, "echo", tools=[ADD], options={"upstream_key": "k"}, mode="delta"
        )
        seen: list[TurnEvent] = []
        result = await session.send(
            "call tools",
            tools=[MUL],
            server_tools={"clock": True},
            options={"model": "large"},
            on_event=seen.append,
        )
        check_change(server, session.session_id, result)
        assert any(isinstance(e, ToolCallEvent) and e.name == "mul" for e in seen)
        assert any(isinstance(e, TextDeltaEvent) for e in seen)
        history = await session.history("full")
        assert isinstance(history[-1], AssistantMessage)

    run_async(main, base_url)


# -- dropped streams ----------------------------------------------------------------------------


def test_streams_dropped_unreferenced_close_at_once(base_url: str) -> None:
    """A stream read once and never bound to a name (so freed at once, with the cyclic
    collector off), sync and async, on a pool of two connections: 40 in a row do not wait for
    a connection, so each one was closed when it was dropped."""
    pool = httpx.Limits(max_connections=2)
    hello = [UserMessage(role="user", content="hi")]

    def blocking() -> None:
        with httpx.Client(limits=pool) as http:
            with AAPClient(base_url, api_key=API_KEY, timeout=5, http_client=http) as c:
                sid = c.create_session({"agent": {"name": "echo"}}).session_id
                for _ in range(40):
                    next(iter(c.create_turn_stream(sid, messages=hello, mode="delta")))
                assert c.get_session(sid).session_id == sid

    async def main() -> None:
        async with httpx.AsyncClient(limits=pool) as http:
            async with AsyncAAPClient(base_url, api_key=API_KEY, timeout=5, http_client=http) as c:
                sid = (await c.create_session({"agent": {"name": "echo"}})).session_id
                for _ in range(40):
                    await anext(await c.create_turn_stream(sid, messages=hello, mode="delta"))
                folded = await afold_events(
                    await c.create_turn_stream(sid, messages=hello, mode="message")
                )
                assert folded.text == "echo: hi"

    assert gc.isenabled()
    within(60, blocking)
    within(60, lambda: anyio.run(main))
