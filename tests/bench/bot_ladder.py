"""Bot benchmark: the ladder of bot levels, each against the one below it, and their time per move.

    python -m tests.bench.bot_ladder --game livol --matches 10 [--levels random,greedy,search-easy]
    python -m tests.bench.bot_ladder --all --matches 4 [--seats 3] [--seed S]

Prints figures; it passes or fails nothing. For each game (``--all``: every registered
game), ``engine.bots.ladder`` plays ``--matches`` seeded matches of each level against the
one below it (the same matches every run: use it to compare two versions of a bot) and
prints its table: first places, their share with a Wilson 95% interval, and the time per
move of both levels. Then, per level over all its matches, the moves it decided (those
that held the turn with more than one legal move), the mean and the worst time per move:
the search levels' budgets (each game's ``SEARCH.budgets``, ``engine.bots.search``) are iteration counts, chosen so
that ``search`` decides within a second; this is where to check it.

The search levels are slow by design: ``search-strong`` takes seconds per move, so a
whole ladder of every level over many matches takes a long time; ``--levels`` narrows it.
"""
from __future__ import annotations

import argparse
import sys
import time

from engine import registry
from engine.bots import POLICY_NAMES, ladder


def level_times(rows: list[ladder.Row]) -> dict[str, ladder.Timing]:
    """Each level's timing summed over the rows it played in (as the level or the opponent)."""
    out: dict[str, ladder.Timing] = {}
    for row in rows:
        for policy, timing in row.timing.items():
            total = out.setdefault(policy, ladder.Timing())
            total.moves += timing.moves
            total.seconds += timing.seconds
            total.worst = max(total.worst, timing.worst)
    return out


def times_table(times: dict[str, ladder.Timing]) -> str:
    head = f"{'level':<14} {'moves':>8} {'ms/move':>9} {'worst ms':>9}"
    lines = [head, "-" * len(head)]
    for level in POLICY_NAMES:
        if level in times:
            t = times[level]
            lines.append(f"{level:<14} {t.moves:>8} {t.ms_per_move:>9.1f} {1000 * t.worst:>9.0f}")
    return "\n".join(lines)


def run(name: str, levels: list[str], matches: int, seed: str, seats: int | None) -> list[ladder.Row]:
    def progress(row: ladder.Row) -> None:
        print(f"  {name}: {row.level} against {row.opponent}, {row.matches} of {matches}", end="\r",
              file=sys.stderr, flush=True)

    started = time.perf_counter()
    rows = ladder.ladder(name, levels, matches, seed, seats, progress=progress)
    print(" " * 70, end="\r", file=sys.stderr, flush=True)
    print(f"{name}: {len(rows)} pair(s) of levels, {matches} matches each, {time.perf_counter() - started:.1f}s")
    print(ladder.table(rows))
    print()
    print(times_table(level_times(rows)))
    print()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", choices=registry.names())
    which.add_argument("--all", action="store_true", help="every registered game")
    parser.add_argument("--matches", type=int, default=10, help="matches per pair of levels")
    parser.add_argument("--levels", default=",".join(POLICY_NAMES), help="comma-separated, default: all")
    parser.add_argument("--seed", default="bench-ladder")
    parser.add_argument("--seats", type=int, default=None, help="default: 2, or the game's minimum")
    args = parser.parse_args()
    levels = [level for level in args.levels.split(",") if level]
    unknown = [level for level in levels if level not in POLICY_NAMES]
    if unknown:
        parser.error(f"unknown level(s): {', '.join(unknown)} (choose from {', '.join(POLICY_NAMES)})")
    for name in registry.names() if args.all else [args.game]:
        try:
            run(name, levels, args.matches, args.seed, args.seats)
        except Exception as exc:  # one game failing must not hide the others' figures
            print(f"{name}: failed: {exc!r}")


if __name__ == "__main__":
    main()
