"""The ASGI application: uvicorn (`make run`), gunicorn's uvicorn workers (the image). Pages, the API and
the live streams; static files through ServeStatic's asynchronous responses (settings.SERVED_BY_ASGI)."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
os.environ["CARDLEAGUE_ASGI"] = "1"
django_application = get_asgi_application()

from games.stream_edge import with_streams  # noqa: E402 - after Django is set up

# the live streams have their own front (no thread per open stream); everything else is Django's
application = with_streams(django_application)
