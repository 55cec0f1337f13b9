"""Classify the difference between two API snapshots: major, minor or patch.

- **major** (breaking): a public thing removed or renamed; a type narrowed (a ``Literal`` value
  or union member gone) or changed; an optional field or parameter made required, or a new
  required one; a positional parameter moved, renamed or made keyword-only; a wire alias changed;
  a base class dropped.
- **minor**: a public thing added; a type widened (a new ``Literal`` value, a new union
  member); a required field or parameter made optional; a new optional parameter.
- **patch**: docs only (a docstring or field description edited), a constant's value, or the
  implementation of a file whose public API did not change.

Versions below 1.0.0 follow the usual 0.x convention (Cargo's, npm's caret): a breaking change
bumps the minor number (0.3.1 → 0.4.0), anything else the patch number (0.3.1 → 0.3.2).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from codegen import parsed
from codegen.release.inheritance import base_name, builtin_mro
from codegen.release.snapshot import Item, Snapshot, item_name

LEVELS = ("patch", "minor", "major")
_VERSION = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")


@dataclass(frozen=True, order=True)
class Change:
    level: str  # major, minor, patch
    where: str  # dotted path
    what: str

    def line(self) -> str:
        return f"`{self.where}`: {self.what}"


def rank(level: str) -> int:
    return LEVELS.index(level)


def overall(changes: list[Change]) -> str | None:
    """The highest level among ``changes``; None when there is none."""
    return max((c.level for c in changes), key=rank, default=None)


def bump(version: str, level: str) -> str:
    match = _VERSION.match(version)
    if not match:
        raise ValueError(f"not a MAJOR.MINOR.PATCH version: {version!r}")
    major, minor, patch = (int(g) for g in match.groups())
    if major == 0:  # 0.x: breaking bumps the minor number, everything else the patch number
        return f"0.{minor + 1}.0" if level == "major" else f"0.{minor}.{patch + 1}"
    if level == "major":
        return f"{major + 1}.0.0"
    if level == "minor":
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch + 1}"


def is_version(text: str) -> bool:
    return bool(_VERSION.match(text))


# -- types ----------------------------------------------------------------------------------


@lru_cache(maxsize=4096)  # the same annotations recur across a snapshot's thousands of items
def type_members(annotation: str) -> frozenset[str] | None:
    """The members of a union annotation (``Literal`` values one by one); None if unparsable."""
    try:
        node = ast.parse(annotation, mode="eval").body
    except SyntaxError:
        return None
    members: set[str] = set()

    def walk(n: ast.expr) -> None:
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr):
            walk(n.left)
            walk(n.right)
            return
        if isinstance(n, ast.Subscript):
            head = parsed.unparse(n.value).split(".")[-1]
            args = list(n.slice.elts) if isinstance(n.slice, ast.Tuple) else [n.slice]
            if head == "Union":
                for arg in args:
                    walk(arg)
                return
            if head == "Optional":
                walk(args[0])
                members.add("None")
                return
            if head == "Literal":
                members.update(f"Literal[{parsed.unparse(a)}]" for a in args)
                return
            if head == "Annotated":
                walk(args[0])
                return
        members.add(parsed.unparse(n))

    walk(node)
    return frozenset(members)


def compare_types(old: str, new: str, *, output: bool = False) -> list[tuple[str, str]]:
    """(level, description) pairs for a changed annotation; empty when equal. Members gone
    narrow it (major), members added widen it (minor). For ``output`` (a return type) the
    direction flips: a narrower result is safe, a wider one is not."""
    if old == new:
        return []
    a, b = type_members(old), type_members(new)
    if a is None or b is None or (not (a & b) and a != b):
        return [("major", f"type changed: {old} -> {new}")]
    if a == b:  # the same members, written in another order
        return [("patch", f"type rewritten: {old} -> {new}")]
    found: list[tuple[str, str]] = []
    removed, added = sorted(a - b), sorted(b - a)
    if removed and added:  # a member replaced (``AnyUrl | None`` -> ``Url | None``): one change
        what = f"- {', '.join(removed)}; + {', '.join(added)}"
        return [("major", f"type changed: {old} -> {new} ({what})")]
    if removed:
        level = "minor" if output else "major"
        found.append((level, f"type narrowed: {old} -> {new} (- {', '.join(removed)})"))
    if added:
        level = "major" if output else "minor"
        found.append((level, f"type widened: {old} -> {new} (+ {', '.join(added)})"))
    return found


# -- items ----------------------------------------------------------------------------------


def _quoted(text: str) -> str:
    """An alias as the snapshot writes it (``'x'``), read back; anything else as written."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return value if isinstance(value, str) else text


