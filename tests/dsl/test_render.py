"""The natural-language renderer: exact rules text for The Cave's effects in both languages,
and every statement and expression kind rendered in both languages."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import loader, vocabulary
from tomecraft.dsl import nodes as n
from tomecraft.dsl.parser import parse
from tomecraft.dsl.render import full_width, render

CAVE = Path(__file__).resolve().parents[2] / "content" / "the_cave" / "game.yaml"


@pytest.fixture(scope="module")
def cave():
    reporter = dg.Reporter()
    vocab = vocabulary.build(loader.load(CAVE, reporter), reporter, "game.yaml")
    assert vocab is not None and not reporter.errors
    return vocab


def both(effect: str, vocab) -> tuple[str, str]:
    block = parse(effect)
    return render(block, vocab, "zh"), render(block, vocab, "en")


def test_water_tile_oxygen_option_is_a_cost_then_the_token(cave):
    zh, en = both("pay ap 2, use_oxygen -> take_token water", cave)
    assert zh == "花費2行動點並使用1次氧氣（翻面或棄掉）後，若此版塊上有水域標記則拿取。"
    assert en == ("Spend 2 AP and use 1 oxygen (flip it, or discard it if already flipped) "
                  "to take the water token from this tile if it is there.")


def test_water_tile_raft_option_requires_the_raft(cave):
    zh, en = both("require has(raft); pay ap 1", cave)
    assert zh == "需要背包中有木筏；花費1行動點。"
    assert en == "Only if you have a raft in your backpack: spend 1 AP."


def test_rappel_rope_option_names_the_depth_levels_once(cave):
    zh, en = both("require not rope_placed(); let levels = depth_levels(); "
                  "pay ap (levels + 1), spend rope levels -> "
                  "place_rope levels; gain_token traverse levels; reach_depth", cave)
    assert zh == ("需要兩版塊間尚無繩索；設N為兩版塊的深度等級差；"
                  "花費N+1行動點並從背包使用N個繩索以在兩版塊間放置N條繩索，"
                  "從供應區拿取N個橫越標記，若首次以自己的繩索到達此深度則拿取到達深度標記。")
    assert en == ("Not allowed if a rope already connects the two tiles. "
                  "Let N be the number of depth levels between the two tiles. "
                  "Spend N+1 AP and use N ropes from your backpack to place N ropes between "
                  "the two tiles, take N traverse tokens from the supply and take the "
                  "reached-depth token if this is your first arrival at this depth by your "
                  "own rope.")


def test_squeeze_keyword_renders_its_own_template(cave):
    zh, en = both("squeeze 2 squeeze_2", cave)
    assert zh == "隙縫2：進入需1+2行動點，拿取隙縫難度2標記。"
    assert en == "Squeeze 2: entering costs 1+2 AP; take the squeeze-2 token."


def test_wonder_photograph_action_joins_conditions_with_and(cave):
    zh, en = both("require has(camera) and token_here(photo); pay ap 1 -> take_token photo",
                  cave)
    assert zh == "需要背包中有相機且此版塊上有照片標記；花費1行動點後，若此版塊上有照片標記則拿取。"
    assert en == ("Only if you have a camera in your backpack and the photo token is on "
                  "this tile: spend 1 AP to take the photo token from this tile if it is there.")


def test_cost_whose_effect_is_a_clause_reads_then(cave):
    zh, en = both("pay ap 5 -> if at_base(): gain_token photo 1", cave)
    assert zh == "花費5行動點後，若你在基地，從供應區拿取1個照片標記。"
    assert en == "Spend 5 AP, then if you are at the base, take 1 photo token from the supply."
    zh, en = both("pay ap 5 -> end_actions", cave)      # an action: "to"
    assert zh == "花費5行動點以結束本回合的行動（本回合不能再做任何事）。"
    assert en == "Spend 5 AP to end your actions for this turn (you can do nothing else this turn)."


def test_on_event_uses_the_events_own_text():
    reporter = dg.Reporter()
    clank = vocabulary.build(loader.load(CAVE.parents[1] / "clank_catacombs" / "game.yaml",
                                         reporter), reporter, "game.yaml")
    zh, en = both("on enter_room: gain gold 1", clank)
    assert zh.startswith("进入房间时，") and en.startswith("When you enter a room, ")


def test_chinese_output_has_full_width_punctuation():
    assert full_width("a,b:c;d(e)") == "a，b：c；d（e）"
    assert full_width("1,000") == "1,000"


# --- every node kind, with a tiny hand-made vocabulary --------------------------------------

@dataclass(frozen=True)
class _Text:
    zh: str
    en: str

    def get(self, lang):
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True)
class _Param:
    name: str
    type: str


@dataclass(frozen=True)
class _Callable:
    name: str
    params: tuple
    text: _Text | None
    effect: str = ""


class TinyVocab:
    """Duck-typed like compiler.vocabulary.Vocabulary: only what the renderer reads."""

    def __init__(self):
        self.names = {
            "gold": {"resource": _Text("金幣", "gold")},
            "card": {"item": _Text("卡牌", "card")},
            "hand": {"zone": _Text("手牌", "hand")},
            "points": {"stat": _Text("點數", "points")},
            "turn": {"scope": _Text("本回合", "this turn")},
            "hit": {"event": _Text("受到攻擊時", "when you are hit")},
        }
        self.verbs = {
            "gain": _Callable("gain", (_Param("amount", "int"), _Param("res", "resource")),
                              _Text("獲得{amount}{res}", "gain {amount} {res}")),
            "discard": _Callable("discard", (_Param("amount", "int"),),
                                 _Text("棄{amount}張牌", "discard {amount} card(s)")),
            "draw": _Callable("draw", (_Param("amount", "int"),),
                              _Text("抽{amount}張牌", "draw {amount} card(s)")),
        }
        self.queries = {"rich": _Callable("rich", (), _Text("你很富有", "you are rich"))}
        self.keywords = {
            "danger": _Callable("danger", (_Param("n", "int"),),
                                _Text("危險{n}", "Danger {n}")),
            "plunder": _Callable("plunder", (_Param("n", "int"),), None, "gain n gold; draw 1"),
        }
        self.kinds = {"monster": {"zh": "怪物", "en": "monster"}}

    def text_of(self, name, lang, prefer=None):
        infos = self.names.get(name)
        if not infos:
            return name
        info = infos.get(prefer) if prefer else None
        return (info or next(iter(infos.values()))).get(lang)


EVERY_KIND = [
    "discard 1 -> draw 2",
    "if rich() { gain 2 gold } else { draw 1 }",
    "on hit where rich(): draw 1",
    "when count(card in hand) >= 3: discard 1",
    "each player: draw 1",
    "each opponent where not rich(): discard 1",
    "each monster in hand where it.points > 2: gain 1 gold",
    "target monster where it.points <= 4: target.points -= 1",
    "during turn: you.points += 2",
    "once per turn: draw 1",
    "repeat 3: draw 1",
    "may: discard 1",
    "continuous: you.points *= 2",
    "choose { draw 2 | gain 3 gold }",
    "require any(card in hand) or rich() and not true",
    "let x = count(card in hand) // 2 - -1; let y = -x; gain y gold",
    "you.points = 3",
    "danger 2",
    "plunder 4",
    "if 1 == 1 and 2 != 3 and 1 < 2 and false: draw 1",
    "if (1 + 2) * 3 > 4 or rich(): draw 1",
    "unknown_verb 3 gold key=2",
]


@pytest.mark.parametrize("effect", EVERY_KIND)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_node_kind_renders(effect, lang):
    text = render(parse(effect), TinyVocab(), lang)
    assert text
    if lang == "zh":
        assert text.endswith("。") and not any(c in text for c in ",;:")
    else:
        assert text[0].isupper() or text[0].isdigit()
        assert text.endswith(".")


def test_every_node_class_is_covered_by_the_list():
    seen = {type(node) for effect in EVERY_KIND for node in n.walk(parse(effect))}
    expected = {n.Num, n.Bool, n.Name, n.Func, n.Selector, n.Count, n.Any_, n.BinOp, n.Not,
                n.Neg, n.KwArg, n.Call, n.Assign, n.Let, n.Require, n.Block, n.Cost, n.If, n.On,
                n.When, n.Each, n.Target, n.During, n.Once, n.Repeat, n.May, n.Continuous,
                n.Choose}
    assert expected - seen == set()


def test_tiny_vocabulary_phrasing():
    v = TinyVocab()
    assert render(parse("discard 1 -> draw 2"), v, "en") == "Discard 1 card to draw 2 cards."
    assert render(parse("discard 1 -> draw 2"), v, "zh") == "棄1張牌以抽2張牌。"
    assert render(parse("you.points = 3"), v, "en") == "Set your points to 3."
    assert render(parse("target monster: target.points = 3"), v, "zh") == \
        "選擇一個怪物，將該怪物的點數變為3。"
    assert render(parse("you.points += 2"), v, "en") == "Add 2 to your points."
    assert render(parse("repeat 3: draw 1"), v, "zh") == "重複3次：抽1張牌。"
    assert render(parse("repeat 3: draw 1"), v, "en") == "Do this 3 times: draw 1 card."
    assert render(parse("may: draw 1"), v, "en") == "You may draw 1 card."
    # a count that is not a number is named and defined, as a verb's count is (blind pack test:
    # "do this the number of cards in the hand times" read as one long noun)
    assert render(parse("repeat count(card in hand): draw 1"), v, "en") == \
        "Do this X times, where X is the number of cards in the hand: draw 1 card."
    assert render(parse("repeat count(card in hand): draw 1"), v, "zh") == \
        "重複X次（X為手牌中卡牌的數量）：抽1張牌。"
    assert render(parse("continuous: draw 1"), v, "zh") == "持續：抽1張牌。"
    assert render(parse("choose { draw 2 | gain 3 gold }"), v, "zh") == \
        "選擇一項：抽2張牌；或獲得3金幣。"
    assert render(parse("choose { draw 2 | gain 3 gold }"), v, "en") == \
        "Choose one: draw 2 cards; or gain 3 gold."
    assert render(parse("each player: draw 1"), v, "zh") == "每位玩家各自抽1張牌。"
    assert render(parse("if count(card in hand) >= 3: draw 1"), v, "en") == \
        "If there are at least 3 cards in the hand, draw 1 card."
    assert render(parse("if count(card in hand) >= 3: draw 1"), v, "zh") == \
        "若手牌中至少有3張卡牌，抽1張牌。"
    assert render(parse("when rich(): draw 1"), v, "zh") == "一旦你很富有，抽1張牌。"
    assert render(parse("plunder 4"), v, "en") == "Gain 4 gold and draw 1 card."
    assert render(parse("danger 2"), v, "zh") == "危險2。"


# --- the grammar of rules text: agreement, articles, measure words, clauses -----------------

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def games():
    from tomecraft.compiler import pipeline
    loaded = {}
    for name in ("clank_catacombs", "deep_rock_galactic", "dungeontology", "dm_crawl_decks"):
        reporter = dg.Reporter()
        loaded[name] = pipeline.compile_game(ROOT / "content" / name, [], reporter)
        assert loaded[name] is not None and not reporter.errors
    return loaded


def say(game, effect: str) -> tuple[str, str]:
    return both(effect, game.vocab)


@pytest.mark.parametrize("amount, en", [(1, "Take 1 random prisoner."),
                                        (2, "Take 2 random prisoners."),
                                        (7, "Take 7 random prisoners.")])
def test_a_count_governs_the_head_of_its_noun_phrase(games, amount, en):
    zh, got = say(games["clank_catacombs"], f"gain_random prisoner {amount}")
    assert got == en
    assert zh == f"随机拿取{amount}个囚犯标记。"


def test_a_mass_noun_does_not_take_a_plural_and_words_agree_with_counts(games):
    clank = games["clank_catacombs"]
    assert say(clank, "gain gold 3")[1] == "Gain 3 gold."
    assert say(clank, "gain lockpick 2")[1] == "Gain 2 lockpick tokens."
    assert say(clank, "gain lockpick 1")[1] == "Gain 1 lockpick token."
    drg = games["deep_rock_galactic"]
    assert say(drg, "pay actions 2")[1] == "Spend 2 actions."
    assert say(drg, "pay actions 1")[1] == "Spend 1 action."
    assert say(drg, "move 1")[1] == "Move up to 1 space."
    assert say(drg, "reroll 2")[1] == "Reroll 2 dice with the fewest hits."


def test_a_count_with_arithmetic_is_not_said_per_one(games):
    """A count of things with arithmetic: `treasures_held() + 1` read "Gain 1 gold per treasure
    you hold+1", `clank_gained(turn) * 2` "gain 1 combat per Clank! you gained this turn×2"
    (a pack card, packs round 11). A product by a number is said per one, the rest named."""
    clank = games["clank_catacombs"]
    assert say(clank, "gain combat (clank_gained(turn) * 2)")[1] == \
        "Gain 2 combat per Clank! you gained this turn."
    assert say(clank, "score (2 * prisoners_held())")[1] == "Score 2 points per prisoner you hold."
    assert say(clank, "gain gold (treasures_held() + 1)")[1] == \
        "Gain X gold, where X is the number of treasures you hold+1."


def test_a_count_that_is_not_a_number_is_named_and_defined(games):
    zh, en = say(games["clank_catacombs"], "gain gold clank_gained(turn)")
    assert en == "Gain 1 gold per Clank! you gained this turn."
    assert zh == "获得X金币（X为你本回合获得的咔嚓！数）。"
    zh, en = say(games["clank_catacombs"], "score prisoners_held()")
    assert en == "Score 1 point per prisoner you hold."
    zh, en = say(games["clank_catacombs"], "on gain_clank: gain gold event.amount")
    assert en == "Whenever you gain Clank!, gain X gold, where X is the Clank! gained."


def test_a_roll_is_a_step_and_its_hits_are_the_damage(games):
    zh, en = say(games["deep_rock_galactic"],
                 "pay actions 1, pay ammo 1 -> target monster where in_range(3) and "
                 "line_of_sight(): let r = roll(bullet_die, 2); deal bullet hits(r)")
    assert en == ("Spend 1 action and 1 primary ammo to choose a monster within range 3 and in "
                  "line of sight as the target: roll 2 Bullet dice and deal 1 bullet damage per "
                  "hit in the roll.")
    assert zh == ("花费1个行动与1份主要武器弹药后，选择一只在3格射程内且视线未被阻挡的怪物作为目标："
                  "掷2颗子弹骰，造成X点子弹伤害（X为掷骰结果的命中数）。")


def test_a_count_of_things_reads_per_thing(games):
    """'deal X fire damage and place 3 flames, where X is the number of hits in the roll' read
    like a machine: a count 'the number of hits' reads '1 fire damage per hit', where it is."""
    zh, en = say(games["deep_rock_galactic"],
                 "target monster where in_range(3): let r = roll(fire_die, 2); deal fire hits(r); "
                 "place flame 3")
    assert en == ("Choose a monster within range 3 as the target: roll 2 Fire dice, deal 1 fire "
                  "damage per hit in the roll and place 3 flames.")
    assert zh == ("选择一只在3格射程内的怪物作为目标：掷2颗燃烧骰，造成X点燃烧伤害（X为掷骰结果的"
                  "命中数），放置3个火焰。")


def test_a_condition_written_for_a_selector_takes_it_as_its_subject(games):
    """DRG's bool queries are predicates ("within range 3", "is Stunned", "flies"): after a
    selector's noun they read as they are; as a condition of their own they take `it`."""
    drg = games["deep_rock_galactic"]
    assert say(drg, "if has_status(stunned): heal 1")[1] == "If it is Stunned, heal 1."
    assert say(drg, "if not flying(): heal 1")[1] == "If it does not fly, heal 1."
    assert say(drg, "if in_range(3) and line_of_sight(): heal 1")[1] == \
        "If it is within range 3 and it is in line of sight, heal 1."
    assert say(drg, "target monster where in_range(3) and flying(): heal 1")[1] == \
        "Choose a monster within range 3 that flies as the target: heal 1."
    assert say(drg, "target monster where not flying(): heal 1")[1] == \
        "Choose a monster that does not fly as the target: heal 1."
    assert say(drg, "each monster where not has_status(stunned): heal 1")[1] == \
        "For each monster that is not Stunned, heal 1."


