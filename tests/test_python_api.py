"""The README's Python API example runs, on the README's own example pack, and that pack
checks clean (the README never shows a pack that fails)."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from tomecraft.compiler import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    start = README.index(title)
    end = README.find("\n## ", start + len(title))
    nxt = README.find("\n### ", start + len(title))
    ends = [e for e in (end, nxt) if e != -1]
    return README[start:min(ends) if ends else None]


def write_readme_pack(folder: Path) -> Path:
    """mud_caves/ from the YAML blocks of the README's Packs section (`# mud_caves/<file>`)."""
    for block in re.findall(r"```yaml\n(.*?)```", section("### Packs"), flags=re.S):
        first = block.splitlines()[0]
        match = re.match(r"# (mud_caves/[\w.]+)", first)
        assert match, f"a Packs example must start with `# mud_caves/<file>`: {first!r}"
        path = folder / match.group(1)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(block, encoding="utf-8")
    return folder / "mud_caves"


def test_the_readme_example_pack_checks_clean(tmp_path, capsys):
    pack = write_readme_pack(tmp_path)
    assert cli.main(["check", str(pack)]) == 0
    assert capsys.readouterr().out.strip() == "0 errors, 0 warnings"


def test_the_python_api_example_plays_the_pack_with_the_readers_agent(tmp_path, monkeypatch):
    write_readme_pack(tmp_path)
    code = re.search(r"```python\n(.*?)```", section("## Python API"), flags=re.S).group(1)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOMECRAFT_CACHE", str(tmp_path / "cache"))
    namespace: dict = {"__name__": "readme_example"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md (Python API)", "exec"), namespace)
    game, agents, result = namespace["game"], namespace["agents"], namespace["result"]
    tiles = game.kinds["tile"]
    assert "s1_mud_ns" in tiles and "s1_normal_ns" not in tiles  # the pack was loaded
    assert len(result["scores"]) == 3 and result["rounds"] >= 1
    assert all(sum(agent.asked.values()) > 0 for agent in agents)  # the reader's agents played
    assert str(result["scores"]) in out.getvalue()
    again: dict = {"__name__": "readme_example"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, "README.md (Python API)", "exec"), again)
    assert again["result"] == result  # same seeds, same game


def test_content_errors_raise_with_every_diagnostic(tmp_path, monkeypatch):
    from tomecraft.compiler.api import ContentError, load_game
    pack = write_readme_pack(tmp_path)
    (pack / "tiles.yaml").write_text((pack / "tiles.yaml").read_text(encoding="utf-8")
                                     .replace("count: 2", "count: 3"), encoding="utf-8")
    monkeypatch.setenv("TOMECRAFT_CACHE", str(tmp_path / "cache"))
    with pytest.raises(ContentError) as err:
        load_game("the_cave", packs=[pack])
    assert [d.code for d in err.value.diagnostics] == ["TC-G001"]


# --- what the API refuses, and how (a documented error, never one from deep in an engine) ----

class _Says:
    """An agent that answers every decision with `answer`."""

    def __init__(self, answer):
        self.answer = answer

    def choose(self, key, options, view=None):
        return self.answer


@pytest.mark.parametrize("game, seats", [("clank_catacombs", 2), ("dm_crawl_decks", 1),
                                         ("deep_rock_galactic", 2), ("dungeontology", 2)])
def test_an_answer_that_is_no_option_is_an_agent_error_naming_seat_and_decision(game, seats):
    # was a TypeError ("string indices must be integers") or, in Dungeontology, played on
    from tomecraft.compiler.api import AgentError, load_game, play_game
    with pytest.raises(AgentError, match=r"agent \d \(_Says\) answered 'nonsense' to '\w+'"):
        play_game(load_game(game), [_Says("nonsense") for _ in range(seats)], seed=3)
    assert issubclass(AgentError, ValueError)


def test_the_caves_free_equipment_answer_is_still_taken():
    from tomecraft.compiler.api import load_game, play_game

    class Loadout:      # a free-form loadout (not one of the options), then the first option
        def choose(self, key, options, view=None):
            if key == "loadout":
                return {"backpack": {"consumable": 8}}
            return list(options)[0]
    result = play_game(load_game("the_cave"), [Loadout(), Loadout()], seed=2)
    assert len(result["scores"]) == 2


def test_one_pack_folder_given_alone_is_one_pack(tmp_path, monkeypatch):
    # `packs="mud_caves"` was read as 9 packs, one per character (18 diagnostics)
    from tomecraft.compiler.api import load_game
    pack = write_readme_pack(tmp_path)
    monkeypatch.setenv("TOMECRAFT_CACHE", str(tmp_path / "cache"))
    for packs in (str(pack), pack):
        assert "s1_mud_ns" in load_game("the_cave", packs=packs).kinds["tile"]


def test_what_play_game_refuses_before_playing():
    from tomecraft.compiler.api import load_game, play_game
    with pytest.raises(ValueError, match="unknown game 'the_caev'"):     # was UsageError,
        load_game("the_caev")                                             # not exported
    with pytest.raises(ValueError, match=r"dm_crawl_decks is for 1 player$"):  # "1-1 players"
        play_game(load_game("dm_crawl_decks"), [_Says(None), _Says(None)])
    with pytest.raises(TypeError, match="agent 2 .* has no choose"):           # AttributeError
        play_game(load_game("the_cave"), [_Says(None), object()])
    with pytest.raises(TypeError, match="what load_game returns"):              # AttributeError
        play_game("the_cave", [_Says(None), _Says(None)])
    with pytest.raises(ValueError, match="no hazard level 9"):         # an option it refuses
        play_game(load_game("deep_rock_galactic"), [_Says(None)], options={"hazard": 9})
