"""One repository and k of the provenance bench: every case replayed under every scenario, scored."""

from __future__ import annotations

import os
import shutil
import statistics
from collections import Counter
from collections.abc import Callable

from segmint_bench.messages.scoring import word_f1
from segmint_bench.provenance.replay import Scenario, replay
from segmint_bench.untangle.cache import Cache
from segmint_bench.untangle.corpus import Selection, Tangle, load_tangles, repo_name
from segmint_bench.untangle.labels import grouping_labels
from segmint_bench.untangle.metrics import score
from segmint_bench.untangle.workspace import Workspace
from segmint_core.config import Settings
from segmint_core.git import Git, decode
from segmint_core.grouping import group_changes
from segmint_core.planning.conventional import parse_subject
from segmint_core.rewrite.stack import made
from segmint_core.session.store import FOLDER
from segmint_core.trajectory.provenance.attribution import line_provenance
from segmint_core.trajectory.provenance.store import STORE_DIR

TITLED = "one prompt per commit"
KEPT = {STORE_DIR[1], "house-style.json"}  # what a case leaves for the next in .git/segmint: nothing of a session


def run_repo(
    repo: str,
    selection: Selection,
    cache: Cache,
    scenarios: list[Scenario],
    *,
    titles: bool,
    log: Callable[[str], None],
) -> list[dict]:
    tangles = load_tangles(repo, selection, cache, log)
    name = repo_name(repo)
    rows: list[dict] = []
    with Workspace(repo) as workspace:
        for number, tangle in enumerate(tangles, start=1):
            rows += _case(workspace, tangle, scenarios, selection, name, titles)
            shown = ", ".join(f"{r['scenario']}: {r['ari']:.2f}" for r in rows[-len(scenarios) :])
            log(f"{name} k={selection.k} case {number}/{len(tangles)}: offline {rows[-1]['offline_ari']:.2f}; {shown}")
    return rows


def _case(
    workspace: Workspace, tangle: Tangle, scenarios: list[Scenario], selection: Selection, name: str, titles: bool
) -> list[dict]:
    changes, keys = tangle.changes, tangle.keys
    truth = [tangle.truth[key] for key in keys]
    rewritten = rewrites_earlier_lines(workspace.git, tangle.case.commits)
    offline, offline_groups = None, 0
    settings = Settings()  # grouped as a session groups, with its model
    rows = []
    for scenario in scenarios:
        replayed = replay(workspace.git, tangle.case, scenario, selection.seed)
        if offline is None:
            grouping = group_changes(changes, timeline=None, provenance=None, root=workspace.root, settings=settings)
            offline, offline_groups = score(truth, grouping_labels(grouping, changes, keys)), len(grouping.groups)
        provenance = line_provenance(workspace.root, changes)
        grouping = group_changes(changes, timeline=None, provenance=provenance, root=workspace.root, settings=settings)
        ours = score(truth, grouping_labels(grouping, changes, keys))
        row = {
            "repo": name,
            "k": selection.k,
            "case": tangle.case.name,
            "scenario": scenario.name,
            "ari": ours.ari,
            "exact": ours.exact,
            "offline_ari": offline.ari,
            "offline_exact": offline.exact,
            "groups": len(grouping.groups),
            "offline_groups": offline_groups,
            "lines": len(keys),
            "rewrites": rewritten,
            "edits": replayed.edits,
            "unrecorded": replayed.unrecorded,
            "prompts": replayed.prompts,
        }
        if titles and scenario.name == TITLED:
            proposed = _titles(workspace.git, tangle, replayed.subjects)
            row["titles"] = proposed
            row["title_f1"] = statistics.fmean(p["f1"] for p in proposed) if proposed else None
        rows.append(row)
    return rows


MEANINGFUL = 4  # characters (stripped) a line needs to count as one a later commit rewrote


def rewrites_earlier_lines(git: Git, commits: tuple[str, ...]) -> bool:
    """Whether a later commit of the case removes a line an earlier one of it added (a fix-up, a
    formatter's pass over new lines): the tree never held that line as first written, so no cut of
    the final diff gives both commits back, and blame's truth gives the line to the later one."""
    patches = made(git, list(commits))
    added: set[str] = set()
    for sha in commits:
        lines = decode(patches[sha].patch).splitlines()
        removed = {line[1:].strip() for line in lines if line.startswith("-") and not line.startswith("---")}
        if {text for text in removed if len(text) >= MEANINGFUL} & added:
            return True
        added |= {line[1:].strip() for line in lines if line.startswith("+") and not line.startswith("+++")}
    return False


def _titles(git: Git, tangle: Tangle, subjects: list[str]) -> list[dict]:
    """For each real commit, the title of the proposed commit holding most of its lines, and its word F1."""
    from segmint_core.session.session import Session

    _forget_session(git)
    session = Session(git, settings=Settings())
    plans = session.propose_commits()
    plan_of: dict[tuple[str, int], int] = {}
    for n, plan in enumerate(plans):
        for hunk_id in plan.hunk_ids:
            unit = session.units.by_id.get(hunk_id)
            for ref in unit.refs if unit is not None else ():
                plan_of[ref] = n
    votes: dict[int, Counter] = {}
    for key, commit in tangle.truth.items():
        if key in plan_of:
            votes.setdefault(commit, Counter())[plan_of[key]] += 1
    found = []
    for commit, counter in sorted(votes.items()):
        title = plans[counter.most_common(1)[0][0]].title
        real = subjects[commit]
        found.append(
            {"real": real, "proposed": title, "f1": word_f1(parse_subject(title).text, parse_subject(real).text)}
        )
    _forget_session(git)
    return found


def _forget_session(git: Git) -> None:
    folder = os.path.join(git.git_dir, FOLDER)
    if not os.path.isdir(folder):
        return
    for entry in os.listdir(folder):
        if entry not in KEPT:
            path = os.path.join(folder, entry)
            shutil.rmtree(path) if os.path.isdir(path) else os.unlink(path)
