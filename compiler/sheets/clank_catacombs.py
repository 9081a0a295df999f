"""Clank! Catacombs' sheets: a rules reference, a token cheat sheet (标记速查表) and a card
list, in zh (Simplified, as the rulebook) and en. Every effect text is rendered from the
effect language; every number comes from the content (rules.yaml and the entities)."""
from __future__ import annotations

from tomecraft.compiler.model import Entity, Game
from tomecraft.dsl import nodes as n
from tomecraft.runtime.engines.clank_catacombs.rules import leaves_to, token_leaves_to
from tomecraft.compiler.sheets import (Footnotes, Sheet, Texts, _yaml_file, after_use_text, count_en, fill, name_of,
                             rule_value_text, sheet_rules, site_at)

GAME = "clank_catacombs"


def after_use_default(entity: Entity) -> str | None:
    """Where the engine puts a card left without `after_use` (rules.leaves_to: a monster or
    device to the dungeon discard pile, L300, L310); None for the kind's own default."""
    d = entity.data
    if entity.kind == "token":      # a used token goes back to the box (rules.token_leaves_to)
        return token_leaves_to(d.get("use"))
    if entity.kind != "card":
        return None
    return leaves_to(d.get("card_type"), d.get("defeat_cost"), d.get("never_discarded"))


def _own(lang: str) -> dict:
    return dict(_yaml_file(f"{GAME}.yaml")[lang])


def _rule(game: Game, rule_id: str, default=None):
    entity = game.entities.get("rule", {}).get(rule_id)
    return entity.data.get("value", default) if entity is not None else default


def _player_cubes(game: Game) -> int:
    """Each player's cubes, as setup deals them (the player_cubes component's per_player)."""
    entity = game.entities.get("component", {}).get("player_cubes")
    return entity.data.get("per_player", 30) if entity is not None else 30


def _effect(game: Game, texts: Texts, entity: Entity, field_name: str) -> str:
    site = site_at(entity, (field_name,))
    if site is None or not entity.data.get(field_name):
        return ""
    # the row's "Passive" label already says the effect lasts
    if field_name == "passive":
        return texts.passive(site)
    return texts.site(site, effect_lasts(entity.kind, field_name))


def effect_lasts(kind: str, field_name: str) -> str:
    """The scope the engine ends a field's triggers with ("turn": a card's `on defeat` heard
    only in the turn it was played), which its text then says."""
    from tomecraft.compiler.contract import load
    use = (load("clank_catacombs").kinds.get(kind) or {}).get(field_name)
    return getattr(use, "lasts", "")


def _common(game: Game, lang: str) -> dict:
    own = _own(lang)
    track = _rule(game, "rage_track", [])
    values = {
        "hand": _rule(game, "hand_size", 5), "row": _rule(game, "row_size", 6),
        "lockpicks": _rule(game, "start_lockpicks", 3), "price": _rule(game, "market_price", 7),
        "coupon": _rule(game, "coupon_discount", 5), "health": _rule(game, "health", 10),
        "initial": "/".join(str(v) for v in _rule(game, "initial_clank", [])),
        "track": "/".join(str(v) for v in track), "out": _rule(game, "out_draw", 4),
        "out2": _rule(game, "out_draw_two_players", 6),
        "safe": _rule(game, "safe_tiles_used", 4),
        "cubes": _player_cubes(game), "limit": _rule(game, "treasure_limit", 1),
    }
    # token values the scoring line and the escape state (a pack may replace the tokens)
    tokens = game.entities.get("token", {})
    for key, token_id, field_name, default in (("mastery", "mastery", "points", 20),
                                                ("idol", "monkey_idol", "points", 5),
                                                ("greater", "greater_fortune", "value", 5),
                                                ("small", "small_fortune", "value", 2)):
        token = tokens.get(token_id)
        values[key] = token.data.get(field_name, default) if token else default
    values.update(_setup_counts(game, lang))
    return {"own": own, "values": values, "game_title": own["game"]}


def _setup_counts(game: Game, lang: str) -> dict:
    """The lockpicks the chest, tome and cell rooms pay (a pack's room may ask more). The tile
    and starting-deck counts the set-up states are the box's, which check holds a pack to."""
    en = lang == "en"
    values = {}
    locks = [(name_of(r, lang), _pays(r, "lockpick")) for r in game.of_kind("room")
             if r.data.get("room_type") in ("chest", "tome", "cell")]
    amounts = {n for _, n in locks if n is not None}
    if len(amounts) == 1:
        n = amounts.pop()
        values["unlock"] = count_en(n, "lockpick token") if en else f"{n}个开锁标记"
    else:      # the rooms differ: each its own
        values["unlock"] = ("lockpick tokens (" if en else "开锁标记（") + \
            ("; " if en else "；").join(f"{name} {n}" for name, n in locks if n is not None) + \
            (")" if en else "）")
    return values


