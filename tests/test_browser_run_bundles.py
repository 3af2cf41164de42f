"""A page's run downloaded through its button loads back into the page in a fresh session, in Chromium,
and the page shows the same figures (docs/README.md#take-home).

Each page is first moved off its defaults (another recorded source, other settings), so that the fresh
session, which starts from the defaults, can only show those figures by loading the file.
"""

import re
from pathlib import Path

import pytest

from tests.test_browser import _wait_until_idle
from ui.i18n import catalogue
TEXTS = catalogue()

GNSS_DATA = Path(__file__).resolve().parent / "data" / "gnss"

FIGURES = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const texts = Array.from(main.querySelectorAll(
    '[data-testid="stMarkdownContainer"], [data-testid="stMetricValue"], [data-testid="stCode"], .js-plotly-plot text'))
    .map(e => e.textContent.trim()).filter(t => /[0-9]/.test(t));
  return texts;
}"""


def _open(page, app_url: str, name: str) -> None:
    page.goto(f"{app_url}/{name}")
    _wait_until_idle(page, 2)


def _pick(page, label_pattern: str, option_pattern: str) -> None:
    page.get_by_test_id("stMain").get_by_test_id("stSelectbox").filter(
        has_text=re.compile(label_pattern)).first.click()
    page.get_by_role("option", name=re.compile(option_pattern)).first.click()
    _wait_until_idle(page, 2)


def _off_defaults_trigger(page) -> None:
    _pick(page, "Réponses rejouées", "strong-router")


def _off_defaults_judge(page) -> None:
    page.get_by_test_id("stMain").get_by_text("Masquer les présentations avant de noter").click()
    _wait_until_idle(page, 3)


def _off_defaults_gnss(page) -> None:
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').last.set_input_files(str(GNSS_DATA / "STA4.csv"))
    _wait_until_idle(page, 3)
    thumb = page.get_by_test_id("stMain").get_by_role("slider").first
    thumb.focus()
    for _ in range(3):
        thumb.press("ArrowRight")
    _wait_until_idle(page, 3)


OFF_DEFAULTS = {"trigger": _off_defaults_trigger, "judge": _off_defaults_judge, "gnss": _off_defaults_gnss}
#: Texts the original session shows and a loaded run does not (which recorded source the page replays:
#: a loaded run replays its own answers), and the loaded run's banner.
NOT_FIGURES = re.compile(r"Cette page montre le run chargé|rejoue|Réponses rejouées|enregistr")


def _figures(page) -> list[str]:
    return [text for text in page.evaluate(FIGURES) if not NOT_FIGURES.search(text)]




@pytest.mark.parametrize("name", sorted(OFF_DEFAULTS))
def test_a_downloaded_run_loads_back_in_a_fresh_session_with_the_same_figures(app_url, browser, name, tmp_path):
    first = browser.new_context(viewport={"width": 1400, "height": 20000}, accept_downloads=True)
    page = first.new_page()
    _open(page, app_url, name)
    default_figures = _figures(page)
    OFF_DEFAULTS[name](page)
    shown = _figures(page)
    assert shown != default_figures, "the page did not move off its defaults"
    with page.expect_download() as info:
        page.get_by_role("button", name=TEXTS["run_bundles.download"]["fr"]).click()
    path = tmp_path / f"{name}-run.json"
    info.value.save_as(path)
    first.close()

    fresh = browser.new_context(viewport={"width": 1400, "height": 20000})
    page = fresh.new_page()
    _open(page, app_url, name)
    assert _figures(page) == default_figures
    page.get_by_test_id("stFileUploader").filter(has_text=TEXTS["run_bundles.upload"]["fr"]).locator(
        'input[type="file"]').set_input_files(str(path))
    _wait_until_idle(page, 3)
    assert page.get_by_text("Cette page montre le run chargé").count() == 1
    assert not page.get_by_test_id("stException").count()
    assert _figures(page) == shown
    fresh.close()
