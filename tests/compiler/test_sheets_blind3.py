"""What a player reading the printed sheets found, blind test round 3 (2026-11-28): numbers
without their unit, phrases a person would not write, facts the sheet contradicts."""
from __future__ import annotations

from tests.compiler.test_sheets_blind import _text, drg  # noqa: F401 (fixtures)


def test_drg_warden_field_says_its_range_in_spaces(drg):
    """The Warden read 'other monsters within 3 take 2 less damage': 3 what? (zh says 3格)."""
    text = _text(drg, "monsters", "en")
    assert "other monsters within 3 spaces take 2 less damage per attack" in text
