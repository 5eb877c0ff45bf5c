// Rami: card taps update the hand on the phone instead of a round trip to the server. Without
// JavaScript every button still works, as a form post the server answers.
"use strict";

(() => {
  const { say, inDigits } = window.Tablescore;

  function handOf(element) {
    return element.closest("fieldset.hand");
  }

  function cardsField(hand) {
    return hand.querySelector('input[type="hidden"][name$="-cards"]');
  }

  function padButton(rank) {
    return document.querySelector(`.card-pad button[data-card="${rank}"]`);
  }

  function valueOf(rank) {
    const button = padButton(rank);
    return button ? Number(button.dataset.value) : 0;
  }

  // A card as its pad button writes it: the rank a French pack prints (R, D, V), the joker.
  function shownAs(rank) {
    const button = padButton(rank);
    return button ? button.textContent.trim() : rank;
  }

  function drawHand(hand) {
    const cards = cardsField(hand).value.split(/\s+/).filter(Boolean);
    const shown = hand.querySelector(".hand-cards");
    shown.replaceChildren(...cards.map((card, index) => {
      const chip = document.createElement("button");
      chip.type = "submit";
      chip.className = "chip";
      chip.name = "untap";
      chip.value = `${hand.dataset.seat}:${index}`;
      chip.setAttribute("aria-label", say("sayTakeBack", { card: shownAs(card) }));
      chip.textContent = `${inDigits(shownAs(card))} ×`;
      return chip;
    }));
    const total = cards.reduce((sum, card) => sum + valueOf(card), 0);
    hand.querySelector(".hand-total").textContent = cards.length ? say("sayPoints", { total }) : "";
  }

  function tap(event) {
    const button = event.target.closest("button[name='tap'], button[name='untap']");
    if (!button || !handOf(button)) return;
    event.preventDefault();
    const hand = handOf(button);
    const field = cardsField(hand);
    const cards = field.value.split(/\s+/).filter(Boolean);
    const what = button.value.split(":")[1];
    if (button.name === "tap" && cards.length < 14) cards.push(what);
    if (button.name === "untap") cards.splice(Number(what), 1);
    field.value = cards.join(" ");
    drawHand(hand);
  }

  // The player who went out has no hand to count: hide their row while they are chosen.
  function markWinner(form) {
    const outcome = form.querySelector("input[name='outcome']:checked");
    const winner = form.querySelector("input[name='winner']:checked");
    const blocked = outcome && outcome.value === "blocked";
    form.querySelectorAll("fieldset.hand").forEach((hand) => {
      hand.classList.toggle("is-winner", !blocked && !!winner && hand.dataset.player === winner.value);
    });
    const winnerChoice = form.querySelector("input[name='winner']");
    if (winnerChoice) winnerChoice.closest("fieldset").hidden = blocked;
    // A rami sec scores every other hand the same: nothing to count.
    form.classList.toggle("rami-sec", Boolean(outcome) && outcome.value === "rami_sec");
  }

  // The pad's order: once who went out is chosen, and once a hand says whether it melded, the
  // next hand's value box is ready to type in (the phone's keyboard stays up between them).
  function nextValue(form, after) {
    markWinner(form);
    const hands = [...form.querySelectorAll("fieldset.hand:not(.is-winner)")];
    const from = after ? hands.indexOf(handOf(after)) + 1 : 0;
    const next = hands.slice(from).find((hand) => hand.querySelector("input.points").value === "");
    if (next && !next.querySelector("input[type='radio']:checked")) {
      next.querySelector("input.points").focus();
    }
  }

  document.addEventListener("change", (event) => {
    const form = event.target.closest("form.rami");
    if (!form || !event.isTrusted) return;
    if (event.target.name === "winner") nextValue(form, null);
    if (event.target.name.endsWith("-melded")) nextValue(form, event.target);
  });

  document.addEventListener("click", tap);
  document.addEventListener("change", (event) => {
    const form = event.target.closest("form.round-form");
    if (form) markWinner(form);
  });
  // Deferred, this runs once the page is parsed, before the shared code puts a draft back.
  document.querySelectorAll("form.round-form").forEach(markWinner);

  // A hand put back in the form (a draft, a kept round taken back) shows its cards again.
  document.addEventListener("change", (event) => {
    const hand = handOf(event.target);
    if (hand && event.target === cardsField(hand)) drawHand(hand);
  });
})();
