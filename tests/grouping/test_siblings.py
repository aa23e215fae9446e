"""One edit made several times in one file is one group; two unrelated edits of one file stay two."""

from __future__ import annotations

from segmint_core.changes import capture
from segmint_core.git import Git
from segmint_core.grouping import group_changes
from tests.support.repo import Repo

# A builder with many arguments, each with its own help text (as fd's ``build_app``).
ARGUMENTS = [
    ("regex", "Perform a regex-based search for the pattern"),
    ("depth", "Set the maximum search depth for directories"),
    ("ignore_file", "Add a custom ignore file in gitignore format"),
    ("threads", "Set number of threads to use for searching"),
    ("buffer", "The time in milliseconds to buffer results"),
    ("filesystem", "Enable display of filesystem errors while walking"),
    ("separator", "Set the path separator to use when printing"),
    ("colour", "Declare when to use colours in the output"),
]


def builder(helped: set[str]) -> str:
    lines = ["def build_app(app):"]
    for name, text in ARGUMENTS:
        lines.append(f"    app.argument(\n        {name!r},\n        long={name!r},")
        if name in helped:
            lines.append(f"        help={text!r},")
        lines.append(f"        takes_value={name in ('depth', 'threads')},\n    )")
    return "\n".join(lines) + "\n    return app\n"


def grouped(repo: Repo) -> list[list[str]]:
    changes = capture(Git.discover(repo.path))
    grouping = group_changes(changes, timeline=None, root=str(repo.path))
    paths = {c.id: c.file_path for c in grouping.changes}
    return [
        sorted({paths[h.split(":")[0]] for h in g.hunk_ids} | {paths[c] for c in g.change_ids}) for g in grouping.groups
    ]


def test_help_texts_deleted_from_one_function_are_one_group(repo: Repo) -> None:
    everything = {name for name, _ in ARGUMENTS}
    repo.write("app.py", builder(everything))
    repo.commit()
    repo.write("app.py", builder({"regex", "colour"}))  # six help texts gone, scattered through build_app
    assert grouped(repo) == [["app.py"]]


def test_names_added_through_a_contributors_list_are_one_group(repo: Repo) -> None:
    names = [
        f"{first} {last}" for first, last in zip("Ada Ben Cleo Dov Eve Finn Gus Hal Ida Jon".split(), "QRSTUVWXYZ")
    ]
    kept = names[::2]
    readme = "# Project\n\nIt does things.\n\n## Contributors\n\n{}\n\n## License\n\nMIT\n"
    repo.write("README.md", readme.format("\n".join(f"- {n}" for n in kept)))
    repo.commit()
    repo.write(
        "README.md",
        readme.format(
            "\n".join(
                f"- [{n}](mailto:{n.split()[0].lower()}@example.org)" if n not in kept else f"- {n}" for n in names
            )
        ),
    )
    assert grouped(repo) == [["README.md"]]


def test_the_same_edit_in_every_block_of_a_settings_file_is_one_group(repo: Repo) -> None:
    block = "  - package-ecosystem: {}\n    directory: /\n    schedule:\n      interval: weekly\n{}\n"
    cooldown = "    cooldown:\n      default-days: 7\n"
    ecosystems = ["pip", "github-actions", "docker", "npm"]
    head = "version: 2\nupdates:\n"
    repo.write(".github/dependabot.yml", head + "\n".join(block.format(e, cooldown) for e in ecosystems))
    repo.commit()
    repo.write(".github/dependabot.yml", head + "\n".join(block.format(e, "") for e in ecosystems))
    assert grouped(repo) == [[".github/dependabot.yml"]]


