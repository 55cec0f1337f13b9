"""A manifest's event map compiled once into one specialised Python function per stream program.

:mod:`agentproto.llm.paths` compiles every path and match expression into closures; read per
frame, a manifest's rules (eight for OpenAI) cost dozens of closure calls, and most of them test
keys the frame does not have. Here the same rules become the *source* of one function,
``run(decoder, frame, out)``, made with ``exec`` when the manifest is loaded:

- every path the rules read is inlined as ``dict.get`` steps (no closure call, no path text);
- a scope (``$.choices[*]``) is walked by plain ``for`` loops, its list read once per frame,
  and a binding tuple is made only for a rule that emits;
- a text-delta rule (``PartialContentDelta`` with one ``content`` field) makes its event
  inline; every other event goes through ``StreamDecoder._emit`` as before.

The function does exactly what ``StreamDecoder._frame_interpreted`` does (selector, the rules in
order over their bindings, the unmapped error, ``flush_on``, the stop condition): the same
events, in the same order, with the same state changes. An expression this compiler does not
take (a wildcard past the rule's scope, an ``in`` list of non-strings) calls its closure, so
nothing here changes what a manifest means; ``tests/test_llm_rules.py`` compares the two on
every vendored manifest.

Only names, ``repr`` of the manifest's keys and literals, and fixed code go into the source: a
manifest cannot inject code (keys and literals are quoted, never spliced as code). The source is
deterministic (``CompiledFrame.source``) for reading and debugging.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from agentproto.llm.paths import (
    MISSING,
    WILD,
    ExpressionError,
    Match,
    Scope,
    Segment,
    expression_tokens,
    literal_value,
    parse_path,
)

if TYPE_CHECKING:
    from agentproto._runtime.json_types import JSONValue

__all__ = ["CompiledFrame", "FrameRule", "compile_frame", "match_source"]

FrameRunner: TypeAlias = "Callable[[Any, dict[str, Any], list[Any]], None]"
"""``run(decoder, frame, out)``: one frame through the selector, the rules and the stop."""


@dataclass(frozen=True)
class FrameRule:
    """What the compiler needs of one compiled event rule (``streaming._Rule``)."""

    emit: str
    match_text: str
    match: Match
    scope: Scope
    slot: int
    rule: object  # the ``_Rule`` handed to ``StreamDecoder._emit``
    content: tuple[Segment, ...] | None = None  # a text-delta rule's path (absolute)
    content_get: Callable[[JSONValue, Sequence[JSONValue]], object] | None = None
    candidate: tuple[Segment, ...] | None = None  # candidate index, relative to bound[0]
    candidate_get: Callable[[JSONValue, Sequence[JSONValue]], object] | None = None


@dataclass(frozen=True)
class CompiledFrame:
    run: FrameRunner
    source: str


class _Names:
    """Fresh local names for the generated function."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, stem: str = "t") -> str:
        self.count += 1
        return f"{stem}{self.count}"


def value_source(base: str, segments: Sequence[Segment], tmp: _Names, missing: str) -> str:
    """An expression for the first value of ``segments`` (no ``[*]``) read from the variable
    ``base``: ``missing`` (``"MISSING"`` or ``"None"``) when the path reaches nothing. Reads
    exactly as ``paths._first_getter`` does: a key of a dict, an index of a list."""
    expr = base
    for segment in segments:
        t = tmp()
        if type(segment) is str:
            expr = f"({t}.get({segment!r}, {missing}) if type({t} := {expr}) is dict else {missing})"
        elif type(segment) is int:
            bound = f"len({t}) > {segment}" if segment >= 0 else f"len({t}) >= {-segment}"
            expr = f"({t}[{segment}] if type({t} := {expr}) is list and {bound} else {missing})"
        else:
            raise ValueError("a wildcard has no single value")
    return expr


