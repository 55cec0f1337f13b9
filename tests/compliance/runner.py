"""The AI-Protocol compliance suite, run against the public API of ``agentproto.llm``.

The cases are upstream's newest suite, vendored as data under
``tests/fixtures/ai-protocol-compliance/`` (see its SOURCE.md: 25 case files, 117 cases; case ids
repeat across files, so a case is keyed ``<file stem>/<id>``): each names a fixture manifest, an
input and what a runtime must produce. Paths that leave the suite's folder
(``../../../../v2/providers/<id>.yaml``, ``../../../../dist/v2-alpha/...``,
``v2/contracts/...``) are read from the vendored copies (:func:`resolve`).
Every case is run through the client a user would use, over real HTTP on a loopback server
where the case is about a request or an answer:

- ``protocol_loading``: :meth:`Manifest.load` of the fixture; a refusal must be a
  :class:`ManifestError` whose problems point into the part the case is about (upstream's
  wording is its validator's, ajv's; ours is jsonschema's, so the pointer is compared, and both
  texts are kept in the outcome). A case with a ``contract_path`` validates the provider
  contract against upstream's ``provider-contract.json`` and compares its document mapping; a
  ``contract_fragment`` is validated against that schema's document mapping.
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
- ``capability_check``: the capability names the case lists are the protocol's (the vendored
  ``v2/capabilities.json`` vocabulary, v1's ``chat`` being v2's ``text``), the required ones are
  declared by the fixture, and the feature flags the case names are the protocol's.
- ``fallback_decision``: the error class of the case's code says ``fallbackable``, and
  :func:`agentproto.llm.fallback.should_fall_back` decides the same for an error of that class.
- ``text_tool_parse`` / ``text_tool_hybrid``: :func:`agentproto.llm.parse_text_tool_calls` /
  :func:`hybrid_tool_calls` on the case's text.
- ``content_block_encode``: ``chat()`` with the case's blocks on the bundled manifest of the
  case's API style; the blocks the server received (or the refusal before sending) compared.

Input types that are not a chat client's (upstream's MCP, computer-use, reasoning and video
operations of ai-lib, and ai-lib's own prompt wording) are reported ``n/a`` with the reason in
:data:`NOT_A_CHAT_CLIENTS`.

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
COMPLIANCE = ROOT / "tests" / "fixtures" / "ai-protocol-compliance"
PROTOCOL = ROOT / "schemas" / "ai_protocol"
if str(ROOT / "generated") not in sys.path:
    sys.path.insert(0, str(ROOT / "generated"))

from agentproto.llm import (  # noqa: E402
    FallbackChain,
    LLMClient,
    Manifest,
    ManifestError,
    ProviderError,
    TextToolConfig,
    ToolCall,
    hybrid_tool_calls,
    parse_text_tool_calls,
)
from agentproto.llm.classify import retry_decision, retry_policy  # noqa: E402
from agentproto.llm.credentials import resolve_credential  # noqa: E402
from agentproto.llm.errors import ERROR_CODES, KNOWN_ERROR_CODES  # noqa: E402
from agentproto.llm.events import (  # noqa: E402
    PartialContentDelta,
    PartialToolCall,
    StreamEnd,
    StreamEvent,
    ThinkingDelta,
    ToolCallStarted,
)
from agentproto.llm.streaming import IncompleteStreamError  # noqa: E402
from agentproto.llm.versions import style_format  # noqa: E402

from tests.servers.scripted import Answer, Script, scripted_server  # noqa: E402

API_KEY = "compliance-key-0000"
MODEL = "compliance-model"

KNOWN_GAPS: dict[str, str] = {}
"""Cases that fail today for a reason outside this runner's reach, each with that reason."""


VOUCHED: dict[str, tuple[dict[str, Any], str]] = {
    "generative-capabilities/gen-003": (
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
    tags: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """``<file stem>/<id>``: unique (upstream reuses ids across files)."""
        return f"{Path(self.file).stem}/{self.id}"


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
                    tags=tuple(str(t) for t in doc.get("tags") or ()),
                )
            )
    return cases


_OUTSIDE = "../../../../"


def resolve(path: str) -> Path:
    """A path a case names, on the vendored files: the suite's own folder; upstream's canonical
    manifests (``../../../../v2/providers/``) under ``schemas/ai_protocol/v2/providers``; the
    ``dist/v2-alpha`` manifests under the suite's ``upstream/``; ``v2/contracts/`` under
    ``schemas/ai_protocol/v2/contracts``."""
    if path.startswith(_OUTSIDE + "v2/"):
        return PROTOCOL / path[len(_OUTSIDE) :]
    if path.startswith(_OUTSIDE + "dist/"):
        return COMPLIANCE / "upstream" / path[len(_OUTSIDE) :]
    if path.startswith("v2/contracts/"):
        return PROTOCOL / path
    return COMPLIANCE / path


