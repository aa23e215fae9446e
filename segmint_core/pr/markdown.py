"""Commit titles, names and paths as Markdown that shows them as written."""

from __future__ import annotations

import re

# A code span of a commit title (a house quoting names in backticks), kept as it is.
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)")
# Outside code spans: what Markdown would take for emphasis, HTML (``<!--`` hides all after it),
# strikethrough or an escape. An underscore inside a word (``load_config``) is none of these.
_SIGNIFICANT = re.compile(r"[*<~`]|\\(?=[!-/:-@\[-`{-~])|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])")


def markdown(text: str) -> str:
    """A commit title or sentence as Markdown that shows it as written: ``add __init__.py``
    not in bold, ``add <!-- x.md`` hiding nothing, its code spans kept."""
    out, at = [], 0
    for m in _CODE_SPAN.finditer(text):
        out += [escaped(text[at : m.start()]), m.group()]
        at = m.end()
    return "".join(out + [escaped(text[at:])])


def escaped(text: str) -> str:
    return _SIGNIFICANT.sub(lambda m: "".join("\\" + ch for ch in m.group()), text)


def code(text: str) -> str:
    """``text`` as one code span, whatever backticks it holds (a file named ``a`b.py``)."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"
