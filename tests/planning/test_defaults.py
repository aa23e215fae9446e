"""A default value changed is titled as one: "disable `decodeDotInKeys` by default" (qs 6.12.1,
which was "correct parse.js"), "change default `size` from 4096 to 65536"."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from segmint_core.planning.defaults import DefaultChange, read_defaults, subjects
from tests.planning.test_describe import title_of
from tests.support.examples import examples
from tests.support.repo import Repo

PARSE = "var defaults = {\n    comma: false,\n    decodeDotInKeys: true,\n    depth: 5\n};\n"


def test_a_key_of_a_defaults_object_switched_off(repo: Repo) -> None:
    repo.write("lib/parse.js", PARSE)
    repo.commit()
    repo.write("lib/parse.js", PARSE.replace("decodeDotInKeys: true", "decodeDotInKeys: false"))

    assert title_of(repo) == "fix(parse): disable decodeDotInKeys by default"


def test_a_keyword_parameter_default_changed(repo: Repo) -> None:
    repo.write("app/stream.py", "def read_chunks(stream, size=4096):\n    return stream.read(size)\n")
    repo.commit()
    repo.write("app/stream.py", "def read_chunks(stream, size=65536):\n    return stream.read(size)\n")

    assert title_of(repo) == "fix(stream): change default size from 4096 to 65536"


def test_an_options_default_is_named_by_its_flag(repo: Repo) -> None:
    cli = '@click.command()\n@click.option(\n    "--color/--no-color",\n    default=False,\n)\ndef main(color):\n    pass\n'
    repo.write("app/cli.py", cli)
    repo.commit()
    repo.write("app/cli.py", cli.replace("default=False", "default=True"))

    assert title_of(repo) == "fix(cli): enable --color by default"


def test_a_constant_naming_itself_a_default(repo: Repo) -> None:
    repo.write("app/client.py", "DEFAULT_MAX_REDIRECTS = 20\n\n\ndef get(url):\n    return url\n")
    repo.commit()
    repo.write("app/client.py", "DEFAULT_MAX_REDIRECTS = 30\n\n\ndef get(url):\n    return url\n")

    assert "change DEFAULT_MAX_REDIRECTS from 20 to 30" in title_of(repo)


def test_a_class_attribute_is_its_instances_default(repo: Repo) -> None:
    # starlette's "Change default chunk size from 4Kb to 64Kb"
    responses = "class FileResponse:\n    chunk_size = 4096\n\n    def send(self):\n        pass\n"
    repo.write("app/responses.py", responses)
    repo.commit()
    repo.write("app/responses.py", responses.replace("4096", "64 * 1024"))

    assert title_of(repo) == "fix(responses): change default chunk_size from 4096 to 64 * 1024"


def hunk(*lines: str, section: str = "") -> tuple[str, str, list[str]]:
    return ("a.py", section, list(lines))


def test_what_is_no_default_is_not_called_one() -> None:
    assert read_defaults([hunk("-MAX_REDIRECTS = 20", "+MAX_REDIRECTS = 30")]) == []  # a constant
    assert read_defaults([hunk(" class Client:", "-    MAX = 20", "+    MAX = 30")]) == []  # a class's constant
    call = hunk('-    f = NamedTemporaryFile(mode="wb")', '+    f = NamedTemporaryFile(mode="w")', section=" def page(")
    assert read_defaults([call]) == []  # a call's keyword argument
    assert read_defaults([hunk("-    if size == 20:", "+    if size == 30:")]) == []  # a comparison
    assert read_defaults([hunk("-    limit = 20", "+    limit = 30", section=" def fetch(url):")]) == []
    # a default changed beside other code is that code's change, not the default's alone
    both = hunk("-def f(size=1):", "+def f(size=2):", "+    log(size)")
    assert read_defaults([both]) == []


def test_defaults_in_a_dict_and_a_signature_over_lines() -> None:
    keyed = hunk('-    "timeout": 5,', '+    "timeout": 10,', section=" DEFAULTS = {")
    spread = hunk(" def fetch(", "     url,", "-    retries: int = 3,", "+    retries: int = 5,")
    assert read_defaults([keyed, spread]) == [DefaultChange("timeout", "5", "10"), DefaultChange("retries", "3", "5")]
    assert subjects(read_defaults([keyed, spread]), str) == ["change the defaults of timeout and retries"]


NAMES = st.from_regex(r"[a-z][a-zA-Z_]{0,12}", fullmatch=True)
VALUES = st.sampled_from(["true", "false", "None", "0", "32", "'simple'", '"utf-8"', "4.5"])


@settings(max_examples=examples(300))
@given(NAMES, VALUES, VALUES, st.sampled_from(["def f(a, {n}={v}):", "    {n}: {v},", "{n} = {v}"]))
def test_only_a_literal_swapped_after_a_default_reads_as_one(name: str, old: str, new: str, shape: str) -> None:
    section = " var defaults = {" if shape.startswith("    ") else ""
    pair = hunk(f"-{shape.format(n=name, v=old)}", f"+{shape.format(n=name, v=new)}", section=section)
    found = read_defaults([pair])
    if old == new or shape == "{n} = {v}" and "default" not in name.lower():
        assert found == []
    else:
        assert found == [DefaultChange(name, old, new)]