def test_a_count_governs_the_noun_after_a_name_of_several_words(games):
    """'Rock and Stone card(s)': the `and` inside the name does not end the noun phrase."""
    drg = games["deep_rock_galactic"]
    assert say(drg, "draw_rock_and_stone 1")[1] == "Draw 1 Rock and Stone card."
    assert say(drg, "draw_rock_and_stone 2")[1] == "Draw 2 Rock and Stone cards."
    from tomecraft.dsl.render.templates import Arg, fill
    for n, want in (("1", "draw 1 card and gain 1 gold"), ("2", "draw 2 cards and gain 1 gold")):
        assert fill("draw {n} card(s) and gain 1 gold", {"n": Arg(n, count=True)}, "en",
                    lambda: "X") == want
    assert fill("take {n} Bottle of Ale token(s) from the bag", {"n": Arg("1", count=True)},
                "en", lambda: "X") == "take 1 Bottle of Ale token from the bag"


def test_selector_conditions_are_relative_clauses_not_for_which(games):
    zh, en = say(games["deep_rock_galactic"], "each monster where in_range(1): deal_ignoring_resistance 1")
    assert en == "For each monster within range 1, deal 1 damage, ignoring resistances."
    assert "for which" not in en
    zh, en = say(games["dm_crawl_decks"],
                 "each card in battlefield where on_side(it, player_side) and it.power >= 2: "
                 "it.points += 1")
    assert en == ("For each main-deck card in the battlefield on the player side whose power is "
                  "at least 2, add 1 to its points.")
    zh, en = say(games["clank_catacombs"],
                 "when count(card in play_area where it.companion) >= 2: draw 1")
    # a yes/no field naming a kind of the thing goes before it, as the Chinese 伙伴牌 does
    assert en == "As soon as there are at least 2 companion cards in the play area, draw 1 card."
    assert zh == "一旦出牌区中至少有2张伙伴牌，抽1张牌。"