_FIELD = re.compile(
    r"field (\w+): (.*) (required|optional)"
    r"(?: alias=(.*?))?(?: serialization_alias=(.*))?$"
)


def _field_parts(text: str) -> tuple[str, bool, tuple[str, str]]:
    """(type, required, wire names read and written). A field without an alias is on the wire
    under its own name, so ``alias='x'`` on a field ``x`` (older snapshots wrote it) is the
    same as none."""
    match = _FIELD.match(text)
    if not match:
        return text, False, ("", "")
    name, annotation, required, read, written = match.groups()
    read_name = name if read is None else _quoted(read)
    written_name = read_name if written is None else _quoted(written)
    return annotation, required == "required", (read_name, written_name)


def _wire_text(wire: tuple[str, str]) -> str:
    return repr(wire[0]) if wire[0] == wire[1] else f"{wire[0]!r} (read) / {wire[1]!r} (written)"


def _compare_field(where: str, old: Item, new: Item) -> list[Change]:
    (ta, ra, aa), (tb, rb, ab) = _field_parts(old.text), _field_parts(new.text)
    changes: list[Change] = []
    if not ra and rb:
        changes.append(Change("major", where, "optional field made required"))
    if ra and not rb:
        changes.append(Change("minor", where, "required field made optional"))
    if aa != ab:
        changes.append(
            Change("major", where, f"wire name changed: {_wire_text(aa)} -> {_wire_text(ab)}")
        )
    members_a, members_b = type_members(ta), type_members(tb)
    if ra != rb and members_a is not None and members_b is not None:
        if members_a ^ members_b == {"None"}:  # the None that went with the default
            return changes
    changes.extend(Change(level, where, what) for level, what in compare_types(ta, tb))
    return changes


def _params(text: str) -> tuple[ast.arguments, str | None] | None:
    match = re.search(r"\((.*)\)( -> (.*))?$", re.sub(r"\[overload \d+\]", "", text))
    if not match:
        return None
    try:
        tree = ast.parse(f"def f({match.group(1)}): pass")
    except SyntaxError:
        return None
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    return fn.args, match.group(3)


