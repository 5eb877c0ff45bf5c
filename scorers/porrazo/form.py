"""Porrazo's peg form: one event tapped mid-hand, with the tendido and capture helpers."""

from __future__ import annotations

from typing import Any

from wtforms import RadioField, SelectChoice, SelectField, StringField
from wtforms.fields import Field
from wtforms.validators import Optional

from ..base import Table
from ..cards import RANKS
from ..forms import Number, RoundForm, SeatList
from ..refusal import Refusal
from ..words import _, lazy
from .rules import EVENT_NAMES, best_tendido, capture, next_in_play, read_tendido
from .scorer import ANSWERS, BY_PLAYER, PROVISIONAL, RANKED, sides_of


class PegForm(RoundForm):
    """One peg, tapped mid-hand: who, what, and the cards it needs; with the two helpers."""

    player = RadioField(lazy("Who?"), validate_choice=False)
    event = RadioField(lazy("What?"), validate_choice=False)
    rank = RadioField(lazy("Rank"), validate_choice=False)
    limpia = RadioField(lazy("Limpia made by the same card"), validate_choice=False, default="")
    pair_cards = SeatList(SelectField(lazy("Card"), validate_choice=False), max_entries=4)
    table_cards = StringField(
        lazy("Cards already on the table"), render_kw={"placeholder": "5 6 Q"}
    )
    declared = SeatList(
        StringField(lazy("Declared"), render_kw={"placeholder": "7 7"}), max_entries=8
    )
    counts = SeatList(
        Number(lazy("Cards won"), validators=[Optional()]),
        max_entries=8,
    )
    capture_table = StringField(lazy("Table"), render_kw={"placeholder": "A 2 Q K"})
    capture_played = SelectField(lazy("Card played"), validate_choice=False)
    event_names = EVENT_NAMES
    ranked = RANKED
    provisional = PROVISIONAL

    def __init__(self, table: Table, *args: Any, **kwargs: Any):
        super().__init__(table, *args, **kwargs)
        self.preview: list[str] = []
        self.previewed: str | None = None
        """Which helper answered (tendido or capture): its answer is shown beside it."""

    def fit_table(self, table: Table) -> None:
        """Offer the players (and partnerships), the events and the ranks."""
        ranks = [SelectChoice(rank, rank) for rank in RANKS]
        who = list(table.players) + (list(table.teams) if table.teams else [])
        self.player.choices = who
        self.event.choices = [SelectChoice(*item) for item in EVENT_NAMES.items()]
        self.rank.choices = ranks
        self.limpia.choices = [SelectChoice("", lazy("None")), *ranks]
        self.pair_cards.fit(4)
        for box in self.pair_cards:
            box.choices = [SelectChoice("", "—"), *ranks]
        self.declared.fit(len(table.players))
        self.counts.fit(len(sides_of(table)))
        self.capture_played.choices = ranks

    @classmethod
    def fresh_data(cls, table: Table, state: dict) -> dict[str, Any] | None:
        """Offer the pending porrazo's answer to the next player: a counter-porrazo of its rank
        is chosen for them; a San Benito, which ends the game, only has its player chosen."""
        held = state.get("pending")
        if not held:
            return None
        answer = {"player": next_in_play(table, held["player"])}
        if held["event"] == "porrazo":
            answer |= {"event": "counter_porrazo", "rank": held["rank"]}
        return answer

    def answer_offered(self) -> str | None:
        """Say who may answer the pending porrazo or counter-porrazo: the next player."""
        held = self.state.get("pending")
        if not held:
            return None
        who = next_in_play(self.table, held["player"])
        if self.table.teams and who in self.table.teams:
            said = {
                "porrazo": _("Counter-porrazo: {side} (the next player's side)."),
                "counter_porrazo": _("San Benito: {side} (the next player's side)."),
            }
            return said[held["event"]].format(side=who)
        said = {
            "porrazo": _("Counter-porrazo: {player} (the next player)."),
            "counter_porrazo": _("San Benito: {player} (the next player)."),
        }
        return said[held["event"]].format(player=who)

    def tendido_offered(self) -> str | None:
        """Say who lays the tendido: the dealer."""
        dealer = self.state.get("dealer")
        if not dealer:
            return None
        return _("Laid by the dealer, {dealer}, once a turn.").format(dealer=dealer)

    def sides(self) -> list[tuple[str, Field]]:
        """Pair each side with its card-count box."""
        return list(zip(sides_of(self.table), self.counts, strict=True))

    def seats(self) -> list[tuple[str, Field]]:
        """Pair each player with their declared-ronda box."""
        return list(zip(self.table.players, self.declared, strict=True))

    @classmethod
    def data_from(cls, table: Table, entered: dict) -> dict[str, Any]:
        """Show a stored peg again, for correcting it."""
        data = {key: entered.get(key) for key in ("player", "event", "rank")}
        data["limpia"] = entered.get("limpia") or ""
        if "pairs" in entered:
            data["pair_cards"] = [card for pair in entered["pairs"] for card in pair]
            data["table_cards"] = " ".join(entered["table"])
        if "declared" in entered:
            data["declared"] = [" ".join(entered["declared"].get(n, [])) for n in table.players]
        if "counts" in entered:
            data["counts"] = [entered["counts"][side] for side in sides_of(table)]
        return data

    def to_input(self) -> dict[str, Any]:
        """Return the event in the API's shape, with only what it needs."""
        event = self.event.data
        peg: dict[str, Any] = {"event": event}
        if event in BY_PLAYER:
            peg["player"] = self.player.data or self.only_one(event)
        if event in RANKED:
            peg["rank"] = self.rank.data
        if event in PROVISIONAL and self.limpia.data:
            peg["limpia"] = self.limpia.data
        if event == "tendido":
            cards = [box.data for box in self.pair_cards]
            peg["pairs"] = [cards[:2], cards[2:]]
            peg["table"] = (self.table_cards.data or "").split()
        if event == "rondas":
            peg["declared"] = {
                n: box.data.split() for n, box in self.seats() if (box.data or "").split()
            }
        if event == "cards":
            peg["counts"] = {side: box.data for side, box in self.sides() if box.data is not None}
        return peg

    def only_one(self, event: str) -> str | None:
        """Return who alone may make this event when no chip was tapped: the dealer lays the
        tendido, the next player answers what is pending."""
        held = self.state.get("pending")
        if event == "tendido":
            return self.state.get("dealer")
        if held and ANSWERS.get(event) == held["event"]:
            return next_in_play(self.table, held["player"])
        return None

    def follow_taps(self, formdata: Any) -> bool:
        """Work out a helper's answer ("preview" = tendido or capture) without pegging."""
        helper = formdata.get("preview")
        self.previewed = helper if helper in ("tendido", "capture") else None
        if helper == "tendido":
            try:
                pairs, on_table = read_tendido(self.to_input() | {"event": "tendido"})
            except Refusal as refusal:
                self.preview = [refusal.message]
                return True
            count, row, sentences = best_tendido(pairs, on_table)
            best = _("Best count {count}, laid {row}.").format(count=count, row="-".join(row))
            self.preview = [best, *sentences]
            return True
        if helper == "capture":
            on_table = (self.capture_table.data or "").upper().split()
            if any(card not in RANKS for card in on_table):
                self.preview = [
                    _("Name the table's cards by rank: {ranks}.").format(ranks=" ".join(RANKS))
                ]
                return True
            captured, limpia = capture(
                on_table, self.capture_played.data, self.table.options["wrap"]
            )
            if not captured:
                self.preview = [
                    _("A {card} captures nothing here.").format(card=self.capture_played.data)
                ]
            else:
                said = (
                    _("Captures {cards}: a limpia worth {points}.")
                    if limpia
                    else _("Captures {cards}; no limpia.")
                )
                self.preview = [said.format(cards="-".join(captured), points=limpia)]
            return True
        return False

    def field_at(self, path: str) -> Field | None:
        """Map "pairs.1" to the tendido's cards, "declared.Ana" and "counts.Bo" to their boxes."""
        head, _, rest = path.partition(".")
        if head in ("player", "event", "rank", "limpia"):
            return self[head]
        if head == "pairs":
            return self.pair_cards[
                2 * int(rest[0]) if rest[:1].isdigit() and int(rest[0]) < 2 else 0
            ]
        if head == "table":
            return self.table_cards
        boxes = {"declared": self.seats(), "counts": self.sides()}.get(head, [])
        for name, box in boxes:
            if not rest or name.casefold() == rest.partition(".")[0].casefold():
                return box
        return None


round_form = PegForm
"""The form a phone fills in for one peg of Porrazo."""
