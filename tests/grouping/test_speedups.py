"""The speed-ups of grouping change no result: each fast path against the plain
computation it replaces, on generated input and on real histories."""

from __future__ import annotations

import keyword
from collections import Counter, defaultdict
from collections.abc import Iterator
from itertools import islice
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from segmint_bench.untangle.corpus import Selection, tangles
from segmint_bench.untangle.synthetic import synthetic_changes
from segmint_bench.untangle.workspace import Workspace
from segmint_core.changes import capture
from segmint_core.errors import SegmintError
from segmint_core.git import Git
from segmint_core.grouping import graph, group_changes
from segmint_core.grouping.model import DEFAULT
from segmint_core.grouping import units as units_module
from segmint_core.grouping.embeddings import local as local_embeddings
from segmint_core.grouping.lexicon import IDENTIFIER, STOP_WORDS, identifiers
from segmint_core.grouping import reasons
from segmint_core.grouping.engine import evidence
from segmint_core.grouping.pair_evidence import PILING, PairEvidence, pair_evidence
from segmint_core.grouping.repository import Repository
from segmint_core.grouping.signals import proximity, similarity, timeline
from segmint_core.grouping.links import Link, link
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.syntax.facts import Parsed
from segmint_core.grouping.syntax.languages import grammar_for, loaded
from segmint_core.grouping.units import python_names
from tests.conftest import shared_data


def _dense_cosines(vectors: np.ndarray) -> np.ndarray:
    """What similarity used before: every column multiplied, in float32."""
    return np.asarray(vectors @ vectors.T, dtype=np.float32)


def _reference_links(ctx: Context) -> Iterator[Link]:
    """The similarity signal as it was written first: one row at a time."""
    vectors = ctx.embeddings
    n = len(ctx.units)
    sims = similarity.cosines(vectors)
    np.fill_diagonal(sims, -1.0)
    k = min(ctx.model.similarity_neighbours, n - 1)
    nearest = np.argpartition(-sims, k - 1, axis=1)[:, :k]
    floor = ctx.similarity_floor
    seen: set[tuple[int, int]] = set()
    for i in range(n):
        for j in sorted(int(x) for x in nearest[i]):
            pair = (i, j) if i < j else (j, i)
            if pair in seen:
                continue
            seen.add(pair)
            strength = (float(sims[i, j]) - floor) / (1.0 - floor)
            if strength > 0:
                yield link(i, j, strength, similarity.SIMILAR, f"{float(sims[i, j]):.2f}")


def _tfidf_like(rng: np.random.Generator, n: int, vocabulary: int, common: int) -> np.ndarray:
    """Unit-norm sparse rows: a dozen rare tokens each, and ``common`` tokens most rows hold."""
    matrix = np.zeros((n, vocabulary + common), dtype=np.float32)
    for row in range(n):
        cols = rng.choice(vocabulary, size=min(12, vocabulary), replace=False)
        matrix[row, cols] = rng.uniform(0.5, 3.0, size=len(cols))
        held = rng.random(common) < 0.8
        matrix[row, vocabulary:][held] = rng.uniform(0.1, 0.5, size=int(held.sum()))
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    return matrix


@pytest.mark.parametrize("seed", range(6))
def test_sparse_cosines_are_the_exact_products(seed: int) -> None:
    rng = np.random.default_rng(seed)
    vectors = _tfidf_like(rng, int(rng.integers(2, 300)), int(rng.integers(100, 400)), int(rng.integers(0, 4)))
    exact = (vectors.astype(np.float64) @ vectors.T.astype(np.float64)).astype(np.float32)
    found = similarity.cosines(vectors)
    off = ~np.eye(len(vectors), dtype=bool)
    assert found.dtype == np.float32
    assert np.array_equal(found[off], exact[off])


def test_dense_embeddings_are_multiplied_as_they_are() -> None:
    vectors = np.random.default_rng(1).normal(size=(40, 16)).astype(np.float32)
    assert np.array_equal(similarity.cosines(vectors), _dense_cosines(vectors))


@pytest.mark.parametrize(
    "rows", [0, 1, similarity.BLOCK_ROWS - 1, similarity.BLOCK_ROWS + 1, 3 * similarity.BLOCK_ROWS - 7]
)
def test_nonzeros_read_a_block_at_a_time_are_numpy_s(rows: int) -> None:
    """The flat read of each block's mask gives ``np.nonzero``'s rows and columns, in its order."""
    rng = np.random.default_rng(rows)
    for columns in (0, 1, 37, 400):
        vectors = np.where(rng.random((rows, columns)) < 0.05, rng.normal(size=(rows, columns)), 0.0).astype(np.float32)
        found, expected = similarity._nonzeros(vectors), np.nonzero(vectors)
        assert all(np.array_equal(f, e) and f.dtype == e.dtype for f, e in zip(found, expected))


