"""Dungeontology's sheets (A4, zh and en): a rules reference, a region reference, the notebook
scoring table and the effect-symbol cheat sheet, each its own sheet. Region effects, keywords and card texts are rendered
from the effect language; the numbers come from the content (rules.yaml, components.yaml)."""
from __future__ import annotations

from tomecraft.compiler.model import Entity, Game
from tomecraft.compiler.sheets import (Footnotes, Sheet, Texts, _yaml_file, after_use_text, fill, keyword_label,
                             name_of, param_letters, prose, qualifiers, sheet_rules, site_at, text_of)
from tomecraft.dsl.render import render, render_call
from tomecraft.dsl.render.templates import signed

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
    text = _common(game, lang)["text"]
    heads = [{"colour": _colour(game, c["colour"], lang), "icon": text_of(c["icon"], lang),
              "unit": c["unit_value"], "stars": _at_blocks(text, "stars_at", c["stars"], lang),
              "research": _at_blocks(text, "research_at", c["research"], lang)} for c in cols]
    return {"mark": notes.mark(nb, lang), "rows": rows, "heads": heads, "capacity": nb.data["capacity"]}


def _at_blocks(text: dict, key: str, counts: list[int], lang: str) -> str:
    """"a star at 3 and 6 blocks" (zh "3、6块时得1星"); "no research bonus" for none.
    It read "stars at (blocks) 3, 6" and "research bonus at (blocks) —"."""
    if not counts:
        return text[key + "_none"]
    numbers = [str(c) for c in counts]
    if lang == "zh":
        joined = "、".join(numbers)
    else:
        joined = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]
    return fill(text[key], {"n": joined, "blocks": "block" if counts == [1] else "blocks"})


def _values(game: Game) -> dict:
    alert = game.entities.get("alert_card", {}).get("alert_standard")
    a = alert.data if alert is not None else {}
    rows = a.get("rows") or [{}]
    return {"normal": a.get("normal_per_player", 4), "omega": a.get("omega", 1),
            "refill": rows[-1].get("normal_per_player", 3), "penalty": rows[-1].get("research_penalty", 2),
            "slots": len(rows), "capacity": game.of_kind("notebook")[0].data["capacity"],
            "round_cap": _rule(game, "r_round_cap", 120)}


def _slots_each(game: Game, lang: str) -> str:
    """Each alert card's omega slots, "standard: 4, calm: 4, tense: 3": the panic comes when
    the card in play is full (L1245), and the cards differ (the sheet said "all 4 slots", the
    standard card's, for the tense card's 3 too). The sentence holds the list in brackets, so
    names sharing a head with their own bracket ("Alert card (tense)") say only what differs
    ("Alert card (standard) 4" printed brackets within brackets)."""
    cards = list(game.entities.get("alert_card", {}).values())
    names = qualifiers([name_of(card, lang) for card in cards])
    if lang == "zh":
        return "、".join(f"{name}{len(card.data.get('rows') or ())}个" for name, card in zip(names, cards))
    return ", ".join(f"{name}: {len(card.data.get('rows') or ())}" for name, card in zip(names, cards))


def rules_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    ctx = _common(game, lang)
    text, values = ctx["text"], {**_values(game), "slots_each": _slots_each(game, lang)}
    sections = []
    for key in ("setup", "phases", "stealth", "responses", "students", "end"):
        sections.append({"title": text[f"{key}_title"],
                         "items": [fill(p, values) for p in text[key]]})
    decisions = [{"name": name_of(r, lang), "mark": notes.mark(r, lang)} for r in sheet_rules(game, notes)]
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
        symbols.append({"name": ctx["text"]["symbols"][verb], "icon": verb,
                        "effect": effect.strip()})
    timings = [fill(p, {}) for p in ctx["text"]["timings"]]
    return {**ctx, "symbols": symbols, "timings": timings}


