"""Definitions and uses from a real parse (tree-sitter) on real repositories, in five languages."""

from __future__ import annotations

import pytest

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import signals
from segmint_core.grouping.model import DEFAULT
from segmint_core.grouping.signals.base import Context
from segmint_core.grouping.syntax import SyntaxIndex
from segmint_core.grouping.units import build_units
from tests.support.repo import Repo


def parsed_units(repo: Repo):
    git = Git.discover(repo.path)
    changes = capture(git).changes
    return build_units(changes, (), SyntaxIndex(changes, git))


def edit(repo: Repo, path: str, before: str, after: str) -> None:
    repo.write(path, before)
    repo.commit()
    repo.write(path, after)


GO_BEFORE = """package shop

// Server serves the shop; listen is called from Start.
type Server struct {
\tAddr string
}

func (s *Server) Start() error {
\tif s.Addr == "" {
\t\treturn nil
\t}
\treturn listen(s.Addr)
}

func listen(addr string) error {
\treturn nil
}
"""


def test_go_method_bodies_and_renamed_functions(repo: Repo) -> None:
    after = GO_BEFORE.replace("return listen(s.Addr)", "return listenOn(s.Addr)")
    after = after.replace("func listen(addr string)", "func listenOn(addr string)")
    edit(repo, "server.go", GO_BEFORE, after)
    call, definition = parsed_units(repo)
    assert call.scope == "Start" and call.idents == {"Addr", "listen", "listenOn"}
    assert definition.defines == {"listen", "listenOn"} and definition.scope is None


def test_go_comments_and_strings_are_no_names(repo: Repo) -> None:
    after = GO_BEFORE.replace(
        "// Server serves the shop; listen is called from Start.",
        "// Server serves the shop; listenOn is called from Start.",
    )
    after = after.replace('if s.Addr == ""', 'if s.Addr == "listenOn"')
    edit(repo, "server.go", GO_BEFORE, after)
    comment, condition = parsed_units(repo)
    assert comment.idents == set()
    assert condition.idents == {"Addr"} and condition.scope == "Start"


RUST_BEFORE = """pub struct Walker {
    depth: usize,
}

impl Walker {
    pub fn new() -> Self {
        Walker { depth: 0 }
    }

    fn descend(&mut self) {
        self.depth += 1;
    }
}
"""


def test_rust_impl_methods_and_fields(repo: Repo) -> None:
    after = RUST_BEFORE.replace("    depth: usize,\n", "    depth: usize,\n    max_depth: usize,\n")
    after = after.replace("        self.depth += 1;", "        self.depth = (self.depth + 1).min(self.max_depth);")
    edit(repo, "src/walk.rs", RUST_BEFORE, after)
    field, body = parsed_units(repo)
    assert field.defines == {"max_depth"} and field.scope == "Walker"
    assert body.scope == "descend" and {"depth", "max_depth"} <= body.idents


JS_BEFORE = """'use strict';

/**
 * Send a response.
 */
res.send = function send(body) {
  var chunk = body;
  return this.end(chunk);
};

function setCharset(type, charset) {
  return type + charset;
}
"""


def test_javascript_assigned_functions_and_declarations(repo: Repo) -> None:
    after = JS_BEFORE.replace("  return this.end(chunk);", "  return this.end(setCharset(chunk, 'utf-8'));")
    after = after.replace("function setCharset(type, charset) {", "function setCharset(type, charset, strict) {")
    edit(repo, "lib/response.js", JS_BEFORE, after)
    call, signature = parsed_units(repo)
    assert call.scope == "send" and "setCharset" in call.idents and "utf" not in call.idents
    assert signature.defines == {"setCharset"}


TS_BEFORE = """export interface Options {
  retries: number;
}

export class Client {
  constructor(private options: Options) {}

  fetch(url: string): Promise<string> {
    return request(url, this.options.retries);
  }
}
"""


def test_typescript_interfaces_and_class_methods(repo: Repo) -> None:
    after = TS_BEFORE.replace("  retries: number;\n", "  retries: number;\n  timeoutMs: number;\n")
    after = after.replace(
        "request(url, this.options.retries)", "request(url, this.options.retries, this.options.timeoutMs)"
    )
    edit(repo, "src/client.ts", TS_BEFORE, after)
    field, body = parsed_units(repo)
    assert field.defines == {"timeoutMs"} and field.scope == "Options"
    assert body.scope == "fetch" and {"request", "options", "timeoutMs"} <= body.idents


