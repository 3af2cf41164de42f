"""What a participant reads in the figures, in a real browser at 1280 px (docs/README.md#presentation).

Every legend, tick label, axis title and annotation of every figure is drawn at 16 px at least (Streamlit's
chart theme wrote legends in 12 px), and in French the date axes name the months in French.
"""

from pathlib import Path

import pytest

from tests.test_browser import PAGES, _wait_until_idle

DATA = Path(__file__).resolve().parent / "data" / "gnss"
MIN_PX = 16
#: Texts of a plotly figure a reader must read, by their SVG classes.
READ_TEXTS = {"legend": ".legendtext", "tick": ".xtick text, .ytick text", "axis title": ".g-xtitle text, .g-ytitle text",
              "annotation": ".annotation-text"}
SIZES = """(selectors) => Array.from(document.querySelectorAll('.js-plotly-plot')).flatMap(plot => {
  const title = (plot.querySelector('.gtitle') || {}).textContent || '?';
  return Object.entries(selectors).flatMap(([kind, selector]) => Array.from(plot.querySelectorAll(selector))
    .map(e => [title, kind, e.textContent, parseFloat(getComputedStyle(e).fontSize)]));
})"""
ENGLISH_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _open(page, app_url: str, name: str, lang: str) -> None:
    page.goto(f"{app_url}/")
    _wait_until_idle(page)
    if lang == "en":
        page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
        _wait_until_idle(page)
    suffix = "/" if name == "home" else f"/{name}"
    page.locator(f'[data-testid="stSidebarNav"] a[href$="{suffix}"]').first.click()
    _wait_until_idle(page, 2)




def test_every_figure_text_is_drawn_at_16_px_at_least(app_url, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 20000})  # tall: every figure is drawn at once
    small, seen = [], 0
    for name in PAGES:
        _open(page, app_url, name, "fr")
        sizes = page.evaluate(SIZES, READ_TEXTS)
        seen += len(sizes)
        small += [(name, *size) for size in sizes if size[3] < MIN_PX]
    page.close()
    assert seen > 100, "the figures were not drawn"
    assert not small, small[:10]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_date_axes_name_the_months_in_the_sessions_language(app_url, browser, lang):
    page = browser.new_page(viewport={"width": 1280, "height": 20000})
    _open(page, app_url, "gnss", lang)
    page.locator('.st-key-gnss_upload input[type="file"]').set_input_files(str(DATA / "STA4.csv"))  # the station's, not a run's
    _wait_until_idle(page, 2)
    ticks = [text for _, kind, text, _ in page.evaluate(SIZES, {"tick": ".xtick text"}) if "2020" in text]
    page.close()
    assert ticks, "the station figure has no date ticks"
    english = [t for t in ticks if any(month in t for month in ENGLISH_MONTHS)]
    if lang == "fr":
        assert not english and any("janv." in t for t in ticks), ticks
    else:
        assert english, ticks
