"""The read side of matches, one module per thing it reads; callers import the module they need.

- ``feeds``: what a seat may know (its view, its legal moves, its redacted events), the audit table;
- ``log``: the move log in words, by round;
- ``log_tail``: the board's log from a window and a kept tail (the cache);
- ``board``: the play page's board, its buttons, the last move and the turn;
- ``replay``: the positions of a finished match, step by step;
- ``rules``: the rules pages;
- ``people``: the seats, clocks and what waits for a person; ``matches_of``: a person's matches (API);
- ``hooks``: what other apps plug in (the league, in its ``ready``).

Every engine view or event a page, the API or a bot client sees passes through ``engine.view`` /
``engine.redact`` for the seat that asks (``feeds``): nothing else reaches them.
"""


def __getattr__(name: str):
    # log tails pickled before the read side was split name their builder here (kept an hour at most)
    if name == "_LogBuilder":
        from games.selectors.log import LogBuilder  # at first use: the package itself imports no module

        return LogBuilder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