def test_it_inside_a_condition_is_not_printed_in_chinese(games):
    zh, en = say(games["dungeontology"], "target opponent where same_region(it): discard_random target 1")
    assert zh == "选择一位与你在同一地域的对手，该对手随机弃掉1张计谋卡。"
    assert en == "Choose an opponent in your region: that opponent discards 1 scheme card at random."


def test_you_as_a_subject_takes_its_own_verb_form(games):
    zh, en = say(games["dungeontology"], "discard_random you 2")
    assert en == "You discard 2 scheme cards at random."
    assert zh == "你随机弃掉2张计谋卡。"


def test_negation_reads_as_english(games):
    cave_en = render(parse("require not camp_packed_before()"), _cave(), "en")
    assert "has not been packed before" in cave_en
    zh, en = say(games["clank_catacombs"], "require not against_arrow()")
    assert en == "Only if you do not cross against the arrow."
    assert zh == "需要你不逆箭头方向穿过。"


def test_a_requirement_lifted_by_another_condition_says_which_needs_which(games):
    """`require A or not B` is "B only if A": the one-way arrow read "Only if you hold a
    Catacomb Map or you do not cross against the arrow"."""
    for text in ("require holds(catacomb_map) or not against_arrow()",
                 "require not against_arrow() or holds(catacomb_map)"):
        zh, en = say(games["clank_catacombs"], text)
        assert en == "You may cross against the arrow only if you hold a Catacomb Map."
        assert zh == "你逆箭头方向穿过时，需要你持有墓穴地图。"


