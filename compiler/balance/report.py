"""A balance report as text (the terminal), JSON, or a stand-alone HTML page with SVG plots.

Plots are drawn with matplotlib into SVG and embedded, so the page needs no other file. The
SVG is made deterministic (fixed hash salt, no date), so the same report gives the same bytes.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape

from tomecraft.compiler import diagnostics as dg


def to_json(report: dict) -> str:
    # a --pack folder's name may hold controls: json.dumps leaves C1 and bidi ones raw
    return dg.json_controls(json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True))


# --- text ------------------------------------------------------------------------------------

def _interval(c: dict, percent: bool) -> str:
    f = (lambda v: f"{v * 100:+.1f}") if percent else (lambda v: f"{v:+.2f}")
    unit = " pts" if percent else ""
    return f"{f(c['diff'])}{unit} [{f(c['low'])}, {f(c['high'])}]"


def to_text(report: dict) -> str:
    packs = ", ".join(Path(p).name for p in report["packs"]) or "no pack"
    lines = [f"{report['game']} with {packs}: {report['games']} paired games per player count, "
             f"seed {report['seed']}"]
    for n, block in report["by_players"].items():
        base, pack = block["base"], block["pack"]
        lines.append(f"\n{players_label(n)}")
        lines.append(f"  game length   {base['mean_rounds']:.2f} -> {pack['mean_rounds']:.2f} rounds")
        lines.append(f"  mean score    {base['mean_score']:.2f} -> {pack['mean_score']:.2f}")
        lines.append("  win rate      " + "  ".join(
            f"P{s + 1} {b * 100:.0f}%->{p * 100:.0f}%"
            for s, (b, p) in enumerate(zip(base["win_rate"], pack["win_rate"]))))
        if pack["win_rate_by_role"]:
            lines.append("  by role       " + "  ".join(
                f"{k} {base['win_rate_by_role'].get(k, 0) * 100:.0f}%->{v * 100:.0f}%"
                for k, v in pack["win_rate_by_role"].items()))
        if told_ends(pack["ends"]):      # The Cave's engine tells no end: no line of blanks
            lines.append("  ends          " + ends_text(pack["ends"]))
        flagged = [c for c in block["comparisons"] if c["flagged"]]
        lines.append(f"  differences ({len(block['comparisons'])} tested, "
                     f"{len(flagged)} significant after Holm's correction):")
        for c in flagged or []:
            percent = c["name"].startswith(("win", "lift"))
            lines.append(f"    * {c['name']}: {_interval(c, percent)}  ({_p(c['p_adjusted'])})")
        if not flagged:
            lines.append("    none")
        new = [(k, e) for k, e in block["entities"].items() if e["pack"] in report_packs(report)]
        if new:
            lines.append("  pack entities (take rate with the pack, uses):")
            for key, e in new:
                warn = "  warning: never used" if e["never_used"] else ""
                lines.append(f"    {key}  {e['take_rate_pack'] * 100:.1f}%  {e['uses_pack']}{warn}")
        for label, s in block["sweep"].items():
            lines.append(f"  {label}: win rate {s['any_win_rate'] * 100:.0f}%")
    return dg.escape_controls("\n".join(lines))   # a --pack folder named with ESC[2J...


def players_label(n) -> str:
    return "1 player" if str(n) == "1" else f"{n} players"


def told_ends(ends: dict) -> bool:
    """Whether the engine said how any game ended (its result's `end`; "" when it does not)."""
    return any(ends)


def ends_text(ends: dict) -> str:
    return ", ".join(f"{k or 'not told'} {v}" for k, v in ends.items())


def _p(p: float) -> str:
    return "p<0.001" if p < 0.001 else f"p={p:.3g}"


def report_packs(report: dict) -> set[str]:
    """Pack ids of the report's packs, as the entities carry them."""
    return {e["pack"] for block in report["by_players"].values()
            for e in block["entities"].values() if e["pack"] and e["pack"] != report["game"]}


# --- HTML ------------------------------------------------------------------------------------

def to_html(report: dict) -> str:
    env = Environment(loader=PackageLoader("tomecraft.compiler", "templates"),
                      autoescape=select_autoescape(["html", "j2"]))
    plots = {n: _plots(report, n, block) for n, block in report["by_players"].items()}
    return env.get_template("balance.html.j2").render(
        report=report, plots=plots, packs=report_packs(report),
        pack_names=[dg.escape_controls(Path(p).name) for p in report["packs"]], p_text=_p,
        players_label=players_label, told_ends=told_ends, ends_text=ends_text,
        text_of=lambda c: _interval(c, c["name"].startswith(("win", "lift"))))


def _svg(fig) -> str:
    import matplotlib.pyplot as plt
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _plots(report: dict, n: str, block: dict) -> dict[str, str]:
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "tomecraft"
    matplotlib.rcParams["svg.fonttype"] = "none"
    import matplotlib.pyplot as plt
    out = {}
    base, pack = block["base"], block["pack"]
    for key, title, unit in (("scores", "Scores", "score"), ("rounds", "Game length", "rounds")):
        fig, ax = plt.subplots(figsize=(6, 3.2))
        values = base[key] + pack[key]
        bins = _bins(values)
        ax.hist(base[key], bins=bins, alpha=0.55, label="base game", color="#4c72b0")
        ax.hist(pack[key], bins=bins, alpha=0.55, label="with the packs", color="#dd8452")
        ax.set_title(f"{title}, {players_label(n)}")
        ax.set_xlabel(unit)
        ax.set_ylabel("games" if key == "rounds" else "players")
        ax.legend()
        fig.tight_layout()
        out[key] = _svg(fig)
    lifts = {c["name"][5:]: c for c in block["comparisons"] if c["name"].startswith("lift ")}
    points = [(e["take_rate_pack"], lifts[k]["diff"], k, e["pack"] in report_packs(report),
               lifts[k]["flagged"]) for k, e in block["entities"].items() if k in lifts]
    if points:
        fig, ax = plt.subplots(figsize=(6, 4))
        for new in (False, True):
            xs = [p[0] * 100 for p in points if p[3] == new]
            ys = [p[1] * 100 for p in points if p[3] == new]
            ax.scatter(xs, ys, s=18, alpha=0.75, color="#dd8452" if new else "#4c72b0",
                       label="pack entity" if new else "base entity")
        for x, y, key, _, flagged in points:
            if flagged:
                ax.annotate(key.split(":", 1)[1], (x * 100, y * 100), fontsize=7)
        ax.axhline(0, color="#888", linewidth=0.8)
        ax.set_xlabel("take rate with the packs (% of player-games)")
        ax.set_ylabel("win-rate lift (points)")
        ax.set_title(f"Entities: how often taken, and how takers fare ({players_label(n)})")
        ax.legend()
        fig.tight_layout()
        out["lift"] = _svg(fig)
    if block["sweep"]:
        levels = sorted({k.split(":")[0] for k in block["sweep"]}, key=_as_number)
        fig, ax = plt.subplots(figsize=(6, 3.2))
        for label, colour in (("base", "#4c72b0"), ("pack", "#dd8452")):
            rates = [block["sweep"][f"{lv}:{label}"]["any_win_rate"] * 100 for lv in levels]
            ax.plot(levels, rates, marker="o", color=colour,
                    label="base game" if label == "base" else "with the packs")
        ax.set_xlabel(report["sweep"][0] if report["sweep"] else "")
        ax.set_ylabel("success rate (%)")
        ax.set_ylim(0, 100)
        ax.set_title(f"Success rate by {report['sweep'][0]}, {n} players")
        ax.legend()
        fig.tight_layout()
        out["sweep"] = _svg(fig)
    return out


def _bins(values: list) -> list:
    if not values:
        return [0, 1]
    low, high = min(values), max(values)
    step = max(1, (high - low) // 20 + 1)
    return list(range(int(low), int(high) + step + 1, int(step)))


def _as_number(text: str):
    try:
        return int(text)
    except ValueError:
        return text
