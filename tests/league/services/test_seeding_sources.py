"""Round 1's seeding from a previous event's standings and by hand (``Tournament.Seeding``)."""
from __future__ import annotations

from league import services
from league.models import Entrant, PlayerProfile, Rating, Tournament
from league.selectors.standings import ranked_entrant_ids
from tests.league.conftest import make_tournament


def _seeds(tournament: Tournament) -> list[int]:
    """Player ids in seed order."""
    return list(Entrant.objects.filter(tournament=tournament).order_by("seed").values_list("player_id", flat=True))


def test_seeding_by_standings_follows_the_previous_events_final_order_and_newcomers_come_after_by_rating(league):
    # given a finished round robin of four bots
    before = make_tournament(league, format="round_robin", players=4)
    services.tournament_run(tournament_id=before.pk)
    finish = [Entrant.objects.get(pk=e).player_id for e in ranked_entrant_ids(before)]
    # and a new event seeded from it, its entries in the reverse order, with two newcomers (one rated)
    after = services.tournament_create(league_id=league.pk, name="next", format="swiss", rounds=1,
                                       seeding=Tournament.Seeding.STANDINGS)
    after.seeded_from = before
    after.save(update_fields=["seeded_from"])
    weak = PlayerProfile.objects.create(name="Newcomer weak", bot_policy="greedy")
    strong = PlayerProfile.objects.create(name="Newcomer strong", bot_policy="greedy")
    Rating.objects.create(player=strong, game="livol", mu=40, sigma=1)
    for player_id in [weak.pk, *reversed(finish), strong.pk]:
        services.entrant_add(tournament_id=after.pk, player_id=player_id)
    # when round 1 is paired
    services.round_pair(tournament_id=after.pk)
    # then the seeds are the previous standings, then the newcomers by rating
    assert _seeds(after) == [*finish, strong.pk, weak.pk]


def test_seeding_by_hand_keeps_the_seeds_the_organiser_typed(league):
    # given four bots whose seeds the organiser typed as 3, 1, 2 and left one at 0
    tournament = make_tournament(league, format="swiss", players=4, rounds=1)
    tournament.seeding = Tournament.Seeding.HAND
    tournament.save(update_fields=["seeding"])
    entrants = list(tournament.entrants.order_by("pk"))
    for entrant, seed in zip(entrants, [3, 1, 0, 2]):
        entrant.seed = seed
        entrant.save(update_fields=["seed"])
    # when round 1 is paired
    services.round_pair(tournament_id=tournament.pk)
    # then the typed order holds (the seed left at 0 goes last) and ratings play no part
    expected = [entrants[1].player_id, entrants[3].player_id, entrants[0].player_id, entrants[2].player_id]
    assert _seeds(tournament) == expected
