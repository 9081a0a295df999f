"""Diagnostics: stable codes, exact positions, caret snippets, text and JSON output.

Every stage reports problems through a Reporter instead of raising, so one run shows them all.
The catalogue of codes lives in CODES; `tomecraft explain CODE` prints its entry.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

# Characters never printed raw: C0 controls but tab and newline, DEL, C1 controls, and the
# bidirectional overrides that make a terminal show other text than the file holds.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
MAX_SNIPPET_FILE = 2 * 1024 * 1024


def escape_controls(text: str) -> str:
    """Text safe for a terminal, a report or a sheet: control characters shown as escapes."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), str(text))


def one_line(text: str) -> str:
    """escape_controls, newlines too: a record that must stay one line (a progress line, a
    usage error, a scenario's verdict) whatever the names inside it hold."""
    return escape_controls(text).replace("\n", "\\n")


# Content may hold a carriage return (a Windows line break, written escaped): it is shown
# escaped like the others, but only these are refused in content.
_REFUSED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def find_control(text: str):
    """The first control character content may not hold (a match), or None."""
    return _REFUSED.search(text)


def strip_controls(text: str) -> str:
    return _CONTROL.sub("", text)


def json_controls(text: str) -> str:
    """JSON text with the control characters json.dumps leaves raw (C1, bidi) escaped."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    title: str
    explanation: str
    severity: str = ERROR


CODES: dict[str, Code] = {}


def _code(code: str, title: str, explanation: str, severity: str = ERROR) -> str:
    CODES[code] = Code(code, title, explanation, severity)
    return code


# --- the catalogue ----------------------------------------------------------------------
# Y: reading files.  S: schema.  E: effect language.  N: names and types.  R: references.
# P: packs.  C: the engine contract.  G: game rules.  B: build.  X: usage.
FILE_UNREADABLE = _code("TC-Y001", "file cannot be read", "The file could not be opened or is not valid UTF-8 text. Save it as UTF-8.")
YAML_SYNTAX = _code("TC-Y002", "YAML syntax error", "The YAML parser could not read the file. Common causes: a tab used for indentation (YAML allows spaces only), an unclosed quote or bracket, a `:` missing after a key, a key indented differently from the other keys of its entity, a `: ` inside a value that is not in quotes (`effect: \"if C: A\"`).")
YAML_DUPLICATE_KEY = _code("TC-Y003", "duplicate key", "The same key appears twice in one mapping. YAML would silently keep the last one; tomecraft refuses it so no value is lost by accident.")
YAML_TAG = _code("TC-Y004", "YAML tag not allowed", "Content is untrusted: only plain YAML (maps, lists, strings, numbers, booleans, null) is accepted. Tags such as `!!python/object` are refused.")
YAML_TOO_BIG = _code("TC-Y005", "file too large or too deep", "A file may be at most 2 MiB, nest at most 64 levels (counted on the parser's event stream, before any tree is built) and expand at most 10,000 nodes through aliases. The limits stop malicious files (deep nesting, alias bombs) from crashing the parser or exhausting memory.")
YAML_NOT_MAPPING = _code("TC-Y006", "top level must be a mapping", "A content file is a mapping from an entity kind's plural name (for example `tile_kinds:`) to a list of entities.")
CONTROL_CHAR = _code("TC-Y008", "control character in content", "A string or key holds a control character (ESC, NUL, BEL, DEL, a C1 control or a bidirectional override), written raw or as a YAML escape such as \"\\e\". Content is printed to terminals and sheets, so only tab and newline are allowed.")
SYMLINK = _code("TC-Y009", "symbolic link refused", "Content files, pack manifests, mission and scenario files and pack folders must be real files and folders, not symbolic links: a link could make tomecraft read, and print, a file that is not part of the content. Nothing is read through the link; copy the file instead.")
NUMBER_TOO_BIG = _code("TC-Y010", "number too large", "An integer in a content file is beyond 2**63 - 1 in size. No game counts that high; such numbers only slow every later stage down (converting a 5,000-digit number to text is refused by Python).")
YAML_KEY_TYPE = _code("TC-Y007", "keys must be strings", "Every mapping key must be a plain string.")
SCHEMA = _code("TC-S001", "schema violation", "A value does not match the JSON Schema of its entity kind. The schemas are exported under `schemas/` for editors (yaml-language-server); `tomecraft schema --out DIR` writes them anywhere, and a pack from `tomecraft new pack` has them in its `.schemas/`.")
UNKNOWN_KIND = _code("TC-S002", "unknown entity kind", "The top-level key of a content file must be the plural name of an entity kind declared under `kinds:` in the game's game.yaml.")
DUPLICATE_ID = _code("TC-S003", "duplicate id", "Two entities of the same kind have the same id. Ids must be unique per kind across all loaded packs, unless a pack replaces the entity explicitly with `replace: true`: an entity of the game or of a pack loaded before it, never one of the pack's own (rename one of the two).")
PROVENANCE = _code("TC-S004", "provenance missing", "Every entity records where its facts come from: `source: rulebook` (with `ref:` to the rulebook lines), `public` or `approximation` (both with a `note:`).")
WRONG_LANGUAGE = _code("TC-S006", "text in the other language", "A text is written `{zh: ..., en: ...}`, and each sheet prints one of the two: the Chinese sheets the `zh` text, the English sheets the `en` text. A `zh` text with no Chinese character (`{zh: Harvest, en: Harvest}`) is printed as it is on the Chinese sheets, and an `en` text holding Chinese on the English sheets: write each in its own language.", WARNING)
NUMBER_OUT_OF_RANGE = _code("TC-S007", "number out of range", "A number in an entity's fields is past what play can build: one value at most 10,000, and the values of one field across a kind's entities (all packs together) at most 100,000 in all. Play builds what a number counts for every game (copies of a card, a supply, dice to roll, rounds to play), so a huge count used to exhaust memory or never end after a clean check. Numbers in effects have their own, smaller bounds (TC-E002).")
VOCAB = _code("TC-S005", "invalid vocabulary", "game.yaml or a pack's `vocabulary:` does not match the vocabulary format (see README, 'Writing content'), or declares a name the effect language has already: a reserved word (`each`, `target`), a Python keyword, or a built-in name (`you`, `self`, `it`, `target`, `event`), as a name, a term, a verb, a query or a keyword (a keyword's parameter so named is TC-N008).")
EFFECT_SYNTAX = _code("TC-E001", "effect syntax error", "An effect string could not be parsed. The caret points at the first character the parser could not accept, inside the YAML string.")
UNKNOWN_NAME = _code("TC-N001", "unknown name", "A name in an effect is not in the game's vocabulary (verbs, queries, keywords, resources, zones, stats, statuses, events, terms, entity ids) nor a local (you, self, it, target, event, let-bound names, keyword parameters).")
WRONG_ARITY = _code("TC-N002", "wrong number of arguments", "A verb, query or keyword was given more or fewer arguments than its parameters in game.yaml.")
WRONG_TYPE = _code("TC-N003", "argument of the wrong type", "An argument's type does not match the parameter's declared type (int, bool, a name type such as resource or zone, or an entity kind).")
NOT_A_COST = _code("TC-N004", "not payable as a cost", "Only verbs declared with `cost: true` in game.yaml can stand before `->`: a cost must be checkable before it is paid.")
BAD_NAME = _code("TC-N008", "invalid or reserved name", "A let-bound name in an effect must follow the rule of every name that becomes an identifier (ids, kinds, fields, keywords, parameters, pack and mission ids, which the schemas check as TC-S001, TC-S005 or TC-P001): it must be lower_snake_case ASCII matched in full (`[a-z][a-z0-9_]*`, no trailing newline), and not a Python keyword (`class`, `import`, `match`...) or a name the generated code reserves (`self`, `ctx`, `cls`). Nor may a let hide a name the game gives a meaning (a verb, a token, an entity id, `you`): `let traverse = 1; gain_token traverse traverse` would read differently to the checker and to the generated code.")
BELOW_LEAST = _code("TC-N009", "amount below its least", "An int parameter of a verb or keyword may declare `min:` in game.yaml (`{name: amount, type: int, min: 1}`); a constant argument below it is refused: `gain skill 0` gains nothing and printed \"Gain 0 skill\", `draw -2` drew nothing, `gain skill -1` printed \"Gain \u22121 skill\". To take something away, use the verb that says so (`pay`, `discard`, `lose_hp`). An argument that reads the game (`gain gold count(...)`) is not known until play.")
EFFECT_BOUNDS = _code("TC-E002", "effect out of bounds", "The effect language is bounded so every effect finishes quickly: `repeat` counts, number literals and a verb's amount times the repeats around it must stay within game-sized limits (see the message), constant arithmetic must stay within them too, and dividing by a literal zero is refused.")
RECURSIVE_KEYWORD = _code("TC-E003", "recursive keyword", "A keyword uses itself, directly or through other keywords. Keywords are expanded like macros and must not call each other in a cycle: it would never end.")
STEP_BUDGET = _code("TC-E004", "effect ran past its step budget", "At run time every effect and every game has a step budget (a step is a call of a generated function: an effect, a keyword, the body of a trigger; or a round of `repeat` or `each`). An effect that exceeds it is stopped and reported at its file and line instead of hanging the simulation. Bound the loop (`repeat`) or the counts it depends on.")
NESTED_TRIGGER = _code("TC-E005", "trigger inside a trigger's body", "A colon body runs to the end of its block, so in `on A: x; on B: y` the trigger on B is part of A's body: each time A happens, one more trigger on B is registered, and B's effect does nothing until A has happened. To write two triggers, close the first body with braces: `on A { x }; on B: y`. (A trigger or `during` that begins a body, `on A: on B: y`, is taken as meant.)", WARNING)
REPEATED_COST = _code("TC-E006", "the same cost twice before one `->`", "Each cost before `->` is checked on its own before any is paid: `use_oxygen, use_oxygen` is offered to a team with one use left, then the second payment fails and the game stops; `pay ap 2, pay ap 2` is offered with 2 AP. Write the cost once with the amounts added (`spend oxygen 2`, `pay ap 4`), so it is checked as a whole.")
WRONG_CONTEXT = _code("TC-N005", "name used outside its context", "`event` exists only inside `on EVENT:`, `it` only inside `each`, `target` only inside `target`.")
UNKNOWN_FIELD = _code("TC-N006", "unknown attribute", "An attribute (`x.name`) must be a declared stat, an event field, or a field of an entity kind.")
NO_TEXT = _code("TC-N007", "no rules text", "A name an effect uses (an event's field, an entity kind's field) has no zh/en text, so the sheets' rules text can only show it as plain words (English) or a neutral phrase (Chinese). Give event fields as `{type: int, zh: ..., en: ...}` and kind fields an `x-text: {zh: ..., en: ...}`.", WARNING)
UNKNOWN_REF = _code("TC-R001", "unknown reference", "A field refers to an entity id that no loaded pack defines, or to a name the vocabulary does not declare (a term such as a colour: a pack declares a new one, with its words, under `vocabulary: terms:` in pack.yaml).")
PACK = _code("TC-P001", "invalid pack", "A pack is a directory with a pack.yaml (id, game, version, requires) and content files. Its paths must stay inside the pack directory. A pack is for one game (`game:`), and every pack its `requires:` names must be loaded with it: a shipped pack of that game by its id, any other pack with `--pack DIR` (in any order: a pack loads after the packs it requires). Its `vocabulary:` entries follow the game.yaml rules (a term's text in both languages, `{zh: 水晶, en: crystal}`).")
PACK_TOO_BIG = _code("TC-P004", "pack too large or too deep", "A pack may hold at most 2,000 content files (64 MiB in all) and 5,000 folders, nested at most 16 folders deep. The limits keep a hostile pack layout from exhausting the checker.")
PACK_CONFLICT = _code("TC-P002", "pack conflict", "Two packs define the same entity without `replace: true` (the base game is a pack too: a pack's entity with a game entity's id replaces it, saying `replace: true`, or takes another id), or a pack removes or replaces an entity that does not exist (a removal's `kind:` is an entity kind of the game, singular: `{kind: card, id: lute}`).")
NO_CONTENT = _code("TC-P003", "nothing to check", "The path holds no game (content/<game>/game.yaml), no pack (pack.yaml) and no mission file, or a pack's `game:` names no installed game, or a game lost every entity of a kind. tomecraft never reports a clean check of nothing.")
NOT_READ = _code("TC-P005", "file not read", "A pack reads its own pack.yaml and its content files. A game.yaml inside a pack is not read (a pack's keywords, terms and other vocabulary go under `vocabulary:` in its pack.yaml), and neither is a pack.yaml or game.yaml in a folder below a pack's or game's own (that folder's files belong to the pack above it; to make it a pack of its own, move it out and pass it with --pack).", WARNING)
GAME_RULE = _code("TC-G001", "game rule violated", "The content is well formed but breaks a rule of the game (counts, maps, placement, mission constraints).")
GAME_RULE_WARNING = _code("TC-G002", "suspicious content", "The content is legal but probably not what was meant: most often something play never reaches (an intern no scheme card gives, a room on no tile, a base entity a pack's removal left out of play), said where the pack can change it.", WARNING)
CONTRACT_EVENT = _code("TC-C001", "event the engine never fires", "The vocabulary declares an event, or content listens for one, that the game's engine never fires, so a trigger on it would never run. Each engine lists the events it fires, and when, in runtime/engines/<game>/contract.py; `tomecraft contract GAME` prints it.")
CONTRACT_FIELD = _code("TC-C002", "field the engine never reads", "An entity sets a field that the game's engine never reads (or is of a kind the engine has no use for), so it would change nothing in play. The engine contract (`tomecraft contract GAME`) lists the fields each kind's entities may set.")
CONTRACT_CONSTRUCT = _code("TC-C003", "construct the engine cannot run here", "An effect holds a lasting construct (`on` trigger, `when` watch, `continuous`, value layering with `=`/`+=`, `during`) in a field where the engine only runs the effect once, a trigger on an event that field never hears, or a value layered on a field its own kind does not have (`self.points += 1` on a Crawl event card changes nothing). The engine contract (`tomecraft contract GAME`) says which constructs and events each effect field supports.")
CONTRACT_NEED = _code("TC-C004", "content the engine needs is missing", "The engine needs an entity by id, or a minimum number of a kind, and a pack removed it. Replace the entity (`replace: true`) instead of removing it, or keep enough of the kind.")
CONTRACT_KEY = _code("TC-C005", "two entities share a key", "The engine finds the entities of this kind by this field's value (for example the word effects use for an item), so two entities with the same value would leave one unreachable in play. Give each a different value, or replace the first with `replace: true`.")
CONTRACT_NAME = _code("TC-C006", "name the engine has no meaning for", "A pack's `vocabulary:` adds a name (a resource, zone, stat, status, scope, or a term of a type) that the game's engine plays only from its own list: a new one would be accepted in effects and then crash play or do nothing (a zone no card is ever in, a scope that never ends). Use one of the game's names, or add names only where the engine plays new ones (`tomecraft contract GAME` lists them under 'Names a pack may add'). A new text for a game's name (`replace: true`) is always allowed.")
STALE = _code("TC-B001", "generated code is stale", "`generated/` does not match what `tomecraft build` would write now. Run `tomecraft build` and commit the result.")
USAGE = _code("TC-X001", "usage error", "The command line is wrong: an unknown game, a missing path, a bad option.")


class UsageError(Exception):
    """A wrong command line: `tomecraft` prints it and exits 2."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    file: str
    line: int
    column: int
    hint: str = ""
    severity: str = ERROR

    def as_json(self) -> dict:
        return {"code": self.code, "severity": self.severity,
                "file": escape_controls(self.file), "line": self.line, "column": self.column,
                "message": escape_controls(self.message), "hint": escape_controls(self.hint)}


