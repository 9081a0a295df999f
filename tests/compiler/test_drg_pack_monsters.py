"""Deep Rock Galactic: a pack's monster and pickup (sixteenth packs blind round). One no card spawns and
no mission hides never comes on the map: warned at its creature. One in an activation slot a
base monster holds is refused at the pack's `order`, not at the base game's line."""

from __future__ import annotations


import pytest
import yaml

from tomecraft.compiler.pipeline import content_root
from tests.pack_play import check_folder

PACK = """id: leeches
game: deep_rock_galactic
version: '1.0'
vocabulary:
  terms:
    creature:
      cave_leech: {zh: 洞穴水蛭, en: cave leech}
"""


def _leech(order: int) -> str:
    grunt = next(m for m in yaml.safe_load(
        (content_root() / "deep_rock_galactic" / "monsters.yaml").read_text(encoding="utf-8"))
        ["monsters"] if m["id"] == "grunt")
    grunt = {k: v for k, v in grunt.items() if k != "ref"}
    grunt.update(id="cave_leech", name={"zh": "洞穴水蛭", "en": "Cave Leech"}, creature="cave_leech",
                 order=order, source="approximation", note="a fan's monster")
    return yaml.safe_dump({"monsters": [grunt]}, allow_unicode=True, sort_keys=False)


def _check(tmp_path, capsys, files: dict[str, str]) -> tuple[int, list[dict]]:
    return check_folder(tmp_path / "leeches", files, capsys)


def _line(text: str, key: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.strip().startswith(key))


def test_a_monster_nothing_spawns_is_warned_at_its_creature(tmp_path, capsys):
    monsters = _leech(99)
    code, found = _check(tmp_path, capsys, {"pack.yaml": PACK, "monsters.yaml": monsters})
    hits = [d for d in found if "never puts monster 'cave_leech'" in d["message"]]
    assert code == 0 and len(hits) == 1 and hits[0]["code"] == "TC-G002"
    assert hits[0]["file"].endswith("monsters.yaml") and hits[0]["line"] == _line(monsters, "creature:")


def test_a_monster_a_card_spawns_is_not_warned(tmp_path, capsys):
    card = ("rock_and_stone_cards:\n  - {id: leech_nest, name: {zh: 水蛭巢, en: Leech Nest}, "
            "source: approximation, note: a fan's card, count: 1, effect: \"spawn cave_leech 1\"}\n")
    _, found = _check(tmp_path, capsys, {"pack.yaml": PACK, "monsters.yaml": _leech(99),
                                         "cards.yaml": card})
    assert not [d for d in found if "never puts monster" in d["message"]]


def test_a_taken_activation_slot_is_said_at_the_packs_monster(tmp_path, capsys):
    monsters = _leech(1)
    code, found = _check(tmp_path, capsys, {"pack.yaml": PACK, "monsters.yaml": monsters})
    hits = [d for d in found if "activation slot 1" in d["message"]]
    assert code == 1 and len(hits) == 1
    assert hits[0]["file"].endswith("leeches/monsters.yaml") and hits[0]["line"] == _line(monsters, "order:")


@pytest.mark.parametrize("needs,on,refused", [(True, "picked_up", True), (False, "struck", True),
                                             (True, "struck", False), (False, "picked_up", False)])
def test_a_pickup_trigger_on_the_event_it_never_gets_is_refused_there(tmp_path, capsys, needs,
                                                                      on, refused):
    """A pickup's effect runs for one event: `struck` when it needs the pickaxe (L528-530),
    else `picked_up` (L356): a Glow Moss struck with `on picked_up: heal 2` checked clean and
    healed no one."""
    pickups = ("pickups:\n  - id: glow_moss\n    name: {zh: 荧光苔, en: Glow Moss}\n"
               "    source: approximation\n    note: a fan's pickup\n"
               f"    needs_pickaxe: {str(needs).lower()}\n    effect: \"on {on}: heal 2\"\n")
    code, found = _check(tmp_path, capsys, {"pack.yaml": PACK, "pickups.yaml": pickups})
    hits = [d for d in found if "this trigger never runs" in d["message"]]
    assert bool(hits) == refused and (code == 1) == refused
    if refused:
        assert hits[0]["file"].endswith("pickups.yaml") and hits[0]["line"] == 7
