"""A simulated player's trial copy (runtime/lookahead.copy_game) is a separate game: the
triggers a copy holds act on the copy. Generated effects bind their handler objects
(`verbs = ctx.verbs`) per function; a trigger's body, kept by the game and run later, binds its
own from the context it runs in, so it cannot reach back into the game it was copied from."""
from __future__ import annotations

from tomecraft.generated.clank_catacombs import GAME
from tomecraft.runtime import effects
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.clank_catacombs.engine import Engine
from tomecraft.runtime.engines.clank_catacombs.setup import new_state
from tomecraft.runtime.lookahead import copy_game
from tomecraft.runtime.rng import Rng


def _poison(handlers) -> None:
    """Every handler method of this one object (not of its copies) fails when called."""
    def refuse(name):
        def call(*args, **kwargs):
            raise AssertionError(f"a trial called the real game's {name}")
        return call
    for name in dir(type(handlers)):
        if not name.startswith("_"):
            setattr(handlers, name, refuse(name))


def test_a_trigger_held_by_a_copy_acts_on_the_copy():
    """The Lute (`during turn: on gain_clank where amount > 0 { gain gold amount }`) played in
    the real game, then the game copied: Clank! gained in the copy pays gold in the copy only,
    through the copy's handlers."""
    rng = Rng("lookahead")
    effects.new_game()
    engine = Engine(GAME, new_state(GAME, 2, rng.fork("setup")), [RandomAgent(rng)] * 2)
    me = engine.state.players[0]
    lute = GAME.get("card", "lute")
    lute.play(engine.ctx(me, lute))
    assert any(event == "gain_clank" for event, *_ in engine.subs)
    gold = me.gold
    trial = copy_game(engine)
    _poison(engine.verbs)
    _poison(engine.queries)
    copied = trial.state.players[0]
    trial.emit("gain_clank", copied, amount=2)
    assert copied.gold == gold + 2
    assert me.gold == gold
