"""One footnote per fact on The Cave's rules sheet (sheets round): the sheet footnoted the
camp exchange twice (the action and the rule, D-07), the zero-token majority twice (the
scoring and the rule, D-17), climbing out of a rappel tile twice (the tile kind and the rule,
D-20), and gave each starting board its own note saying the figures are missing. An entity's
`note_of: <rule id>` now says its note states that rule's fact, and rows whose notes read
the same share a footnote. The 75 token's note (D-14 too) is a fact of its own and keeps its
footnote: a first attempt merged by decision id and folded it into the per-value rule."""
from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

REPO = Path(__file__).resolve().parents[2]
CAVE = REPO / "content" / "the_cave"

# rows stating one fact: (kind, id) of each
SAME_FACT = [
    [("action", "swap_camp"), ("rule", "d07_camp_exchange")],
    [("scoring", "scoring"), ("rule", "d17_zero_majority")],
    [("tile_kind", "rappel"), ("rule", "d20_climb_out")],
    [("start_board", f"board_{n}p") for n in (2, 3, 4, 5)],
]
OWN_FACT = [("token", "depth_75"), ("rule", "d14_reached_depth")]


def compiled(root: Path = CAVE):
    reporter = dg.Reporter()
    game = pipeline.compile_game(root, [], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    return game


@pytest.fixture(scope="module")
def game():
    return compiled()


def rules_sheet():
    return next(s for s in sheets.SHEETS["the_cave"] if s.name == "rules")


def marks_and_page(game, lang: str, edition: str = "player"):
    """The footnote number of every entity on the rules sheet, and the sheet rendered."""
    notes = sheets.Footnotes(edition=edition, game=game, lang=lang)
    rules_sheet().context(game, lang, notes)
    marks = {tuple(key.split(":", 1)): n for key, n in notes._index.items()}
    return marks, sheets.render_html(game, rules_sheet(), lang, edition)


def footnotes(page: str) -> dict[int, tuple[str, list[str]]]:
    """n -> (names, lines) of the footnotes the page prints."""
    out = {}
    for n, body in re.findall(r'<li id="fn(\d+)"[^>]*>(.*?)</li>', page, flags=re.S):
        name = re.search(r"<strong>(.*?)</strong>", body, flags=re.S).group(1)
        lines = re.findall(r'<span class="note-line">(.*?)</span>', body, flags=re.S)
        out[int(n)] = (html.unescape(name), [html.unescape(line) for line in lines])
    return out


def row_marks(page: str, name: str) -> set[int]:
    """The footnote numbers printed right after `name` on the page."""
    return {int(n) for n in re.findall(re.escape(html.escape(name, quote=True)) +
                                        r'<sup class="approx"><a href="#fn(\d+)">', page)}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rows_of_one_fact_share_one_footnote(game, lang):
    marks, page = marks_and_page(game, lang)
    for rows in SAME_FACT:
        numbers = {marks[row] for row in rows}
        assert len(numbers) == 1 and None not in numbers, (rows, numbers)
        for kind, entity_id in rows:     # the printed rows carry that mark
            name = sheets.name_of(game.entities[kind][entity_id], lang)
            printed = row_marks(page, name)
            assert not printed or printed == numbers, (name, printed, numbers)
    assert marks[OWN_FACT[0]] != marks[OWN_FACT[1]], "the 75 token's note is a fact of its own"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_note_text_is_printed_once(game, lang):
    _, page = marks_and_page(game, lang)
    printed = footnotes(page)
    assert printed
    seen: dict[str, int] = {}
    for n, (_names, lines) in printed.items():
        for line in lines:
            assert line not in seen, f"≈{n} repeats ≈{seen[line]}: {line}"
            seen[line] = n


def test_the_shared_footnote_says_the_rule_and_names_every_row(game):
    marks, page = marks_and_page(game, "en")
    printed = footnotes(page)
    for rows in SAME_FACT:
        names, lines = printed[marks[rows[0]]]
        for kind, entity_id in rows:
            assert sheets.name_of(game.entities[kind][entity_id], "en") in names, (names, rows)
    rule = game.entities["rule"]["d17_zero_majority"]
    assert printed[marks[("rule", rule.id)]][1] == sheets.player_lines(rule, "en")


def test_designer_edition_keeps_both_developer_notes_under_one_number(game):
    marks, page = marks_and_page(game, "en", "designer")
    assert marks[("action", "swap_camp")] == marks[("rule", "d07_camp_exchange")]
    _names, lines = footnotes(page)[marks[("action", "swap_camp")]]
    text = " ".join(lines)
    for kind, entity_id in SAME_FACT[0]:
        for line in sheets.approximation_lines(game.entities[kind][entity_id]):
            assert html.unescape(sheets.typeset(line)) in text   # as printed: typeset


def test_a_linked_rule_off_the_sheet_gives_its_words_not_its_name(game):
    """The tokens sheet lists the scoring but no rules: the scoring's footnote says the
    rule's fact (in Chinese too, where the scoring's own note is English only)."""
    tokens = next(s for s in sheets.SHEETS["the_cave"] if s.name == "tokens")
    for lang in ("en", "zh"):
        notes = sheets.Footnotes(edition="player", game=game, lang=lang)
        tokens.context(game, lang, notes)
        n = notes._index["scoring:scoring"]
        note = notes.notes[n - 1]
        assert note["names"] == [sheets.name_of(game.entities["scoring"]["scoring"], lang)]
        rule = game.entities["rule"]["d17_zero_majority"]
        assert note["lines"] == (sheets.player_lines(rule, lang) or [sheets.name_of(rule, lang)])


@pytest.mark.parametrize("value, source, says", [
    ("d99_nowhere", None, "no rule with id 'd99_nowhere'"),
    ("d17_zero_majority", "rulebook", "is not an approximation"),
])
def test_note_of_must_name_an_approximated_rule(tmp_path, value, source, says):
    root = tmp_path / "the_cave"
    shutil.copytree(CAVE, root)
    actions = root / "actions.yaml"
    actions.write_text(actions.read_text(encoding="utf-8").replace(
        "note_of: d07_camp_exchange", f"note_of: {value}"), encoding="utf-8")
    if source:
        rules = root / "rules.yaml"
        text = rules.read_text(encoding="utf-8")
        old = ("    source: approximation\n    note: \"D-17 (G-22): the literal tie rule "
               "(L313-314) would give 4 points to teams holding no token; they get 0.\"")
        assert old in text
        rules.write_text(text.replace(old, "    source: rulebook\n    ref: L313-314"),
                         encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(root, [], reporter)
    assert any(says in d.message and "actions.yaml" in str(d.file) for d in reporter.diagnostics), \
        dg.format_text(reporter)
