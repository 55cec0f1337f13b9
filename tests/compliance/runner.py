"""The AI-Protocol compliance suite, run against the public API of ``agentproto.llm``.

The cases are upstream's (``tests/fixtures/corpus/ai-protocol/compliance/cases/**/*.yaml``, see
that corpus's SOURCE.md): each names a fixture manifest, an input and what a runtime must produce.
Every case is run through the client a user would use, over real HTTP on a loopback server
where the case is about a request or an answer:

- ``protocol_loading``: :meth:`Manifest.load` of the fixture.
- ``error_classification``: the server answers the case's status and body; the
  :class:`ProviderError` raised by ``chat()`` must carry the case's code (E1001...), class,
  ``retryable`` and ``fallbackable``.
- ``message_building`` / ``parameter_mapping`` / ``request_building``: ``chat()`` with the
  case's messages and parameters; the body the server received must hold what the case says.
- ``retry_decision``: the fixture's ``retry_policy`` (overridden by the case's) read by
  :func:`agentproto.llm.classify.retry_policy`, asked :func:`retry_decision`.
- ``credential_resolution``: :func:`agentproto.llm.credentials.resolve_credential` with the
  case's environment; ``auth_attachment``: a client built from that environment sends a
  request, and the key must be where the manifest says and nowhere in its reports.
- ``event_mapping`` / ``stream_decode`` / ``tool_accumulation``: the server streams the case's
  frames (as server-sent events); ``stream()`` events and ``final_response()`` are compared.
  Our events are richer than upstream's (``ToolCallStarted`` + ``PartialToolCall`` for one
  OpenAI tool-call delta, ``FinalCandidate`` before ``StreamEnd``); they are projected onto
  upstream's vocabulary by :func:`project` before the comparison (documented there).
- ``response_parsing``: ``chat()`` reads the case's answer.

Each case ends ``pass``, ``fail`` (with what differed) or ``n/a`` (with why it cannot apply).

``python -m tests.compliance.runner [--json]`` prints one line per case and the counts.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
COMPLIANCE = ROOT / "tests" / "fixtures" / "corpus" / "ai-protocol" / "compliance"
if str(ROOT / "generated") not in sys.path:
    sys.path.insert(0, str(ROOT / "generated"))

from agentproto.llm import LLMClient, Manifest, ManifestError, ProviderError  # noqa: E402
from agentproto.llm.classify import retry_decision, retry_policy  # noqa: E402
from agentproto.llm.credentials import resolve_credential  # noqa: E402
from agentproto.llm.events import (  # noqa: E402
    PartialContentDelta,
    PartialToolCall,
    StreamEnd,
    StreamEvent,
    ThinkingDelta,
    ToolCallStarted,
)
from agentproto.llm.streaming import IncompleteStreamError  # noqa: E402

from tests.servers.scripted import Answer, Script, scripted_server  # noqa: E402

API_KEY = "compliance-key-0000"
MODEL = "compliance-model"

KNOWN_GAPS: dict[str, str] = {}
"""Cases that fail today for a reason outside this runner's reach, each with that reason."""


VOUCHED: dict[str, tuple[dict[str, Any], str]] = {
    "gen-003": (
        {"structured_output": True},
        "the fixture manifest declares no structured output; the client refuses response_format "
        "then (UnsupportedError, never a silent drop) unless the caller vouches for the provider "
        "with structured_output=True, which this case is run with "
        "(test_llm_compliance.py::test_undeclared_response_format_is_refused_unless_vouched)",
    ),
}
"""Cases run with a client option the case cannot say, each with why; listed in the README."""


@dataclass(frozen=True)
class Case:
    id: str
    suite: str
    name: str
    file: str
    setup: Mapping[str, Any]
    input: Mapping[str, Any]
    expected: Mapping[str, Any]


@dataclass(frozen=True)
class Outcome:
    case: str
    status: str  # "pass" | "fail" | "n/a"
    reason: str = ""


class Mismatch(AssertionError):
    """What a case expected and what the client did differ."""


def load_cases(folder: Path = COMPLIANCE) -> list[Case]:
    """Every case of every file under ``cases/``, in file then document order."""
    cases: list[Case] = []
    for file in sorted((folder / "cases").rglob("*.yaml")):
        for doc in yaml.safe_load_all(file.read_text("utf-8")):
            if not isinstance(doc, dict) or "id" not in doc:
                continue
            cases.append(
                Case(
                    id=str(doc["id"]),
                    suite=str(doc.get("suite", "")),
                    name=str(doc.get("name", "")),
                    file=str(file.relative_to(folder)),
                    setup=doc.get("setup") or {},
                    input=doc.get("input") or {},
                    expected=doc.get("expected") or {},
                )
            )
    return cases


