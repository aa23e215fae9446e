"""Generated files are one unit (never split, never read line by line); a manifest and its lock file are one intent."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes
from segmint_core.changes.kinds import GENERATED
from segmint_core.grouping.units import build_units
from tests.support.repo import Repo


def grouped(repo: Repo):
    changes = capture(Git.discover(repo.path))
    return changes, group_changes(changes, timeline=None, root=str(repo.path))


def groups_by_path(grouping) -> list[list[str]]:
    paths = {c.id: c.file_path for c in grouping.changes}
    return [sorted(paths[c] for c in g.change_ids) for g in grouping.groups]


def catalog(seed: int, records: int = 400) -> str:
    """Records, every 20th of which changes with ``seed``: many hunks far apart."""
    return "".join(f'  "item-{i}": {{"price": {i % 101 + (seed if i % 20 == 0 else 0)}}},\n' for i in range(records))


def test_a_file_gitattributes_marks_generated_is_one_unit_in_one_group(repo: Repo) -> None:
    repo.write(".gitattributes", "data/catalog.json linguist-generated\n")
    repo.write("data/catalog.json", "{\n" + catalog(0) + "}\n")
    repo.write("app/pricing.py", "def total(prices):\n    return sum(prices) * 1.2\n")
    repo.commit()
    repo.write("data/catalog.json", "{\n" + catalog(1) + "}\n")
    repo.write("app/pricing.py", "def total(prices):\n    return sum(prices) * 1.25\n")
    changes, grouping = grouped(repo)
    catalog_change = next(c for c in changes.changes if c.file_path == "data/catalog.json")
    assert len(catalog_change.hunks) > 1 and not grouping.splits
    holding = [g for g in grouping.groups if catalog_change.id in g.change_ids]
    assert len(holding) == 1
    assert set(holding[0].hunk_ids) == {h.id for h in catalog_change.hunks}
    assert holding[0].reasons == ["generated file data/catalog.json, kept whole"]
    assert groups_by_path(grouping) == [["app/pricing.py"], ["data/catalog.json"]]


def test_a_generated_file_is_one_unit_whose_lines_are_counted_not_read(repo: Repo) -> None:
    repo.write("web/app.min.js", "".join(f"var a{i}={i};\n" for i in range(50)))
    repo.commit()
    repo.write("web/app.min.js", "".join(f"var a{i}={i + 1};\n" for i in range(50)))
    changes = capture(Git.discover(repo.path)).changes
    (unit,) = build_units(changes)
    assert unit.kind == GENERATED and unit.hunk is None and unit.size == 100
    assert unit.added == [] and unit.idents == {"app"}  # only its name, none of its lines
    (plain,) = build_units(changes, generated=())  # told nothing is generated: read like any file
    assert plain.kind != GENERATED and plain.size == 100 and plain.added


def test_a_manifest_and_its_lock_file_are_one_intent(repo: Repo) -> None:
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = ["httpx>=0.27"]\n')
    repo.write("uv.lock", 'version = 1\n\n[[package]]\nname = "httpx"\nversion = "0.27.0"\n')
    repo.write("shop/cart.py", "def add(cart, item):\n    cart.append(item)\n")
    repo.write("docs/index.md", "# Shop\n\nA shop.\n")
    repo.commit()
    repo.write("pyproject.toml", '[project]\nname = "shop"\ndependencies = ["httpx>=0.28"]\n')
    repo.write("uv.lock", 'version = 1\n\n[[package]]\nname = "httpx"\nversion = "0.28.1"\n')
    repo.write("shop/cart.py", "def add(cart, item):\n    cart.append(item)\n    return cart\n")
    repo.write("docs/index.md", "# Shop\n\nA small shop.\n")
    _, grouping = grouped(repo)
    paths = {c.id: c.file_path for c in grouping.changes}
    together = next(g for g in grouping.groups if "uv.lock" in [paths[c] for c in g.change_ids])
    assert ["pyproject.toml", "uv.lock"] in groups_by_path(grouping)
    assert "dependencies change together: pyproject.toml and uv.lock" in together.reasons


def test_a_go_module_and_its_checksums_are_one_intent_and_grouping_is_deterministic(repo: Repo) -> None:
    repo.write("go.mod", "module example.com/shop\n\ngo 1.22\n\nrequire github.com/spf13/cobra v1.7.0\n")
    repo.write("go.sum", "github.com/spf13/cobra v1.7.0 h1:aaa=\n")
    repo.write("cmd/root.go", "package cmd\n\nfunc Execute() {}\n")
    repo.commit()
    repo.write("go.mod", "module example.com/shop\n\ngo 1.22\n\nrequire github.com/spf13/cobra v1.8.0\n")
    repo.write("go.sum", "github.com/spf13/cobra v1.8.0 h1:bbb=\n")
    repo.write("cmd/root.go", "package cmd\n\nfunc Execute() { run() }\n")
    _, first = grouped(repo)
    _, second = grouped(repo)
    assert ["go.mod", "go.sum"] in groups_by_path(first)
    assert [g.to_dict() for g in first.groups] == [g.to_dict() for g in second.groups]


def test_a_change_of_more_than_five_megabytes_is_kept_whole_though_its_name_says_nothing(repo: Repo) -> None:
    from segmint_core.session.session import Session

    repo.write("app.py", "def f():\n    return 1\n")
    repo.commit()
    repo.write("app.py", "def f():\n    return 2\n")
    repo.write("data.csv", "".join(f"{i},{i * 7 % 1000},name_{i % 977}\n" for i in range(300_000)))
    changes, grouping = grouped(repo)
    data = next(c for c in changes.changes if c.file_path == "data.csv")
    assert sum(h.size for h in data.hunks) > 5_000_000 and not grouping.splits
    holding = next(g for g in grouping.groups if data.id in g.change_ids)
    assert holding.reasons == ["data.csv changes by over 5 MB, kept whole"]
    assert groups_by_path(grouping) == [["app.py"], ["data.csv"]]
    session = Session.open(str(repo.path))
    assert "data.csv" in session.units.changeset.generated, "the session keeps it whole too"
    assert next(c for c in session.units.changes if c.file_path == "data.csv").hunks == []
