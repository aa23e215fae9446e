"""Offline commit messages from what changed: the type, the scope and the wording.

The type comes from what the paths and lines are (``facts.gather``), the scope
from where they live, the subject from the dominant change: a new file is
added, a deleted one removed, a docs-only edit is docs, tests-only is test, a
manifest and lock file change is one dependency bump naming the package and
both versions, a rename is named as one. A subject comes as several wordings,
most detailed first, so the title can be fitted by choosing shorter wording
(``titles.fit``). The house style (``style.py``, ``voice.py``) may then change
the type, the scope and the voice.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import PurePosixPath

from segmint_core.changes.conversions import conversion_text, conversions as converted
from segmint_core.changes.generated import is_lock_file, is_manifest
from segmint_core.changes.versions import NUMBERS, PEP_440
from segmint_core.planning import defaults, settings_edit, type_hints
from segmint_core.planning.cases import words as test_words
from segmint_core.planning.describe import CODE_TYPES, code_subjects, documented_defs, documenting, places
from segmint_core.changes.kinds import (
    PATHS_KEPT,
    example_of,
    is_build_path,
    is_ci_path,
    is_doc_path,
    is_ignore_file,
    is_test_path,
)
from segmint_core.planning.bumps import Bump
from segmint_core.planning.facts import Facts, is_changelog
from segmint_core.planning.supported_versions import TOOLCHAINS
from segmint_core.planning.verbs import COMMENTS
from segmint_core.planning.commented import CommentedEdit
from segmint_core.planning.pragmas import PragmaEdit
from segmint_core.planning.warning_filters import WarningFilters
from segmint_core.planning.titles import one_line
from segmint_core.wording import counted, series

SHORT_SHA = 7
GENERIC_DIRS = {"src", "lib", "pkg", "app", "internal", "source", "python", "js", "ts", "go", "main", "java"}
DOC_DIRS = {"docs", "doc", "documentation"}
# Words a subject starts with: a name that is one of them reads as a stutter ("add add").
VERBS = {
    "add",
    "remove",
    "fix",
    "update",
    "rename",
    "move",
    "bump",
    "handle",
    "raise",
    "use",
    "correct",
    "format",
    "document",
    "restructure",
    "release",
    "test",
    "delete",
    "change",
    "convert",
    "ignore",
    "stop",
    "point",
    "retarget",
}

_VERSION = re.compile(rf"\bv?({NUMBERS}{PEP_440}(?:-[0-9A-Za-z.]+)?)\b")

_SCOPE = re.compile(r"[a-z0-9][a-z0-9.-]{0,29}")

Quote = Callable[[str], str]


def plain(name: str) -> str:
    return name


RELEASE_CODE_LINES = 4  # a release may also change the version a source file states
RENAME_EDIT_LINES = 4  # lines a renamed file may change and still be named by its rename
MENTION_LINES = 2  # lines taken out of another file beside a deletion, and still named by the deletion


def intent(facts: Facts) -> str | None:
    """``deps`` for a dependency bump, ``release`` for the project's own version, else None."""
    if not facts.paths or any(is_test_path(p) and not is_build_path(p) for p in facts.paths) or conversions(facts):
        return None  # a changelog rewritten in another format names every version it holds
    if any(is_code(p) for p in facts.paths):
        small = all(facts.lines.get(p, 0) <= RELEASE_CODE_LINES for p in facts.paths if is_code(p))
        opened = opens_release(facts)  # a heading names it: whatever else the manifest bumps with it
        return "release" if small and facts.own_version and (opened or not _foreign_bumps(facts)) else None
    if opens_release(facts):
        return "release"  # whatever else the manifest bumps with it
    if facts.bumps and all(_pinned(p) for p in facts.paths):
        return "deps"
    if facts.bumps and not release_version(facts) and all(_pinned(p) or is_changelog(p) for p in facts.paths):
        return "deps"  # a bump with its changelog entry ("* deps: qs@6.14.0")
    if release_version(facts) and not _foreign_bumps(facts):
        return "release"
    return None


def _foreign_bumps(facts: Facts) -> list[Bump]:
    """The bumps other than the release's own version as its docs quote it (pre-commit's ``rev:
    25.9.0`` of the project's own hook, in its docs)."""
    version = (release_version(facts) or "").removeprefix("v")
    return [b for b in facts.bumps if b.new.removeprefix("v") != version]


def opens_release(facts: Facts) -> bool:
    """The project's version set, and a changelog heading added naming it."""
    if not facts.own_version or not (new := _VERSION.search(facts.own_version.new)):
        return False
    return any((m := _VERSION.search(h)) and m.group(1) == new.group(1) for h in facts.headings)


def _pinned(path: str) -> bool:
    """A file that pins dependencies: a manifest, a lock file, CI or build files, the pre-commit hooks."""
    return is_manifest(path) or is_lock_file(path) or is_ci_path(path) or is_build_path(path) or _is_hooks(path)


def _is_hooks(path: str) -> bool:
    """pre-commit's hooks, each pinned to a version of its repository."""
    return PurePosixPath(path).name == ".pre-commit-config.yaml"


