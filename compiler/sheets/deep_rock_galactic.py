"""Deep Rock Galactic's sheets (zh and en): the monster info board in activation order, a card
per class, the weapons and throwables cheat sheet, the status reference, and a briefing for
any mission file (`tomecraft sheets --mission PATH`)."""
from __future__ import annotations

import re
from pathlib import Path

from tomecraft.compiler.model import Entity, Game
from tomecraft.dsl.render.words import pluralise
from tomecraft.compiler.sheets import (FORMATS, LANGS, Footnotes, Sheet, Texts, _yaml_file, after_use_text,
                             environment, fill, html_lang, labels, name_of, player_note, text_of,
                             sheet_title, sources_table, typeset, walk_strings, write_formats, zh_punctuation)

GAME_ID = "deep_rock_galactic"
DAMAGE = ("bullet", "armor_piercing", "fire", "explosive", "pickaxe")


def _term(game: Game, name: str, lang: str) -> str:
    return game.vocab.text_of(name, lang) if name else ""


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four"}


def die_faces(game: Game, die: Entity, lang: str) -> str:
    """A die's faces counted, in the order it first shows them, each written alike: "2 blank,
    1 scare, 3 hit, 1 two-hit" (zh "2个空白、1个阻遏惊吓、3个击中、1个2点击中", the guide's
    “2点击中”, L470), a symbol face in quotes (1 “!”). Every face was listed one by one, some
    capitalised and some not ("blank, Scare, hit, hit, hit×2, hit×2", "blank, Teeth, !")."""
    counts: dict[tuple[str, int], int] = {}
    for face in die.data.get("faces") or ():
        key = (face.get("face", ""), int(face.get("hits") or 0))
        counts[key] = counts.get(key, 0) + 1
    parts = []
    for (face, hits), count in counts.items():
        term = _term(game, face, lang)
        if not any(ch.isalnum() for ch in term) and not term.startswith(("“", '"')):
            term = f"“{term}”"
        elif lang == "en" and term[:1].isupper() and not term[1:2].isupper():
            term = term[0].lower() + term[1:]           # a face is a label, not a name
        if hits > 1:
            term = f"{hits}点{term}" if lang == "zh" else f"{_NUMBER_WORDS.get(hits, hits)}-{term}"
        parts.append(f"{count}个{term}" if lang == "zh" else f"{count} {term}")
    return ("、" if lang == "zh" else ", ").join(parts)


def _res(game: Game, data: dict, lang: str) -> str:
    res = data.get("resistances") or {}
    # the printed five in their order, then a pack's damage types as the monster lists them
    order = [k for k in DAMAGE if k in res] + [k for k in res if k not in DAMAGE]
    parts = [f"{_term(game, k, lang)} {res[k]}" for k in order if res.get(k)]
    return labels(lang, game.id)["enum_sep"].join(parts) or "—"


# A monster's flag, the value that shows the trait, and its label, in the order printed
_FLAG_TRAITS = (("rear_ignores_resistance", True, "rear"), ("blocks_line_of_sight", False, "small"),
                ("moves_toward", "monster", "toward_monster"), ("attacks", False, "no_attack"),
                ("moves_then_attacks", True, "moves_attacks"))
_LATER_FLAG_TRAITS = (("self_destructs", "self_destructs"), ("hides_when_damaged", "hides"))


def _traits(game: Game, d: dict, lang: str, lab: dict) -> list[str]:
    """What a monster's flags make it do, as clauses ("does not block line of sight",
    "explodes on its adjacent ring when it attacks or dies"): the monster board's Specials
    and its print-and-play card say the same."""
    traits = [lab[label] for flag, value, label in _FLAG_TRAITS if d.get(flag) == value]
    if d.get("destroys_on_path"):
        traits.append(fill(lab["destroys"], {"things": _destroyed(game, d["destroys_on_path"], lang)}))
    traits += [lab[label] for flag, label in _LATER_FLAG_TRAITS if d.get(flag)]
    if d.get("attack_places"):
        traits.append(fill(lab["places"], {"thing": _term(game, d["attack_places"], lang)}))
    if d.get("field_range"):
        traits.append(fill(lab["field"], {"r": d["field_range"], "n": d.get("field_reduction", 0)}))
    return traits


