"""The format settings the command twins take as flags (``Tournament.format_options``): ``--group-size`` and
``--advance`` (groups then play-offs), ``--bracket-reset``/``--no-bracket-reset`` (double elimination), ``--minutes`` and
``--streak`` (an arena). A flag
left out is not written, so the format's default holds; each format checks its own settings."""
from __future__ import annotations

import argparse


def add_format_flags(parser) -> None:
    parser.add_argument("--group-size", type=int, default=None,
                        help="groups_knockout: players per group (default 4)")
    parser.add_argument("--advance", type=int, default=None,
                        help="groups_knockout: players of each group who go through to the play-offs (default 2)")
    parser.add_argument("--bracket-reset", action=argparse.BooleanOptionalAction, default=None,
                        help="double_elimination: a second final when the losers' side wins the first (default: on)")
    parser.add_argument("--minutes", type=int, default=None, help="arena: the window, in minutes")
    parser.add_argument("--streak", type=int, default=None,
                        help="arena: wins in a row after which results score double (0: never)")


def format_options(o: dict) -> dict:
    """The settings the flags give, by their keys in ``Tournament.format_options``."""
    given = {key: o.get(key) for key in ("group_size", "advance", "bracket_reset", "minutes", "streak")}
    return {k: v for k, v in given.items() if v is not None}
