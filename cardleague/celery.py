"""The Celery app. Configuration comes from Django settings (CELERY_*)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardleague.settings")

app = Celery("cardleague")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def embedded_broker_polled_often(broker_url: str) -> None:
    """On the embedded broker (``sqla+…``), its worker asks its table for work every
    ``CARDLEAGUE_EMBEDDED_BROKER_POLL`` seconds (the settings say why); other brokers are left as they are."""
    from django.conf import settings

    if broker_url.startswith(("sqla+", "sqlalchemy+")):
        from kombu.transport import sqlalchemy

        sqlalchemy.Transport.polling_interval = settings.CARDLEAGUE_EMBEDDED_BROKER_POLL


embedded_broker_polled_often(str(app.conf.broker_url))