def card_details(game: Game, entity: Entity, lang: str) -> dict:
    """What a monster's print-and-play card adds to the numbers its spec lists: the
    resistances and the traits its flags give (an Exploder's card said nothing of its blast,
    and no card had its resistances)."""
    if entity.kind != "monster":
        return {}
    lab, d = labels(lang, game.id), entity.data
    res = _res(game, d, lang)
    traits = _traits(game, d, lang, lab)
    return {"stats": [f"{lab['resist']} {res}"] if res != "—" else [],
            "rules": [{"label": lab["traits"], "text": _clauses(traits, lang)}] if traits else [],
            "labels": {"special": lab[_special_when(d)][:1].upper() + lab[_special_when(d)][1:]},
            "said": {"bang": lambda text: _on_the_dwarf(text, lang)}}


def _special_when(d: dict) -> str:
    """When the engine runs a monster's `special`: a self-destructing monster's is its blast;
    otherwise on activation (after moving, for one that walks toward monsters)."""
    return "blast" if d.get("self_destructs") else \
        "when_activated" if d.get("moves_toward") == "none" else "after_moving"


def monsters(game: Game, lang: str, notes: Footnotes) -> dict:
    lab, texts = labels(lang, game.id), Texts(game, lang)
    rows = []
    for mon in sorted(game.of_kind("monster"), key=lambda e: e.data["order"]):
        d = mon.data
        dice = f"{d.get('attack_dice', 0)} × {_term(game, d.get('attack_die', ''), lang)}" if d.get("attack_dice") else "—"
        specials = [lab["flying"]] if d.get("flying") else []
        if d.get("stun_immune"):
            specials.append(lab["stun_immune"])
        specials += _traits(game, d, lang, lab)
        # a teeth face does 1 damage unless the monster says otherwise (game.yaml): its own
        # effect is said, as its "!" effect is
        when = {"special": _special_when(d), "on_kill": "when_killed",
                "teeth": fill(lab["each_face"], {"face": _term(game, "teeth", lang)})}
        for key in ("teeth", "special", "on_kill"):
            if d.get(key):
                text = texts.effect(mon, (key,))
                if lang != "zh" and not text[1:2].isupper():
                    text = text[:1].lower() + text[1:]
                specials.append(lab.get(when[key], when[key]) + ("：" if lang == "zh" else ": ") + text)
        size = d.get("size", 1)
        rows.append({"mark": notes.mark(mon, lang), "tag": after_use_text(game, mon, lang), "cells": [
            name_of(mon, lang), str(d["order"]), str(d["hp"]), str(d["attack_range"] or "—"),
            str(d["move"]), dice, _on_the_dwarf(texts.effect(mon, ("bang",)), lang) if d.get("bang") else "—",
            _res(game, d, lang), str(size), _clauses(specials, lang)]})
    headers = [lab["name"], lab["order"], lab["hp"], lab["range"], lab["move"], lab["dice"], lab["bang"],
               lab["resist"], lab["size"], lab["special"]]
    return {"sections": [{"title": sheet_title(lab["monsters_title"], game.vocab.name.get(lang)),
                          "headers": headers, "rows": rows}]}


def _modes(game: Game, weapon: Entity, lang: str, lab: dict, texts: Texts, notes: Footnotes) -> list[dict]:
    rows = []
    for i, mode in enumerate(weapon.data.get("modes", [])):
        name = (mode.get("name") or {}).get(lang, mode["id"])
        rows.append({"mark": notes.mark(weapon, lang) if i == 0 else None, "cells": [
            f"{name_of(weapon, lang)} · {name}", str(mode.get("actions", 1)), str(mode.get("ammo", 1)),
            str(mode.get("range", "—")),
            f"{mode.get('dice', 0)} × {_term(game, mode.get('die', ''), lang)}" if mode.get("dice") else "—",
            lab.get("assign_" + str(mode.get("assign", "sweep")), ""),
            _mode_effect(weapon, i, lang, lab, texts)]})
    if weapon.data.get("overclocked"):
        rows.append({"mark": None, "cells": [f"{name_of(weapon, lang)} · {lab['overclocked']}", "", "", "", "",
                                             lab.get("assign_" + str(weapon.data.get("overclocked_assign", "")), ""),
                                             texts.effect(weapon, ("overclocked",))]})
    return rows


