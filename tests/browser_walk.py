"""A seeded walk of clicks in Chromium over the app (docs/README.md#robustness).

`Walk` discovers what the page offers at each step (number inputs, radios, toggles, selects,
sliders, expanders, tabs, buttons, table cells, text areas, text inputs, another page, the other
language, live against the fake server and back offline), does one thing chosen by its seeded
generator, waits until the script has finished, and fails on an exception box, a traceback in the
server's log, a sidebar gone, or a language or mode that changed by itself, listing the steps done.
Used by tests/test_random_walk.py (random walks) and tests/test_browser_sequences.py (set sequences),
with the fixtures `logged_app`, `chromium` and `server` of tests/conftest.py.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.conftest import FAKE_KEY as KEY, WALK_INSTRUCTOR_TOKEN
from tests.test_browser import PAGES, ROOT
from ui.i18n import catalogue

#: Models a walk may pick live: they answer at once, fail at once, or answer oddly (never hang long).
LIVE_MODELS = ("fake-ok", "fake-ok", "fake-500", "fake-empty", "fake-malformed", "fake-think", "fake-tools",
               "fake-length", "no-such-model")
#: Texts a walk types into a model or free text field (the Room page's instructor token among them).
TYPED = ("", "fake-ok", "fake-embed", "no-such-model", "x y", "  ", WALK_INSTRUCTOR_TOKEN)
#: What a walk appends to or puts in a text area or a table cell: a word, a placeholder no template
#: knows, a lone brace, a number out of any scale.
INSERTS = (" encore", " {inconnu}", " {", " 99", "\n", " ; 3")
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
BUSY = '[data-testid="stSkeleton"], [inert]:not([data-testid="stExpanderDetails"]):not(noscript):not(#root)'
WIDGET_LABEL = """e => {
    const widget = e.closest('.stTextArea, .stSelectbox, .stRadio, .stSlider, .stCheckbox, .stNumberInput, '
                             + '.stTextInput, .stButton') || e;
    const label = widget.querySelector('[data-testid="stWidgetLabel"]');
    return (label || widget).innerText || '';
}"""


def _text(key: str, lang: str) -> str:
    return catalogue()[key][lang]


class Walk:
    """One seeded walk: the steps done so far, and the checks after each."""

    def __init__(self, page, url: str, log: Path, fake, home: str, lang: str, seed: int):
        self.page, self.url, self.log, self.fake = page, url, log, fake
        self.home, self.lang, self.rng = home, lang, random.Random(f"{home}-{lang}-{seed}")
        self.steps: list[str] = []
        self.log_seen = log.stat().st_size if log else 0
        self.originals: dict[tuple, str] = {}  # text areas and cells edited: their first text

    # ------------------------------------------------------------ waiting and checking

    def settle(self, quiet_s: float = 0.3, timeout_s: float = 120) -> None:
        """Wait until the script has finished and none has started for ``quiet_s``."""
        quiet_since, deadline = None, time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            idle = self.page.locator(IDLE).count() == 1 and self.page.locator(BUSY).count() == 0
            now = time.monotonic()
            quiet_since = (quiet_since or now) if idle else None
            if quiet_since is not None and now - quiet_since >= quiet_s:
                return
            self.page.wait_for_timeout(60)
        self.fail("the app did not finish its run")

    def check(self) -> None:
        new = self.log.read_text(errors="replace")[self.log_seen:]
        self.log_seen += len(new)
        if "Traceback" in new or "Uncaught app execution" in new:
            self.fail("traceback in the server log:\n" + new[-3000:])
        if self.page.locator('[data-testid="stException"]').count():
            text = self.page.locator('[data-testid="stException"]').first.inner_text()
            self.fail("exception on the page:\n" + text[:2000])
        if self.page.locator('[data-testid="stSidebar"] [data-testid="stRadio"]').count() < 2:
            self.fail("the sidebar's language and mode are gone")

    def fail(self, why: str) -> None:
        shot = ROOT / "screenshots" / "tmp" / f"random-walk-{self.home}-{self.lang}.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(shot), full_page=True)
        pytest.fail(f"{why}\nafter step {len(self.steps)} (screenshot {shot})\n" + "\n".join(self.steps), pytrace=False)

    # ------------------------------------------------------------ the page as it is now

    def visible(self, selector: str, scope: str = "") -> list:
        found = self.page.locator(f"{scope} {selector}".strip())
        return [found.nth(i) for i in range(found.count()) if found.nth(i).is_visible()]

    def language(self) -> str:
        checked = self.page.locator('[data-testid="stSidebar"] [data-testid="stRadio"]').first.locator("input:checked")
        return "en" if checked.count() and checked.first.evaluate("e => e.closest('label').innerText") == "English" \
            else "fr"

    def live(self) -> bool:
        """Whether the sidebar's mode is not the first (offline)."""
        mode = self.page.locator('[data-testid="stSidebar"] [data-testid="stRadio"]').nth(1).locator("input:checked")
        return mode.count() > 0 and mode.first.get_attribute("value") != "0"

    def actions(self) -> list[tuple[float, str, object]]:
        """(weight, kind, target) for every interaction the page offers now, in the page's order."""
        main = '[data-testid="stMain"]'
        found: list[tuple[float, str, object]] = []
        steppers = self.visible('[data-testid="stNumberInputStepUp"]:enabled, '
                                '[data-testid="stNumberInputStepDown"]:enabled')
        found += [(3 / max(len(steppers), 1), "number", s) for s in steppers]
        radios = self.visible('[data-testid="stRadio"]', main)
        found += [(3 / max(len(radios), 1), "radio", r) for r in radios]
        toggles = self.visible('[data-testid="stCheckbox"] label')
        found += [(2 / max(len(toggles), 1), "toggle", t) for t in toggles]
        selects = self.visible('[data-testid="stSelectbox"]', main)
        found += [(3 / max(len(selects), 1), "select", s) for s in selects]
        sliders = self.visible('[data-testid="stSlider"]')
        found += [(3 / max(len(sliders), 1), "slider", s.locator('input[type="range"]').first) for s in sliders]
        areas = self.visible('[data-testid="stTextArea"] textarea', main)
        found += [(3 / max(len(areas), 1), "text", a) for a in areas]
        grids = [g for g in self.visible('[data-testid="stDataFrame"]', main)
                 if g.locator('button[aria-label="Add row"]').count()]
        found += [(3 / max(len(grids), 1), "cell", g) for g in grids]
        inputs = self.visible('[data-testid="stTextInput"] input', main)
        found += [(1 / max(len(inputs), 1), "input", i) for i in inputs]
        buttons = self.visible('[data-testid="stButton"] button:enabled', main)
        found += [(1 / max(len(buttons), 1), "button", b) for b in buttons]
        expanders = self.visible('[data-testid="stExpander"] summary', main)
        found += [(2 / max(len(expanders), 1), "expander", e) for e in expanders]
        tabs = self.visible('[data-baseweb="tab"]', main)
        found += [(1 / max(len(tabs), 1), "tab", t) for t in tabs]
        found += [(1.5, "page", None), (1, "language", None), (1, "offline" if self.live() else "live", None)]
        if self.live():
            found += [(1, "model", None)]
        return found

    # ------------------------------------------------------------ one step

    def step(self) -> None:
        actions = self.actions()
        weight, kind, target = self.rng.choices(actions, weights=[a[0] for a in actions])[0]
        where = self.page.url.rsplit("/", 1)[-1] or "home"
        number = len(self.steps) + 1
        self.steps.append(f"{number:3d}. [{where}, {self.language()}] {kind}: ...")
        started, language, live = time.monotonic(), self.language(), self.live()
        if target is not None and target.evaluate("e => !!e.closest('[data-testid=\"stSidebar\"]')"):
            self._unfold_sidebar()  # a folded sidebar's widgets are still "visible", but out of the viewport
        described = getattr(self, f"_{kind}")(target)
        self.steps[-1] = self.steps[-1].replace("...", described)
        self.settle()
        print(f"{self.steps[-1]} ({time.monotonic() - started:.1f} s)", flush=True)
        self.check()
        # Only the language switch changes the language, only going live or offline the mode.
        if kind != "language" and self.language() != language:
            self.fail(f"the language went from {language} to {self.language()}")
        if kind not in ("live", "offline") and self.live() != live:
            self.fail(f"the mode went from {'live' if live else 'offline'} to {'live' if self.live() else 'offline'}")

    @staticmethod
    def _label(target) -> str:
        """The label of the widget holding ``target`` (its first line, shortened)."""
        text = target.evaluate(WIDGET_LABEL)
        return repr(text.strip().split("\n")[0][:50])

    def _number(self, target) -> str:
        # Read before the click: a step to the limit disables the stepper, which then matches no more.
        up = "StepUp" in (target.get_attribute("data-testid") or "")
        target.click()
        return "step " + ("up" if up else "down")

    def _radio(self, target) -> str:
        options = target.locator('[data-testid="stRadioOption"]')
        choice = self.rng.randrange(options.count())
        # Described before the click: the rerun it starts may redraw the radio (seed 7, judge-fr, step 39).
        described = f"{self._label(target)} -> option {choice + 1} {options.nth(choice).inner_text()!r}"
        options.nth(choice).click()
        return described

    def _toggle(self, target) -> str:
        target.click()
        return self._label(target)

    def _select(self, target) -> str:
        target.locator('button[aria-haspopup="listbox"]').click()
        options = self.page.locator('[role="option"]')
        try:
            options.first.wait_for(timeout=2000)
        except PlaywrightTimeout:
            pass
        if not options.count():
            self.page.keyboard.press("Escape")
            return f"{self._label(target)} -> no option"
        choice = self.rng.randrange(options.count())
        name = options.nth(choice).inner_text()
        options.nth(choice).click()
        return f"{self._label(target)} -> option {choice + 1} {name[:60]!r}"

    def _slider(self, target) -> str:
        key = self.rng.choice(("ArrowRight", "ArrowLeft", "ArrowRight ArrowRight", "Home", "End"))
        target.focus()
        for press in key.split():
            target.press(press)
        target.evaluate("e => e.blur()")
        return f"{self._label(target)} {key}"

    def _edit(self, text: str, key: tuple) -> tuple[str, str]:
        """A new text for a field holding ``text``: a word or a break added, a tail cut, or the first text back."""
        original = self.originals.setdefault(key, text)
        how = self.rng.choice(("insert", "insert", "cut", "clear", "restore", "restore"))
        if how == "restore" or (how == "cut" and not text):
            return original, "restore the first text"
        if how == "insert":
            insert = self.rng.choice(INSERTS)
            return text + insert, f"append {insert!r}"
        if how == "cut":
            cut = self.rng.randint(1, min(len(text), 12))
            return text[:-cut], f"cut the last {cut} characters"
        return "", "clear"

    def _text(self, target) -> str:
        key = (self.page.url, "area", self._label(target))
        new, how = self._edit(target.input_value(), key)
        target.fill(new)
        target.press("Control+Enter")
        target.evaluate("e => e.blur()")
        return f"{key[2]} {how}"

    def _cell(self, target) -> str:
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        rows = max(int((box["height"] - 35) // 35), 1)
        row = self.rng.randrange(rows)
        x = self.rng.randint(45, int(box["width"]) - 20)
        self.page.mouse.click(box["x"] + x, box["y"] + 35 + 35 * row + 17)
        self.page.wait_for_timeout(150)
        self.page.keyboard.press("Enter")
        editor = self.page.locator("#portal textarea")
        try:
            editor.first.wait_for(timeout=1500)
        except PlaywrightTimeout:
            pass
        try:  # a cell that opens no text editor (a list, a checkbox), or one a rerun just closed
            text = editor.first.input_value(timeout=2000)
        except PlaywrightTimeout:
            self.page.keyboard.press("Escape")
            return f"table cell at x={x}, row {row + 1}: not a text cell"
        grid = target.evaluate("e => [...document.querySelectorAll('[data-testid=stDataFrame]')].indexOf(e)")
        key = (self.page.url, "cell", grid, row, x)
        new, how = self._edit(text, key)
        try:
            editor.first.fill(new, timeout=2000)
            editor.first.press("Enter", timeout=2000)
        except PlaywrightTimeout:  # a rerun closed the editor: the walk goes on, the step says so
            return f"table {grid + 1}, cell at x={x}, row {row + 1}: {how}, but a rerun closed the editor first"
        return f"table {grid + 1}, cell at x={x}, row {row + 1}: {how}"

    def _input(self, target) -> str:
        text = self.rng.choice(TYPED)
        target.fill(text)
        target.press("Enter")
        return f"{self._label(target)} <- {text!r}"

    def _button(self, target) -> str:
        name = target.inner_text()
        target.click()
        return repr(name[:60])

    def _expander(self, target) -> str:
        target.click()
        return repr(target.inner_text()[:50])

    def _tab(self, target) -> str:
        target.click()
        return repr(target.inner_text()[:50])

    def _unfold_sidebar(self) -> None:
        """Open the sidebar when presentation mode folded it, as a participant does before using it."""
        unfold = self.page.get_by_test_id("stExpandSidebarButton")
        if unfold.count() and unfold.is_visible():
            unfold.click()
            self.page.locator('[data-testid="stSidebarNav"]').wait_for(state="visible")

    def _page(self, _) -> str:
        self._unfold_sidebar()
        name = self.home if self.rng.random() < 0.5 else self.rng.choice(PAGES)
        suffix = "/" if name == "home" else f"/{name}"
        self.page.locator(f'[data-testid="stSidebarNav"] a[href$="{suffix}"]').first.click()
        return name

    def _language(self, _) -> str:
        other = "English" if self.language() == "fr" else "Français"
        self._unfold_sidebar()
        self.page.locator('[data-testid="stSidebar"]').get_by_text(other, exact=True).click()
        return other

    def _mode(self, position: int) -> None:
        self._unfold_sidebar()
        mode = self.page.locator('[data-testid="stSidebar"] [data-testid="stRadio"]').nth(1)
        mode.locator('[data-testid="stRadioOption"]').nth(position).click()

    def _offline(self, _) -> str:
        self._mode(0)
        return "offline"

    def _live(self, _) -> str:
        record = self.rng.random() < 0.3
        self._mode(2 if record else 1)
        self.settle()
        side = self.page.locator('[data-testid="stSidebar"]')
        fields = side.locator('[data-testid="stTextInput"] input')
        for field, value in ((fields.first, self.fake.openai_base_url), (side.locator('input[type="password"]'), KEY)):
            if field.count() and field.input_value() != value:
                field.fill(value)
                field.press("Enter")
                self.settle()
        return ("live + record, " if record else "live, ") + self._model(None)

    def _model(self, _) -> str:
        model = self.rng.choice(LIVE_MODELS)
        self._unfold_sidebar()
        label = _text("sidebar.model", self.language())
        select = self.page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(has_text=label)
        if not select.count() or not select.first.is_visible():
            return "model list not offered"
        select.locator('button[aria-haspopup="listbox"]').click()
        try:
            self.page.locator('[role="option"]').first.wait_for(timeout=2000)
        except PlaywrightTimeout:
            pass
        option = self.page.get_by_role("option", name=model, exact=True)
        if not option.count():
            self.page.keyboard.press("Escape")
            return f"model {model} not offered"
        try:
            option.click(timeout=5000)
        except PlaywrightTimeout:  # a rerun (the model list fetched) redrew the select and closed its list
            self.page.keyboard.press("Escape")
            return f"model {model} listed, then the list closed before the click"
        return f"model {model}"


