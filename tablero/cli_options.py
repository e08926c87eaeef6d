"""Options shared by several commands, kept apart from ``cli.py`` so that command modules
elsewhere (``analysis/command.py``) can use them without importing the whole command line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

__all__ = ["word_change_options", "word_file_given"]


def word_change_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--add-words FILE`` and ``--remove-words FILE``: a club's changes over the dictionary
    a command judges by (with a rule file's own ``[words] add``/``remove``)."""
    for flag, what in (("--remove-words", "banned"), ("--add-words", "added")):
        command = click.option(
            flag,
            type=click.Path(dir_okay=False),
            expose_value=False,
            callback=_remember_word_file,
            help=f"A list of words the club has {what}, one per line, over the dictionary.",
        )(command)
    return command


def _remember_word_file(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value:
        ctx.meta[f"tablero.{param.name}"] = value


def word_file_given(option: str) -> str | None:
    """The file ``--add-words`` (``add_words``) or ``--remove-words`` named in the running
    command, if any."""
    ctx = click.get_current_context(silent=True)
    value = ctx.meta.get(f"tablero.{option}") if ctx is not None else None
    return str(value) if value else None