@pytest.mark.parametrize("seed", range(4))
def test_the_vectorised_neighbour_links_are_the_row_by_row_ones(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 200))
    vectors = _tfidf_like(rng, n, int(rng.integers(3, 60)), 1)
    units = [SimpleNamespace(idents=set(), context_idents=set()) for _ in range(n)]
    ctx = Context(units, DEFAULT, None, vectors, 0.1)  # type: ignore[arg-type]
    assert list(similarity.links(ctx)) == list(_reference_links(ctx))


@pytest.mark.parametrize("n", [similarity.BLOCK_ROWS + 1, 3 * similarity.BLOCK_ROWS - 7])
def test_neighbours_found_a_block_of_rows_at_a_time_are_the_whole_matrix_s(n: int) -> None:
    """More rows than one block: each block's rows are partitioned as the whole matrix's were."""
    rng = np.random.default_rng(n)
    vectors = _tfidf_like(rng, n, 40, 2)  # few tokens: many equal cosines, so ties are broken as before
    units = [SimpleNamespace(idents=set(), context_idents=set()) for _ in range(n)]
    ctx = Context(units, DEFAULT, None, vectors, 0.1)  # type: ignore[arg-type]
    assert list(similarity.links(ctx)) == list(_reference_links(ctx))


def _groups(grouping) -> list[tuple]:
    return [(tuple(g.hunk_ids), tuple(g.change_ids), g.summary, tuple(g.reasons)) for g in grouping.groups]


def _group_both_ways(monkeypatch, changes, root: str) -> None:
    fast = _groups(group_changes(changes, timeline=None, root=root))
    with monkeypatch.context() as patch:
        patch.setattr(similarity, "_products", _dense_cosines)
        dense = _groups(group_changes(changes, timeline=None, root=root))
    assert fast == dense


def test_real_text_groups_as_with_the_dense_product(monkeypatch) -> None:
    """A synthetic change set of click's own text: the groups, their summaries and
    reasons are those the dense float32 product gave."""
    with Workspace(str(shared_data("click.bundle"))) as workspace:
        _group_both_ways(monkeypatch, synthetic_changes(workspace.git, workspace.head(), 600), workspace.root)


@pytest.mark.slow
def test_tangled_real_commits_group_as_with_the_dense_product(monkeypatch) -> None:
    with Workspace(str(shared_data("click.bundle"))) as workspace:
        selection = Selection(2, 6, first_parent=True)
        for _, tangle in islice(tangles(workspace, selection), selection.n):  # tangles yields every candidate
            _group_both_ways(monkeypatch, tangle.changes, workspace.root)


def _names_by_tokenize(path: str, lines: list[str]) -> set[str]:
    """How names were read before the regex shortcut: Python through ``tokenize``."""
    names = python_names(lines) if path.endswith(".py") else None
    return names if names is not None else set(identifiers("\n".join(lines)))


# Brackets come in pairs, or ``tokenize`` fails on most fragments and nothing is compared.
_CODE_CHARS = st.sampled_from(
    list("abcxyzAZ_019 .,:;=+-*/%<>!&|^~@$?`\t'\"#\\\x0c\r")
    + [
        "()",
        "[]",
        "{}",
        "f(x)",
        "(",
        ")",
        "e",
        "j",
        "if",
        "def",
        "self",
        "None",
        "1e5",
        "0x1f",
        "1_0",
        "é",
        "foo",
        "bar_baz",
        "Qux9",
        "'foo'",
        '"Qux9"',
        "# foo",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(_CODE_CHARS, max_size=30).map("".join), min_size=1, max_size=6))
def test_python_names_read_without_tokenize_are_those_tokenize_reads(lines: list[str]) -> None:
    assert units_module._names("a.py", lines) == _names_by_tokenize("a.py", lines)


def _features_word_by_word(text: str) -> Counter:
    """How the TF-IDF features of a text were counted before: a loop over its distinct words."""
    bag: Counter = Counter()
    for word, count in Counter(IDENTIFIER.findall(text)).items():
        for feature in local_embeddings._word_features(word):
            bag[feature] += count
    return bag


