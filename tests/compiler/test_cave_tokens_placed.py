"""The Cave: a token comes into play only where an effect places it on a tile or hands it to a
team (`place_token`, `gain_token`): a pack's token no effect names is never in play, and check
says so at its term (sixteenth packs blind round: a Fossil token checked clean and was never
seen). The sibling of Clank!'s token of a type no effect gains (TC-G002)."""

from __future__ import annotations


from tests.pack_play import check_folder

PACK = "id: fossils\ngame: the_cave\nversion: '1.0'\n"
TOKEN = """tokens:
  - id: fossil
    name: {zh: 化石標記, en: Fossil token}
    source: approximation
    note: a fan's token
    supply: 10
    term: fossil
    points: 3
    category: photo
"""
TERMS = "vocabulary:\n  terms:\n    token:\n      fossil: {zh: 化石標記, en: fossil token}\n"
PLACED = """tile_kinds:
  - id: fossil_bed
    name: {zh: 化石床, en: Fossil bed}
    source: approximation
    note: a fan's tile kind
    on_discover: "place_token fossil"
    enter:
      - {id: walk, name: {zh: 步行, en: Walk}, effect: "pay ap 1"}
    actions:
      - id: dig
        name: {zh: 挖掘, en: Dig}
        effect: "require token_here(fossil); pay ap 1 -> take_token fossil"
    discover_from: true
    rope_edges: false
"""


def _check(capsys, tmp_path, files: dict[str, str]) -> tuple[int, list[dict]]:
    return check_folder(tmp_path / "fossils", files, capsys)


def test_a_token_no_effect_places_is_warned_at_its_term(tmp_path, capsys):
    code, found = _check(capsys, tmp_path, {"pack.yaml": PACK + TERMS, "tokens.yaml": TOKEN})
    hits = [d for d in found if "never comes into play" in d["message"]]
    assert code == 0 and len(hits) == 1
    assert hits[0]["code"] == "TC-G002" and hits[0]["file"].endswith("tokens.yaml") \
        and hits[0]["line"] == 7


def test_a_token_a_tile_kind_places_is_not_warned(tmp_path, capsys):
    _, found = _check(capsys, tmp_path, {"pack.yaml": PACK + TERMS, "tokens.yaml": TOKEN,
                                         "tile_kinds.yaml": PLACED})
    assert not [d for d in found if "never comes into play" in d["message"]]
