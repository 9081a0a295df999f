"""Content held to its engine's contract (runtime/contract.py): a clean check means it plays.

Refused, each at its place:
- an event the vocabulary declares (game.yaml or a pack) that the engine never fires, and a
  trigger on such an event (TC-C001);
- a field the engine never reads, on an entity or in a kind a pack declares (TC-C002);
- a lasting construct (`on`, `when`, `continuous`, `set`/`+=`, `during`) in an effect field
  where the engine cannot run it, directly or through a keyword (TC-C003);
- a trigger in an effect field on an event that field never hears (TC-C003);
- removing content the engine needs, or leaving fewer of a kind than it needs (TC-C004);
- a pack's new vocabulary name where the engine plays only its own (TC-C006);
- two entities of a kind with the same value of a field the engine finds them by (TC-C005),
  reported at both.
"""
from __future__ import annotations

import importlib
import importlib.util

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.checks import attribute_names, did_you_mean, removal_entry, report_still_used
from tomecraft.compiler.contract_context import check_context, handed_where
from tomecraft.compiler.model import EffectSite, Entity, Game
from tomecraft.compiler.packs import display_path
from tomecraft.compiler.schemas import COMMON_FIELDS, validator
from tomecraft.dsl import nodes as n
from tomecraft.runtime.contract import Contract, Use

# Fields every entity has, whatever its kind: identity and provenance.
UNIVERSAL = frozenset(COMMON_FIELDS) | {"replace"}


def _module(engine: str):
    """runtime/engines/<engine>/contract.py, or None if the engine has none."""
    name = f"tomecraft.runtime.engines.{engine}.contract"
    try:
        if importlib.util.find_spec(name) is None:
            return None
    except ModuleNotFoundError:
        return None
    return importlib.import_module(name)


def load(engine: str) -> Contract | None:
    """The engine's declared contract, or None if the engine declares none."""
    module = _module(engine)
    return None if module is None else module.CONTRACT


def load_draft(engine: str) -> Contract | None:
    """A contract the engine drafts but does not enforce yet (`DRAFT`), or None."""
    module = _module(engine)
    return None if module is None else getattr(module, "DRAFT", None)


def check(game: Game, reporter: dg.Reporter) -> None:
    contract = load(game.vocab.engine)
    if contract is None:
        return
    _check_events(game, contract, reporter)
    _check_pack_names(game, contract, reporter)
    keyword_constructs = _keyword_constructs(game)
    base_pack = game.packs[0].id if game.packs else ""
    seen: dict = {}     # a pack repeats effect texts, and the parser gives each text one AST
    for entity in game.all():
        _check_fields(entity, contract, base_pack, reporter)
        for site in entity.effects:
            _check_effect(game, entity, site, contract, keyword_constructs, reporter, seen)
    _check_keys(game, contract, reporter)
    _check_key_terms(game, contract, reporter)
    _check_rule_values(game, contract, base_pack, reporter)
    if not any(d.severity == dg.ERROR and d.code.startswith(("TC-Y", "TC-P"))
               for d in reporter.diagnostics):
        _check_needs(game, contract, reporter)   # content that was not read is not missing


# --- events ----------------------------------------------------------------------------------

def _vocabulary_documents(game: Game):
    """(document, path of its vocabulary mapping) for game.yaml and each pack's vocabulary."""
    for doc in game.documents:
        data = doc.data if isinstance(doc.data, dict) else {}
        if doc.path.name == "game.yaml" and "kinds" in data:
            yield doc, ()
        elif doc.path.name == "pack.yaml" and isinstance(data.get("vocabulary"), dict):
            yield doc, ("vocabulary",)


def _check_events(game: Game, contract: Contract, reporter: dg.Reporter) -> None:
    fired = sorted(contract.events)
    for doc, base in _vocabulary_documents(game):
        section = _section(doc.data, base + ("events",))
        for event in section:
            if event in contract.events:
                continue
            mark = doc.mark(base + ("events", event), key=True)
            reporter.add(dg.CONTRACT_EVENT,
                         f"the engine never fires event {event!r}: "
                         "a trigger on it would never run", _display(doc), mark.line, mark.column,
                         "events it fires: " + ", ".join(fired))


