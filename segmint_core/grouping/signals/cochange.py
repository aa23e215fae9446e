"""Files the repository has changed together: evidence from its history, not the diff.

For two changed files, the commits of the recent history (``history.py``)
that touched each: when some touched both, their units link by the share of
the rarer file's commits that did (``both / (fewer + 1)``, so one commit
together says less than ten); when each changed at least ``NEVER_AFTER``
times and never together, they link with a negative strength (evidence
apart). Otherwise (a new file, or too little history to say) two files in
different folders fall back on their folders': the share of commits touching
both. A file-level link is spread over the units of the two files as
``files.py`` spreads a shared folder, over at most 16 unit pairs.

The shipped model gives these links no weight (docs/experiments/untangling.md: held out they cost
single commits and gain nothing at k=2 or 3), so ``group_changes`` reads no
history; the benchmark computes them and ``--add cochange`` measures them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from segmint_core.grouping.history import History, folder_of
from segmint_core.grouping.model import Model
from segmint_core.grouping.links import Link
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.signals.files import DIRECTORY_PAIR_CAP, _spread
from segmint_core.grouping.units import Unit

COCHANGE = "cochange"
FOLDERS = "cochange:folder"
NEVER = "cochange:never"
NEVER_AFTER = 3  # commits each file needs before never changing together says something
KINDS = (COCHANGE, FOLDERS, NEVER)
# Beyond this many changed files (a benchmark case has at most 36) every pair of
# files would be looked up: a change set that large is left to the diff's evidence.
MAX_FILES = 60


def weighed(model: Model) -> bool:
    """Whether ``model`` gives these links any weight: if not, grouping need not read history."""
    return any(model.coefficient(kind) for kind in KINDS)


def links(ctx: Context) -> Iterator[Link]:
    history = ctx.history
    if history is None or not history.commits:
        return
    files: dict[str, list[Unit]] = defaultdict(list)
    for unit in ctx.units:
        files[unit.path].append(unit)
    known = [p for p in sorted(files) if p in history.by_file or folder_of(p) in history.by_folder]
    if len(known) > MAX_FILES:
        return
    for x, p in enumerate(known):
        for q in known[x + 1 :]:
            found = file_pair(history, p, q)
            if found is not None:
                kind, weight, detail = found
                yield from _spread(files[p], files[q], weight, kind, detail, DIRECTORY_PAIR_CAP)


def file_pair(history: History, p: str, q: str) -> tuple[str, float, str] | None:
    """The link between files ``p`` and ``q``: (kind, strength, detail), or None."""
    mine, theirs = history.by_file.get(p), history.by_file.get(q)
    if mine and theirs:
        both = len(mine & theirs)
        fewer = min(len(mine), len(theirs))
        if both:
            return COCHANGE, both / (fewer + 1), detail(p, q, both, history.read)
        if fewer >= NEVER_AFTER:
            return NEVER, -1.0, detail(p, q, 0, history.read)
    if folder_of(p) == folder_of(q):
        return None  # one folder: ``files.py`` weighs that
    here, there = history.by_folder.get(folder_of(p)), history.by_folder.get(folder_of(q))
    if not here or not there:
        return None
    both = len(here & there)
    if not both:
        return None
    return FOLDERS, both / (min(len(here), len(there)) + 1), detail(_named(p), _named(q), both, history.read)


def _named(path: str) -> str:
    """A file's folder as reasons name it (``src/``, ``./`` at the top)."""
    folder = folder_of(path)
    return f"{folder}/" if folder else "./"


def detail(p: str, q: str, both: int, read: int) -> str:
    """What a reason says of a link: the two paths (folders end in ``/``), commits together, commits read."""
    return f"{p}\n{q}\n{both}\n{read}"


def split_detail(text: str) -> tuple[str, str, int, int]:
    p, q, both, read = text.split("\n")
    return p, q, int(both), int(read)
