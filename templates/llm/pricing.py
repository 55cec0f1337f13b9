"""What a call costs, from the prices a manifest (or a v1 model record) declares; budgets.

AI-Protocol carries prices in three shapes, all read here:

- **v2 per model**: ``metadata.models.<id>.pricing`` per million tokens (``input_per_1m``,
  ``output_per_1m``; cached reads as ``cache_read_per_1m`` / ``cache_hit_input_per_1m`` /
  ``cached_input_per_1m``, cache writes as ``cache_write_per_1m`` /
  ``cache_creation_per_1m``; ``*_per_1k`` spellings too);
- **v2 per provider**: the top-level ``pricing`` object of ``schemas/v2/pricing.json``, per
  thousand tokens (``input_per_1k_tokens``, ``output_per_1k_tokens``, ``currency``, default
  ``USD`` as that schema says);
- **v1 model records** (``v1/models/*.yaml`` upstream, ``dist/v1/models/*.json``): per token
  (``input_per_token``, ``output_per_token``), in a :class:`ModelCatalog`.

A model's own price wins over the provider's. :func:`cost_of` prices a :class:`Usage`: fresh
input, cached reads, cache writes and output separately, each at its own declared price. Any
token count or price it needs and does not have makes that part, and the total, ``None`` (the
part is named in ``Cost.missing``): an unknown cost is never reported as 0, and cached tokens
are never silently priced as fresh ones. The currency is the one declared; ``None`` where a
price says none.

A :class:`Budget` is a spending limit shared by any clients and chains given it: a call is
refused before it is sent (:class:`BudgetExceededError`) once the spend reaches the limit, and
a budgeted call to a model without a known price is refused too (its spend could not be
counted).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

from agentproto._runtime.http_errors import APIError

if TYPE_CHECKING:
    from agentproto.llm.manifest import Manifest
    from agentproto.llm.response import Usage

__all__ = [
    "Budget",
    "BudgetExceededError",
    "Cost",
    "ModelCatalog",
    "Price",
    "context_window",
    "cost_of",
    "price_of",
    "sum_costs",
]

_MILLION: Final = Decimal(1_000_000)
_THOUSAND: Final = Decimal(1000)
_PER_MODEL_KEYS: Final[dict[str, tuple[str, ...]]] = {
    "input": ("input_per_1m", "input_per_1k"),
    "output": ("output_per_1m", "output_per_1k"),
    "cache_read": (
        "cache_read_per_1m",
        "cache_hit_input_per_1m",
        "cached_input_per_1m",
        "cache_read_per_1k",
    ),
    "cache_write": ("cache_write_per_1m", "cache_creation_per_1m", "cache_write_per_1k"),
}
_PER_TOKEN_KEYS: Final[dict[str, tuple[str, ...]]] = {
    "input": ("input_per_token",),
    "output": ("output_per_token",),
    "cache_read": ("cache_read_per_token", "cached_input_per_token"),
    "cache_write": ("cache_write_per_token",),
}


@dataclass(frozen=True)
class Price:
    """Prices per token (``None``: not declared) and the currency they are in."""

    input: Decimal | None
    output: Decimal | None
    cache_read: Decimal | None = None
    cache_write: Decimal | None = None
    currency: str | None = None
    source: str = ""
    """Where the price was read: ``metadata.models.gpt-4o.pricing (per 1M tokens)``..."""


@dataclass(frozen=True)
class Cost:
    """What one answer cost. ``total`` is ``None`` when a part is unknown (``missing`` says
    which: a price not declared, or a token count not reported)."""

    total: Decimal | None
    input: Decimal | None
    output: Decimal | None
    cache_read: Decimal | None
    cache_write: Decimal | None
    currency: str | None
    source: str
    missing: tuple[str, ...] = ()


def _number(value: Any) -> Decimal | None:
    if isinstance(value, Decimal):
        return value if value.is_finite() and value >= 0 else None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        found = Decimal(str(value))
    except InvalidOperation:
        return None
    return found if found.is_finite() and found >= 0 else None


def _read(
    spec: Mapping[str, Any], keys: Mapping[str, tuple[str, ...]], source: str, default: str | None
) -> Price | None:
    parts: dict[str, Decimal | None] = {}
    for part, names in keys.items():
        value: Decimal | None = None
        for name in names:
            found = _number(spec.get(name))
            if found is not None:
                scale = _MILLION if name.endswith("_1m") else _THOUSAND if "1k" in name else 1
                value = found / scale
                break
        parts[part] = value
    if parts["input"] is None and parts["output"] is None:
        return None
    currency = spec.get("currency")
    return Price(
        input=parts["input"],
        output=parts["output"],
        cache_read=parts["cache_read"],
        cache_write=parts["cache_write"],
        currency=str(currency) if isinstance(currency, str) and currency else default,
        source=source,
    )


def _mapping(value: object) -> Mapping[str, Any]:
    return cast("Mapping[str, Any]", value) if isinstance(value, Mapping) else {}


def _model_entry(manifest: Manifest, model: str) -> Mapping[str, Any]:
    models = _mapping(_mapping(manifest.raw.get("metadata")).get("models"))
    return _mapping(models.get(model))


class ModelCatalog:
    """v1 model records (``{"models": {key: {"provider", "model_id", "context_window",
    "pricing": {"input_per_token", "output_per_token"}}}}``), found by key or ``model_id``."""

    def __init__(self, records: Mapping[str, object], source: str = "") -> None:
        self.records: dict[str, Mapping[str, Any]] = {}
        for key, value in records.items():
            record = _mapping(value)
            if not isinstance(value, Mapping):
                continue
            self.records[str(key)] = record
            model_id = record.get("model_id")
            if isinstance(model_id, str) and model_id not in self.records:
                self.records[model_id] = record
        self.source: str = source

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "<catalog>") -> ModelCatalog:
        """A model-record document (a v1 ``models`` file)."""
        models: object = _mapping(data).get("models")
        records = _mapping(models)
        if not isinstance(models, Mapping):
            raise ValueError(f"{source}: a model catalog is an object with a 'models' object")
        return cls(records, source)

    @classmethod
    def load(cls, path: str | Path) -> ModelCatalog:
        """A v1 model-record file (JSON, or YAML when PyYAML is installed)."""
        file = Path(path)
        text = file.read_text("utf-8")
        if file.suffix in (".yaml", ".yml"):
            import yaml

            return cls.from_dict(yaml.safe_load(text), source=str(file))
        return cls.from_dict(json.loads(text), source=str(file))

    @classmethod
    def bundled(cls, provider: str | None = None) -> ModelCatalog:
        """Upstream's v1 model records shipped with the package (for ``provider`` only, when
        given: the records whose ``provider`` is that id)."""
        return _bundled_catalog(provider)

    def record(self, model: str) -> Mapping[str, Any]:
        return self.records.get(model, {})

    def __repr__(self) -> str:
        return f"<ModelCatalog {len(self.records)} records from {self.source or 'data'}>"


@cache
def _bundled_catalog(provider: str | None) -> ModelCatalog:
    from agentproto.llm.registry import CATALOG_NAMES, catalog_json

    records: dict[str, Mapping[str, Any]] = {}
    for name in CATALOG_NAMES:
        data = json.loads(catalog_json(name))
        for key, record in _mapping(data.get("models")).items():
            if provider is None or _mapping(record).get("provider") == provider:
                records[str(key)] = record
    return ModelCatalog(records, "agentproto.llm bundled model records")


def price_of(manifest: Manifest, model: str, catalog: ModelCatalog | None = None) -> Price | None:
    """The price of ``model`` by ``manifest``: its v2 ``metadata.models`` entry, else the v2
    provider-level ``pricing``, else its v1 model record in ``catalog``. ``None``: unknown."""
    entry = _model_entry(manifest, model)
    found = _read(
        _mapping(entry.get("pricing")),
        _PER_MODEL_KEYS,
        f"{manifest.id}: metadata.models.{model}.pricing (per 1M tokens)",
        None,
    )
    if found is not None:
        return found
    provider_level = _mapping(manifest.raw.get("pricing"))
    if provider_level:
        found = _read(
            {
                "input_per_1k": provider_level.get("input_per_1k_tokens"),
                "output_per_1k": provider_level.get("output_per_1k_tokens"),
                "cache_read_per_1k": provider_level.get("cache_read_per_1k_tokens"),
                "cache_write_per_1k": provider_level.get("cache_write_per_1k_tokens"),
                "currency": provider_level.get("currency"),
            },
            _PER_MODEL_KEYS,
            f"{manifest.id}: pricing (per 1k tokens)",
            "USD",  # pricing.json's declared default
        )
        if found is not None:
            return found
    if catalog is not None:
        record = catalog.record(model)
        return _read(
            _mapping(record.get("pricing")),
            _PER_TOKEN_KEYS,
            f"{catalog.source}: models.{model}.pricing (per token)",
            None,
        )
    return None


def context_window(
    manifest: Manifest, model: str, catalog: ModelCatalog | None = None
) -> int | None:
    """The context window of ``model`` (tokens) the manifest or its model record declares
    (``0`` is upstream's "unknown": ``None``)."""
    for value in (
        _model_entry(manifest, model).get("context_window"),
        catalog.record(model).get("context_window") if catalog is not None else None,
    ):
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    return None


def cost_of(usage: Usage | None, price: Price | None) -> Cost | None:
    """The cost of ``usage`` at ``price`` (``None`` without a price or usage)."""
    if usage is None or price is None:
        return None
    missing: list[str] = []

    def times(tokens: int | None, rate: Decimal | None, part: str) -> Decimal | None:
        if tokens == 0:
            return Decimal(0)
        if tokens is None or rate is None:
            missing.append(part if rate is not None or tokens is None else f"{part} price")
            return None
        return rate * tokens

    read = usage.cache_read_tokens or 0
    write = usage.cache_write_tokens or 0
    fresh = usage.input_tokens - read - write if usage.input_tokens is not None else None
    if fresh is not None and fresh < 0:  # counts that do not add up: not priced
        fresh = None
    parts = {
        "input": times(fresh, price.input, "input"),
        "output": times(usage.output_tokens, price.output, "output"),
        "cache_read": times(read, price.cache_read, "cache_read"),
        "cache_write": times(write, price.cache_write, "cache_write"),
    }
    known = [v for v in parts.values() if v is not None]
    total = sum(known, Decimal(0)) if len(known) == len(parts) else None
    return Cost(
        total=total,
        input=parts["input"],
        output=parts["output"],
        cache_read=parts["cache_read"],
        cache_write=parts["cache_write"],
        currency=price.currency,
        source=price.source,
        missing=tuple(missing),
    )


class BudgetExceededError(APIError):
    """A call refused before it was sent: its budget is spent, or the call's model has no
    known price (a budgeted call must be countable). ``budget`` is the :class:`Budget`."""

    def __init__(self, message: str, *, budget: Budget) -> None:
        super().__init__(message)
        self.budget: Budget = budget


class Budget:
    """A spending limit in ``currency`` (``None``: the prices' own currency). Share one
    between clients and chains to cap them together; thread-safe. ``spent`` is what the
    answers charged so far, ``charges`` how many."""

    def __init__(self, limit: Decimal | float | int | str, *, currency: str | None = None) -> None:
        found = _number(limit)
        if found is None:
            raise ValueError(f"a budget limit is a non-negative number, not {limit!r}")
        self.limit: Decimal = found
        self.currency: str | None = currency
        self.spent: Decimal = Decimal(0)
        self.charges: int = 0
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        unit = f" {self.currency}" if self.currency else ""
        return f"<Budget spent {self.spent} of {self.limit}{unit} in {self.charges} call(s)>"

    @property
    def remaining(self) -> Decimal:
        return max(self.limit - self.spent, Decimal(0))

    def check(self, where: str, price: Price | None) -> None:
        """Raise :class:`BudgetExceededError` unless a call priced ``price`` may be sent."""
        with self._lock:
            if self.spent >= self.limit:
                raise BudgetExceededError(
                    f"{where}: the budget is spent ({self.spent} of {self.limit}"
                    f"{' ' + self.currency if self.currency else ''}); nothing was sent",
                    budget=self,
                )
        if price is None or price.input is None or price.output is None:
            raise BudgetExceededError(
                f"{where}: no known price for this model, so a budgeted call cannot be "
                "counted; nothing was sent (give prices with a ModelCatalog)",
                budget=self,
            )
        if self.currency is not None and price.currency not in (None, self.currency):
            raise BudgetExceededError(
                f"{where}: priced in {price.currency}, the budget is in {self.currency}; "
                "nothing was sent",
                budget=self,
            )

    def charge(self, cost: Cost | None) -> None:
        """Add what an answer cost (an unknown part counts as nothing known: the total is
        the sum of the known parts, so a budget never under-counts a known spend)."""
        if cost is None:
            return
        known = cost.total
        if known is None:
            known = sum(
                (p for p in (cost.input, cost.output, cost.cache_read, cost.cache_write) if p),
                Decimal(0),
            )
        with self._lock:
            self.spent += known
            self.charges += 1


def sum_costs(costs: list[Cost | None]) -> Cost | None:
    """The cost of several answers (a simulated ``n``): each part summed; a part unknown in
    any of them is unknown in the sum. ``None`` when there is none, or currencies differ."""
    found = [c for c in costs if c is not None]
    if not found or len(found) != len(costs):
        return None
    if len({c.currency for c in found}) != 1:
        return None

    def add(values: list[Decimal | None]) -> Decimal | None:
        return (
            None
            if any(v is None for v in values)
            else sum((v or Decimal(0) for v in values), Decimal(0))
        )

    first = found[0]
    missing = tuple(dict.fromkeys(m for c in found for m in c.missing))
    return Cost(
        total=add([c.total for c in found]),
        input=add([c.input for c in found]),
        output=add([c.output for c in found]),
        cache_read=add([c.cache_read for c in found]),
        cache_write=add([c.cache_write for c in found]),
        currency=first.currency,
        source=first.source,
        missing=missing,
    )
