"""Page = board (docs/room.md#page-board), in Chromium against one server on a SQLite room, offline.

A participant joins the room and submits from the trigger, persona and judge pages. Before each click
the page's room box says what the board will show for that attempt (the figure, its 95 % interval, what
it rests on and the interval's unit, the visible part and the held-out part named). The room page's
board then shows, for that attempt, the same value, interval and counts in its table, and the same
held-out figure in its winner's-curse table. On the code before this test, no page said what the board
would show (and the board counted trigger queries right only when every run was, persona on fewer
answers than the page): the test fails there.
"""

import re

import pytest

from tests.evallib.room.kinds import HUMAN
from tests.test_browser import _wait_until_idle
from tests.test_browser_room_flow import _board, _go, _join, _no_exception, _open, _submit, _t, _until
from tests.test_browser_room_submit import Server

from evallib.room.storage import RoomStore
from tests.test_browser_room_flow import TOKEN

#: The page's sentence around the two figures it names (French, as the app starts).
_PAGE = _t("room.figure.page", figure="{figure}", unit="{unit}", visible="{visible}", held_out="{held_out}")


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """(server, store seen from outside, room code): one SQLite room for the module's test."""
    database = f"sqlite:///{tmp_path_factory.mktemp('room')}/rooms.sqlite3"
    outside = RoomStore(database, instructor_token=TOKEN)
    code = outside.open_room(TOKEN, "Page = board").code
    server = Server(database)
    server.start()
    yield server, outside, code
    server.stop()
    outside.engine.dispose()
    assert not any("Traceback" in log for log in server.logs), server.logs[-1][-3000:]


def _page_figures(page) -> dict:
    """The figure the page's room box announces: {figure, unit, visible, held_out} as the page wrote them."""
    before, after = _PAGE.split("{visible}")
    prefix = before.split("(")[0]
    line = _until(lambda: next((text for text in page.locator("p").all_inner_texts() if text.startswith(prefix)),
                               None), "the room box says what the board will show", 60)
    pattern = re.escape(_PAGE)
    for name in ("figure", "unit", "visible", "held_out"):
        pattern = pattern.replace(re.escape("{" + name + "}"), f"(?P<{name}>.+?)")
    found = re.fullmatch(pattern, line.strip())
    assert found, line
    return found.groupdict()


def _cells(figure_text: str) -> str:
    """"0,92 [0,76 ; 0,99], 55/60 …" as the board's table cells: "0,92 | [0,76 ; 0,99] | 55/60 …"."""
    value, rest = figure_text.split(" ", 1)
    bounds, basis = rest.split("], ", 1)
    return f"{value} | {bounds}] | {basis}"


def test_each_page_shows_the_figure_interval_and_unit_its_board_row_shows(browser, room):
    server, outside, code = room
    page = _open(browser, server.url, f"/room?code={code}")
    _join(page, code, "Ana")
    shown = {}
    for number, kind in enumerate(("trigger", "persona", "judge"), start=1):
        _go(page, kind)
        if kind == "judge":
            field = page.get_by_label(_t("judge.human_typed"), exact=True)
            field.fill("case_id,score\n" + "".join(f"{case},{score}\n" for case, score in HUMAN.items()))
            field.press("Control+Enter")
            _wait_until_idle(page)
        shown[kind] = _page_figures(page)
        assert shown[kind]["figure"] == _t(f"room.board.figure.{kind}")
        assert shown[kind]["unit"] == _t(f"room.unit.{ {'trigger': 'query', 'persona': 'probe', 'judge': 'case'}[kind]}")
        if kind == "trigger":  # the page's own table of visible queries shows that figure: every run, per query
            value, rest = shown[kind]["visible"].split(" ", 1)
            bounds, basis = rest.split("], ", 1)
            k, n = re.match(r"(\d+)/(\d+) ", basis).groups()
            assert int(n) > int(basis.split(" sur ")[1].split(" ")[0]), "more decisions than queries: runs repeated"
            assert f"{value} {bounds}] ({k}/{n})" in page.locator("body").inner_text()
        # the judge's button names the template it submits (here the first, unedited)
        _submit(page, number, code, re.compile("^" + re.escape(_t("room_submit.button_judge.unedited", name="§"))
                                               .replace("§", ".+") + "$") if kind == "judge" else None)
        _no_exception(page)
    stored = {a.kind: a for a in outside.attempts(code)}
    assert sorted(stored) == ["judge", "persona", "trigger"]
    _go(page, "room")
    for kind, figures in shown.items():
        number = stored[kind].number
        row = f"#{number} | Ana | {stored[kind].payload['provenance'].get('model') or stored[kind].payload['provenance']['judge']} | "
        _until(lambda: any(f"{row}{_cells(figures['visible'])} |" in line for line in _board(page)),
               f"the board's {kind} row shows {figures['visible']}", 60)
        if figures["held_out"] != _t("format.undefined"):
            assert any(figures["held_out"] in line and f"#{number}" in line for line in _board(page)), \
                (kind, figures["held_out"], _board(page))
    # the units are named on the board too: the trigger row counts decisions over queries, persona answers over probes
    assert "décisions justes sur" in shown["trigger"]["visible"] and "requêtes" in shown["trigger"]["visible"]
    assert "réponses reconnues sur 5 sondes" in shown["persona"]["visible"]
    assert "sur 1 sonde" in shown["persona"]["held_out"]
    # one held-out probe checks nothing: its figure is a number, with no interval spanning the scale
    assert "[" not in shown["persona"]["held_out"] and "[" in shown["trigger"]["held_out"]
    assert any("trop peu pour vérifier quoi que ce soit" in line and f"#{stored['persona'].number}" in line
               for line in _board(page)), _board(page)