# --- names a pack adds ------------------------------------------------------------------------

NAME_SECTIONS = ("resources", "zones", "stats", "statuses", "scopes")


def _check_pack_names(game: Game, contract: Contract, reporter: dg.Reporter) -> None:
    """A pack's new resource, zone, stat, status, scope or term, where the engine plays only
    its own (Contract.pack_names): refused at the pack.yaml entry. Effects could name it with a
    clean check, and play then crashed (a Clank! player has no 'mana', a Crawl Decks card no
    'luck' value) or ignored it (a zone no card is in, a scope that never ends)."""
    if contract.pack_names is None:
        return
    docs = list(_vocabulary_documents(game))
    base = next((doc.data for doc, path in docs if path == ()), {})
    open_ = ", ".join(sorted(contract.pack_names)) or "none"
    for doc, path in docs:
        if path == ():
            continue
        vocab = _section(doc.data, path)
        places = [((section,), section, section[:-1] if section != "statuses" else "status")
                  for section in NAME_SECTIONS]
        places += [(("terms", term_type), f"terms.{term_type}", f"{term_type} term")
                   for term_type in _section(vocab, ("terms",))]
        for at, where, what in places:
            if where in contract.pack_names:
                continue
            known = _section(base, at)
            for name, entry in _section(vocab, at).items():
                if name in known or (isinstance(entry, dict) and entry.get("replace")):
                    continue
                mark = doc.mark(path + at + (name,), key=True)
                own = ", ".join(sorted(known)) or "none"
                reporter.add(dg.CONTRACT_NAME,
                             f"the engine has no meaning for a new {what} {name!r}: it plays "
                             f"only the game's ({own}), so effects naming it would crash play "
                             "or change nothing", _display(doc), mark.line, mark.column,
                             f"use one of the game's; a pack may add new names only to: {open_} "
                             "(`tomecraft contract " + game.vocab.game + "`)")


def _section(data, path: tuple) -> dict:
    for key in path:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else {}


# --- fields ----------------------------------------------------------------------------------

def _check_fields(entity: Entity, contract: Contract, base_pack: str,
                  reporter: dg.Reporter) -> None:
    uses = contract.kinds.get(entity.kind)
    if uses is None:
        mark = entity.doc.mark(entity.path)
        reporter.add(dg.CONTRACT_FIELD,
                     f"the engine has no use for {entity.kind} entities",
                     entity.display, mark.line, mark.column,
                     "kinds it plays: " + ", ".join(sorted(contract.kinds)))
        return
    for name in entity.data:
        if name in UNIVERSAL:
            continue
        use = uses.get(name)
        if use is not None and use.fixed and entity.pack != base_pack \
                and not _keeps_base_value(entity, name, base_pack):
            mark = entity.doc.mark(entity.path + (name,), key=True)
            reporter.add(dg.CONTRACT_FIELD,
                         f"a pack cannot set field {name!r} of {_a(entity.kind)}: the engine "
                         "has the base game's values built in and would ignore it", entity.display, mark.line, mark.column,
                         f"leave {name!r} out (or, replacing a base entity, keep its base value); "
                         f"{use.when}")
            continue
        if use is not None:
            continue
        mark = entity.doc.mark(entity.path + (name,), key=True)
        reporter.add(dg.CONTRACT_FIELD,
                     f"the engine never reads field {name!r} of a "
                     f"{entity.kind}: it would change nothing in play", entity.display,
                     mark.line, mark.column,
                     did_you_mean(name, sorted(uses)) or "fields it reads: "
                     + ", ".join(sorted(uses)))


def _keeps_base_value(entity: Entity, name: str, base_pack: str) -> bool:
    """A pack replacing a base entity may restate a built-in field with the base value: play
    already does what it says (it must, when the field is required by the schema)."""
    base = entity.replaced
    while base is not None and base.pack != base_pack:
        base = base.replaced
    return base is not None and name in base.data and base.data[name] == entity.data[name]


