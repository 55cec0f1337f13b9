"""A manifest's event map compiled once into one specialised Python function per stream program.

:mod:`agentproto.llm.paths` compiles every path and match expression into closures; read per
frame, a manifest's rules (eight for OpenAI) cost dozens of closure calls, and most of them test
keys the frame does not have. Here the same rules become the *source* of one function,
``run(decoder, frame, out)``, made with ``exec`` when the manifest is loaded:

- every path the rules read is inlined as ``dict.get`` steps (no closure call, no path text);
- a scope (``$.choices[*]``) is walked by plain ``for`` loops, its list read once per frame,
  and a binding tuple is made only for a rule that emits;
- for a frame whose scope lists hold at most one element (one candidate: nearly every frame)
  the element is bound once and the rules share every read of it;
- a wildcard past a rule's scope (``exists($.candidates[*].finishReason)``) becomes loops that
  set a flag;
- a text-delta rule (``PartialContentDelta`` with one ``content`` field) makes its event
  inline; every other event goes through ``StreamDecoder._emit`` as before.

The function does exactly what ``StreamDecoder._frame_interpreted`` does (selector, the rules in
order over their bindings, the unmapped error, ``flush_on``, the stop condition): the same
events, in the same order, with the same state changes. An expression this compiler does not
take (an ``in`` list holding non-strings: ``in [null]`` tells a missing value from null, which
the compiled reads do not) calls its closure, so nothing here changes what a manifest means;
``tests/test_llm_rules.py`` compares the two on every vendored manifest.

Only names, ``repr`` of the manifest's keys and literals, and fixed code go into the source: a
manifest cannot inject code (keys and literals are quoted, never spliced as code). The source is
deterministic (``CompiledFrame.source``) for reading and debugging.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from agentproto.llm.paths import (
    MISSING,
    WILD,
    ExpressionError,
    Match,
    Scope,
    Segment,
    TokenCursor,
    literal_value,
    parse_path,
)

if TYPE_CHECKING:
    from agentproto._runtime.json_types import JSONValue

__all__ = ["CompiledFrame", "FrameRule", "FrameRunner", "compile_frame"]

FrameRunner: TypeAlias = "Callable[[Any, dict[str, Any], list[Any]], None]"
"""``run(decoder, frame, out)``: one frame through the selector, the rules and the stop."""


@dataclass(frozen=True)
class FrameRule:
    """What the compiler needs of one compiled event rule (``streaming._Rule``)."""

    emit: str
    match_text: str
    match: Match
    scope: Scope
    rule: object  # the ``_Rule`` handed to ``StreamDecoder._emit``
    content: tuple[Segment, ...] | None = None  # a text-delta rule's path (absolute)
    content_get: Callable[[JSONValue, Sequence[JSONValue]], object] | None = None
    candidate: tuple[Segment, ...] | None = None  # candidate index, relative to bound[0]
    candidate_get: Callable[[JSONValue, Sequence[JSONValue]], object] | None = None


@dataclass(frozen=True)
class CompiledFrame:
    """A stream program's frame function and the source it was made from."""

    run: FrameRunner
    source: str


class _Block:
    """One indentation level of the generated function: the reads made in it (a read is a
    local assigned there, so it is seen there and in the blocks nested in it, not after)."""

    __slots__ = ("depth", "memo", "parent")

    def __init__(self, depth: int, parent: _Block | None) -> None:
        self.depth = depth
        self.parent = parent
        self.memo: dict[tuple[str, tuple[Segment, ...]], str] = {}

    def find(self, key: tuple[str, tuple[Segment, ...]]) -> str | None:
        block: _Block | None = self
        while block is not None:
            found = block.memo.get(key)
            if found is not None:
                return found
            block = block.parent
        return None


