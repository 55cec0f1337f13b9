"""Discovery reads a Skill Index with one validator (issue 26).

``parse_index`` of JSON text validates with the model's own validator (pydantic-core, from the
bytes) and only falls back to the JSON Schema for the report. That is only sound while the
model accepts exactly what the schema accepts for an index, so the two are compared here on
real indexes and on random breakages of one: the outcome (accepted, or refused with the same
details) and the result are those of the schema-first path (``documents._parse``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from agentproto.skills import ValidationError, documents, parse_index
from agentproto.skills.models import SkillIndex
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import ROOT

EXAMPLES = ROOT / "schemas" / "skills" / "examples"
INDEX: dict[str, Any] = {
    "protocol": {"version": "1.0.0"},
    "provider": {"name": "Bench", "url": "https://skills.example/", "contact": "ops@example"},
    "skills": [
        {
            "id": f"bench/skill-{i}",
            "name": f"Skill {i}",
            "capability_type": ["plugin", "api", "knowledge", "task"][i % 4],
            "description": f"Skill number {i}",
            "descriptor_url": f"https://skills.example/skills/{i}/descriptor",
            "access": ["public", "restricted", "private"][i % 3],
            "version": "1.2.3-rc.1+build.5",
        }
        for i in range(3)
    ],
}


def outcome(parse: Any, text: str | bytes) -> tuple[str, Any]:
    try:
        index = parse(text)
    except ValidationError as exc:
        return "refused", (str(exc), exc.details)
    assert isinstance(index, SkillIndex)
    return "accepted", index.model_dump(mode="json", by_alias=True, exclude_unset=True)


def schema_first(text: str | bytes) -> SkillIndex:
    return documents._parse(text, SkillIndex, "SkillIndex")


@pytest.mark.parametrize(
    "path", sorted(EXAMPLES.glob("SkillIndex*.json")), ids=lambda p: Path(p).name
)
def test_real_indexes_parse_as_before(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert outcome(parse_index, text) == outcome(schema_first, text)
    assert outcome(parse_index, text.encode()) == outcome(schema_first, text)


@pytest.mark.parametrize(
    "text",
    [
        # a repeated key: the last one counts for both readers
        json.dumps(INDEX)[:-1] + ', "provider": {"name": "Again"}}',
        json.dumps(INDEX)[:-1] + ', "provider": {"name": ""}}',
        json.dumps(INDEX).encode("utf-8-sig"),  # a BOM: json.loads takes it, pydantic not
        json.dumps(INDEX).encode("utf-16"),
        json.dumps(INDEX).replace('"Bench"', '"B\\u00e9nch \\ud83d\\ude00"'),
        json.dumps(INDEX).replace('"1.0.0"', '"1.0.0 "'),
        json.dumps(INDEX).replace("https://skills.example/skills/1/", "http://[::1"),
    ],
)
def test_texts_two_json_readers_could_read_apart(text: str | bytes) -> None:
    assert outcome(parse_index, text) == outcome(schema_first, text)


def test_duplicate_ids_are_refused_with_the_schema_path_report() -> None:
    index = copy.deepcopy(INDEX)
    index["skills"][2]["id"] = index["skills"][0]["id"]
    text = json.dumps(index)
    kind, (message, details) = outcome(parse_index, text)
    assert kind == "refused" and "duplicate skill id" in message
    assert (kind, (message, details)) == outcome(schema_first, text)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*path, index))
    return found


PATHS = _paths(INDEX)[1:]
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 2),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(
        ["", "x", "1.0.0", "01.0.0", "api", "API", "secret", "not a url", "https://a.b/c", "2"]
    ),
    st.lists(st.sampled_from(["x", 1]), max_size=2),
    st.dictionaries(st.sampled_from(["name", "version", "x"]), st.sampled_from(["1.0.0", 1])),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(PATHS), VALUES | st.just("<delete>")), min_size=1, max_size=3
    )
)
def test_broken_indexes_are_judged_as_the_schema_judges_them(
    breaks: list[tuple[tuple[Any, ...], Any]],
) -> None:
    index = copy.deepcopy(INDEX)
    for path, value in breaks:
        node: Any = index
        for key in path[:-1]:
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                break
        else:
            key = path[-1]
            if isinstance(node, dict) and value == "<delete>":
                node.pop(key, None)
            elif isinstance(node, dict):
                node[key] = value
            elif isinstance(node, list) and isinstance(key, int) and key < len(node):
                if value == "<delete>":
                    del node[key]
                else:
                    node[key] = value
    text = json.dumps(index)
    assert outcome(parse_index, text) == outcome(schema_first, text)
