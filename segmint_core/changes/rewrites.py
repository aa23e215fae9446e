"""Whether a line was rewritten in place: the one answer that laying out a hunk for a commit of some
of its lines (``apply.lines``) and telling which task wrote a line (``trajectory.provenance``) share.
"""

from __future__ import annotations

import difflib

SIMILARITY = 0.6  # how alike (whitespace aside) a new line is to the old one it rewrote
LONG_LINE = 2_000  # characters past which two lines are compared by their characters alone


def rewritten(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` rewritten, not another line put where it was. A long line (minified,
    say) is told by the characters the two share: aligning it would take quadratic time."""
    a, b = "".join(old.split()), "".join(new.split())
    alike = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return alike.quick_ratio() >= SIMILARITY and (len(b) > LONG_LINE or alike.ratio() >= SIMILARITY)
