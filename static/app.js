// The code every page shares: drafts, the outbox, the live view, times, the service worker. A
// game's own code is in static/<game>.js, which its round form loads. Without JavaScript every
// button still works, as a form post the server answers.
"use strict";

// What the scripts write on the page, in the page's language: base.html carries each phrase as
// a data-say-* attribute of <body>, with {name} placeholders.
function say(phrase, values) {
  const text = document.body.dataset[phrase] || "";
  return inDigits(text.replace(/\{(\w+)\}/g, (_, name) => String(values[name])));
}

// The page's numbering system (<html data-numerals>, web/numerals.py): a Persian page writes
// ۱۲, an Arabic one ١٢, in what the scripts write as in what the server wrote.
const NUMERALS = document.documentElement.dataset.numerals || "latn";
const DIGITS = [...Array(10).keys()].map((d) => new Intl.NumberFormat("en-u-nu-" + NUMERALS).format(d));

// What the page sets between the items of a line (<html data-between>): beside a zero that is
// a dot (٠, ۰) a middle dot would read as one more zero, so such a page uses its comma.
const BETWEEN = document.documentElement.dataset.between || " · ";

function inDigits(text) {
  return String(text).replace(/[0-9]/g, (d) => DIGITS[d]);
}

// A number typed in Persian or Arabic digits (۱۵۲, ١٥٢) counts as the same number (152).
function latinDigits(text) {
  return String(text).replace(/[۰-۹]/g, (d) => d.charCodeAt(0) - 0x06f0)
    .replace(/[٠-٩]/g, (d) => d.charCodeAt(0) - 0x0660);
}

function typedNumber(text) {
  return Number(latinDigits(text));
}

// What the games' own scripts (static/<game>.js) use of the shared code.
window.Tablescore = { say, typedNumber, inDigits, BETWEEN };

// Forms whose inputs depend on one choice (Barbu's contract, Porrazo's event) show only the
// parts that choice needs; without JavaScript every part stays on the page.
function showParts(form) {
  const chosen = form.querySelector(`input[name='${form.dataset.partsBy}']:checked`);
  form.querySelectorAll(".part").forEach((part) => {
    part.hidden = !chosen || !part.dataset.for.split(" ").includes(chosen.value);
  });
}

document.addEventListener("change", (event) => {
  const form = event.target.closest("form[data-parts-by]");
  if (form) showParts(form);
});

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form[data-parts-by]").forEach(showParts);
});

// The language picker goes to the chosen language at once; without JavaScript, its button does.
document.addEventListener("change", (event) => {
  if (event.target.matches("select[data-auto-submit]")) event.target.form.requestSubmit();
});

// Installed or not, the app starts offline-friendly: the service worker keeps the static files
// and answers "No connection" for a page it cannot reach. The layout names its address.
const SERVICE_WORKER = document.currentScript && document.currentScript.dataset.serviceWorker;
if (SERVICE_WORKER && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(SERVICE_WORKER).catch(() => {
      // Refused (a private window, a blocked storage): the pages work as they always did.
    });
  });
  // A page opened before the worker took charge asks to be kept as last seen, like the others.
  const keepThisPage = () => {
    const worker = navigator.serviceWorker.controller;
    if (worker && !document.documentElement.dataset.offlineCopy) worker.postMessage({ keep: location.pathname });
  };
  navigator.serviceWorker.addEventListener("controllerchange", keepThisPage);
}