# A "!" result acts on the dwarf attacked, whom the effect calls "it" (`inflict`'s target, as
# a weapon's effect calls the monster hit) and "you" (`take_damage`): "It becomes Knocked Over.
# Take 1 damage." read as the Oppressor falling over. The column says the dwarf.
_DWARF_EN = ((re.compile(r"(^|\. )It becomes "), r"\1The dwarf becomes "),
             (re.compile(r"(^|\. )Take "), r"\1The dwarf takes "),
             (re.compile(r", take "), ", the dwarf takes "))


def _on_the_dwarf(text: str, lang: str) -> str:
    if lang == "zh":
        return text.replace("使其", "使该矮人")
    for pattern, said in _DWARF_EN:
        text = pattern.sub(said, text)
    return text


def _mode_effect(weapon: Entity, i: int, lang: str, lab: dict, texts: Texts) -> str:
    """A fire mode's effect, then the limits play keeps outside the effect: Successive Attack
    only right after Burst (`after`, L750-756), Flaming Ground at most twice a round
    (`per_round`, L794). The sheet left both out, so it read as a free attack at will."""
    mode = weapon.data["modes"][i]
    parts = [texts.effect(weapon, ("modes", i, "effect"))]
    after = next((m for m in weapon.data["modes"] if m.get("id") == mode.get("after")), None)
    if after is not None:
        parts.append(fill(lab["mode_after"], {"mode": (after.get("name") or {}).get(lang, after["id"])}))
    if mode.get("per_round"):
        n = mode["per_round"]
        times = n if lang == "zh" else {1: "once", 2: "twice"}.get(n, f"{n} times")
        parts.append(fill(lab["mode_per_round"], {"n": times}))
    return ("" if lang == "zh" else " ").join(p for p in parts if p)


def _mode_headers(lab: dict) -> list[str]:
    return [lab["mode"], lab["actions"], lab["ammo_cost"], lab["range"], lab["dice"], lab["assign"], lab["effect"]]


def classes(game: Game, lang: str, notes: Footnotes) -> dict:
    lab, texts = labels(lang, game.id), Texts(game, lang)
    sections = []
    for dwarf in game.of_kind("dwarf"):
        d = dwarf.data
        notes.mark(dwarf, lang)
        equipment = lab["enum_sep"].join(f"{_term(game, k, lang)} × {v}" for k, v in sorted((d.get("equipment") or {}).items()))
        colour = lab.get(f"colour_{d.get('colour')}", d.get("colour"))
        items = [f"{lab['colour']}: {colour}", f"{lab['health']}: {d.get('health')}",
                 f"{lab['ammo']}: {d.get('primary_ammo')}", f"{lab['secondary_ammo']}: {d.get('secondary_ammo')}",
                 f"{lab['equipment']}: {equipment}"]
        for i, ab in enumerate(d.get("abilities", [])):
            items.append(f"{(ab.get('name') or {}).get(lang, ab['id'])}: {texts.effect(dwarf, ('abilities', i, 'effect'))}")
        rows = []
        for weapon in game.of_kind("weapon"):
            if weapon.data.get("dwarf") == dwarf.id:
                rows.extend(_modes(game, weapon, lang, lab, texts, notes))
        # "whole": a class is one card a player cuts out or looks up; no page break inside it
        sections.append({"title": name_of(dwarf, lang), "items": items, "headers": _mode_headers(lab),
                         "rows": rows, "whole": True})
    return {"sections": sections}


def _destroyed(game: Game, names: list[str], lang: str) -> str:
    """What a monster destroys on its path, as a list of plurals ("stalagmites, Grunts and
    walls"; zh "石笋、战士异虫和墙壁"): terrain by its vocabulary name, a monster by its own."""
    monsters = game.entities.get("monster", {})
    words = []
    for name in names:
        if name in monsters:
            text = name_of(monsters[name], lang)
            plural = pluralise(text)
        else:
            text = _term(game, name, lang)
            info = game.vocab.info(name)
            plural = getattr(info, "en_plural", "") or pluralise(text)
        words.append(text if lang == "zh" else plural)
    if len(words) < 2:
        return "".join(words)
    joined, last = ("、" if lang == "zh" else ", ").join(words[:-1]), words[-1]
    return f"{joined}和{last}" if lang == "zh" else f"{joined} and {last}"