def test_python_methods_get_their_own_scope_not_the_class(repo: Repo) -> None:
    before = (
        "class Parser:\n    def parse(self, text):\n"
        + "".join(f"        step_{i}()\n" for i in range(12))
        + "        return text\n"
    )
    after = before.replace("        return text\n", "        return text.strip()\n")
    edit(repo, "parser.py", before, after)
    (unit,) = parsed_units(repo)
    assert unit.scope == "parse" and unit.idents == {"text", "strip"}


def test_a_test_knows_what_its_test_function_calls(repo: Repo) -> None:
    before = (
        "from shop import parse_price\n\n\ndef test_price():\n    value = parse_price('1.00')\n    assert value == 1\n"
    )
    after = before.replace("assert value == 1", "assert value == 1.0")
    edit(repo, "tests/test_price.py", before, after)
    (unit,) = parsed_units(repo)
    assert unit.kind == "test" and "parse_price" in unit.calls and "test_price" not in unit.calls


def test_a_staged_then_edited_file_is_parsed_layer_by_layer(repo: Repo) -> None:
    base = (
        "def alpha():\n    return 'a'\n\n\n"
        + "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(6))
        + "def omega():\n    return 'z'\n"
    )
    repo.write("m.py", base)
    repo.commit()
    repo.write("m.py", base.replace("return 'a'", "return compute_a()"))
    repo.add("m.py")
    repo.write("m.py", base.replace("return 'a'", "return compute_a()").replace("return 'z'", "return compute_z()"))
    units = parsed_units(repo)
    assert [(u.scope, u.idents) for u in units] == [("alpha", {"compute_a"}), ("omega", {"compute_z"})]


def test_a_new_untracked_file_is_parsed_from_its_hunk(repo: Repo) -> None:
    repo.write("README.md", "x\n")
    repo.commit()
    repo.write("pkg/util.go", "package pkg\n\nfunc Clamp(v, lo, hi int) int {\n\treturn max(lo, min(v, hi))\n}\n")
    (unit,) = parsed_units(repo)
    assert unit.defines == {"Clamp"}


def test_without_a_repository_the_regex_reading_stays(repo: Repo) -> None:
    edit(repo, "server.go", GO_BEFORE, GO_BEFORE.replace("return listen(s.Addr)", "return listenOn(s.Addr)"))
    changes = capture(Git.discover(repo.path)).changes
    (unit,) = build_units(changes, (), SyntaxIndex(changes, None))
    assert unit.idents == {"Addr", "listen", "listenOn"}  # same names, read by the regex tokenizer


@pytest.mark.parametrize("language", ["go", "rust", "javascript", "typescript"])
def test_a_changed_definition_links_to_its_caller_in_another_file(repo: Repo, language: str) -> None:
    samples = {
        "go": (
            "util.go",
            "package p\n\nfunc Clamp(v int) int {\n\treturn v\n}\n",
            "return v + 0",
            "main.go",
            "package p\n\nfunc run() {\n\tx := 1\n\t_ = x\n}\n",
            "x := 1",
            "x := Clamp(1)",
        ),
        "rust": (
            "src/util.rs",
            "pub fn clamp(v: i32) -> i32 {\n    v\n}\n",
            "v + 0",
            "src/main.rs",
            "fn main() {\n    let x = 1;\n}\n",
            "let x = 1;",
            "let x = clamp(1);",
        ),
        "javascript": (
            "lib/util.js",
            "function clamp(v) {\n  return v;\n}\n",
            "return v + 0;",
            "lib/main.js",
            "function run() {\n  var x = 1;\n}\n",
            "var x = 1;",
            "var x = clamp(1);",
        ),
        "typescript": (
            "src/util.ts",
            "export function clamp(v: number): number {\n  return v;\n}\n",
            "return v + 0;",
            "src/main.ts",
            "function run(): void {\n  const x = 1;\n}\n",
            "const x = 1;",
            "const x = clamp(1);",
        ),
    }
    util, util_text, util_new, main, main_text, old_call, new_call = samples[language]
    body = util_text.splitlines()[1].strip()
    repo.write(util, util_text)
    repo.write(main, main_text)
    repo.commit()
    repo.write(util, util_text.replace(body, util_new))
    repo.write(main, main_text.replace(old_call, new_call))
    units = parsed_units(repo)
    ctx = Context(units, DEFAULT)
    found = {
        (units[x.a].path, units[x.b].path, x.kind.split(":")[0], x.detail.lower())
        for x in signals.SIGNALS["identifiers"](ctx)
    }
    assert (main, util, "def_use", "clamp") in found


