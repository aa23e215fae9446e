"""TypeScript's type annotations taken out of a hunk's side, as ``type_hints`` does for Python.

Taken out: a parameter's ``: T`` (``x: T``, ``x?: T``, after ``(``, ``,``,
``...`` or an access modifier inside a signature's brackets), a return type
(``): T`` before ``{``, ``=>`` or ``;``), a declaration's ``: T`` (``const x:
T =``, a class or interface member ``name?: T;``), a type alias (``type X =
...;``) and the imports only annotations use; ``// @ts-ignore``-like comments
are set aside. A colon a pending ``?`` explains is a conditional's, one in an
object literal's braces is a key's: neither is an annotation. Each annotation
must read as a type (names, generics, unions, literals, object and function
types), or it is none.
"""

from __future__ import annotations

import re

from segmint_core.planning.hint_sides import ANNOTATION_TOKENS, OPENERS, RETURN, Annotation, Side, Statement, Token

_TOKEN = re.compile(
    r"""(?P<comment>//[^\n]*|/\*.*?(?:\*/|$))
    |(?P<string>"(?:[^"\\\n]|\\.)*(?:"|$)|'(?:[^'\\\n]|\\.)*(?:'|$)|`(?:[^`\\]|\\.)*(?:`|$))
    |(?P<name>[A-Za-z_$][\w$]*)
    |(?P<number>\d[\w.]*)
    |(?P<op>=>|\.\.\.|\?\?=?|\?\.(?!\d)|===|!==|==|!=|<=|>=|&&=?|\|\|=?|\*\*=?|\+\+|--|[-+*/%&|^]=
        |>>>?|<<|[-+*/%&|^~<>!?=.,:;()\[\]{}@#])
    |(?P<nl>\n)
    |(?P<space>[ \t\f\r]+)
    |(?P<other>.)""",
    re.VERBOSE | re.DOTALL,
)
_DIRECTIVE = re.compile(r"(?://|/\*)\s*(?:@ts-(?:ignore|expect-error|nocheck)|eslint-disable)")
_MODIFIERS = {"public", "private", "protected", "readonly", "static", "declare", "abstract", "override", "export"}
_DECLARES = {"let", "const", "var"}
# Tokens after which a ``{`` opens an object literal, not a block.
_OBJECT_AFTER = {"=", "(", "[", ",", ":", "?", "return", "??", "||", "&&", "!", "...", "in", "of", "yield", "await"}
# What a type may hold besides names, strings and numbers.
_TYPE_OPS = {".", "<", ">", ">>", ">>>", "[", "]", "(", ")", "{", "}", ",", ";", ":", "?", "|", "&", "=>", "...", "-"}
_STATEMENT_ENDS = {";", "{", "}"}
_CONTINUES = {",", "=", "|", "&", "=>", ".", "+", "-", "*", "/", "?", ":", "&&", "||", "??", "(", "[", "<"}


def sides(text: str) -> list[Side]:
    """The side as one statement of its tokens (an object literal's braces and a block's known
    across its lines), its imports and type aliases set aside."""
    tokens = _tokens(text)
    side = Side()
    rest: list[Token] = []
    aliases: list[tuple[int, Annotation]] = []
    for statement in _statements(tokens):
        words = [t.text for t in statement if t.kind != "nl"]
        if words and words[0] == "import":
            side.imported.update(_imported(words))
        elif alias := _alias(words):
            aliases.append((len(rest), alias))
        else:
            rest += statement + [Token("nl", "\n")]
    kept, found = _strip(rest)
    side.statements.append(Statement(tuple(kept), found))
    side.statements += [Statement((), [], alias, True, True) for _, alias in aliases]
    return [side]


def _tokens(text: str) -> list[Token]:
    found = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        if kind == "space" or kind == "comment" and _DIRECTIVE.match(m.group()):
            continue
        found.append(Token(kind, m.group().rstrip() if kind == "comment" else m.group()))
    return found


