"""The bag calls of The Cave's equipment (equipment.py), each written for its item's shape,
against a plain model of the rule: a token of `uses: N` is used N times, the most worn first
(D-24), and a kept item spends nothing (L191-193)."""
from __future__ import annotations

import itertools
from collections import Counter
from types import SimpleNamespace

import pytest

from tomecraft.runtime.engines.the_cave.equipment import Items, worn

SHAPES = {
    "rope": dict(uses=1, kept_after_use=False),      # one use: spent
    "oxygen": dict(uses=2, kept_after_use=False),    # flipped, then spent
    "lamp": dict(uses=3, kept_after_use=False),      # a pack's three-use item
    "camera": dict(uses=None, kept_after_use=True),  # never spent
}


def items() -> Items:
    equipment = {term: SimpleNamespace(id=term, term=term, slots=1, per_team_limit=None, **shape)
                 for term, shape in SHAPES.items()}
    return Items(equipment, words=["torch", *SHAPES])


def model_uses(bag: Counter, term: str) -> int:
    uses = SHAPES[term]["uses"] or 1
    return sum(bag[worn(term, left)] * left for left in range(1, uses)) + bag[term] * uses


def model_use_once(bag: Counter, term: str) -> None:
    if SHAPES[term]["kept_after_use"]:
        return
    uses = SHAPES[term]["uses"]
    keys = [worn(term, left) for left in range(1, uses)] + [term]
    key, left = next((k, i + 1) for i, k in enumerate(keys) if bag[k] > 0)
    bag[key] -= 1
    if left > 1:
        bag[worn(term, left - 1)] += 1


def bags(term: str):
    uses = SHAPES[term]["uses"] or 1
    keys = [worn(term, left) for left in range(1, uses)] + [term]
    for counts in itertools.product(range(3), repeat=len(keys)):
        yield Counter(dict(zip(keys, counts)))


@pytest.mark.parametrize("term", SHAPES)
def test_each_items_calls_agree_with_the_rule_for_every_small_bag(term):
    table = items()
    for bag in bags(term):
        held = table.count(bag, term) if SHAPES[term]["kept_after_use"] else model_uses(bag, term)
        for times in range(0, 5):
            want = held >= (1 if times else 0) if SHAPES[term]["kept_after_use"] else held >= times
            assert table.can_use_of[term](bag, times) is want, (dict(bag), times)
            assert table.can_use(bag, term, times) is want
            if not want or times == 0:
                continue
            mine, expected = Counter(bag), Counter(bag)
            what = table.use(mine, term, times)
            for _ in range(times):
                model_use_once(expected, term)
            assert +mine == +expected, (dict(bag), times)
            assert what in ("uses", "wears", "uses up")
        if held and not SHAPES[term]["kept_after_use"]:
            mine, expected = Counter(bag), Counter(bag)
            table.use_once_of[term](mine)
            model_use_once(expected, term)
            assert +mine == +expected, dict(bag)


def test_a_word_no_equipment_has_holds_no_uses():
    """A pack may declare an equipment word without an item (or remove the item): an effect
    spending it is never possible, and nothing crashes when it is asked."""
    table = items()
    bag = Counter(torch=3)
    assert table.can_use_of["torch"](bag, 1) is False
    assert table.can_use_of["torch"](bag, 0) is True
    assert table.can_use(bag, "anything", 1) is False
    assert table.use(bag, "torch", 0) == "uses"
    with pytest.raises(KeyError):
        table.use_once_of["torch"](bag)