def test_a_file_too_large_to_parse_is_read_as_text(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    import segmint_core.grouping.syntax as syntax

    before = (
        "from shop import parse_price\n\n\ndef test_price():\n    value = parse_price('1.00')\n    assert value == 1\n"
    )
    edit(repo, "tests/test_price.py", before, before.replace("assert value == 1", "assert value == 1.0"))
    monkeypatch.setattr(syntax, "MAX_PARSED", 40)
    (unit,) = parsed_units(repo)
    assert unit.kind == "test" and unit.calls == set()  # read as text: no parse, so no calls


# Top-level declarations, one a line, and one nested where it defines nothing at the top.
TOP_LEVEL = {
    "python": ("m.py", "value_{} = {}\n", "def f():\n    inner = 1\n"),
    "go": ("m.go", "var value_{} = {}\n", "func f() {{\n\tvar inner = 1\n\t_ = inner\n}}\n"),
    "javascript": ("m.js", "const value_{} = {};\n", "function f() {{\n  const inner = 1;\n}}\n"),
    "typescript": ("m.ts", "export const value_{}: number = {};\n", "function f(): void {{\n  const inner = 1;\n}}\n"),
}


@pytest.mark.parametrize("language", sorted(TOP_LEVEL))
def test_definitions_on_a_few_rows_of_a_long_file_are_those_rows_alone(language: str) -> None:
    """A query for a few rows reads those rows, not every top-level declaration of the
    file: asked once per hunk, that made a file with hundreds of hunks quadratic."""
    from segmint_core.grouping.syntax.facts import Parsed
    from segmint_core.grouping.syntax.languages import grammar_for

    path, line, nested = TOP_LEVEL[language]
    text = (
        ("package p\n\n" if language == "go" else "")
        + nested.format()
        + "".join(line.format(i, i) for i in range(3000))
    )
    parsed = Parsed(grammar_for(path), text.split("\n"))
    row = text.split("\n").index(line.format(1500, 1500).rstrip("\n"))
    assert [(d.name, d.name_row) for d in parsed.definitions(row, row)] == [("value_1500", row)]
    inner = next(r for r, t in enumerate(parsed.lines) if "inner = 1" in t)
    assert [d.name for d in parsed.definitions(inner, inner)] == ["f"]  # nested: not a top-level one


def test_definitions_on_a_few_rows_of_a_long_class_are_its_class_and_those_rows() -> None:
    from segmint_core.grouping.syntax.facts import Parsed
    from segmint_core.grouping.syntax.languages import grammar_for

    text = "class Codes:\n    def f(self):\n        inner = 1\n" + "".join(
        f"    value_{i} = {i}\n" for i in range(3000)
    )
    parsed = Parsed(grammar_for("codes.py"), text.split("\n"))
    row = parsed.lines.index("    value_1500 = 1500")
    assert sorted((d.name, d.name_row) for d in parsed.definitions(row, row)) == [("Codes", 0), ("value_1500", row)]
    assert sorted(d.name for d in parsed.definitions(2, 2)) == ["Codes", "f"]  # a method's local: no member


def test_the_units_of_one_long_describe_block_read_its_names_once(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each `it` line edited in a long `describe` is a unit whose test function is the
    whole block: its names are sifted once, not once per unit (that was quadratic)."""
    from segmint_core.grouping import units as units_module

    def block(renamed: range) -> str:
        return (
            "describe('lib', () => {\n"
            + "".join(
                f"  it('{'handles case' if i in renamed else 'case'} {i}', () => {{\n"
                f"    expect(parse(input{i})).toEqual(output{i});\n  }});\n\n"
                for i in range(400)
            )
            + "});\n"
        )

    edit(repo, "tests/lib.test.js", block(range(0)), block(range(0, 400, 10)))
    sifted = []
    monkeypatch.setattr(units_module, "_is_name", lambda name: sifted.append(name) or len(name) > 2)
    units = parsed_units(repo)
    assert len(units) == 40 and all({"parse", "input399", "output0"} <= u.calls for u in units)
    assert len(sifted) < 2 * 3 * 400 + 40 * 10  # the block's names once, and each unit's own few
