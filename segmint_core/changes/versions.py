"""How a version written in text is read, by the titles and by what CI tests on: one pattern's
pieces, shared.

Grouping reads versions for its own signals (``grouping.signals.release``) and
keeps its patterns: changing them moves the untangling figures.
"""

import re

# ``1.2`` or ``1.2.3``, then a PEP 440 pre-release and a dev or post release: black's ``21.12b0``,
# ``1.0rc1``, ``2.0.post1``.
NUMBERS = r"\d+\.\d+(?:\.\d+)?"
PEP_440 = r"(?:(?:a|b|rc)\d+)?(?:\.(?:post|dev)\d+)?"


def numbers(version: str) -> tuple[int, ...]:
    """``8.1.3.dev0``, ``v1.12.x``, ``3.10-dev`` -> their leading numbers, the part every scheme
    orders alike (``pypy3``: 3); none where the text starts with none."""
    found = re.match(r"(?:v|pypy-?)?(\d+(?:\.\d+)*)", version)
    return tuple(int(n) for n in found.group(1).split(".")) if found else ()
