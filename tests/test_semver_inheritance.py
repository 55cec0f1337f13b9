"""The semver classifier on what users see (issue: false majors in `codegen release`).

A field's wire name, the members a class inherits from base classes in other modules, and
base classes replaced by their subclasses: each a false "breaking" entry once, each next to
the real breaking change of the same kind, which must stay major.
"""

from __future__ import annotations

from codegen.release.semver import Change, compare, overall
from codegen.release.snapshot import Snapshot, derive, parse


def package(**modules: str) -> Snapshot:
    """A snapshot of package ``pkg`` with the given modules (``core="..."`` is pkg/core.py)."""
    files = {"pkg/__init__.py": b""}
    files.update({f"pkg/{name}.py": source.encode() for name, source in modules.items()})
    return parse(derive(files))


def majors(changes: list[Change]) -> list[str]:
    return [c.line() for c in changes if c.level == "major"]


# -- 1. wire names ---------------------------------------------------------------------------

MODEL = "from pydantic import BaseModel, Field\nclass A(BaseModel):\n"


def test_an_alias_equal_to_the_name_is_no_alias() -> None:
    plain = package(mod=MODEL + "    x: int\n")
    same = package(mod=MODEL + "    x: int = Field(alias='x')\n")
    assert same.api == plain.api  # the same bytes on the wire: the same line
    assert overall(compare(plain, same)) == "patch"  # the file changed, its API did not
    # a snapshot written before the fix says alias='x' on field x: read as no alias too
    older = parse(
        "[api]\nmodule pkg.mod\n  class A(BaseModel)\n    field x: int required alias='x'\n"
    )
    assert majors(compare(older, plain)) == []
    # a real change of the name on the wire stays breaking, in either direction
    renamed = package(mod=MODEL + "    x: int = Field(alias='y')\n")
    assert majors(compare(plain, renamed)) == ["`pkg.mod.A.x`: wire name changed: 'x' -> 'y'"]
    assert majors(compare(renamed, plain)) == ["`pkg.mod.A.x`: wire name changed: 'y' -> 'x'"]
    assert majors(compare(older, renamed)) == ["`pkg.mod.A.x`: wire name changed: 'x' -> 'y'"]
    # so does a new name for writing only (serialization_alias): peers read another key
    written = package(mod=MODEL + "    x: int = Field(serialization_alias='y')\n")
    assert majors(compare(plain, written)) == [
        "`pkg.mod.A.x`: wire name changed: 'x' -> 'x' (read) / 'y' (written)"
    ]


# -- 2. members inherited from another module --------------------------------------------------

CONNECTION = """\
class Connection:
    def close(self) -> None: ...
    async def prompt(self, text: str) -> str: ...
    @property
    def closed(self) -> bool: ...
"""
CORE = """\
class Caller:
    async def prompt(self, text: str) -> str: ...
    @property
    def closed(self) -> bool: ...
"""
SUBCLASS = """\
from pkg.core import Caller
class Connection(Caller):
    def close(self) -> None: ...
"""


def test_a_method_moved_into_a_base_class_in_another_module_is_not_removed() -> None:
    before = package(connection=CONNECTION, core="")
    after = package(connection=SUBCLASS, core=CORE)
    changes = compare(before, after)
    assert majors(changes) == [], changes
    api = after.api
    assert ("pkg.connection", "Connection", "prompt") in api  # listed on the class itself
    assert api[("pkg.connection", "Connection")].ancestors == ("Caller",)
    # the same through a private module and a relative import, as the runtime's bases are
    private = package(connection=SUBCLASS.replace("pkg.core", "._base"), _base=CORE)
    assert majors(compare(package(connection=CONNECTION), private)) == []
    # a method removed from the class and from every base is still breaking
    lost = package(
        connection=SUBCLASS,
        core=CORE.replace("    async def prompt(self, text: str) -> str: ...\n", ""),
    )
    assert majors(compare(before, lost)) == [
        "`pkg.connection.Connection.prompt`: async def removed"
    ]
    # and an override keeps its own signature, not the base's
    override = SUBCLASS + "    async def prompt(self, text: str, n: int) -> str: ...\n"
    changed = compare(before, package(connection=override, core=CORE))
    assert majors(changed) == ["`pkg.connection.Connection.prompt`: required parameter n added"], (
        changed
    )


