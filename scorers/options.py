"""The options a match is created with: each game's rule choices, and those every game shares."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .refusal import Refusal
from .seating import seated
from .words import _, lazy

CONFIRM_CHOICE = ("confirm", "scorer_side")
"""The options of a match that are no game's: whether every side confirms, and for which side
the scoring phone plays. No game's rules read them."""


@dataclass(frozen=True)
class Option:
    """A rule choice a match is created with and keeps for its whole life."""

    name: str
    label: str | lazy
    default: Any | Callable[[tuple[str, ...], Mapping[str, Any]], Any]
    """A value, or a function of the players and the options before this one."""
    help: str | lazy = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str | lazy, ...] = ()
    """How a person reads each of `choices`, in the same order; the values themselves if none."""
    layouts: tuple[str, ...] = ()
    """The seating layouts the option means something in; empty for all of them."""
    placeholder: str | lazy = ""
    """How an empty box reads when the default depends on the table ("100 per opponent")."""
    player: bool = False
    """The value is one of the match's players (a first declarer, a first dealer)."""
    asked: bool = True
    """The new-match form and what-if ask for it; an event sets the others for its matches."""

    @property
    def is_flag(self) -> bool:
        """Say whether the option is a yes/no switch (neither a choice, a number nor a player)."""
        return not self.choices and self.minimum is None and not self.player

    @property
    def derived(self) -> bool:
        """Say whether the option is a switch that follows other options unless set."""
        return self.is_flag and callable(self.default)

    def shown(self, value: Any) -> str:
        """Say a value of this option as a page shows it: its choice's label, yes or no."""
        if self.is_flag:
            return _("yes") if value else _("no")
        if self.choice_labels and value in self.choices:
            return str(self.choice_labels[self.choices.index(value)])
        return str(value)

    def said(self, value: Any) -> str:
        """Name the option as chosen, for a line of a match's options: a choice in its own
        words ("House rules"), a number or a player after the option's name, a switch with
        yes or no."""
        if self.choice_labels:
            return self.shown(value)
        if self.is_flag:
            return _("{option}: {value}").format(option=self.label, value=self.shown(value))
        return f"{self.label} {self.shown(value)}"

    def default_for(self, players: tuple[str, ...], chosen: Mapping[str, Any]) -> Any:
        """Return the default in force for these players and the options chosen so far."""
        return self.default(players, chosen) if callable(self.default) else self.default

    def parse(self, text: str) -> Any:
        """Turn an option typed as text (a web address's ?target=500) into its value's type."""
        if self.is_flag:
            said = {"true": True, "yes": True, "on": True, "1": True}
            said |= {"false": False, "no": False, "off": False, "0": False}
            if text.lower() not in said:
                raise Refusal.at(self.name, _("{option} is yes or no.").format(option=self.label))
            return said[text.lower()]
        if self.minimum is not None:
            try:
                return int(text)
            except ValueError:
                raise Refusal.at(
                    self.name, _("{option} is a whole number.").format(option=self.label)
                ) from None
        return text

    def read(self, value: Any, players: tuple[str, ...]) -> Any:
        """Check one given value, returning it in its stored type."""
        if self.player:
            return seated(value, players, f"options.{self.name}")
        if self.choices:
            if value not in self.choices:
                raise Refusal.at(
                    f"options.{self.name}",
                    _("{option} must be one of: {choices}.").format(
                        option=self.label, choices=", ".join(self.choices)
                    ),
                )
            return value
        if self.is_flag:
            if not isinstance(value, bool):
                raise Refusal.at(
                    f"options.{self.name}",
                    _("{option} must be true or false.").format(option=self.label),
                )
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise Refusal.at(
                f"options.{self.name}",
                _("{option} must be a whole number.").format(option=self.label),
            )
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            raise Refusal.at(
                f"options.{self.name}",
                _("{option} must be between {least} and {most}.").format(
                    option=self.label, least=self.minimum, most=self.maximum
                ),
            )
        return value


def choice_option(
    name: str, label: str | lazy, choices: Mapping[str, str | lazy], help: str | lazy
) -> Option:
    """Offer ways to play by value and how a person reads each; the first is the usual one."""
    return Option(
        name,
        label,
        default=next(iter(choices)),
        help=help,
        choices=tuple(choices),
        choice_labels=tuple(choices.values()),
    )


def target_option(
    default: Any, help: str | lazy, maximum: int, placeholder: str | lazy = ""
) -> Option:
    """Offer the total that ends a match, which the score bar counts down to (`to_go`); a
    default may follow the table, as an `Option`'s may."""
    return Option(
        "target",
        lazy("Target"),
        default=default,
        placeholder=placeholder,
        help=help,
        minimum=1,
        maximum=maximum,
    )


FIRST_DEALER = Option(
    "first_dealer",
    lazy("First dealer"),
    default=lambda players, _chosen: players[0],
    help=lazy("Who deals the first hand; the deal then moves to the next seat."),
    player=True,
)
"""Every game but Barbu (whose declarer deals) lets the table say who deals first."""


MATCH_DEALS = Option(
    "match_deals",
    lazy("Deals in the match"),
    default=None,
    help=lazy(
        "The match ends after this many deals, the best total winning; empty: as the game ends."
    ),
    minimum=1,
    maximum=500,
    asked=False,
)
"""An event's matches may be a fixed number of deals long (12 deals a round of a concours)."""
