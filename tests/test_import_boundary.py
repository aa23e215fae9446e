"""The headless path never loads Textual, as it runs (the layers are checked statically by lint-imports)."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import segmint_core
import segmint.cli
segmint.cli.build_parser()
{extra}
loaded = sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))
print(",".join(loaded))
"""


def modules_loaded_by(extra: str = "") -> str:
    out = subprocess.run(
        [sys.executable, "-c", CHECK.format(extra=extra)],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def test_core_and_cli_do_not_import_textual() -> None:
    assert modules_loaded_by() == ""


def test_every_core_module_imports_without_textual() -> None:
    extra = (
        "import pkgutil, importlib\n"
        "for m in pkgutil.walk_packages(segmint_core.__path__, 'segmint_core.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
    )
    assert modules_loaded_by(extra) == ""


def test_every_core_package_imports_on_its_own() -> None:
    """A cycle between packages shows only when one is imported first: each is, in a fresh process."""
    script = (
        "import os, pkgutil, importlib, sys\n"
        "import segmint_core\n"
        "names = ['segmint_core'] + [m.name for m in pkgutil.walk_packages(segmint_core.__path__, 'segmint_core.')"
        " if m.ispkg]\n"
        "for name in names:\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        for loaded in [m for m in sys.modules if m.startswith('segmint_core')]:\n"
        "            del sys.modules[loaded]\n"
        "        try:\n"
        "            importlib.import_module(name)\n"
        "        except Exception as error:\n"
        "            print(name, type(error).__name__, error)\n"
        "        sys.stdout.flush()\n"
        "        os._exit(0)\n"
        "    os.waitpid(pid, 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout == ""


def test_the_group_command_does_not_load_the_message_writer() -> None:
    """``segmint group`` opens the session, groups and weighs the groups: the message writer
    (most of ``segmint_core.planning``, and the pull request's wording) loads only when asked for."""
    script = (
        "import sys\n"
        "import segmint.cli.group, segmint_core.grouping.engine, segmint_core.session.confidence\n"
        "heavy = ('segmint_core.planning.writer', 'segmint_core.planning.facts', 'segmint_core.pr.')\n"
        "print(','.join(sorted(m for m in sys.modules if (m + '.').startswith(heavy))))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_planning_package_still_offers_the_writer_and_the_order() -> None:
    from segmint_core import planning
    from segmint_core.planning import order, writer

    assert planning.write_message is writer.write_message and planning.offline_message is writer.offline_message
    assert planning.Message is writer.Message
    assert planning.order_plans is order.order_plans and planning.cycles is order.cycles
