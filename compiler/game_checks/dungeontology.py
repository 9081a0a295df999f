"""Dungeontology's compile-time rules (inventory §2, §4, §6): one start region, a level for
every region stack, unique region numbers, a notebook whose columns print capacity + 1 values,
info blocks for every colour, randomizer triangles for every seat colour (setup step 4), and
effects that last while owned (passive skills, interns, doom cards) made only of `on` triggers."""
from __future__ import annotations

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.checks import removal_entry
from tomecraft.compiler.game_checks import report
from tomecraft.compiler.model import Entity, Game
from tomecraft.compiler.packs import display_path
from tomecraft.dsl import nodes

SEAT_COLOURS = ("red", "yellow", "green", "blue")


def check(game: Game, reporter: dg.Reporter) -> None:
    check_lasting_effects(game, reporter)
    check_interns_handed_out(game, reporter)
    check_tokens_placed(game, reporter)
    regions = game.of_kind("region")
    if regions:
        starts = [r for r in regions if r.data.get("start")]
        if len(starts) != 1:
            report(reporter, (starts or regions)[-1], "start",
                   f"{len(starts)} start regions; the game has exactly one (L282, L723)")
        seen: dict[str, Entity] = {}
        for r in regions:
            number = r.data["number"]
            if "-" in number and number in seen:
                # said at the region a pack brought, so that `check` of the pack's file shows it
                other = seen[number]
                here, there = (other, r) if r.pack == game.id and other.pack != game.id else (r, other)
                report(reporter, here, "number", f"region number {number} is also {there.id!r}",
                       f"replace {there.id!r} (its id, `replace: true`) or remove it "
                       f"(`remove: [{{kind: region, id: {there.id}}}]`), or give a number no region has")
            seen[number] = r
            if r.data.get("start") and r.data["level"] != 1:
                report(reporter, r, "level", "the start region is on level I (L725)")
        for level in (1, 2, 3):
            if not any(r.data["level"] == level and not r.data.get("start") for r in regions):
                report(reporter, regions[-1], "level", f"no region for the level {level} stack (L284)")
    for nb in game.of_kind("notebook"):
        cap = nb.data["capacity"]
        for i, col in enumerate(nb.data["columns"]):
            if len(col["values"]) != cap + 1:
                report(reporter, nb, ("columns", i, "values"),
                       f"{len(col['values'])} values for {cap} slots; a column prints one more value than its slots")
            if any(b > a for a, b in zip(col["values"][1:], col["values"])):
                report(reporter, nb, ("columns", i, "values"), "column values must not fall as blocks are added")
    blocks = {b.data["colour"] for b in game.of_kind("info_block")}
    check_colours_have_columns(game, reporter)
    for nb in game.of_kind("notebook"):
        for i, col in enumerate(nb.data["columns"]):
            if blocks and col["colour"] not in blocks:
                report(reporter, nb, ("columns", i, "colour"), f"no info block of colour {col['colour']!r}")
    _check_scholar_sides(game, reporter)
    cards = game.of_kind("randomizer_card")
    if cards:
        triangles = {c.data["triangle"] for c in cards}
        for colour in SEAT_COLOURS:
            if colour not in triangles:
                report(reporter, cards[-1], "triangle",
                       f"no randomizer card shows the {colour} triangle; the first player could not be drawn (L263)")


def _check_scholar_sides(game: Game, reporter: dg.Reporter) -> None:
    """A scholar card has a standard side and an excited one (L261, L347: it is turned over
    when the scholar becomes excited): a pack's scholar with two standard sides checked clean
    and sim stopped on an internal error the first time it was to be turned over."""
    for scholar in game.of_kind("scholar"):
        sides = [side.get("side") for side in scholar.data.get("sides") or ()]
        for i, side in enumerate(sides):
            if side in sides[:i]:
                other = "excited" if side == "standard" else "standard"
                report(reporter, scholar, ("sides", i, "side"),
                       f"a second {side} side: a scholar card has a standard side and an "
                       f"excited one (L261, L347), and this one has no {other} side",
                       f"make it `side: {other}`")


