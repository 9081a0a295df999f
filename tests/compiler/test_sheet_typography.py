"""Typography of the sheets as printed: the right CJK face per script (pdffonts), headers that
do not break inside a word, and the HTML opened in a real browser (headless Chromium) and the
PDF rasterised (pdftoppm), both looked at as images. Bounded: a few pages, not every sheet."""
from __future__ import annotations

import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import pipeline, sheets

REPO = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--hide-scrollbars"]


def compile_game(game_id: str):
    reporter = dg.Reporter()
    game = pipeline.compile_game(REPO / "content" / game_id, [], reporter)
    assert game is not None and not reporter.errors, dg.format_text(reporter)
    return game


def sheet(game_id: str, name: str):
    return next(s for s in sheets.SHEETS[game_id] if s.name == name)


def need(tool: str, package: str):
    if not shutil.which(tool):
        pytest.skip(f"{tool} is not installed (Debian package {package}; "
                    "scripts/install-system-deps installs it)")


def fonts_of(pdf: Path) -> str:
    need("pdffonts", "poppler-utils")
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    return out.replace("-", "").replace(" ", "")


@pytest.mark.parametrize("game_id, name, face, other", [
    ("clank_catacombs", "tokens", "NotoSansCJKSC", "NotoSansCJKTC"),        # Simplified rulebook
    ("deep_rock_galactic", "statuses", "NotoSansCJKSC", "NotoSansCJKTC"),
    ("the_cave", "tokens", "NotoSansCJKTC", "NotoSansCJKSC"),               # Traditional rulebook
])
def test_zh_sheets_embed_the_face_of_their_script(tmp_path, game_id, name, face, other):
    game = compile_game(game_id)
    html = sheets.render_html(game, sheet(game_id, name), "zh")
    expected = "zh-Hans" if game.vocab.script == "hans" else "zh-Hant"
    assert f'<html lang="{expected}">' in html
    pdf = tmp_path / "sheet.pdf"
    sheets.write_pdf(html, pdf, max_pages=1)
    fonts = fonts_of(pdf)
    assert face in fonts and other not in fonts, fonts


def test_headers_do_not_break_inside_a_word(tmp_path):
    """DRG's monster board has narrow columns: 顺序 and 生命值 stay whole."""
    need("pdftotext", "poppler-utils")
    game = compile_game("deep_rock_galactic")
    pdf = tmp_path / "monsters.pdf"
    sheets.write_pdf(sheets.render_html(game, sheet("deep_rock_galactic", "monsters"), "zh"), pdf,
                     max_pages=1)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    for header in ("顺序", "生命值", "射程", "攻击骰"):
        assert header in text, header


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def _ink(path: Path) -> float:
    """Share of non-white bytes in the PNG's pixel data (compressed): 0 for a blank page."""
    import zlib
    data = path.read_bytes()
    chunks, pos = [], 8
    while pos < len(data):
        length = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            chunks.append(data[pos + 8:pos + 8 + length])
        pos += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    return sum(1 for b in raw[::7] if b < 200) / max(1, len(raw[::7]))


def test_the_pdf_rasterises_with_ink_on_it(tmp_path):
    need("pdftoppm", "poppler-utils")
    game = compile_game("dungeontology")
    pdf = tmp_path / "symbols.pdf"
    sheets.write_pdf(sheets.render_html(game, sheet("dungeontology", "symbols"), "zh"), pdf,
                     max_pages=1)
    subprocess.run(["pdftoppm", "-r", "50", "-png", "-f", "1", "-l", "1", str(pdf),
                    str(tmp_path / "page")], check=True, timeout=60)
    png = next(tmp_path.glob("page*.png"))
    width, height = _png_size(png)
    assert (width, height) == (414, 585)                    # A4 at 50 dpi, portrait
    assert _ink(png) > 0.005


def test_chromium_opens_the_html_and_screenshots_it(tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("chromium is not installed (Debian package chromium; "
                    "scripts/install-system-deps installs it)")
    game = compile_game("clank_catacombs")
    html = tmp_path / "tokens.zh.html"
    html.write_text(sheets.render_html(game, sheet("clank_catacombs", "tokens"), "zh"),
                    encoding="utf-8")
    png = tmp_path / "shot.png"
    subprocess.run([browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                    "--window-size=900,1200", f"--screenshot={png}", html.as_uri()],
                   capture_output=True, timeout=120, check=True)
    assert png.is_file(), "chromium wrote no screenshot"
    assert _png_size(png) == (900, 1200)
    assert _ink(png) > 0.005, "the screenshot is blank"
