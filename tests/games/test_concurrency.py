"""Two submits for the same seat at the same moment: one wins, the other is a conflict."""
import threading

import pytest
from django.db import connection, connections

from games import services
from games.errors import StaleSequence
from games.models import Event
from games.services import SeatSpec, match_create
from tests.conftest import need


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_submits_for_one_seat_leave_no_gap_and_no_duplicate(django_user_model):
    need(connection.vendor == "postgresql", "row locks need PostgreSQL")
    # given
    users = [django_user_model.objects.create_user(username=f"c{i}") for i in range(2)]
    match = match_create(game="livol", seats=[SeatSpec(user=u) for u in users], seed="race")
    from tests.games.conftest import first_actor

    seat, legal = first_actor(match)
    start_seq = match.last_seq
    barrier = threading.Barrier(2)
    results = []

    def submit(move):
        try:
            barrier.wait()
            rows = services.move_submit(match_id=match.pk, seat=seat, move=move, expected_seq=start_seq)
            results.append(("ok", rows[-1].seq))
        except StaleSequence:
            results.append(("conflict", None))
        except Exception as exc:  # pragma: no cover - reported below
            results.append(("error", repr(exc)))
        finally:
            connections.close_all()

    # when two different legal moves arrive at once
    moves = [legal[0], legal[-1]]
    threads = [threading.Thread(target=submit, args=(m,)) for m in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    # then
    assert sorted(r[0] for r in results) == ["conflict", "ok"], results
    seqs = list(Event.objects.filter(match=match).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert [e.move for e in Event.objects.filter(match=match, move__isnull=False)] in ([moves[0]], [moves[1]])
