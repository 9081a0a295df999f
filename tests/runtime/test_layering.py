"""The set-vs-add layering rule (Crawl Decks rulebook L328-332, L282; inventory §6.3)."""
import pytest

from tomecraft.runtime.layering import Layers


def card(points: int, on_zero=None) -> Layers:
    layers = Layers(on_zero)
    layers.set_base("card", "points", points)
    return layers


def test_set_then_add_applies_the_add_on_top_lay1():
    layers = card(5)
    layers.modify("card", "points", "=", 2)
    layers.modify("card", "points", "+=", 1)
    assert layers.value("card", "points") == 3


def test_add_then_set_is_overridden_by_the_set_lay2():
    layers = card(5)
    layers.modify("card", "points", "+=", 1)
    layers.modify("card", "points", "=", 2)
    assert layers.value("card", "points") == 2


def test_continuous_add_reapplies_after_a_one_shot_set_lay3():
    layers = card(3)
    layers.modify("card", "points", "+=", 1, continuous=True, source="banner")
    assert layers.value("card", "points") == 4
    layers.modify("card", "points", "=", 1)
    assert layers.value("card", "points") == 2


def test_continuous_minus_after_set_reaches_zero_and_fires_at_once_lay4():
    fired = []
    layers = card(5, on_zero=lambda obj, attr: fired.append((obj, attr)))
    layers.modify("card", "points", "-=", 1, continuous=True, source="curse")
    assert layers.value("card", "points") == 4 and not fired
    layers.modify("card", "points", "=", 1)
    assert layers.value("card", "points") == 0
    assert fired == [("card", "points")]


def test_add_set_add_sequence_lay5():
    layers = card(2)
    layers.modify("card", "points", "+=", 1)
    layers.modify("card", "points", "=", 5)
    layers.modify("card", "points", "-=", 2)
    assert layers.value("card", "points") == 3


def test_one_shot_reduction_to_zero_fires_lay6():
    fired = []
    layers = card(2, on_zero=lambda obj, attr: fired.append(obj))
    layers.modify("card", "points", "-=", 2)
    assert layers.value("card", "points") == 0 and fired == ["card"]


def test_continuous_modifier_ends_when_its_source_leaves_lay7():
    layers = card(3)
    layers.modify("card", "points", "+=", 1, continuous=True, source="banner")
    assert layers.value("card", "points") == 4
    layers.remove_source("banner")
    assert layers.value("card", "points") == 3


def test_zero_fires_once_per_crossing_not_on_every_later_change():
    fired = []
    layers = card(1, on_zero=lambda obj, attr: fired.append(obj))
    layers.modify("card", "points", "-=", 1)
    layers.modify("card", "points", "-=", 1)
    assert layers.value("card", "points") == -1
    assert fired == ["card"]


def test_continuous_set_applies_after_one_shots_and_before_continuous_adds():
    layers = card(3)
    layers.modify("card", "points", "+=", 2, continuous=True, source="a")
    layers.modify("card", "points", "=", 7, continuous=True, source="b")
    layers.modify("card", "points", "+=", 10)
    assert layers.value("card", "points") == 9


def test_multiply_is_a_one_shot_in_order():
    layers = card(3)
    layers.modify("card", "points", "+=", 1)
    layers.modify("card", "points", "*=", 2)
    assert layers.value("card", "points") == 8


def test_clear_returns_to_the_printed_value():
    layers = card(3)
    layers.modify("card", "points", "=", 9)
    layers.clear("card")
    assert layers.value("card", "points") == 3


def test_unknown_operator_and_value_are_refused():
    layers = card(3)
    with pytest.raises(ValueError):
        layers.modify("card", "points", "^=", 1)
    with pytest.raises(KeyError):
        layers.value("other", "points")


