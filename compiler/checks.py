"""Parse every effect once, then check names, types and references against the vocabulary."""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from tomecraft.compiler import diagnostics as dg, names
from tomecraft.compiler.model import EffectSite, Entity, Game
from tomecraft.compiler.vocabulary import LOCAL_MEANINGS, LOCALS, Callable, Vocabulary
from tomecraft.dsl import nodes as n
from tomecraft.dsl.parser import EffectSyntaxError, parse

# Selector kinds every game has, besides its entity kinds.
BUILTIN_SELECTORS = {"player", "opponent", "other_player"}
SCALAR_TYPES = {"int", "bool", "any"}


def did_you_mean(name: str, candidates) -> str:
    candidates = list(candidates)
    close = difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)
    if not close and len(name) >= 3:    # `gain` for gain_token: a word of the name
        close = sorted(c for c in candidates if name in str(c).split("_"))[:3]
    if not close:
        return ""
    return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"


# --- parsing -------------------------------------------------------------------------------

def parse_effects(game: Game, reporter: dg.Reporter) -> None:
    """Parse every effect string (the parser remembers the texts it has seen: ASTs are
    immutable, so identical strings are parsed once a process)."""
    game.vocab.note_entity_names(game.all())
    for entity in game.all():
        for site in entity.effects:
            _parse_site(site, entity.doc, entity.display, reporter)
    for name, keyword in sorted(game.vocab.keywords.items()):
        doc, path = keyword.origin
        site = EffectSite(path, keyword.effect)
        _parse_site(site, doc, _display(doc), reporter)
        game.keyword_sites[name] = site


def _display(doc) -> str:
    from tomecraft.compiler.packs import display_path
    return display_path(doc.path)


def _parse_site(site: EffectSite, doc, display: str, reporter: dg.Reporter) -> None:
    try:
        site.ast = parse(site.text)
    except EffectSyntaxError as err:
        line, column = doc.effect_position(site.path, err.line, err.column)
        reporter.add(dg.EFFECT_SYNTAX, err.message, display, line, column, err.hint)
        site.ast = None


# --- names and types -----------------------------------------------------------------------

@dataclass
class _Where:
    doc: object
    display: str
    site_path: tuple


