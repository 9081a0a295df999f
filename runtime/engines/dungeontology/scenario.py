"""Scenario files for Dungeontology: set up a state, play scripted steps, check expectations.

setup:  setup_game: true (a real set-up for `players`, from `seed` and `options` {alert (an
        alert card id), boss (a boss id), boss_side}, no other key) or a hand-built state:
        players, alert_card, alert_filled, clan, panic, boss (boss card id; else the first),
        boss_side, boss_at (region id), notebook (notebook id; else the engine's), max_alert,
        bag {normal, omega}, bonfire, reserve_students, reserve_omega (default: of the 40 and
        5, those not elsewhere; the reserve's info blocks are those no notebook or slot holds),
        randomizer [ids, in draw order], deck [ids, top first; default: every scheme card not
        in a hand or the discard, shuffled by `seed`], discard [ids], doom_deck [ids, top first],
        stacks {1|2|3: [region ids, top first]}, traps [token ids],
        regions [{region, at: [x, y], slots: [colour|null], entered, tokens: [token ids]}],
        walls / stairs [[region, region], ...] (markers between two adjacent placed regions)
        (the start region stands at [0, 0] unless listed; every other region needs `at`, one
        region per place, each listed once; a position is [x, y], north up: E is x + 1,
        S is y + 1, so the region north of [0, 0] is at [0, -1]),
        scholars [{scholar, side (default: excited with fewer stars than another scholar,
        else standard), at (region id; default the start region, where no scheme card is
        played, L733), students, stun, hand, notebook {colour: n}, lore, interns,
        dooms_hidden, dooms, steps}]
        Unlisted: alert_card alert_standard, alert_filled 0, clan clan_hunters, panic
        panic_general, boss_side aggressive, bag {normal: 10, omega: 1} (a failed attempt may
        draw the omega: list `bag` to know), bonfire 0; a scholar's students, stun 0, hand [].
steps:  {do: research|spy|move|explore|passage|enter|skill|play|aux|action|draw_students|
        thesis|rest|turn|end_of_turn|gain_stun|notebook_changed, seat, ...}: research {blocks},
        spy {target (a seat), colour}, move / passage {to (a region), steps}, explore {side},
        enter {region}, skill {id}, play {card, part: main|auxiliary}, aux {card} (= play
        part: auxiliary), action {option}, draw_students {n}, rest {in_place}, gain_stun {n},
        notebook_changed; thesis is the turn's thesis phase (two stars, L619; none in Maximum
        Alert, L1158: there `end_of_turn` in the start region submits); with `choose: [...]` for the acting
        seat and `choose_for: {seat: [...]}` for the others; `fails: true` (or `illegal: true`) =
        must be refused (played on the game as the steps before it left it, then dropped).
        A stealth attempt (research, spy) asks for its cards one at a time, at least one:
        choose: [{card: shortcut, fate: false}, {card: bully, fate: false}, {card: null}]
        (`fate: true` plays the card's fate bonus; `{card: null}` stops). A card asked for
        alone (discard_card, prophecy) is `{card: id}` or the bare id; a scholar an effect
        targets is `{seat: n}`; an effect's `choose { a | b }` is the bare number of the
        branch, 0 for the first written (the effects are in content/). A question with
        one answer is not asked: a scripted answer naming it is used up there (a `{card: null}`
        after the last card of the hand, a `null` pass with no auxiliary card to play).
        Unscripted decisions decline (None / False / stop / pass) so opponents stay passive.
        An answer its step never asks for is what the scholar would answer if offered: it is
        dropped when the step ends, never kept for a later step. An answer naming a card, colour,
        region, side or seat the game does not have fails the step.
expect: {scholar: seat, notebook (the colours listed; {}: none)|score|clan_score|stun|students|hand|hand_size|region|side|
        lore|dooms|dooms_hidden (a count, or the card ids)|steps|done|thesis|actions|stars|research_bonus}
        | {region, slots|tokens|at|absent} | {attempt: {stealth, alert, ok, kind, by, cards}} | {campus: {bag, bonfire, reserve_students,
        reserve_blocks {colour: n} (the keys listed), alert_filled, max_alert, ended (true,
        false or the reason: all_done, no_blocks, bag_empty, stalled), and the ids in play:
        alert_card, boss_card, panic_card, clan_card, notebook;
        the piles: deck, doom_deck (top first, or a count), discard, traps (any order), stacks
        {level: [region ids, top first]}}}
        | {boss} | {stairs: [a, b]} | {wall: [a, b]}
        | {final_scores} | {winners} | {interns: {id: seat}} | {log} | {log_order: [...]} | {stats: {counter: n}}
        | {options: action|move|free, seat,
        option, present} (an option with the keys written, or none) | {options: ..., seat, none_of: kind}
        A refused option (present: false, fails: true) must be one the engine could offer in some
        state (option_shapes), else the scenario fails: it would pass vacuously.
        The counters `stats` reads (scenario_checks.STATS): research, research_ok, spy, spy_ok,
        theses, theses_ok, placed, stairs, traps_sprung, keyword_triggers, boss_encounters,
        boss_discover, boss_activate, students_drawn, omegas, free_cards_in_action_phase,
        region_actions, rests, max_alert_by_omega, max_alert_by_thesis, played_main,
        played_auxiliary, played_normal, played_instant, played_response; entered:REGION and
        skill_SKILL (ids of the game's regions and skills). Another name is refused.
"""
from __future__ import annotations