def check_colours_have_columns(game: Game, reporter: dg.Reporter) -> None:
    """A collected block goes into its scholar's notebook column of the same colour (L208,
    L388), and a region's slots take blocks of their colour when it is revealed (L695, L783):
    a pack's sixth colour (a new term, its info blocks and region slots) checked clean and
    stopped sim at the first research in that region (no column). The notebook prints five
    columns, so a new colour takes one of theirs (replace the notebook)."""
    notebooks = game.of_kind("notebook")
    if not notebooks:
        return
    columns = [c["colour"] for nb in notebooks for c in nb.data["columns"]]
    hint = (f"use a colour of the notebook's columns ({', '.join(columns)}), or replace the "
            "notebook (its id, `replace: true`) with a column of this colour in place of one of them")

    notebook = notebooks[-1]
    dropped: dict[str, list[str]] = {}      # base users of a colour a pack's notebook dropped

    def missing(entity, path, colour, what):
        if not isinstance(colour, str) or colour in columns:
            return
        if entity.pack == game.id and notebook.pack != game.id:
            # the pack's notebook took the column away: said there, where the fan can act
            mark = entity.doc.mark(entity.path + ((path,) if isinstance(path, str) else path))
            dropped.setdefault(colour, []).append(f"{entity.kind} {entity.id!r} at "
                                                  f"{entity.display}:{mark.line}")
            return
        report(reporter, entity, path, f"{what} {colour!r}, but no notebook column has this "
               "colour: a collected block goes to the column of its colour (L208, L388)", hint)

    for block in game.of_kind("info_block"):
        missing(block, "colour", block.data.get("colour"), "info block of colour")
    for region in game.of_kind("region"):
        for i, colour in enumerate(region.data.get("slots") or ()):
            missing(region, ("slots", i), colour, "a slot for a block of colour")
        for i, door in enumerate(region.data.get("doors") or ()):
            for j, colour in enumerate(door.get("colours") or ()):
                missing(region, ("doors", i, "colours", j), colour, "a door of colour")
    for colour, users in dropped.items():
        shown = ", ".join(users[:3]) + (f" and {len(users) - 3} more" if len(users) > 3 else "")
        report(reporter, notebook, "columns", f"the notebook has no column of colour {colour!r}, "
               f"which {len(users)} base {'entity' if len(users) == 1 else 'entities'} still "
               f"use ({shown}): a collected block goes to the column of its colour (L208, L388)",
               f"keep a {colour} column, or remove or replace those entities too")


def check_tokens_placed(game: Game, reporter: dg.Reporter) -> None:
    """A region token comes onto the map only by `place_token TYPE` (R-17, L848-862; the
    engine lays out stair and wall markers as markers, no token): a pack's token of a new type
    that no effect places is never used, whatever its effect says, so check says so at the
    token (a warning, as for a Deep Rock Galactic mineral no mission lays out: a fan's card
    may still place it). A type an effect computes (a keyword's parameter) may be any: no
    warning."""
    placed: set[str] = set()
    sites = [site for entity in game.all() for site in entity.effects]
    for site in [*sites, *game.keyword_sites.values()]:
        for node in nodes.walk(site.ast) if site.ast is not None else ():
            if not isinstance(node, nodes.Call) or node.verb != "place_token" or not node.args:
                continue
            kind = node.args[0]
            if not (isinstance(kind, nodes.Name) and len(kind.parts) == 1):
                return
            placed.add(kind.parts[0])
    tokens = game.of_kind("token")
    base = {t.data.get("token") for t in tokens if t.pack == game.id}   # the game's own types
    for token in tokens:
        kind = token.data.get("token")
        if token.data.get("count") == 0:
            # the supply holds `count` copies and no count means no limit (dungeon.py
            # token_supply): 0 is none, where Clank!'s components read 0 as unlimited
            report(reporter, token, "count",
                   f"token {token.id!r} has count 0: the supply holds none, so play never "
                   "places it", hint="leave `count` out for no limit, or give the number of "
                   "tokens in the box", code=dg.GAME_RULE_WARNING)
        if token.pack != game.id and kind not in placed and kind not in base:
            report(reporter, token, "token",
                   f"token {token.id!r} is a {kind!r}, which no card or effect places "
                   "(`place_token`): play never puts it on a region",
                   hint=f"add a scheme card whose effect says `place_token {kind} 1` (or give "
                        f"the token a type a card places: {', '.join(sorted(placed))})",
                   code=dg.GAME_RULE_WARNING)


