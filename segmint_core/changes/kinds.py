"""What kind of file a path names, one answer for grouping and for commit messages.

``file_kind`` is a unit's kind for grouping (code, test, docs, changelog,
config); ``is_test_path``, ``is_doc_path``, ``is_ci_path``, ``is_build_path``
and ``is_ignore_file`` are what a commit message's type and wording ask. A
test is a test to both: ``file_kind`` says TEST exactly where
``is_test_path`` does, unless the file is a changelog (a test fixture named
CHANGELOG.md is read as a changelog). ``example_of`` names the example under
``examples/`` a change's files are all in.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import PurePosixPath

CODE, TEST, DOCS, CHANGELOG, CONFIG = "code", "test", "docs", "changelog", "config"
GENERATED = "generated"  # a generated file, kept whole (a unit's kind; ``file_kind`` never says it)

_CHANGELOG_NAMES = re.compile(r"^(changes|changelog|history|news|release[-_ ]?notes|whatsnew)([.-].*)?$", re.I)
_FRAGMENT_DIR = re.compile(r"(^|/)(changes|changelog\.d|newsfragments|changelog)/")
DOC_SUFFIXES = frozenset({".md", ".rst", ".txt", ".adoc", ".markdown"})
_CODE_EXTS = {
    ".py",
    ".pyi",
    ".js",
    ".jsx",
    ".ts",
    ".tsx",
    ".go",
    ".rs",
    ".c",
    ".h",
    ".cc",
    ".cpp",
    ".hpp",
    ".java",
    ".kt",
    ".rb",
    ".php",
    ".sh",
    ".bash",
    ".zsh",
    ".swift",
    ".cs",
    ".scala",
    ".lua",
    ".pl",
}
_CONFIG_EXTS = {".toml", ".cfg", ".ini", ".yaml", ".yml", ".json", ".lock", ".in", ".conf", ".env"}
_CONFIG_NAMES = {
    "makefile",
    "dockerfile",
    "tox.ini",
    "setup.py",
    "setup.cfg",
    "manifest.in",
    ".gitignore",
    ".gitattributes",
    ".editorconfig",
    ".pre-commit-config.yaml",
    "noxfile.py",
}
_TEST_PATTERN = re.compile(
    r"(^|/)(tests?|spec|specs|__tests__|testing)/|(^|/)test_[^/]*$|_test\.[^/]+$|\.(test|spec)\.[^/]+$|(^|/)conftest\.py$"
)


@lru_cache(maxsize=1 << 16)
def file_kind(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    lower = name.lower()
    ext = _extension(lower)
    prose = ext in DOC_SUFFIXES or not ext
    if prose and (_CHANGELOG_NAMES.match(lower) or _FRAGMENT_DIR.search(path.lower())):
        return CHANGELOG  # a changelog, or a towncrier-style fragment (changes/1234.bugfix.md)
    if is_test_path(path):
        return TEST
    if "requirements" in path.lower() and ext in (".txt", ".in") or lower == "cmakelists.txt":
        return CONFIG  # build files that read as prose by their extension
    if ext in DOC_SUFFIXES or (path.lower().startswith(("docs/", "doc/")) and ext not in _CODE_EXTS):
        return DOCS
    if lower in _CONFIG_NAMES or ext in _CONFIG_EXTS or path.startswith((".github/", ".ci/")):
        return CONFIG
    return CODE


def _extension(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:] if dot > 0 else ""


DOC_NAMES = {"readme", "changelog", "changes", "history", "news", "contributing", "authors", "license", "notice"}
CI_PARTS = {".github", ".gitlab-ci.yml", ".circleci", ".ci", "azure-pipelines.yml", ".travis.yml", "jenkinsfile"}
BUILD_NAMES = {
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "requirements.txt",
    "package.json",
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "cargo.toml",
    "cargo.lock",
    "go.mod",
    "go.sum",
    "makefile",
    "cmakelists.txt",
    "dockerfile",
    "pom.xml",
    "build.gradle",
    "tox.ini",
    "noxfile.py",
    "manifest.in",
    "poetry.lock",
    "uv.lock",
    "pdm.lock",
    "pipfile",
    "pipfile.lock",
    "npm-shrinkwrap.json",
    "bun.lock",
    "bun.lockb",
    "gemfile",
    "gemfile.lock",
    "composer.json",
    "composer.lock",
    "go.work",
    "go.work.sum",
}


# A path's kind, kept once read: a plan reads each of its paths' kinds a few dozen times.
PATHS_KEPT = 1 << 16


def _parts(path: str) -> list[str]:
    """A repository path's folders and name: ``PurePosixPath.parts`` without building the
    object, which cost grouping 10,000 changed files 0.4 s."""
    return [part for part in path.split("/") if part and part != "."]


def _stem_and_suffix(name: str) -> tuple[str, str]:
    """``PurePosixPath``'s ``stem`` and ``suffix``: ``.bashrc`` and ``notes.`` have none."""
    dot = name.rfind(".")
    return (name[:dot], name[dot:]) if 0 < dot < len(name) - 1 else (name, "")


