"""A Segmint process killed in the middle of applying: ``python -m tests.support.interrupt REPO POINT``.

It opens the repository's session and applies every open plan (or undoes
the last commit, for the ``undo-`` points), and SIGKILLs itself at POINT:

- ``none``: not at all (a parent may kill it from outside, at a random moment);
- ``before-commit``: journal written, index locked, just before ``git commit``;
- ``hook``: from inside a hook: the environment names this process as
  ``SEGMINT_TEST_VICTIM`` for the test's hooks to ``kill -9``;
- ``before-record``: the commit made and the index swapped, before the session records it;
- ``before-clear``: the session saved, before the journal is removed;
- ``before-refresh``: the journal gone, before the session re-reads the changes;
- ``after-units``: in that re-read, the units file written, before the state that goes with it;
- ``undo-before-move`` / ``undo-before-swap``: during ``undo``, before HEAD moves / after it moved;
- ``fold-making``: an absorb plan's commits half made again (by plumbing), before the branch moves;
- ``fold-before-move``: all of them made, just before the branch moves to the new tip;
- ``split-before-move`` / ``split-before-record``: a split's new commits made, before the branch
  moves / after it moved, before the session records it;
- ``split-starting`` / ``split-planning``: ``segmint split HEAD~2`` with its scratch work tree made, before
  the marker is written / the marker written, before the range's change is grouped and planned;
- ``split-committing``: the split's first commit made in its scratch work tree, before the second;
- ``split-replaying``: the split's commits made, before the first later commit is made again on top.

The kill is a real SIGKILL of this real process; nothing else is replaced.
"""

from __future__ import annotations

import os
import signal
import sys

from importlib import import_module

from segmint_core.session.session import Session


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def before(where: str, name: str, when=lambda *a, **k: True) -> None:
    """Kill this process when ``name`` of the module ``where`` is called (and ``when`` says so)."""
    module = import_module(where)
    for part in name.split(".")[:-1]:
        module = getattr(module, part)
    name = name.rsplit(".", 1)[-1]
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        if when(*args, **kwargs):
            die()
        return real(*args, **kwargs)

    setattr(module, name, wrapper)


def after(where: str, name: str) -> None:
    """Kill this process as soon as ``name`` of the module ``where`` returns."""
    module = import_module(where)
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        real(*args, **kwargs)
        die()

    setattr(module, name, wrapper)


def arm(point: str) -> None:
    os.environ["SEGMINT_TEST_VICTIM"] = str(os.getpid())
    if point == "before-commit":
        before("segmint_core.apply.commit", "_run_git_commit")
    elif point == "before-record":
        before("segmint_core.session.ledger", "record_commit")
    elif point == "before-clear":
        before("segmint_core.apply.journal", "clear")
    elif point == "before-refresh":
        before("segmint_core.session.core", "SessionCore.refresh")
    elif point == "after-units":
        after("segmint_core.session.core", "write_units")
    elif point == "undo-before-move":
        before("segmint_core.apply.undo", "move_head")
    elif point == "undo-before-swap":  # the swap is the replace of the index, after HEAD moved
        before("os", "replace", lambda source, dest: str(dest).endswith(os.sep + "index"))
    elif point == "fold-making":
        made = []
        before("segmint_core.rewrite.fold", "recommit", lambda *a, **k: made.append(1) or len(made) == 2)
    elif point == "fold-before-move":
        before("segmint_core.apply.commit", "_move_to_rewritten")
    elif point == "split-before-move":
        before("segmint_core.session.splitting", "move_head")
    elif point == "split-before-record":
        before("segmint_core.session.ledger", "record_rewrite")
    elif point == "split-starting":
        before("segmint_core.rewrite.split", "write_atomic")
    elif point == "split-planning":
        after("segmint_core.rewrite.split", "write_atomic")
    elif point == "split-committing":
        made = []
        before("segmint_core.apply.commit", "_run_git_commit", lambda *a, **k: made.append(1) or len(made) == 2)
    elif point == "split-replaying":
        before("segmint_core.rewrite.split", "recommit")
    elif point not in ("none", "hook"):
        raise SystemExit(f"unknown kill point {point}")


def main(repo: str, point: str) -> None:
    arm(point)
    session = Session.open(repo)
    print("started", flush=True)
    if point.startswith("undo-"):
        session.undo()
    elif point in ("split-starting", "split-planning"):
        session.start_split("HEAD~2")
    elif point.startswith("split-"):
        session.apply_split()
    else:
        session.apply_all()
    print("finished", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
