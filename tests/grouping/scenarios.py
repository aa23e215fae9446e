"""Small scripted working trees with known intents, built in real git repositories."""

from __future__ import annotations

from tests.support.repo import Repo

AUTH = """def check_token(token):
    return token == "secret"


def login(user, password):
    return user and password
"""
AUTH_STRICT = """def check_token(token, *, strict=False):
    if strict and not token:
        raise ValueError("empty token")
    return token == "secret"


def login(user, password):
    return user and password
"""
CONFIG = """def parse_config(text):
    return dict(line.split("=") for line in text.splitlines())
"""
CONFIG_SEPARATOR = """def parse_config(text, separator="="):
    return dict(line.split(separator, 1) for line in text.splitlines() if line.strip())
"""
TESTS = """from src.auth import check_token


def test_check_token():
    assert check_token("secret")
"""
TESTS_STRICT = (
    TESTS
    + """

def test_check_token_strict():
    import pytest
    with pytest.raises(ValueError):
        check_token("", strict=True)
"""
)
CHANGES = "# Changes\n\n## Unreleased\n\n- Start.\n"
CHANGES_TWO = CHANGES + "- `check_token` takes `strict`.\n- `parse_config` accepts a `separator`.\n"

# Which intent each file's edits belong to, by a word they contain.
STRICT, SEPARATOR = "strict", "separator"


def two_intents(repo: Repo) -> Repo:
    """Token strictness (auth, its test, a changelog entry) and a config separator
    (config, the next changelog entry): the two entries share one hunk."""
    repo.write("src/auth.py", AUTH)
    repo.write("src/config.py", CONFIG)
    repo.write("tests/test_auth.py", TESTS)
    repo.write("CHANGES.md", CHANGES)
    repo.commit("init")
    repo.write("src/auth.py", AUTH_STRICT)
    repo.write("src/config.py", CONFIG_SEPARATOR)
    repo.write("tests/test_auth.py", TESTS_STRICT)
    repo.write("CHANGES.md", CHANGES_TWO)
    return repo