def test_unrelated_edits_of_one_file_stay_apart(repo: Repo) -> None:
    """A help text deleted in one function and an argument added to another are no sibling edits."""
    everything = {name for name, _ in ARGUMENTS}
    parser = (
        "\n\ndef parse_config(path, encoding):\n    with open(path, encoding=encoding) as handle:\n"
        "        data = handle.read()\n    return tomllib.loads(data)\n"
    )
    repo.write("app.py", builder(everything) + parser)
    repo.commit()
    changed = parser.replace("path, encoding)", "path, encoding, strict=False)").replace(
        "    return tomllib.loads(data)",
        "    if strict and not data:\n        raise ValueError(path)\n    return tomllib.loads(data)",
    )
    repo.write("app.py", builder(everything - {"buffer"}) + changed)
    assert len(grouped(repo)) == 2


def test_blanks_taken_off_lines_far_apart_in_one_file_are_one_group(repo: Repo) -> None:
    """fd's ``Remove trailing spaces from README.md``: two lines four hundred apart, in two
    sections, lose their trailing blanks (it proposed two commits, each ``Remove trailing
    whitespace from README.md``)."""
    words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike".split()
    filler = [f"{words[n % 13]} {words[(n * 7) % 13]} {n}" for n in range(400)]
    before = ["# fd", "", "so `fd -x` can parallelize a task run over many files. "]
    before += filler + ["## Install", "", "source /usr/share/bash-completion/completions/fd", "fd "]
    repo.write("README.md", "\n".join(before) + "\n")
    repo.commit()
    repo.write("README.md", "\n".join(line.rstrip() for line in before) + "\n")
    assert grouped(repo) == [["README.md"]]


def test_requirements_taken_out_of_one_file_far_apart_are_one_group(repo: Repo) -> None:
    """httpx's ``types-certifi and types-chardet are no longer required``: two pins, fifteen
    lines apart, deleted from ``requirements.txt`` (it proposed a commit for each)."""
    pins = [f"package-{chr(97 + n)}=={n}.0.{n}" for n in range(20)]
    pins[3], pins[17] = "types-chardet==5.0.4.5", "types-certifi==2021.10.8.2"
    repo.write("requirements.txt", "\n".join(pins) + "\n")
    repo.commit()
    repo.write("requirements.txt", "\n".join(p for p in pins if not p.startswith("types-")) + "\n")
    assert grouped(repo) == [["requirements.txt"]]


def test_lines_moved_down_one_file_are_one_group(repo: Repo) -> None:
    """express's ``update emeritus triagers``: three triagers taken out of the list of triagers and
    put in the emeriti's, a screen below (it proposed a commit taking them out, one putting them in)."""
    people = [f"{name}{n}" for n, name in enumerate("ada ben cleo dov eve finn gus hal ida jon kim lea".split())]
    moved = {"ben1", "eve4", "jon9"}

    def readme(active: list[str], emeriti: list[str]) -> str:
        listed = "\n".join(f"* [{p}](https://github.com/{p}) - **{p.title()} Example**" for p in active)
        former = "\n".join(f"  * [{p}](https://github.com/{p}) - **{p.title()} Example**" for p in emeriti)
        prose = "\n".join(f"Paragraph {n} of how the project is run, {n * 3} words long." for n in range(40))
        return f"# Project\n\n## Triagers\n\n{listed}\n\n{prose}\n\n<details>\n<summary>Emeriti</summary>\n\n{former}\n\n</details>\n"

    repo.write("Readme.md", readme(people, ["zed0", "yul1"]))
    repo.commit()
    repo.write("Readme.md", readme([p for p in people if p not in moved], ["zed0", "yul1", *sorted(moved)]))
    assert grouped(repo) == [["Readme.md"]]


def test_a_short_line_in_two_places_is_no_move(repo: Repo) -> None:
    """``return None`` taken out of one function and put in another far below are two edits."""
    functions = [
        f"def check_{n}(value):\n    if value > {n}:\n        return value\n    return None\n" for n in range(30)
    ]
    repo.write("checks.py", "\n\n".join(functions))
    repo.commit()
    functions[2] = functions[2].replace("    return None\n", "")
    functions[27] = functions[27].replace("(value):\n", "(value):\n    if value is None:\n        return None\n")
    repo.write("checks.py", "\n\n".join(functions))
    assert len(grouped(repo)) == 2
