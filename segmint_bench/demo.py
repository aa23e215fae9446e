"""A small demo repository with a tangled working tree: three intents in six files.

Used by the screenshot script and the snapshot tests, so the pictures in the
README and the snapshots show the same thing.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

IDENTITY = {
    "GIT_AUTHOR_NAME": "Demo Author",
    "GIT_AUTHOR_EMAIL": "demo@segmint.invalid",
    "GIT_COMMITTER_NAME": "Demo Author",
    "GIT_COMMITTER_EMAIL": "demo@segmint.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T12:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T12:00:00+00:00",
}

BASE = {
    "inventory/config.py": '''"""Reading the inventory settings."""

import os


def load_config(path):
    """The settings file as a dict of strings."""
    settings = {}
    with open(path) as fh:
        for line in fh:
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    return settings


def data_dir(settings):
    return settings.get("data_dir", os.getcwd())
''',
    "inventory/cli.py": '''"""The inventory command line."""

import argparse
import os
import sys

from inventory.config import load_config
from inventory.stock import count_items


def main(argv=None):
    parser = argparse.ArgumentParser(prog="inventory")
    parser.add_argument("config", help="the settings file")
    parser.add_argument("--limit", type=int, default=int(os.environ.get("INVENTORY_LIMIT", "0")))
    args = parser.parse_args(argv)
    if args.limit < 0:
        parser.error("--limit cannot be negative")

    settings = load_config(args.config)
    print(count_items(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
''',
    "inventory/stock.py": '''"""Counting what is in stock."""


def count_items(settings):
    items = settings.get("items", "")
    return len([i for i in items.split(",") if i])


def restock(settings, item, amount):
    settings[item] = str(int(settings.get(item, "0")) + amount)
    return settings
''',
    "README.md": """# inventory

Count what is in stock:

    inventory settings.ini
""",
}

EDITED = {
    "inventory/config.py": '''"""Reading the inventory settings."""

import json
import os


def load_config(path):
    """The settings file (JSON) as a dict."""
    with open(path) as fh:
        return json.load(fh)


def data_dir(settings):
    return settings.get("data_dir", os.getcwd())
''',
    "inventory/cli.py": '''"""The inventory command line."""

import argparse
import logging
import os
import sys

from inventory.config import load_config
from inventory.stock import count_items


def main(argv=None):
    parser = argparse.ArgumentParser(prog="inventory")
    parser.add_argument("config", help="the settings file")
    parser.add_argument("--limit", type=int, default=int(os.environ.get("INVENTORY_LIMIT", "0")))
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING)
    if args.limit < 0:
        parser.error("--limit cannot be negative")

    settings = load_config(args.config)
    print(count_items(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
''',
    "inventory/stock.py": '''"""Counting what is in stock."""


def count_items(settings):
    items = settings.get("items", "")
    return len([i for i in items.split(",") if i])


def restock(settings, item, amount):
    if amount <= 0:
        raise ValueError(f"restock needs a positive amount, not {amount}")
    settings[item] = str(int(settings.get(item, "0")) + amount)
    return settings
''',
    "README.md": """# inventory

Count what is in stock:

    inventory settings.json

The settings file is JSON.
""",
    "tests/test_config.py": """import json

from inventory.config import load_config


def test_load_config_reads_json(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"items": ["apple", "pear"]}))
    assert load_config(path) == {"items": ["apple", "pear"]}
""",
    "tests/test_stock.py": """import pytest

from inventory.stock import restock


def test_restock_refuses_nothing():
    with pytest.raises(ValueError):
        restock({}, "apple", 0)
""",
}


def git(root: Path, *args: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(IDENTITY)
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def build_demo(root: Path) -> Path:
    """Create the demo repository at ``root`` (which must not exist or be empty)."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    for key, value in (
        ("user.name", "Demo Author"),
        ("user.email", "demo@segmint.invalid"),
        ("commit.gpgsign", "false"),
        ("core.autocrlf", "false"),
    ):
        git(root, "config", key, value)
    _write(root, BASE)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "Initial inventory tool")
    _write(root, EDITED)
    return root


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
