"""Tests only taken out are titled by what they tested: one is a test, not tests."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import edited

KEPT = "def test_parse_empty():\n    assert parse('') == []\n"
GONE = "\n\ndef test_parse_unicode_escapes():\n    assert parse('\\\\u00e9') == ['e']\n"
KEPT_CASE = """  it('should return cookies', function(done){
    request(app).get('/').expect(200, done);
  })
"""
JS = (
    "describe('req', function(){\n"
    + KEPT_CASE
    + """
  it('should return a signed cookie', function(done){
    var app = express();
    request(app).get('/').expect(val, done);
  })
})
"""
)


def test_one_python_test_removed_is_named_in_words(repo: Repo) -> None:
    facts, title = edited(repo, {"tests/test_parse.py": (KEPT + GONE, KEPT)})
    assert facts.cases_removed == ["parse unicode escapes"]
    assert title.endswith("remove test for parse unicode escapes")


def test_one_javascript_case_removed_is_named_by_its_sentence(repo: Repo) -> None:
    after = "describe('req', function(){\n" + KEPT_CASE + "})\n"
    _, title = edited(repo, {"test/req.signedCookies.js": (JS, after)})
    assert title.endswith("remove test for should return a signed cookie")


def test_a_test_rewritten_is_not_a_test_removed(repo: Repo) -> None:
    facts, title = edited(repo, {"tests/test_parse.py": (KEPT + GONE, KEPT + GONE.replace("['e']", "['é']"))})
    assert facts.cases_removed == [] and not title.startswith("remove")
