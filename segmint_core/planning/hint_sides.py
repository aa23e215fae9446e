"""What a hunk's side is once its type annotations are taken out, whatever its language.

``type_hints`` reads Python's, ``ts_type_hints`` TypeScript's, into these.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RETURN = "return"  # the target of a function's ``-> T`` (``): T`` in TypeScript)
ANNOTATION_TOKENS = 400  # an annotation runs no longer: what does is no annotation (and is read once)
OPENERS = {")": "(", "]": "[", "}": "{"}  # each closing bracket's opener


@dataclass(frozen=True)
class Annotation:
    target: str  # the parameter or variable it types, ``return``, or the alias it defines
    text: str  # the type as written, spaced as ``Dict[str, int] | None``
    alias: bool = False
    function: str | None = None  # the function whose signature holds it, where the hunk shows it


@dataclass
class AnnotationEdit:
    added: list[Annotation] = field(default_factory=list)
    removed: list[Annotation] = field(default_factory=list)
    changed: list[tuple[Annotation, Annotation]] = field(default_factory=list)  # (old, new)


@dataclass
class Token:
    kind: str
    text: str


@dataclass
class Statement:
    kept: tuple[str, ...]  # its tokens, its annotations taken out
    annotations: list[tuple[int, Annotation]]  # each with the index in ``kept`` it stood at
    alias: Annotation | None = None  # a name given a type, where its whole text is that
    evident: bool = False  # and its type says it is one (``Mapping[str, Any]``, ``TypeVar("T")``)
    shaped: bool = False  # its tokens alone read as an alias, whatever it is annotated with


@dataclass
class Side:
    statements: list[Statement] = field(default_factory=list)
    imported: set[str] = field(default_factory=set)  # the names its imports bind (``typing``'s aside)
