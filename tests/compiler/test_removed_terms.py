"""A pack removing an entity whose id is a term other content still uses: DRG's `goo` board
token (its rules) removed with goo_from_above loaded checked clean, and the Goo Bomber went on
placing a token with no rules while the sheets said it places goo (packs round 11). Refused at
the removal, naming who uses it (`attack_places: goo`); the removing pack's own effect naming
it is refused at the name."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg, pipeline

CONTENT = Path(__file__).resolve().parents[2] / "content" / "deep_rock_galactic"


def _errors(tmp_path: Path, extra_files: dict[str, str], also_remove: str = "") -> list:
    (tmp_path / "pack.yaml").write_text(
        "id: nogoo\ngame: deep_rock_galactic\nversion: '1'\nrequires: [goo_from_above]\n"
        f"remove:\n  - {{kind: board_token, id: goo}}\n{also_remove}", encoding="utf-8")
    for name, text in extra_files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    reporter = dg.Reporter()
    pipeline.compile_game(CONTENT, [tmp_path], reporter)
    return [d for d in reporter.diagnostics if d.severity == dg.ERROR]


def test_removing_a_token_a_monster_places_is_refused_at_the_removal(tmp_path):
    errors = _errors(tmp_path, {})
    assert [(Path(d.file).name, d.line, d.code) for d in errors] == [("pack.yaml", 6, dg.UNKNOWN_REF)]
    assert "goo_bomber" in errors[0].message


WITH_ITS_USERS = ("  - {kind: monster, id: goo_bomber}\n"     # and the Swarm card spawning it
                  "  - {kind: event_card, id: swarm_goo_bombers}\n")


def test_removing_it_with_its_users_is_clean(tmp_path):
    assert _errors(tmp_path, {}, WITH_ITS_USERS) == []


def test_an_effect_of_the_pack_naming_the_token_it_removed_is_refused_there(tmp_path):
    """The removing pack's own card naming goo: refused at the name (no board_token has it)."""
    card = ("event_cards:\n  - id: goo_rain\n    name: {zh: 黏液雨, en: Goo rain}\n"
            "    source: approximation\n    note: a test card\n    deck: event\n"
            "    event_kind: optional\n    count: 1\n"
            "    effect: \"may: take_damage 1; place goo 1\"\n")
    errors = _errors(tmp_path, {"cards.yaml": card}, WITH_ITS_USERS)
    named = [(Path(d.file).name, d.line, d.column) for d in errors if d.code == dg.UNKNOWN_REF]
    assert named == [("cards.yaml", 9, 40)], errors