def _cave():
    reporter = dg.Reporter()
    return vocabulary.build(loader.load(CAVE, reporter), reporter, "game.yaml")


def test_a_condition_the_target_says_again_is_said_once(games):
    effect = ("require count(opponent where same_region(it)) >= 1; take_stun 1 -> "
              "target opponent where same_region(it): random_drop target 1")
    zh, en = say(games["dungeontology"], effect)
    assert en.count("in your region") == 1 and zh.count("同一地域") == 1


def test_a_choice_between_a_condition_and_its_opposite_is_an_if(games):
    zh, en = say(games["dungeontology"],
                 "choose { require attempting(); add_stealth 2 | require not attempting(); add_alert 3 }")
    assert en == ("If you are making this stealth attempt, add 2 to the stealth value; otherwise, "
                  "add 3 to the alert value.")
    assert zh == "若你正在进行此隐匿尝试，隐匿值+2；否则，警戒值+3。"


def test_event_fields_and_kind_fields_read_by_their_text(games):
    zh, en = say(games["clank_catacombs"], "on gain_clank where event.amount > 0: gain gold event.amount")
    assert "amount" not in zh + en.replace("the amount of", "")
    assert en == ("Whenever you gain Clank!, if there is any Clank! gained, gain X gold, "
                  "where X is the Clank! gained.")
    zh, en = say(games["clank_catacombs"], "place_treasure self.plus_signs")
    assert zh == "跳过宝藏叠顶端的X个标记，将其下的第一个宝藏标记放在此房间（X为此物的加号数）。"
    assert "plus_signs" not in en