_WORDS = st.sampled_from(
    [
        "parseConfig",
        "parse_config",
        "parse",
        "config",
        "HTTPServer",
        "x",
        "self",
        "the",
        "getValue2",
        "_private",
        "URLPath",
        "a_b_c",
        "version",
        "1.2.3",
        "set_up",
        "setUp",
    ]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_WORDS, st.sampled_from([" ", "\n", ".", "(", "_", "-", ""])), max_size=40))
def test_features_counted_at_once_are_those_counted_word_by_word(parts: list[tuple[str, str]]) -> None:
    text = "".join(word + sep for word, sep in parts)
    assert dict(local_embeddings._features(text)) == dict(_features_word_by_word(text))


def test_every_python_keyword_is_a_stop_word() -> None:
    """The regex shortcut drops keywords only because the stop words hold them all."""
    assert all(word.lower() in STOP_WORDS for word in keyword.kwlist)


def _plain_average_linkage(
    n: int,
    affinity: dict[tuple[int, int], float],
    threshold: float,
    weights: list[float],
    together: list[tuple[int, int]],
) -> list[int]:
    """Average linkage as its definition reads: every linked pair of clusters' weighted
    mean looked at again before each merge, the best (ties: the lowest pair) merged."""
    label = list(range(n))

    def join(a: int, b: int) -> None:
        keep, gone = min(label[a], label[b]), max(label[a], label[b])
        for i in range(n):
            if label[i] == gone:
                label[i] = keep

    for a, b in together:
        join(a, b)
    while True:
        totals: dict[tuple[int, int], float] = {}
        for (a, b), value in affinity.items():
            la, lb = label[a], label[b]
            if la != lb:
                key = (min(la, lb), max(la, lb))
                totals[key] = totals.get(key, 0.0) + value * weights[a] * weights[b]
        size = {c: sum(w for i, w in enumerate(weights) if label[i] == c) for c in set(label)}
        candidates = sorted((-(t / (size[a] * size[b])), a, b) for (a, b), t in totals.items())
        if not candidates or -candidates[0][0] < threshold:
            return label
        join(candidates[0][1], candidates[0][2])


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 14).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.dictionaries(
                st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] < p[1]),
                st.integers(-8, 12).map(lambda q: q / 4),
                max_size=40,
            ),
            st.sampled_from([-1.0, 0.0, 0.25, 0.5, 1.0, 2.0]),
            st.lists(st.integers(1, 4).map(float), min_size=n, max_size=n),
            st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=4),
        )
    )
)
def test_linkage_merges_as_its_plain_definition(case) -> None:
    """Quarter affinities and whole weights keep every sum exact, so ties are frequent
    and broken as the definition says, whatever order the fast path adds in."""
    n, affinity, threshold, weights, together = case
    assert graph.average_linkage(n, affinity, threshold, weights, together=together) == _plain_average_linkage(
        n, affinity, threshold, weights, together
    )


def _names_by_row(parsed: Parsed) -> dict[int, list[str]]:
    """How names were read before the ranged query: every name of the file, by row."""
    import tree_sitter

    _, _, query = loaded(parsed.grammar.name)
    by_row: dict[int, list[str]] = {}
    for node in sorted(
        tree_sitter.QueryCursor(query).captures(parsed.tree.root_node).get("name", []), key=lambda n: n.start_byte
    ):
        by_row.setdefault(node.start_point[0], []).append(node.text.decode("utf-8", "surrogateescape"))
    return by_row


@pytest.mark.parametrize("repo", ["click", "cobra", "fd", "express"])
def test_names_read_over_a_unit_s_rows_are_those_of_the_whole_file(repo: str) -> None:
    """On real files of four languages: the names on any rows and within any range."""
    rng = np.random.default_rng(0)
    with Workspace(str(shared_data(f"{repo}.bundle"))) as workspace:
        paths = [
            p
            for p in workspace.git.run("ls-tree", "-r", "--name-only", workspace.head()).text.splitlines()
            if grammar_for(p) is not None
        ][:25]
        assert paths
        for path in paths:
            text = workspace.git.run("show", f"{workspace.head()}:{path}").text
            parsed = Parsed(grammar_for(path), text.split("\n"))
            by_row = _names_by_row(parsed)
            rows_count = len(parsed.lines)
            for _ in range(20):
                first = int(rng.integers(0, rows_count))
                last = min(rows_count - 1, first + int(rng.integers(0, 40)))
                rows = {int(r) for r in rng.integers(first, last + 1, size=int(rng.integers(1, 6)))}
                assert parsed.names_on(rows) == [n for r in sorted(rows) for n in by_row.get(r, ())]
                expected = [n for r in range(first, last + 1) for n in by_row.get(r, ())]
                assert parsed.names_within(first, last) == expected
                assert parsed.names_within(first, last) == expected  # read again: kept, as it was


