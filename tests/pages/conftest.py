from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from evallib.packs.loader import builtin_packs

ROOT = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def open_page():
    """Run the app offline in a language and switch to a page; returns the AppTest.

    ``pack``: the built-in pack chosen in the sidebar, by default the French one, whose files the tests
    compute their expected figures from (in either language); None leaves the session's language's pack
    (tests/pages/test_english_pages.py covers the English one).
    """

    def _open(page: str | None, lang: str = "fr", pack: str | None = "fr", **state) -> AppTest:
        at = AppTest.from_file(ROOT, default_timeout=60)
        at.session_state["lang"] = lang
        if pack is not None:
            at.session_state["pack_choice"] = str(builtin_packs()[pack])
        for key, value in state.items():
            at.session_state[key] = value
        at.run()
        if page is not None:
            at.switch_page(page).run()
        return at

    return _open
