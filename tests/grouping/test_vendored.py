"""A committed vendored package (``node_modules/foo``, ``vendor/github.com/x/y``, ``third_party/zlib``) is
one group, whatever its files' evidence: never scattered over groups, never joined to another."""

from __future__ import annotations

import random

from segmint_core.session.session import Session
from tests.support.repo import Repo

PACKAGES = {
    "node_modules/foo": ["index.js", "package.json", "lib/parse.js", "lib/render.js", "README.md"],
    "node_modules/@scope/bar": ["index.js", "package.json", "LICENSE"],
    "vendor/github.com/x/y": ["y.go", "internal/errors.go", "go.mod"],
    "third_party/zlib": ["zlib.h", "zlib.c"],
}


def unlike(seed: int) -> str:
    """Text sharing no words with any other seed's: nothing but its path ties a file to another."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(9)) for _ in range(20)]
    return "".join(f"function {w}() {{ return {rng.randint(1, 99)}; }}\n" for w in words)


def vendor_everything(repo: Repo) -> None:
    repo.write("app.js", "const total = 1;\nmodule.exports = total;\n")
    repo.commit("base")
    for n, (package, files) in enumerate(sorted(PACKAGES.items())):
        for m, name in enumerate(files):
            repo.write(f"{package}/{name}", unlike(100 * n + m))
    repo.write("app.js", "const total = 2;\nmodule.exports = total;\n")


def groups_by_path(session: Session) -> dict[str, list[str]]:
    paths = {c.id: c.file_path for c in session.changes}
    return {g.id: sorted(paths[c] for c in g.change_ids) for g in session.groups}


def test_each_package_is_one_group_saying_so(repo: Repo) -> None:
    vendor_everything(repo)
    session = Session.open(str(repo.path))
    session.regroup()
    grouped = groups_by_path(session)
    assert sorted(grouped.values()) == sorted(
        [["app.js"]] + [sorted(f"{p}/{f}" for f in files) for p, files in PACKAGES.items()]
    )
    reasons = {grouped[g.id][0]: g.reasons for g in session.groups}
    for package, files in PACKAGES.items():
        assert reasons[f"{package}/{sorted(files)[0]}"] == [f"vendored package {package}, kept whole"]
    assert reasons["app.js"] != [] and not any("vendored" in r for r in reasons["app.js"])


def test_an_updated_package_is_one_commit_and_never_offered_apart(repo: Repo) -> None:
    vendor_everything(repo)
    repo.commit("vendor")
    repo.write("node_modules/foo/index.js", unlike(7))
    repo.write("node_modules/foo/lib/new.js", unlike(8))
    repo.delete("node_modules/foo/lib/render.js")
    repo.write("node_modules/@scope/bar/index.js", unlike(9))
    repo.write("app.js", "const total = 3;\nmodule.exports = total;\n")
    session = Session.open(str(repo.path))
    session.regroup()
    assert sorted(groups_by_path(session).values()) == [
        ["app.js"],
        ["node_modules/@scope/bar/index.js"],
        ["node_modules/foo/index.js", "node_modules/foo/lib/new.js", "node_modules/foo/lib/render.js"],
    ]
    vendored = {h for c in session.changes if c.file_path.startswith("node_modules/") for h in c.hunks}
    offered = [u for u in session.confidence().uncertain if u.kind in ("move", "split")]
    assert not [u for u in offered if {h.id for h in vendored} & set(u.hunk_ids)]
    plans = session.propose_commits()
    assert len(plans) == 3
    session.apply_all()
    assert repo.git("status", "--porcelain") == ""
    touched = [sorted(repo.git("show", "--name-only", "--format=", f"HEAD~{n}").split()) for n in range(3)]
    assert ["node_modules/foo/index.js", "node_modules/foo/lib/new.js", "node_modules/foo/lib/render.js"] in touched