// Ready to score alone (web/alone.py): the phone keeps what it needs to start and score a match
// with no server in reach. Only a page where matches start or are scored gets it ready (a
// phone that only watches never does), once the service worker runs the page (from the second
// page a phone opens, never the first, which loads alone), after the page has loaded; and by
// itself only where the phone does not call its connection metered (Save-Data, cellular, 2G or
// 3G): there a tap does, the size said first. Every other page says whether it is ready.
const ALONE = document.getElementById("alone-ready");
const ALONE_KEPT = "tablescore-alone";
if (ALONE && "serviceWorker" in navigator && "caches" in window) {
  const state = ALONE.querySelector(".alone-state");
  const metered = () => {
    const connection = navigator.connection;
    return Boolean(connection && (connection.saveData || connection.type === "cellular" || /2g|3g/.test(connection.effectiveType || "")));
  };
  const ready = () => {
    state.textContent = `✓ ${ALONE.dataset.sayReady}`;
    ALONE.dataset.state = "ready";
    ALONE.hidden = false;
  };
  const DAY = 24 * 3600 * 1000;
  // The pages a match starts from, as they are now: kept again once a day.
  const keepPages = async (cache, listed) => {
    await Promise.all(listed.pages.map((url) => cache.add(url)));
    localStorage.setItem(`${ALONE_KEPT}-pages`, String(Date.now()));
  };
  const getReady = async (listed, cache, missing) => {
    ALONE.hidden = false;
    state.textContent = ALONE.dataset.sayGetting;
    for (const old of await caches.keys()) if (old.startsWith("phone-alone-") && old !== `phone-alone-${listed.version}`) await caches.delete(old);
    for (const url of missing) await cache.add(url);
    await keepPages(cache, listed);
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
    localStorage.setItem(ALONE_KEPT, listed.files.join(" "));
    localStorage.setItem(`${ALONE_KEPT}-cache`, `phone-alone-${listed.version}`);
    ready();
  };
  window.addEventListener("load", async () => {
    if (!navigator.serviceWorker.controller) return;
    if (!("getsReady" in ALONE.dataset)) {
      if (localStorage.getItem(ALONE_KEPT)) ready();
      return;
    }
    let listed;
    try {
      listed = await (await fetch(ALONE.dataset.ready, { credentials: "same-origin" })).json();
    } catch {
      return;
    }
    const cache = await caches.open(`phone-alone-${listed.version}`);
    const missing = [];
    for (const url of listed.files) if (!(await cache.match(url))) missing.push(url);
    if (!missing.length) {
      ready();
      if (Date.now() - Number(localStorage.getItem(`${ALONE_KEPT}-pages`) || 0) > DAY) keepPages(cache, listed).catch(() => {});
      return;
    }
    const start = () => getReady(listed, cache, missing).catch(() => { ALONE.hidden = true; });
    if (metered()) {
      const offer = document.createElement("button");
      offer.type = "button";
      offer.textContent = ALONE.dataset.sayOffer.replace("{size}", inDigits((listed.bytes / 1e6).toFixed(1)));
      offer.addEventListener("click", start);
      state.replaceChildren(offer);
      ALONE.hidden = false;
      return;
    }
    start();
  });
}

// A match page keeps the phone's screen on: one that dims mid-deal makes the table wait. The
// browser lets go of the lock when the page is hidden, so it is asked for again on return.
let wakeLock = null;

async function keepAwake() {
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  if (!document.querySelector("[data-keep-awake]") || (wakeLock && !wakeLock.released)) return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
  } catch {
    // Refused (battery saver, no permission): the screen dims as it always did.
  }
}

document.addEventListener("DOMContentLoaded", keepAwake);
document.addEventListener("visibilitychange", keepAwake);

// The live view asks every few seconds whether the match changed, sending the version it shows;
// the server answers 204 when nothing did, or the new sheet, swapped in whole.
const LIVE_EVERY_MS = 5000;
let asking = false;

async function refreshLive() {
  const sheet = document.getElementById("live-sheet");
  if (!sheet || asking || document.visibilityState !== "visible") return;
  asking = true;
  try {
    const url = new URL(sheet.dataset.liveUrl, window.location.href);
    url.searchParams.set("since", sheet.dataset.version);
    const response = await fetch(url, { cache: "no-store" });
    if (response.status === 200) {
      const holder = document.createElement("template");
      holder.innerHTML = await response.text();
      const fresh = holder.content.getElementById("live-sheet");
      if (fresh) sheet.replaceWith(fresh);
    }
  } catch {
    // No connection for a moment: the next turn asks again.
  } finally {
    asking = false;
  }
}

document.addEventListener("DOMContentLoaded", () => {
  if (!document.getElementById("live-sheet")) return;
  window.setInterval(refreshLive, LIVE_EVERY_MS);
  document.addEventListener("visibilitychange", refreshLive);
});

