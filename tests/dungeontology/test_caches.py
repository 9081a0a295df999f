"""The engine's kept answers (speed caches) against the answers worked out afresh, at every
decision of several whole games: a cache that missed a change would differ somewhere."""
from __future__ import annotations

from collections import Counter

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.dungeontology.engine import Engine, deal, new_state
from tomecraft.runtime.rng import Rng


@pytest.fixture(scope="module")
def data():
    return game_data("dungeontology", [], dg.Reporter())


class Checked(Engine):
    """Compares each kept answer with the fresh one before every decision."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.compared = Counter()

    def ask(self, who, key, options):
        for s in self.state.scholars:
            fresh = (self.marks_reached(s, "stars"), self.marks_reached(s, "research"))
            assert (self.stars(s), self.research_bonus(s)) == fresh, (key, s.seat, dict(s.notebook))
            self.compared["marks", fresh] += 1
        return super().ask(who, key, options)


def _play(data, players: int, game: int, checked=Checked, seed: str = "caches") -> Engine:
    """Game `game` of a seeded run played by an engine of class `checked` (its checks run
    at every decision)."""
    rng = Rng(f"{seed}:{players}:{game}")
    agents = [RandomAgent(rng.fork(f"agent{i}")) for i in range(players)]
    play = rng.fork("game")
    engine = checked(data, new_state(data, players, play.fork("setup"), {}), agents,
                     play.fork("play"), log_enabled=False)
    deal(engine)
    engine.play()
    return engine


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kept_marks_are_the_marks_worked_out_afresh(data, players):
    compared = Counter()
    for game in range(4):
        compared.update(_play(data, players, game).compared)
    # not vacuous: notebooks changed, stars and research marks were reached along the way
    reached = {fresh for kind, fresh in compared if kind == "marks"}
    assert any(stars > 0 for stars, _ in reached) and any(research > 0 for _, research in reached)
    assert len(reached) >= 4


class RegionsChecked(Engine):
    """Compares the regions kept by id (`tile_by_id`) with a search of the placed regions
    before every decision, the trials' decisions too (their copies of the regions)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.compared = Counter()

    def ask(self, who, key, options):
        tiles = self.state.tiles
        for tile in tiles.values():
            fresh = next(t for t in tiles.values() if t.id == tile.id)
            assert self.tile_by_id(tile.id) is fresh, (key, tile.id)
        self.compared["regions", len(tiles)] += 1
        return super().ask(who, key, options)


@pytest.mark.parametrize("players", [2, 4])
def test_regions_kept_by_id_are_the_regions_searched(data, players):
    compared = Counter()
    for game in range(3):
        compared.update(_play(data, players, game, RegionsChecked, "regions").compared)
    # not vacuous: regions were placed along the way (the kept table was rebuilt)
    assert len({n for _, n in compared}) >= 5


def test_a_context_from_ctx_holds_what_context_would(data):
    """Engine.ctx builds the Context's fields itself (a plain dict): the same fields and
    values as the dataclass would hold, each field read as usual."""
    from tomecraft.runtime.effects import Context
    rng = Rng("ctx")
    agents = [RandomAgent(rng.fork(f"agent{i}")) for i in range(2)]
    engine = Engine(data, new_state(data, 2, rng.fork("setup"), {}), agents, rng.fork("play"),
                    log_enabled=False)
    who = engine.state.scholars[1]
    tile = engine.tile_of(who)
    made = engine.ctx(who, tile, n=2)
    assert made == Context(engine=engine, you=who, self=tile, info={"n": 2})
    assert vars(made) == vars(Context(engine=engine, you=who, self=tile, info={"n": 2}))
    assert (made.you, made.self, made.info, made.engine) == (who, tile, {"n": 2}, engine)
    assert engine.ctx(who).info == {} and engine.ctx(who).info is not engine.ctx(who).info


def test_a_trials_shuffle_draws_what_the_random_streams_shuffle_draws():
    """trials.shuffle (random's shuffle inlined) leaves the items and the stream as
    Rng.shuffle would, whatever the length."""
    from tomecraft.runtime.engines.dungeontology.trials import shuffle
    for n in range(0, 70):
        for seed in ("a", "b/trial/3/17"):
            ours, theirs = list(range(n)), list(range(n))
            mine, stock = Rng(seed), Rng(seed)
            shuffle(mine, ours)
            stock.shuffle(theirs)
            assert ours == theirs and mine.random() == stock.random(), (n, seed)


