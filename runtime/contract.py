"""The engine contract: what an engine does with a game's vocabulary and content.

The vocabulary (game.yaml) says what content may *say*; the contract says what the engine
*does* with it. Each engine declares, in `runtime/engines/<game>/contract.py`:

- `events`: every event it fires, with the moment of its turn structure at which it fires.
  A trigger (`on EVENT:`) on any other event would never run.
- `kinds`: for every entity kind, the fields it reads (`Use`), when, and, for effect fields,
  which lasting constructs it runs there (`on` triggers, `when` watches, `continuous` bodies,
  `set`/`+=` layering) and which events a trigger there hears. Fields read only to print
  sheets are marked `printed`.
  Fields the engine finds entities by (`keys`) must hold a different value on each entity.
  Fields whose base values the engine has built in instead of reading them are `fixed`:
  only the base game may set them, so a pack cannot write a value that play would ignore.
- `needs`: content it needs by id (a pack that removes it is refused) or by count.

The compiler (`compiler/contract.py`) holds content to the contract, so `tomecraft check`
refuses, with a located diagnostic, what the engine would ignore or could not run; the
coverage tests (tests/runtime/test_contract.py) prove that nothing declared here is inert.
This module is plain data: the compiler reads it without importing an engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

# Lasting constructs an effect may hold, by the name the contract uses for them.
CONSTRUCTS = ("on", "when", "continuous", "set", "during")


@dataclass(frozen=True, slots=True)
class Use:
    """How the engine uses one field of an entity kind."""
    when: str                                   # when the engine reads or runs it
    printed: bool = False                       # read by the sheets only, not in play
    fixed: bool = False                         # the engine has the base game's values built
                                                # in: only the base pack may set this field
    constructs: frozenset[str] = frozenset()    # lasting constructs an effect here may use
    events: frozenset[str] | None = None        # events a trigger here hears (None: all)
    key: bool = False                           # the engine finds entities of the kind by
                                                # this field's value: no two may share one
    found: str = ""                             # a key term named by an effect but carried by
                                                # no entity: "stops" play (an error) or the
                                                # effect is "never" open (a warning)
    lasts: str = ""                             # the scope (a `scopes` name, e.g. "turn")
                                                # at whose end what the field registers ends


@dataclass(frozen=True, slots=True)
class Need:
    """Content the engine needs: one entity by id, or at least `at_least` of a kind; with
    `at_most`, no more than that many of the kind (the engine plays that many: one scoring
    table, one notebook), so a pack's extra one must `replace` the base's."""
    kind: str
    id: str = ""
    at_least: int = 0
    why: str = ""
    at_most: int = 0


STOPS = "the sim would stop here"
NOTHING = "it would change nothing here"


@dataclass(frozen=True, slots=True)
class Needs:
    """What a verb or query acts on that play hands only some effects (Contract.context_needs)."""
    what: str                       # in words: "the tunnel being crossed"
    takes: tuple[str, ...]          # the handed names it can act on (any one of them)
    outcome: str = STOPS            # what play does where none is handed


@dataclass(frozen=True, slots=True)
class Contract:
    engine: str
    events: Mapping[str, str]                   # event -> the moment it fires
    kinds: Mapping[str, Mapping[str, Use]]      # kind -> field -> use
    needs: tuple[Need, ...] = ()
    notes: tuple[str, ...] = field(default=())  # what a designer should know besides
    # Kinds the engine reads only by the ids its needs name (Clank!'s components): a pack may
    # replace those, and a pack's entity of the kind under any other id would never be read.
    closed: tuple[str, ...] = ()
    # Kinds read only by id, with the ids read besides the needs' (the rules: most of them
    # document a decision the engine has built in, which only the base game states): a pack's
    # entity of the kind under any other id, new or replacing a base one, is never read.
    read_ids: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # The JSON Schema a rule's value must meet for play to use it (rule id -> schema): a
    # pack's value outside it (a hand of 0 cards, "five" for a number) is refused at the
    # value. A read rule without one must keep its base value's type (compiler/contract.py);
    # None: the game's own checks hold its value (compiler/game_checks/<game>.py).
    rule_values: Mapping[str, dict | None] = field(default_factory=dict)
    # Verbs the vocabulary declares (the rulebook's wording) whose handler does nothing, as
    # play does it by itself: verb -> why. Content calling one is refused at the call, since
    # it would read on the sheets and change nothing in play.
    inert_verbs: Mapping[str, str] = field(default_factory=dict)
    # What play hands an effect besides its player and its own entity, by name, in the
    # "kind.field" effect fields where it does ("the move being made", "the room whose effect
    # it is"): a field not listed is handed nothing more. A trigger's body is handed what the
    # effect that set it up was, plus what `event_context` says a trigger on its event is.
    site_context: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    event_context: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Verbs and queries the engine can carry out only with something handed (Clank!'s
    # `unlock` needs the tunnel being crossed, The Cave's `depth_levels()` the move being
    # made): name -> Needs. A use where play hands none of what it takes, directly, in a
    # trigger or through a keyword, is refused at the use (compiler/contract_context.py).
    context_needs: Mapping[str, "Needs"] = field(default_factory=dict)
    # Term types whose terms are the ids of a kind's entities (Clank!'s reserve_name: the
    # reserve cards): an effect naming one no entity has is refused, as a key term is (Use.found).
    term_ids: Mapping[str, str] = field(default_factory=dict)
    # The names a pack's `vocabulary:` may add, by section ("resources", "zones", "stats",
    # "statuses", "scopes") or term type ("terms.room_type"), with how play uses a new one.
    # A new name anywhere else (a zone the engine never deals cards to, a scope it never ends,
    # a stat no entity has) is refused at its entry; a pack's new text for a game's name
    # (`replace: true`) is not a new name. None: the engine does not say (not checked).
    pack_names: Mapping[str, str] | None = None
    # The scopes a `once per SCOPE` limit is kept for; None: every scope the vocabulary
    # declares. An engine that keeps no memory between effects (The Cave) keeps none: a limit
    # there checked clean and was ignored (the effect ran each time), so check refuses it at
    # the limit (TC-C003).
    once_scopes: frozenset[str] | None = None
    # What `it.x` / `target.x` may read of an entity a selector binds, by kind, where play's
    # objects are not the kind's fields (a Deep Rock Galactic monster in play has its
    # `damage`, not the `hp` its card prints): `each monster where it.hp >= 2` checked clean
    # and play stopped on "'Monster' object has no attribute 'hp'". A kind not listed has the
    # fields of its kind (compiler/checks.py).
    attributes: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def use(self, kind: str, field_name: str) -> Use | None:
        return self.kinds.get(kind, {}).get(field_name)


def reads(when: str, *names: str) -> dict[str, Use]:
    """Several plain fields read at the same moment."""
    return {name: Use(when) for name in names}


def keys(when: str, *names: str, found: str = "") -> dict[str, Use]:
    """Fields the engine looks entities up by (a table keyed by the value): two entities of
    the kind with the same value would leave one unreachable, so the compiler refuses that.
    `found`: what play does with a term of the field's type that no entity carries: "stops"
    (no entity-less fallback: refused) or "never" (the effect is never open: warned)."""
    return {name: Use(when, key=True, found=found) for name in names}


def printed(*names: str, on: str = "the reference sheets") -> dict[str, Use]:
    """Fields only the sheets read."""
    return {name: Use(f"printed on {on}", printed=True) for name in names}


def built_in(*names: str, why: str) -> dict[str, Use]:
    """Fields whose base values the engine has built in (it does not read them): the base
    game states them for the sheets, and a pack may not set them, since play would ignore it."""
    return {name: Use(f"built into the engine ({why})", fixed=True) for name in names}


def runs(when: str, *constructs: str, events=None, lasts: str = "") -> Use:
    """An effect field the engine runs, with the lasting constructs it supports there (and,
    `lasts`, the scope their triggers end with, which the sheets then say)."""
    return Use(when, constructs=frozenset(constructs),
               events=None if events is None else frozenset(events), lasts=lasts)