def _pays(entity: Entity, resource: str) -> int | None:
    """The constant amount of `resource` an entity's action pays (`pay lockpick 1`)."""
    site = site_at(entity, ("action",))
    if site is None or site.ast is None:
        return None
    for node in n.walk(site.ast):
        if isinstance(node, n.Call) and node.verb == "pay" and len(node.args) >= 2 \
                and isinstance(node.args[0], n.Name) and node.args[0].parts == (resource,) \
                and isinstance(node.args[1], n.Num):
            return node.args[1].value
    return None


def _paras(own: dict, key: str, values: dict) -> list[str]:
    return [fill(p, values) for p in own.get(key, [])]


def rules_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    texts = Texts(game, lang)
    ctx = _common(game, lang)
    own, values = ctx["own"], ctx["values"]
    icons = [{"name": name_of(i, lang), "mark": notes.mark(i, lang),
              "effect": _effect(game, texts, i, "cross"), "ref": i.data.get("ref", "")}
             for i in game.of_kind("tunnel_icon")]
    rooms = []
    for r in game.of_kind("room"):
        parts = []
        for field_name in ("on_reveal", "on_enter", "action"):
            text = _effect(game, texts, r, field_name)
            if text:
                parts.append({"label": own["fields"][field_name], "text": text})
        flags = []
        if r.data.get("reward"):
            flags.append(own["reward_flag"])
        if r.data.get("once_per_game"):
            flags.append(own["once_flag"])
        if r.data.get("spaces"):
            flags.append(fill(own["spaces_flag"], {"n": r.data["spaces"]}))
        rooms.append({"name": name_of(r, lang), "mark": notes.mark(r, lang), "parts": parts,
                      "flags": flags, "ref": r.data.get("ref", "")})
    rules = [{"name": name_of(r, lang), "mark": notes.mark(r, lang),
              "value": rule_value_text(game, r, lang, _value(r.data.get("value"))), "ref": r.data.get("ref", "")}
             for r in sheet_rules(game, notes)]
    keys = ["setup", "turn", "actions", "moving", "dragon", "end", "scoring"]
    party = _party_values(game, lang)
    if party:            # the 5-6 player mode's own rules (墓穴派对, L643-673) after the set-up
        keys.insert(1, "party")
        values = {**values, **party}
    return {**ctx, "icons": icons, "rooms": rooms, "rule_rows": rules,
            "sections": [{"title": own[f"{k}_title"], "items": _paras(own, k, values)} for k in keys]}


def _party_values(game: Game, lang: str) -> dict:
    """The numbers of the 5-6 player mode, when a pack allows more than 4 players: the most
    players and the values of the treasures the pack adds (the sheet of the Tomb Party pack
    said nothing of either)."""
    most = _rule(game, "max_players", 4)
    if not isinstance(most, int) or most <= 4:
        return {}
    added = sorted(t.data.get("value", 0) for t in game.of_kind("token")
                   if t.pack != game.id and t.data.get("token_type") == "treasure")
    words = [str(v) for v in added]
    if lang == "zh" or len(words) < 2:
        treasures = "、".join(words)
    else:
        treasures = ", ".join(words[:-1]) + " and " + words[-1]
    return {"max_players": most, "party_treasures": treasures or "—",
            **_signpost(game, lang, most)}


ORDINALS_ZH = "一二三四五六七八九十"


def _signpost(game: Game, lang: str, most: int) -> dict:
    """A signpost room's spaces (its `spaces`), and the arrivals past them that place no cube
    ("a 5th or 6th player"; none when the spaces seat every player)."""
    rooms = [r for r in game.of_kind("room") if r.data.get("room_type") == "signpost"]
    spaces = int(rooms[0].data.get("spaces") or 0) if rooms else 0
    later = list(range(spaces + 1, most + 1))
    if lang == "en":
        th = lambda k: f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"
        said = ", ".join(th(k) for k in later[:-1]) + (" or " if len(later) > 1 else "") + \
            (th(later[-1]) if later else "")
        late = f": a {said} player to arrive places no cube there" if later else ""
    else:
        word = lambda k: ORDINALS_ZH[k - 1] if k <= 10 else str(k)
        late = ("：第" + "、".join(word(k) for k in later) + "名抵达的玩家不能再放方块") \
            if later else ""
    return {"signpost_spaces": count_en(spaces, "space") if lang == "en" else spaces,
            "signpost_late": late}


def _value(value) -> str:
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, list):
        return "/".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


# The Golden Monkey Robot "在规则上被视作黄金猴像" (rulebook L790-792): a rule of the token,
# not of an effect, which the sheet says as the coupon's.
ROBOT = "monkey_robot"
TOKEN_GROUPS = (("prisoner", ("prisoner", "coupon")), ("major_secret", ("major_secret",)),
                ("minor_secret", ("minor_secret",)), ("other", ("treasure", "monkey_idol", "mastery")))


def _after_use_words(game: Game, token: Entity, lang: str, own: dict) -> str:
    """What happens to a token after use; a fortune may also be spent as gold."""
    words = after_use_text(game, token, lang)
    if token.data.get("value") and token.data.get("token_type") != "treasure":
        words += own["or_gold"]
    return words