def release_version(facts: Facts) -> str | None:
    """The version the project releases: its own version changed, or a changelog heading naming one."""
    if facts.own_version:
        return facts.own_version.new
    if all(is_changelog(p) or is_manifest(p) or is_lock_file(p) or p in facts.version_docs for p in facts.paths):
        for heading in facts.headings:
            if heading in facts.unreleased:
                continue  # a section opened for changes to come releases nothing
            m = _VERSION.search(heading)
            if m and all(m.group(1) in written for written in facts.version_docs.values()):
                return m.group(1)  # the docs, if any, write the version the heading names
    return None


def commit_type(facts: Facts) -> str:
    paths = facts.paths
    if not paths or len(facts.submodules) == len(paths):
        return "chore"
    code = [p for p in paths if is_code(p)]
    kind = intent(facts)
    if kind == "deps":
        return "build"
    if kind == "release" or facts.ignored is not None:
        return "chore"
    if all(is_doc_path(p) for p in paths):
        return "docs"
    if all(is_ci_path(p) for p in paths):
        return "ci"
    if all(is_build_path(p) or is_ci_path(p) or is_lock_file(p) or is_manifest(p) for p in paths):
        return "build"
    if facts.retargeted and set(facts.retargeted) == set(paths):
        return "chore"  # a symbolic link pointed elsewhere: no code changed
    if facts.whitespace_only or facts.format_only:
        return "style"
    if all(is_test_path(p) for p in paths):
        return "test"
    if _only_deletions(facts):
        return "refactor" if code else "chore"
    if facts.typo_only:
        return "docs" if not code or facts.comment_only else "fix"
    if code and _comments_only(facts) and not facts.renamed_files:
        return "docs"  # a word swapped in a docstring is no rename
    if (
        facts.renames
        and not facts.added_defs
        or facts.moved_only
        or facts.renamed_files
        and not facts.added
        or _mostly_renamed(facts)
        or conversions(facts)
    ):
        return "refactor"
    if facts.lazy_imports:
        return "perf"  # loading the module no longer loads them
    if code and facts.changelog_fixes:
        return "fix"  # the author filed it under fixes, whatever names it brings in
    public = [d for d in facts.code_added_defs if not d.startswith("_")]
    new = public or facts.options or facts.params or facts.fields or any(p in facts.new_files for p in code)
    if new and facts.annotations is None:  # a parameter only given a type is no new one
        return "feat"
    if facts.removed_defs and not facts.added:
        return "refactor"
    if code and not facts.added and not facts.removed:
        return "chore"
    if code and (facts.changed_defs or facts.removed):
        return "fix"
    return "chore"


def scope(facts: Facts) -> str | None:
    """Where the change lives, for a repository with no scopes of its own to learn from."""
    if intent(facts) == "deps":
        return "deps"
    if facts.paths and all(map(is_ignore_file, facts.paths)):
        return None  # "chore(gitignore): ignore .venv/" says it twice
    paths = [p for p in scope_paths(facts.paths) if not is_test_path(p)]
    if not paths:
        return _tested_module(facts.paths) if facts.paths else None
    dirs = [PurePosixPath(p).parent.parts for p in paths]
    common: list[str] = []
    for parts in zip(*dirs):
        if len(set(parts)) != 1:
            break
        common.append(parts[0])
    if len(common) >= 2 and common[0].lower() == "src":
        common = common[2:]  # src/<package>/...: the package is the project itself, not a scope
    meaningful = [part for part in common if part.lower() not in GENERIC_DIRS | DOC_DIRS and not part.startswith(".")]
    if meaningful:
        return _clean_scope(meaningful[-1])
    stem = PurePosixPath(paths[0]).stem
    if len(paths) == 1 and not (stem.startswith("__") and stem.endswith("__")):  # __init__.py names no scope
        return _clean_scope(stem)
    return None


def scope_paths(paths: list[str]) -> list[str]:
    """The paths that place a change: its code, not the tests and docs that serve it (the code a README
    edit documents sets the scope); the tests or docs where it holds nothing else."""
    code = [p for p in paths if not is_test_path(p)]
    if any(not is_doc_path(p) for p in code):
        code = [p for p in code if not is_doc_path(p)]
    return code or paths


def _tested_module(paths: list[str]) -> str | None:
    """``tests/test_config.py`` -> ``config``: tests are scoped by what they test."""
    stems = set()
    for path in paths:
        stem = PurePosixPath(path).stem.lower()
        for affix in ("test_", "_test", ".test", ".spec", "_spec", "tests_", "_tests"):
            stem = stem.removeprefix(affix) if affix.endswith("_") else stem.removesuffix(affix)
        if stem and stem not in ("conftest", "test", "tests", "__init__"):
            stems.add(stem)
    return _clean_scope(stems.pop()) if len(stems) == 1 else None


def _clean_scope(name: str) -> str | None:
    """A folder or file name as a scope: lower case, ``-`` for ``_``; None where it is not one word."""
    name = name.lower().strip("._")
    for suffix in ("_core", "-core"):
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    name = name.replace("_", "-")
    return name if _SCOPE.fullmatch(name) else None


SECTION_NAME_WORDS = 3  # a heading of more words says a sentence, not a section's name


def subjects(kind: str, facts: Facts, q: Quote = plain) -> list[str]:
    """Wordings of the subject (after ``type(scope):``), the most detailed first; the toolchain
    versions a project supports, or those its CI tests on, changed, say what the change is for."""
    found = _subjects(kind, facts, q)
    why = intent(facts)
    toolchain_only = all(b.name.lower() in TOOLCHAINS for b in facts.bumps)  # no other dependency bumped
    if facts.supported and why != "release" and (why != "deps" or toolchain_only):
        return list(dict.fromkeys([facts.supported, *found]))
    if facts.tested and why is None:
        return [facts.tested, *found]
    if facts.raw_strings:
        return [f"{facts.raw_strings} in {f}" for f in _files(facts.paths)] + [facts.raw_strings, *found]
    return found