def _statements(tokens: list[Token]) -> list[list[Token]]:
    """Statements as ``;`` and line ends part them (a line end where no bracket is left open
    and neither side of it carries the expression on), to find imports and aliases in."""
    found: list[list[Token]] = []
    current: list[Token] = []
    head: list[str] = []  # the statement's first two words
    last: str | None = None  # and its last
    depth = 0
    following = _following(tokens)
    for i, token in enumerate(tokens):
        generic = head[:1] == ["type"] or head == ["export", "type"]  # ``<`` opens a type's parameters
        if token.kind == "nl":
            if last and depth <= 0 and last not in _CONTINUES and following[i] not in _CONTINUES | {">"}:
                found.append(current)
                current, head, last = [], [], None
                continue
        elif token.kind == "op" and (token.text in "([{" or generic and token.text == "<"):
            depth += 1
        elif token.kind == "op" and (token.text in ")]}" or generic and token.text in (">", ">>", ">>>")):
            depth -= len(token.text) if token.text.startswith(">") else 1
        current.append(token)
        if token.kind != "nl":
            last = token.text
            if len(head) < 2:
                head.append(token.text)
        if token.kind == "op" and token.text == ";" and depth <= 0:
            found.append(current)
            current, head, last = [], [], None
    if current:
        found.append(current)
    return found


def _following(tokens: list[Token]) -> list[str | None]:
    """For each token, the text of the next one that is no line end."""
    found: list[str | None] = [None] * len(tokens)
    upcoming: str | None = None
    for i in range(len(tokens) - 1, -1, -1):
        found[i] = upcoming
        if tokens[i].kind != "nl":
            upcoming = tokens[i].text
    return found


def _imported(words: list[str]) -> list[str]:
    """``import { A, B as C } from "x"``: ``A``, ``C``; ``import * as D``: ``D``; ``import type`` alike."""
    if "from" not in words:
        return []  # ``import "./polyfill"``: binds nothing
    names = [w for w in words[1 : words.index("from")] if w not in ("{", "}", ",", "type")]
    bound: list[str] = []
    for i, name in enumerate(names):
        if name == "as":
            continue
        if i and names[i - 1] == "as" and bound:
            bound[-1] = name
        else:
            bound.append(name)
    return [name for name in bound if name != "*"]


def _alias(words: list[str]) -> Annotation | None:
    """``type Handler = (req: Request) => void;``, exported or not."""
    if words[:1] == ["export"]:
        words = words[1:]
    if len(words) < 4 or words[0] != "type" or "=" not in words:
        return None
    value = words[words.index("=") + 1 :]
    if value and value[-1] == ";":
        value = value[:-1]
    return Annotation(words[1], " ".join(value), alias=True) if _is_type(value) else None


def _strip(tokens: list[Token]) -> tuple[list[str], list[tuple[int, Annotation]]]:
    """The statement's tokens without its annotations, and the annotations by index."""
    kept: list[str] = []
    found: list[tuple[int, Annotation]] = []
    stack: list[str] = []  # "(", "[", "{" of an object literal, "block"
    pending: list[int] = []  # depths a conditional's ``?`` awaits its ``:`` at
    marks = {"end": -1, "case": -1, "?": -1}  # where in ``kept`` each was written last
    following = _following(tokens)
    i = 0
    while i < len(tokens):
        token, text = tokens[i], tokens[i].text
        before = kept[-1] if kept else None
        if token.kind == "op" and text == "?" and following[i] != ":":
            pending.append(len(stack))
        elif token.kind == "op" and text == ":":
            if pending and pending[-1] == len(stack):
                pending.pop()
            elif (target := _target(kept, stack, before, marks)) is not None:
                end = _end(tokens, i + 1, target, following)
                words = [t.text for t in tokens[i + 1 : end] if t.kind != "nl"] if end - i <= ANNOTATION_TOKENS else []
                member = not stack or stack[-1] == "block"
                closed = end < len(tokens) and tokens[end].text in (";", "=")  # not an object's ``a: b,``
                if _is_type(words) and (target == RETURN or not member or closed or _declared(kept)):
                    optional = kept[-1] == "?"
                    if optional:
                        kept.pop()  # ``x?: T``: optional, which its annotation says
                    found.append((len(kept), Annotation(target, ("?" if optional else "") + " ".join(words))))
                    i = end
                    continue
        elif token.kind == "op" and text in "([":
            stack.append(text)
        elif token.kind == "op" and text == "{":
            stack.append("{" if before in _OBJECT_AFTER else "block")
        elif token.kind == "op" and text in OPENERS:
            if stack:
                stack.pop()
            if before == "," and tokens[i - 1].kind == "nl":
                kept.pop()  # the trailing comma of items spread over lines
        if token.kind != "nl":
            kept.append(text)
            if text in _STATEMENT_ENDS:
                marks["end"] = len(kept) - 1
            elif text in ("case", "?"):
                marks[text] = len(kept) - 1
        i += 1
    return kept, found


