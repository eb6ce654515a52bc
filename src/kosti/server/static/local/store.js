// The games of this device, in IndexedDB: each table's settings and log (its events in the form a
// server stores them), and beside them what is known of it (a summary for the list of saved
// games, and the game's record for a download). The worker writes (kosti.web.host.Storage:
// JSON texts in and out); the page and the service worker read.

const DB = "kosti";
const TABLES = "tables";

let opened = null;

function db() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const opening = indexedDB.open(DB, 1);
      opening.onupgradeneeded = () => opening.result.createObjectStore(TABLES, { keyPath: "id" });
      opening.onsuccess = () => resolve(opening.result);
      opening.onerror = () => reject(opening.error);
    });
  }
  return opened;
}

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** `{"settings", "events"}` of a table as JSON, or undefined (Python's None) when there is none. */
export async function load(id) {
  const found = await done((await db()).transaction(TABLES).objectStore(TABLES).get(id));
  return found ? JSON.stringify({ settings: found.settings, events: found.events }) : undefined;
}

/**
 * Append `events` (JSON) to the log of table `id` after `version` events, in one transaction (a new
 * table when `version` is 0); false, writing nothing, when the log holds another number of events:
 * another tab of the page wrote first.
 */
export async function append(id, version, settings, events) {
  const tx = (await db()).transaction(TABLES, "readwrite");
  const tables = tx.objectStore(TABLES);
  const found = (await done(tables.get(id))) || (version === 0 ? { id, settings: JSON.parse(settings), events: [], about: null } : null);
  if (!found || found.events.length !== version) {
    tx.abort();
    return false;
  }
  found.events.push(...JSON.parse(events));
  found.updated = Date.now();
  tables.put(found);
  await new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
  return true;
}

/** Keep `about` (JSON: {summary, record}) beside the log of table `id`. */
export async function describe(id, about) {
  const tx = (await db()).transaction(TABLES, "readwrite");
  const tables = tx.objectStore(TABLES);
  const found = await done(tables.get(id));
  if (!found) return;
  found.about = JSON.parse(about);
  tables.put(found);
  await new Promise((resolve) => {
    tx.oncomplete = resolve;
    tx.onerror = resolve;
  });
}

/** Every table's {id, summary, updated}, as JSON. */
export async function list() {
  return JSON.stringify(await saved());
}

/** Every table's {id, summary, updated}, the last played first. */
export async function saved() {
  const all = await done((await db()).transaction(TABLES).objectStore(TABLES).getAll());
  return all.map((t) => ({ id: t.id, summary: t.about && t.about.summary, updated: t.updated || 0 })).sort((a, b) => b.updated - a.updated);
}

/** The record of table `id` (RULES.md §5) as kept after its last move, or null. */
export async function recordOf(id) {
  const found = await done((await db()).transaction(TABLES).objectStore(TABLES).get(id));
  return (found && found.about && found.about.record) || null;
}
