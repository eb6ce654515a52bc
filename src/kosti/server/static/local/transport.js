// Where the page's requests and sockets go: a server's tables over the network, the tables of this
// device (ids "local-…") to a worker that runs kosti in Pyodide (worker.js), behind the same
// messages. app.js calls request() where it would call fetch() and openSocket() where it would
// make a WebSocket; no other part of the page knows which it talks to.
//
// The page plays on this device when no server answers it (a static copy: `kosti web export`, or
// no signal), or when its player chose to (the "This device" panel, kept in localStorage). What
// the lobby needs before Python runs (the presets, each preset's rules, the bots of a device)
// comes with the build (local/site.json); the saved games are read from IndexedDB (store.js).
// The service worker (/sw.js) keeps the page, Pyodide and kosti's archive for offline visits.

import { el } from "../dom.js";
import { language, t } from "../i18n.js";
import { recordOf, saved } from "./store.js";

const LOCAL_ID = /^local-[A-Za-z0-9_-]{1,26}$/;

/** Whether table `id` is one of this device's: its players all sit at this screen (hot-seat). */
export function onThisDevice(id) {
  return LOCAL_ID.test(id || "");
}

/** The build's configuration (local/site.json), or null where this page has no local play. */
const site = fetch("/local/site.json")
  .then((response) => (response.ok ? response.json() : null))
  .catch(() => null);

let serverInfo = null;

/** "device" or "server": where this page load plays, decided once. */
const where = (async () => {
  const config = await site;
  if (!config) return "server";
  if (!config.server) return "device";
  if (localStorage.getItem("kosti.where") === "device" || navigator.onLine === false) return "device";
  try {
    const response = await fetch("/api/server", { signal: AbortSignal.timeout(5000) });
    if (response.ok) {
      serverInfo = await response.json();
      return "server";
    }
  } catch {
    // no server answers: this load plays on the device
  }
  return "device";
})();

// -- the worker ------------------------------------------------------------------------------------

let worker = null;
let failure = null;
let calls = 0;
const replies = new Map();
const sockets = new Map();

function json(body, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** Resolves once the service worker controls the page (or there will be none): the worker's
 * files then come from its cache, not a second time over the network. */
async function controlled() {
  const registration = await registered;
  if (!registration || navigator.serviceWorker.controller) return;
  await new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    setTimeout(resolve, 120000);
  });
}

function startWorker() {
  if (worker) return worker;
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  document.body.dataset.engine = "starting";
  worker.addEventListener("message", (event) => {
    const message = event.data;
    if (message.op === "reply") {
      const pending = replies.get(message.id);
      replies.delete(message.id);
      if (pending) message.error === undefined ? pending.resolve(message.text) : pending.reject(new Error(message.error));
    } else if (message.op === "socket") {
      const socket = sockets.get(message.conn);
      if (socket) socket.receive(message.text);
    } else if (message.op === "ready") {
      document.body.dataset.engine = message.snapshot ? "ready-snapshot" : "ready";
      document.body.dataset.engineMs = String(message.ms);
      document.body.dataset.enginePhases = JSON.stringify(message.phases || {});
      renderPanel();
    } else if (message.op === "failed") {
      failure = message.message;
      document.body.dataset.engine = "failed";
      for (const pending of replies.values()) pending.reject(new Error(t("engineFailed", { reason: failure })));
      replies.clear();
      renderPanel();
    }
  });
  // the bots' pace: a move every 0.6 s unless this browser says otherwise (kosti.botDelay, seconds)
  const pace = Number(localStorage.getItem("kosti.botDelay"));
  const botDelay = Number.isFinite(pace) && localStorage.getItem("kosti.botDelay") !== null ? pace : null;
  Promise.all([site, controlled()]).then(([config]) => worker.postMessage({ op: "boot", config, botDelay }));
  return worker;
}

function call(message) {
  if (failure) return Promise.reject(new Error(t("engineFailed", { reason: failure })));
  const id = ++calls;
  return new Promise((resolve, reject) => {
    replies.set(id, { resolve, reject });
    startWorker().postMessage({ ...message, id });
  });
}

// -- REST --------------------------------------------------------------------------------------------