def test_entity_names_read_by_their_name(games):
    zh, en = say(games["clank_catacombs"], "require holds(catacomb_map)")
    assert zh == "需要你持有墓穴地图。" and en == "Only if you hold a Catacomb Map."


def test_keyword_parameters_read_as_letters_when_the_keyword_is_rendered_alone(games):
    game = games["dungeontology"]
    site = game.keyword_sites["ambush"]
    en = render(site.ast, game.vocab, "en")
    assert "sacrifice N students" in en and " n " not in en


def test_articles_follow_the_sound_of_the_word():
    from tomecraft.dsl.render.words import article, pluralise
    assert [article(w) for w in ("ammo loot", "IFG token", "one-way arrow", "hour", "X",
                                 "unit", "Exploder", "N", "K")] == \
        ["an", "an", "a", "an", "an", "a", "an", "an", "a"]
    assert [pluralise(w) for w in ("Bullet die", "match", "ally", "day", "gold", "dwarf")] == \
        ["Bullet dice", "matches", "allies", "days", "gold", "dwarves"]


def test_template_grammar_marks_and_articles():
    from tomecraft.dsl.render.templates import Arg, fill
    args = {"n": Arg("1", count=True), "x": Arg("owl", "owls")}
    assert fill("take {n} [die|dice] and a {x}", args, "en", lambda: "X") == "take 1 die and an owl"
    args = {"n": Arg("3", count=True), "x": Arg("mouse", "mice", "只")}
    assert fill("take {n} {x}, then {n} match(es)", args, "en", lambda: "X") == \
        "take 3 mice, then 3 matches"
    assert fill("拿{n}{x}", args, "zh", lambda: "X") == "拿3只mouse"
    assert fill("the number of {x:plural}", args, "en", lambda: "X") == "the number of mice"


