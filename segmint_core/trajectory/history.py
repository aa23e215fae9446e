"""Reading the shadow repository's log back into objects."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from segmint_core.git import decode
from segmint_core.trajectory import commit_messages as msgs
from segmint_core.trajectory.clock import parse_iso
from segmint_core.trajectory.commit_messages import ProjectHead
from segmint_core.trajectory.shadow import FileStat, ShadowRepo, parse_raw_numstat
from segmint_core.wire import to_wire

RECORD = "\x1e"
FIELD = "\x1f"
LOG_FORMAT = "--format=%x1e%H%x1f%P%x1f%aI%x1f%s%x1f%b%x1f"
# Patches for reading (tool output): stable shape, abbreviated blob ids.
SHOW_OPTIONS = (
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    "--no-renames",
    "--unified=3",
)


@dataclass(frozen=True)
class ShadowCommit:
    """One commit of the shadow repository."""

    commit: str
    parent: str | None
    when: datetime
    subject: str
    kind: str
    intent: str | None
    project_head: ProjectHead | None
    files: tuple[FileStat, ...] = field(default=())

    def to_dict(self) -> dict:
        data = {
            "commit": self.commit,
            "time": self.when.isoformat(),
            "kind": self.kind,
            "message": self.subject,
            "intent": self.intent,
            "project_head": None if self.project_head is None else to_wire(self.project_head),
        }
        return data


@dataclass(frozen=True)
class FileVersion:
    """A commit that touched one file, and the file's blob after it (None: deleted)."""

    commit: ShadowCommit
    blob: str | None
    status: str  # added, modified, deleted


def read_log(shadow: ShadowRepo, *, limit: int | None = None, with_files: bool = False) -> list[ShadowCommit]:
    """The shadow history, newest first (first parents only)."""
    if shadow.head() is None:
        return []
    args = ["log", "--first-parent", LOG_FORMAT, "-z"]
    if limit is not None:
        args.append(f"-n{limit}")
    if with_files:
        args += ["--no-renames", "--raw", "--numstat"]
    out = shadow.run(*args, "HEAD").stdout
    commits = []
    for record in out.split(RECORD.encode())[1:]:
        commit, tail = _parse_record(record)
        if with_files:
            commit = _with_files(commit, parse_raw_numstat(tail.lstrip(b"\0\n")))
        commits.append(commit)
    return commits


def trailing_snapshots(shadow: ShadowRepo) -> list[ShadowCommit]:
    """The ``[AUTO-TRJ]`` snapshots at the tip, newest first, up to the first other commit."""
    run = []
    for commit in read_log(shadow):
        if commit.kind != msgs.SNAPSHOT:
            break
        run.append(commit)
    return run


def file_history(shadow: ShadowRepo, path: str) -> list[FileVersion]:
    """Every commit that touched ``path``, oldest first, with the blob it left."""
    if shadow.head() is None:
        return []
    out = shadow.run(
        "log", "--first-parent", LOG_FORMAT, "-z", "--no-renames", "--raw", "--no-abbrev", "HEAD", "--", path
    ).stdout
    versions = []
    for record in out.split(RECORD.encode())[1:]:
        commit, tail = _parse_record(record)
        tokens = [t.lstrip(b"\n") for t in tail.split(b"\0")]
        # Raw entries come as (":<modes> <oids> <status>", path) pairs; a folder's
        # pathspec matches the files under it, which are not this file.
        for meta_raw, path_raw in zip(tokens, tokens[1:]):
            if meta_raw.startswith(b":") and decode(path_raw) == path:
                meta = decode(meta_raw).split(" ")
                blob = None if meta[3] == shadow.zero_oid else meta[3]
                status = {"A": "added", "D": "deleted"}.get(meta[4][:1], "modified")
                versions.append(FileVersion(commit, blob, status))
                break
    versions.reverse()
    return versions


def commit_diffs(shadow: ShadowRepo, commits: list[str], path: str) -> dict[str, str]:
    """Each commit's changes to one file, by commit id: its hunks, without the file header."""
    if not commits:
        return {}
    out = shadow.run("show", "--format=%x1e%H", *SHOW_OPTIONS, *commits, "--", path).text
    diffs = {}
    for record in out.split(RECORD)[1:]:
        commit, _, diff = record.partition("\n")
        diffs[commit] = _hunks_only(diff.strip("\n"))
    return diffs


def _hunks_only(diff: str) -> str:
    """A one-file patch minus its ``diff --git``/``index``/``---``/``+++`` lines (the file is known)."""
    lines = diff.split("\n")
    for n, line in enumerate(lines):
        if line.startswith("@@"):
            return "\n".join(lines[n:])
    return "\n".join(line for line in lines if line.startswith("Binary files"))


def _parse_record(record: bytes) -> tuple[ShadowCommit, bytes]:
    fields = record.split(FIELD.encode(), 5)
    sha, parents, date, subject, body = (decode(f) for f in fields[:5])
    tail = fields[5] if len(fields) > 5 else b""
    trailers = msgs.trailers_of(body)
    head = trailers.get(msgs.HEAD_TRAILER)
    commit = ShadowCommit(
        commit=sha,
        parent=parents.split(" ")[0] if parents else None,
        when=parse_iso(date),
        subject=subject,
        kind=msgs.kind_of(subject),
        intent=trailers.get(msgs.INTENT_TRAILER) or None,
        project_head=ProjectHead.from_trailer(head) if head else None,
    )
    return commit, tail


def _with_files(commit: ShadowCommit, files: list[FileStat]) -> ShadowCommit:
    return ShadowCommit(
        commit.commit,
        commit.parent,
        commit.when,
        commit.subject,
        commit.kind,
        commit.intent,
        commit.project_head,
        tuple(files),
    )
