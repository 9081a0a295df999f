"""Printable reference sheets: jinja2 -> HTML (screen) -> PDF (print, via WeasyPrint).

Each game's sheets live in their own module, compiler/sheets/<game>.py, which defines
`SHEETS = (Sheet(...), ...)` with the context function of each template; a game without a
module is skipped with a note. Adding a game's sheets touches no shared file.
Output: <out>/<game>/<sheet>.<lang>.html|pdf. The HTML is deterministic (no dates, sorted
content); the PDF carries no creation date and a fixed identifier, so it is reproducible too.

Content is untrusted: every template is autoescaped and content text enters only as data.
"""
from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

import jinja2
import markupsafe
from ruamel.yaml import YAML

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.console import write_atomic
from tomecraft.compiler.model import EffectSite, Entity, Game
from tomecraft.dsl import nodes as n
from tomecraft.dsl.parser import EffectSyntaxError, parse
from tomecraft.dsl.render import PARAM_LETTERS, let_names, render, render_call

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "sheets"
LANGS = ("zh", "en")
FORMATS = ("html", "pdf")
EDITIONS = ("player", "designer")   # player: rules and references; designer: + sources, notes
HTML_LANG = {"zh": "zh-Hant", "en": "en"}


# --- text resources ------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _yaml_file(name: str) -> dict:
    return YAML(typ="safe").load((TEMPLATES / name).read_text(encoding="utf-8")) or {}


def labels(lang: str, game: "Game | str | None" = None) -> dict[str, str]:
    """Static UI labels of the sheets in `lang` (templates/sheets/labels.yaml).

    A game whose rulebook is in Simplified characters (`script: hans` in its game.yaml, or
    in its sheet file <game>.yaml) takes its zh labels from `zh_hans`, falling back to `zh`;
    <game>.yaml may override single labels under `labels: {zh: {...}, en: {...}}`."""
    base = _yaml_file("labels.yaml")
    result = dict(base[lang])
    own = _game_file(_game_id(game))
    if lang == "zh" and script(game) == "hans":
        result.update(base.get("zh_hans", {}))
    result.update((own.get("labels") or {}).get(lang, {}))
    return result


def script(game: "Game | str | None") -> str:
    """"hans" (Simplified) or "hant" (Traditional): the game's vocabulary says it; a bare
    game id falls back to its sheet file."""
    if isinstance(game, Game):
        return game.vocab.script
    return str(_game_file(game).get("script", "hant"))


def html_lang(lang: str, game: "Game | str | None" = None) -> str:
    """BCP 47 tag of a sheet: zh-Hans or zh-Hant picks the matching Noto CJK face (SC/TC)."""
    if lang == "zh":
        return "zh-Hans" if script(game) == "hans" else "zh-Hant"
    return HTML_LANG[lang]


def _game_id(game: "Game | str | None") -> str | None:
    return game.id if isinstance(game, Game) else game


def _game_file(game_id: str | None) -> dict:
    if game_id is None or not (TEMPLATES / f"{game_id}.yaml").is_file():
        return {}
    return _yaml_file(f"{game_id}.yaml")


def prose(game_id: str, lang: str) -> dict:
    """Game-specific prose of the sheets (templates/sheets/<game>.yaml), in `lang`."""
    return dict(_yaml_file(f"{game_id}.yaml")[lang])


def _harfbuzz_subset_missing() -> bool:
    """WeasyPrint subsets fonts with HarfBuzz when libharfbuzz-subset is installed; without
    it, fontTools takes ~10 s per CJK font per PDF."""
    try:
        from weasyprint.text.ffi import harfbuzz_subset
    except ImportError:
        return False
    return harfbuzz_subset is None


