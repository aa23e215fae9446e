"""The pull-request draft, from the plans (before applying) or the applied commits."""

from segmint_core.pr.draft import draft_pr

__all__ = ["draft_pr"]
