"""`tomecraft cards`: print-and-play cards, tokens and monsters at their real size.

Every entity of the kinds a game lists under `print_and_play:` in templates/sheets/<game>.yaml
becomes one card per copy, 3 x 3 to an A4 page with crop marks at every cut line, in zh and en:
its name, its numbers, an empty frame for the art, and its rules text rendered from the
effect language (the same renderer as the sheets), with what happens to it after use.

Sizes: the rulebooks give none, so each kind names a stated standard (SIZES, listed in the
README): poker cards 63 x 88 mm, mini cards 41 x 63 mm, and 40 x 40 mm chits for tokens
(bigger than the printed tokens, so that their text stays readable).
Output: <out>/<game>[__<pack>]/print_and_play.<lang>.html|pdf, through WeasyPrint like the sheets
(not cards.<lang>: that is a sheet of Clank! and Dungeontology, and --out may be shared).
"""
from __future__ import annotations

import re
from pathlib import Path

from tomecraft.compiler.model import Entity, Game
from tomecraft.compiler.sheets import (FORMATS, LANGS, SHEETS, Footnotes, Texts, _game_file, after_use_text,
                             environment, html_lang, labels, name_of, pack_name, site_at, walk_strings,
                             sheet_title, typeset, write_formats, zh_punctuation)
from tomecraft.dsl.render.templates import signed

SIZES = {"poker": (63, 88), "mini": (41, 63), "chit": (40, 40)}   # width, height in mm
PAGE = (210, 297)                                                  # A4, portrait
GRID = 3                                                           # 3 x 3 a page
# A fan's `count: 100000` must not make a 10,000-page PDF; above the shipped games' largest
# count (The Cave's 50 consumables), so that none is printed short (20 printed 20 of The Cave's
# 40 traverse tokens, silently); a larger count is said on stderr (capped_notes).
MAX_COPIES = 100


def spec(game: Game) -> list[dict]:
    """The kinds a game prints, from its sheet file (`print_and_play:`)."""
    return list(_game_file(game.id).get("print_and_play") or [])


def _text(value, lang: str) -> str:
    return str(value.get(lang) or "") if isinstance(value, dict) else ""


def card_of(game: Game, entity: Entity, kind_spec: dict, lang: str, texts: Texts,
            notes: Footnotes) -> dict:
    """One card's view: name, type line, numbers, rules paragraphs, after-use line."""
    data = entity.data
    type_field = kind_spec.get("type")
    type_line = _text(kind_spec.get("label"), lang)
    if type_field and data.get(type_field):   # the spec's words, else the vocabulary's
        value = str(data[type_field])
        words = (kind_spec.get("types") or {}).get(value)
        type_line = _text(words, lang) if words else \
            game.vocab.text_of(value, lang) if value in game.vocab.names else type_line
    stats = []
    for field, label in (kind_spec.get("stats") or {}).items():
        value = data.get(field)
        if value is None or value is False or value == [] or (value == 0 and not label.get("zero")):
            continue    # a 0 is left out unless it is a price (`zero: true`): "Skill 0" is free
        words = _text(label, lang)
        if value is True:
            stats.append(words)
        elif isinstance(value, str) and value in (label.get("values") or {}):
            # a label may be empty when the value's words say it all ("Used in a battle round")
            stats.append(f"{words} {_text(label['values'][value], lang)}".strip())
        elif isinstance(value, str) and value in game.vocab.names:
            stats.append(f"{words} {game.vocab.text_of(value, lang, _term_type(game, entity.kind, field))}")
        elif isinstance(value, list) and all(isinstance(v, str) and v in game.vocab.names for v in value):
            # a list of terms ("Protects Military, Civilization")
            stats.append(f"{words} " + labels(lang, game)["enum_sep"].join(
                game.vocab.text_of(v, lang, _term_type(game, entity.kind, field)) for v in value))
        elif isinstance(value, dict) and all(k in game.vocab.names for k in value):
            # terms with signed numbers ("Block value modifiers Civilization +1, Wealth -1")
            stats.append(f"{words} " + labels(lang, game)["enum_sep"].join(
                f"{game.vocab.text_of(k, lang)} {signed(str(v))}" for k, v in value.items()
                if isinstance(v, int) and v))
        elif isinstance(value, (int, float)) and data.get(label.get("unit")) in game.vocab.names:
            # `unit: FIELD`: the count of what FIELD names ("Attack dice 1 × Explosive die")
            stats.append(f"{words} {value} × {game.vocab.text_of(data[label['unit']], lang)}")
        elif isinstance(value, (int, float)) and isinstance(label.get("says"), dict):
            # a sentence with the number in it: "Cost: 3 skill", not "Skill 3"
            stats.append(_text(label["says"], lang).replace("{n}", str(value)))
        elif isinstance(value, (int, float)) and words.endswith("+"):
            # a label ending in a sign takes the signed number: "Treasure limit +1", "宝藏上限+1"
            # ("Treasure limit + 1" was printed, the sign apart from its number)
            base = words[:-1].rstrip()
            stats.append(f"{base}{'' if lang == 'zh' else ' '}{signed(str(value))}")
        elif isinstance(value, (int, float)):
            stats.append(f"{words} {value}")
    details = _details(game, entity, lang)
    stats += details.get("stats", [])
    rules = []
    for field, label in (kind_spec.get("effects") or {}).items():
        site = site_at(entity, (field,))
        if site is None or not data.get(field):
            continue
        # a trigger the engine ends with the turn says so on the card as in the card list
        # (Rebel Leader's card read "As soon as ...", its row "This turn, as soon as ...")
        text = texts.passive(site) if field == "passive" else texts.site(site, _lasts(game, entity, field))
        text = details.get("said", {}).get(field, lambda t: t)(text)    # as the game says it
        rules.append({"label": details.get("labels", {}).get(field) or _text(label, lang),
                      "text": text})
    rules += details.get("rules", [])
    name = name_of(entity, lang)
    if lang == "en":             # a card's title lines start with a capital ("flare" -> "Flare")
        name, type_line = name[:1].upper() + name[1:], type_line[:1].upper() + type_line[1:]
    if type_line.casefold() == name.casefold():   # "Mastery token / Mastery token": said once
        type_line = ""
    return {"name": name, "type": type_line, "stats": stats, "rules": rules,
            "after_use": after_use_text(game, entity, lang), "mark": notes.mark(entity, lang),
            "pack": pack_name(game, entity.pack, lang)}     # a pack's card says whose it is


