"""Model listing and embeddings: where the manifest declares them, read into typed results.

- ``list_models()`` uses ``services.list_models`` (``path``, ``method``, ``headers``,
  ``query_params``, ``response_binding``: where the list is in the answer). Each entry becomes a
  :class:`ModelInfo` (``id`` as the chat call wants it, the entry itself in ``raw``). Pages are
  followed (``nextPageToken``, ``next_page_token``, ``has_more`` + ``last_id``, a ``next`` URL
  on the same host) up to a bound: a list is never silently cut at its first page.
- ``embed()`` uses ``endpoints.embeddings`` (or v2's ``endpoint.embeddings`` path) with the
  ``openai`` adapter (the one every manifest that declares embeddings names): ``{"model",
  "input": [...]}`` in, ``data[*].embedding`` (floats, or base64 little-endian float32) by
  ``index`` out. Several inputs go in batches; every input gets exactly one vector, or the
  call raises.

Both raise :class:`~agentproto.llm.problems.UnsupportedError` when the manifest does not
declare the service, and :class:`ResponseValidationError` for an answer of the wrong shape.
"""

from __future__ import annotations

import base64
import math
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeGuard
from urllib.parse import parse_qsl, urljoin, urlsplit

from agentproto._runtime.http_errors import ResponseValidationError
from agentproto.llm.paths import MISSING, ExpressionError, compile_path
from agentproto.llm.problems import ManifestError, UnsupportedError
from agentproto.llm.response import Usage

if TYPE_CHECKING:
    from agentproto.llm.manifest import Manifest

__all__ = [
    "EMBEDDING_ADAPTERS",
    "Embeddings",
    "ModelInfo",
    "PageCursor",
    "Service",
    "embeddings_service",
    "list_models_service",
    "read_embeddings",
    "read_models_page",
]

EMBEDDING_ADAPTERS = ("openai",)
"""The embeddings request/answer shapes this client speaks."""


@dataclass(frozen=True)
class ModelInfo:
    """One model the provider lists. ``id`` is what ``model=`` takes (Gemini's
    ``models/`` prefix dropped, Replicate's ``owner/name`` joined); ``raw`` is the entry as
    sent."""

    id: str
    display_name: str | None = None
    raw: dict[str, Any] = field(default_factory=dict[str, Any], repr=False)


@dataclass(frozen=True)
class Embeddings:
    """What ``embed()`` returns: one vector per input, in input order."""

    vectors: list[list[float]]
    model: str | None = None
    usage: Usage | None = None
    raw: tuple[Any, ...] = field(default=(), repr=False)  # each batch's answer body


@dataclass(frozen=True)
class Service:
    """A declared service endpoint, ready to call."""

    method: str
    path: str
    headers: Mapping[str, str]
    query: Mapping[str, str]
    binding: str | None = None
    adapter: str = "openai"


@dataclass(frozen=True)
class PageCursor:
    """How to ask for the next page: extra query parameters, or a whole URL."""

    params: Mapping[str, str]
    url: str | None = None


def _is_mapping(value: object) -> TypeGuard[Mapping[str, Any]]:
    return isinstance(value, Mapping)


def _is_list(value: object) -> TypeGuard[list[Any]]:
    return isinstance(value, list)


def list_models_service(manifest: Manifest) -> Service:
    """``services.list_models`` of the manifest, or UnsupportedError."""
    services = manifest.data.get("services")
    spec = services.get("list_models") if _is_mapping(services) else None
    if not _is_mapping(spec) or not isinstance(spec.get("path"), str):
        raise UnsupportedError(
            f"{manifest.id}: the manifest declares no model listing (services.list_models)"
        )
    binding = spec.get("response_binding")
    if isinstance(binding, str):
        try:
            compile_path(binding)
        except ExpressionError as exc:
            raise ManifestError(
                manifest.source, "/services/list_models/response_binding", exc.reason
            ) from None
    return Service(
        method=str(spec.get("method") or "GET").upper(),
        path=str(spec["path"]),
        headers=_strings(spec.get("headers")),
        query=_strings(spec.get("query_params")),
        binding=binding if isinstance(binding, str) else None,
    )


