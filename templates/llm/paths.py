"""Paths and match expressions of AI-Protocol manifests, compiled once into Python closures.

Manifests address JSON with a small JSONPath dialect: ``$.choices[*].delta.content``,
``choices[0].message.tool_calls`` (the ``$.`` is optional), ``[N]`` indexes and ``[*]`` for every
element. Match expressions (``frame_selector``, ``event_map[].match``, ``stop_condition``,
``accumulator.flush_on``, response filters) combine them::

    exists($.choices[*].delta.content)
    $.type == 'content_block_delta' && $.delta.type == 'text_delta'
    $.type in ['message_start', 'ping']
    $.choices[0].finish_reason != null
    exists($.error) || $.type == 'error'

with ``==``, ``!=``, ``in [...]``, ``exists(...)``, ``!``, ``&&``, ``||`` and parentheses; a bare
path is a truth test. A path through ``[*]`` is existential: the comparison holds when it holds
for some element. A missing value and JSON ``null`` are the same: ``exists`` is false for both.

:func:`compile_path` and :func:`compile_match` parse once and return plain closures; nothing is
parsed again per frame. Compiling a path *under a scope* (see :class:`Scope`) binds the part it
shares with the scope to the scope's current elements, which is how an event rule walks
``$.choices[*].delta.tool_calls[*]`` one tool call at a time.

Documents are typed as :data:`JSONValue` (what ``json.loads`` gives); a path that reaches
nothing gives :data:`MISSING`. This module imports nothing from the package: the code
generator loads it on its own to check the bundled manifests.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from agentproto._runtime.errors import AgentprotoError

if TYPE_CHECKING:  # types only: the generator loads this module on its own, outside the package
    from agentproto._runtime.json_types import JSONValue

__all__ = [
    "MISSING",
    "WILD",
    "ExpressionError",
    "Getter",
    "Match",
    "Missing",
    "Path",
    "Reader",
    "Scope",
    "Segment",
    "TokenCursor",
    "compile_match",
    "compile_path",
    "expression_tokens",
    "literal_value",
    "parse_path",
    "section",
]


class Missing(enum.Enum):
    """The type of :data:`MISSING` (an enum of one, so ``value is MISSING`` narrows)."""

    MISSING = "MISSING"

    def __repr__(self) -> str:
        return "MISSING"

    __str__ = __repr__

    def __bool__(self) -> bool:
        return False


MISSING: Final = Missing.MISSING
"""What a path gives when nothing is there."""

WILD: Final = object()  # the ``[*]`` segment
Segment = str | int | object  # a key, an index, or WILD
Reader: TypeAlias = "Callable[[JSONValue], JSONValue | Missing]"
"""A compiled path read from one document: the first value it reaches, or MISSING."""
Getter: TypeAlias = "Callable[[JSONValue, Sequence[JSONValue]], JSONValue | Missing]"
"""A compiled path read from a frame under a scope's bindings (see :class:`Scope`)."""
Match: TypeAlias = "Callable[[JSONValue, Sequence[JSONValue]], bool]"

_EMPTY: Final[Mapping[str, Any]] = MappingProxyType({})


def section(data: Mapping[str, Any], *keys: str) -> Mapping[str, Any]:
    """``data[k1][k2]...`` of a validated manifest, an absent (or empty) level read as ``{}``."""
    for key in keys:
        data = data.get(key) or _EMPTY
    return data


class ExpressionError(AgentprotoError, ValueError):
    """A path or match expression that does not parse; ``expression`` is the text."""

    def __init__(self, expression: str, reason: str) -> None:
        super().__init__(f"{reason} in {expression!r}")
        self.expression = expression
        self.reason = reason


_SEGMENT = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_\-]*)|\[(\*|-?\d+)\]|\.(\d+)(?![A-Za-z_])")
"""A key (``.a``), an index or wildcard (``[0]``, ``[*]``), or an index in dotted form
(``.0``, as in upstream's ``choices.0.message.content``)."""


def parse_path(text: str) -> tuple[Segment, ...]:
    """``$.a[0].b[*]`` -> ``("a", 0, "b", WILD)`` (``a.0.b`` is ``a[0].b``); ``$`` alone is
    the root (no segments)."""
    src = text.strip()
    rest = src[1:] if src.startswith("$") else src
    segments: list[Segment] = []
    pos = 0
    while pos < len(rest):
        m = _SEGMENT.match(rest, pos)
        if m is None:
            raise ExpressionError(text, f"unexpected {rest[pos : pos + 10]!r}")
        if m.group(1) is not None:
            if pos > 0 and rest[pos] != ".":
                raise ExpressionError(text, f"missing '.' before {m.group(1)!r}")
            segments.append(m.group(1))
        elif m.group(3) is not None:
            if pos == 0 and not src.startswith("$"):
                raise ExpressionError(text, f"a path cannot start with an index {m.group(0)!r}")
            segments.append(int(m.group(3)))
        else:
            token = m.group(2)
            segments.append(WILD if token == "*" else int(token))
        pos = m.end()
    return tuple(segments)


