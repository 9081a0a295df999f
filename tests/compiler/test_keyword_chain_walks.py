"""Keywords each calling the next several times: every walk over a keyword's body that is not
done once per keyword is exponential. The context walk (contract_context) was memoised; these
were not: Deep Rock Galactic's space/target check (drg_spaces: 26 keywords calling the next
twice hung `check`), Dungeontology's 'triggers only' check of lasting effects (30 keywords:
`check` hung) and The Cave's AP cost on the sheets (10 keywords calling the next 20 times:
`sheets` hung). Each command runs in a subprocess bounded by a timeout, never a clock
assertion (the Cave sim, in this process, counts its steps instead); the chains are legal,
so check stays clean, and a chain over a refused verb is still refused through the keywords."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
A = 'source: approximation, note: "Test content."'


def _pack(tmp_path: Path, game: str, depth: int, calls: int, leaf: str, files: dict) -> Path:
    pack = tmp_path / "chain"
    pack.mkdir()
    vocab = "vocabulary:\n  keywords:\n"
    for i in range(depth + 1):
        body = "; ".join([f"fan_{i + 1}"] * calls) if i < depth else leaf
        vocab += (f"    fan_{i}:\n      params: []\n      effect: {json.dumps(body)}\n"
                  "      text: {zh: 甲, en: A}\n")
    (pack / "pack.yaml").write_text(f"id: chain\ngame: {game}\nversion: '1.0'\n" + vocab,
                                    encoding="utf-8")
    for name, text in files.items():
        (pack / name).write_text(text, encoding="utf-8")
    return pack


def _run(args: list, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tomecraft.compiler.cli", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def _event_card(effect: str) -> dict:
    return {"content.yaml": f'event_cards:\n  - {{id: cave_in, name: {{zh: 塌方, en: Cave-in}}, '
                            f'{A}, deck: event, event_kind: spawning, count: 2, '
                            f'effect: "{effect}"}}\n'}


def test_drg_keyword_chain_checks_clean_in_bounded_time(tmp_path):
    pack = _pack(tmp_path, "deep_rock_galactic", 30, 2, "advance_threat 1", _event_card("fan_0"))
    done = _run(["check", str(pack), "--format", "json"], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["diagnostics"] == []


def test_drg_keyword_chain_over_a_space_verb_is_refused_at_the_call(tmp_path):
    pack = _pack(tmp_path, "deep_rock_galactic", 30, 2, "place platform 1", _event_card("fan_0"))
    done = _run(["check", str(pack), "--format", "json"], tmp_path)
    diags = json.loads(done.stdout)["diagnostics"]
    assert done.returncode == 1 and diags, done.stdout + done.stderr
    assert all(d["file"].endswith("content.yaml") for d in diags)
    assert any("`place` (through keyword 'fan_0')" in d["message"] for d in diags)


INTERN = """intern_cards:
  - id: star_chaser
    name: {zh: 追星实习生, en: Star Chaser}
    source: approximation
    note: a test
    colours: []
    end_bonus: 1
    effect: "fan_0"
