"""The simulated players use any content: a YAML-only pack's new tile kind (its entry option
and its action), its tiles, its new game action and its new equipment (carried, then used by
its own action) are all chosen in a seeded sim, though no player code names them (runtime/engines/the_cave/policy.py weighs every option by lookahead)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tomecraft.runtime import sim
from tests.pack_play import compiled_with, pack_entities, play_until, play_with_usage

PACK = Path(__file__).with_name("any_content_pack")


@pytest.fixture(scope="module")
def data():
    with pytest.MonkeyPatch.context() as monkeypatch:
        return compiled_with("the_cave", PACK, monkeypatch)


# What the two tests below read in the games: the pack's new items used, and these stats
# counted (test_the_new_tile_action_and_entry_option_are_chosen asserts each of them).
CHOSEN = ("drawn:grotto", "entered:grotto", "act:mine", "act:survey", "act:bivouac",
          "act:set_camp", "use:lantern", "use:grapnel")


def _stats(results: list[dict]) -> Counter:
    stats = Counter()
    for result in results:
        stats.update(result["stats"])
    return stats


@pytest.fixture(scope="module")
def played(data):
    """The seeded three-player games with the pack (at most 20), played once for the tests
    that read them, one at a time until every new item is used and every stat of CHOSEN
    counted (play_until: more games would change neither; the first game does it today)."""
    def seen_all(results, usage) -> bool:
        stats = _stats(results)
        return (all(e["uses"] > 0 for e in pack_entities(usage, "any_content").values())
                and all(stats[key] > 0 for key in CHOSEN))
    return play_until(data, seen_all, games=20, seed=5, players=3)


def test_every_new_item_of_the_pack_is_used_in_a_seeded_sim(played):
    new = pack_entities(played[1], "any_content")
    assert set(new) == {"tile_kind:grotto", "action:survey", "action:bivouac",
                        "equipment:lantern", "equipment:grappling_hook"}
    assert all(e["uses"] > 0 for e in new.values()), new


def test_the_new_tile_action_and_entry_option_are_chosen(played):
    """Usage counts a tile kind as one entity: the stats say which of its options ran."""
    stats = _stats(played[0])
    assert stats["drawn:grotto"] > 0 and stats["entered:grotto"] > 0
    assert stats["act:mine"] > 0 and stats["act:survey"] > 0
    # the pack's camp action is weighed like the base game's, which it does not replace
    assert stats["act:bivouac"] > 0 and stats["act:set_camp"] > 0
    assert stats["use:lantern"] > 0 and stats["use:grapnel"] > 0


def test_a_sim_with_the_pack_is_deterministic(data):
    # 2 games, not 5: a game left different by the one before it (state carried over in the
    # process) shows in the second game already
    assert sim.run(data, players=3, games=2, seed=2) == sim.run(data, players=3, games=2, seed=2)


def test_the_player_names_no_tile_kind_action_item_or_token_of_the_content():
    """The player weighs options by lookahead, never by a list of known names: no id of the
    base game's tile kinds (nor of their entry options and actions), game actions, equipment
    or tokens appears as a string in its code (re-equipping and discovering are recognised by
    what they do, so a pack's copy of either is chosen like the original)."""
    import ast

    from tomecraft.generated.the_cave import GAME
    from tomecraft.runtime.engines.the_cave import policy
    names = {i for kind in ("tile_kind", "action", "equipment", "token") for i in GAME.kinds[kind]}
    names |= {o.id for k in GAME.kinds["tile_kind"].values()
              for o in (*(k.enter or ()), *(k.actions or ()))}
    names |= {e.term for e in GAME.kinds["equipment"].values()}
    from tomecraft.runtime.engines.the_cave import worth
    strings = {n.value for module in (policy, worth)
               for n in ast.walk(ast.parse(Path(module.__file__).read_text(encoding="utf-8")))
               if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert names and strings & names == set()


COPIES = """\
actions:
  - id: scout
    name: {zh: 偵察, en: Scout}
    source: approximation
    note: "A copy of discover under a new id, for the players test."
    order: 10
    effect: "require can_discover(); pay ap 1 -> discover"
  - id: resupply
    name: {zh: 補給, en: Resupply}
    source: approximation
    note: "A copy of re_equip under a new id, for the players test."
    order: 11
    effect: "require at_base(); pay ap 2 -> re_equip"
"""


def test_a_packs_copies_of_discover_and_re_equip_are_chosen_like_the_originals(tmp_path):
    """The player recognises discovering and re-equipping by what they do (a tile added, the
    backpack restocked), not by id: a pack's copies are chosen as often as the originals."""
    pack = tmp_path / "copies"
    pack.mkdir()
    (pack / "pack.yaml").write_text('id: copies\ngame: the_cave\nversion: "1"\n'
                                    'name: {zh: 複本, en: Copies}\n', encoding="utf-8")
    (pack / "actions.yaml").write_text(COPIES, encoding="utf-8")
    with pytest.MonkeyPatch.context() as monkeypatch:
        data = compiled_with("the_cave", pack, monkeypatch)
    results, _ = play_with_usage(data, players=3, games=4, seed=3)
    stats = Counter()
    for result in results:
        stats.update(result["stats"])
    for original, copy in (("discover", "scout"), ("re_equip", "resupply")):
        assert stats[f"act:{original}"] > 0 and stats[f"act:{copy}"] > 0, stats
        assert stats[f"act:{copy}"] > stats[f"act:{original}"] / 3, stats


def _board_and_teams(state):
    """What a trial must never change in the real game: every tile with its tokens, the teams
    (bags, camp, tokens, depths, AP), the stacks, ropes and markers."""
    import copy
    cells = {pos: (c.kind.id, c.exits, c.depth, list(c.tokens), c.marker, c.tile_id)
             for pos, c in state.cells.items()}
    teams = [copy.deepcopy(t) for t in state.teams]
    for t in teams:
        t.homing = None             # the simulated player's own note (going home), not the game's
    return (cells, teams, [[getattr(tile, "id", tile) for tile in s] for s in state.stacks],
            dict(state.ropes), state.max_marker, state.end_triggered, len(state.discarded),
            state.round, dict(state.stats))


def test_the_players_trials_leave_the_real_game_as_it_was(monkeypatch):
    """The simulated player tries options on copies that share with the game what an option
    cannot change (the camp's bag among them: the rules replace it rather than change it in
    place) and tries the last option in place, then puts the game back. At every decision of
    three seeded games, the game after the player has chosen is the game before (the player's
    own `homing` note aside). Changing the camp's bag in place when making room fails it (48
    decisions); the lost items, which these games' trials do not reach, are held to it by
    the next test."""
    from tomecraft.generated.the_cave import GAME
    from tomecraft.runtime.engines.the_cave.engine import Engine
    ask = Engine.ask
    decisions, changed = [], []

    def checked_ask(engine, team, key, options):
        before = _board_and_teams(engine.state)
        answer = ask(engine, team, key, options)
        decisions.append(key)
        if _board_and_teams(engine.state) != before:
            changed.append(key)
        return answer
    monkeypatch.setattr(Engine, "ask", checked_ask)
    sim.run(GAME, players=3, games=3, seed=5)
    assert len(decisions) > 1000 and {"action", "camp_exchange", "make_room", "re_equip"} <= set(decisions)
    assert not changed, Counter(changed)


@pytest.mark.parametrize("rule", ["discard", "start_turn", "pack_camp", "abandon_camp"])
def test_each_rule_that_changes_a_shared_bag_gives_the_team_a_new_one(rule):
    """A trial copy of a team (trials.copy_team) shares the camp's bag and the lost items
    with the game's team, so the four rules that change them (a limited item discarded, the
    upkeep taken from the camp, an item moved to the camp to make room, the camp abandoned)
    must give the copy new bags: played on the copy, each leaves the game's team as it was."""
    from tomecraft.generated.the_cave import GAME
    from tomecraft.runtime.agents import ScriptedAgent
    from tomecraft.runtime.engines.the_cave import rules
    from tomecraft.runtime.engines.the_cave.scenario import build
    from tomecraft.runtime.engines.the_cave.trials import copy_team
    full = {"consumable": 0, "camera": 1, "rope": 7}            # 8 slots: packing needs room
    engine = build(GAME, {
        "tiles": [{"at": [0, 0], "kind": "start", "exits": "NESW"},
                  {"at": [1, 0], "kind": "normal", "exits": "EW"}],
        "teams": [{"pos": [1, 0], "backpack": full, "camp": "set", "camp_pos": [1, 0],
                   "camp_items": {"consumable": 1, "raft": 1}, "lost": ["rope"]},
                  {"pos": [0, 0]}]})
    engine.agents[0] = ScriptedAgent([{"to_camp": "rope"}] * 2)       # 2 slots for the camp
    team = engine.state.teams[0]
    camp, lost = Counter(team.camp_items), Counter(team.lost)
    trial = copy_team(team)
    assert trial.camp_items is team.camp_items and trial.lost is team.lost     # shared
    {"discard": lambda: rules.discard(engine, trial, "camera"),
     "start_turn": lambda: engine.start_turn(trial),
     "pack_camp": lambda: rules.pack_camp(engine, trial),
     "abandon_camp": lambda: rules.abandon_camp(engine, trial)}[rule]()
    assert (trial.camp_items, trial.lost) != (camp, lost)                     # the rule did act
    assert (team.camp_items, team.lost) == (camp, lost)


def test_only_an_option_whose_effect_can_give_a_token_or_a_tile_is_tried_for_them(data):
    """Where only a token gained or a tile added counts (policy._weigh without logistics,
    _best), an option whose effects' code can do neither is not tried out: the pack's copy
    of set_camp, the camp and equipment actions, a walk onto a plain tile are not; an
    action, a tile's action or an item's use naming gain_token, take_token or discover is,
    and so is a move onto a tile whose own action takes a token (tried after entering)."""
    from tomecraft.runtime.engines.the_cave.scenario import build
    from tomecraft.runtime.engines.the_cave.trials import may_gain_or_grow
    engine = build(data, {"tiles": [{"at": [0, 0], "kind": "start", "exits": "NESW"},
                                    {"at": [1, 0], "kind": "grotto", "exits": "NESW"},
                                    {"at": [-1, 0], "kind": "normal", "exits": "EW"}],
                          "teams": [{"pos": [1, 0]}, {"pos": [0, 0]}]})
    on_grotto, at_start = engine.state.teams
    acts = ("bivouac", "set_camp", "swap_camp", "pack_camp", "re_equip", "survey", "mine",
            "discover")
    shows = {act: may_gain_or_grow(engine, on_grotto, {"do": "act", "id": act}) for act in acts}
    shows["lantern"] = may_gain_or_grow(engine, on_grotto, {"do": "use", "item": "lantern"})
    assert shows == {"bivouac": False, "set_camp": False, "swap_camp": False, "pack_camp": False,
                     "re_equip": False, "survey": True, "mine": True, "discover": True,
                     "lantern": True}
    moves = {tuple(o["to"]): o for o in engine.move_options(at_start, desperate=False)}
    assert not may_gain_or_grow(engine, at_start, moves[(-1, 0)])      # walk: pay ap 1
    assert may_gain_or_grow(engine, at_start, moves[(1, 0)])           # then mine: take_token