import difflib

from tomecraft.runtime.agents import ScriptError, matches
from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.dungeontology.engine import Engine
from tomecraft.runtime.engines.dungeontology.scenario_checks import (
    STEP_KEYS, after_the_end, check_expect_keys, check_step_keys, expectation_problem, position as _pos,
    scholar_want)
from tomecraft.runtime.engines.dungeontology.scenario_setup import SHAPES, Decline, Script, build  # noqa: F401
from tomecraft.runtime.engines.dungeontology.state import COLOURS, SIDES, edge
from tomecraft.runtime.scenario import (
    PACK_ID_HINT, ScenarioError, answer_never_taken, check_expectations, refuse_unofferable, unknown_names, unknown_step,
    written_path_of)

# Setup keys this runner reads as true or false, at any depth: `lore: "no"` must fail, not
# count as true (runtime/scenario.py checks them before the run).
FLAGS = frozenset(("entered", "lore", "max_alert", "setup_game"))
REFUSAL = "fails"           # the refused step's key; `illegal: true` is read as it (runtime/scenario.py)


def option_shapes(e: Engine) -> dict:
    """Every kind of option the action and movement phases can offer, with their values."""
    st = e.state
    cards = set(e.data.kinds["scheme_card"])
    regions = {t.id for t in st.tiles.values()}
    skills = {k.id for sc in e.data.kinds["scholar"].values() for side in sc.sides for k in side.skills}
    natural = lambda v: isinstance(v, int) and v >= 0      # noqa: E731
    # a research targets 1 block or more, never more than a region has slots (L913-916):
    # `{do: research, blocks: 0, fails: true}` passed, refused for a reason no game could lack
    most = max((len(r.slots or ()) for r in e.data.kinds["region"].values()), default=0)
    blocks = lambda v: isinstance(v, int) and 1 <= v <= most      # noqa: E731
    return {"pass": {}, "stay": {}, "research": {"blocks": blocks},
            "spy": {"target": set(range(len(st.scholars))), "colour": set(COLOURS)},
            "card": {"card": cards}, "aux": {"card": cards}, "region": {"index": natural},
            "skill": {"id": skills}, "move": {"to": regions}, "passage": {"to": regions},
            "explore": {"side": set(SIDES)}}


def _refused_step_option(e: Engine, step: dict) -> None:
    """A step that must be refused names an option the engine could offer somewhere."""
    keys = {"research": ("blocks",), "spy": ("target", "colour"), "move": ("to",),
            "passage": ("to",), "explore": ("side",), "skill": ("id",), "play": ("card",)}
    do = step["do"]
    if do == "action":
        refuse_unofferable(step["option"], option_shapes(e), exact=True)
    elif do in keys:
        option = {"do": "card" if do == "play" else do, **{k: step[k] for k in keys[do] if k in step}}
        refuse_unofferable(option, option_shapes(e), exact=True)


