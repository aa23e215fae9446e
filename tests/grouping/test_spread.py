"""One change made in several places is one group: a release's bump and the lines naming its
version, a tool raised in two files, a page and its table of contents' entry, a language
version CI tests on."""

from __future__ import annotations

from tests.grouping.test_siblings import grouped
from tests.support.pre_commit import mypy_at
from tests.support.repo import Repo


def test_a_version_bump_goes_with_the_readme_heading_naming_its_version(repo: Repo) -> None:
    code = '__version__ = "18.4a1"\n\n\ndef format_file(path):\n    return path.read_text()\n'
    readme = "# black\n\nThe uncompromising formatter.\n\n## Change log\n\n### {}\n\n* fixed a crash on empty files\n"
    repo.write("black.py", code)
    repo.write("README.md", readme.format("18.4a2 (unreleased)"))
    repo.commit()
    repo.write("black.py", code.replace("18.4a1", "18.4a2"))
    repo.write("README.md", readme.format("18.4a2"))
    assert grouped(repo) == [["README.md", "black.py"]]


def test_a_release_goes_with_the_docs_lines_that_write_its_new_version(repo: Repo) -> None:
    """fd's install command names the package of the version it releases; a docs line that
    changes more than the version stays apart."""
    manifest = '[package]\nname = "fd-find"\nversion = "{}"\nedition = "2018"\n'
    readme = (
        "# fd\n\nA simple, fast and user-friendly alternative to find.\n\n## Installation\n\n"
        "On Ubuntu:\n\n```\nsudo dpkg -i fd_{}_amd64.deb  # adapt version number and architecture\n```\n"
        "\n## Development\n\n{}\n"
    )
    repo.write("Cargo.toml", manifest.format("7.4.0"))
    repo.write("README.md", readme.format("7.4.0", "Run the tests with cargo test."))
    repo.commit()
    repo.write("Cargo.toml", manifest.format("7.5.0"))
    repo.write("README.md", readme.format("7.5.0", "Run the tests with cargo test."))
    assert grouped(repo) == [["Cargo.toml", "README.md"]]
    repo.write("README.md", readme.format("7.4.0", "Run the benchmarks with cargo bench."))
    assert sorted(grouped(repo)) == [["Cargo.toml"], ["README.md"]]


def test_a_release_goes_with_the_docs_pinning_its_series_or_naming_its_download(repo: Repo) -> None:
    """httpx's README pins the new series (``0.17.*`` -> ``0.18.*``) and fd's names the new
    download where it named an older one; the release's changelog block is in the bump's group.
    Docs writing another version stay apart."""
    changes = "# Changes\n\n## 1.1.0\n\n- Add `perimeter`.\n"
    readme = "# shapes\n\nPin the series you use: `shapes=={}.*`.\n\n    pip install shapes-{}.tar.gz\n"
    repo.write("CHANGES.md", changes)
    repo.write("pyproject.toml", '[project]\nname = "shapes"\nversion = "1.1.0"\n')
    repo.write("README.md", readme.format("1.1", "1.0.2"))
    repo.commit()
    repo.write("CHANGES.md", changes.replace("## 1.1.0", "## 1.2.0\n\n- Fix `area`.\n\n## 1.1.0"))
    repo.write("pyproject.toml", '[project]\nname = "shapes"\nversion = "1.2.0"\n')
    repo.write("README.md", readme.format("1.2", "1.2.0"))
    assert grouped(repo) == [["CHANGES.md", "README.md", "pyproject.toml"]]
    repo.write("README.md", readme.format("1.3", "1.3.0"))
    assert sorted(grouped(repo)) == [["CHANGES.md", "pyproject.toml"], ["README.md"]]


def test_one_tool_bumped_to_one_version_in_two_files_is_one_group(repo: Repo) -> None:
    """python-semantic-release's mypy: the package pin and the pre-commit hook raised to the same
    release in one commit; raised to two releases, they are two bumps."""
    mypy_at(repo, "1.10.1", "1.10.0")
    repo.commit()
    mypy_at(repo, "1.11.2", "1.11.2")
    assert grouped(repo) == [[".pre-commit-config.yaml", "pyproject.toml"]]
    mypy_at(repo, "1.11.2", "1.11.1")
    assert sorted(grouped(repo)) == [[".pre-commit-config.yaml"], ["pyproject.toml"]]