def _region_row(game: Game, r: Entity, lang: str, texts: Texts, notes: Footnotes) -> dict:
    d = r.data
    effects = [texts.effect(r, ("effects", i)) for i in range(len(d.get("effects") or ()))]
    words = prose(game.id, lang)["directions"]
    sides = lambda letters: ("" if lang == "zh" else ", ").join(   # noqa: E731
        words.get(ch, ch) for ch in str(letters))
    colon = "：" if lang == "zh" else ": "
    doors = [sides(d_["side"]) + colon + "+".join(_colour(game, c, lang) for c in d_["colours"])
             for d_ in d.get("doors") or ()]
    number = prose(game.id, lang)["start_number"] if d["number"] == "START" else d["number"]
    return {"number": number, "name": name_of(r, lang), "mark": notes.mark(r, lang),
            "level": d["level"], "alert": d.get("alert", 0),
            "slots": [{"name": _colour(game, c, lang), "colour": c} for c in d.get("slots") or ()],
            "passages": sides(d["passages"]), "doors": doors, "effects": effects, "ref": str(d.get("ref", ""))}


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
    # the rulebook's keywords in its order, then a pack's own: printed by their text ("Jinx 2"),
    # they need their row here, the one place that says what a keyword does
    extra = sorted(k for k, kw in game.vocab.keywords.items() if k not in KEYWORDS and kw.text)
    for name in (*KEYWORDS, *extra):
        kw = game.vocab.keywords.get(name)
        if kw is None:
            continue
        stand_in = {"int": "N", "colour": ctx["text"]["colour_param"], "passage_letter": "X"}
        label = keyword_label(game, name, lang, param_letters(kw.params, stand_in))
        site = game.keyword_sites.get(name)
        keywords.append({"name": label, "effect": _meaning(game, site, kw, stand_in, lang, texts)})
    tokens = []
    for t in game.of_kind("token"):
        site = site_at(t, ("effect",))
        tokens.append({"name": name_of(t, lang), "mark": notes.mark(t, lang),
                       "after_use": after_use_text(game, t, lang),
                       "count": t.data.get("count", ""),
                       "effect": texts.site(site) if site is not None else ""})
    blocks = [{"name": name_of(b, lang), "mark": notes.mark(b, lang), "count": b.data["count"],
               "unit": b.data["unit_value"], "hue": b.data.get("hue", "#888888")}
              for b in sorted(game.of_kind("info_block"), key=lambda b: COLOURS.index(b.data["colour"])
                              if b.data["colour"] in COLOURS else 9)]
    return {**ctx, "regions": regions, "keywords": keywords, "tokens": tokens, "blocks": blocks}


def _meaning(game: Game, site, kw, stand_in: dict, lang: str, texts: Texts) -> str:
    """A keyword's meaning, naming its parameters as its label does: "Secret passage X | ...
    to another revealed region with secret passage X", not "... of passage letter" (the
    type's name). Numbers keep the renderer's letters (N, M...), which the label's N matches."""
    if site is None:
        return ""
    letters = param_letters(kw.params, stand_in)
    named = {p.name: letters[p.name] for p in kw.params if p.type != "int"}
    if not named:
        return texts.site(site)
    if site.ast is None:
        texts.site(site)        # parses it (or gives the text of one that does not parse)
    return render(site.ast, game.vocab, lang, bound=named) if site.ast is not None else site.text


def _field(texts: Texts, entity: Entity, path: tuple) -> str:
    return texts.effect(entity, path)


def card_details(game: Game, entity: Entity, lang: str) -> dict:
    """What a print-and-play card adds to its spec's fields: a scheme card names the intern
    it gives, as the cards sheet does ('Gain the intern Cartographer...'; the card said nothing)."""
    intern = game.entities.get("intern_card", {}).get(entity.data.get("intern") or "")
    if entity.kind != "scheme_card" or intern is None:
        return {}
    own = _yaml_file(f"{game.id}.yaml")["cards"][lang]
    return {"rules": [{"label": "", "text": fill(own["gives_intern"], {"name": name_of(intern, lang)})}]}


