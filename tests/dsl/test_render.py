"""The natural-language renderer: exact rules text for The Cave's effects in both languages,
and every statement and expression kind rendered in both languages."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from compiler import diagnostics as dg
from compiler import loader, vocabulary
from dsl import nodes as n
from dsl.parser import parse
from dsl.render import full_width, render

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
    assert en == "Requires that you have a raft in your backpack. Spend 1 AP."


def test_rappel_rope_option_names_the_depth_levels_once(cave):
    zh, en = both("require not rope_placed(); let levels = depth_levels(); "
                  "pay ap (levels + 1), spend rope levels -> "
                  "place_rope levels; gain_token traverse levels; reach_depth", cave)
    assert zh == ("需要兩版塊間尚無繩索；設N為兩版塊的深度等級差；"
                  "花費N+1行動點並從背包用掉N個繩索以在兩版塊間放置N條繩索，"
                  "從供應區拿取N個橫越標記，若首次以自己的繩索到達此深度則拿取到達深度標記。")
    assert en == ("Not allowed if a rope already connects the two tiles. "
                  "Let N be the depth levels between the two tiles. "
                  "Spend N+1 AP and use up N ropes from your backpack to place N rope between "
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
    assert en == ("Requires that you have a camera in your backpack and the photo token is on "
                  "this tile. Spend 1 AP to take the photo token from this tile if it is there.")


def test_cost_whose_effect_is_a_clause_reads_then(cave):
    zh, en = both("pay ap 5 -> end_actions", cave)
    assert zh == "花費5行動點後，本回合不能再做任何事。"
    assert en == "Spend 5 AP, then you can do nothing else this turn."


def test_on_event_uses_the_events_own_text():
    reporter = dg.Reporter()
    clank = vocabulary.build(loader.load(CAVE.parents[1] / "clank_catacombs" / "game.yaml",
                                         reporter), reporter, "game.yaml")
    zh, en = both("on enter_room: gain gold 1", clank)
    assert zh.startswith("进入房间时：") and en.startswith("When you enter a room: ")


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
    assert render(parse("discard 1 -> draw 2"), v, "en") == "Discard 1 card(s) to draw 2 card(s)."
    assert render(parse("discard 1 -> draw 2"), v, "zh") == "棄1張牌以抽2張牌。"
    assert render(parse("you.points = 3"), v, "en") == "Set your points to 3."
    assert render(parse("target monster: target.points = 3"), v, "zh") == \
        "選擇一個怪物作為目標：將目標的點數變為3。"
    assert render(parse("you.points += 2"), v, "en") == "Your points gets +2."
    assert render(parse("repeat 3: draw 1"), v, "zh") == "重複3次：抽1張牌。"
    assert render(parse("repeat 3: draw 1"), v, "en") == "3 times: draw 1 card(s)."
    assert render(parse("may: draw 1"), v, "en") == "You may draw 1 card(s)."
    assert render(parse("continuous: draw 1"), v, "zh") == "持續：抽1張牌。"
    assert render(parse("choose { draw 2 | gain 3 gold }"), v, "zh") == \
        "選擇一項：抽2張牌；或獲得3金幣。"
    assert render(parse("choose { draw 2 | gain 3 gold }"), v, "en") == \
        "Choose one: draw 2 card(s); or gain 3 gold."
    assert render(parse("each player: draw 1"), v, "zh") == "每位玩家各自抽1張牌。"
    assert render(parse("if count(card in hand) >= 3: draw 1"), v, "en") == \
        "If the number of cards in the hand is at least 3, draw 1 card(s)."
    assert render(parse("if count(card in hand) >= 3: draw 1"), v, "zh") == \
        "若手牌中卡牌的數量至少為3，抽1張牌。"
    assert render(parse("when rich(): draw 1"), v, "zh") == "一旦你很富有，抽1張牌。"
    assert render(parse("plunder 4"), v, "en") == "Gain 4 gold and draw 1 card(s)."
    assert render(parse("danger 2"), v, "zh") == "危險2。"