def test_a_page_added_or_deleted_goes_with_the_lines_naming_it(repo: Repo) -> None:
    """black's release process page and its two toctree lines; click's upgrading notes deleted
    with the line listing them; a docs line that names another page stays apart."""
    index = "Contributing\n============\n\n.. toctree::\n   :hidden:\n\n{}\n\nRead the guide first.\n"
    pages = "   the_basics\n   gauging_changes\n   issue_triage\n   upgrading\n   reference"
    repo.write("docs/index.rst", index.format(pages))
    repo.write("docs/upgrading.rst", "Upgrading\n=========\n\n" + "".join(f"Step {n}.\n\n" for n in range(30)))
    repo.write("src/tool.py", "def run(path):\n    return path.read_text()\n")
    repo.commit()
    repo.write("docs/release_process.md", "# Release process\n\n" + "".join(f"{n}. Do step {n}.\n" for n in range(20)))
    repo.write("docs/index.rst", index.format(pages.replace("   upgrading", "   upgrading\n   release_process")))
    assert grouped(repo) == [["docs/index.rst", "docs/release_process.md"]]
    repo.git("reset", "-q", "--hard")
    repo.git("clean", "-qfd")
    repo.delete("docs/upgrading.rst")
    repo.write("docs/index.rst", index.format(pages.replace("\n   upgrading", "")))
    assert grouped(repo) == [["docs/index.rst", "docs/upgrading.rst"]]
    repo.git("reset", "-q", "--hard")
    repo.write("docs/release_process.md", "# Release process\n\n" + "".join(f"{n}. Do step {n}.\n" for n in range(20)))
    repo.write("docs/index.rst", index.format(pages).replace("Read the guide first.", "Read the style guide first."))
    assert sorted(grouped(repo)) == [["docs/index.rst"], ["docs/release_process.md"]]


def test_a_language_version_ci_tests_on_raised_in_two_places_is_one_group(repo: Repo) -> None:
    """cobra's ``ci: test golang 1.22``: the setup step's ``go-version`` and the matrix's new
    entry, forty lines apart (it proposed ``Test on Go 1.22 instead of 1.21`` and ``Add an entry
    to test.yml``)."""
    steps = "".join(f"      - name: step {n}\n        run: make target-{n}\n" for n in range(10))
    workflow = (
        "jobs:\n  lint:\n    steps:\n      - uses: actions/setup-go@v5\n        with:\n"
        "          go-version: '^{}'\n          check-latest: true\n" + steps + "  test:\n    strategy:\n"
        "      matrix:\n        go:\n        - 19\n        - 20\n        - 21\n{}    name: 'go 1.${{{{ matrix.go }}}}.x'\n"
    )
    repo.write(".github/workflows/test.yml", workflow.format("1.21", ""))
    repo.commit()
    repo.write(".github/workflows/test.yml", workflow.format("1.22", "        - 22\n"))
    assert grouped(repo) == [[".github/workflows/test.yml"]]


def test_python_tested_in_a_workflow_and_in_tox_is_one_group(repo: Repo) -> None:
    """click's ``test Python 3.9``: the workflow's matrix rows and tox's environments; a step the
    workflow gains beside them is another change."""
    rows = "".join(
        f"          - {{name: {os}, python: 'VERSION', os: {os.lower()}-latest}}\n" for os in ("Linux", "Mac")
    )
    tail = "".join(f"      - name: step {n}\n        run: make target-{n}\n" for n in range(12))
    workflow = "jobs:\n  tests:\n    strategy:\n      matrix:\n        include:\n" + rows + "    steps:\n" + tail
    tox = "[tox]\nenvlist =\n    py{{{}}}\n    style\nskip_missing_interpreters = true\n"
    repo.write(".github/workflows/tests.yaml", workflow.replace("VERSION", "3.8"))
    repo.write("tox.ini", tox.format("38,37,36"))
    repo.commit()
    repo.write(".github/workflows/tests.yaml", workflow.replace("VERSION", "3.9"))
    repo.write("tox.ini", tox.format("39,38,37,36"))
    assert grouped(repo) == [[".github/workflows/tests.yaml", "tox.ini"]]
    repo.write(
        ".github/workflows/tests.yaml", workflow.replace("VERSION", "3.9") + "      - uses: codecov/codecov-action@v4\n"
    )
    assert sorted(grouped(repo)) == [[".github/workflows/tests.yaml"], [".github/workflows/tests.yaml", "tox.ini"]]