def count_en(n, noun: str) -> str:
    """An English count that agrees with its noun: "1 relic", "2 relics"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# `{name|zero|one|other}`: the form a count takes ("{descend_heal|no HP back|recover 1 lost
# HP|recover # lost HP}", "#" the number); a form may hold plain placeholders of its own
_COUNTED = re.compile(r"\{(\w+)\|((?:[^{}|]|\{\w+\})*)\|((?:[^{}|]|\{\w+\})*)\|((?:[^{}|]|\{\w+\})*)\}")


def fill(text: str, values: dict) -> str:
    """`{name}` placeholders -> values; unknown placeholders stay as they are. A counted
    placeholder `{name|zero|one|other}` takes the form its number asks for, with `#` the
    number: a setting printed in a sentence reads naturally at 0 and 1 as at 12 ("recover 0
    lost HP", "per 1 graveyard cards", "reveal 1 event cards" were printed)."""
    def counted(m: re.Match) -> str:
        if m.group(1) not in values:
            return m.group(0)
        value = values[m.group(1)]
        form = m.group(2) if value == 0 else m.group(3) if value == 1 else m.group(4)
        return form.replace("#", str(value))
    text = _COUNTED.sub(counted, text)
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
    return text


_QUALIFIED = re.compile(r"^(.+?)\s*[(（]([^()（）]+)[)）]$")


def qualifiers(names: list[str]) -> list[str]:
    """Names that share a head and differ by their bracket ("Alert card (standard)", "Alert
    card (tense)"; 警戒卡（标准）) by what differs ("standard", "tense"), for a list a sentence
    holds in brackets of its own; other names as they are."""
    found = [_QUALIFIED.match(name) for name in names]
    if len(names) > 1 and all(found) and len({m.group(1) for m in found}) == 1:
        return [m.group(2) for m in found]
    return names


def sheet_title(template: str, game_name: str) -> str:
    """A sheet's title from its template ("{game}: rules reference"). A game name holding a
    colon of its own ("Dungeontology: The Expedition", "噤声寻宝记：地下墓穴") is followed by a
    dash instead, so that the title does not read as three parts."""
    if ":" in game_name or "：" in game_name:
        template = template.replace("{game}: ", "{game} — ").replace("{game}：", "{game}——")
    return fill(template, {"game": game_name})


# --- what every sheet needs ----------------------------------------------------------------

@dataclass
class Footnotes:
    """Approximation notes of one sheet, numbered in order of first mention.

    Designer edition: one note per entity, with its full notes. Player edition: entities
    sharing one note share one number, and a note is shown only in the sheet's language
    (cleaned of decision ids and line references); a rule also says its value in words."""
    notes: list[dict] = field(default_factory=list)
    shown: set[tuple[str, str]] = field(default_factory=set)  # (kind, id) on this sheet
    _index: dict[str, int] = field(default_factory=dict)
    edition: str = "designer"
    game: "Game | None" = None
    lang: str = "en"
    _groups: dict[str, int] = field(default_factory=dict)
    _linked_ids: "set[str] | None" = None

    def mark(self, entity: Entity, lang: str) -> int | None:
        """Record that `entity` is on the sheet; its footnote number if it is approximated."""
        self.shown.add((entity.kind, entity.id))
        number = self._number(entity, lang)
        if number is not None and name_of(entity, lang) not in self.notes[number - 1]["names"]:
            self._named(number, entity, lang)   # a rule whose note a linked entity made first
        return number

    def _number(self, entity: Entity, lang: str) -> int | None:
        key = f"{entity.kind}:{entity.id}"
        if key in self._index:
            return self._index[key]
        lines = approximation_lines(entity)
        if not lines:
            return None
        rule = self._note_of(entity)
        if rule is not None:
            return self._join(rule, entity, key, lang)
        if self.edition == "player":
            return self._mark_player(entity, key, lang)
        self.notes.append({"n": len(self.notes) + 1, "name": name_of(entity, lang),
                           "names": [name_of(entity, lang)], "lines": lines})
        self._index[key] = len(self.notes)
        return len(self.notes)

    def _note_of(self, entity: Entity) -> Entity | None:
        """The approximated rule whose note states the same fact as `entity`'s (its
        `note_of`), or None. A camp-exchange action and the rule allowing the exchange at
        any time on the camp's tile are one assumption: one footnote, both rows marked."""
        rule_id = entity.data.get("note_of")
        if not rule_id or self.game is None or entity.kind == "rule":
            return None
        rule = self.game.entities.get("rule", {}).get(str(rule_id))
        return rule if rule is not None and approximation_lines(rule) else None

    def _linked(self, rule: Entity) -> bool:
        """Whether an entity of the game names `rule` as its `note_of`."""
        if self._linked_ids is None:
            self._linked_ids = {str(e.data["note_of"]) for e in self.game.all()
                                if e.data.get("note_of")} if self.game is not None else set()
        return rule.id in self._linked_ids

    def _join(self, rule: Entity, entity: Entity, key: str, lang: str) -> int:
        """`entity` shares the footnote of `rule` (made now if the rule is not on the sheet
        yet, without putting the rule on it). The player edition says the fact once, in the
        rule's words; the designer edition keeps every developer note under the number."""
        fresh = f"{rule.kind}:{rule.id}" not in self._index
        number = self._number(rule, lang)
        note = self.notes[number - 1]
        if fresh and (rule.kind, rule.id) not in self.shown \
                and name_of(rule, lang) in note["names"]:     # named once it is on the sheet
            note["names"].remove(name_of(rule, lang))
        if self.edition != "player":
            note["lines"] += [line for line in approximation_lines(entity)
                              if line not in note["lines"]]
        self._named(number, entity, lang)
        self._index[key] = number
        return number

    def _named(self, number: int, entity: Entity, lang: str) -> None:
        """`entity` among the names of footnote `number`."""
        note = self.notes[number - 1]
        if name_of(entity, lang) not in note["names"] and note.get("said") != name_of(entity, lang):
            note["names"].append(name_of(entity, lang))
        lab = labels(lang, self.game)
        if self.edition == "player":
            whole = number in (self._groups.get("(silent)"), self._groups.get("(rules)"))
            note["name"] = names_list(note["names"], lab,
                                      most=len(note["names"]) if whole else 4)
        else:
            note["name"] = lab["enum_sep"].join(note["names"])

    def _mark_player(self, entity: Entity, key: str, lang: str) -> int:
        lab = labels(lang, self.game)
        lines = player_lines(entity, lang)
        if lang == "en" and self.game is not None:
            lines = [english_names(self.game, line) for line in lines]
        named = False     # the rule's name says its value ("No legal action: skip to the end phase")
        if entity.kind == "rule" and self.game is not None:
            value = value_words(self.game, entity, lang)
            group = key   # a rule is its own item: its value differs from every other's
            named = bool(value) and _names_value(name_of(entity, lang), value)
            if value:     # the words say the choice; the note would only say it again
                lines = ([] if named else [fill(lab["rule_value"], {"value": value})]) + \
                    ([] if _has_rule_words(self.game, entity, lang) else lines)
        else:
            # what the player reads: notes that differ only in decision ids or rulebook
            # lines print the same words, one fact, one number (a token's count note written
            # on the entity, another's on its count field)
            group = "\n".join(lines) if lines else "|".join(approximation_lines(entity))
        said = ""
        if not lines and entity.kind == "rule" and self._linked(entity):
            said = name_of(entity, lang)   # its name says the fact, and the footnote says it
            lines = [said]                 # to the rows that share it (a scoring, a tile kind)
        elif not lines and entity.kind == "rule" and not named:
            group = "(rules)"   # the rules' names say what is assumed ("No opening hand at setup")
        elif not lines and not named:   # nothing to say in this language: one item names them
            group = "(silent)"  # all and says what a player may take from the mark
            lines = [lab["approx_unsaid"]]
        number = self._groups.get(group)
        if number is None:
            self.notes.append({"n": len(self.notes) + 1, "names": [], "lines": lines,
                               "name": "", "said": said})
            number = self._groups[group] = len(self.notes)
        note = self.notes[number - 1]
        if name_of(entity, lang) not in note["names"] and not said:
            note["names"].append(name_of(entity, lang))
        note["name"] = names_list(note["names"], lab,
                                  most=len(note["names"]) if group in ("(silent)", "(rules)") else 4)
        self._index[key] = number
        return number


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                 "ten", "eleven", "twelve")


def _names_value(name: str, value: str) -> bool:
    """Whether a rule's name already says its value: "No legal action: skip to the end phase";
    a number in words too ("Eight slots per column" is 8: its note read "Eight slots per
    column: 8. 9 values are printed per column")."""
    name, value = name.casefold(), value.casefold()
    if value in name:
        return True
    words = _NUMBER_WORDS[int(value)] if value.isdigit() and int(value) < len(_NUMBER_WORDS) else ""
    if words:
        return re.search(rf"\b{words}\b", name) is not None
    # every word of the value already in the name: "HP 0 ends the game at once: the game ends
    # at once", "点数降至0或以下即送墓：点数为0或以下" said it twice
    if _HAN.search(value):
        said = [c for c in value if _HAN.match(c) or c.isdigit()]
        return bool(said) and all(c in name for c in said if c not in _ZH_FUNCTION)
    said = {_stem(w) for w in re.findall(r"[a-z0-9]+", value)} - _EN_FUNCTION
    return bool(said) and said <= {_stem(w) for w in re.findall(r"[a-z0-9]+", name)}


