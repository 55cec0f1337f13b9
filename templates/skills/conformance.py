"""Conformance kit: check a live Skill Sharing provider against the spec's rules (hand-written).

Run::

    python -m agentproto.skills.conformance https://skills.acme.dev [--json] [--api-key KEY]

It discovers the provider (``GET /.well-known/skill-sharing``), reads every descriptor the
index names (at most ``--max-descriptors``), invokes one public skill that needs no credentials
and polls it to the end, probes unknown routes, wrong methods and unknown executions, and calls
each protected skill without (and with bogus) credentials. Every check is one rule of the spec,
with its level (MUST / SHOULD / MAY) and section; the report is text, or JSON with ``--json``.
The exit status is 1 when a MUST fails (2 when the provider cannot be reached at all), else 0.
Nothing is sent that the spec would not send: the invocation is a plain ``InvocationRequest``
with inputs made up from the descriptor's parameter types; the API key, if given, is sent only
to the provider's own origin and never printed.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any, Final, cast
from urllib.parse import quote, urljoin, urlsplit

import httpx
from agentproto._runtime.conformance import (
    Check,
    Checks,
    Level,
    Outcome,
    Report,
    as_list,
    as_object,
    finish,
    json_of,
    reaching,
)
from agentproto._runtime.http import user_agent
from agentproto.skills.documents import validate
from agentproto.skills.errors import ERRORS

EXTENSION_CODES: Final = ("CANCELLED", "EXECUTION_LOST", "OUTPUT_NOT_JSON")
"""Execution error codes the agentproto provider kit adds where none of the seven fits (§5.4
leaves the code a string): a cancelled execution, one whose process stopped, an output that is
not JSON."""

__all__ = [
    "EXTENSION_CODES",
    "Check",
    "Conformance",
    "Level",
    "Outcome",
    "Report",
    "envelope_problem",
    "execution_url",
    "main",
    "run",
]

WELL_KNOWN = "/.well-known/skill-sharing"
TERMINAL = ("completed", "failed", "timeout")
CAPABILITY_TYPES = ("plugin", "api", "knowledge", "task")
SAMPLE_INPUTS: dict[str, Any] = {
    "string": "conformance",
    "number": 1,
    "integer": 1,
    "boolean": True,
    "array": [],
    "object": {},
}


def envelope_problem(response: httpx.Response) -> str | None:
    """Why ``response`` is not a §8.2 error envelope with one of the seven codes (None: it is)."""
    body = json_of(response)
    if body is None:
        kind = response.headers.get("content-type", "?")
        return f"HTTP {response.status_code} {kind} body is not JSON"
    report = validate(body, "ErrorResponse")
    if not report.valid:
        first = report.errors[0]
        return (
            f"HTTP {response.status_code}: not the envelope: {first.path or '/'}: {first.message}"
        )
    error = as_object((as_object(body) or {}).get("error")) or {}
    if error.get("code") not in ERRORS:
        return f"HTTP {response.status_code}: code {error.get('code')!r} is not one of the seven"
    return None


def execution_url(template: str, endpoint_url: str, execution_id: str) -> str:
    escaped = quote(execution_id, safe="")
    if "{execution_id}" in template:
        url = template.replace("{execution_id}", escaped)
    else:
        url = template.rstrip("/") + "/" + escaped
    return urljoin(endpoint_url, url)


class Conformance(Checks):
    """Runs the checks against ``base_url`` with ``client``; ``run()`` returns the report."""

    def __init__(
        self,
        base_url: str,
        client: httpx.Client,
        *,
        api_key: str | None = None,
        api_key_header: str = "X-API-Key",
        max_descriptors: int = 20,
        poll_seconds: float = 10.0,
    ) -> None:
        super().__init__(Report(base_url.rstrip("/")))
        self.base_url: str = base_url.rstrip("/")
        self.client: httpx.Client = client
        self._api_key = api_key
        self._api_key_header = api_key_header
        self.max_descriptors: int = max_descriptors
        self.poll_seconds: float = poll_seconds
        self._origin = urlsplit(self.base_url)[:2]
        self._cancel: Callable[[bool | None, str], None] = lambda ok, detail: None
        self._code_known: Callable[[bool | None, str], None] = lambda ok, detail: None

    def __repr__(self) -> str:
        return f"<Conformance {self.base_url!r}>"

    def _get(self, url: str, headers: dict[str, str] | None = None) -> httpx.Response:
        return self.client.get(url, headers=headers or {})

    def _own_origin(self, url: str) -> bool:
        return urlsplit(url)[:2] == self._origin

    def _key_headers(self, header: str | None = None) -> dict[str, str]:
        if self._api_key is None:
            return {}
        return {header or self._api_key_header: self._api_key}

    # -- the checks ---------------------------------------------------------------------------

    def run(self) -> Report:
        index = self.discovery()
        if index is not None:
            self.filtering(index)
            descriptors = self.descriptors(index)
            self.invocation(descriptors)
            self.auth(descriptors)
        self.errors()
        return self.report

    def discovery(self) -> dict[str, Any] | None:
        found = self.check(
            "discovery.well-known", "MUST", "4.3.1", "GET /.well-known/skill-sharing answers 200"
        )
        ctype = self.check(
            "discovery.content-type",
            "MUST",
            "4.3.1",
            "the Skill Index is served as application/json",
        )
        valid = self.check(
            "discovery.index-valid", "MUST", "4.3.2", "the Skill Index validates against the schema"
        )
        unique = self.check(
            "discovery.unique-ids", "MUST", "4.3.4", "skill ids are unique within the index"
        )
        private = self.check(
            "discovery.private-hidden",
            "MUST",
            "4.4",
            "an unauthenticated index lists no private skill",
        )
        authed = self.check(
            "discovery.private-authenticated",
            "MAY",
            "4.4",
            "an authenticated index may list private skills",
        )
        response = self._get(self.base_url + WELL_KNOWN)
        found(response.status_code == 200, f"HTTP {response.status_code}")
        if response.status_code != 200:
            return None
        content_type = response.headers.get("content-type", "")
        ctype(content_type.split(";")[0].strip() == "application/json", content_type)
        document = as_object(json_of(response))
        if document is None:
            valid(False, "the body is not a JSON object")
            return None
        report = validate(document, "SkillIndex")
        schema_errors = [e for e in report.errors if "duplicate skill id" not in e.message]
        valid(not schema_errors, "; ".join(f"{e.path}: {e.message}" for e in schema_errors[:3]))
        entries = [
            e for e in (as_object(x) for x in as_list(document.get("skills"))) if e is not None
        ]
        ids = [e.get("id") for e in entries]
        dupes = sorted({str(i) for i in ids if ids.count(i) > 1})
        unique(not dupes, f"duplicated: {dupes}" if dupes else f"{len(ids)} ids")
        shown = [str(e.get("id")) for e in entries if e.get("access") == "private"]
        private(not shown, f"private skills listed: {shown}" if shown else "")
        if self._api_key is None:
            authed(None, "no --api-key given")
        else:
            keyed = as_object(json_of(self._get(self.base_url + WELL_KNOWN, self._key_headers())))
            listed = [
                e
                for e in (as_object(x) for x in as_list(keyed.get("skills") if keyed else None))
                if e
            ]
            privates = [e.get("id") for e in listed if e.get("access") == "private"]
            authed(True if privates else None, f"private skills listed: {len(privates)}")
        return document

    def filtering(self, index: dict[str, Any]) -> None:
        only = self.check(
            "discovery.filter-only",
            "MUST",
            "4.5",
            "?type= returns only entries of that capability type",
        )
        every = self.check(
            "discovery.filter-all",
            "MUST",
            "4.5",
            "?type= returns every entry of that type in the index",
        )
        entries = [e for e in (as_object(x) for x in as_list(index.get("skills"))) if e is not None]
        wrong: list[str] = []
        missing: list[str] = []
        for kind in CAPABILITY_TYPES:
            response = self.client.get(self.base_url + WELL_KNOWN, params={"type": kind})
            body = as_object(json_of(response)) if response.status_code == 200 else None
            if body is None:
                wrong.append(f"type={kind}: HTTP {response.status_code}")
                continue
            got = [e for e in (as_object(x) for x in as_list(body.get("skills"))) if e is not None]
            wrong += [
                f"{e.get('id')} ({e.get('capability_type')})"
                for e in got
                if e.get("capability_type") != kind
            ]
            got_ids = {e.get("id") for e in got}
            missing += [
                str(e.get("id"))
                for e in entries
                if e.get("capability_type") == kind and e.get("id") not in got_ids
            ]
        only(not wrong, f"other types returned: {wrong[:5]}" if wrong else "")
        every(not missing, f"missing: {missing[:5]}" if missing else "")

    def descriptors(self, index: dict[str, Any]) -> list[dict[str, Any]]:
        fetched = self.check(
            "descriptor.fetch", "MUST", "4.2", "every descriptor_url answers 200 with JSON"
        )
        valid = self.check(
            "descriptor.valid", "MUST", "3.1", "every descriptor validates against the schema"
        )
        matches = self.check(
            "descriptor.matches-index",
            "SHOULD",
            "4.3.3",
            "a descriptor agrees with its index entry (id, version, capability_type, access)",
        )
        entries = [e for e in (as_object(x) for x in as_list(index.get("skills"))) if e is not None]
        failures: list[str] = []
        invalid: list[str] = []
        mismatched: list[str] = []
        found: list[dict[str, Any]] = []
        for entry in entries[: self.max_descriptors]:
            url = urljoin(self.base_url + "/", str(entry.get("descriptor_url", "")))
            response = self._get(url)
            document = as_object(json_of(response)) if response.status_code == 200 else None
            if document is None:
                failures.append(f"{entry.get('id')}: HTTP {response.status_code}")
                continue
            report = validate(document)
            if not report.valid:
                first = report.errors[0]
                invalid.append(f"{entry.get('id')}: {first.path}: {first.message}")
                continue
            found.append(document)
            for key in ("id", "version", "capability_type", "access"):
                if document.get(key) != entry.get(key):
                    mismatched.append(f"{entry.get('id')}: {key}")
        fetched(not failures if entries else None, "; ".join(failures[:3]))
        valid(
            not invalid if entries and len(failures) < len(entries) else None,
            "; ".join(invalid[:3]),
        )
        matches(not mismatched if found else None, "; ".join(mismatched[:3]))
        return found

    def _request(self, descriptor: dict[str, Any], inputs: dict[str, Any]) -> dict[str, Any]:
        return {
            "caller": {"id": "agentproto-conformance", "type": "service"},
            "skill_id": descriptor.get("id"),
            "inputs": inputs,
        }

    def _send(
        self, descriptor: dict[str, Any], body: Any, headers: dict[str, str] | None = None
    ) -> httpx.Response:
        endpoint = as_object(descriptor.get("endpoint")) or {}
        method = str(endpoint.get("method", "POST"))
        url = str(endpoint.get("url", ""))
        if method in ("GET", "DELETE"):
            return self.client.request(method, url, headers=headers or {})
        return self.client.request(method, url, json=body, headers=headers or {})

    @staticmethod
    def _inputs(descriptor: dict[str, Any]) -> dict[str, Any] | None:
        inputs: dict[str, Any] = {}
        for parameter in (as_object(p) for p in as_list(descriptor.get("inputs"))):
            if parameter is None or not parameter.get("required"):
                continue
            kind = parameter.get("type")
            if kind not in SAMPLE_INPUTS:
                return None
            inputs[str(parameter.get("name"))] = SAMPLE_INPUTS[str(kind)]
        return inputs

    def invocation(self, descriptors: list[dict[str, Any]]) -> None:
        accepted = self.check(
            "invoke.response",
            "MUST",
            "5.4",
            "an invocation answers 2xx with a valid InvocationResponse",
        )
        polled = self.check(
            "invoke.status-url",
            "MUST",
            "5.5",
            "status_url with {execution_id} substituted gives the execution",
        )
        terminal = self.check(
            "invoke.terminal",
            "MUST",
            "5.4",
            "the execution reaches completed/failed/timeout, with output or error",
        )
        code = self.check(
            "invoke.error-code",
            "MUST",
            "5.4",
            "a failed execution's error has a code (a non-empty string) and a message",
        )
        self._code_known = self.check(
            "invoke.error-code-known",
            "SHOULD",
            "8.1",
            "a failed execution's error code is one of the seven, or an extension code this kit "
            f"documents ({', '.join(EXTENSION_CODES)})",
        )
        result = self.check(
            "invoke.result-url", "SHOULD", "5.5", "result_url gives the final InvocationResponse"
        )
        self._cancel = self.check(
            "ext.cancel",
            "MAY",
            "agentproto extension",
            "POST {status_url}/cancel on an ended execution answers its final status unchanged "
            "(optional: skipped when the provider does not offer it)",
        )
        bad = self.check(
            "invoke.bad-request",
            "MUST",
            "8.2",
            "an invalid InvocationRequest is refused with the error envelope",
        )
        bad_code = self.check(
            "invoke.bad-request-code",
            "SHOULD",
            "8.3.1",
            "an invalid InvocationRequest is refused as VALIDATION_ERROR",
        )
        unknown = self.check(
            "invoke.unknown-execution",
            "MUST",
            "8.2",
            "an unknown execution id is refused with the error envelope",
        )
        unknown_code = self.check(
            "invoke.unknown-execution-code",
            "SHOULD",
            "8.3.4",
            "an unknown execution id answers 404 SKILL_NOT_FOUND",
        )
        candidates = [
            d
            for d in descriptors
            if d.get("access") == "public"
            and (as_object(d.get("auth")) or {}).get("type") == "none"
            and self._own_origin(str((as_object(d.get("endpoint")) or {}).get("url", "")))
        ]
        chosen = next(((d, i) for d in candidates if (i := self._inputs(d)) is not None), None)
        if chosen is None:
            for record in (
                accepted,
                polled,
                terminal,
                code,
                self._code_known,
                result,
                bad,
                bad_code,
                unknown,
                unknown_code,
            ):
                record(None, "no public skill without auth on this origin to invoke")
            return
        descriptor, inputs = chosen
        endpoint = as_object(descriptor.get("endpoint")) or {}
        response = self._send(descriptor, self._request(descriptor, inputs))
        document = as_object(json_of(response))
        report = validate(document or {}, "InvocationResponse")
        ok = 200 <= response.status_code < 300 and document is not None and report.valid
        accepted(
            ok,
            f"{descriptor.get('id')}: HTTP {response.status_code}"
            + ("" if report.valid else f"; {report.errors[0].path}: {report.errors[0].message}"),
        )
        if not ok or document is None:
            for record in (polled, terminal, code, self._code_known, result):
                record(None, "the invocation was not accepted")
        else:
            self._poll(
                descriptor,
                str(document.get("execution_id")),
                document,
                polled,
                terminal,
                code,
                result,
            )
        body = self._request(descriptor, inputs)
        body["skill_id"] = 42  # not a string: invalid whatever the skill
        refused = self._send(descriptor, body)
        if str(endpoint.get("method", "POST")) in ("GET", "DELETE"):
            bad(None, "a GET/DELETE invocation carries no body to get wrong")
            bad_code(None, "")
        else:
            problem = (
                envelope_problem(refused)
                if refused.status_code >= 400
                else f"HTTP {refused.status_code}: accepted"
            )
            bad(problem is None, problem or f"HTTP {refused.status_code}")
            error = as_object((as_object(json_of(refused)) or {}).get("error")) or {}
            bad_code(error.get("code") == "VALIDATION_ERROR", str(error.get("code")))
        status_url = str(endpoint.get("status_url", ""))
        if not status_url:
            unknown(None, "no status_url")
            unknown_code(None, "")
            return
        missing = self._get(
            execution_url(
                status_url, str(endpoint.get("url", "")), f"conformance-{uuid.uuid4().hex}"
            )
        )
        problem = (
            envelope_problem(missing)
            if missing.status_code >= 400
            else f"HTTP {missing.status_code}"
        )
        unknown(problem is None, problem or f"HTTP {missing.status_code}")
        error = as_object((as_object(json_of(missing)) or {}).get("error")) or {}
        unknown_code(
            missing.status_code == 404 and error.get("code") == "SKILL_NOT_FOUND",
            f"HTTP {missing.status_code} {error.get('code')}",
        )

    def _poll(
        self,
        descriptor: dict[str, Any],
        execution_id: str,
        document: dict[str, Any],
        polled: Callable[[bool | None, str], None],
        terminal: Callable[[bool | None, str], None],
        code: Callable[[bool | None, str], None],
        result: Callable[[bool | None, str], None],
    ) -> None:
        endpoint = as_object(descriptor.get("endpoint")) or {}
        url = str(endpoint.get("url", ""))
        status_url = execution_url(str(endpoint.get("status_url", "")), url, execution_id)
        deadline = time.monotonic() + self.poll_seconds
        delay = 0.02
        last: dict[str, Any] = document
        while str(last.get("status")) not in TERMINAL:
            if time.monotonic() > deadline:
                polled(True, "")
                terminal(False, f"still {last.get('status')} after {self.poll_seconds} s")
                code(None, "")
                self._code_known(None, "")
                result(None, "")
                return
            time.sleep(delay)
            delay = min(delay * 2, 0.5)
            response = self._get(status_url)
            body = as_object(json_of(response))
            report = validate(body or {}, "InvocationResponse")
            if response.status_code != 200 or body is None or not report.valid:
                polled(
                    False,
                    f"HTTP {response.status_code}"
                    + (
                        ""
                        if report.valid
                        else f"; {report.errors[0].path}: {report.errors[0].message}"
                    ),
                )
                for record in (terminal, code, self._code_known, result):
                    record(None, "")
                return
            if body.get("execution_id") != execution_id:
                polled(False, f"answered for execution {body.get('execution_id')!r}")
                return
            last = body
        polled(True, "")
        status = str(last.get("status"))
        if status == "completed":
            terminal(
                "output" in last, "completed" + ("" if "output" in last else " without output")
            )
            code(None, "the execution completed")
            self._code_known(None, "the execution completed")
        else:
            error = as_object(last.get("error")) or {}
            terminal(bool(error), f"{status}" + ("" if error else " without error"))
            value = error.get("code")
            code(
                isinstance(value, str) and bool(value) and isinstance(error.get("message"), str),
                f"code {value!r}, message {error.get('message')!r}",
            )
            self._code_known(value in ERRORS or value in EXTENSION_CODES, str(value))
        self._check_cancel(status_url, status)
        result_template = endpoint.get("result_url")
        if not result_template:
            result(None, "no result_url")
            return
        response = self._get(execution_url(str(result_template), url, execution_id))
        body = as_object(json_of(response))
        ok = (
            response.status_code == 200
            and body is not None
            and validate(body, "InvocationResponse").valid
        )
        result(
            ok and body is not None and body.get("status") == status, f"HTTP {response.status_code}"
        )

    def _check_cancel(self, status_url: str, status: str) -> None:
        """The optional cancel extension, on an execution that has ended (nothing changes)."""
        response = self.client.post(status_url.rstrip("/") + "/cancel")
        if response.status_code in (404, 405, 501):
            self._cancel(None, f"not offered (HTTP {response.status_code})")
            return
        body = as_object(json_of(response))
        ok = (
            response.status_code == 200
            and body is not None
            and validate(body, "InvocationResponse").valid
            and body.get("status") == status
        )
        self._cancel(ok, f"HTTP {response.status_code} {(body or {}).get('status')}")

    def auth(self, descriptors: list[dict[str, Any]]) -> None:
        anonymous = self.check(
            "auth.missing-401",
            "MUST",
            "7.4",
            "a protected skill invoked without credentials answers 401",
        )
        envelope = self.check(
            "auth.envelope", "MUST", "8.2", "the 401 is the error envelope with AUTH_REQUIRED"
        )
        bogus = self.check(
            "auth.invalid-401",
            "MUST",
            "7.4",
            "a protected skill invoked with invalid credentials answers 401",
        )
        details = self.check(
            "auth.details", "SHOULD", "8.3.2", "401 details name the required auth method"
        )
        retry = self.check("auth.retry", "MAY", "8.3.2", "401 carries retry advice")
        protected = [
            d
            for d in descriptors
            if (
                (as_object(d.get("auth")) or {}).get("type") != "none"
                or d.get("access") != "public"
            )
            and self._own_origin(str((as_object(d.get("endpoint")) or {}).get("url", "")))
        ]
        if not protected:
            for record in (anonymous, envelope, bogus, details, retry):
                record(None, "no protected skill on this origin")
            return
        statuses: list[str] = []
        refused = 0
        problems: list[str] = []
        named: list[str] = []
        advised: list[str] = []
        invalid: list[str] = []
        probed = 0
        for descriptor in protected[:5]:
            auth = as_object(descriptor.get("auth")) or {}
            skill_id = str(descriptor.get("id"))
            inputs = self._inputs(descriptor) or {}
            header = str(auth.get("header") or "X-API-Key")
            wrong = {header: f"conformance-invalid-{uuid.uuid4().hex}"}
            if auth.get("type") == "oauth2":
                wrong = {"Authorization": f"Bearer conformance-invalid-{uuid.uuid4().hex}"}
            if auth.get("type") in ("api_key", "oauth2"):
                probed += 1
                again = self._send(descriptor, self._request(descriptor, inputs), wrong)
                if again.status_code != 401:
                    invalid.append(f"{skill_id}: HTTP {again.status_code}")
            response = self._send(descriptor, self._request(descriptor, inputs))
            if response.status_code != 401:
                statuses.append(f"{skill_id}: HTTP {response.status_code}")
                continue
            refused += 1
            problem = envelope_problem(response)
            error = as_object((as_object(json_of(response)) or {}).get("error")) or {}
            if problem is not None or error.get("code") != "AUTH_REQUIRED":
                problems.append(f"{skill_id}: {problem or error.get('code')}")
            info = as_object(error.get("details")) or {}
            if info.get("required_auth_type") != auth.get("type"):
                named.append(f"{skill_id}: required_auth_type {info.get('required_auth_type')!r}")
            if as_object(error.get("retry")) is None:
                advised.append(skill_id)
        anonymous(not statuses, "; ".join(statuses[:3]))
        bogus(not invalid if probed else None, "; ".join(invalid[:3]) or f"{probed} probed")
        if not refused:
            for record in (envelope, details, retry):
                record(None, "no 401 to look at")
            return
        envelope(not problems, "; ".join(problems[:3]))
        details(not named, "; ".join(named[:3]))
        retry(not advised, f"no retry advice: {advised[:3]}" if advised else "")

    def errors(self) -> None:
        route = self.check(
            "errors.unknown-route",
            "MUST",
            "8.2",
            "an unknown route answers with the error envelope",
        )
        method = self.check(
            "errors.wrong-method", "MUST", "8.2", "a wrong method answers with the error envelope"
        )
        missing = self.check(
            "errors.unknown-route-code",
            "SHOULD",
            "8.3.4",
            "an unknown route answers 404 SKILL_NOT_FOUND",
        )
        response = self._get(f"{self.base_url}/conformance-no-such-route-{uuid.uuid4().hex}")
        problem = (
            envelope_problem(response)
            if response.status_code >= 400
            else f"HTTP {response.status_code}"
        )
        route(problem is None, problem or f"HTTP {response.status_code}")
        error = as_object((as_object(json_of(response)) or {}).get("error")) or {}
        missing(
            response.status_code == 404 and error.get("code") == "SKILL_NOT_FOUND",
            f"HTTP {response.status_code} {error.get('code')}",
        )
        wrong = self.client.request("DELETE", self.base_url + WELL_KNOWN)
        if wrong.status_code < 400:
            method(None, f"DELETE on the index answered {wrong.status_code}")
        else:
            problem = envelope_problem(wrong)
            method(problem is None, problem or f"HTTP {wrong.status_code}")


def run(
    base_url: str,
    *,
    api_key: str | None = None,
    api_key_header: str = "X-API-Key",
    timeout: float = 10.0,
    max_descriptors: int = 20,
) -> Report:
    """Check the provider at ``base_url``. Raises ``agentproto.errors.APIConnectionError``
    (``APITimeoutError`` for a timeout) when it cannot be reached, ``APIError`` when a run
    stops on another HTTP failure."""
    agent = {"User-Agent": user_agent()}
    with (
        reaching(base_url),
        httpx.Client(timeout=timeout, follow_redirects=False, headers=agent) as client,
    ):
        kit = Conformance(
            base_url,
            client,
            api_key=api_key,
            api_key_header=api_key_header,
            max_descriptors=max_descriptors,
            poll_seconds=timeout,
        )
        return kit.run()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m agentproto.skills.conformance",
        description="Check a live Skill Sharing provider against the spec's MUST/SHOULD/MAY rules.",
    )
    parser.add_argument("base_url", help="the provider's base URL (where /.well-known/ lives)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--api-key", help="an API key, for the authenticated checks")
    parser.add_argument("--api-key-header", default="X-API-Key", help="its header (X-API-Key)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per request and poll")
    parser.add_argument("--max-descriptors", type=int, default=20)
    args = parser.parse_args(argv)
    base_url = str(args.base_url)
    if "://" not in base_url:
        base_url = "https://" + base_url
    return finish(
        lambda: run(
            base_url,
            api_key=cast("str | None", args.api_key),
            api_key_header=str(args.api_key_header),
            timeout=float(args.timeout),
            max_descriptors=int(args.max_descriptors),
        ),
        as_json=bool(args.json),
    )


if __name__ == "__main__":
    sys.exit(main())
