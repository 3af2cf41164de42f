"""Room page: join a room, the join card and the live board, then the instructor's panel (token, open
or manage a room, answers to rate, attempts, export and import). Thin: the parts are in ui/room/,
what they show is computed by evallib.room.

Order, for the projector: once the instructor manages a room, its code, link and QR code come first,
then the board; the participants' join form is left out of that screen.
"""

import streamlit as st

from evallib.room import board, figures, models, ranks, ratings, selection, winners_curse
from ui.code_view import see_the_code
from ui.i18n import t
from ui.room.board import board_section
from ui.room.instructor import instructor_panel, join_card
from ui.room.join import join_panel
from ui.shell import require_navigation

require_navigation()

st.title(t("room.title"))
st.markdown(t("room.intro"))

top, middle = st.container(), st.container()
managed = instructor_panel()
with top:
    member = None if managed else join_panel()
    if managed:
        join_card(managed)
with middle:
    board_section(managed or (member.code if member else None))
    see_the_code(figures.attempt_figure, models.model_boards, board.build_board, board.pairwise,
                 board.pairwise_scores, board.mcnemar_p, board.sign_flip_p, board.holm, winners_curse.winners_curse,
                 selection.selected_inference, winners_curse.held_out_check, ranks.rank_uncertainty,
                 ranks.difference_errors, ranks.max_t_critical, ranks.rank_sets,
                 ratings.room_agreement, ratings.disagreement_with_majority)
