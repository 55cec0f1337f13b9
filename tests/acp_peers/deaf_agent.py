"""An agent that answers ``initialize`` and then stops reading its stdin (run by
test_acp_bounds): the editor's writes fill the pipe and stay there. It exits after 30 s, or
when its process group is ended."""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    line = sys.stdin.buffer.readline()
    message = json.loads(line)
    answer = {"jsonrpc": "2.0", "id": message["id"], "result": {"protocolVersion": 1}}
    sys.stdout.buffer.write(json.dumps(answer).encode() + b"\n")
    sys.stdout.buffer.flush()
    time.sleep(30)  # deaf: nothing more is read


main()