def _step(value: JSONValue, segment: Segment) -> JSONValue | Missing:
    if type(segment) is str:
        return value.get(segment, MISSING) if isinstance(value, dict) else MISSING
    if isinstance(value, list) and type(segment) is int:
        try:
            return value[segment]
        except IndexError:
            return MISSING
    return MISSING


def _first_getter(segments: tuple[Segment, ...]) -> Reader:
    """The first value a path reaches (``[*]`` takes the first element that has one)."""
    if WILD not in segments:
        if all(type(s) is str for s in segments):
            keys = tuple(str(s) for s in segments)
            if len(keys) == 1:
                (k,) = keys

                def get1(value: JSONValue) -> JSONValue | Missing:
                    return value.get(k, MISSING) if type(value) is dict else MISSING

                return get1

            def get_keys(value: JSONValue | Missing) -> JSONValue | Missing:
                for key in keys:
                    if type(value) is not dict:
                        return MISSING
                    value = value.get(key, MISSING)
                return value

            return get_keys

        def get_mixed(value: JSONValue) -> JSONValue | Missing:
            for segment in segments:  # _step, inlined
                if type(segment) is str:
                    if type(value) is not dict or segment not in value:
                        return MISSING
                    value = value[segment]
                elif type(value) is list and type(segment) is int:
                    try:
                        value = value[segment]
                    except IndexError:
                        return MISSING
                else:
                    return MISSING
            return value

        return get_mixed

    def get_first(value: JSONValue) -> JSONValue | Missing:
        for found in _iterate(value, segments):
            if found is not None:
                return found
        return MISSING

    return get_first


def _iterate(value: JSONValue, segments: tuple[Segment, ...]) -> Iterator[JSONValue]:
    """Every value the path reaches, in document order (missing ones skipped)."""
    for i, segment in enumerate(segments):
        if segment is WILD:
            if not isinstance(value, list):
                return
            rest = segments[i + 1 :]
            for item in value:
                yield from _iterate(item, rest)
            return
        found = _step(value, segment)
        if found is MISSING:
            return
        value = found
    yield value


@dataclass(frozen=True)
class Path:
    """A compiled path: ``first(doc)`` (or :data:`MISSING`) and ``all(doc)``."""

    text: str
    segments: tuple[Segment, ...]
    first: Reader

    @property
    def has_wildcard(self) -> bool:
        return WILD in self.segments

    def all(self, value: JSONValue) -> list[JSONValue]:
        return [v for v in _iterate(value, self.segments) if v is not None]


def compile_path(text: str) -> Path:
    segments = parse_path(text)
    return Path(text, segments, _first_getter(segments))


