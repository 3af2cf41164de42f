"""serve.py: the page URLs it answers are app.py's pages, with the server's address set before the bundle."""

import re

import serve


def test_every_page_of_app_py_is_answered():
    app_source = serve.ENTRY.read_text(encoding="utf-8")
    assert serve.page_paths() == ("home", "persona", "trigger", "kappa", "judge", "gnss", "room")
    assert len(serve.page_paths()) == app_source.count("st.Page(")
    assert {route.path for route in serve.app._user_routes} == {f"/{path}" for path in serve.page_paths()}


def test_the_backend_address_is_set_before_streamlit_s_bundle_loads():
    html = serve.index_html()
    setting = html.index("window.__streamlit")
    bundle = re.search(r'<script type="module"[^>]*src="\./static/js/index\.', html).start()
    assert setting < bundle
