"""Pages of the league domain: clubs, leagues, tournaments, players."""
urlpatterns: list = []