_ZH_FUNCTION = set("的为在时之了着是与和及")
_EN_FUNCTION = {"the", "a", "an", "at", "to", "into", "in", "on", "of", "is", "are", "it", "and",
                "or", "by", "for", "with", "as", "its"}


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def sheet_rules(game: Game, notes: Footnotes) -> list[Entity]:
    """The game's rules as a sheet lists them. The player edition leaves out a rule marked
    `sim_only: true`, a setting of the simulator (a round cap) and no rule of play: a player
    who read "Round cap: 120" took it for a rule that ends the game; the designer edition
    keeps it."""
    rules = game.of_kind("rule")
    if notes.edition == "player":
        rules = [r for r in rules if not r.data.get("sim_only")]
    return rules


def names_list(names: list[str], lab: dict, most: int = 4) -> str:
    """"A, B, C, D and 8 more" (zh "A、B、C、D等12項"): a group of entities sharing a note."""
    if len(names) <= most:
        return lab["enum_sep"].join(names)
    return fill(lab["and_more"], {"names": lab["enum_sep"].join(names[:most]),
                                  "n": len(names) - most, "total": len(names)})


def approximation_lines(entity: Entity) -> list[str]:
    """The approximation notes of an entity: its note if it is one, then per-field notes."""
    lines = []
    if entity.source == "approximation":
        lines.append(text_of(entity.data.get("note", ""), "en"))
    for field_name, note in sorted((entity.data.get("approximations") or {}).items()):
        lines.append(f"{field_name}: {text_of(note, 'en')}")
    return [line for line in lines if line]


def player_lines(entity: Entity, lang: str) -> list[str]:
    """What a player reads about an approximation, in `lang` only: a note written as
    {zh, en} gives its own language; a plain note is English, so a zh sheet leaves it out,
    unless it is written in Chinese alone (no Latin letter: a fan's "粉丝设计：遗迹" was printed
    on the English sheet as "粉丝设计：relic." and on no Chinese one). Decision ids, rulebook
    lines and field names are cut (see player_note)."""
    notes = []
    if entity.source == "approximation":
        notes.append(entity.data.get("note"))
    notes += [note for _field, note in sorted((entity.data.get("approximations") or {}).items())]
    lines = []
    for note in notes:
        if isinstance(note, dict):
            text = str(note.get(lang) or "")
        elif note is None:
            text = ""
        else:
            chinese = bool(_HAN.search(str(note))) and not re.search(r"[A-Za-z]", str(note))
            text = str(note) if (lang == "zh") == chinese else ""
        text = player_note(text)
        if text and text not in lines:
            lines.append(text)
    return lines


_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_HAN_GLOSS = re.compile(r"\s*\([\u3400-\u9fff\uf900-\ufaff]+\)")   # "(响应)", one term


def english_names(game: Game, text: str) -> str:
    """An English note as an English reader reads it: a Chinese gloss in brackets ("the
    Response (响应) timing") goes, and a Chinese name the vocabulary or an entity gives in
    English ("呼唤 with 战斗轮前" -> "Call with Before the battle round") takes its English
    words. Notes are written by designers reading the Chinese rulebook; the English sheet
    must not ask its reader to read Chinese."""
    if not _HAN.search(text):
        return text
    text = _HAN_GLOSS.sub("", text)
    names = _english_of_chinese(game)
    text = _HAN.sub(lambda m: names.get(m.group(0), m.group(0)), text)
    return text[:1].upper() + text[1:]      # a note may open with a name now in English


def _english_of_chinese(game: Game) -> dict[str, str]:
    """Chinese name -> English name, for every vocabulary name and entity of `game`."""
    cached = getattr(game, "_english_of_chinese", None)
    if cached is not None:
        return cached
    names: dict[str, str] = {}
    for infos in game.vocab.names.values():
        for info in infos.values():
            zh, en = info.text.get("zh"), info.text.get("en")
            if zh and en and _HAN.search(zh):
                names.setdefault(zh, en)
    for name, call in [*game.vocab.keywords.items(), *game.vocab.verbs.items()]:
        text = getattr(call, "name_text", None)
        if isinstance(text, dict) and text.get("zh") and text.get("en"):
            names.setdefault(text["zh"], text["en"])
    for by_id in game.entities.values():
        for entity in by_id.values():
            _collect_names(entity.data, names)
    try:
        game._english_of_chinese = names
    except AttributeError:      # a slotted Game: no cache, the map is small
        pass
    return names


def _collect_names(data, names: dict[str, str]) -> None:
    """Every `name: {zh, en}` in an entity's data, its abilities' and sides' included."""
    if isinstance(data, dict):
        name = data.get("name")
        if isinstance(name, dict) and name.get("zh") and name.get("en"):
            names.setdefault(str(name["zh"]), str(name["en"]))
        for value in data.values():
            _collect_names(value, names)
    elif isinstance(data, list):
        for value in data:
            _collect_names(value, names)


# Developer references inside content notes, cut from the player edition.
_DEV_PREFIX = re.compile(
    r"^\s*(?:(?:[A-Z]{1,3}-?\d+[a-z]?(?:/[A-Z]{1,3}-?\d+[a-z]?)*|EX-[\w-]+|T-\d+|#\d+|"
    r"[Gg]aps? [\d/, ]+|Starter set)"
    r"(?:\s*\([^)]*\))?(?:\s+reading\s+\w+)?\s*(?:,\s*)?)+:\s*")
_DEV_PAREN = re.compile(r"\s*\((?:[^()]*?(?:\bL\d|\.py\b|\.ya?ml\b|\brule\b|\bGap\b|\b[A-Z]{1,3}-\d|"
                        r"\b[a-z]+_[a-z0-9_]+\b|\binventory\b|§)[^()]*)\)")
