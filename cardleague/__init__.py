"""The Django project: settings, URLs, the API's assembly, the ASGI/WSGI entry points and the Celery app.

The domain lives in the apps beside it (``games``, ``league``) and in the pure ``engine``.
"""
from cardleague.celery import app as celery_app

__all__ = ("celery_app",)
