"""Deterministic JSON: the same objects always give the same bytes."""

from __future__ import annotations

import json
import sys
from typing import Any


def to_json(obj: Any) -> str:
    # No indent: the C encoder only runs without it, and listings can be large.
    return json.dumps(obj, ensure_ascii=False)


def write_json(obj: Any) -> None:
    out = sys.stdout.buffer
    out.write(to_json(obj).encode("utf-8"))
    out.write(b"\n")
    out.flush()
