"""The Cave's sheets: a rules reference and a token cheat sheet (A4, zh and en)."""
from __future__ import annotations

from tomecraft.compiler import checks
from tomecraft.compiler.model import EffectSite, Entity, Game
from tomecraft.compiler.sheets import (Footnotes, Sheet, Texts, _rule_value, _scoring, _yaml_file,
                             after_use_text, ap_cost, count_en, fill, labels, majority_awards, name_of,
                             prose, rule_value_text, sheet_rules, site_at, text_of)


def _cave_common(game: Game, lang: str, notes: Footnotes) -> dict:
    lab = labels(lang, game)
    text = prose(game.id, lang)
    scoring = _scoring(game)
    sdata = scoring.data if scoring else {}
    points = list(sdata.get("majority_points") or [8, 4])
    categories = sorted(game.vocab.names.get(c, {}).get("category") and c or c
                        for c in {str(t.data.get("category")) for t in game.of_kind("token")
                                  if t.data.get("category")})
    order = [c for c in ("traverse", "water", "photo", "squeeze") if c in categories]
    categories = order + [c for c in categories if c not in order]
    category_names = [game.vocab.text_of(c, lang, "category") for c in categories]
    sep = "、" if lang == "zh" else ", "
    values = {
        "ap": _rule_value(game, ("turn_ap",), 5),
        "backpack": _rule_value(game, ("backpack_slots", "backpack"), 8),
        "camp": _rule_value(game, ("camp_slots", "camp"), 4),
        "extra_rounds": sdata.get("extra_rounds", 3),
        "first": points[0] if points else 0,
        "second": points[1] if len(points) > 1 else 0,
        "then_ranks": _lower_ranks(text, points, lang),
        # "traverse, water, photo and squeeze are scored separately" (the "and" was missing)
        "categories": (sep.join(category_names) if lang == "zh"
                       else _listed(category_names, text["numbers"], "and")) if category_names
        else lab["none"],
        "tie_rule": text["tie_rules"].get(sdata.get("tie_rule", "drop_one_rank"), ""),
    }
    values.update(_numbers(game, lang, text["numbers"], sdata.get("extra_rounds", 3)))
    values.update(_room(game, lang, text["numbers"], values["backpack"], values["camp"]))
    values["first_game"] = _first_game(game, lang)
    return {"lab": lab, "text": text, "values": values, "points": points,
            "categories": categories, "category_names": category_names,
            "scoring": scoring, "scoring_mark": notes.mark(scoring, lang) if scoring else None}


# L54: the first game's suggested backpack, by equipment term
FIRST_GAME = (("consumable", 4), ("rope", 1), ("oxygen", 1), ("camera", 1), ("raft", 1))


def _first_game(game: Game, lang: str) -> str:
    """L54's suggestion, without the items the game no longer has: a pack removing the camera
    was printed "First game: ... 1 camera" although no team could take one."""
    terms = {str(e.data.get("term") or e.id) for e in game.of_kind("equipment")}
    said = []
    for term, n in FIRST_GAME:
        if term in terms:
            name = game.vocab.text_of(term, lang, "equipment")
            said.append(f"{n}{name}" if lang == "zh" else count_en(n, name))
    return ("、" if lang == "zh" else ", ").join(said)


def _lower_ranks(text: dict, points: list, lang: str) -> str:
    """The majority points of the ranks after the first ("; second place scores 4"), as many as
    the scoring table gives (a pack may give three, or one)."""
    ranks = text["ranks"]
    said = [fill(text["rank"], {"rank": ranks[i] if i < len(ranks) else str(i + 1),
                                "points": value})
            for i, value in enumerate(points[1:], start=1)]
    if not said:
        return ""
    return ("，" + "，".join(said)) if lang == "zh" else "; " + ", ".join(said)


