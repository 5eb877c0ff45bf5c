// Tablescore's service worker: the static files from the cache, and a friendly page offline.
// The app writes the cache's name and what it holds when it serves this file (web/pwa.py).
"use strict";

const CACHE = {{ cache|tojson }};
const PRECACHED = {{ urls|tojson }};
const OFFLINE = {{ offline|tojson }};
const ASSETS = {{ assets|tojson }};

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

async function page(event) {
  try {
    return (await event.preloadResponse) || (await fetch(event.request));
  } catch {
    return (await caches.match(OFFLINE)) || Response.error();
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

// Pages always come from the server (scores change); only when it cannot be reached, the
// offline page. Forms posted go to the server untouched.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(event));
  else if (url.pathname.startsWith(ASSETS)) event.respondWith(asset(request));
});
