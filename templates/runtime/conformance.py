"""What every conformance kit shares (hand-written): rules, their outcomes, the report.

A kit (``agentproto.skills.conformance``, ``agentproto.aap.conformance``) declares each rule
of its spec with :meth:`Checks.check` (an id, MUST / SHOULD / MAY, the spec's section, the
rule in words) and records what the server did; :class:`Report` prints it as text or JSON,
and a kit's command ends in :func:`finish`: exit 1 when a MUST failed, 2 when the server
could not be checked (:func:`reaching`: an ``agentproto.errors.APIConnectionError`` that
names it). A rule whose precondition the server did not give (nothing to look at) is
skipped, never passed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, cast

import httpx
from agentproto._runtime.http_errors import APIConnectionError, APIError, APITimeoutError
from agentproto._runtime.redact import redact_url

__all__ = [
    "Check",
    "Checks",
    "Level",
    "Outcome",
    "Report",
    "as_list",
    "as_object",
    "finish",
    "json_of",
    "reaching",
]

Level = Literal["MUST", "SHOULD", "MAY"]
Outcome = Literal["pass", "fail", "skip"]


@dataclass
class Check:
    """One rule and what the server did."""

    id: str
    level: Level
    section: str
    rule: str
    outcome: Outcome = "skip"
    detail: str = ""


@dataclass
class Report:
    base_url: str
    checks: list[Check] = field(default_factory=list[Check])
    protocol: str = "Skill Sharing"

    @property
    def must_failures(self) -> list[Check]:
        return [c for c in self.checks if c.level == "MUST" and c.outcome == "fail"]

    def failed(self) -> list[str]:
        return [c.id for c in self.checks if c.outcome == "fail"]

    def summary(self) -> dict[str, dict[str, int]]:
        counts: dict[str, dict[str, int]] = {}
        for check in self.checks:
            level = counts.setdefault(check.level, {"pass": 0, "fail": 0, "skip": 0})
            level[check.outcome] += 1
        return counts

    def as_dict(self) -> dict[str, Any]:
        return {
            "base_url": self.base_url,
            "conformant": not self.must_failures,
            "summary": self.summary(),
            "checks": [asdict(c) for c in self.checks],
        }

    def text(self) -> str:
        lines = [f"{self.protocol} conformance: {self.base_url}"]
        for c in self.checks:
            mark = {"pass": "PASS", "fail": "FAIL", "skip": "skip"}[c.outcome]
            line = f"  {mark}  {c.level:<6} {c.id:<30} §{c.section:<6} {c.rule}"
            lines.append(line + (f"\n        {c.detail}" if c.detail else ""))
        for level, counts in sorted(self.summary().items()):
            lines.append(
                f"{level}: {counts['pass']} passed, {counts['fail']} failed, "
                f"{counts['skip']} skipped"
            )
        lines.append("conformant" if not self.must_failures else "NOT conformant (a MUST failed)")
        return "\n".join(lines)


class Checks:
    """The bookkeeping half of a kit: declare rules, record outcomes into ``report``."""

    def __init__(self, report: Report) -> None:
        self.report: Report = report

    def check(
        self, check_id: str, level: Level, section: str, rule: str
    ) -> Callable[[bool | None, str], None]:
        """Declare a rule; the returned function records its outcome (None: skipped)."""
        entry = Check(check_id, level, section, rule)
        self.report.checks.append(entry)

        def record(ok: bool | None, detail: str = "") -> None:
            entry.outcome = "skip" if ok is None else "pass" if ok else "fail"
            entry.detail = detail

        return record


def as_object(value: Any) -> dict[str, Any] | None:
    return cast("dict[str, Any]", value) if isinstance(value, dict) else None


def as_list(value: Any) -> list[Any]:
    return list(cast("Sequence[Any]", value)) if isinstance(value, list) else []


def json_of(response: httpx.Response) -> Any:
    """The body as JSON, or ``None`` when it is not JSON."""
    try:
        return response.json()
    except ValueError:
        return None


@contextmanager
def reaching(base_url: str) -> Generator[None, None, None]:
    """Turn an HTTP failure that stops a run (nothing answered, a timeout, a body that could not
    be read) into the package's errors: :class:`APITimeoutError`, :class:`APIConnectionError`,
    else :class:`APIError`, each saying which server could not be checked and why."""
    shown = redact_url(base_url)
    try:
        yield
    except httpx.TimeoutException as exc:
        raise APITimeoutError(
            f"cannot check {shown}: a request timed out ({type(exc).__name__})", url=base_url
        ) from exc
    except httpx.TransportError as exc:
        raise APIConnectionError(
            f"cannot check {shown}: no answer ({type(exc).__name__})", url=base_url
        ) from exc
    except httpx.HTTPError as exc:
        raise APIError(f"cannot check {shown}: {type(exc).__name__}") from exc


def finish(
    run: Callable[[], Report],
    *,
    as_json: bool,
    unreachable: tuple[type[Exception], ...] = (APIError,),
    because: str = "",
) -> int:
    """The end of a kit's command: ``run()``, its report printed as text (or JSON with
    ``as_json``), and the exit status: 0, 1 when a MUST failed, 2 when ``run`` raised one of
    ``unreachable`` (printed on stderr as one line, after ``because``)."""
    try:
        report = run()
    except unreachable as exc:  # one line, the server's URL (credentials redacted) and why
        print(f"{because}{exc}", file=sys.stderr)
        return 2
    print(json.dumps(report.as_dict(), indent=2) if as_json else report.text())
    return 1 if report.must_failures else 0