def _numbers(game: Game, lang: str, words: dict, extra_rounds: int) -> dict:
    """The numbers the prose states that the content sets, in words: the AP of re-equipping,
    setting up and packing the camp (its actions), the slots each equipment token takes, the
    per-team limits (and the items a discarded one of is gone for good), the extra rounds.
    A value of None drops its paragraph (no item with a per-team limit: no sentence on it)."""
    values = {}
    for action_id in ("re_equip", "set_camp", "pack_camp"):
        action = game.entities.get("action", {}).get(action_id)
        ap = (ap_cost(site_at(action, ("effect",)), game, lang) if action else "") or "0"
        values[f"{action_id}_ap"] = ap
        values[f"{action_id}_pay"] = words["pay_none"] if ap == "0" else fill(words["pay"], {"n": ap})
        values[f"{action_id}_costs"] = words["costs_none"] if ap == "0" \
            else fill(words["costs"], {"n": ap})
    normal = game.entities.get("tile_kind", {}).get("normal")
    walk = (ap_cost(site_at(normal, ("enter", 0, "effect")), game, lang) if normal else "") or "0"
    values["walk_costs"] = words["costs_none"] if walk == "0" else fill(words["costs"], {"n": walk})
    items = game.of_kind("equipment")
    term = lambda e: game.vocab.text_of(str(e.data.get("term", e.id)), lang, "equipment")
    slot_counts = [int(e.data.get("slots", 1)) for e in items] or [1]
    usual = max(sorted(set(slot_counts)), key=slot_counts.count)
    said = lambda n: count_en(n, "slot") if lang == "en" else str(n)
    others = [fill(words["slots_item"], {"item": term(e), "n": e.data.get("slots", 1),
                                         "slots": said(int(e.data.get("slots", 1)))})
              for e in items if int(e.data.get("slots", 1)) != usual]
    values["slots"] = fill(words["slots"], {"n": usual, "slots": said(usual)}) + \
        (fill(words["slots_except"], {"items": _listed(others, words, "and")}) if others else "")
    limited = [e for e in items if e.data.get("per_team_limit") is not None]
    values["team_limits"] = _listed([fill(words["limit_item"], {
        "n": e.data["per_team_limit"], "item": term(e),
        "classifier": (words.get("classifiers") or {}).get(e.data.get("term"),
                                                          words.get("classifier", "")),
        "count": count_en(e.data["per_team_limit"], term(e))}) for e in limited],
        words, "and") if limited else None
    values["limited_or"] = _listed([term(e) for e in limited], words, "or") if limited else None
    values["camp_lost"] = fill(words["camp_lost"], {"items": values["limited_or"]}) \
        if limited else ""
    rounds = int(extra_rounds or 0)
    values["then_extra"] = fill(words["then_extra"], {
        "n": rounds, "rounds": f"{rounds} more round" + ("" if rounds == 1 else "s")}) \
        if rounds else words["then_end"]
    values["after_extra"] = words["after_extra" if rounds else "after_end"]
    return values


def _room(game: Game, lang: str, words: dict, backpack: int, camp: int) -> dict:
    """The backpack and camp in items while every equipment token takes 1 slot ("holds 8
    items"), in slots once one takes more (a pack's 3-slot sled: 8 items no longer fit)."""
    unit = "items" if all(int(e.data.get("slots", 1)) == 1
                          for e in game.of_kind("equipment")) else "slots"
    said = {key: fill(words[f"{key}_{unit}"], {"n": n}) for key, n in
            (("fill", backpack), ("choose", backpack), ("carries", camp))}
    return {"fill_backpack": said["fill"], "choose_backpack": said["choose"],
            "camp_carries": said["carries"],
            **({"backpack_holds": fill(words[f"holds_{unit}"], {"n": backpack})}
               if f"holds_{unit}" in words else {})}


def _listed(parts: list[str], words: dict, last: str) -> str:
    """"A, B and C" (zh "A、B與C"); `last` is "and" or "or"."""
    if len(parts) <= 1:
        return "".join(parts)
    return words["sep"].join(parts[:-1]) + words[last] + parts[-1]


def _end(text: dict, values: dict, scoring) -> list[str]:
    """The game end, and whether a team must be back at the base to score (the scoring's
    must_return_to_base, which a pack may turn off)."""
    home = scoring is None or scoring.data.get("must_return_to_base", True) is not False
    return _paragraphs(text, "end", values) + \
        [fill(text["end_return" if home else "end_no_return"], values)]


def _paragraphs(text: dict, key: str, values: dict) -> list[str]:
    """The paragraphs of `key` filled; one naming a value of None is left out."""
    dropped = {"{" + k + "}" for k, v in values.items() if v is None}
    return [fill(p, values) for p in text.get(key, [])
            if not any(d in p for d in dropped)]