def _target(kept: list[str], stack: list[str], before: str | None, marks: dict[str, int]) -> str | None:
    """What a colon types: a parameter, a function's return, a declared name or member; else None."""
    top = stack[-1] if stack else None
    if top == "{" or top == "[":
        return None  # an object literal's key
    if before == ")":  # a return type, unless ``case f(x):`` or a conditional's ``?`` came first
        return None if max(marks["case"], marks["?"]) > marks["end"] else RETURN
    at = len(kept) - 1 - (before in ("?", "!"))
    if at < 0 or not re.fullmatch(r"[A-Za-z_$][\w$]*", kept[at]):
        return None
    name, at = kept[at], at - 1
    while at >= 0 and kept[at] in _MODIFIERS:
        at -= 1
    prior = kept[at] if at >= 0 else None
    if top == "(":
        return name if prior in ("(", ",", "...") else None
    return name if prior in _DECLARES or prior in (None, ";", "{", "}") else None


def _declared(kept: list[str]) -> bool:
    """``const x``, ``let y!``: a name a declaration gives a type."""
    at = len(kept) - 2 - (kept[-1:] in (["?"], ["!"]))
    return at >= 0 and kept[at] in _DECLARES


def _end(tokens: list[Token], start: int, target: str, following: list[str | None]) -> int:
    """Where an annotation from ``start`` ends: a return type at ``{``, ``=>`` or ``;``, any other
    at ``,``, ``=``, ``;`` or a closing bracket, at its own depth (``<>`` counted)."""
    depth = 0
    ends = ("{", "=>", ";", "=") if target == RETURN else (",", "=", ";", ")", "]", "}")
    for i in range(start, min(len(tokens), start + ANNOTATION_TOKENS)):
        token = tokens[i]
        if token.kind == "nl":
            if depth == 0 and target != RETURN and i > start and following[i] not in ("|", "&"):
                return i
            continue
        text = token.text
        if depth == 0 and text in ends and token.kind == "op" and not (text == "{" and i == start):
            return i
        if text in ("(", "[", "{", "<"):
            depth += 1
        elif text in (")", "]", "}", ">"):
            depth -= 1
        elif text == ">>":
            depth -= 2
        elif text == ">>>":
            depth -= 3
        if depth < 0:
            return i
    return min(len(tokens), start + ANNOTATION_TOKENS)


def _is_type(words: list[str]) -> bool:
    """Names, generics, unions, literals, object and function types: no operator of a value."""
    if not words:
        return False
    depth = 0
    for word in words:
        if word[:1] in "\"'`" or word[:1].isdigit():
            continue
        if re.fullmatch(r"[A-Za-z_$][\w$]*", word):
            continue
        if word not in _TYPE_OPS:
            return False
        depth += word in ("(", "[", "{", "<") or 0
        depth -= {")": 1, "]": 1, "}": 1, ">": 1, ">>": 2, ">>>": 3}.get(word, 0)
        if depth < 0:
            return False
    return depth == 0
