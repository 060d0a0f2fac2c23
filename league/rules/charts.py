"""The rating chart: an SVG drawn on the server (no script), in viewBox units, and its round ticks.

Pure maths over the points it is given; only the labels use Django's translation, time zone and
number/date formats (no models, no queries)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

CHART_WIDTH, CHART_HEIGHT = 480, 250
CHART_MARGIN = {"top": 14, "right": 22, "bottom": 52, "left": 58}
# Steps between date ticks: seconds within a day, then days, then months.
_SECOND_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200)
_DAY_STEPS = (1, 2, 3, 7, 14)
_MONTH_STEPS = (1, 2, 3, 6, 12, 24, 60)


def _svg(value: float) -> str:
    """A coordinate for an SVG attribute: a dot as the decimal mark whatever the language."""
    return f"{value:.1f}"


def value_ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Round values (1, 2, 2.5 or 5 times a power of ten apart) from below ``low`` to above ``high``."""
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    raw = (high - low) / (most - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if raw <= m * magnitude * (1 + 1e-9))
    first, last = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return [round(i * step, 10) for i in range(first, last + 1)]


def _add_months(moment: datetime, months: int) -> datetime:
    index = moment.year * 12 + moment.month - 1 + months
    return moment.replace(year=index // 12, month=index % 12 + 1)


def date_ticks(first: datetime, last: datetime, most: int = 5) -> tuple[list[datetime], str]:
    """Round moments (local time) between ``first`` and ``last``, at the smallest step that gives at
    most ``most`` of them, and the format that labels them (``django.utils.formats``)."""
    first, last = timezone.localtime(first), timezone.localtime(last)
    span = (last - first).total_seconds()
    midnight = first.replace(hour=0, minute=0, second=0, microsecond=0)
    for step in _SECOND_STEPS:
        if span / step < most:
            offset = math.ceil((first - midnight).total_seconds() / step) * step
            ticks, moment = [], midnight + timedelta(seconds=offset)
            while moment <= last:
                ticks.append(moment)
                moment += timedelta(seconds=step)
            return ticks, ("H:i:s" if step < 60 else "TIME_FORMAT")
    day_format = "MONTH_DAY_FORMAT" if first.year == last.year else "SHORT_DATE_FORMAT"
    start_day = midnight if midnight == first else midnight + timedelta(days=1)
    for step in _DAY_STEPS:
        if span / (step * 86400) < most:
            ticks, moment = [], start_day
            if step % 7 == 0:
                moment += timedelta(days=-moment.weekday() % 7)  # weeks start on Monday
            while moment <= last:
                ticks.append(moment)
                moment += timedelta(days=step)  # wall-clock days: midnight stays midnight
            return ticks, day_format
    month = midnight.replace(day=1)
    if month < first:
        month = _add_months(month, 1)
    for step in _MONTH_STEPS:
        if span / (step * 30.4 * 86400) < most:
            break
    ticks = []
    while month <= last:
        ticks.append(month)
        month = _add_months(month, step)
    return ticks, ("YEAR_MONTH_FORMAT" if step < 12 else "Y")


def rating_chart(points: Sequence[tuple[datetime, float]], *, start: float | None = None) -> dict[str, Any]:
    """The rating over time as an inline SVG: a line with a dot per rated match, dates on the x axis,
    the rating on the y axis, round ticks on both and a title on each.

    ``points``: (played at, rating after the match), oldest first; ``start``: the rating before the
    first match (drawn at the first match's time). Coordinates are strings in viewBox units.
    """
    width, height, m = CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN
    left, right, top, bottom = m["left"], width - m["right"], m["top"], height - m["bottom"]
    chart: dict[str, Any] = {"width": width, "height": height, "left": left, "right": right, "top": top, "bottom": bottom,
             "polyline": "", "dots": [], "x_ticks": [], "y_ticks": [],
             "y_title": str(_("Rating")), "x_title": "",
             "y_title_transform": f"translate(14 {_svg((top + bottom) / 2)}) rotate(-90)",
             "x_title_x": _svg((left + right) / 2), "x_title_y": _svg(height - 6)}
    if not points:
        return chart
    series = ([(points[0][0], start, True)] if start is not None else []) + [(t, v, False) for t, v in points]
    first, last = points[0][0], points[-1][0]
    span = (last - first).total_seconds()
    inset = 10  # keep the first and last dots off the axes
    x_of = ((lambda t: left + inset + (right - left - 2 * inset) * (t - first).total_seconds() / span) if span
            else (lambda t: (left + right) / 2))
    values = value_ticks(min(v for _t, v, _s in series), max(v for _t, v, _s in series))
    low, high = values[0], values[-1]

    def y_of(v: float) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    decimals = next(d for d in range(4) if all(abs(v * 10 ** d - round(v * 10 ** d)) < 1e-6 for v in values))
    chart["y_ticks"] = [{"y": _svg(y_of(v)), "label": formats.number_format(v, decimals)} for v in values]
    ticks, tick_format = date_ticks(first, last) if span else ([], "TIME_FORMAT")
    if not ticks:  # all within a second or so: the moment they were played
        ticks, tick_format = [timezone.localtime(first)], ("H:i:s" if span else "TIME_FORMAT")
    several_days = timezone.localtime(first).date() != timezone.localtime(last).date()
    labels = [(x_of(t), formats.date_format(t, "MONTH_DAY_FORMAT" if several_days and tick_format in (
        "TIME_FORMAT", "H:i:s") and (t.hour, t.minute, t.second) == (0, 0, 0) else tick_format)) for t in ticks]
    label_width = 8 * max(len(label) for _x, label in labels) + 10  # 14px text, roughly
    while len(labels) > 1 and min(b[0] - a[0] for a, b in zip(labels, labels[1:])) < label_width:
        labels = labels[::2]  # fewer ticks rather than overlapping labels
    for x, label in labels:
        # a label stays inside the picture; the tick marks the moment
        text_x = min(max(x, label_width / 2), width - label_width / 2)
        chart["x_ticks"].append({"x": _svg(x), "text_x": _svg(text_x), "label": label})
    first_local, last_local = timezone.localtime(first), timezone.localtime(last)
    if first_local.date() == last_local.date():
        chart["x_title"] = str(_("Time played on %(date)s") % {"date": formats.date_format(first_local,
                                                                                          "DATE_FORMAT")})
    else:
        chart["x_title"] = str(_("Date played"))
    coords = [(x_of(t), y_of(v), t, v, is_start) for t, v, is_start in series]
    chart["polyline"] = " ".join(f"{_svg(x)},{_svg(y)}" for x, y, *_rest in coords)
    chart["dots"] = [{
        "x": _svg(x), "y": _svg(y), "start": is_start,
        "label": (str(_("Starting rating: %(rating)s")) % {"rating": formats.number_format(v, 1)} if is_start
                  else str(_("%(when)s: %(rating)s")) % {
                      "when": formats.date_format(timezone.localtime(t), "DATETIME_FORMAT"),
                      "rating": formats.number_format(v, 1)}),
    } for x, y, t, v, is_start in coords]
    return chart
