"""A refused action or move leaves the game as it was (runtime/engines/the_cave/undo.py): the
engine's undo covers what the effect changed before it was refused, a placed tile, the stacks,
the team, the ropes and the AP, not only the costs. refusal_pack's ledge pays (the scout also
draws and places a tile) before asking a choice; the agent refuses the choice, as a scripted
answer not offered is refused."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tomecraft.compiler.api import load_game
from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.the_cave import undo
from tomecraft.runtime.engines.the_cave.engine import Engine
from tomecraft.runtime.engines.the_cave.start import new_state
from tomecraft.runtime.engines.the_cave.state import Cell, step
from tomecraft.runtime.rng import Rng

PACK = Path(__file__).resolve().parent / "refusal_pack"


class RefusesChoices:
    """Places tiles the first way offered; refuses every `choose` of an effect."""

    def choose(self, key, options, view=None):
        if ":choose" in key:
            raise EffectError(f"answer to {key} not offered")
        return options[0]


def _game(neighbour_exits: str):
    data = load_game("the_cave", packs=[PACK])
    state = new_state(data, 2, Rng("undo:0").fork("game"))
    engine = Engine(data, state, [RefusesChoices()] * 2, log_enabled=True)
    base = state.cells[state.base]
    d = base.exits[0]
    pos = step(base.pos, d)
    state.cells[pos] = Cell(pos, data.kinds["tile_kind"]["ledge"], neighbour_exits, base.depth)
    state.ropes[frozenset((base.pos, pos))] = 1        # a rope already there must stay
    return engine, pos


def _seen(engine) -> tuple:
    """What the brief of a refused step says must not change: the tiles (kind, exits,
    tokens, markers), the stacks, every team, the ropes, the end trigger."""
    state = engine.state
    tiles = [(p, c.kind.id, c.exits, c.depth, list(c.tokens), c.marker) for p, c in state.cells.items()]
    teams = [copy.deepcopy(t.__dict__) for t in state.teams]
    return (tiles, [list(s) for s in state.stacks], list(state.discarded), teams,
            dict(state.ropes), state.max_marker, state.end_triggered)


def test_a_scout_refused_after_placing_a_tile_leaves_the_tile_on_its_stack():
    engine, pos = _game("NESW")
    team = engine.state.teams[0]
    team.pos = pos
    assert {"do": "act", "id": "scout"} in engine.legal_actions(team)
    before, size = _seen(engine), len(engine.state.cells)
    with pytest.raises(EffectError, match="not offered"):
        engine.apply(team, {"do": "act", "id": "scout"})
    assert _seen(engine) == before and len(engine.state.cells) == size
    # and the game plays on from there: the scout, answered, places the same tile
    engine.agents = [type("First", (), {"choose": lambda self, k, o, v=None: o[-1]})()] * 2
    engine.apply(team, {"do": "act", "id": "scout"})
    assert len(engine.state.cells) == size + 1 and team.ap == before[3][0]["ap"] - 1


def test_an_entry_refused_at_its_choice_costs_nothing():
    engine, pos = _game("NESW")
    team = engine.state.teams[0]
    move = {"do": "move", "to": pos, "via": "climb"}
    assert move in engine.legal_actions(team)
    before = _seen(engine)
    with pytest.raises(EffectError):
        engine.apply(team, move)
    assert _seen(engine) == before


def test_which_effects_need_the_whole_games_snapshot():
    """Decided from the generated code: the ledge's (a tile placed, then a choice) and a way out
    of a rappel that places a rope before the entry's requires; none of the base game's
    actions, so its sims take the cheap snapshot as before."""
    engine, _ = _game("NESW")
    kinds = engine.kinds
    assert undo.late_refusal(engine, kinds["ledge"].actions[0].effect)
    for act in engine.actions:
        assert not undo.late_refusal(engine, act.effect), act.id
    for kind in kinds.values():
        for a in kind.actions or ():
            assert undo.late_refusal(engine, a.effect) == (kind.id == "ledge"), a.id
        for e in kind.enter:
            assert undo.late_refusal(engine, e.effect, move=True) == (kind.id == "ledge"), kind.id


def test_effect_code_read_from_its_own_lines_is_what_getsource_gives():
    """undo._function_tree parses only the lines an effect's code spans (getsource tokenizes
    the module up to it: most of the analysis's time): for every effect the analysis can read
    (the base game's and two packs': actions, entries, ways out, discoveries, equipment, and
    the keyword functions their code calls), the same tree as parsing getsource's text."""
    import ast
    import inspect
    import textwrap
    seen = 0
    for packs in ([], [PACK], [Path(__file__).resolve().parent / "deep_sump_pack"]):
        data = load_game("the_cave", packs=packs)
        effects = [a.effect for a in data.kinds["action"].values()]
        for kind in data.kinds["tile_kind"].values():
            effects += [a.effect for a in kind.actions or ()]
            effects += [o.effect for o in list(kind.enter) + list(kind.cross_out or ())]
            effects += [kind.on_discover] if kind.on_discover is not None else []
        effects += [item.use for item in data.kinds["equipment"].values() if item.use is not None]
        effects += [fx for fx in vars(inspect.getmodule(inspect.unwrap(effects[0]))).values()
                    if inspect.isfunction(fx)]
        for fx in effects:
            fx = inspect.unwrap(fx)
            fast = undo._function_tree(fx)
            assert fast is not None, fx.__name__
            slow = ast.parse(textwrap.dedent(inspect.getsource(fx))).body
            assert ast.dump(fast[0]) == ast.dump(slow[0]), fx.__name__
            seen += 1
    assert seen > 100
