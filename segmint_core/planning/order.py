"""Commit order: a plan that needs another plan's lines comes after it.

A dependency is real when one unit removes or rewrites lines another unit
adds (an unstaged edit of a staged line), or when two parts of one git hunk
must travel in order. Among independent plans the given order is kept, with
plans holding staged work first: what someone staged, they meant to commit first.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable


def order_plans(plan_ids: list[str], needs: dict[str, set[str]], staged_first: Iterable[str] = ()) -> list[str]:
    """``plan_ids`` in an order where each plan comes after those it ``needs``.

    A cycle (two plans each needing the other) cannot be ordered; those plans
    keep their relative given order and the caller reports the merge it needs.
    """
    position = {pid: n for n, pid in enumerate(plan_ids)}
    early = set(staged_first)
    indegree = {pid: 0 for pid in plan_ids}
    dependents: dict[str, list[str]] = {pid: [] for pid in plan_ids}
    for pid, required in needs.items():
        for other in required:
            if other in position and other != pid and pid in position:
                indegree[pid] += 1
                dependents[other].append(pid)
    ready = [(_rank(pid, early, position), pid) for pid, deg in indegree.items() if deg == 0]
    heapq.heapify(ready)
    ordered: list[str] = []
    while ready:
        _, pid = heapq.heappop(ready)
        ordered.append(pid)
        for nxt in dependents[pid]:
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                heapq.heappush(ready, (_rank(nxt, early, position), nxt))
    leftover = [pid for pid in plan_ids if pid not in ordered]
    return ordered + leftover


def cycles(plan_ids: list[str], needs: dict[str, set[str]]) -> list[str]:
    """Plans caught in a dependency cycle (they must be merged to commit), in the given order:
    every plan that needs, through others, itself."""
    known = set(plan_ids)
    return [pid for pid in plan_ids if _reaches(pid, pid, needs, known)]


def _reaches(start: str, goal: str, needs: dict[str, set[str]], known: set[str]) -> bool:
    seen: set[str] = set()
    todo = [o for o in needs.get(start, ()) if o in known and o != start]
    while todo:
        pid = todo.pop()
        if pid == goal:
            return True
        if pid not in seen:
            seen.add(pid)
            todo.extend(o for o in needs.get(pid, ()) if o in known and o != pid)
    return False


def _rank(pid: str, early: set[str], position: dict[str, int]) -> tuple[int, int]:
    return (0 if pid in early else 1, position[pid])
