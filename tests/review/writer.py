"""A separate process appending to a queue (run by the concurrency tests)."""

from __future__ import annotations

import sys

from segmint_core.review import MessageQueue, new_message

if __name__ == "__main__":
    folder, root, name, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    queue = MessageQueue(folder, root, kept=10_000)
    for n in range(count):
        queue.append(new_message(f"{name}.py", f"{name} {n}", root, line=n + 1))
