"""A lock file's bump read in each lock file's own form, never a hash taken for a package."""

from __future__ import annotations

import json

import pytest

from segmint_core.changes import capture
from segmint_core.changes.kinds import is_build_path
from segmint_core.git import Git
from segmint_core.planning import offline_message
from tests.support.repo import Repo


def pipfile_lock(version: str, digest: str) -> str:
    requests = {"hashes": [f"sha256:{digest * 64}", f"sha256:{digest * 63}0"], "version": f"=={version}"}
    certifi = {"hashes": ["sha256:" + "1" * 64], "version": "==2024.2.2"}
    meta = {"hash": {"sha256": digest * 64}, "pipfile-spec": 6}
    return json.dumps({"_meta": meta, "default": {"certifi": certifi, "requests": requests}}, indent=4) + "\n"


def composer_lock(version: str) -> str:
    package = {"name": "monolog/monolog", "version": version, "source": {"reference": version * 8}}
    return json.dumps({"packages": [package]}, indent=4) + "\n"


def gemfile_lock(version: str) -> str:
    return (
        f"GEM\n  remote: https://rubygems.org/\n  specs:\n    rack ({version})\n    rack-test (2.1.0)\n"
        "      rack (>= 1.3)\n\nPLATFORMS\n  ruby\n\nDEPENDENCIES\n  rack\n"
    )


def go_sum(version: str) -> str:
    return f"github.com/spf13/pflag v{version} h1:abc{version}=\ngithub.com/spf13/pflag v{version}/go.mod h1:def=\n"


def yarn_lock(version: str) -> str:
    return f'# yarn lockfile v1\n\n\nlodash@^4.17.0:\n  version "{version}"\n  integrity sha512-{version}\n'


def pnpm_lock(version: str) -> str:
    return (
        "lockfileVersion: '9.0'\n\nimporters:\n\n  .:\n    dependencies:\n      lodash:\n"
        f"        specifier: ^4.17.0\n        version: {version}\n\npackages:\n\n  lodash@{version}:\n"
        f"    resolution: {{integrity: sha512-{version}}}\n"
    )


LOCKS = [
    ("Pipfile.lock", pipfile_lock("2.31.0", "a"), pipfile_lock("2.32.0", "b"), "requests from 2.31.0 to 2.32.0"),
    ("composer.lock", composer_lock("2.9.1"), composer_lock("2.9.2"), "monolog/monolog from 2.9.1 to 2.9.2"),
    ("Gemfile.lock", gemfile_lock("2.2.3"), gemfile_lock("2.2.4"), "rack from 2.2.3 to 2.2.4"),
    ("go.sum", go_sum("1.0.5"), go_sum("1.0.6"), "github.com/spf13/pflag from 1.0.5 to 1.0.6"),
    ("yarn.lock", yarn_lock("4.17.20"), yarn_lock("4.17.21"), "lodash from 4.17.20 to 4.17.21"),
    ("pnpm-lock.yaml", pnpm_lock("4.17.20"), pnpm_lock("4.17.21"), "lodash from 4.17.20 to 4.17.21"),
]


def title_of(repo: Repo) -> str:
    git = Git.discover(repo.path)
    return offline_message([(c, c.hunks) for c in capture(git).changes]).title


@pytest.mark.parametrize(("path", "old", "new", "bump"), LOCKS, ids=[lock[0] for lock in LOCKS])
def test_a_lock_file_bump_is_titled_by_the_package_it_moves(
    repo: Repo, path: str, old: str, new: str, bump: str
) -> None:
    repo.write(path, old)
    repo.commit("start")
    repo.write(path, new)
    assert title_of(repo) == f"build(deps): bump {bump}"
    assert is_build_path(path)


def test_a_pipfile_and_its_lock_file_bump_the_package_not_its_hashes(repo: Repo) -> None:
    """Pipenv pins each file's sha256 beside the version: a hash is no package."""
    pipfile = '[packages]\nrequests = "*"\ncertifi = "*"\n'
    repo.write("Pipfile", pipfile)
    repo.write("Pipfile.lock", pipfile_lock("2.31.0", "a"))
    repo.commit("start")
    repo.write("Pipfile.lock", pipfile_lock("2.32.0", "b"))
    assert title_of(repo) == "build(deps): bump requests from 2.31.0 to 2.32.0"
    repo.write("Pipfile", pipfile + 'flask = "*"\n')
    assert "sha256" not in title_of(repo)


def test_a_lock_file_that_moves_only_hashes_is_not_a_bump(repo: Repo) -> None:
    repo.write("Pipfile.lock", pipfile_lock("2.31.0", "a"))
    repo.commit("start")
    repo.write("Pipfile.lock", pipfile_lock("2.31.0", "b"))
    title = title_of(repo)
    assert "sha256" not in title and "bump" not in title


def cargo(requirement: str) -> str:
    return f'[package]\nname = "fd-find"\nversion = "8.2.1"\n\n[dependencies]\nfiletime = "{requirement}"\n'


def cargo_lock(version: str) -> str:
    return f'version = 3\n\n[[package]]\nname = "filetime"\nversion = "{version}"\nsource = "registry+x"\n'


@pytest.mark.parametrize("manifest_first", [True, False])
def test_a_manifest_and_its_lock_bump_from_the_version_the_lock_had(repo: Repo, manifest_first: bool) -> None:
    """fd's ``filetime = "0.2.1"`` raised to ``"0.2.14"`` moved the lock from 0.2.13: dependabot's
    ``Bump filetime from 0.2.13 to 0.2.14``, not ``from 0.2.1``, whichever file is read first."""
    manifest, lock = ("Cargo.toml", "vendor/Cargo.lock") if manifest_first else ("rust/Cargo.toml", "Cargo.lock")
    repo.write(manifest, cargo("0.2.1"))
    repo.write(lock, cargo_lock("0.2.13"))
    repo.commit("start")
    repo.write(manifest, cargo("0.2.14"))
    repo.write(lock, cargo_lock("0.2.14"))
    assert [c.file_path for c in capture(Git.discover(repo.path)).changes][0] == (manifest if manifest_first else lock)
    assert title_of(repo).endswith("bump filetime from 0.2.13 to 0.2.14")