def _clauses(items: list[str], lang: str) -> str:
    """Labels and rendered sentences as one sentence: `A; b; c.` (zh `a；b；c。`)."""
    parts = [t.rstrip("。.") for t in items if t]
    if not parts:
        return ""
    if lang == "zh":
        return "；".join(parts) + "。"
    # the sentence opens in upper case (the labels are lower case: "does not block line of
    # sight"); a clause after the first goes on in lower case, unless it opens with a name
    # ("N", "BOSCO")
    parts = [parts[0][:1].upper() + parts[0][1:]] + [
        p if p[1:2].isupper() or p[1:2] in (" ", "") else p[:1].lower() + p[1:] for p in parts[1:]]
    return "; ".join(parts) + "."


def weapons(game: Game, lang: str, notes: Footnotes) -> dict:
    lab, texts = labels(lang, game.id), Texts(game, lang)
    secondary, drone = ([r for w in game.of_kind("weapon") if w.data.get("slot") == slot
                         for r in _modes(game, w, lang, lab, texts, notes)] for slot in ("secondary", "drone"))
    throws = [{"mark": notes.mark(t, lang), "tag": after_use_text(game, t, lang), "cells": [
        name_of(t, lang), str(t.data.get("range", "—")), str(t.data.get("area", 0)),
        f"{t.data.get('dice')} × {_term(game, t.data.get('die', ''), lang)}" if t.data.get("dice") else "—",
        texts.effect(t, ("effect",))]} for t in game.of_kind("throwable")]
    cards = [{"mark": notes.mark(c, lang), "tag": after_use_text(game, c, lang), "cells": [name_of(c, lang), str(c.data.get("count", 1)),
                                                    texts.effect(c, ("effect",))]}
             for c in game.of_kind("rock_and_stone_card")]
    upgrades = [{"mark": notes.mark(u, lang), "tag": after_use_text(game, u, lang), "cells": [
        name_of(u, lang), lab["enum_sep"].join(lab[f"slot_{s}"] for s in u.data["fits"]),
        f"+{u.data['ammo_cap']}" if u.data.get("ammo_cap") else "—",
        texts.effect(u, ("effect",)) if u.data.get("effect") else "—"]} for u in game.of_kind("weapon_upgrade")]
    dice = [{"mark": notes.mark(d, lang), "cells": [name_of(d, lang), die_faces(game, d, lang)]}
            for d in game.of_kind("die")]
    return {"sections": [
        {"title": lab["secondary"], "headers": _mode_headers(lab), "rows": secondary},
        {"title": lab["drone"], "headers": _mode_headers(lab), "rows": drone},
        {"title": lab["throwables"], "headers": [lab["name"], lab["range"], lab["area"], lab["dice"], lab["effect"]], "rows": throws},
        {"title": lab["rock_and_stone"], "headers": [lab["name"], lab["count"], lab["effect"]], "rows": cards},
        {"title": lab["upgrades"], "headers": [lab["name"], lab["fits"], lab["ammo_cap"], lab["effect"]],
         "rows": upgrades},
        {"title": lab["dice_title"], "headers": [lab["die"], lab["faces"]], "rows": dice}]}


def statuses(game: Game, lang: str, notes: Footnotes) -> dict:
    lab = labels(lang, game.id)
    rows = []
    for status in ("stunned", "webbed", "knocked_over", "unconscious", "frozen", "hidden"):
        causes = [name_of(m, lang) for m in game.of_kind("monster")
                  if status in str(m.data.get("bang", ""))]
        causes += [name_of(w, lang) for w in game.of_kind("weapon")
                   if status in str(w.data.get("modes", "")) + str(w.data.get("overclocked", ""))]
        causes += [name_of(t, lang) for t in game.of_kind("throwable") if status in str(t.data.get("effect", ""))]
        rows.append({"mark": None, "cells": [_term(game, status, lang), lab["enum_sep"].join(causes) or "—", lab["st_" + status]]})
    for status in _pack_statuses(game):      # play gives a pack's status no rule of its own
        word = re.compile(rf"\b{re.escape(status)}\b")
        causes = [name_of(e, lang) for e in game.all() if e.kind != "mission"
                  and any(word.search(site.text) for site in e.effects)]
        rows.append({"mark": None, "cells": [_term(game, status, lang), lab["enum_sep"].join(causes) or "—",
                                             lab["st_pack"]]})
    return {"sections": [{"title": lab["status"], "headers": [lab["status"], lab["caused_by"], lab["effect"]], "rows": rows}]}