class Scope:
    """The ``[*]`` prefix an event rule walks, e.g. ``$.choices[*].delta.tool_calls[*]``.

    :meth:`bindings` yields, for one frame, a tuple per element reached: the element at each
    ``[*]`` of the prefix. A path compiled with :meth:`getter` reads from the deepest binding it
    shares a prefix with, so fields of one rule line up element by element.
    """

    def __init__(self, segments: tuple[Segment, ...]) -> None:
        self.segments = segments
        # The prefixes ending at each wildcard: ((path to list), ...)
        self.levels: tuple[tuple[Segment, ...], ...] = tuple(
            segments[: i + 1] for i, s in enumerate(segments) if s is WILD
        )
        steps: list[tuple[Segment, ...]] = []
        start = 0
        for level in self.levels:
            steps.append(level[start:-1])  # from the previous element to this list
            start = len(level)
        self._steps = tuple(_first_getter(s) for s in steps)

    def __bool__(self) -> bool:
        return bool(self.levels)

    def bindings(self, frame: JSONValue) -> Iterator[tuple[JSONValue, ...]]:
        if not self.levels:
            yield ()
            return
        yield from self._walk(frame, 0, ())

    def _walk(
        self, value: JSONValue, depth: int, bound: tuple[JSONValue, ...]
    ) -> Iterator[tuple[JSONValue, ...]]:
        items = self._steps[depth](value)
        if not isinstance(items, list):
            return
        last = depth + 1 == len(self._steps)
        for item in items:
            here = (*bound, item)
            if last:
                yield here
            else:
                yield from self._walk(item, depth + 1, here)

    def bind_list(self, frame: JSONValue) -> list[tuple[JSONValue, ...]]:
        """:meth:`bindings` as a list (what the stream decoder reads, once per frame and
        scope: no generator frames on the hot path)."""
        steps = self._steps
        items = steps[0](frame) if steps else MISSING
        if type(items) is not list:
            return []
        if len(steps) == 1:
            return [(item,) for item in items]
        out: list[tuple[JSONValue, ...]] = []
        for item in items:
            out.extend(self._walk(item, 1, (item,)))
        return out

    def depth_of(self, segments: tuple[Segment, ...]) -> int:
        """How many of the scope's wildcard levels ``segments`` goes through."""
        depth = 0
        for i, level in enumerate(self.levels):
            if segments[: len(level)] == level:
                depth = i + 1
        return depth

    def getter(self, text: str) -> tuple[Getter, Match]:
        """(first value, existential truth) of ``text`` read under this scope's bindings."""
        segments = parse_path(text)
        depth = self.depth_of(segments)
        rest = segments[len(self.levels[depth - 1]) :] if depth else segments
        index = depth - 1 if depth else None
        inline = _key_getter(rest, index)
        if inline is not None:
            get, exists = inline
            return get, exists
        first = _first_getter(rest)
        if index is None:
            return (lambda frame, bound: first(frame)), _exists_getter(rest, None)
        at = index
        return (lambda frame, bound: first(bound[at])), _exists_getter(rest, at)


def _key_getter(segments: tuple[Segment, ...], index: int | None) -> tuple[Getter, Match] | None:
    """(value, exists) of one or two keys, read from the frame (``index`` None) or from a
    binding, in one closure each: the paths the stream decoder reads for every frame."""
    if not 1 <= len(segments) <= 2 or not all(type(s) is str for s in segments):
        return None
    k1 = str(segments[0])
    if len(segments) == 1:
        if index is None:

            def get1(frame: JSONValue, bound: Sequence[JSONValue]) -> JSONValue | Missing:
                return frame.get(k1, MISSING) if type(frame) is dict else MISSING

            def has1(frame: JSONValue, bound: Sequence[JSONValue]) -> bool:
                return type(frame) is dict and frame.get(k1) is not None

            return get1, has1
        i = index

        def bound1(frame: JSONValue, bound: Sequence[JSONValue]) -> JSONValue | Missing:
            value = bound[i]
            return value.get(k1, MISSING) if type(value) is dict else MISSING

        def bound_has1(frame: JSONValue, bound: Sequence[JSONValue]) -> bool:
            value = bound[i]
            return type(value) is dict and value.get(k1) is not None

        return bound1, bound_has1
    k2 = str(segments[1])
    at = index

    def get2(frame: JSONValue, bound: Sequence[JSONValue]) -> JSONValue | Missing:
        value = frame if at is None else bound[at]
        if type(value) is not dict:
            return MISSING
        value = value.get(k1)
        return value.get(k2, MISSING) if type(value) is dict else MISSING

    def has2(frame: JSONValue, bound: Sequence[JSONValue]) -> bool:
        value = frame if at is None else bound[at]
        if type(value) is not dict:
            return False
        value = value.get(k1)
        return type(value) is dict and value.get(k2) is not None

    return get2, has2


def _exists_getter(segments: tuple[Segment, ...], index: int | None) -> Match:
    inline = _key_getter(segments, index)
    if inline is not None:
        return inline[1]
    first = _first_getter(segments)

    if index is None:

        def exists_root(frame: JSONValue, bound: Sequence[JSONValue]) -> bool:
            value = first(frame)
            return value is not MISSING and value is not None

        return exists_root

    def exists_bound(frame: JSONValue, bound: Sequence[JSONValue]) -> bool:
        value = first(bound[index])
        return value is not MISSING and value is not None

    return exists_bound


ValuesGetter: TypeAlias = "Callable[[JSONValue, Sequence[JSONValue]], list[JSONValue]]"


