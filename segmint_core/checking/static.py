"""The zero-config check: what can be checked with nothing configured and nothing installed.

For each commit, the files it changes are read from its tree (never from the
work tree): every Python file must compile, a Go file pass ``gofmt -e`` and a
JavaScript file ``node --check`` where those are on the PATH. A file that fails
in the final tree too is not the commit's fault, and not counted against it.
And no name the commit's added lines use may be one only a later commit
defines: the names and definitions come from the units grouping reads (a
parse, for the languages it has grammars for), and a name HEAD already holds
anywhere is never counted (it may be defined there).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from segmint_core.apply.gitops import head_entries
from segmint_core.checking.models import FAILED, NOT_CHECKED, PASSED, ZERO_CONFIG, CheckResult, PlanSpec, SessionView
from segmint_core.checking.trees import CommitTree
from segmint_core.git import Git, read_blobs
from segmint_core.git_modes import FILE_MODES
from segmint_core.wording import shown

PYTHON = (".py", ".pyi")
GO = (".go",)
JAVASCRIPT = (".js", ".mjs", ".cjs")
CODE_KINDS = ("code", "test")  # grouping's lexicon.CODE, lexicon.TEST (grouping loads numpy: only when checking)


@dataclass
class Names:
    """What each commit's code units use on their added lines, and define there."""

    uses: dict[str, dict[str, str]] = field(default_factory=dict)  # commit id -> name -> a file using it
    defines: dict[str, dict[str, str]] = field(default_factory=dict)  # commit id -> name -> the file defining it
    parsed: dict[str, bool] = field(default_factory=dict)  # commit id -> has code units to read
    definers: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # commit id -> name -> its hunk ids


def names_of(view: SessionView, specs: list[PlanSpec]) -> Names:
    from segmint_core.grouping.syntax import SyntaxIndex
    from segmint_core.grouping.units import _names, build_units, definitions

    generated = set(view.changes.generated)
    changes = view.effective
    owner = {h: spec.id for spec in specs for h in spec.hunk_ids}
    found = Names()
    for spec in specs:
        found.uses[spec.id], found.defines[spec.id], found.parsed[spec.id] = {}, {}, False
    wanted = [c for c in changes if any(h.id in owner for h in c.hunks)]
    for unit in build_units(wanted, generated, SyntaxIndex(wanted, view.git, skip=generated)):
        hunk = unit.hunk
        plan = owner.get(hunk.id) if hunk is not None else None
        if hunk is None or plan is None or unit.kind not in CODE_KINDS:
            continue
        found.parsed[plan] = True
        added = _names(unit.path, unit.added) & unit.idents
        for name in sorted(added):
            found.uses[plan].setdefault(name, unit.path)
        for name in sorted(unit.defines - definitions(unit.removed)):
            found.defines[plan].setdefault(name, unit.path)
            held = found.definers.setdefault(plan, {}).setdefault(name, [])
            if hunk.id not in held:
                held.append(hunk.id)
    return found


def in_head(git: Git, tree: str | None, names: set[str]) -> set[str]:
    """The names among ``names`` written anywhere in ``tree`` (as whole words)."""
    if not names or tree is None:
        return set()
    args = ["grep", "-I", "-w", "-o", "-h", "-F"]
    for name in sorted(names):
        args += ["-e", name]
    found = git.run(*args, tree, check=False).text
    return {line.split(":", 1)[-1].strip() for line in found.splitlines()} & names


def needed_later(names: Names, specs: list[PlanSpec], git: Git, base: str | None) -> dict[str, dict[str, str]]:
    """commit id -> name it uses -> the later commit that defines it, when no commit up to it does
    and HEAD's tree never writes it."""
    ids = [s.id for s in specs]
    candidates: dict[str, dict[str, str]] = {}
    for k, commit in enumerate(ids):
        so_far = set().union(*(names.defines[i] for i in ids[: k + 1]))
        for name in names.uses[commit]:
            if name in so_far:
                continue
            later = next((j for j in ids[k + 1 :] if name in names.defines[j]), None)
            if later is not None:
                candidates.setdefault(commit, {})[name] = later
    known = in_head(git, base, {n for found in candidates.values() for n in found})
    out = {}
    for commit, found in candidates.items():
        missing = {n: j for n, j in found.items() if n not in known}
        if missing:
            out[commit] = missing
    return out


