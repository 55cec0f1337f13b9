"""Build errors: every problem with an input names the file, a JSON pointer and the reason."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path


def escape_pointer_token(token: str | int) -> str:
    """Escape one reference token as RFC 6901 says (``~`` then ``/``)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def to_pointer(path: Iterable[str | int]) -> str:
    """Join path tokens into a JSON pointer (``""`` is the whole document)."""
    return "".join("/" + escape_pointer_token(p) for p in path)


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with one input file."""

    file: str
    pointer: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.pointer or '/'}: {self.reason}"


class BuildError(Exception):
    """The inputs are wrong; nothing was written. Carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(sorted(set(problems)))
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple[type[BuildError], tuple[tuple[Problem, ...]]]:
        # Rebuilt from its problems when it crosses a process boundary (model workers).
        return (BuildError, (self.problems,))

    @classmethod
    def single(cls, file: Path | str, pointer: str, reason: str) -> BuildError:
        return cls([Problem(str(file), pointer, reason)])