@cache
def fixture_data(path: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((COMPLIANCE / path).read_text("utf-8"))
    return data


def manifest_of(case: Case) -> Manifest:
    path = str(case.setup.get("manifest_path") or case.input.get("manifest_path"))
    return Manifest.load(COMPLIANCE / path)


def expect(what: str, actual: Any, wanted: Any) -> None:
    if actual != wanted:
        raise Mismatch(f"{what}: expected {wanted!r}, got {actual!r}")


def contains(actual: Any, wanted: Any, where: str = "") -> None:
    """``wanted`` is a sub-document of ``actual`` (dicts: subset of keys; else equal)."""
    if isinstance(wanted, dict):
        if not isinstance(actual, dict):
            raise Mismatch(f"{where or '/'}: expected an object, got {actual!r}")
        for key, value in wanted.items():
            if key not in actual:
                raise Mismatch(f"{where}/{key}: missing (expected {value!r})")
            contains(actual[key], value, f"{where}/{key}")
    elif actual != wanted:
        raise Mismatch(f"{where or '/'}: expected {wanted!r}, got {actual!r}")


@contextmanager
def environment(values: Mapping[str, str], clear: Sequence[str]) -> Iterator[None]:
    """``os.environ`` with ``values`` set and ``clear`` unset, restored afterwards."""
    saved = {k: os.environ.get(k) for k in [*values, *clear]}
    try:
        for name in clear:
            os.environ.pop(name, None)
        os.environ.update(values)
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def client(manifest: Manifest, server: Script, **options: Any) -> LLMClient:
    options.setdefault("api_key", API_KEY)
    return LLMClient(manifest, base_url=server.base_url, retry=False, timeout=10.0, **options)


def last_body(server: Script) -> Any:
    return json.loads(server.requests[-1].body)


# -- the kinds of case ----------------------------------------------------------------------------


def protocol_loading(case: Case, server: Script) -> None:
    expected = case.expected
    try:
        manifest = manifest_of(case)
    except ManifestError as exc:
        if expected.get("valid", True):
            raise Mismatch(f"expected a valid manifest, got {exc}") from None
        errors = expected.get("errors") or {}
        if isinstance(errors, dict) and len(exc.problems) < int(errors.get("min", 1)):
            raise Mismatch(
                f"expected at least {errors['min']} problems, got {exc.problems}"
            ) from None
        return
    if not expected.get("valid", True):
        raise Mismatch("expected the manifest to be refused; it loaded")
    expect("provider_id", manifest.id, expected.get("provider_id", manifest.id))
    expect(
        "protocol_version",
        manifest.protocol_version,
        expected.get("protocol_version", manifest.protocol_version),
    )


def error_classification(case: Case, server: Script) -> None:
    body = json.dumps(case.input.get("response_body") or {}).encode()
    server.answer(Answer(status=int(case.input["http_status"]), body=body))
    with client(manifest_of(case), server) as llm:
        try:
            llm.chat([{"role": "user", "content": "hi"}], model=MODEL)
        except ProviderError as exc:
            error = exc
        else:
            raise Mismatch("no error raised")
    actual = {
        "error_code": error.code,
        "error_name": error.error_class,
        "error_type": error.error_class,
        "retryable": error.retryable,
        "fallbackable": error.fallbackable,
    }
    for key, value in case.expected.items():
        if key in actual:
            expect(key, actual[key], value)


def _chat_and_record(case: Case, server: Script, **arguments: Any) -> Any:
    server.answer(Answer(body=b"{}"))
    messages = case.input.get("messages") or [{"role": "user", "content": "hi"}]
    options = VOUCHED[case.id][0] if case.id in VOUCHED else {}
    with client(manifest_of(case), server, **options) as llm:
        llm.chat(messages, model=MODEL, **arguments)
    return last_body(server)


def message_building(case: Case, server: Script) -> None:
    body = _chat_and_record(case, server, params=case.input.get("parameters") or None)
    wanted = case.expected.get("normalized_body") or {}
    expect("messages", body.get("messages"), wanted.get("messages"))
    if "message_count" in case.expected:
        expect("message_count", len(body.get("messages") or []), case.expected["message_count"])


def parameter_mapping(case: Case, server: Script) -> None:
    body = _chat_and_record(case, server, params=case.input.get("standard_params") or None)
    contains(body, case.expected.get("provider_params") or {})


def request_building(case: Case, server: Script) -> None:
    body = _chat_and_record(case, server, params=case.input.get("parameters") or None)
    contains(body, case.expected.get("request_contains") or {})


def retry_decision_case(case: Case, server: Script) -> None:
    data = copy.deepcopy(dict(manifest_of(case).raw))
    given = dict(case.input.get("retry_policy") or {})
    retry_on = given.pop("retry_on_error_code", None)
    data["retry_policy"] = {**(data.get("retry_policy") or {}), **given}
    policy = retry_policy(Manifest.from_dict(data, source=f"{case.id} retry_policy"))
    error = case.input["error"]
    should, delay = retry_decision(
        policy, str(error.get("error_name") or error["error_code"]), int(case.input["attempt"])
    )
    if retry_on is not None and error.get("error_name") not in retry_on:
        should, delay = False, None
    expect("should_retry", should, case.expected["should_retry"])
    bounds = case.expected.get("delay_ms")
    if should and isinstance(bounds, dict):
        assert delay is not None
        millis = delay * 1000.0
        if not bounds.get("min", 0) <= millis <= bounds.get("max", float("inf")):
            raise Mismatch(f"delay_ms: {millis:.0f} is outside {bounds}")


def credential_resolution(case: Case, server: Script) -> None:
    expected = case.expected
    env = {str(k): str(v) for k, v in (case.setup.get("env") or {}).items()}
    secrets = [
        *env.values(),
        *([case.input["explicit_credential"]] if "explicit_credential" in case.input else []),
    ]
    key, source = resolve_credential(manifest_of(case), case.input.get("explicit_credential"), env)
    expect("status", source.status, expected.get("status", source.status))
    expect("source_kind", source.kind, expected.get("source_kind", source.kind))
    expect("source_name", source.name, expected.get("source_name", source.name))
    if "required" in expected:
        expect("required", list(source.required), expected["required"])
    if "conventional_fallbacks" in expected:
        expect(
            "conventional_fallbacks", list(source.conventional), expected["conventional_fallbacks"]
        )
    if expected.get("status") == "available" and key is None:
        raise Mismatch("no key resolved")
    reports = [str(source), repr(source), source.diagnostic()]
    if expected.get("value_redacted"):
        for secret in secrets:
            if any(secret in text for text in reports):
                raise Mismatch("a credential value shows in the report")
    for text in [
        *expected.get("must_not_contain", []),
        *expected.get("diagnostic_must_not_contain", []),
    ]:
        if any(text in report for report in reports):
            raise Mismatch(f"the report contains {text!r}")
    for text in [
        *expected.get("diagnostic_contains", []),
        *expected.get("diagnostic_should_mention", []),
    ]:
        if text not in source.diagnostic():
            raise Mismatch(f"the diagnostic does not mention {text!r}: {source.diagnostic()}")
    for name in expected.get("shadowed_envs_must_not_resolve", []):
        if source.name == name:
            raise Mismatch(f"resolved from the shadowed {name}")


def auth_attachment(case: Case, server: Script) -> None:
    expected = case.expected
    env = {str(k): str(v) for k, v in (case.setup.get("env") or {}).items()}
    manifest = manifest_of(case)
    server.answer(Answer(body=b"{}"))
    with environment(env, clear=[*manifest.key_env]):
        llm = LLMClient(manifest, base_url=server.base_url, retry=False, timeout=10.0)
    with llm:
        llm.chat([{"role": "user", "content": "hi"}], model=MODEL)
        reports = [repr(llm), str(llm.credential), repr(llm.credential)]
        expect("source_kind", llm.credential.kind, expected.get("source_kind"))
        expect("source_name", llm.credential.name, expected.get("source_name"))
    request = server.requests[-1]
    from urllib.parse import parse_qs

    query = {k: v[0] for k, v in parse_qs(request.query).items()}
    for name in expected.get("query_params") or {}:
        if query.get(name) not in env.values():
            raise Mismatch(f"query parameter {name!r}: the key was not sent there")
    if expected.get("headers") == {}:
        auth_headers = {"authorization", "x-api-key", "api-key"} & set(request.headers)
        expect("auth headers", sorted(auth_headers), [])
    for text in expected.get("must_not_contain", []):
        if any(text in report for report in reports):
            raise Mismatch(f"a report of the client contains {text!r}")


# -- streams --------------------------------------------------------------------------------------


def project(events: Sequence[StreamEvent]) -> list[dict[str, Any]]:
    """Our events in upstream's vocabulary: ``PartialContentDelta``/``ThinkingDelta`` as they
    are; a run of ``ToolCallStarted``/``PartialToolCall`` as one ``PartialToolCall`` holding
    OpenAI-shaped ``tool_calls``; ``StreamEnd`` with the provider's own finish reason;
    ``Metadata``/``FinalCandidate`` (folded into ``StreamEnd`` upstream) left out."""
    out: list[dict[str, Any]] = []
    calls: dict[int, dict[str, Any]] | None = None

    def flush() -> None:
        nonlocal calls
        if calls:
            out.append({"type": "PartialToolCall", "tool_calls": [calls[i] for i in sorted(calls)]})
        calls = None

    for event in events:
        if isinstance(event, ToolCallStarted | PartialToolCall):
            if calls is None:
                calls = {}
            entry = calls.setdefault(
                event.index,
                {
                    "index": event.index,
                    "id": "",
                    "type": "function",
                    "function": {"name": "", "arguments": ""},
                },
            )
            if isinstance(event, ToolCallStarted):
                entry["id"] = event.tool_call_id
                entry["function"]["name"] = event.tool_name
            else:
                entry["function"]["arguments"] += event.arguments
            continue
        flush()
        if isinstance(event, PartialContentDelta):
            out.append({"type": "PartialContentDelta", "content": event.content})
        elif isinstance(event, ThinkingDelta):
            out.append({"type": "ThinkingDelta", "thinking": event.thinking})
        elif isinstance(event, StreamEnd):
            out.append(
                {
                    "type": "StreamEnd",
                    "finish_reason": event.raw_finish_reason or event.finish_reason,
                }
            )
    flush()
    return out


def _sse(frames: Sequence[Any]) -> bytes:
    return b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames)


