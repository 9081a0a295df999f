"""Crawl Decks' sheets (A4, zh and en): a rules reference with the battle's timing windows and
the layering rule, a card list, and a keyword cheat sheet.

Labels and prose come from templates/sheets/dm_crawl_decks.yaml (Simplified Chinese, like the
rulebook); numbers come from content (board.yaml, rules.yaml); the layering examples are
computed by the shared runtime (runtime/layering.py), so the sheet cannot disagree with it.
"""
from __future__ import annotations

import re

from tomecraft.compiler import checks
from tomecraft.compiler.model import Entity, Game
from tomecraft.compiler.sheets import (Footnotes, Sheet, Texts, after_use_text, fill,
                             keyword_label, labels, name_of, param_letters, prose, rule_value_text, sheet_rules, sheet_title, site_at, sources_table)
from tomecraft.dsl import nodes as n
from tomecraft.dsl.parser import EffectSyntaxError, parse
from tomecraft.dsl.render import render, render_call
from tomecraft.runtime.engines.dm_crawl_decks.rules import event_leaves_to
from tomecraft.runtime.layering import Layers

EXAMPLES = {   # LAY-n: printed value, then (op, amount, continuous) in order (inventory §6.3)
    "LAY-1": (3, [("=", 1, False), ("+=", 1, False)]),
    "LAY-2": (3, [("+=", 1, False), ("=", 1, False)]),
    "LAY-3": (3, [("+=", 1, True), ("=", 1, False)]),
    "LAY-4": (5, [("-=", 1, True), ("=", 1, False)]),
    "LAY-5": (2, [("+=", 1, False), ("=", 5, False), ("-=", 2, False)]),
}


def after_use_default(entity: Entity) -> str | None:
    """Where play puts an event card left without `after_use` (rules.event_leaves_to: a loot
    card to the loot pile, L31); None for the kind's own default. A pack's loot card without
    it was printed "discarded after use" (the event kind's default)."""
    if entity.kind != "event_card":
        return None
    return event_leaves_to(entity.data.get("card_type"))


def _common(game: Game, lang: str) -> dict:
    text = prose(game.id, lang)
    lab = {**labels(lang, game), **text["labels"]}
    board = game.of_kind("board")
    # the counts agree with their noun in the prose's counted placeholders (`fill`)
    values = dict(board[0].data) if board else {}
    return {"text": text, "dm_lab": lab, "values": values,
            "dm_title_key": None, "board": board[0] if board else None}


def _finish(ctx: dict, game: Game, lang: str, notes: Footnotes, title_key: str) -> dict:
    lab = ctx["dm_lab"]
    ctx["dm_title"] = sheet_title(lab[title_key], game.vocab.name.get(lang))
    ctx["dm_sources"] = sources_table(game, lang, lab, notes)
    return ctx


def layering_result(example: str) -> tuple[int, bool]:
    """(final points, went to the graveyard) of an inventory example, run on Layers."""
    printed, steps = EXAMPLES[example]
    zero: list = []
    layers = Layers(on_zero=lambda obj, attr: zero.append(obj))
    layers.set_base("card", "points", printed)
    for i, (op, amount, continuous) in enumerate(steps):
        layers.modify("card", "points", op, amount, continuous=continuous, source=f"s{i}")
    return layers.value("card", "points"), bool(zero)


def rules_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    ctx = _common(game, lang)
    text, values, lab = ctx["text"], ctx["values"], ctx["dm_lab"]
    if ctx["board"] is not None:
        notes.mark(ctx["board"], lang)
    ctx["turn"] = text["turn"]
    ctx["actions"] = [[fill(c, values) for c in row] for row in text["actions"]]
    ctx["battle_steps"] = [[fill(c, values) for c in row] for row in text["battle_steps"]]
    ctx["outcomes"] = text["outcomes"]
    examples = []
    for label, ref in text["layering_examples"]:
        value, zero = layering_result(ref)
        examples.append({"case": label, "ref": ref,
                         "result": f"{value}" + (f" {text['to_graveyard']}" if zero else "")})
    ctx["examples"] = examples
    ctx["descend"] = [fill(p, values) for p in text["descend"]]
    loot = text["loot_cleanup"] if loot_is_two_n_minus_one(game) else text["loot_cleanup_other"]
    ctx["board_text"] = [fill(p, values) for p in text["board"]] + [loot]
    ctx["rules"] = [{"name": name_of(r, lang), "mark": notes.mark(r, lang),
                     "value": rule_value_text(game, r, lang, _value(r.data.get("value"), lab))} for r in sheet_rules(game, notes)]
    return _finish(ctx, game, lang, notes, "rules_title")