def _compare_def(where: str, old: Item, new: Item) -> list[Change]:
    a, b = _params(old.text), _params(new.text)
    if a is None or b is None:
        return [Change("major", where, f"signature changed: {old.text} -> {new.text}")]
    (pa, ra), (pb, rb) = a, b
    changes: list[Change] = []

    def table(args: ast.arguments) -> tuple[list[ast.arg], dict[str, ast.arg], set[str]]:
        positional = [*args.posonlyargs, *args.args]
        with_default = {x.arg for x in positional[len(positional) - len(args.defaults) :]}
        with_default |= {x.arg for x, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d}
        return positional, {x.arg: x for x in args.kwonlyargs}, with_default

    pos_a, kw_a, def_a = table(pa)
    pos_b, kw_b, def_b = table(pb)
    for index, arg in enumerate(pos_a):
        if index >= len(pos_b):
            if arg.arg in kw_b:
                changes.append(Change("major", where, f"parameter {arg.arg} made keyword-only"))
            elif not pb.kwarg:
                changes.append(Change("major", where, f"parameter {arg.arg} removed"))
            continue
        if pos_b[index].arg != arg.arg:
            moved = any(x.arg == arg.arg for x in pos_b)
            what = "positional order changed" if moved else "positional parameter renamed"
            changes.append(
                Change("major", where, f"{what}: {arg.arg} -> {pos_b[index].arg} at {index}")
            )
    names_a = {x.arg for x in pos_a} | set(kw_a)
    names_b = {x.arg for x in pos_b} | set(kw_b)
    for name in sorted(set(kw_a) - names_b):
        if not pb.kwarg:
            changes.append(Change("major", where, f"keyword parameter {name} removed"))
    for name in sorted(names_b - names_a):
        if name in def_b:
            changes.append(Change("minor", where, f"optional parameter {name} added"))
        else:
            changes.append(Change("major", where, f"required parameter {name} added"))
    both = {x.arg: x for x in [*pos_a, *kw_a.values()]}
    after = {x.arg: x for x in [*pos_b, *kw_b.values()]}
    for name in sorted(names_a & names_b):
        if name in def_a and name not in def_b:
            changes.append(Change("major", where, f"parameter {name} made required"))
        if name not in def_a and name in def_b:
            changes.append(Change("minor", where, f"parameter {name} made optional"))
        ann_a, ann_b = both[name].annotation, after[name].annotation
        if ann_a is not None and ann_b is not None:
            # a parameter is an input: wider is fine, narrower breaks callers
            for level, what in compare_types(parsed.unparse(ann_a), parsed.unparse(ann_b)):
                changes.append(Change(level, where, f"parameter {name}: {what}"))
    for star, label in ((pa.vararg, "*args"), (pa.kwarg, "**kwargs")):
        gone = star is not None and (pb.vararg if label == "*args" else pb.kwarg) is None
        if gone:
            changes.append(Change("major", where, f"{label} removed"))
    if ra != rb and ra and rb:
        for level, what in compare_types(ra, rb, output=True):
            changes.append(Change(level, where, f"return {what}"))
    elif ra != rb:
        changes.append(Change("major", where, f"return annotation changed: {ra} -> {rb}"))
    if not changes:  # e.g. keyword-only parameters in another order
        changes.append(Change("patch", where, f"signature rewritten: {new.text}"))
    return changes


_ROOTS = frozenset({"object", "BaseException", "Exception"})
_EXCEPTION_NAME = re.compile(r"(Error|Exception)(\[.*\])?$")


def _root_replaced(removed: set[str], added: set[str]) -> bool:
    """For a snapshot that does not know the new base's ancestors (it lives outside the
    package, or the snapshot predates ``# mro``): a root base replaced by classes that still
    derive from it, so nothing an ``isinstance`` or ``except`` relied on is lost: ``object`` by
    anything; ``Exception`` (``BaseException``) by exception classes, known by the naming
    convention (``...Error``, ``...Exception``)."""
    if not added or not removed <= _ROOTS:
        return False
    if removed == {"object"}:
        return True
    return all(_EXCEPTION_NAME.search(name) for name in added)


def _bases(text: str) -> list[str]:
    """The bases a class line writes (``class A(B, C[int])`` -> ``['B', 'C[int]']``)."""
    return list(_bases_of(text))


@lru_cache(maxsize=4096)  # each class line is read for its members, its lineage and its homes
def _bases_of(text: str) -> tuple[str, ...]:
    try:
        node = ast.parse(re.sub(r"^(@\w+ )*", "", text) + ": pass").body[0]
    except SyntaxError:
        return tuple(re.findall(r"\((.*)\)", text)[0].split(", ")) if "(" in text else ()
    if not isinstance(node, ast.ClassDef):
        return ()
    return tuple(parsed.unparse(b) for b in node.bases)


def _lineage(bases: list[str], ancestors: tuple[str, ...] | None) -> set[str]:
    """Every class an instance is an instance of, by name, as far as the snapshot knows: the
    ``# mro`` line, else the bases with the ancestry Python gives the builtin ones."""
    if ancestors is not None:  # written with the builtins' ancestry already
        return {base_name(name) for name in ancestors}
    known: set[str] = set()
    for name in bases:
        known.update(base_name(n) for n in builtin_mro(base_name(name)))
    return known


