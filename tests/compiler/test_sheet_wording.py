"""Sentences on the sheets as a person writes them, whatever the content's numbers: a setting
printed in a sentence reads naturally at 0, at 1 and at 12 ("recover 0 lost HP", "per 1
graveyard cards", "You start with 1 cards" were printed), a list in brackets holds no brackets
of its own ("(Alert card (standard) 4, ...)"), and a die's faces are written alike."""
from __future__ import annotations

import copy
import importlib
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

REPO = Path(__file__).resolve().parents[2]
GAMES = ("clank_catacombs", "deep_rock_galactic", "dm_crawl_decks", "dungeontology", "the_cave")
_COMPILED: dict = {}


class _Text(HTMLParser):
    """A sheet's text, one line per block (paragraph, list item, table row)."""
    def __init__(self) -> None:
        super().__init__()
        self.out, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        self.skip += tag in ("style", "script")
        if tag in ("p", "li", "tr", "h1", "h2", "h3", "div", "br"):
            self.out.append("\n")
        elif tag in ("td", "th"):
            self.out.append(" | ")

    def handle_endtag(self, tag):
        self.skip -= tag in ("style", "script")

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def lines(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return [" ".join(line.split()) for line in "".join(parser.out).split("\n") if line.strip()]


def compiled(game_id: str):
    if game_id not in _COMPILED:
        reporter = dg.Reporter()
        game = pipeline.compile_game(REPO / "content" / game_id, [], reporter)
        assert game is not None and not reporter.errors, dg.format_text(reporter)
        _COMPILED[game_id] = game
    return copy.deepcopy(_COMPILED[game_id])


def settings(game) -> list[tuple[dict, str, int]]:
    """(data, field, least allowed) of each whole-number setting the sheets print: a rule's
    value the engine's contract bounds, and the fields of SETTING_KINDS (game.yaml's minimum)."""
    found = []
    contract = importlib.import_module(f"tomecraft.runtime.engines.{game.id}.contract")
    bounds = getattr(contract, "RULE_VALUES", {}) or {}
    for rule in game.of_kind("rule"):
        schema = bounds.get(rule.id)
        if isinstance(schema, dict) and schema.get("type") == "integer":
            found.append((rule.data, "value", schema.get("minimum", 0)))
    kinds = (yaml.safe_load((REPO / "content" / game.id / "game.yaml").read_text()) or {}).get("kinds", {})
    for kind in SETTING_KINDS:
        fields = (kinds.get(kind) or {}).get("fields", {})
        for entity in game.of_kind(kind):
            for name, schema in fields.items():
                if isinstance(schema, dict) and schema.get("type") == "integer" \
                        and isinstance(entity.data.get(name), int):
                    found.append((entity.data, name, schema.get("minimum", 0)))
    return found


# kinds whose whole-number fields the rules sheets print in sentences: Crawl Decks' board
# values, Dungeontology's alert cards (students in the bag) and notebook (slots a column)
SETTING_KINDS = ("board", "alert_card", "notebook")


# what no one writes: a singular count with a plural noun, "per 1 X", a verb of 0
_NOT_PLURAL = {"its", "this", "his", "is", "was", "has", "us", "less", "plus", "bonus", "does", "as"}
_NOT_ADJECTIVE = {"to", "as", "per", "in", "on", "at", "from", "and", "or", "the", "of", "if", "is"}
_ONE = re.compile(r"\b1 (?:([a-z-]+) )?([a-z]+s)\b")
_EN_BAD = [re.compile(r"\bper 1 [a-z]"),
           re.compile(r"\b(?:recover|gain|draw|keep|lose|reveal|spend|with|hold|pay|pays|per) 0\b")]
_ZH_BAD = [re.compile(r"(?:回复|获得|抽|选|每|翻开|失去|持有|少付)0(?![.\d])"), re.compile(r"每1(?:张|个|名|点)")]


def unnatural(text: list[str], lang: str) -> list[str]:
    bad = []
    for line in text:
        if "≈" in line:          # an approximation's note quotes the rulebook's numbers
            continue
        if lang == "en":
            if any(m.group(1) not in _NOT_ADJECTIVE and m.group(2) not in _NOT_PLURAL
                   for m in _ONE.finditer(line)) or \
                    any(p.search(line) for p in _EN_BAD):
                bad.append(line)
        elif any(p.search(line) for p in _ZH_BAD):
            bad.append(line)
    return bad


def test_a_counted_placeholder_takes_the_form_of_its_number():
    text = "{n|no card|1 card|# cards} for {who}"
    assert [sheets.fill(text, {"n": n, "who": "you"}) for n in (0, 1, 12)] == \
        ["no card for you", "1 card for you", "12 cards for you"]
    # a form holds placeholders of its own; an unknown name stays as written
    assert sheets.fill("{a|x|{b} once|{b} # times}", {"a": 3, "b": "go"}) == "go 3 times"
    assert sheets.fill("{zz|x|y|z}", {}) == "{zz|x|y|z}"


@pytest.mark.parametrize("game_id", ["clank_catacombs", "deep_rock_galactic", "dm_crawl_decks", "dungeontology"])
@pytest.mark.parametrize("count", [0, 1, 12])
def test_every_setting_reads_naturally_at_0_1_and_12(game_id, count):
    """Every whole-number setting of the game set to `count` (or the least it may be): the
    rules sheets in both languages hold no "1 cards", "per 1 token", "recover 0", "每0"."""
    game = compiled(game_id)
    changed = settings(game)
    assert changed, f"{game_id}: no setting found to vary"
    for data, name, least in changed:
        data[name] = max(count, least)
    for sheet in sheets.SHEETS[game_id]:
        for lang in ("en", "zh"):
            bad = unnatural(lines(sheets.render_html(game, sheet, lang)), lang)
            assert not bad, (sheet.name, lang, bad)


def _nested(line: str) -> bool:
    depth = 0
    for ch in line:
        if ch in "(（":
            depth += 1
            if depth > 1:
                return True
        elif ch in ")）":
            depth = max(0, depth - 1)
    return False


@pytest.mark.parametrize("game_id", GAMES)
def test_no_sheet_sentence_holds_brackets_within_brackets(game_id):
    game = compiled(game_id)
    for sheet in sheets.SHEETS[game_id]:
        for lang in ("en", "zh"):
            nested = [line for line in lines(sheets.render_html(game, sheet, lang)) if _nested(line)]
            assert not nested, (sheet.name, lang, nested)


def test_a_die_s_faces_are_counted_and_written_alike():
    """The weapons sheet's dice: each face once with its count, every face word in one case
    ("blank, Scare, hit, hit, hit×2, hit×2" and "blank, Teeth, !" were printed)."""
    game = compiled("deep_rock_galactic")
    weapons = next(s for s in sheets.SHEETS["deep_rock_galactic"] if s.name == "weapons")
    text = lines(sheets.render_html(game, weapons, "en"))
    start = text.index("| Die | Faces") + 1
    rows = [line for line in text[start:start + len(game.of_kind("die"))]]
    assert len(rows) == len(game.of_kind("die")) and all(line.startswith("| ") for line in rows)
    for row in rows:
        faces = row.split(" | ")[-1].split(", ")
        assert len({f.split(" ", 1)[1] for f in faces}) == len(faces), row     # each face once
        for face in faces:
            count, word = face.split(" ", 1)
            assert count.isdigit() and not word[0].isupper(), row
    monster = next(row for row in rows if row.startswith("| Monster attack die"))
    assert monster.endswith("| 2 blank, 3 teeth, 1 “!”")


_SMALL = {"the", "a", "an", "at", "to", "into", "in", "on", "of", "is", "are", "it", "its", "and",
          "or", "by", "for", "with", "as"}


def _says_again(name: str, said: str) -> bool:
    """Whether `said` only repeats words (zh: characters) of `name`."""
    if re.search(r"[\u3400-\u9fff]", said):
        chars = [c for c in said if re.match(r"[\u3400-\u9fff0-9]", c) and c not in "的为在时之了着是与和及"]
        return bool(chars) and all(c in name for c in chars)
    stem = lambda w: w[:-1] if len(w) > 3 and w.endswith("s") else w   # noqa: E731
    words = {stem(w) for w in re.findall(r"[a-z0-9]+", said.casefold())} - _SMALL
    return bool(words) and words <= {stem(w) for w in re.findall(r"[a-z0-9]+", name.casefold())}


@pytest.mark.parametrize("game_id", GAMES)
def test_no_footnote_says_its_name_again(game_id):
    """A player footnote names what is approximated and says what the sheet assumes; one whose
    words only repeat its name says nothing ("≈17 HP 0 ends the game at once: the game ends at
    once.", "≈17 点数降至0或以下即送墓：点数为0或以下。")."""
    game = compiled(game_id)
    for sheet in sheets.SHEETS[game_id]:
        for lang in ("en", "zh"):
            for line in lines(sheets.render_html(game, sheet, lang)):
                found = re.match(r"^≈\d+ (.+?)[:：](.+)$", line)
                if found and len(found.group(2).split()) <= 8:
                    assert not _says_again(found.group(1), found.group(2).rstrip(".。")), (sheet.name, lang, line)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_drg_sheets_say_the_bang_face_and_the_exits_alike(lang):
    """The monster die's “!” face in quotes wherever a sentence names it ("put 1 Grunt per !
    result in the roll at each revealed Tunnel Exit"), tunnel exits in one case beside "tunnel
    exits 1 and 2", and in Chinese the guide's words: 虫群通道出口 and 深坑 (the keywords said
    隧道出口 and 坑洞, words the guide never uses)."""
    game = compiled("deep_rock_galactic")
    text = "\n".join(line for sheet in sheets.SHEETS["deep_rock_galactic"]
                     for line in lines(sheets.render_html(game, sheet, lang)) if "≈" not in line)
    assert not re.search(r"(?<![“\"])[!！](?![”\"])", text)
    if lang == "en":
        assert "Tunnel Exit" not in text and "tunnel exit" in text
    else:
        assert "隧道出口" not in text and "坑洞" not in text and "虫群通道出口" in text