def _run_step(e: Engine, step: dict) -> None:
    check_step_keys(step)
    after_the_end(e)
    st = e.state
    seat = step.get("seat", 0)
    if st.scholars and not 0 <= seat < len(st.scholars):
        raise ScenarioError(f"seat {seat}: the scenario has seats 0-{len(st.scholars) - 1}")
    who = st.scholars[seat] if st.scholars else None
    for choice in step.get("choose", []):
        _check_answer(e, choice)
        e.agents[seat].push(choice)
    for other, choices in (step.get("choose_for") or {}).items():
        if not 0 <= int(other) < len(st.scholars):
            raise ScenarioError(f"choose_for seat {other}: the scenario has seats 0-{len(st.scholars) - 1}")
        for choice in choices:
            _check_answer(e, choice)
            e.agents[int(other)].push(choice)
    do = step["do"]
    # a scholar whose game is over stays in the start region and plays no more turns (L629):
    # the game's loop skips him, a `turn` step played his end of turn (he drew a hand)
    assert do in ("draw_students", "gain_stun", "notebook_changed") or who is None or not who.done, \
        f"seat {seat}'s game is over (thesis {who.thesis}): he plays no more turns (L629, L1158)"
    if do == "research":
        option = {"do": "research", "blocks": step.get("blocks", 1)}
        assert option in e.research_options(who), f"research {option} is not legal"
        e.research(who, option["blocks"])
    elif do == "spy":
        option = {"do": "spy", "target": step["target"], "colour": step["colour"]}
        assert option in e.spy_targets(who), f"spy {option} is not legal"
        e.spy(who, st.scholars[step["target"]], step["colour"])
    elif do in ("move", "passage"):
        option = {"do": do, "to": step["to"]}
        if "steps" in step:
            who.steps = step["steps"]
        assert option in e.move_options(who), f"{option} is not legal; {e.move_options(who)}"
        e.do_move(who, option)
    elif do == "explore":
        who.steps = max(who.steps, 1)
        option = {"do": "explore", "side": step["side"]}
        assert option in e.move_options(who), f"{option} is not legal"
        e.do_move(who, option)
    elif do == "enter":     # a region not on the board failed as "StopIteration: "
        placed = {t.id: t for t in st.tiles.values()}
        if problem := unknown_names("enter: the region (placed ones)", [step["region"]], placed):
            raise ScenarioError(problem)
        e.enter(who, placed[step["region"]])
    elif do == "skill":
        option = {"do": "skill", "id": step["id"]}
        who.actions = max(who.actions, 1)
        assert option in e.action_options(who), f"skill {step['id']} is not usable"
        e.do_action(who, option)
    elif do in ("play", "aux"):
        part = "auxiliary" if do == "aux" else step.get("part", "main")   # aux {card}: its auxiliary
        if part not in ("main", "auxiliary"):
            raise ScenarioError(f"play part {part!r}: main or auxiliary")
        card = e.card(step["card"])
        assert step["card"] in who.hand, \
            f"{step['card']} cannot be played: it is not in seat {step.get('seat', 0)}'s hand {who.hand}"
        assert not e.in_start(who), (
            f"{step['card']} cannot be played: no scheme card is played in the start region "
            "(rulebook L733); set the scholar's `at:` to a region placed in `regions:`")
        fx = card.main if part == "main" else card.auxiliary
        assert fx.can(e.ctx(who, e.tile_of(who))), f"{step['card']} {part} is not playable"
        e.play_card(who, step["card"], part)
    elif do == "action":
        who.actions = max(who.actions, 1)
        options = e.action_options(who)
        want = step["option"]
        assert want in options, f"{want} is not legal; {options}"
        e.do_action(who, want)
    elif do == "draw_students":
        e.draw_students(who, step["n"])
    elif do == "thesis":
        # a turn's thesis phase: two stars first (L619); none in Maximum Alert, where one submits
        # by ending the turn in the start region (L1158, L1269): `end_of_turn` there
        assert not who.done, f"no thesis: seat {seat}'s game is over (thesis {who.thesis})"
        assert not e.state.max_alert, ("no thesis phase in Maximum Alert (L1158): a scholar "
                                       "submits by ending the turn in the start region (end_of_turn)")
        assert e.stars(who) >= 2, f"no thesis: {e.stars(who)} star(s), two needed (L619)"
        e.thesis(who)           # the last scholar's thesis ends the game (L1164, L1273)
    elif do == "rest":
        assert not e.state.max_alert, "no rest phase in Maximum Alert"     # L1161 (rest does nothing)
        e.rest(who, move_to_start=not step.get("in_place", False))
    elif do == "turn":
        e.turn(who)
    elif do == "end_of_turn":
        e.end_of_turn(who)
    elif do == "gain_stun":
        e.gain_stun(who, step.get("n", 1))
    elif do == "notebook_changed":
        e.notebook_changed()
    else:
        raise ScenarioError(unknown_step(do, STEP_KEYS))
    e.check_end()       # as the turn does after each action: the game ends at once (L1134, L1164)


