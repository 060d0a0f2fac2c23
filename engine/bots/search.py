"""The searching bots: information-set Monte Carlo tree search (ISMCTS) over sampled worlds.

A search bot sees what every bot sees: its seat's view, its legal moves and its random
generator (keyed by the match's bot key, position and seat, ``engine.bots.bot_rng``; the key is
an HMAC of the secret, which no draw gives back). Never the state, never the seed: that is the
no-peeking guarantee (``tests/engine/test_search.py`` gives it one view over two different hidden
deals and gets the same decision).

One iteration:

1. **Determinize.** The game's ``sample_state(view, seat, rng, legal)`` builds a full
   engine state consistent with the view (own hand, counts, shown cards, known swaps, the
   backs of UNO FLIP's cards...), the unseen cards dealt at random.
2. **Select and expand.** The tree holds the searching seat's decisions only, keyed by its
   own moves since the root (an "open-loop" information-set tree: a node stands for every
   history in which the seat made those moves, so the deals it cannot tell apart share
   their statistics). Between its decisions the other seats move by their ``greedy``
   policy, each from its own view of the sampled world (opponent modelling: they are
   assumed to play like the greedy bot). At a decision the tree picks, among the moves
   legal in this world, by UCB1 with availability counts (a move is only judged against
   the iterations in which it was legal), and expands one new move per iteration.
3. **Roll out.** From there every seat, the searcher included, plays ``greedy`` until the
   game's horizon: the end of the round (LIVOL, UNO FLIP), of the deal (Karuselis,
   Cardavia), or a few turns (IOTA), or a ply cap (then a heuristic closes the round).
4. **Back up** a reward in [0, 1] from the searching seat's point of view (``Spec.reward``,
   per game: see below), added to every node on the path.

The decision is the root move visited most (then the best mean, then the first in the
canonical order of the moves: their JSON, keys sorted; so it depends on the set of legal
moves, not on the order the engine lists them in).
Moves that are not decisions are made without a search: out of turn, and whenever a catch
or a call is on offer (LIVOL, UNO FLIP), the greedy rule decides (catch first, call when
it may); a single candidate is played at once.

**What the search knows of a game** is its ``Spec``: the horizon, the rollout's length, the
reward in [0, 1] from the searching seat ``me``'s point of view (its side in Karuselis
partnerships), the candidates worth searching, the moves left to the greedy rule and the
budgets. A game's bots module declares it as ``SEARCH`` beside its ``POLICIES``
(``engine/bots/livol.py``, ``uno_flip.py`` with ``shedding.py``, ``karuselis.py``, ``iota.py``,
``cardavia.py``: each reward is documented there, with the rule it scores). A game that
declares none is searched from the contract alone (``contract_spec``): to the end of the match or
a ply cap, the seat to move the first of ``to_act``, the reward the place ``outcome`` gives or
the gain of the view's ``scores`` by ``score_order``. So a new game with a ``greedy`` bot and a
``sample_state`` call gets every searching level without a line here.

**Budgets** are iteration counts (``Spec.budgets``, per level: ``BUDGETS`` unless the game
says), bounded where a game says so by a count of rollout plies (``Spec.plies_per_iteration``:
the long rollouts of a round's first turns would otherwise take seconds), so a decision depends on
nothing but the view, the legal moves and the generator: a repeated Celery task decides
the same. ``MS_CAP`` (10 s) is a safety net for pathological positions only; it is never hit
in the benchmarked games (``tests/bench/bot_ladder.py`` prints the time per move), and when it
is, the decision may depend on the machine's speed.
"""
from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from engine import IllegalMove, registry
from engine.bots.base import bots_module

if TYPE_CHECKING:
    from engine.bots.base import Policy
    from engine.protocol import SearchableGame

#: reward(start, end, closing_events, me) in [0, 1] (states are the game's own)
Reward = Callable[[Any, Any, list[dict[str, Any]], int], float]
#: candidates(view, legal, rng) -> the moves worth searching
Candidates = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], list[dict[str, Any]]]

#: Wall-clock safety cap per decision, in milliseconds (see the module docstring).
MS_CAP = 10_000
#: UCB1's exploration constant for rewards in [0, 1].
UCB_C = 0.7