def _subjects(kind: str, facts: Facts, q: Quote) -> list[str]:
    if facts.submodules and len(facts.submodules) == len(facts.paths):
        return [_submodule_subject(facts)]
    why = intent(facts)
    if why == "deps":
        return bump_subjects(facts, q)
    if facts.executable and not facts.lines and set(facts.executable) == set(facts.paths):
        return _mode_subjects(facts)
    if facts.retargeted and set(facts.retargeted) == set(facts.paths):
        names = _files(list(facts.retargeted))
        target = one_line(next(iter(facts.retargeted.values())))
        return ([f"point {names[0]} to {target}"] if len(facts.retargeted) == 1 else []) + [
            f"retarget {w}" for w in names
        ]
    if why == "release":
        return [f"release {release_version(facts)}"]
    if _only_listing(facts):
        return _listing_subjects(facts, q)
    if facts.unreleased and all(map(is_changelog, facts.paths)):
        return _unreleased_subjects(facts.unreleased, facts.paths)
    converted = conversions(facts)
    if converted:
        return _conversion_subjects(converted)
    if facts.ignored is not None:
        return _ignore_subjects(facts.ignored, facts.paths)
    if _deletions_with_mentions(facts):  # files deleted alone, or with the lines naming them
        return [f"remove {f}" for f in _files([p for p in facts.paths if p in facts.deleted_files])]
    if facts.trailing_spaces:
        return [f"remove trailing whitespace from {f}" for f in _files(facts.paths)] + ["remove trailing whitespace"]
    if facts.annotations is not None:  # type hints alone (``type_hints.py``)
        most = sorted(facts.paths, key=lambda p: -facts.lines.get(p, 0))
        tested = all(map(is_test_path, facts.paths))
        return type_hints.subjects(facts.annotations, list(facts.def_lines), _files(most), tested, q)
    if facts.commented is not None:
        return _commented_subjects(facts.commented, facts.commented_name, facts.paths, q)
    if facts.list_items:
        within = [name for name, _ in facts.def_lines.most_common(1)]  # a list written in a call: its function
        return _list_item_subjects(facts.list_items, within, facts.paths, q)
    if facts.help_of:
        named = [f"update {n} help text" for n in _names(facts.help_of, "option", q)[:-1]]
        return named + [f"update the help text of {counted(len(facts.help_of), 'option')}", "update help text"]
    if facts.helps_removed:
        helps = "a help text" if facts.helps_removed == 1 else counted(facts.helps_removed, "help text")
        where = places(facts, [p for p in facts.paths if is_code(p)], q)[:1]
        return [f"remove {helps} from {w}" for w in where] + [f"remove {helps}"]
    if facts.pragmas is not None:
        return _pragma_subjects(facts.pragmas, facts.paths, q)
    if facts.lazy_imports:  # (``lazy_imports.py``)
        return [f"lazily import {names}" for names in _names(facts.lazy_imports, "module", q)]
    if facts.warning_filters is not None:
        return _warning_subjects(facts.warning_filters, facts.paths)
    if facts.typo_only:
        typos = "typos" if len(facts.typos) > 1 else "typo"
        code = [p for p in facts.paths if is_code(p)]
        where = places(facts, code, q) if code else _files(facts.paths)
        verb = _fix_verb(kind)
        return [f"{verb} {typos} in {w}" for w in where] + [f"{verb} {typos}"]
    if facts.sample_fixed:
        return _sample_subjects(kind, facts, q)
    if kind == "docs":
        if facts.tokens_same and not facts.new_files and not facts.deleted_files:
            return [f"format {f}" for f in _files(facts.paths)]  # prose rewrapped, every word kept
        new_docs = [p for p in facts.new_files if is_doc_path(p)]
        if new_docs:
            return [f"add {f}" for f in _files(new_docs)]
        if facts.retitled:  # a heading reworded documents nothing new
            headers = "section header" if len(facts.retitled) == 1 else counted(len(facts.retitled), "section header")
            (old, new), *_ = facts.retitled
            named = [f"rename section {old} to {new}"] if len(facts.retitled) == 1 else []
            return named + [f"rename {headers} in {f}" for f in _files(facts.paths)] + [f"rename {headers}"]
        if facts.headings and not all(map(is_changelog, facts.paths)):  # a changelog's are its releases' parts
            # a heading that is a sentence (body-parser's "The input exceeded the depth") names no section
            named_by = [h for h in facts.headings[:2] if len(h.split()) <= SECTION_NAME_WORDS] or facts.headings[:1]
            *named, counted_only = _names(named_by, "section", plain)  # "a section" says least
            return (
                [f"add docs for {h}" for h in named]
                + [f"update {f}" for f in _files(facts.paths)]
                + [f"add {counted_only}"]
            )
        if all(map(is_changelog, facts.paths)) and facts.changelog_items > 1 and not facts.removed:
            return ["add changelog entries"]  # one entry is titled in its own words (``voice.entry_added``)
        if all(map(is_changelog, facts.paths)) and facts.changelog_moved and not facts.changelog_entries:
            return _moved_entry_subjects(facts)
        reworded = facts.renames or facts.prose is not None and facts.prose.links_only  # a word or a link swapped
        if _comments_only(facts) and (facts.code_changed_defs or facts.documented or facts.reworded) and not reworded:
            # a doc comment documents the definition below it, not the one its hunk is in
            where = documented_defs(facts, q) or places(facts, [p for p in facts.paths if is_code(p)], q)
            if facts.reworded:  # a comment's words changed, nothing documented that was not
                return _comments_updated(facts, where)
            return [documenting(facts, w) for w in where]
        return _prose_subjects(facts, q) + _section_subjects(facts) + [f"update {f}" for f in _files(facts.paths)]
    if kind == "test":
        if facts.new_lines in COMMENTS and facts.gone_lines in COMMENTS:  # a test's comments reworded
            # named by the file: a doc comment explains the test below it, not the one its hunk is in
            return _comments_updated(facts, _files(facts.paths), alone=True)
        targets = [test_words(d) for d in facts.added_defs if is_test_name(d)]
        module = _tested_module(facts.paths)
        tests = "test" if len(targets) == 1 or not targets and facts.cases_added == 1 else "tests"  # one is a test
        out = [f"add {tests} for {n}" for n in _tested(targets)] if targets else []
        if facts.cases_removed:  # tests only taken out, by what they tested
            gone = "test" if len(facts.cases_removed) == 1 else "tests"
            out += [f"remove {gone} for {n}" for n in _tested(facts.cases_removed)]
        if facts.renames and not targets:
            old, new = facts.renames[0]
            where = [q(d) for d in facts.changed_defs if d.startswith("test")][:1] + _files(facts.paths)
            out += _used_instead(old, new, where, q)
        edited = [test_words(d) for d in facts.changed_defs if is_test_name(d)]
        if edited and not targets:  # the tests edited, by what their names say (one, or what they share)
            out += [f"update {'test' if len(edited) == 1 else 'tests'} for {n}" for n in _tested(edited, listed=False)]
        if facts.new_files and set(facts.new_files) == set(facts.paths):
            out += [f"add {f}" for f in _files(facts.new_files)]
        verb = "add" if facts.cases_added and not facts.removed else "update"  # new it("...") or test("...") cases
        tests = tests if verb == "add" else "tests"
        out += [f"{verb} {tests} for {module}"] if module else [f"{verb} {tests} in {f}" for f in _files(facts.paths)]
        return out + [f"{verb} {tests}"]
    if kind == "style":
        # a formatter's run only where the tokens are as they were; else lines or imports reordered
        if facts.tokens_same:
            return [f"format {f}" for f in _files(facts.paths)]
        if facts.imports_touched:
            return [f"sort imports in {f}" for f in _files(facts.paths)] + ["sort imports"]
        if facts.punctuation:
            return [f"{facts.punctuation} in {f}" for f in _files(facts.paths)] + [facts.punctuation]
        return [f"rearrange {f}" for f in _files(facts.paths)]
    if kind in ("build", "ci"):
        added = [f"add {f}" for f in _files(facts.new_files)] if set(facts.new_files) == set(facts.paths) else []
        marks = [f"{facts.punctuation} in {f}" for f in _files(facts.paths)] if facts.punctuation else []
        return added + marks + _settings_subjects(facts) + [f"update {f}" for f in _files(facts.paths)]
    if kind in CODE_TYPES and facts.settings is None:
        changed_defaults = defaults.subjects(facts.defaults, q) if facts.defaults else []
        return changed_defaults + _swap_subjects(facts, q) + _export_subjects(facts, q) + _code_subjects(kind, facts, q)
    return _settings_subjects(facts) + [f"update {f}" for f in _files(facts.paths)]