def test_grouping_leaves_the_cycle_collector_as_it_found_it(repo) -> None:
    """Grouping pauses Python's cycle collector while it runs, and only then: on, it is on
    again afterwards (a failure included); off, it stays off."""
    import gc

    from tests.grouping.scenarios import two_intents

    changes = capture(Git(str(two_intents(repo).path)))
    assert gc.isenabled()
    group_changes(changes, timeline=None)
    assert gc.isenabled()
    with pytest.raises(SegmintError):
        group_changes(changes, provider="no such provider")
    assert gc.isenabled()
    gc.disable()
    try:
        group_changes(changes, timeline=None)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_text_parsed_again_reuses_its_tree_within_the_budget() -> None:
    from segmint_core.grouping.syntax.facts import _Trees

    trees = _Trees(budget=60)
    first = trees.tree("python", b"def f():\n    return 1\n")
    assert trees.tree("python", b"def f():\n    return 1\n") is first
    assert Parsed(grammar_for("a.py"), ["x = 1"]).tree.root_node.type == "module"
    trees.tree("python", b"y = 2\n" * 8)  # 48 bytes more: over the budget, the oldest goes
    assert trees.tree("python", b"def f():\n    return 1\n") is not first
    assert trees.tree("python", b"z = 3\n" * 20).root_node.type == "module"  # over the budget alone: parsed, not kept


def _plain_file_links(model, units) -> list[Link]:
    """Same-file proximity as it was written first: each pair's flavour and link made one by one."""
    out: list[Link] = []
    for x, a in enumerate(units):
        for y in range(x + 1, min(len(units), x + 1 + model.file_window)):
            b = units[y]
            flavour = proximity._flavour(a, b)
            out.append(link(a.index, b.index, 1.0, f"{proximity.SAME_FILE}:{flavour}", a.path))
            if a.hunk is b.hunk and a.end == b.start:
                out.append(link(a.index, b.index, 1.0, f"{proximity.SAME_HUNK}:{flavour}", a.path))
            elif y - x <= model.near_window:
                distance = abs(b.position - a.position)
                out.append(
                    link(
                        a.index,
                        b.index,
                        0.5 ** (distance / model.same_file_scale),
                        f"{proximity.NEARBY}:{flavour}",
                        a.path,
                    )
                )
            if a.scope and a.scope == b.scope:
                out.append(link(a.index, b.index, 1.0, proximity.SAME_SCOPE, a.scope))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_proximity_links_are_those_made_pair_by_pair(seed: int) -> None:
    """Changelog entries in and out of a release (whose flavour depends on the pair) among code and docs."""
    rng = np.random.default_rng(seed)
    hunks = [object() for _ in range(6)]
    units, start = [], 0
    for index in range(int(rng.integers(1, 80))):
        end = start + int(rng.integers(1, 4))
        units.append(
            SimpleNamespace(
                index=index,
                path="CHANGES.md",
                hunk=hunks[int(rng.integers(0, len(hunks)))],
                start=start,
                end=end,
                position=int(rng.integers(0, 400)),
                scope=[None, "", "main", "parse"][int(rng.integers(0, 4))],
                kind=["changelog", "changelog", "code", "docs"][int(rng.integers(0, 4))],
                release=bool(rng.random() < 0.3),
            )
        )
        start = end if rng.random() < 0.7 else 0
    assert proximity._file_links(DEFAULT, units) == _plain_file_links(DEFAULT, units)


