// Barbu: step the counts, and keep the doubles grid to what the rules allow (the declarer only
// redoubles; positive contracts double the declarer only). The shared code (data-parts-by)
// shows only the chosen contract's inputs.
"use strict";

(() => {
  const { say, typedNumber } = window.Tablescore;

  function barbuContract(form) {
    const chosen = form.querySelector("input[name='contract']:checked");
    return chosen ? chosen.value : "";
  }

  function showCountSum(form) {
    const sum = form.querySelector(".count-sum");
    if (!sum) return;
    const contract = barbuContract(form);
    const counts = [...form.querySelectorAll("input.count")];
    const total = counts.reduce((added, box) => added + (typedNumber(box.value) || 0), 0);
    sum.textContent = say("saySum", { total, most: contract === "no_queens" ? 4 : 13 });
  }

  function limitDoubles(form) {
    const declarer = form.dataset.declarer;
    const chosen = form.querySelector("input[name='contract']:checked");
    const positive = chosen && chosen.dataset.positive === "true";
    form.querySelectorAll("input[name='doubles']").forEach((box) => {
      const [doubler, doubled] = box.value.split(">");
      const reverse = form.querySelector(`input[name='doubles'][value='${doubled}>${doubler}']`);
      let allowed = true;
      if (doubler === declarer) allowed = !!(reverse && reverse.checked);
      else if (positive) allowed = doubled === declarer;
      box.disabled = !allowed && !box.checked;
      if (!allowed && box.checked && doubler === declarer) {
        box.checked = false;
        box.disabled = true;
      }
    });
  }

  document.addEventListener("click", (event) => {
    const form = event.target.closest("form.barbu");
    const button = event.target.closest("button[name='step']");
    if (!form || !button) return;
    event.preventDefault();
    const [seat, step] = button.value.split(":");
    const box = form.querySelectorAll("input.count")[Number(seat)];
    box.value = Math.min(13, Math.max(0, (typedNumber(box.value) || 0) + Number(step)));
    showCountSum(form);
  });

  // A count tapped is typed over, not after: the 0 a box starts with never becomes 30.
  document.addEventListener("focusin", (event) => {
    if (event.target.matches("form.barbu input.count")) event.target.select();
  });

  document.addEventListener("change", (event) => {
    const form = event.target.closest("form.barbu");
    if (!form) return;
    showCountSum(form);
    limitDoubles(form);
  });

  document.addEventListener("input", (event) => {
    const form = event.target.closest("form.barbu");
    if (form && event.target.matches("input.count")) showCountSum(form);
  });

  // Deferred, this runs once the page is parsed, before the shared code puts a draft back.
  document.querySelectorAll("form.barbu").forEach((form) => {
    showCountSum(form);
    limitDoubles(form);
  });

  // A double the rules forbid can't be ticked; tapping it says why, under the grid.
  document.addEventListener("click", (event) => {
    const toggle = event.target.closest("form.barbu label.toggle");
    if (!toggle || !toggle.querySelector("input:disabled")) return;
    const form = toggle.closest("form");
    form.querySelector(".doubles-why").textContent = toggle.title || form.dataset.whyPositive;
  });
})();
