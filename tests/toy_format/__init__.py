"""A toy tournament format that exists only in the tests: a ladder (``tests/toy_format/ladder.py``), found
through ``settings.TOURNAMENT_FORMATS``. ``tests/league/test_toy_format.py`` runs a tournament of it."""
