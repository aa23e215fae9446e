"""Hypothesis strategies for random files and random edits to them."""

from __future__ import annotations

import os
import shutil

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
    """Make ``repo`` hold the story: commit base, stage, then edit the work tree (and what
    ``hardened_story`` adds: links, a rename, executable bits, intent-to-add entries then moved,
    deleted or made links, files made folders and folders made files, line endings git converts)."""
    links = story.get("links", {})
    base = dict(story["base"])
    if story.get("eol") == "autocrlf":
        repo.git("config", "core.autocrlf", "true")
    elif story.get("eol") == "text_auto":
        base[".gitattributes"] = "* text=auto\n" + base.get(".gitattributes", "")
    for name, text in base.items():
        repo.write(name, text)
    for name, (target, _) in links.items():
        if target is not None:
            os.symlink(target, repo.path / name)
    repo.commit("base")
    if "renamed" in story:
        repo.git("mv", "--", *story["renamed"])
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
    for name, (_, target) in links.items():
        (repo.path / name).unlink(missing_ok=True)
        if target is not None:
            os.symlink(target, repo.path / name)
    for name in story.get("executable", []):
        (repo.path / name).chmod(0o755)
    if story.get("intent"):
        repo.git("add", "--intent-to-add", "--", *story["intent"])
    for op, name, *to in story.get("after_intent", []):
        path = repo.path / name
        if op == "move":
            (repo.path / to[0]).parent.mkdir(parents=True, exist_ok=True)
            path.rename(repo.path / to[0])
        else:
            path.unlink()
            if op == "symlink":
                os.symlink(to[0], path)
    for name, how in story.get("swaps", []):
        path = repo.path / name
        if how == "file_to_folder":
            text = path.read_bytes()
            path.unlink()
            repo.write(f"{name}/inner.txt", text)
        else:
            shutil.rmtree(path)
            repo.write(name, "a file where a folder was\n")


# Lines that are not valid UTF-8, written as the bytes their surrogate escapes name.
NON_UTF8_LINES = st.sampled_from(["caf\udce9", "\udcff\udcfe", "x = '\udc80'"])
# What the reliability runs of issue 15 found wrong, each one a case a story may hold.
CASES = (
    "intent_to_add",
    "staged_then_reverted",
    "moved_non_utf8",
    "symlink",
    "mode_flip",
    "rename",
    "odd_name",
    "generated",
    "refusing_hook",
    # ... and what the runs of issue 34 found.
    "intent_moved",
    "generated_intent",
    "swap_tracked",
    "swap_staged",
    "swap_generated",
    "eol",
)


@st.composite
def moved_block(draw) -> tuple[str, str]:
    """A text with non-UTF-8 lines, and the same text with a block of lines (one at least not
    UTF-8) moved to another place."""
    rest = draw(st.lists(st.one_of(LINES, NON_UTF8_LINES), min_size=1, max_size=10))
    block = draw(st.lists(st.one_of(LINES, NON_UTF8_LINES), max_size=3)) + [draw(NON_UTF8_LINES)]
    start = draw(st.integers(0, len(rest)))
    end = draw(st.integers(0, len(rest)).filter(lambda at: at != start))
    text = lambda lines: "\n".join(lines) + "\n"  # noqa: E731
    return text(rest[:start] + block + rest[start:]), text(rest[:end] + block + rest[end:])