def cards_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    """Scheme, clan, intern and doom cards, the boss and the scholars, every text rendered from
    the effect language and every card with what happens to it once played."""
    ctx = _common(game, lang)
    texts, own = Texts(game, lang), dict(_yaml_file(f"{game.id}.yaml")["cards"][lang])
    interns = game.entities.get("intern_card", {})
    schemes = []
    for c in sorted(game.of_kind("scheme_card"),
                    key=lambda e: (str(e.data["card_type"]), -e.data.get("bonus", 0), e.id)):
        d = c.data
        effects = []
        if d.get("main"):
            head = own["main"] + (f"（{own['action']}）" if lang == "zh" else f" ({own['action']})") \
                if d.get("action") else own["main"]
            effects.append({"label": head, "text": _field(texts, c, ("main",))})
        if d.get("auxiliary"):
            effects.append({"label": own["auxiliary"], "text": _field(texts, c, ("auxiliary",))})
        if d.get("intern") in interns:
            effects.append({"label": "", "text": fill(own["gives_intern"],
                                                      {"name": name_of(interns[d["intern"]], lang)})})
        tags = [own[f"timing_{d['timing']}"]] if d.get("timing") in ("instant", "response") else []
        bonus = str(d.get("bonus", 0)) + (f" / {d['fate_bonus']}" if d.get("fate_bonus") else "")
        schemes.append({"name": name_of(c, lang), "mark": notes.mark(c, lang),
                        "type": game.vocab.text_of(d["card_type"], lang, "card_type"),
                        "bonus": bonus, "count": d.get("count", 1), "effects": effects,
                        "tags": tags, "after_use": after_use_text(game, c, lang)})
    clans = []
    for c in game.of_kind("clan_card"):
        mods = c.data.get("modifiers") or {}
        clans.append({"name": name_of(c, lang), "mark": notes.mark(c, lang),
                      "target": c.data["target"], "after_use": after_use_text(game, c, lang),
                      "mods": ctx["sep"].join(f"{_colour(game, k, lang)} {signed(str(v))}"
                                              for k, v in mods.items() if v)})
    intern_rows = [{"name": name_of(i, lang), "mark": notes.mark(i, lang),
                    "protects": ctx["sep"].join(_colour(game, k, lang) for k in i.data.get("colours") or ()),
                    "effect": _field(texts, i, ("effect",)) if i.data.get("effect") else "",
                    "bonus": i.data["end_bonus"], "after_use": after_use_text(game, i, lang)}
                   for i in game.of_kind("intern_card")]
    dooms = []
    for c in game.of_kind("doom_card"):
        effects = [{"label": own[key], "text": _field(texts, c, (field,))}
                   for key, field in (("on_reveal", "on_reveal"), ("lasting", "effect"))
                   if c.data.get(field)]
        dooms.append({"name": name_of(c, lang), "mark": notes.mark(c, lang), "effects": effects,
                      "penalty": c.data["penalty"], "after_use": after_use_text(game, c, lang)})
    bosses = []
    for b in game.of_kind("boss"):
        mark = notes.mark(b, lang)
        for i, side in enumerate(b.data["sides"]):
            effects = [{"label": own[key], "text": _field(texts, b, ("sides", i, key))}
                       for key in ("discover", "activate", "encounter") if side.get(key)]
            bosses.append({"name": text_of(side["name"], lang), "mark": mark if i == 0 else None,
                           "alert": side["region_alert"], "effects": effects})
    scholars = []
    for sch in game.of_kind("scholar"):
        sides = []
        for i, side in enumerate(sch.data["sides"]):
            stats = fill(own["stats"], {"students": side["students_value"], "hand": side["hand_value"],
                                        "speed": side["speed"], "intellect": side["intellect"],
                                        "stamina": side["stamina"]})
            skills = [{"label": text_of(k["name"], lang) + (f"（{own['skill_' + k['timing']]}）"
                                                           if lang == "zh" else
                                                           f" ({own['skill_' + k['timing']]})"),
                       "text": _field(texts, sch, ("sides", i, "skills", j, "effect"))}
                      for j, k in enumerate(side["skills"])]
            sides.append({"title": own[side["side"]], "stats": stats, "skills": skills})
        scholars.append({"name": name_of(sch, lang), "mark": notes.mark(sch, lang),
                         "title": text_of(sch.data.get("title"), lang),
                         "lore": ctx["sep"].join(_colour(game, c, lang) for c in sch.data["lore_bonus"]),
                         "sides": sides})
    return {**ctx, "own": own, "schemes": schemes, "clans": clans, "interns": intern_rows,
            "dooms": dooms, "bosses": bosses, "scholars": scholars}


SHEETS = (Sheet("rules", "dungeontology_rules.html.j2", "rules_title", rules_sheet),
          Sheet("regions", "dungeontology_regions.html.j2", "regions_sheet_title", regions_sheet),
          Sheet("notebook", "dungeontology_notebook.html.j2", "notebook_sheet_title", notebook_sheet),
          Sheet("symbols", "dungeontology_symbols.html.j2", "symbols_sheet_title", symbols_sheet),
          Sheet("cards", "dungeontology_cards.html.j2", "cards_sheet_title", cards_sheet))
