"""Demo content beyond the people: a finished bot match (and, with the league, a club)."""
from __future__ import annotations


def demo_extras() -> list[str]:
    from games.models import Match
    from games.services import SeatSpec, bots_advance, match_create

    notes = []
    if not Match.objects.filter(game="livol", seats__user__isnull=True).exists():
        match = match_create(game="livol", seats=[SeatSpec(bot="greedy"), SeatSpec(bot="random"),
                                                   SeatSpec(bot="greedy")], options={"target": 150})
        while bots_advance(match_id=match.pk, budget=2000)[1]:
            pass
        notes.append(f"  A finished bot match to replay: /matches/{match.pk}/replay/")
    return notes
