"""Subjects say what the change does, as an engineer would title it: the changed function
and the nature of the change, never a list of names with "and N more"."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.planning import offline_message
from segmint_core.planning.writer import read_plan
from segmint_core.session.session import Session
from tests.support.repo import Repo
from tests.support.titles import edited, titled


def title_of(repo: Repo) -> str:
    cs = capture(Git.discover(repo.path))
    return offline_message([(c, c.hunks) for c in cs.changes]).title


def test_a_check_for_a_missing_value_is_handled(repo: Repo) -> None:
    repo.write("app/settings.py", "def load_settings(config):\n    path = config.path\n    return read(path)\n")
    repo.commit()
    repo.write(
        "app/settings.py",
        "def load_settings(config):\n    if config is None:\n        return {}\n"
        "    path = config.path\n    return read(path)\n",
    )
    assert title_of(repo) == "fix(settings): handle missing config in load_settings"


def test_a_missing_value_in_javascript_is_handled(repo: Repo) -> None:
    repo.write("lib/router.js", "function dispatch(req, done) {\n  return done(req.route.path)\n}\n")
    repo.commit()
    repo.write(
        "lib/router.js",
        "function dispatch(req, done) {\n  if (!done) {\n    return\n  }\n  return done(req.route.path)\n}\n",
    )
    assert title_of(repo) == "fix(router): handle missing done in dispatch"


def test_a_new_keyword_parameter_is_a_feature(repo: Repo) -> None:
    repo.write("net/client.py", "def fetch(url):\n    return get(url)\n")
    repo.commit()
    repo.write("net/client.py", "def fetch(url, timeout=10):\n    return get(url, timeout=timeout)\n")
    assert title_of(repo) == "feat(net): add timeout parameter to fetch"


def test_a_change_spread_over_many_functions_names_the_main_one_or_the_file(repo: Repo) -> None:
    body = "".join(f"def step{n}(x):\n    return x + {n}\n\n\n" for n in range(6))
    repo.write("calc/steps.py", body)
    repo.commit()
    repo.write("calc/steps.py", body.replace("return x +", "return x -"))
    title = title_of(repo)
    assert title == "fix(calc): correct steps.py" and "more" not in title


def test_one_function_holding_most_of_the_change_names_it(repo: Repo) -> None:
    big = "def parse(text):\n" + "".join(f"    a{n} = text[{n}]\n" for n in range(8)) + "    return a0\n"
    small = "\n\ndef helper(x):\n    return x\n\n\ndef other(y):\n    return y\n"
    repo.write("calc/parse.py", big + small)
    repo.commit()
    repo.write(
        "calc/parse.py",
        big.replace("text[", "text.strip()[")
        + small.replace("return x", "return x or 0").replace("return y", "return y or 0"),
    )
    assert title_of(repo) == "fix(calc): correct parse"


def test_a_respelled_word_in_a_comment_is_a_typo_fixed(repo: Repo) -> None:
    repo.write(
        "src/tool/io.py", "def read(path):\n    # Recieve the whole file at once\n    return open(path).read()\n"
    )
    repo.commit()
    repo.write(
        "src/tool/io.py", "def read(path):\n    # Receive the whole file at once\n    return open(path).read()\n"
    )
    assert title_of(repo) == "docs(io): fix typo in read"


def test_a_respelled_word_in_docs_is_a_typo_fixed(repo: Repo) -> None:
    repo.write("docs/usage.md", "# Usage\n\nRun the comand to start.\n")
    repo.commit()
    repo.write("docs/usage.md", "# Usage\n\nRun the command to start.\n")
    assert title_of(repo) == "docs(usage): fix typo in usage.md"


def test_an_apostrophe_fixed_beside_a_respelling_and_a_last_newline_are_typos_fixed(repo: Repo) -> None:
    """httpx's "fix small typos in Extensions doc": it's -> its, pacakge -> package, and the
    file given the newline it ended without; once titled "update extensions.md"."""
    text = "# Extensions\n\nThe `httpcore` pacakge uses it as it's API.\n\n```\nprint(1)\n```"
    repo.write("docs/extensions.md", text)
    repo.commit()
    repo.write("docs/extensions.md", text.replace("pacakge", "package").replace("it's", "its") + "\n")
    assert title_of(repo) == "docs(extensions): fix typos in extensions.md"


def test_a_plural_is_not_a_typo(repo: Repo) -> None:
    repo.write("docs/usage.md", "# Usage\n\nSee the issue tracker.\n")
    repo.commit()
    repo.write("docs/usage.md", "# Usage\n\nSee the issues tracker.\n")
    assert "typo" not in title_of(repo)


def test_a_word_with_a_prefix_taken_off_is_not_a_typo(repo: Repo) -> None:
    """click's ``buf[0].lstrip()`` to ``.strip()`` read ``Fixed typo in _flush_par``, and httpx's
    ``AsyncByteStream`` to ``SyncByteStream`` ``Update tests for multipart``: another method, another class."""
    repo.write("pkg/wrap.py", "def flush(buf):\n    if buf[0].lstrip() == '\\b':\n        return buf[1:]\n")
    repo.commit()
    repo.write("pkg/wrap.py", "def flush(buf):\n    if buf[0].strip() == '\\b':\n        return buf[1:]\n")
    assert "typo" not in title_of(repo)
    assert title_of(repo).endswith("use strip instead of lstrip")


def test_a_formatter_run_is_style(repo: Repo) -> None:
    repo.write("pkg/api.py", "def call(a, b):\n    return request('get', a, b)\n")
    repo.write("tests/test_api.py", "def test_call():\n    assert call('x', 1) == {'a': 1}\n")
    repo.commit()
    repo.write("pkg/api.py", 'def call(a, b):\n    return request(\n        "get",\n        a,\n        b,\n    )\n')
    repo.write("tests/test_api.py", 'def test_call():\n    assert call("x", 1) == {"a": 1}\n')
    assert title_of(repo).startswith("style")


def test_a_new_private_helper_taken_out_of_a_function_is_extracted(repo: Repo) -> None:
    repo.write(
        "pkg/report.py",
        "def render(rows):\n    out = []\n    for r in rows:\n        out.append(str(r).strip())\n    return out\n",
    )
    repo.commit()
    repo.write(
        "pkg/report.py",
        "def _clean(r):\n    return str(r).strip()\n\n\ndef render(rows):\n    return [_clean(r) for r in rows]\n",
    )
    from segmint_core.planning.messages import subjects
    from segmint_core.planning.facts import gather

    cs = capture(Git.discover(repo.path))
    facts = gather([(c, c.hunks) for c in cs.changes])
    assert subjects("refactor", facts)[0] == "extract _clean from render"


def test_a_folder_of_new_files_is_added_as_one(repo: Repo) -> None:
    repo.write("docs/patterns.rst", "Patterns\n========\n")
    repo.commit()
    repo.write("examples/celery/app.py", "def create_app():\n    return App()\n")
    repo.write("examples/celery/tasks.py", "def add(a, b):\n    return a + b\n")
    repo.write("examples/celery/README.md", "# Celery example\n")
    repo.write("docs/patterns.rst", "Patterns\n========\n\nSee examples/celery.\n")
    assert title_of(repo) == "feat(celery): add examples/celery/"


def test_packaging_metadata_is_build(repo: Repo) -> None:
    repo.write("src/Tool.egg-info/SOURCES.txt", "a.py\n")
    repo.commit()
    repo.write("src/Tool.egg-info/SOURCES.txt", "a.py\nb.py\n")
    assert title_of(repo).startswith("build")


def test_a_javascript_member_function_is_named_as_its_callers_write_it(repo: Repo) -> None:
    body = "res.links = function(links) {\n  var link = this.get('Link') || '';\n  return this.set('Link', link);\n};\n"
    repo.write("lib/response.js", "'use strict';\n\n" + body)
    repo.commit()
    repo.write("lib/response.js", "'use strict';\n\n" + body.replace("|| ''", "|| ''\n  if (link) link += ', '"))
    assert "res.links" in title_of(repo)


def test_an_object_literals_methods_are_named_not_their_file(repo: Repo) -> None:
    # express's Collection = Class({ reduce: function(memo, fn) {...}, all: function(fn) {...} })
    collection = (
        "Collection = Class({\n  reduce: function(memo, fn) {\n    this.each(function(val, key){\n"
        "      memo = fn(memo, val, key)\n    })\n    return memo\n  },\n\n"
        + "".join(f"  step{n}: function() {{\n    return {n}\n  }},\n\n" for n in range(6))
        + "  all: (fn) => {\n    return this.reduce(true, fn)\n  }\n})\n"
    )
    repo.write("lib/collection.js", collection)
    repo.commit()
    repo.write(
        "lib/collection.js",
        collection.replace(
            "    this.each(", "    if (this.arr.reduce)\n      return this.arr.reduce(fn, memo)\n    this.each("
        ).replace(
            "    return this.reduce(true",
            "    if (this.arr.every)\n      return this.arr.every(fn)\n    return this.reduce(true",
        ),
    )
    assert title_of(repo) == "fix(collection): correct reduce and all"


def test_a_typescript_parameter_typed_as_a_function_defines_nothing(repo: Repo) -> None:
    # release-please's ``releaseFilter: (version: Version) => boolean,`` is a parameter's type
    function = (
        "async function latestReleaseVersion(\n  github: GitHub,\n"
        "  releaseFilter: (version: Version) => boolean,\n  prefix?: string,\n  pattern?: string\n"
        "): Promise<Version | undefined> {\n  const found = await github.find(prefix, pattern);\n"
        "  return found;\n}\n"
    )
    repo.write("src/manifest.ts", "export const LIMIT = 3;\n\n" + function)
    repo.commit()
    repo.write(
        "src/manifest.ts",
        "export const LIMIT = 3;\n\n"
        + function.replace(
            "  prefix?: string,\n  pattern?: string\n", "  config: Config,\n  prefix?: string\n"
        ).replace("find(prefix, pattern)", "find(prefix, config.pattern)"),
    )
    assert "latestReleaseVersion" in title_of(repo)


def test_a_typescript_method_is_named_not_its_file(repo: Repo) -> None:
    method = (
        "export class GitHub {\n  async getPullRequest(number: number): Promise<PullRequest> {\n"
        "    const found = await this.fetch(number);\n    return found;\n  }\n}\n"
    )
    repo.write("src/github.ts", method)
    repo.commit()
    repo.write(
        "src/github.ts",
        method.replace("return found;", "if (!found) {\n      return undefined;\n    }\n    return found;"),
    )
    assert "getPullRequest" in title_of(repo)


def test_a_typescript_generator_method_far_above_its_edit_is_named(repo: Repo) -> None:
    method = (
        "export class GitHub {\n  private async *pullRequests(\n    status: string\n  ): AsyncGenerator<PR> {\n"
        + "".join(f"    const step{n} = {n};\n" for n in range(8))
        + "    const found = await this.list({\n      state: status,\n    });\n    yield found;\n  }\n}\n"
    )
    repo.write("src/github.ts", method)
    repo.commit()
    repo.write("src/github.ts", method.replace("state: status,", "state: status,\n      sort: 'updated',"))
    plans = Session(Git.discover(repo.path)).propose_commits()  # git's hunk header names only the class
    assert [p.title for p in plans] == ["fix(github): correct pullRequests"]


def test_a_test_callback_is_not_a_definition(repo: Repo) -> None:
    spec = "describe('res', function () {\n  it('sets a header', function () {\n    assert(true)\n  })\n})\n"
    repo.write("test/res.js", spec)
    repo.commit()
    repo.write("test/res.js", spec.replace("assert(true)", "assert(true)\n    assert(ok)"))
    title = title_of(repo)
    assert "describe" not in title and "`it`" not in title and " it " not in title


def test_a_parameter_a_constructor_gains_is_its_classs(repo: Repo) -> None:
    repo.write("net/client.py", "class Client:\n    def __init__(self, url):\n        self.url = url\n")
    repo.commit()
    repo.write("net/client.py", "class Client:\n    def __init__(self, url, timeout=10):\n        self.url = url\n")
    assert title_of(repo) == "feat(net): add timeout parameter to Client"


def test_an_edit_inside_a_special_method_names_its_class(repo: Repo) -> None:
    text = (
        "class Headers:\n"
        "    def __iter__(self):\n"
        '        """Each key once.\n\n        In the order they were set.\n        Long enough to hide the def.\n'
        '        """\n'
        "        seen = set()\n"
        "        return iter(self.items)\n"
    )
    repo.write("web/headers.py", text)
    repo.commit()
    repo.write("web/headers.py", text.replace("iter(self.items)", "iter(list(self.items) + [])"))
    titles = [p.title for p in Session(Git.discover(repo.path)).propose_commits()]
    assert titles == ["fix(web): correct Headers"]