// A refused round comes back with the problem in view: the first field marked, focused.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form.round-form");
  if (!form) return;
  const marked = form.querySelector("[aria-invalid='true'], fieldset.invalid, .field.invalid");
  const alert = form.querySelector(".alert");
  const first = marked || alert;
  const answer = form.querySelector(".preview[tabindex]");
  if (!first && answer) {
    // A helper's answer is read where it was asked for.
    answer.scrollIntoView({ block: "center" });
    answer.focus({ preventScroll: true });
    return;
  }
  if (!first) {
    // A new round starts at its first choice, the score bar still in view above it: the
    // keyboard goes on from there, and no ring is drawn round a seat nobody has touched.
    const start = form.closest("[data-draft]") && form.querySelector("input:not([type='hidden']):not(:disabled)");
    if (start && start.type !== "text") start.focus({ preventScroll: true, focusVisible: false });
    return;
  }
  const control = first.matches("input, select, textarea")
    ? first
    : first.querySelector("input:not([type='hidden']), select, textarea") || alert;
  first.scrollIntoView({ block: "center" });
  control.focus({ preventScroll: true });
});

// A half-entered round survives a reload, a slip of the thumb or a locked phone: what is typed
// is kept on the phone, for this match's next round, until it is recorded.
const KEPT = new Set(["csrf_token", "idempotency_key", "expected"]);

function draftKey(form) {
  const expected = form.querySelector("input[name='expected']");
  return expected && `tablescore-draft ${form.getAttribute("action")} ${expected.value}`;
}

function keepDraft(form) {
  const key = draftKey(form);
  if (!key) return;
  const typed = [...new FormData(form)].filter(([name]) => !KEPT.has(name));
  try {
    localStorage.setItem(key, JSON.stringify(typed));
  } catch {
    // No room or no storage (a private window): the form works, it just isn't kept.
  }
}

function restoreDraft(form) {
  const key = draftKey(form);
  const kept = key && localStorage.getItem(key);
  return Boolean(kept) && fill(form, JSON.parse(kept));
}

// Put typed values back in a form, as [name, value] pairs; say whether any was typed.
// Each control then says it changed, for the game's own script to follow (a Rami hand's cards).
function fill(form, entries) {
  const byName = new Map();
  entries.forEach(([name, value]) => byName.set(name, [...(byName.get(name) || []), value]));
  form.querySelectorAll("input, select, textarea").forEach((control) => {
    if (!control.name || KEPT.has(control.name) || control.type === "submit") return;
    const values = byName.get(control.name) || [];
    if (control.type === "radio" || control.type === "checkbox") {
      control.checked = values.includes(control.value);
    } else if (values.length) {
      control.value = values[0];
    }
  });
  form.querySelectorAll("input, select").forEach((control) => {
    control.dispatchEvent(new Event("change", { bubbles: true }));
  });
  return entries.some(([, value]) => value !== "");
}

function forgetDrafts(form) {
  const key = draftKey(form);
  if (!key) return;
  const match = key.slice(0, key.lastIndexOf(" "));
  Object.keys(localStorage).filter((kept) => kept.startsWith(`${match} `)).forEach((kept) => {
    localStorage.removeItem(kept);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const section = document.querySelector("[data-draft]");
  const form = section && section.querySelector("form.round-form");
  if (!form || !draftKey(form)) return;
  // Drafts of rounds already recorded are gone for good.
  const key = draftKey(form);
  Object.keys(localStorage).filter((kept) => kept.startsWith(key.slice(0, key.lastIndexOf(" ") + 1)) && kept !== key)
    .forEach((kept) => localStorage.removeItem(kept));
  if (section.dataset.draft === "keep" && restoreDraft(form)) {
    const note = document.getElementById("draft-note");
    if (note) note.hidden = false;
  }
  // Kept once every script has answered the keystroke: a box the game's script derives (the
  // other team's points) is kept as it shows, not as it stood before.
  // A box left for Record says it changed as it loses focus: once the round is sent, that
  // late keep must not bring its draft back.
  let sent = false;
  const keep = () => window.setTimeout(() => sent || keepDraft(form), 0);
  form.addEventListener("input", keep);
  form.addEventListener("change", keep);
  // A tap on Record sends the round: keeping its draft after it left would bring it back.
  form.addEventListener("click", (event) => {
    if (!event.target.closest("button[name='record']")) keep();
  });
  form.addEventListener("submit", (event) => {
    const button = event.submitter;
    // A card tap sent without JavaScript is not a round: the draft stays.
    if (!button || !button.name || button.name === "record") {
      sent = true;
      forgetDrafts(form);
    }
  });
});

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-forget-draft]");
  if (!button) return;
  const form = document.querySelector("[data-draft] form.round-form");
  if (!form) return;
  forgetDrafts(form);
  window.location.reload();
});