def test_replacing_a_source_with_what_it_placed_moves_it_last_and_places_it_again():
    """A replace with the same mods moves the source's modifiers behind the others (so its
    continuous set wins), and places them again after a clear or after an added modifier of
    the source (replace_source finds the values among the modified ones: Layers.modified)."""
    layers = card(5)
    layers.replace_source("a", [("card", "points", "=", 2)])
    layers.replace_source("b", [("card", "points", "=", 3)])
    layers.replace_source("a", [("card", "points", "=", 2)])    # behind b now: a's 2 wins
    assert layers.value("card", "points") == 2
    layers.replace_source("a", [("card", "points", "=", 2)])    # already last: the same
    assert layers.value("card", "points") == 2
    layers.clear("card")
    assert layers.value("card", "points") == 5
    layers.replace_source("a", [("card", "points", "=", 2)])    # cleared: placed again
    assert layers.value("card", "points") == 2
    layers.modify("card", "points", "+=", 1, continuous=True, source="a", key="k")
    layers.replace_source("a", [("card", "points", "=", 2)])    # drops the added +1
    assert layers.value("card", "points") == 2
    layers.remove_source("a")
    layers.replace_source("a", [("card", "points", "=", 2)])
    assert layers.value("card", "points") == 2


def test_a_replace_leaves_values_as_they_are_only_when_each_already_ends_with_its_mods():
    """replace_source with the same mods over two values: a value where another source's
    modifier came after moves the source's behind it; a value the new mods leave out drops
    them; a value the source did not modify gets them."""
    layers = Layers()
    for obj in ("x", "y", "z"):
        layers.set_base(obj, "points", 5)
    layers.replace_source("a", [("x", "points", "=", 1), ("y", "points", "=", 1)])
    layers.replace_source("b", [("y", "points", "=", 3)])
    assert [layers.value(o, "points") for o in "xy"] == [1, 3]
    layers.replace_source("a", [("x", "points", "=", 1), ("y", "points", "=", 1)])
    assert [layers.value(o, "points") for o in "xy"] == [1, 1]      # a behind b on y
    layers.replace_source("a", [("x", "points", "=", 1), ("y", "points", "=", 1)])
    assert [layers.value(o, "points") for o in "xy"] == [1, 1]      # nothing to change
    layers.replace_source("a", [("x", "points", "=", 1)])
    assert [layers.value(o, "points") for o in "xyz"] == [1, 3, 5]  # a's y dropped
    layers.replace_source("a", [("x", "points", "=", 1), ("z", "points", "=", 2)])
    assert [layers.value(o, "points") for o in "xyz"] == [1, 3, 2]  # z given a's


def test_a_value_with_one_shot_modifications_only_holds_no_source_of_a_replace():
    """A one-shot modification is no continuous source's: replacing a source with what it
    placed changes nothing beside it (a value modified by a one-shot set only is skipped),
    and a source's new mod on that value goes on top of the set."""
    zeroes = []
    layers = Layers(lambda obj, attr: zeroes.append(obj))
    for obj in ("x", "y"):
        layers.set_base(obj, "points", 5)
    layers.modify("x", "points", "=", 2)
    layers.replace_source("a", [("y", "points", "-=", 5)])
    assert zeroes == ["y"]
    layers.replace_source("a", [("y", "points", "-=", 5)])      # held already: no settle
    assert zeroes == ["y"] and [layers.value(o, "points") for o in "xy"] == [2, 0]
    layers.replace_source("a", [("y", "points", "-=", 5), ("x", "points", "-=", 2)])
    assert zeroes == ["y", "x"] and [layers.value(o, "points") for o in "xy"] == [0, 0]


def test_modified_lists_the_modified_values_in_the_order_they_were_made():
    """What a Crawl trial copy copies (snapshot._share_layers): the order of the values is the
    order a replace_source settles them in, so it must be the layers' own."""
    layers = Layers()
    for obj in "abcd":
        layers.set_base(obj, "points", 3)
    layers.modify("c", "points", "+=", 1)
    layers.replace_source("s", [("d", "points", "+=", 1), ("a", "points", "-=", 1)])
    assert [k for k, _ in layers.modified()] == [("a", "points"), ("c", "points"), ("d", "points")]
    layers.clear("c")
    layers.forget("a")
    layers.set_base("a", "points", 2)           # made again: now the last value
    layers.modify("a", "points", "+=", 1)
    assert [k for k, _ in layers.modified()] == [("d", "points"), ("a", "points")]
    assert list(layers._slots) == [("b", "points"), ("c", "points"), ("d", "points"), ("a", "points")]