@cache
def fixture_data(path: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(resolve(path).read_text("utf-8"))
    return data


def manifest_of(case: Case) -> Manifest:
    path = str(case.setup.get("manifest_path") or case.input.get("manifest_path"))
    return Manifest.load(resolve(path))


ANSWERS: dict[str, dict[str, Any]] = {
    "openai_style": {
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}
        ]
    },
    "anthropic_style": {"content": [{"type": "text", "text": "ok"}], "stop_reason": "end_turn"},
    "gemini_style": {
        "candidates": [{"content": {"parts": [{"text": "ok"}]}, "finishReason": "STOP"}]
    },
}
"""A plain answer in each format, for the cases about what was sent (an answer with no content
field is refused by the client, so ``{}`` will not do)."""


def answer_for(manifest: Manifest) -> Answer:
    return Answer(body=json.dumps(ANSWERS[manifest.payload_format]).encode())


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
    if "contract_path" in case.input or "contract_fragment" in case.input:
        contract_loading(case)
        return
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
        if not exc.problems:
            raise Mismatch(f"refused without a problem naming where: {exc}") from None
        if "capability-profile" in case.tags:
            astray = [p for p in exc.problems if not p[0].startswith("/capability_profile")]
            if astray:
                raise Mismatch(
                    f"expected problems in /capability_profile ({errors}), got {astray}"
                ) from None
        return
    if not expected.get("valid", True):
        raise Mismatch(f"expected the manifest to be refused ({expected.get('errors')}); it loaded")
    expect("provider_id", manifest.id, expected.get("provider_id", manifest.id))
    expect(
        "protocol_version",
        manifest.protocol_version,
        expected.get("protocol_version", manifest.protocol_version),
    )
    if expected.get("runtime_deserialize"):
        data = fixture_data(str(case.input["manifest_path"]))
        lost = sorted(set(data) - set(manifest.raw))
        if lost:
            raise Mismatch(f"top-level fields not kept in Manifest.raw: {lost}")


@cache
def contract_schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PROTOCOL / "v2" / "provider-contract.json").read_text())
    return data


def _schema_problems(schema: Mapping[str, Any], document: Any) -> list[str]:
    import jsonschema.validators

    validator = jsonschema.validators.validator_for(schema)(schema)
    return [
        f"/{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator.iter_errors(document)
    ]


def contract_loading(case: Case) -> None:
    """The content-block-encoding contract cases (cbe-001..003)."""
    schema = contract_schema()
    document_schema = schema["properties"]["request_mapping"]["properties"][
        "content_block_mapping"
    ]["properties"]["document"]
    expected = case.expected
    if "contract_fragment" in case.input:
        fragment = case.input["contract_fragment"]["document"]
        problems = _schema_problems(document_schema, fragment)
        expect("valid", not problems, expected.get("valid", True))
        if "ref_resolution_allowed" in expected:
            allowed = document_schema["properties"]["ref_resolution"]["enum"]
            expect("ref_resolution allowed", allowed, expected["ref_resolution_allowed"])
        return
    pointer = fixture_data(str(case.input["manifest_path"]))
    expect("contract_path", pointer.get("contract_path"), case.input["contract_path"])
    contract = fixture_data(str(case.input["contract_path"]))
    # the contract's `$schema` names its schema, whose `additionalProperties: false` omits it
    problems = _schema_problems(schema, {k: v for k, v in contract.items() if k != "$schema"})
    if bool(problems) == bool(expected.get("valid", True)):
        raise Mismatch(f"valid: expected {expected.get('valid', True)}, got problems {problems}")
    mapping = contract["request_mapping"]["content_block_mapping"]["document"]
    contains(mapping, expected.get("document_mapping") or {}, "/document")
    contains(mapping, pointer.get("document_mapping") or {}, "/document")
    expect("provider_id", contract.get("provider_id"), pointer.get("provider_id"))
    style = str(contract.get("api_style"))
    if style_format(style) is None:
        raise Mismatch(f"the client has no request shape for api_style {style!r}")


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
    manifest = manifest_of(case)
    server.answer(answer_for(manifest))
    messages = case.input.get("messages") or [{"role": "user", "content": "hi"}]
    options = VOUCHED[case.key][0] if case.key in VOUCHED else {}
    with client(manifest, server, **options) as llm:
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
    target = case.input.get("runtime_target")
    if target is not None:
        # checked as a CPython runtime; only the WASM runner's own name for the source is not
        expected = {k: v for k, v in expected.items() if k != "source_name"}
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
    if target is not None:
        raise NotApplicable(
            f"written for a {target} runtime, which has no environment and names an explicit "
            f"key {case.expected.get('source_name')!r}; agentproto.llm runs on CPython, where "
            "the same key resolves as 'explicit' (the rest of the case is checked and holds)"
        )