def loot_is_two_n_minus_one(game: Game) -> bool:
    """"n loot cards of a kind give 2n - 1" (L244) sums up the `loot_of` keyword: true only
    while every loot card's effect is `loot_of` its own resource (a pack's loot card may say
    something else)."""
    loot = [e for e in game.of_kind("event_card") if e.data.get("card_type") == "loot"]
    return bool(loot) and all(_is_loot_of(e) for e in loot)


def _is_loot_of(card: Entity) -> bool:
    site = site_at(card, ("effect",))
    stmts = getattr(site.ast, "stmts", ()) if site is not None else ()
    if len(stmts) != 1 or not isinstance(stmts[0], n.Call) or stmts[0].verb != "loot_of":
        return False
    args = stmts[0].args
    return len(args) == 1 and isinstance(args[0], n.Name) and args[0].parts == (card.data.get("resource"),)


def _value(value, lab: dict) -> str:
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, list):
        return lab["list_sep"].join(str(v) for v in value)
    return str(value)


def _once_per_rest(relic: Entity) -> bool:
    """A relic that turns sideways when used works once per long rest (L232-236): a pack's
    relic says so by its `use` (the engine ignores a pack's `once_per_rest`, TC-C002), and its
    row read "action phase" alone, while the keyword sheet listed it under "Once per long rest"."""
    site = site_at(relic, ("use",))
    ast = site.ast if site is not None else None
    if site is not None and ast is None:
        try:
            ast = parse(site.text)
        except EffectSyntaxError:
            ast = None
    return bool(relic.data.get("once_per_rest")) or (
        ast is not None and any(isinstance(x, n.Call) and x.verb == "turn_sideways" for x in n.walk(ast)))


def _effect(texts: Texts, entity: Entity, field: str) -> str:
    site = site_at(entity, (field,))
    return texts.site(site) if site is not None else ""


def cards_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    ctx = _common(game, lang)
    texts, lab = Texts(game, lang), ctx["dm_lab"]
    vocab = game.vocab
    ctx["cards"] = [{"name": name_of(c, lang), "mark": notes.mark(c, lang),
                     "after_use": after_use_text(game, c, lang),
                     "type": vocab.text_of(c.data["card_type"], lang, "card_type"),
                     "points": c.data["points"], "power": c.data["power"],
                     "count": c.data["count"], "effect": _effect(texts, c, "effect")}
                    for c in sorted(game.of_kind("card"),
                                    key=lambda e: (e.data["card_type"], e.data["points"], e.id))]
    ctx["events"] = [{"name": name_of(e, lang), "mark": notes.mark(e, lang),
                      "after_use": after_use_text(game, e, lang),
                      "type": vocab.text_of(e.data["card_type"], lang, "card_type"),
                      "count": e.data["count"], "effect": _effect(texts, e, "effect")}
                     for e in sorted(game.of_kind("event_card"),
                                     key=lambda e: (e.data["card_type"], e.id))]
    relics = []
    for r in game.of_kind("relic"):
        d = r.data
        window = lab["window_" + d["window"]] if d.get("window") else lab["window_passive"]
        relics.append({"name": name_of(r, lang), "mark": notes.mark(r, lang),
                       "after_use": after_use_text(game, r, lang),
                       "label": _label(vocab, d, lang, lab),
                       "window": window + (f"{lab['list_sep']}{lab['once_per_rest']}" if _once_per_rest(r) else ""),
                       "effect": " ".join(x for x in (_effect(texts, r, "use"), _effect(texts, r, "passive")) if x)})
    ctx["relics"] = relics
    ctx["deck_size"] = sum(c.data["count"] for c in game.of_kind("card"))
    ctx["event_size"] = sum(e.data["count"] for e in game.of_kind("event_card"))
    return _finish(ctx, game, lang, notes, "cards_title")