def _strings(value: object) -> dict[str, str]:
    return {str(k): str(v) for k, v in value.items()} if _is_mapping(value) else {}


def embeddings_service(manifest: Manifest) -> Service:
    """``endpoints.embeddings`` (or v2's ``endpoint.embeddings``), or UnsupportedError."""
    endpoints = manifest.data.get("endpoints")
    spec = endpoints.get("embeddings") if _is_mapping(endpoints) else None
    if spec is None:
        endpoint = manifest.data.get("endpoint")
        spec = endpoint.get("embeddings") if _is_mapping(endpoint) else None
    if isinstance(spec, str):
        spec = {"path": spec}
    if not _is_mapping(spec) or not isinstance(spec.get("path"), str):
        raise UnsupportedError(
            f"{manifest.id}: the manifest declares no embeddings endpoint (endpoints.embeddings)"
        )
    adapter = str(spec.get("adapter") or "openai")
    if adapter not in EMBEDDING_ADAPTERS:
        raise UnsupportedError(
            f"{manifest.id}: embeddings adapter {adapter!r} is not supported "
            f"(known: {', '.join(EMBEDDING_ADAPTERS)})"
        )
    return Service(
        method=str(spec.get("method") or "POST").upper(),
        path=str(spec["path"]),
        headers={},
        query={},
        adapter=adapter,
    )


def _invalid(provider: str, what: str, body: bytes) -> ResponseValidationError:
    return ResponseValidationError(f"{provider}: {what}", status_code=200, body=body)


def read_models_page(
    manifest: Manifest, service: Service, data: Any, base_url: str, content: bytes
) -> tuple[list[ModelInfo], PageCursor | None]:
    """The models of one answer, and the cursor of the next page (None: the last one)."""
    provider = manifest.id
    if service.binding:
        entries = compile_path(service.binding).first(data)
        if entries is MISSING:
            raise _invalid(
                provider, f"the model list has no {service.binding!r} (response_binding)", content
            )
    elif _is_mapping(data) and "data" in data:
        entries = data["data"]
    else:
        entries = data
    if not _is_list(entries):
        raise _invalid(provider, "the model list is not a JSON array", content)
    models = [_model(provider, i, entry, content) for i, entry in enumerate(entries)]
    return models, _next_page(provider, data, base_url, content)


def _model(provider: str, index: int, entry: Any, content: bytes) -> ModelInfo:
    if isinstance(entry, str):
        return ModelInfo(entry, raw={"id": entry})
    if not _is_mapping(entry):
        raise _invalid(provider, f"model entry {index} is not an object", content)
    raw = dict(entry)
    shown = raw.get("display_name", raw.get("displayName"))
    display = shown if isinstance(shown, str) else None
    ident = raw.get("id")
    owner, name = raw.get("owner"), raw.get("name")
    if isinstance(ident, str) and ident:
        return ModelInfo(ident, display, raw)
    if isinstance(owner, str) and isinstance(name, str) and owner and name:
        return ModelInfo(f"{owner}/{name}", display, raw)
    if isinstance(name, str) and name:
        return ModelInfo(name.removeprefix("models/"), display, raw)
    model = raw.get("model")
    if isinstance(model, str) and model:
        return ModelInfo(model, display, raw)
    raise _invalid(provider, f"model entry {index} has no id, name or model", content)