def _values_getter(scope: Scope, text: str) -> ValuesGetter:
    """Every value (wildcards expanded) of a path, read under ``scope``."""
    segments = parse_path(text)
    depth = scope.depth_of(segments)
    rest = segments[len(scope.levels[depth - 1]) :] if depth else segments
    index = depth - 1

    if WILD not in rest:
        first = _first_getter(rest)

        def one(frame: JSONValue, bound: Sequence[JSONValue]) -> list[JSONValue]:
            value = first(bound[index] if index >= 0 else frame)
            return [] if value is MISSING else [value]

        return one

    def many(frame: JSONValue, bound: Sequence[JSONValue]) -> list[JSONValue]:
        return list(_iterate(bound[index] if index >= 0 else frame, rest))

    return many


# -- match expressions ------------------------------------------------------------------------

_TOKEN_PATTERN = r"""\s*(?:
        (?P<op>&&|\|\||==|!=|!|\(|\)|\[|\]|,)
      | (?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
      | (?P<num>-?\d+(?:\.\d+)?)
      | (?P<word>exists|in|true|false|null)(?![A-Za-z0-9_$.\[])
      | (?P<path>(?:\$|[A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_\-]*|\[(?:\*|-?\d+)\])*)
    )"""


@functools.cache
def _token_regex() -> re.Pattern[str]:
    """Compiled on first use: importing the client compiles no expression."""
    return re.compile(_TOKEN_PATTERN, re.VERBOSE)


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    token = _token_regex()
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = token.match(text, pos)
        if m is None or m.end() == pos:
            raise ExpressionError(text, f"unexpected {text[pos:].strip()[:10]!r}")
        kind = m.lastgroup
        assert kind is not None
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


def expression_tokens(text: str) -> list[tuple[str, str]]:
    """The tokens of a match expression, ``(kind, text)`` (what :func:`compile_match` reads;
    ``agentproto.llm.rules`` reads the same ones)."""
    return _tokens(text)


def literal_value(kind: str, token: str) -> JSONValue:
    """The value of a literal token of a match expression."""
    return _literal(kind, token)


def _literal(kind: str, token: str) -> JSONValue:
    if kind == "str":
        body = token[1:-1]
        return re.sub(r"\\(.)", r"\1", body)
    if kind == "num":
        return float(token) if "." in token else int(token)
    return {"true": True, "false": False, "null": None}[token]


class TokenCursor:
    """A cursor over the tokens of a match expression: what a parser of its grammar reads
    with (:func:`compile_match` here, and ``agentproto.llm.rules``'s source compiler)."""

    def __init__(self, text: str) -> None:
        self.text: str = text
        self.tokens: list[tuple[str, str]] = _tokens(text)
        self.pos: int = 0

    def peek(self) -> tuple[str, str] | None:
        """The next token, ``(kind, text)``, without taking it; ``None`` at the end."""
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, value: str | None = None) -> tuple[str, str]:
        """Take the next token (which must be ``value`` when one is given)."""
        token = self.peek()
        if token is None:
            raise ExpressionError(self.text, "unexpected end")
        if value is not None and token[1] != value:
            raise ExpressionError(self.text, f"expected {value!r}, found {token[1]!r}")
        self.pos += 1
        return token

    def end(self) -> None:
        """Refuse a token left over after a whole expression."""
        extra = self.peek()
        if extra is not None:
            raise ExpressionError(self.text, f"unexpected {extra[1]!r}")