def _lasts(game: Game, entity: Entity, field: str) -> str:
    """The scope at whose end the engine ends a field's triggers (the sheet module's
    `effect_lasts`, e.g. Clank!'s "turn" for a card's play), which the card's text then says."""
    hook = getattr(SHEETS.module(game.id), "effect_lasts", None)
    return hook(entity.kind, field) if hook is not None else ""


def _details(game: Game, entity: Entity, lang: str) -> dict:
    """What the game's sheet module adds to a card beyond its spec's fields (`card_details`:
    more stats, more rules, an effect's label by the entity, `said`: how a field's rendered
    text is said on this card), e.g. a DRG monster's
    resistances and the traits its flags give."""
    module = SHEETS.module(game.id)
    hook = getattr(module, "card_details", None)
    return hook(game, entity, lang) if hook is not None else {}


def _term_type(game: Game, kind: str, field: str) -> str | None:
    """The vocabulary section a kind's field names ("term:category" -> "category"): The
    Cave's water token has category `water`, which is also the water token's own name; its
    card read "Majority water token" instead of "Majority water"."""
    spec = (game.vocab.kinds.get(kind) or {}).get("fields", {}).get(field) or {}
    marker = str(spec.get("x-tomecraft") or "")
    return (marker.partition(":")[2] or None) if marker.startswith("term:") else None


def _card_order(entity: Entity, kind_spec: dict) -> tuple:
    """Cards by type (in the order the spec's `types` lists them), then by English name, in
    both languages alike: ordered by id, Clank!'s Giant Spider (`spider`) came after the
    Skeleton and the Potion of Agility (`agility_potion`) after the Adventurer."""
    types = list(kind_spec.get("types") or {})
    value = str(entity.data.get(str(kind_spec.get("type") or ""), "") or "")
    rank = types.index(value) if value in types else len(types)
    # numbers as numbers: Treasure 5 before Treasure 10, Randomizer card 2 before 10
    name = [int(part) if part.isdigit() else part
            for part in re.split(r"(\d+)", name_of(entity, "en").casefold())]
    return rank, value, name