def test_render_call_fills_a_legend_through_the_grammar(games):
    from tomecraft.dsl.render import render_call
    vocab = games["dungeontology"].vocab
    assert render_call(vocab, "sacrifice", "en", {"amount": "N"}) == "sacrifice N students"
    assert render_call(vocab, "sacrifice", "zh", {"amount": "N"}) == "牺牲N名学生"


def test_a_name_without_text_never_shows_its_identifier():
    v = TinyVocab()
    zh = render(parse("if self.plus_signs > 1: draw 1"), v, "zh")
    en = render(parse("if self.plus_signs > 1: draw 1"), v, "en")
    assert "plus_signs" not in zh + en and not any("a" <= c <= "z" for c in zh)
    assert "plus signs" in en


def test_check_warns_where_an_effect_reads_a_field_without_text(tmp_path):
    """`tomecraft check` says where rules text would have to fall back to plain words."""
    import shutil
    from tomecraft.compiler import pipeline
    game_dir = tmp_path / "clank_catacombs"
    shutil.copytree(ROOT / "content" / "clank_catacombs", game_dir,
                    ignore=shutil.ignore_patterns("packs"))
    yaml_path = game_dir / "game.yaml"
    text = yaml_path.read_text(encoding="utf-8")
    assert ", x-text: {zh: 加号数, en: plus-sign count}" in text
    yaml_path.write_text(text.replace(", x-text: {zh: 加号数, en: plus-sign count}", ""),
                         encoding="utf-8")
    reporter = dg.Reporter()
    game = pipeline.compile_game(game_dir, [], reporter)
    warnings = [d for d in reporter.diagnostics if d.code == "TC-N007"]
    assert not reporter.errors and warnings
    assert all(d.severity == "warning" and "plus_signs" in d.message for d in warnings)
    assert {(Path(d.file).name, d.line) for d in warnings} == {("rooms.yaml", 16)}
    assert len({d.column for d in warnings}) == len(warnings) >= 2  # each use, once
    # and the sheets still print words, not the identifier
    room = game.entities["room"]["treasure_room"]
    for site in room.effects:
        for lang in ("zh", "en"):
            assert "plus_signs" not in render(site.ast, game.vocab, lang)


def test_more_than_zero_of_something_reads_there_are(games):
    zh, en = say(games["deep_rock_galactic"],
                 "let r = roll(explosive_die, 1); if faces(r, scare) > 0: scare 2")
    assert en == ("Roll 1 Explosive die. If the roll shows Scare, it moves 2 spaces away from "
                  "the source.")   # a face rolled: not 'if there are Scare results in the roll'
    assert zh == "掷1颗爆炸骰；若掷骰结果中有阻遏惊吓，使其远离攻击来源2格。"
    zh, en = say(games["clank_catacombs"], "require tokens_left(prisoner) > 0; gain_random prisoner 1")
    assert en == "Only if there are any prisoners left in the supply: take 1 random prisoner."