def auth_attachment(case: Case, server: Script) -> None:
    expected = case.expected
    env = {str(k): str(v) for k, v in (case.setup.get("env") or {}).items()}
    manifest = manifest_of(case)
    server.answer(answer_for(manifest))
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


@cache
def capability_vocabulary() -> tuple[frozenset[str], frozenset[str]]:
    """The protocol's capability names and feature flags (vendored ``v2/capabilities.json``)."""
    data = json.loads((PROTOCOL / "v2" / "capabilities.json").read_text("utf-8"))
    names = data["$defs"]["capability_name"]["enum"]
    flags = data["oneOf"][0]["properties"]["feature_flags"]["properties"]
    return frozenset(names), frozenset(flags)


V1_CAPABILITY_NAMES = {"chat": "text"}
"""v1 capability names that v2 renamed."""


def capability_check(case: Case, server: Script) -> None:
    manifest = manifest_of(case)
    names, flags = capability_vocabulary()
    declared = {V1_CAPABILITY_NAMES.get(k, k) for k, on in manifest.capabilities.items() if on}
    expected = case.expected
    unknown = sorted(set(case.input.get("capabilities") or ()) - names)
    if unknown:
        raise Mismatch(f"not capability names of the protocol: {unknown}")
    present = expected.get("capabilities_present") or {}
    missing = sorted(set(present.get("required") or ()) - declared)
    if missing:
        raise Mismatch(f"required capabilities not declared: {missing} (declared {declared})")
    unknown = sorted(set(present.get("optional_contains") or ()) - names)
    if unknown:
        raise Mismatch(f"optional capabilities the protocol does not name: {unknown}")
    unknown = sorted(set(expected.get("feature_flags") or ()) - flags)
    if unknown:
        raise Mismatch(f"feature flags the protocol does not name: {unknown}")
    required = case.input.get("required_capability")
    if required is not None:
        expect(f"{required} declared", required in declared, expected.get("capability_declared"))
    if "mcp_integration_method" in expected:
        raise NotApplicable(
            "the capability is read as declared; the MCP integration method "
            f"({expected['mcp_integration_method']!r}) is ai-lib's MCP bridge, and "
            "agentproto.llm has no MCP bridge (MCP tools are given to it as ordinary tools)"
        )


def fallback_decision(case: Case, server: Script) -> None:
    """Two targets in a :class:`FallbackChain` over loopback: the first answers an error of the
    case's code, the second answers; the chain must reach the second exactly when the case says
    it should fall back."""
    cls = ERROR_CODES[str(case.input["error_code"])]
    provider_code = min(k for k, v in KNOWN_ERROR_CODES.items() if v == cls.error_class)
    error = {"error": {"message": "failed", "type": provider_code, "code": provider_code}}
    manifest = Manifest.bundled("openai")
    server.answer(Answer(status=400, body=json.dumps(error).encode()), answer_for(manifest))
    sent = len(server.requests)
    targets = [(client(manifest, server), MODEL), (client(manifest, server), MODEL)]
    with FallbackChain(targets) as chain:
        try:
            reply = chain.chat([{"role": "user", "content": "hi"}])
        except ProviderError as exc:
            expect("error_code", exc.code, cls.code)
            fell_back = False
        else:
            expect("first attempt", reply.attempts[0].error_class, cls.error_class)
            fell_back = True
    expect("should_fallback", fell_back, case.expected["should_fallback"])
    expect("requests sent", len(server.requests) - sent, 2 if fell_back else 1)


def _tool_calls(calls: Sequence[ToolCall]) -> list[dict[str, Any]]:
    return [{"name": c.name, "arguments": c.input} for c in calls]


def text_tool_parse(case: Case, server: Script) -> None:
    config = TextToolConfig(lenient=bool(case.input["config"].get("lenient_parsing", True)))
    found = parse_text_tool_calls(str(case.input["response_text"]), config)
    expect("tool_calls", _tool_calls(found.tool_calls), case.expected["tool_calls"])
    expect("remaining_text", found.remaining_text, case.expected["remaining_text"])


def text_tool_hybrid(case: Case, server: Script) -> None:
    config = TextToolConfig(lenient=bool(case.input["config"].get("lenient_parsing", True)))
    native = [
        ToolCall(str(c["id"]), str(c["name"]), dict(c["arguments"]))
        for c in case.input.get("native_tool_calls") or ()
    ]
    found = hybrid_tool_calls(str(case.input["content"]), native, config)
    expect("tool_calls", _tool_calls(found.tool_calls), case.expected["tool_calls"])
    expect("remaining_text", found.remaining_text, case.expected["remaining_text"])