def _number(value) -> float:
    """A sort key: numbers in order, anything else last."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else float("inf")


def copies(entity: Entity, kind_spec: dict) -> int:
    for field in kind_spec.get("count") or ("count",):
        value = entity.data.get(field)
        if isinstance(value, int) and value > 0:
            return min(value, MAX_COPIES)
    return 1


def pages(game: Game, lang: str, notes: Footnotes) -> list[dict]:
    """Every card of every printed kind, one per copy, 9 to a page; a page holds one size, and
    kinds listed one after another with the same size fill their pages together."""
    texts = Texts(game, lang)
    result = []
    runs: list[tuple[tuple[int, int], list[dict]]] = []   # kinds in a row of one size share pages
    for kind_spec in spec(game):
        size = SIZES[kind_spec.get("size", "poker")]
        if not runs or runs[-1][0] != size:
            runs.append((size, []))
        cards = runs[-1][1]
        entities = game.of_kind(str(kind_spec["kind"]))
        if kind_spec.get("sort"):       # e.g. DRG monsters in activation order
            field = str(kind_spec["sort"])
            entities = sorted(entities, key=lambda e: _number(e.data.get(field)))
        else:
            entities = sorted(entities, key=lambda e: _card_order(e, kind_spec))
        for entity in entities:
            card = card_of(game, entity, kind_spec, lang, texts, notes)
            cards += _copies_of(card, entity, kind_spec, lang)
    # Dungeontology's 3 clan cards had a page to themselves, then the 10 interns took 9 and 1
    for size, cards in runs:
        for start in range(0, len(cards), GRID * GRID):
            result.append(_layout(cards[start:start + GRID * GRID], size))
    return result


def _copies_of(card: dict, entity: Entity, kind_spec: dict, lang: str) -> list[dict]:
    """One card per copy; a stat given as a list of numbers, one per copy, prints each
    copy's own (Clank!'s three Crowns are worth 10, 9 and 8 points: `points: [10, 9, 8]`)."""
    n = copies(entity, kind_spec)
    own = [(_text(label, lang), entity.data[field]) for field, label in (kind_spec.get("stats") or {}).items()
           if _per_copy(entity.data.get(field))]
    if not own:
        return [card] * n
    return [{**card, "stats": card["stats"] + [f"{words} {values[min(i, len(values) - 1)]}"
                                                for words, values in own]}
            for i in range(n)]


def _per_copy(value) -> bool:
    return isinstance(value, list) and bool(value) and \
        all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)


# How much rules text (in Latin letters; a Chinese character counts 2) a poker card holds at
# the cards' font, its art box shrunk away; a smaller card or a smaller font, in proportion.
# A card with more takes a smaller font ("dense", "denser"): the text of a pack's card with
# many effects overlapped its own lines and ran under the card's foot.
_HOLDS = 800
_POKER = (63, 88)
_FONTS = (("", 1.0), ("dense", 6 / 7), ("denser", 5 / 7))   # of the card's usual font


def _length(card: dict) -> int:
    text = "".join(f"{r.get('label') or ''} {r.get('text') or ''} " for r in card.get("rules", ()))
    return len(text) + sum(1 for ch in text if "\u3400" <= ch <= "\u9fff")


def _holds(size: tuple[int, int]) -> float:
    # a small card (.small) has a smaller font too, 5.5 pt against 7
    return _HOLDS * (size[0] * size[1]) / (_POKER[0] * _POKER[1]) * \
        ((7 / 5.5) ** 2 if size[0] < 50 else 1)


def fit(card: dict, size: tuple[int, int]) -> str:
    """The font class a card's text fits at ("" when the usual font does), or "denser"."""
    length, holds = _length(card), _holds(size)
    return next((name for name, scale in _FONTS if length <= holds / scale ** 2), "denser")


def overfull(card: dict, size: tuple[int, int]) -> bool:
    """Whether a card's text is longer than its size holds even at the smallest font."""
    return _length(card) > _holds(size) / _FONTS[-1][1] ** 2