def _pack_statuses(game: Game) -> list[str]:
    """The statuses the packs declare (`vocabulary: statuses:`), in their order."""
    found: list[str] = []
    for doc in game.documents:
        vocabulary = doc.data.get("vocabulary") if isinstance(doc.data, dict) else None
        if doc.path.name == "pack.yaml" and isinstance(vocabulary, dict):
            found += [st for st in vocabulary.get("statuses") or {} if st not in found]
    return found


def rules(game: Game, lang: str, notes: Footnotes) -> dict:
    """The rules sheet: turn sequence, actions, conditions, events and swarms, Hazard levels,
    minerals and pickups, the end of a mission, solo play (prose in deep_rock_galactic.yaml;
    numbers of the tables from content)."""
    text = dict(_yaml_file(f"{GAME_ID}.yaml")["rules"][lang])
    texts, lab = Texts(game, lang), labels(lang, game)
    marks = _start_marks(game)
    hazards = [{"mark": notes.mark(h, lang), "cells": [
        str(h.data["level"]), fill(text["start_square"], {"n": marks[h.data["threat_start"]]}),
        str(h.data.get("extra_grunts_per_exit") or text["none"]),
        text["bang_yes"] if h.data.get("grunt_bang_damage") else text["none"]]}
        for h in sorted(game.of_kind("hazard_level"), key=lambda h: h.data["level"])]
    minerals = []
    for mineral in game.of_kind("mineral"):
        d = mineral.data
        uses = [text["objective"]] if d.get("objective") else []
        if d.get("carry_limit"):
            uses.append(fill(text["carry"], {"n": d["carry_limit"]}))
        uses.append(text.get(f"use_{mineral.id}", ""))   # Gold and Nitra pay for things
        minerals.append({"mark": notes.mark(mineral, lang), "cells": [
            name_of(mineral, lang), _sentence(uses, lang) or text["none"],
            after_use_text(game, mineral, lang)]})
    pickups = []
    for pickup in game.of_kind("pickup"):
        d = pickup.data
        how = [text["needs_pickaxe"] if d.get("needs_pickaxe") else text["walk_over"]]
        if d.get("mission_item"):
            how.append(text["mission_item"])
        effect = texts.effect(pickup, ("effect",)) if d.get("effect") else ""
        pickups.append({"mark": notes.mark(pickup, lang), "cells": [
            name_of(pickup, lang), _sentence(how, lang), effect or text["none"],
            after_use_text(game, pickup, lang)]})
    sections = [
        {"title": text["turn_title"], "items": text["turn"]},
        {"title": text["actions_title"], "note": text["actions_intro"],
         "items": [fill(item, {"pickaxe_dice": _pickaxe_dice(game, text)})
                   for item in text["actions"]]},
        {"title": text["statuses_title"], "items": text["statuses"]},
        {"title": text["events_title"], "items": text["events"]},
        {"title": text["hazard_title"], "note": text["hazard_intro"],
         "headers": [text["level"], text["start"], text["extra"], text["bang"]], "rows": hazards},
        {"title": text["minerals_title"], "note": text["minerals_intro"],
         "headers": [text["mineral"], text["use"], lab["after_use"]], "rows": minerals},
        {"title": "", "headers": [text["pickup"], lab["how"], lab["effect"], lab["after_use"]],
         "rows": pickups},
        {"title": text["end_title"], "items": text["end"]},
        {"title": text["solo_title"],
         "items": [fill(item, {"bosco_guns": _bosco_guns(game, text, lang)}) for item in text["solo"]]},
    ]
    return {"sections": sections}


def _pickaxe_dice(game: Game, text: dict) -> str:
    """The dice a Pickaxe action rolls, as the engine reads them (rule g13_pickaxe_dice, which
    a pack may change)."""
    rule = game.entities.get("rule", {}).get("g13_pickaxe_dice")
    count = int(rule.data["value"]) if rule is not None else 1
    return text["pickaxe_die_one"] if count == 1 else fill(text["pickaxe_dice"], {"n": count})


