"""Python type annotations added, changed or removed, and nothing else: ``add type hints to test_x.py``.

Each hunk is read as two token streams, its old side (context and removed
lines) and its new side (context and added lines), and the annotations are
taken out of both: a parameter's ``: T`` (inside a signature's brackets), a
return's ``-> T``, a variable's ``: T`` (a statement ``name: T = value``), a
type alias (``Factory = Callable[..., Client]``) an annotation of the change
uses, and the checker's ``# type:`` comments. Imports are taken out too, where
each name one side binds and the other does not is used by that side's
annotations (or comes from ``typing``), as is ``if TYPE_CHECKING:``. The
change is one of annotations only where what is left of the two sides is the
same, token for token, in every hunk (the layout aside, and the trailing
comma a signature spread over lines takes), and some annotation differs. Each
annotation must read as a type (names, subscripts, ``|``, literals): text that
only looks like one (a docstring's ``x: the value``) is no annotation, and a
mix of annotations and any other change to the code is no such change.
TypeScript files are read alike by ``ts_type_hints``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import PurePosixPath

from segmint_core.changes.models import Change, Hunk
from segmint_core.planning import ts_type_hints
from segmint_core.planning.hint_sides import (
    ANNOTATION_TOKENS,
    OPENERS,
    RETURN,
    Annotation,
    AnnotationEdit,
    Side,
    Statement,
    Token,
)

SUFFIXES = {".py", ".pyi"}
TS_SUFFIXES = {".ts", ".mts", ".cts"}  # read by ``ts_type_hints`` (not JSX, whose text reads as anything)
TYPING_MODULES = {"typing", "typing_extensions", "collections.abc", "__future__", "types"}

_TOKEN = re.compile(
    r"""(?P<comment>\#[^\n]*)
    |(?P<string>(?:[rRbBuUfF]{1,2})?(?:\"\"\"(?:[^\\]|\\.)*?(?:\"\"\"|$)|'''(?:[^\\]|\\.)*?(?:'''|$)
        |"(?:[^"\\\n]|\\.)*(?:"|$)|'(?:[^'\\\n]|\\.)*(?:'|$)))
    |(?P<name>[^\W\d]\w*)
    |(?P<number>\.?\d[\w.]*)
    |(?P<op>->|:=|\.\.\.|\*\*=?|//=?|<<=?|>>=?|[-+*/%&|^@=<>!]=|[-+*/%&|^~<>@=.,:;()\[\]{}\\])
    |(?P<nl>\n)
    |(?P<space>[ \t\f\r]+)
    |(?P<other>.)""",
    re.VERBOSE | re.DOTALL,
)
# Names that start a statement no annotation follows (``else:``), or end an expression.
_KEYWORDS = {
    "if", "elif", "else", "while", "for", "try", "except", "finally", "with", "def", "class", "async",
    "await", "lambda", "return", "yield", "del", "pass", "raise", "global", "nonlocal", "assert",
    "import", "from", "not", "and", "or", "in", "is", "None", "True", "False", "break", "continue",
}  # fmt: skip
_DIRECTIVE = re.compile(r"#\s*(?:(?:type|pyright|mypy|pragma)\s*:|noqa\b)")  # what tools are told to overlook
_TYPE_NODES = (ast.Name, ast.Attribute, ast.Subscript, ast.Tuple, ast.List, ast.Constant, ast.BinOp, ast.BitOr)
_TYPE_CALLS = {"TypeVar", "NewType", "ParamSpec", "TypeVarTuple"}
_TYPE_CHECKING = ("if", "TYPE_CHECKING", ":")
_TRIPLE = re.compile(r"\"\"\"|'''")
_PARAMETER = re.compile(
    r"^\s*(?:\*\s*,|\*{1,2}\s*[^\W\d]\w*\s*:.*,|[^\W\d]\w*\s*:[^=#]+=[^=].*,)\s*(?:#.*)?$", re.MULTILINE
)


class _Unsure(Exception):
    """The text does not read surely as code of the shape looked for."""


def read_edit(changes: list[tuple[Change, list[Hunk]]]) -> AnnotationEdit | None:
    """What a change does to type annotations, where that is all it does to its files (Python
    files, none new, deleted or renamed); None otherwise, or where no annotation differs."""
    if not changes or any(not _readable(change) for change, _ in changes):
        return None
    hunks = []
    for change, found in changes:
        for hunk in found:
            old, new = (
                _read_sides(change.file_path, _lines(hunk, "-")),
                _read_sides(change.file_path, _lines(hunk, "+")),
            )
            if not any(_code(a) == _code(b) for a, b in _paired(old, new)):
                return None  # other code differs, whichever aliases are taken for types: read no further
            hunks.append((old, new))
    olds, news = [s for old, _ in hunks for s in old], [s for _, new in hunks for s in new]
    typed_old, typed_new = _typed(olds), _typed(news)
    bound_old = set().union(*(old[0].imported for old, _ in hunks))
    bound_new = set().union(*(new[0].imported for _, new in hunks))
    if any(not _uses(typed_new, n) for n in bound_new - bound_old):
        return None  # an import the code uses
    if any(not _uses(typed_old, n) for n in bound_old - bound_new):
        return None
    edit = AnnotationEdit()
    for old, new in hunks:
        read = [(_read(a, typed_old), _read(b, typed_new)) for a, b in _paired(old, new)]
        same = next(((before, after) for before, after in read if before[0] == after[0]), None)
        if same is None:
            return None
        _compare(same[0][1], same[1][1], edit)
    return edit if edit.added or edit.removed or edit.changed else None


def _code(side: Side) -> list[tuple[str, ...]]:
    """The statements left were everything shaped as an alias one: sides that differ in these
    differ however their aliases are read."""
    return [s.kept for s in side.statements if not s.shaped]


def _paired(old: list[Side], new: list[Side]) -> list[tuple[Side, Side]]:
    """The readings of a hunk's two sides to compare: the first of each, then the second."""
    return [(old[min(i, len(old) - 1)], new[min(i, len(new) - 1)]) for i in range(max(len(old), len(new)))]


def _readable(change: Change) -> bool:
    return (
        change.status == "modified"
        and not change.binary
        and change.old_mode == change.new_mode
        and PurePosixPath(change.file_path).suffix in SUFFIXES | TS_SUFFIXES
    )


def _read_sides(path: str, text: str) -> list[Side]:
    if PurePosixPath(path).suffix in TS_SUFFIXES:
        return ts_type_hints.sides(text)
    return _sides(text)


def _lines(hunk: Hunk, sign: str) -> str:
    return "\n".join(line[1:] for line in hunk.lines if line[:1] in (" ", sign))


def _typed(sides: list[Side]) -> str:
    """What a side's annotations write (an alias's own type too), to look names up in."""
    return " ".join(
        a.text for side in sides for s in side.statements for a in [t for _, t in s.annotations] + [s.alias] if a
    )


def _uses(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}\b", text) is not None


def _read(side: Side, typed: str) -> tuple[list[tuple[str, ...]], dict[tuple, Annotation]]:
    """The statements left, and each annotation by where it stood; an alias no annotation of the
    side uses is code (``x = a[0]``)."""
    kept: list[tuple[str, ...]] = []
    found: dict[tuple, Annotation] = {}
    for statement in side.statements:
        alias = statement.alias
        if alias is not None and (statement.evident or _uses(typed.replace(alias.text, " "), alias.target)):
            found[(len(kept), -1, alias.target)] = alias
            continue
        for at, annotation in statement.annotations:
            found[(len(kept), at, annotation.target)] = annotation
        kept.append(statement.kept)
    return kept, found


def _compare(before: dict[tuple, Annotation], after: dict[tuple, Annotation], edit: AnnotationEdit) -> None:
    for key, annotation in after.items():
        was = before.get(key)
        if was is None:
            edit.added.append(annotation)
        elif was.text != annotation.text:
            edit.changed.append((was, annotation))
    edit.removed += [a for key, a in before.items() if key not in after]


def _sides(text: str) -> list[Side]:
    """The readings of a hunk's side: as it is; where it holds triple quotes, as starting inside
    a string they close (a hunk that opens in a docstring); where a line reads as a parameter
    (``name: T = default,``, ``*,``, ``**kwargs: T``), also as inside a signature whose brackets
    it does not show (a dictionary's entries are never so)."""
    texts = [text]
    if (quotes := _TRIPLE.search(text)) and not _opens(text, quotes.start()):
        texts.append(quotes.group() + text)
    if _PARAMETER.search(text):
        texts += ["(" + t for t in texts]
    readings = [_tokens(t) for t in texts]
    sides = []
    for tokens in readings:
        try:
            sides.append(_side(tokens))
        except _Unsure:
            continue
    return sides


def _opens(text: str, at: int) -> bool:
    """Whether the triple quotes at ``at`` surely open a string: a docstring below a ``def``'s or
    a ``class``'s line, or a value (after ``=``, ``(``, ``,``, ``return``)."""
    line_start = text.rfind("\n", 0, at) + 1
    before = text[line_start:at].rstrip().rstrip("rRbBuUfF")
    if before:
        return before.endswith(("=", "(", ",", "[", "{", "return", ":"))
    above = [line for line in text[:line_start].splitlines() if line.strip()]
    return bool(above) and above[-1].rstrip().endswith(":")


def _side(tokens: list[Token]) -> Side:
    side = Side()
    for statement, opened, sure in _statements(tokens):
        words = [t.text for t in statement if t.kind != "nl"]
        if sure and words[0] in ("import", "from"):
            side.imported.update(_imported(words))
        elif sure and tuple(words) in (_TYPE_CHECKING, ("if", "typing", ".", "TYPE_CHECKING", ":")):
            continue
        elif not sure and opened == ["("] and _import_tail(words):  # ``from x import (`` begun above
            side.imported.update(w for w in words if w not in (",", ")"))
        else:
            kept, annotations = _strip(statement, opened, sure)
            alias = _alias(kept, annotations) if sure else None
            evident = alias is not None and _evident(alias)
            shaped = alias is not None or _alias_shaped(kept) is not None
            side.statements.append(Statement(tuple(kept), annotations, alias, evident, shaped))
    return side


def _tokens(text: str) -> list[Token]:
    found = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        if kind == "space" or kind == "comment" and _DIRECTIVE.match(m.group()):
            continue  # a type checker's or a linter's directive, as annotations are theirs
        found.append(Token(kind, m.group().rstrip() if kind == "comment" else m.group()))
    return found


def _outer(tokens: list[Token]) -> list[str]:
    """The brackets the text starts inside of, outermost first, as the closers it holds no
    opener for show."""
    stack: list[str] = []
    unmatched: list[str] = []
    for token in tokens:
        if token.kind != "op":
            continue
        if token.text in "([{":
            stack.append(token.text)
        elif token.text in OPENERS:
            if not stack:
                unmatched.append(OPENERS[token.text])
            elif stack.pop() != OPENERS[token.text]:
                raise _Unsure
    return unmatched[::-1]


def _statements(tokens: list[Token]) -> list[tuple[list[Token], list[str], bool]]:
    """The logical lines, each with the brackets open where it starts and whether it surely
    starts a statement (not the rest of one begun above the text, nor after a line ending in
    a comma: a dictionary's or a signature's items whose brackets the text does not show)."""
    stack = _outer(tokens)
    found: list[tuple[list[Token], list[str], bool]] = []
    current: list[Token] = []
    opened, sure, last = list(stack), not stack, ""
    for token in tokens:
        if token.kind == "nl":
            if not stack and current and last != "\\":
                found.append((current, opened, sure))
                current, opened, sure = [], [], last != ","
            elif current:
                current.append(token)
            continue
        if token.kind == "op" and token.text in "([{":
            stack.append(token.text)
        elif token.kind == "op" and token.text in OPENERS and stack:
            stack.pop()
        elif token.text == ";" and not stack:
            found.append((current, opened, sure))
            current, opened, sure = [], [], True
            continue
        current.append(token)
        last = token.text
    if current:
        found.append((current, opened, sure))
    return found


def _imported(words: list[str]) -> list[str]:
    """The names an import binds, where it is not from ``typing`` (``a as b``: ``b``)."""
    if words[0] == "from":
        if "import" not in words:
            raise _Unsure
        at = words.index("import")
        if "".join(words[1:at]) in TYPING_MODULES:
            return []
        names = [w for w in words[at + 1 :] if w not in ("(", ")", ",")]
    else:  # ``import typing`` (``as t``) binds the typing module: the annotations' own
        names = [w for w in words[1:] if w != ","]
        if names and names[0] in TYPING_MODULES and (len(names) == 1 or names[1] == "as"):
            return []
    bound: list[str] = []
    for i, name in enumerate(names):
        if name == "as":
            continue
        if i and names[i - 1] == "as":
            bound[-1] = name
        elif name != ".":
            bound.append(name)
    return [name.split(".")[0] for name in bound if name != "*"] + (["*"] if "*" in names else [])


def _import_tail(words: list[str]) -> bool:
    """Names and commas, then the ``)`` they close: the rest of ``from x import (``."""
    return len(words) > 1 and words[-1] == ")" and all(re.fullmatch(r"\w+|,", w) for w in words[:-1])


def _strip(tokens: list[Token], opened: list[str], sure: bool) -> tuple[list[str], list[tuple[int, Annotation]]]:
    """The statement's tokens without its annotations (nor the trailing comma a line break
    parts from its closing bracket), and the annotations, each with the index it stood at."""
    kept: list[str] = []
    found: list[tuple[int, Annotation]] = []
    stack = list(opened)
    lambdas: list[int] = []  # the depths a ``lambda`` awaits its colon at
    seen: list[Token] = []  # the statement's tokens so far, line breaks aside
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.kind == "nl":
            i += 1
            continue
        text = token.text
        if token.kind == "name" and text == "lambda":
            lambdas.append(len(stack))
        elif token.kind == "op" and text == "->":
            end = _end(tokens, i + 1, (":",))
            if annotation := _annotation(RETURN, tokens[i + 1 : end], seen):
                found.append((len(kept), annotation))
                i = end
                continue
        elif token.kind == "op" and text == ":":
            if lambdas and lambdas[-1] == len(stack):
                lambdas.pop()
            elif target := _target(seen, stack, sure):
                end = _end(tokens, i + 1, (",", "="))
                entry = not stack and end < len(tokens) and tokens[end].text == ","  # a dictionary's ``a: b,``
                if not entry and (annotation := _annotation(target, tokens[i + 1 : end], seen)):
                    found.append((len(kept), annotation))
                    i = end
                    continue
        elif token.kind == "op" and text in "([{":
            stack.append(text)
        elif token.kind == "op" and text in OPENERS:
            if stack:
                stack.pop()
            if kept and kept[-1] == "," and tokens[i - 1].kind == "nl":
                kept.pop()  # the trailing comma of items spread over lines
        kept.append(text)
        if token.kind != "comment":
            seen.append(token)
        i += 1
    return kept, found


TARGET_TOKENS = 9  # ``a.b.c.d.e``: a variable's name is no longer


def _target(seen: list[Token], stack: list[str], sure: bool) -> str | None:
    """The parameter or variable a colon types: a name after ``(``, ``,`` or ``*`` inside a
    signature's brackets, or a statement's ``name: T``, ``self.name: T``; else None."""
    if not seen or seen[-1].kind != "name" or seen[-1].text in _KEYWORDS:
        return None
    if stack:
        if stack[-1] != "(":
            return None  # a slice, a dictionary's entry
        prior = seen[-2].text if len(seen) > 1 else None
        return seen[-1].text if prior in (None, "(", ",", "*", "**") else None
    if not sure or len(seen) % 2 == 0 or len(seen) > TARGET_TOKENS:
        return None
    names, dots = seen[0::2], seen[1::2]
    if any(t.kind != "name" for t in names) or any(t.text != "." for t in dots):
        return None
    return None if names[0].text in _KEYWORDS else seen[-1].text


def _end(tokens: list[Token], start: int, ends: tuple[str, ...]) -> int:
    """Where an annotation from ``start`` ends: at one of ``ends`` or a closing bracket at its own
    depth, a comment, or the statement's end."""
    depth = 0
    for i in range(start, min(len(tokens), start + ANNOTATION_TOKENS)):
        token = tokens[i]
        if token.kind == "comment" and depth == 0:
            return i
        if token.kind != "op":
            continue
        if token.text in "([{":
            depth += 1
        elif token.text in OPENERS:
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and token.text in ends:
            return i
    return min(len(tokens), start + ANNOTATION_TOKENS)


def _annotation(target: str, tokens: list[Token], seen: list[Token]) -> Annotation | None:
    """An annotation, where what follows the colon or arrow reads as a type (else it is no
    annotation: ``handler(request) -> response`` in a docstring's text); with the function
    whose signature holds it, where the statement shows it."""
    if len(tokens) >= ANNOTATION_TOKENS:
        return None
    words = [t.text for t in tokens if t.kind not in ("nl", "comment")]
    text = _spaced(words)
    if not words or not _is_type(text):
        return None
    names = [t.text for t in seen[:3]]
    at = names.index("def") + 1 if "def" in names[:2] else 0
    return Annotation(target, text, function=names[at] if at and at < len(names) else None)


def _spaced(words: list[str]) -> str:
    """Tokens written out as a type is: ``Dict[str, int] | None``."""
    text = ""
    for word in words:
        if word in (",", "|"):
            text += ", " if word == "," else " | "
        elif text[-1:].isalnum() and (word[:1].isalnum() or word[:1] in "_'\""):
            text += " " + word
        else:
            text += word
    return text.strip()


def _is_type(text: str, calls: bool = False) -> bool:
    """Names, attributes, subscripts, ``|``, literals (and, for an alias, ``TypeVar(...)``)."""
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    for node in ast.walk(tree.body):
        if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.BitOr):
            return False
        if isinstance(node, ast.Call):
            if not calls or _called(node.func) not in _TYPE_CALLS:
                return False
        elif isinstance(node, ast.Constant) and not isinstance(node.value, str | int | bool | type(None) | type(...)):
            return False
        elif not isinstance(node, _TYPE_NODES + (ast.keyword, ast.expr_context)):
            return False
    return True


def _called(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _alias(kept: list[str], annotations: list[tuple[int, Annotation]]) -> Annotation | None:
    """``Factory = Callable[..., Client]``, ``T = TypeVar("T")``, ``X: TypeAlias = ...``: a name
    given a type (``_alias_shaped``), annotated with nothing but ``TypeAlias``; else None."""
    if annotations and [a.text for _, a in annotations] not in (["TypeAlias"], ["typing.TypeAlias"]):
        return None
    return _alias_shaped(kept)


def _alias_shaped(kept: list[str]) -> Annotation | None:
    """What a statement's tokens alone say: a name given a type written with brackets or ``|``
    (``x = y`` binds a name, no type)."""
    if len(kept) < 3 or kept[1] != "=" or not re.fullmatch(r"[^\W\d]\w*", kept[0]) or kept[0] in _KEYWORDS:
        return None
    value = _spaced(kept[2:])
    if not any(mark in value for mark in "[(|"):
        return None
    return Annotation(kept[0], value, alias=True) if _is_type(value, calls=True) else None


def subjects(
    edit: AnnotationEdit, defs: list[str], files: list[str], tests: bool, q: Callable[[str], str]
) -> list[str]:
    """Wordings, the most detailed first, in the words public histories title such changes with:
    ``add type hints to test_x.py`` (tests by their file), ``remove type hints from parse``,
    ``change headers type annotation in JSONResponse``, ``change the return type of render``,
    ``add a type annotation to encoding in WebSocketEndpoint``, ``update type hints in a.py``.
    ``defs``: the definitions the change edits in, named only where it is one; ``files`` as named."""
    one = defs[0] if len(defs) == 1 and not tests else None
    inside = [q(one)] if one else []
    added, removed, changed = len(edit.added), len(edit.removed), len(edit.changed)
    if added + removed + changed == 1 and (edit.changed or edit.added):
        old, new = edit.changed[0] if edit.changed else (None, edit.added[0])
        verb = "change" if old else "add"
        if new.target == RETURN:
            named = _function(new, one)
            what, joint = ("the return type", "of") if old else ("a return type", "to")
            return [f"{verb} {what} {joint} {q(named)}" for named in [named] if named] + [
                f"{verb} {what} in {f}" for f in files
            ]
        noun = "type alias" if new.alias else "type annotation"
        what = f"{q(new.target)} {noun}" if old else f"a {noun} to {q(new.target)}"
        return [f"{verb} {what} in {w}" for w in inside + files] + [f"{verb} {what}"]
    where = inside + files
    if added > GROWS * (removed + changed):
        return [f"add type hints to {w}" for w in where] + ["add type hints"]
    if removed > GROWS * (added + changed):
        return [f"remove type hints from {w}" for w in where] + ["remove type hints"]
    return [f"update type hints in {w}" for w in where] + ["update type hints"]


GROWS = 3  # annotations added at least this many times the others changed or removed: hints added


def _function(annotation: Annotation, one: str | None) -> str | None:
    """The function a return type is of; a special method by its class too (``Client.__enter__``)."""
    named = annotation.function
    if named and named.startswith("__") and named.endswith("__") and one and one != named:
        return f"{one}.{named}"
    return named or one


def _evident(alias: Annotation) -> bool:
    """A type by its looks alone: a generic's parameters (``typing.Mapping[str, Any]``,
    ``Callable[..., T]``, no index but a ``Literal``'s), or ``TypeVar(...)``."""
    node = ast.parse(alias.text, mode="eval").body
    if isinstance(node, ast.Call):
        return True
    if not isinstance(node, ast.Subscript) or re.search(r"(?<![\w.])\d", alias.text) and "Literal[" not in alias.text:
        return False
    base = node.value
    while isinstance(base, ast.Attribute) and not isinstance(base.value, ast.Name):
        base = base.value
    if isinstance(base, ast.Attribute):
        return isinstance(base.value, ast.Name) and base.value.id in ("typing", "t", "typing_extensions", "abc")
    return isinstance(base, ast.Name) and (base.id[:1].isupper() or base.id in _GENERICS)


_GENERICS = {"list", "dict", "tuple", "set", "frozenset", "type"}