// Back to a page the browser kept whole: its form may be stale, so ask the server again.
window.addEventListener("pageshow", (event) => {
  if (event.persisted && document.querySelector("form.round-form")) window.location.reload();
});

// The first dealer is chosen by seat: each seat's chip reads the name typed in its box.
function nameSeatChips(form) {
  const boxes = [...form.querySelectorAll("input[name^='players-'], input[name^='team_'][name*='_players-']")];
  const order = boxes.some((box) => box.name.startsWith("team_"))
    ? boxes.filter((box) => box.name.startsWith("team_0")).flatMap((box, i) => [box, boxes.filter((b) => b.name.startsWith("team_1"))[i]])
    : boxes;
  form.querySelectorAll("input[type='radio'][value^='Player ']").forEach((chip) => {
    const seat = Number(chip.value.slice("Player ".length)) - 1;
    const label = chip.closest("label");
    const typed = order[seat] && order[seat].value.trim();
    if (!label.dataset.seat) label.dataset.seat = label.lastChild.textContent.trim();
    label.lastChild.textContent = ` ${typed || label.dataset.seat}`;
  });
}

document.addEventListener("input", (event) => {
  const form = event.target.closest("form");
  if (form && event.target.matches("input[name*='players-']")) nameSeatChips(form);
});
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form").forEach((form) => {
    if (form.querySelector("input[type='radio'][value^='Player ']")) nameSeatChips(form);
  });
});

// Times are stored and sent in UTC; the phone shows them in its own time zone and language.
document.addEventListener("DOMContentLoaded", () => {
  // The phone's own way of writing times (en-GB: 19:26) when it reads the page's language.
  const page = document.documentElement.lang;
  const language = navigator.language.startsWith(page) ? navigator.language : page || undefined;
  document.querySelectorAll("time[datetime$='Z']").forEach((time) => {
    const moment = new Date(time.dateTime);
    if (Number.isNaN(moment.getTime())) return;
    const withDay = /\d{4}-\d{2}-\d{2}/.test(latinDigits(time.textContent));
    time.textContent = withDay
      ? moment.toLocaleString(language, { dateStyle: "medium", timeStyle: "short", numberingSystem: NUMERALS })
      : moment.toLocaleTimeString(language, { timeStyle: "short", numberingSystem: NUMERALS });
    time.title = time.dateTime;
  });
});

// Offline. A page the service worker shows as last seen says so, with the time it was seen; a
// round recorded without a connection waits in the outbox (static/outbox.js), shown under the
// form, and is sent in order, with its own key, when the connection is back, when a page
// opens and every few seconds meanwhile. A round the server refuses on arrival stays, with the
// server's words, to fix or drop.
const Outbox = self.TablescoreOutbox;
const OFFLINE_COPY = document.documentElement.dataset.offlineCopy;
const SEND_EVERY_MS = 15000;
const SAID = "tablescore-outbox ";

function matchOf(url) {
  const found = /^(.*\/matches\/\d+)(\/|$)/.exec(url);
  return found && found[1];
}

function clock(moment) {
  const time = new Date(moment);
  if (Number.isNaN(time.getTime())) return "";
  return time.toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit", numberingSystem: NUMERALS });
}

function showOffline() {
  const banner = document.getElementById("offline-banner");
  if (!banner) return;
  if (OFFLINE_COPY !== undefined) {
    banner.textContent = banner.dataset.sayAsOf.replace("{time}", clock(OFFLINE_COPY));
  } else if (!navigator.onLine) {
    banner.textContent = banner.dataset.sayOffline;
  }
  banner.hidden = OFFLINE_COPY === undefined && navigator.onLine;
  // What a page as last seen offers to undo or play again cannot be sent from here.
  if (OFFLINE_COPY !== undefined) document.querySelectorAll("form.notice, form.play-again, .share").forEach((form) => { form.hidden = true; });
}