_TEST_PREFIX = re.compile(r"^(?:test_+|Test_?(?=[A-Z0-9_]))(?=[A-Za-z0-9])")


def is_test_name(name: str) -> bool:
    """A test function's name: ``test_parse_empty``, Go's ``TestParseEmpty``."""
    return bool(_TEST_PREFIX.match(name))


def _tested(names: list[str], listed: bool = True) -> list[str]:
    """What tests named ``names`` (in words) test: one's name; of several, the words their names
    share (``gen fish completion file`` of ``gen fish completion file`` and ``fail gen fish
    completion file``), then (``listed``) two names."""
    if len(names) == 1:
        return names
    shared = _shared_run([n.split(" ") for n in names])
    both = _names(names, "case", plain)[:1] if listed and len(names) == 2 else []
    return ([" ".join(shared)] if len(shared) >= SHARED_WORDS else []) + both


SHARED_WORDS = 2  # words test names must share to name what they test together


def _shared_run(names: list[list[str]]) -> list[str]:
    """The longest run of words every name holds."""
    first = names[0]
    best: list[str] = []
    for start in range(len(first)):
        for end in range(len(first), start + len(best), -1):
            run = first[start:end]
            if all(_holds(n, run) for n in names[1:]):
                best = run
                break
    return best


def _holds(words: list[str], run: list[str]) -> bool:
    return any(words[i : i + len(run)] == run for i in range(len(words) - len(run) + 1))


def conversions(facts: Facts) -> list[tuple[str, str]]:
    """The files the change rewrites in another format, where that is all it does."""
    return converted(facts.paths, facts.new_files, facts.deleted_files)


