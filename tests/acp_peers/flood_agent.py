"""An agent that floods the editor with requests (run by test_acp_bounds): after
``initialize`` it writes argv[1] ``_count`` requests at once, then reads the editor's answers
and writes how many it got to the file argv[2]."""

from __future__ import annotations

import json
import sys


def main() -> None:
    total = int(sys.argv[1])
    out = sys.stdout.buffer
    line = sys.stdin.buffer.readline()
    message = json.loads(line)
    answer = {"jsonrpc": "2.0", "id": message["id"], "result": {"protocolVersion": 1}}
    out.write(json.dumps(answer).encode() + b"\n")
    out.flush()
    batch = b"".join(
        b'{"jsonrpc":"2.0","id":%d,"method":"_count","params":{"n":%d}}\n' % (i, i)
        for i in range(total)
    )
    out.write(batch)
    out.flush()
    seen = set()
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if "id" in message and ("result" in message or "error" in message):
            seen.add(message["id"])
            if len(seen) == total:
                break
    with open(sys.argv[2], "w") as file:
        file.write(str(len(seen)))


main()