class Checker:
    """Walks one effect AST with a scope of local names, reporting unknown names and types."""

    def __init__(self, game: Game, reporter: dg.Reporter) -> None:
        self.game = game
        self.vocab: Vocabulary = game.vocab
        self.reporter = reporter
        self.ids: dict[str, set[str]] = {}
        for kind, table in game.entities.items():
            for entity_id in table:
                self.ids.setdefault(entity_id, set()).add(kind)
        self.where: _Where | None = None
        self.warned: set[tuple] = set()  # places already warned about (names are checked twice)
        self.found = 0                   # mistakes found, counted before either dedupe
        self.clean: set[tuple] = set()   # what check_once ran without finding any
        self.implied: dict[str, dict] = {}   # keyword -> implied_least's answer
        self.attributes: dict[str, frozenset] = {}  # kind -> entity_attributes' answer

    # reporting
    def error(self, code: str, message: str, node, hint: str = "") -> None:
        self.found += 1
        pos = getattr(node, "pos", n.Pos())
        line, column = self.where.doc.effect_position(self.where.site_path, pos.line, pos.column)
        self.reporter.add(code, message, self.where.display, line, column, hint)

    def check_once(self, key: tuple, check) -> None:
        """Run `check()` unless it already ran under `key` and found nothing. What a check finds
        in an AST depends on the AST and its scope, never on where the AST sits, and the parser
        gives a text one AST: an effect repeated over a pack is walked once while it is clean,
        and where it is not, each place reports its own mistakes."""
        if key in self.clean:
            return
        before = self.found
        check()
        if self.found == before:
            self.clean.add(key)

    def check_site(self, site: EffectSite, doc, display: str, scope: dict[str, str]) -> None:
        if site.ast is None:
            return
        self.where = _Where(doc, display, site.path)
        # (the key holds the AST's id: the site keeps the AST alive for the checker's life)
        self.check_once(("names", id(site.ast), *sorted(scope.items())),
                        lambda: self.block(site.ast, dict(scope)))

    # statements
    def block(self, block: n.Block, scope: dict[str, str]) -> None:
        scope = dict(scope)
        for stmt in block.stmts:
            self.stmt(stmt, scope)

    def stmt(self, s, scope: dict[str, str]) -> None:  # noqa: C901 - one branch per kind
        if isinstance(s, n.Call):
            self.call(s, scope, as_cost=False)
        elif isinstance(s, n.Cost):
            for c in s.costs:
                self.call(c, scope, as_cost=True)
            self.repeated_costs(s)
            self.block(s.effect, scope)
        elif isinstance(s, n.Assign):
            self.attribute_target(s.target, scope)
            self.expect(s.value, "int", scope)
        elif isinstance(s, n.Let):
            self.let_name(s)
            scope[s.name] = self.expr(s.value, scope)
        elif isinstance(s, n.Require):
            self.expect(s.cond, "bool", scope)
        elif isinstance(s, n.If):
            self.expect(s.cond, "bool", scope)
            self.block(s.then, scope)
            if s.otherwise is not None:
                self.block(s.otherwise, scope)
        elif isinstance(s, n.On):
            if "event" not in self.vocab.types_of(s.event):
                self.unknown(s.event, s, self.names_of_type("event"), "event")
            self.warn_nested_triggers(s, s.body)
            inner = dict(scope, event=f"event:{s.event}")
            if s.where is not None:
                self.expect(s.where, "bool", inner)
            self.block(s.body, inner)
        elif isinstance(s, n.When):
            self.expect(s.cond, "bool", scope)
            self.block(s.body, scope)
        elif isinstance(s, (n.Each, n.Target)):
            bound = "it" if isinstance(s, n.Each) else "target"
            inner = self.selector(s.selector, scope, bound)
            self.block(s.body, inner)
        elif isinstance(s, (n.During, n.Once)):
            if "scope" not in self.vocab.types_of(s.scope):
                self.unknown(s.scope, s, self.names_of_type("scope"), "scope")
            self.block(s.body, scope)
        elif isinstance(s, n.Repeat):
            self.expect(s.count, "int", scope)
            times = n.constant(s.count)
            if times is not None and times < 1:   # printed "Do this 0 times: draw 1 card"
                self.error(dg.BELOW_LEAST, f"`repeat` takes a count of 1 or more, got {times}",
                           s.count, "it would do nothing; leave the statement out, or repeat "
                           "1 or more times")
            self.block(s.body, scope)
        elif isinstance(s, (n.May, n.Continuous)):
            self.block(s.body, scope)
        elif isinstance(s, n.Choose):
            for option in s.options:
                self.block(option, scope)

    def warn_nested_triggers(self, outer: n.On, block: n.Block) -> None:
        """A trigger (or a `during` holding one) after another statement of a colon body
        that belongs to the trigger `outer`: `on A: x; on B: y` was meant as two triggers."""
        for i, s in enumerate(block.stmts):
            if isinstance(s, n.On) or (isinstance(s, n.During) and _registers_trigger(s.body)):
                if i > 0:
                    inner = s if isinstance(s, n.On) else _first_trigger(s.body)
                    self.error(dg.NESTED_TRIGGER,
                               f"the trigger on '{inner.event}' is inside the body of the trigger "
                               f"on '{outer.event}' (a colon body runs to the end of its block): "
                               f"each time '{outer.event}' happens, one more trigger on "
                               f"'{inner.event}' is registered", s,
                               f"to write two triggers, close the first body with braces: "
                               f"`on {outer.event} {{ ... }}; ...`")
                continue                 # its own body is checked when it is walked
            for child in _child_blocks(s):
                self.warn_nested_triggers(outer, child)

    def hides_a_name(self, name: str) -> bool:
        vocab = self.vocab
        return any(name in names for names in (LOCALS, vocab.names, vocab.verbs, vocab.queries,
                                                vocab.keywords, self.ids))

    def let_name(self, s: n.Let) -> None:
        """A let may not hide a name the game gives a meaning (a token, a verb, an entity id,
        `you`): the checker read `gain_token traverse traverse` after `let traverse = 1` as
        the token, the generated code as the number."""
        if self.hides_a_name(s.name):
            self.error(dg.BAD_NAME, f"let {s.name!r} would hide the game's name {s.name!r}", s,
                       "give the let a name of its own")

    def call(self, c: n.Call, scope: dict[str, str], as_cost: bool) -> None:
        target = self.vocab.verbs.get(c.verb) or self.vocab.keywords.get(c.verb)
        if target is None:
            if c.verb in self.vocab.queries:
                self.error(dg.WRONG_CONTEXT, f"{c.verb!r} is a query; write it inside a condition, "
                           f"like `if {c.verb}(...)`", c)
            else:
                self.unknown(c.verb, c, sorted(set(self.vocab.verbs) | set(self.vocab.keywords)),
                             "verb or keyword")
            for arg in c.args:
                self.expr(arg.value if isinstance(arg, n.KwArg) else arg, scope)
            return
        if as_cost and not target.cost:
            self.error(dg.NOT_A_COST, f"{c.verb!r} cannot be paid as a cost", c,
                       "costs: " + ", ".join(sorted(v for v, d in self.vocab.verbs.items() if d.cost)))
        self.arguments(target, c.args, c, scope)

    def repeated_costs(self, s: n.Cost) -> None:
        """Costs are checked one by one before any is paid (codegen's cost_check), so a verb
        paid twice on the same thing would be offered when only one payment can be made."""
        seen = set()
        for c in s.costs:
            verb = self.vocab.verbs.get(c.verb)
            if verb is None or not verb.cost:
                continue
            ints = {i for i, p in enumerate(verb.params) if p.type == "int"}
            key = (c.verb, tuple(repr(a) for i, a in enumerate(c.args) if i not in ints))
            if key in seen:
                self.error(dg.REPEATED_COST, f"{c.verb!r} is paid twice before one `->`: each is "
                           "checked alone, so both are offered when only one can be paid", c,
                           "write it once with the amounts added (`spend oxygen 2`, `pay ap 4`)")
            seen.add(key)

    def arguments(self, target: Callable, args, node, scope: dict[str, str]) -> None:
        positional = [a for a in args if not isinstance(a, n.KwArg)]
        keywords = {a.name: a for a in args if isinstance(a, n.KwArg)}
        params = list(target.params)
        if len(positional) > len(params):
            extra = positional[len(params)]
            verb = extra.head if isinstance(extra, n.Name) and len(extra.parts) == 1 else None
            hint = self.signature(target)
            if verb in self.vocab.verbs or verb in self.vocab.keywords:
                # `gain_students 2 draw_cards 1`: two statements with the `;` left out
                hint = f"separate statements with `;` (before {verb!r}); {hint}"
            self.error(dg.WRONG_ARITY, f"{target.name!r} takes {len(params)} argument"
                       f"{'s' * (len(params) != 1)}, got {len(positional) + len(keywords)}", node,
                       hint)
        bound = dict(zip([p.name for p in params], positional))
        for name, kw in keywords.items():
            if name not in {p.name for p in params}:
                self.error(dg.WRONG_ARITY, f"{target.name!r} has no parameter {name!r}", kw,
                           self.signature(target))
            elif name in bound:
                self.error(dg.WRONG_ARITY, f"parameter {name!r} is given twice", kw)
            else:
                bound[name] = kw.value
        missing = [p.name for p in params if p.name not in bound]
        if missing and len(positional) <= len(params):
            self.error(dg.WRONG_ARITY, f"{target.name!r} is missing "
                       + ", ".join(repr(m) for m in missing), node, self.signature(target))
        if self._swapped(params, positional, keywords):
            first, second = positional
            self.error(dg.WRONG_TYPE, f"{target.name!r} takes its arguments the other way round",
                       node, f"write `{target.name} {second.head} {first.value}`; "
                             f"{self.signature(target)}")
            return
        for p in params:
            if p.name in bound:
                self.expect(bound[p.name], p.type, scope)
                self._at_least(target, p, bound[p.name])

    def _at_least(self, target: Callable, param, arg) -> None:
        """A constant argument below the parameter's `min:` (`gain skill 0`, `draw -2`), or,
        for a keyword's parameter without one, below what its effect passes it on to: a pack's
        `haul: {params: [{name: n, type: int}], effect: "draw n"}` took `haul 0` clean, and
        drew nothing."""
        least, via = param.least, ""
        if target.name in self.vocab.keywords:   # `min: 0` on a count it passes to `draw`
            implied, why = self.implied_least(target.name).get(param.name, (None, ""))
            if implied is not None and (least is None or implied > least):
                least, via = implied, why
        value = n.constant(arg) if least is not None else None
        if value is not None and value < least:
            self.error(dg.BELOW_LEAST, f"{target.name!r} takes {param.name} {least} or more"
                       f"{via}, got {value}", arg, f"{'it would do nothing; ' if value == 0 else ''}"
                       f"{'to take something away, use the verb that says so; ' if value <= 0 else ''}"
                       f"{self.signature(target)}{self._defined_elsewhere(target)}")

    def _defined_elsewhere(self, target: Callable) -> str:
        """Where a pack (re)defines the keyword called from another file: a pack replacing
        Dungeontology's `ambush` with `min: 3` was told of "ambush 1" in the base game's
        regions.yaml, a file it cannot change, and not of its own definition."""
        origin = getattr(target, "origin", None)
        if not origin or self.where is None or origin[0] is self.where.doc:
            return ""
        doc, path = origin
        if self.game.documents and doc is self.game.documents[0]:
            return ""       # the base game's own keyword
        mark = doc.mark(path[:-1], key=True)
        return f" ({target.name!r} is defined at {_display(doc)}:{mark.line})"

    def implied_least(self, keyword: str, seen: frozenset = frozenset()) -> dict:
        """The least each int parameter of a keyword may take for what its effect hands it on
        to (`draw n`, `pay ap (n + 1)`, another keyword), whatever `min:` it declares, as
        {param: (least, " (it is passed to 'draw')")}."""
        if keyword in self.implied:
            return self.implied[keyword]
        found: dict = {}
        mine = {p.name for p in self.vocab.keywords[keyword].params if p.type == "int"}
        site = self.game.keyword_sites.get(keyword)     # parsed with the game (parse_effects)
        block = site.ast if site is not None and mine and keyword not in seen else None
        for call in n.walk(block) if block is not None else ():
            passed = _offset(call.count, mine) if isinstance(call, n.Repeat) else None
            if passed is not None and (passed[0] not in found or 1 - passed[1] > found[passed[0]][0]):
                found[passed[0]] = (1 - passed[1], " (it is the count of a `repeat`)")
            target = isinstance(call, n.Call) and (self.vocab.verbs.get(call.verb)
                                                   or self.vocab.keywords.get(call.verb))
            if not target:
                continue
            bound = n.bind([p.name for p in target.params], call.args)
            inner = (self.implied_least(call.verb, seen | {keyword})
                     if call.verb in self.vocab.keywords else {})
            for p in target.params:
                least = max((x for x in (p.least, inner.get(p.name, (None,))[0])
                             if x is not None), default=None)
                passed = _offset(bound.get(p.name), mine)
                if least is None or passed is None:
                    continue
                name, offset = passed
                if name not in found or least - offset > found[name][0]:
                    found[name] = (least - offset, f" (it is passed to {call.verb!r})")
        self.implied[keyword] = found
        return found

    def _swapped(self, params, positional, keywords) -> bool:
        """`gain 2 gold` for `gain <resource> <amount:int>`: a number where a name goes and a
        name of that type where the number goes (the sheet reads "Gain 2 gold", so a newcomer
        writes the number first). One error then, with the order, not two type errors."""
        if keywords or len(params) != 2 or len(positional) != 2:
            return False
        first, second = positional
        return (isinstance(first, n.Num) and isinstance(second, n.Name) and len(second.parts) == 1
                and params[0].type != "int" and params[1].type == "int"
                and params[0].type in self.vocab.types_of(second.head))

    def signature(self, target: Callable) -> str:
        params = " ".join(f"<{p.name}:{p.type}>" for p in target.params)
        return f"usage: {target.name} {params}".rstrip()

    def selector(self, sel: n.Selector, scope: dict[str, str], bound: str) -> dict[str, str]:
        kinds = BUILTIN_SELECTORS | set(self.vocab.kinds) | self.vocab.term_types
        term_values = {name for name, types in self.vocab.names.items()
                       if types.keys() & self.vocab.term_types}
        if sel.kind not in kinds and sel.kind not in term_values:
            self.unknown(sel.kind, sel, sorted(kinds | term_values), "kind")
        if sel.zone is not None and "zone" not in self.vocab.types_of(sel.zone) \
                and scope.get(sel.zone) != "zone":
            self.unknown(sel.zone, sel, self.names_of_type("zone"), "zone")
        inner = dict(scope)
        inner[bound] = "player" if sel.kind in BUILTIN_SELECTORS else sel.kind
        inner.setdefault("it", inner[bound])
        if sel.where is not None:
            self.expect(sel.where, "bool", dict(inner, it=inner[bound]))
        return inner

    def attribute_target(self, target: n.Name, scope: dict[str, str]) -> None:
        if len(target.parts) == 1:
            self.error(dg.WRONG_CONTEXT, "assign to an attribute, like `self.points = 3`", target)
            return
        self.expr(target, scope)

    # expressions
    def expect(self, e, wanted: str, scope: dict[str, str]) -> None:
        got = self.expr(e, scope)
        if wanted == "any" or got is None:
            return
        if got == "any":
            # a game name of several types ('photo': a token and a category) is still only
            # those: `spend photo 1` wants equipment, which photo is not
            several = self._types_of_game_name(e, scope)
            if several is None or wanted == "bool":
                return
            got = " or ".join(sorted(several))
        if wanted in ("int", "bool"):
            if got != wanted and not (wanted == "int" and got.startswith("local:")):
                if got.startswith("local:"):
                    return
                self.error(dg.WRONG_TYPE, f"expected {'a number' if wanted == 'int' else 'a condition'}"
                           f", got {self.describe(got)}", e)
            return
        # a name type, an entity kind or a player
        if isinstance(e, n.Name) and len(e.parts) == 1:
            name = e.head
            if name not in scope and name in LOCALS and name not in ("event", "it", "target"):
                local = LOCALS[name]  # `you` is a player, `self` the entity the effect is on
                if local == wanted or local == "entity" and wanted not in ("player",) \
                        and wanted not in self.vocab.term_types:
                    return
            if name in scope:
                # the local is what the generated code passes, whatever the game calls so:
                # a number parameter named `traverse` is no token (KeyError at run time)
                local = scope[name]
                if local in (wanted, "any", "entity", "local:any"):
                    return
                if local in ("int", "bool", "local:int", "local:bool"):
                    hidden = wanted in self.vocab.types_of(name) \
                        or wanted.removeprefix("kind:") in self.ids.get(name, set())
                    self.error(dg.WRONG_TYPE, f"expected a {wanted.removeprefix('kind:')}, got "
                               f"{self.describe(local)} {name!r}", e,
                               f"the parameter {name!r} hides the {wanted.removeprefix('kind:')} "
                               f"{name!r} here: give the parameter a name of its own" if hidden
                               else "")
                    return
                if local.startswith("local:"):
                    return
            if wanted in self.vocab.types_of(name):
                return
            if wanted.removeprefix("kind:") in self.ids.get(name, set()):
                return
            if wanted == "player" and name in scope:
                return
        elif got in (wanted, "any", "entity") or got.startswith("local:"):
            return
        options = self.names_of_type(wanted) or sorted(
            i for i, kinds in self.ids.items() if wanted.removeprefix("kind:") in kinds)
        name = e.head if isinstance(e, n.Name) else None
        hint = did_you_mean(name, options) if name else ""
        if not hint and options and len(options) <= 12:
            hint = "one of: " + ", ".join(options)
        self.error(dg.WRONG_TYPE, f"expected a {wanted.removeprefix('kind:')}, got {self.describe(got)}", e, hint)

    def _types_of_game_name(self, e, scope: dict[str, str]) -> set[str] | None:
        """The types of a bare name of the game (vocabulary or entity id) that is no local,
        else None."""
        if not isinstance(e, n.Name) or len(e.parts) != 1 or e.head in scope \
                or e.head in LOCALS:
            return None
        types = set(self.vocab.types_of(e.head)) | set(self.ids.get(e.head, set()))
        return types or None

    def describe(self, t: str) -> str:
        if t in ("int",):
            return "a number"
        if t == "bool":
            return "a condition"
        return t.removeprefix("local:").removeprefix("kind:")

    def expr(self, e, scope: dict[str, str]) -> str:  # noqa: C901 - one branch per kind
        if isinstance(e, n.Num):
            return "int"
        if isinstance(e, n.Bool):
            return "bool"
        if isinstance(e, n.Name):
            return self.name(e, scope)
        if isinstance(e, n.Func):
            query = self.vocab.queries.get(e.name)
            if query is None:
                self.unknown(e.name, e, sorted(self.vocab.queries), "query")
                for a in e.args:
                    self.expr(a, scope)
                return "any"
            self.arguments(query, e.args, e, scope)
            return query.returns or "any"
        if isinstance(e, n.Count):
            self.selector(e.selector, scope, "it")
            return "int"
        if isinstance(e, n.Any_):
            self.selector(e.selector, scope, "it")
            return "bool"
        if isinstance(e, n.Not):
            self.expect(e.operand, "bool", scope)
            return "bool"
        if isinstance(e, n.Neg):
            self.expect(e.operand, "int", scope)
            return "int"
        if isinstance(e, n.BinOp):
            if e.op in ("and", "or"):
                self.expect(e.left, "bool", scope)
                self.expect(e.right, "bool", scope)
                return "bool"
            if e.op in ("==", "!="):
                self.expr(e.left, scope)
                self.expr(e.right, scope)
                return "bool"
            self.expect(e.left, "int", scope)
            self.expect(e.right, "int", scope)
            return "bool" if e.op in ("<", "<=", ">", ">=") else "int"
        return "any"

    def name(self, e: n.Name, scope: dict[str, str]) -> str:
        head = e.head
        if head in scope:
            base = scope[head]
        elif head in LOCALS:
            if head in ("event", "it", "target"):
                self.error(dg.WRONG_CONTEXT, f"`{head}` is only defined inside "
                           + {"event": "`on EVENT:`", "it": "`each`", "target": "`target`"}[head], e)
                return "any"
            base = LOCALS[head]
        elif head in self.vocab.names:
            types = self.vocab.types_of(head)
            base = next(iter(sorted(types))) if len(types) == 1 else "any"
        elif head in self.ids:
            kinds = self.ids[head]
            base = f"kind:{next(iter(kinds))}" if len(kinds) == 1 else "any"
        else:
            self.unknown(head, e, self.vocab.all_names() + sorted(scope), "name")
            return "any"
        if len(e.parts) == 1:
            return base
        return self.attribute(e, base)

    def attribute(self, e: n.Name, base: str) -> str:
        attr = e.parts[1]
        if base.startswith("event:"):
            fields = self.vocab.event_fields(base[6:])
            if attr not in fields:
                self.error(dg.UNKNOWN_FIELD, f"event {base[6:]!r} has no field {attr!r}", e,
                           did_you_mean(attr, sorted(fields)) or
                           ("fields: " + ", ".join(sorted(fields)) if fields else "this event has no fields"))
                return "any"
            self.warn_no_text(attr, e, base[6:])
            return "any" if len(e.parts) > 2 else _field_type(fields[attr])
        known = self.attribute_names()
        if attr not in known:
            self.error(dg.UNKNOWN_FIELD, f"unknown attribute {attr!r}", e,
                       did_you_mean(attr, sorted(known)) or self.not_an_attribute(attr))
        elif base in self.vocab.kinds and attr not in _OWN \
                and attr not in self.entity_attributes(base):
            # `each card ...: it.hp -= 1`: hp is a stat, but no card has one (play stopped
            # on "no layered value 'hp'"); a DRG monster in play has no `hp` (its card does)
            fields = sorted(self.entity_attributes(base))
            self.error(dg.UNKNOWN_FIELD, f"a {base} has no {attr!r} in play", e,
                       did_you_mean(attr, fields) or f"a {base} has: " + ", ".join(fields))
        elif attr not in _OWN:
            self.warn_no_text(attr, e, None)
        return "any"

    def entity_attributes(self, kind: str) -> frozenset:
        """What an entity of `kind` bound by a selector has in play: the engine's contract
        says so where its objects are not the kind's fields, else the kind's fields."""
        memo = self.attributes
        if kind not in memo:
            from tomecraft.compiler.contract import load
            declared = getattr(load(self.vocab.engine), "attributes", {}) or {}
            memo[kind] = declared.get(kind) or frozenset(
                self.vocab.kinds[kind].get("fields", {}))
        return memo[kind]

    def warn_no_text(self, attr: str, e: n.Name, event: str | None) -> None:
        """Rules text names an attribute by its text; without one it falls back to words."""
        if self.vocab.field_text(attr, event) is not None:
            return
        key = (self.where.display, self.where.site_path, e.pos.line, e.pos.column)
        if key in self.warned:
            self.found += 1              # said already, but found here all the same
        else:
            self.warned.add(key)
            where = f"event {event!r}'s field" if event else "field"
            hint = (f"give it text: `fields: {{{attr}: {{type: ..., zh: ..., en: ...}}}}`"
                    if event else f"add `x-text: {{zh: ..., en: ...}}` to the field `{attr}` "
                    "under its kind in game.yaml")
            self.error(dg.NO_TEXT, f"{where} {attr!r} has no zh/en text for rules text", e,
                       hint)

    def not_an_attribute(self, attr: str) -> str:
        """What an attribute may read, for a name that is none (`you.gold`: a resource)."""
        types = sorted(self.vocab.types_of(attr))
        what = f"`{attr}` is a {types[0]}, not a stat; " if types else ""
        return (f"{what}an attribute reads a stat ({', '.join(self.names_of_type('stat'))}), "
                "an event's field or a field of an entity kind")

    def attribute_names(self) -> set[str]:
        return attribute_names(self.vocab)

    def names_of_type(self, type_: str) -> list[str]:
        return sorted(name for name, types in self.vocab.names.items() if type_ in types)

    def unknown(self, name: str, node, candidates, what: str) -> None:
        hint = did_you_mean(name, candidates)
        if self.game.unloaded_requires and not hint:     # the root cause is said at requires:
            hint = (f"it may be declared by {', '.join(map(repr, self.game.unloaded_requires))}"
                    ", required but not loaded: load it first")
        self.error(dg.UNKNOWN_NAME, f"unknown {what} {name!r}", node, hint)


