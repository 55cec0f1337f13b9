"""The base class of every generated model."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """A pydantic model whose validators are built on first use, not at import.

    Attributes and constructor keywords are snake_case; the wire's names are their aliases.
    Input accepts both; ``model_dump()`` and ``model_dump_json()`` give the wire names.

    A field this version does not know (a newer peer's) is kept, readable in ``model_extra``
    and written back unchanged, never dropped; a type whose schema closes it
    (``additionalProperties: false``) refuses it instead.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        defer_build=True,
        extra="allow",
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
    )