// A round in words, as its form reads: each choice's question and answer, each number typed.
function described(form) {
  const parts = [];
  form.querySelectorAll("input, select, textarea").forEach((control) => {
    if (!control.name || ["hidden", "submit", "button"].includes(control.type) || control.disabled) return;
    if ((control.type === "radio" || control.type === "checkbox") && !control.checked) return;
    if (control.value === "") return;
    const label = control.id && form.querySelector(`label[for="${control.id}"]`);
    const legend = control.closest("fieldset") && control.closest("fieldset").querySelector("legend");
    const own = control.closest("label");
    if (control.type === "checkbox") parts.push(own ? own.textContent.trim() : control.value);
    else if (control.type === "radio") parts.push(`${legend ? legend.textContent.trim() : control.name}: ${own ? own.textContent.trim() : control.value}`);
    else {
      const value = control.tagName === "SELECT" ? control.selectedOptions[0].textContent.trim() : control.value;
      parts.push(`${label ? label.textContent.trim() : control.name}: ${value}`);
    }
  });
  return parts;
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  const key = form.querySelector("input[name='idempotency_key']");
  if (!form.matches("form.round-form") || !key || (event.submitter && event.submitter.name !== "record")) return;
  try {
    localStorage.setItem(SAID + key.value, JSON.stringify(described(form)));
  } catch {
    // No storage: a round kept offline is then shown by its number only.
  }
});

function fields(item) {
  return new URLSearchParams(item.body);
}

function isNew(item) {
  return /\/rounds$/.test(item.url);
}

async function keptFor(section) {
  if (!Outbox) return [];
  try {
    return (await Outbox.all()).filter((item) => matchOf(item.url) === section.dataset.match);
  } catch {
    return [];
  }
}

// A phone ready to score alone keeps each match it scores as the server last answered it
// (its players, options and rounds), so that offline its own Python can count the rounds
// waiting here (static/phone_waiting.js). Loaded only then: other phones load nothing more.
async function keepForCounting(section) {
  const cache = localStorage.getItem(`${ALONE_KEPT}-cache`);
  if (!cache || !section.dataset.counting || OFFLINE_COPY !== undefined) return;
  try {
    const answer = await fetch(section.dataset.api);
    if (answer.ok) await (await caches.open(cache)).put(section.dataset.api, answer);
  } catch {
    // Out of reach: the copy kept last time stays.
  }
}

function countWaiting(section, items) {
  section.waiting = items;
  if (!items.length || !section.dataset.counting || !localStorage.getItem(`${ALONE_KEPT}-cache`)) return;
  if (document.querySelector("script[data-counting]")) {
    document.dispatchEvent(new CustomEvent("tablescore:waiting"));
    return;
  }
  for (const source of [section.dataset.python, section.dataset.counting]) {
    const script = document.createElement("script");
    script.src = source;
    script.async = false;
    script.dataset.counting = "";
    document.head.append(script);
  }
}

async function showOutbox() {
  const section = document.getElementById("outbox");
  if (!section) return;
  const items = await keptFor(section);
  countWaiting(section, items);
  const list = section.querySelector(".outbox-list");
  const template = document.getElementById("outbox-item");
  list.replaceChildren(...items.map((item) => {
    const entry = template.content.firstElementChild.cloneNode(true);
    const given = fields(item);
    const n = isNew(item) ? given.get("expected") : /\/rounds\/(\d+)\/edit$/.exec(item.url)[1];
    entry.querySelector(".outbox-what").textContent = (isNew(item) ? section.dataset.sayNew : section.dataset.sayCorrection).replace("{n}", inDigits(n));
    // Each part isolated, so a name or a number keeps its place in a right-to-left sentence.
    const parts = JSON.parse(localStorage.getItem(SAID + given.get("idempotency_key")) || "[]");
    entry.querySelector(".outbox-summary").append(...parts.flatMap((part, i) => {
      const isolated = document.createElement("bdi");
      isolated.textContent = inDigits(part);
      return i ? [BETWEEN, isolated] : [isolated];
    }));
    const state = item.state === "refused" ? section.dataset.sayRefused : item.message ? section.dataset.sayTrouble : section.dataset.sayWaiting;
    entry.querySelector(".outbox-state").textContent = state.replace("{time}", clock(item.at)).replace("{message}", item.message || "");
    entry.classList.toggle("refused", item.state === "refused");
    const edit = entry.querySelector("[data-outbox-edit]");
    edit.textContent = item.state === "refused" ? edit.dataset.sayFix : edit.dataset.sayEdit;
    edit.hidden = !isNew(item) || !document.querySelector("[data-draft] form.round-form");
    edit.dataset.id = item.id;
    entry.querySelector("[data-outbox-drop]").dataset.id = item.id;
    return entry;
  }));
  section.hidden = items.length === 0;
  const pending = document.getElementById("bar-pending");
  if (pending) {
    pending.textContent = pending.dataset.say.replace("{count}", inDigits(items.length));
    pending.hidden = items.length === 0;
  }
  // The next round is entered after those kept: its number and key follow them.
  const form = document.querySelector("[data-draft] form.round-form");
  const expected = form && form.querySelector("input[name='expected']");
  if (expected) {
    expected.dataset.server = expected.dataset.server || expected.value;
    const next = Number(expected.dataset.server) + items.filter(isNew).length;
    if (String(next) !== expected.value) {
      expected.value = String(next);
      form.querySelector("input[name='idempotency_key']").value = crypto.randomUUID();
      const say = form.closest("[data-say-record]").dataset.sayRecord.replace("{n}", inDigits(next));
      form.querySelectorAll("button[name='record']").forEach((button) => { button.textContent = say; });
    }
    moveBarOn(next, next - Number(expected.dataset.server));
  }
}