_OWN = {"id", "kind", "owner", "zone", "name"}     # what every entity has


def _field_type(declared: str) -> str:
    return declared


def check_names(game: Game, reporter: dg.Reporter) -> None:
    checker = Checker(game, reporter)
    for name, site in sorted(game.keyword_sites.items()):
        keyword = game.vocab.keywords[name]
        scope = {p.name: (p.type if p.type not in SCALAR_TYPES else "local:" + p.type)
                 for p in keyword.params}
        doc, _ = keyword.origin
        checker.check_site(site, doc, _display(doc), scope)
    for entity in game.all():
        for site in entity.effects:
            checker.check_site(site, entity.doc, entity.display, {})


def removal_entry(game: Game, kind: str, entity_id: str = ""):
    """(document, index, pack id) of the pack.yaml `remove` entry that removed this entity
    (with no id, the first that removed one of `kind`), or None."""
    for doc in game.documents:
        data = doc.data if isinstance(doc.data, dict) else {}
        if doc.path.name != "pack.yaml":
            continue
        for i, removal in enumerate(data.get("remove") or ()):
            if isinstance(removal, dict) and removal.get("kind") == kind \
                    and (not entity_id or removal.get("id") == entity_id):
                return doc, i, data.get("id")
    return None


def report_still_used(removed: dict, reporter: dg.Reporter) -> None:
    """A pack removed an entity other content still names: said once, at the removal (the
    fan's own line), with the places that name it, not at the base's files."""
    for (_, i, kind, entity_id), (doc, users) in removed.items():
        mark = doc.mark(("remove", i))
        shown = ", ".join(users[:3]) + (f" and {len(users) - 3} more" if len(users) > 3 else "")
        reporter.add(dg.UNKNOWN_REF,
                     f"cannot remove {kind} {entity_id!r}: {len(users)} "
                     f"{'entity' if len(users) == 1 else 'entities'} of other packs still "
                     f"name{'s' if len(users) == 1 else ''} it "
                     f"({shown})", _display(doc), mark.line, mark.column,
                     f"remove or replace those too, or replace the {kind} (its id with "
                     "`replace: true`) instead of removing it")


