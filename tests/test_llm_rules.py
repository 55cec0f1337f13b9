"""The compiled event map (``agentproto.llm.rules``) does what the closures do.

Every stream program is compiled twice over: into closures (``agentproto.llm.paths``), read by
``StreamDecoder._frame_interpreted``, and into one generated function (``program.frame``), which
streams use. For every vendored manifest (the bundled ones, upstream's v1, v2 and v2-alpha
ones, the compliance suite's), seeded random frames built from the paths and literals the
manifest's streaming section names (lists of 0-3 elements, nulls, wrong types, the literals
its matches compare with) go through both, frame after frame on one decoder each: the events,
their order and the decoder's state must be the same after every frame.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from agentproto.llm import Manifest, ManifestError
from agentproto.llm import streaming as streaming_module
from agentproto.llm.events import StreamEvent
from agentproto.llm.paths import WILD, ExpressionError, Segment, expression_tokens, parse_path
from agentproto.llm.problems import UnsupportedError
from agentproto.llm.registry import PROVIDER_IDS
from agentproto.llm.rules import compile_frame
from agentproto.llm.streaming import StreamDecoder, StreamProgram

from tests.conftest import ROOT

SCHEMAS = ROOT / "schemas" / "ai_protocol"
COMPLIANCE = ROOT / "tests" / "fixtures" / "ai-protocol-compliance"
FILES: list[Path] = [
    *sorted((SCHEMAS / "v1" / "providers").glob("*.yaml")),
    *sorted((SCHEMAS / "v2" / "providers").glob("*.yaml")),
    *sorted((COMPLIANCE / "upstream" / "dist" / "v2-alpha" / "providers").glob("*.json")),
    *sorted((COMPLIANCE / "fixtures" / "providers").glob("*.yaml")),
]
EXTRA_PATHS = (  # read by rules the decoder adds, and by the error-frame check
    "$.choices[*].delta.reasoning_content",
    "$.choices[*].delta.reasoning",
    "$.message.usage",
    "$.type",
    "$.error",
    "$.event",
    "$.data",
    "$.choices[*].index",
    "$.candidates[*].content.parts[*].thought",
)
FRAMES = 120  # per manifest


def _programs() -> Iterator[tuple[str, Manifest]]:
    for provider in sorted(PROVIDER_IDS):
        yield provider, Manifest.bundled(provider)
    for path in FILES:
        try:
            manifest = Manifest.load(path)
        except (ManifestError, UnsupportedError):
            continue  # refused manifests (non-chat APIs, the suite's invalid ones)
        yield str(path.relative_to(ROOT)), manifest


MANIFESTS = dict(_programs())


def test_every_vendored_manifest_is_covered() -> None:
    # The bundled 19, upstream's v1 and v2 chat manifests and the suite's loadable ones.
    assert len(MANIFESTS) >= 60, sorted(MANIFESTS)
    assert all(m.stream.frame is not None for m in MANIFESTS.values())


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _vocabulary(manifest: Manifest) -> tuple[list[tuple[Segment, ...]], list[Any]]:
    """The paths and the literals the manifest's streaming section names."""
    paths: set[str] = set(EXTRA_PATHS)
    literals: list[Any] = ["hi", "", "stop", "STOP", "error", None, 0, 1, 2, True, False]
    for text in _strings(manifest.data.get("streaming") or {}):
        try:
            tokens = expression_tokens(text)
        except ExpressionError:
            continue
        for kind, token in tokens:
            if kind == "path" and (token.startswith("$") or "." in token or "[" in token):
                paths.add(token if token.startswith("$") else "$." + token)
            elif kind == "str":
                literals.append(token[1:-1])
            elif kind == "num":
                literals.append(float(token) if "." in token else int(token))
    parsed: list[tuple[Segment, ...]] = []
    for path in sorted(paths):
        try:
            parsed.append(parse_path(path))
        except ExpressionError:
            continue
    return parsed, literals


def _junk(rng: random.Random, literals: list[Any]) -> Any:
    return rng.choice([*literals, {}, [], {"message": "boom", "code": "rate_limit"}, ["x", 1]])