def _layout(cards: list[dict], size: tuple[int, int]) -> dict:
    """Positions (mm) of up to 9 cards centred on the page, and the crop marks of every cut."""
    width, height = size
    left = (PAGE[0] - GRID * width) / 2
    top = (PAGE[1] - GRID * height) / 2
    placed = [{**card, "x": left + (i % GRID) * width, "y": top + (i // GRID) * height,
               "fit": fit(card, size)} for i, card in enumerate(cards)]
    xs = [left + i * width for i in range(GRID + 1)]
    ys = [top + i * height for i in range(GRID + 1)]
    mark = 5.0                                         # mm of each crop mark, in the margin
    marks = [{"x": x, "y": top - mark - 1, "w": 0, "h": mark} for x in xs] + \
            [{"x": x, "y": ys[-1] + 1, "w": 0, "h": mark} for x in xs] + \
            [{"x": left - mark - 1, "y": y, "w": mark, "h": 0} for y in ys] + \
            [{"x": xs[-1] + 1, "y": y, "w": mark, "h": 0} for y in ys]
    return {"cards": placed, "marks": marks, "w": width, "h": height,
            "small": width < 50}


def render_html(game: Game, lang: str, max_pages: int | None = None) -> str:
    """The cards of `game` as one HTML document; `max_pages` keeps the first pages (tests)."""
    notes = Footnotes(edition="player", game=game, lang=lang)
    lab = labels(lang, game)
    game_name = game.vocab.name.get(lang)
    context = {"lang": lang, "html_lang": html_lang(lang, game), "lab": lab,
               "game_name": game_name, "title": sheet_title("{game}" + lab["colon"] + lab["cards_title"], game_name),
               "pages": pages(game, lang, notes)[:max_pages], "footnotes": notes.notes}
    if lang == "zh":
        context = walk_strings(context, zh_punctuation)
    return typeset(environment().get_template("cards.html.j2").render(context))


def render_game(game: Game, langs, formats, out: Path, progress=None) -> list[Path]:
    from tomecraft.compiler.build import package_name
    written = []
    for lang in langs:
        html = render_html(game, lang)
        written += write_formats(html, Path(out) / package_name(game) / f"print_and_play.{lang}",
                                 formats, progress)
    return written


def run_cli(args) -> int:
    """`tomecraft cards --game G [--pack DIR]... [--lang zh|en] [--format html|pdf] [--out DIR]`."""
    from tomecraft.compiler import pipeline
    from tomecraft.compiler.console import UsageError, progress
    from tomecraft.compiler.sheets import compile_or_report
    root = pipeline.game_root(args.game)
    packs = [Path(p) for p in args.pack or []]
    for pack in packs:
        if not (pack / "pack.yaml").is_file():
            raise UsageError(f"--pack {pack}: no pack.yaml in this directory")
    name = root.name + "".join(f" + {p.name}" for p in packs)
    game = compile_or_report(root, packs, name, "cards")
    if game is None:
        return 1
    if not spec(game):
        raise UsageError(f"{game.id} has no print-and-play cards yet")
    langs = list(dict.fromkeys(args.lang or LANGS))
    formats = list(dict.fromkeys(args.format or FORMATS))
    render_game(game, langs, formats, Path(args.out), progress)
    for note in capped_notes(game) + overfull_notes(game, langs):
        progress(note)
    return 0


def overfull_notes(game: Game, langs) -> list[str]:
    """'note: FILE:LINE: ...' for each entity whose card cannot hold its text even at the
    smallest font: the end of it is cut off the printed card, which nothing said."""
    notes = []
    for lang in langs:
        texts, said = Texts(game, lang), set()
        for kind_spec in spec(game):
            size = SIZES[kind_spec.get("size", "poker")]
            for entity in game.of_kind(str(kind_spec["kind"])):
                card = card_of(game, entity, kind_spec, lang, texts, Footnotes(game=game, lang=lang))
                if overfull(card, size) and entity.id not in said:
                    said.add(entity.id)
                    line = entity.doc.mark(entity.path).line
                    notes.append(f"note: {entity.display}:{line}: {entity.kind} {entity.id!r}: its "
                                 f"{lang} text is longer than a {kind_spec.get('size', 'poker')} "
                                 f"card holds; the end of it is cut off the printed card")
    return notes


def capped_notes(game: Game) -> list[str]:
    """'note: FILE:LINE: ...' for each entity printed on fewer cards than its count says: a
    pack's `count: 5000` printed 20 cards with no word (MAX_COPIES bounds the pages)."""
    notes = []
    for kind_spec in spec(game):
        for entity in game.of_kind(str(kind_spec["kind"])):
            for field in kind_spec.get("count") or ("count",):
                value = entity.data.get(field)
                if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                    if value > MAX_COPIES:
                        line = entity.doc.mark(entity.path + (field,)).line
                        notes.append(f"note: {entity.display}:{line}: {entity.kind} {entity.id!r} "
                                     f"has {value} copies; {MAX_COPIES} are printed")
                    break
    return notes
