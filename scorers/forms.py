"""WTForms forms shared by every game: starting a match, and the base of a round form.

Forms only turn typed text into the API's plain data and put refusals back next to the fields;
the rules themselves are checked once, by the scorer, for the form and the API alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wtforms import (
    BooleanField,
    FieldList,
    Form,
    IntegerField,
    RadioField,
    SelectChoice,
    StringField,
)
from wtforms.fields import Field
from wtforms.validators import Optional
from wtforms.widgets import TextInput

from .base import Scorer, Table, seats
from .options import Option
from .refusal import Refusal
from .words import _


class SeatList(FieldList):
    """One entry per seat, numbered by seat even when a post leaves a seat's fields out.

    A plain FieldList renumbers the entries it finds, so a post without seat 1 would put
    seat 2's hand on seat 1. `max_entries` (the most players) bounds what a post can ask for.
    """

    def _extract_indices(self, prefix: str, formdata: Any) -> range:
        present = list(super()._extract_indices(prefix, formdata))
        return range(min(max(present) + 1, self.max_entries)) if present else range(0)

    def fit(self, seats: int) -> None:
        """Hold exactly one entry per seat of this table."""
        while len(self.entries) < seats:
            self.append_entry()
        del self.entries[seats:]


class RefusalOnFields(Form):
    """A form that shows a scorer's refusal next to the fields it names."""

    refused = False

    def field_at(self, path: str) -> Field | None:
        """Return the field an API path like "hands.Bo.points" is typed into, if any."""
        return None

    def show_refusal(self, refusal: Refusal) -> None:
        """Put each message by its field, or at the top of the form when no field fits."""
        self.refused = True
        self.form_errors = list(self.form_errors)
        for path, messages in refusal.fields.items():
            field = self.field_at(path)
            if field is None:
                self.form_errors.extend(messages)
            else:
                field.errors = [*field.errors, *messages]
        if not refusal.fields:
            self.form_errors.append(refusal.message)


class RoundForm(RefusalOnFields):
    """One round as typed at the table; each game subclasses it."""

    def __init__(
        self,
        table: Table,
        formdata: Any = None,
        entered: dict | None = None,
        state: dict | None = None,
    ):
        self.table = table
        # The match's state before this round: whose turn it is, what is left to play.
        self.state = state or {}
        data = self.data_from(table, entered) if entered else self.fresh_data(table, self.state)
        super().__init__(formdata, data=data)
        self.fit_table(table)

    def fit_table(self, table: Table) -> None:
        """Fit the fields to this table: the players and teams to choose from, an entry for
        each seat. A form whose fields are the same at every table leaves them as they are."""

    @classmethod
    def fresh_data(cls, table: Table, state: dict) -> dict[str, Any] | None:
        """Return what a new round's form starts with; most games start empty."""
        return None

    @classmethod
    def data_from(cls, table: Table, entered: dict) -> dict[str, Any]:
        """Return field values that show a stored round again, for correcting it."""
        raise NotImplementedError

    def to_input(self) -> dict[str, Any]:
        """Return the round in the API's shape, for the scorer to check."""
        raise NotImplementedError

    def follow_taps(self, formdata: Any) -> bool:
        """Apply a helper button pressed without JavaScript; say whether there was one."""
        return False


LOCAL_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩", "0123456789" * 2)
"""Persian and Arabic-Indic digits, as a phone's keyboard in those languages types them."""


class Number(IntegerField):
    """A whole number typed on the phone's numeric keypad, in Latin, Persian or Arabic digits.

    A text box with `inputmode=numeric` brings up the keypad; a number box would drop digits
    that are not Latin before the server ever saw them (۱۵۲ is read as 152).
    """

    widget = TextInput()

    def __init__(self, label: Any = None, validators: Any = None, **kwargs: Any) -> None:
        kwargs["render_kw"] = {"inputmode": "numeric", **(kwargs.get("render_kw") or {})}
        super().__init__(label, validators, **kwargs)

    def process_formdata(self, valuelist: list[str]) -> None:
        """Read the digits whatever script they were typed in."""
        super().process_formdata([value.translate(LOCAL_DIGITS).strip() for value in valuelist])


