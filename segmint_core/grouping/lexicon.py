"""Words of code and prose: identifiers, sub-tokens, stop words, what a path is about.

One fast regex tokenizer serves every language; it is robust on the fragments
a diff shows (unbalanced brackets, half a string), where a real parser fails.
"""

from __future__ import annotations

import re
from functools import lru_cache

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

# Keywords of common languages and names every program uses: they say nothing
# about intent. English glue words for prose (docs, changelogs, comments).
STOP_WORDS = frozenset(
    """
and as assert async await break class continue def del elif else except finally for from global if
import in is lambda nonlocal not or pass raise return try while with yield none true false self cls
function func var let const new this null undefined typeof instanceof void delete switch case default
do goto struct enum union typedef static extern public private protected package interface implements
extends super fn mut pub use mod impl trait type where match loop ref move crate unsafe dyn
int str bool float bytes dict list set tuple object string char long short double unsigned signed
go chan map range select defer fallthrough then fi esac done echo local export readonly
args kwargs arg kwarg param params value values result results data item items key keys name names
get set add len print error err ok todo fixme note test tests assert_equal
the a an of to is are was were be been being it its on at by or but if for with as this that these
those we you they he she i not no can will would should could may might must shall has have had
do does did so than then there here when which who what how why all any each some more most
other such only own same also just into out up down over under again further once very
now new use used using uses see e g eg ie etc one two via per
""".split()
)


def identifiers(text: str) -> list[str]:
    """Identifiers in ``text``, in order (keywords and very short names dropped)."""
    return [w for w in IDENTIFIER.findall(text) if len(w) > 2 and w.lower() not in STOP_WORDS]


@lru_cache(maxsize=65536)
def subtokens(identifier: str) -> tuple[str, ...]:
    """``parseConfig`` / ``parse_config`` -> ``("parse", "config")``, lower case."""
    parts: list[str] = []
    for chunk in identifier.split("_"):
        if chunk:
            parts.extend(p.lower() for p in _CAMEL.findall(chunk))
    return tuple(p for p in parts if len(p) > 1 and p not in STOP_WORDS)


GENERIC = ":generic"


def specificity(name: str) -> str:
    """``""`` for a name specific enough to tie two edits (compound or long),
    ``":generic"`` for a short one-word name: a suffix for a link kind."""
    if name.startswith("version "):
        return ""
    return "" if len(subtokens(name)) >= 2 or len(name) >= 10 else GENERIC


@lru_cache(maxsize=4096)
def stem(path: str) -> str:
    """The file's name without extension and without test markers: the thing it is about."""
    name = path.rsplit("/", 1)[-1]
    base = name.split(".", 1)[0] if not name.startswith(".") else name
    if base in ("__init__", "index", "mod", "main", "__main__") and "/" in path:
        base = directory(path).rsplit("/", 1)[-1]  # a package's module is about the package
    for prefix in ("test_", "tests_"):
        if base.startswith(prefix):
            base = base[len(prefix) :]
    for suffix in ("_test", "_tests", "_spec"):
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    return base.lstrip("_").lower()


@lru_cache(maxsize=4096)
def directory(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""
