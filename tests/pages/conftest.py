from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def open_page():
    """Run the app offline in a language and switch to a page; returns the AppTest."""

    def _open(page: str | None, lang: str = "fr", **state) -> AppTest:
        at = AppTest.from_file(ROOT, default_timeout=60)
        at.session_state["lang"] = lang
        for key, value in state.items():
            at.session_state[key] = value
        at.run()
        if page is not None:
            at.switch_page(page).run()
        return at

    return _open
