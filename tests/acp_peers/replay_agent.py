"""An agent that replays a recording (tests/acp_peers/tee.py's JSONL) to the editor.

    python replay_agent.py RECORD.jsonl

For each request the editor sends, it writes the lines the recorded agent wrote after the
recorded request of the same method (the n-th ``session/prompt`` gets what followed the n-th
recorded one), byte for byte, except that the answer carries the id of the editor's request.
A notification from the editor gets what followed the recorded one, if anything.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict


def main() -> int:
    entries = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
    replies: dict[str, list[list[str]]] = defaultdict(list)
    current: list[str] | None = None
    for entry in entries:
        if entry["from"] == "editor":
            method = json.loads(entry["line"]).get("method")
            current = []
            if method is not None:
                replies[method].append(current)
        elif current is not None:
            current.append(entry["line"])
    for raw in sys.stdin.buffer:
        message = json.loads(raw)
        method = message.get("method")
        if not replies.get(method):
            continue
        for line in replies[method].pop(0):
            recorded = json.loads(line)
            if "id" in message and "method" not in recorded and "id" in recorded:
                # The answer: the same bytes but for the id (a small JSON edit keeps the rest).
                line = line.replace(
                    f'"id":{json.dumps(recorded["id"])}', f'"id":{json.dumps(message["id"])}', 1
                )
            sys.stdout.buffer.write(line.encode("utf-8", "surrogateescape") + b"\n")
            sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
