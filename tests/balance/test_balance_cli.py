"""`tomecraft balance` as a user meets it: usage errors, the report's wording, and the
progress of a big run (shown at once, refilled batch by batch, with a readable time left)."""
from __future__ import annotations

import io

from tomecraft.compiler import balance
from tomecraft.compiler.balance import report as report_mod, runner

CAVE_PACK = "tests/balance/packs/cave_cheap_discovery"


def test_an_unknown_game_is_a_usage_error_as_for_sim(run_cli):
    # was exit 1, printed as a content error at content/nosuchgame:1:1
    for args in (("--pack", CAVE_PACK), ()):
        code, out, err = run_cli("balance", "nosuchgame", *args, "--games", "1")
        assert code == 2 and out == ""
        assert "unknown game 'nosuchgame'" in err and "content/nosuchgame" not in err


def _record(index: int, rounds: int, end: str, players: int) -> dict:
    return {"index": index, "scores": [rounds + s for s in range(players)],
            "wins": [s == players - 1 for s in range(players)], "rounds": rounds,
            "capped": False, "end": end, "roles": [], "usage": {}}


def _report(players: int, end: str) -> dict:
    plan = balance.Plan("the_cave", ("packs/x",), (players,), 3)
    records = {(players, label): [_record(i, 10 + i + (label == "pack"), end, players)
                                  for i in range(3)] for label in ("base", "pack")}
    return balance.build(plan, records, 3)


def test_an_engine_that_tells_no_end_gets_no_line_of_blanks():
    # The Cave's results carry no `end`: the report said "ends           3"
    text = report_mod.to_text(_report(3, ""))
    assert "ends" not in text
    told = report_mod.to_text(_report(3, "won"))
    assert "  ends          won 3" in told
    html = report_mod.to_html(_report(3, ""))
    assert "how games ended" not in html
    assert "how games ended" in report_mod.to_html(_report(3, "won"))


def test_a_solo_game_is_reported_for_1_player():
    solo = report_mod.to_text(_report(1, "won"))
    assert "\n1 player\n" in solo and "1 players" not in solo
    assert "1 players" not in report_mod.to_html(_report(1, "won"))
    assert "\n3 players\n" in report_mod.to_text(_report(3, "won"))


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_shows_at_once_and_says_time_left_in_days_and_hours():
    stream = _Terminal()
    progress = runner.Progress(0, quiet=False, stream=stream)
    progress.extend(2_000_000)
    assert "0/2000000 games" in stream.getvalue()      # before the first batch ends
    assert runner.duration(4_977_772) == "57d 14h"      # printed as 4977772s
    assert runner.duration(9_000) == "2h 30m"
    assert runner.duration(125) == "2m 05s"
    assert runner.duration(7.4) == "7s"


def test_big_runs_go_out_in_small_batches():
    # a batch of 50 Deep Rock Galactic games kept a big run's bar blank for 20 s
    parts = runner.chunks(list(range(1_000_000)), 2)
    assert max(len(p) for p in parts) <= runner.CHUNK <= 10
    assert [i for p in parts for i in p] == list(range(1_000_000))


def test_a_pool_gets_a_window_of_batches_not_all_of_them(monkeypatch):
    sent = []
    batches = [runner.Batch("clank_catacombs", (), 2, 3, (i,)) for i in range(12)]
    real_submit = runner.ProcessPoolExecutor.submit

    def submit(pool, fn, batch):
        sent.append(len([b for b in sent]) - len(done))
        return real_submit(pool, fn, batch)
    done: list = []
    monkeypatch.setattr(runner.ProcessPoolExecutor, "submit", submit)
    results = runner.run_local(batches, 2, lambda n: done.append(n))
    assert len(sent) == 12 and sum(done) == 12
    assert max(sent) <= 2 * runner.IN_FLIGHT      # never more than the window in flight
    assert [r[0]["index"] for r in results] == list(range(12))


def test_a_pack_without_a_hazard_level_is_balanced_on_the_levels_there_are(run_cli, tmp_path):
    """The contract needs one Hazard level; a pack removing Hazard 5 checked clean and
    `balance` stopped on a usage error, "no hazard level 5 in the content" (packs round 11):
    the sweep plays the levels both arms have, and says which it left out."""
    import json
    pack = tmp_path / "four_levels"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: four_levels\ngame: deep_rock_galactic\nversion: '1'\n"
                                    "remove: [{kind: hazard_level, id: hazard_5}]\n",
                                    encoding="utf-8")
    assert run_cli("check", pack)[0] == 0
    code, out, err = run_cli("balance", "deep_rock_galactic", "--pack", pack, "--games", "1",
                             "--players", "1", "--workers", "1", "--quiet", "--json")
    assert code == 0, err
    assert "hazard 5 is not in the content played" in err
    sweep = json.loads(out)["by_players"]["1"]["sweep"]
    assert sorted(sweep) == [f"{level}:{arm}" for level in range(1, 5) for arm in ("base", "pack")]
