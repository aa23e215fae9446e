"""Offline commit messages: Conventional Commits, written the way a careful engineer would.

``type(scope): subject`` from the facts of the diff (``facts.gather``): the
type from what the paths and lines are, the scope from where they live, the
subject from the dominant change ("add validate_token_expiry", "rename
load_cfg to load_config"), and a body that says what changed per file and
why, where the diff says why (comments the author added, the group's reasons).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from segmint_core.planning.facts import Facts, is_build_path, is_ci_path, is_doc_path, is_test_path
from segmint_core.wording import counted

TITLE_LIMIT = 72
SHORT_SHA = 7
GENERIC_DIRS = {"src", "lib", "pkg", "app", "internal", "source", "python", "js", "ts", "go", "main", "java"}


def commit_type(facts: Facts) -> str:
    paths = facts.paths
    if not paths or len(facts.submodules) == len(paths):
        return "chore"
    code = [p for p in paths if not (is_test_path(p) or is_doc_path(p) or is_ci_path(p) or is_build_path(p))]
    if all(is_doc_path(p) for p in paths):
        return "docs"
    if all(is_ci_path(p) for p in paths):
        return "ci"
    if all(is_build_path(p) or is_ci_path(p) for p in paths):
        return "build"
    if all(is_test_path(p) for p in paths):
        return "test"
    if _only_deletions(facts):
        return "refactor" if code else "chore"
    if facts.whitespace_only:
        return "style"
    if facts.renames and not facts.added_defs or facts.moved_only or facts.renamed_files and not facts.added:
        return "refactor"
    if facts.code_added_defs or facts.options or any(p in facts.new_files for p in code):
        return "feat"
    if facts.removed_defs and not facts.added:
        return "refactor"
    if code and (facts.changed_defs or facts.removed):
        return "fix"
    return "chore"


def scope(facts: Facts) -> str | None:
    code = [p for p in facts.paths if not is_test_path(p)]
    if any(not is_doc_path(p) for p in code):
        code = [p for p in code if not is_doc_path(p)]   # the code a README edit documents sets the scope
    if not code and facts.paths:
        return _tested_module(facts.paths)
    paths = code
    if not paths:
        return None
    dirs = [PurePosixPath(p).parent.parts for p in paths]
    common: list[str] = []
    for parts in zip(*dirs):
        if len(set(parts)) != 1:
            break
        common.append(parts[0])
    meaningful = [part for part in common if part.lower() not in GENERIC_DIRS and not part.startswith(".")]
    if meaningful:
        return _clean_scope(meaningful[-1])
    if len(paths) == 1:
        return _clean_scope(PurePosixPath(paths[0]).stem)
    return None


def _tested_module(paths: list[str]) -> str | None:
    """``tests/test_config.py`` -> ``config``: tests are scoped by what they test."""
    stems = set()
    for path in paths:
        stem = PurePosixPath(path).stem.lower()
        for affix in ("test_", "_test", ".test", ".spec", "_spec", "tests_", "_tests"):
            stem = stem.removeprefix(affix) if affix.endswith("_") else stem.removesuffix(affix)
        if stem and stem not in ("conftest", "test", "tests"):
            stems.add(stem)
    return _clean_scope(stems.pop()) if len(stems) == 1 else None


def _clean_scope(name: str) -> str:
    name = name.lower().lstrip("._")
    for suffix in ("_core", "-core"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    return name.replace("_", "-") or "repo"


def subject(kind: str, facts: Facts) -> str:
    if facts.submodules and len(facts.submodules) == len(facts.paths):
        return _submodule_subject(facts)
    if _only_deletions(facts):
        return f"remove {_names_of_files(facts.paths)}"
    if kind == "docs":
        if facts.headings:
            return f"document {_quote_list(facts.headings[:2], plain=True)}"
        return f"update {_names_of_files(facts.paths)}"
    if kind == "test":
        targets = [d[len("test_"):] for d in facts.added_defs if d.startswith("test_")]
        if targets:
            return f"add tests for {_quote_list(targets)}"
        return f"update tests in {_names_of_files(facts.paths)}"
    if kind == "style":
        return f"format {_names_of_files(facts.paths)}"
    if kind == "build" and facts.bumps:
        name, version = facts.bumps[0]
        return f"bump {name} to {version}"
    if kind in ("build", "ci"):
        return f"update {_names_of_files(facts.paths)}"
    if kind == "refactor":
        if facts.renames:
            old, new = facts.renames[0]
            return f"rename {old} to {new}"
        if facts.renamed_files:
            old, new = facts.renamed_files[0]
            return f"move {PurePosixPath(old).name} to {new}"
        if facts.removed_defs:
            return f"remove {_quote_list(facts.removed_defs)}"
        return f"restructure {_quote_list(facts.changed_defs) if facts.changed_defs else _names_of_files(facts.paths)}"
    if kind == "feat":
        if facts.options:
            flags = _quote_list(facts.options)
            target = f" to {facts.changed_defs[0]}" if len(facts.changed_defs) == 1 else ""
            return f"add {flags} option{'s' if len(facts.options) > 1 else ''}{target}"
        if facts.code_added_defs:
            return f"add {_quote_list(facts.code_added_defs)}"
        return f"add {_names_of_files(facts.new_files or facts.paths)}"
    if kind == "fix":
        where = _quote_list(facts.changed_defs) if facts.changed_defs else _names_of_files(facts.paths)
        if facts.handles:
            return f"handle {facts.handles[0]} in {where}"
        if facts.raises:
            return f"raise {facts.raises[0]} in {where}"
        if facts.imports:
            return f"use {_quote_list(facts.imports)} in {where}"
        return f"correct {where}"
    return f"update {_names_of_files(facts.paths)}"


def _only_deletions(facts: Facts) -> bool:
    return bool(facts.paths) and set(facts.paths) <= set(facts.deleted_files)


def _submodule_subject(facts: Facts) -> str:
    """Pointer changes named by path and short commit id (never read as code)."""
    if len(facts.submodules) > 1:
        return f"update submodules {_names_of_files([p for p, _, _ in facts.submodules])}"
    path, old, new = facts.submodules[0]
    if path in facts.deleted_files:
        return f"remove submodule {path}"
    if old is None:
        return f"add submodule {path}" + (f" at {new[:SHORT_SHA]}" if new else "")
    return f"update submodule {path}" + (f" to {new[:SHORT_SHA]}" if new else "")


def body(facts: Facts, reasons: list[str], per_file: list[tuple[str, int, int, list[str]]]) -> str:
    """What changed, per file, and why where the diff says it."""
    lines: list[str] = []
    for path, added, removed, names in per_file:
        what = f"{path} (+{added} -{removed})"
        if names:
            what += f": {', '.join(names[:4])}" + (" and more" if len(names) > 4 else "")
        lines.append(f"- {what}")
    why = [c[0].upper() + c[1:] for c in facts.comments]
    if why:
        lines.append("")
        lines.extend(f"{sentence}." for sentence in why)
    evidence = [r for r in reasons if not r.startswith("stands alone") and r != "the only change"]
    if evidence:
        lines.append("")
        lines.append("Grouped because " + "; ".join(evidence[:3]) + ".")
    return "\n".join(lines)


def title(kind: str, scope_name: str | None, text: str) -> str:
    head = f"{kind}({scope_name}): " if scope_name else f"{kind}: "
    room = TITLE_LIMIT - len(head)
    if len(text) > room:
        text = text[: room - 1].rstrip() + "…"
    return head + text


def _quote_list(names: list[str], *, plain: bool = False) -> str:
    names = list(dict.fromkeys(names))
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return f"{names[0]} and {names[1]}"
    return f"{names[0]}, {names[1]} and {len(names) - 2} more"


def _names_of_files(paths: list[str]) -> str:
    names = list(dict.fromkeys(PurePosixPath(p).name for p in paths))
    if len(names) <= 2:
        return " and ".join(names)
    return f"{names[0]}, {names[1]} and {counted(len(names) - 2, 'more file')}"