// The score bar names the round the form is for and its dealer: with rounds waiting on the
// phone, the next one after them (a game whose deal does not move a seat a round says no
// dealer until they are in).
function moveBarOn(next, waiting) {
  const bar = document.querySelector(".score-bar[data-say-round]");
  const progress = bar && bar.querySelector(".bar-progress");
  // A bar the phone's own Python drew with the waiting rounds (static/phone_waiting.js) is on.
  if (!progress || bar.dataset.counted) return;
  progress.dataset.server = progress.dataset.server || progress.textContent;
  progress.textContent = waiting ? bar.dataset.sayRound.replace("{n}", inDigits(next)) : progress.dataset.server;
  const dealer = bar.querySelector(".bar-dealer");
  if (!dealer) return;
  const name = dealer.querySelector("bdi");
  name.dataset.server = name.dataset.server || name.textContent;
  const ahead = JSON.parse(bar.dataset.dealers)[waiting];
  name.textContent = waiting ? ahead || "" : name.dataset.server;
  dealer.hidden = Boolean(waiting) && !ahead;
}

document.addEventListener("click", async (event) => {
  const drop = event.target.closest("[data-outbox-drop]");
  const edit = event.target.closest("[data-outbox-edit]");
  if (!drop && !edit) return;
  const section = document.getElementById("outbox");
  const item = (await keptFor(section)).find((each) => String(each.id) === (drop || edit).dataset.id);
  if (!item) return;
  if (drop && !window.confirm(section.dataset.sayDrop)) return;
  await Outbox.drop(item.id);
  if (edit) {
    // Taken back into the form, it is a draft again: fixed, it is recorded as a new round.
    await showOutbox();
    const form = document.querySelector("[data-draft] form.round-form");
    fill(form, [...fields(item)].filter(([name]) => !KEPT.has(name)));
    keepDraft(form);
    form.scrollIntoView({ block: "start" });
  } else {
    await showOutbox();
  }
});

// The server's own words for a round it refused, read from the page it answered with.
async function refusalOf(response) {
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const said = [...page.querySelectorAll("main p.alert, main .alert p, .field-errors li")].map((part) => part.textContent.trim());
  const main = page.querySelector("main h1");
  return said.join(" ") || (main ? main.textContent.trim() : String(response.status));
}

// A page the player is leaving (a form sent, a link followed, a reload) neither reloads itself
// meanwhile, which would call off the page on its way (such as the match page a round recorded
// offline leads back to), nor starts sending a kept round, which its going would cut short with
// the round maybe recorded, maybe not: the next page sends it. A page still there long after was
// left for a file (an export): it sends and is shown afresh then.
const LEFT_FOR_GOOD_MS = 30000;
let leftAt = null;
let heldBack = null;

window.addEventListener("beforeunload", () => { leftAt = Date.now(); });
window.addEventListener("pageshow", () => { leftAt = null; });

function leaving() {
  return leftAt !== null && Date.now() - leftAt < LEFT_FOR_GOOD_MS;
}

