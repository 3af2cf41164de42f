"""Presentation mode in a real browser at 1280 px (docs/README.md#presentation): axis text of 20 px at
least, tables never cut or scrolled sideways, sidebar folded; the mode kept across page and language
switches; off, today's sizes."""

from tests.test_browser import PAGES, _wait_until_idle
from tests.test_browser_figures import SIZES

WIDTH = 1280
#: Axis ticks and titles, and legends, by their SVG classes in a plotly figure.
AXIS_TEXTS = {"tick": ".xtick text, .ytick text", "axis title": ".g-xtitle text, .g-ytitle text",
              "legend": ".legendtext"}
#: Every results table drawn (a grid or an HTML table), with how much wider its content is than its box (0
#: when nothing is cut or scrolled): Streamlit's grid scrolls inside `.dvn-scroller`, an HTML table inside the
#: element's first child. Editors (cells not read-only) are left out: their long cells are cut by design and
#: open whole on a click, and the judge's nine columns of cases to type scroll sideways.
OVERFLOWS = """() => Array.from(document.querySelectorAll('[data-testid="stDataFrame"], [data-testid="stTable"]'))
  .filter(e => e.offsetParent !== null && !e.querySelector('td[aria-readonly="false"]'))
  .map(e => { const box = e.querySelector('.dvn-scroller') || e.firstElementChild;
              const heads = Array.from(e.querySelectorAll('thead th')).map(h => h.textContent).join(' | ');
              return [e.dataset.testid, heads.slice(0, 80), box.scrollWidth - box.clientWidth]; })"""
ROOT_FONT = "() => getComputedStyle(document.documentElement).fontSize"


def _open_all_expanders(page) -> None:
    """Tables inside folded expanders are laid out only once opened."""
    folded = page.locator('[data-testid="stExpander"] details:not([open]) > summary')
    for _ in range(folded.count()):
        folded.first.click()
    page.wait_for_timeout(500)


def _measure(page, app_url: str, name: str, query: str) -> tuple[list, list, str]:
    page.goto(f"{app_url}/{'' if name == 'home' else name}{query}")
    _wait_until_idle(page, 2)
    _open_all_expanders(page)
    return page.evaluate(SIZES, AXIS_TEXTS), page.evaluate(OVERFLOWS), page.evaluate(ROOT_FONT)


def test_in_presentation_mode_every_page_has_20_px_axis_text_and_no_table_cut_at_1280_px(app_url, chromium):
    page = chromium.new_page(viewport={"width": WIDTH, "height": 20000})  # tall: every figure is drawn at once
    small, cut, fonts, seen, tables = [], [], set(), 0, 0
    for name in PAGES:
        sizes, overflows, root = _measure(page, app_url, name, "?present=1")
        fonts.add(root)
        seen += len(sizes)
        tables += len(overflows)
        small += [(name, *size) for size in sizes if size[3] < 20]
        cut += [(name, *overflow) for overflow in overflows if overflow[2] > 0]
        assert page.get_by_test_id("stSidebar").bounding_box()["width"] == 0, f"sidebar open on {name}"
    page.close()
    assert seen > 100 and tables > 10, "the figures or tables were not drawn"
    assert fonts == {"20px"}
    assert not small, small[:10]
    assert not cut, cut


def test_off_every_page_keeps_todays_sizes_and_no_table_is_cut_at_1280_px(app_url, chromium):
    page = chromium.new_page(viewport={"width": WIDTH, "height": 20000})
    sizes_seen, cut, fonts = set(), [], set()
    for name in PAGES:
        sizes, overflows, root = _measure(page, app_url, name, "")
        fonts.add(root)
        sizes_seen |= {size[3] for size in sizes}
        cut += [(name, *overflow) for overflow in overflows if overflow[2] > 0]
        assert page.get_by_test_id("stSidebar").bounding_box()["width"] > 0, f"sidebar folded on {name}"
    page.close()
    assert fonts == {"16px"} and sizes_seen == {16.0}  # Streamlit's type, and the figures' 16 px of before
    assert not cut, cut


def test_the_switch_is_kept_across_page_and_language_switches_and_written_in_the_url(app_url, chromium):
    page = chromium.new_page(viewport={"width": WIDTH, "height": 1200})
    page.goto(f"{app_url}/")
    _wait_until_idle(page)
    sidebar = page.get_by_test_id("stSidebar")
    sidebar.get_by_text("Mode présentation", exact=True).click()
    _wait_until_idle(page)
    assert page.url.endswith("/?present=1") and page.evaluate(ROOT_FONT) == "20px"
    assert sidebar.bounding_box()["width"] == 0  # folded
    page.get_by_test_id("stExpandSidebarButton").click()
    page.locator('[data-testid="stSidebarNav"] a[href$="/kappa"]').first.click()
    _wait_until_idle(page)
    sidebar.get_by_text("English", exact=True).click()
    _wait_until_idle(page)
    assert page.url.endswith("/kappa?present=1") and page.evaluate(ROOT_FONT) == "20px"
    sidebar.get_by_text("Presentation mode", exact=True).click()
    _wait_until_idle(page)
    assert page.url.endswith("/kappa") and page.evaluate(ROOT_FONT) == "16px"
    page.close()