CARD_KINDS = ("scheme_card", "doom_card", "intern_card", "randomizer_card")


def _check_answer(e: Engine, answer) -> None:
    """An answer naming a card or a seat the game does not have fails the step: a question
    with one answer is not asked, and an unasked answer is dropped with its step, so
    `{card: smokebomb}` (or a bare `smokebomb`) with one card in hand passed as if the card
    had been named."""
    if isinstance(answer, str):     # a bare id: a card, a colour, a region, a side
        known = set().union(*e.data.kinds.values()) | {"N", "E", "S", "W"}
        if answer not in known:
            close = difflib.get_close_matches(answer, sorted(known), n=1)
            raise ScenarioError(f"answer {answer!r}: no card, colour, region or side has that id"
                                + (f"; did you mean `{close[0]}`?" if close else ""))
    if isinstance(answer, int) and not isinstance(answer, bool) and answer < 0:   # a branch counts from 0
        raise ScenarioError(f"answer {answer}: a `choose` branch is numbered from 0")
    if not isinstance(answer, dict):
        return
    # a key or value no option carries matches nothing: `{colr: faith}`, `{colour: purple}`
    # unasked, or not taken, on a refused step passed as the refusal
    shapes = option_shapes(e)
    values = {k: v for shape in shapes.values() for k, v in shape.items()}
    values.update(do=set(shapes), fate={True, False}, to=set(e.data.kinds["region"]), card=None, seat=None)
    if problem := answer_never_taken(answer, [], set(values), values):
        raise ScenarioError(f"answer {answer}: {problem}")
    card = answer.get("card")
    if card is not None:
        known = set().union(*(e.data.kinds.get(kind, ()) for kind in CARD_KINDS))
        if problem := unknown_names("answer card", [card], known):
            raise ScenarioError(problem)
    seat = answer.get("seat")
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(e.state.scholars)):
        raise ScenarioError(f"answer seat {seat!r}: the scenario has seats 0-{len(e.state.scholars) - 1}")


def _drop_unasked_answers(e: Engine) -> None:
    """Answers a step scripted but never asked for (what a scholar would answer if offered,
    which refusal scenarios rely on) end with the step: kept, one would answer a later step's
    decision instead of its default."""
    for agent in e.agents:
        agent.choices.clear()