_DEV_TOKEN = re.compile(r"\bL\d+|\.py\b|\.ya?ml\b|\b[Gg]aps? \d|\b[A-Z]{1,3}-\d+|\b[a-z0-9]+_[a-z0-9_]+\b|`|§|"
                        r"\binventory\b|\bengine\b|\bscenario|\btest\b|\bseat \d")


# Sentences that only repeat that something is approximate: the list says so already.
_SAYS_NOTHING = re.compile(r"^(?:not in the (?:text|rulebook|guide)|not stated|guess|"
                           r"(?:none|neither) is stated)[.;]?$", re.I)


def player_note(text: str) -> str:
    """A content note made fit for players: leading decision ids ("D-17 (G-22):"), bracketed
    references ("(L85-86)", "(runtime/layering.py)") go; a sentence that still names a
    developer reference or a raw id goes too. "" when nothing is left."""
    text = _DEV_PAREN.sub("", _DEV_PREFIX.sub("", text.strip()))
    kept = [part for part in re.split(r"(?<=[.;])\s+", text)
            if part and not _DEV_TOKEN.search(part) and not _SAYS_NOTHING.match(part)]
    text = " ".join(kept).strip().rstrip(";,: ")
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    if text.endswith((".", "!", "?", "。", "！", "？")):
        return text
    return text + ("。" if _HAN.search(text[-1:]) or text.endswith(("）", "」")) else ".")


def rule_value_text(game: Game, rule: Entity, lang: str, raw: str) -> str:
    """A rule's value for a table: in words when it has them, else `raw` (the designer
    edition's fallback for a developer: the chosen option's name)."""
    if isinstance(rule.data.get("value"), bool):
        return raw
    return value_words(game, rule, lang) or raw


def _has_rule_words(game: Game, rule: Entity, lang: str) -> bool:
    words = (_game_file(game.id).get("rule_values") or {}).get(rule.id)
    return isinstance(words, dict) and bool(words.get(lang))


def value_words(game: Game, rule: Entity, lang: str) -> str:
    """A rule's value said in words: yes/no, numbers, vocabulary terms, or the words its
    sheet file gives (`rule_values: {id: {zh, en}}` in templates/sheets/<game>.yaml);
    "" when it has none (a raw id is never printed)."""
    lab = labels(lang, game)
    words = (_game_file(game.id).get("rule_values") or {}).get(rule.id)
    value = rule.data.get("value")
    if isinstance(words, dict):
        # `values: {option: {zh, en}}` words each option a pack may choose; the plain words
        # say the base game's value, so not a pack's other value (a table such as Clank!'s
        # dragon start by player count has only the plain words)
        if not isinstance(value, (dict, list)):
            chosen = (words.get("values") or {}).get(
                str(value).lower() if isinstance(value, bool) else str(value))
            if isinstance(chosen, dict) and chosen.get(lang):
                return str(chosen[lang])
        # `if_scoring_zero: {field, zh, en}`: the words while the scoring table's field is 0
        # (The Cave's D-16 "before the extra rounds", when a pack plays none)
        zero = words.get("if_scoring_zero")
        scoring = game.of_kind("scoring") if isinstance(zero, dict) and zero.get(lang) else []
        if scoring and not scoring[0].data.get(zero.get("field")):
            return str(zero[lang])
        base = rule.replaced.data.get("value") if rule.replaced is not None else value
        if words.get(lang) and base == value:
            return str(words[lang])
    if isinstance(rule.data.get("value"), bool):
        return ""        # the rule's name states the choice; a bare yes/no would contradict it
    return _words(rule.data.get("value"), game, lang, lab)


def _words(value, game: Game, lang: str, lab: dict) -> str:
    if isinstance(value, bool):
        return lab["flag_yes"] if value else lab["flag_no"]
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        if value in game.vocab.names:
            return game.vocab.text_of(value, lang)
        return value if re.fullmatch(r"[\d\s/+-]+", value) else ""
    if isinstance(value, list):
        parts = [_words(v, game, lang, lab) for v in value]
        return lab["enum_sep"].join(parts) if all(parts) else ""
    if isinstance(value, dict):
        parts = []
        for key, item in value.items():
            head = game.vocab.text_of(key, lang) if key in game.vocab.names else \
                (str(key) if re.fullmatch(r"\d+", str(key)) else "")
            words = _words(item, game, lang, lab)
            if not head or not words:
                return ""
            parts.append(f"{head}{lab['colon']}{words}")
        return lab["list_sep"].join(parts)
    return ""


AFTER_USE = ("keep", "box", "discard", "supply", "stock", "removed", "board", "flip", "graveyard",
             "loot", "intern", "until_rest", "dungeon_discard")   # each has a label after_use_<value>


def after_use(game: Game, entity: Entity) -> str | None:
    """What happens to a token, card or monster once used (kept, back to the box, discarded...):
    the entity's `after_use`, else the default its kind declares in game.yaml, whose
    description cites the rulebook. None when the content does not say."""
    if entity.data.get("after_use"):
        return str(entity.data["after_use"])
    # a game whose engine decides it from other fields says so (Clank!: a monster left without
    # one went to the dungeon discard pile and was printed "discarded after use")
    hook = getattr(SHEETS.module(_game_id(game)), "after_use_default", None)
    if hook is not None and (value := hook(entity)) is not None:
        return value
    spec = game.vocab.kinds.get(entity.kind, {}).get("fields", {}).get("after_use") or {}
    return spec.get("default")


def after_use_text(game: Game, entity: Entity, lang: str) -> str:
    """after_use in words, from the game's sheet labels: `after_use_<value>_<kind>` where a
    game words it for one kind ("taken off the board when killed", for a monster), else
    `after_use_<value>`."""
    key = after_use(game, entity)
    if not key:
        return ""
    lab = labels(lang, game)
    return lab.get(f"after_use_{key}_{entity.kind}") or lab.get(f"after_use_{key}", "")


def name_of(entity: Entity, lang: str) -> str:
    name = entity.data.get("name")
    if isinstance(name, dict) and name.get(lang):
        return str(name[lang])
    return entity.id


def text_of(value, lang: str) -> str:
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or "")
    return "" if value is None else str(value)