def cave_rules(game: Game, lang: str, notes: Footnotes) -> dict:
    texts = Texts(game, lang)
    ctx = _cave_common(game, lang, notes)
    text, values = ctx["text"], ctx["values"]
    boards = [{"players": "–".join(str(p) for p in (b.data["players"][0], b.data["players"][-1]))
               if len(b.data["players"]) > 1 else str(b.data["players"][0]),
               "mark": notes.mark(b, lang), "cells": len(b.data["cells"]),
               "discards": " / ".join(str(n) for n in b.data["discard_per_stack"])}
              for b in sorted(game.of_kind("start_board"), key=lambda b: b.data["players"][0])]
    actions = sorted(game.of_kind("action"), key=lambda e: (e.data.get("order", 999), e.id))
    action_rows = []
    for a in actions:
        site = site_at(a, ("effect",))
        action_rows.append({"name": name_of(a, lang), "mark": notes.mark(a, lang),
                            "ap": ap_cost(site, game, lang) or "0",
                            "effect": texts.site(site) if site else ""})
    tiles = []
    for kind in _tile_order(game):
        data = kind.data
        sections = _effect_sections(game, kind, lang, texts, ctx["lab"])
        flags = []
        if data.get("is_base"):
            flags.append(ctx["lab"]["is_base"])
        flags.append(ctx["lab"]["discover_from" if data.get("discover_from")
                              else "no_discover_from"])
        if data.get("rope_edges"):
            flags.append(ctx["lab"]["rope_edges"])
        if data.get("match_edges") is False:
            flags.append(ctx["lab"]["no_match_edges"])
        tiles.append({"name": name_of(kind, lang), "mark": notes.mark(kind, lang),
                      "ref": str(data.get("ref", "")), "sections": sections,
                      "flags": flags})
    equipment = []
    for item in game.of_kind("equipment"):
        d = item.data
        equipment.append({"name": name_of(item, lang), "mark": notes.mark(item, lang),
                          "slots": d.get("slots", ""), "uses": d.get("uses", ""),
                          "kept": after_use_text(game, item, lang),
                          "limit": d.get("per_team_limit", ""), "supply": d.get("supply", ""),
                          # an item a team uses as an action (a pack's lantern): what it does
                          "use": texts.site(use) if (use := site_at(item, ("use",))) else "",
                          "use_ap": ap_cost(use, game, lang) if use else ""})
    rule_rows = [{"name": name_of(r, lang), "mark": notes.mark(r, lang),
                  "value": rule_value_text(game, r, lang, _value_text(r.data.get("value"), game, lang, ctx["lab"])),
                  "ref": str(r.data.get("ref", ""))} for r in _rules_shown(game, ctx["scoring"], notes)]
    examples = []
    for ex in text.get("examples", []):
        sdata = ctx["scoring"].data if ctx["scoring"] else {}
        awards = majority_awards(dict(ex["counts"]), ctx["points"],
                                 sdata.get("tie_rule", "drop_one_rank"),
                                 bool(sdata.get("zero_scores_majority", False)))
        examples.append({"label": ex["label"], "ref": ex.get("ref", ""),
                         "category": game.vocab.text_of(ex["category"], lang, "token"),
                         "rows": [{"team": t, "count": c, "bonus": awards[t]}
                                  for t, c in ex["counts"].items()]})
    return {**ctx, "actions": action_rows, "tiles": tiles, "equipment": equipment,
            "setup": _paragraphs(text, "setup", values), "boards": boards,
            "rule_rows": rule_rows, "examples": examples,
            "any_tile": [texts.keyword(k) for k in sorted(game.vocab.keywords)
                         if not game.vocab.keywords[k].params],
            "turn": _paragraphs(text, "turn", values),
            "depth": _paragraphs(text, "depth", values),
            "consumables": _paragraphs(text, "consumables", values),
            "equipment_text": _paragraphs(text, "equipment", values),
            "camp": _paragraphs(text, "camp", values),
            "end": _end(text, values, ctx["scoring"]),
            "scoring_text": _paragraphs(text, "scoring", values),
            "token_points": _token_rows(game, lang, notes, texts, earned=False)}


def _effect_sections(game: Game, entity: Entity, lang: str, texts: Texts,
                     lab: dict) -> list[dict]:
    """Every effect field of an entity, in the order its kind declares them: a list of
    options (`enter`, `actions`...) or a single effect (`on_discover`). A field without a
    label in labels.yaml is shown by its name."""
    fields = game.vocab.kinds.get(entity.kind, {}).get("fields", {})
    sections = []
    for field_name, spec in fields.items():
        value = entity.data.get(field_name)
        if value is None or not isinstance(spec, dict):
            continue
        options = []
        item_props = (spec.get("items") or {}).get("properties", {}) \
            if spec.get("type") == "array" else {}
        if "effect" in item_props and isinstance(value, list):
            for i, option in enumerate(value):
                site = site_at(entity, (field_name, i, "effect"))
                options.append({"name": text_of(option.get("name"), lang),
                                "ap": ap_cost(site, game, lang),
                                "effect": texts.site(site) if site else ""})
        elif spec.get("x-tomecraft") == "effect":
            site = site_at(entity, (field_name,))
            options.append({"name": "", "ap": ap_cost(site, game, lang),
                            "effect": texts.site(site) if site else ""})
        if options:
            sections.append({"label": lab.get(field_name, field_name.replace("_", " ")),
                             "options": options})
    return sections


