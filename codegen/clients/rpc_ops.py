"""What the JSON-RPC renderers need to know about each method of a spec table, read from the IR
and the generated models: the params type and its keyword forms, the result type, and, for a
streamed method, its event variants (tag -> class) and the rules that end the stream.

Names that reach generated code are the table's checked identifiers and the models' own class
names; values go through the template filters.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen.clients.signatures import Variant, variants
from codegen.clients.typerefs import TypeRef, resolve, tag_of
from codegen.errors import BuildError
from codegen.ir import EndRule, Operation, Protocol

# The keywords every generated JSON-RPC method has besides the params' fields.
METHOD_KEYWORDS = frozenset({"self", "params", "extra_headers", "timeout", "retry", "context"})


@dataclass(frozen=True)
class StreamEvents:
    """The events of a streamed method."""

    discriminator: str
    variants: tuple[tuple[str, str], ...]  # (tag, class), in the union's order
    end: tuple[EndRule, ...]

    @property
    def annotation(self) -> str:
        return " | ".join(cls for _, cls in self.variants)


@dataclass(frozen=True)
class RpcOp:
    """One JSON-RPC method of the table, as the client and server templates render it."""

    op: Operation
    params: TypeRef | None
    forms: tuple[Variant, ...]  # keyword forms: one per class the params may be
    result: TypeRef | None  # None for a streamed method
    events: StreamEvents | None
    idempotent: bool

    @property
    def rpc(self) -> str:
        assert self.op.rpc is not None
        return self.op.rpc

    @property
    def returns(self) -> str:
        """The call's return annotation (a streamed call's is its event union)."""
        if self.events is not None:
            return self.events.annotation
        return self.result.annotation if self.result is not None else "None"

    @property
    def constant(self) -> str:
        """The module-level name of its method description (``_SEND_MESSAGE``)."""
        return "_" + self.op.name.upper()

    @property
    def names(self) -> frozenset[str]:
        found: set[str] = set()
        for ref in (self.params, self.result):
            if ref is not None:
                found |= ref.names
        if self.events is not None:
            found |= {cls for _, cls in self.events.variants}
        for form in self.forms:
            found.add(form.model)
        return frozenset(found)


def rpc_ops(protocol: Protocol, models_text: str, models_file: str) -> list[RpcOp]:
    """The table's JSON-RPC methods (operations with ``rpc``), in table order. ``models_file``:
    the schema the models are from, as messages name it."""
    shown = f"schemas/{protocol.id}/spec.yaml"
    result = []
    for index, op in enumerate(protocol.operations):
        if op.rpc is None:
            continue
        where = f"/operations/{index}"
        params = (
            resolve(models_text, op.request, shown, f"{where}/request")
            if op.request is not None
            else None
        )
        forms: list[Variant] = []
        if params is not None:
            for member in params.members:
                forms += variants(
                    models_text, member, lambda name: name, shown, lambda n: f"_params.{n}Param"
                )
            for form in forms:
                clash = sorted(METHOD_KEYWORDS & {p.name for p in form.params})
                if clash:
                    raise BuildError.single(
                        shown,
                        where,
                        f"{op.name}: params fields {clash} clash with the method's own",
                    )
        events = None
        answer = None
        if op.stream is not None:
            events = _events(op, models_text, shown, f"{where}/stream", models_file)
        elif op.response is not None:
            answer = resolve(models_text, op.response, shown, f"{where}/response")
        result.append(
            RpcOp(
                op=op,
                params=params,
                forms=tuple(forms),
                result=answer,
                events=events,
                idempotent=bool(op.idempotent),
            )
        )
    return result


def _events(op: Operation, text: str, shown: str, where: str, models_file: str) -> StreamEvents:
    stream = op.stream
    assert stream is not None and stream.discriminator is not None
    union = resolve(text, stream.event, shown, f"{where}/event")
    if not union.members:
        raise BuildError.single(
            shown, f"{where}/event", f"{stream.event!r} must be a class or a union of classes"
        )
    found = []
    for member in union.members:
        tag = tag_of(text, member, stream.discriminator)
        if tag is None:
            raise BuildError.single(
                models_file,
                "",
                f"{member} (an event of {op.name}) has no constant {stream.discriminator!r} "
                "field to tell it by",
            )
        found.append((tag, member))
    tags = [tag for tag, _ in found]
    if len(set(tags)) != len(tags):
        raise BuildError.single(shown, f"{where}/event", f"event tags repeat: {tags}")
    for index, rule in enumerate(stream.end):
        if rule.tag is not None and rule.tag not in tags:
            raise BuildError.single(
                shown, f"{where}/end/{index}/tag", f"{rule.tag!r} is not one of the events {tags}"
            )
    return StreamEvents(stream.discriminator, tuple(found), stream.end)
