"""Sub-commands whose parsers are built only when one is chosen.

Each sub-command is a module with ``register(subparsers, common)``; the others
stay a help line each, so a command never pays for importing the rest (the
TUI, the MCP listing, the benchmarks' fitted models). ``segmint`` and
``segmint bench`` both list theirs so.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from importlib import import_module
from typing import Any

Finish = Callable[[argparse.ArgumentParser], None]


class ChosenOnly(argparse._SubParsersAction):
    """The sub-parsers of a command: the chosen one built from its module as argparse reaches it."""

    modules: dict[str, str]  # name -> the module whose register() adds its parser
    common: argparse.ArgumentParser
    finish: Finish | None

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        name = values[0] if values else None
        if name in self.modules:
            module = self.modules.pop(name)  # built once
            built = argparse._SubParsersAction([], prog=self._prog_prefix, parser_class=self._parser_class)
            import_module(module).register(built, self.common)
            chosen = built.choices[name]
            if self.finish is not None:
                self.finish(chosen)
            self._name_parser_map[name] = chosen
        super().__call__(parser, namespace, values, option_string)


def chosen_only(
    parent: argparse.ArgumentParser,
    common: argparse.ArgumentParser,
    commands: dict[str, tuple[str, str]],
    finish: Finish | None = None,
    **options,
) -> ChosenOnly:
    """``parent``'s sub-commands, ``commands`` mapping each name to its module and its help line;
    ``finish`` is given the chosen command's parser once built."""
    subparsers = parent.add_subparsers(action=ChosenOnly, **options)
    assert isinstance(subparsers, ChosenOnly)
    subparsers.modules = {name: module for name, (module, _) in commands.items()}
    subparsers.common, subparsers.finish = common, finish
    for name, (_, help_line) in commands.items():
        subparsers.add_parser(name, help=help_line)
    return subparsers
