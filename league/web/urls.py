"""Pages of the league domain: clubs, leagues, tournaments, players."""
from django.urls import path, register_converter

from league.web import entries, pages, views


class TokenConverter:
    """An invitation link's token: URL-safe base64 as ``secrets.token_urlsafe`` writes it. Anything else
    (a NUL, a slash, 5,000 characters) matches no page: a 404, never a database error."""
    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

urlpatterns = [
    path("leagues/", views.index, name="league_index"),
    path("leagues/<int:league_id>/", views.league, name="league_detail"),
    path("clubs/<slug:slug>/", views.club, name="league_club"),
    path("tournaments/<int:tournament_id>/", views.tournament, name="league_tournament"),
    path("tournaments/<int:tournament_id>/live/", views.tournament_live, name="league_tournament_live"),
    path("tournaments/<int:tournament_id>/entry/<slug:action>/", entries.entry_action, name="league_entry"),
    path("tournaments/<int:tournament_id>/check-in/<token:code>/", entries.checkin_door, name="league_checkin_door"),
    path("tournaments/<int:tournament_id>/check-in-qr/", entries.checkin_qr, name="league_checkin_qr"),
    path("tournaments/<int:tournament_id>/pause/", views.tournament_pause, name="league_tournament_pause"),
    path("tournaments/<int:tournament_id>/standings.csv", views.standings_csv, name="league_standings_csv"),
    path("tournaments/<int:tournament_id>/results.csv", views.results_csv, name="league_results_csv"),
    path("players/<int:player_id>/", views.player, name="league_player"),
    path("ratings/<slug:game>/", views.ratings, name="league_ratings"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/signup/<token:token>/", views.signup, name="signup_invited"),
    path("accounts/settings/", views.account_settings, name="account_settings"),
    path("accounts/challenges/", views.challenge_rules_save, name="challenge_rules_save"),
    path("accounts/challenges/<int:match_id>/refuse/", views.challenger_refuse, name="challenger_refuse"),
    path("accounts/tokens/new/", views.personal_token_new, name="personal_token_new"),
    path("accounts/bots/new/", views.bot_account_new, name="bot_account_new"),
    path("accounts/bots/<int:user_id>/token/", views.bot_token_new, name="bot_token_new"),
    path("accounts/tokens/<int:token_id>/revoke/", views.api_token_revoke, name="api_token_revoke"),
    path("join/<token:token>/", views.club_join, name="club_join"),
    path("calendar/<token:token>.ics", pages.person_calendar, name="calendar_person"),
    path("clubs/<slug:slug>/players/<int:player_id>/", pages.club_member, name="league_club_member"),
    path("clubs/<slug:slug>/calendar.ics", pages.club_calendar, name="calendar_club"),
    path("accounts/calendar/new/", pages.calendar_address_new, name="calendar_address_new"),
    path("accounts/calendar/revoke/", pages.calendar_address_revoke, name="calendar_address_revoke"),
]