def _users(game: Game, names: str, lang: str, notes: Footnotes) -> list[dict]:
    found: dict[tuple, Entity] = {}
    for name in names.split("|") if names else []:
        if name == "continuous":
            for entity in game.all():
                for site in entity.effects:
                    if site.ast is not None and any(isinstance(x, n.Continuous) for x in n.walk(site.ast)):
                        found[(entity.kind, entity.id)] = entity
            continue
        for entity, _site in checks.entities_mentioning(game, name):
            found[(entity.kind, entity.id)] = entity
        for entity in game.all():                               # `on <timing>:` triggers
            for site in entity.effects:
                if site.ast is not None and any(isinstance(x, n.On) and x.event == name
                                                for x in n.walk(site.ast)):
                    found[(entity.kind, entity.id)] = entity
        for kw_name, site in game.keyword_sites.items():       # used through a keyword
            if site.ast is not None and any((isinstance(x, n.Call) and x.verb == name)
                                            or (isinstance(x, n.On) and x.event == name)
                                            for x in n.walk(site.ast)):
                for entity, _ in checks.entities_mentioning(game, kw_name):
                    found[(entity.kind, entity.id)] = entity
    out = []
    for (kind, _id), entity in sorted(found.items()):
        if kind in ("card", "event_card", "relic"):
            out.append({"name": name_of(entity, lang), "mark": notes.mark(entity, lang)})
    return out


def keywords_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    ctx = _common(game, lang)
    rows = ctx["text"]["keywords"]
    ctx["keywords"] = [{"name": name, "meaning": meaning, "ref": ref,
                        "users": _users(game, names, lang, notes)}
                       for name, names, meaning, ref in rows]
    ctx["keywords"] += _content_keywords(game, lang, notes, {name for _, names, _, _ in rows
                                                             for name in names.split("|") if name})
    return _finish(ctx, game, lang, notes, "keywords_title")


def _content_keywords(game: Game, lang: str, notes: Footnotes, described: set[str]) -> list[dict]:
    """A row per keyword of the vocabulary (the base game's or a pack's) the sheet's own
    table does not describe: its text as the name, its effect rendered as the meaning. A
    fan's new keyword was missing from the cheat sheet that lists every keyword."""
    texts, rows = Texts(game, lang), []
    for name, site in sorted(game.keyword_sites.items()):
        if name in described:
            continue
        # letters for every parameter, as the other games' keyword tables: a card type read
        # "Hunt N card types: search the main deck for N card types", and two counts both N
        params = game.vocab.keywords[name].params
        letters = param_letters(params)
        named = {p.name: letters[p.name] for p in params if p.type != "int"}
        if site.ast is None:
            texts.site(site)        # parses it (or keeps the text of one that does not parse)
        meaning = render(site.ast, game.vocab, lang, bound=named) \
            if named and site.ast is not None else texts.site(site)
        rows.append({"name": keyword_label(game, name, lang, letters), "meaning": meaning,
                     "ref": "", "users": _users(game, name, lang, notes)})
    return rows


def _label(vocab, relic: dict, lang: str, lab: dict) -> str:
    """A relic's label column: its label, else the resource its use pays (a pack's own, which
    no label can name: a relic paying 2 gems was printed "free" beside "Spend 2 gems"), else
    free (L39)."""
    paid = re.search(r"\bpay ([a-z_]\w*)\b", relic.get("use") or "")
    resource = relic.get("label") or (paid.group(1) if paid and "resource" in
                                       vocab.types_of(paid.group(1)) else "")
    return vocab.text_of(resource, lang, "resource") if resource else lab["free"]


SHEETS = (Sheet("rules", "dm_crawl_decks_rules.html.j2", "rules_title", rules_sheet),
          Sheet("cards", "dm_crawl_decks_cards.html.j2", "rules_title", cards_sheet),
          Sheet("keywords", "dm_crawl_decks_keywords.html.j2", "rules_title", keywords_sheet))
