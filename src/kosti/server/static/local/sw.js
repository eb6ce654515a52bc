// The service worker of the page for play on this device (served as /sw.js, headed by the
// build: `const BUILD` and `const FILES`, every URL of the site it keeps; kosti.web.site).
//
// On install it keeps every file of the build (a file whose name carries its version or hash
// is taken from the cache of the build before when it is there, not fetched again); from then
// on the page, Pyodide and kosti's archive come from here, and a visit costs nothing on the
// wire but the browser's check of this file. A new build (this file changed) is installed in
// the background and takes over at once; the saved games live in IndexedDB, not here, and
// stay. A game's record (/api/tables/local-…/record, the page's download link) is read from
// IndexedDB: the page keeps each local game's record there after every move.

const CACHE = `kosti-${BUILD}`;
const SNAPSHOTS = "kosti-snapshot"; // the worker's snapshots of Pyodide's memory, by build
const KEPT = new Set(FILES);
const DB = "kosti";
const TABLES = "tables";

/** Files whose URL names their content: the cache of another build may give them. */
function named(url) {
  return url.startsWith("/local/pyodide/") || url.startsWith("/local/kosti-") || url.startsWith("/static/v/");
}

async function keep(cache, olds, url) {
  if (await cache.match(url)) return; // an install that was cut off and runs again
  if (named(url)) {
    for (const old of olds) {
      const found = await (await caches.open(old)).match(url);
      if (found) {
        await cache.put(url, found);
        return;
      }
    }
  }
  // "no-cache": a file the page has just loaded is checked, not fetched again (a 304)
  const response = await fetch(url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  await cache.put(url, response);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const olds = (await caches.keys()).filter((name) => name.startsWith("kosti-") && name !== CACHE && name !== SNAPSHOTS);
      // a few at a time: the big files go side by side with the small ones
      const queue = [...FILES];
      const workers = Array.from({ length: 4 }, async () => {
        while (queue.length) await keep(cache, olds, queue.shift());
      });
      await Promise.all(workers);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("kosti-") && name !== CACHE && name !== SNAPSHOTS) await caches.delete(name);
      }
      const snapshots = await caches.open(SNAPSHOTS);
      for (const request of await snapshots.keys()) {
        if (!request.url.endsWith(`/${BUILD}`)) await snapshots.delete(request);
      }
      await self.clients.claim();
    })(),
  );
});

/** The shell of the page for a navigation: `/` and an invitation, `/t/ID`. */
function shell(url) {
  return url.pathname === "/" || url.pathname === "/index.html" || /^\/t\/[A-Za-z0-9_-]{1,32}$/.test(url.pathname);
}

async function cached(key, request) {
  const cache = await caches.open(CACHE);
  const found = await cache.match(key);
  return found || fetch(request);
}

function openDb() {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(DB, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore(TABLES, { keyPath: "id" });
    opening.onsuccess = () => resolve(opening.result);
    opening.onerror = () => reject(opening.error);
  });
}

async function record(id) {
  const db = await openDb();
  const found = await new Promise((resolve, reject) => {
    const get = db.transaction(TABLES).objectStore(TABLES).get(id);
    get.onsuccess = () => resolve(get.result);
    get.onerror = () => reject(get.error);
  });
  db.close();
  const data = found && found.about && found.about.record;
  if (!data) return new Response(JSON.stringify({ detail: "not_found" }), { status: 404, headers: { "Content-Type": "application/json" } });
  return new Response(JSON.stringify(data, null, 1), {
    headers: { "Content-Type": "application/json", "Content-Disposition": `attachment; filename="kosti-${id}.json"` },
  });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  const local = url.pathname.match(/^\/api\/tables\/(local-[A-Za-z0-9_-]{1,26})\/record$/);
  if (local) {
    event.respondWith(record(local[1]));
  } else if (request.mode === "navigate" && shell(url)) {
    event.respondWith(cached("/", request));
  } else if (/^\/api\/words\/(ru|en)$/.test(url.pathname)) {
    event.respondWith(cached(url.pathname, request)); // the catalog of this build, whatever ?v= asks
  } else if (KEPT.has(url.pathname)) {
    event.respondWith(cached(url.pathname, request));
  }
});
