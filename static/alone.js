// The phone alone (templates/alone.html): matches started while the server was out of reach,
// scored by the phone's own Python (static/phone_worker.js: the server's rules, forms and
// templates), kept in the phone's storage (static/phone_store.js), and sent to the server
// once each when it is back. The page's address says what it shows:
// /alone?match=<uid>[&view=edit|why|rules&n=<round>]; the list of matches without a match.
"use strict";

(() => {
  const page = document.getElementById("phone");
  if (!page) return;
  const store = self.TablescorePhone;
  const { inDigits } = window.Tablescore;
  const view = document.getElementById("phone-view");
  const language = document.documentElement.lang;
  const say = (name, values = {}) => inDigits((page.dataset[name] || "").replace(/\{(\w+)\}/g, (_, key) => values[key]));

  // The phone's Python answers in a worker; it starts once, as the page opens.
  const python = self.TablescorePython(page.dataset.worker, page.dataset.runtime, page.dataset.python);
  const numerals = JSON.parse(page.dataset.numerals);
  const ask = (question) => python({ language, numerals, ...question });

  const now = () => new Date().toISOString();
  const newKey = () => crypto.randomUUID().replaceAll("-", "");
  const kept = (match) => ({ uid: match.uid, data: match.data, rounds: match.rounds, removed: match.removed, log: match.log });

  function place() {
    const query = new URLSearchParams(location.search);
    return { uid: query.get("match"), view: query.get("view") || "match", n: Number(query.get("n")) || null };
  }

  function go(uid, view = "match", n = null, replace = false, changed = null) {
    const query = new URLSearchParams(uid ? { match: uid } : {});
    if (view !== "match") query.set("view", view);
    if (n) query.set("n", n);
    const address = `${location.pathname}${query.size ? `?${query}` : ""}`;
    if (replace) history.replaceState(null, "", address);
    else history.pushState(null, "", address);
    window.scrollTo(0, 0);
    return show(changed);
  }

  function draw(html) {
    view.innerHTML = html;
    // The games' scripts set a form up as it changes (Rami hides the hand of who went out):
    // a form drawn here starts set up, as one a page loads with does.
    for (const form of view.querySelectorAll("form.round-form")) form.dispatchEvent(new Event("change", { bubbles: true }));
    page.dataset.state = "shown";
  }

  function drawText(title, lines, back) {
    const heading = document.createElement("h1");
    heading.textContent = title;
    const items = lines.map((line) => {
      const said = document.createElement("p");
      said.textContent = line;
      return said;
    });
    view.replaceChildren(heading, ...items, ...(back ? [back] : []));
    page.dataset.state = "shown";
  }

  async function showList() {
    const matches = (await store.all()).filter((match) => match.state !== "starting");
    const list = document.createElement("ul");
    list.className = "phone-list";
    for (const match of matches) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      const names = match.data.players || Object.keys(match.data.teams || {});
      link.textContent = `${match.title || match.game} · ${names.join(" · ")}`;
      link.dir = "auto";
      link.href = match.state === "sent" ? match.server.url : `?match=${match.uid}`;
      const state = document.createElement("small");
      const said = { sent: "saySent", conflict: "sayNotSent" }[match.state] || "sayPlaying";
      state.textContent = ` ${say(said, { n: match.rounds.length })}`;
      item.append(link, state);
      list.append(item);
    }
    const heading = document.createElement("h1");
    heading.textContent = page.dataset.sayTitle;
    const empty = document.createElement("p");
    empty.textContent = page.dataset.sayNone;
    const start = document.createElement("p");
    const home = document.createElement("a");
    home.className = "button primary";
    home.href = page.dataset.home;
    home.textContent = page.dataset.sayStart;
    start.append(home);
    view.replaceChildren(heading, matches.length ? list : empty, start);
    page.dataset.state = "shown";
  }

  // A match the service worker kept from a new-match form is read by the phone's Python,
  // as the server would have read it; one it refuses is dropped, and the form is one Back away.
  async function begin(match) {
    const answer = await ask({ do: "start", game: match.game, body: match.body, layout: match.layout });
    if (answer.refused) {
      await store.drop(match.uid);
      const back = document.createElement("button");
      back.type = "button";
      back.textContent = page.dataset.sayBack;
      back.addEventListener("click", () => history.back());
      drawText(page.dataset.sayRefused, answer.refused, back);
      return null;
    }
    match.data = answer.data;
    match.passcode = new URLSearchParams(match.body).get("passcode") || null;
    delete match.body;
    match.state = "playing";
    await store.put(match);
    return match;
  }

  // Draw the page the address names; `changed`, the match just changed and stored, is drawn
  // without reading it again.
  async function show(changed = null) {
    drawnFor = location.search;
    const { uid, view: wanted, n } = place();
    if (!uid) return showList();
    let match = changed && changed.uid === uid ? changed : await store.get(uid);
    if (!match) return showList();
    if (match.state === "starting") match = await begin(match);
    if (!match) return null;
    if (match.state === "sent") return location.replace(match.server.url);
    let answer;
    try {
      answer = await ask({ do: "show", match: kept(match), view: wanted, n });
    } catch (error) {
      // A round or a page this match no longer has (Back after a removal): its sheet instead.
      if (wanted !== "match") return go(uid, "match", null, true);
      throw error;
    }
    if (match.title !== answer.title) {
      match.title = answer.title;
      await store.put(match);
    }
    draw(answer.html);
    if (match.state === "conflict") view.prepend(conflictNotice(match));
    return answer;
  }

  function conflictNotice(match) {
    const notice = document.createElement("div");
    notice.className = "alert conflict";
    notice.setAttribute("role", "alert");
    const said = document.createElement("p");
    said.textContent = say("sayConflict", { message: match.conflict });
    notice.append(said);
    if (match.server) {
      const theirs = document.createElement("a");
      theirs.href = match.server.url;
      theirs.textContent = page.dataset.sayTheirs;
      notice.append(theirs, " ");
    }
    const apart = document.createElement("button");
    apart.type = "button";
    apart.dataset.apart = "";
    apart.textContent = page.dataset.sayApart;
    notice.append(apart);
    return notice;
  }

  async function keepAndSend(match) {
    await store.put(match);
    sendAll();
    return match;
  }

  function change(match, edit) {
    edit(match);
    return keepAndSend(match);
  }

  // A round removed (Undo removes the last one) is kept, to restore as it was.
  function remove(before, n) {
    const match = structuredClone(before);
    const [gone] = match.rounds.splice(n - 1, 1);
    match.removed.push({ n, key: gone.key, input: gone.input, at: gone.at, removed_at: now() });
    match.log.push({ action: "remove", n, key: newKey(), round: gone.key, at: now() });
    return match;
  }

  // Rounds count in the order they were entered, as on the server: a round restored goes back
  // among them where it stood, whatever was removed or restored since.
  function restore(before, index) {
    const match = structuredClone(before);
    const [entry] = match.removed.splice(index, 1);
    const entered = match.log.filter((change) => change.action === "add").map((change) => change.round);
    const at = match.rounds.filter((round) => entered.indexOf(round.key) < entered.indexOf(entry.key)).length;
    match.rounds.splice(at, 0, { key: entry.key, input: entry.input, at: entry.at || now() });
    match.log.push({ action: "restore", n: at + 1, key: newKey(), round: entry.key, at: now() });
    return match;
  }

  // A removal or a restore the match can't take (a later round would no longer score) is
  // refused with the server's words, and nothing changes.
  async function fits(after, n) {
    const answer = await ask({ do: "fits", match: kept(after), n });
    if (answer.refused) alert(answer.refused);
    return !answer.refused;
  }

  // Record, correct, remove, undo, restore: the forms of the server's templates, answered
  // here. A round is read by the phone's Python as the server reads it: what was entered, or
  // the page with the form showing what to fix (or asking once about an unusual round).
  view.addEventListener("submit", async (event) => {
    const action = new URLSearchParams((event.submitter && event.submitter.getAttribute("formaction")) || event.target.getAttribute("action") || "");
    const act = action.get("phone");
    if (!act) return;
    event.preventDefault();
    // Timed for bench/alone.py: from the tap to the round scored, stored and drawn.
    performance.mark("phone-round");
    const { uid } = place();
    const match = await store.get(uid);
    const n = Number(action.get("n")) || null;
    if (act === "remove_round") {
      const undo = new FormData(event.target).has("undo");
      if (!undo && !confirm(say("sayRemove", { n }))) return;
      const after = remove(match, n);
      if (await fits(after, null)) await go(uid, "match", null, !undo, await keepAndSend(after));
      return;
    }
    if (act === "restore_round") {
      const after = restore(match, Number(action.get("round_id")));
      if (await fits(after, after.log.at(-1).n)) await show(await keepAndSend(after));
      return;
    }
    const body = new URLSearchParams(new FormData(event.target, event.submitter)).toString();
    const correcting = act === "edit_round";
    const answer = await ask({ do: correcting ? "correct" : "record", match: kept(match), body, n: correcting ? n : null });
    if (!answer.entered) {
      draw(answer.html);
      return;
    }
    const key = new URLSearchParams(body).get("idempotency_key") || newKey();
    const changed = await change(match, (edited) => {
      if (correcting) {
        const replaced = edited.rounds[n - 1];
        edited.rounds[n - 1] = { ...replaced, input: answer.entered, corrected_at: now() };
        edited.log.push({ action: "correct", n, key, round: replaced.key, input: answer.entered, replaced: replaced.input, at: now() });
      } else {
        edited.rounds.push({ key, input: answer.entered, at: now() });
        edited.log.push({ action: "add", n: edited.rounds.length, key, round: key, input: answer.entered, at: now() });
      }
    });
    if (correcting) await go(uid, "match", null, false, changed);
    else await show(changed);
    performance.measure("phone-round", "phone-round");
  });

  // The links of the server's templates (a round's Why?, its correction, the rules).
  view.addEventListener("click", async (event) => {
    const apart = event.target.closest("[data-apart]");
    if (apart) {
      // Sent again as a match of its own: the server's stays as it is, and so does this one.
      await change(await store.get(place().uid), (edited) => {
        edited.server = null;
        edited.state = "playing";
        edited.conflict = null;
        edited.fresh = newKey();
        edited.log = edited.log.map((entry) => ({ ...entry, key: newKey() }));
      });
      return;
    }
    const link = event.target.closest("a[href^='?phone=']");
    if (!link) return;
    event.preventDefault();
    const query = new URLSearchParams(link.getAttribute("href").split("#")[0]);
    const [n, what] = (query.get("n") || "").split("/");
    const to = { round: what, why: "why", rules: "rules", match: "match" }[query.get("phone")];
    if (to) await go(place().uid, to, Number(n) || null);
    else await go(null);
    // "Applied in round 3": the sheet opens that round's Why? (#round-3), as on the server.
    if (link.hash) location.hash = link.hash;
  });

  // Back and Forward between the pages of a match; a round's number (#round-3, opening its
  // Why? on the sheet) moves within the page drawn.
  let drawnFor = null;
  window.addEventListener("popstate", () => {
    if (location.search !== drawnFor) show();
  });

  // Sending: the match first (its uid, a key of its own: sent twice, it starts once), then
  // each change of its log in order, each with its idempotency key. Another phone's change on
  // the server meanwhile (its version moved) stops it: shown, never merged.
  const api = page.dataset.api;

  function reached(response) {
    if (response.status === 502 || response.status === 504) throw new TypeError("server not reached");
    return response;
  }

  async function stop(match, said) {
    match.state = "conflict";
    match.conflict = said;
    await store.put(match);
  }

  async function refused(match, response) {
    let said = `${response.status}`;
    try {
      said = (await response.json()).error || said;
    } catch {
      // Not JSON: the status says it.
    }
    await stop(match, said);
  }

  async function startOnServer(match) {
    const uid = match.fresh || match.uid;
    const headers = { "Content-Type": "application/json", "Idempotency-Key": `phone-${uid}` };
    if (match.passcode) headers["X-Tablescore-Passcode"] = match.passcode;
    const body = JSON.stringify({ ...match.data, uid, device: page.dataset.sayDevice });
    const response = reached(await fetch(api, { method: "POST", headers, body }));
    if (!response.ok) {
      await refused(match, response);
      return false;
    }
    const started = await response.json();
    match.server = { id: started.id, token: started.scorer_token, url: `${page.dataset.matches}${started.id}`, sent: 0, version: started.version, ids: {} };
    delete match.passcode;
    await store.put(match);
    return true;
  }

  function request(match, entry) {
    const base = `${api}/${match.server.id}`;
    const headers = { Authorization: `Bearer ${match.server.token}`, "Idempotency-Key": entry.key, "Content-Type": "application/json" };
    if (entry.action === "add") return fetch(`${base}/rounds`, { method: "POST", headers, body: JSON.stringify(entry.input) });
    if (entry.action === "correct") return fetch(`${base}/rounds/${entry.n}`, { method: "PUT", headers, body: JSON.stringify(entry.input) });
    if (entry.action === "remove") return fetch(`${base}/rounds/${entry.n}`, { method: "DELETE", headers });
    return fetch(`${base}/removed/${match.server.ids[entry.round]}/restore`, { method: "POST", headers });
  }

  async function send(match) {
    if (!match.server && !(await startOnServer(match))) return;
    const auth = { Authorization: `Bearer ${match.server.token}` };
    const there = reached(await fetch(`${api}/${match.server.id}`, { headers: auth }));
    if (!there.ok) return refused(match, there);
    if ((await there.json()).version !== match.server.version) return stop(match, page.dataset.sayMoved);
    while (match.server.sent < match.log.length) {
      const entry = match.log[match.server.sent];
      const response = reached(await request(match, entry));
      if (!response.ok) return refused(match, response);
      const answer = await response.json();
      if (entry.action === "add") match.server.ids[entry.round] = answer.round.id;
      match.server.version = (answer.match || answer).version;
      match.server.sent += 1;
      await store.put(match);
    }
    const server = await reached(await fetch(`${api}/${match.server.id}`)).json();
    const mine = await ask({ do: "score", match: kept(match) });
    const same = (a, b) => Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((side) => a[side] === b[side]);
    if (!same(server.totals, mine.totals) || server.rounds.length !== match.rounds.length) {
      return stop(match, page.dataset.sayDiffers);
    }
    // This browser's session keeps the token: the server's page lets this phone score on.
    reached(await fetch(`${api}/${match.server.id}/phone`, { method: "POST", headers: auth }));
    match.state = "sent";
    await store.put(match);
    return null;
  }

  let sending = null;
  // Say whether the match shown moved on (sent, or stopped by a conflict): it is drawn again.
  async function sendEach() {
    let moved = false;
    for (const match of await store.all()) {
      if (match.state !== "playing") continue;
      try {
        await send(match);
      } catch {
        break; // Out of reach still: the next try goes on from where this one stopped.
      }
      moved = moved || (match.state !== "playing" && match.uid === place().uid);
    }
    return moved;
  }
  let again = false;
  // One sending at a time; a change made while one runs is sent by another right after it.
  function sendAll() {
    if (sending) {
      again = true;
      return sending;
    }
    again = false;
    sending = sendEach().then((moved) => {
      sending = null;
      if (moved) show();
      if (again) sendAll();
    });
    return sending;
  }

  // The phone asks to keep its storage: a match lives only here until it is sent.
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  window.addEventListener("online", sendAll);
  setInterval(sendAll, 15000);
  show()
    .then(sendAll)
    .catch((error) => drawText(page.dataset.sayBroken, [String(error.message || error)]));
})();
