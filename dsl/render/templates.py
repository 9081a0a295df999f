"""The template grammar of verbs, queries and keywords (their zh/en `text` in game.yaml).

A template is text with `{param}` placeholders. Beyond plain substitution:

- English agreement: a count placeholder (an int parameter) governs the noun phrase after it,
  up to a preposition, a conjunction or punctuation. The phrase's last word is its head and
  agrees with the count: a placeholder head takes its name's plural (`en_plural`, else the
  regular one), a literal head is written `card(s)`, `match(es)` or `[die|dice]`.
  "take {amount} random {token}" -> "take 1 random prisoner" / "take 2 random prisoners".
- English articles: "a {x}" / "an {x}" take the article the value's first word needs.
- Chinese measure words: "{amount}{token}" -> "2个囚犯标记" when the name declares its
  `zh_measure` and the template has none there.
- A count that is not a number becomes a letter X and is defined after the clause: "gain X gold,
  where X is the Clank! gained" / "造成X点子弹伤害（X为掷骰结果的命中数）". In English a count
  "the number of hits in the roll" reads "deal 1 bullet damage per hit in the roll" instead.
- A `(s)` or `[a|b]` no count governs reads as its plural; `{name:plural}` is always plural
  ("the number of {token:plural} left").
- `{amount:signed}` writes a count with its sign, as cards print a change: "+1 Clank!",
  "−2 Clank!" ("{amount:signed} Clank!"; a count that is not a number reads "+X"; the minus
  is the typeset one, U+2212, as every signed number on the sheets).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from tomecraft.dsl.render.words import (MEASURES, article, is_simple_count, is_singular_count,
                              pluralise, singularise)


@dataclass(frozen=True)
class Arg:
    """One argument as rendered, with what agreement needs to know about it."""
    text: str
    plural: str = ""     # English plural of a noun; "" -> the regular plural of `text`
    measure: str = ""    # Chinese measure word of a noun
    count: bool = False  # an int parameter: it governs the noun phrase after it

    def plural_text(self) -> str:
        return self.plural or pluralise(self.text)


_TOKEN = re.compile(r"\{(?P<ph>[A-Za-z_]\w*)(?P<form>:plural|:signed)?\}|\[(?P<one>[^\]|]*)\|(?P<many>[^\]]*)\]"
                    r"|(?P<word>[A-Za-z][\w'!-]*)(?P<mark>\((?:e?s)\))?|(?P<space> )"
                    r"|(?P<other>.)", re.S)
# Words that end a noun phrase after a count.
_STOP = {"from", "in", "on", "at", "to", "into", "onto", "below", "above", "of", "for", "and",
         "or", "with", "by", "toward", "towards", "per", "each", "if", "then", "that", "which",
         "as", "but", "than", "away", "back", "instead", "this", "the", "your", "their", "its",
         "is", "are", "you", "it", "they", "when", "until", "without", "among", "between",
         "under", "over", "across", "through", "while", "where", "who", "whose", "ignoring"}


_PLUS_BEFORE = re.compile(r"\+\{([A-Za-z_]\w*)\}")


def fill(template: str, args: dict[str, Arg], lang: str,
         new_letter: Callable[[], str]) -> str:
    """`template` with its placeholders filled, agreeing as the module docstring says."""
    # a sign written before a count is its sign: "警戒值+{amount}" with -1 read "警戒值+−1"
    template = _PLUS_BEFORE.sub(r"{\1:signed}", template)
    defs: list[tuple[str, str]] = []
    values = {}
    per: dict[str, str] = {}   # placeholder -> "hit in the roll": "1 damage per hit in the roll"
    prefix = ""                # zh: "你每持有1个囚犯，" before "得1分"
    for name, arg in args.items():
        unit, times = _per_unit(template, name, arg) if lang == "en" else ("", "1")
        if unit:
            per[name] = unit
            arg = Arg(times, count=True)
        elif lang == "zh" and arg.count and _zh_per(arg.text) \
                and template.count("{%s" % name) == 1 and not prefix:
            prefix = _zh_per(arg.text)      # "你每持有1个囚犯，得1分"
            arg = Arg("1", count=True)
        elif arg.count and lang == "en" and _said_in_place(template, name, arg, args):
            arg = Arg(arg.text)   # "add the bonus value of ... to the stealth value"
        elif arg.count and not is_simple_count(arg.text):
            letter = new_letter()
            defs.append((letter, arg.text))
            arg = Arg(letter, count=True)
        values[name] = arg
    text = _fill_zh(template, values) if lang == "zh" else _fill_en(template, values, per)
    text = prefix + text
    if not defs:
        return text
    if lang == "zh":
        return text + "（" + "；".join(f"{x}为{d}" for x, d in defs) + "）"
    return text + ", where " + " and ".join(f"{x} is {d}" for x, d in defs)


def _fill_zh(template: str, values: dict[str, Arg]) -> str:
    def repl(m: re.Match) -> str:
        count, noun = values.get(m.group(1)), values.get(m.group(2))
        if count is None or noun is None:
            return m.group(0)
        measure = noun.measure if count.count and noun.measure else ""
        return "{%s}%s{%s}" % (m.group(1), measure, m.group(2))
    template = re.sub(r"\{(\w+)\}\{(\w+)\}", repl, template)
    template = template.replace(":plural}", "}")

    def value(m: re.Match) -> str:
        arg = values.get(m.group(1))
        if arg is None:
            return m.group(0)
        return signed(arg.text) if m.group(2) else arg.text
    return re.sub(r"\{([A-Za-z_]\w*)(:signed)?\}", value, template)


def signed(text: str) -> str:
    """A count with its sign: "+1", "−2" (the typeset minus), "+X" ("+0" for none)."""
    if text.startswith("-"):
        return "\u2212" + text[1:]
    return text if text.startswith(("+", "\u2212")) else "+" + text


def _per_unit(template: str, name: str, arg: Arg) -> tuple[str, str]:
    """What a count "the number (or amount) of hits in the roll" counts, said of one ("hit
    in the roll"), and how many per one ("1"; "2" for the count times 2), so that the template
    reads "deal 1 damage per hit in the roll": a person's words for "deal X damage, where X is
    the number of hits in the roll". Not after "the top" ("the top 1 card per hit" would read
    as one card), nor for a count with other arithmetic: `treasures_held() + 1` read "gain 1
    gold per treasure you hold+1" ("" when it is not said per one)."""
    text, times = arg.text, "1"
    product = re.fullmatch(r"(.+?)×(\d+)", text) or re.fullmatch(r"(\d+)×(.+)", text)
    if product:     # "2 combat per Clank! you gained", for the count times 2
        text, times = (product.group(1), product.group(2)) if product.group(2).isdigit() \
            else (product.group(2), product.group(1))
    if re.search(r"[×÷+\u2212]", text):
        return "", "1"
    m = (_NUMBER_OF.fullmatch(text) or _YOUR_THINGS.fullmatch(text)) if arg.count else None
    if m is None or re.search(r"\b(top|bottom|first|last) \{%s\}" % re.escape(name), template):
        return "", "1"
    words = m.group(1).split(" ")
    head = next((i - 1 for i in range(1, len(words)) if words[i].lower() in _STOP),
                len(words) - 1)
    words[head] = singularise(words[head])
    return " ".join(words), times