@lru_cache(maxsize=PATHS_KEPT)
def is_test_path(path: str) -> bool:
    """A test, a spec or test support: under a tests folder, or named as one in any of the languages read.
    A CI workflow that runs tests (``.github/workflows/uvloop_test.yml``) is CI, not a test."""
    if is_ci_path(path) and path.lower().endswith((".yml", ".yaml")):
        return False
    if _TEST_PATTERN.search(path):
        return True
    *folders, name = _parts(path.lower()) or [""]
    return (
        any(part in ("test", "tests", "testing", "__tests__", "spec") for part in folders)
        or name.startswith("test_")
        or name.endswith(("_test.py", "_test.go", "_spec.rb", "_test.rb", "test.java"))
        or _SCRIPT_TEST.search(name) is not None  # Button.test.tsx, api.spec.mjs
        or name in ("conftest.py", "tests.py")  # tests.py: a Django app's tests
    )


_SCRIPT_TEST = re.compile(r"\.(?:test|spec)\.[cm]?[jt]sx?$")


@lru_cache(maxsize=PATHS_KEPT)
def is_doc_path(path: str) -> bool:
    *folders, name = _parts(path.lower()) or [""]
    stem, suffix = _stem_and_suffix(name)
    return (
        (suffix in DOC_SUFFIXES and (stem in DOC_NAMES or suffix != ".txt" or "docs" in folders))
        or "docs" in folders
        or (stem in DOC_NAMES and suffix not in _CODE_EXTS)  # a module named changelog.py is code
    )


@lru_cache(maxsize=PATHS_KEPT)
def is_ci_path(path: str) -> bool:
    return not CI_PARTS.isdisjoint(_parts(path.lower()))


@lru_cache(maxsize=PATHS_KEPT)
def is_ignore_file(path: str) -> bool:
    """A list of paths a tool ignores: ``.gitignore``, ``.dockerignore``, ``.npmignore`` ..."""
    name = path.rsplit("/", 1)[-1].lower()
    return name.startswith(".") and name.endswith("ignore") and len(name) > len(".ignore")


@lru_cache(maxsize=PATHS_KEPT)
def is_build_path(path: str) -> bool:
    """Build files: manifests, lock files, pip's requirements files by any name (black's
    ``test_requirements.txt`` lists dependencies, it tests nothing) and packaging metadata."""
    *folders, name = _parts(path) or [""]
    name = name.lower()
    return (
        name in BUILD_NAMES
        or "requirements" in name
        and name.endswith((".txt", ".in"))
        or bool(folders)
        and folders[-1].endswith(".egg-info")
    )  # packaging metadata setuptools writes


EXAMPLE_DIRS = {"examples", "example", "_examples"}


def example_of(paths: list[str]) -> str | None:
    """The one example all ``paths`` are in: the folder under ``examples/`` (``examples/naval/naval.py``:
    ``naval``), or the file's name where it lies in ``examples/`` itself."""
    names = set()
    for path in paths:
        parts = PurePosixPath(path).parts
        at = next((i for i, part in enumerate(parts[:-1]) if part.lower() in EXAMPLE_DIRS), None)
        if at is None:
            return None
        names.add(parts[at + 1] if at + 2 < len(parts) else PurePosixPath(parts[-1]).stem)
    return names.pop() if len(names) == 1 else None
