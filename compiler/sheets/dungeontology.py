"""Dungeontology's sheets (A4, zh and en): a rules reference, a region reference, the notebook
scoring table and the effect-symbol cheat sheet, each its own sheet. Region effects, keywords and card texts are rendered
from the effect language; the numbers come from the content (rules.yaml, components.yaml)."""
from __future__ import annotations

from compiler.model import Entity, Game
from compiler.sheets import Footnotes, Sheet, Texts, fill, name_of, prose, site_at, text_of
from dsl.render import render_call

COLOURS = ("civilization", "military", "faith", "wealth", "caste")
KEYWORDS = ("lucky", "unlucky", "danger", "ambush", "stop", "toll", "stairs", "boss", "camp",
            "secret_passage", "teleport")
SYMBOLS = (("gain_students", {"amount": "N"}), ("move", {"steps": "N"}),
           ("draw_cards", {"amount": "N"}), ("draw_students", {"amount": "N"}),
           ("sacrifice", {"amount": "N"}), ("gain_stun", {"amount": "N"}),
           ("discard", {"amount": "N"}), ("add_stealth", {"amount": "N"}),
           ("add_alert", {"amount": "N"}), ("prophecy", {"amount": "N"}),
           ("random_move", {"who": "N"}), ("cancel_card", {}))


def _colour(game: Game, colour: str, lang: str) -> str:
    return game.vocab.text_of(colour, lang, "colour")


def _rule(game: Game, rule_id: str, default=None):
    rule = game.entities.get("rule", {}).get(rule_id)
    return rule.data.get("value", default) if rule is not None else default


def _common(game: Game, lang: str) -> dict:
    return {"text": prose(game.id, lang), "sep": "、" if lang == "zh" else ", "}


def _notebook(game: Game, lang: str, notes: Footnotes) -> dict:
    nb = game.of_kind("notebook")[0]
    cols = nb.data["columns"]
    height = max(len(c["values"]) for c in cols)
    rows = [[c["values"][height - 1 - r] for c in cols] for r in range(height)]
    heads = [{"colour": _colour(game, c["colour"], lang), "icon": text_of(c["icon"], lang),
              "unit": c["unit_value"], "stars": c["stars"], "research": c["research"]} for c in cols]
    return {"mark": notes.mark(nb, lang), "rows": rows, "heads": heads, "capacity": nb.data["capacity"]}


def _values(game: Game) -> dict:
    alert = game.entities.get("alert_card", {}).get("alert_standard")
    a = alert.data if alert is not None else {}
    rows = a.get("rows") or [{}]
    return {"normal": a.get("normal_per_player", 4), "omega": a.get("omega", 1),
            "refill": rows[-1].get("normal_per_player", 3), "penalty": rows[-1].get("research_penalty", 2),
            "slots": len(rows), "capacity": game.of_kind("notebook")[0].data["capacity"],
            "round_cap": _rule(game, "r_round_cap", 120)}


def rules_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    ctx = _common(game, lang)
    text, values = ctx["text"], _values(game)
    sections = []
    for key in ("setup", "phases", "stealth", "responses", "students", "end"):
        sections.append({"title": text[f"{key}_title"],
                         "items": [fill(p, values) for p in text[key]]})
    decisions = [{"name": name_of(r, lang), "mark": notes.mark(r, lang)} for r in game.of_kind("rule")]
    research = [{"n": n, "plus": n * (n - 1) // 2} for n in range(1, 6)]
    return {**ctx, "sections": sections, "research": research, "decisions": decisions}


def notebook_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    ctx = _common(game, lang)
    text, values = ctx["text"], _values(game)
    scoring = [fill(p, values) for p in text["scoring"]]
    return {**ctx, "notebook": _notebook(game, lang, notes), "scoring": scoring}


def symbols_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    ctx = _common(game, lang)
    symbols = []
    for verb, params in SYMBOLS:
        info = game.vocab.verbs.get(verb)
        if info is None:
            continue
        stand_in = {k: (ctx["text"]["who_param"] if k == "who" else v) for k, v in params.items()}
        effect = render_call(game.vocab, verb, lang, stand_in)  # agreement: "N students"
        symbols.append({"name": ctx["text"]["symbols"][verb], "effect": effect.strip()})
    timings = [fill(p, {}) for p in ctx["text"]["timings"]]
    return {**ctx, "symbols": symbols, "timings": timings}


def _region_row(game: Game, r: Entity, lang: str, texts: Texts, notes: Footnotes) -> dict:
    d = r.data
    effects = [texts.effect(r, ("effects", i)) for i in range(len(d.get("effects") or ()))]
    doors = [f"{d_['side']}: " + "+".join(_colour(game, c, lang) for c in d_["colours"])
             for d_ in d.get("doors") or ()]
    return {"number": d["number"], "name": name_of(r, lang), "mark": notes.mark(r, lang),
            "level": d["level"], "alert": d.get("alert", 0),
            "slots": [{"name": _colour(game, c, lang), "colour": c} for c in d.get("slots") or ()],
            "passages": d["passages"], "doors": doors, "effects": effects, "ref": str(d.get("ref", ""))}


def regions_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    ctx = _common(game, lang)
    texts = Texts(game, lang)
    order = {"START": 0, "I": 1, "II": 2, "III": 3}

    def key(r: Entity):
        number = r.data["number"]
        level, _, idx = number.partition("-")
        return (order.get(level, 9), int(idx or 0), r.id)
    regions = [_region_row(game, r, lang, texts, notes) for r in sorted(game.of_kind("region"), key=key)]
    keywords = []
    for name in KEYWORDS:
        kw = game.vocab.keywords.get(name)
        if kw is None:
            continue
        stand_in = {"int": "N", "colour": ctx["text"]["colour_param"], "passage_letter": "X"}
        label = fill(kw.text.get(lang), {p.name: stand_in.get(p.type, p.name) for p in kw.params})
        site = game.keyword_sites.get(name)
        keywords.append({"name": label, "effect": texts.site(site) if site is not None else ""})
    tokens = []
    for t in game.of_kind("token"):
        site = site_at(t, ("effect",))
        tokens.append({"name": name_of(t, lang), "mark": notes.mark(t, lang),
                       "count": t.data.get("count", ""),
                       "effect": texts.site(site) if site is not None else ""})
    blocks = [{"name": name_of(b, lang), "mark": notes.mark(b, lang), "count": b.data["count"],
               "unit": b.data["unit_value"], "hue": b.data.get("hue", "#888888")}
              for b in sorted(game.of_kind("info_block"), key=lambda b: COLOURS.index(b.data["colour"])
                              if b.data["colour"] in COLOURS else 9)]
    return {**ctx, "regions": regions, "keywords": keywords, "tokens": tokens, "blocks": blocks}


SHEETS = (Sheet("rules", "dungeontology_rules.html.j2", "rules_title", rules_sheet),
          Sheet("regions", "dungeontology_regions.html.j2", "regions_sheet_title", regions_sheet),
          Sheet("notebook", "dungeontology_notebook.html.j2", "notebook_sheet_title", notebook_sheet),
          Sheet("symbols", "dungeontology_symbols.html.j2", "symbols_sheet_title", symbols_sheet))
