"""Options that cannot differ, for the simulated player's lookahead (policy.py): a search
tries one option of each kind instead of all of them: the branches of a `choose` (below),
relics to keep (_relic_classes) and revealed event cards to take (_event_classes).

A `choose` whose branches are the same effect naming a different attribute (`choose {
flip_token strength 1 | flip_token agility 1 | ... }`) has twin options: two branches whose
attributes have the same tokens (face up, face down, stacked, supply) do the same to a game
whose `value` weighs every attribute alike, unless some other effect of the content names
one of those attributes (then it may tell them apart, and every option is tried).

The branches are read off the generated code (compiler/codegen): the code object that calls
`ctx.choose(KEY, ...)` holds the key as a constant and its branches as nested functions
`option1`, `option2`..., in the order of the options. Any other shape (two `choose` in one
body, a branch that is not one call naming one attribute) is not matched: no twins.
"""
from __future__ import annotations

from functools import lru_cache
from inspect import unwrap
from types import CodeType, FunctionType

_OPTION = "option"


def twin_classes(engine, key: str, options: list) -> tuple | None:
    """One class per option (equal classes: twin options, the first of which stands for the
    others), or None when the options of this decision are not known to be twins."""
    if key == "relic":
        return _relic_classes(engine, options)
    if key == "event":
        return _event_classes(engine, options)
    if ":choose" not in key:
        return None
    found = _content(engine.data)
    fx = found[0].get(key.partition(":")[0])
    attrs = None if fx is None else branch_attributes(fx, key, found[2])
    if attrs is None or any(a in found[1] for a in attrs):
        return None
    tokens, supply = engine.state.tokens, engine.data.kinds["attribute"]
    out = []
    for o in options:
        if type(o) is not int or not 0 <= o < len(attrs):
            return None
        t = tokens[attrs[o]]
        out.append((t.up, t.down, t.stacked, supply[attrs[o]].supply))
    return tuple(out)


def _relic_classes(engine, options: list) -> tuple | None:
    """Relics to keep (rules.choose_relics) with no effect but their `use`: keeping one does
    nothing yet but take its place in the equipment area and, the first of its label, offer
    the label's resource (L45); two such relics whose labels are both new or both not are
    twins. A relic with any other effect (a passive) is its own kind."""
    s = engine.state
    out = []
    for o in options:
        card = next((c for c in s.revealed if repr(c) == o.get("relic")), None)
        if card is None:
            return None
        d = card.defn
        if getattr(d, "passive", None) is not None or getattr(d, "identity", None):
            out.append(("passive", d.id))
        else:
            label = getattr(d, "label", None)
            out.append(("use only", label is not None and label not in s.labels))
    return tuple(out)


def _event_classes(engine, options: list) -> tuple | None:
    """Revealed event cards to take (an effect's reveal_events): copies of one event card
    are twins, and so are loot cards, which only move (L73), whatever their resource (as
    policy._event_kind weighs them)."""
    out = []
    for o in options:
        name = o.get("event") if type(o) is dict else None
        if name is None:
            out.append(("skip",))
            continue
        card = next((c for c in engine.state.revealed if repr(c) == name), None)
        if card is None:
            return None
        out.append(("loot",) if card.defn.card_type == "loot" else ("event", card.defn.id))
    return tuple(out)


_CONTENT: dict = {}


def _content(data) -> tuple[dict, frozenset, frozenset]:
    """({effect function name: function}, the attributes some effect names outside a
    `choose` of twin branches, every attribute), once per content."""
    got = _CONTENT.get(id(data))
    if got is not None and got[0] is data:
        return got[1]
    attributes = frozenset(data.kinds.get("attribute", {}))
    effects = {}
    for table in data.kinds.values():
        for definition in table.values():
            for name in getattr(type(definition), "__dataclass_fields__", ()):
                fx = unwrap(getattr(definition, name))    # (`sim --usage` wraps effects)
                if type(fx) is FunctionType:
                    effects[fx.__name__] = fx
    for kw in getattr(data, "keywords", {}).values():
        fx = unwrap(getattr(kw, "effect", None))
        if type(fx) is FunctionType:
            effects[fx.__name__] = fx
    named = set()
    for fx in effects.values():
        twin_codes = {id(c) for c in _twin_branches(fx.__code__, attributes)}
        for code in _codes(fx.__code__):
            if id(code) not in twin_codes:
                named |= attributes.intersection(k for k in code.co_consts if type(k) is str)
    found = (effects, frozenset(named), attributes)
    _CONTENT[id(data)] = (data, found)
    return found


def _codes(code: CodeType):
    yield code
    for c in code.co_consts:
        if type(c) is CodeType:
            yield from _codes(c)


def _twin_branches(code: CodeType, attributes: frozenset) -> list:
    """The branch code objects of every `choose` in `code` whose branches are twins."""
    out = []
    for c in _codes(code):
        keys = [k for k in c.co_consts if type(k) is str and ":choose" in k]
        if len(keys) == 1 and _attributes_of(c, attributes) is not None:
            out += _branches(c)
    return out


@lru_cache(maxsize=256)
def branch_attributes(fx: FunctionType, key: str, attributes: frozenset) -> tuple | None:
    """The attribute each branch of the `choose` KEY names, when its branches are twins."""
    for code in _codes(fx.__code__):
        if key in code.co_consts:
            keys = [k for k in code.co_consts if type(k) is str and ":choose" in k]
            return _attributes_of(code, attributes) if len(keys) == 1 else None
    return None


def _branches(code: CodeType) -> list:
    named = [c for c in code.co_consts if type(c) is CodeType and c.co_name.startswith(_OPTION)
             and c.co_name[len(_OPTION):].isdigit()]
    return sorted(named, key=lambda c: int(c.co_name[len(_OPTION):]))


def _attributes_of(code: CodeType, attributes: frozenset) -> tuple | None:
    """The attribute per branch of the `choose` made in `code`, when every branch is the same
    code but for the one attribute it names (and nests no function); else None."""
    branches = _branches(code)
    if len(branches) < 2:
        return None
    shapes, named = set(), []
    for b in branches:
        if any(type(c) is CodeType for c in b.co_consts):
            return None
        names = [k for k in b.co_consts if type(k) is str and k in attributes]
        if len(names) != 1:
            return None
        consts = tuple("<attribute>" if k == names[0] else k for k in b.co_consts)
        shapes.add((b.co_code, b.co_names, consts))
        named.append(names[0])
    return tuple(named) if len(shapes) == 1 else None
