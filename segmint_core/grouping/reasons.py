"""Reasons: the links inside a group, written as short sentences naming the evidence."""

from __future__ import annotations

from operator import itemgetter

from segmint_core.changes.generated import LARGE_CHANGE_CHARS, is_generated
from segmint_core.grouping import vendored
from segmint_core.changes.kinds import CHANGELOG, DOCS
from segmint_core.grouping.model import Model
from segmint_core.grouping.signals import (
    cochange,
    dependencies,
    docs,
    exercises,
    files,
    identifiers,
    proximity,
    release,
    repeated,
    similarity,
    timeline,
)
from segmint_core.grouping.links import Link
from segmint_core.grouping.units import Unit

MAX_REASONS = 4
# Evidence a person recognises is named even when the fitted model gives its
# kind little weight of its own (a mention adds little beyond "a changelog
# entry linked to code", yet it is the reason to show).
EXPLAIN_FLOOR = 0.3
SILENT = {
    timeline.DIFFERENT_BURST,
    timeline.DIFFERENT_INTENT,
    cochange.NEVER,
}  # repelling: never a reason to be together
# Kinds whose links leaving a group explain it (the timeline's split of a file).
ACROSS = frozenset({timeline.DIFFERENT_INTENT})
# Which evidence a person finds most telling comes first (then by weight).
PRIORITY = {
    identifiers.DEF_USE: 0,
    docs.MENTION: 0,
    timeline.SAME_INTENT: 0,
    timeline.DIFFERENT_INTENT: 0,
    dependencies.DEPENDENCIES: 0,
    release.RELEASE: 0,
    release.ENTRY: 0,
    files.TEST_PAIR: 1,
    exercises.EXERCISES: 1,
    repeated.REPEATED: 1,
    repeated.MOVED: 1,
    identifiers.DEF_USE_CONTEXT: 1,
    proximity.SAME_SCOPE: 2,
    docs.MENTION_USE: 2,
    timeline.SAME_BURST: 2,
    docs.FILE_MENTION: 2,
    identifiers.SHARED: 3,
    proximity.SAME_HUNK: 3,
    proximity.NEARBY: 4,
    files.SAME_STEM: 4,
    cochange.COCHANGE: 4,
    proximity.SAME_FILE: 5,
    similarity.SIMILAR: 5,
    files.SAME_DIRECTORY: 6,
}
ALONE = "stands alone: no shared names, tests or nearby edits with the other changes"
ONLY = "the only change"


def group_reasons(
    units: list[Unit], links: list[Link], members: set[int], model: Model, *, others: bool = True
) -> list[str]:
    """Up to four sentences for the strongest evidence among ``members`` (unit indexes);
    ``others``: other groups exist to stand apart from. A vendored package's group says only that."""
    package = vendored.package_of([units[i] for i in members])
    if package is not None:
        return [vendored.reason(package)]
    found_by: dict[tuple[str, str], list] = {}  # per (kind's name, detail): [summed weight, units]
    weighed: dict[str, tuple[str, float] | None] = {}  # per kind: its name before any ":", its factor
    for a, b, strength, kind, detail in links:  # unpacked: a large group holds 10^5 links
        weighing = weighed.get(kind, _UNSEEN)
        if weighing is _UNSEEN:
            weighing = weighed[kind] = _weighing(kind, model)
        if weighing is None:
            continue
        weight = strength * weighing[1]
        if weight > 0 and a in members and b in members:
            key = (weighing[0], detail)
            entry = found_by.get(key)
            if entry is None:
                entry = found_by[key] = [0.0, set()]
            entry[0] += weight
            entry[1].add(a)
            entry[1].add(b)
    sentences: dict[str, tuple[int, float]] = {}
    for text in _kept_apart(links, members):
        sentences[text] = (PRIORITY[timeline.DIFFERENT_INTENT], 0.0)
    for key, (weight, holders) in found_by.items():
        said = _sentence(key[0], key[1], [units[i] for i in sorted(holders)])
        if said:
            rank, total = sentences.get(said, (PRIORITY.get(key[0], 9), 0.0))
            sentences[said] = (min(rank, PRIORITY.get(key[0], 9)), total + weight)
    ranked = sorted(sentences, key=lambda s: (sentences[s][0], -round(sentences[s][1], 6), s))
    if ranked:
        return ranked[:MAX_REASONS]
    return _solo_reasons([units[i] for i in sorted(members)], others)


_UNSEEN = ("", 0.0)  # a kind not weighed yet, told by identity (None: a kind never a reason)
_KIND = itemgetter(3)  # a link's kind


def _weighing(kind: str, model: Model) -> tuple[str, float] | None:
    """A kind's name before any ":" and the factor its strength counts for, None for a silent kind."""
    if kind in SILENT:
        return None
    return kind.split(":")[0], max(model.coefficient(kind), EXPLAIN_FLOOR)


def _kept_apart(links: list[Link], members: set[int]) -> list[str]:
    """For links leaving the group (``engine`` passes those of kinds in ``ACROSS``): which
    recorded intent of the group's edits kept them apart from which other."""
    if timeline.DIFFERENT_INTENT not in map(_KIND, links):  # looked for in C: most groups hold none
        return []
    out: dict[str, None] = {}
    for item in links:
        if item.kind != timeline.DIFFERENT_INTENT or (item.a in members) == (item.b in members):
            continue
        a_side, b_side = timeline.split_detail(item.detail)
        mine, theirs = (a_side, b_side) if item.a in members else (b_side, a_side)
        out[f'recorded under the intent "{_short(mine)}", kept apart from "{_short(theirs)}"'] = None
    return sorted(out)[:2]


