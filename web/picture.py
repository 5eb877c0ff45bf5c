"""A finished match's result, or an event's standings, as a picture to share: laid out once,
then written as SVG or drawn as PNG by Pillow, right to left in Persian and Arabic."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw, ImageFont

from phone import marks
from scorebook import events
from scorebook.matches import Match
from scorers.seating import hidden, joining
from scorers.words import _, ngettext

from . import numerals

WIDTH = 360
"""The picture's width in points: a phone's screen; the PNG is drawn at twice that."""
PNG_SCALE = 2
MARGIN, LINE = 16, 22
INK, MUTED, PAPER, ACCENT = "#1d1d1b", "#5d5b55", "#fbf8f0", "#1f6b4a"
FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans{bold}.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans{bold}.ttf",
    "/Library/Fonts/DejaVuSans{bold}.ttf",
)
"""Where a font with Latin, Greek, Arabic and Hebrew letters is found on Linux and macOS."""
SHOWN_ROUNDS = 16
"""A long match shows its last rounds: a picture for a group chat, not the whole sheet."""


@dataclass(frozen=True)
class Text:
    """One line of text, placed from its start (left to right) at its baseline."""

    x: float
    y: float
    text: str
    size: int = 13
    bold: bool = False
    anchor: str = "start"
    """start, middle or end, as read in the picture's direction."""
    colour: str = INK
    number: bool = False
    """A number, kept left to right inside right-to-left text."""


@dataclass(frozen=True)
class Rule:
    """A line across the sheet."""

    y: float
    colour: str = MUTED


@dataclass
class Picture:
    """What is drawn, top to bottom, and in which direction the page reads."""

    rtl: bool
    items: list[Text | Rule] = field(default_factory=list)
    height: float = MARGIN

    def line(self, *cells: Text) -> None:
        """Add a line of text cells at the next baseline, each as `showable` leaves it, in the
        digits of the page's language as the page writes them."""
        self.height += LINE
        digits = numerals.current().write
        self.items += [
            replace(cell, y=self.height, text=digits(showable(cell.text))) for cell in cells
        ]

    def rule(self) -> None:
        """Draw a line under what is there so far."""
        self.height += 6
        self.items.append(Rule(self.height))

    def written(self, item: Text) -> str:
        """Write a text as drawn: a number isolated left to right inside right-to-left text."""
        return f"\u2066{item.text}\u2069" if item.number and self.rtl else item.text


def showable(text: str) -> str:
    """Leave out of a text what a picture cannot show: a control character breaks the SVG and
    a formatting one can turn names round. Names, notes and places refuse them, but an older
    database may hold some; a joiner between letters stays, as it writes Persian and emoji."""
    return "".join(c for i, c in enumerate(text) if not hidden(c) or joining(text, i))


def figure(points: int, sign: bool = False) -> str:
    """Write a number, with its sign if asked, and a real minus."""
    return marks.signed_text(points) if sign else marks.number_text(points)


def columns(count: int) -> list[float]:
    """The centres of `count` score columns after the first (the rounds' numbers)."""
    first = MARGIN + 34
    width = (WIDTH - MARGIN - first) / count
    return [first + width * (i + 0.5) for i in range(count)]


def across(xs: list[float], texts: list[str], size: int, **style: Any) -> list[Text]:
    """One text centred on each column."""
    pairs = zip(xs, texts, strict=True)
    return [Text(x, 0, text, size, anchor="middle", **style) for x, text in pairs]


def heading(picture: Picture, title: str, sub: str) -> None:
    """The picture's title and, under it, the day and place."""
    picture.line(Text(MARGIN, 0, title, 17, bold=True))
    picture.line(Text(MARGIN, 0, sub, 12, colour=MUTED))


