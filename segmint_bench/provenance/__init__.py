"""``segmint bench provenance REPO...``: grouping and titles from recorded intents, on real histories.

The cases are ``bench untangle``'s (k consecutive commits by one author,
tangled into one dirty tree, every changed line owned by its commit). Each is
replayed as agent sessions (``replay.py``) under several scenarios: one prompt
per commit, 1-3 prompts per commit with follow-ups worded as follow-ups (each
commit in its own session, or all in one session one after the other), 25% or
50% of the edits made with no hook, and a formatter pass. Grouping with the
recorded provenance is scored per changed line against the real commits
(ARI, single commits kept whole at k=1) beside the offline engine on the same
tree; titles proposed as ``segmint plan`` would are compared with the real
subjects (word F1 of the description). Nothing here is fitted: the rules of
``grouping.provenance`` and ``trajectory.provenance.prompts`` are fixed, so no
leave-one-repository-out is needed.
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict
from collections.abc import Callable

from segmint_bench import BenchReport
from segmint_core.errors import SegmintError

ARI_TARGETS = {
    "one prompt per commit": 0.95,
    "follow-ups": 0.85,
    "follow-ups, one session": 0.85,
    "25% unrecorded": 0.85,
    "50% unrecorded": 0.75,
    "formatter pass": 0.95,
}
KEPT_WHOLE_TARGET = 0.98
TITLE_F1_TARGET = 0.5


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    from segmint_bench.untangle import add_selection_options

    p = subparsers.add_parser(
        "provenance",
        description="Replay k consecutive commits of each REPO as coding-agent sessions recorded by the hook, "
        "group the tree with the recorded intents and without them, and score both against the "
        "real commits; titles from the prompts are compared with the real subjects.",
    )
    p.add_argument("repos", metavar="REPO", nargs="+", help="git repositories (or bundles); cloned, never touched")
    p.add_argument("--k", type=int, nargs="+", default=[1, 2, 3], help="commits per case (default 1 2 3)")
    p.add_argument("--n", type=int, default=20, help="cases per repository and k (default 20)")
    p.add_argument(
        "--scenarios",
        nargs="+",
        metavar="NAME",
        help="only these scenarios (by the start of their name: one, follow, 25, 50, formatter)",
    )
    p.add_argument("--no-titles", action="store_true", help="skip proposing commits for the titles (faster)")
    p.add_argument(
        "--below", action="store_true", help="also list the cases where the record scores below the offline engine"
    )
    p.add_argument("--json", action="store_true", help="print every figure, per case too, as JSON")
    add_selection_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> BenchReport:
    from segmint_bench.provenance.runner import run_repo
    from segmint_bench.provenance.replay import SCENARIOS
    from segmint_bench.timing import progress
    from segmint_bench.untangle import selections
    from segmint_bench.untangle.cache import Cache

    chosen = [s for s in SCENARIOS if not args.scenarios or any(s.name.startswith(w) for w in args.scenarios)]
    if not chosen:
        raise SegmintError(
            f"No scenario starts with {', '.join(args.scenarios)}: choose among {', '.join(s.name for s in SCENARIOS)}"
        )
    rows: list[dict] = []
    for repo in args.repos:
        for selection in selections(args, args.k):
            rows += run_repo(repo, selection, Cache(args.cache), chosen, titles=not args.no_titles, log=progress)
    summary = summarize(rows)
    text = format_summary(summary, args)
    if args.below:
        text += "\n" + format_below(rows)
    return BenchReport({"summary": summary, "cases": rows}, text)


def summarize(rows: list[dict]) -> dict:
    """Mean figures per scenario and k, over every repository; per repository too."""
    out: dict = {"by_k": {}, "by_repo": {}}
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        groups[(row["scenario"], row["k"])].append(row)
        groups[(row["scenario"], row["k"], row["repo"])].append(row)
    for key, members in groups.items():
        figures = _figures(members)
        if len(key) == 2:
            out["by_k"].setdefault(key[0], {})[str(key[1])] = figures
        else:
            out["by_repo"].setdefault(key[0], {}).setdefault(str(key[1]), {})[key[2]] = figures
    titled = [r["title_f1"] for r in rows if r.get("title_f1") is not None]
    out["title_f1"] = statistics.fmean(titled) if titled else None
    out["titles"] = len(titled)
    return out


def _figures(rows: list[dict]) -> dict:
    plain = [r for r in rows if not r.get("rewrites")]
    return {
        "cases": len(rows),
        "ari": statistics.fmean(r["ari"] for r in rows),
        # the cases where no commit rewrites lines an earlier one added: blame's truth holds there
        "cases_without_rewrites": len(plain),
        "ari_without_rewrites": statistics.fmean(r["ari"] for r in plain) if plain else None,
        "offline_ari": statistics.fmean(r["offline_ari"] for r in rows),
        "exact": statistics.fmean(r["exact"] for r in rows),
        "offline_exact": statistics.fmean(r["offline_exact"] for r in rows),
        "below_offline": len(below_offline(rows)),
    }


def below_offline(rows: list[dict]) -> list[dict]:
    """The cases where grouping with the record scored below the offline engine on the same tree."""
    return [r for r in rows if r["ari"] < r["offline_ari"] - 1e-9]


def format_below(rows: list[dict]) -> str:
    found = below_offline(rows)
    lines = [f"Cases below the offline engine: {len(found)}"]
    for r in found:
        lines.append(
            f"  {r['scenario']:26} {r['repo']} k={r['k']} {r['case']}: ARI {r['ari']:.3f} (offline "
            f"{r['offline_ari']:.3f}), {r['lines']} changed lines, {r['groups']} groups "
            f"(offline {r['offline_groups']}), {r['unrecorded']} of {r['edits']} edits unrecorded"
        )
    return "\n".join(lines)


def format_summary(summary: dict, args: argparse.Namespace) -> str:
    lines = [f"Provenance bench: {len(args.repos)} repositories, up to {args.n} cases per k (seed {args.seed})"]
    header = (
        f"  {'scenario':26} {'k':>2} {'cases':>5} {'ARI':>6} {'offline':>8} {'whole/exact':>12} {'below':>6} "
        f"{'no rewrites':>16}  target"
    )
    lines.append(header)
    for scenario, per_k in summary["by_k"].items():
        for k, f in sorted(per_k.items()):
            target = ARI_TARGETS.get(scenario)
            if k == "1":
                mark = f"whole >= {KEPT_WHOLE_TARGET:.2f} {'met' if f['exact'] >= KEPT_WHOLE_TARGET else 'NOT met'}"
            elif target is not None:
                mark = f"ARI >= {target:.2f} {'met' if f['ari'] >= target else 'NOT met'}"
            else:
                mark = ""
            plain = f["ari_without_rewrites"]
            clean = f"{plain:6.3f} ({f['cases_without_rewrites']:>3})" if plain is not None else "-"
            lines.append(
                f"  {scenario:26} {k:>2} {f['cases']:>5} {f['ari']:6.3f} {f['offline_ari']:8.3f} "
                f"{f['exact']:6.0%}/{f['offline_exact']:<5.0%} {f['below_offline']:>6} {clean:>16}  {mark}"
            )
    if summary["title_f1"] is not None:
        ok = "met" if summary["title_f1"] >= TITLE_F1_TARGET else "NOT met"
        lines.append(
            f"  title word F1 (one prompt per commit, {summary['titles']} commits): "
            f"{summary['title_f1']:.3f}  target >= {TITLE_F1_TARGET} {ok}"
        )
    lines.append(
        "  (ARI: per changed line against the real commits; whole/exact: the case's commits recovered "
        "exactly, at k=1 the commit kept as one group; below: cases below the offline engine; no rewrites: "
        "ARI over the cases where no commit removes a line an earlier one of the case added, and how many: "
        "elsewhere blame gives a rewritten line to the later commit, Segmint to the first)"
    )
    return "\n".join(lines)


Log = Callable[[str], None]
