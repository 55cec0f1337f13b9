"""An agent written by hand that answers initialize and, on session/prompt, first sends the
editor a usage_update whose "used" is null (as claude-agent-acp 0.23.1 does) and a
session/update with no sessionId, then the answer."""

from __future__ import annotations

import json
import sys


def main() -> None:
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message or "method" not in message:
            continue
        result: object = None
        if message["method"] == "initialize":
            result = {"protocolVersion": 1}
        elif message["method"] == "session/prompt":
            usage = {"sessionUpdate": "usage_update", "used": None, "size": 200000}
            for params in ({"sessionId": "s", "update": usage}, {"update": usage}):
                notification = {"jsonrpc": "2.0", "method": "session/update", "params": params}
                out.write(json.dumps(notification) + "\n")
            result = {"stopReason": "end_turn"}
        out.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