def _token_order(types: tuple, t: Entity):
    """A group's token types in their order, treasures by value (5, 7, 10...: a number, not
    text), everything else in the file's order (the sort is stable)."""
    kind = t.data.get("token_type")
    return (types.index(kind) if kind in types else len(types),
            t.data.get("value", 0) if kind == "treasure" else 0)


def tokens_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    texts = Texts(game, lang)
    ctx = _common(game, lang)
    own = ctx["own"]
    groups = []
    # a pack's own token types (none of the game's groups) come last, under their own title
    grouped = {kind for _, types in TOKEN_GROUPS for kind in types}
    more = tuple(dict.fromkeys(t.data.get("token_type") for t in game.of_kind("token")
                               if t.data.get("token_type") not in grouped))
    for key, types in TOKEN_GROUPS + ((("more", more),) if more else ()):
        rows = []
        for t in sorted(game.of_kind("token"), key=lambda t: _token_order(types, t)):
            if t.data.get("token_type") not in types:
                continue
            effects = []
            for field_name in ("on_gain", "use", "passive", "scoring"):
                text = _effect(game, texts, t, field_name)
                if text:
                    effects.append({"label": own["fields"][field_name], "text": text})
            if t.data.get("token_type") == "coupon":     # the engine applies it at the market
                effects.append({"label": own["fields"]["market"],
                                "text": fill(own["coupon_use"], {"n": ctx["values"]["coupon"]})})
            if t.id == ROBOT:   # the engine counts it with the idols (idols_held), by its id
                effects.append({"label": own["fields"]["passive"], "text": own["robot_idol"]})
            if t.data.get("value") and t.data.get("token_type") != "treasure":
                effects.append({"label": own["fields"]["gold"], "text": fill(own["counts_as_gold"], {"n": t.data["value"]})})
            rows.append({"name": name_of(t, lang), "mark": notes.mark(t, lang),
                         "count": t.data.get("count", ""), "points": t.data.get("points", 0),
                         "effects": effects,
                         "kept": _after_use_words(game, t, lang, own)})
        groups.append({"title": own["groups"][key], "rows": rows})
    items = []
    for i in game.of_kind("market_item"):
        effects = []
        for field_name in ("require_to_buy", "on_buy"):
            text = _effect(game, texts, i, field_name)
            if text:
                effects.append({"label": own["fields"][field_name], "text": text})
        if i.data.get("treasure_limit"):
            effects.append({"label": own["fields"]["passive"],
                            "text": fill(own["treasure_limit"], {"n": i.data["treasure_limit"]})})
        items.append({"name": name_of(i, lang), "mark": notes.mark(i, lang),
                      "kept": after_use_text(game, i, lang),
                      "count": i.data.get("count"), "price": i.data.get("price"),
                      "points": "/".join(str(p) for p in i.data.get("points", [])),
                      "effects": effects})
    return {**ctx, "groups": groups, "items": items}


CARD_ORDER = ("starting", "reserve", "acquire", "device", "monster")


def cards_sheet(game: Game, lang: str, notes: Footnotes) -> dict:
    texts = Texts(game, lang)
    ctx = _common(game, lang)
    own = ctx["own"]
    sections = []
    for card_type in CARD_ORDER:
        rows = []
        for c in game.of_kind("card"):
            d = c.data
            if d.get("card_type") != card_type:
                continue
            effects = []
            for field_name in ("play", "on_acquire", "on_arrive", "on_use", "on_defeat"):
                text = _effect(game, texts, c, field_name)
                if text:
                    effects.append({"label": own["fields"][field_name], "text": text})
            tags = [own["tags"][t] for t in ("companion", "danger", "dragon_attack", "never_discarded") if d.get(t)]
            cost = d.get("defeat_cost") if card_type == "monster" or d.get("defeat_cost") else d.get("cost", "")
            if cost is not None and cost != "":   # the cell says what is spent: "3 skill", and
                combat = card_type == "monster" or d.get("defeat_cost")  # the Goblin "2 combat"
                cost = fill(own["cost_in_combat" if combat else "cost_in_skill"], {"n": cost})
            rows.append({"name": name_of(c, lang), "mark": notes.mark(c, lang),
                         "after_use": after_use_text(game, c, lang),
                         "count": d.get("per_deck") or d.get("count", ""),
                         "cost": "" if cost is None else cost, "points": d.get("points", ""),
                         "tags": tags, "effects": effects})
        sections.append({"title": own["card_types"][card_type], "rows": rows,
                         "cost_label": own["cost_combat"] if card_type == "monster" else own["cost_skill"],
                         "count_label": own["per_deck"] if card_type == "starting" else own["count"]})
    return {**ctx, "sections": sections}


SHEETS = (Sheet("rules", "clank_catacombs_rules.html.j2", "rules_title", rules_sheet),
          Sheet("tokens", "clank_catacombs_tokens.html.j2", "tokens_title", tokens_sheet),
          Sheet("cards", "clank_catacombs_cards.html.j2", "rules_title", cards_sheet))
