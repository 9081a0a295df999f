"""`tomecraft balance`: paired seeded games, figures recomputable from the raw records, the
same records whatever the workers or the scheduler, and statistics that are right."""
from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import pytest

from tomecraft.compiler import balance
from tomecraft.compiler.balance import report as report_mod, stats

ROOT = Path(__file__).resolve().parents[2]
PACKS = ROOT / "tests" / "balance" / "packs"
SHIPPED = ROOT / "content"

# One pack per game: shipped where the game has one, else a YAML-only test pack.
CASES = {
    "the_cave": (PACKS / "cave_cheap_discovery", 3),
    "clank_catacombs": (SHIPPED / "clank_catacombs" / "packs" / "tomb_party", 4),
    "dm_crawl_decks": (PACKS / "crawl_hardy_hero", 1),
    "deep_rock_galactic": (SHIPPED / "deep_rock_galactic" / "packs" / "goo_from_above", 2),
    "dungeontology": (PACKS / "dgn_generous_interns", 3),
}


def plan_for(game: str, games: int = 6, **extra) -> balance.Plan:
    pack, players = CASES[game]
    sweep = ("hazard", (1, 3)) if game == "deep_rock_galactic" else ()
    return balance.Plan(game, (str(pack),), (players,), games, seed=4, sweep=sweep, **extra)


@pytest.fixture(scope="module")
def reports():
    return {game: balance.run(plan_for(game), workers=1) for game in CASES}


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs)


@pytest.mark.parametrize("game", sorted(CASES))
def test_every_figure_is_recomputed_from_the_raw_records(reports, game):
    report = reports[game]
    players = CASES[game][1]
    block = report["by_players"][str(players)]
    base, pack = report["records"][f"{players}:base"], report["records"][f"{players}:pack"]
    assert [r["index"] for r in base] == [r["index"] for r in pack] == list(range(6))
    for side, records in (("base", base), ("pack", pack)):
        got = block[side]
        assert got["games"] == len(records)
        assert got["mean_rounds"] == pytest.approx(mean(r["rounds"] for r in records), abs=1e-3)
        for seat in range(players):
            assert got["win_rate"][seat] == pytest.approx(
                mean(r["wins"][seat] for r in records), abs=1e-4)
        assert sum(got["ends"].values()) == len(records)
    comparisons = {c["name"]: c for c in block["comparisons"]}
    length = comparisons["game length (rounds)"]
    assert length["diff"] == pytest.approx(
        mean(b["rounds"] for b in pack) - mean(a["rounds"] for a in base), abs=1e-6)
    assert length["low"] <= length["diff"] <= length["high"]
    for name, c in comparisons.items():
        if not name.startswith("lift "):
            continue
        key = name[5:]
        units = [(key in {k for k, v in r["usage"].items() if v[s] > 0}, r["wins"][s])
                 for r in pack for s in range(players)]
        takers = [won for used, won in units if used]
        others = [won for used, won in units if not used]
        assert c["pack"] == pytest.approx(mean(takers), abs=1e-6)
        assert c["base"] == pytest.approx(mean(others), abs=1e-6)
    # Holm: the adjusted p-values never fall below the raw ones and keep their order
    ordered = sorted(block["comparisons"], key=lambda c: c["p"])
    assert all(c["p_adjusted"] >= c["p"] - 1e-9 for c in ordered)
    assert all(a["p_adjusted"] <= b["p_adjusted"] + 1e-9 for a, b in zip(ordered, ordered[1:]))


def test_deep_rock_galactic_plays_each_hazard_level_of_the_sweep(reports):
    block = reports["deep_rock_galactic"]["by_players"]["2"]
    assert sorted(block["sweep"]) == ["1:base", "1:pack", "3:base", "3:pack"]
    records = reports["deep_rock_galactic"]["records"]
    assert len(records["2:base@1"]) == len(records["2:pack@3"]) == 6
    assert all(r["roles"] for r in records["2:base@1"])         # each seat's class


def test_the_records_are_the_same_on_one_worker_and_on_two():
    one = balance.run(plan_for("clank_catacombs", games=8), workers=1)
    two = balance.run(plan_for("clank_catacombs", games=8), workers=2)
    for report in (one, two):
        report.pop("seconds")
    assert one == two


def test_the_records_are_the_same_on_a_local_dask_cluster(reports):
    distributed = pytest.importorskip("distributed", reason="the `distributed` extra is not installed")
    local = dict(reports["clank_catacombs"])       # plan_for("clank_catacombs"): 6 games, 1 worker
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = balance.run(plan_for("clank_catacombs", games=6), client=client)
    local.pop("seconds"), remote.pop("seconds")
    assert local["records"] == remote["records"]
    assert local == remote