def test_draws_choice_picks_what_the_random_streams_choice_picks():
    """draws.choice (Random.choice and its _randbelow inlined) picks as Rng.choice does and
    leaves the stream where it would, whatever the length; a stream that is not an Rng's
    draws with its own choice."""
    from tomecraft.runtime.engines.dungeontology.draws import choice
    for n in range(1, 70):
        for seed in ("a", "agent2"):
            options = list(range(n))
            mine, stock = Rng(seed), Rng(seed)
            picks = [choice(mine, options) for _ in range(5)]
            assert picks == [stock.choice(options) for _ in range(5)], (n, seed)
            assert mine.random() == stock.random(), (n, seed)

    class Scripted:
        def choice(self, options):
            return options[-1]
    assert choice(Scripted(), [1, 2, 3]) == 3


class ShortcutsChecked(Engine):
    """Where the engine answers for a random agent without asking its view (the ways of
    `move_choice`, the cards and the stop of `stealth_cards`, the cards of `aux_round`) or
    leaves options out (the free cards'
    auxiliary effects where the view names the action's kinds), what the view suggests for
    the full options is checked to be that answer, at every such decision."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.compared = Counter()

    def ways_wanted(self, who):
        ways = super().ways_wanted(who)
        if ways and not self.state.max_alert and not self.moving_stopped:
            suggested = self.view(who).suggest("move", ways + [{"do": "stay"}])
            assert suggested == ways, (ways, suggested)
            self.compared["ways", len(ways)] += 1
        return ways

    def ask(self, who, key, options):
        a = self.attempt
        if key == "stealth_card" and a is not None and a["cards"] and a["stealth"] >= a["alert"]:
            self.compared["stop"] += 1       # never: `stealth_cards` stops before asking
        if key in ("stealth_card", "stealth_aux") and a is not None:
            self.compared["asked", key] += 1     # never: answered without the view
        if key == "action" and who.actions > 0 and self.view(who).wanted("action") is not None:
            full = self.action_options(who)          # every kind, the auxiliary effects too
            suggested = self.view(who).suggest("action", full)
            assert suggested and all(o["do"] != "aux" for o in suggested), suggested
            self.compared["aux", any(o["do"] == "aux" for o in full)] += 1
        return super().ask(who, key, options)

    def strongest_cards(self, who):
        found = super().strongest_cards(who)
        cards, by_id = sorted(set(who.hand)), self._scheme_cards     # the options it would offer
        options = [{"card": c, "fate": False} for c in cards]
        options += [{"card": c, "fate": True} for c in cards if by_id[c].fate_bonus]
        if self.attempt["cards"]:
            options.append({"card": None})
        assert self.view(who).suggest("stealth_card", options) == found, (options, found)
        self.compared["strongest", len(found) > 1] += 1
        return found

    def aux_round(self, who):
        a, view = self.attempt, self.view(who)
        if a is not None and not who.done and not self.in_start(who) and view.aux_helps(a):
            ctx = self.ctx(who, self.tile_of(who))       # the cards it would offer
            cards = [c for c in sorted(set(who.hand))
                     if self._aux_parts[c] is not None and self._aux_parts[c].can(ctx)]
            if cards:
                assert view.suggest("stealth_aux", cards + [None]) == cards
                self.compared["aux cards", len(cards) > 1] += 1
        return super().aux_round(who)

    def stealth_cards(self, who):
        super().stealth_cards(who)
        a = self.attempt
        if a["cards"] and a["stealth"] >= a["alert"] and who.hand:
            cards = sorted(set(who.hand))     # the options it would have asked with
            options = [{"card": c, "fate": False} for c in cards] + [{"card": None}]
            assert self.view(who).suggest("stealth_card", options) == [{"card": None}]
            self.compared["stopped"] += 1


@pytest.mark.parametrize("players", [2, 4])
def test_the_engines_shortcuts_answer_what_the_view_suggests(data, players):
    compared = Counter()
    for game in range(4):
        compared.update(_play(data, players, game, ShortcutsChecked, "shortcuts").compared)
    # not vacuous: each shortcut was taken, auxiliary effects were left out, no stop was asked
    assert compared["stopped"] > 0 and compared["aux", True] > 0 and compared["stop"] == 0
    assert compared["strongest", True] > 0 and compared["strongest", False] > 0
    assert compared["aux cards", True] > 0 and compared["aux cards", False] > 0
    assert not compared["asked", "stealth_card"] and not compared["asked", "stealth_aux"]
    assert sum(n for key, n in compared.items() if key[0] == "ways") > 10