@dataclass
class Reporter:
    """Collects diagnostics of one run; stages append, nobody raises."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # The text of every file the loader read, by displayed name: excerpts come from here, so
    # a file that was refused (a symbolic link, too big) is never quoted.
    sources: dict[str, str | bytes] = field(default_factory=dict)  # bytes: UTF-8
    # What was reported already: checking a game with each combination of its packs meets a
    # base file's (or a pack's) mistake once per combination, and says it once.
    _said: set = field(default_factory=set, repr=False, compare=False)

    def add(self, code: str, message: str, file: str | Path, line: int, column: int,
            hint: str = "") -> None:
        severity = CODES[code].severity if code in CODES else ERROR
        found = Diagnostic(code, message, str(file), max(1, line), max(1, column), hint, severity)
        if found not in self._said:
            self._said.add(found)
            self.diagnostics.append(found)

    def merge(self, other: "Reporter") -> None:
        """Take the diagnostics of another run (a build worker's), as if reported here."""
        self.sources.update(other.sources)
        for found in other.diagnostics:
            if found not in self._said:
                self._said.add(found)
                self.diagnostics.append(found)

    @property
    def errors(self) -> int:
        return sum(d.severity == ERROR for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == WARNING for d in self.diagnostics)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.diagnostics, key=lambda d: (d.file, d.line, d.column, d.code))