def _plain_pair_evidence(links: list[Link], n: int) -> PairEvidence:
    """The pair evidence as written first: each link's key and weight read by a generator."""
    kinds = sorted({item.kind for item in links})
    index = {k: i for i, k in enumerate(kinds)}
    m = max(len(kinds), 1)
    keys = np.fromiter(((item.a * n + item.b) * m + index[item.kind] for item in links), np.int64, len(links))
    weights = np.fromiter((item.weight for item in links), np.float64, len(links))
    cells, inverse = np.unique(keys, return_inverse=True)
    sums = np.bincount(inverse, weights=weights, minlength=len(cells))
    cell_kind = cells % m
    piling = np.array([k.split(":")[0] in PILING for k in kinds], dtype=bool)
    strength = np.where(piling[cell_kind], np.log1p(np.maximum(sums, 0.0)), sums) if kinds else sums
    pairs, cell_pair = np.unique(cells // m, return_inverse=True)
    return PairEvidence(pairs // n, pairs % n, kinds, cell_pair.reshape(-1), cell_kind, strength)


def _plain_group_reasons(units, links: list[Link], members: set[int], model, *, others: bool = True) -> list[str]:
    """A group's reasons as written before: two tables by key, and the kept-apart pass over every link."""
    totals: dict = defaultdict(float)
    holders: dict = defaultdict(set)
    for a, b, strength, kind, detail in links:
        if kind in reasons.SILENT:
            continue
        weight = strength * max(model.coefficient(kind), reasons.EXPLAIN_FLOOR)
        if weight > 0 and a in members and b in members:
            key = (kind.split(":")[0], detail)
            totals[key] += weight
            holders[key].update((a, b))
    sentences: dict[str, tuple[int, float]] = {}
    for text in reasons._kept_apart(links, members):
        sentences[text] = (reasons.PRIORITY[timeline.DIFFERENT_INTENT], 0.0)
    for key, weight in totals.items():
        text = reasons._sentence(key[0], key[1], [units[i] for i in sorted(holders[key])])
        if text:
            rank, total = sentences.get(text, (reasons.PRIORITY.get(key[0], 9), 0.0))
            sentences[text] = (min(rank, reasons.PRIORITY.get(key[0], 9)), total + weight)
    ranked = sorted(sentences, key=lambda s: (sentences[s][0], -round(sentences[s][1], 6), s))
    return (
        ranked[: reasons.MAX_REASONS] if ranked else reasons._solo_reasons([units[i] for i in sorted(members)], others)
    )


def test_pair_evidence_and_reasons_read_real_links_as_link_by_link() -> None:
    """Click's text, a synthetic change set: the pair evidence's cells and the reasons of any
    set of units (with a link keeping two intents apart, or none) are those read link by link."""
    with Workspace(str(shared_data("click.bundle"))) as workspace:
        units = Repository(workspace.git).units(synthetic_changes(workspace.git, workspace.head(), 300).changes)
        links = evidence(units)
    found, plain = pair_evidence(links, len(units)), _plain_pair_evidence(links, len(units))
    assert found.kinds == plain.kinds
    for field in ("a", "b", "cell_pair", "cell_kind", "strength"):
        assert np.array_equal(getattr(found, field), getattr(plain, field))
    apart = link(0, len(units) - 1, 1.0, timeline.DIFFERENT_INTENT, "fix parsing\nadd colour")
    rng = np.random.default_rng(0)
    written = []
    for size in (1, 2, 5, 30, len(units)):
        members = {int(i) for i in rng.choice(len(units), size=size, replace=False)} | {0}
        for extra in ([], [apart]):
            chosen = [item for item in links if item.a in members and item.b in members] + extra
            found = reasons.group_reasons(units, chosen, members, DEFAULT)
            assert found == _plain_group_reasons(units, chosen, members, DEFAULT)
            written += found
    assert any(text.startswith("recorded under the intent") for text in written)


def _plain_bisect(
    group: list[int], block_weight: dict[int, float], within: dict[tuple[int, int], float]
) -> list[list[int]]:
    """The split's average linkage as first written: every alive pair's mean looked at in Python."""
    sides = [[b] for b in sorted(group)]
    weight = [block_weight[b] for b in sorted(group)]
    n = len(sides)
    total = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            total[i][j] = total[j][i] = within.get((sides[i][0], sides[j][0]), 0.0)
    alive = list(range(n))
    while len(alive) > 2:
        i, j = max(
            ((i, j) for x, i in enumerate(alive) for j in alive[x + 1 :]),
            key=lambda ij: (total[ij[0]][ij[1]] / (weight[ij[0]] * weight[ij[1]]), -ij[0], -ij[1]),
        )
        sides[i] += sides[j]
        weight[i] += weight[j]
        for k in alive:
            if k not in (i, j):
                total[i][k] = total[k][i] = total[i][k] + total[j][k]
        alive.remove(j)
    return [sorted(sides[i]) for i in alive]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_groups_split_is_the_plain_average_linkage(data: st.DataObject) -> None:
    """Quarter-valued gains and whole weights, so ties are frequent and each is broken as before."""
    from segmint_core.grouping.confidence import _bisect

    group = sorted(data.draw(st.sets(st.integers(0, 60), min_size=2, max_size=12)))
    weight = {b: float(data.draw(st.integers(1, 4))) for b in group}
    pairs = [(x, y) for i, x in enumerate(group) for y in group[i + 1 :]]
    linked = data.draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    within = {pair: data.draw(st.integers(-4, 8)) / 4 for pair in linked}
    assert _bisect(group, weight, list(within.items())) == _plain_bisect(group, weight, within)
