"""agents.json bundles loaded at run time: a marketplace's, a user's upload, a URL.

:func:`load_bundle` (and :func:`aload_bundle`) reads an agents.json document and its OpenAPI
sources (files, URLs fetched with the package's HTTP client, or parsed documents), checks it
as the build checks the bundles it ships (the seed schema, after the same lenient reading),
plans it with the same planner (``agentproto._runtime.flows_plan``) and gives a flows client
that runs flows the way a generated one does, untyped: :meth:`BundleFlows.run_flow` (by wire id
or snake_case name), :meth:`BundleFlows.dry_run`, :attr:`BundleFlows.tools` (the flows as LLM
tool definitions). The same checks and errors apply: every failure is a ``FlowError``; a
bundle that cannot be used is a :class:`~agentproto.flows.FlowBundleError` listing each problem
with the document and JSON pointer.

A problem confined to one flow leaves that flow out (``warnings`` says why; calling it raises
``FlowInputError`` with the reason) unless ``strict=True``. Documents are bounded
(``max_document_bytes``, 32 MiB by default); YAML needs PyYAML (``pip install pyyaml``) and
refuses aliases that expand past a node budget.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final, cast
from urllib.parse import urljoin

import httpx
from agentproto._runtime import flows_plan
from agentproto._runtime.flows import (
    AsyncFlows,
    FlowBundleError,
    Plan,
    SourceAuth,
    tool_definitions,
)
from agentproto._runtime.http import AsyncHTTP, RetryPolicy, TimeoutTypes
from agentproto._runtime.http_errors import APIConnectionError, APIStatusError
from agentproto._runtime.redact import redact_url
from agentproto.flows._schema import schema

# unasync: derive-sync

log: Final = logging.getLogger("agentproto.flows")

Source = str | os.PathLike[str] | Mapping[str, Any]
"""Where a document comes from: a URL (``http://`` or ``https://``), a file path, or the
document itself, parsed."""

MAX_DOCUMENT_BYTES: Final = 32 * 1024 * 1024
_MAX_YAML_NODES: Final = 2_000_000


class AsyncBundleFlows(AsyncFlows):
    """A flows client for a bundle loaded at run time (made by :func:`aload_bundle`).

    ``warnings``: what the lenient reading and the planner reported, as ``(kind, pointers)``.
    """

    def __init__(
        self,
        plan: Plan,
        *,
        warnings: Sequence[tuple[str, Sequence[str]]] = (),
        auth: Mapping[str, SourceAuth | Sequence[SourceAuth]] | None = None,
        base_urls: Mapping[str, str] | None = None,
        timeout: TimeoutTypes = 30.0,
        retry: RetryPolicy | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self._loaded = plan
        self.warnings: list[tuple[str, list[str]]] = [(k, list(p)) for k, p in warnings]
        super().__init__(
            auth=auth, base_urls=base_urls, timeout=timeout, retry=retry, http_client=http_client
        )

    def _flow_plan(self) -> Plan:
        return self._loaded

    @property
    def tools(self) -> list[dict[str, Any]]:
        """Every flow as an LLM tool definition (name, description, JSON Schema of inputs)."""
        return list(tool_definitions(self._loaded))

    @property
    def flow_names(self) -> list[str]:
        """The wire ids of the flows this client runs."""
        return [str(flow["id"]) for flow in self._loaded["flows"]]


async def aload_bundle(
    agents_json: Source,
    openapi_sources: Mapping[str, Source] | None = None,
    *,
    auth: Mapping[str, SourceAuth | Sequence[SourceAuth]] | None = None,
    base_urls: Mapping[str, str] | None = None,
    strict: bool = False,
    name: str | None = None,
    timeout: TimeoutTypes = 30.0,
    retry: RetryPolicy | None = None,
    http_client: httpx.AsyncClient | None = None,
    max_document_bytes: int = MAX_DOCUMENT_BYTES,
) -> AsyncBundleFlows:
    """Load, check and plan a bundle; the flows client that runs it.

    ``openapi_sources`` maps each ``sources[].id`` to its OpenAPI document; a source it does
    not name is read from the ``path`` the agents.json gives it (relative to the agents.json's
    own location). ``http_client`` (optional) fetches URLs and then carries the flows'
    requests; ``auth`` and ``base_urls`` are per source, as for a generated client."""
    http = AsyncHTTP("http://localhost/", timeout=timeout, retry=retry, http_client=http_client)
    try:
        raw, shown, base = await _aread(agents_json, "agents.json", http, max_document_bytes)
        deviations: list[flows_plan.Deviation] = []
        if strict:
            document, checkable = raw, raw
        else:
            document, checkable, deviations = flows_plan.normalise(raw)
        problems = _schema_problems(checkable, shown)
        if problems:
            raise _bundle_error(shown, problems)
        declared = {str(s["id"]): s for s in document["sources"]}
        unknown = sorted(set(openapi_sources or {}) - set(declared))
        if unknown:
            raise FlowBundleError(
                f"{shown}: openapi_sources names sources the bundle does not have: {unknown} "
                f"(its sources: {sorted(declared)})",
                problems=[(shown, f"/sources: no source {u!r}") for u in unknown],
            )
        specs: dict[str, Any] = {}
        for sid, declared_source in declared.items():
            given = (openapi_sources or {}).get(sid)
            where: Source = given if given is not None else _relative(base, declared_source)
            specs[sid], _, _ = await _aread(where, f"source {sid!r}", http, max_document_bytes)
    finally:
        await http.aclose()  # closes the HTTP client only when it made it
    try:
        info: Any = document.get("info")
        title = str(cast("Mapping[str, Any]", info).get("title", "")) if info else ""
        outcome = flows_plan.plan_bundle(
            name or flows_plan.snake_name(title) or "bundle",
            document,
            specs,
            deviations=deviations,
            strict=strict,
        )
    except RecursionError:
        raise FlowBundleError(
            f"{shown}: a document nests too deeply to plan",
            problems=[(shown, "nested too deeply")],
        ) from None
    if outcome.problems:
        raise _bundle_error(shown, [(p.pointer, p.reason) for p in outcome.problems])
    if outcome.warnings:
        lines = [f"  {kind}: {', '.join(pointers)}" for kind, pointers in outcome.warnings]
        log.warning(
            "%s: read with %d kind(s) of normalisation:\n%s",
            shown,
            len(lines),
            "\n".join(lines),
        )
    assert outcome.plan is not None
    return AsyncBundleFlows(
        outcome.plan,
        warnings=outcome.warnings,
        auth=auth,
        base_urls=base_urls,
        timeout=timeout,
        retry=retry,
        http_client=http_client,
    )


def _bundle_error(shown: str, problems: Sequence[tuple[str, str]]) -> FlowBundleError:
    listed = [(f"{shown}{pointer}", reason) for pointer, reason in problems]
    text = "\n".join(f"  {where}: {reason}" for where, reason in listed[:20])
    more = f"\n  ... and {len(listed) - 20} more" if len(listed) > 20 else ""
    return FlowBundleError(
        f"{shown}: the bundle cannot be used ({len(listed)} problem(s)):\n{text}{more}",
        problems=listed,
    )


def _schema_problems(document: Any, shown: str) -> list[tuple[str, str]]:
    """The seed schema's complaints about ``document``: ``(JSON pointer, message)``."""
    import jsonschema.validators

    seed = schema()
    validator = jsonschema.validators.validator_for(seed)(seed)
    found: list[tuple[str, str]] = []
    for error in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.path))):
        pointer = "".join(
            "/" + str(part).replace("~", "~0").replace("/", "~1") for part in error.absolute_path
        )
        found.append((pointer, error.message))
    return found


