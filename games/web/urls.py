from django.urls import path

from games.web import views

urlpatterns = [
    path("", views.home, name="home"),
    path("waits/", views.home_waits, name="home_waits"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("rules/<slug:game>/", views.rules, name="rules"),
    path("matches/new/", views.match_new, name="match_new"),
    path("matches/<int:match_id>/", views.match_play, name="match_play"),
    path("matches/<int:match_id>/board/", views.match_board, name="match_board"),
    path("matches/<int:match_id>/move/", views.match_move, name="match_move"),
    path("matches/<int:match_id>/log/", views.match_log, name="match_log"),
    path("matches/<int:match_id>/join/", views.match_join, name="match_join"),
    path("matches/<int:match_id>/decline/", views.match_decline, name="match_decline"),
    path("challenges/decline-all/", views.challenges_decline_all, name="challenges_decline_all"),
    path("matches/<int:match_id>/resign/", views.match_resign, name="match_resign"),
    path("matches/<int:match_id>/record.json", views.match_record, name="match_record"),
    path("matches/<int:match_id>/replay/", views.match_replay, name="match_replay"),
    path("matches/<int:match_id>/audit/", views.match_audit, name="match_audit"),
]