def _check_keys(game: Game, contract: Contract, reporter: dg.Reporter) -> None:
    for kind, uses in contract.kinds.items():
        for name, use in uses.items():
            if not use.key:
                continue
            first: dict = {}
            for entity in game.entities.get(kind, {}).values():
                value = entity.data.get(name)
                if not isinstance(value, (str, int)) or isinstance(value, bool):
                    continue
                if value not in first:
                    first[value] = entity
                    continue
                other = first[value]
                for here, there in ((entity, other), (other, entity)):
                    mark = here.doc.mark(here.path + (name,))
                    where = f"{there.display}:{there.doc.mark(there.path + (name,)).line}"
                    reporter.add(dg.CONTRACT_KEY,
                                 f"{kind} {here.id!r} and {kind} {there.id!r} ({where}) both have "
                                 f"{name} {value!r}: the engine finds each {kind} by its {name}, "
                                 "so one of them would never be played", here.display, mark.line,
                                 mark.column, f"give each {kind} its own {name}")


def _keyed_terms(game: Game, contract: Contract) -> dict[str, tuple[str, str, set, str]]:
    """term type -> (kind, field, the values its entities carry, Use.found) for each key field whose
    terms the engine finds only through an entity (`Use.found`: Deep Rock Galactic's monster
    `creature` and die `die`; its board tokens have entity-less ones, IFG, LURE...), and for
    each term type whose terms are a kind's ids (`Contract.term_ids`: Clank!'s reserve cards)."""
    keyed = {}
    for kind, uses in contract.kinds.items():
        fields = game.vocab.kinds.get(kind, {}).get("fields", {})
        for name, use in uses.items():
            tag = fields.get(name, {}).get("x-tomecraft", "") if isinstance(fields.get(name), dict) else ""
            if use.found and tag.startswith("term:"):
                keyed[tag[5:]] = (kind, name, {e.data.get(name)
                                               for e in game.entities.get(kind, {}).values()},
                                  use.found)
    for type_, kind in contract.term_ids.items():     # terms that are a kind's ids
        keyed[type_] = (kind, "id", set(game.entities.get(kind, {})), "stops")
    for type_ in sorted(game.vocab.term_types & set(game.vocab.kinds) - set(keyed)):
        # a term whose rules are an entity of its type's kind, where a pack removed it (DRG's
        # goo: the Goo Bomber went on placing a token with no rules, the sheets saying goo)
        gone = {entity_id for kind, entity_id in game.removed if kind == type_}
        if gone:
            terms = {name for name, types in game.vocab.names.items() if type_ in types}
            keyed[type_] = (type_, "id", terms - gone, "stops")
    return keyed


def _term_args(game: Game, block, keyed: dict):
    """(node, term type, name) for each argument of a verb, query or keyword call that names a
    declared term of a keyed type."""
    for node in n.walk(block):
        if not isinstance(node, (n.Call, n.Func)):
            continue
        callee = game.vocab.callable(node.verb if isinstance(node, n.Call) else node.name)
        if callee is None:
            continue
        params = {p.name: p for p in callee.params}
        for i, arg in enumerate(node.args):
            param = params.get(arg.name) if isinstance(arg, n.KwArg) else \
                (callee.params[i] if i < len(callee.params) else None)
            value = arg.value if isinstance(arg, n.KwArg) else arg
            if param is None or param.type not in keyed or not isinstance(value, n.Name) \
                    or len(value.parts) != 1 or param.type not in game.vocab.types_of(value.parts[0]):
                continue
            yield value, param.type, value.parts[0]


