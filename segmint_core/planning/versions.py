"""How the titles read a version written in text: one pattern's pieces, shared.

Grouping reads versions for its own signals (``grouping.signals.release``) and
keeps its patterns: changing them moves the untangling figures.
"""

# ``1.2`` or ``1.2.3``, then a PEP 440 pre-release and a dev or post release: black's ``21.12b0``,
# ``1.0rc1``, ``2.0.post1``.
NUMBERS = r"\d+\.\d+(?:\.\d+)?"
PEP_440 = r"(?:(?:a|b|rc)\d+)?(?:\.(?:post|dev)\d+)?"