def _rules_shown(game: Game, scoring, notes: Footnotes) -> list[Entity]:
    """The rules the edition shows (sheet_rules), less one documenting a choice the scoring
    table makes that the loaded scoring no longer makes (`scoring_decides` in the sheet file):
    a pack's scoring giving teams with no token a majority bonus must not be footnoted "they
    get 0" (D-17)."""
    decides = _yaml_file(f"{game.id}.yaml").get("common", {}).get("scoring_decides", {})
    sdata = scoring.data if scoring else {}
    return [r for r in sheet_rules(game, notes)
            if r.id not in decides or decides[r.id] not in sdata
            or sdata[decides[r.id]] == r.data.get("value")]


def _value_text(value, game: Game, lang: str, lab: dict) -> str:
    if isinstance(value, bool):
        return lab["flag_yes"] if value else lab["flag_no"]
    if isinstance(value, str) and value in game.vocab.names:
        return game.vocab.text_of(value, lang)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


def _tile_order(game: Game) -> list[Entity]:
    """Tile kinds in the order their file lists them (the designer's order)."""
    kinds = list(game.entities.get("tile_kind", {}).values())
    return sorted(kinds, key=lambda e: (e.display, e.path))


def _token_rows(game: Game, lang: str, notes: Footnotes, texts: Texts,
                earned: bool) -> list[dict]:
    rows = []
    for token in sorted(game.of_kind("token"),
                        key=lambda t: (t.data.get("depth", 0), -1 if t.data.get("category")
                                       else 1, str(t.data.get("category", "")),
                                       t.data.get("points", 0), t.id)):
        d = token.data
        category = d.get("category")
        row = {"id": token.id, "name": name_of(token, lang), "mark": notes.mark(token, lang),
               "points": d.get("points", ""), "depth": d.get("depth", ""),
               "category": game.vocab.text_of(category, lang, "category") if category else "",
               "supply": d.get("supply", ""), "after_use": after_use_text(game, token, lang)}
        if earned:
            row["earned"] = _earned(game, token, lang, texts, notes)
        rows.append(row)
    return rows


def _earned(game: Game, token: Entity, lang: str, texts: Texts, notes: Footnotes) -> list[dict]:
    """Every effect that mentions the token (by id or by its term), rendered."""
    names = [token.id] + ([str(token.data["term"])] if token.data.get("term")
                          and token.data["term"] != token.id else [])
    by_verb = _yaml_file(f"{game.id}.yaml").get("common", {}).get("earned_by_verb", {})
    names += [verb for field_name, verb in sorted(by_verb.items()) if field_name in token.data]
    seen, found = set(), []
    for name in names:
        for entity, site in checks.entities_mentioning(game, name):
            key = (entity.kind, entity.id, site.path)
            if key in seen or entity is token:
                continue
            seen.add(key)
            found.append({"where": _site_label(entity, site, lang),
                          "mark": notes.mark(entity, lang),
                          "effect": texts.site(site)})
    return found


def _site_label(entity: Entity, site: EffectSite, lang: str) -> str:
    """"Water — With oxygen" for an enter option; the entity's name otherwise."""
    lab = labels(lang)
    rel = site.path[len(entity.path):]
    label = name_of(entity, lang)
    if len(rel) >= 2 and isinstance(rel[1], int):
        part = (entity.data.get(rel[0]) or [])[rel[1]]
        sub = text_of(part.get("name"), lang) if isinstance(part, dict) else ""
        head = lab.get(rel[0], rel[0])
        label += lab["path_sep"] + head + (lab["path_sep"] + sub if sub else "")
    elif rel and rel[0] != "effect":
        label += lab["path_sep"] + lab.get(rel[0], str(rel[0]))
    return label


def cave_tokens(game: Game, lang: str, notes: Footnotes) -> dict:
    texts = Texts(game, lang)
    ctx = _cave_common(game, lang, notes)
    rows = _token_rows(game, lang, notes, texts, earned=True)
    by_category = []
    for cat, cat_name in zip(ctx["categories"], ctx["category_names"]):
        members = [r["name"] for r in rows
                   if game.entities["token"][r["id"]].data.get("category") == cat]
        by_category.append({"name": cat_name, "tokens": members})
    return {**ctx, "tokens": rows, "by_category": by_category}


SHEETS = (Sheet("rules", "the_cave_rules.html.j2", "rules_title", cave_rules),
          Sheet("tokens", "the_cave_tokens.html.j2", "tokens_title", cave_tokens))