def _check_key_terms(game: Game, contract: Contract, reporter: dg.Reporter) -> None:
    """An effect or a field naming a term of a key field that no entity carries (found by the
    fourth packs blind test): Deep Rock Galactic finds the monster by its creature term, finds
    none, and play stops (a fan's creature spawned by a card; a pack removing the Slasher the
    base Swarm card spawns): refused; The Cave's option spending or asking for an item no
    equipment is (a pack removing the Camera the wonder's Photograph asks for) is never open:
    warned. Said at the pack's `remove` entry when a removal of the kind took it, else at the
    name."""
    keyed = _keyed_terms(game, contract)
    if not keyed:
        return
    removed: dict[tuple, tuple] = {}            # play would stop: refused at the removal
    never: dict[tuple, tuple] = {}              # the option is never open: warned there
    for entity in game.all():
        uses = [(site, node, type_, value) for site in entity.effects if site.ast is not None
                for node, type_, value in _term_args(game, site.ast, keyed)]
        uses += [(None, path, target[5:], value) for path, target, value in entity.refs
                 if target[5:] in keyed and target.startswith("term:")
                 and path[-1] != keyed[target[5:]][1]]
        for site, where, type_, value in uses:
            kind, name, carried, found = keyed[type_]
            if value in carried or any(refused.get(name) == value      # its schema error says
                                       for refused in game.refused.get(kind, {}).values()):
                continue
            line, column = (entity.doc.effect_position(site.path, where.pos.line, where.pos.column)
                            if site is not None else
                            (entity.doc.mark(where).line, entity.doc.mark(where).column))
            removal = removal_entry(game, kind, value)
            if removal is not None and removal[2] != entity.pack:
                doc, i, _ = removal
                table = removed if found == "stops" else never
                users = table.setdefault((id(doc), i, kind, value), (doc, []))[1]
                user = f"{entity.kind} {entity.id!r} at {entity.display}:{line}"
                if user not in users:           # an effect may name it twice
                    users.append(user)
                continue
            if found == "stops":
                reporter.add(dg.UNKNOWN_REF,
                             f"no {kind} has {name} {value!r}: the engine finds {_a(kind)} by "
                             f"its {name}, so this could not be played", entity.display, line,
                             column, f"add {_a(kind)} with `{name}: {value}`, or name another "
                             f"{type_}: " + ", ".join(sorted(str(v) for v in carried if v)))
            else:
                reporter.add(dg.GAME_RULE_WARNING,
                             f"no {kind} has {name} {value!r}: the engine finds {_a(kind)} by "
                             f"its {name}, so this is never open", entity.display, line, column,
                             f"add {_a(kind)} with `{name}: {value}`, or name another {type_}")
    report_still_used(removed, reporter)
    for (_, i, kind, value), (doc, users) in never.items():
        mark = doc.mark(("remove", i))
        reporter.add(dg.GAME_RULE_WARNING,
                     f"removing {kind} {value!r} leaves what names it never open: "
                     + ", ".join(users[:3]) + (f" and {len(users) - 3} more" if len(users) > 3
                                               else ""),
                     display_path(doc.path), mark.line, mark.column,
                     f"remove or replace those too, or replace the {kind} instead")


# --- effects ---------------------------------------------------------------------------------

# The AST node of each lasting construct, by the name the contract uses for it.
_CONSTRUCT_NODES = ((n.On, "on"), (n.When, "when"), (n.Continuous, "continuous"),
                    (n.During, "during"), (n.Assign, "set"), (n.Call, "call"), (n.Once, "once"))


def _constructs(block: n.Block | None, seen: dict | None = None) -> list[tuple[str, object]]:
    """(construct, node) for every lasting construct in an AST, keyword calls as ("call", node).
    `seen` remembers the answers by AST (kept beside its answer, so its id stays its own)."""
    if block is None:
        return []
    if seen is not None and id(block) in seen:
        return seen[id(block)][1]
    found = [(name, node) for node in n.walk(block)
             for kind, name in _CONSTRUCT_NODES if isinstance(node, kind)]
    if seen is not None:
        seen[id(block)] = (block, found)
    return found


def _detail(construct: str, node) -> set[str]:
    """What the contract holds a construct to besides its place: a trigger's event, a
    limit's scope."""
    return {node.event} if construct == "on" else {node.scope} if construct == "once" else set()


def _keyword_constructs(game: Game) -> dict[str, dict[str, set[str]]]:
    """keyword -> {construct: events (for `on`)} it uses, through nested keywords too."""
    direct: dict[str, list] = {name: _constructs(site.ast)
                               for name, site in game.keyword_sites.items()}
    result: dict[str, dict[str, set[str]]] = {}

    def expand(name: str, seen: frozenset) -> dict[str, set[str]]:
        if name in result:
            return result[name]
        out: dict[str, set[str]] = {}
        for construct, node in direct.get(name, ()):
            if construct == "call":
                if node.verb in direct and node.verb not in seen:
                    for c, events in expand(node.verb, seen | {node.verb}).items():
                        out.setdefault(c, set()).update(events)
            else:
                out.setdefault(construct, set()).update(_detail(construct, node))
        result[name] = out
        return out

    for name in direct:
        expand(name, frozenset({name}))
    return result