def _conversion_subjects(pairs: list[tuple[str, str]]) -> list[str]:
    """``convert changes.md to changes.rst``; ``convert api.md, cli.md and 3 more files to .rst``."""
    return list(
        dict.fromkeys(f"convert {one_line(conversion_text(pairs, w))}" for w in _files([old for old, _ in pairs]))
    )


def _ignore_subjects(ignored: tuple[list[str], list[str]], paths: list[str]) -> list[str]:
    """``ignore .venv/ and .tox/``, ``stop ignoring yarn.lock``; else ``update .gitignore``."""
    added, removed = ignored
    if added and not removed:
        return [f"ignore {w}" for w in _names(added, "pattern", plain)]
    if removed and not added:
        return [f"stop ignoring {w}" for w in _names(removed, "pattern", plain)]
    return [f"update {f}" for f in _files(paths)]


def _commented_subjects(edit: CommentedEdit, name: str | None, paths: list[str], q: Quote) -> list[str]:
    """``disable code formatting check in .travis.yml``; else ``comment out 3 lines in x.py``."""
    verb = "disable" if edit.disabled else "enable"
    name = name if name is None or " " in name else q(name)  # a comment's words are no code name
    what = [f"{verb} {name} in {f}" for f in _files(paths)] + [f"{verb} {name}"] if name else []
    lines = counted(len(edit.lines), "line")
    marked = "comment out" if edit.disabled else "uncomment"
    return what + [f"{marked} {lines} in {f}" for f in _files(paths)] + [f"{marked} {lines}"]


def _list_item_subjects(
    grown: list[tuple[str | None, list[str]]], within: list[str], paths: list[str], q: Quote
) -> list[str]:
    """``add zlib to ALLOWED_IMPORTS``; ``add .svg to select_autoescape``; ``add zlib and lzma to
    test_imports.py``; ``add 3 values``."""
    values = _names([v for _, found in grown for v in found], "value", plain)
    holders = list(dict.fromkeys(h for h, _ in grown))
    holder = holders[0] if len(holders) == 1 and holders[0] else (within[0] if holders == [None] and within else None)
    named = [f"add {v} to {q(holder)}" for v in values[:-1]] if holder else []
    return named + [f"add {v} to {f}" for v in values[:-1] for f in _files(paths)[:1]] + [f"add {values[-1]}"]


def _export_subjects(facts: Facts, q: Quote) -> list[str]:
    """``export get_app_dir``: a package's ``__init__.py`` only gains names its modules define
    (an import of them, their place in ``__all__``), outside any definition: lines changed inside
    one are its code (black's ``__init__.py`` naming a value, ``before_lpar = LL[idx - 2]``)."""
    if not facts.paths or any(PurePosixPath(p).name != "__init__.py" for p in facts.paths):
        return []
    if not facts.new_names or facts.gone_names or facts.added_defs or facts.removed_defs or facts.changed_defs:
        return []
    return [f"export {n}" for n in _names(facts.new_names, "name", q)]


def _pragma_subjects(edit: PragmaEdit, paths: list[str], q: Quote) -> list[str]:
    """``add type: ignore to responses.py``, ``remove noqa from a.py and b.py``; both: ``update ... comments``."""
    names = " and ".join(q(d) for d in (edit.added or edit.removed)[:2])
    if edit.added and edit.removed:
        return [f"update {names} comments in {f}" for f in _files(paths)] + [f"update {names} comments"]
    verb, where = ("add", "to") if edit.added else ("remove", "from")
    return [f"{verb} {names} {where} {f}" for f in _files(paths)] + [f"{verb} {names} comments"]


def _swap_subjects(facts: Facts, q: Quote) -> list[str]:
    """``use os.Getenv("HOME") instead of "$HOME" in initConfig``: in code files only."""
    code = [p for p in facts.paths if is_code(p)]
    if facts.swapped is None or len(code) != len(facts.paths):
        return []
    old, new = facts.swapped
    return _used_instead(old, new, places(facts, code, q)[:1], q)


def _used_instead(old: str, new: str, where: list[str], q: Quote) -> list[str]:
    """``use X instead of Y in W`` for each place, then without one: a name or an expression
    written where another was, which is no rename."""
    what = f"use {q(new)} instead of {q(old)}"
    return [f"{what} in {w}" for w in where] + [what]


def _warning_subjects(edit: WarningFilters, paths: list[str]) -> list[str]:
    """``ignore deprecation warnings in test``, ``stop ignoring resource warnings``."""
    ignored, unignored = " and ".join(edit.ignored[:2]), " and ".join(edit.unignored[:2])
    what = [f"ignore {ignored}"] if ignored else []
    what += [f"stop ignoring {unignored}"] if unignored else []
    said = " and ".join(what)
    return [f"{said} in {f}" for f in _files(paths)] + [said]


def _mode_subjects(facts: Facts) -> list[str]:
    """Only the executable bit changed: ``make run.sh executable``."""
    made = set(facts.executable.values())
    what = "executable" if made == {True} else "non-executable" if made == {False} else None
    if what is None:
        return [f"change the mode of {f}" for f in _files(facts.paths)]
    return [f"make {f} {what}" for f in _files(facts.paths)]


