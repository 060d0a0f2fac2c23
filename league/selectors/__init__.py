"""The league's read side: pages, the admin, the API, the exports and the management commands all read
through these modules, so they show the same numbers.

- ``rounds``: a tournament's rounds and tables, its progress, bracket, fixtures and pairing rules, who a
  round waits for, who went through a table (what the formats ask: ``Played``);
- ``standings``: the standings with their tie-breaks and the rules of their legend;
- ``groups``: a format's groups (one standings table each, on the group's own tables) and its several
  brackets (a double elimination's), through what the format returns;
- ``players``: ratings and players' pages; ``clubs``: clubs and leagues; ``tournaments``: the lists of
  tournaments and the tournament page;
- ``accounts``: a person's API tokens and outside bots;
- ``hooks``: what the league adds to the games' pages (``league.apps`` plugs them in);
- ``exports``: CSV rows and text tables of what the others read (pure).

Import the module you read from (``from league.selectors import standings``): this package has no face.
"""
