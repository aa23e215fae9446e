"""Help texts only taken out of options are said as such, never as the options removed."""

from __future__ import annotations

from tests.support.repo import Repo
from tests.support.titles import edited

APP = """pub fn build_app() -> App<'static, 'static> {
    App::new("fd")
        .arg(
            Arg::with_name("maxdepth")
                .long("maxdepth")
                .hidden(true)
                .help("See --max-depth")
                .long_help("See --max-depth"),
        )
        .arg(
            Arg::with_name("regex")
                .long("regex")
                .help("Perform a regex-based search")
                .long_help("Perform a regular-expression based search (default)."),
        )
}
"""

CLI = """import argparse


def parser():
    p = argparse.ArgumentParser()
    p.add_argument(
        "--depth",
        type=int,
        help="how deep to go",
    )
    p.add_argument("--quiet", action="store_true", help="say less")
    return p
"""


def test_help_texts_taken_out_are_counted_with_their_function(repo: Repo) -> None:
    after = APP.replace(
        '                .help("See --max-depth")\n                .long_help("See --max-depth"),\n', ""
    )
    after = after.replace('                .help("Perform a regex-based search")\n', "")
    facts, title = edited(repo, {"src/app.rs": (APP, after)})
    assert facts.helps_removed == 3
    assert title.endswith("remove 3 help texts from build_app")


def test_an_option_removed_with_its_help_is_no_help_text_removed(repo: Repo) -> None:
    after = CLI.replace('    p.add_argument("--quiet", action="store_true", help="say less")\n', "")
    facts, title = edited(repo, {"cli.py": (CLI, after)})
    assert facts.helps_removed == 0 and "help text" not in title
    facts, title = edited(repo, {"cli.py": (CLI, CLI.replace('        help="how deep to go",\n', ""))})
    assert facts.helps_removed == 1 and title.endswith("remove a help text from parser")