function langOf(url, init) {
  const headers = new Headers((init && init.headers) || {});
  const asked = url.searchParams.get("lang") || headers.get("Accept-Language") || language();
  return asked === "ru" ? "ru" : "en";
}

/** The saved games of this device not over yet, as a server lists its open tables. */
async function savedTables(config, lang) {
  const names = Object.fromEntries((config.presets[lang] || []).map((p) => [p.id, p.name]));
  const tables = [];
  for (const item of await saved().catch(() => [])) {
    const summary = item.summary;
    if (!summary || summary.status === "finished" || summary.status === "abandoned" || !names[summary.preset]) continue;
    const players = ((summary.shown && summary.shown[lang]) || []).join(", ");
    tables.push({
      id: item.id,
      preset: summary.preset,
      name: players ? `${names[summary.preset]}: ${players}` : names[summary.preset],
      seats: summary.seats,
      taken: summary.taken,
      timer: null,
      mode: summary.mode,
    });
  }
  return tables.slice(0, 50);
}

async function localRequest(url, init) {
  const config = await site;
  const lang = langOf(url, init);
  const method = ((init && init.method) || "GET").toUpperCase();
  const path = url.pathname;
  if (method === "GET" && path === "/api/server") return json(config.server_info);
  if (method === "GET" && path === "/api/presets") return json(config.presets[lang]);
  if (method === "GET" && path === "/api/tables") return json({ tables: await savedTables(config, lang) });
  const rules = path.match(/^\/api\/rules\/([^/]+)$/);
  const ready = rules && config.rules && config.rules[lang] && config.rules[lang][decodeURIComponent(rules[1])];
  if (method === "GET" && ready) return json(ready);
  const text = await call({ op: "request", method, url: path + url.search, body: (init && init.body) || undefined, lang });
  const answer = JSON.parse(text);
  return json(answer.body, answer.status);
}

/** The answer to a request of the page: from this device's tables, or over the network. */
export async function request(path, init = {}) {
  const url = new URL(path, location.href);
  if (url.origin === location.origin && url.pathname.startsWith("/api/")) {
    const table = url.pathname.match(/^\/api\/tables\/([^/]+)/);
    const local = table ? LOCAL_ID.test(decodeURIComponent(table[1])) : (await where) === "device";
    if (local) return localRequest(url, init);
    if (url.pathname === "/api/server" && serverInfo) return json(serverInfo);
  }
  return fetch(path, init);
}

// -- sockets -----------------------------------------------------------------------------------------

let conns = 0;

/** A table's socket at this device: the WebSocket's events and readyState, the worker behind. */
class LocalSocket extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    this.conn = `s${++conns}`;
    this.readyState = 0;
    sockets.set(this.conn, this);
    const parsed = new URL(url);
    const lang = parsed.searchParams.get("lang") === "ru" ? "ru" : "en";
    startWorker().postMessage({ op: "open", conn: this.conn, url: parsed.pathname + parsed.search, lang });
    setTimeout(() => {
      if (this.readyState !== 0) return;
      this.readyState = 1;
      this.dispatchEvent(new Event("open"));
    }, 0);
  }

  send(text) {
    if (this.readyState !== 1) return;
    worker.postMessage({ op: "send", conn: this.conn, text });
  }

  receive(text) {
    if (text === null) {
      this.finish();
      return;
    }
    this.dispatchEvent(new MessageEvent("message", { data: text }));
  }

  close() {
    if (this.readyState >= 2) return;
    worker.postMessage({ op: "close", conn: this.conn });
    this.finish();
  }

  finish() {
    if (this.readyState === 3) return;
    this.readyState = 3;
    sockets.delete(this.conn);
    this.dispatchEvent(new CloseEvent("close"));
  }
}

/** A socket to a table: a WebSocket to a server's, a LocalSocket to one of this device. */
export function openSocket(url) {
  const parsed = new URL(url, location.href);
  const table = parsed.pathname.match(/^\/ws\/([^/]+)$/);
  if (table && LOCAL_ID.test(decodeURIComponent(table[1]))) return new LocalSocket(parsed.href);
  return new WebSocket(url);
}

// -- opening a game file -------------------------------------------------------------------------------

/** A record file (RULES.md §5) opened as a table of this device, played to its last move; the
 * page goes to it with every seat of a person held here. */
