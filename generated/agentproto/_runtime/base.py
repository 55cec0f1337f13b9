"""The base class of every generated model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Model(BaseModel):
    """A pydantic model whose validators are built on first use, not at import.

    Attributes are snake_case; the wire's names are their aliases, and both are accepted on
    input. Serialise with ``model_dump(by_alias=True)`` to get wire names back.
    """

    model_config = ConfigDict(defer_build=True, populate_by_name=True)
