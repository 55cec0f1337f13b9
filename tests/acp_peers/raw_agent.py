"""A hand-written "agent" that writes raw bytes (run by test_acp_hostile): every line the
editor sends is appended to the log file named by argv[1].

initialize and session/new are answered plainly (session/new with cwd "/malformed" gets
``{"sessionId": 5}``); session/prompt is answered in ONE write that first carries hostile
lines and requests to the editor: a line nested 100,000 deep, a request echoing a lone
surrogate (id "e1"), a line with NaN (id "e2"), a request nested 100,000 deep (id "e3"), a
request whose handler raises (id "e4"), invalid UTF-8, then the prompt's answer. A prompt
whose text is "updates" is answered, in one write too, with two ``session/update``
notifications ("u1", "u2") and then its answer.
"""

from __future__ import annotations

import json
import sys

DEEP = b"[" * 100_000 + b"]" * 100_000


def prompt_text(message: dict[str, object]) -> str:
    params = message.get("params")
    blocks = params.get("prompt", []) if isinstance(params, dict) else []
    return "".join(b.get("text", "") for b in blocks if isinstance(b, dict))


def main() -> None:
    log = open(sys.argv[1], "ab", buffering=0)
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        log.write(line)
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "method" not in message or "id" not in message:
            continue
        msg_id, method = message["id"], message["method"]
        if method == "initialize":
            result: object = {"protocolVersion": 1}
        elif method == "session/new":
            malformed = message["params"]["cwd"] == "/malformed"
            result = {"sessionId": 5} if malformed else {"sessionId": "s1"}
        elif method == "session/prompt" and prompt_text(message) == "updates":
            # Two updates and the answer, in one write: the editor reads them in one chunk.
            lines: list[object] = [
                {
                    "jsonrpc": "2.0",
                    "method": "session/update",
                    "params": {
                        "sessionId": "s1",
                        "update": {
                            "sessionUpdate": "agent_message_chunk",
                            "content": {"type": "text", "text": text},
                        },
                    },
                }
                for text in ("u1", "u2")
            ]
            lines.append({"jsonrpc": "2.0", "id": msg_id, "result": {"stopReason": "end_turn"}})
            out.write(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
            out.flush()
            continue
        elif method == "session/prompt":
            out.write(
                b"\n".join(
                    [
                        DEEP,
                        b'{"jsonrpc":"2.0","id":"e1","method":"_echo","params":{"s":"\\ud800"}}',
                        b'{"jsonrpc":"2.0","id":"e2","method":"_echo","params":{"n":NaN}}',
                        b'{"jsonrpc":"2.0","id":"e3","method":"_echo","params":' + DEEP + b"}",
                        b'{"jsonrpc":"2.0","id":"e4","method":"_boom","params":{}}',
                        b'{"jsonrpc":"2.0","id":"e5","method":"_echo","params":"\xff"}',
                        b"",
                    ]
                )
            )
            result = {"stopReason": "end_turn"}
        else:
            result = None
        answer = {"jsonrpc": "2.0", "id": msg_id, "result": result}
        out.write(json.dumps(answer).encode() + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