def check_interns_handed_out(game: Game, reporter: dg.Reporter) -> None:
    """An intern comes into play only with the scheme card whose `intern` names it (L1060-1070):
    a pack's intern no scheme card names is never taken, whatever its effect says."""
    named = {card.data.get("intern") for card in game.of_kind("scheme_card")}
    _check_intern_cards_give_them(game, reporter)
    for intern in game.of_kind("intern_card"):
        if intern.id in named:
            continue
        if intern.pack != game.id:
            report(reporter, intern, "id",
                   f"intern card {intern.id!r} is named by no scheme card: play never hands "
                   "it out (an intern comes with the scheme card whose `intern` names it, "
                   "L1060-1070)",
                   hint=f"add a scheme card with `intern: {intern.id}` (or replace one), or "
                        "remove it", code=dg.GAME_RULE_WARNING)
        else:
            _report_base_intern_left_out(game, intern.id, reporter)


def _check_intern_cards_give_them(game: Game, reporter: dg.Reporter) -> None:
    """A card gives its intern when its main effect is played, a Fate card's central value
    included (L458-462, L1060-1066); spent for its bonus or its auxiliary effect it gives none.
    A pack's Trick card with `intern:` and no main checked clean and its intern never came."""
    for card in game.of_kind("scheme_card"):
        intern = card.data.get("intern")
        if intern is None or card.data.get("main") or card.data.get("fate_bonus") \
                or intern not in game.entities.get("intern_card", {}):    # TC-R001's to say
            continue
        report(reporter, card, "intern",
               f"scheme card {card.id!r} has no main effect (nor a Fate card's central value): "
               f"playing it never gives the intern {intern!r} (an intern comes with the card's "
               "main effect, L1060-1066)",
               hint="give the card a `main` effect, or name the intern on a card that has one",
               code=dg.GAME_RULE_WARNING)


def _report_base_intern_left_out(game: Game, intern_id: str, reporter: dg.Reporter) -> None:
    """A base intern a pack's replaced or removed scheme card no longer hands out (found by the
    fourth packs blind test: removing the Shortcut left the Guide out of play, silently): said
    at the pack's replacing card, else at its scheme card removal, never at the base's files."""
    message = (f"intern card {intern_id!r} is now named by no scheme card: play never hands it "
               "out (an intern comes with the scheme card whose `intern` names it, L1060-1070)")
    hint = f"give another scheme card `intern: {intern_id}`, or remove the intern too"
    for card in game.of_kind("scheme_card"):
        base = card.replaced
        if base is not None and base.data.get("intern") == intern_id:
            report(reporter, card, "id", message, hint=hint, code=dg.GAME_RULE_WARNING)
            return
    removal = removal_entry(game, "scheme_card")
    if removal is not None:
        doc, i, _ = removal
        mark = doc.mark(("remove", i))
        reporter.add(dg.GAME_RULE_WARNING, message, display_path(doc.path), mark.line,
                     mark.column, hint)


