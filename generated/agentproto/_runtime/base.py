"""The base class of every generated model, and what open enums and unions are made of."""

from __future__ import annotations

from typing import ClassVar, Literal, NewType, cast, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Discriminator

UnknownValue = NewType("UnknownValue", str)
"""A value of an open enum that this version does not know (a newer peer's), kept as sent.

Open enums are typed ``Literal[...] | UnknownValue``: a type checker accepts the known strings
and refuses a typo, and code reading one handles the unknown case (``case _:``). To send an
unknown value on purpose, wrap it: ``UnknownValue("new_reason")``."""

UNKNOWN_VARIANT = "<unknown variant>"
"""The tag of an open union's ``Unknown...`` member (never a tag on the wire)."""


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


def open_union(wire: str, attribute: str, known: tuple[str, ...]) -> Discriminator:
    """The discriminator of an open tagged union: a member's tag (read from the wire name
    ``wire`` in a mapping, or the attribute on a model) if this version knows it, else
    ``UNKNOWN_VARIANT``, which selects the union's ``Unknown...`` member."""
    tags = frozenset(known)

    def tag(value: object) -> str:
        if isinstance(value, dict):
            data = cast("dict[str, object]", value)
            found = data.get(wire)
            if found is None and attribute != wire:
                found = data.get(attribute)
        else:
            found = getattr(value, attribute, None)
        return found if isinstance(found, str) and found in tags else UNKNOWN_VARIANT

    return Discriminator(tag)


def known_values(alias: object) -> tuple[str, ...]:
    """The values an enum alias names (``Literal[...]``, open or not), in order."""
    parts = (alias,) if get_origin(alias) is Literal else get_args(alias)
    return tuple(v for part in parts if get_origin(part) is Literal for v in get_args(part))