def _check(e: Engine, exp: dict) -> str | None:
    check_expect_keys(exp, option_shapes(e))
    if problem := expectation_problem(e, exp):
        return problem
    st = e.state
    for key in ("scholar", "seat"):
        if key in exp and not (isinstance(exp[key], int) and 0 <= exp[key] < len(st.scholars)):
            raise ScenarioError(f"{key} {exp[key]!r}: the scenario has seats 0-{len(st.scholars) - 1}")
    placed = {t.id for t in st.tiles.values()}
    for key in ("stairs", "wall"):
        if key in exp and (len(exp[key]) != 2 or not set(exp[key]) <= placed):
            raise ScenarioError(f"{key}: {exp[key]} must name two placed regions; placed: {sorted(placed)}")
    if "scholar" in exp:
        s = st.scholars[exp["scholar"]]
        values = {"notebook": {c: s.notebook[c] for c in COLOURS if s.notebook[c]},
                  "score": e.notebook_score(s), "clan_score": e.clan_score(s), "stun": s.stun,
                  "students": s.students, "hand": sorted(s.hand), "hand_size": len(s.hand),
                  "region": e.tile_of(s).id, "side": s.side, "lore": s.lore,
                  "dooms": len(s.dooms), "dooms_hidden": len(s.dooms_hidden), "steps": s.steps,
                  "done": s.done, "thesis": s.thesis, "stars": e.stars(s),
                  "research_bonus": e.research_bonus(s), "actions": s.actions}
        for key, want in exp.items():
            if key == "scholar":
                continue
            if key not in values:
                raise ScenarioError(f"unknown scholar key {key!r} ({', '.join(sorted(values))})")
            got = values[key]
            want = scholar_want(key, want)
            if key in ("dooms", "dooms_hidden") and isinstance(want, list):
                got = sorted(s.dooms if key == "dooms" else s.dooms_hidden)
            if key == "notebook" and want:       # the colours listed, as every expected mapping
                got = {c: s.notebook[c] for c in want}
            if got != want:
                return f"scholar {exp['scholar']} {key}: expected {want!r}, got {got!r}"
        return None
    if "region" in exp:
        tiles = [t for t in st.tiles.values() if t.id == exp["region"]]
        if exp.get("absent"):
            return None if not tiles else f"region {exp['region']} is placed"
        if not tiles:
            return f"region {exp['region']} is not placed"
        t = tiles[0]
        if "slots" in exp and list(t.slots) != list(exp["slots"]):
            return f"region {t.id} slots: expected {exp['slots']}, got {t.slots}"
        if "tokens" in exp and [k.id for k in t.tokens] != list(exp["tokens"]):
            return f"region {t.id} tokens: expected {exp['tokens']}, got {[k.id for k in t.tokens]}"
        if "at" in exp and t.pos != _pos(exp["at"]):
            return f"region {t.id} at {t.pos}, expected {exp['at']}"
        return None
    if "attempt" in exp:
        got = e.last_attempt or {}
        for key, want in exp["attempt"].items():
            if got.get(key) != want:
                return f"attempt {key}: expected {want!r}, got {got.get(key)!r}"
        return None
    if "campus" in exp:
        values = {"bag": {k: v for k, v in st.bag.items() if v}, "bonfire": st.bonfire,
                  "reserve_students": st.reserve_students, "reserve_omega": st.reserve_omega,
                  "alert_filled": st.alert_filled, "max_alert": st.max_alert, "ended": st.ended,
                  "alert_card": st.alert_card.id if st.alert_card else None,
                  "panic_revealed": st.panic_revealed, "first": st.first,
                  "research_penalty": e.research_penalty(),
                  "reserve_blocks": {c: n for c, n in st.reserve_blocks.items() if n},
                  "boss_card": next((b.id for b in e.data.kinds["boss"].values()
                                     if any(side is st.boss for side in b.sides)), None),
                  "panic_card": st.panic.id if st.panic else None,
                  "clan_card": st.clan.id if st.clan else None,
                  "notebook": e.notebook.id,
                  # the piles as setup writes them: top first (or a count); the discard and the
                  # traps in any order; stacks by level, the levels named
                  "deck": list(reversed(st.deck)), "doom_deck": list(reversed(st.doom_deck)),
                  "discard": sorted(st.discard), "traps": sorted(t.id for t in st.traps),
                  "stacks": {lv: [r.id for r in reversed(st.stacks[lv])] for lv in (1, 2, 3)}}
        for key, want in exp["campus"].items():
            if key not in values:
                raise ScenarioError(f"unknown campus key {key!r} ({', '.join(sorted(values))})")
            got = values[key]
            if key in ("deck", "doom_deck") and isinstance(want, int):
                got = len(got)
            elif key in ("discard", "traps") and isinstance(want, list):
                want = sorted(want)
            elif key == "stacks" and isinstance(want, dict):
                got = {lv: got.get(int(lv)) for lv in want}
            if key == "ended" and isinstance(want, bool):
                got = got is not None           # `ended: true`; or the reason, `ended: all_done`
            if key in ("bag", "reserve_blocks"):
                if not isinstance(want, dict):
                    raise ScenarioError(f"campus {key}: a mapping such as {got or {'normal': 1}}, got {want!r}")
                got = {k: got.get(k, 0) for k in want} if want else got   # the listed keys; {}: none
            if got != want:
                return f"campus {key}: expected {want!r}, got {got!r}"
        return None
    if "stats" in exp:                     # engine counters, e.g. {boss_activate: 1}
        got = {k: st.stats.get(k, 0) for k in exp["stats"]}
        return None if got == exp["stats"] else f"stats {got}, expected {exp['stats']}"
    if "boss" in exp:
        got = st.tiles[st.boss_pos].id if st.boss_pos is not None else None
        return None if got == exp["boss"] else f"boss in {got}, expected {exp['boss']}"
    if "stairs" in exp or "wall" in exp:
        key = "stairs" if "stairs" in exp else "wall"
        a, b = (e.tile_by_id(x).pos for x in exp[key])
        present = edge(a, b) in (st.stairs if key == "stairs" else st.walls)
        want = exp.get("present", True)
        return None if present == want else f"{key} marker {exp[key]}: present={present}"
    if "final_scores" in exp:
        got = e.final_scores()
        return None if got == exp["final_scores"] else f"final scores {got}, expected {exp['final_scores']}"
    if "winners" in exp:
        got = e.winners()
        return None if got == exp["winners"] else f"winners {got}, expected {exp['winners']}"
    if "interns" in exp:
        got = {k: v for k, v in st.interns.items()}
        return None if got == exp["interns"] else f"interns {got}, expected {exp['interns']}"
    if "log_order" in exp:
        at = 0
        for want in exp["log_order"]:
            hit = next((i for i in range(at, len(st.log)) if want in st.log[i]), None)
            if hit is None:
                return f"no log line containing {want!r} after line {at}"
            at = hit + 1
        return None
    if "log" in exp:
        return None if any(exp["log"] in line for line in st.log) else f"no log line contains {exp['log']!r}"
    if "options" in exp:
        s = st.scholars[exp.get("seat", 0)]
        kind = exp["options"]
        if not exp.get("present", True):
            refuse_unofferable(exp["option"], option_shapes(e))
        if kind == "action":
            s.actions = max(s.actions, 1)
            options = e.action_options(s)
        elif kind == "move":
            s.steps = max(s.steps, 1)
            options = e.move_options(s)
        elif kind == "free":
            options = e.free_options(s)
        else:
            raise ScenarioError(f"options {kind!r}: action, move or free")
        if "none_of" in exp:               # no option of that kind at all
            kinds = [o for o in options if o.get("do") == exp["none_of"]]
            return None if not kinds else f"options of kind {exp['none_of']}: {kinds}"
        want = exp.get("present", True)       # an option with the keys written, or none
        present = exp["option"] in options or any(matches(exp["option"], o) for o in options)
        return None if present == want else f"option {exp['option']} present={present}; options {options}"
    return f"unknown expectation {exp}"