def test_a_snapshot_written_before_the_fix_gets_its_inheritance_resolved() -> None:
    """The recorded release (release/API.released.txt) was written listing a class's own
    members only: what a subclass of a public class inherits must not read as new, nor what
    the base of the recorded release lists as removed."""
    old_format = (
        "[api]\nmodule pkg.core\n  class Caller()\n    async def prompt(text: str) -> str\n"
        "module pkg.connection\n  class Connection(Caller)\n    def close() -> None\n"
        "module pkg.v2.core\n  class Caller()\n    async def ask(text: str) -> str\n"
        "module pkg.v2.connection\n  class Connection(Caller)\n    def close() -> None\n"
    )
    v2 = {
        "v2/__init__": "",
        "v2/core": CORE.replace("prompt", "ask"),
        "v2/connection": SUBCLASS.replace("pkg.core", "pkg.v2.core"),
    }
    now = package(connection=SUBCLASS, core=CORE, **v2)
    changes = compare(parse(old_format), now)
    assert majors(changes) == [], changes
    # each Connection's base is the nearest Caller: v2's has ask, never prompt
    assert not any("v2.connection.Connection.prompt" in c.where for c in changes), changes
    # a method the recorded base had and the new tree lost is breaking
    gone = package(connection=SUBCLASS, core="class Caller:\n    pass\n", **v2)
    assert "`pkg.connection.Connection.prompt`: async def removed" in majors(
        compare(parse(old_format), gone)
    )


def test_a_required_attribute_of_a_class_with_its_own_init_is_not_a_constructor_field() -> None:
    base = "class Base(Exception):\n    status: int\n"
    before = package(mod="class E(Exception):\n    def __init__(self, status: int) -> None: ...\n")
    after = package(mod=base + "class E(Base):\n    def __init__(self, status: int) -> None: ...\n")
    assert majors(compare(before, after)) == []
    # without an __init__ of its own, a new required field is one more thing to pass
    model = "from pydantic import BaseModel\nclass M(BaseModel):\n    a: int\n"
    more = model + "    b: int\n"
    assert majors(compare(package(mod=model), package(mod=more))) == [
        "`pkg.mod.M.b`: required field added"
    ]


# -- 3. base classes ---------------------------------------------------------------------------

RESULTS = """\
from pydantic import BaseModel
class Model(BaseModel):
    pass
class GetResult(Model):
    id: str
"""


def test_a_base_replaced_by_its_subclass_is_not_breaking() -> None:
    before = package(mod=RESULTS + "class PlaceResult(Model):\n    id: str\n")
    after = package(mod=RESULTS + "class PlaceResult(GetResult):\n    pass\n")
    changes = compare(before, after)
    assert overall(changes) == "minor", changes
    assert any("base class replaced" in c.what for c in changes)
    # the other way round loses GetResult: `isinstance(x, GetResult)` no longer holds
    back = compare(after, before)
    assert majors(back) == [
        "`pkg.mod.PlaceResult`: base class removed: class PlaceResult(GetResult) -> "
        "class PlaceResult(Model)"
    ]


def test_an_exception_root_replaced_by_a_class_deriving_from_it_is_not_breaking() -> None:
    before = package(mod="class Failure(Exception):\n    pass\n")
    root = "class Root(Exception):\n    pass\n"  # no ...Error name to go by: the MRO says it
    after = package(
        _errors=root, mod="from pkg._errors import Root\nclass Failure(Root):\n    pass\n"
    )
    assert overall(compare(before, after)) == "minor"
    # `except ValueError` no longer catches it
    narrower = package(mod="class Failure(ValueError):\n    pass\n")
    assert majors(compare(narrower, after)) == [
        "`pkg.mod.Failure`: base class removed: class Failure(ValueError) -> class Failure(Root)"
    ]


