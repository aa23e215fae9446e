"""The Python versions a project supports, changed: ``drop Python 3.6 support``.

Read from the lowest version ``python_requires``/``requires-python`` allows and
from the ``Programming Language :: Python :: X.Y`` classifiers the change adds
or removes, the words engineers title such a change with.
"""

from __future__ import annotations

import re

from segmint_core.planning.versions import numbers
from segmint_core.wording import series

_REQUIRES = re.compile(r"""(?:python_requires|requires-python|Requires-Python)\s*[=:]\s*["']?\s*>=\s*(\d+)\.(\d+)""")
_CLASSIFIER = re.compile(r"Programming Language :: Python :: (\d+\.\d+)\b")


def support_change(added: list[str], removed: list[str]) -> str | None:
    """``drop Python 3.6 support``, ``require Python 3.9``, ``add Python 3.12 support``, or None."""
    old = [(int(m.group(1)), int(m.group(2))) for line in removed if (m := _REQUIRES.search(line))]
    new = [(int(m.group(1)), int(m.group(2))) for line in added if (m := _REQUIRES.search(line))]
    if old and new and old[0] != new[0]:
        (om, on), (nm, nn) = old[0], new[0]
        if (nm, nn) < (om, on):
            return f"support Python {nm}.{nn}"
        return f"drop Python {om}.{on} support" if (nm, nn) == (om, on + 1) else f"require Python {nm}.{nn}"
    before = {m.group(1) for line in removed if (m := _CLASSIFIER.search(line))}
    after = {m.group(1) for line in added if (m := _CLASSIFIER.search(line))}
    gone, came = sorted(before - after, key=numbers), sorted(after - before, key=numbers)
    if gone and not came:
        return f"drop Python {series(gone)} support"
    if came and not gone:
        return f"add Python {series(came)} support"
    return None
