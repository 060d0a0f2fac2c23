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
4. **Back up** a reward in [0, 1] from the searching seat's point of view (``Spec.reward``;
   per game below), added to every node on the path.

The decision is the root move visited most (then the best mean, then the first in the
canonical order of the moves: their JSON, keys sorted; so it depends on the set of legal
moves, not on the order the engine lists them in).
Moves that are not decisions are made without a search: out of turn, and whenever a catch
or a call is on offer (LIVOL, UNO FLIP), the greedy rule decides (catch first, call when
it may); a single candidate is played at once.

**Rewards** (the searching seat ``me``; its side in Karuselis partnerships):
- LIVOL, UNO FLIP: at the end of the round, 0.5 ± 0.25 for winning or losing the round
  plus 0.25·tanh(points / 100) for the points won (``winner_scores``: what the winner
  scores; LIVOL ``own_hand``: the others' mean hand minus mine); a rollout cut by the ply
  cap is scored by the same rule, in expectation over who goes out first (each seat's
  chance ∝ e^(−0.8·cards held)).
- Karuselis: at the end of the deal, 0.5 + 0.5·tanh(d / 6), d = what my side gained in
  K13 points since the root (card points captured, plus the most-spades and most-cards
  bonuses, whose counts are public) minus the best other side's gain.
- IOTA: after two turns of every seat (or the end), 0.5 + 0.5·tanh(d / 25), d = my points
  gained minus the best gain of another seat (``kids``: cards shed, /2); at the end of the
  match the final score difference counts.
- Cardavia: at the end of the deal, 0.5 + 0.5·tanh(o − m), m = lives I lost (twice when it
  was my last), o = the mean lives lost by the others.

**Budgets** are iteration counts (``BUDGETS``: per level, per game), so a decision depends
on nothing but the view, the legal moves and the generator: a repeated Celery task decides
the same. ``MS_CAP`` (10 s) is a safety net for pathological positions only; it is never hit
in the benchmarked games (``tests/bench/bot_ladder.py`` prints the time per move), and when it
is, the decision may depend on the machine's speed.
"""
from __future__ import annotations

import importlib
import json
import math
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence, cast

from engine import IllegalMove, registry

if TYPE_CHECKING:
    from engine.bots import Policy
    from engine.protocol import SearchableGame

#: reward(start, end, closing_events, me) in [0, 1] (states are the game's own)
Reward = Callable[[Any, Any, list[dict[str, Any]], int], float]
#: candidates(view, legal, rng) -> the moves worth searching
Candidates = Callable[[dict[str, Any], list[dict[str, Any]], random.Random], list[dict[str, Any]]]

#: Wall-clock safety cap per decision, in milliseconds (see the module docstring).
MS_CAP = 10_000
#: UCB1's exploration constant for rewards in [0, 1].
UCB_C = 0.7

#: Iterations per decision: level -> game -> count (chosen so that ``search`` decides within
#: 1 s on one core in every game; the ladder prints the times).
BUDGETS = {
    "search-easy": {"livol": 40, "uno_flip": 40, "karuselis": 40, "iota": 16, "cardavia": 60},
    "search": {"livol": 160, "uno_flip": 160, "karuselis": 160, "iota": 48, "cardavia": 240},
    "search-strong": {"livol": 640, "uno_flip": 640, "karuselis": 640, "iota": 192, "cardavia": 960},
}
LEVELS = tuple(BUDGETS)


# --------------------------------------------------------------------------
# Per-game knowledge: candidates, horizon, reward
# --------------------------------------------------------------------------

@dataclass
class Spec:
    """What the generic search needs to know of one game."""
    game: str
    #: the events that end the horizon (the round, the deal)
    horizon_events: frozenset[str]
    #: the most plies a rollout plays before the heuristic closes it
    max_plies: int
    #: reward(start, end, closing_events, me) in [0, 1]
    reward: Reward
    #: how deep the tree grows (decisions of the searching seat); None: no limit
    max_depth: int | None = None
    #: candidates(view, legal, rng) -> the moves worth searching (a subset of ``legal``)
    candidates: Candidates | None = None
    #: moves the greedy rule makes without a search (out of turn, catch, call)
    urgent: frozenset[str] = field(default_factory=frozenset)


def _squash(x: float) -> float:
    return 0.5 + 0.5 * math.tanh(x)


# ---- LIVOL and UNO FLIP: shedding rounds ------------------------------------------

def _shedding_value(me: int, winner: int, points: list[int], own_hand: bool) -> float:
    """The reward of a round that ``winner`` won with every seat holding ``points``."""
    if own_hand:
        others = [p for s, p in enumerate(points) if s != me]
        gained = (sum(others) / len(others) if others else 0) - points[me]
    else:
        gained = sum(points) if winner == me else -sum(points)
    return 0.5 + (0.25 if winner == me else -0.25) + 0.25 * math.tanh(gained / 100)


def _shedding_reward(points_of: Callable[[Any], list[int]], own_hand_of: Callable[[Any], bool]) -> Reward:
    def reward(start: Any, end: Any, closing: list[dict[str, Any]], me: int) -> float:
        own_hand = own_hand_of(start)
        for e in closing:
            if e["type"] == "round_scored":
                winner = e.get("winner", e.get("seat"))
                return _shedding_value(me, winner, list(e["points"]), own_hand)  # type: ignore[arg-type]
        # cut by the ply cap (or the match ended otherwise): in expectation over who goes out
        sizes = [len(h) for h in end.hands]
        points = points_of(end)
        weights = [math.exp(-0.8 * n) for n in sizes]
        total = sum(weights)
        return sum(w / total * _shedding_value(me, s, [0 if t == s else p for t, p in enumerate(points)],
                                               own_hand)
                   for s, w in enumerate(weights))
    return reward


def _livol_points(state: Any) -> list[int]:
    from engine.livol import card_points
    return [sum(card_points(c) for c in h) for h in state.hands]


def _uno_flip_points(state: Any) -> list[int]:
    from engine.uno_flip import FACE_ON
    faces = FACE_ON[state.side]
    return [sum(faces[c].points for c in h) for h in state.hands]


def _shedding_candidates(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """A play carries the call exactly when it leaves one card (L10: a call counts only then; the
    greedy rule, and a log that says "called LIVOL!" only when it meant something);
    a Wild names a colour the hand still holds (all of them when it holds none)."""
    hand = view.get("hand") or []
    leaves_one = len(hand) == 2      # a play leaves one card: call with it; otherwise the call counts for nothing

    def bare(m: dict[str, Any]) -> str:
        return json.dumps({k: v for k, v in m.items() if k != "call"}, sort_keys=True)

    both = {bare(m) for m in legal if m.get("call")} & {bare(m) for m in legal if not m.get("call")}
    out = [m for m in legal if bare(m) not in both or bool(m.get("call")) == leaves_one]
    side = {"light": 0, "dark": 1}.get(view.get("side"), None)  # type: ignore[arg-type]

    def colour(code: str) -> str | None:
        face = code.split("/")[side] if side is not None and "/" in code else code
        return None if face in ("W", "W+4", "W+2", "DW", "DW+C") else face[0]

    held = {colour(c) for c in hand} - {None}
    wild_plays = [m for m in out if m["type"] == "play" and "color" in m]
    if held and wild_plays:
        keep = [m for m in wild_plays if m["color"] in held]
        if keep:
            dropped = {id(m) for m in wild_plays if m not in keep}
            out = [m for m in out if id(m) not in dropped]
    return out


# ---- Karuselis --------------------------------------------------------------------

def _karuselis_value(piles: Sequence[Sequence[str]], side: int) -> float:
    """What a side's pile is worth mid-deal: K13 card points, and the most-spades and
    most-cards bonuses as smooth chances of the leads so far."""
    from engine.karuselis import CARD_POINTS, spade_count
    spades = [spade_count(p) for p in piles]
    counts = [len(p) for p in piles]
    lead_s = spades[side] - max(n for i, n in enumerate(spades) if i != side)
    lead_c = counts[side] - max(n for i, n in enumerate(counts) if i != side)
    return (sum(CARD_POINTS.get(c, 0) for c in piles[side])
            + 2 * _squash(lead_s / 2) + 2 * _squash(lead_c / 4))


def _karuselis_reward(start: Any, end: Any, closing: list[dict[str, Any]], me: int) -> float:
    from engine.karuselis import side_of
    mine = side_of(me, start.seats)
    sides = range(len(start.piles))
    before = [_karuselis_value(start.piles, side) for side in sides]
    for e in closing:
        if e["type"] == "round_scored":
            # the deal's points (K13, exact: per seat, and seat k < sides sits on side k) less
            # what the (sampled) piles were worth at the root
            gains = [e["points"][side] - before[side] for side in sides]
            break
    else:
        gains = [_karuselis_value(end.piles, side) - b for side, b in zip(sides, before)]
    others = [g for side, g in enumerate(gains) if side != mine]
    return _squash((gains[mine] - max(others)) / 6)


# ---- IOTA -----------------------------------------------------------------------------

def _iota_reward(start: Any, end: Any, closing: list[dict[str, Any]], me: int) -> float:
    kids = start.options.get("variant") == "kids"
    if kids:
        shed = [len(a) - len(b) for a, b in zip(start.hands, end.hands)]
        if end.over:
            return 1.0 if [me] == end.result["ranking"][0] else _squash(
                (min(len(h) for s, h in enumerate(end.hands) if s != me) - len(end.hands[me])) / 2)
        others = [g for s, g in enumerate(shed) if s != me]
        return _squash((shed[me] - max(others)) / 2)
    if end.over:
        scores = end.result["scores"]
        return _squash((scores[me] - max(p for s, p in enumerate(scores) if s != me)) / 25)
    gains = [b - a for a, b in zip(start.scores, end.scores)]
    return _squash((gains[me] - max(g for s, g in enumerate(gains) if s != me)) / 25)


def _iota_candidates(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, keep: int = 6) -> list[dict[str, Any]]:
    """The ``keep`` best plays by the greedy measure (score, then fewer wilds spent), every
    recycle, and the passes greedy would consider (returning nothing, or every card but the
    wilds)."""
    from engine.iota import WILDS, view_scorer
    plays = [m for m in legal if m["type"] == "play"]
    others = [m for m in legal if m["type"] == "recycle"]
    if plays:
        if view.get("variant") == "kids":
            def key(m: dict[str, Any]) -> tuple[int, int]:
                return (len(m["cards"]), -sum(p["card"] in WILDS for p in m["cards"]))
        else:
            score = view_scorer(view)

            def key(m: dict[str, Any]) -> tuple[int, int]:
                return (score(m["cards"]), -sum(p["card"] in WILDS for p in m["cards"]))
        ranked = sorted(range(len(plays)), key=lambda i: key(plays[i]), reverse=True)
        others += [plays[i] for i in sorted(ranked[:keep])]
    passes = [m for m in legal if m["type"] == "pass"]
    plain = [m for m in passes if not any(c in WILDS for c in m["return"])]
    if plain:
        most = max(plain, key=lambda m: len(m["return"]))
        others += [m for m in (plain[0], most) if m not in others]
    return others or legal


# ---- Cardavia ---------------------------------------------------------------------------

def _cardavia_reward(start: Any, end: Any, closing: list[dict[str, Any]], me: int) -> float:
    lost = [a - b for a, b in zip(start.lives, end.lives)]
    mine = lost[me] * (2 if end.lives[me] == 0 and lost[me] else 1)
    others = [lost[s] for s in range(start.seats) if s != me and start.lives[s] > 0]
    return _squash((sum(others) / len(others) if others else 0) - mine)


SPECS = {
    "livol": Spec("livol", frozenset({"round_scored", "match_ended"}), 120,
                  _shedding_reward(_livol_points, lambda s: s.options.get("variant") == "own_hand"),
                  candidates=_shedding_candidates, urgent=frozenset({"catch", "call"})),
    "uno_flip": Spec("uno_flip", frozenset({"round_scored", "match_ended"}), 120,
                     _shedding_reward(_uno_flip_points, lambda s: False),
                     candidates=_shedding_candidates, urgent=frozenset({"catch", "call"})),
    "karuselis": Spec("karuselis", frozenset({"round_scored", "match_ended"}), 8, _karuselis_reward),
    "iota": Spec("iota", frozenset({"match_ended"}), 0, _iota_reward, max_depth=1,
                 candidates=_iota_candidates),
    "cardavia": Spec("cardavia", frozenset({"deal_settled", "deal_ended", "match_ended"}), 40,
                     _cardavia_reward),
}


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
        self.game = cast("SearchableGame", registry.get(game_name))  # every game of SPECS deals samples
        self.spec = SPECS[game_name]
        self.greedy: Policy = importlib.import_module(f"engine.bots.{game_name}").POLICIES["greedy"]
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
        for i in range(self.iterations):
            if i and time.perf_counter() > deadline:
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
        horizon = spec.max_plies or 2 * start.seats
        while not closing and plies < horizon:
            actor = state.turn
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

def policy_for(game_name: str, level: str) -> Policy:
    """The ``(view, legal, rng, must_act) -> move`` policy of a search level for a game."""
    iterations = BUDGETS[level][game_name]
    spec = SPECS[game_name]

    def search_policy(view: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random, must_act: bool) -> dict[str, Any] | None:
        if not legal:
            return None
        greedy: Policy = importlib.import_module(f"engine.bots.{game_name}").POLICIES["greedy"]
        if not must_act or any(m["type"] in spec.urgent for m in legal):
            return greedy(view, legal, rng, must_act)
        if len(legal) == 1:
            return legal[0]
        seat = view["turn"]            # it holds the turn (must_act)
        search = Search(game_name, iterations, random.Random(rng.getrandbits(64)))
        return search.decide(view, legal, seat)

    search_policy.__name__ = f"{level.replace('-', '_')}_{game_name}"
    search_policy.level = level  # type: ignore[attr-defined]
    return search_policy


def policies(game_name: str) -> dict[str, Policy]:
    """Every search level for a game (``engine.bots.policies_for`` adds them)."""
    return {level: policy_for(game_name, level) for level in LEVELS if game_name in BUDGETS[level]}