def test_a_public_ancestor_lost_deeper_down_is_breaking() -> None:
    """``Failure``'s own line is unchanged, but its private base stopped deriving from a
    public class: the ``# mro`` line shows it."""
    head = "class Public(Exception):\n    pass\n"
    before = package(mod=head + "class _Mid(Public):\n    pass\nclass Failure(_Mid):\n    pass\n")
    after = package(mod=head + "class _Mid(Exception):\n    pass\nclass Failure(_Mid):\n    pass\n")
    assert majors(compare(before, after)) == [
        "`pkg.mod.Failure`: no longer derives from Public: class Failure(_Mid)"
    ]
    # a private ancestor changed, the public lineage kept: nothing a user relies on
    other = package(
        mod=head + "class _Other(Public):\n    pass\nclass Failure(_Other):\n    pass\n"
    )
    assert majors(compare(before, other)) == []


def test_older_snapshots_get_the_lineage_their_own_classes_give() -> None:
    """Two snapshots written before ``# mro`` (``codegen diff`` of two older trees): a class's
    ancestry comes from the snapshot's own classes; an exception base defined where the
    snapshot does not look (a private module) derives from ``Exception`` by its name."""
    head = "[api]\nmodule pkg.mod\n  class Model(BaseModel)\n  class GetResult(Model)\n"
    before = parse(head + "  class PlaceResult(Model)\n")
    after = parse(head + "  class PlaceResult(GetResult)\n")
    assert overall(compare(before, after)) == "minor"
    assert majors(compare(after, before)) == [
        "`pkg.mod.PlaceResult`: base class removed: class PlaceResult(GetResult) -> "
        "class PlaceResult(Model)"
    ]
    errors = "[api]\nmodule pkg.errors\n  class SharingError({})\n  class AuthError(SharingError)\n"
    rooted = compare(parse(errors.format("Exception")), parse(errors.format("AgentprotoError")))
    assert majors(rooted) == [], rooted
    mixin = compare(parse(errors.format("Exception")), parse(errors.format("Mixin")))
    assert "`pkg.errors.AuthError`: no longer derives from BaseException, Exception: " in "".join(
        majors(mixin)
    ), mixin


# -- 4. a thing moved into a private module, still exported where it was -----------------------

REPORT = """\
from dataclasses import dataclass
@dataclass
class Report:
    name: str
    def failures(self) -> list[str]: ...
"""


def test_a_class_moved_into_a_private_module_and_exported_where_it_was_is_not_removed() -> None:
    """``skills.conformance.Report`` moved into ``agentproto._runtime.conformance`` and stayed
    in ``skills.conformance.__all__``: users import it as before, so it is no removal; what
    changes in it still shows, under the public module that exports it."""
    before = package(kit=REPORT + "__all__ = ['Report']\n")
    after = package(_shared=REPORT, kit="from pkg._shared import Report\n__all__ = ['Report']\n")
    assert ("pkg.kit", "Report", "name") in after.api  # described where it is exported
    assert majors(compare(before, after)) == []
    assert overall(compare(before, after)) == "patch"
    changed = package(
        _shared=REPORT.replace("name: str", "name: int"),
        kit="from pkg._shared import Report\n__all__ = ['Report']\n",
    )
    assert majors(compare(before, changed)) == ["`pkg.kit.Report.name`: type changed: str -> int"]
    # exported no more: removed, as before
    hidden = package(_shared=REPORT, kit="from pkg._shared import Report\n__all__ = []\n")
    assert majors(compare(before, hidden)) == [
        "`pkg.kit.Report`: class removed",
        "`pkg.kit.export Report`: export removed",
    ]