def _bosco_guns(game: Game, text: dict, lang: str) -> str:
    """BOSCO's guns as its `drone` weapon's modes give them (actions, range, dice), which the
    solo paragraph lists after its pickaxe: ", fire its machine gun (...) or its rocket
    launcher (...)" (zh "、用机枪（…）、用火箭发射器（…）"); "" when it has none."""
    guns = []
    for weapon in game.of_kind("weapon"):
        if weapon.data.get("slot") != "drone":
            continue
        for mode in weapon.data.get("modes") or []:
            name = text_of(mode.get("name"), lang)
            die = str(mode.get("die", ""))
            dice, actions = mode.get("dice", 1), mode.get("actions", 1)
            die_name = game.vocab.text_of(die, lang, "die")
            if lang == "en":
                name = " ".join(w.lower() if w.istitle() else w for w in name.split())
                die_name = die_name if dice == 1 else pluralise(die_name)
                actions = f"{actions} action" + ("" if actions == 1 else "s")
            measure = getattr(game.vocab.names.get(die, {}).get("die"), "zh_measure", "") or "颗"
            guns.append(fill(text["bosco_gun"], {"name": name, "actions": actions,
                                                 "range": mode.get("range", ""), "dice": dice,
                                                 "die": die_name, "measure": measure}))
    if not guns:
        return ""
    if lang == "zh":
        return "、" + "、".join(guns)
    return ", fire " + (", ".join(guns[:-1]) + " or " + guns[-1] if len(guns) > 1 else guns[0])


def _start_marks(game: Game) -> dict[int, str]:
    """What the board prints on each start square of the Swarm Threat track: the Hazard levels
    that start there ("1", "2", "3-5"; L165-167), by the square's index."""
    levels: dict[int, list[int]] = {}
    for h in game.of_kind("hazard_level"):
        levels.setdefault(h.data["threat_start"], []).append(h.data["level"])
    return {start: f"{min(ls)}-{max(ls)}" if len(ls) > 1 else str(ls[0])
            for start, ls in levels.items()}


def _sentence(parts: list[str], lang: str) -> str:
    return ("，" if lang == "zh" else "; ").join(p for p in parts if p)


SHEETS = (Sheet("rules", "deep_rock_galactic_sheet.html.j2", "rules_title", rules),
          Sheet("monsters", "deep_rock_galactic_sheet.html.j2", "monsters_title", monsters),
          Sheet("classes", "deep_rock_galactic_sheet.html.j2", "classes_title", classes),
          Sheet("weapons", "deep_rock_galactic_sheet.html.j2", "weapons_title", weapons),
          Sheet("statuses", "deep_rock_galactic_sheet.html.j2", "statuses_title", statuses))


# --- the mission briefing ---------------------------------------------------------------------

CELL = {"#": "wall", "*": "diamond", ".": "cave", "^": "stone", "?": "flare", "o": "pit", "h": "hidden", "x": "off"}


def briefing_context(game: Game, mission: dict, lang: str) -> dict:
    from tomecraft.dsl.parser import EffectSyntaxError, parse
    from tomecraft.dsl.render import render
    lab = labels(lang, game.id)
    obj = mission["objective"]
    monsters_by_id = game.entities.get("monster", {})

    def entity_name(kind: str, key: str) -> str:
        ent = game.entities.get(kind, {}).get(key)
        return name_of(ent, lang) if ent is not None else _term(game, key, lang)
    if obj["type"] == "eliminate":     # "Eliminate the Praetorian", not "Eliminate: Praetorian"
        goal = fill(lab["eliminate"], {"creature": entity_name("monster", obj.get("creature", ""))})
    else:
        goal = fill(lab["collect"], {"targets": lab["enum_sep"].join(
            f"{entity_name('mineral', k) if k in game.entities.get('mineral', {}) else entity_name('pickup', k)} × {v}"
            for k, v in obj.get("targets", {}).items())})
    if mission.get("drones"):     # the pod returns only once every drone is recovered too
        goal += ("；" if lang == "zh" else "; ") + fill(lab["recover_drones"], {"n": len(mission["drones"])})
    event = mission.get("mission_event", "")
    try:
        event_text = render(parse(event), game.vocab, lang) if event else "—"
    except EffectSyntaxError:
        event_text = event
    def listed(kind: str, counts: dict) -> str:
        # what the set-up takes: a count of 0 takes none ("platform × 0" was printed)
        return lab["enum_sep"].join(f"{entity_name(kind, k) if kind else _term(game, k, lang)} × {v}"
                         for k, v in counts.items() if v) or "—"
    items = [f"{lab['objective']}: {goal}", f"{lab['hazard']}: {mission.get('hazard', '—')}",
             f"{lab['minerals']}: " + listed("mineral", mission["minerals"]),
             f"{lab['pickups']}: " + listed("pickup", mission["pickups"]),
             f"{lab['removed']}: " + (lab["enum_sep"].join(entity_name("event_card", c) for c in mission.get("remove_cards", [])) or "—"),
             f"{lab['mission_event']}: {event_text}"]
    if mission.get("hidden_monsters"):
        items.append(f"{lab['hidden_monsters']}: " + lab["enum_sep"].join(
            f"{name_of(monsters_by_id[e['creature']], lang) if e['creature'] in monsters_by_id else e['creature']} × {e['count']}"
            for e in mission["hidden_monsters"]))
    if any((mission.get("tokens") or {}).values()):
        items.append(f"{lab['tokens']}: " + listed("", mission["tokens"]))
    grid, legend, hex_pt = briefing_map(game, mission, lang, lab)
    name = (mission.get("name") or {}).get(lang, mission.get("id", ""))
    if lang == "zh":    # full-width punctuation, as on every other zh sheet (not the map's
        items = walk_strings(items, zh_punctuation)    # legend: its "?" is a map symbol)
    return {"sections": [{"title": name, "items": items},
                         {"title": lab["map"], "hexmap": grid, "hex_pt": hex_pt, "legend": legend,
                          "swatches": _swatches(mission, lab)}],
            "mission_notes": _mission_notes(mission, lang)}