class _SourceParser:
    """The grammar of ``paths._Parser``, giving Python source instead of closures; ``None``
    for an expression (or part) it does not take (the caller then calls the closure)."""

    def __init__(
        self, text: str, scope: Scope, names: Sequence[str], tmp: _Names, consts: dict[str, Any]
    ) -> None:
        self.text = text
        self.scope = scope
        self.names = names  # the variable bound at each of the scope's levels
        self.tmp = tmp
        self.consts = consts
        self.tokens = expression_tokens(text)
        self.pos = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if token is None:
            raise ExpressionError(self.text, "unexpected end")
        if value is not None and token[1] != value:
            raise ExpressionError(self.text, f"expected {value!r}, found {token[1]!r}")
        self.pos += 1
        return token

    def parse(self) -> str | None:
        result = self.or_()
        if self.peek() is not None:
            raise ExpressionError(self.text, f"unexpected {self.peek()!r}")
        return result

    def or_(self) -> str | None:
        parts = [self.and_()]
        while self.peek() == ("op", "||"):
            self.take()
            parts.append(self.and_())
        return _join(parts, " or ")

    def and_(self) -> str | None:
        parts = [self.not_()]
        while self.peek() == ("op", "&&"):
            self.take()
            parts.append(self.not_())
        return _join(parts, " and ")

    def not_(self) -> str | None:
        if self.peek() == ("op", "!"):
            self.take()
            inner = self.not_()
            return None if inner is None else f"(not {inner})"
        return self.primary()

    def primary(self) -> str | None:
        token = self.take()
        if token == ("op", "("):
            inner = self.or_()
            self.take(")")
            return inner
        if token == ("word", "exists"):
            self.take("(")
            kind, text = self.take()
            if kind != "path":
                raise ExpressionError(self.text, "exists() takes a path")
            self.take(")")
            single = self._single(text, "None")
            return None if single is None else f"({single} is not None)"
        if token[0] != "path":
            raise ExpressionError(self.text, f"expected a path, found {token[1]!r}")
        path = token[1]
        nxt = self.peek()
        if nxt in (("op", "=="), ("op", "!=")):
            op = self.take()[1]
            return self._compare(path, op, self._value())
        if nxt == ("word", "in"):
            self.take()
            self.take("[")
            values = [self._value()]
            while self.peek() == ("op", ","):
                self.take()
                values.append(self._value())
            self.take("]")
            return self._member(path, values)
        single = self._single(path, "None")
        if single is None:
            return None
        v = self.tmp("v")
        return f"(({v} := {single}) is not None and {v} is not False)"

    def _value(self) -> JSONValue:
        kind, token = self.take()
        if kind not in ("str", "num", "word") or token in ("exists", "in"):
            raise ExpressionError(self.text, f"expected a literal, found {token!r}")
        return literal_value(kind, token)

    def _single(self, path: str, missing: str) -> str | None:
        """The value of a path that reaches at most one value under the scope (the bound
        prefix, then no ``[*]``), as ``paths.Scope.getter`` reads it."""
        segments = parse_path(path)
        depth = self.scope.depth_of(segments)
        rest = segments[len(self.scope.levels[depth - 1]) :] if depth else segments
        if WILD in rest:
            return None
        return value_source(self.names[depth - 1] if depth else "frame", rest, self.tmp, missing)

    def _compare(self, path: str, op: str, literal: JSONValue) -> str | None:
        # paths._compare_one, with a missing value read as None (never equal to a literal)
        single = self._single(path, "None")
        if single is None:
            return None
        v = self.tmp("v")
        if literal is None:
            return f"({single} is None)" if op == "==" else f"({single} is not None)"
        if isinstance(literal, bool):
            if op == "==":
                return f"({single} is {literal!r})"
            return f"(({v} := {single}) is not None and {v} is not {literal!r})"
        if op == "==":
            if isinstance(literal, str):  # no bool, number or None equals a string
                return f"({single} == {literal!r})"
            return f"(type({v} := {single}) is not bool and {v} == {literal!r})"
        return f"(({v} := {single}) is not None and (type({v}) is bool or {v} != {literal!r}))"

    def _member(self, path: str, literals: list[JSONValue]) -> str | None:
        if not all(isinstance(v, str) for v in literals):
            return None
        single = self._single(path, "None")
        if single is None:
            return None
        name = f"K{len(self.consts)}"
        self.consts[name] = frozenset(literals)
        v = self.tmp("v")
        return f"(type({v} := {single}) is str and {v} in {name})"


def _join(parts: list[str | None], op: str) -> str | None:
    if any(p is None for p in parts):
        return None
    if len(parts) == 1:
        return parts[0]
    return "(" + op.join(p for p in parts if p is not None) + ")"


def match_source(
    text: str,
    scope: Scope,
    names: Sequence[str] = (),
    *,
    tmp: _Names | None = None,
    consts: dict[str, Any] | None = None,
) -> str | None:
    """The Python expression for the match ``text`` under ``scope`` (its levels bound to the
    variables ``names``, the frame to ``frame``), or ``None`` when it is not compiled."""
    return _SourceParser(
        text, scope, names, tmp or _Names(), consts if consts is not None else {}
    ).parse()


def _steps(scope: Scope) -> list[tuple[Segment, ...]]:
    """From the frame (then from each bound element) to the list of the next ``[*]``."""
    steps: list[tuple[Segment, ...]] = []
    start = 0
    for level in scope.levels:
        steps.append(level[start:-1])
        start = len(level)
    return steps


_ERROR_FRAME = (
    "(frame.get('error') is not None or frame.get('type') == 'error'"
    " or (frame.get('event') == 'error' and 'data' in frame))"
)  # streaming._is_error_frame


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)


