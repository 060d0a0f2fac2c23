"""cardleague's pure-Python game engine.

The public surface is `docs/engine-contract.md`: ``registry`` lists the games and
``IllegalMove`` is raised for every rejected move. Nothing in this package
imports Django or does I/O.
"""
from engine import registry
from engine.core import IllegalMove

__all__ = ["IllegalMove", "registry"]
