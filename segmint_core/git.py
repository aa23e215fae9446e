"""Running git: one place that knows how to call it safely and read its output.

Every read-only call sets ``GIT_OPTIONAL_LOCKS=0`` so listing changes never
takes ``index.lock`` (a plain ``git diff`` may refresh the index otherwise).
Output is bytes; callers decode with ``surrogateescape`` so nothing is lost.
"""

from __future__ import annotations

import os
from functools import cached_property

from segmint_core.errors import GitCommandError, GitMissingError, NotARepositoryError
from segmint_core.proc import Collector, Finished, Started, run_all, start_all

# Options that make `git diff` output independent of the user's display config,
# so the parser always sees the same shape (prefixes, no colour, no external tools).
DIFF_OPTIONS = (
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--submodule=short",
    "--find-renames",
    "--full-index",
    "--unified=3",
)

CONFIG_OVERRIDES = (
    "-c",
    "core.quotePath=true",
    "-c",
    "diff.noprefix=false",
    "-c",
    "diff.mnemonicPrefix=false",
    "-c",
    "diff.relative=false",
    "-c",
    "color.ui=false",
)

ZERO_OID = "0" * 40  # "no object" in SHA-1 (the old side of a new file); ``Git.zero_oid`` is the repository's
# The empty tree's id, and an id's length, in each object format (``git init --object-format``).
EMPTY_TREES = {
    "sha1": "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
    "sha256": "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
}
HEX_LENGTHS = {"sha1": 40, "sha256": 64}


def read_object_format(printed: str) -> str:
    """``sha1`` or ``sha256`` from what ``git rev-parse --show-object-format`` printed (a git
    too old to know the option prints it back: its repositories are all SHA-1)."""
    return "sha256" if printed.strip() == "sha256" else "sha1"


def zero_oid_of(fmt: str) -> str:
    return "0" * HEX_LENGTHS[fmt]


def decode(data: bytes) -> str:
    """Bytes from git to str without loss (undecodable bytes become surrogates)."""
    return data.decode("utf-8", "surrogateescape")


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def git_executable() -> str:
    # shutil.which, minus the import cost on the start-up path of `segmint changes`.
    for folder in os.get_exec_path():
        candidate = os.path.join(folder, "git")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise GitMissingError("git is not installed or not on PATH; Segmint needs git to read changes.")


def _base_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["GIT_OPTIONAL_LOCKS"] = "0"
    env["GIT_TERMINAL_PROMPT"] = "0"
    env.setdefault("LC_ALL", "C")
    # An inherited GIT_DIR/GIT_WORK_TREE (e.g. from a hook) would point us elsewhere.
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX"):
        env.pop(name, None)
    if extra:
        env.update(extra)
    return env


# What a git command returned: exit status, stdout and stderr bytes, ``.text``.
GitResult = Finished


