"""The toolchain versions a project supports (Python, Rust, Go, Node.js), changed, name the change."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.supported_versions import support_change as support_in
from tests.support.repo import Repo


def support_change(added: list[str], removed: list[str], path: str = "setup.py") -> str | None:
    return support_in([(path, added, removed)])


SETUP = 'setup(\n    name="starlette",\n    python_requires=">=3.6",\n    version="0.19.1",\n)\n'
MATRIX = 'jobs:\n  test:\n    strategy:\n      matrix:\n        python-version: ["3.6", "3.7", "3.8"]\n'


def test_the_lowest_python_raised_by_one_drops_its_support(repo: Repo) -> None:
    repo.write("setup.py", SETUP)
    repo.write(".github/workflows/test.yml", MATRIX)
    repo.commit()
    repo.write("setup.py", SETUP.replace(">=3.6", ">=3.7"))
    repo.write(".github/workflows/test.yml", MATRIX.replace('"3.6", ', ""))
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    assert offline_message(parts).title.endswith("drop Python 3.6 support")


def test_classifiers_and_requires_read_each_way() -> None:
    assert support_change(['requires-python = ">=3.9"'], ['requires-python = ">=3.7"']) == "require Python 3.9"
    assert support_change(['python_requires=">=3.7"'], ['python_requires=">=3.8"']) == "support Python 3.7"
    added = ['    "Programming Language :: Python :: 3.12",']
    assert support_change(added, []) == "add Python 3.12 support"
    assert support_change([], added) == "drop Python 3.12 support"
    several = [f"Programming Language :: Python :: {v}" for v in ("2.7", "3.5", "3.6")]
    assert support_change([], several) == "drop Python 2.7, 3.5 and 3.6 support"  # not "2.7 and 3.5 and 3.6"
    assert support_change(['version="2.0"'], ['version="1.0"']) is None


CARGO = '[package]\nname = "fd-find"\nversion = "8.2.1"\nrust-version = "1.42.0"\n'


def test_a_rust_minimum_raised_everywhere_it_is_written_bumps_the_msrv(repo: Repo) -> None:
    # fd's "Bump MSRV to 1.53" was titled `Fix main`
    repo.write("Cargo.toml", CARGO)
    repo.write("clippy.toml", 'msrv = "1.42"\n')
    repo.write(".github/workflows/CICD.yml", 'env:\n  MIN_SUPPORTED_RUST_VERSION: "1.42.0"\n')
    repo.commit()
    repo.write("Cargo.toml", CARGO.replace("1.42.0", "1.53.0"))
    repo.write("clippy.toml", 'msrv = "1.53"\n')
    repo.write(".github/workflows/CICD.yml", 'env:\n  MIN_SUPPORTED_RUST_VERSION: "1.53.0"\n')
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    assert offline_message(parts).title.endswith("bump MSRV to 1.53")  # the one version, its shortest spelling


def test_a_go_directive_raised_requires_that_go_not_a_dependency_bump(repo: Repo) -> None:
    mod = "module github.com/spf13/cobra\n\ngo 1.12\n\nrequire (\n\tgithub.com/spf13/pflag v1.0.5\n)\n"
    repo.write("go.mod", mod)
    repo.commit()
    repo.write("go.mod", mod.replace("go 1.12", "go 1.14"))
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    assert offline_message(parts).title.endswith("require Go 1.14")


def test_toolchain_minimums_read_each_way() -> None:
    assert support_change(['rust-version = "1.60"'], ['rust-version = "1.70"'], "Cargo.toml") == "lower MSRV to 1.60"
    assert support_change(['  "node": ">= 18"'], ['  "node": ">= 0.10.0"'], "package.json") == "require Node.js 18"
    assert support_change(['  "node": ">= 16"'], ['  "node": ">= 18"'], "package.json") == "support Node.js 16"
    # a lock file's engines are its dependencies' own
    assert support_change(['      "node": ">=0.8"'], ['      "node": ">=0.6"'], "package-lock.json") is None
    assert support_change(['rust-version = "1.53.0"'], ['rust-version = "1.53"'], "Cargo.toml") is None  # respelled
    # two files that disagree on the new minimum name no one version
    clippy = ("clippy.toml", ['msrv = "1.53"'], ['msrv = "1.42"'])
    assert support_in([clippy, ("Cargo.toml", ['rust-version = "1.54"'], ['rust-version = "1.42"'])]) is None
    assert support_in([clippy, ("Cargo.toml", ['rust-version = "1.53"'], ['rust-version = "1.42"'])]) == (
        "bump MSRV to 1.53"
    )
    assert support_change(['version = "1.53.0"'], ['version = "1.42.0"'], "Cargo.toml") is None  # its own version