def _make(segments: tuple[Segment, ...], rng: random.Random, literals: list[Any]) -> Any:
    if not segments or rng.random() < 0.04:  # a leaf, or the wrong type along the way
        return _junk(rng, literals)
    head, rest = segments[0], segments[1:]
    if head is WILD:
        return [_make(rest, rng, literals) for _ in range(rng.choice([0, 1, 1, 1, 1, 2, 3]))]
    if type(head) is int:
        size = head + 1 if head >= 0 else -head
        return [
            _make(rest, rng, literals) if i in (head, size + head) else _junk(rng, literals)
            for i in range(size)
        ]
    return {head: _make(rest, rng, literals)}


def _merge(a: Any, b: Any, rng: random.Random) -> Any:
    if type(a) is dict and type(b) is dict:
        out = dict(a)
        for key, value in b.items():
            out[key] = _merge(out[key], value, rng) if key in out else value
        return out
    if type(a) is list and type(b) is list and rng.random() < 0.8:
        longer, shorter = (a, b) if len(a) >= len(b) else (b, a)
        return [_merge(x, shorter[i], rng) if i < len(shorter) else x for i, x in enumerate(longer)]
    return b if rng.random() < 0.5 else a


def _frames(manifest: Manifest, seed: int) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    paths, literals = _vocabulary(manifest)
    for _ in range(FRAMES):
        frame: Any = {}
        for segments in rng.sample(paths, k=rng.randint(1, min(len(paths), 7))):
            frame = _merge(frame, _make(segments, rng, literals), rng)
        yield frame if type(frame) is dict else {"data": frame}


class _Ids:
    """Deterministic ``uuid4`` for generated tool-call ids (reset before each frame)."""

    def __init__(self) -> None:
        self.counter = itertools.count()

    def reset(self) -> None:
        self.counter = itertools.count()

    def uuid4(self) -> Any:
        return type("U", (), {"hex": f"{next(self.counter):032x}"})()


def _step(
    decoder: StreamDecoder, run: Callable[[StreamDecoder, dict[str, Any], list[StreamEvent]], None]
) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    def one(frame: dict[str, Any]) -> tuple[Any, ...]:
        out: list[StreamEvent] = []
        try:
            run(decoder, frame, out)
            raised = None
        except Exception as exc:  # the same failure, or a difference
            raised = (type(exc).__name__, str(exc))
        return (
            out,
            raised,
            decoder.done,
            decoder.stopped,
            decoder.error,
            dict(decoder._finish),
            sorted(decoder._calls),
            dict(decoder._started),
            decoder._end_literal,
        )

    return one