def check_effect_of(game: Game, entity: Entity, site: EffectSite, reporter: dg.Reporter) -> None:
    """The engine contract's checks of one effect of an entity the game does not hold: a
    mission file's `mission_event` (a transient `mission` entity). What the effect is handed
    is the caller's to check (the mission checker's V-21 does, in its own words)."""
    contract = load(game.vocab.engine)
    if contract is not None:
        _check_effect(game, entity, site, contract, _keyword_constructs(game), reporter, {},
                      context=False)


def _check_effect(game: Game, entity: Entity, site: EffectSite, contract: Contract,
                  keyword_constructs: dict, reporter: dg.Reporter, seen: dict,
                  context: bool = True) -> None:
    if site.ast is None or len(site.path) <= len(entity.path):
        return
    field_name = site.path[len(entity.path)]
    use = contract.use(entity.kind, field_name)
    if use is None:
        return                      # reported by _check_fields
    _check_once_around_lasting(entity, site, reporter)
    _check_inert_calls(entity, site, contract, reporter)
    _check_own_layering(game, entity, site, reporter)
    if context:
        check_context(game, entity, site, contract, field_name, reporter, seen)
    for construct, node in _constructs(site.ast, seen):
        if construct == "call":
            for via, events in keyword_constructs.get(node.verb, {}).items():
                _check_construct(entity, site, use, contract, via, events, node, reporter,
                                 keyword=node.verb)
        else:
            _check_construct(entity, site, use, contract, construct, _detail(construct, node),
                             node, reporter)


_LASTING_NODES = (n.On, n.When, n.Continuous, n.During)


def _check_inert_calls(entity: Entity, site: EffectSite, contract: Contract,
                       reporter: dg.Reporter) -> None:
    """A call of a verb whose handler does nothing (Contract.inert_verbs) changes nothing."""
    if not contract.inert_verbs:
        return
    for node in n.walk(site.ast):
        if isinstance(node, n.Call) and node.verb in contract.inert_verbs:
            _report(entity, site, node, reporter,
                    f"the engine does nothing for `{node.verb}`: "
                    f"{contract.inert_verbs[node.verb]}",
                    f"remove `{node.verb}`: it changes nothing in play")


def _check_own_layering(game: Game, entity: Entity, site: EffectSite,
                        reporter: dg.Reporter) -> None:
    """`self.points += 1` layers a value on the entity itself, which matters only where its
    kind has that field: on a Crawl event card (no points) it checked clean and changed
    nothing in play (found by the eighth packs blind test)."""
    fields = game.vocab.kinds.get(entity.kind, {}).get("fields", {})
    known = None                    # an attribute no kind has is TC-N006's
    for node in n.walk(site.ast):
        if isinstance(node, n.Assign) and len(node.target.parts) == 2 \
                and node.target.parts[0] == "self" and node.target.parts[1] not in fields:
            known = known or attribute_names(game.vocab)
            if node.target.parts[1] not in known:
                continue
            attr = node.target.parts[1]
            _report(entity, site, node, reporter,
                    f"{_a(entity.kind)} has no field {attr!r}: `self.{attr} {node.op} ...` "
                    "changes nothing in play",
                    f"fields {_a(entity.kind)} has: " + (", ".join(sorted(fields)) or "none"))