def _settings_subjects(facts: Facts) -> list[str]:
    """An edit of settings files by the keys it adds, removes or sets (``set node-version to 24``)."""
    if facts.settings is None or facts.new_files or facts.deleted_files:
        return []
    return settings_edit.subjects(facts.settings, _files(facts.paths)[:1])


def _fix_verb(kind: str) -> str:
    """The verb of a fix worded in a subject: "correct" after a ``fix:`` type (not "fix: fix typo")."""
    return "correct" if kind == "fix" else "fix"


def _sample_subjects(kind: str, facts: Facts, q: Quote) -> list[str]:
    """An example's line or few rewritten: ``fix mine in the naval example``, ``fix example in
    quickstart.md``."""
    verb = _fix_verb(kind)
    if example_of(facts.paths) is not None:
        return [f"{verb} {w}" for w in places(facts, facts.paths, q)]
    return [f"{verb} example in {f}" for f in _files(facts.paths)] + [f"{verb} example"]


def _prose_subjects(facts: Facts, q: Quote) -> list[str]:
    """A small docs edit by what it does: a word replaced, a name added or removed, a link fixed."""
    edit = facts.prose
    where = _files(list(edit.paths) if edit is not None and edit.paths else facts.paths)[:1]
    if facts.examples:
        what = f"add {facts.new_lines}"
        sections = (
            [f"{one_line(facts.doc_sections[0])} in {w}" for w in where[:1]] if len(facts.doc_sections) == 1 else []
        )
        return [f"{what} to {s}" for s in sections] + [f"{what} to {w}" for w in where] + [what]
    if edit is not None and edit.links_only:  # before renames: "https" -> "http" in an address is a link
        what = "fix links" if edit.links > 1 else "fix link"
    elif facts.renames:
        old, new = facts.renames[0]
        what = f"replace {q(old)} with {q(new)}"
    elif edit is None:
        return []
    elif edit.badges is not None:
        return _badge_subjects(edit.badges, where)
    elif edit.references:
        what = f"add {_listed(list(edit.references))}"
        return [f"{what} to {w}" for w in where] + [what]
    elif edit.quoted:
        what = f"quote {_listed(list(edit.quoted), 'term')}"
        paths = _files(list(edit.paths))
        return [f"{what} in {w}" for w in paths[:1]] + [what]
    elif edit.added:
        what = f"add {_terms(edit.added, q)}"
        steps = [f"{what} {edit.instructions}"] if edit.instructions else []  # "add cobra install instructions"
        return [f"{s} to {w}" for s in steps for w in where] + steps + [f"{what} to {w}" for w in where] + [what]
    else:
        what = f"remove {_terms(edit.removed, q)}"
        return [f"{what} from {w}" for w in where] + [what]
    return [f"{what} in {w}" for w in where] + [what]


def _badge_subjects(badges: tuple[tuple[str, ...], tuple[str, ...]], where: list[str]) -> list[str]:
    """Badges added, removed or one swapped for another (``update Go Reference badge in README.md``)."""
    new, old = badges
    if new and old:
        what = f"update {new[0]} badge" if len(new) == len(old) == 1 and new[0] else "update badges"
        return [f"{what} in {w}" for w in where] + [what]
    verb, joint, names = ("add", "to", new) if new else ("remove", "from", old)
    named = list(dict.fromkeys(n for n in names if n))
    noun = "badge" if len(names) == 1 else "badges"
    what = f"{verb} {_listed(named)} {noun}" if named and all(names) and len(named) <= 2 else f"{verb} {noun}"
    return [f"{what} {joint} {w}" for w in where] + [what]


def _listed(names: list[str], noun: str = "reference") -> str:
    """One or two names, else how many."""
    return " and ".join(names) if len(names) <= 2 else counted(len(names), noun)


def _unreleased_subjects(headings: list[str], paths: list[str]) -> list[str]:
    """``Version 8.3.3`` over ``Unreleased``: "add unreleased 8.3.3 section to CHANGES.rst"."""
    versions = [m.group(1) for h in headings if (m := _VERSION.search(h))]
    section = f"unreleased {versions[0]} section" if len(versions) == 1 else "unreleased section"
    return [f"add {section} to {f}" for f in _files(paths)] + [f"add {section}"]


def _section_subjects(facts: Facts) -> list[str]:
    """A docs page edited in one or two of its sections, by their titles (``update Installation in
    README.md``), so two commits editing one page in other places read differently. A changelog's
    sections are its versions and kinds of change: its entries say more."""
    if len(facts.paths) != 1 or is_changelog(facts.paths[0]) or not 1 <= len(facts.doc_sections) <= 2:
        return []
    titles = " and ".join(one_line(t) for t in facts.doc_sections)
    return [f"update {titles} in {_files(facts.paths)[0]}"]


def _term(term: str, q: Quote) -> str:
    """A term as written (a handle, a link's text), a code span in the house's quoting; one holding
    a space or a colon keeps its backticks (``ci: build all wheels`` reads as a prefix, a phrase as words)."""
    if not (term.startswith("`") and term.endswith("`")):
        return one_line(term)
    code = term[1:-1]
    return one_line(term) if " " in code or ":" in code else q(code)


def _terms(terms: tuple[str, ...], q: Quote) -> str:
    return " and ".join(_term(t, q) for t in terms)