class FileChecks:
    """Whether a file's content passes its language's check, each content checked once."""

    def __init__(self, git: Git, scratch: Path) -> None:
        self.git = git
        self.scratch = scratch
        self.tools = {GO: shutil.which("gofmt"), JAVASCRIPT: shutil.which("node")}
        self._seen: dict[tuple[str, str], str | None] = {}

    def kind(self, path: str) -> tuple[str, ...] | None:
        for kind in (PYTHON, GO, JAVASCRIPT):
            if path.endswith(kind):
                return kind
        return None

    def missing_tool(self, path: str) -> str | None:
        kind = self.kind(path)
        if kind in self.tools and self.tools[kind] is None:
            return "gofmt" if kind == GO else "node"
        return None

    def error(self, path: str, oid: str, content: bytes) -> str | None:
        """The error the content has as ``path``, or None when it passes."""
        key = (os.path.splitext(path)[1], oid)
        if key not in self._seen:
            self._seen[key] = self._check(path, content)
        return self._seen[key]

    def _check(self, path: str, content: bytes) -> str | None:
        kind = self.kind(path)
        if kind == PYTHON:
            try:
                compile(content, path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as exc:
                line = getattr(exc, "lineno", None)
                return f"{shown(path)}{f':{line}' if line else ''}: {type(exc).__name__}: {getattr(exc, 'msg', exc)}"
            return None
        tool = self.tools.get(kind) if kind is not None else None
        if tool is None:
            return None
        if kind == GO:
            done = subprocess.run([tool, "-e"], input=content, capture_output=True, timeout=60)
        else:
            with tempfile.TemporaryDirectory(dir=self.scratch) as tmp:
                copy = Path(tmp) / os.path.basename(path)
                copy.write_bytes(content)
                done = subprocess.run([tool, "--check", str(copy)], capture_output=True, timeout=60)
        if done.returncode == 0:
            return None
        text = done.stderr.decode("utf-8", "replace").strip()
        return f"{shown(path)}: " + "\n".join(text.splitlines()[-10:])


def changed_blobs(git: Git, parent: str, tree: str) -> dict[str, str]:
    """path -> its new blob id, for the files ``tree`` adds or changes against ``parent``."""
    out = git.run("diff-tree", "-r", "-z", "--no-renames", parent, tree).stdout.split(b"\0")
    found = {}
    for meta, path in zip(out[0::2], out[1::2]):
        fields = meta.decode().split()
        if len(fields) >= 5 and fields[4] != "D" and fields[1] in FILE_MODES:
            found[path.decode("utf-8", "surrogateescape")] = fields[3]
    return found


def check_all(view: SessionView, trees: list[CommitTree], scratch: Path) -> list[CheckResult]:
    """The zero-config check of every commit (``trees`` in order; the last one's tree is the final tree)."""
    from segmint_core.grouping.syntax.languages import grammar_for

    git = view.git
    specs = [t.spec for t in trees]
    names = names_of(view, specs)
    later = needed_later(names, specs, git, trees[0].parent if trees else None)
    final = next((t.tree for t in reversed(trees) if t.tree), None)
    files = FileChecks(git, scratch)
    changed = {t.spec.id: changed_blobs(git, t.parent, t.tree) for t in trees if t.tree and t.parent}
    every = {oid for found in changed.values() for oid in found.values()}
    finals = head_entries(git, final, sorted({p for found in changed.values() for p in found})) if final else {}
    contents = read_blobs(git, sorted(every | {oid for _, oid in finals.values()}))
    results = []
    for tree in trees:
        if tree.tree is None:
            results.append(CheckResult(tree.spec.id, FAILED, ZERO_CONFIG, None, tree.error))
            continue
        results.append(
            _one(
                tree,
                changed.get(tree.spec.id, {}),
                names,
                later.get(tree.spec.id, {}),
                files,
                finals,
                contents,
                grammar_for,
            )
        )
    return results


def _one(
    tree: CommitTree,
    changed: dict[str, str],
    names: Names,
    later: dict[str, str],
    files: FileChecks,
    finals: dict[str, tuple[str, str]],
    contents: dict[str, bytes],
    grammar_for,
) -> CheckResult:
    commit = tree.spec.id
    errors: list[str] = []
    checked = bool(names.parsed.get(commit)) and any(grammar_for(p) for p in changed)
    unchecked: list[str] = []
    for path, oid in sorted(changed.items()):
        if files.kind(path) is None:
            continue
        tool = files.missing_tool(path)
        if tool is not None:
            unchecked.append(f"{shown(path)} ({tool} is not on the PATH)")
            continue
        error = files.error(path, oid, contents.get(oid, b""))
        if error is None:
            checked = True
            continue
        final = finals.get(path)
        if final is not None and files.error(path, final[1], contents.get(final[1], b"")) is not None:
            unchecked.append(f"{shown(path)} (it fails with every commit applied too)")
            continue
        checked = True
        errors.append(error)
    for name, holder in sorted(later.items()):
        errors.append(
            f"{shown(names.uses[commit][name])} uses `{name}`, which only {holder} defines "
            f"(in {shown(names.defines[holder][name])})"
        )
    needs = list(dict.fromkeys(later[name] for name in sorted(later)))
    if errors:
        return CheckResult(commit, FAILED, ZERO_CONFIG, tree.tree, "\n".join(errors), needs)
    if checked:
        note = f"not checked: {', '.join(unchecked)}" if unchecked else ""
        return CheckResult(commit, PASSED, ZERO_CONFIG, tree.tree, note)
    reason = (
        ", ".join(unchecked)
        if unchecked
        else "it changes no file the zero-config check reads (Python, Go, JavaScript, or code grouping parses)"
    )
    return CheckResult(commit, NOT_CHECKED, ZERO_CONFIG, tree.tree, f"not checked: {reason}")
