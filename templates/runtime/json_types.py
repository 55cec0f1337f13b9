"""The type of parsed JSON, for code that reads data off the wire.

``json.loads`` and pydantic-core's ``from_json`` return ``Any``; giving their result this type
at the point where it enters typed code means every later look inside it is checked: an
``isinstance(value, dict)`` narrows it to a ``JSONObject`` whose values are ``JSONValue`` again.
"""

from __future__ import annotations

from typing import TypeAlias

JSONValue: TypeAlias = "bool | int | float | str | list[JSONValue] | dict[str, JSONValue] | None"
"""Any JSON value as the ``json`` module parses it."""

JSONObject: TypeAlias = "dict[str, JSONValue]"
"""A JSON object as the ``json`` module parses it."""