class Texts:
    """Renders effects of one game in one language, caching keyword parses."""

    def __init__(self, game: Game, lang: str) -> None:
        self.game = game
        self.lang = lang
        # Identical effect strings share one AST (the parse cache), so they render once.
        self._rendered: dict[tuple, str] = {}

    def site(self, site: EffectSite, lasts: str = "") -> str:
        """The effect's text; `lasts`: the scope its field's triggers end with (Use.lasts)."""
        if site.ast is None:
            try:
                site.ast = parse(site.text)
            except EffectSyntaxError:
                return site.text
        key = (id(site.ast), lasts)
        text = self._rendered.get(key)
        if text is None:
            text = self._rendered[key] = render(site.ast, self.game.vocab, self.lang,
                                                lasts=lasts)
        return text

    def passive(self, site: EffectSite) -> str:
        """An effect printed under a "Passive" label: a `continuous:` effect gives only its
        body, so the text does not say "Continuous:" again ("Passive: Continuous: you may
        cross...", the Catacomb Map)."""
        text = self.site(site)
        ast = site.ast
        if isinstance(ast, n.Block) and len(ast.stmts) == 1 and isinstance(ast.stmts[0], n.Continuous):
            return render(ast.stmts[0].body, self.game.vocab, self.lang)
        return text

    def effect(self, entity: Entity, path_suffix: tuple) -> str:
        site = site_at(entity, path_suffix)
        return self.site(site) if site is not None else ""

    def keyword(self, name: str) -> str:
        kw = self.game.vocab.keywords.get(name)
        if kw is None:
            return ""
        if kw.text is not None and not kw.params:
            return render(n.Block((n.Call(name, ()),)), self.game.vocab, self.lang)
        site = self.game.keyword_sites.get(name)
        return self.site(site) if site is not None else ""


def site_at(entity: Entity, suffix: tuple) -> EffectSite | None:
    for site in entity.effects:
        if site.path[len(entity.path):] == suffix:
            return site
    return None


def ap_cost(site: EffectSite | None, game: Game, lang: str) -> str:
    """The AP an effect pays (`pay ap N` anywhere in it, or in a keyword it uses), as text;
    "" if it pays none. Cached per distinct AST and language (the parse cache shares ASTs)."""
    if site is None or site.ast is None:
        return ""
    cache = game.__dict__.setdefault("_ap_cost", {})
    key = (id(site.ast), lang)
    if key not in cache:
        cache[key] = _ap_cost(site, game, lang)
    return cache[key]


def _ap_cost(site: EffectSite, game: Game, lang: str) -> str:
    amount = _ap_amount(site.ast, game, {}, 0, set())
    if amount is None:
        return ""
    value = n.constant(amount)
    if value is not None:
        return str(value)
    return render(amount, game.vocab, lang, let_names(site.ast))


def _ap_amount(block: n.Block, game: Game, params: dict, depth: int, payless: set):
    """The amount of the first `pay ap` under `block`, through the keywords it calls. A
    keyword found to pay none at a depth (whatever its arguments: they change the amount, not
    whether it pays) is not walked again there: 10 keywords each calling the next 20 times
    were 20**8 walks, and `sheets` hung."""
    for node in n.walk(block):
        if isinstance(node, n.Call) and node.verb == "pay" and len(node.args) >= 2:
            what = node.args[0]
            if isinstance(what, n.Name) and what.parts == ("ap",) \
                    and "resource" in game.vocab.names.get("ap", {}):
                return _substitute(node.args[1], params)
        keyword = game.vocab.keywords.get(node.verb) if isinstance(node, n.Call) else None
        kw_site = game.keyword_sites.get(node.verb) if keyword is not None else None
        if kw_site is not None and kw_site.ast is not None and depth < 8 \
                and (node.verb, depth) not in payless:
            args = [a for a in node.args if not isinstance(a, n.KwArg)]
            bound = {p.name: _substitute(a, params) for p, a in zip(keyword.params, args)}
            found = _ap_amount(kw_site.ast, game, bound, depth + 1, payless)
            if found is not None:
                return found
            payless.add((node.verb, depth))
    return None


def _substitute(e, params: dict):
    """`e` with a keyword's parameter names replaced by the arguments of the call."""
    if isinstance(e, n.Name) and len(e.parts) == 1 and e.head in params:
        return params[e.head]
    if isinstance(e, n.BinOp):
        return n.BinOp(e.op, _substitute(e.left, params), _substitute(e.right, params))
    if isinstance(e, n.Neg):
        return n.Neg(_substitute(e.operand, params))
    return e


def majority_awards(counts: dict[str, int], points: list[int], tie_rule: str,
                    zero_scores: bool = False) -> dict[str, int]:
    """Majority bonus per team (rulebook L311-318): rank = teams above + 1; a tied team
    drops one rank (drop_one_rank) or takes the lowest rank its group spans."""
    awards = {}
    for team, count in counts.items():
        if count <= 0 and not zero_scores:
            awards[team] = 0
            continue
        above = sum(1 for c in counts.values() if c > count)
        tied = sum(1 for c in counts.values() if c == count)
        rank = above + 1
        if tied > 1:
            rank = rank + 1 if tie_rule == "drop_one_rank" else above + tied
        awards[team] = points[rank - 1] if rank <= len(points) else 0
    return awards


def kind_name(game: Game, kind: str, lang: str) -> str:
    spec = game.vocab.kinds.get(kind, {})
    return str(spec.get(lang, kind))


def sources_table(game: Game, lang: str, lab: dict, notes: Footnotes) -> dict:
    """The "Sources and approximations" section: every entity on the sheet with its source,
    reference and note (an approximation points at its footnote), and a count of the
    entities of other kinds, by source."""
    rows = []
    for entity in game.all():
        if (entity.kind, entity.id) not in notes.shown:
            continue
        number = notes._index.get(f"{entity.kind}:{entity.id}")
        rows.append({
            "kind": kind_name(game, entity.kind, lang),
            "name": name_of(entity, lang),
            "source": lab.get(f"source_{entity.source}", entity.source),
            "approx": number,
            "ref": str(entity.data.get("ref", "")),
            "note": "" if number else str(entity.data.get("note", "")),
        })
    others: dict[str, dict[str, int]] = {}
    for entity in game.all():
        if (entity.kind, entity.id) in notes.shown:
            continue
        source = "approximation" if approximation_lines(entity) else entity.source
        per = others.setdefault(entity.kind, {})
        per[source] = per.get(source, 0) + 1
    other_rows = [{"kind": kind_name(game, kind, lang), "count": sum(per.values()),
                   "sources": lab["list_sep"].join(
                       f"{lab.get('source_' + src, src)} {count}"
                       for src, count in sorted(per.items()))}
                  for kind, per in sorted(others.items())]
    return {"rows": rows, "others": other_rows}


