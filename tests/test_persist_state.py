"""Every keyed widget of the app passes ``persist_state="session"`` (docs/README.md#streamlit).

Streamlit keeps such a widget's value when a run does not draw it (another page opened, an error above
it); a keyed widget without it would lose what the user typed on coming back, since `ui.shell` no
longer copies values by hand. Read from the source (ast): every call of a value widget with ``key=``.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDGETS = {"checkbox", "toggle", "radio", "selectbox", "multiselect", "slider", "select_slider", "number_input",
           "text_input", "text_area", "segmented_control", "pills"}


def _keyed_calls():
    for path in sorted([ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WIDGETS
                    and any(k.arg == "key" for k in node.keywords)):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", node


def test_the_app_has_keyed_widgets_to_check():
    assert len(list(_keyed_calls())) >= 50


def test_every_keyed_widget_persists_its_value_for_the_session():
    missing = [where for where, node in _keyed_calls()
               if not any(k.arg == "persist_state" and isinstance(k.value, ast.Constant) and k.value.value == "session"
                          for k in node.keywords)]
    assert missing == []
