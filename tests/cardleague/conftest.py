"""The project package's tests borrow the games' fixtures: three people, and a LIVOL match of two of them."""
from tests.games.conftest import livol_match, people  # noqa: F401  (fixtures: pytest finds them by name)
