"""The simulated player uses any content: a YAML-only pack's new card, event cards and relics
with an activated `use` (one per window) all run in a seeded sim, though no player code names
them (runtime/engines/dm_crawl_decks/policy.py weighs relic uses and events by lookahead, and
the decisions their effects ask -- a target, a `choose` option, a relic to keep -- by trying
each answer on a copy of the game)."""
from __future__ import annotations

from pathlib import Path

from tomecraft.runtime import sim
from tests.pack_play import compiled_with, pack_usage, play_until

PACK = Path(__file__).with_name("any_content_pack")
NEW = {"card:ember_imp", "event_card:warm_hearth", "event_card:ember_gust",
       "event_card:ember_drill", "relic:ember_charm", "relic:ember_ward", "relic:ember_dart",
       "relic:ember_rations", "relic:ember_aegis"}
# The base items that no player used before their effects' own decisions were searched: a
# redraw target, a `choose` of token (most options fizzle), a player-side target at pre-battle.
BASE = {"event_card:shifting_walls", "event_card:training_ground", "relic:mirror_shield",
        "relic:trail_rations"}


def _data(monkeypatch):
    return compiled_with("dm_crawl_decks", PACK, monkeypatch)


def test_every_new_item_of_the_pack_is_used_in_a_seeded_sim(monkeypatch):
    data = _data(monkeypatch)
    new = pack_usage(data, "any_content", tracked_only=False, games=30, seed=1)
    assert set(new) == NEW and all(e["tracked"] for e in new.values())
    assert all(e["uses"] > 0 for e in new.values()), new


def test_a_sim_with_the_pack_is_deterministic(monkeypatch):
    data = _data(monkeypatch)
    assert sim.run(data, games=5, seed=2) == sim.run(data, games=5, seed=2)


def test_the_base_items_whose_effects_ask_a_decision_are_used(monkeypatch):
    data = _data(monkeypatch)
    def all_used(results, usage) -> bool:        # the seeded 30-game run, stopped once settled
        return all(usage["entities"][key]["uses"] > 0 for key in BASE)
    usage = play_until(data, all_used, games=30, seed=1)[1]["entities"]
    assert all(usage[key]["uses"] > 0 for key in BASE), {k: usage[k] for k in BASE}


def test_the_identity_card_is_used_when_a_game_is_won():
    """Yande's identity card runs only when it is gained, at the last floor's descend, which
    wins (L186): it is used in the games that are won, which are rare (about 1 in 10)."""
    from tomecraft.generated.dm_crawl_decks import GAME
    summary = sim.run(GAME, games=40, seed=1, usage=True)
    won = round(summary["returned_rate"] * 40)
    assert won > 0 and summary["usage"]["entities"]["relic:yande_identity"]["uses"] == won


def test_the_player_names_no_card_event_card_or_relic_of_the_content():
    """The player weighs options by lookahead, never by a list of known names: no id of the
    base game's cards, event cards, relics, attributes or rules appears as a string in its
    code."""
    import ast

    from tomecraft.generated.dm_crawl_decks import GAME
    from tomecraft.runtime.engines.dm_crawl_decks import policy
    names = {i for kind in ("card", "event_card", "relic", "attribute", "rule")
             for i in GAME.kinds[kind]}
    tree = ast.parse(Path(policy.__file__).read_text(encoding="utf-8"))
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
               and isinstance(n.value, str)}
    assert names and strings & names == set()


def test_a_card_is_used_when_its_triggers_run_not_when_its_copies_register_them(monkeypatch):
    """Every copy of a main-deck card registers its effect when it is made (engine.new_card),
    drawn or not: counting that as a use showed a card whose trigger never fires as used in
    every game. Its triggers' runs are its uses."""
    data = compiled_with("dm_crawl_decks", Path(__file__).with_name("never_pack"), monkeypatch)
    entities = sim.run(data, games=4, seed=1, usage=True)["usage"]["entities"]
    assert entities["card:never_card"]["uses"] == 0
    assert entities["card:growing_slime"]["uses"] > 0      # `on turn_start` while on the field