def check_refs(game: Game, reporter: dg.Reporter) -> None:
    """Every `ref:<kind>` field names an existing entity; every `term:<type>` a declared term."""
    removed: dict[tuple, tuple] = {}     # (document, remove index, kind, id) -> (doc, users)
    for entity in game.all():
        for path, target, value in entity.refs:
            mark = entity.doc.mark(path)
            if target.startswith("term:"):
                type_ = target[5:]
                if type_ not in game.vocab.types_of(value):
                    options = sorted(k for k, t in game.vocab.names.items() if type_ in t)
                    reporter.add(dg.UNKNOWN_REF, f"{value!r} is not a declared {type_}",
                                 entity.display, mark.line, mark.column,
                                 did_you_mean(value, options) or _declare_term(type_, value))
            elif value not in game.entities.get(target, {}) \
                    and value not in game.refused.get(target, {}):     # its schema error says
                removal = removal_entry(game, target, value) \
                    if isinstance(value, str) and value else None
                if removal is not None and removal[2] != entity.pack:
                    doc, i, _ = removal
                    removed.setdefault((id(doc), i, target, value), (doc, []))[1].append(
                        f"{entity.kind} {entity.id!r} at {entity.display}:{mark.line}")
                    continue
                reporter.add(dg.UNKNOWN_REF, f"no {target} with id {value!r}", entity.display,
                             mark.line, mark.column,
                             did_you_mean(value, sorted(game.entities.get(target, {}))))
    report_still_used(removed, reporter)