_NUMBER_OF = re.compile(r"the (?:number|amount) of (.+)")
_YOUR_THINGS = re.compile(r"your ([\w -]+s)")   # "your recorded signposts": 1 per recorded signpost


_ZH_PER = (re.compile(r"你持有的([^的（]+?)[數数]((?:（[^）]*）)?)"), re.compile(r"你的([^的（]+?)[數数]"))


def _zh_per(count: str) -> str:
    """What you hold or have, counted one by one, as Chinese says "per": "你每持有1个囚犯，"
    for a count "你持有的囚犯数" (the English reads "score 1 point per prisoner you hold"),
    not "得X分（X为你持有的囚犯数）"; "" for a count of another shape."""
    for pattern, verb in zip(_ZH_PER, ("持有", "有")):
        m = pattern.fullmatch(count)
        if m:
            things = m.group(1)
            measure = "張" if things.endswith(("牌", "卡")) else "個"
            remark = m.group(2) if m.lastindex and m.lastindex > 1 else ""
            return f"你每{verb}1{measure}{things}{remark or ''}，"
    return ""


def _said_in_place(template: str, name: str, arg: Arg, args: dict[str, Arg]) -> bool:
    """Whether a count that is not a number can stand where its letter would: a noun phrase
    ("the bonus value of the card chosen") that is the object itself, no noun after it
    ("add {amount} to the stealth value"), reads better than "add X ..., where X is ..."."""
    if is_simple_count(arg.text) or not arg.text.startswith("the "):
        return False
    tokens = list(_TOKEN.finditer(template))
    at = [i for i, t in enumerate(tokens) if t.group("ph") == name]
    return len(at) == 1 and not _phrase(tokens, at[0] + 1, args)