# --- The Cave --------------------------------------------------------------------------------

def _rule_value(game: Game, ids: Iterable[str], default):
    rules = game.entities.get("rule", {})
    for rule_id in ids:
        if rule_id in rules:
            return rules[rule_id].data.get("value", default)
    return default


def _scoring(game: Game) -> Entity | None:
    entries = game.of_kind("scoring")
    return entries[0] if entries else None


# --- the registry ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Sheet:
    name: str                                             # file stem: rules, tokens...
    template: str                                         # under templates/sheets/
    title: str                                            # key of the title in labels.yaml
    context: Callable[[Game, str, Footnotes], dict]


NOT_GAMES = frozenset({"cards"})   # modules of this package that are not a game's sheets


class _Registry(Mapping):
    """game id -> its sheets, imported on first use from compiler/sheets/<game>.py."""

    def _module(self, game_id: str):
        if not re.fullmatch(r"[a-z][a-z0-9_]*", str(game_id)) or game_id in NOT_GAMES:
            return None
        if importlib.util.find_spec(f"{__name__}.{game_id}") is None:
            return None
        return importlib.import_module(f"{__name__}.{game_id}")

    def module(self, game_id: str):
        """The sheet module of `game_id` (its hooks, e.g. cards' card_details), or None."""
        return self._module(game_id)

    def __getitem__(self, game_id: str) -> tuple[Sheet, ...]:
        module = self._module(game_id)
        if module is None:
            raise KeyError(game_id)
        return tuple(module.SHEETS)

    def __iter__(self):
        here = Path(__file__).parent
        return iter(sorted(p.stem for p in here.glob("*.py")
                           if p.stem != "__init__" and p.stem not in NOT_GAMES))

    def __len__(self) -> int:
        return len(list(iter(self)))


SHEETS: Mapping[str, tuple[Sheet, ...]] = _Registry()


class _Environment(jinja2.Environment):
    """The sheets' view models are dicts: look keys up first, so `row.name` in a template
    does not pay for a failed attribute lookup (an exception) on every access."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def _printable(value):
    """Every value a template prints, without control characters (ESC, NUL...): HTML and
    PDF have no use for them and a terminal showing the file would obey them."""
    if isinstance(value, str) and dg.escape_controls(value) != value:
        cleaned = dg.strip_controls(value)
        return markupsafe.Markup(cleaned) if isinstance(value, markupsafe.Markup) else cleaned
    return value


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return _Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True, finalize=_printable,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True)


def pack_name(game: Game, pack_id: str, lang: str) -> str:
    """A pack's name in `lang` (its pack.yaml's `name`, else its id); "" for the base game."""
    for pack in game.packs[1:]:     # the first is the base game itself
        if pack.id == pack_id:
            name = (pack.manifest or {}).get("name")
            return str(name.get(lang) or pack.id) if isinstance(name, dict) else pack.id
    return ""


def with_packs(game: Game, lang: str, lab: dict) -> str:
    """"With Catacomb Party! (5-6 players)" under a sheet's title: a sheet printed with packs
    said only the game's name, so a player could not tell it from the base game's."""
    names = [pack_name(game, pack.id, lang) for pack in game.packs[1:]]
    return fill(lab["with_packs"], {"packs": lab["enum_sep"].join(names)}) if names else ""


def render_html(game: Game, sheet: Sheet, lang: str, edition: str = "player") -> str:
    """One sheet as HTML. The player edition (default) holds rules and references, with a
    short numbered list of what is approximate; `designer` adds the sources table and the
    full developer notes."""
    notes = Footnotes(edition=edition, game=game, lang=lang)
    context = sheet.context(game, lang, notes)
    lab = labels(lang, game)
    game_name = game.vocab.name.get(lang)
    designer = edition == "designer"
    context.update({
        "lang": lang, "html_lang": html_lang(lang, game), "game_name": game_name,
        "title": sheet_title(lab[sheet.title], game_name), "lab": lab,
        "with_packs": with_packs(game, lang, lab),
        "designer": designer, "edition": edition,
        "footnotes": notes.notes,
        "sources": sources_table(game, lang, lab, notes) if designer else None,
    })
    if not designer:
        context = for_players(context)
        context["dm_sources"] = None
    if lang == "zh":
        context = walk_strings(context, zh_punctuation)
    html = environment().get_template(sheet.template).render(context)
    glossary = pack_keyword_rows(game, lang, html)
    if glossary:
        context["pack_keywords"] = walk_strings(glossary, zh_punctuation) if lang == "zh" else glossary
        html = environment().get_template(sheet.template).render(context)
    return typeset(capitalise_row_heads(html) if lang == "en" else html)


# Games whose sheets say what every keyword does in a table of their own (Dungeontology's
# effect symbols, Crawl Decks' keyword sheet), a pack's keywords included.
_OWN_GLOSSARY = {"dungeontology", "dm_crawl_decks"}


def param_letters(params, others: dict | None = None) -> dict[str, str]:
    """The letters a keyword's legend shows for its parameters: its counts N, M, K in order, as
    the renderer names them in its effect (PARAM_LETTERS), any other by `others` (its type's
    stand-in), else X, Y, Z."""
    numbers, rest = iter(PARAM_LETTERS), iter("XYZ")
    return {p.name: next(numbers, p.name.upper()) if p.type == "int"
            else (others or {}).get(p.type) or next(rest, p.name.upper()) for p in params}


def keyword_label(game: Game, name: str, lang: str, letters: dict[str, str]) -> str:
    """A keyword's own text with letters for its parameters ("Haul N"), through the template
    grammar its uses are rendered by: a plain replace left "Bounty {n:signed} gold" and "draw N
    card(s)" on a pack's sheet."""
    return render_call(game.vocab, name, lang, letters)