def _declare_term(type_: str, value: str) -> str:
    """The hint for a new term: where a pack declares it (the vocabulary gives its words)."""
    return (f"a new {type_} is declared in pack.yaml, with its words: `vocabulary: {{terms: "
            f"{{{type_}: {{{value}: {{zh: ..., en: ...}}}}}}}}`")


def check_provenance(game: Game, reporter: dg.Reporter) -> None:
    """Approximated fields inside an entity must name fields the entity has."""
    for entity in game.all():
        for section in ("approximations", "public"):
            for field_name in entity.data.get(section, {}) or {}:
                if field_name not in entity.data:
                    mark = entity.doc.mark(entity.path + (section, field_name), key=True)
                    reporter.add(dg.PROVENANCE, f"{section} names field {field_name!r}, "
                                 "which this entity does not have", entity.display,
                                 mark.line, mark.column)
        _check_note_of(game, entity, reporter)


def _check_note_of(game: Game, entity, reporter: dg.Reporter) -> None:
    """`note_of: <rule id>` says the entity's approximation note states the fact of an
    approximated rule (the sheets give both one footnote): the rule must exist and be
    approximated, and the entity must have a note of its own to share."""
    rule_id = entity.data.get("note_of")
    if rule_id is None:
        return
    mark = entity.doc.mark(entity.path + ("note_of",))
    rules = game.entities.get("rule", {})
    rule = rules.get(str(rule_id))
    if rule is None:
        reporter.add(dg.UNKNOWN_REF, f"note_of: no rule with id {rule_id!r}", entity.display,
                     mark.line, mark.column, did_you_mean(str(rule_id), sorted(rules)))
    elif not _approximated(rule):
        reporter.add(dg.PROVENANCE, f"note_of: rule {rule_id!r} is not an approximation "
                     "(no note to share)", entity.display, mark.line, mark.column)
    elif entity.kind == "rule":
        reporter.add(dg.PROVENANCE, "note_of links an entity to a rule; a rule is its own "
                     "footnote", entity.display, mark.line, mark.column)
    elif not _approximated(entity):
        reporter.add(dg.PROVENANCE, "note_of on an entity with no approximation note",
                     entity.display, mark.line, mark.column)


def _approximated(entity) -> bool:
    return entity.source == "approximation" or bool(entity.data.get("approximations"))


_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def check_texts(game: Game, reporter: dg.Reporter) -> None:
    """A `{zh, en}` text each sheet prints in its own language: a pack's `{zh: Harvest, en:
    Harvest}` put English on the Chinese sheets, with a clean check (fifth packs blind test)."""
    script = getattr(game.vocab, "script", "")
    for entity in game.all():
        for path, text in _texts(entity.data):
            _check_text(entity.doc, entity.display, entity.path + path, text, reporter, script)
    for doc in game.documents:      # a pack's vocabulary (its terms, zones, keywords...), name
        if doc.path.name == "pack.yaml" and isinstance(doc.data, dict):
            for path, text in _texts(doc.data.get("vocabulary"), ("vocabulary",)):
                _check_text(doc, _display(doc), path, text, reporter, script)
            if doc is not game.documents[0]:    # its name: the script only (`new pack`
                for path, text in _texts({"name": doc.data.get("name")}):   # writes the id)
                    _check_text(doc, _display(doc), path, text, reporter, script,
                                script_only=True)


def _texts(value, path: tuple = ()):
    """(path, {zh, en}) of every text inside an entity's data."""
    if isinstance(value, dict):
        if isinstance(value.get("zh"), str) and isinstance(value.get("en"), str):
            yield path, value
        for key, inner in value.items():
            yield from _texts(inner, path + (key,))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _texts(inner, path + (i,))


# Characters of one script only (Simplified, then its Traditional form), common in game text:
# a pack's zh text in the other script than its game's was printed as it is, mixed with the
# sheet's own phrases (a Cave pack's "在此版塊放置遗迹标记" on a zh-Hant sheet). Forms that are
# also a character of the other script (后 里 余 于 并 只 干 台 斗 云...) are left out.
_SCRIPT_PAIRS = (
    "个個 内內 则則 将將 对對 择擇 数數 标標 没沒 为為 无無 营營 续續 复複 设設 该該 变變 选選 "
    "间間 队隊 项項 时時 与與 从從 开開 当當 张張 点點 轮輪 动動 发發 资資 区區 状狀 态態 条條 "
    "况況 掷擲 结結 总總 号號 拥擁 执執 处處 这這 们們 边邊 来來 远遠 进進 达達 还還 过過 记記 "
    "块塊 迹跡 遗遺 获獲 战戰 宝寶 币幣 级級 伤傷 钥鑰 门門 龙龍 护護 师師 书書 马馬 鸟鳥 鱼魚 "
    "车車 长長 东東 页頁 见見 说說 话話 读讀 写寫 买買 卖賣 钱錢 银銀 铁鐵 钢鋼 图圖 国國 场場 "
    "库庫 应應 务務 头頭 体體 气氣 风風 电電 灯燈 绳繩 险險 难難 层層 矿礦 虫蟲 异異 兽獸 医醫 "
    "疗療 药藥 弹彈 枪槍 剑劍 击擊 杀殺 胜勝 败敗 赢贏 输輸 给給 让讓 认認 识識 学學 习習 觉覺 "
    "视視 观觀 规規 计計 论論 证證 实實 历歷 经經 红紅 绿綠 蓝藍 黄黃 众眾 网網 颗顆 叶葉 "
    "纸紙 线線 厅廳 馆館 饰飾 铜銅 钻鑽 锁鎖 链鏈 镜鏡 袭襲 惊驚 恶惡 梦夢 灵靈")
_SIMPLIFIED_ONLY = {pair[0]: pair[1] for pair in _SCRIPT_PAIRS.split()}
_TRADITIONAL_ONLY = {t: s for s, t in _SIMPLIFIED_ONLY.items()}


def _other_script(text: str, script: str) -> list[str]:
    """The characters of `text` written in the other script than the game's (`hans`, `hant`),
    each with its form in the game's: ["标 (標)"]."""
    table = _SIMPLIFIED_ONLY if script == "hant" else _TRADITIONAL_ONLY
    return list(dict.fromkeys(f"{c} ({table[c]})" for c in text if c in table))


