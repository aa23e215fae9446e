"""A pytest plugin (``pytest -p tests.support.example_counts --collect-only``): after collection,
one line ``EXAMPLES <test id> <max_examples>`` for each property test, as its settings stand
under the profile loaded."""

from __future__ import annotations


def pytest_collection_finish(session) -> None:
    for item in session.items:
        chosen = getattr(getattr(item, "obj", None), "_hypothesis_internal_use_settings", None)
        if chosen is not None:
            print(f"EXAMPLES {item.nodeid} {chosen.max_examples}")