STYLE_MANIFESTS = {"anthropic_messages": "anthropic", "gemini_generate": "gemini"}
"""The bundled manifest a ``content_block_encode`` case's API style is run on."""


def _block(block: Mapping[str, Any]) -> dict[str, Any]:
    """A case's unified block as this client's input block."""
    kind = block["block_type"]
    if kind == "text":
        return {"type": "text", "text": block["text"]}
    out = {"type": kind, "data": block.get("data"), "media_type": block.get("mime_type")}
    if block.get("source_type") not in (None, "base64"):
        out["source_type"] = block["source_type"]
    return out


def content_block_encode(case: Case, server: Script) -> None:
    manifest = Manifest.bundled(STYLE_MANIFESTS[str(case.input["api_style"])])
    server.answer(answer_for(manifest))
    blocks = [_block(b) for b in case.input["blocks"]]
    sent = len(server.requests)
    with client(manifest, server) as llm:
        try:
            llm.chat([{"role": "user", "content": blocks}], model=MODEL)
        except ValueError as exc:
            if case.input.get("expect_error") or case.expected.get("valid") is False:
                expect("requests sent", len(server.requests) - sent, 0)
                return
            raise Mismatch(f"refused: {exc}") from None
    if case.input.get("expect_error"):
        raise Mismatch("expected a refusal before encoding; the request was sent")
    body = last_body(server)
    if manifest.payload_format == "gemini_style":
        encoded = body["contents"][-1]["parts"]
    else:
        encoded = body["messages"][-1]["content"]
    expect("encoded blocks", encoded, case.expected["encoded"])


NOT_A_CHAT_CLIENTS: dict[str, str] = {
    "capability_guard": (
        "guards ai-lib's MCP / computer-use / reasoning / video operations (MCPListTools, "
        "ComputerUse, Reason, VideoGenerate) on a manifest in ai-lib's internal `core:` layout, "
        "which is not a provider manifest (schemas/v2/provider.json requires endpoint, "
        "error_classification and capabilities at the top); agentproto.llm has none of these "
        "operations (its own guard, a reasoning request on a manifest that declares none, is "
        "UnsupportedError before sending: tests/test_llm_production.py)"
    ),
    "advanced_endpoint_mapping": (
        "resolves endpoints of ai-lib's MCP / computer-use / reasoning / video operations in "
        "ai-lib's internal `core:` manifest layout; agentproto.llm has no such operations"
    ),
    "provider_mock_behavior": (
        "asserts request and answer bodies of ai-lib's MCP / computer-use / reasoning / video "
        "operations against ai-protocol-mock; agentproto.llm has no such operations"
    ),
    "text_tool_prompt": (
        "checks the wording of ai-lib's own tool-use prompt ('WILL BE IGNORED'); agentproto.llm "
        "never writes prompts into a caller's conversation (the parsing side, cases ttc-001..009, "
        "runs)"
    ),
}
"""Input types that are not a chat client's, each with why."""


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
    "capability_check": capability_check,
    "fallback_decision": fallback_decision,
    "text_tool_parse": text_tool_parse,
    "text_tool_hybrid": text_tool_hybrid,
    "content_block_encode": content_block_encode,
}


def run_case(case: Case, server: Script) -> Outcome:
    kind_name = str(case.input.get("type"))
    if kind_name in NOT_A_CHAT_CLIENTS:
        return Outcome(case.key, "n/a", NOT_A_CHAT_CLIENTS[kind_name])
    kind = KINDS.get(kind_name)
    if kind is None:
        return Outcome(case.key, "fail", f"input type {kind_name!r} is not one the runner knows")
    try:
        kind(case, server)
    except NotApplicable as exc:
        return Outcome(case.key, "n/a", str(exc))
    except Mismatch as exc:
        return Outcome(case.key, "fail", str(exc))
    except Exception as exc:  # the client raised: that is the case's failure, named
        return Outcome(case.key, "fail", f"{type(exc).__name__}: {exc}")
    return Outcome(case.key, "pass")


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
                        "case": case.key,
                        "suite": case.suite,
                        "status": outcome.status,
                        "reason": outcome.reason,
                    }
                )
            )
        else:
            known = (
                f" [known: {KNOWN_GAPS[case.key]}]"
                if case.key in KNOWN_GAPS and outcome.status == "fail"
                else ""
            )
            print(
                f"{outcome.status:5} {case.key:48} {case.name}"
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
