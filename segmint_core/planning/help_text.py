"""A command-line option's help text reworded: the change is named by the option.

Where every line a hunk changes is help text (``.help("...")``, ``help="..."``,
``.long_help(``, or a string continuing it), the option is the one the hunk
declares above it (``.long("list-details")``, ``Arg::with_name("pattern")``,
``@click.option("--name", ...``): ``update --list-details help text``, where
the function alone said ``update build_app``.
"""

from __future__ import annotations

import re

from segmint_core.changes.models import Hunk

_HELP = re.compile(r"""(?:\.|\b)(?:long_)?help\s*(?:\(|=|:)|\.about\s*\(""")
# Possessive runs keep a line of blanks from backtracking (cubic time before: 3 s at 1,600 blanks).
_STRING_ONLY = re.compile(r"""^\s*+(?:\)\s*+\.?\s*+)?(?:r?["'].*["']|["'].*\\|[^"'(]*+["'])?\s*+[),]*+\s*+$""")
_LONG = re.compile(r"""\.long\(\s*["']([\w-]+)["']""")
_ARG = re.compile(r"""(?:with_name|Arg::new|arg!)\(\s*["']?([\w-]+)""")
_FLAG = re.compile(r"""["'](--[\w-]+)["']""")


def _before_help(text: str) -> str:
    m = _HELP.search(text)
    return text[: m.start()].strip().lstrip(").").strip() if m else ""


def helped_option(hunk: Hunk) -> str | None:
    """The option whose help text is all the hunk changes (``--list-details``, ``pattern``), if any."""
    lines = hunk.lines
    changed = [(n, line[1:]) for n, line in enumerate(lines) if line[:1] in "+-" and line[1:].strip()]
    if not {"+", "-"} <= {line[:1] for line in lines}:  # reworded: a help only added or removed is another change
        return None
    if not changed or not any(_HELP.search(text) for _, text in changed):
        return None
    continued = lambda n: n > 0 and lines[n - 1].rstrip().endswith("\\")  # noqa: E731  # inside a string
    if not all(_HELP.search(text) or _STRING_ONLY.match(text) or continued(n) for n, text in changed):
        return None
    # what comes before the help on a changed line (a default, the flags) is as it was
    before = {_before_help(line[1:]) for line in lines if line[:1] == "-"}
    if any(_before_help(line[1:]) not in before | {""} for line in lines if line[:1] == "+"):
        return None
    first = next(n for n, line in enumerate(hunk.lines) if line[:1] in "+-")
    above = [line[1:] for line in hunk.lines[: first + 1] if line[:1] in " -"]
    for text in reversed(above):
        if m := _HELP.search(text):
            text = text[: m.start()]  # the flags a help text mentions are not the option
        elif _STRING_ONLY.match(text):
            continue
        if m := _FLAG.search(text) or _LONG.search(text):
            return m.group(1) if m.group(1).startswith("-") else f"--{m.group(1)}"
        if m := _ARG.search(text):
            return m.group(1)
    return None


def removed_helps(hunk: Hunk) -> int | None:
    """How many help texts (``.help(...)``, ``help="..."`` on a line of its own) the hunk only
    takes out, where every line it changes is one of them or a string continuing one (an option's
    line with its help is the option removed); None otherwise."""
    changed = [line for line in hunk.lines if line[:1] in "+-" and line[1:].strip()]
    if not changed or any(line[:1] == "+" for line in changed):
        return None
    helps = [line for line in changed if _HELP.search(line[1:]) and not _before_help(line[1:])]  # a help alone
    if not all(line in helps or _STRING_ONLY.match(line[1:]) for line in changed):
        return None
    return len(helps)
