"""Hypothesis strategies for random files and random edits to them."""

from __future__ import annotations

from hypothesis import strategies as st

# A small alphabet of lines makes diffs with repeated context, the hard case.
LINES = st.sampled_from(
    ["", "a", "b", "c", "def f():", "    return 1", "x = 1", "x = 2", "# note", "}", "caf\u00e9", "tab\there"]
)


@st.composite
def file_text(draw, min_lines: int = 0, max_lines: int = 40) -> str:
    lines = draw(st.lists(LINES, min_size=min_lines, max_size=max_lines))
    text = "\n".join(lines)
    if lines and draw(st.booleans()):
        text += "\n"
    elif lines and draw(st.integers(0, 9)) == 0:
        text += "\r\n"
    return text


@st.composite
def edited(draw, text: str) -> str:
    """``text`` after a few random line replacements, insertions and deletions."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(0, 5))):
        op = draw(st.sampled_from(["replace", "insert", "delete"]))
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        if op == "insert" or not lines:
            lines.insert(at, draw(LINES))
        elif op == "replace":
            lines[at] = draw(LINES)
        else:
            del lines[at]
    return "\n".join(lines)


NAMES = st.sampled_from(["a.py", "b.txt", "dir/c.md", "dir/sub/d.py", "e f.txt", "caf\u00e9.txt"])


@st.composite
def worktree_story(draw) -> dict:
    """Base files, the staged versions, and the working-tree versions (None = deleted)."""
    names = draw(st.lists(NAMES, min_size=1, max_size=4, unique=True))
    base = {n: draw(file_text()) for n in names if draw(st.integers(0, 4))}
    staged: dict[str, str | None] = {}
    work: dict[str, str | None] = {}
    for n in names:
        before = base.get(n)
        roll = draw(st.integers(0, 9))
        if before is None:
            after_staged = draw(file_text()) if roll < 4 else None
        elif roll == 0:
            after_staged = None  # staged deletion
        elif roll < 6:
            after_staged = draw(edited(before))
        else:
            after_staged = before
        staged[n] = after_staged
        roll = draw(st.integers(0, 9))
        if after_staged is None:
            work[n] = draw(file_text()) if roll < 3 else None  # re-created or untracked
        elif roll == 0:
            work[n] = None
        elif roll < 7:
            work[n] = draw(edited(after_staged))
        else:
            work[n] = after_staged
    return {"base": base, "staged": staged, "work": work}


def build(repo, story: dict) -> None:
    """Make ``repo`` hold the story: commit base, stage, then edit the work tree."""
    for name, text in story["base"].items():
        repo.write(name, text)
    repo.commit("base")
    for name, text in story["staged"].items():
        path = repo.path / name
        if text is None:
            if path.exists():
                repo.git("rm", "-q", "--cached", "--", name)
                path.unlink()
        else:
            repo.write(name, text)
            repo.add(name)
    for name, text in story["work"].items():
        path = repo.path / name
        if text is None:
            if path.exists():
                path.unlink()
        else:
            repo.write(name, text)