def _sentence(kind: str, detail: str, units: list[Unit]) -> str | None:
    if kind in (identifiers.DEF_USE, identifiers.DEF_USE_CONTEXT):
        editors = [u for u in units if u.changes_name(detail)]
        if len(editors) >= 2:
            return f"{_both(editors)} change `{detail}`"
        code_users = [u for u in units if u not in editors and u.kind not in (CHANGELOG, DOCS)]
        if not code_users:
            return None  # only prose names it: the mention says so
        users = _paths(code_users)
        where = _paths(editors)
        if users == where:
            return f"`{detail}` is changed and used in {where}"
        return f"`{detail}` is changed in {where} and used in {users}"
    if kind == identifiers.SHARED:
        prose = [u for u in units if u.kind in (CHANGELOG, DOCS)]
        if prose and len(prose) < len(units):
            return f"{_prose_name(prose)} names `{detail}`"
        return f"{_both(units)} edit lines using `{detail}`"
    if kind == proximity.SAME_HUNK:
        return f"neighbouring lines of one hunk in {detail}"
    if kind == proximity.NEARBY:
        return f"nearby edits in {detail}"
    if kind == proximity.SAME_FILE:
        return f"edits in {detail}"
    if kind == proximity.SAME_SCOPE:
        return f"{_both(units)} change `{detail}`"  # worded as def-use's, so the two merge into one reason
    if kind == files.TEST_PAIR:
        return f"tests for {detail}"
    if kind == files.SAME_STEM:
        return f"files about `{units[0].path.rsplit('/', 1)[-1].split('.')[0]}`"
    if kind == files.SAME_DIRECTORY:
        return f"files in the same folder {detail}/" if detail else "files at the top level"
    if kind in (docs.MENTION, docs.MENTION_USE, docs.FILE_MENTION):
        naming = _prose_name([u for u in units if u.kind in (CHANGELOG, DOCS)])
        return f"{naming} names {detail}" if kind == docs.FILE_MENTION else f"{naming} names `{detail}`"
    if kind == repeated.MOVED:
        return f"moves lines: {_short(detail)}"
    if kind == repeated.REPEATED:
        return f"the same edit in {len(units)} places: {_short(detail)}"
    if kind == exercises.EXERCISES:
        tests = _paths([u for u in units if detail in u.calls])
        return f"{tests} tests `{detail}`, which the change edits" if tests else None
    if kind == dependencies.DEPENDENCIES:
        return f"dependencies change together: {detail}"
    if kind == release.RELEASE:
        return f"the release of {detail}: its changelog block and the version it sets"
    if kind == release.ENTRY:
        return f"the changelog entry for {detail} with the bump it describes"
    if kind == timeline.SAME_INTENT:
        return f"recorded under the same intent: {_short(detail)}"
    if kind == timeline.SAME_BURST:
        if not detail.isdigit():  # a burst that is a commit of the range being split
            return f"written in one commit of the range, {_short(detail)}"
        return "edited together in one burst of the edit timeline"
    if kind == similarity.SIMILAR:
        return "similar wording (embedding similarity)"
    if kind == cochange.COCHANGE:  # the folders' link too: its kind is cochange:folder
        return _changed_together(detail)
    return None


def _changed_together(detail: str) -> str:
    p, q, both, read = cochange.split_detail(detail)
    names = f"files in {p} and {q}" if p.endswith("/") else f"{p} and {q}"
    return f"{names} changed together in {both} of the last {read} commits"


def _kept_whole(unit: Unit) -> str:
    if not is_generated(unit.path) and sum(h.size for h in unit.change.hunks) > LARGE_CHANGE_CHARS:
        return f"{unit.path} changes by over {LARGE_CHANGE_CHARS // 1_000_000} MB, kept whole"
    return f"generated file {unit.path}, kept whole"


def _solo_reasons(units: list[Unit], others: bool) -> list[str]:
    made = [u for u in units if u.generated]
    if made and len(made) == len(units):
        return [_kept_whole(u) for u in made][:MAX_REASONS]
    hunkless = [u for u in units if u.hunk is None]
    if hunkless and len(hunkless) == len(units):
        change = hunkless[0].change
        if change.old_path:
            return [f"renames {change.old_path} to {change.file_path}"]
        return [f"{change.status} file {change.file_path} with no text changes"]
    if len({u.path for u in units}) == 1 and len(units) > 1:
        return [f"edits in {units[0].path}"]
    return [ALONE] if others else [ONLY]


def _prose_name(units: list[Unit]) -> str:
    if any(u.kind == CHANGELOG for u in units):
        return "changelog entry"
    paths = sorted({u.path for u in units})
    return paths[0] if len(paths) == 1 else "docs"


def _both(units: list[Unit]) -> str:
    return "both" if len(units) <= 2 else f"{len(units)} hunks"


def _paths(units) -> str:
    paths = sorted({u.path for u in units})
    if len(paths) > 2:
        return f"{paths[0]}, {paths[1]} and {len(paths) - 2} more"
    return " and ".join(paths)


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