def _relative(base: str | None, source: Mapping[str, Any]) -> Source:
    """A source's ``path``, relative to where the agents.json came from."""
    path = str(source.get("path", ""))
    if not path:
        raise FlowBundleError(
            f"source {source.get('id')!r} has no path: give it in openapi_sources",
            problems=[("agents.json", f"/sources: {source.get('id')!r} has no path")],
        )
    if path.startswith(("http://", "https://")) or base is None:
        return path
    if base.startswith(("http://", "https://")):
        return urljoin(base, path)
    return str(Path(base).parent / path)


async def _aread(
    source: Source, what: str, http: AsyncHTTP, max_bytes: int
) -> tuple[Any, str, str | None]:
    """``(document, how it is shown, its location)`` of a source."""
    if isinstance(source, Mapping):
        return dict(source), what, None
    location = os.fspath(source)
    if location.startswith(("http://", "https://")):
        shown = redact_url(location)
        data = await _afetch(location, shown, http, max_bytes)
    else:
        shown = location
        try:
            size = os.stat(location).st_size
            if size > max_bytes:
                raise FlowBundleError(
                    f"{shown}: {size} bytes is over the limit of {max_bytes}",
                    problems=[(shown, "too large")],
                )
            data = Path(location).read_bytes()
        except OSError as exc:
            raise FlowBundleError(
                f"{shown}: cannot read {what}: {exc.strerror or exc}",
                problems=[(shown, "cannot read")],
            ) from None
    return _parse(data, shown), shown, location


