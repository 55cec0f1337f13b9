"""The base class of every generated model, and what open enums and unions are made of."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    ClassVar,
    Final,
    Literal,
    NewType,
    TypeAlias,
    TypeGuard,
    TypeVar,
    cast,
    get_args,
    get_origin,
)

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    RootModel,
    TypeAdapter,
    ValidationError,
)
from pydantic_core import core_schema

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler, ValidationInfo
    from pydantic.json_schema import JsonSchemaValue
    from pydantic_core import CoreSchema, ErrorDetails

# A URI as RFC 3986 writes it (JSON Schema's "uri" format): a scheme, then, after ``//``, an
# authority with a host (empty only before a path: ``file:///tmp``), or a path, query and
# fragment; no whitespace or control character anywhere. Checked by pydantic-core's own
# regular expression engine (no Python call per value).
_NO_SPACE = r"[^\s\x00-\x1f\x7f]"
URL_PATTERN: Final = (
    r"^[A-Za-z][A-Za-z0-9+.\-]*:"
    r"(?://(?:[^\s\x00-\x1f\x7f/?#@]*@)?(?:\[[0-9A-Fa-f:.]+\]|[^\s\x00-\x1f\x7f/?#@:\[\]]+)"
    rf"(?::[0-9]*)?(?:[/?#]{_NO_SPACE}*)?"
    rf"|///{_NO_SPACE}*"
    rf"|/?(?:[^/\s\x00-\x1f\x7f]{_NO_SPACE}*)?)$"
)


class _UriSyntax:
    """What makes ``Url`` a URI to pydantic: the syntax check, in pydantic-core (a regular
    expression, then one error that says what is wrong), and ``"format": "uri"`` in the JSON
    Schema."""

    __slots__ = ()

    def __get_pydantic_core_schema__(
        self, source: object, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.custom_error_schema(
            core_schema.str_schema(pattern=URL_PATTERN),
            custom_error_type="uri_syntax",
            custom_error_message=(
                "Input should be a URI (RFC 3986): a scheme and ':', a host after '//', and no "
                "whitespace or control character"
            ),
        )

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "string", "format": "uri"}


Url: TypeAlias = Annotated[str, _UriSyntax()]
"""A URI (a schema's ``"format": "uri"``): a ``str``, kept exactly as the peer wrote it.

Its syntax is checked when it is validated (a scheme; a host after ``//``; no whitespace or
control characters), and nothing is rewritten: pydantic's ``AnyUrl`` would give
``https://example.com/`` for ``https://example.com`` and lower-case a host, so a URL read and
written back would no longer be the one sent. Its parts: ``urllib.parse.urlsplit(url)``."""

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
            # ``exclude_unset`` would leave the tag out.
            for name, (alias, value) in _constant_fields(type(self)).items():
                if name not in data and alias not in data:
                    data = {name: value, **data}  # first, as the wire usually has it
            super().__init__(**data)

        # Validation never calls it either: pydantic calls a model's own ``__init__`` while
        # validating (losing the validation context, and paying a Python call per object)
        # unless it is marked as the base one, as pydantic marks its own and RootModel's.
        __init__.__pydantic_base_init__ = True


_CONSTANTS: dict[type[BaseModel], dict[str, tuple[str, object]]] = {}
_T = TypeVar("_T")


def constant_tag(
    value: _T, /, *, validation_alias: str | None = None, serialization_alias: str | None = None
) -> _T:
    """A union member's tag field (``type: Literal["text"] = constant_tag("text")``): made
    without it, the member has it (the constructor fills it in, nested mappings too, and type
    checkers see a default). Which member data without the tag belongs to is never decided by
    this default: a union with untagged members picks by the data's own tag (:func:`by_tag`:
    ACP's ``AuthMethod`` without ``type`` is an ``agent`` method, never a ``terminal`` one)."""
    return Field(value, validation_alias=validation_alias, serialization_alias=serialization_alias)


def _constant_fields(cls: type[BaseModel]) -> dict[str, tuple[str, object]]:
    """``name -> (wire name, value)`` of the fields whose type is one literal value (the tags
    of a tagged union's members, and constants), once per class: the ones the constructor
    fills in when they are not given."""
    found = _CONSTANTS.get(cls)
    if found is None:
        found = {}
        for name, info in cls.model_fields.items():
            values = get_args(info.annotation) if get_origin(info.annotation) is Literal else ()
            if len(values) == 1 and (info.is_required() or info.default == values[0]):
                alias = info.validation_alias
                found[name] = (alias if isinstance(alias, str) else name, values[0])
        _CONSTANTS[cls] = found
    return found


_PLANS: dict[type[BaseModel], tuple[tuple[str, str, object], ...]] = {}
_NOT_CONSTANT: Final = object()


def _plan(cls: type[BaseModel]) -> tuple[tuple[str, str, object], ...]:
    """Per field of ``cls``: attribute, wire name, and its constant (or ``_NOT_CONSTANT``)."""
    plan = _PLANS.get(cls)
    if plan is None:
        constants = _constant_fields(cls)
        rows: list[tuple[str, str, object]] = []
        for name, info in cls.model_fields.items():
            alias = info.serialization_alias
            constant = constants[name][1] if name in constants else _NOT_CONSTANT
            rows.append((name, alias if isinstance(alias, str) else name, constant))
        plan = _PLANS[cls] = tuple(rows)
    return plan


def wire_form(model: BaseModel) -> Any:
    """``model`` as the JSON a request carries: wire names; fields never set, or ``None``, left
    out (absent on the wire, not ``null``); and every constant field (a tagged union member's
    tag, a request envelope's ``jsonrpc``...) always there, at every depth, even in a model
    validated from data that did not say it: such a field is required by its schema, and
    ``exclude_unset`` alone would drop it from a model made from a mapping."""
    dumped = model.model_dump(mode="json", by_alias=True, exclude_unset=True, exclude_none=True)
    _put_constants(model, dumped)
    return dumped


def _put_constants(value: object, dumped: object) -> None:
    if _is_root(value):  # its value is dumped in its place
        _put_constants(value.root, dumped)
    elif isinstance(value, BaseModel):
        if not isinstance(dumped, dict):
            return
        wire = cast("dict[str, object]", dumped)
        for name, key, constant in _plan(type(value)):
            if key in wire:
                _put_constants(getattr(value, name), wire[key])
            elif constant is not _NOT_CONSTANT:
                wire[key] = constant
    elif isinstance(value, list | tuple) and isinstance(dumped, list):
        items = cast("Sequence[object]", value)
        outs = cast("list[object]", dumped)
        for item, out in zip(items, outs, strict=False):
            _put_constants(item, out)
    elif isinstance(value, dict) and isinstance(dumped, dict):
        entries = cast("dict[object, object]", value)
        out_entries = cast("dict[object, object]", dumped)
        for entry, item in entries.items():
            if entry in out_entries:
                _put_constants(item, out_entries[entry])


def _is_root(value: object) -> TypeGuard[RootModel[Any]]:
    return isinstance(value, RootModel)


UNTAGGED: Final = "agentproto:untagged"
"""The pydantic ``Tag`` of a union's members that carry none of its tags (see
:func:`by_tag`)."""


def by_tag(wire: str, tags: tuple[str, ...]) -> Discriminator:
    """How a union whose members are partly tagged picks one, as its schema says: data whose
    ``wire`` field holds one of ``tags`` is that member's (only: a body that does not match
    it is an error about it, never another member); anything else, the tag absent included,
    is one of the untagged members (pydantic's ``Tag(UNTAGGED)``), the variant the schema
    names for that case. A tag is never taken from a member's default."""
    known = frozenset(tags)

    def pick(value: object) -> str:
        if isinstance(value, BaseModel):
            found = _attribute_tag(value, wire)
        elif isinstance(value, Mapping):
            found = cast("Mapping[str, object]", value).get(wire)
        else:
            found = None
        return found if isinstance(found, str) and found in known else UNTAGGED

    return Discriminator(pick)


def _attribute_tag(value: BaseModel, wire: str) -> object:
    """The tag of a model instance (validating a model already made): its field whose wire
    name is ``wire``, by its declared one-value type (an untagged member has none)."""
    for name, (alias, constant) in _constant_fields(type(value)).items():
        if alias == wire or name == wire:
            return constant
    return None


def not_one_of(known: tuple[str, ...]) -> AfterValidator:
    """The tag of an open union's ``Unknown...`` variant: any string but the known tags (a
    known tag whose body does not match its variant must fail as that variant)."""
    tags = frozenset(known)

    def check(value: str) -> str:
        if value in tags:
            raise ValueError(f"{value!r} is a known tag: the data does not match its variant")
        return value

    return AfterValidator(check)


FROM_PEER: Final = "agentproto.from_peer"
"""The validation context key that marks data a peer sent (``context={FROM_PEER: True}``):
only such data may become an open union's ``Invalid...`` variant (what we send, and models
made in code, must match their schema)."""
PEER_CONTEXT: Final[Mapping[str, bool]] = {FROM_PEER: True}


def one_of(known: tuple[str, ...]) -> AfterValidator:
    """The tag of an open union's ``Invalid...`` variant: one of the known tags, in data a
    peer sent (:data:`FROM_PEER`); anything else fails here."""
    tags = frozenset(known)

    def check(value: str, info: ValidationInfo) -> str:
        if value not in tags:
            raise ValueError(f"{value!r} is not a known tag")
        context = info.context
        if not (
            isinstance(context, Mapping) and cast("Mapping[str, object]", context).get(FROM_PEER)
        ):
            raise ValueError(f"the data does not match the {value!r} variant")
        return value

    return AfterValidator(check)


class InvalidVariant(Model):
    """A known variant of an open union whose data, as a peer sent it, does not match the
    variant's schema (a field missing, ``null`` where a number belongs...): kept, never
    dropped. The tag is a field; every other field is kept as sent (``model_extra``) and
    written back unchanged. :attr:`raw` is the whole object, :attr:`errors` says what does not
    match. Subclasses are named ``Invalid<Union>`` after the union they belong to."""

    @property
    def raw(self) -> dict[str, Any]:
        """The object as the peer sent it (wire names)."""
        return self.model_dump(mode="json", by_alias=True)

    @property
    def errors(self) -> list[ErrorDetails]:
        """Why the data is not its variant: pydantic's errors from validating :attr:`raw`
        against the union's known variants (locations start with the tag)."""
        try:
            _known_variants(type(self)).validate_python(self.raw)
        except ValidationError as exc:
            return exc.errors(include_url=False, include_context=False)
        return []  # valid after all (it was made by hand, or the schema changed)


_KNOWN: dict[type[InvalidVariant], TypeAdapter[Any]] = {}


def _known_variants(cls: type[InvalidVariant]) -> TypeAdapter[Any]:
    """The tagged union of the known variants of ``cls``'s union: the first member of the
    open alias ``Annotated[Known | Unknown... | Invalid..., ...]`` of its module."""
    adapter = _KNOWN.get(cls)
    if adapter is None:
        union = getattr(sys.modules[cls.__module__], cls.__name__.removeprefix("Invalid"))
        members = get_args(get_args(union)[0])
        adapter = _KNOWN[cls] = TypeAdapter(members[0])
    return adapter


def known_values(alias: object) -> tuple[str, ...]:
    """The values an enum alias names (``Literal[...]``, open or not), in order."""
    parts = (alias,) if get_origin(alias) is Literal else get_args(alias)
    return tuple(v for part in parts if get_origin(part) is Literal for v in get_args(part))
