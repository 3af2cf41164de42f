"""Room page: join a room, the instructor's panel (token, code, QR, items to rate, attempts, export),
and the live board. Thin: the parts are in ui/room/, what they show is computed by evallib.room."""

import streamlit as st

from ui.i18n import t
from ui.room.board import board_section
from ui.room.instructor import instructor_panel, join_card
from ui.room.join import join_panel
from ui.shell import require_navigation

require_navigation()

st.title(t("room.title"))
st.markdown(t("room.intro"))

member = join_panel()
managed = instructor_panel()
if managed:
    join_card(managed)
board_section(managed or (member.code if member else None))
