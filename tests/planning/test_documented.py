"""A code change mostly of docstrings and comments is titled by what it documents, not by its
smallest part (Flask 2.2.3's request hooks' docstrings, once titled by one annotation)."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import titled

HOOKS = '''class Scaffold:
    def before_request(self, f):
        """Register a function to run before each request."""
        return f

    def after_request(self, f):
        """Register a function to run after each request."""
        return f

    def teardown_request(self, f):
        """Register a function to run at the end of each request."""
        return f
'''
MORE = "\n\n        This is available on both app and blueprint objects.\n        "


def test_docstrings_of_many_methods_with_a_line_of_code_are_the_file_documented(repo: Repo) -> None:
    after = HOOKS
    for when in ("before", "after", "at the end of"):
        after = after.replace(f"run {when} each request.", f"run {when} each request.{MORE}")
    after = after.replace("    def teardown_request(self, f):\n", "    def teardown_request(self, f):  # hook\n")
    after = after.replace("        return f\n", "        return f or None\n", 1)
    facts, title = titled(repo, "src/flask/scaffold.py", HOOKS, after)
    doc, other = facts.explaining
    assert doc > other > 0
    assert title.endswith("add docs to scaffold.py"), title  # more lines added than taken out


def test_a_doc_comment_counts_for_the_function_below_it(repo: Repo) -> None:
    before = "module.exports = {\n  xpath: function(x) {\n    return x\n  },\n\n  toString: function() {\n    return ''\n  }\n}\n"
    after = before.replace("\n  toString:", "\n  /**\n   * Convert collection to a string.\n   */\n  toString:")
    after = after.replace("return ''", "return '[Collection]'")
    facts, title = titled(repo, "lib/collection.js", before, after)
    assert facts.documented == {"toString": 3}
    assert "toString" in title and "xpath" not in title


def test_a_doc_comment_alone_documents_the_function_below_it(repo: Repo) -> None:
    """express's ``Docs``: a JSDoc block with a bare `` *`` line added above ``toString``, its hunk
    inside ``xpath`` (it read ``Added docs to xpath`` once the bare line counted as a comment)."""
    before = "module.exports = {\n  xpath: function(x) {\n    return x\n  },\n\n  toString: function() {\n    return ''\n  }\n}\n"
    doc = "\n  /**\n   * Convert collection to a string.\n   *\n   * @return {string}\n   */\n  toString:"
    facts, title = titled(repo, "lib/collection.js", before, before.replace("\n  toString:", doc))
    assert facts.comment_only
    assert "toString" in title and "xpath" not in title, title


def test_a_function_mostly_rewritten_keeps_its_code_title(repo: Repo) -> None:
    body = "def load(path):\n    data = read(path)\n    return data\n"
    after = "def load(path):\n    # read it once\n    data = read(path, cache=True)\n    data = clean(data)\n    return data\n"
    facts, title = titled(repo, "app/load.py", body, after)
    assert "document" not in title


def test_a_comment_after_a_functions_closing_brace_documents_no_function(repo: Repo) -> None:
    """fd's ``main.rs`` with a line appended at its end: git's hunk header names the last
    function, whose closing brace the line follows (it read ``document build_regex``)."""
    before = "fn main() {\n    run();\n}\n\nfn build_regex(p: &str) -> Regex {\n    Regex::new(p)\n}\n"
    facts, title = titled(repo, "src/main.rs", before, before + "// scratch\n")
    assert not facts.documented and "build_regex" not in title, title