def of_match(match: Match, rtl: bool) -> Picture:
    """Lay out a finished match as its game draws it: the column sheet, or a slate of strokes."""
    picture = Picture(rtl)
    details = match.details
    day = (details.get("played_at") or match.created_utc)[:10]
    sub = " · ".join(filter(None, [day, details.get("place")]))
    heading(picture, match.scorer.variant(match.scorer.variant_key(match.table.options)), sub)
    picture.line(Text(MARGIN, 0, match.scorer.banner(match.replay), 14, bold=True, colour=ACCENT))
    sides = list(match.replay.totals)
    picture.line(*across(columns(len(sides)), [side[:14] for side in sides], 13, bold=True))
    if match.table.teams:
        names = [", ".join(match.table.teams[side])[:22] for side in sides]
        picture.line(*across(columns(len(sides)), names, 10, colour=MUTED))
    picture.rule()
    DRAWINGS[match.scorer.picture_kind(match.table)](picture, match, sides)
    if details.get("note"):
        picture.line(Text(MARGIN, 0, details["note"], 12, colour=MUTED))
    picture.line(Text(MARGIN, 0, log_line(match.log_head), 10, colour=MUTED))
    picture.height += MARGIN
    return picture


def log_line(head: str) -> str:
    """Say the first 8 hex digits of a match's log head: a printed result is checked by them
    against its file."""
    return _("Result check: {head}").format(head=head[:8])


def sheet(picture: Picture, match: Match, sides: list[str]) -> None:
    """The paper sheet: a column per side, a line per round with its score and, under it, how it
    went and the running totals; the final totals at the foot."""
    xs = columns(len(sides))
    results = match.replay.rounds
    shown = results[-SHOWN_ROUNDS:]
    if len(shown) < len(results):
        picture.line(Text(MARGIN, 0, "…", 12, colour=MUTED))
    for n, result in enumerate(shown, len(results) - len(shown) + 1):
        scores = [figure(result.scores[side], sign=True) for side in sides]
        picture.line(
            Text(MARGIN, 0, str(n), 11, colour=MUTED), *across(xs, scores, 12, number=True)
        )
        # Under each round, as on the sheet: how it went (made, fall…) and the running totals.
        totals = [figure(result.totals[side]) for side in sides]
        said = match.scorer.outcome_of(result)
        picture.line(
            *([Text(MARGIN, 0, said, 9, colour=MUTED)] if said else []),
            *across(xs, totals, 10, colour=MUTED, number=True),
        )
    picture.rule()
    totals = [figure(match.replay.totals[side]) for side in sides]
    picture.line(*across(xs, totals, 15, bold=True, number=True))


def slate(picture: Picture, match: Match, sides: list[str]) -> None:
    """The Gaigel slate: each team's strokes chalked in fives, the ones left after the last deal."""
    xs = columns(len(sides))
    held = match.replay.totals
    picture.line(*across(xs, [tally(held[side]) or "—" for side in sides], 18))
    counts = [
        ngettext("{count} stroke", "{count} strokes", held[side]).format(count=held[side])
        for side in sides
    ]
    picture.line(*across(xs, counts, 11, colour=MUTED))
    n = len(match.replay.rounds)
    played = ngettext("{n} {round} played", "{n} {rounds} played", n).format(
        n=n, round=match.scorer.round_word, rounds=match.scorer.rounds_word
    )
    picture.line(Text(MARGIN, 0, played, 11, colour=MUTED))


DRAWINGS: dict[str, Callable[[Picture, Match, list[str]], None]] = {"sheet": sheet, "slate": slate}
"""How a finished match is drawn, by the kind its scorer asks for (`Scorer.picture_kind`)."""


def tally(strokes: int) -> str:
    """Chalk strokes as the slate does: groups of five (𝍸) and the ones left (|)."""
    return " ".join(["𝍸"] * (strokes // 5) + (["|" * (strokes % 5)] if strokes % 5 else []))


def of_standings(event: events.Event, rtl: bool) -> Picture:
    """Lay out an event's standings: rank, entrant, matches won and points."""
    picture = Picture(rtl)
    row = event.row
    heading(picture, row["name"], " · ".join(filter(None, [row["played_on"], row["place"]])))
    if event.winner:
        said = _("{winner} wins the event!").format(winner=event.winner)
        picture.line(Text(MARGIN, 0, said, 14, bold=True, colour=ACCENT))
    won_x, points_x = WIDTH - MARGIN - 70, WIDTH - MARGIN
    picture.line(
        Text(MARGIN, 0, "#", 11, colour=MUTED),
        Text(won_x, 0, _("Won"), 11, anchor="end", colour=MUTED),
        Text(points_x, 0, _("Points"), 11, anchor="end", colour=MUTED),
    )
    picture.rule()
    for rank, record in event.standings[:20]:
        picture.line(
            Text(MARGIN, 0, str(rank), 12, colour=MUTED),
            Text(MARGIN + 28, 0, record.entrant[:26], 13, bold=rank == 1),
            Text(won_x, 0, figure(record.won), 12, anchor="end", number=True),
            Text(points_x, 0, figure(record.points), 12, anchor="end", number=True),
        )
    picture.height += MARGIN
    return picture


def placed(picture: Picture, item: Text) -> tuple[float, str]:
    """Where a text goes across the picture and which of its ends (left, middle or right) is
    there: a right-to-left picture mirrors the layout, so its texts start at the right."""
    if not picture.rtl:
        return item.x, {"start": "l", "middle": "m", "end": "r"}[item.anchor]
    return WIDTH - item.x, {"start": "r", "middle": "m", "end": "l"}[item.anchor]


def svg(picture: Picture) -> str:
    """Write the picture as an SVG document.

    A right-to-left picture says so (direction="rtl"): its texts then start at their right,
    which is where their mirrored places put them.
    """
    height = round(picture.height)
    direction = "rtl" if picture.rtl else "ltr"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" direction="{direction}" '
        'font-family="DejaVu Sans, Vazirmatn, Noto Sans, sans-serif">',
        f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>',
    ]
    for item in picture.items:
        if isinstance(item, Rule):
            parts.append(
                f'<line x1="{MARGIN}" y1="{item.y}" x2="{WIDTH - MARGIN}" y2="{item.y}" '
                f'stroke="{item.colour}" stroke-width="0.5"/>'
            )
            continue
        x, _end = placed(picture, item)
        weight = ' font-weight="bold"' if item.bold else ""
        text = escape(picture.written(item))
        parts.append(
            f'<text x="{x:.1f}" y="{item.y}" font-size="{item.size}"{weight} '
            f'text-anchor="{item.anchor}" fill="{item.colour}">{text}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


@cache
def font(size: int, bold: bool) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The font Pillow draws with: DejaVu Sans where the machine has it, else Pillow's own."""
    for pattern in FONTS:
        path = Path(pattern.format(bold="-Bold" if bold else ""))
        if path.exists():
            return ImageFont.truetype(str(path), size * PNG_SCALE)
    return ImageFont.load_default(size * PNG_SCALE)


def png(picture: Picture) -> bytes:
    """Draw the picture as a PNG, twice the SVG's size, with Pillow."""
    size = (WIDTH * PNG_SCALE, round(picture.height) * PNG_SCALE)
    image = Image.new("RGB", size, PAPER)
    draw = ImageDraw.Draw(image)
    for item in picture.items:
        if isinstance(item, Rule):
            y = item.y * PNG_SCALE
            draw.line(
                [(MARGIN * PNG_SCALE, y), ((WIDTH - MARGIN) * PNG_SCALE, y)], fill=item.colour
            )
            continue
        x, end = placed(picture, item)
        draw.text(
            (x * PNG_SCALE, item.y * PNG_SCALE),
            picture.written(item),
            fill=item.colour,
            font=font(item.size, item.bold),
            anchor=f"{end}s",
            direction="rtl" if picture.rtl else "ltr",
        )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