def _next_page(provider: str, data: Any, base_url: str, content: bytes) -> PageCursor | None:
    if not _is_mapping(data):
        return None
    for field_name, param in (("nextPageToken", "pageToken"), ("next_page_token", "page_token")):
        token = data.get(field_name)
        if isinstance(token, str) and token:
            return PageCursor({param: token})
        if token not in (None, ""):  # a cursor we cannot follow: never a list cut short
            raise _invalid(provider, f"the model list's {field_name} is {token!r}", content)
    following = data.get("next")
    if following not in (None, "") and not isinstance(following, str):
        raise _invalid(provider, f"the model list's next page is {following!r}", content)
    if isinstance(following, str) and following:
        following = urljoin(base_url, following)  # a relative link is on this host
        here, there = urlsplit(base_url), urlsplit(following)
        if (there.scheme, there.netloc) != (here.scheme, here.netloc):
            raise _invalid(
                provider,
                "the next page of the model list is on another host; not followed "
                "(the API key would go there)",
                content,
            )
        return PageCursor(dict(parse_qsl(there.query)), url=there._replace(query="").geturl())
    more = data.get("has_more")
    if more is not None and not isinstance(more, bool):
        raise _invalid(provider, f"the model list's has_more is {more!r}", content)
    if more:
        last = data.get("last_id")
        if isinstance(last, str) and last:
            return PageCursor({"after_id": last})
        raise _invalid(provider, "the model list has more pages but no cursor (last_id)", content)
    return None


def embeddings_body(
    model: str,
    inputs: Sequence[str],
    *,
    dimensions: int | None,
    encoding_format: str | None,
) -> dict[str, Any]:
    """The ``openai`` adapter's request body for one batch."""
    body: dict[str, Any] = {"model": model, "input": list(inputs)}
    if dimensions is not None:
        body["dimensions"] = dimensions
    if encoding_format is not None:
        body["encoding_format"] = encoding_format
    return body


def read_embeddings(
    provider: str, data: Any, expected: int, content: bytes
) -> tuple[list[list[float]], Any, str | None]:
    """One batch's vectors in input order, its usage object and model, or
    ResponseValidationError when an input has no vector (or two)."""
    entries = data.get("data") if _is_mapping(data) else None
    if not _is_list(entries):
        raise _invalid(provider, "the embeddings answer has no 'data' array", content)
    vectors: list[list[float] | None] = [None] * expected
    for position, entry in enumerate(entries):
        if not _is_mapping(entry):
            raise _invalid(provider, f"embedding {position} is not an object", content)
        index = entry.get("index", position)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < expected:
            raise _invalid(
                provider, f"embedding {position} has index {index!r} for {expected} inputs", content
            )
        if vectors[index] is not None:
            raise _invalid(provider, f"two embeddings for input {index}", content)
        vectors[index] = _vector(provider, index, entry.get("embedding"), content)
    missing = [i for i, v in enumerate(vectors) if v is None]
    if missing:
        raise _invalid(provider, f"no embedding for input(s) {missing[:10]} of {expected}", content)
    sizes = sorted({len(v) for v in vectors if v is not None})
    if len(sizes) > 1:
        raise _invalid(provider, f"embeddings of different sizes {sizes} in one answer", content)
    usage = data.get("usage") if _is_mapping(data) else None
    model = data.get("model") if _is_mapping(data) else None
    return [v for v in vectors if v is not None], usage, model if isinstance(model, str) else None


def _vector(provider: str, index: int, value: Any, content: bytes) -> list[float]:
    if isinstance(value, str):  # encoding_format "base64": little-endian float32
        try:
            raw = base64.b64decode(value, validate=True)
        except ValueError:
            raise _invalid(provider, f"embedding {index} is not base64", content) from None
        if len(raw) % 4:
            raise _invalid(provider, f"embedding {index} is not base64 float32", content)
        vector = list(struct.unpack(f"<{len(raw) // 4}f", raw))
    elif _is_list(value) and all(
        isinstance(x, int | float) and not isinstance(x, bool) for x in value
    ):
        vector = [float(x) for x in value]
    else:
        raise _invalid(provider, f"embedding {index} is not a list of numbers", content)
    if not vector or not all(math.isfinite(x) for x in vector):
        raise _invalid(provider, f"embedding {index} is empty or not finite", content)
    return vector


def sum_usage(objects: Sequence[Any]) -> Usage | None:
    """One :class:`Usage` for several batches: their numeric fields added up."""
    found = [o for o in objects if _is_mapping(o)]
    if not found:
        return None
    total: dict[str, Any] = {}
    for usage in found:
        for key, value in usage.items():
            if isinstance(value, int) and not isinstance(value, bool):
                total[key] = int(total.get(key, 0)) + value
    return Usage.from_raw(total)