"""


def test_dungeontology_keyword_chain_of_triggers_checks_in_bounded_time(tmp_path):
    pack = _pack(tmp_path, "dungeontology", 30, 2, "on star_gained: gain_students 1",
                 {"interns.yaml": INTERN})
    done = _run(["check", str(pack), "--format", "json"], tmp_path)
    codes = [d["code"] for d in json.loads(done.stdout)["diagnostics"] if d["severity"] == "error"]
    assert done.returncode == 0 and codes == [], done.stdout + done.stderr


def test_dungeontology_keyword_chain_ending_in_a_bare_verb_is_still_refused(tmp_path):
    pack = _pack(tmp_path, "dungeontology", 30, 2, "gain_students 1", {"interns.yaml": INTERN})
    done = _run(["check", str(pack), "--format", "json"], tmp_path)
    errors = [d for d in json.loads(done.stdout)["diagnostics"] if d["severity"] == "error"]
    assert done.returncode == 1 and errors, done.stdout + done.stderr
    assert any("`on EVENT` triggers only" in d["message"] and d["file"].endswith("interns.yaml")
               for d in errors)


def test_cave_sheets_of_a_keyword_chain_are_written_in_bounded_time(tmp_path):
    walk = "fan_0; pay ap 2"
    tile = ("tile_kinds:\n  - id: normal\n    replace: true\n    name: {zh: 甲, en: A}\n"
            "    source: rulebook\n    ref: L1\n    discover_from: true\n"
            f"    enter: [{{id: walk, effect: {json.dumps(walk)}}}]\n"
            f"    on_discover: {json.dumps('fan_0')}\n")
    pack = _pack(tmp_path, "the_cave", 10, 20, "gain_token traverse 1", {"t.yaml": tile})
    done = _run(["check", str(pack)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    out = tmp_path / "sheets"
    done = _run(["sheets", "--game", "the_cave", "--pack", str(pack), "--format", "html",
                 "--lang", "en", "--out", str(out)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    rules = next(out.rglob("rules.en.html")).read_text(encoding="utf-8")
    assert "Entering an adjacent tile costs 2 AP" in rules   # found past the payless chain


def _cave_tile_pack(tmp_path: Path, text: bool) -> Path:
    tile = ("tile_kinds:\n  - id: normal\n    replace: true\n    name: {zh: 甲, en: A}\n"
            "    source: rulebook\n    ref: L1\n    discover_from: true\n"
            f"    enter: [{{id: walk, effect: {json.dumps('fan_0; pay ap 2')}}}]\n")
    pack = _pack(tmp_path, "the_cave", 10, 20, "gain_token traverse 1", {"t.yaml": tile})
    if not text:    # keywords with no text of their own: the sheets render their effects
        yaml_text = (pack / "pack.yaml").read_text(encoding="utf-8")
        (pack / "pack.yaml").write_text(yaml_text.replace("      text: {zh: 甲, en: A}\n", ""),
                                        encoding="utf-8")
    return pack


def test_sheets_of_keywords_without_text_calling_each_other_stay_small(tmp_path):
    """A keyword with no text is rendered as its effect, nested keywords too (to depth 8):
    10 keywords each calling the next 20 times were 20**8 renderings, and `sheets` hung. The
    renderer now expands a bounded number of them per text, then names the keyword."""
    pack = _cave_tile_pack(tmp_path, text=False)
    out = tmp_path / "sheets"
    done = _run(["sheets", "--game", "the_cave", "--pack", str(pack), "--format", "html",
                 "--lang", "en", "--out", str(out)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    rules = next(out.rglob("rules.en.html")).read_text(encoding="utf-8")
    assert len(rules) < 1_000_000     # the chain's expansion would be 20**8 texts long
    assert "Entering an adjacent tile costs 2 AP" in rules


def test_cave_sim_of_a_keyword_chain_plays_in_bounded_time(tmp_path, run_cli, monkeypatch):
    """A keyword calling a keyword that calls no keyword was 'bounded' (no step counted):
    fan_9 ran 20 calls of fan_10 per call of fan_8, 400 calls a step, and the million-step
    budget took minutes per game, tried again on every option: `sim` hung. A keyword's own
    calls of keywords now count a step, so a step runs at most 20 calls of the chain's last
    keyword. Played in this process on a budget of 5,000 steps (the real million took 11 s
    a run here): `sim` stops at the budget, located, and the chain's last keyword ran at most
    20 times a counted step (291 times before the fix: this assertion then fails)."""
    from tomecraft.compiler import diagnostics as dg, loadgen
    from tomecraft.runtime import effects
    action = ("actions:\n  - id: leave_camp\n    name: {zh: 甲, en: A}\n"
              "    source: approximation\n    note: a test\n"
              "    order: 7\n    effect: 'require at_base() and camp_available() and "
              "camp_packed(); abandon_camp; fan_0'\n")
    pack = _pack(tmp_path, "the_cave", 10, 20, "gain_token traverse 1", {"a.yaml": action})
    budget = 5_000
    monkeypatch.setattr(effects, "MAX_GAME_STEPS", budget)
    # compiled and imported as `sim` will find it, then its steps and the last keyword's
    # calls counted (the generated functions call both through the module's globals)
    assert loadgen.game_data("the_cave", [pack], dg.Reporter()) is not None
    module = next(m for name, m in list(sys.modules.items())
                  if name.startswith("tomecraft_game_the_cave_") and hasattr(m, "kw_fan_10")
                  and str(pack) in str(getattr(m, "SOURCES", "")))
    calls = {"step": 0, "kw_fan_10": 0}
    for name in calls:
        def counted(*args, _name=name, _original=getattr(module, name)):
            calls[_name] += 1
            return _original(*args)
        counted.can = getattr(getattr(module, name), "can", None)
        monkeypatch.setattr(module, name, counted)
    code, out, err = run_cli("sim", "the_cave", "--pack", pack, "--games", "2", "--usage")
    # played, or stopped at the budget (a chain of 20**10 gains is a runaway), never hung
    assert code == 0 or "TC-E004" in out, out + err
    assert 0 < calls["kw_fan_10"] <= 20 * calls["step"], calls


def test_balance_reports_a_runaway_chain_as_a_located_diagnostic(tmp_path):
    """30 keywords each calling the next twice, played, run past the step budget: `sim` says
    so at the effect (TC-E004); `balance` said 'internal error ... a bug in tomecraft' (3)."""
    pack = _pack(tmp_path, "deep_rock_galactic", 30, 2, "advance_threat 1", _event_card("fan_0"))
    done = _run(["balance", "deep_rock_galactic", "--pack", str(pack), "--games", "2",
                 "--workers", "1"], tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "TC-E004" in done.stdout and "internal error" not in done.stdout + done.stderr
    assert str(pack) in done.stdout
