"""The simulated players use any content: a YAML-only pack's new tile kind (its entry option
and its action), its tiles, its new game action and its new equipment (carried, then used by
its own action) are all chosen in a seeded sim, though no player code names them (runtime/engines/the_cave/policy.py weighs every option by lookahead)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tomecraft.runtime import sim
from tests.pack_play import compiled_with, pack_entities, play_with_usage

PACK = Path(__file__).with_name("any_content_pack")


@pytest.fixture(scope="module")
def data():
    with pytest.MonkeyPatch.context() as monkeypatch:
        return compiled_with("the_cave", PACK, monkeypatch)


@pytest.fixture(scope="module")
def played(data):
    """20 seeded three-player games with the pack, played once for the tests that read them."""
    return play_with_usage(data, players=3, games=20, seed=5)


def test_every_new_item_of_the_pack_is_used_in_a_seeded_sim(played):
    new = pack_entities(played[1], "any_content")
    assert set(new) == {"tile_kind:grotto", "action:survey", "action:bivouac",
                        "equipment:lantern", "equipment:grappling_hook"}
    assert all(e["uses"] > 0 for e in new.values()), new


def test_the_new_tile_action_and_entry_option_are_chosen(played):
    """Usage counts a tile kind as one entity: the stats say which of its options ran."""
    stats = Counter()
    for result in played[0]:
        stats.update(result["stats"])
    assert stats["drawn:grotto"] > 0 and stats["entered:grotto"] > 0
    assert stats["act:mine"] > 0 and stats["act:survey"] > 0
    # the pack's camp action is weighed like the base game's, which it does not replace
    assert stats["act:bivouac"] > 0 and stats["act:set_camp"] > 0
    assert stats["use:lantern"] > 0 and stats["use:grapnel"] > 0


def test_a_sim_with_the_pack_is_deterministic(data):
    assert sim.run(data, players=3, games=5, seed=2) == sim.run(data, players=3, games=5, seed=2)


def test_the_player_names_no_tile_kind_item_or_token_of_the_content():
    """The player weighs options by lookahead, never by a list of known names: no id of the
    base game's tile kinds, equipment or tokens appears as a string in its code."""
    import ast

    from tomecraft.generated.the_cave import GAME
    from tomecraft.runtime.engines.the_cave import policy
    names = {i for kind in ("tile_kind", "equipment", "token") for i in GAME.kinds[kind]}
    names |= {e.term for e in GAME.kinds["equipment"].values()}
    tree = ast.parse(Path(policy.__file__).read_text(encoding="utf-8"))
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
               and isinstance(n.value, str)}
    assert names and strings & names == set()
