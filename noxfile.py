"""Developer sessions. CI runs the README's test command (`.ci/run`); these are conveniences.

nox -s tests      # the whole suite, in a fresh virtualenv
nox -s lint       # ruff and mypy --strict over the generator
nox -s check      # fail if generated/ drifted from the inputs
nox -s bench      # the build benchmark
nox -s explore    # the property tests with fresh random examples, N rounds (default 5)
nox -s nightly    # the schema round trip with 50 times the suite's instances per type
nox -s docs       # build the documentation site in strict mode (mkdocs serve to read it)
"""

from __future__ import annotations

import nox

nox.options.sessions = ["lint", "check", "tests"]


@nox.session
def tests(session: nox.Session) -> None:
    session.install("-e", ".[test]")
    session.run("pytest", *session.posargs)


@nox.session
def explore(session: nox.Session) -> None:
    session.install("-e", ".[test]")
    rounds = int(session.posargs[0]) if session.posargs else 5
    for _ in range(rounds):  # `-m hypothesis`: the tests using @given
        session.run("pytest", "-q", "-m", "hypothesis", env={"HYPOTHESIS_PROFILE": "explore"})


@nox.session
def nightly(session: nox.Session) -> None:
    session.install("-e", ".[test]")
    session.run(
        "pytest", "-q", "tests/test_schema_roundtrip.py", env={"HYPOTHESIS_PROFILE": "nightly"}
    )


@nox.session
def lint(session: nox.Session) -> None:
    session.install("-e", ".[test]")
    session.run("ruff", "check", "codegen", "tests", "benchmarks", "noxfile.py")
    session.run("ruff", "format", "--check", "codegen", "tests", "benchmarks", "noxfile.py")
    session.run("mypy", "codegen")


@nox.session
def check(session: nox.Session) -> None:
    session.install("-e", ".")
    session.run("codegen", "build", "--check")


@nox.session
def bench(session: nox.Session) -> None:
    session.install("-e", ".")
    session.run("python", "benchmarks/bench_build.py", *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    session.install("-e", ".[docs]")
    session.run("mkdocs", "build", "--strict", *session.posargs)