def _check_text(doc, display: str, path: tuple, text: dict, reporter: dg.Reporter,
                script: str = "", script_only: bool = False) -> None:
    wrong = _other_script(text["zh"], script) if script else []
    if wrong:
        mark = doc.mark(path + ("zh",))
        words = ("Traditional", "Simplified") if script == "hant" else ("Simplified", "Traditional")
        reporter.add(dg.WRONG_LANGUAGE, f"the Chinese text {text['zh']!r} has {words[1]} "
                     f"characters ({', '.join(wrong[:6])}): the game's sheets are in {words[0]} "
                     "characters and print it as it is", display, mark.line, mark.column,
                     f"write `zh:` in {words[0]} characters, as the game's rulebook")
    if script_only:
        return
    if not _CJK.search(text["zh"]) and re.search("[A-Za-z]", text["zh"]):
        mark = doc.mark(path + ("zh",))
        reporter.add(dg.WRONG_LANGUAGE, f"the Chinese text {text['zh']!r} holds no Chinese: the "
                     "Chinese sheets print it as it is", display, mark.line, mark.column,
                     "write `zh:` in Chinese")
    if _CJK.search(text["en"]):
        mark = doc.mark(path + ("en",))
        reporter.add(dg.WRONG_LANGUAGE, f"the English text {text['en']!r} holds Chinese: the "
                     "English sheets print it as it is", display, mark.line, mark.column,
                     "write `en:` in English")


_PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)(?::plural|:signed)?\}")


def check_part_ids(game: Game, reporter: dg.Reporter) -> None:
    """The parts an entity lists by id (a tile kind's entry options and actions, a class's
    abilities, a weapon's modes, a scholar's skills) are found by their id in play: a second
    part with an id already used is never reached (a pack's tile kind with two `walk` entries
    checked clean, and play always ran the first). Said at the second, with the first's line."""
    for entity in game.all():
        stack = [((), entity.data)]
        while stack:
            path, value = stack.pop()
            if isinstance(value, dict):
                stack.extend((path + (k,), v) for k, v in value.items())
            elif isinstance(value, list):
                seen: dict = {}
                for i, item in enumerate(value):
                    stack.append((path + (i,), item))
                    part = item.get("id") if isinstance(item, dict) else None
                    if not isinstance(part, str):
                        continue
                    if part in seen:
                        mark = entity.doc.mark(entity.path + path + (i, "id"))
                        first = entity.doc.mark(entity.path + path + (seen[part], "id"))
                        field = ".".join(map(str, path))
                        reporter.add(dg.DUPLICATE_ID, f"{entity.kind} {entity.id!r}: a second "
                                     f"{field} entry with the id {part!r} (first at line "
                                     f"{first.line}): play finds a part by its id and never "
                                     "reaches this one", entity.display, mark.line, mark.column,
                                     "give each entry its own id")
                    else:
                        seen[part] = i


def check_keyword_texts(game: Game, reporter: dg.Reporter) -> None:
    """A keyword's zh/en text fills `{param}` placeholders with its parameters: a pack's
    `text: {en: "jingle {m}"}` for a parameter `n` was printed 'Jingle {m}.' with a clean
    check, and a text leaving out a number parameter printed no number (fifth packs blind
    test)."""
    for name, keyword in sorted(game.vocab.keywords.items()):
        if keyword.text is None or not keyword.origin:
            continue
        doc, path = keyword.origin
        params = {p.name: p.type for p in keyword.params}
        _check_param_names(game, name, keyword, doc, path, reporter)
        for lang in ("zh", "en"):
            used = _PLACEHOLDER.findall(keyword.text.get(lang))
            mark = doc.mark(path[:-1] + ("text", lang))
            for unknown in dict.fromkeys(u for u in used if u not in params):
                reporter.add(dg.VOCAB, f"keyword {name!r}: the {lang} text's {{{unknown}}} is no "
                             "parameter of the keyword", _display(doc), mark.line, mark.column,
                             did_you_mean(unknown, params) or
                             ("parameters: " + ", ".join(params) if params else "it has no parameters"))
            for missing in (p for p, type_ in params.items() if type_ == "int" and p not in used):
                reporter.add(dg.NO_TEXT, f"keyword {name!r}: the {lang} text leaves out the number "
                             f"{{{missing}}}: the sheets print no number", _display(doc),
                             mark.line, mark.column, f"put {{{missing}}} where the number is read")


def _check_param_names(game: Game, name: str, keyword, doc, path: tuple,
                       reporter: dg.Reporter) -> None:
    """A keyword's parameter may not be a word of the effect language (`it`, `you`, `self`,
    `target`, `event`: TC-N008): a parameter `it` was taken by `each player:` in its body and
    the fan was told "expected a number, got player". (One hiding a game's name, `gold` in
    `gain gold gold`, is told so where the name is misread.)"""
    for i, param in enumerate(keyword.params):
        if param.name not in LOCALS:    # a game's name it hides is said where it is misread
            continue
        mark = doc.mark(path[:-1] + ("params", i, "name"))
        reporter.add(dg.BAD_NAME, f"keyword {name!r}: a parameter may not be called "
                     f"{param.name!r}, a word of the effect language (`{param.name}` is "
                     f"{LOCAL_MEANINGS[param.name]})", _display(doc), mark.line, mark.column,
                     f"give the parameter a name of its own (such as "
                     f"`{'n' if param.type == 'int' else param.type + '_'}`), in `params`, "
                     f"its effect and its text")




def entities_mentioning(game: Game, name: str) -> list[tuple[Entity, EffectSite]]:
    """Effect sites whose AST uses `name` anywhere (for cheat sheets: how a token is earned)."""
    index = game.__dict__.get("_mentions")
    if index is None:
        index = _mention_index(game)
        game.__dict__["_mentions"] = index
    return list(index.get(name, ()))


def _mention_index(game: Game) -> dict[str, list[tuple[Entity, EffectSite]]]:
    """name -> sites using it, itself or through a keyword it calls (a pack's `dig_up 2`,
    whose body takes the relic token: the Cave's token sheet said nothing of that way to earn
    it); each distinct AST is walked once (the parse cache shares them)."""
    names_of: dict[int, frozenset[str]] = {}
    index: dict[str, list[tuple[Entity, EffectSite]]] = {}
    by_keyword: dict[str, frozenset[str]] = {}

    def mentioned(ast, seen: frozenset = frozenset()) -> set[str]:
        found = set()
        for node in n.walk(ast):
            if isinstance(node, n.Name):
                found.update(node.parts)
            elif isinstance(node, n.Call):
                found.add(node.verb)
                site = game.keyword_sites.get(node.verb)
                if site is not None and site.ast is not None and node.verb not in seen:
                    if node.verb not in by_keyword:     # (a keyword never uses itself: TC-E003)
                        by_keyword[node.verb] = frozenset(mentioned(site.ast, seen | {node.verb}))
                    found |= by_keyword[node.verb]
        return found

    for entity in game.all():
        for site in entity.effects:
            if site.ast is None:
                continue
            names = names_of.get(id(site.ast))
            if names is None:
                names = names_of[id(site.ast)] = frozenset(mentioned(site.ast))
            for name in names:
                index.setdefault(name, []).append((entity, site))
    return index


# --- bounds: every effect finishes quickly -------------------------------------------------

MAX_NUMBER = 1_000        # a number literal in an effect
MAX_REPEAT = 10_000       # rounds of one `repeat`, as far as the checker can bound them
MAX_PASSES = 100_000      # rounds of nested repeats together (the run-time budget of an effect)
MAX_VALUE = 1_000_000     # any arithmetic result
MAX_UNKNOWN = 1_000       # what the checker assumes of a count, a stat, a query, a parameter
_ARITH = {"+", "-", "*", "//"}


