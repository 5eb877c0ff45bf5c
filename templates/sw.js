// Tablescore's service worker: the static files from the cache, the match pages a phone has
// opened kept for reading offline, and a round recorded offline put in the outbox.
// The app writes the cache's name and what it holds when it serves this file (web/pwa.py).
"use strict";

const CACHE = {{ cache|tojson }};
const PAGES = `${CACHE}-pages`;
const PRECACHED = {{ urls|tojson }};
const OFFLINE = {{ offline|tojson }};
const ASSETS = {{ assets|tojson }};
const KEPT_PAGES = new RegExp({{ kept_pages|tojson }});
const QUEUED_FORMS = new RegExp({{ queued_forms|tojson }});
const NEW_MATCH = new RegExp({{ new_match|tojson }});
const ALONE_PAGE = {{ alone_page|tojson }};
// The phone's Python and its runtime, named after their version or content: kept as assets are.
const ALONE_FILES = new RegExp({{ alone_files|tojson }});

importScripts({{ outbox|tojson }}, {{ phone_store|tojson }});

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(PRECACHED)).then(() => self.skipWaiting()),
  );
});

// Assets are named after their content, so an older cache holds nothing the new pages need.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    const names = await caches.keys();
    await Promise.all(
      names.filter((name) => name.startsWith("tablescore-") && name !== CACHE).map((name) => caches.delete(name)),
    );
    await self.clients.claim();
  })());
});

const reached = self.TablescoreOutbox.reached;

// A page comes from the server (scores change); a match page, its sheet and its live view are
// kept as last seen, and shown marked as such when the server cannot be reached.
async function page(event) {
  const url = new URL(event.request.url);
  try {
    const response = reached(await fromServer(event));
    await keep(url.pathname, response);
    return response;
  } catch {
    return (await lastSeen(url.pathname)) || (await keptToScoreAlone(url)) || (await offline());
  }
}

// A phone ready to score alone keeps the home page, the new-match pages and the phone's own
// page (static/app.js): with no server in reach, a match starts from the same pages.
async function keptToScoreAlone(url) {
  const name = (await caches.keys()).find((key) => key.startsWith("phone-alone-"));
  // The phone's own page is one page, whichever match its address names.
  const ignoreSearch = url.pathname === ALONE_PAGE;
  return name ? caches.match(url.pathname + url.search, { cacheName: name, ignoreSearch }) : undefined;
}

// The page as the server sends it. A preload the browser gave up on (a second tap, Back while
// it loaded) says nothing of the server: ask it again before calling the phone offline.
async function fromServer(event) {
  try {
    const preloaded = await event.preloadResponse;
    if (preloaded) return preloaded;
  } catch {
    // Fall through to the server itself.
  }
  return fetch(event.request);
}

// Kept with the time it was seen, which the page shows offline.
async function keep(path, response) {
  if (!response.ok || !KEPT_PAGES.test(path)) return;
  const headers = new Headers(response.headers);
  headers.set("X-Seen-At", new Date().toISOString());
  const seen = new Response(await response.clone().blob(), { status: response.status, headers });
  const pages = await caches.open(PAGES);
  await pages.put(path, seen);
}

// The first page a phone opens was loaded before this worker ran: the page asks for itself to
// be kept, so that a round recorded offline from it comes back to it, not to "No connection".
self.addEventListener("message", (event) => {
  const path = event.data && event.data.keep;
  if (typeof path !== "string" || !KEPT_PAGES.test(path)) return;
  event.waitUntil((async () => {
    if (await caches.match(path, { cacheName: PAGES })) return;
    try {
      await keep(path, reached(await fetch(path, { credentials: "same-origin" })));
    } catch {
      // Out of reach already: nothing to keep.
    }
  })());
});

async function marked(response, mark) {
  const text = (await response.text()).replace("<html", `<html ${mark}`);
  return new Response(text, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

async function lastSeen(path) {
  const kept = await caches.match(path, { cacheName: PAGES });
  return kept && marked(kept, `data-offline-copy="${kept.headers.get("X-Seen-At") || ""}"`);
}

async function offline(unsent = false) {
  const page = await caches.match(OFFLINE);
  if (!page) return Response.error();
  return unsent ? marked(page, "data-unsent") : page;
}

// A round's form sent while the server cannot be reached goes in the outbox, and the phone
// goes back to the match, where it shows as waiting to be sent. Any other form is not sent.
async function post(event) {
  const request = event.request;
  const url = new URL(request.url);
  const match = QUEUED_FORMS.exec(url.pathname);
  const starting = NEW_MATCH.exec(url.pathname);
  // Only a round's form and a new match's are read before they are sent: an uploaded export
  // is not copied.
  const body = match || starting ? await request.clone().text() : "";
  try {
    return reached(await fetch(request));
  } catch {
    if (starting && (await keptToScoreAlone(new URL(ALONE_PAGE, url)))) {
      // Out of reach: the phone starts the match itself, and scores it alone.
      const uid = await self.TablescorePhone.begin(starting[1], url.searchParams.get("layout"), body);
      return Response.redirect(`${ALONE_PAGE}?match=${uid}`, 303);
    }
    if (!match || !new URLSearchParams(body).has("record")) return offline(true);
    await self.TablescoreOutbox.add({ url: url.pathname, body, at: new Date().toISOString(), state: "waiting" });
    return Response.redirect(match[1], 303);
  }
}

async function asset(request) {
  const kept = await caches.match(request);
  if (kept) return kept;
  const fetched = await fetch(request);
  if (fetched.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(request, fetched.clone());
  }
  return fetched;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && request.method === "POST") event.respondWith(post(event));
  else if (request.method !== "GET") return;
  else if (request.mode === "navigate") event.respondWith(page(event));
  else if (url.pathname.startsWith(ASSETS) || ALONE_FILES.test(url.pathname)) event.respondWith(asset(request));
});