def check_lasting_effects(game: Game, reporter: dg.Reporter) -> None:
    """A passive skill, an intern or a revealed doom card works while its owner has it, and a
    region's effects and tokens while a scholar is there, so the engine collects their triggers
    whenever an event comes; a bare verb there would run at every collection."""
    sites, once = [], []
    for scholar in game.of_kind("scholar"):
        for i, side in enumerate(scholar.data.get("sides", [])):
            for j, skill in enumerate(side.get("skills", [])):
                path = ("sides", i, "skills", j, "effect")
                (sites if skill.get("timing") == "passive" else once).append((scholar, path))
    check_action_skills(game, once, reporter)
    sites += [(card, ("effect",)) for kind in ("intern_card", "doom_card", "token")
              for card in game.of_kind(kind)]
    sites += [(region, ("effects", i)) for region in game.of_kind("region")
              for i in range(len(region.data.get("effects") or ()))]
    for entity, field in sites:
        for site in entity.effects:
            if site.path[len(entity.path):] != field or site.ast is None:
                continue
            if not _triggers_only(game, site.ast.stmts, frozenset()):
                report(reporter, entity, field,
                       "the engine collects this effect's triggers whenever an event comes: "
                       "it must be `on EVENT` triggers only (or keywords made of them)",
                       _trigger_hint(game, entity.kind, field[0]))


def _trigger_hint(game: Game, kind: str, field: str) -> str:
    """'wrap it in a trigger on an event this field hears', naming those events (a token
    hears no action_phase: the example must be one the contract lets run here)."""
    from tomecraft.compiler import contract
    declared = contract.load(game.vocab.engine)
    use = declared.use(kind, field) if declared is not None else None
    events = sorted(use.events) if use is not None and use.events else []
    if not events:
        return "wrap it in a trigger, `on EVENT: ...`"
    return (f"wrap it in a trigger on an event this field hears, e.g. `on {events[0]}: ...` "
            f"(events heard here: {', '.join(events)})")


def _triggers_only(game: Game, stmts, seen: frozenset, memo: dict | None = None) -> bool:
    """Every statement is an `on` trigger, or a keyword (such as Toll) made only of them. A
    keyword's answer is worked out once (`memo`): 30 keywords each calling the next twice were
    2**30 walks, and check hung."""
    memo = {} if memo is None else memo
    for stmt in stmts:
        if isinstance(stmt, nodes.On):
            continue
        if isinstance(stmt, nodes.Call) and stmt.verb not in game.vocab.verbs \
                and stmt.verb not in game.vocab.keywords:
            continue  # an unknown name: TC-N001 says so, with the name meant
        site = game.keyword_sites.get(stmt.verb) if isinstance(stmt, nodes.Call) else None
        if site is None or site.ast is None or stmt.verb in seen:
            return False
        if stmt.verb not in memo:
            memo[stmt.verb] = _triggers_only(game, site.ast.stmts, seen | {stmt.verb}, memo)
        if not memo[stmt.verb]:
            return False
    return True


def check_action_skills(game: Game, once: list, reporter: dg.Reporter) -> None:
    """An action skill runs once, as the scholar's action: a trigger there (written, or through
    a keyword such as Lucky) would never be collected. The engine contract allows triggers in
    a scholar's `sides` for the passive skills only, so this is its TC-C003."""
    from tomecraft.compiler.contract import _keyword_constructs
    lasting = {name for name, found in _keyword_constructs(game).items() if "on" in found}
    for entity, field in once:
        for site in entity.effects:
            if site.path[len(entity.path):] != field or site.ast is None:
                continue
            for node in nodes.walk(site.ast):
                if isinstance(node, nodes.On) or (isinstance(node, nodes.Call)
                                                  and node.verb in lasting):
                    what = f"keyword {node.verb!r}" if isinstance(node, nodes.Call) else "`on`"
                    report(reporter, entity, field,
                           f"an action skill runs once, as the action: a trigger ({what}) "
                           "there would never run", "make the skill `timing: passive`, or "
                           "write what it does at once", code=dg.CONTRACT_CONSTRUCT)
                    break