class _Parser(TokenCursor):
    def __init__(self, text: str, scope: Scope) -> None:
        super().__init__(text)
        self.scope = scope

    def parse(self) -> Match:
        result = self.or_()
        self.end()
        return result

    def or_(self) -> Match:
        parts = [self.and_()]
        while self.peek() == ("op", "||"):
            self.take()
            parts.append(self.and_())
        if len(parts) == 1:
            return parts[0]
        if len(parts) == 2:
            a, b = parts
            return lambda f, s: a(f, s) or b(f, s)
        return lambda f, s: any(p(f, s) for p in parts)

    def and_(self) -> Match:
        parts = [self.not_()]
        while self.peek() == ("op", "&&"):
            self.take()
            parts.append(self.not_())
        if len(parts) == 1:
            return parts[0]
        if len(parts) == 2:
            a, b = parts
            return lambda f, s: a(f, s) and b(f, s)
        return lambda f, s: all(p(f, s) for p in parts)

    def not_(self) -> Match:
        if self.peek() == ("op", "!"):
            self.take()
            inner = self.not_()
            return lambda f, s: not inner(f, s)
        return self.primary()

    def primary(self) -> Match:
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
            return self._exists(text)
        if token[0] != "path":
            raise ExpressionError(self.text, f"expected a path, found {token[1]!r}")
        path: str = token[1]
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
            return self._member(path, tuple(values))
        return self._truthy(path)

    def _value(self) -> JSONValue:
        kind, token = self.take()
        if kind not in ("str", "num", "word") or token in ("exists", "in"):
            raise ExpressionError(self.text, f"expected a literal, found {token!r}")
        return _literal(kind, token)

    def _exists(self, path: str) -> Match:
        if WILD in parse_path(path)[len(self._bound_prefix(path)) :]:
            values = _values_getter(self.scope, path)
            return lambda f, s: any(v is not None for v in values(f, s))
        return self.scope.getter(path)[1]

    def _bound_prefix(self, path: str) -> tuple[Segment, ...]:
        depth = self.scope.depth_of(parse_path(path))
        return self.scope.levels[depth - 1] if depth else ()

    def _single(self, path: str) -> Getter | None:
        """The value of a path that reaches at most one value under the scope (no ``[*]``
        past the bound prefix): compared directly, without a list of values."""
        if WILD in parse_path(path)[len(self._bound_prefix(path)) :]:
            return None
        return self.scope.getter(path)[0]

    def _compare(self, path: str, op: str, literal: JSONValue) -> Match:
        get = self._single(path)
        if get is not None:  # the common case, one comparison and no generator per frame
            return _compare_one(get, op, literal)
        values = _values_getter(self.scope, path)
        if op == "==":
            if literal is None:
                return lambda f, s: not any(v is not None for v in values(f, s))
            return lambda f, s: any(_equal(v, literal) for v in values(f, s))
        if literal is None:
            return lambda f, s: any(v is not None for v in values(f, s))
        return lambda f, s: any(v is not None and not _equal(v, literal) for v in values(f, s))

    def _member(self, path: str, literals: tuple[JSONValue, ...]) -> Match:
        values = _values_getter(self.scope, path)
        hashable = frozenset(v for v in literals if isinstance(v, str))
        get = self._single(path)
        if get is not None and len(hashable) == len(literals):
            return lambda f, s: type(v := get(f, s)) is str and v in hashable
        if len(hashable) == len(literals):
            return lambda f, s: any(type(v) is str and v in hashable for v in values(f, s))
        return lambda f, s: any(any(_equal(v, lit) for lit in literals) for v in values(f, s))

    def _truthy(self, path: str) -> Match:
        get = self._single(path)
        if get is not None:
            return lambda f, s: (v := get(f, s)) is not None and v is not False and v is not MISSING
        values = _values_getter(self.scope, path)
        return lambda f, s: any(v is not None and v is not False for v in values(f, s))


def _compare_one(get: Getter, op: str, literal: JSONValue) -> Match:
    """``==`` / ``!=`` on one value, with :func:`_equal`'s rules (missing is null; a boolean
    equals only a boolean)."""
    if literal is None:
        if op == "==":
            return lambda f, s: (v := get(f, s)) is None or v is MISSING
        return lambda f, s: (v := get(f, s)) is not None and v is not MISSING
    if isinstance(literal, bool):
        if op == "==":
            return lambda f, s: get(f, s) is literal
        return lambda f, s: (v := get(f, s)) is not None and v is not MISSING and v is not literal
    if op == "==":
        return lambda f, s: type(v := get(f, s)) is not bool and v is not MISSING and v == literal
    return lambda f, s: (
        (v := get(f, s)) is not None and v is not MISSING and (type(v) is bool or v != literal)
    )


def _equal(value: JSONValue, literal: JSONValue) -> bool:
    if isinstance(literal, bool) or isinstance(value, bool):
        return value is literal
    return bool(value == literal)


_EMPTY_SCOPE = Scope(())


def compile_match(text: str, scope: Scope | None = None) -> Match:
    """A predicate ``(frame, bindings) -> bool``; ``bindings`` come from ``scope``."""
    return _Parser(text, scope or _EMPTY_SCOPE).parse()


def compile_predicate(text: str) -> Callable[[JSONValue], bool]:
    """A predicate on one document (no scope)."""
    match = compile_match(text)
    return lambda value: bool(match(value, ()))


def common_scope(paths: Sequence[str]) -> Scope:
    """The longest ``[*]``-ending prefix the wildcard paths among ``paths`` share."""
    wild = [parse_path(p) for p in paths if WILD in parse_path(p)]
    if not wild:
        return _EMPTY_SCOPE
    prefix = list(wild[0])
    for segments in wild[1:]:
        n = 0
        while n < min(len(prefix), len(segments)) and prefix[n] == segments[n]:
            n += 1
        prefix = prefix[:n]
    while prefix and prefix[-1] is not WILD:
        prefix.pop()
    return Scope(tuple(prefix))