SPREAD = (
    "class FileResponse:\n"
    "    def __init__(\n"
    "        self,\n"
    "        path: str,\n"
    "        filename: str = None,\n"
    "    ) -> None:\n"
    "        self.path = path\n"
)


def test_a_parameter_added_to_a_signature_spread_over_lines_is_a_parameter(repo: Repo) -> None:
    repo.write("web/responses.py", SPREAD)
    repo.commit()
    repo.write("web/responses.py", SPREAD.replace("None,\n", 'None,\n        disposition: str = "attachment",\n'))
    titles = [p.title for p in Session(Git.discover(repo.path)).propose_commits()]
    assert titles == ["feat(web): add disposition parameter to FileResponse"]


def test_a_new_function_spread_over_lines_adds_no_parameter(repo: Repo) -> None:
    repo.write("web/responses.py", SPREAD)
    repo.commit()
    repo.write(
        "web/responses.py",
        SPREAD + "\n    def close(\n        self,\n        code: int = 0,\n    ) -> None:\n        pass\n",
    )
    titles = [p.title for p in Session(Git.discover(repo.path)).propose_commits()]
    assert titles == ["feat(web): add close"]


def test_an_examples_code_is_named_by_its_example(repo: Repo) -> None:
    repo.write("examples/naval/naval.py", "def mine(x):\n    return x\n")
    repo.commit()
    repo.write("examples/naval/naval.py", "def mine(x):\n    return x + 1\n")
    assert title_of(repo) == "fix(naval): correct mine in the naval example"
    repo.write("examples/naval/naval.py", "def mine(x):\n    return x\n\n\ndef clear():\n    return 0\n")
    assert title_of(repo) == "feat(naval): add clear to the naval example"


