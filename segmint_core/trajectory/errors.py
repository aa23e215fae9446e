"""The trajectory's own failures, each one deterministic sentence (see ``segmint_core.errors``)."""

from __future__ import annotations

from segmint_core.errors import SegmintError


class TrajectoryError(SegmintError):
    """Bad input to a trajectory tool, or a tool used before ``configure_project``."""


class ShadowLockedError(TrajectoryError):
    """A lock in the shadow repository stayed taken for the whole retry budget."""


class HeadMovedError(TrajectoryError):
    """The shadow HEAD moved between reading and updating it (another recorder)."""


class NotAShadowRepoError(TrajectoryError):
    """``.trajectory`` exists but is not a shadow repository."""


class DamagedShadowError(TrajectoryError):
    """``.trajectory`` is a shadow repository git can no longer read (a broken ref, objects gone)."""


class DamagedProvenanceError(TrajectoryError):
    """The provenance record under ``.git/segmint/`` cannot be read or written (damaged, or a lock held too long)."""