def compile_frame(
    *,
    selector: tuple[str, Match] | None,
    rules: Sequence[FrameRule],
    flush_on: tuple[str, Match] | None,
    stop: tuple[str, Match] | None,
    stops_stream: bool,
    env: Mapping[str, Any],
) -> CompiledFrame:
    """One function doing a frame's work (see ``StreamDecoder._frame_interpreted``).

    ``env`` gives the event classes and helpers the source names (``PartialContentDelta``,
    ``ThinkingDelta``, ``ToolCallEnded``, ``error_values``); ``stops_stream``: the stop
    condition ends the stream (there is no done signal)."""
    tmp = _Names()
    consts: dict[str, Any] = {}
    ns: dict[str, Any] = {**env, "MISSING": MISSING}
    w = _Writer()
    w(0, "def run(self, frame, out):")

    def test(name: str, pair: tuple[str, Match], scope: Scope, names: Sequence[str]) -> str:
        try:
            found = match_source(pair[0], scope, names, tmp=tmp, consts=consts)
        except ExpressionError:
            found = None
        if found is not None:
            return found
        ns[name] = pair[1]
        bound = "(" + "".join(f"{n}, " for n in names) + ")"
        return f"{name}(frame, {bound})"

    if selector is not None:
        w(1, f"if not {test('SELECT', selector, Scope(()), ())}:")
        w(2, f"if {_ERROR_FRAME}:")
        w(3, "out.append(self._error(error_values(frame)))")
        w(2, "return")
    if flush_on is not None:
        w(1, "ended_before = len(out)")
    w(1, "if self._bound_calls:")
    w(2, "self._bound_calls.clear()")
    firsts: dict[tuple[Segment, ...], str] = {}  # a scope's first list, read once per frame
    for i, rule in enumerate(rules):
        ns[f"R{i}"] = rule.rule
        w(1, f"# {rule.emit}: {rule.match_text}")
        levels = _steps(rule.scope)
        names = [f"x{i}_{d}" for d in range(len(levels))]
        depth = 1
        if levels:
            first = firsts.get(levels[0])
            if first is None:
                first = firsts[levels[0]] = f"L{len(firsts)}"
                w(1, f"{first} = {value_source('frame', levels[0], tmp, 'None')}")
            w(1, f"if type({first}) is list:")
            w(2, f"for {names[0]} in {first}:")
            depth = 3
            for d in range(1, len(levels)):
                items = tmp("s")
                w(depth, f"{items} = {value_source(names[d - 1], levels[d], tmp, 'None')}")
                w(depth, f"if type({items}) is list:")
                w(depth + 1, f"for {names[d]} in {items}:")
                depth += 2
        bound = "(" + "".join(f"{n}, " for n in names) + ")"
        w(depth, f"if {test(f'M{i}', (rule.match_text, rule.match), rule.scope, names)}:")
        if rule.content is not None:
            _content(w, depth + 1, i, rule, names, bound, tmp, ns)
        else:
            w(depth + 1, f"self._emit(R{i}, frame, {bound}, out)")
    w(1, f"if self.error is None and {_ERROR_FRAME}:")
    w(2, "out.append(self._error(error_values(frame)))")
    if flush_on is not None:
        w(1, f"if {test('FLUSH', flush_on, Scope(()), ())}:")
        w(2, "if not any(isinstance(e, ToolCallEnded) for e in out[ended_before:]):")
        w(3, "self._flush_candidate(0, out)")
    if stop is not None:
        w(1, f"if {test('STOP', stop, Scope(()), ())}:")
        w(2, "self.stopped = True")
        if stops_stream:
            w(2, "self.done = True")
    source = "\n".join(w.lines) + "\n"
    ns.update(consts)
    exec(compile(source, "<agentproto.llm.rules>", "exec"), ns)  # noqa: S102
    run: FrameRunner = ns["run"]
    return CompiledFrame(run, source)


def _content(
    w: _Writer,
    depth: int,
    i: int,
    rule: FrameRule,
    names: Sequence[str],
    bound: str,
    tmp: _Names,
    ns: dict[str, Any],
) -> None:
    """``StreamDecoder._emit``'s text-delta path, inline: the event made here when the text
    is a string (nothing for an empty one), the full ``_emit`` otherwise."""
    assert rule.content is not None
    segments = rule.content
    depth_of = rule.scope.depth_of(segments)
    rest = segments[len(rule.scope.levels[depth_of - 1]) :] if depth_of else segments
    text = tmp("text")
    if WILD in rest:
        ns[f"C{i}"] = rule.content_get
        w(depth, f"{text} = C{i}(frame, {bound})")
    else:
        base = names[depth_of - 1] if depth_of else "frame"
        w(depth, f"{text} = {value_source(base, rest, tmp, 'None')}")
    w(depth, f"if type({text}) is str:")
    w(depth + 1, f"if {text}:")
    candidate = "0"
    if rule.candidate_get is not None:
        found = tmp("c")
        if rule.candidate is not None and WILD not in rule.candidate and names:
            w(depth + 2, f"{found} = {value_source(names[0], rule.candidate, tmp, 'None')}")
        else:
            ns[f"CAND{i}"] = rule.candidate_get
            w(depth + 2, f"{found} = CAND{i}(frame, {bound})")
        candidate = f"({found} if type({found}) is int else 0)"
    if names:
        last = names[-1]
        w(depth + 2, f"if type({last}) is dict and {last}.get('thought') is True:")
        w(depth + 3, f"out.append(ThinkingDelta({text}, {candidate}))")
        w(depth + 2, "else:")
        w(depth + 3, f"out.append(PartialContentDelta({text}, {candidate}))")
    else:
        w(depth + 2, f"out.append(PartialContentDelta({text}, {candidate}))")
    w(depth, "else:")
    w(depth + 1, f"self._emit(R{i}, frame, {bound}, out)")
