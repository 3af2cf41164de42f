"""Plotly figure builders shared by the pages (large fonts: the app is projected in a room).

In presentation mode (`ui.presentation`) every builder draws in `PRESENT_TEMPLATE`: larger type, black text,
darker lines. A cache of figures keys them on `figure_key()`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from evallib.agreement import format_label
from ui.i18n import language, number, percent
from ui.labels import AXIS_LABEL_CHARS, plain
from ui.presentation import presenting

FONT_SIZE = 16
# Streamlit's chart theme draws axis titles and ticks in about 11 px grey, unreadable on a projector:
# the axes get the figure's font size and the text colour explicitly (explicit values win over the theme).
TEXT = "#31333f"
AXIS_FONT = {"size": FONT_SIZE, "color": TEXT}
ACCENT = "#1f5f8b"
MUTED = "#9aa5b1"
WARNING = "#c0392b"
# Axis titles (raters' names) longer than this are cut; bar labels (persona names) are longer.
AXIS_TITLE_CHARS = 30
BAR_LABEL_CHARS = 28
# Beyond this many categories, percentages written above grouped bars overlap; hovering still shows them.
MAX_LABELLED_BARS = 5


def axis_labels(names: Sequence[object], limit: int = AXIS_LABEL_CHARS) -> list[str]:
    """Names short enough for an axis, escaped, still told apart (the hover shows them whole).

    Numbers keep their leading digits (1.2346e+20), text is cut with "…"; names that the cut makes
    equal get a suffix (2), (3)...
    """
    short = []
    for name in names:
        text = format_label(name) if isinstance(name, float) else str(name)
        if len(text) > limit:
            text = f"{name:.5g}" if isinstance(name, float) else text[:limit - 1] + "…"
        short.append(plain(text, None))
    seen: Counter = Counter()
    repeated = {name for name, n in Counter(short).items() if n > 1}
    for i, name in enumerate(short):
        if name in repeated:
            seen[name] += 1
            short[i] = f"{name} ({seen[name]})"
    return short


#: Where a proportion axis puts its ticks (0 %, 20 % ... 100 %).
PERCENT_TICKS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


def _percent_ticks(fig: go.Figure) -> None:
    """Proportions on the y axis written as the pages write them ("67 %" in French): plotly's own
    percent format has no space before the sign."""
    fig.update_yaxes(tickvals=list(PERCENT_TICKS), ticktext=[percent(v) for v in PERCENT_TICKS])


def cell_font_size(k: int) -> int:
    """Numbers in a k x k table stay readable from the back of the room, and still fit when k is 10."""
    return 28 if k <= 3 else 20 if k <= 6 else 14


#: French names for plotly's date axes and hover labels: plotly.js bundles English only, and a chart takes
#: another locale through its config (`chart_config`). Day-month order and abbreviations as French writes them.
FRENCH_DATES = {
    "days": ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
    "shortDays": ["dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."],
    "months": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
               "novembre", "décembre"],
    "shortMonths": ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.",
                    "déc."],
    "date": "%d/%m/%Y", "year": "%Y", "month": "%b %Y", "dayMonth": "%-d %b", "dayMonthYear": "%-d %b %Y",
}


def chart_config() -> dict:
    """The ``config`` of `st.plotly_chart` for the session's language: in French, month and day names of date
    axes and hover labels in French (plotly's ``locale`` and ``locales`` options); in English, plotly's own."""
    return {"locale": "fr", "locales": {"fr": {"format": FRENCH_DATES}}} if language() == "fr" else {}


# ------------------------------------------------------------------------------ presentation mode
#: Presentation mode's type: axis text, legends and the figure's own text at 22 px (at least 20 px at
#: 1280 px: docs/README.md#presentation), titles at 26 px; text set by a builder (bar values, cell
#: numbers) grows in the same ratio.
PRESENT_FONT_SIZE = 22
PRESENT_SCALE = PRESENT_FONT_SIZE / FONT_SIZE
#: Figures grow taller in the same spirit, so that larger ticks and legends leave the plot its room.
PRESENT_HEIGHT_SCALE = 1.3
PRESENT_TEXT = "#000000"
#: Grey lines and points (`MUTED`) are too pale on a washed-out projector: a dark grey instead.
PRESENT_MUTED = "#4d4d4d"
PRESENT_FONT = {"size": PRESENT_FONT_SIZE, "color": PRESENT_TEXT}
_PRESENT_AXIS = {"tickfont": PRESENT_FONT, "title": {"font": PRESENT_FONT}, "showline": True, "linewidth": 2,
                 "linecolor": PRESENT_TEXT, "gridcolor": "#a6a6a6", "zerolinecolor": PRESENT_TEXT, "automargin": True}
PRESENT_TEMPLATE = "workshop_present"
pio.templates[PRESENT_TEMPLATE] = go.layout.Template(layout={
    "font": PRESENT_FONT, "title": {"font": {"size": PRESENT_FONT_SIZE + 4, "color": PRESENT_TEXT}},
    "paper_bgcolor": "#ffffff", "plot_bgcolor": "#ffffff", "legend": {"font": PRESENT_FONT},
    "hoverlabel": {"font": {"size": PRESENT_FONT_SIZE}},
    # Dark, saturated hues far apart (Okabe-Ito's blue, vermilion, green, then purple and black).
    "colorway": ["#0b3d91", "#d55e00", "#00734d", "#7b2d8b", "#000000"],
    "xaxis": _PRESENT_AXIS, "yaxis": _PRESENT_AXIS})


class SharedFigure(go.Figure):
    """A finished figure drawn by many sessions: its dict (what `st.plotly_chart` reads, via
    ``plotly.tools.return_figure_from_figure_or_data``) is made once instead of a deep copy per draw.
    Read only: a change after the first draw would not be seen."""

    def to_dict(self) -> dict:
        found = self.__dict__.get("_shared_dict")
        if found is None:
            found = self.__dict__["_shared_dict"] = super().to_dict()
        return found


def figure_key() -> str:
    """What a figure depends on beyond its data and texts, for a cache of figures: the session's language
    (decimal mark) and presentation mode ("fr", "en", "fr+present", "en+present")."""
    return language() + ("+present" if presenting() else "")


def _present(fig: go.Figure) -> None:
    """Draw ``fig`` in `PRESENT_TEMPLATE`, its own text scaled by `PRESENT_SCALE`, pale greys darkened.

    Streamlit's chart theme rewrites a figure's template (streamlit 1.67, PlotlyChart), and values set on
    the figure win over it: the template's values are also written on the figure.
    """
    layout = pio.templates[PRESENT_TEMPLATE].layout
    fig.update_layout(template=PRESENT_TEMPLATE, font=layout.font, title_font=layout.title.font,
                      legend_font=layout.legend.font, hoverlabel=layout.hoverlabel, colorway=layout.colorway,
                      paper_bgcolor=layout.paper_bgcolor, plot_bgcolor=layout.plot_bgcolor,
                      height=round(fig.layout.height * PRESENT_HEIGHT_SCALE))
    fig.update_xaxes(layout.xaxis.to_plotly_json())
    fig.update_yaxes(layout.yaxis.to_plotly_json())
    for trace in fig.data:
        textfont = getattr(trace, "textfont", None)
        if textfont is not None and isinstance(textfont.size, (int, float)):
            textfont.size = round(textfont.size * PRESENT_SCALE)
            textfont.color = PRESENT_TEXT if textfont.color == TEXT else textfont.color
        for part in ("marker", "line"):
            drawn = getattr(trace, part, None)
            if drawn is not None and drawn.color == MUTED:
                drawn.color = PRESENT_MUTED
    for note in fig.layout.annotations:
        note.font.size = round((note.font.size or FONT_SIZE) * PRESENT_SCALE)
        note.font.color = PRESENT_TEXT
    for shape in fig.layout.shapes:
        if shape.line.color == MUTED:
            shape.line.color = PRESENT_MUTED


def _layout(fig: go.Figure, title: str, height: int) -> go.Figure:
    # Axis ticks follow the language's decimal mark (plotly's "decimal, thousands" pair).
    fig.update_layout(title=title, height=height, font={"size": FONT_SIZE}, title_font={"size": FONT_SIZE + 2},
                      separators=", " if language() == "fr" else ".,", margin={"l": 10, "r": 10, "t": 60, "b": 10})
    fig.update_xaxes(tickfont=AXIS_FONT, title_font=AXIS_FONT)
    fig.update_yaxes(tickfont=AXIS_FONT, title_font=AXIS_FONT)
    # Streamlit's chart theme writes legends in 12 px: as readable as the axes from the back of the room.
    fig.update_layout(legend_font=AXIS_FONT)
    if presenting():
        _present(fig)
    return fig


def heatmap(matrix, labels_x: Sequence[str], labels_y: Sequence[str], *, title: str, x_title: str = "",
            y_title: str = "", value_format: str = ".2f", colorscale: str = "Blues",
            zmin: float | None = None, zmax: float | None = None, hover: str | None = None,
            hover_x: Sequence[str] | None = None, hover_y: Sequence[str] | None = None,
            label_chars: int = BAR_LABEL_CHARS) -> go.Figure:
    """Annotated heatmap, first row at the top, column names on top.

    Labels are data: they are shortened and escaped for the axes (``axis_labels``); ``hover_x`` and
    ``hover_y`` (default: the labels) are shown whole on hover, through ``hover``, a plotly
    template that may use ``%{customdata[0]}`` (row name), ``%{customdata[1]}`` (column name) and
    ``%{text}`` (the value as written in the cell). Axis labels longer than ``label_chars`` are cut.
    """
    values = np.asarray(matrix, dtype=float)
    full_x = [plain(format_label(name), None) for name in (hover_x or labels_x)]
    full_y = [plain(format_label(name), None) for name in (hover_y or labels_y)]
    fig = go.Figure(go.Heatmap(
        z=values, x=axis_labels(labels_x, label_chars), y=axis_labels(labels_y, label_chars), colorscale=colorscale, zmin=zmin,
        zmax=zmax, text=[[number(v, value_format) for v in row] for row in values], texttemplate="%{text}",
        customdata=[[[row, column] for column in full_x] for row in full_y],
        textfont={"size": cell_font_size(max(len(labels_x), len(labels_y)))}, showscale=False,
        hovertemplate=(hover or "%{customdata[0]} → %{customdata[1]}: %{text}") + "<extra></extra>"))
    fig.update_yaxes(autorange="reversed", title=plain(y_title, AXIS_TITLE_CHARS), type="category")
    fig.update_xaxes(title=plain(x_title, AXIS_TITLE_CHARS), side="top", tickangle=-45, type="category")
    fig = _layout(fig, title, 170 + 55 * len(labels_y))
    # Column names sit on top, under the title: leave them room so they never overlap it.
    fig.update_layout(margin={"t": 150}, title={"y": 0.98, "yanchor": "top"})
    return fig


def bars(labels: Sequence[str], values: Sequence[float], *, title: str, texts: Sequence[str] | None = None,
         reference: float | None = None, reference_label: str = "", value_range: tuple | None = None,
         highlight: Sequence[bool] | None = None) -> go.Figure:
    """Horizontal bars with an optional vertical reference line (e.g. chance level)."""
    colours = [WARNING if h else ACCENT for h in highlight] if highlight is not None else ACCENT
    fig = go.Figure(go.Bar(x=list(values), y=axis_labels(labels, BAR_LABEL_CHARS), orientation="h",
                           marker_color=colours, hovertext=[plain(name, None) for name in labels],
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
                                 line={"color": colour, "width": 2}, textfont=AXIS_FONT,
                                 text=[f"{name} ({left})", f"({right}) {name}"],
                                 textposition=["middle left", "middle right"], showlegend=False,
                                 hovertemplate=f"{name}: {left} → {right}<extra></extra>"))
    fig.update_xaxes(tickvals=[0, 1], ticktext=[left_title, right_title], range=[-1.3, 2.3], showgrid=False)
    fig.update_yaxes(autorange="reversed", showticklabels=False, showgrid=False, zeroline=False)
    return _layout(fig, title, 140 + 30 * len(names))


def grouped_bars(labels: Sequence[object], series: Sequence[tuple[str, Sequence[float]]], *, title: str,
                 x_title: str = "", texts: Sequence[Sequence[str]] | None = None,
                 hover: Sequence[Sequence[str]] | None = None, value_range: tuple | None = None,
                 tick_format: str = ".0%") -> go.Figure:
    """Vertical bars, one group per label and one bar per series (e.g. each rater's share of a label).

    ``texts`` (one list per series) are written above the bars when there are at most
    ``MAX_LABELLED_BARS`` labels, in a smaller font beyond three so that neighbours never touch;
    ``hover`` (one list per series) is shown on hover. Labels and series names are escaped.
    """
    names = axis_labels(labels)
    few = len(names) <= MAX_LABELLED_BARS
    fig = go.Figure()
    for i, (name, values) in enumerate(series):
        fig.add_bar(x=names, y=list(values), name=plain(name, AXIS_TITLE_CHARS),
                    text=list(texts[i]) if texts is not None and few else None, textposition="outside",
                    textangle=0, cliponaxis=False,
                    textfont={"size": FONT_SIZE if len(names) <= 3 else FONT_SIZE - 4},
                    hovertext=list(hover[i]) if hover is not None else None, hoverinfo="text")
    fig.update_layout(barmode="group", bargap=0.3, bargroupgap=0.12, legend={"orientation": "h", "y": -0.25},
                      yaxis={"range": list(value_range) if value_range else None},
                      xaxis={"type": "category", "title": x_title})
    if tick_format == ".0%":
        _percent_ticks(fig)
    else:
        fig.update_yaxes(tickformat=tick_format)
    return _layout(fig, title, 420)


def interval_bars(labels: Sequence[object], values: Sequence[float | None], lows: Sequence[float | None],
                  highs: Sequence[float | None], *, title: str, texts: Sequence[str] | None = None,
                  value_range: tuple | None = None, y_title: str = "") -> go.Figure:
    """Vertical bars (e.g. means) with their interval as error bars; a missing value or bound draws nothing.

    ``texts`` (e.g. "7,5 (n = 4)") are written inside the bars, at their foot, clear of the error bars.
    Labels are escaped.
    """
    y = [None if v is None else float(v) for v in values]
    plus = [None if v is None or h is None else float(h) - float(v) for v, h in zip(values, highs)]
    minus = [None if v is None or lo is None else float(v) - float(lo) for v, lo in zip(values, lows)]
    fig = go.Figure(go.Bar(x=axis_labels(labels), y=y, marker_color=ACCENT, cliponaxis=False,
                           text=list(texts) if texts is not None else None, textposition="inside",
                           insidetextanchor="start", textfont={"size": FONT_SIZE, "color": "white"},
                           hovertext=[plain(label, None) for label in labels],
                           error_y={"type": "data", "symmetric": False, "array": plus, "arrayminus": minus,
                                    "color": TEXT, "thickness": 2, "width": 8}))
    fig.update_xaxes(type="category")
    fig.update_yaxes(range=list(value_range) if value_range else None, title=plain(y_title, AXIS_TITLE_CHARS))
    return _layout(fig, title, 400)


#: Line styles of `threshold_lines`, in series order: four hues far apart, the fourth also dashed, so
#: that the lines stay apart on a washed-out projector and for colour-blind readers.
LINE_STYLES = ({"color": ACCENT}, {"color": "#2e8540"}, {"color": "#e67e22"}, {"color": WARNING, "dash": "dash"})


def threshold_lines(thresholds: Sequence[float], series: Sequence[tuple[str, Sequence[float]]], *, title: str,
                    x_title: str, marked: Sequence[float] = (), value_range: tuple = (0, 1.05)) -> go.Figure:
    """Up to four lines (e.g. accuracy, recall) over a threshold axis, ``marked`` thresholds as dotted lines.

    NaN values (an undefined rate) leave a gap in their line rather than a point at zero.
    """
    fig = go.Figure()
    for (name, values), style in zip(series, LINE_STYLES):
        fig.add_trace(go.Scatter(x=list(thresholds), y=[None if v != v else float(v) for v in values],
                                 mode="lines", name=plain(name, AXIS_TITLE_CHARS), line={"width": 3, **style}))
    for x in marked:
        fig.add_vline(x=x, line_dash="dot", line_color=MUTED, annotation_text=number(x),
                      annotation_position="top", annotation_font=AXIS_FONT)
    fig.update_layout(legend={"orientation": "h", "y": -0.22}, yaxis={"range": list(value_range)},
                      xaxis={"title": x_title})
    return _layout(fig, title, 460)


def extremes_per_bucket(values, max_points: int) -> np.ndarray:
    """Indices of at most ``max_points`` of ``values`` (shape (n,)) that keep its outline: the series is cut
    into max_points / 2 consecutive buckets and each keeps its lowest and highest point, so that a jump or
    an outlier stays visible. All indices when n <= max_points; sorted."""
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n <= max_points:
        return np.arange(n)
    size = -(-n // (max_points // 2))  # ceiling: points per bucket
    padded = np.full(-(-n // size) * size, np.nan)
    padded[:n] = values
    buckets = padded.reshape(-1, size)
    starts = np.arange(len(buckets)) * size
    return np.unique(np.concatenate([starts + np.nanargmin(buckets, axis=1), starts + np.nanargmax(buckets, axis=1)]))


def time_series(dates, values, *, title: str, y_title: str, data_name: str, fitted=None, fitted_name: str = "",
                markers: Sequence[tuple[object, str]] = ()) -> go.Figure:
    """Daily values as points, an optional fitted curve over them, and vertical dashed lines at
    ``markers`` (``(date, label)``, e.g. the true offset day). Names are escaped.

    ``dates``, ``values`` and ``fitted`` (shape (n,)) go to plotly as numpy arrays, which it writes as
    base64 binary: a 10-year daily series serialises in milliseconds instead of tens of them.
    """
    fig = go.Figure(go.Scatter(x=np.asarray(dates), y=np.asarray(values, dtype=float), mode="markers",
                               name=plain(data_name, None), marker={"size": 3, "color": MUTED}))
    if fitted is not None:
        fig.add_trace(go.Scatter(x=np.asarray(dates), y=np.asarray(fitted, dtype=float), mode="lines",
                                 name=plain(fitted_name, None), line={"color": ACCENT, "width": 3}))
    for day, label in markers:
        fig.add_vline(x=day, line_dash="dash", line_color=WARNING, line_width=2)
        fig.add_annotation(x=day, y=1, yref="paper", text=plain(label, None), showarrow=False, yanchor="bottom",
                           font=AXIS_FONT)
    fig.update_yaxes(title=plain(y_title, None))
    # Below the second line of date ticks (the year under the first day of each year), not on it.
    fig.update_layout(legend={"orientation": "h", "y": -0.3})
    return _layout(fig, title, 380)


def histogram_bars(edges: Sequence[float], counts: Sequence[int], *, title: str, x_title: str, y_title: str,
                   references: Sequence[tuple[float, str]] = ()) -> go.Figure:
    """A histogram already counted (``numpy.histogram``: len(edges) = len(counts) + 1) with dashed
    vertical lines at ``references`` (``(value, label)``, e.g. the median and a tolerance)."""
    edges = np.asarray(edges, dtype=float)
    fig = go.Figure(go.Bar(x=list((edges[:-1] + edges[1:]) / 2), y=list(counts), width=list(np.diff(edges)),
                           marker_color=ACCENT, marker_line={"color": "white", "width": 1}, showlegend=False))
    # References are legend entries, not annotations: close values (a median next to a p95) would overlap.
    top = max(counts, default=0)
    for (value, label), dash in zip(references, ("dot", "dash", "solid", "dashdot")):
        fig.add_trace(go.Scatter(x=[value, value], y=[0, top], mode="lines", name=plain(label, None),
                                 line={"color": WARNING, "dash": dash, "width": 2}))
    fig.update_layout(legend={"orientation": "h", "y": -0.3})
    fig.update_xaxes(title=plain(x_title, None))
    fig.update_yaxes(title=plain(y_title, None))
    return _layout(fig, title, 360)


def rate_curves(x: Sequence[float], series: Sequence[tuple[str, Sequence[float]]], *, title: str, x_title: str,
                marker: tuple[float, str] | None = None) -> go.Figure:
    """Rates in [0, 1] against a setting (e.g. detection and false-alarm rates against a threshold), one
    line per series, with an optional dashed vertical line at the setting in use."""
    fig = go.Figure()
    for name, values in series:
        fig.add_trace(go.Scatter(x=list(x), y=list(values), mode="lines+markers", name=plain(name, None),
                                 line={"width": 3}))
    if marker is not None:
        fig.add_vline(x=marker[0], line_dash="dash", line_color=MUTED, annotation_text=plain(marker[1], None),
                      annotation_position="top", annotation_font=AXIS_FONT)
    fig.update_xaxes(title=plain(x_title, None))
    fig.update_yaxes(range=[-0.02, 1.05])
    _percent_ticks(fig)
    fig.update_layout(legend={"orientation": "h", "y": -0.25})
    return _layout(fig, title, 400)