def _stream(case: Case, server: Script, body: bytes) -> tuple[list[StreamEvent], Any, bool]:
    """(events, final response or None, completed) of streaming ``body`` through the client."""
    server.answer(Answer(body=body, content_type="text/event-stream"))
    events: list[StreamEvent] = []
    with client(manifest_of(case), server) as llm:
        with llm.stream([{"role": "user", "content": "hi"}], model=MODEL) as stream:
            try:
                for event in stream:
                    events.append(event)
            except IncompleteStreamError:
                return events, None, False
            return events, stream.final_response(), True


def event_mapping(case: Case, server: Script) -> None:
    rules = (fixture_data(str(case.setup["manifest_path"])).get("streaming") or {}).get(
        "event_map"
    ) or []
    for rule in case.input.get("event_map") or []:
        if rule not in rules:
            raise NotApplicable(f"the case's rule {rule!r} is not the fixture manifest's")
    events, _, _ = _stream(case, server, _sse(case.input.get("frames") or []))
    got = project(events)
    wanted = list(case.expected.get("events") or [])
    if "event_count" in case.expected:
        expect("event_count", len(got), case.expected["event_count"])
    expect("event types", [e["type"] for e in got], [e["type"] for e in wanted])
    for actual, want in zip(got, wanted, strict=True):
        contains(actual, want)