def pack_keyword_rows(game: Game, lang: str, html: str) -> list[dict]:
    """What a pack's keyword does, for the sheets that print it by its text: a Clank! pack's
    `haul` (text "Haul {n}") printed "Defeat reward: Haul 2." with nothing on any sheet to say
    that Haul draws and gains gold. One row per pack keyword whose label this sheet shows."""
    if _game_id(game) in _OWN_GLOSSARY:
        return []
    base_doc = game.documents[0] if game.documents else None
    texts, rows = Texts(game, lang), []
    # the sheet's own text, without the line naming its packs: a pack called "Blasting"
    # ("爆破") put its keyword Blast's row on every sheet, used there or not
    body = re.sub(r'<p class="subtitle packs">.*?</p>', "", html, flags=re.S)
    for name, kw in sorted(game.vocab.keywords.items()):
        if kw.text is None or not kw.origin or kw.origin[0] is base_doc:
            continue
        letters = param_letters(kw.params)
        head = re.split(r"[{:：]", kw.text.get(lang), maxsplit=1)[0].strip()
        site = game.keyword_sites.get(name)
        if not head or site is None or not _prints(head, body):
            continue
        if site.ast is None:
            texts.site(site)        # parses it (or keeps the text of one that does not parse)
        named = {p.name: letters[p.name] for p in kw.params if p.type != "int"}
        effect = render(site.ast, game.vocab, lang, bound=named) if site.ast is not None \
            else site.text
        rows.append({"name": keyword_label(game, name, lang, letters), "effect": effect})
    return rows


def _prints(head: str, html: str) -> bool:
    """Whether a keyword's label (its text up to its first placeholder) is printed in `html`:
    a Latin one as a whole word ("Blast", not the "Blast" of "Blasting")."""
    if not re.search(r"[A-Za-z]", head):
        return head in html
    return re.search(r"(?<![A-Za-z])" + re.escape(head) + r"(?![A-Za-z])", html) is not None


_LINE = r"(?:L\d+(?:\s*[-–]\s*L?\d+)?|p\.\s?\d+(?:[-–]\d+)?|LAY-\d+|EX-[A-Z0-9-]+)"
_REF_ONLY = re.compile(rf"\s*{_LINE}(?:\s*[,，、;；]\s*{_LINE})*\s*")
_REF_PAREN = re.compile(rf"\s*[（(\[]\s*(?:see\s+|见|見)?{_LINE}(?:\s*[,，、;；]\s*{_LINE})*\s*[)）\]]")


