"""Every relative link in the README and under docs/ leads to a file (and heading) that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def pages() -> list[Path]:
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]


def anchors(page: Path) -> set[str]:
    """GitHub's heading slugs: lower case, punctuation dropped, spaces to hyphens."""
    text = FENCE.sub("", page.read_text())
    headings = re.findall(r"^#+ (.+)$", text, re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text())
    return [t for t in LINK.findall(text) if not re.match(r"^[a-z]+:", t)]


@pytest.mark.parametrize("page", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif fragment and file.suffix == ".md" and fragment not in anchors(file):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


def test_the_readme_is_short_and_starts_with_its_two_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 300
    first_block = readme.split("```bash\n", 1)[1].split("```", 1)[0].splitlines()
    assert "pip install -e . && .venv/bin/segmint" in first_block[0]
    assert "python -m pytest" in first_block[1]
    assert (ROOT / "LICENSE").exists()