def _unknown_id(data, err: KeyError) -> str:
    """What a KeyError of the set-up means: an id the content lacks (`scholar: rebeca` was
    reported as "KeyError('rebeca')"), with the closest id there is and its kind."""
    name = str(err.args[0]) if err.args else ""
    ids = {i: kind for kind, table in data.kinds.items() for i in table}
    close = difflib.get_close_matches(name, list(ids), n=1)
    return f"no {name!r} in the content; " + (f"did you mean `{close[0]}` ({ids[close[0]]})?"
                                               if close else PACK_ID_HINT)


def _replay(data, scenario: dict, upto: int) -> Engine:
    """The game as the steps before `upto` left it, for a step that must be refused to play on
    and drop (the engine is not deep-copyable; the same setup and steps are the same game)."""
    engine = build(data, scenario.get("setup") or {})
    for step in (scenario.get("steps") or [])[:upto]:
        if not step.get("fails"):
            try:
                _run_step(engine, step)
            finally:
                _drop_unasked_answers(engine)
    return engine


def run_scenario(data, scenario: dict) -> list[str]:
    try:
        engine = build(data, scenario.get("setup") or {})
    except ScenarioError as err:
        return [f"setup: {err}"]
    except KeyError as err:         # a misspelt id looked up in the content
        where = written_path_of(scenario.get("setup") or {}, err.args[0] if err.args else None)
        return [f"setup: {where + ': ' if where else ''}{_unknown_id(data, err)}"]
    except (StopIteration, AssertionError, EffectError) as err:
        return [f"setup: {err!r}"]
    failures: list[str] = []
    for i, step in enumerate(scenario.get("steps") or []):
        played = engine
        try:
            check_step_keys(step)            # before a refusal's option is read from the step
            if step.get("fails"):
                _refused_step_option(engine, step)
                played = _replay(data, scenario, i)     # refused mid-way (an answer not offered
            _run_step(played, step)          # after a tile was drawn), it leaves the game untouched
            if step.get("fails"):
                failures.append(f"steps[{i}]: expected to be refused, but it was carried out")
                break
        except ScenarioError as err:
            failures.append(f"steps[{i}]: {err}")
            break
        except KeyError as err:         # a misspelt id in the step: the closest id there is
            failures.append(f"steps[{i}]: {_unknown_id(data, err)}")
            break
        except StopIteration as err:
            failures.append(f"steps[{i}]: scenario error: {type(err).__name__}: {err}")
            break
        except (AssertionError, ScriptError, EffectError) as err:
            if step.get("fails"):
                continue
            failures.append(f"steps[{i}]: {err}")
            break
        finally:
            _drop_unasked_answers(played)
    if failures:
        return failures
    return check_expectations(scenario.get("expect"), lambda exp: _check(engine, exp))