class Bounds:
    """Static bounds on one effect: number literals, constant and estimated arithmetic,
    division by a literal zero and repeat counts, each against a game-sized limit.

    Values the checker cannot know (counts, stats, queries, keyword parameters) are taken
    as at most MAX_UNKNOWN, so `let b = a * a` chained a few times is refused before it can
    build a number with millions of digits at run time."""

    def __init__(self, checker: Checker) -> None:
        self.checker = checker

    def visit(self, node, lets: dict, passes: int) -> None:
        if isinstance(node, n.Block):
            lets = dict(lets)
            for stmt in node.stmts:
                self.visit(stmt, lets, passes)
        elif isinstance(node, n.Let):
            lets[node.name] = self.value(node.value, lets)
        elif isinstance(node, n.Repeat):
            bound, const = self.value(node.count, lets)
            if bound > MAX_REPEAT:
                shown = f"repeat count {const:,}" if const is not None else \
                    f"repeat count may reach {bound:,}"
                self.checker.error(dg.EFFECT_BOUNDS, f"{shown}; the limit is {MAX_REPEAT:,}",
                                   node.count, "repeat a game-sized number of times")
                bound = 1
            elif passes * max(bound, 1) > MAX_PASSES:
                self.checker.error(dg.EFFECT_BOUNDS, "nested repeats may run "
                                   f"{passes * bound:,} rounds; the limit is {MAX_PASSES:,}",
                                   node.count, "nest fewer repeats, or repeat fewer times")
                bound = 1
            self.visit(node.body, lets, passes * max(bound, 1))
        elif isinstance(node, n.Call) and self.keyword_rounds(node.verb) > 1 \
                and passes * self.keyword_rounds(node.verb) > MAX_PASSES:
            inner = self.keyword_rounds(node.verb)
            self.checker.error(dg.EFFECT_BOUNDS, f"keyword '{node.verb}' repeats {inner:,} "
                               f"rounds inside; here that is {passes * inner:,} rounds, the "
                               f"limit is {MAX_PASSES:,}", node,
                               "nest fewer repeats through keywords, or repeat fewer times")
        elif isinstance(node, n.Call) and passes > 1:
            self.repeated_amount(node, lets, passes)
        elif _is_expr(node):
            self.value(node, lets)
        else:
            for child in _children(node):
                self.visit(child, lets, passes)

    def keyword_rounds(self, verb: str, seen: frozenset = frozenset()) -> int:
        """The rounds of nested repeats a keyword's body runs, through the keywords it calls
        (1: none), as far as their counts are numbers the checker knows. Nested through
        keywords (`ka: repeat 99 { kb }`, `kb: repeat 99 { kc }`...) they checked clean and
        ran every sim game into its step budget: no game played a round, exit 0."""
        memo = self.__dict__.setdefault("_keyword_rounds", {})
        if verb in memo:
            return memo[verb]
        site = self.checker.game.keyword_sites.get(verb)
        if site is None or site.ast is None or verb in seen:   # (a keyword's cycle: TC-E003)
            return 1
        memo[verb] = rounds = self._rounds(site.ast, seen | {verb})
        return rounds

    def _rounds(self, node, seen: frozenset) -> int:
        if isinstance(node, n.Repeat):
            const = self._known_count(node.count)
            return max(const, 1) * self._rounds(node.body, seen)
        if isinstance(node, n.Call):
            inner = self.keyword_rounds(node.verb, seen)
            return max([inner] + [self._rounds(c, seen) for c in _children(node)])
        return max([1] + [self._rounds(c, seen) for c in _children(node)])

    @staticmethod
    def _known_count(node) -> int:
        """A repeat's count when it is a number literal (within MAX_REPEAT, whose own check
        reports more), else 1: counts of parameters and queries are bounded at run time."""
        value = getattr(node, "value", None)
        if isinstance(node, n.Num) and isinstance(value, int) and not isinstance(value, bool):
            return min(value, MAX_REPEAT)
        return 1

    def repeated_amount(self, call: n.Call, lets: dict, passes: int) -> None:
        """A verb's amount counts what it does (Swarm cards revealed, monsters spawned, cards
        drawn): repeated, it does that many times over. `repeat 1000: reveal_swarm 1000` in a
        pack's event card checked clean and ran the sim three minutes into its step budget."""
        amount = max((abs(self.value(a, lets)[1] or 0) for a in call.args), default=0)
        if amount * passes > MAX_PASSES:
            self.checker.error(dg.EFFECT_BOUNDS, f"`{call.verb} {amount:,}` runs {passes:,} "
                               f"times here, {amount * passes:,} in all; the limit is "
                               f"{MAX_PASSES:,}", call, "repeat fewer times, or do less each time")

    def value(self, e, lets: dict) -> tuple[int, int | None]:
        """(a bound on |e|, e's value if it is a constant)."""
        if isinstance(e, n.Num):
            if abs(e.value) > MAX_NUMBER:
                self.checker.error(dg.EFFECT_BOUNDS, f"number {_short_int(e.value)} is beyond "
                                   f"the limit of {MAX_NUMBER:,}", e,
                                   "effects count game-sized amounts")
                return 1, None
            return abs(e.value), e.value
        if isinstance(e, n.Name) and len(e.parts) == 1 and e.head in lets:
            return lets[e.head]
        if isinstance(e, n.Neg):
            bound, const = self.value(e.operand, lets)
            return bound, None if const is None else -const
        if isinstance(e, n.BinOp) and e.op in _ARITH:
            return self.arithmetic(e, lets)
        if isinstance(e, n.KwArg):
            return self.value(e.value, lets)
        query = self.checker.game.vocab.queries.get(e.name) if isinstance(e, n.Func) else None
        if query is not None and query.most is not None:
            # a query the vocabulary bounds (`hazard_level`: 5): `repeat hazard_level() {
            # repeat 300 {...} }` was said to "run 300,000 rounds", the level taken as 1,000
            for child in _children(e):
                self.value(child, lets)
            return query.most, None
        for child in _children(e):
            self.visit(child, lets, 1) if not _is_expr(child) else self.value(child, lets)
        return (1, None) if isinstance(e, (n.Bool, n.Not, n.BinOp, n.Any_)) else (MAX_UNKNOWN, None)

    def arithmetic(self, e: n.BinOp, lets: dict) -> tuple[int, int | None]:
        left, lconst = self.value(e.left, lets)
        right, rconst = self.value(e.right, lets)
        if e.op == "//" and rconst == 0:
            self.checker.error(dg.EFFECT_BOUNDS, "division by zero", e.right,
                               "divide by a number other than 0")
            return 1, None
        bound = {"+": left + right, "-": left + right, "*": left * right, "//": left}[e.op]
        const = None
        if lconst is not None and rconst is not None:
            const = {"+": lconst + rconst, "-": lconst - rconst, "*": lconst * rconst,
                     "//": lconst // rconst if rconst else 0}[e.op]
            bound = abs(const)
        if bound > MAX_VALUE:
            what = f"is {const:,}" if const is not None else f"may reach {bound:,}"
            self.checker.error(dg.EFFECT_BOUNDS, f"this arithmetic {what}; the limit is "
                               f"{MAX_VALUE:,}", e, "counts, stats and parameters are taken as "
                               f"at most {MAX_UNKNOWN:,}; keep results game-sized")
            return 1, None  # reported once: no cascade through later lets
        return bound, const


_EXPRS = (n.Num, n.Bool, n.Name, n.Func, n.Count, n.Any_, n.BinOp, n.Not, n.Neg, n.KwArg)


def _child_blocks(s) -> list[n.Block]:
    """The blocks a statement runs as part of its own block (not a trigger's later body)."""
    if isinstance(s, n.Choose):
        return list(s.options)
    if isinstance(s, n.If):
        return [s.then] + ([s.otherwise] if s.otherwise is not None else [])
    if isinstance(s, n.Cost):
        return [s.effect]
    body = getattr(s, "body", None)
    return [body] if isinstance(body, n.Block) else []


def _first_trigger(block: n.Block) -> n.On | None:
    for s in block.stmts:
        if isinstance(s, n.On):
            return s
        for child in _child_blocks(s):
            found = _first_trigger(child)
            if found is not None:
                return found
    return None


def _registers_trigger(block: n.Block) -> bool:
    return _first_trigger(block) is not None


def _is_expr(node) -> bool:
    return isinstance(node, _EXPRS)


def _children(node):
    for name in getattr(node, "__dataclass_fields__", ()):
        if name == "pos":
            continue
        value = getattr(node, name)
        for item in value if isinstance(value, tuple) else (value,):
            if hasattr(item, "__dataclass_fields__"):
                yield item


def _short_int(value: int) -> str:
    text = str(value)
    return text if len(text) <= 20 else f"{text[:8]}... ({len(text)} digits)"


def check_bounds(game: Game, reporter: dg.Reporter) -> None:
    """Bounded evaluation: numbers, arithmetic and repeats (Bounds), names that become
    identifiers, and keywords that would call themselves."""
    checker = Checker(game, reporter)
    bounds = Bounds(checker)
    sites = [(site, *game.vocab.keywords[name].origin[:1], None)
             for name, site in sorted(game.keyword_sites.items())]
    sites += [(site, entity.doc, entity.display) for entity in game.all()
              for site in entity.effects]
    for site, doc, display in sites:
        if site.ast is None:
            continue
        checker.where = _Where(doc, display or _display(doc), site.path)
        checker.check_once(("bounds", id(site.ast)), lambda: _check_site_bounds(site.ast, bounds))
    _check_recursion(game, checker)


# Numbers in content's fields (outside effects): play builds what they count (a deck of
# `count` copies, a supply, dice to roll, rounds to play), so `count: 9223372036854775807`
# was a MemoryError and `g13_pickaxe_dice` of that size a hang, after a clean check. One value
# is at most MAX_FIELD_NUMBER (as a scenario's, compiler/scenarios.py), and the values of one
# field across a kind's entities add up to at most MAX_FIELD_TOTAL (10,000 cards of 10,000
# copies each were as bad). The shipped content's largest value is 3,000 (a turn cap), its
# largest total 3,000 too.
MAX_FIELD_NUMBER = 10_000
MAX_FIELD_TOTAL = 100_000


def check_numbers(game: Game, reporter: dg.Reporter) -> None:
    """Every number in an entity's fields within MAX_FIELD_NUMBER, and each field's total over
    a kind within MAX_FIELD_TOTAL; reported at the value that passes the limit. Entities are
    taken pack by pack, so a total is reported in the pack that adds past it."""
    order = {pack.id: i for i, pack in enumerate(game.packs)}
    for kind in sorted(game.entities):
        totals: dict[tuple, int] = {}
        for entity in sorted(game.of_kind(kind), key=lambda e: order.get(e.pack, len(order))):
            for sub, value in _numbers(entity.data, ()):
                field = tuple(p for p in sub if isinstance(p, str))
                mark = entity.doc.mark(entity.path + sub)
                if not abs(value) <= MAX_FIELD_NUMBER:     # also NaN
                    reporter.add(dg.NUMBER_OUT_OF_RANGE,
                                 f"{_short_number(value)} is past the limit of "
                                 f"{MAX_FIELD_NUMBER:,} for a number in content",
                                 entity.display, mark.line, mark.column,
                                 f"no game counts past {MAX_FIELD_NUMBER:,}: play builds what "
                                 "a number counts (copies, dice, rounds)")
                    continue
                total = totals[field] = totals.get(field, 0) + abs(value)
                if total > MAX_FIELD_TOTAL and total - abs(value) <= MAX_FIELD_TOTAL:
                    reporter.add(dg.NUMBER_OUT_OF_RANGE,
                                 f"the {game.vocab.kinds.get(kind, {}).get('plural', kind)}' "
                                 f"`{'.'.join(field)}` values add up past {MAX_FIELD_TOTAL:,} "
                                 "here, the limit for one field of a kind (all packs together)",
                                 entity.display, mark.line, mark.column,
                                 "play builds what these numbers count for every game: "
                                 "use fewer or smaller ones")


def _numbers(value, path: tuple):
    """(path, number) of every int or float inside an entity's data (booleans are not
    numbers; effects are strings)."""
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _numbers(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _numbers(item, path + (i,))


def _short_number(value) -> str:
    return _short_int(value) if isinstance(value, int) else repr(value)


def check_site_bounds(checker: Checker, ast: n.Block) -> None:
    """The bounds of one effect outside the game's entities (a mission file's event), reported
    at `checker.where` (set by `checker.check_site`)."""
    _check_site_bounds(ast, Bounds(checker))


def _check_site_bounds(ast: n.Block, bounds: Bounds) -> None:
    bounds.visit(ast, {}, 1)
    for node in n.walk(ast):
        if isinstance(node, n.Let) and names.problem(node.name):
            bounds.checker.error(dg.BAD_NAME, f"let: {names.problem(node.name)}", node, names.HINT)


def _offset(arg, names_: set) -> tuple[str, int] | None:
    """`n` as (n, 0), `(n + 1)` as (n, 1), `(n - 2)` as (n, -2): a keyword parameter handed
    on as it is or shifted by a constant; None for anything else."""
    if isinstance(arg, n.Name) and len(arg.parts) == 1 and arg.head in names_:
        return arg.head, 0
    if isinstance(arg, n.BinOp) and arg.op in ("+", "-"):
        inner, shift = _offset(arg.left, names_), n.constant(arg.right)
        if inner is not None and shift is not None:
            return inner[0], inner[1] + (shift if arg.op == "+" else -shift)
    return None


def _check_recursion(game: Game, checker: Checker) -> None:
    """A keyword may not use itself, directly or through other keywords."""
    keywords = game.vocab.keywords
    calls: dict[str, list[n.Call]] = {}
    for name, site in game.keyword_sites.items():
        if site.ast is not None:
            calls[name] = [c for c in n.walk(site.ast)
                           if isinstance(c, n.Call) and c.verb in keywords]
    for name in sorted(calls):
        for call in calls[name]:
            path = _path_back(call.verb, name, calls)
            if path is not None:
                doc, site_path = keywords[name].origin
                checker.where = _Where(doc, _display(doc), game.keyword_sites[name].path)
                cycle = " -> ".join([name, *path])
                checker.error(dg.RECURSIVE_KEYWORD, f"keyword {name!r} uses itself: {cycle}",
                              call, "a keyword cannot call itself, even through others")
                break


def _path_back(start: str, goal: str, calls: dict[str, list[n.Call]]) -> list[str] | None:
    """The keywords from `start` to `goal` along calls (breadth first), or None."""
    queue = [[start]]
    seen = {start}
    while queue:
        path = queue.pop(0)
        if path[-1] == goal:
            return path
        for call in calls.get(path[-1], ()):
            if call.verb not in seen:
                seen.add(call.verb)
                queue.append(path + [call.verb])
    return None


def attribute_names(vocab) -> set[str]:
    """What `x.name` may read: a stat, a field of any entity kind, or an entity's own id,
    kind, owner, zone or name."""
    names = {name for name, types in vocab.names.items() if "stat" in types}
    for spec in vocab.kinds.values():
        names.update(spec.get("fields", {}))
    names.update({"id", "kind", "owner", "zone", "name"})
    return names
