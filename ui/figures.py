"""Plotly figure builders shared by the pages (large fonts: the app is projected in a room)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui.i18n import language, number

FONT_SIZE = 16
# Streamlit's chart theme draws axis titles and ticks in about 11 px grey, unreadable on a projector:
# the axes get the figure's font size and the text colour explicitly (explicit values win over the theme).
TEXT = "#31333f"
AXIS_FONT = {"size": FONT_SIZE, "color": TEXT}
ACCENT = "#1f5f8b"
MUTED = "#9aa5b1"
WARNING = "#c0392b"


def _layout(fig: go.Figure, title: str, height: int) -> go.Figure:
    # Axis ticks follow the language's decimal mark (plotly's "decimal, thousands" pair).
    fig.update_layout(title=title, height=height, font={"size": FONT_SIZE}, title_font={"size": FONT_SIZE + 2},
                      separators=", " if language() == "fr" else ".,", margin={"l": 10, "r": 10, "t": 60, "b": 10})
    fig.update_xaxes(tickfont=AXIS_FONT, title_font=AXIS_FONT)
    fig.update_yaxes(tickfont=AXIS_FONT, title_font=AXIS_FONT)
    return fig


def heatmap(matrix, labels_x: Sequence[str], labels_y: Sequence[str], *, title: str, x_title: str = "",
            y_title: str = "", value_format: str = ".2f", colorscale: str = "Blues",
            zmin: float | None = None, zmax: float | None = None) -> go.Figure:
    """Annotated heatmap, first row at the top."""
    values = np.asarray(matrix, dtype=float)
    fig = go.Figure(go.Heatmap(
        z=values, x=list(labels_x), y=list(labels_y), colorscale=colorscale, zmin=zmin, zmax=zmax,
        text=[[number(v, value_format) for v in row] for row in values], texttemplate="%{text}",
        textfont={"size": FONT_SIZE}, colorbar={"tickfont": AXIS_FONT},
        hovertemplate="%{y} → %{x}: %{text}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", title=y_title)
    fig.update_xaxes(title=x_title, side="top", tickangle=-45)
    fig = _layout(fig, title, 170 + 55 * len(labels_y))
    # Column names sit on top, under the title: leave them room so they never overlap it.
    fig.update_layout(margin={"t": 150}, title={"y": 0.98, "yanchor": "top"})
    return fig


def bars(labels: Sequence[str], values: Sequence[float], *, title: str, texts: Sequence[str] | None = None,
         reference: float | None = None, reference_label: str = "", value_range: tuple | None = None,
         highlight: Sequence[bool] | None = None) -> go.Figure:
    """Horizontal bars with an optional vertical reference line (e.g. chance level)."""
    colours = [WARNING if h else ACCENT for h in highlight] if highlight is not None else ACCENT
    fig = go.Figure(go.Bar(x=list(values), y=list(labels), orientation="h", marker_color=colours,
                           text=list(texts) if texts is not None else None, textposition="outside",
                           textfont=AXIS_FONT, cliponaxis=False))
    if reference is not None:
        fig.add_vline(x=reference, line_dash="dash", line_color=MUTED, annotation_text=reference_label,
                      annotation_position="top", annotation_font=AXIS_FONT)
    fig.update_yaxes(autorange="reversed")
    if value_range is not None:
        fig.update_xaxes(range=list(value_range))
    fig = _layout(fig, title, 120 + 45 * len(labels))
    fig.update_layout(margin={"r": 60})  # room for the labels written past the longest bar
    return fig


def _positions(ranks: Sequence[int]) -> list[int]:
    """Distinct drawing rows 1..n in rank order (tied ranks are stacked, not drawn on top of each other)."""
    order = sorted(range(len(ranks)), key=lambda i: (ranks[i], i))
    rows = [0] * len(ranks)
    for row, i in enumerate(order, start=1):
        rows[i] = row
    return rows


def slope_chart(names: Sequence[str], left_ranks: Sequence[int], right_ranks: Sequence[int], *,
                title: str, left_title: str, right_title: str) -> go.Figure:
    """Each item drawn from its rank on the left to its rank on the right (rank 1 at the top).

    Unchanged ranks are drawn in the accent colour, moves of five places or more in red.
    """
    left_ranks, right_ranks = [int(r) for r in left_ranks], [int(r) for r in right_ranks]
    left_rows, right_rows = _positions(left_ranks), _positions(right_ranks)
    fig = go.Figure()
    for i, name in enumerate(names):
        left, right = left_ranks[i], right_ranks[i]
        colour = ACCENT if left == right else (WARNING if abs(left - right) >= 5 else MUTED)
        fig.add_trace(go.Scatter(x=[0, 1], y=[left_rows[i], right_rows[i]], mode="lines+markers+text",
                                 line={"color": colour, "width": 2}, textfont={"size": FONT_SIZE - 2, "color": TEXT},
                                 text=[f"{name} ({left})", f"({right}) {name}"],
                                 textposition=["middle left", "middle right"], showlegend=False,
                                 hovertemplate=f"{name}: {left} → {right}<extra></extra>"))
    fig.update_xaxes(tickvals=[0, 1], ticktext=[left_title, right_title], range=[-1.3, 2.3], showgrid=False)
    fig.update_yaxes(autorange="reversed", showticklabels=False, showgrid=False, zeroline=False)
    return _layout(fig, title, 140 + 30 * len(names))
