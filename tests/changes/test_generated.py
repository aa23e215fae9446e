"""Generated paths (by name and by .gitattributes) and dependency manifests with their lock files."""

from __future__ import annotations

import pytest

from segmint_core.changes.generated import (
    LOCK,
    MANIFEST,
    dependency_file,
    generated_paths,
    is_generated,
    is_lock_file,
    is_manifest,
    same_dependencies,
    vendored_package,
)
from segmint_core.git import Git
from tests.support.repo import Repo


@pytest.mark.parametrize(
    "path",
    [
        "package-lock.json",
        "web/yarn.lock",
        "Cargo.lock",
        "uv.lock",
        "go.sum",
        "bun.lock",
        "static/app.min.js",
        "api/v1/service.pb.go",
        "proto/user_pb2.py",
        "pkg/zz_generated.deepcopy.go",
        "src/api.generated.ts",
        "src/generated/client.ts",
        "data/schema-generated.json",
        "generated_types.go",
    ],
)
def test_generated_by_name(path: str) -> None:
    assert is_generated(path)


@pytest.mark.parametrize(
    "path",
    [
        "segmint_core/changes/generated.py",
        "regenerated_docs.md",
        "tests/test_generated_code.py",
        "src/generator.ts",
        "pyproject.toml",
        "package.json",
        "go.mod",
        "Cargo.toml",
    ],
)
def test_not_generated_by_name(path: str) -> None:
    assert not is_generated(path)


@pytest.mark.parametrize(
    ("path", "package"),
    [
        ("node_modules/foo/index.js", "node_modules/foo"),
        ("node_modules/foo/lib/deep/a.js", "node_modules/foo"),
        ("node_modules/@scope/bar/package.json", "node_modules/@scope/bar"),
        ("node_modules/foo/node_modules/dep/x.js", "node_modules/foo"),  # its own dependencies are part of it
        ("web/node_modules/foo/x.js", "web/node_modules/foo"),
        ("vendor/github.com/x/y/sub/b.go", "vendor/github.com/x/y"),
        ("vendor/golang.org/x/net/http2/h2.go", "vendor/golang.org/x/net"),
        ("vendor/gopkg.in/yaml.v3/decode.go", "vendor/gopkg.in/yaml.v3"),
        ("vendor/google.golang.org/grpc/codes/codes.go", "vendor/google.golang.org/grpc"),
        ("third_party/zlib/contrib/x.c", "third_party/zlib"),
        ("Vendor/Lib/x.c", "Vendor/Lib"),
        ("node_modules/.package-lock.json", None),  # in the vendored folder, in no package
        ("vendor/modules.txt", None),
        ("src/vendor.py", None),
        ("src/app.js", None),
    ],
)
def test_vendored_packages(path: str, package: str | None) -> None:
    assert vendored_package(path) == package


def test_gitattributes_mark_generated_vendored_and_no_diff_files(repo: Repo) -> None:
    repo.write(
        ".gitattributes",
        "data/*.json linguist-generated\nthird/** linguist-vendored=true\n"
        "*.snap -diff\nkeep.json linguist-generated=false\n",
    )
    repo.write("sub/.gitattributes", "out.txt linguist-generated\n")
    repo.commit()
    paths = [
        "data/big.json",
        "third/lib.js",
        "ui/view.snap",
        "keep.json",
        "sub/out.txt",
        "src/app.py",
        "yarn.lock",
        "data/odd name.json",
    ]
    found = generated_paths(Git.discover(repo.path), paths)
    assert found == {"data/big.json", "third/lib.js", "ui/view.snap", "sub/out.txt", "yarn.lock", "data/odd name.json"}


def test_without_a_repository_names_alone_decide() -> None:
    assert generated_paths(None, ["data/big.json", "yarn.lock"]) == {"yarn.lock"}


@pytest.mark.parametrize(
    ("path", "ecosystem", "role", "folder"),
    [
        ("pyproject.toml", "python", MANIFEST, ""),
        ("uv.lock", "python", LOCK, ""),
        ("requirements-dev.txt", "python", LOCK, ""),
        ("requirements/test.in", "python", MANIFEST, ""),
        ("web/package.json", "npm", MANIFEST, "web"),
        ("web/pnpm-lock.yaml", "npm", LOCK, "web"),
        ("go.mod", "go", MANIFEST, ""),
        ("go.sum", "go", LOCK, ""),
        ("crates/core/Cargo.toml", "cargo", MANIFEST, "crates/core"),
        ("Cargo.lock", "cargo", LOCK, ""),
    ],
)
def test_dependency_files(path: str, ecosystem: str, role: str, folder: str) -> None:
    found = dependency_file(path)
    assert found is not None and (found.ecosystem, found.role, found.directory) == (ecosystem, role, folder)
    assert is_manifest(path) == (role == MANIFEST) and is_lock_file(path) == (role == LOCK)


def test_a_manifest_and_its_lock_file_are_the_same_dependencies() -> None:
    assert same_dependencies("pyproject.toml", "uv.lock")
    assert same_dependencies("package.json", "package-lock.json")
    assert same_dependencies("go.sum", "go.mod")
    assert same_dependencies("crates/core/Cargo.toml", "Cargo.lock")  # a workspace's lock file at the root
    assert not same_dependencies("package.json", "Cargo.lock")  # another ecosystem
    assert not same_dependencies("web/package.json", "api/package-lock.json")  # another project
    assert not same_dependencies("src/app.py", "uv.lock")
    assert dependency_file("src/lockfile.py") is None