def for_players(value, key: str = ""):
    """A sheet's view model without rulebook line references: players hold the printed
    rulebook, whose pages have no line numbers. `ref` fields empty, "(L61)" cut from text."""
    if key == "ref" or key.endswith("_ref"):
        return ""
    if isinstance(value, str):
        if _REF_ONLY.fullmatch(value):
            return ""
        return _REF_PAREN.sub("", value)
    if isinstance(value, dict):
        return {k: for_players(v, str(k)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(for_players(v) for v in value) if isinstance(value, list) \
            else tuple(for_players(v) for v in value)
    return value


_CJK = "\u3400-\u9fff\uf900-\ufaff"
_HALF = {",": "，", ";": "；", ":": "：", "!": "！", "?": "？"}
_PUNCT_AFTER_CJK = re.compile(rf"(?<=[{_CJK}）」])\s*([,;:!?])\s*")
_PUNCT_BEFORE_CJK = re.compile(rf"\s*([,;:!?])\s*(?=[{_CJK}（「])")
_PAREN_CJK = re.compile(rf"\(([^()]*[{_CJK}][^()]*)\)|(?<=[{_CJK}])\(([^()]*)\)")


def zh_punctuation(text: str) -> str:
    """Chinese text takes full-width punctuation: `,;:!?` next to a Chinese character and
    brackets around Chinese words become ，；：！？ and （）. Numbers and Latin text keep theirs."""
    text = _PAREN_CJK.sub(lambda m: f"（{m.group(1) or m.group(2)}）", text)
    text = _PUNCT_AFTER_CJK.sub(lambda m: _HALF[m.group(1)], text)
    return _PUNCT_BEFORE_CJK.sub(lambda m: _HALF[m.group(1)], text)


_TAG = re.compile(r"(?s)(<style.*?</style>|<script.*?</script>|<!--.*?-->|<[^>]*>)")
_OPENS = r"(?:^|(?<=[\s(\[{—–/|]))"
_TYPESET = [
    (re.compile(r"&#34;|&quot;"), '"'), (re.compile(r"&#39;|&apos;"), "'"),
    (re.compile(_OPENS + '"'), "\u201c"), (re.compile('"'), "\u201d"),
    (re.compile(_OPENS + "'(?!s\\b)(?=\\S)"), "\u2018"), (re.compile("'"), "\u2019"),
    # the minus of a letter: "+N/-N", "(-X)"; "III-1", "Squeeze-3", "X-Y" keep their hyphen
    (re.compile(r"(?<![A-Za-z0-9_])-(?=[A-Z](?![A-Za-z]))"), "\u2212"),
    # a range of numbers takes the en dash ("5–6 players"), a spaced hyphen is a minus before
    # a number ("2n − 1") and a dash elsewhere ("Teleport – Action")
    (re.compile(r"(?<![\w.\u2212+])(\d+)-(\d+)(?![\w.])"), "\\1\u2013\\2"),
    (re.compile(r" - (?=\d)"), " \u2212 "), (re.compile(r" - "), " \u2013 "),
]


_HANS_QUOTES = str.maketrans({"「": "“", "」": "”", "『": "‘", "』": "’"})


def typeset(html: str) -> str:
    """A rendered sheet with its text set as printed: straight quotes become ‘ ’ “ ” (an
    apostrophe ’), a letter's minus the minus sign. Only the text between tags changes:
    attributes, styles and scripts keep their quotes. (The English sheets printed the curly
    “Optional” beside '"!" effect on the dwarf attacked', "the card's" and "+N/-N".)"""
    parts = _TAG.split(html)
    # Simplified Chinese quotes with “ ” (the DRG guide's “深核”, L495): a name spelt with the
    # Traditional 「」 printed 「深核」GK2突击步枪 beside “雷暴云砧”; Traditional sheets keep 「」
    hans = re.search(r'<html[^>]*\blang="zh-Hans"', html[:500]) is not None
    for i in range(0, len(parts), 2):       # even parts are text, odd ones markup
        text = parts[i]
        for pattern, glyph in _TYPESET:
            text = pattern.sub(glyph, text)
        if hans:
            text = text.translate(_HANS_QUOTES)
        parts[i] = text
    return "".join(parts)


_ROW_HEAD = re.compile(r"(<tr\b[^>]*>\s*<t[dh]\b[^>]*>\s*(?:<(?!/)[^>]*>\s*)*)([a-z])")


_NOTE_HEAD = re.compile(r"(<li id=\"fn\d+\"[^>]*>(?:(?!</li>).)*?<strong>)([a-z])", re.S)


def capitalise_row_heads(html: str) -> str:
    """An English table's rows start with a capital: a row's first cell is its heading, and
    the words it holds are often the vocabulary's for inside a sentence ('pickaxe die' under
    'Bullet die', 'blocks' and 'alert increase' heading Dungeontology's alert table); so does
    a footnote, which opens with the names it is about ('≈24 pickaxe die: ...')."""
    html = _ROW_HEAD.sub(lambda m: m.group(1) + m.group(2).upper(), html)
    return _NOTE_HEAD.sub(lambda m: m.group(1) + m.group(2).upper(), html)


def walk_strings(value, change: Callable[[str], str]):
    """`value` with `change` applied to every string inside it (dicts, lists, tuples)."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {k: walk_strings(v, change) for k, v in value.items()}
    if isinstance(value, list):
        return [walk_strings(v, change) for v in value]
    if isinstance(value, tuple):
        return tuple(walk_strings(v, change) for v in value)
    return value


def write_pdf(html: str, path: Path, max_pages: int | None = None,
              root: Path | None = None) -> None:
    """HTML -> PDF; `max_pages` keeps the first pages only (tests render a few, not all)."""
    from weasyprint import HTML  # imported here: slow to import, only needed for PDFs
    document = HTML(string=html, base_url=str(TEMPLATES)).render()
    if max_pages is not None:
        document = document.copy(document.pages[:max_pages])
    write_atomic(path, document.write_pdf(pdf_identifier=b"tomecraft-sheet"), root)


def render_game(game: Game, lang, formats, out: Path,
                progress: Callable[[str], None] | None = None,
                edition: str = "player") -> list[Path]:
    """Write every sheet of `game` in `lang` (one language or several) and `formats`, under
    <out>/<game>/ (<out>/<game>__<pack>/ with packs); the designer edition's files are
    named <sheet>.designer.<lang>.<format>."""
    from tomecraft.compiler.build import package_name
    langs = [lang] if isinstance(lang, str) else list(lang)
    suffix = "" if edition == "player" else f".{edition}"
    written = []
    for sheet in SHEETS.get(game.id, ()):
        for one in langs:
            html = render_html(game, sheet, one, edition)
            stem = Path(out) / package_name(game) / f"{sheet.name}{suffix}.{one}"
            written += write_formats(html, stem, formats, progress)
    return written


def write_formats(html: str, stem: Path, formats, progress: Callable[[str], None] | None) -> list[Path]:
    """Write one rendered sheet as `stem.html` and/or `stem.pdf`."""
    written = []
    for fmt in formats:
        path = stem.with_name(f"{stem.name}.{fmt}")
        if progress:
            progress(f"writing {path}")
        if fmt == "html":   # every sheet is at <out>/<package>/<file>: out is stem's grandparent
            write_atomic(path, html.encode("utf-8"), root=stem.parent.parent)
        else:
            write_pdf(html, path, root=stem.parent.parent)
        written.append(path)
    return written


def run_cli(args) -> int:
    """`tomecraft sheets`: --game G or --all, --pack DIR..., --lang, --format, --edition,
    --out. --all also prints every pack shipped under content/<game>/packs/."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    from tomecraft.compiler.console import UsageError, progress
    if args.mission:
        ignored = [option for option, given in (("--game", args.game), ("--all", args.all),
                                                ("--edition", args.edition != "player")) if given]
        if ignored:   # silently ignored: --game the_cave wrote a Deep Rock Galactic briefing
            raise UsageError(f"--mission writes one mission's briefing: {', '.join(ignored)} "
                             "is for the game's sheets")
        from tomecraft.compiler.sheets import deep_rock_galactic  # the only game with mission files
        return deep_rock_galactic.briefing_cli(args)
    packs = [Path(p) for p in getattr(args, "pack", None) or []]
    for pack in packs:
        if not (pack / "pack.yaml").is_file():
            raise UsageError(f"--pack {pack}: no pack.yaml in this directory")
    if args.all:   # every game, every shipped pack, and each --pack with its own game
        targets = [(root, extra) for root in pipeline.game_roots(pipeline.content_root())
                   for extra in [[]] + [[p] for p in pipeline.in_repo_packs(root)]]
        targets += [(pack_game(pack), [pack]) for pack in packs]
    elif args.game:
        targets = [(pipeline.game_root(args.game), packs)]
    else:
        raise UsageError("say which game: --game <id>, or --all")
    langs = list(dict.fromkeys(args.lang or LANGS))
    formats = list(dict.fromkeys(args.format or FORMATS))
    edition = getattr(args, "edition", None) or "player"
    status = 0
    if "pdf" in formats and _harfbuzz_subset_missing():
        progress("note: libharfbuzz-subset0 is not installed; PDF fonts are subset with "
                     "fontTools, which is much slower (apt-get install libharfbuzz-subset0)")
    for root, extra in targets:
        name = root.name + "".join(f" + {p.name}" for p in extra)
        if root.name not in SHEETS:
            progress(f"skipping {name}: no sheets are defined for this game yet")
            continue
        game = compile_or_report(root, extra, name)
        if game is None:
            status = 1
            continue
        render_game(game, langs, formats, Path(args.out), progress, edition)
    return status


def pack_game(pack: Path) -> Path:
    """content/<game>/ of the game a pack names in its pack.yaml."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    from tomecraft.compiler.console import UsageError
    reporter = dg.Reporter()
    target = pipeline.pack_target(pack, reporter)
    base = target.base if target is not None else None
    if base is None:
        print(dg.format_text(reporter))
        raise UsageError(f"--pack {pack}: cannot tell which game it belongs to")
    return base


def compile_or_report(root: Path, extra: list[Path], name: str, what: str = "sheets") -> Game | None:
    """The checked game, or None after printing its diagnostics (a clean check is needed:
    sheets and cards never print content check refuses)."""
    from tomecraft.compiler import diagnostics as dg, pipeline
    from tomecraft.compiler.console import UsageError, progress
    reporter = dg.Reporter()
    game = pipeline.compile_game(root, extra, reporter)
    if game is None or reporter.errors:
        print(dg.format_text(reporter))
        progress(f"{what} for {name} not written: fix the errors above")
        return None
    return game
