"""The base class of every generated model, and what open enums and unions are made of."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal, NewType, get_args, get_origin

from pydantic import AfterValidator, BaseModel, ConfigDict

UnknownValue = NewType("UnknownValue", str)
"""A value of an open enum that this version does not know (a newer peer's), kept as sent.

Open enums are typed ``Literal[...] | UnknownValue``: a type checker accepts the known strings
and refuses a typo, and code reading one handles the unknown case (``case _:``). To send an
unknown value on purpose, wrap it: ``UnknownValue("new_reason")``."""


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

    if not TYPE_CHECKING:  # the checkers keep the typed constructor pydantic synthesises

        def __init__(self, /, **data: Any) -> None:
            # A tagged union's member made without its tag (``ContentBlockText(text="hi")``)
            # gets it as if given: defaulted, it would count as unset, and a dump with
            # ``exclude_unset`` would leave the tag out. Validation never comes here.
            for name, (alias, value) in _constant_fields(type(self)).items():
                if name not in data and alias not in data:
                    data = {name: value, **data}  # first, as the wire usually has it
            super().__init__(**data)


_CONSTANTS: dict[type[BaseModel], dict[str, tuple[str, object]]] = {}


def _constant_fields(cls: type[BaseModel]) -> dict[str, tuple[str, object]]:
    """``name -> (wire name, value)`` of the fields whose type is one literal value that is
    also their default (the tags of a tagged union's members), once per class."""
    found = _CONSTANTS.get(cls)
    if found is None:
        found = {}
        for name, info in cls.model_fields.items():
            if get_origin(info.annotation) is Literal and get_args(info.annotation) == (
                info.default,
            ):
                alias = info.validation_alias
                found[name] = (alias if isinstance(alias, str) else name, info.default)
        _CONSTANTS[cls] = found
    return found


def not_one_of(known: tuple[str, ...]) -> AfterValidator:
    """The tag of an open union's ``Unknown...`` variant: any string but the known tags (a
    known tag whose body does not match its variant must fail as that variant)."""
    tags = frozenset(known)

    def check(value: str) -> str:
        if value in tags:
            raise ValueError(f"{value!r} is a known tag: the data does not match its variant")
        return value

    return AfterValidator(check)


def known_values(alias: object) -> tuple[str, ...]:
    """The values an enum alias names (``Literal[...]``, open or not), in order."""
    parts = (alias,) if get_origin(alias) is Literal else get_args(alias)
    return tuple(v for part in parts if get_origin(part) is Literal for v in get_args(part))