def bump_subjects(facts: Facts, q: Quote = plain) -> list[str]:
    bumps = facts.bumps
    if len(bumps) == 1:
        b = bumps[0]
        if b.requirement and not b.old:
            return _version_asked(b, q)
        if b.requirement and (bound := _bound_added(b.old, b.new)):
            verb, version = bound  # black's "Exclude pytest-xdist 3.0.2": ``>= 2.2.1`` -> ``>= 2.2.1, < 3.0.2``
            return [f"{verb} {q(b.name)} {'below ' if verb == 'pin' else ''}{q(version)}", f"{verb} {q(b.name)}"]
        if b.requirement:
            return [
                f"update {q(b.name)} requirement from {q(b.old)} to {q(b.new)}",
                f"update {q(b.name)} requirement to {q(b.new)}",
                f"update {q(b.name)} requirement",
            ]
        return [
            f"bump {q(b.name)} from {q(b.old)} to {q(b.new)}",
            f"bump {q(b.name)} to {q(b.new)}",
            f"bump {q(b.name)}",
        ]
    names = [q(b.name) for b in bumps]
    where = _files(facts.paths)[0] if facts.paths else ""
    listed = series(names)
    if all(b.requirement for b in bumps):
        return [
            f"update {listed} requirements",
            f"update {len(bumps)} requirements in {where}",
            f"update {len(bumps)} requirements",
        ]
    return [f"bump {listed}", f"bump {len(bumps)} dependencies in {where}", f"bump {len(bumps)} dependencies"]


def _comments_updated(facts: Facts, where: list[str], *, alone: bool = False) -> list[str]:
    """``update comments in x``, for each place (then, ``alone``, without one)."""
    comments = "comment" if facts.added == 1 else "comments"
    return [f"update {comments} in {w}" for w in where] + ([f"update {comments}"] if alone else [])


def _moved_entry_subjects(facts: Facts) -> list[str]:
    """``move changelog entry for #1572``: a changelog's entries only taken out and written again
    in another place (a release's section), by the pull request they name."""
    entries = "changelog entry" if facts.changelog_moved == 1 else "changelog entries"
    ref = facts.changelog_reference
    return ([f"move {entries} for {ref}"] if ref and facts.changelog_moved == 1 else []) + [
        *(f"move {entries} in {f}" for f in _files(facts.paths)),
        f"move {entries}",
    ]


def _only_listing(facts: Facts) -> bool:
    """Dependencies only added or taken out: no version moved, every file one that pins them."""
    return bool(facts.deps_added or facts.deps_removed) and not facts.bumps and all(_pinned(p) for p in facts.paths)


def _listing_subjects(facts: Facts, q: Quote) -> list[str]:
    """``add httpx-sse to requirements.txt``, ``remove qs``, ``replace six with typing-extensions``."""
    added, removed = facts.deps_added, facts.deps_removed
    where = _files(facts.paths)[0]
    if added and removed:
        if len(added) == len(removed) == 1:
            return [
                f"replace {q(removed[0])} with {q(added[0])} in {where}",
                f"replace {q(removed[0])} with {q(added[0])}",
            ]
        return [f"update dependencies in {where}", "update dependencies"]
    names, verb, joint = (added, "add", "to") if added else (removed, "remove", "from")
    return [f"{verb} {w} {joint} {where}" for w in _names(names, "dependency", q)] + [
        f"{verb} {w}" for w in _names(names, "dependency", q)
    ]


def _bound_added(old: str, new: str) -> tuple[str, str] | None:
    """``("pin", "3.0.2")`` where ``new`` is ``old`` with an upper bound added (``<3.0.2``, ``<=3``),
    ``("exclude", "3.0.2")`` where with one version left out (``!=3.0.2``); else None."""
    before = {part.replace(" ", "") for part in old.split(",")}
    after = [part.replace(" ", "") for part in new.split(",")]
    added = [part for part in after if part not in before]
    if len(added) != 1 or not before <= set(after):
        return None
    if bound := re.fullmatch(r"<=?(\d[\w.*]*)", added[0]):
        return "pin", bound.group(1)
    if excluded := re.fullmatch(r"!=(\d[\w.*]*)", added[0]):
        return "exclude", excluded.group(1)
    return None


def _version_asked(b: Bump, q: Quote) -> list[str]:
    """A version asked of a requirement that had none: one pinned (``isort`` -> ``isort==5.*``),
    one left out (``regex!=2019.12.9``), or a range."""
    if b.new.startswith(("==", "~=")):
        return [f"pin {q(b.name)} to {q(b.new[2:])}", f"pin {q(b.name)}"]
    if b.new.startswith("!="):
        return [f"exclude {q(b.name)} {q(b.new[2:])}", f"exclude a version of {q(b.name)}"]
    return [f"require {q(b.name + b.new)}", f"require a version of {q(b.name)}"]


def _code_subjects(kind: str, facts: Facts, q: Quote) -> list[str]:
    if kind == "refactor" and facts.renames:
        old, new = facts.renames[0]
        if (old, new) in facts.replacements:  # the old name still used, or the new one not defined here
            return _used_instead(old, new, [], q) + [f"use {q(new)}"]
        return [f"rename {q(old)} to {q(new)}", f"rename {q(old)}", f"rename {counted(len(facts.renames), 'name')}"]
    if kind == "refactor" and facts.renamed_files:
        old, new = facts.renamed_files[0]
        o, n = PurePosixPath(old), PurePosixPath(new)
        if o.parent == n.parent:
            return [f"rename {o.name} to {n.name}", f"rename {o.name}"]
        return [f"move {o.name} to {n.parent}/", f"move {o.name}"]
    new_code = [p for p in facts.new_files if is_code(p)]
    folder = new_folder(facts)
    if kind == "feat" and folder:
        return [f"add {folder}/"] + code_subjects(kind, facts, _code_paths(facts), q)
    if kind == "feat" and new_code and not (facts.options or facts.params or facts.code_added_defs):
        return [f"add {f}" for f in _files(new_code)]
    out = code_subjects(kind, facts, _code_paths(facts), q)
    return [_unstuttered_words(w, q) for w in out]