async def _afetch(url: str, shown: str, http: AsyncHTTP, max_bytes: int) -> bytes:
    call = http.call("GET", url, headers={"Accept": "application/json, application/yaml, */*"})
    try:
        response = await http.send(call, stream=True)
    except (APIStatusError, APIConnectionError) as exc:
        raise FlowBundleError(
            f"{shown}: cannot fetch: {exc}", problems=[(shown, "cannot fetch")]
        ) from None
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > max_bytes:
                raise FlowBundleError(
                    f"{shown}: more than {max_bytes} bytes", problems=[(shown, "too large")]
                )
            chunks.append(chunk)
    except httpx.TransportError as exc:
        raise FlowBundleError(
            f"{shown}: the download failed: {type(exc).__name__}",
            problems=[(shown, "cannot fetch")],
        ) from None
    finally:
        await response.aclose()
    return b"".join(chunks)


def _parse(data: bytes, shown: str) -> Any:
    """JSON, or YAML (PyYAML, with a budget on the nodes aliases expand to)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FlowBundleError(f"{shown}: not UTF-8 text", problems=[(shown, "not UTF-8")]) from None
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            return json.loads(text)
        except RecursionError:
            raise FlowBundleError(
                f"{shown}: JSON nested too deeply", problems=[(shown, "nested too deeply")]
            ) from None
        except ValueError as exc:
            if shown.endswith(".json"):
                raise FlowBundleError(
                    f"{shown}: not JSON: {exc}", problems=[(shown, "not JSON")]
                ) from None
    return _parse_yaml(text, shown)


def _parse_yaml(text: str, shown: str) -> Any:
    try:
        import yaml
    except ImportError:
        raise FlowBundleError(
            f"{shown}: reading YAML needs PyYAML: pip install pyyaml",
            problems=[(shown, "PyYAML is not installed")],
        ) from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        _yaml_budget(node, shown)
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise FlowBundleError(
            f"{shown}: not YAML: {str(exc).splitlines()[0] if str(exc) else exc}",
            problems=[(shown, "not YAML")],
        ) from None
    except RecursionError:
        raise FlowBundleError(
            f"{shown}: YAML nested too deeply", problems=[(shown, "nested too deeply")]
        ) from None


def _yaml_budget(root: Any, shown: str) -> None:
    """Refuse a YAML document whose aliases expand to more than ``_MAX_YAML_NODES`` nodes
    (a "billion laughs" document is small and expands without end)."""
    import yaml

    count = 0
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        count += 1
        if count > _MAX_YAML_NODES:
            raise FlowBundleError(
                f"{shown}: YAML expands to more than {_MAX_YAML_NODES} nodes",
                problems=[(shown, "too many nodes")],
            )
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