class _Code:
    """The generated function's text, block by block, and the objects it names."""

    def __init__(self, env: Mapping[str, Any]) -> None:
        self.lines: list[str] = []
        self.block = _Block(1, None)
        self.count = 0
        self.ns: dict[str, Any] = {**env, "MISSING": MISSING}

    def name(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def const(self, stem: str, value: object) -> str:
        """A name for ``value`` in the function's globals (a closure, a rule, a set)."""
        name = self.name(stem)
        self.ns[name] = value
        return name

    def line(self, text: str) -> None:
        self.lines.append("    " * self.block.depth + text)

    @contextmanager
    def child(self) -> Generator[None]:
        outer = self.block
        self.block = _Block(outer.depth + 1, outer)
        try:
            yield
        finally:
            self.block = outer

    def read(self, base: str, segments: Sequence[Segment]) -> str:
        """A local holding the first value of ``segments`` (no ``[*]``) read from the local
        ``base``, ``None`` when the path reaches nothing: read as ``paths._first_getter``
        reads (a key of a dict, an index of a list), each step once per block."""
        if not segments:
            return base
        key = (base, tuple(segments))
        found = self.block.find(key)
        if found is not None:
            return found
        parent = self.read(base, segments[:-1])
        segment = segments[-1]
        var = self.name("t")
        if type(segment) is str:
            if parent == "frame":  # a frame is always a JSON object
                self.line(f"{var} = frame.get({segment!r})")
            else:
                self.line(f"{var} = {parent}.get({segment!r}) if type({parent}) is dict else None")
        elif type(segment) is int:
            fits = f"len({parent}) > {segment}" if segment >= 0 else f"len({parent}) >= {-segment}"
            self.line(f"{var} = {parent}[{segment}] if type({parent}) is list and {fits} else None")
        else:
            raise ValueError("a wildcard has no single value")
        self.block.memo[key] = var
        return var


class _SourceParser(TokenCursor):
    """The grammar of ``paths._Parser``, giving a Python condition instead of a closure (the
    paths it reads are emitted as locals first); ``None`` for an expression (or part) it does
    not take (the caller then calls the closure)."""

    def __init__(self, text: str, scope: Scope, names: Sequence[str], code: _Code) -> None:
        super().__init__(text)
        self.scope = scope
        self.names = names  # the local bound at each of the scope's levels
        self.code = code

    def parse(self) -> str | None:
        result = self.or_()
        self.end()
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
            return self._test(text, lambda v: f"{v} is not None")
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
        return self._test(path, lambda v: f"{v} is not None and {v} is not False")

    def _value(self) -> JSONValue:
        kind, token = self.take()
        if kind not in ("str", "num", "word") or token in ("exists", "in"):
            raise ExpressionError(self.text, f"expected a literal, found {token!r}")
        return literal_value(kind, token)

    def _where(self, path: str) -> tuple[str, tuple[Segment, ...]]:
        """The local a path is read from under the scope (the frame, or the element bound at
        the deepest level it shares), and the rest of the path, as ``paths.Scope`` reads."""
        segments = parse_path(path)
        depth = self.scope.depth_of(segments)
        rest = segments[len(self.scope.levels[depth - 1]) :] if depth else segments
        return (self.names[depth - 1] if depth else "frame"), rest

    def _test(self, path: str, holds: Callable[[str], str]) -> str:
        """``holds(value)`` for the path's one value (a missing one read as ``None``), or,
        through a ``[*]`` past the bound prefix, for *some* value it reaches (a flag set by
        loops over the lists, as ``paths._values_getter`` walks them). ``holds`` must be
        false for ``None``: a missing value and null are alike."""
        base, rest = self._where(path)
        if WILD not in rest:
            return f"({holds(self.code.read(base, rest))})"
        flag = self.code.name("f")
        self.code.line(f"{flag} = False")
        self._loops(base, rest, flag, holds)
        return flag

    def _loops(
        self, base: str, rest: tuple[Segment, ...], flag: str, holds: Callable[[str], str]
    ) -> None:
        code = self.code
        if WILD not in rest:
            code.line(f"if {holds(code.read(base, rest))}:")
            with code.child():
                code.line(f"{flag} = True")
            return
        cut = rest.index(WILD)
        items = code.read(base, rest[:cut])
        element = code.name("w")
        code.line(f"if type({items}) is list:")
        with code.child():
            code.line(f"for {element} in {items}:")
            with code.child():
                self._loops(element, rest[cut + 1 :], flag, holds)

    def _compare(self, path: str, op: str, literal: JSONValue) -> str | None:
        """``paths._compare_one`` (one value) and ``_Parser._compare`` (through ``[*]``)."""
        if literal is None:  # == null: no value is there; != null: some value is
            found = self._test(path, lambda v: f"{v} is not None")
            return f"(not {found})" if op == "==" else found
        if isinstance(literal, bool):
            if op == "==":
                return self._test(path, lambda v: f"{v} is {literal!r}")
            return self._test(path, lambda v: f"{v} is not None and {v} is not {literal!r}")
        if op == "==":
            if isinstance(literal, str):  # no bool, number or null equals a string
                return self._test(path, lambda v: f"{v} == {literal!r}")
            return self._test(path, lambda v: f"type({v}) is not bool and {v} == {literal!r}")
        return self._test(
            path, lambda v: f"{v} is not None and (type({v}) is bool or {v} != {literal!r})"
        )

    def _member(self, path: str, literals: list[JSONValue]) -> str | None:
        if not all(isinstance(v, str) for v in literals):
            return None  # (``in [null]`` tells a missing value from null: the closure does)
        known = self.code.const("K", frozenset(literals))
        return self._test(path, lambda v: f"type({v}) is str and {v} in {known}")


def _join(parts: list[str | None], op: str) -> str | None:
    if any(p is None for p in parts):
        return None
    if len(parts) == 1:
        return parts[0]
    return "(" + op.join(p for p in parts if p is not None) + ")"


def _match_source(text: str, scope: Scope, names: Sequence[str], code: _Code) -> str | None:
    """The Python condition for the match ``text`` under ``scope`` (its levels bound to the
    locals ``names``, the frame to ``frame``), its reads emitted into ``code``; ``None`` when
    it is not compiled."""
    try:
        return _SourceParser(text, scope, names, code).parse()
    except ExpressionError:  # the closure compiled: let it say what it means
        return None


def _steps(scope: Scope) -> list[tuple[Segment, ...]]:
    """From the frame (then from each bound element) to the list of the next ``[*]``."""
    steps: list[tuple[Segment, ...]] = []
    start = 0
    for level in scope.levels:
        steps.append(level[start:-1])
        start = len(level)
    return steps


def _test(code: _Code, text: str, match: Match, scope: Scope, names: Sequence[str]) -> str:
    found = _match_source(text, scope, names, code)
    if found is not None:
        return found
    return f"{code.const('M', match)}(frame, {_tuple(names)})"


def _tuple(names: Sequence[str]) -> str:
    return "(" + "".join(f"{n}, " for n in names) + ")"


def _error_frame(code: _Code) -> str:
    """``streaming._is_error_frame``, on the frame's locals."""
    error, kind = code.read("frame", ("error",)), code.read("frame", ("type",))
    event = "frame.get('event')"  # read only when the others do not decide
    return f"({error} is not None or {kind} == 'error' or ({event} == 'error' and 'data' in frame))"


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
    condition ends the stream (there is no done signal).

    The rules are written twice: for a frame whose scope lists have at most one element each
    (a stream of one candidate: nearly every frame), the element is bound once and every path
    read from it is read once for all rules; otherwise each rule walks its bindings in order.
    Either way the rules run in the manifest's order, each over its bindings in order."""
    code = _Code(env)
    if selector is not None:
        code.line(f"if not {_test(code, selector[0], selector[1], _EMPTY, ())}:")
        with code.child():
            code.line(f"if {_error_frame(code)}:")
            with code.child():
                code.line("out.append(self._error(error_values(frame)))")
            code.line("return")
    if flush_on is not None:
        code.line("ended_before = len(out)")
    code.line("if self._bound_calls:")
    with code.child():
        code.line("self._bound_calls.clear()")
    firsts = {tuple(_steps(r.scope)[0]) for r in rules if r.scope.levels}
    lists = {first: code.read("frame", first) for first in sorted(firsts, key=repr)}
    if lists:
        simple = " and ".join(f"(type({v}) is not list or len({v}) < 2)" for v in lists.values())
        code.line(f"if {simple}:")
        with code.child():
            _single_rules(code, rules, lists)
        code.line("else:")
        with code.child():
            _walked_rules(code, rules, lists)
    else:
        _walked_rules(code, rules, lists)
    code.line(f"if self.error is None and {_error_frame(code)}:")
    with code.child():
        code.line("out.append(self._error(error_values(frame)))")
    if flush_on is not None:
        code.line(f"if {_test(code, flush_on[0], flush_on[1], _EMPTY, ())}:")
        with code.child():
            code.line("if not any(isinstance(e, ToolCallEnded) for e in out[ended_before:]):")
            with code.child():
                code.line("self._flush_candidate(0, out)")
    if stop is not None:
        code.line(f"if {_test(code, stop[0], stop[1], _EMPTY, ())}:")
        with code.child():
            code.line("self.stopped = True")
            if stops_stream:
                code.line("self.done = True")
    source = "def run(self, frame, out):\n" + "\n".join(code.lines) + "\n"
    exec(compile(source, "<agentproto.llm.rules>", "exec"), code.ns)
    run: FrameRunner = code.ns["run"]
    return CompiledFrame(run, source)


_EMPTY = Scope(())


def _single_rules(
    code: _Code, rules: Sequence[FrameRule], lists: Mapping[tuple[Segment, ...], str]
) -> None:
    """The rules for a frame whose scope lists have at most one element: each list's element
    (``None`` for an empty list, with its flag false) read once."""
    elements: dict[tuple[Segment, ...], tuple[str, str]] = {}
    for first, items in lists.items():
        has, element = code.name("h"), code.name("e")
        code.line(f"{has} = type({items}) is list and len({items}) == 1")
        code.line(f"{element} = {items}[0] if {has} else None")
        elements[first] = (has, element)
    for rule in rules:
        code.line(f"# {rule.emit}: {rule.match_text}")
        steps = _steps(rule.scope)
        if not steps:
            _fire(code, rule, [], "")
            continue
        has, element = elements[tuple(steps[0])]
        _nested(code, rule, steps, [element], has)


def _walked_rules(
    code: _Code, rules: Sequence[FrameRule], lists: Mapping[tuple[Segment, ...], str]
) -> None:
    """The rules for any frame: each walks its bindings."""
    for rule in rules:
        code.line(f"# {rule.emit}: {rule.match_text}")
        steps = _steps(rule.scope)
        if not steps:
            _fire(code, rule, [], "")
            continue
        items = lists[tuple(steps[0])]
        element = code.name("x")
        code.line(f"if type({items}) is list:")
        with code.child():
            code.line(f"for {element} in {items}:")
            with code.child():
                _nested(code, rule, steps, [element], "")


def _nested(
    code: _Code, rule: FrameRule, steps: Sequence[tuple[Segment, ...]], names: list[str], guard: str
) -> None:
    """The loops over a rule's deeper ``[*]`` levels, then the rule."""
    if len(names) == len(steps):
        _fire(code, rule, names, guard)
        return
    items = code.read(names[-1], steps[len(names)])
    element = code.name("x")
    code.line(f"if {guard + ' and ' if guard else ''}type({items}) is list:")
    with code.child():
        code.line(f"for {element} in {items}:")
        with code.child():
            _nested(code, rule, steps, [*names, element], "")


def _fire(code: _Code, rule: FrameRule, names: Sequence[str], guard: str) -> None:
    """``if <match>: <emit>`` for one binding (``names``); ``guard`` must hold too."""
    test = _test(code, rule.match_text, rule.match, rule.scope, names)
    code.line(f"if {guard + ' and ' if guard else ''}{test}:")
    with code.child():
        name = code.const("R", rule.rule)
        if rule.content is not None:
            _content(code, rule, name, names)
        else:
            code.line(f"self._emit({name}, frame, {_tuple(names)}, out)")


def _content(code: _Code, rule: FrameRule, name: str, names: Sequence[str]) -> None:
    """``StreamDecoder._emit``'s text-delta path, inline: the event made here when the text
    is a string (nothing for an empty one), the full ``_emit`` otherwise."""
    assert rule.content is not None
    bound = _tuple(names)
    segments = rule.content
    depth = rule.scope.depth_of(segments)
    rest = segments[len(rule.scope.levels[depth - 1]) :] if depth else segments
    if WILD in rest:
        text = code.name("text")
        code.line(f"{text} = {code.const('C', rule.content_get)}(frame, {bound})")
    else:
        text = code.read(names[depth - 1] if depth else "frame", rest)
    code.line(f"if type({text}) is str:")
    with code.child():
        code.line(f"if {text}:")
        with code.child():
            candidate = "0"
            if rule.candidate_get is not None:
                if rule.candidate is not None and WILD not in rule.candidate and names:
                    found = code.read(names[0], rule.candidate)
                else:
                    found = code.name("c")
                    get = code.const("CAND", rule.candidate_get)
                    code.line(f"{found} = {get}(frame, {bound})")
                candidate = f"({found} if type({found}) is int else 0)"
            if names:
                last = names[-1]
                code.line(f"if type({last}) is dict and {last}.get('thought') is True:")
                with code.child():
                    code.line(f"out.append(ThinkingDelta({text}, {candidate}))")
                code.line("else:")
                with code.child():
                    code.line(f"out.append(PartialContentDelta({text}, {candidate}))")
            else:
                code.line(f"out.append(PartialContentDelta({text}, {candidate}))")
    code.line("else:")
    with code.child():
        code.line(f"self._emit({name}, frame, {bound}, out)")
