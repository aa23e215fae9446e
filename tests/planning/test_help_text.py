"""An option's help text reworded is titled by the option, not by the function declaring it."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import titled

APP = """pub fn build_app() -> App<'static, 'static> {
    App::new("fd")
        .arg(
            Arg::with_name("list-details")
                .long("list-details")
                .short("l")
                .help("Show details like permissions, owner, size and modification time.")
        )
        .arg(
            Arg::with_name("pattern").help(
                "the search pattern - a regular expression unless '--glob' is used (optional)",
            ),
        )
}
"""
CLI = """import click


@click.command()
@click.option("--count", default=1, help="Number of greetings.")
def hello(count):
    click.echo(count)
"""


def test_a_clap_option_help_reworded_names_the_long_flag(repo: Repo) -> None:
    after = APP.replace('"Show details like permissions, owner, size and modification time."', '"Use a long listing"')
    facts, title = titled(repo, "src/app.rs", APP, after)
    assert facts.help_of == ["--list-details"]
    assert title.endswith("update --list-details help text"), title


def test_a_positional_help_continued_over_lines_names_it_not_a_flag_it_mentions(repo: Repo) -> None:
    after = APP.replace(
        "\"the search pattern - a regular expression unless '--glob' is used (optional)\",\n            ),",
        '"the search pattern (optional)",\n            ).long_help(\n'
        '                "the search pattern which is a regular expression or a glob \\\\\n'
        '                 pattern (if --glob is used).")',
    )
    facts, _ = titled(repo, "src/app.rs", APP, after)
    assert facts.help_of == ["pattern"]


def test_a_click_option_help_reworded_and_a_default_changed_beside_it(repo: Repo) -> None:
    facts, title = titled(repo, "cli.py", CLI, CLI.replace("Number of greetings.", "How many greetings to print."))
    assert facts.help_of == ["--count"]
    assert "--count help text" in title
    facts, _ = titled(repo, "cli.py", CLI, CLI.replace("default=1, help=", "default=2, help="))
    assert facts.help_of == []


def test_a_help_hunk_with_a_line_of_blanks_is_read_in_a_moment(repo: Repo) -> None:
    # A long line of blanks was once read in cubic time: 1,600 blanks took 3 s, these 5,000 minutes.
    blanks = " " * 5_000
    before = CLI.replace("    click.echo(count)\n", f"    click.echo(count)\n{blanks}\n")
    after = before.replace('help="Number of greetings."', 'help="How many greetings."') + blanks + "x\n"
    _, title = titled(repo, "hello.py", before, after)
    assert title
