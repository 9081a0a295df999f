"""English word forms (plurals, articles) and Chinese measure words for rules text.

The vocabulary may give a name's English plural (`en_plural`, a mass noun gives itself) and its
Chinese measure word (`zh_measure`); what it leaves out comes from the regular rules here.
"""
from __future__ import annotations

import re

# Nouns English does not count: "2 gold", "3 damage". The vocabulary's `en_plural` overrides.
MASS_NOUNS = {"ammo", "gold", "damage", "food", "health", "equipment", "movement", "combat",
              "skill", "stealth", "information", "money", "oxygen", "clank!",
              "nitra", "morkite", "aquarq", "xp", "hp", "ap"}
_IRREGULAR = {"die": "dice", "man": "men", "child": "children", "foot": "feet", "mouse": "mice",
              "dwarf": "dwarves", "staff": "staves", "knife": "knives", "wolf": "wolves",
              "leaf": "leaves", "life": "lives", "half": "halves", "scarf": "scarves"}
# Words whose spelling and sound disagree about "a" and "an".
_AN_EXCEPTIONS = ("hour", "honest", "honour", "honor", "heir")
_A_EXCEPTIONS = ("one", "once", "uni", "use", "usu", "eu", "ewe", "ure", "uri")
_VOWEL_LETTERS = set("AEFHILMNORSX")  # a capital letter standing alone, said as its name

# Measure words of Chinese rules text (a number, then one of these, then the noun).
MEASURES = set("个張张点點只隻颗顆名格次枚位块塊条條份轮輪步组組片层層堆本件副对對回")


def pluralise(phrase: str) -> str:
    """The regular English plural of a noun phrase: its last word changes (the last word
    before a closing parenthetical: "one-way arrow (inwards only)")."""
    if phrase.endswith(")") and " (" in phrase:
        noun, _, note = phrase.partition(" (")
        return pluralise(noun) + " (" + note
    head, sep, last = phrase.rpartition(" ")
    if not last or last.lower() in MASS_NOUNS or not last[:1].isalpha() or last.isupper():
        return phrase
    lower = last.lower()
    if lower in _IRREGULAR:
        plural = _IRREGULAR[lower]
        plural = plural.capitalize() if last[:1].isupper() else plural
    elif lower.endswith(("s", "x", "z", "ch", "sh")) and not lower.endswith(("ics",)):
        plural = last if lower.endswith("s") else last + "es"
    elif lower.endswith("y") and lower[-2:-1] not in set("aeiou"):
        plural = last[:-1] + "ies"
    else:
        plural = last + "s"
    return head + sep + plural


def singularise(word: str) -> str:
    """"hits" -> "hit", "dice" -> "die", "enemies" -> "enemy": a counted noun said of one."""
    irregular = {plural: one for one, plural in _IRREGULAR.items()}
    if word.lower() in irregular:
        return irregular[word.lower()]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def article(phrase: str) -> str:
    """"a" or "an" before `phrase`."""
    word = re.sub(r"^[^\w]+", "", phrase)
    if not word:
        return "a"
    if len(word) == 1 or (len(word) > 1 and not word[1].isalnum()):
        return "an" if word[0].upper() in _VOWEL_LETTERS and word[0].isupper() \
            or word[0].lower() in "aeio" else "a"
    lower = word.lower()
    if lower.startswith(_AN_EXCEPTIONS):
        return "an"
    if lower.startswith(_A_EXCEPTIONS):
        return "a"
    if word[:2].isupper() and word[0] in _VOWEL_LETTERS:  # an IFG token, an HP
        return "an"
    return "an" if lower[0] in "aeiou" else "a"


def number(value: int) -> str:
    """A whole number as the sheets print it: a negative one with the typeset minus (U+2212),
    "Score \u22122 points", never the hyphen-minus of the effect's source."""
    return str(value) if value >= 0 else "\u2212" + str(-value)


def is_singular_count(text: str) -> bool:
    """A count that takes a singular noun: 1 (or -1, +1)."""
    return text.lstrip("+-\u2212") == "1"


def is_simple_count(text: str) -> bool:
    """A count a number agrees with as it stands: digits, a letter variable, `1+2`."""
    return bool(re.fullmatch(r"[-+\u2212]?(\d+|[A-Z])([-+\u2212×÷]\(?[-+\u2212]?(\d+|[A-Z])\)?)*", text))