def _compare_class(where: str, old: Item, new: Item) -> list[Change]:
    """Bases compared by what ``isinstance`` and ``except`` see. A public base (or ancestor)
    that the class no longer derives from is breaking; a base replaced by a subclass of it
    (``Model`` -> ``OrderGetResult(Model)``) or by a class that derives from it, and a base
    added, are additions; a private base (``_Caller``) is no API by itself: what it gave the
    class is compared member by member."""
    bases_a, bases_b = _bases(old.text), _bases(new.text)
    public_a = [b for b in bases_a if not base_name(b).startswith("_")]
    public_b = [b for b in bases_b if not base_name(b).startswith("_")]
    if bases_a != bases_b and sorted(bases_a) == sorted(bases_b):  # the MRO changed
        return [Change("major", where, f"base classes reordered: {new.text}")]
    before = _lineage(bases_a, old.ancestors)
    after = _lineage(bases_b, new.ancestors)
    lost = {n for n in before - after if not n.startswith("_") and n != "object"}
    removed, added = set(public_a) - set(public_b), set(public_b) - set(public_a)
    if lost and new.ancestors is None and _root_replaced(removed, added):
        lost = set()  # an exception root replaced by an exception class from outside
    if lost:
        gone = ", ".join(sorted(lost))
        if old.text == new.text:
            return [Change("major", where, f"no longer derives from {gone}: {new.text}")]
        return [Change("major", where, f"base class removed: {old.text} -> {new.text}")]
    if old.text == new.text:
        return []
    if removed:
        return [Change("minor", where, f"base class replaced: {old.text} -> {new.text}")]
    if added:
        return [Change("minor", where, f"base class added: {old.text} -> {new.text}")]
    return [Change("patch", where, f"private base class changed: {old.text} -> {new.text}")]


def _compare_item(where: str, old: Item, new: Item) -> list[Change]:
    if old.kind != new.kind:
        return [Change("major", where, f"changed from {old.text} to {new.text}")]
    mark_a, mark_b = re.match(r"(@\w+ )*", old.text), re.match(r"(@\w+ )*", new.text)
    if mark_a and mark_b and mark_a.group(0) != mark_b.group(0):  # @staticmethod, @dataclass...
        return [Change("major", where, f"decorators changed: {old.text} -> {new.text}")]
    if old.text != new.text:
        if old.kind == "field":
            return _compare_field(where, old, new)
        if old.kind in ("def", "async def"):
            return _compare_def(where, old, new)
        if old.kind == "alias":
            before, after = old.text.split(" = ", 1)[1], new.text.split(" = ", 1)[1]
            return [Change(lv, where, what) for lv, what in compare_types(before, after)]
        if old.kind == "class":
            return _compare_class(where, old, new)
        if old.kind == "property":
            before, after = old.text.split(": ", 1)[1], new.text.split(": ", 1)[1]
            found = compare_types(before, after, output=True)
            return [Change(lv, where, f"property {what}") for lv, what in found]
        if old.kind == "const":
            ann_a = re.match(r"const \w+(: ([^=]*))?", old.text)
            ann_b = re.match(r"const \w+(: ([^=]*))?", new.text)
            if ann_a and ann_b and (ann_a.group(2) or "").strip() != (ann_b.group(2) or "").strip():
                return [Change("major", where, f"constant retyped: {old.text} -> {new.text}")]
            return [Change("patch", where, "constant value changed")]
        return [Change("major", where, f"changed: {old.text} -> {new.text}")]
    if old.kind == "class" and old.ancestors != new.ancestors:  # an ancestor changed deeper
        deeper = _compare_class(where, old, new)
        if deeper:
            return deeper
    if old.doc != new.doc:
        return [Change("patch", where, "docs edited")]
    return []


def _label(key: tuple[str, ...]) -> str:
    return ".".join(key)


