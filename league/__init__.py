"""The league domain app: clubs, leagues, seasons, tournaments, standings and ratings."""
