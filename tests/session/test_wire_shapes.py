"""Wire shapes: statuses are enums whose JSON is their value, and a saved session loads them back."""

from __future__ import annotations

import json

from segmint_core.session.models import Actor, OperationKind, PlanStatus
from segmint_core.session.state import SavedState
from tests.session.conftest import one_group_per_hunk, open_session
from tests.support.repo import Repo


def test_statuses_load_back_as_enums_and_save_as_the_same_json(two_intents: Repo) -> None:
    session = open_session(two_intents)
    one_group_per_hunk(session)
    plans = session.propose_commits()
    session.apply_commit(plans[0].id)
    saved = two_intents.path / ".git" / "segmint" / "session.json"
    on_disk = json.loads(saved.read_text())
    assert on_disk["plans"][0]["status"] == "applied" and on_disk["operations"][0]["kind"] == "apply"

    again = open_session(two_intents)
    [applied, *rest] = again.plans
    assert applied.status is PlanStatus.APPLIED and {p.status for p in rest} == {PlanStatus.PROPOSED}
    assert {type(a.actor) for a in again.state.activity} == {Actor}
    assert again.state.operations[0].kind is OperationKind.APPLY
    assert {"format": 1, **json.loads(json.dumps(SavedState.from_dict(on_disk).to_dict()))} == on_disk
