// The phone alone (templates/alone.html): matches started while the server was out of reach,
// scored by the phone's own Python (static/phone_worker.js, the server's rules), kept in the
// phone's storage (static/phone_store.js), and sent to the server once each when it is back.
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
  const worker = new Worker(page.dataset.worker, { type: "module" });
  const waiting = new Map();
  let asked = 0;
  worker.addEventListener("message", (event) => {
    const { id, answer, error } = event.data;
    const reply = waiting.get(id);
    waiting.delete(id);
    if (error) reply.reject(new Error(error));
    else reply.resolve(JSON.parse(answer));
  });
  function call(message) {
    asked += 1;
    const id = asked;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  }
  const booted = call({ boot: { runtime: page.dataset.runtime, python: page.dataset.python } });
  async function ask(question) {
    await booted;
    return call({ question: { language, ...question } });
  }

  let shown = null; // The match just changed and stored: shown next without reading it again.
  const now = () => new Date().toISOString();
  const newKey = () => crypto.randomUUID().replaceAll("-", "");
  const kept = (match) => ({ uid: match.uid, data: match.data, rounds: match.rounds, removed: match.removed });
  // Where the page is: "#<uid>", "#<uid>/rules", "#<uid>/correct/<n>", or the list ("").
  const place = () => {
    const [uid, view, n] = location.hash.slice(1).split("/");
    return { uid, view: view || "match", n: n ? Number(n) : null };
  };

  function draw(html) {
    view.innerHTML = html;
    // Numbers in the page's own digits, as the server writes them (web/numerals.py).
    const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) node.data = inDigits(node.data);
    page.dataset.state = "shown";
  }

  function drawText(title, lines, back) {
    const heading = document.createElement("h1");
    heading.textContent = title;
    const items = lines.map((line) => {
      const p = document.createElement("p");
      p.textContent = line;
      return p;
    });
    view.replaceChildren(heading, ...items, ...(back ? [back] : []));
    page.dataset.state = "shown";
  }

  async function showList() {
    const matches = await store.all();
    const list = document.createElement("ul");
    list.className = "phone-list";
    for (const match of matches) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      const names = match.data ? (match.data.players || Object.keys(match.data.teams || {})) : [];
      link.textContent = `${match.title || match.game} · ${names.join(" · ")}`;
      link.dir = "auto";
      link.href = match.state === "sent" ? match.server.url : `#${match.uid}`;
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

  async function show() {
    const { uid, view: wanted, n } = place();
    if (!uid) return showList();
    let match = shown && shown.uid === uid ? shown : await store.get(uid);
    shown = null;
    if (!match) return showList();
    if (match.state === "starting") match = await begin(match);
    if (!match) return null;
    if (match.state === "sent") return location.replace(match.server.url);
    const answer = await ask({ do: "show", match: kept(match), view: wanted, n });
    if (answer.title && match.title !== answer.title) {
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
      notice.append(theirs);
    }
    const again = document.createElement("button");
    again.type = "button";
    again.dataset.phone = "apart";
    again.textContent = page.dataset.sayApart;
    notice.append(" ", again);
    return notice;
  }

  async function change(match, edit) {
    edit(match);
    await store.put(match);
    shown = match;
    return match;
  }

  // Record or correct: the phone's Python reads the form as the server would, and answers
  // the round as entered, or the page with the form showing what to fix (or asking once).
  view.addEventListener("submit", async (event) => {
    event.preventDefault();
    // Timed for bench/alone.py: from the tap to the round scored, stored and drawn.
    performance.mark("phone-round");
    const form = event.target;
    const body = new URLSearchParams(new FormData(form, event.submitter)).toString();
    const { uid, n } = place();
    const match = await store.get(uid);
    const answer = await ask({ do: n ? "correct" : "record", match: kept(match), body, n });
    if (!answer.entered) {
      draw(answer.html);
      return;
    }
    const key = new URLSearchParams(body).get("idempotency_key") || newKey();
    await change(match, (kept) => {
      if (n) {
        const replaced = kept.rounds[n - 1];
        kept.rounds[n - 1] = { ...replaced, input: answer.entered, corrected_at: now() };
        kept.log.push({ action: "correct", n, key, input: answer.entered, replaced: replaced.input, at: now() });
      } else {
        kept.rounds.push({ key, input: answer.entered, at: now() });
        kept.log.push({ action: "add", n: kept.rounds.length, key, round: key, input: answer.entered, at: now() });
      }
    });
    if (n) location.hash = uid;
    else await show();
    performance.measure("phone-round", "phone-round");
    sendAll();
  });

  // A round removed (Undo is the last one) is kept, to restore as it was.
  function remove(kept, n) {
    const [gone] = kept.rounds.splice(n - 1, 1);
    kept.removed.push({ n, key: gone.key, input: gone.input, removed_at: now() });
    kept.log.push({ action: "remove", n, key: newKey(), round: gone.key, at: now() });
  }

  view.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-phone]");
    if (!button) return;
    event.preventDefault();
    const { uid } = place();
    const act = button.dataset.phone;
    if (act === "correct") location.hash = `${uid}/correct/${button.value}`;
    else if (act === "cancel" || act === "back") location.hash = uid;
    else if (act === "rules") location.hash = `${uid}/rules`;
    else if (act === "undo" || act === "remove") {
      const match = await store.get(uid);
      const n = act === "undo" ? match.rounds.length : Number(button.value);
      if (act === "remove" && !confirm(say("sayRemove", { n }))) return;
      await change(match, (kept) => remove(kept, n));
      await show();
      sendAll();
    } else if (act === "restore") {
      const before = await store.get(uid);
      const entry = before.removed[Number(button.value)];
      const after = structuredClone(before);
      after.removed.splice(Number(button.value), 1);
      after.rounds.splice(entry.n - 1, 0, { key: entry.key, input: entry.input, at: now() });
      after.log.push({ action: "restore", n: entry.n, key: newKey(), round: entry.key, at: now() });
      try {
        await ask({ do: "score", match: kept(after) });
      } catch (error) {
        alert(say("sayNoFit"));
        return;
      }
      await store.put(after);
      await show();
      sendAll();
    } else if (act === "apart") {
      // Sent again as a match of its own: the server's stays as it is, and so does this one.
      await change(await store.get(uid), (kept) => {
        kept.server = null;
        kept.state = "playing";
        kept.conflict = null;
        kept.log = kept.log.map((entry) => ({ ...entry, key: newKey() }));
        kept.fresh = newKey();
      });
      sendAll();
    }
  });

  window.addEventListener("hashchange", show);

  // Sending: the match first (its uid, a key of its own: sent twice, it starts once), then
  // each change of its log in order, each with its idempotency key. Another phone's change on
  // the server meanwhile (its version moved) stops it: shown, never merged.
  const api = page.dataset.api;
  async function json(response) {
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      return {};
    }
  }

  async function stop(match, response) {
    const answer = await json(response);
    match.state = "conflict";
    match.conflict = answer.error || `${response.status}`;
    await store.put(match);
    return false;
  }

  async function startOnServer(match) {
    const headers = { "Content-Type": "application/json", "Idempotency-Key": `phone-${match.fresh || match.uid}` };
    if (match.passcode) headers["X-Tablescore-Passcode"] = match.passcode;
    const uid = match.fresh || match.uid;
    const response = await fetch(api, { method: "POST", headers, body: JSON.stringify({ ...match.data, uid, device: page.dataset.sayDevice }) });
    if (response.status === 502 || response.status === 504) throw new TypeError("server not reached");
    if (!response.ok) return stop(match, response);
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
    const there = await fetch(`${api}/${match.server.id}`, { headers: auth });
    if (!there.ok) return stop(match, there);
    const before = await there.json();
    if (before.version !== match.server.version) {
      match.state = "conflict";
      match.conflict = page.dataset.sayMoved;
      await store.put(match);
      return;
    }
    while (match.server.sent < match.log.length) {
      const entry = match.log[match.server.sent];
      const response = await request(match, entry);
      if (response.status === 502 || response.status === 504) throw new TypeError("server not reached");
      if (!response.ok) return stop(match, response);
      const answer = await response.json();
      const round = answer.round;
      if (entry.action === "add" && round) match.server.ids[entry.round] = round.id;
      match.server.version = (answer.match || answer).version;
      match.server.sent += 1;
      await store.put(match);
    }
    const server = await (await fetch(`${api}/${match.server.id}`)).json();
    const mine = await ask({ do: "score", match: kept(match) });
    if (JSON.stringify(server.totals) !== JSON.stringify(mine.totals) || server.rounds.length !== match.rounds.length) {
      match.state = "conflict";
      match.conflict = page.dataset.sayDiffers;
      await store.put(match);
      return;
    }
    // This browser's session keeps the token: the server's page lets this phone score on.
    await fetch(`${api}/${match.server.id}/phone`, { method: "POST", headers: auth });
    match.state = "sent";
    await store.put(match);
  }

  let sending = null;
  // Say whether a match moved on (sent, or stopped by a conflict): its page is drawn again.
  async function sendEach() {
    let moved = false;
    for (const match of await store.all()) {
      if (match.state !== "playing") continue;
      try {
        await send(match);
      } catch {
        break; // Out of reach still: the next try goes on from where this one stopped.
      }
      moved = moved || match.state !== "playing";
    }
    return moved;
  }
  function sendAll() {
    if (!sending) {
      sending = sendEach().then((moved) => {
        sending = null;
        if (moved && place().uid) show();
      });
    }
    return sending;
  }

  // Where it first opens, the phone asks to keep its storage: a match lives only here until sent.
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  window.addEventListener("online", sendAll);
  setInterval(sendAll, 15000);
  show().then(sendAll).catch((error) => drawText(page.dataset.sayBroken, [String(error.message || error)]));
})();