def test_files_of_two_examples_name_no_example(repo: Repo) -> None:
    repo.write("examples/a/app.py", "def run(x):\n    return x\n")
    repo.write("examples/b/app.py", "def run(x):\n    return x\n")
    repo.commit()
    repo.write("examples/a/app.py", "def run(x):\n    return x + 1\n")
    repo.write("examples/b/app.py", "def run(x):\n    return x + 1\n")
    assert title_of(repo) == "fix(examples): correct run"


def test_a_parameter_line_of_many_blanks_is_read_at_once() -> None:
    # The pattern once tried every split of the blanks between a name, its annotation and its
    # default: "x: " with 200 blanks and "=" took 21 s.
    from segmint_core.planning.facts import _PARAM_LINE

    assert _PARAM_LINE.match("x: " + " " * 300 + "=") is None
    assert _PARAM_LINE.match("x = " + " " * 300 + "a ,b") is None
    found = _PARAM_LINE.match("    timeout:" + " " * 300 + "float = 5.0,")
    assert found is not None and found.group(1) == "timeout"


def test_if_made_elif_is_control_flow_not_a_name_swapped(repo: Repo) -> None:
    # idna 3.7 turned two loops' ``if`` into ``elif`` and added ``else: break``
    loop = "def joins(label):\n    for c in label:\n        if c == 'T':\n            continue\n        {}if c == 'L':\n            return True\n{}    return False\n"
    repo.write("idna/core.py", loop.format("", "") + "\n\n" + loop.format("", "").replace("joins", "joins_right"))
    repo.commit()
    stop = "        else:\n            break\n"
    repo.write(
        "idna/core.py", loop.format("el", stop) + "\n\n" + loop.format("el", stop).replace("joins", "joins_right")
    )
    assert "instead of" not in title_of(repo), title_of(repo)