# --------------------------------------------------------------------------
# What the search knows of a game: its bots module's ``SEARCH``, or the contract
# --------------------------------------------------------------------------

#: Iterations per decision at each level, unless a game's spec says otherwise.
BUDGETS = {"search-easy": 40, "search": 160, "search-strong": 640}
LEVELS = tuple(BUDGETS)


@dataclass
class Spec:
    """What the generic search needs to know of one game (a game's bots module declares it as
    ``SEARCH``; a game that does not is searched by ``contract_spec``)."""
    game: str
    #: the events that end the horizon (the round, the deal)
    horizon_events: frozenset[str]
    #: the most plies a rollout plays before the heuristic closes it (or a function of the
    #: sampled world's state that says so)
    max_plies: int | Callable[[Any], int]
    #: reward(start, end, closing_events, me) in [0, 1]
    reward: Reward
    #: how deep the tree grows (decisions of the searching seat); None: no limit
    max_depth: int | None = None
    #: candidates(view, legal, rng) -> the moves worth searching (a subset of ``legal``)
    candidates: Candidates | None = None
    #: moves the greedy rule makes without a search (out of turn, catch, call)
    urgent: frozenset[str] = field(default_factory=frozenset)
    #: iterations per decision at each level (``LEVELS``)
    budgets: dict[str, int] = field(default_factory=lambda: dict(BUDGETS))
    #: the seat whose turn it is in a state (None: nobody's), the seat a rollout moves next
    turn: Callable[[Any], int | None] | None = None
    #: the plies a decision may play, on average per iteration of its budget (None: no bound): where
    #: rollouts run long (the first turns of a round), a decision stops once it has played
    #: ``iterations × plies_per_iteration`` plies, so its worst time is bounded by a count, not a clock
    plies_per_iteration: int | None = None


def squash(x: float) -> float:
    """A difference of any size as a reward in (0, 1): 0.5 + 0.5·tanh(x)."""
    return 0.5 + 0.5 * math.tanh(x)


#: ``contract_spec``'s reward scale: a difference of this many points is worth tanh(1) of the range
CONTRACT_SCALE = 10
#: ``contract_spec``'s rollout length, in plies
CONTRACT_PLIES = 200


def contract_spec(game_name: str) -> Spec:
    """The search of a game that declares no ``SEARCH``, from the contract alone (docs/engine-contract.md): a rollout
    runs to the end of the match or ``CONTRACT_PLIES`` plies, the seat to move is the first of
    ``to_act``, and the reward is the place ``outcome`` gives (1 first, 0 last) or, short of the end,
    0.5 + 0.5·tanh(d / ``CONTRACT_SCALE``), d = my gain of the view's ``scores`` since the root less the
    best other seat's, turned by ``score_order``."""
    game = registry.get(game_name)

    def reward(start: Any, end: Any, closing: list[dict[str, Any]], me: int) -> float:
        result = game.outcome(end)
        if result is not None:
            ranking = result["ranking"]
            place = next(i for i, group in enumerate(ranking) if me in group)
            return 1.0 if len(ranking) == 1 else 1 - place / (len(ranking) - 1)
        before, after = game.view(start, me), game.view(end, me)
        if not before.get("scores") or not after.get("scores"):
            return 0.5
        sign = 1 if game.score_order(before.get("options")) == "higher" else -1
        gains = [sign * (b - a) for a, b in zip(before["scores"], after["scores"])]
        others = [g for s, g in enumerate(gains) if s != me]
        return squash((gains[me] - max(others, default=0)) / CONTRACT_SCALE)

    def turn(state: Any) -> int | None:
        acting = game.to_act(state)
        return acting[0] if acting else None

    return Spec(game_name, frozenset({"match_ended"}), CONTRACT_PLIES, reward, turn=turn)


_CONTRACT_SPECS: dict[str, Spec] = {}


def spec_of(game_name: str) -> Spec:
    """The search's spec of a game: its bots module's ``SEARCH`` (``engine.bots.bots_module``), or the
    contract's (the same object on every call, so a budget set on it holds)."""
    declared = getattr(bots_module(game_name), "SEARCH", None)
    if declared is not None:
        return cast(Spec, declared)
    if game_name not in _CONTRACT_SPECS:
        _CONTRACT_SPECS[game_name] = contract_spec(game_name)
    return _CONTRACT_SPECS[game_name]


