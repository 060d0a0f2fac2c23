"""A hung or refusing broker never holds a request: the change is committed and answered, the call has a
short timeout, and after a failure the broker is left alone for a while (the sweepers wake the work
later). Work is handed on by task name."""
from __future__ import annotations

import pytest
from celery import Celery
from django.db import transaction

from games import dispatch


@pytest.fixture(autouse=True)
def fresh_breaker():
    dispatch._failed_at = None
    yield
    dispatch._failed_at = None


@pytest.fixture
def hung_broker(monkeypatch, hung_port):
    """A Celery app whose Redis broker accepts connections and never answers (the settings' timeouts),
    as the dispatcher's app."""
    port, accepted = hung_port
    # Celery lets the CELERY_BROKER_URL environment variable (CI's real Redis) win over an app's broker
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    # not Celery's current app (the project's shared tasks keep the project's broker): the dispatcher's only
    app = Celery("hung", broker=f"redis://127.0.0.1:{port}/0", set_as_current=False)
    app.conf.broker_transport_options = {"socket_timeout": 0.3, "socket_connect_timeout": 0.3}
    app.conf.broker_connection_timeout = 0.3
    monkeypatch.setattr(dispatch, "current_app", app)
    return "hung.wake", accepted


def test_a_hung_broker_costs_one_short_timeout_then_is_left_alone(hung_broker):
    wake, accepted = hung_broker
    # when three requests wake work through a broker that never answers
    sent = [dispatch.send(wake, (1,)), dispatch.send(wake, (2,)), dispatch.send(wake, (3,))]
    # then none raised, only the first asked the broker (and timed out), and the broker counts as down
    assert sent == [False, False, False]
    assert len(accepted) == 1 and dispatch.broker_down()


def test_a_change_is_committed_and_answered_when_the_broker_refuses(db, hung_broker, django_user_model,
                                                                    django_capture_on_commit_callbacks):
    wake, _ = hung_broker
    # given a change that wakes work on commit (the callbacks run as a commit would run them)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        django_user_model.objects.create_user(username="kept", password="pw")
        dispatch.send_on_commit(wake, (7,))
    # then the change stands, and nothing was raised into the request
    assert django_user_model.objects.filter(username="kept").exists()
    assert dispatch.broker_down()


def test_eagerly_run_tasks_let_their_errors_through(monkeypatch):
    # a process that runs its tasks here (tests, --sync): a task's error is a bug, not a broker away
    app = Celery("eager", set_as_current=False)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True

    @app.task(name="eager.fails")
    def fails():
        raise RuntimeError("a bug")
    monkeypatch.setattr(dispatch, "current_app", app)
    with pytest.raises(RuntimeError):
        dispatch.send("eager.fails")
    assert not dispatch.broker_down()


def test_a_task_is_found_by_its_name_where_tasks_run_eagerly(db):
    # given this process runs its tasks eagerly (the suite does) and a sweeper's name
    # when it is sent by name, then it ran here (the project's tasks modules are found by name alone)
    assert dispatch.send("games.sweep") is True


def test_work_here_runs_the_bots_tasks_eagerly_and_leaves_new_work_to_the_loop(monkeypatch):
    sent = []
    monkeypatch.setattr(dispatch, "send_on_commit", lambda name, args=(), **kwargs: sent.append(name))
    with dispatch.work_here():
        assert dispatch.works_here() and dispatch.current_app.conf.task_always_eager
        dispatch.start("league.table_play", (1,))
        assert dispatch.hand_on("league.table_play", (1,)) is False
    # then nothing was sent: the caller's loop takes the work up
    assert sent == [] and not dispatch.works_here()
