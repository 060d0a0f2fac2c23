"""The test suite's settings with a sixth game, Tally, that lives only in ``tests/sixth_game``: its engine
module registered (``ENGINE_GAMES``, which the processes it starts inherit), its kit
named in ``GAME_KITS`` and its templates' directory added. Nothing outside ``tests/sixth_game`` names it."""
import os
from pathlib import Path

os.environ.setdefault("ENGINE_GAMES", "tally=tests.sixth_game.tally")

from engine import registry  # noqa: E402

registry.register("tally", "tests.sixth_game.tally")

from tests.settings import *  # noqa: E402,F401,F403

GAME_KITS = {"tally": "tests.sixth_game.kit"}
TEMPLATES[0]["DIRS"] = [Path(__file__).with_name("templates"), *TEMPLATES[0]["DIRS"]]  # noqa: F405
