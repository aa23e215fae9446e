"""Untracked files as ``added`` file patches, shaped exactly as ``git diff`` would.

Listing must not write to the index (no ``git add -N``), so the patch for an
untracked file is built here from its bytes: same header, same hunk header
(count omitted when it is 1), same ``\\ No newline at end of file`` marker.
Unlike git's, these bytes have not been through the file's clean filter or
eol conversion (``FilePatch.unfiltered``): committing applies them then.
"""

from __future__ import annotations

import hashlib
import os
import stat

from segmint_core.changes.models import ADDED, FilePatch, Hunk
from segmint_core.changes.paths import quote
from segmint_core.git_modes import EXECUTABLE, GITLINK, REGULAR, SYMLINK

BINARY_SNIFF_BYTES = 8000  # what git inspects for a NUL byte
NO_NEWLINE = "\\ No newline at end of file"


class UntrackedFile:
    """An untracked file's path, git mode, content and blob id (in the repository's object format)."""

    __slots__ = ("path", "mode", "data", "oid")

    def __init__(self, path: str, mode: str, data: bytes, object_format: str = "sha1") -> None:
        self.path = path
        self.mode = mode
        self.data = data
        self.oid = blob_oid(data, object_format)


def blob_oid(data: bytes, object_format: str = "sha1") -> str:
    """The id git gives a blob with this content, in ``object_format`` (``sha1`` or ``sha256``)."""
    h = hashlib.new(object_format, b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def read_untracked(root: str, rel: str, object_format: str = "sha1") -> UntrackedFile | None:
    """The file's mode and content as git would store it; None if it vanished."""
    full = os.path.join(root, rel)
    try:
        st = os.lstat(full)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return UntrackedFile(rel, SYMLINK, os.fsencode(os.readlink(full)), object_format)
    if stat.S_ISDIR(st.st_mode):
        # A nested repository: git would add it as a gitlink to its HEAD.
        return UntrackedFile(rel.rstrip("/"), GITLINK, b"", object_format)
    if not stat.S_ISREG(st.st_mode):
        return None
    mode = EXECUTABLE if st.st_mode & stat.S_IXUSR else REGULAR
    try:
        with open(full, "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    return UntrackedFile(rel, mode, data, object_format)


def untracked_patch(file: UntrackedFile) -> FilePatch:
    path = file.path
    header = [
        f"diff --git {quote('a/' + path)} {quote('b/' + path)}",
        f"new file mode {file.mode}",
    ]
    fp = FilePatch(None, path, ADDED, new_mode=file.mode)
    fp.unfiltered = True  # read from the work tree, not through git's filters
    if file.mode == GITLINK:
        fp.header_lines = header
        return fp
    zero = "0" * len(file.oid)  # "no object", as long as the repository's ids
    fp.old_oid, fp.new_oid = zero, file.oid
    header.append(f"index {zero}..{file.oid}")
    data = file.data
    if b"\0" in data[:BINARY_SNIFF_BYTES]:
        fp.binary = True
        header.append(f"Binary files /dev/null and {quote('b/' + path)} differ")
        fp.header_lines = header
        return fp
    fp.header_lines = header
    if not data:
        return fp
    header += ["--- /dev/null", f"+++ {quote('b/' + path)}"]
    # Built as raw bytes, like a parsed hunk body: decoded only if read.
    if data.endswith(b"\n"):
        body = b"+" + data[:-1].replace(b"\n", b"\n+")
    else:
        body = b"+" + data.replace(b"\n", b"\n+") + b"\n" + NO_NEWLINE.encode()
    count = body.count(b"\n+") + 1
    hunk_header = "@@ -0,0 +1 @@" if count == 1 else f"@@ -0,0 +1,{count} @@"
    fp.hunks = [Hunk("", 0, 0, 1, count, hunk_header, body=body)]
    return fp