def test_a_type_s_brackets_and_a_class_s_bases_hold_no_parameter(repo: Repo) -> None:
    # execnet 2.1.0: "add None parameter to _Serializer", "add Protocol parameter to Event"
    typed = "def __init__(self, write: Callable[[bytes], None] | None = None) -> None:"
    serializer = "class _Serializer:\n    {}\n        self.write = write\n"
    facts, _ = edited(
        repo,
        {
            "gateway.py": (serializer.format("def __init__(self, write=None):"), serializer.format(typed)),
            "models.py": (
                "class Model:\n    def Event(self):\n        return 1\n",
                "class Event(Protocol):\n    def set(self):\n        return 1\n",
            ),
        },
    )
    assert facts.params == [], facts.params


def test_a_python_line_opening_on_a_star_is_no_comment(repo: Repo) -> None:
    # Jinja 3.1.4's body read "args: t.Any, *kwargs: t.Any" and "*Values** that are neither ..."
    facts, _ = titled(
        repo,
        "filters.py",
        "def xmlattr(\n    d,\n):\n    '''Build attributes.'''\n    return d\n",
        "def xmlattr(\n    d,\n    *args: t.Any, **kwargs: t.Any,  # noqa: B902\n):\n"
        "    '''Build attributes.\n\n    **Values** that are neither none nor undefined are kept.\n    '''\n    return d\n",
    )
    assert not any("args" in text or "Values" in text for text in facts.comments), facts.comments