def _a(word: str) -> str:
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _check_once_around_lasting(entity: Entity, site: EffectSite, reporter: dg.Reporter) -> None:
    """`once per turn: on EVENT: X` limits setting the trigger up, not how often it runs (it
    then runs X at every EVENT), while its text, "Once this turn: when EVENT: X", reads as X
    at most once: legal, but surely not what was meant. (Found by the packs blind test: a
    Clank! card gave 1 skill per room entered.)"""
    for node in n.walk(site.ast):
        if isinstance(node, n.Once) and node.body.stmts \
                and all(isinstance(s, _LASTING_NODES) for s in node.body.stmts):
            pos = getattr(node, "pos", n.Pos())
            line, column = entity.doc.effect_position(site.path, pos.line, pos.column)
            reporter.add(dg.GAME_RULE_WARNING,
                         f"`once per {node.scope}` around a lasting effect limits setting it "
                         "up, not how often it runs: it runs every time, though its text "
                         "reads as once", entity.display, line, column,
                         f"to run it at most once per {node.scope}, put the limit inside: "
                         f"`on EVENT: once per {node.scope}: ...`")


def _check_construct(entity: Entity, site: EffectSite, use: Use, contract: Contract,
                     construct: str, events: set[str], node, reporter: dg.Reporter,
                     keyword: str = "") -> None:
    field_name = site.path[len(entity.path)]
    through = f" (through keyword {keyword!r})" if keyword else ""
    # "an intern_card field", "a tile_kind field"
    where = f"{'an' if entity.kind[0] in 'aeiou' else 'a'} {entity.kind} field {field_name!r}"
    if construct == "once":
        # `events` holds the limit's scope; a scope the vocabulary lacks is TC-N001's
        if contract.once_scopes is not None:
            for scope in sorted(events - contract.once_scopes):
                kept = ", ".join(sorted(contract.once_scopes)) or "none"
                _report(entity, site, node, reporter,
                        f"the engine does not keep `once per {scope}`{through} in {where}: it "
                        f"runs this effect {use.when}, each time, so the limit would be ignored",
                        f"scopes a limit is kept for: {kept}")
        return
    if construct not in use.constructs:
        allowed = ", ".join(f"`{c}`" for c in sorted(use.constructs)) or "none"
        _report(entity, site, node, reporter,
                f"the engine cannot run `{_word(construct)}`{through} "
                f"in {where}: it runs this effect {use.when}",
                f"lasting constructs allowed here: {allowed}")
        return
    if construct == "on" and use.events is not None:
        # an event the engine does not fire is said elsewhere (TC-N001 unknown, TC-C001)
        for event in sorted(e for e in events - use.events if e in contract.events):
            _report(entity, site, node, reporter,
                    f"a trigger on {event!r}{through} in {where} never runs: "
                    f"the engine runs this effect {use.when}",
                    "events heard here: " + ", ".join(sorted(use.events)))


def _word(construct: str) -> str:
    return {"set": "set/+= (value layering)"}.get(construct, construct)


def _report(entity: Entity, site: EffectSite, node, reporter: dg.Reporter, message: str,
            hint: str) -> None:
    pos = getattr(node, "pos", n.Pos())
    line, column = entity.doc.effect_position(site.path, pos.line, pos.column)
    reporter.add(dg.CONTRACT_CONSTRUCT, message, entity.display, line, column, hint)


# --- needs -----------------------------------------------------------------------------------

def read_by_id(contract: Contract) -> dict[str, list[str]]:
    """The kinds the engine reads only by id, with the ids it reads: a closed kind's needs,
    and the ids `read_ids` lists (with the needs of its kind)."""
    kinds = dict.fromkeys([*contract.closed, *contract.read_ids])
    return {kind: sorted({need.id for need in contract.needs if need.kind == kind and need.id}
                         | set(contract.read_ids.get(kind, ()))) for kind in kinds}


# --- the values of the rules play reads ---------------------------------------------------------

_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
               (list, "array"), (dict, "object"))


def _rule_schema(entity: Entity, contract: Contract, base_pack: str) -> dict | None:
    """The schema a pack's value of a read rule must meet: the contract's, else its base
    value's JSON type (and one of the base rule's `options`, when it lists them)."""
    if entity.id in contract.rule_values:
        return contract.rule_values[entity.id]
    base = entity.replaced
    while base is not None and base.pack != base_pack:
        base = base.replaced
    if base is None or "value" not in base.data:
        return None
    if base.data.get("options"):
        return {"enum": list(base.data["options"])}
    value = base.data["value"]
    return next(({"type": name} for kind, name in _JSON_TYPES if isinstance(value, kind)), None)