function reloadPage() {
  const wait = leaving() ? leftAt + LEFT_FOR_GOOD_MS - Date.now() : 0;
  window.clearTimeout(heldBack);
  if (wait > 0) {
    heldBack = window.setTimeout(reloadPage, wait);
    return;
  }
  leftAt = Date.now();
  window.location.reload();
}

let turn = null;
let turnAgain = false;
const SEND_WAIT_MS = 10000;

// Send what waits, in order. The promise settles once the turn is over, and the turn asked for
// meanwhile too: whoever asks may then show the page afresh without cutting a send short.
function sendOutbox() {
  if (!Outbox || !navigator.onLine || leaving()) return Promise.resolve();
  if (turn) {
    // Asked while a turn is under way (the connection just came back): one more turn after it.
    turnAgain = true;
    return turn;
  }
  turn = sendTurns().finally(() => { turn = null; });
  return turn;
}

async function sendTurns() {
  let sent = 0;
  let changed = false;
  do {
    turnAgain = false;
    const outcome = await sendTurn();
    sent += outcome.sent;
    changed = changed || outcome.changed;
    // Once one is sent the page is shown again, and that sends the rest.
  } while (turnAgain && !sent);
  const section = document.getElementById("outbox");
  if (sent && (section || OFFLINE_COPY !== undefined)) reloadPage();
  else if (changed) await showOutbox();
}

async function sendTurn() {
  let sent = 0;
  let changed = false;
  if (!navigator.onLine) return { sent, changed };
  try {
    const stopped = new Set();
    for (const item of await Outbox.all()) {
      if (leaving()) break;
      const match = matchOf(item.url);
      if (stopped.has(match) || item.state === "refused") {
        // Rounds entered after a refused one wait for it to be fixed or dropped.
        stopped.add(match);
        continue;
      }
      let response;
      try {
        response = Outbox.reached(await fetch(item.url, {
          method: "POST",
          body: item.body,
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          redirect: "manual",
          signal: AbortSignal.timeout(SEND_WAIT_MS),
        }));
      } catch {
        break;
      }
      if (response.type === "opaqueredirect") {
        await Outbox.drop(item.id);
        localStorage.removeItem(SAID + fields(item).get("idempotency_key"));
        sent += 1;
        continue;
      }
      item.message = await refusalOf(response);
      if (response.status < 500) item.state = "refused";
      await Outbox.put(item);
      changed = true;
      stopped.add(match);
    }
  } catch {
    // No storage to read: nothing was kept to send.
  }
  return { sent, changed };
}

// A page shown as last seen asks now and then whether the server is back, to show it fresh:
// what waits is sent first, so the page shown fresh already counts it.
async function serverBack() {
  try {
    const answer = await fetch(window.location.href, { method: "HEAD", cache: "no-store" });
    if (!answer.ok) return;
    await sendOutbox();
    reloadPage();
  } catch {
    // Still offline.
  }
}

document.addEventListener("DOMContentLoaded", () => {
  showOffline();
  const section = document.getElementById("outbox");
  showOutbox().then(sendOutbox).then(() => section && keepForCounting(section));
  window.setInterval(() => {
    if (document.visibilityState !== "visible") return;
    sendOutbox();
    if (OFFLINE_COPY !== undefined) serverBack();
  }, SEND_EVERY_MS);
});

window.addEventListener("offline", showOffline);
window.addEventListener("online", async () => {
  await sendOutbox();
  // Online for a moment only (a Wi-Fi that comes and goes): the page as last seen stays.
  if (OFFLINE_COPY !== undefined && navigator.onLine) reloadPage();
  else showOffline();
});

// A result picture is shared as a file where the phone offers it (the Web Share API), so it
// goes straight to the group chat; elsewhere the link downloads it as it always did.
document.addEventListener("click", async (event) => {
  const link = event.target.closest("a[data-share-picture]");
  if (!link || !navigator.canShare) return;
  event.preventDefault();
  try {
    const response = await fetch(link.href);
    const file = new File([await response.blob()], link.getAttribute("download"), { type: "image/png" });
    if (navigator.canShare({ files: [file] })) {
      await navigator.share({ files: [file], title: link.dataset.sayTitle });
      return;
    }
  } catch (error) {
    if (error && error.name === "AbortError") return; // the player closed the share sheet
  }
  const download = document.createElement("a");
  download.href = link.href;
  download.download = link.getAttribute("download");
  document.body.append(download);
  download.click();
  download.remove();
});