@pytest.mark.parametrize("name", sorted(MANIFESTS))
def test_compiled_frame_matches_interpreted(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = MANIFESTS[name]
    program: StreamProgram = manifest.stream
    assert program.frame is not None
    ids = _Ids()
    monkeypatch.setattr(streaming_module, "uuid", ids)
    events = 0
    compiled = interpreted = None
    for i, frame in enumerate(_frames(manifest, seed=sum(map(ord, name)))):
        if compiled is None or compiled[0].done:
            fresh = StreamDecoder(program), StreamDecoder(program)
            compiled = (fresh[0], _step(fresh[0], program.frame.run))
            interpreted = (fresh[1], _step(fresh[1], StreamDecoder._frame_interpreted))
        assert interpreted is not None
        ids.reset()
        want = interpreted[1](frame)
        ids.reset()
        got = compiled[1](frame)
        assert got == want, f"frame {i}: {frame!r}\n{program.frame.source}"
        events += len(want[0])
    assert events > 0  # the frames reached the rules


def test_common_programs_call_no_closure() -> None:
    """The OpenAI, Anthropic and Gemini maps compile whole: no expression is left to a
    closure (``M<n>(frame, ...)``), so a frame costs no closure call."""
    for provider in ("openai", "anthropic", "gemini", "deepseek", "mistral"):
        frame = Manifest.bundled(provider).stream.frame
        assert frame is not None
        assert "M" not in {line.strip()[:1] for line in frame.source.splitlines()}
        assert "(frame, (" not in frame.source.replace("self._emit(", "")


def test_a_closure_stands_in_for_what_is_not_compiled() -> None:
    """An ``in`` list that is not all strings (``in [null]`` tells a missing value from
    null, which the compiled reads do not): the closure is called, with its result."""
    manifest = Manifest.bundled("openai")
    data = dict(manifest.data)
    streaming = dict(data["streaming"])
    streaming["event_map"] = [
        {
            "match": "$.choices[*].index in [0, 1] && exists($.choices[*].delta.content)",
            "emit": "PartialContentDelta",
            "fields": {"content": "$.choices[*].delta.content"},
        }
    ]
    streaming["stop_condition"] = "$.choices[0].finish_reason in ['length', null]"
    data["streaming"] = streaming
    program = Manifest(data, "test").stream
    assert program.frame is not None
    source = program.frame.source
    assert "(frame, ())" in source  # the stop condition
    assert "(frame, (e" in source and "(frame, (x" in source  # the rule, in both branches
    decoder = StreamDecoder(program)
    out: list[StreamEvent] = []
    program.frame.run(decoder, {"choices": [{"index": 1, "delta": {"content": "a"}}]}, out)
    program.frame.run(decoder, {"choices": [{"index": 3, "delta": {"content": "b"}}]}, out)
    assert [getattr(e, "content", None) for e in out] == ["a"]
    assert not decoder.stopped  # finish_reason missing: not in [..., null]
    program.frame.run(decoder, {"choices": [{"index": 0, "finish_reason": None}]}, out)
    assert decoder.stopped


def test_wildcards_past_the_scope_compile() -> None:
    """``exists($.candidates[*].finishReason)`` (gemini's stop condition) is existential:
    compiled to loops that set a flag."""
    program = Manifest.bundled("gemini").stream
    assert program.frame is not None
    decoder = StreamDecoder(program)
    out: list[StreamEvent] = []
    program.frame.run(decoder, {"candidates": [{"index": 0}, {"index": 1}]}, out)
    assert not decoder.stopped
    program.frame.run(decoder, {"candidates": [{}, {"finishReason": "STOP"}]}, out)
    assert decoder.stopped


def test_manifest_text_is_quoted_not_run() -> None:
    """Keys and literals go into the source quoted: a key that looks like code is a key."""
    rule = {
        "match": "$.type == 'x\\' or __import__(\\'os\\') or \\''",
        "emit": "Metadata",
        "fields": {"usage": "$.usage"},
    }
    manifest = Manifest.bundled("openai")
    data = dict(manifest.data)
    data["streaming"] = {**data["streaming"], "event_map": [rule]}
    program = Manifest(data, "test").stream
    assert program.frame is not None
    decoder = StreamDecoder(program)
    out: list[StreamEvent] = []
    program.frame.run(decoder, {"choices": [], "type": "x' or __import__('os') or '"}, out)
    assert len(out) == 1
    assert compile_frame  # the compiler is the module's public entry


@pytest.mark.parametrize(
    "data",
    [
        '{"a":1}',
        ' {"a":1}',
        '{"a":1} ',
        '{"a":1}\t\r',
        '{"a":1}x',
        '{"a":1}{"b":2}',
        '{"a":',
        "[1]",
        '"text"',
        "",
        "nul",
        '{"a":"\\ud83d\\ude00"}',
    ],
)
def test_sse_frame_json_is_json_loads(data: str) -> None:
    """The SSE hot path reads a frame's JSON with the decoder's scanner directly, then
    ``decode()`` whenever the value does not span the whole text: what it keeps is what
    ``json.loads`` says (an object), else the text as a ``message`` event."""
    import json

    try:
        value = json.loads(data)
    except ValueError:
        value = None
    want = value if type(value) is dict else {"event": "message", "data": data}
    decoder = StreamDecoder(Manifest.bundled("openai").stream)
    assert list(decoder._sse(b"data: " + data.encode() + b"\n\n")) == [want]
