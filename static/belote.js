// Belote: one team's points always give the other's (the rest of the deal), each extra's
// summary says what it holds, quick announcement buttons add to a team's box, and the card
// counter fills a team's points from the cards it won.
"use strict";

(() => {
  const { say, typedNumber, inDigits, BETWEEN } = window.Tablescore;

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

  function checked(form, name) {
    const chosen = form.querySelector(`input[name='${name}']:checked`);
    return chosen ? chosen.value : "";
  }

  // The box typed last is the one the table counted; the other is always the rest, whatever it
  // showed before (a refused deal, a draft put back, a correction).
  const source = new WeakMap();

  function fillOther(form) {
    const typed = source.get(form);
    const other = pointBoxes(form).find((box) => box !== typed);
    if (!typed || !other) return;
    other.value = typed.value.trim() === ""
      ? ""
      : Math.max(0, counter(form).totals[trumpOf(form)] - typedNumber(typed.value));
  }

  // A capot takes every card point and the last trick: the boxes say so at once.
  function fillCapot(form) {
    const capot = checked(form, "capot");
    if (!capot) return;
    const side = JSON.parse(form.dataset.teams).indexOf(capot);
    pointBoxes(form).forEach((box, i) => {
      box.value = i === side ? counter(form).totals[trumpOf(form)] : 0;
    });
    source.set(form, pointBoxes(form)[side]);
    const last = form.querySelector(`input[name='last_trick'][value='${CSS.escape(capot)}']`);
    if (last) last.checked = true;
  }

  // Each extra's summary: what it holds now, in the words the choice is shown in.
  function showHeld(form) {
    form.querySelectorAll("details.extra").forEach((extra) => {
      const held = [];
      extra.querySelectorAll("input[type='radio']:checked").forEach((input) => {
        if (input.value && input.value !== "none" && input.name !== "counting") {
          held.push(input.closest("label").textContent.trim());
        }
      });
      extra.querySelectorAll("input.points").forEach((box) => {
        const value = typedNumber(box.value);
        if (value) {
          const team = form.querySelector(`label[for='${box.id}']`).textContent.trim();
          held.push(box.name.endsWith("belotes") ? `${team} ×${value}` : `${team} +${value}`);
        }
      });
      const shown = extra.querySelector(".held");
      shown.replaceChildren(...held.flatMap((text, i) => {
        const item = document.createElement("bdi");
        item.textContent = inDigits(text);
        return i ? [BETWEEN, item] : [item];
      }));
      if (held.length) extra.open = true;
    });
  }

  function countCards(form) {
    const values = counter(form).values[trumpOf(form)];
    const pressed = [...form.querySelectorAll("button[name='count'][aria-pressed='true']")];
    form.querySelector("input[name='counted']").value = pressed.map((b) => b.value).join(" ");
    const total = pressed.reduce((sum, button) => sum + values[button.value], 0);
    form.querySelector(".counter-total").textContent = pressed.length
      ? say("sayCounted", { total })
      : "";
    const side = [...form.querySelectorAll("input[name='counting']")].findIndex((i) => i.checked);
    const box = pointBoxes(form)[side];
    if (!box || !pressed.length) return;
    box.value = total;
    source.set(form, box);
    fillOther(form);
  }

  document.addEventListener("click", (event) => {
    const form = event.target.closest("form.belote");
    const button = event.target.closest("button[name='announce'], button[name='count']");
    if (!form || !button) return;
    event.preventDefault();
    if (button.name === "announce") {
      const box = document.getElementById(button.dataset.target);
      box.value = (typedNumber(box.value) || 0) + Number(button.value.split(":")[1]);
      showHeld(form);
      return;
    }
    button.setAttribute("aria-pressed", button.getAttribute("aria-pressed") === "true" ? "false" : "true");
    countCards(form);
  });

  document.addEventListener("input", (event) => {
    const form = event.target.closest("form.belote");
    if (!form) return;
    if (event.target.matches("input.points[data-side]")) {
      source.set(form, event.target);
      fillOther(form);
    }
    showHeld(form);
  });

  document.addEventListener("change", (event) => {
    const form = event.target.closest("form.belote");
    if (!form) return;
    const name = event.target.name;
    if (name === "capot") fillCapot(form);
    if (name === "contract" && ["capot", "generale"].includes(event.target.value)) {
      form.querySelector("#extra-capot").open = true;
    }
    if (name === "trump" || name === "counting") {
      if (form.querySelector("button[name='count'][aria-pressed='true']")) countCards(form);
      else if (checked(form, "capot")) fillCapot(form);
      else fillOther(form);
    }
    if (name === "trump") showAnnouncementSets(form);
    showHeld(form);
    // Who took, the contract and the trump chosen: the takers' points are next to type.
    if (event.isTrusted && ["taker", "contract", "trump"].includes(name)) focusPoints(form);
  });

  function focusPoints(form) {
    const taker = form.querySelector("input[name='taker']:checked");
    const asked = ["taker", "trump"].concat(form.querySelector("input[name='contract']") ? ["contract"] : []);
    if (!taker || asked.some((field) => !checked(form, field))) return;
    const boxes = pointBoxes(form);
    if (boxes.some((box) => box.value.trim() !== "")) return;
    const side = JSON.parse(form.dataset.teams).indexOf(taker.dataset.team);
    if (boxes[side]) boxes[side].focus();
  }

  // Belote, official rules: no trump has its own carrés, so each team has two sets of quick
  // announcement buttons. The server shows the set of the trump it was sent; changing the trump
  // here shows the matching set at once (a set for any trump, under maison rules, stays).
  function showAnnouncementSets(form) {
    const atNoTrump = trumpOf(form) === "no_trump";
    form.querySelectorAll(".quick[data-trumps='trump'], .quick[data-trumps='no_trump']").forEach((set) => {
      set.hidden = (set.dataset.trumps === "no_trump") !== atNoTrump;
    });
  }

  // Deferred, this runs once the page is parsed and before the shared code puts a draft back:
  // each form starts as the server sent it.
  document.querySelectorAll("form.belote").forEach((form) => {
    showAnnouncementSets(form);
    // A refused or corrected deal comes back with both boxes filled: the first one filled
    // stands for the count until another is typed.
    const filled = pointBoxes(form).find((box) => box.value.trim() !== "");
    if (filled) source.set(form, filled);
  });
})();