def test_a_new_class_is_added_with_its_methods_not_beside_them(repo: Repo) -> None:
    # semver 7.6.2's new internal/lrucache.js was titled "add LRUCache, get and others"
    cache = (
        "class LRUCache {\n  constructor () {\n    this.max = 1000\n    this.map = new Map()\n  }\n\n"
        "  get (key) {\n    return this.map.get(key)\n  }\n\n  delete (key) {\n    return this.map.delete(key)\n  }\n}\n\n"
        "module.exports = LRUCache\n"
    )
    repo.write("classes/range.js", "const LRU = require('lru-cache')\n")
    repo.commit()
    repo.write("internal/lrucache.js", cache)
    repo.write("classes/range.js", "const LRU = require('../internal/lrucache')\n")
    parts = [(c, c.hunks) for c in capture(Git.discover(repo.path)).changes]
    facts, _ = read_plan(parts)
    assert facts.code_added_defs == ["LRUCache"], facts.code_added_defs
    assert offline_message(parts).title == "feat: add LRUCache"


def test_a_comment_in_the_docs_python_settings_is_no_heading(repo: Repo) -> None:
    # jsonschema 4.22.0's docs/conf.py was titled "docs(conf): document -- sphinx-copybutton --"
    before = "extlinks = {}\n"
    after = before + "# -- sphinx-copybutton --\n\ncopybutton_prompt_is_regexp = True\n"
    facts, title = titled(repo, "docs/conf.py", before, after)
    assert facts.headings == [] and "copybutton --" not in title, title
