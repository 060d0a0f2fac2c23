"""The Celery app (``cardleague/celery.py``)."""
from __future__ import annotations


def test_the_embedded_brokers_worker_asks_for_work_five_times_a_second(monkeypatch, tmp_path):
    """`make run`'s worker polls its SQLite broker for work: at kombu's default of once a second a bot answered
    a person's move up to a second late, and a bot tournament took 19 s instead of 2 (tournament_bench)."""
    from kombu import Connection
    from kombu.transport import sqlalchemy

    from cardleague.celery import embedded_broker_polled_often

    monkeypatch.setattr(sqlalchemy.Transport, "polling_interval", 1.0)
    url = f"sqla+sqlite:///{tmp_path / 'broker.sqlite3'}"
    embedded_broker_polled_often(url)
    with Connection(url) as broker:
        assert broker.transport.polling_interval == 0.2
    # another broker is left as it is
    monkeypatch.setattr(sqlalchemy.Transport, "polling_interval", 1.0)
    embedded_broker_polled_often("redis://127.0.0.1:6379/0")
    with Connection(url) as broker:
        assert broker.transport.polling_interval == 1.0