def _signature_tail(item: Item) -> str:
    """An item's line without its name: two lines with the same tail may be a rename."""
    return item.text.replace(" " + item_name(item.text), " <name>", 1)


def _implied(
    key: tuple[str, ...], same_side: set[tuple[str, ...]], tops: dict[str, set[str]]
) -> bool:
    """Is this addition or removal said by another one? The overloads of a method added or
    removed with it; a package's re-export of a class added or removed in its module.
    ``tops``: name -> the modules where a top-level thing of that name was added (removed)."""
    last = key[-1]
    if "[overload " in last:
        return (*key[:-1], last.split("[", 1)[0]) in same_side
    if last.startswith("export ") and len(key) == 2:
        modules = tops.get(last.removeprefix("export "), set())
        return any(module.startswith(key[0] + ".") for module in modules)
    return False


def _tops(keys: set[tuple[str, ...]]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for key in keys:
        if len(key) == 2:
            found.setdefault(key[1], set()).add(key[0])
    return found


def _moves(old: Snapshot, new: Snapshot) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Top-level things that moved to another module and are still exported where they were:
    ``(old module, name)`` -> ``(new module, name)``. Imports keep working, so a move is not a
    removal; what the thing itself became is compared at its new home."""
    moves: dict[tuple[str, ...], tuple[str, ...]] = {}
    fresh_tops = _tops(set(new.api) - set(old.api))
    for key, item in old.api.items():
        if len(key) != 2 or item.kind in ("module", "export") or key in new.api:
            continue
        module, name = key
        export = new.api.get((module, f"export {name}"))
        if export is None:
            continue
        homes = sorted(fresh_tops.get(name, set()) - {module})
        if export.origin is not None:  # the snapshot says where the re-export comes from
            homes = [export.origin] if export.origin in homes else []
        if len(homes) == 1:
            moves[key] = (homes[0], name)
    return moves


def _moved(
    api: dict[tuple[str, ...], Item], moves: dict[tuple[str, ...], tuple[str, ...]]
) -> dict[tuple[str, ...], Item]:
    """``api`` with each moved thing (and everything under it) keyed at its new home."""
    out: dict[tuple[str, ...], Item] = {}
    for key, item in api.items():
        home = moves.get(key[:2]) if len(key) >= 2 else None
        out[(*home, *key[2:]) if home else key] = item
    return out


def _class_homes(api: dict[tuple[str, ...], Item]) -> dict[str, list[str]]:
    """Class name -> the modules that define a top-level class of that name."""
    homes: dict[str, list[str]] = {}
    for key, item in api.items():
        if len(key) == 2 and item.kind == "class":
            homes.setdefault(key[1], []).append(key[0])
    return homes


def _base_home(module: str, base: str, homes: dict[str, list[str]]) -> str | None:
    """The module of the snapshot's class a base names, by name: its own module's, else the
    nearest one a plain import could mean: in the module's package or the packages above it,
    the deepest first (``pkg.v2.connection``'s ``Caller`` is ``pkg.v2.core``'s before
    ``pkg.core``'s, and ``pkg.connection``'s is ``pkg.core``'s, never ``pkg.v2.core``'s);
    else the one sharing the longest dotted prefix. None when none, or a tie."""
    found = homes.get(base_name(base), [])
    if module in found:
        return module
    path = module.split(".")

    def shared(other: str) -> int:
        count = 0
        for a, b in zip(path, other.split("."), strict=False):
            if a != b:
                break
            count += 1
        return count

    above = [m for m in found if path[: len(m.split(".")) - 1] == m.split(".")[:-1]]
    pool = above or found
    best = max((shared(m) for m in pool), default=0)
    nearest = [m for m in pool if shared(m) == best]
    return nearest[0] if len(nearest) == 1 and best > 0 else None


def with_inherited(snap: Snapshot) -> Snapshot:
    """A snapshot whose public classes list what they inherit from the snapshot's other public
    classes too. Snapshots written before ``# mro`` list a class's own members (and those of
    private bases of its module) only, so a method moved into a public base class, or a field
    inherited from a public model, would read as removed (added); and a class whose base is
    another class of the snapshot gets the ancestry that base gives it, as ``# mro`` would
    (``PlaceResult(GetResult)`` still derives from ``GetResult``'s ``Model``). A snapshot with
    ``# mro`` lines lists all of that already: returned as it is."""
    if any(item.ancestors is not None for item in snap.api.values()):
        return snap
    homes = _class_homes(snap.api)
    children: dict[tuple[str, ...], list[tuple[tuple[str, ...], Item]]] = {}
    for key, item in snap.api.items():
        if len(key) > 2 and key[:2] in snap.api and snap.api[key[:2]].kind == "class":
            children.setdefault(key[:2], []).append((key[2:], item))
    done: dict[tuple[str, ...], list[tuple[tuple[str, ...], Item]]] = {}

    def members(
        cls: tuple[str, ...], active: frozenset[tuple[str, ...]]
    ) -> list[tuple[tuple[str, ...], Item]]:
        if cls in done:
            return done[cls]
        own = list(children.get(cls, []))
        names = {sub[0].split("[", 1)[0] for sub, _ in own}
        for base in _bases(snap.api[cls].text):
            home = _base_home(cls[0], base, homes)
            target = (home, base_name(base)) if home is not None else None
            if target is None or target == cls or target in active:
                continue
            inherited = members(target, active | {cls})
            fresh = {sub[0].split("[", 1)[0] for sub, _ in inherited} - names
            own += [(sub, item) for sub, item in inherited if sub[0].split("[", 1)[0] in fresh]
            names |= fresh
        done[cls] = own
        return own

    lineages: dict[tuple[str, ...], tuple[str, ...]] = {}

    def lineage(cls: tuple[str, ...], active: frozenset[tuple[str, ...]]) -> tuple[str, ...]:
        """The ancestors of ``cls`` by name (as far as the snapshot and Python's builtins
        tell), depth first: what ``_lineage`` reads as a set."""
        if cls in lineages:
            return lineages[cls]
        found: list[str] = []
        for base in _bases(snap.api[cls].text):
            home = _base_home(cls[0], base, homes)
            target = (home, base_name(base)) if home is not None else None
            if target is None or target == cls or target in active:
                names = builtin_mro(base_name(base))
                if names == [base_name(base)] and _EXCEPTION_NAME.search(names[0]):
                    # defined where the snapshot does not look (a private module): an
                    # exception class by the naming convention, as ``_root_replaced`` reads it
                    names += ["Exception", "BaseException"]
            else:
                names = [base_name(base), *lineage(target, active | {cls})]
            found += [n for n in names if n not in found and n != "object"]
        lineages[cls] = tuple(found)
        return lineages[cls]

    api = dict(snap.api)
    for cls in sorted(k for k, v in snap.api.items() if len(k) == 2 and v.kind == "class"):
        for sub, item in members(cls, frozenset()):
            api.setdefault((*cls, *sub), item)
        targets = [(_base_home(cls[0], b, homes), base_name(b)) for b in _bases(api[cls].text)]
        if any(home is not None and (home, name) != cls for home, name in targets):
            api[cls] = replace(api[cls], ancestors=lineage(cls, frozenset()))
    return replace(snap, api=api)


def compare(old: Snapshot, new: Snapshot) -> list[Change]:
    """Every difference between two snapshots, classified; sorted (major first)."""
    changes: list[Change] = []
    old, new = with_inherited(old), with_inherited(new)
    moves = _moves(old, new)
    if moves:
        for origin, home in sorted(moves.items()):
            changes.append(
                Change("patch", _label(origin), f"moved to {home[0]}, still exported here")
            )
        # the re-export that keeps the old import working is part of the move
        kept = {(module, f"export {name}") for module, name in moves}
        old = Snapshot(
            {k: v for k, v in _moved(old.api, moves).items() if k not in kept},
            old.protocols,
            old.inputs,
            old.implementation,
            old.has_inputs,
        )
        new = Snapshot(
            {k: v for k, v in new.api.items() if k not in kept},
            new.protocols,
            new.inputs,
            new.implementation,
            new.has_inputs,
        )
    removed = sorted(set(old.api) - set(new.api))
    added = sorted(set(new.api) - set(old.api))
    gone = set(removed)
    fresh = set(added)
    tops_gone, tops_fresh = _tops(gone), _tops(fresh)
    # A removed and an added thing under the same parent with the same line but for the
    # name: a rename (reported once, as major).
    renamed: set[tuple[str, ...]] = set()
    for key in removed:
        if key[:-1] in gone or old.api[key].kind in ("module", "export"):
            continue
        tail = _signature_tail(old.api[key])
        for other in added:
            if other in renamed or other[:-1] != key[:-1] or other[:-1] in fresh:
                continue
            if new.api[other].kind == old.api[key].kind and _signature_tail(new.api[other]) == tail:
                changes.append(Change("major", _label(key), f"renamed to {other[-1]}"))
                renamed.add(other)
                renamed.add(key)
                break
    for key in removed:
        if key in renamed or any(key[:i] in gone for i in range(1, len(key))):
            continue  # reported with its parent
        if _implied(key, gone, tops_gone):
            continue
        changes.append(Change("major", _label(key), f"{old.api[key].kind} removed"))
    for key in added:
        if key in renamed or any(key[:i] in fresh for i in range(1, len(key))):
            continue
        if _implied(key, fresh, tops_fresh):
            continue
        item = new.api[key]
        if item.kind == "field" and _field_parts(item.text)[1]:
            if (*key[:-1], "__init__") in new.api:  # its own __init__ says what to pass
                changes.append(Change("minor", _label(key), "attribute added"))
            else:
                changes.append(Change("major", _label(key), "required field added"))
        else:
            changes.append(Change("minor", _label(key), f"{item.kind} added"))
    for key in sorted(set(old.api) & set(new.api)):
        changes.extend(_compare_item(_label(key), old.api[key], new.api[key]))
    api_modules = {k[0] for k in new.api} | {k[0] for k in old.api}
    for rel in sorted(set(old.implementation) | set(new.implementation)):
        before, after = old.implementation.get(rel), new.implementation.get(rel)
        if before == after:
            continue
        module = rel[:-3].replace("/", ".").removesuffix(".__init__")
        if module in api_modules and (before is None or after is None):
            continue  # a public module added or removed: reported above
        state = "added" if before is None else "removed" if after is None else "changed"
        changes.append(Change("patch", rel, f"file {state}"))
    for name in sorted(set(old.protocols) | set(new.protocols)):
        was, now = old.protocols.get(name), new.protocols.get(name)
        if was != now and was is not None and now is not None:
            changes.append(Change("patch", name, f"{was} -> {now}"))
    return sorted(changes, key=lambda c: (-rank(c.level), c.where, c.what))


def caused_by(old: Snapshot, new: Snapshot) -> list[str]:
    """The inputs behind a change: protocol versions and schema files that differ."""
    lines: list[str] = []
    for name in sorted(set(old.protocols) | set(new.protocols)):
        was, now = old.protocols.get(name), new.protocols.get(name)
        if was != now:
            lines.append(f"{name}: {was or '(none)'} -> {now or '(none)'}")
    if old.has_inputs and new.has_inputs:
        for rel in sorted(set(old.inputs) | set(new.inputs)):
            before, after = old.inputs.get(rel), new.inputs.get(rel)
            if before == after:
                continue
            if before is None:
                lines.append(f"{rel}: added" + (f" ({after[1]})" if after and after[1] else ""))
            elif after is None:
                lines.append(f"{rel}: removed")
            elif before[1] != after[1]:
                lines.append(f"{rel}: {before[1] or before[0]} -> {after[1] or after[0]}")
            else:
                lines.append(
                    f"{rel}: {before[0]} -> {after[0]}" + (f" ({after[1]})" if after[1] else "")
                )
    if not lines:
        lines.append("no schema input changed (templates or generator)")
    return lines