def _fill_en(template: str, values: dict[str, Arg], per: dict[str, str] | None = None) -> str:
    tokens = [m for m in _TOKEN.finditer(template)]
    forms: dict[int, bool] = {}   # token index -> plural?
    per_after: dict[int, str] = {}   # token index -> " per hit in the roll" said after it
    for i, tok in enumerate(tokens):
        arg = values.get(tok.group("ph") or "")
        if arg is None or not arg.count:
            continue
        head = _phrase_head(tokens, i + 1, values)
        if head is not None:
            forms[head] = not is_singular_count(arg.text)
        if per and tok.group("ph") in per:
            per_after[_phrase_end(tokens, i + 1, values) or i] = " per " + per[tok.group("ph")]
    out = []
    for i, tok in enumerate(tokens):
        if i - 1 in per_after:
            out.append(per_after[i - 1])
        if tok.group("ph"):
            arg = values.get(tok.group("ph"))
            if arg is None:
                out.append(tok.group(0))
            else:
                if tok.group("form") == ":signed":
                    out.append(signed(arg.text))
                    continue
                plural = forms.get(i) or tok.group("form") == ":plural"
                out.append(arg.plural_text() if plural else arg.text)
        elif tok.group("one") is not None:
            out.append(tok.group("many") if forms.get(i, True) else tok.group("one"))
        elif tok.group("word"):
            word, mark = tok.group("word"), tok.group("mark")
            if _after_you(tokens, i, values):
                word = third_person_to_base(word)
            if word in ("a", "an", "A", "An") and _next_value(tokens, i, values):
                chosen = article(_next_value(tokens, i, values))
                word = chosen.capitalize() if word[0] == "A" else chosen
            if mark:
                word += mark[1:-1] if forms.get(i, True) else ""
            out.append(word)
        else:
            out.append(tok.group(0))
    if len(tokens) - 1 in per_after:
        out.append(per_after[len(tokens) - 1])
    # "reveal the top 1 scheme card" -> "reveal the top scheme card": a person drops the one
    return _THE_TOP_ONE.sub(r"\1 ", "".join(out))


_THE_TOP_ONE = re.compile(r"\b(the (?:top|bottom|first|last)) 1 (?=[A-Za-z])")


def _phrase_end(tokens, start: int, values: dict[str, Arg]) -> int | None:
    """Index of the last token of the noun phrase starting at `start`, or None."""
    phrase = _phrase(tokens, start, values)
    return phrase[-1] if phrase else None


def _phrase_head(tokens, start: int, values: dict[str, Arg]) -> int | None:
    """Index of the head of the noun phrase starting at `start` (after a space), or None."""
    phrase = _phrase(tokens, start, values)
    # The head: the first word marked for number ("token(s)", "[die|dice]"), else a name
    # that ends the phrase or comes right before a word that is not part of it ("face up").
    for j in phrase:
        if tokens[j].group("mark") or tokens[j].group("one") is not None:
            return j
    names = [j for j in phrase if tokens[j].group("ph")]
    if names and (names[-1] == phrase[-1] or not _is_noun_word(tokens[names[-1] + 2])):
        return names[-1]
    return None


def _phrase(tokens, start: int, values: dict[str, Arg]) -> list[int]:
    """Token indexes of the words of the noun phrase starting at `start` (after a space)."""
    if start >= len(tokens) or not tokens[start].group("space"):
        return []
    phrase = []
    i = start
    while i + 1 < len(tokens) and tokens[i].group("space"):
        tok = tokens[i + 1]
        if tok.group("ph"):
            arg = values.get(tok.group("ph"))
            if arg is None or arg.count:
                break
        elif tok.group("one") is None:
            word = tok.group("word")
            if not word or (word.lower() in _STOP and not _inside_title(tokens, i + 1, phrase)):
                break
        phrase.append(i + 1)
        i += 2
    return phrase


def _inside_title(tokens, i: int, phrase: list[int]) -> bool:
    """Whether the small word at token i joins two capitalised words of one name ("Rock and
    Stone card(s)", "Bottle of Ale"): the count then governs the noun after the name."""
    def capitalised(j: int) -> bool:
        word = tokens[j].group("word") if 0 <= j < len(tokens) else None
        return bool(word) and word[0].isupper()
    return bool(phrase) and capitalised(phrase[-1]) and i + 2 < len(tokens) \
        and bool(tokens[i + 1].group("space")) and capitalised(i + 2)


def _is_noun_word(tok) -> bool:
    """A literal word after a name inside a noun phrase: the name is then a modifier
    ("{damage_type} damage"); an adverb or particle ("up", "back") is not."""
    return bool(tok.group("word")) and tok.group("word").lower() not in _PARTICLES


_PARTICLES = {"up", "down", "off", "out", "over", "around", "here", "there", "now", "again",
              "instead", "too", "more", "face", "random", "at"}


def _next_value(tokens, i: int, values: dict[str, Arg]) -> str:
    """The text of the placeholder right after token i and a space, if there is one."""
    if i + 2 < len(tokens) and tokens[i + 1].group("space") and tokens[i + 2].group("ph"):
        arg = values.get(tokens[i + 2].group("ph"))
        return arg.text if arg is not None else ""
    return ""


def has_measure_after(template: str, name: str) -> bool:
    """Whether the zh template puts a measure word right after `{name}`."""
    m = re.search(r"\{%s\}(.)" % re.escape(name), template)
    return bool(m and m.group(1) in MEASURES)


def _after_you(tokens, i: int, values: dict[str, Arg]) -> bool:
    """Whether token i is the word right after a placeholder that reads "you"."""
    if i < 2 or not tokens[i - 1].group("space") or not tokens[i - 2].group("ph"):
        return False
    arg = values.get(tokens[i - 2].group("ph"))
    return arg is not None and arg.text.lower() == "you"


def third_person_to_base(verb: str) -> str:
    """"discards" -> "discard", "has" -> "have": a verb written for "it" said of "you"."""
    special = {"has": "have", "is": "are", "does": "do", "was": "were"}
    if verb in special:
        return special[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "oes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb
