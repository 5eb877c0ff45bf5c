// A match page whose rounds wait on the phone (the server out of reach), on a phone ready to
// score alone: the phone's own Python counts them on the match as the server last answered it,
// and the score bar shows the totals with them, saying so. static/app.js loads this file only
// then; the rounds stay in the outbox, sent as ever once the server is back.
"use strict";

(() => {
  const section = document.getElementById("outbox");
  const files = (localStorage.getItem("tablescore-alone") || "").split(" ");
  const python = files.find((url) => url.includes("/alone/python-"));
  const loader = files.find((url) => url.endsWith("/pyodide.mjs"));
  const cache = localStorage.getItem("tablescore-alone-cache");
  if (!section || !python || !loader || !cache) return;
  const ask = self.TablescorePython(section.dataset.worker, loader.slice(0, -"pyodide.mjs".length), python);
  const language = document.documentElement.lang;
  const numerals = JSON.parse(section.dataset.numerals);

  // The match as the server last answered it, with each waiting round read from its form as
  // the server will read it (a correction replaces its round); one the rules refuse stops the
  // count there, as it will stop the sending.
  async function counted(items) {
    const kept = await caches.match(section.dataset.api, { cacheName: cache });
    // Only the very match this page shows (its ETag names its uid and version): a copy kept
    // before the last change (the server gone while it was fetched) would count other rounds.
    if (!kept || !(kept.headers.get("ETag") || "").includes(`"${section.dataset.shown}-`)) return null;
    const server = await kept.json();
    const seated = server.teams ? { teams: server.teams } : { players: server.players };
    const match = {
      data: { game: server.game, ...seated, options: server.options },
      rounds: server.rounds.map((round) => ({ key: String(round.id), input: round.input })),
    };
    let count = 0;
    for (const item of items) {
      const edit = /\/rounds\/(\d+)\/edit$/.exec(item.url);
      const n = edit ? Number(edit[1]) : null;
      // Sent from the outbox, a round is never asked about: it records as entered.
      const body = `${item.body}&sure=1`;
      const answer = await ask({ do: n ? "correct" : "record", match, body, n, language });
      if (!answer.entered) break;
      if (n) match.rounds[n - 1] = { key: match.rounds[n - 1].key, input: answer.entered };
      else match.rounds.push({ key: item.id, input: answer.entered });
      count += 1;
    }
    return { match, count };
  }

  async function count() {
    const items = section.waiting || [];
    if (!items.length) return;
    const found = await counted(items);
    if (!found || !found.count) return;
    const answer = await ask({ do: "show", view: "bar", match: found.match, language, numerals });
    const bar = document.querySelector(".score-bar");
    const drawn = document.createElement("template");
    drawn.innerHTML = answer.html.trim();
    const fresh = drawn.content.querySelector(".score-bar");
    const pending = fresh.querySelector("#bar-pending");
    pending.textContent = window.Tablescore.inDigits(pending.dataset.sayCounted.replace("{count}", found.count));
    pending.hidden = false;
    fresh.dataset.counted = String(found.count);
    bar.replaceWith(fresh);
    const help = section.querySelector(".help[data-say-counted]");
    help.textContent = help.dataset.sayCounted;
  }

  document.addEventListener("tablescore:waiting", () => count().catch(() => {}));
  count().catch(() => {
    // The phone's Python could not count them: the bar says they wait, as before.
  });
})();
