"""The Django project (settings, urls, Celery app) and the league domain app."""
from league.celery import app as celery_app

__all__ = ("celery_app",)
