"""The participant's card, in English and in French, prints on one A4 page, as text alone (docs/print.css): the site built, the page printed to
PDF by headless Chromium."""

import re
from pathlib import Path

import pytest

from playwright.sync_api import sync_playwright

from tests.test_browser import CHROMIUM, CHROMIUM_ARGS
from tests.test_docs_site import ROOT, _build

#: What the site draws around a page's text (header, navigation, table of contents, footer).
CHROME = ".md-header, .md-sidebar, .md-footer"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The docs site, built once for this module."""
    folder = tmp_path_factory.mktemp("docs") / "site"
    built = _build(ROOT / "mkdocs.yml", folder)
    assert built.returncode == 0, built.stdout + built.stderr
    return folder


@pytest.mark.parametrize("name, headings", [("participant", ("Join the room", "Submit to the room")),
                                            ("participant-fr", ("Rejoindre la salle", "Soumettre à la salle"))])
def test_the_participant_s_card_prints_on_one_a4_page_without_the_site_around_it(site, name, headings):
    card = site / f"{name}.html"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(card.as_uri())
        on_screen = page.locator(CHROME).evaluate_all("els => els.filter(e => e.offsetParent !== null).length")
        page.emulate_media(media="print")
        printed = page.locator(CHROME).evaluate_all("els => els.filter(e => e.offsetParent !== null).length")
        text = page.locator("article").inner_text()
        pdf = page.pdf(format="A4")
        browser.close()
    assert on_screen > 0 and printed == 0, "the site's header, navigation and footer are not printed"
    assert all(heading in text for heading in headings)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages == 1, f"the card prints on {pages} pages"


def test_counting_pages_finds_a_two_page_print(tmp_path):
    # The count above reads PDF page objects: a page twice as long prints on two.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.set_content("<p>one</p><p style='break-before: page'>two</p>")
        pdf = page.pdf(format="A4")
        browser.close()
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2