# --------------------------------------------------------------------------
# The search
# --------------------------------------------------------------------------

class _Node:
    """A decision of the searching seat: its children by move key, with visits, reward sums
    and availability (how often the move was legal when this node was reached)."""
    __slots__ = ("children", "visits", "total", "avail", "move")

    def __init__(self, move: dict[str, Any] | None = None) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.move: dict[str, Any] = move  # type: ignore[assignment]  # None only at the root, never read


def _key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


class Search:
    """One decision's search (see the module docstring)."""

    def __init__(self, game_name: str, iterations: int, rng: random.Random, ms_cap: float = MS_CAP):
        self.name = game_name
        self.game = cast("SearchableGame", registry.get(game_name))  # searched only when it deals samples
        self.spec = spec_of(game_name)
        self.greedy: Policy = greedy_of(game_name)
        self.turn: Callable[[Any], int | None] = self.spec.turn or (lambda state: state.turn)
        self.iterations = iterations
        self.seed = rng.getrandbits(64)
        self.rng = rng
        self.ms_cap = ms_cap
        self.worlds: list[Any] = []
        self.stats = {"iterations": 0, "inconsistent": 0, "plies": 0}

    # -- the rollout policy and one step of play -----------------------------------------
    def _greedy_move(self, state: Any, seat: int, rng: random.Random) -> dict[str, Any] | None:
        legal = self.game.legal_moves(state, seat)
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        return self.greedy(self.game.view(state, seat), legal, rng, True)

    def _step(self, state: Any, seat: int, move: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
        events = self.game.play(state, seat, move)
        apply = self.game.apply
        for e in events:
            state = apply(state, e)
        return state, events

    def _world(self, k: int, view: dict[str, Any], legal: list[dict[str, Any]], me: int) -> tuple[Any, random.Random]:
        """World number ``k``: the same for every root move (common random numbers: the
        root's moves are compared on the same deals, so the luck of a deal cancels out)."""
        while len(self.worlds) <= k:
            seed = (self.seed, len(self.worlds))
            self.worlds.append(self.game.sample_state(view, me, random.Random(f"{seed}"), legal))
        return self.worlds[k], random.Random(f"{self.seed}:{k}:rollout")

    # -- one decision -------------------------------------------------------------------
    def decide(self, view: dict[str, Any], legal: list[dict[str, Any]], seat: int) -> dict[str, Any]:
        spec = self.spec
        # in a canonical order: the engine lists a seat's moves in the order of its hand as
        # dealt and drawn, which its view (sorted) does not show, so the decision depends on
        # the set of legal moves only
        legal = sorted(legal, key=_key)
        root_moves = spec.candidates(view, legal, self.rng) if spec.candidates else list(legal)
        if len(root_moves) == 1:
            return root_moves[0]
        root = _Node()
        keys = [_key(m) for m in root_moves]
        for m, k in zip(root_moves, keys):
            root.children[k] = _Node(m)
        deadline = time.perf_counter() + self.ms_cap / 1000
        plies = self.iterations * spec.plies_per_iteration if spec.plies_per_iteration else None
        for i in range(self.iterations):
            if i and (time.perf_counter() > deadline or (plies is not None and self.stats["plies"] >= plies)):
                break
            self._iterate(root, view, legal, seat, root_moves, keys)
            self.stats["iterations"] += 1
        self.root = root
        best_key = max(keys, key=lambda k: (root.children[k].visits,
                                            root.children[k].total / max(1, root.children[k].visits),
                                            -keys.index(k)))
        return root.children[best_key].move

    def _select(self, node: _Node, moves: list[dict[str, Any]], keys: list[str], rng: random.Random) -> _Node:
        """UCB1 over the moves legal here (availability counts), expanding one untried move."""
        children = node.children
        untried: list[tuple[dict[str, Any], str]] = []
        for m, k in zip(moves, keys):
            child = children.get(k)
            if child is None or child.visits == 0:
                untried.append((m, k))
            if child is not None:
                child.avail += 1
        if untried:
            m, k = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            child = children.get(k)
            if child is None:
                child = children[k] = _Node(m)
                child.avail = 1
            return child
        best: _Node | None = None
        best_value = -1.0
        for k in keys:
            child = children[k]
            value = child.total / child.visits + UCB_C * math.sqrt(math.log(child.avail) / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best  # type: ignore[return-value]  # every value is >= 0: some child is best

    def _iterate(self, root: _Node, view: dict[str, Any], legal: list[dict[str, Any]], me: int,
                 root_moves: list[dict[str, Any]], root_keys: list[str]) -> None:
        spec, game = self.spec, self.game
        # the root move first: its k-th visit plays in world k
        child = self._select(root, root_moves, root_keys, self.rng)
        start, rng = self._world(child.visits, view, legal, me)
        try:
            state, events = self._step(start, me, child.move)
        except IllegalMove:            # never with a consistent sample
            self.stats["inconsistent"] += 1
            child.visits += 1
            return
        path = [child]
        node = child
        depth = 1
        in_tree = spec.max_depth is None or depth < spec.max_depth
        plies = 1
        closing = self._closing(events)
        horizon = spec.max_plies if isinstance(spec.max_plies, int) else spec.max_plies(start)
        while not closing and plies < horizon:
            actor = self.turn(state)
            if actor is None:
                break
            if actor == me and in_tree:
                own = game.legal_moves(state, me)
                moves = spec.candidates(game.view(state, me), own, rng) if spec.candidates and len(own) > 1 else own
                if not moves:
                    break
                child = self._select(node, moves, [_key(m) for m in moves], rng)
                state, events = self._step(state, me, child.move)
                path.append(child)
                depth += 1
                if child.visits == 0 or (spec.max_depth is not None and depth >= spec.max_depth):
                    in_tree = False
                node = child
            else:
                move = self._greedy_move(state, actor, rng)
                if move is None:
                    break
                state, events = self._step(state, actor, move)
            plies += 1
            closing = self._closing(events)
        self.stats["plies"] += plies
        reward = spec.reward(start, state, closing, me)
        for n in path:
            n.visits += 1
            n.total += reward

    def _closing(self, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
        horizon = self.spec.horizon_events
        return [e for e in events if e["type"] in horizon]


# --------------------------------------------------------------------------
# Policies
# --------------------------------------------------------------------------

def greedy_of(game_name: str) -> Policy:
    """The game's ``greedy`` policy (its bots module's ``POLICIES``): the rollouts' and the opponents' model."""
    return cast("Policy", bots_module(game_name).POLICIES["greedy"])  # type: ignore[union-attr]  # searchable


def searchable(game_name: str) -> bool:
    """A game the search can play: it deals samples (``sample_state``, docs/engine-contract.md) and has a greedy bot."""
    return callable(getattr(registry.get(game_name), "sample_state", None)) and \
        "greedy" in getattr(bots_module(game_name), "POLICIES", {})


def policy_for(game_name: str, level: str) -> Policy:
    """The ``(view, legal, rng, must_act) -> move`` policy of a search level for a game (its budget read at
    each decision, from ``spec_of``)."""
    def search_policy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, must_act: bool) -> dict[str, Any] | None:
        if not legal:
            return None
        spec = spec_of(game_name)
        if not must_act or any(m["type"] in spec.urgent for m in legal):
            return greedy_of(game_name)(view, legal, rng, must_act)
        if len(legal) == 1:
            return legal[0]
        seat = view["turn"]            # it holds the turn (must_act)
        search = Search(game_name, spec.budgets[level], random.Random(rng.getrandbits(64)))
        return search.decide(view, legal, seat)

    search_policy.__name__ = f"{level.replace('-', '_')}_{game_name}"
    search_policy.level = level  # type: ignore[attr-defined]
    return search_policy


def policies(game_name: str) -> dict[str, Policy]:
    """Every search level for a searchable game (``engine.bots.policies_for`` adds them); none for another."""
    if not searchable(game_name):
        return {}
    return {level: policy_for(game_name, level) for level in LEVELS if level in spec_of(game_name).budgets}
