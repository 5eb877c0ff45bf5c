// Belote: one team's points give the other's (the rest of the deal), quick announcement buttons
// add to a team's box, and the card counter fills a team's points from the cards it won.
"use strict";

(() => {
  const { say, typedNumber } = window.Tablescore;

  function counter(form) {
    return JSON.parse(form.dataset.counter);
  }

  function trumpOf(form) {
    const trump = form.querySelector("input[name='trump']:checked");
    return trump ? trump.value : "hearts";
  }

  function pointBoxes(form) {
    return [...form.querySelectorAll("input.points[data-side]")];
  }

  function fillOther(form, typed) {
    const other = pointBoxes(form).find((box) => box !== typed);
    if (!other || (other.value !== "" && !other.dataset.auto)) return;
    if (typed.value === "") {
      other.value = "";
      return;
    }
    other.value = Math.max(0, counter(form).totals[trumpOf(form)] - typedNumber(typed.value));
    other.dataset.auto = "true";
  }

  function countCards(form) {
    const values = counter(form).values[trumpOf(form)];
    const pressed = [...form.querySelectorAll("button[name='count'][aria-pressed='true']")];
    form.querySelector("input[name='counted']").value = pressed.map((b) => b.value).join(" ");
    const total = pressed.reduce((sum, button) => sum + values[button.value], 0);
    form.querySelector(".counter-total").textContent = pressed.length
      ? say("sayCounted", { total })
      : "";
    const counting = form.querySelector("input[name='counting']:checked");
    const side = [...form.querySelectorAll("input[name='counting']")].indexOf(counting);
    const box = pointBoxes(form)[side];
    if (!box || !pressed.length) return;
    box.value = total;
    delete box.dataset.auto;
    fillOther(form, box);
  }

  document.addEventListener("click", (event) => {
    const form = event.target.closest("form.belote");
    const button = event.target.closest("button[name='announce'], button[name='count']");
    if (!form || !button) return;
    event.preventDefault();
    if (button.name === "announce") {
      const box = document.getElementById(button.dataset.target);
      box.value = (typedNumber(box.value) || 0) + Number(button.value.split(":")[1]);
      return;
    }
    button.setAttribute("aria-pressed", button.getAttribute("aria-pressed") === "true" ? "false" : "true");
    countCards(form);
  });

  document.addEventListener("input", (event) => {
    const form = event.target.closest("form.belote");
    if (!form || !event.target.matches("input.points[data-side]")) return;
    delete event.target.dataset.auto;
    fillOther(form, event.target);
  });

  document.addEventListener("change", (event) => {
    const form = event.target.closest("form.belote");
    if (!form || !event.target.matches("input[name='trump'], input[name='counting']")) return;
    if (form.querySelector("button[name='count'][aria-pressed='true']")) {
      countCards(form);
      return;
    }
    const typed = pointBoxes(form).find((box) => box.value !== "" && !box.dataset.auto);
    if (typed) fillOther(form, typed);
  });

  // Belote, official rules: no trump has its own carrés, so each team has two sets of quick
  // announcement buttons. The server shows the set of the trump it was sent; changing the trump
  // here shows the matching set at once (a set for any trump, under maison rules, stays).
  function showAnnouncementSets(form) {
    const atNoTrump = trumpOf(form) === "no_trump";
    form.querySelectorAll(".quick[data-trumps='trump'], .quick[data-trumps='no_trump']").forEach((set) => {
      set.hidden = (set.dataset.trumps === "no_trump") !== atNoTrump;
    });
  }

  document.addEventListener("change", (event) => {
    const form = event.target.closest("form.belote");
    if (form && event.target.matches("input[name='trump']")) showAnnouncementSets(form);
  });

  // Deferred, this runs once the page is parsed and before the shared code puts a draft back:
  // each form starts as the server sent it.
  document.querySelectorAll("form.belote").forEach(showAnnouncementSets);

  // Correcting a deal: both boxes come filled from the stored deal. While they still add up to
  // the deal's points, either one is derived from the other as in a new deal.
  document.querySelectorAll("form.belote").forEach((form) => {
    const boxes = pointBoxes(form);
    const total = counter(form).totals[trumpOf(form)];
    const sum = boxes.reduce((added, box) => added + typedNumber(box.value), 0);
    if (boxes.length === 2 && boxes.every((box) => box.value !== "") && sum === total) {
      boxes.forEach((box) => { box.dataset.auto = "true"; });
    }
  });
})();
