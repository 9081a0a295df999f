"""An entity its schema refuses is reported once, at the field that is wrong: what names it is
not also reported as naming nothing. A DRG pack's monster with `hp: two` also gave "no monster
has creature 'goo_bomber'" at the card spawning it, and a Dungeontology panic card naming a
refused boss "no boss with id 'gruk'": a fan fixing the second error first found nothing wrong
there."""
from __future__ import annotations

from pathlib import Path

from tomecraft.compiler import diagnostics as dg, pipeline

ROOT = Path(__file__).resolve().parents[2] / "content"


def _errors(game: str, pack: Path) -> list[tuple]:
    reporter = dg.Reporter()
    pipeline.compile_game(ROOT / game, [pack], reporter)
    return [(Path(d.file).name, d.line, d.code) for d in reporter.diagnostics
            if d.severity == dg.ERROR]


def test_a_monster_its_schema_refused_is_not_also_a_creature_nobody_has(tmp_path):
    shipped = ROOT / "deep_rock_galactic" / "packs" / "goo_from_above"
    text = (shipped / "monsters.yaml").read_text(encoding="utf-8")
    assert "    hp: 2\n" in text and "spawn_at_exits goo_bomber" in text
    (tmp_path / "pack.yaml").write_text("id: broken_goo\ngame: deep_rock_galactic\nversion: '1'\n",
                                        encoding="utf-8")
    (tmp_path / "monsters.yaml").write_text(text.replace("    hp: 2\n", "    hp: two\n", 1),
                                            encoding="utf-8")
    line = text.splitlines().index("    hp: 2") + 1
    assert _errors("deep_rock_galactic", tmp_path) == [("monsters.yaml", line, dg.SCHEMA)]


def test_a_boss_its_schema_refused_is_not_also_an_id_nobody_has(tmp_path):
    (tmp_path / "pack.yaml").write_text("id: gruk\ngame: dungeontology\nversion: '1'\n",
                                        encoding="utf-8")
    (tmp_path / "bosses.yaml").write_text(
        "bosses:\n  - id: gruk\n    name: {zh: 格鲁克, en: Gruk}\n    source: approximation\n"
        "    note: a test boss\n    sides: seven\n"
        "panic_cards:\n  - id: panic_gruk\n    name: {zh: 恐慌卡, en: Panic card (Gruk)}\n"
        "    source: approximation\n    note: a test card\n    boss: gruk\n"
        "    effect: \"each player: draw_cards 1\"\n", encoding="utf-8")
    assert _errors("dungeontology", tmp_path) == [("bosses.yaml", 6, dg.SCHEMA)]