class Git:
    """A git work tree: runs commands with its root as the working directory.

    ``root`` and ``git_dir`` are absolute path strings (pathlib stays off the
    start-up path of ``segmint changes``).
    """

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = os.fspath(root)
        self.exe = git_executable()

    @classmethod
    def discover(cls, path: str | os.PathLike[str] | None = None) -> "Git":
        """The repository containing ``path`` (default: the current directory)."""
        try:
            start = os.path.abspath(os.path.expanduser(os.fspath(path if path is not None else os.getcwd())))
        except FileNotFoundError:  # (abspath of a relative path asks for it too)
            raise NotARepositoryError(
                "The current directory no longer exists: change to the repository, or give --repo with its full path"
            ) from None
        if not os.path.exists(start):
            raise NotARepositoryError(f"Path does not exist: {start}")
        if not os.path.isdir(start):
            start = os.path.dirname(start)
        exe = git_executable()
        (proc,) = run_all([[exe, "-C", start, "rev-parse", "--show-toplevel"]], env=_base_env())
        if proc.returncode != 0:
            if b"work tree" in proc.stderr:  # a bare repository, or inside a .git folder
                raise NotARepositoryError(
                    f"{start} has no working tree (a bare repository, or inside .git): Segmint works on a working tree"
                )
            raise NotARepositoryError(f"Not a git repository (or any parent up to /): {start}")
        top = decode(proc.stdout).rstrip("\n")
        if not top:
            raise NotARepositoryError(f"Not inside a git work tree: {start}")
        return cls(top)

    # -- running -------------------------------------------------------------

    def argv(self, *args: str) -> list[str]:
        """The full command line, run from anywhere (``-C`` names the work tree)."""
        return [self.exe, "-C", self.root, *CONFIG_OVERRIDES, *args]

    def run(
        self,
        *args: str,
        input: bytes | None = None,
        env: dict[str, str] | None = None,
        check: bool = True,
    ) -> GitResult:
        (result,) = run_all([self.argv(*args)], env=_base_env(env), inputs=[input])
        if check and result.returncode != 0:
            raise self._error(args, result)
        return result

    def run_many(
        self,
        *commands: tuple[str, ...],
        may_fail: tuple[int, ...] = (),
        collectors: list[Collector | None] | None = None,
    ) -> list[GitResult]:
        """Run several read-only commands at once; results in the given order.

        A failing command raises, unless its index is listed in ``may_fail``.
        ``collectors`` may consume a command's output while it runs.
        """
        return self.start_many(*commands, may_fail=may_fail).finish(collectors)

    def start_many(self, *commands: tuple[str, ...], may_fail: tuple[int, ...] = ()) -> PendingRun:
        """``run_many``, started now and collected by ``.finish()``."""
        started = start_all([self.argv(*args) for args in commands], env=_base_env())
        return PendingRun(self, commands, may_fail, started)

    def _error(self, args: tuple[str, ...], result: GitResult) -> GitCommandError:
        err = decode(result.stderr).strip()
        first = err.splitlines()[0] if err else f"exit status {result.returncode}"
        return GitCommandError(
            f"git {args[0]} failed: {first}",
            returncode=result.returncode,
            stderr=err,
        )

    # -- facts about the repository -------------------------------------------

    @cached_property
    def git_dir(self) -> str:
        return self.run("rev-parse", "--absolute-git-dir").text.strip()

    @cached_property
    def object_format(self) -> str:
        """The repository's hash, ``sha1`` or ``sha256``."""
        return read_object_format(self.run("rev-parse", "--show-object-format").text)

    @property
    def zero_oid(self) -> str:
        """ "No object" in this repository's hash: 40 zeros (SHA-1), 64 (SHA-256); plumbing that takes
        an object id (``update-index --index-info``) takes only one of the repository's length."""
        return zero_oid_of(self.object_format)

    def head(self) -> str | None:
        """HEAD's commit id, or None on an unborn branch."""
        return self.commit_id("HEAD")

    def commit_id(self, rev: str) -> str | None:
        """The id of the commit ``rev`` names, or None if it names none."""
        res = self.run("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False)
        return res.text.strip() or None if res.returncode == 0 else None

    def head_ref(self) -> str | None:
        """The branch HEAD points at (``refs/heads/main``), or None when detached."""
        res = self.run("symbolic-ref", "--quiet", "HEAD", check=False)
        return res.text.strip() or None if res.returncode == 0 else None

    def operation_in_progress(self) -> str | None:
        """Name of a merge, rebase, cherry-pick or revert under way, if any."""
        markers = {
            "MERGE_HEAD": "a merge",
            "rebase-merge": "a rebase",
            "rebase-apply": "a rebase or am",
            "CHERRY_PICK_HEAD": "a cherry-pick",
            "REVERT_HEAD": "a revert",
            "sequencer": "a cherry-pick or revert",  # of several commits, between two of them
        }
        for name, what in markers.items():
            if os.path.exists(os.path.join(self.git_dir, name)):
                return what
        return None

    def unmerged_paths(self) -> list[str]:
        """Paths the index holds in conflict (stages 1 to 3), each once, in index order."""
        listed = self.run("ls-files", "--unmerged", "-z").stdout.split(b"\0")
        return list(dict.fromkeys(decode(entry.split(b"\t", 1)[1]) for entry in listed if b"\t" in entry))


def changed_paths(git: Git) -> list[str]:
    """The paths Segmint's changes are read from, sorted: the files whose index or work-tree content
    differs from HEAD's, a submodule whose commit moved (not for edits inside it), and what is new and
    not ignored (a repository nested in the tree by its folder)."""
    listed = git.run(
        "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=dirty"
    ).stdout.split(b"\0")
    return sorted({decode(entry[3:].rstrip(b"/")) for entry in listed if len(entry) > 3})


def read_blobs(git: Git, oids: list[str]) -> dict[str, bytes]:
    """Contents of blobs by id, in one ``git cat-file --batch``."""
    wanted = sorted(set(oids))
    if not wanted:
        return {}
    out = git.run("cat-file", "--batch", input=("\n".join(wanted) + "\n").encode()).stdout
    result: dict[str, bytes] = {}
    pos = 0
    for oid in wanted:
        eol = out.index(b"\n", pos)
        header = out[pos:eol].split()
        pos = eol + 1
        if len(header) < 3 or header[1] == b"missing":
            raise GitCommandError(f"object {oid} is missing from the repository")
        size = int(header[2])
        result[oid] = out[pos : pos + size]
        pos += size + 1
    return result


class PendingRun:
    """Git commands already running; ``finish`` reads them like ``run_many``."""

    def __init__(
        self,
        git: Git,
        commands: tuple[tuple[str, ...], ...],
        may_fail: tuple[int, ...],
        started: Started,
    ) -> None:
        self.git = git
        self.commands = commands
        self.may_fail = may_fail
        self.started = started

    def finish(self, collectors: list[Collector | None] | None = None) -> list[GitResult]:
        results = self.started.finish(collectors)
        for n, (args, result) in enumerate(zip(self.commands, results)):
            if result.returncode != 0 and n not in self.may_fail:
                raise self.git._error(args, result)
        return results