def new_folder(facts: Facts) -> str | None:
    """The folder most of the change's files are new in, when it holds only new files (an
    example, a package, a plugin added whole)."""
    if len(facts.new_files) < 2 or 2 * len(facts.new_files) <= len(facts.paths):
        return None
    parents = [PurePosixPath(p).parent.parts for p in facts.new_files]
    common = [parts[0] for parts in zip(*parents) if len(set(parts)) == 1]
    folder = "/".join(common)
    if not common or any(p.startswith(folder + "/") and p not in facts.new_files for p in facts.paths):
        return None
    return folder


def _unstuttered_words(text: str, q: Quote) -> str:
    """``add add`` (a function named for the verb) reads ``add `add```."""
    verb, _, rest = text.partition(" ")
    if q is plain and rest.split(" ", 1)[0].lower() in VERBS and rest.split(" ", 1)[0].lower() == verb:
        first, _, tail = rest.partition(" ")
        return f"{verb} `{first}`" + (f" {tail}" if tail else "")
    return text


def _unstuttered(names: str, q: Quote) -> str:
    """``add`` defined by an "add" subject reads ``add `add```, not ``add add``."""
    return f"`{names}`" if names.lower() in VERBS and q is plain else names


def _mostly_renamed(facts: Facts) -> bool:
    """Files renamed, with at most a few lines edited in each (an import or a name following
    the move): the rename is what the change does."""
    if not facts.renamed_files:
        return False
    moved = {new for _, new in facts.renamed_files}
    return set(facts.paths) <= moved and facts.added + facts.removed <= RENAME_EDIT_LINES * len(moved)


def _only_deletions(facts: Facts) -> bool:
    return bool(facts.paths) and set(facts.paths) <= set(facts.deleted_files)


def _deletions_with_mentions(facts: Facts) -> bool:
    """Files deleted, and a line or two taken out of each other file and nothing added (the
    table of contents' entry of a page deleted, the import of a module): the files are removed."""
    kept = [p for p in facts.paths if p not in facts.deleted_files]
    return bool(facts.deleted_files) and not facts.added and all(facts.lines.get(p, 0) <= MENTION_LINES for p in kept)


def _comments_only(facts: Facts) -> bool:
    """Every changed code line is a comment or docstring line (the author explained, not changed)."""
    return facts.comment_only


@lru_cache(maxsize=PATHS_KEPT)
def is_code(path: str) -> bool:
    """Source code: not tests, docs, CI, build or settings files, manifests, lock files or hooks."""
    return not (
        is_test_path(path)
        or is_doc_path(path)
        or is_ci_path(path)
        or is_build_path(path)
        or is_lock_file(path)
        or is_manifest(path)
        or _is_hooks(path)
        or is_ignore_file(path)
    )


def _code_paths(facts: Facts) -> list[str]:
    return [p for p in facts.paths if is_code(p)] or facts.paths


def _submodule_subject(facts: Facts) -> str:
    """Pointer changes named by path and short commit id (never read as code)."""
    if len(facts.submodules) > 1:
        return f"update submodules {_files([p for p, _, _ in facts.submodules])[0]}"
    path, old, new = facts.submodules[0]
    if path in facts.deleted_files:
        return f"remove submodule {path}"
    if old is None:
        return f"add submodule {path}" + (f" at {new[:SHORT_SHA]}" if new else "")
    return f"update submodule {path}" + (f" to {new[:SHORT_SHA]}" if new else "")


def _names(names: list[str], noun: str, q: Quote) -> list[str]:
    """``a``; ``a and b``; ``a, b and 3 more``, then ``a and 4 more``, then ``5 functions``."""
    names = list(dict.fromkeys(one_line(n) for n in names))
    if not names:
        return []
    if len(names) == 1:
        return [q(names[0]), f"a {noun}"]
    if len(names) == 2:
        return [f"{q(names[0])} and {q(names[1])}", f"{q(names[0])} and 1 more", counted(2, noun)]
    return [
        f"{q(names[0])}, {q(names[1])} and {len(names) - 2} more",
        f"{q(names[0])} and {len(names) - 1} more",
        counted(len(names), noun),
    ]


def _files(paths: list[str]) -> list[str]:
    names = list(dict.fromkeys(one_line(PurePosixPath(p).name) for p in paths))
    if not names:
        return []
    if len(names) == 1:
        return [names[0], "a file"]
    if len(names) == 2:
        return [f"{names[0]} and {names[1]}", f"{names[0]} and 1 more file", counted(2, "file")]
    return [
        f"{names[0]}, {names[1]} and {counted(len(names) - 2, 'more file')}",
        f"{names[0]} and {counted(len(names) - 1, 'more file')}",
        counted(len(names), "file"),
    ]
