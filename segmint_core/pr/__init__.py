"""The pull-request draft, from the plans (before applying) or the applied commits."""

from segmint_core.pr.draft import draft_pr
from segmint_core.pr.models import DraftCommit, DraftText
from segmint_core.pr.testplan import project_commands

__all__ = ["DraftCommit", "DraftText", "draft_pr", "project_commands"]