def option_field(option: Option, default: Any, chairs: tuple[str, ...]) -> Field:
    """Build the input for one option; a number left empty takes the option's default."""
    if option.player:
        seated = [
            SelectChoice(chair, _("Player {seat}").format(seat=seat))
            for seat, chair in enumerate(chairs, 1)
        ]
        return RadioField(option.label, choices=seated, default=default)
    if option.choices:
        labels = option.choice_labels or option.choices
        labelled = [SelectChoice(*pair) for pair in zip(option.choices, labels, strict=True)]
        return RadioField(option.label, choices=labelled, default=default)
    if option.is_flag:
        return BooleanField(option.label, default=default, description=option.help)
    return Number(
        option.label,
        validators=[Optional()],
        description=option.help,
        render_kw={"placeholder": option.placeholder or str(default)},
    )


def asks(option: Option, layout: str | None, preset: Mapping[str, Any]) -> bool:
    """Say whether the new-match form asks about an option: not one an event sets, nor one
    the seating layout fixes or ignores."""
    return (
        option.asked
        and option.name not in preset
        and (not option.layouts or layout in option.layouts)
    )


class MatchForm(RefusalOnFields):
    """Start a match: the names around the table (each alone, or in two teams) and the options."""

    scorer: Scorer
    layout: str | None
    preset: dict[str, str]
    """Options fixed by the layout the table chose (Gaigel for three), shown as a choice of page."""
    in_teams: bool
    counts: tuple[int, ...]

    def shown_options(self) -> list[Option]:
        """Return the options the form asks about."""
        return [option for option in self.scorer.options if asks(option, self.layout, self.preset)]

    def field_at(self, path: str) -> Field | None:
        """Map "players.2" to the third name typed, "teams.Eux.0" to Eux's first player."""
        head, _, rest = path.partition(".")
        if head == "options":
            return self._fields.get(f"option_{rest}")
        if head == "players":
            return self.name_box(self.players, rest)
        if path == "teams":
            return self.empty_player_box()
        if head == "teams":
            return self.team_box(rest)
        return self._fields.get(path)

    def team_boxes(self) -> list[tuple[Field, FieldList]]:
        """Pair each team's name box with its players' boxes."""
        return [
            (self[f"team_{i}"], self[f"team_{i}_players"])
            for i in range(len(self.scorer.team_names))
        ]

    def empty_player_box(self) -> Field | None:
        """Return the first player box left empty: the teams are short of that player."""
        for _team, players in self.team_boxes():
            for box in players.entries:
                if not (box.data or "").strip():
                    return box
        return None

    def team_box(self, path: str) -> Field | None:
        """Map "Eux.0" to Eux's first player and "Eux" to its name box ("" to an empty one)."""
        team, _, seat = path.partition(".")
        for name, players in self.team_boxes():
            if (name.data or "").strip().casefold() == team.strip().casefold():
                return self.name_box(players, seat) if seat else name
        return None

    @staticmethod
    def name_box(boxes: FieldList, given: str) -> Field:
        """Return the box the n-th name given came from; empty boxes are skipped."""
        filled = [entry for entry in boxes.entries if (entry.data or "").strip()]
        if given.isdigit() and int(given) < len(filled):
            return filled[int(given)]
        return boxes.entries[0]

    @staticmethod
    def names_in(boxes: FieldList) -> list[str]:
        """Return the names typed, leaving out empty boxes."""
        return [entry.data.strip() for entry in boxes.entries if (entry.data or "").strip()]

    def to_input(self) -> dict[str, Any]:
        """Return the match in the API's shape."""
        data: dict[str, Any] = {"game": self.scorer.id}
        if not self.in_teams:
            data["players"] = self.names_in(self.players)
        else:
            names = [name.data.strip() for name, _players in self.team_boxes()]
            if len({name.casefold() for name in names}) < len(names):
                raise Refusal.at("team_1", _("Each team needs its own name."))
            members = [self.names_in(players) for _name, players in self.team_boxes()]
            data["teams"] = dict(zip(names, members, strict=True))
        data["options"] = self.chosen_options() | self.confirm_choice(data)
        return data

    def confirm_choice(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Return the match's confirm choice in the API's shape: the scorer's side named as
        typed, its team or its player."""
        if not self.confirm.data:
            return {}
        sides = list(data["teams"]) if "teams" in data else list(data["players"])
        seat = int(self.scorer_seat.data) if (self.scorer_seat.data or "").isdigit() else 0
        return {"confirm": True, "scorer_side": sides[seat] if seat < len(sides) else None}

    def preset_choices(self, asked: Mapping[str, str]) -> None:
        """Start the form with the choices a link asks for (?variant=coinche: Coinche)."""
        for option in self.shown_options():
            given = asked.get(option.name)
            if option.choices and given in option.choices:
                self[f"option_{option.name}"].data = given

    def chosen_options(self) -> dict[str, Any]:
        """Return the options set; empty boxes and unticked derived switches keep defaults."""
        chosen = dict(self.preset)
        for option in self.shown_options():
            value = self[f"option_{option.name}"].data
            if value is None or (option.derived and not value):
                continue
            if option.player:
                # "Player 3" is whoever is typed in the third seat's box, boxes left empty too.
                seat = seats(len(self[f"option_{option.name}"].choices)).index(value)
                boxes = self.seat_boxes()
                typed = (boxes[seat].data or "").strip() if seat < len(boxes) else ""
                value = typed or value
            chosen[option.name] = value
        return chosen

    def seat_boxes(self) -> list[Field]:
        """Return the name boxes in seating order; partners sit opposite, so teams alternate."""
        if not self.in_teams:
            return list(self.players.entries)
        teams = [players.entries for _name, players in self.team_boxes()]
        return [box for seat in zip(*teams, strict=False) for box in seat]


def match_form(scorer: Scorer, formdata: Any = None, layout: str | None = None) -> MatchForm:
    """Build the start-a-match form for one game, in one of its seating layouts if it has some."""
    layout = layout if layout in scorer.layouts else next(iter(scorer.layouts), None)
    preset = scorer.layout_preset(layout)
    in_teams = scorer.layout_teams(layout)
    counts = scorer.counts_for(preset, in_teams)
    most = counts[-1]
    fields: dict[str, Any] = {
        "scorer": scorer,
        "layout": layout,
        "preset": preset,
        "in_teams": in_teams,
        "counts": counts,
    }
    if in_teams:
        for i, name in enumerate(scorer.team_names):
            team = _("Team {number}").format(number=i + 1)
            fields[f"team_{i}"] = StringField(team, default=name)
            fields[f"team_{i}_players"] = FieldList(StringField(_("Name")), min_entries=most // 2)
    else:
        fields["players"] = FieldList(StringField(_("Name")), min_entries=most)
    chairs = seats(most)
    defaults = scorer.resolve_options({}, chairs)
    for option in scorer.options:
        if asks(option, layout, preset):
            fields[f"option_{option.name}"] = option_field(option, defaults[option.name], chairs)
    fields["confirm"] = BooleanField(
        _("Every side confirms each round on its own phone"),
        description=_(
            "This phone enters the rounds for one side; the other sides confirm or contest "
            "each one from their phones, and the match shows settled once all are confirmed."
        ),
    )
    sides = (
        [_("Team {number}").format(number=i + 1) for i in range(len(scorer.team_names))]
        if in_teams
        else [_("Player {seat}").format(seat=i + 1) for i in range(most)]
    )
    fields["scorer_seat"] = RadioField(
        _("This phone plays for"),
        choices=[SelectChoice(str(i), side) for i, side in enumerate(sides)],
        default="0",
    )
    form_class = type(f"{scorer.name}MatchForm", (MatchForm,), fields)
    return form_class(formdata)
