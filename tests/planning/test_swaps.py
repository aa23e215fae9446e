"""An expression written instead of another on every rewritten line is named: use new instead of old."""

from __future__ import annotations

import time

from segmint_core.planning.swaps import swapped
from tests.support.repo import Repo
from tests.support.titles import edited, titled

INIT = """package cmd

func initConfig() {
	viper.SetConfigName(".cobra") // name of config file
	viper.AddConfigPath("$HOME")  // home directory first
	viper.AutomaticEnv()          // read in environment variables
}
"""
AFTER = (
    INIT.replace('AddConfigPath("$HOME")  //', 'AddConfigPath(os.Getenv("HOME")) //')
    .replace('(".cobra") //', '(".cobra")          //')
    .replace("AutomaticEnv()          //", "AutomaticEnv()                   //")
)


def test_a_literal_replaced_by_a_call_in_two_files_is_named_with_its_function(repo: Repo) -> None:
    files = {"cmd/init.go": (INIT, AFTER), "cmd/root.go": (INIT, AFTER)}
    facts, title = edited(repo, files)
    assert facts.swapped == ('"$HOME"', 'os.Getenv("HOME")')
    assert title.endswith('use os.Getenv("HOME") instead of "$HOME" in initConfig')


def test_numbers_conditions_comments_and_two_swaps_are_not_named() -> None:
    assert swapped([("    timeout = 5", "    timeout = 10")]) is None
    assert swapped([("    if a > b:", "    if a >= b:")]) is None
    assert swapped([("\tout *io.Writer // use out()", "\tout *io.Writer // use Out() instead")]) is None
    assert swapped([("x = f(a)", "x = g(a)"), ("y = h(b)", "y = k(b)")]) is None
    assert swapped([("x = f(a)", "x = f(a, b)")]) is None  # an argument added replaces nothing
    assert swapped([("    return None", "    return False")]) is None
    assert swapped([("    h = self.items", "    h = list(self.items)")]) is None  # wrapped, not replaced


def test_a_line_of_blanks_is_read_quickly() -> None:
    start = time.perf_counter()
    swapped([(" " * 20_000 + '"' + " " * 20_000, "'" + " " * 20_000 + "x")])
    assert time.perf_counter() - start < 1.0


def test_a_format_string_rewritten_swaps_no_name(repo: Repo) -> None:
    # click's move from % to str.format was titled `Use format instead of s`
    before = 'def greet(name, place):\n    print("Hello %s" % name)\n    print("From %s" % place)\n'
    after = 'def greet(name, place):\n    print("Hello {}".format(name))\n    print("From {}".format(place))\n'
    facts, title = edited(repo, {"app/greet.py": (before, after)})
    assert facts.renames == []
    assert "instead of s" not in title, title


def test_a_word_changed_in_a_message_renames_nothing(repo: Repo) -> None:
    # filelock 3.13.3 put "use" for "user" in an error message: it was titled "use use instead of user"
    before = (
        "def acquire(fd):\n    if fd < 0:\n"
        '        msg = "FileSystem does not appear to support flock; user SoftFileLock instead"\n'
        "        raise NotImplementedError(msg)\n"
    )
    facts, title = titled(repo, "src/filelock/unix.py", before, before.replace("; user Soft", "; use Soft"))
    assert facts.renames == [] and "instead of" not in title, title
