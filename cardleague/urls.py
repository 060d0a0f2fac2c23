"""URLs: the admin, the health check, the live streams, the API under /api/ and the pages of both apps."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from cardleague import health
from cardleague.api import api
from games.web import streams
from league.web import views as league_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("readyz", health.readyz, name="readyz"),
    # the live streams are Django's own async views (Server-Sent Events), in front of the API
    path("api/matches/<int:match_id>/stream", streams.match_stream, name="match_stream"),
    path("api/stream", streams.account_stream, name="account_stream"),
    path("api/tournaments/<int:tournament_id>/stream", streams.tournament_stream, name="tournament_stream"),
    path("api/", api.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/setlang/", league_views.language_set, name="set_language"),
    path("", include("games.web.urls")),
    path("", include("league.web.urls")),
]