def _swatches(mission: dict, lab: dict) -> list[dict]:
    """The map's plain colours, which no letter marks: a wall, a pit and a cave space (the
    legend named only the marked spaces, so a dark hex and a black one went unexplained)."""
    from tomecraft.runtime.engines.deep_rock_galactic.mission_map import cells_of
    present = set(cells_of(mission["map"]).values())
    return [{"cls": CELL[ch], "label": lab[f"terrain_{CELL[ch]}"]} for ch in ("#", "o", ".") if ch in present]


def _mission_notes(mission: dict, lang: str) -> list[str]:
    """The mission's notes as a player reads them: a mission file's notes are plain strings,
    English, so the Chinese briefing leaves them out (as every player sheet does); no field
    names ("hazard: ...") and no developer references."""
    notes = [mission.get("note")] if mission.get("source") == "approximation" else []
    notes += [note for _field, note in sorted((mission.get("approximations") or {}).items())]
    lines = []
    for note in notes:
        text = player_note(str(note.get(lang) or "") if isinstance(note, dict) else
                           str(note or "") if lang == "en" else "")
        if text and text not in lines:
            lines.append(text)
    return lines


# The map fits one A4 landscape page under the mission's list: at most this much room (pt).
MAP_WIDTH_PT, MAP_HEIGHT_PT, MAX_HEX_PT, MIN_HEX_PT = 720.0, 200.0, 15.0, 2.0


