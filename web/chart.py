"""The running totals of a match as an SVG line chart, computed here so the template only draws."""

from __future__ import annotations

from dataclasses import dataclass

from scorebook.matches import Match

WIDTH, HEIGHT = 340, 200
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 10, 24
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 4", "10 4", "4 2 1 2", "3 6")
"""Each line's dash pattern, so the sides stay apart without relying on colour."""


@dataclass
class Line:
    """One side's running totals as an SVG polyline."""

    side: str
    points: str
    dash: str
    last: tuple[float, float]


@dataclass
class Chart:
    """What the template needs to draw the chart: lines, the zero line and the scale."""

    lines: list[Line]
    low: int
    high: int
    zero_y: float
    rounds: int


def chart(match: Match) -> Chart | None:
    """Scale every side's running total into the chart's box; None before the first round."""
    rounds = match.replay.rounds
    if not rounds:
        return None
    sides = list(match.replay.totals)
    series = {side: [0, *(result.totals[side] for result in rounds)] for side in sides}
    low = min(0, *(value for values in series.values() for value in values))
    high = max(1, *(value for values in series.values() for value in values))

    across = (WIDTH - LEFT - RIGHT) / len(rounds)
    down = (HEIGHT - TOP - BOTTOM) / (high - low)

    def y(value: int) -> float:
        return round(TOP + down * (high - value), 1)

    # Every side shares the rounds' x positions, written once: a long Porrazo has hundreds.
    xs = [f"{LEFT + across * index:.1f}" for index in range(len(rounds) + 1)]
    top = TOP + down * high
    lines = [
        Line(
            side,
            " ".join([f"{x},{top - down * v:.1f}" for x, v in zip(xs, values, strict=True)]),
            DASHES[n % len(DASHES)],
            (float(xs[-1]), y(values[-1])),
        )
        for n, (side, values) in enumerate(series.items())
    ]
    return Chart(lines, low, high, y(0), len(rounds))


SPARK_WIDTH, SPARK_HEIGHT = 120, 28


def rating_line(path: list[tuple[int, int]]) -> str:
    """Draw a rating's path, match by match, as the points of a small SVG polyline."""
    values = [value for _match, value in path]
    low, high = min(values), max(values)
    across = SPARK_WIDTH / max(1, len(values) - 1)
    down = (SPARK_HEIGHT - 4) / max(1, high - low)
    return " ".join(
        f"{across * i:.1f},{2 + down * (high - value):.1f}" for i, value in enumerate(values)
    )