@st.composite
def hardened_story(draw) -> dict:
    """A ``worktree_story`` with some of ``CASES`` added: a file added with ``git add -N`` (maybe
    empty), one staged and then put back to HEAD's content in the work tree, lines that are not
    UTF-8 moved within a file, a symlink added, retargeted or removed, a mode flipped, a staged
    rename, a name holding a newline or a tab, a file ``.gitattributes`` marks generated, and a
    pre-commit hook that refuses its n-th run (``refuse``)."""
    story = draw(worktree_story())
    base, staged, work = story["base"], story["staged"], story["work"]
    cases = draw(st.sets(st.sampled_from(CASES), min_size=1))
    if "intent_to_add" in cases:
        work["ita.txt"] = draw(file_text())
        story["intent"] = ["ita.txt"]
    if "staged_then_reverted" in cases:
        text = draw(file_text(min_lines=1))
        base["reverted.txt"], staged["reverted.txt"], work["reverted.txt"] = text, text + "staged\n", text
    if "moved_non_utf8" in cases:
        base["moved.txt"], work["moved.txt"] = draw(moved_block())
        staged["moved.txt"] = base["moved.txt"]
    if "symlink" in cases:
        ends = draw(
            st.tuples(st.sampled_from([None, "a.py", "gone"]), st.sampled_from([None, "b.txt", "gone/too"])).filter(
                lambda pair: pair[0] != pair[1]
            )
        )
        story["links"] = {"link": list(ends)}
    if "mode_flip" in cases:
        kept = sorted(n for n in base if staged.get(n) is not None and work.get(n) is not None)
        if kept:
            story["executable"] = [draw(st.sampled_from(kept))]
    if "rename" in cases:
        text = draw(file_text(min_lines=3))
        base["old name.txt"] = text
        story["renamed"] = ["old name.txt", "new name.txt"]
        work["new name.txt"] = draw(st.sampled_from([text, text + "edited\n"]))
    if "odd_name" in cases:
        work[draw(st.sampled_from(["new\nline.txt", "tab\tname.txt"]))] = draw(file_text(min_lines=1))
    if "generated" in cases:
        base[".gitattributes"] = "data.json linguist-generated\n"
        records = draw(st.lists(st.integers(0, 99), min_size=1, max_size=20))
        base["data.json"] = "".join(f'{{"id": {n}}}\n' for n in records)
        work["data.json"] = "".join(f'{{"id": {n + 1}}}\n' for n in records)
    if "refusing_hook" in cases:
        story["refuse"] = draw(st.integers(1, 3))
    if "intent_moved" in cases:
        # A file added with -N, then moved, deleted, or made a link (to a file, or to nothing).
        work["later.txt"] = draw(file_text())
        story["intent"] = story.get("intent", []) + ["later.txt"]
        story["after_intent"] = [
            draw(
                st.sampled_from(
                    [
                        ("move", "later.txt", "moved/later.txt"),
                        ("delete", "later.txt"),
                        ("symlink", "later.txt", "a.py"),
                        ("symlink", "later.txt", "nowhere"),
                    ]
                )
            )
        ]
    if "generated_intent" in cases:
        work["package-lock.json"] = '{\n  "lockfileVersion": %d\n}\n' % draw(st.integers(1, 3))
        story["intent"] = story.get("intent", []) + ["package-lock.json"]
    swaps = []
    if "swap_tracked" in cases:  # a committed file made a folder, or a committed folder made a file
        if draw(st.booleans()):
            base["kept.txt"] = staged["kept.txt"] = work["kept.txt"] = draw(file_text(min_lines=1))
            swaps.append(("kept.txt", "file_to_folder"))
        else:
            base["held/x.txt"] = staged["held/x.txt"] = work["held/x.txt"] = draw(file_text(min_lines=1))
            swaps.append(("held", "folder_to_file"))
    if "swap_staged" in cases:  # a staged new file made a folder, or the folder of one made a file
        text = draw(file_text(min_lines=1))
        if draw(st.booleans()):
            staged["fresh.txt"] = work["fresh.txt"] = text
            swaps.append(("fresh.txt", "file_to_folder"))
        else:
            staged["fresh/t.py"] = work["fresh/t.py"] = text
            swaps.append(("fresh", "folder_to_file"))
    if "swap_generated" in cases:  # a lock file made a folder, or a build output's folder made a file
        if draw(st.booleans()):
            base["yarn.lock"] = staged["yarn.lock"] = work["yarn.lock"] = "a@1:\n  version 1\n"
            swaps.append(("yarn.lock", "file_to_folder"))
        else:
            base["dist/app.min.js"] = staged["dist/app.min.js"] = work["dist/app.min.js"] = "var a=1;\n"
            swaps.append(("dist", "folder_to_file"))
    if swaps:
        story["swaps"] = swaps
    if "eol" in cases:
        # Line endings only, which git converts: in the work tree, and removed from the index (git rm --cached).
        story["eol"] = draw(st.sampled_from(["autocrlf", "text_auto"]))
        lines = draw(st.lists(LINES.filter(lambda line: "\r" not in line), min_size=1, max_size=5))
        base["eol.txt"] = staged["eol.txt"] = "\n".join(lines) + "\n"
        work["eol.txt"] = "\r\n".join(lines) + "\r\n"
        if draw(st.booleans()):
            staged["eol.txt"] = None
    return story
