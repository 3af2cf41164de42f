"""The persona and kappa pages' runs, downloaded through their button, load back in a fresh Chromium session
with the same figures; a run bundle written by the command line opens in its page with the command's
figures; a bundle of another page is refused in words and changes nothing (docs/README.md#take-home).

Each page is first moved off its defaults, so that the fresh session, which starts from the defaults, can
only show those figures by loading the file. The figures compared are every text of the page's main part
holding a digit (`tests.test_browser_run_bundles`).
"""

import json

import pytest

from evallib.__main__ import main
from evallib.persona.catalogue import DEFAULT_CATALOGUE
from tests.test_browser_run_bundles import _figures, _open
from tests.test_browser import _wait_until_idle
from ui.i18n import catalogue
KAPPA = catalogue()
from ui.i18n import catalogue
PERSONA = catalogue()
from ui.i18n import catalogue
TEXTS = catalogue()

LOADED = "Cette page montre le run chargé"


def _upload(page, label: str, path) -> None:
    page.get_by_test_id("stFileUploader").filter(has_text=label).locator('input[type="file"]').set_input_files(str(path))
    _wait_until_idle(page, 3)


def _download(page, path) -> None:
    with page.expect_download() as info:
        page.get_by_role("button", name=TEXTS["run_bundles.download"]["fr"]).click()
    info.value.save_as(path)


def _click_text(page, text: str) -> None:
    page.get_by_test_id("stMain").get_by_text(text, exact=True).first.click()
    _wait_until_idle(page, 2)


def _persona_off_defaults(page, tmp_path) -> None:
    """Five of the six assistants, from a catalogue file: their recorded answers, other figures."""
    data = json.loads(DEFAULT_CATALOGUE.read_text(encoding="utf-8"))
    data["assistants"] = data["assistants"][:5]
    (tmp_path / "five.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    _upload(page, PERSONA["persona.upload"]["fr"], tmp_path / "five.json")


def _kappa_typed_off_defaults(page, tmp_path) -> None:
    _click_text(page, KAPPA["kappa.preset.judge_scores"]["fr"])
    _click_text(page, KAPPA["kappa.weights.quadratic"]["fr"])
    _click_text(page, KAPPA["kappa.ci_method.bootstrap"]["fr"])


def _kappa_file_off_defaults(page, tmp_path) -> None:
    _click_text(page, KAPPA["kappa.source.csv"]["fr"])
    page.get_by_role("button", name=KAPPA["kappa.csv_use_example"]["fr"]).click()
    _wait_until_idle(page, 2)
    _click_text(page, KAPPA["kappa.level.ordinal"]["fr"])


CASES = {"persona": ("persona", _persona_off_defaults), "kappa-typed": ("kappa", _kappa_typed_off_defaults),
         "kappa-file": ("kappa", _kappa_file_off_defaults)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_downloaded_run_loads_back_in_a_fresh_session_with_the_same_figures(app_url, browser, case, tmp_path):
    name, off_defaults = CASES[case]
    first = browser.new_context(viewport={"width": 1400, "height": 20000}, accept_downloads=True)
    page = first.new_page()
    _open(page, app_url, name)
    default_figures = _figures(page)
    off_defaults(page, tmp_path)
    shown = _figures(page)
    assert shown != default_figures, "the page did not move off its defaults"
    _download(page, tmp_path / "run.json")
    first.close()

    fresh = browser.new_context(viewport={"width": 1400, "height": 20000})
    page = fresh.new_page()
    _open(page, app_url, name)
    assert _figures(page) == default_figures
    _upload(page, TEXTS["run_bundles.upload"]["fr"], tmp_path / "run.json")
    assert page.get_by_text(LOADED).count() == 1
    assert not page.get_by_test_id("stException").count()
    assert _figures(page) == shown
    fresh.close()


def _french(value: float) -> str:
    return f"{value:.2f}".replace(".", ",").replace("-", "\u2212")


@pytest.mark.usefixtures("live_env")
def test_command_line_bundles_open_in_their_pages_with_the_command_figures(app_url, browser, server, tmp_path):
    """Persona answered live by a fake model (answers no recording holds), kappa from a CSV file."""
    assert main(["persona", "--live", "fake-ok", "--base-url", server.openai_base_url, "--out", str(tmp_path),
                 "--retries", "0"]) == 0
    (tmp_path / "r.csv").write_text("a,b,c\n1,1,0\n0,0,0\n1,0,1\n1,1,1\n0,0,1\n1,1,1\n", encoding="utf-8")
    assert main(["kappa", str(tmp_path / "r.csv"), "--pair", "a,c", "--out", str(tmp_path)]) == 0
    context = browser.new_context(viewport={"width": 1400, "height": 20000})
    page = context.new_page()
    for name, pattern, figure in (("persona", "persona-*.json", ("discriminability", "accuracy")),
                                  ("kappa", "kappa-*.json", ("pair", "result", "kappa"))):
        [path] = tmp_path.glob(pattern)
        report = json.loads(path.read_text(encoding="utf-8"))["report"]
        for key in figure:
            report = report[key]
        _open(page, app_url, name)
        before = _figures(page)
        _upload(page, TEXTS["run_bundles.upload"]["fr"], path)
        assert page.get_by_text(LOADED).count() == 1 and not page.get_by_test_id("stException").count()
        after = _figures(page)
        assert after != before and _french(report) in page.get_by_test_id("stMetricValue").all_inner_texts()
    context.close()


def test_a_bundle_of_another_page_is_refused_in_words_and_changes_nothing(app_url, browser, tmp_path):
    (tmp_path / "r.csv").write_text("a,b\n1,1\n0,1\n1,1\n", encoding="utf-8")
    assert main(["kappa", str(tmp_path / "r.csv"), "--out", str(tmp_path)]) == 0
    [path] = tmp_path.glob("kappa-*.json")
    context = browser.new_context(viewport={"width": 1400, "height": 20000})
    page = context.new_page()
    _open(page, app_url, "persona")
    before = _figures(page)
    _upload(page, TEXTS["run_bundles.upload"]["fr"], path)
    assert page.get_by_test_id("stAlert").filter(has_text="n'a pas été chargé").count() == 1
    assert page.get_by_text(LOADED).count() == 0 and not page.get_by_test_id("stException").count()
    assert _figures(page) == before
    path.write_bytes(path.read_bytes()[:200])
    _open(page, app_url, "kappa")
    before = _figures(page)
    _upload(page, TEXTS["run_bundles.upload"]["fr"], path)
    assert page.get_by_test_id("stAlert").filter(has_text="ce n'est pas du JSON").count() == 1
    assert _figures(page) == before
    context.close()
