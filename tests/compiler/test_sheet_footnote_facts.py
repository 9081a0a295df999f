"""One footnote per fact, on every game's sheets (sheets round): two footnotes printing the
same words are one fact said twice (Clank!'s Magic Spring repeated the tokens' count note,
Dungeontology's wall marker the tokens' number note: the notes differed only in where they
were written), and an entity whose `note_of` names a rule shares that rule's footnote."""
from __future__ import annotations

import html
import re
import pytest

from tomecraft.compiler import sheets

from tests.compiler.test_sheet_editions import game  # noqa: F401 (the fixture: every game and pack)


def printed_notes(page: str) -> dict[int, tuple[str, ...]]:
    """n -> the lines footnote n prints."""
    return {int(n): tuple(html.unescape(line) for line in
                          re.findall(r'<span class="note-line">(.*?)</span>', body, flags=re.S))
            for n, body in re.findall(r'<li id="fn(\d+)"[^>]*>(.*?)</li>', page, flags=re.S)}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_two_footnotes_print_the_same_words(game, lang):
    for sheet in sheets.SHEETS[game.id]:
        notes = printed_notes(sheets.render_html(game, sheet, lang))
        seen: dict[tuple[str, ...], int] = {}
        for n, lines in notes.items():
            if lines:
                assert lines not in seen, (sheet.name, f"≈{n} repeats ≈{seen[lines]}", lines)
                seen[lines] = n


@pytest.mark.parametrize("edition", ["player", "designer"])
def test_an_entity_with_note_of_shares_its_rules_footnote(game, edition):
    linked = [e for e in game.all() if e.data.get("note_of")]
    for sheet in sheets.SHEETS[game.id]:
        for lang in ("en", "zh"):
            notes = sheets.Footnotes(edition=edition, game=game, lang=lang)
            sheet.context(game, lang, notes)
            for entity in linked:
                key = f"{entity.kind}:{entity.id}"
                rule_key = f"rule:{entity.data['note_of']}"
                if key in notes._index and rule_key in notes._index:
                    assert notes._index[key] == notes._index[rule_key], (sheet.name, key)


# Rows whose notes differed only in a value their row prints (the gold a room gives, the
# treasure's value, a weapon's range and dice): one fact, one footnote.
SAME_FACT = {
    "clank_catacombs": [[("room", "gold_room_2"), ("room", "gold_room_3")],
                        [("token", "treasure_7"), ("token", "treasure_17")]],
    "deep_rock_galactic": [[("weapon", w) for w in ("boomstick", "bulldog", "plasma_igniter")],
                           [("weapon", w) for w in ("brt7", "stubby", "subata", "warthog")]],
}


def test_rows_differing_only_in_a_printed_value_share_a_footnote(game):
    groups = SAME_FACT.get(game.id, [])
    for rows in groups:
        marks = set()
        for sheet in sheets.SHEETS[game.id]:
            notes = sheets.Footnotes(edition="player", game=game, lang="en")
            sheet.context(game, "en", notes)
            on_sheet = [notes._index.get(f"{kind}:{eid}") for kind, eid in rows
                        if (kind, eid) in notes.shown]
            if on_sheet:
                assert len(on_sheet) == len(rows), (sheet.name, rows)
                marks.add(frozenset(on_sheet))
        assert marks and all(len(m) == 1 and None not in m for m in marks), (rows, marks)