def stream_decode(case: Case, server: Script) -> None:
    expected = case.expected
    if "raw_chunks" in case.input:
        body = "".join(case.input["raw_chunks"]).encode()
    else:
        body = "".join(f"{e}\n\n" for e in case.input.get("events") or []).encode()
    events, final, completed = _stream(case, server, body)
    for key in ("completed", "done_received"):
        if key in expected:
            expect(key, completed, expected[key])
    frames = [e for e in events if not isinstance(e, StreamEnd)]
    bounds = expected.get("frame_count")
    if isinstance(bounds, dict) and not bounds.get("min", 0) <= len(frames) <= bounds.get(
        "max", 10**9
    ):
        raise Mismatch(f"frame_count: {len(frames)} events outside {bounds}")
    for want in expected.get("events") or []:
        if want.get("type") == "frame":
            if not frames:
                raise Mismatch("no frame decoded")
            if want.get("has_content") and not any(
                isinstance(e, PartialContentDelta) for e in frames
            ):
                raise Mismatch("no content decoded")
    if "accumulated_tool_calls" in expected or "content_blocks" in expected or "usage" in expected:
        if final is None:
            raise Mismatch("the stream did not complete")
        check_final(final, expected)


def check_final(final: Any, expected: Mapping[str, Any]) -> None:
    if "accumulated_tool_calls" in expected:
        wanted = expected["accumulated_tool_calls"]
        got = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "input": c.input}}
            for c in final.tool_calls
        ]
        expect(
            "tool calls",
            got,
            [
                {
                    "id": w.get("id"),
                    "type": "function",
                    "function": {
                        "name": w["function"]["name"],
                        "input": json.loads(w["function"]["arguments"]),
                    },
                }
                for w in wanted
            ],
        )
    if "assembled_tool_calls" in expected:
        check_final(final, {"accumulated_tool_calls": expected["assembled_tool_calls"]})
    if "usage" in expected:
        check_usage(final.usage, expected["usage"])
    for block in expected.get("content_blocks") or []:
        text = final.thinking if block.get("type") == "thinking" else final.content
        if "content" in block:
            expect(f"{block['type']} block", text, block["content"])
        if "content_contains" in block and block["content_contains"] not in text:
            raise Mismatch(f"{block['type']} block {text!r} lacks {block['content_contains']!r}")
    if "finish_reason" in expected:
        reason = final.candidates[0].raw_finish_reason or final.finish_reason
        expect("finish_reason", reason, expected["finish_reason"])


