"""OpenAPI parameter and body serialisation, case by case against the specification's own
examples: the Style Examples table of OpenAPI 3.1.2 (and 3.2.0's cookie rows), vendored as
data in tests/fixtures/openapi_styles/ (SOURCE.md), and its worked examples (Appendix C, the
Encoding Object's form examples), transcribed there as facts.

Every cell of the table with a defined result is one test case; the cells the specification
marks *n/a* are listed, and for them the runtime's documented choice is checked in
``test_combinations_the_table_leaves_undefined``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from agentproto._runtime.serialise import (
    SerialisationError,
    body_content,
    cookie_pairs,
    header_value,
    multipart_body,
    path_value,
    query_pairs,
    serialise,
)

FIXTURES = Path(__file__).parent / "fixtures" / "openapi_styles"
VALUES: dict[str, Any] = {  # "Assume a parameter named color has one of the following values"
    "undefined": "",  # the column's values are those of the empty string (3.0's "empty")
    "string": "blue",
    "array": ["blue", "black", "brown"],
    "object": {"R": 100, "G": 200, "B": 150},
}
LOCATION = {
    "matrix": "path",
    "label": "path",
    "simple": "path",
    "form": "query",
    "spaceDelimited": "query",
    "pipeDelimited": "query",
    "deepObject": "query",
    "cookie": "cookie",
}


def table(name: str) -> list[dict[str, str]]:
    """The rows of a vendored markdown table, HTML and markdown links taken out."""
    lines = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    header = [re.sub(r"\[`([^`]+)`\]\([^)]*\)|`", r"\1", c) for c in cells[0]]
    rows = []
    for row in cells[2:]:
        clean = [re.sub(r"<[^>]+>", "", c).strip() for c in row]
        rows.append(dict(zip(header, clean, strict=True)))
    return rows


def cases() -> list[Any]:
    found = []
    for row in [*table("style-examples-3.1.2.md"), *table("style-examples-3.2.0-cookie.md")]:
        for column in ("undefined", "string", "array", "object"):
            expected = row[column]
            if expected == "_n/a_":
                continue
            expected = "" if expected == "_empty_" else expected
            found.append(
                pytest.param(
                    row["style"],
                    row["explode"] == "true",
                    column,
                    expected,
                    id=f"{row['style']}-explode={row['explode']}-{column}",
                )
            )
    return found


CASES = cases()


def test_the_vendored_table_is_whole() -> None:
    """Fourteen style/explode rows of 3.1.2 (37 defined cells), two cookie rows of 3.2.0 (8)."""
    assert len(table("style-examples-3.1.2.md")) == 14
    assert len(table("style-examples-3.2.0-cookie.md")) == 2
    assert len(CASES) == 45


@pytest.mark.parametrize(("style", "explode", "column", "expected"), CASES)
def test_style_examples_table(style: str, explode: bool, column: str, expected: str) -> None:
    location = LOCATION[style]
    got = serialise(location, "color", VALUES[column], style, explode)
    assert got == expected


@pytest.mark.parametrize(
    "case",
    yaml.safe_load((FIXTURES / "serialisation-examples.yaml").read_text(encoding="utf-8")),
    ids=lambda case: case["name"],
)
def test_worked_examples(case: dict[str, Any]) -> None:
    if case["in"] == "query":
        pieces: list[str] = []
        for p in case["parameters"]:
            pieces += query_pairs(
                p["name"],
                case["values"][p["name"]],
                p["style"],
                p.get("explode"),
                p.get("allowReserved", False),
            )
        assert "&".join(pieces) == case["expected"]
    else:
        data, media = body_content(case["media"], case["values"], case.get("encoding"))
        assert (data.decode(), media) == (case["expected"], case["media"])


def test_combinations_the_table_leaves_undefined() -> None:
    """n/a cells: sent as ``form`` would send them (documented in the runtime)."""
    colors = VALUES["array"]
    assert serialise("query", "color", colors, "spaceDelimited", True) == (
        "color=blue&color=black&color=brown"
    )
    assert serialise("query", "color", "blue", "pipeDelimited", False) == "color=blue"
    assert serialise("query", "color", "blue", "deepObject", True) == "color=blue"
    # nested members under deepObject: brackets nest, arrays by index
    nested = {"a": {"b": 1}, "tags": ["x", "y"]}
    assert query_pairs("f", nested, "deepObject") == [
        "f%5Ba%5D%5Bb%5D=1",
        "f%5Btags%5D%5B0%5D=x",
        "f%5Btags%5D%5B1%5D=y",
    ]
    # nested compound values elsewhere: compact JSON text, percent-encoded
    assert query_pairs("f", [{"a": 1}], "form", True) == ["f=%7B%22a%22%3A1%7D"]


def test_values_as_text_and_undefined_members() -> None:
    assert query_pairs("on", True) == ["on=true"]
    assert query_pairs("n", 1.5) == ["n=1.5"]
    assert query_pairs("q", "a b&c=d+e") == ["q=a%20b%26c%3Dd%2Be"]
    assert query_pairs("ids", []) == []  # an empty array is undefined: not sent
    assert query_pairs("ids", [1, None, 2], "form", False) == ["ids=1,2"]  # None left out
    assert path_value("id", "a/b") == "a%2Fb"  # stays one path segment
    assert path_value("id", "x y", "label") == ".x%20y"


def test_allow_reserved_keeps_structure() -> None:
    """Reserved characters pass, except those that would split the query or a pair."""
    assert query_pairs("u", "a/b?c:d@e!$'()*,;", allow_reserved=True) == ["u=a/b?c:d@e!$'()*,;"]
    assert query_pairs("u", "a&b=c+d#e[f]", allow_reserved=True) == ["u=a%26b%3Dc%2Bd%23e%5Bf%5D"]
    assert query_pairs("u", "100%25 %zz", allow_reserved=True) == ["u=100%25%20%25zz"]


def test_headers_are_never_percent_encoded_and_refuse_line_breaks() -> None:
    assert header_value("a b,c/d") == "a b,c/d"
    assert header_value({"R": 1, "G": 2}, explode=True) == "R=1,G=2"
    with pytest.raises(SerialisationError):
        header_value("x\r\nInjected: 1")


def test_cookies() -> None:
    assert cookie_pairs("s", "a b") == ["s=a%20b"]  # form: percent-encoded
    assert cookie_pairs("s", "a b", "cookie") == ["s=a b"]  # 3.2 cookie: as given
    assert "; ".join(cookie_pairs("c", ["x", "y"])) == "c=x; c=y"  # never '&' in a cookie
    with pytest.raises(SerialisationError):
        cookie_pairs("s", "a\nb", "cookie")


def test_multipart_parts_by_value_and_encoding() -> None:
    body, media = multipart_body(
        {
            "id": "u-1",
            "meta": {"k": 1},
            "tags": ["a", "b"],
            "photo": b"\x89PNG",
            "doc": "<x/>",
        },
        {"doc": {"contentType": "application/xml"}},
        boundary="B",
    )
    assert media == "multipart/form-data; boundary=B"
    text = body.decode("latin-1")
    assert text.count("--B\r\n") == 6 and text.endswith("--B--\r\n")
    assert 'name="id"\r\n\r\nu-1\r\n' in text  # text/plain, RFC 7578's default
    assert 'name="meta"\r\nContent-Type: application/json\r\n\r\n{"k":1}' in text
    assert text.count('name="tags"') == 2  # an array: a part per item
    assert (
        'name="photo"; filename="photo"\r\nContent-Type: application/octet-stream\r\n\r\n\x89PNG'
        in text
    )
    assert 'name="doc"\r\nContent-Type: application/xml\r\n\r\n<x/>' in text


def test_bodies_by_media_type() -> None:
    data, media = body_content("application/vnd.api+json", {"a": [1, "é"]})
    assert json.loads(data) == {"a": [1, "é"]} and media == "application/vnd.api+json"
    assert body_content("text/plain", "hi") == (b"hi", "text/plain")
    with pytest.raises(SerialisationError):
        body_content("text/plain", {"a": 1})  # no silent JSON for a text body
    with pytest.raises(SerialisationError):
        body_content("application/x-www-form-urlencoded", ["a"])
    with pytest.raises(SerialisationError):
        body_content("application/json", {"x": float("nan")})