def normal_breaks(text: str) -> str:
    """`text` with its Windows (\\r\\n) and old Mac (\\r) line breaks as \\n, as YAML reads them."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _snippet(d: Diagnostic, sources: dict[str, str | bytes | list[str]]) -> list[str]:
    # each file is split into lines once: splitting it again for each of its diagnostics was
    # quadratic (a 100,000-entry list of wrong values: 100,000 diagnostics, a hang)
    lines = sources.get(d.file)
    if isinstance(lines, bytes):
        lines = normal_breaks(lines.decode("utf-8", "replace"))
    if lines is None:
        lines = _read_for_excerpt(d.file)
        if lines is None:
            return []
        lines = normal_breaks(lines)
    if isinstance(lines, str):
        lines = sources[d.file] = lines.split("\n")
    if not 1 <= d.line <= len(lines):
        return []
    source_line = escape_controls(lines[d.line - 1].replace("\t", " "))
    if len(source_line) > 160:
        return []
    gutter = f"{d.line:>4} | "
    # Wide (CJK) characters take two terminal cells; keep the caret under the right one.
    prefix = escape_controls(lines[d.line - 1].replace("\t", " ")[: d.column - 1])
    pad = sum(2 if _is_wide(ch) else 1 for ch in prefix)
    return [gutter + source_line, " " * (len(gutter) + pad) + "^"]


def _read_for_excerpt(name: str) -> str | None:
    """A file not read by the loader (a scenario's target...), unless it is a symbolic link,
    not a regular file, or too big: nothing is ever quoted through a link."""
    try:
        if os.path.islink(name) or not os.path.isfile(name) \
                or os.path.getsize(name) > MAX_SNIPPET_FILE:
            return None
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            return handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def _is_wide(ch: str) -> bool:
    return "\u1100" <= ch and (
        ch <= "\u115f" or "\u2e80" <= ch <= "\ua4cf" or "\uac00" <= ch <= "\ud7a3"
        or "\uf900" <= ch <= "\ufaff" or "\ufe30" <= ch <= "\ufe4f" or "\uff00" <= ch <= "\uff60"
        or "\uffe0" <= ch <= "\uffe6")


def format_text(reporter: Reporter) -> str:
    sources = dict(reporter.sources)
    out: list[str] = []
    for d in reporter.sorted():
        where = d.file.replace("\n", "\\n")   # a file named 'x\nerror[...]' forged a line
        out.append(escape_controls(f"{where}:{d.line}:{d.column}: {d.severity}[{d.code}]: "
                                   f"{d.message}"))
        out.extend(_snippet(d, sources))
        if d.hint:
            out.append(escape_controls(f"  hint: {d.hint}"))
    errors, warnings = reporter.errors, reporter.warnings
    out.append(f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}")
    return "\n".join(out)


def format_json(reporter: Reporter) -> str:
    return json_controls(json.dumps({"diagnostics": [d.as_json() for d in reporter.sorted()],
                       "errors": reporter.errors, "warnings": reporter.warnings},
                      ensure_ascii=False, indent=2))


def explain(code: str) -> str | None:
    entry = CODES.get(code.upper())
    if entry is None:
        return None
    return f"{entry.code} ({entry.severity}): {entry.title}\n\n{entry.explanation}"