def briefing_map(game: Game, mission: dict, lang: str, lab: dict) -> tuple[list, list[str], float]:
    """The hex map as rows of cells (read by the one map reader the checker and the engine
    use), the legend of what it shows, and the hex size that keeps it on one page."""
    from tomecraft.runtime.engines.deep_rock_galactic import mission_play
    from tomecraft.runtime.engines.deep_rock_galactic.mission_map import cells_of
    cells = cells_of(mission["map"])
    marks: dict[tuple, tuple[str, str]] = {}
    legend: list[str] = []

    def mark(hexes, cls: str, text: str, label: str) -> None:
        hexes = [tuple(h) for h in hexes]
        if hexes:
            legend.append(f"{text} = {label}")
        for h in hexes:
            marks[h] = (cls, text)
    mark(mission.get("drop_pod", []), "pod", "P", lab["pod"])
    for e in mission.get("tunnel_exits", []):
        marks[tuple(e["at"])] = ("exit", str(e["exit"]))
    if mission.get("tunnel_exits"):
        legend.append(f"{'/'.join(str(e['exit']) for e in mission['tunnel_exits'])} = {lab['exits']}")
    mark([mission["mine_head"]] if mission.get("mine_head") else [], "minehead", "M", lab["mine_head"])
    mark(mission.get("stalagmites", []), "stone", "▲", lab["stalagmites"])
    mark(mission.get("drones", []), "drone", "!", lab["drones"])
    monster = game.entities.get("monster", {}).get(mission["objective"].get("creature"))
    size = (monster.data.get("size") or 1) if monster is not None else 1
    start = mission_play.target_start(cells, mission, size)   # where the engine places it too
    if start is not None:
        shown = name_of(monster, lang) if monster is not None else mission["objective"]["creature"]
        mark([start], "target", _unused_letter(shown if lang == "en" else "T", marks),
             fill(lab["target_start"], {"creature": shown}))
    minerals = game.entities.get("mineral", {})
    for name in sorted({e["mineral"] for e in mission.get("mineral_spaces", [])}):
        shown = name_of(minerals[name], lang) if name in minerals else name
        mark([e["at"] for e in mission["mineral_spaces"] if e["mineral"] == name],
             "fixed", _unused_letter(shown, marks), fill(lab["fixed_mineral"], {"mineral": shown}))
    symbols = {"*": ("◆", "terrain_diamond"), "?": ("?", "terrain_flare"), "^": ("·", "terrain_stone"),
               "h": ("h", "terrain_hidden"), "o": ("", "terrain_pit")}
    for ch, (text, key) in symbols.items():
        if ch in cells.values() and text:
            legend.append(f"{text} = {lab[key]}")
    rows = 1 + max((r for r, _ in cells), default=0)
    cols = 1 + max((c for _, c in cells), default=0)
    grid = [[{"cls": marks.get((r, c), (CELL.get(cells.get((r, c), "x"), "off"), ""))[0],
              "text": marks.get((r, c), ("", symbols.get(cells.get((r, c), "x"), ("", ""))[0]))[1],
              "title": f"{r},{c}"} for c in range(cols)] for r in range(rows)]
    hex_pt = max(MIN_HEX_PT, min(MAX_HEX_PT, MAP_WIDTH_PT / (cols + 0.5), MAP_HEIGHT_PT / rows))
    return grid, legend, round(hex_pt, 1)


def _unused_letter(shown: str, marks: dict) -> str:
    """The mark of a fixed mineral: its initial, or its first two letters when the initial
    already means something on this map (Morkite's `M` beside the Mine Head's `M`)."""
    used = {text for _, text in marks.values()}
    initial = shown[:1].upper()
    return initial if initial not in used else shown[:1].upper() + shown[1:2].lower()


def write_briefing(game: Game, mission: dict, langs, formats, out: Path, progress=None) -> list[Path]:
    written = []
    for lang in langs:
        lab = labels(lang, game.id)
        ctx = briefing_context(game, mission, lang)
        game_name = game.vocab.name.get(lang)
        footnotes = [{"n": 1, "name": (mission.get("name") or {}).get(lang, ""), "lines": ctx["mission_notes"]}] \
            if ctx["mission_notes"] else []
        ctx.update({"lang": lang, "html_lang": html_lang(lang, game.id), "game_name": game_name,
                    "title": sheet_title(lab["briefing_title"], game_name), "lab": lab,
                    "footnotes": footnotes, "sources": None})   # the briefing names no entity sources
        html = typeset(environment().get_template("deep_rock_galactic_sheet.html.j2").render(ctx))
        stem = Path(out) / GAME_ID / f"briefing_{mission.get('id', 'mission')}.{lang}"
        written += write_formats(html, stem, formats, progress)
    return written


def briefing_cli(args) -> int:
    """`tomecraft sheets --mission PATH`: check the mission file, then write its briefing."""
    from tomecraft.compiler import diagnostics as dg, missions, pipeline
    from tomecraft.compiler.console import UsageError, progress
    path = Path(args.mission)
    if not path.is_file():
        raise UsageError(f"no such file: {args.mission}")
    reporter = dg.Reporter()
    packs = [Path(p) for p in getattr(args, "pack", None) or []]   # a pack's creatures, as for check and sim
    mission = missions.load_mission(path, reporter, packs)
    if mission is None:
        print(dg.format_text(reporter))
        progress("briefing not written: fix the errors above")
        return 1
    game = pipeline.compile_game(pipeline.content_root() / GAME_ID, packs, dg.Reporter())
    langs = list(dict.fromkeys(args.lang or LANGS))
    formats = list(dict.fromkeys(args.format or FORMATS))
    write_briefing(game, mission, langs, formats, Path(args.out), progress)
    return 0