def test_until_significant_extends_the_pairs_until_settled_or_capped():
    report = balance.run(plan_for("clank_catacombs", games=4, until_significant=True,
                                  max_games=16), workers=1)
    records = report["records"]["4:base"]
    assert report["games"] in (4, 8, 16) and len(records) == report["games"]
    assert [r["index"] for r in records] == list(range(report["games"]))
    if report["games"] < 16:
        assert balance._settled(report)


def test_the_html_report_stands_alone_and_renders(reports, tmp_path):
    pytest.importorskip("matplotlib")
    html = report_mod.to_html(reports["deep_rock_galactic"])
    assert html.count("<svg") >= 3 and "<img" not in html and "http" not in html.split("<svg")[0]
    assert html == report_mod.to_html(reports["deep_rock_galactic"])      # same bytes
    weasyprint = pytest.importorskip("weasyprint")
    pdf = tmp_path / "report.pdf"
    weasyprint.HTML(string=html).write_pdf(pdf)
    png = tmp_path / "page"
    subprocess.run(["pdftoppm", "-r", "30", "-png", "-f", "1", "-l", "2", str(pdf), str(png)],
                   check=True)
    from PIL import Image
    pages = sorted(tmp_path.glob("page*.png"))
    assert pages
    colours = Image.open(pages[-1]).convert("RGB").getcolors(1 << 16) or []
    assert len(colours) > 20          # a page with plots and text, not a blank one


def test_the_command_line_writes_text_json_and_html(tmp_path, run_cli):
    pack, _ = CASES["clank_catacombs"]
    code, out, err = run_cli("balance", "clank_catacombs", "--pack", pack, "--games", "4", "--workers", "1",
                             "--json", "--html", tmp_path / "r.html")
    assert code == 0, err
    data = json.loads(out)
    assert data["by_players"]["4"]["base"]["games"] == 4
    assert (tmp_path / "r.html").read_text(encoding="utf-8").count("<svg") >= 2
    code, _, err = run_cli("balance", "clank_catacombs", "--pack", pack, "--players", "5", "--games", "2")
    assert code == 2 and "5 players" in err


# --- the statistics against textbook values ---------------------------------------------------

def test_fisher_exact_matches_the_lady_tasting_tea():
    assert stats.fisher_exact(3, 1, 1, 3) == pytest.approx(0.4857142857, abs=1e-9)
    assert stats.fisher_exact(1, 9, 11, 3) == pytest.approx(0.0027594562, abs=1e-9)


def test_mcnemar_exact_is_a_two_sided_binomial_test():
    assert stats.binomial_two_sided(1, 10) == pytest.approx(22 / 1024)
    assert stats.binomial_two_sided(5, 10) == 1.0
    comp = stats.paired_rates("w", [False] * 10 + [True] * 5, [True] * 10 + [True] * 5)
    assert comp.diff == pytest.approx(10 / 15) and comp.p == pytest.approx(2 / 1024)


def test_wilson_and_newcombe_intervals():
    low, high = stats.wilson(81, 263)
    assert (low, high) == (pytest.approx(0.2553, abs=1e-4), pytest.approx(0.3662, abs=1e-4))
    c = stats.lift("x", 56, 14, 48, 32)         # Newcombe (1998), example: 0.8 vs 0.6
    assert c.diff == pytest.approx(0.2)
    assert (c.low, c.high) == (pytest.approx(0.0524, abs=2e-3), pytest.approx(0.3339, abs=2e-3))


def test_holm_flags_only_what_survives_the_correction():
    comps = [stats.Comparison(n, 0, 0, 0, 0, 0, p, 10) for n, p in
             (("a", 0.01), ("b", 0.04), ("c", 0.03), ("d", 0.005))]
    stats.holm(comps)
    adjusted = {c.name: c.p_adjusted for c in comps}
    assert adjusted == pytest.approx({"d": 0.02, "a": 0.03, "c": 0.06, "b": 0.06})
    assert {c.name for c in comps if c.flagged} == {"d", "a"}


def test_paired_sign_flip_test_is_exact_for_small_samples():
    assert stats.sign_flip_p([1, 1, 1, 1]) == pytest.approx(2 / 16)
    assert stats.sign_flip_p([0, 0]) == 1.0
    lo, hi = stats.bootstrap_interval([1.0] * 30, "t")
    assert lo == hi == 1.0
    assert not math.isnan(stats.paired_means("m", [1, 2, 3], [2, 3, 5]).p)


def test_large_sample_sign_flip_uses_the_normal_approximation():
    # 100 pairs all +1: z = 100 / sqrt(100) = 10, far beyond any Monte Carlo resolution
    assert 0 < stats.sign_flip_p([1.0] * 100) < 1e-20
    assert stats.sign_flip_p([1.0, -1.0] * 50) == pytest.approx(1.0)