def test_triggers_in_a_row_that_do_the_same_are_said_once(games):
    zh, en = say(games["deep_rock_galactic"],
                 "on monster_placed { gain nitra 1 }; on monster_activated { gain nitra 1 }; "
                 "on monster_moved { gain nitra 1 }; on turn_start { gain gold 1 }")
    assert en.startswith("When a monster is placed, activates or moves in, gain 1 Nitra")
    assert "At the start of your turn, gain 1 Gold" in en     # a different body, said apart
    assert zh.startswith("怪物被放置、行动或移动进入时，")
    zh, en = say(games["deep_rock_galactic"],
                 "on monster_placed { gain nitra 1 }; on monster_activated { gain gold 1 }")
    assert en.count("when a monster") + en.count("When a monster") == 2   # different bodies
    zh, en = say(games["deep_rock_galactic"],
                 "on monster_placed { gain nitra 1 }; on turn_start { gain nitra 1 }")
    assert en.startswith("When a monster is placed or at the start of your turn, gain 1 Nitra")


def test_a_cave_verb_reads_as_an_action_after_may_and_a_cost(cave):
    """Found by the packs blind test: `may: end_actions` read "You may you can do nothing else
    this turn" (the verb's text was a statement, not something one does)."""
    zh, en = both("pay ap 2 -> take_token photo; may: end_actions", cave)
    assert en.endswith("you may end your actions for this turn (you can do nothing else this turn).")
    assert zh.endswith("可以結束本回合的行動（本回合不能再做任何事）。")


def test_a_stealth_or_alert_bonus_reads_as_a_verb_after_may(games):
    # a pack's `may: add_alert 1` read "You may +1 to the alert value."
    zh, en = say(games["dungeontology"], "may: add_alert 1")
    assert en == "You may add 1 to the alert value."


@pytest.mark.parametrize("event, en, zh", [
    ("killed", "When a monster is killed, gain 1 Gold.", "怪物被击杀时，"),
    ("damaged", "When a monster loses HP, gain 1 Gold.", "怪物受到伤害时，"),
    ("attacked", "When a monster is attacked, gain 1 Gold.", "怪物受到攻击时，"),
    ("monster_attacks", "When a monster attacks, gain 1 Gold.", "怪物攻击时，")])
def test_a_drg_monster_event_names_the_monster_whoever_holds_the_trigger(games, event, en, zh):
    """Only a dwarf's passive ability or a thrown throwable holds these triggers, and they hear
    every monster's: a pack's Prospector with `on killed: gain gold 1` read "When it is killed:
    gain 1 Gold", as if the dwarf were killed (fourth packs blind test)."""
    got_zh, got_en = say(games["deep_rock_galactic"], f"on {event}: gain gold 1")
    assert got_en == en and got_zh.startswith(zh), got_zh


@pytest.mark.parametrize("amount, en", [
    (1, "Reveal 1 Swarm card and place the monsters shown."),
    (2, "Reveal 2 Swarm cards and place the monsters shown.")])
def test_revealing_one_swarm_card_does_not_place_their_monsters(games, amount, en):
    """A pack's event card `reveal_swarm 1` read "Reveal 1 Swarm card and place their
    monsters" (fourth packs blind test): no count governs a pronoun."""
    assert say(games["deep_rock_galactic"], f"reveal_swarm {amount}")[1] == en


@pytest.mark.parametrize("game, effect, en, zh", [
    ("deep_rock_galactic", "on move_action: may: attack",
     "After a Move action, you may make 1 ranged weapon attack.", "移动行动后，可以进行1次远程武器攻击。"),
    ("clank_catacombs", "during turn: no_movement", None, "本回合内，"),
    # an event named as a window keeps its colon ("Pre-battle, add 1" would not read)
    ("dm_crawl_decks", "on pre_battle: self.points += 1",
     "Pre-battle: add 1 to its points.", "战前，此物的点数+1。")])
def test_a_trigger_reads_as_a_clause_not_a_second_label(games, effect, en, zh, game):
    """"Light-Footed: After a Move action: you may ..." read like a machine wrote it: under an
    ability's label the trigger is a clause ("After a Move action, you may ..."), zh "……后，……"."""
    got_zh, got_en = say(games[game], effect)
    assert en is None or got_en == en
    assert got_zh.startswith(zh) if en is None else got_zh == zh
    assert got_en.count(":") + got_zh.count("：") <= (1 if game == "dm_crawl_decks" else 0)