async function openFile(file) {
  const text = await file.text();
  const answer = JSON.parse(await call({ op: "open_record", text, lang: language() }));
  if (answer.detail) throw new Error(t("badGameFile", { reason: answer.detail }));
  localStorage.setItem(`kosti.seats.${answer.id}`, JSON.stringify(answer.seats));
  history.pushState({}, "", `/t/${answer.id}`);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

// -- a local game's record, downloaded ----------------------------------------------------------------

/** The page's download link of a record (/api/tables/local-…/record) gives the record kept in
 * IndexedDB, as a file made here: no request at all, with or without the service worker. */
document.addEventListener(
  "click",
  (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    const match = link && new URL(link.href, location.href).pathname.match(/^\/api\/tables\/(local-[A-Za-z0-9_-]{1,26})\/record$/);
    if (!match) return;
    event.preventDefault();
    recordOf(match[1]).then((record) => {
      if (!record) return;
      const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
      const url = URL.createObjectURL(blob);
      const save = el("a", { href: url, download: link.getAttribute("download") || `kosti-${match[1]}.json` });
      document.body.append(save);
      save.click();
      save.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    });
  },
  true,
);

// -- the "This device" panel ----------------------------------------------------------------------------

let offline = "preparing";

async function renderPanel() {
  const config = await site;
  if (!config) return;
  document.body.dataset.build = config.build;
  const mode = await where;
  let panel = document.getElementById("device");
  const open = panel ? panel.open : false;
  const input = el("input", { type: "file", id: "open-record", accept: ".json,application/json", class: "sr-only" });
  const note = el("p", { class: "muted", id: "device-note", "aria-live": "polite" });
  input.addEventListener("change", () => {
    const file = input.files && input.files[0];
    if (file) openFile(file).catch((error) => (note.textContent = error.message));
  });
  const offlineText = { ready: t("offlineReady"), preparing: t("offlinePreparing"), none: t("offlineCannot") }[offline];
  const starting = document.body.dataset.engine === "starting" ? ` ${t("engineStarting")}` : "";
  const status = failure ? t("engineFailed", { reason: failure }) : offlineText + starting;
  const switcher = config.server
    ? el("button", {
        type: "button",
        id: mode === "device" ? "to-online" : "to-device",
        text: mode === "device" ? t("deviceToOnline") : t("deviceToLocal"),
        onclick: () => {
          localStorage.setItem("kosti.where", mode === "device" ? "server" : "device");
          location.assign("/");
        },
      })
    : null;
  panel = el(
    "details",
    { class: "card device", id: "device", open },
    el("summary", { text: t("deviceTitle") }),
    el("p", { text: mode === "device" ? t("deviceLocal") : t("deviceOnline") }),
    el("p", { class: "muted", id: "offline-status", text: status }),
    el("div", { class: "controls" }, switcher, el("label", { class: "button", for: "open-record", text: t("deviceOpenFile") }), input),
    note,
  );
  const old = document.getElementById("device");
  if (old) old.replaceWith(panel);
  else (document.getElementById("main") || document.body).append(panel);
  document.body.dataset.where = mode;
}

/** The service worker's registration (registered here on the first visit), or null where the
 * page cannot be kept for offline visits (no local play here, an http page that is not localhost). */
async function keepOffline() {
  const config = await site;
  if (!config) return null;
  let registration = null;
  if ("serviceWorker" in navigator && window.isSecureContext) {
    try {
      // registered once: the browser itself checks /sw.js for a new build on every visit
      registration = (await navigator.serviceWorker.getRegistration("/")) || (await navigator.serviceWorker.register("/sw.js", { scope: "/" }));
    } catch {
      registration = null;
    }
  }
  if (registration) {
    navigator.serviceWorker.ready.then(() => {
      offline = "ready";
      document.body.dataset.offline = offline;
      renderPanel();
    });
  } else {
    offline = "none";
    document.body.dataset.offline = offline;
    renderPanel();
  }
  return registration;
}

const registered = keepOffline();
where.then((mode) => {
  if (mode === "device") startWorker(); // the engine warms up while the lobby is read
  renderPanel();
});
// the panel speaks the page's language
new MutationObserver(() => renderPanel()).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