def _check_rule_values(game: Game, contract: Contract, base_pack: str,
                       reporter: dg.Reporter) -> None:
    """A pack's value for a rule play reads must be one play can use: a clean check would
    otherwise end in an internal error or games that never start (hand_size 0 or "five")."""
    read = set(read_by_id(contract).get("rule", ()))
    for entity in game.entities.get("rule", {}).values():
        if entity.pack == base_pack or entity.id not in read or "value" not in entity.data:
            continue
        schema = _rule_schema(entity, contract, base_pack)
        if schema is None:
            continue
        # the compiled validator answers a valid value without importing jsonschema (0.08 s,
        # paid by every build: the shipped packs set rules); only a wrong one asks the reference
        errors = list(validator(schema).iter_errors(entity.data["value"]))
        if not errors:
            continue
        import jsonschema
        error = jsonschema.exceptions.best_match(errors)
        where = "".join(f"[{p!r}]" for p in error.absolute_path)
        mark = entity.doc.mark(entity.path + ("value", *error.absolute_path))
        reporter.add(dg.GAME_RULE,
                     f"rule {entity.id!r}: the value{where} {error.message}, so play could "
                     "not use it", entity.display, mark.line, mark.column,
                     "a value play can use: " + _describe_schema(schema))


def _describe_schema(schema: dict) -> str:
    """A short reading of a rule value's schema, for the hint."""
    if "enum" in schema:
        return "one of " + ", ".join(map(repr, schema["enum"]))
    text = {"boolean": "true or false", "integer": "a whole number", "number": "a number",
            "string": "a word", "array": "a list", "object": "a mapping"}.get(
        schema.get("type"), "as the base game's")
    if "minimum" in schema:
        text += f" of at least {schema['minimum']}"
    if "minItems" in schema:
        text += f" of at least {schema['minItems']} entries"
    items = schema.get("items") or schema.get("additionalProperties")
    if isinstance(items, dict) and items.get("type") == "integer":
        text += " of whole numbers" + (f" of at least {items['minimum']}"
                                       if "minimum" in items else "")
    return text


def _report_unread(entity: Entity, read: list[str], code: str, reporter: dg.Reporter) -> None:
    kind = entity.kind
    which = f"only the {kind} entities {', '.join(read)}" if read else f"no {kind} entity"
    mark = entity.doc.mark(entity.path + ("id",))
    if entity.replaced is not None:     # the base one documents what play has built in
        reporter.add(code,
                     f"{kind} {entity.id!r} states what the engine has built in: it reads "
                     f"{which}, so this replacement would change nothing in play",
                     entity.display, mark.line, mark.column,
                     "remove the replacement: play keeps the base game's")
        return
    reporter.add(code,
                 f"{kind} {entity.id!r} would never be read: the engine reads {which}",
                 entity.display, mark.line, mark.column,
                 "replace one of them (its id with `replace: true`), or remove this one" if read
                 else "remove it")


def _check_needs(game: Game, contract: Contract, reporter: dg.Reporter) -> None:
    for kind, read in read_by_id(contract).items():
        for entity in game.entities.get(kind, {}).values():
            # the base game's others are its inventory (what the box holds) or document
            # what the engine has built in: not play
            if entity.id not in read and entity.pack != game.id:
                # a closed kind's entity is content play lacks a use for; a rule's value is a
                # field play never reads
                code = dg.CONTRACT_NEED if kind in contract.closed else dg.CONTRACT_FIELD
                _report_unread(entity, read, code, reporter)
    for need in contract.needs:
        have = game.entities.get(need.kind, {})
        if need.id and need.id not in have:
            _report_removal(game, need.kind, need.id, reporter,
                            f"the engine needs {need.kind} {need.id!r}: "
                            f"{need.why}")
        if need.at_least and len(have) < need.at_least:
            _report_removal(game, need.kind, "", reporter,
                            f"the engine needs at least {need.at_least} "
                            f"{need.kind} entities ({len(have)} left): {need.why}")
        if need.at_most and len(have) > need.at_most:
            first = list(have.values())[0]
            for extra in list(have.values())[need.at_most:]:
                mark = extra.doc.mark(extra.path + ("id",))
                reporter.add(dg.CONTRACT_NEED,
                             f"{need.kind} {extra.id!r} is one {need.kind} too many: the engine "
                             f"plays {need.at_most} ({need.why}), so it would never be used",
                             extra.display, mark.line, mark.column,
                             f"give it the id {first.id!r} with `replace: true` to replace "
                             f"the {need.kind} in play, or remove it" if need.at_most == 1 else
                             "give it the id of the one it replaces (" + ", ".join(
                                 repr(e.id) for e in list(have.values())[:need.at_most])
                             + ") with `replace: true`, or remove it")


