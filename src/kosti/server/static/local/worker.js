// The worker of the page for play on this device: Pyodide with kosti inside, hosting the device's
// tables (kosti.web.host) behind the protocol the page speaks to a server. The page (transport.js)
// sends it REST requests and the messages of its sockets; it answers with the server's answers,
// and the sockets' messages (state, change, error, hint). Nothing is loaded from another origin.
//
// Boot: the first visit of a build starts Python afresh, unpacks kosti's archive, imports and
// warms it up (kosti.web.worker.warm), and keeps a snapshot of Pyodide's memory in Cache Storage;
// every later visit starts from that snapshot in a fraction of the time.

import * as store from "./store.js";

const SNAPSHOTS = "kosti-snapshot";

let host = null;
let bootWith = null; // null once the boot has started
// what every other message waits for: the page may send a request or open a socket before its
// "boot" (it boots the worker once the service worker controls the page, a reload at a table asks
// for the table at once), and such a message waits here instead of meeting no Python
const booting = new Promise((resolve) => (bootWith = resolve));

function post(message) {
  self.postMessage(message);
}

/** Dice: random bytes from the browser's cryptographic generator (kosti.web.host.DeviceDice). */
function randomBytes(n) {
  return crypto.getRandomValues(new Uint8Array(n));
}

/** A socket's message to the page (`text` undefined: the socket closes). */
function emit(conn, text) {
  post({ op: "socket", conn, text: text === undefined ? null : text });
}

async function readSnapshot(key) {
  try {
    const found = await (await caches.open(SNAPSHOTS)).match(key);
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

// kept as it is (some 40 MB on this device's disk): reading it back is a copy, where unzipping it
// would cost the first throw of every visit a second on a slow phone
async function writeSnapshot(key, bytes) {
  const copy = new Uint8Array(bytes); // the memory it is a view of changes as Python goes on
  await (await caches.open(SNAPSHOTS)).put(key, new Response(copy, { headers: { "Content-Type": "application/octet-stream" } }));
}

/**
 * Pyodide's module maker, the module's memory grown to hold `snapshot` before Pyodide copies it in:
 * Pyodide's WebAssembly starts with a memory of its own size (loadPyodide's INITIAL_MEMORY does not
 * change it), smaller than a snapshot taken once kosti is imported and warm. Growing it through
 * malloc keeps the module's views of its memory right; the snapshot then overwrites it all.
 */
function grown(config, snapshot) {
  const header = new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4);
  const needed = snapshot.length - header[1];
  return async (settings) => {
    const create = (await import(config.pyodide.index + "pyodide.asm.mjs")).default;
    const module = await create(settings);
    const held = [];
    while (module.HEAP8.length < needed) {
      const block = module._malloc(1 << 22);
      if (!block) break;
      held.push(block);
    }
    for (const block of held) module._free(block);
    return module;
  };
}

async function boot(config, botDelay) {
  const started = performance.now();
  const phases = {};
  const mark = (name) => (phases[name] = Math.round(performance.now() - started));
  const key = `/local/snapshot/${config.build}`;
  const { loadPyodide } = await import(config.pyodide.index + "pyodide.mjs");
  mark("loader");
  const options = {
    indexURL: config.pyodide.index,
    // no packages: an empty lock file given here, not fetched
    lockFileContents: config.pyodide.lock,
    packageBaseUrl: config.pyodide.index,
    stdout: () => {},
    stderr: (line) => console.warn(line),
  };
  const archive = fetch(config.archive).then((response) => {
    if (!response.ok) throw new Error(`${config.archive}: ${response.status}`);
    return response.arrayBuffer();
  });
  let py = null;
  let fromSnapshot = false;
  const snapshot = await readSnapshot(key);
  mark("snapshot_read");
  if (snapshot) {
    try {
      py = await loadPyodide({ ...options, _loadSnapshot: snapshot, createPyodideModule: grown(config, snapshot) });
      fromSnapshot = true;
    } catch (error) {
      console.warn("the snapshot of Python could not be used:", error);
    }
  }
  if (!py) py = await loadPyodide({ ...options, _makeSnapshot: true });
  mark("python");
  const zipped = await archive;
  mark("archive");
  py.unpackArchive(zipped, "zip", { extractDir: config.site_packages });
  mark("unpacked");
  if (!fromSnapshot) {
    py.runPython("from kosti.web.worker import warm\nwarm()");
    try {
      await writeSnapshot(key, py.makeMemorySnapshot());
    } catch (error) {
      console.warn("no snapshot of Python kept:", error);
    }
  }
  const glue = py.pyimport("kosti.web.worker");
  mark("imported");
  host = glue.start(store, emit, randomBytes, botDelay ?? undefined);
  mark("host");
  post({ op: "ready", snapshot: fromSnapshot, ms: Math.round(performance.now() - started), phases });
  return host;
}

async function handle(message) {
  if (message.op === "boot") {
    if (!bootWith) return;
    const started = boot(message.config, message.botDelay);
    started.catch((error) => post({ op: "failed", message: String(error && error.message ? error.message : error) }));
    bootWith(started);
    bootWith = null;
    return;
  }
  const ready = await booting;
  switch (message.op) {
    case "request": {
      try {
        const text = await ready.request(message.method, message.url, message.body ?? undefined, message.lang);
        post({ op: "reply", id: message.id, text });
      } catch (error) {
        post({ op: "reply", id: message.id, error: String(error) });
      }
      break;
    }
    case "open_record": {
      try {
        post({ op: "reply", id: message.id, text: await ready.open_record(message.text, message.lang) });
      } catch (error) {
        post({ op: "reply", id: message.id, error: String(error) });
      }
      break;
    }
    case "open":
      await ready.open(message.conn, message.url, message.lang);
      break;
    case "send":
      await ready.receive(message.conn, message.text);
      break;
    case "close":
      ready.close(message.conn);
      break;
    default:
      break;
  }
}

// messages are handled one after another, as a socket's messages reach a server in order
let queue = Promise.resolve();
self.addEventListener("message", (event) => {
  const message = event.data;
  if (message.op === "boot") {
    handle(message);
    return;
  }
  queue = queue.then(() => handle(message)).catch((error) => console.error(error));
});
