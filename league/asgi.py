"""The ASGI application: uvicorn (`make run`), gunicorn's uvicorn workers (the image). Pages, the API and
the live streams; static files through ServeStatic's asynchronous responses (settings.SERVED_BY_ASGI)."""
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
os.environ["CARDLEAGUE_ASGI"] = "1"
application = get_asgi_application()