def check_usage(usage: Any, wanted: Mapping[str, Any]) -> None:
    if usage is None:
        raise Mismatch("no usage")
    names = {
        "prompt_tokens": "input_tokens",
        "completion_tokens": "output_tokens",
        "total_tokens": "total_tokens",
        "reasoning_tokens": "reasoning_tokens",
    }
    for key, value in wanted.items():
        attribute = names.get(key, key)
        if not hasattr(usage, attribute):
            raise Mismatch(f"usage has no {attribute}")
        expect(f"usage.{attribute}", getattr(usage, attribute), value)


def tool_accumulation(case: Case, server: Script) -> None:
    frames: list[Any] = [
        {"choices": [{"index": 0, "delta": {"tool_calls": [chunk]}}]}
        for chunk in case.input.get("partial_chunks") or []
    ]
    frames.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    _, final, completed = _stream(case, server, _sse(frames) + b"data: [DONE]\n\n")
    if case.expected.get("complete") and not completed:
        raise Mismatch("the stream did not complete")
    check_final(final, case.expected)


def response_parsing(case: Case, server: Script) -> None:
    server.answer(Answer(body=json.dumps(case.input["response_body"]).encode()))
    with client(manifest_of(case), server) as llm:
        reply = llm.chat([{"role": "user", "content": "hi"}], model=MODEL)
    if "usage" in case.expected:
        check_usage(reply.usage, case.expected["usage"])


class NotApplicable(Exception):
    """The case cannot apply to this client (the reason says why)."""


KINDS: dict[str, Callable[[Case, Script], None]] = {
    "protocol_loading": protocol_loading,
    "error_classification": error_classification,
    "message_building": message_building,
    "parameter_mapping": parameter_mapping,
    "request_building": request_building,
    "retry_decision": retry_decision_case,
    "credential_resolution": credential_resolution,
    "auth_attachment": auth_attachment,
    "event_mapping": event_mapping,
    "stream_decode": stream_decode,
    "tool_accumulation": tool_accumulation,
    "response_parsing": response_parsing,
}


def run_case(case: Case, server: Script) -> Outcome:
    kind = KINDS.get(str(case.input.get("type")))
    if kind is None:
        return Outcome(
            case.id, "n/a", f"input type {case.input.get('type')!r} is not a chat client's"
        )
    try:
        kind(case, server)
    except NotApplicable as exc:
        return Outcome(case.id, "n/a", str(exc))
    except Mismatch as exc:
        return Outcome(case.id, "fail", str(exc))
    except Exception as exc:  # the client raised: that is the case's failure, named
        return Outcome(case.id, "fail", f"{type(exc).__name__}: {exc}")
    return Outcome(case.id, "pass")


def run_all(cases: Sequence[Case] | None = None) -> list[Outcome]:
    with scripted_server() as server:
        return [run_case(case, server) for case in (cases or load_cases())]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per case")
    args = parser.parse_args(argv)
    cases = load_cases()
    outcomes = run_all(cases)
    for case, outcome in zip(cases, outcomes, strict=True):
        if args.json:
            print(
                json.dumps(
                    {
                        "id": case.id,
                        "suite": case.suite,
                        "status": outcome.status,
                        "reason": outcome.reason,
                    }
                )
            )
        else:
            known = (
                f" [known: {KNOWN_GAPS[case.id]}]"
                if case.id in KNOWN_GAPS and outcome.status == "fail"
                else ""
            )
            print(
                f"{outcome.status:5} {case.id:9} {case.name}"
                + (f" -- {outcome.reason}" if outcome.reason else "")
                + known
            )
    counts = {s: sum(o.status == s for o in outcomes) for s in ("pass", "fail", "n/a")}
    summary = (
        f"{len(outcomes)} cases: {counts['pass']} pass, {counts['fail']} fail, "
        f"{counts['n/a']} not applicable"
    )
    print(summary if not args.json else json.dumps({"summary": counts, "cases": len(outcomes)}))
    return 0 if counts["fail"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
