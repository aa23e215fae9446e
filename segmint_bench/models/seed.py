"""The greedy centroid clustering Segmint started from, kept for comparison (``segmint bench untangle``).

Whole files (changes), embedded as path + hunk headers + diff lines (capped
at 200 lines), clustered greedily in path order: each joins the group whose
centroid (mean vector) is most similar if that cosine is at least 0.80,
otherwise it starts a new group. One change makes one group without embedding.
"""

from __future__ import annotations

import numpy as np

from segmint_core.changes.models import Change
from segmint_core.grouping.embeddings.base import MAX_LINES, EmbeddingProvider, Progress
from segmint_core.grouping.units import Unit

THRESHOLD = 0.80


def change_text(change: Change) -> str:
    lines = [change.file_path]
    for hunk in change.hunks:
        lines.append(hunk.header)
        lines.extend(hunk.lines)
    return "\n".join(lines[: MAX_LINES + 1])


def seed_clusters(changes: list[Change], provider: EmbeddingProvider, progress: Progress | None = None) -> list[int]:
    """A cluster number per change (0, 1, ... in order of first use)."""
    if len(changes) <= 1:
        return [0] * len(changes)
    vectors = provider.embed([change_text(c) for c in changes], progress)
    sums: list[np.ndarray] = []
    counts: list[int] = []
    labels: list[int] = []
    for vector in vectors:
        best, best_similarity = -1, -2.0
        for k, (total, count) in enumerate(zip(sums, counts)):
            similarity = _cosine(total / count, vector)
            if similarity > best_similarity:
                best, best_similarity = k, similarity
        if best >= 0 and best_similarity >= THRESHOLD:
            sums[best] = sums[best] + vector
            counts[best] += 1
            labels.append(best)
        else:
            sums.append(np.array(vector, dtype=np.float64))
            counts.append(1)
            labels.append(len(sums) - 1)
    return labels


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    return float(np.dot(a, b) / (na * nb)) if na and nb else 0.0


def seed_labels(
    changes: list[Change], units: list[Unit], embedder: EmbeddingProvider, progress: Progress | None
) -> list[int]:
    """A label per unit, its file's cluster: the labeller ``group_changes`` takes."""
    per_change = seed_clusters(changes, embedder, progress)
    cluster_of = {c.id: label for c, label in zip(changes, per_change)}
    return [cluster_of[u.change.id] for u in units]
