"""The session's modules point down: no cycles, not even under TYPE_CHECKING.

The session is a facade (``session.py``) over parts (editing, plans, drafting,
applying) that take its core; the parts and the core never import the facade,
and the core never imports the parts.
"""

from __future__ import annotations

import ast
from pathlib import Path

import segmint_core

CORE = Path(segmint_core.__file__).parent
PACKAGE = "segmint_core.session"


def imports_of(path: Path) -> set[str]:
    """Every segmint_core module a file imports, wherever the import statement is."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("segmint_core"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("segmint_core"):
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)  # `from pkg import module`
    return found


def session_graph() -> dict[str, set[str]]:
    modules = {f"{PACKAGE}.{p.stem}": p for p in (CORE / "session").glob("*.py") if p.stem != "__init__"}
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


def test_the_session_package_has_no_import_cycle() -> None:
    graph = session_graph()
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            raise AssertionError("import cycle: " + " -> ".join(trail[trail.index(name) :] + [name]))
        if name in done:
            return
        for other in sorted(graph[name]):
            visit(other, trail + [name])
        done.add(name)

    for name in sorted(graph):
        visit(name, [])


def test_only_the_package_imports_the_facade_and_the_core_imports_no_part() -> None:
    graph = session_graph()
    assert sorted(n for n, deps in graph.items() if f"{PACKAGE}.session" in deps) == []
    parts = {f"{PACKAGE}.{p}" for p in ("editing", "plans", "drafting", "applying")}
    assert graph[f"{PACKAGE}.core"] & parts == set()


def test_applying_commits_and_planning_know_nothing_of_the_session() -> None:
    for package in ("apply", "planning", "changes"):
        for path in (CORE / package).rglob("*.py"):
            assert not any(m.startswith(PACKAGE) for m in imports_of(path)), path