def _report_removal(game: Game, kind: str, entity_id: str, reporter: dg.Reporter,
                    message: str) -> None:
    """Point at the pack entry that removed it, else at the first pack's manifest."""
    removal = removal_entry(game, kind, entity_id)
    if removal is not None:
        doc, i, _ = removal
        mark = doc.mark(("remove", i))
        reporter.add(dg.CONTRACT_NEED, message, _display(doc), mark.line, mark.column,
                     "keep it, or replace it with `replace: true` instead of removing it")
        return
    doc = game.documents[0] if game.documents else None
    display = _display(doc) if doc else game.id
    reporter.add(dg.CONTRACT_NEED, message, display, 1, 1,
                 f"add a {kind} entity" + (f" with id {entity_id!r}" if entity_id else ""))


def _display(doc) -> str:
    from tomecraft.compiler.packs import display_path
    return display_path(doc.path)


# --- for designers ---------------------------------------------------------------------------

def describe(contract: Contract) -> str:
    """The contract as a designer reads it (`tomecraft contract GAME`)."""
    lines = [f"What the {contract.engine} engine does with content", "", "Events it fires:"]
    lines += [f"  {event}: {moment}" for event, moment in sorted(contract.events.items())] \
        or ["  none: no effect may hold a trigger"]
    for kind, uses in sorted(contract.kinds.items()):
        lines += ["", f"{kind}:"]
        for name, use in sorted(uses.items()):
            extra = ""
            if use.constructs:
                extra = "; may hold " + ", ".join(f"`{c}`" for c in sorted(use.constructs))
                if use.events is not None:
                    extra += " (triggers on " + ", ".join(sorted(use.events)) + ")"
            tag = " [base game only]" if use.fixed else " [one per entity]" if use.key else ""
            lines.append(f"  {name}{tag}: {use.when}{extra}")
    for kind, read in read_by_id(contract).items():
        named = ", ".join(read) if read else "none (each documents a decision built in)"
        lines += ["", f"{kind}: only these are read: {named}; a pack replaces them, adds none"]
    if contract.context_needs or contract.inert_verbs:
        lines += ["", "Verbs and queries it runs only where it hands them what they act on, "
                      "or never:"]
        lines += [f"  {name}: " + ("only in " + ", ".join(handed_where(contract, name))
                                    if handed_where(contract, name) else "nowhere")
                  + f" (it acts on {needs.what})"
                  for name, needs in sorted(contract.context_needs.items())]
        lines += [f"  {verb}: nowhere, it changes nothing ({why})"
                  for verb, why in sorted(contract.inert_verbs.items())]
    if contract.once_scopes is not None:
        kept = ", ".join(f"`once per {s}`" for s in sorted(contract.once_scopes))
        lines += ["", "Limits it keeps: " + (kept or "none (an effect runs whole each time its "
                                                      "moment comes; `once per` is refused)")]
    if contract.pack_names is not None:
        lines += ["", "Names a pack may add (under `vocabulary:`; any other new name is refused):"]
        lines += [f"  {where}: {how}" for where, how in sorted(contract.pack_names.items())] \
            or ["  none: a pack uses the game's names (and may give them new texts)"]
    if contract.needs:
        lines += ["", "Content it needs:"]
        for need in contract.needs:
            what = f"{need.kind} {need.id!r}" if need.id else f"at least {need.at_least} {need.kind}"
            if need.at_most:
                what = (f"exactly {need.at_most} {need.kind}" if need.at_least == need.at_most
                        else f"{what}, at most {need.at_most}")
            lines.append(f"  {what}: {need.why}")
    return "\n".join(lines)
