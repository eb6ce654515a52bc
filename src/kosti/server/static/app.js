// The kosti page: the lobby (open tables, a new table) and a table (seats, dice, board, log, rules).
// The server is authoritative: this page only shows the state it is sent and sends actions
// with the version it saw. The turn is drawn from the server's turn view (game.turn_view:
// kosti.games.turn_view), never worked out here. Every name from other people goes through textContent.

import { optionValue, renderBoard } from "./board.js";
import { dieFace, el, markdown, svg } from "./dom.js";
import { cellName, duration, initLanguage, language, loadWords, setLanguage, t, w, word } from "./i18n.js";
import { renderKeeper } from "./keeper.js";

const $ = (id) => document.getElementById(id);

const TIMERS = [0, 30, 60, 120, 300];

const app = {
  tableId: null,
  view: null,
  version: 0,
  socket: null,
  retry: 0,
  gone: false,
  selected: new Set(),
  selectionVersion: -1,
  rules: null,
  hint: null,
  announced: { dice: "", turn: "" },
  sheetPlayer: null,
  rolled: "",
  deadline: null,
  entry: { faces: [], edit: null },
  notice: "",
};

// -- helpers ------------------------------------------------------------------

function showError(message) {
  const box = $("alert");
  box.textContent = message;
  box.hidden = !message;
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    // a refusal comes worded in the page's language (the server reads Accept-Language)
    headers: { "Content-Type": "application/json", "Accept-Language": language(), ...(options.headers || {}) },
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = data && data.detail;
    const message = Array.isArray(detail)
      ? detail.map((d) => `${(d.loc || []).slice(-1)[0] ?? ""}: ${d.msg}`).join("; ")
      : detail || `${response.status} ${response.statusText}`;
    throw new Error(message);
  }
  return data;
}

/** A refusal of the server as the page shows it: its reason, which the server words in the
 * socket's language (?lang=) from its code and params; a generic text only when there is none.
 * The refusals of the turn view (a key closed) come worded the same way. */
function refusalText(reason) {
  return reason || t("refusedIllegal");
}

/** The kind of an action of the record (or "throw"): hold, set_aside, score, stop… */
function kindOf(action) {
  return typeof action === "string" ? action : Object.keys(action)[0];
}

function sameAction(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function post(path, body) {
  return api(path, { method: "POST", body: JSON.stringify(body) });
}

function tablePath(suffix = "") {
  return `/api/tables/${encodeURIComponent(app.tableId)}${suffix}`;
}

function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function seatsKey(tableId) {
  return `kosti.seats.${tableId}`;
}

/** The seat tokens this browser holds at a table: {seat: token}. */
function mySeats(tableId = app.tableId) {
  try {
    const data = JSON.parse(localStorage.getItem(seatsKey(tableId)) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function keepSeat(tableId, seat, token) {
  const seats = mySeats(tableId);
  seats[seat] = token;
  localStorage.setItem(seatsKey(tableId), JSON.stringify(seats));
}

/** Any token this browser holds at this table (for requests about the table, not a turn). */
function anyToken() {
  return Object.values(mySeats())[0] || null;
}

function cards() {
  return Boolean(app.view && app.view.options && app.view.options.faces === "cards");
}

/** The card a face stands for at a table with `faces = "cards"` (9 10 J Q K A; 9 10 В Д К Т), else null. */
function rank(face) {
  return cards() ? w(`card.${face}`) : null;
}

function faceText(value) {
  return rank(value) ?? String(value);
}

function diceText(faces) {
  return (faces || []).map(faceText).join(" ");
}

/** The name of a player as shown: a bot's in the page's language («Умник 2», "Smart 2"). */
function displayName(stored) {
  const seat = app.view && app.view.seats.find((s) => s.name === stored);
  return seat && seat.shown ? seat.shown : stored;
}

function seatName(seat) {
  return seat.shown || seat.name;
}

/** An action of the record (or "throw") in the catalog's words. */
function actionText(action) {
  if (action === "throw") return w("action.throw_on");
  if (action === "stop") return w("action.stop");
  const [key, value] = Object.entries(action)[0];
  if (key === "hold" && value.length === 0) return w("action.throw_all");
  return Array.isArray(value) ? w(`action.${key}`, { dice: diceText(value) }) : w(`action.${key}`, { cell: cellName(value) });
}

function announce(text) {
  // a fresh node each time, so that a screen reader reads a repeated message again
  const region = $("announcer");
  region.textContent = "";
  region.append(el("span", { text }));
}

function field(label, input) {
  return el("label", { class: "field" }, el("span", { text: label }), input);
}

function radio(name, value, label, checked) {
  return el("label", { class: "check" }, el("input", { type: "radio", name, value, checked }), label);
}

// -- sound: a short rattle made on the spot, off unless the player turns it on -------------

let audio = null;

function soundOn() {
  return localStorage.getItem("kosti.sound") === "on";
}

function rattle() {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (let k = 0; k < 4; k++) {
      const length = Math.floor(audio.sampleRate * 0.03);
      const buffer = audio.createBuffer(1, length, audio.sampleRate);
      const data = buffer.getChannelData(0);
      for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
      const source = audio.createBufferSource();
      const gain = audio.createGain();
      gain.gain.value = 0.25;
      source.buffer = buffer;
      source.connect(gain).connect(audio.destination);
      source.start(now + k * 0.06 + Math.random() * 0.02);
    }
  } catch {
    // a browser without audio plays silently
  }
}

function renderSoundButton() {
  const button = $("sound");
  const waves = soundOn()
    ? [svg("path", { d: "M15 8.5a5 5 0 0 1 0 7", class: "stroke" }), svg("path", { d: "M17.5 6a8.5 8.5 0 0 1 0 12", class: "stroke" })]
    : [svg("path", { d: "M15 9l5 6M20 9l-5 6", class: "stroke" })];
  button.replaceChildren(
    svg("svg", { viewBox: "0 0 24 24", class: "speaker", "aria-hidden": "true" }, svg("path", { d: "M3 9h4l5-4v14l-5-4H3z", class: "fill" }), ...waves),
    el("span", { class: "sr-only", text: soundOn() ? t("soundOn") : t("soundOff") }),
  );
  button.setAttribute("aria-label", t("soundLabel"));
  button.setAttribute("aria-pressed", soundOn() ? "true" : "false");
}

// -- lobby --------------------------------------------------------------------

async function showLobby() {
  $("lobby").hidden = false;
  $("table").hidden = true;
  $("status").textContent = "";
  app.tableId = null;
  const [presets, open] = await Promise.all([
    api(`/api/presets?lang=${language()}`),
    api(`/api/tables?lang=${language()}`).catch(() => ({ tables: [] })),
  ]);
  const section = $("lobby");
  section.replaceChildren();
  const select = el("select", { id: "preset", name: "preset" });
  for (const p of presets) select.append(el("option", { value: p.id, text: p.name }));
  select.value = presets.some((p) => p.id === "thousand-classic") ? "thousand-classic" : select.value;
  const summary = el("p", { id: "preset-summary", class: "muted" });
  const describe = () => {
    const p = presets.find((x) => x.id === select.value);
    summary.textContent = p ? p.summary : "";
  };
  select.addEventListener("change", describe);
  describe();
  const timer = el("select", { id: "timer", name: "timer" });
  for (const seconds of TIMERS) timer.append(el("option", { value: seconds, text: seconds ? duration(seconds) : t("timerNone") }));
  const form = el(
    "form",
    { id: "create", class: "card", novalidate: true },
    el("h2", { id: "lobby-title", text: t("newTable") }),
    field(t("game"), select),
    summary,
    field(t("yourName"), el("input", { id: "name", name: "name", maxlength: 24, required: true, autocomplete: "nickname", value: localStorage.getItem("kosti.name") || "" })),
    field(t("seats"), el("input", { id: "seats", name: "seats", type: "number", min: 1, max: 8, value: 2, required: true, inputmode: "numeric" })),
    el("fieldset", {}, el("legend", { text: t("dice") }), radio("mode", "online", t("online"), true), radio("mode", "scorekeeper", t("scorekeeper"), false)),
    el("fieldset", {}, el("legend", { text: t("visibility") }), radio("visibility", "public", t("public"), false), radio("visibility", "private", t("private"), true)),
    field(t("timer"), timer),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "hints", name: "hints", checked: true }), t("hints")),
    el(
      "details",
      { class: "more" },
      el("summary", { text: t("more") }),
      field(t("options"), el("input", { id: "options", name: "options", autocomplete: "off", "aria-describedby": "options-help", maxlength: 200 })),
      el("p", { id: "options-help", class: "muted", text: t("optionsHelp") }),
    ),
    el("button", { type: "submit", class: "primary", text: t("create") }),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    const options = form.options.value.trim();
    const body = {
      variant: options ? `${select.value}(${options})` : select.value,
      seats: Number(form.seats.value),
      mode: form.mode.value,
      hints: form.hints.checked,
      private: form.visibility.value === "private",
      timer: Number(timer.value) || null,
    };
    try {
      const name = form.name.value.trim();
      if (!name) throw new Error(t("needName"));
      // made and seated in one request: nobody can take the creator's seat in between
      localStorage.setItem("kosti.name", name);
      const table = await post("/api/tables", { ...body, name, client_seed: randomSeed() });
      keepSeat(table.id, table.seat, table.token);
      history.pushState({}, "", table.invite);
      route();
    } catch (error) {
      showError(error.message);
    }
  });
  const list = el("ul", { class: "open-tables", id: "open-tables" });
  for (const table of open.tables || []) {
    list.append(
      el(
        "li",
        {},
        el("a", { href: `/t/${table.id}`, class: "table-link" }, el("strong", { text: table.name }), el("span", { class: "muted", text: t("tableLine", { taken: table.taken, seats: table.seats }) }), table.timer ? el("span", { class: "tag", text: duration(table.timer) }) : null),
      ),
    );
  }
  const openCard = el(
    "section",
    { class: "card", "aria-labelledby": "open-title" },
    el("h2", { id: "open-title", text: t("openTables") }),
    list.childElementCount ? list : el("p", { class: "muted", id: "no-open", text: t("noOpenTables") }),
  );
  // open tables to join come first when there are any: most people arrive to sit down
  if (list.childElementCount) section.append(openCard, form);
  else section.append(form, openCard);
}

async function join(tableId, name, token = null) {
  localStorage.setItem("kosti.name", name);
  const answer = await post(`/api/tables/${encodeURIComponent(tableId)}/join`, { name, client_seed: randomSeed(), ...(token ? { token } : {}) });
  keepSeat(tableId, answer.seat, answer.token);
  return answer;
}

// -- the table ----------------------------------------------------------------

const LOG_TAIL = 60; // the log entries a whole state carries (the server's LOG_TAIL)
// a quiet socket pings well within the time after which the server closes a silent spectator
const pingEvery = () => Math.min(60000, (1000 * ((app.server && app.server.idle_timeout) || 300)) / 3);

function connect() {
  if (app.gone) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // changes=1: after the first whole state the server sends only what changed
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(app.tableId)}?lang=${language()}&changes=1`);
  app.socket = socket;
  $("status").textContent = t("connecting");
  const pinger = setInterval(() => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
  }, pingEvery());
  socket.addEventListener("open", () => {
    app.retry = 0;
    // say whose socket this is: a seated player gets in even when the table is crowded
    const token = Object.values(mySeats())[0];
    if (token) socket.send(JSON.stringify({ type: "hello", token }));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "state") {
      showState(message.version, message.table);
    } else if (message.type === "change") {
      if (!app.view || message.since !== app.version) {
        socket.close(); // a version was missed: connecting again brings the whole state
        return;
      }
      const view = { ...app.view, ...message.table };
      view.log = [...(app.view.log || []), ...message.log].slice(-LOG_TAIL);
      showState(message.version, view);
    } else if (message.type === "error") {
      if (message.code === "not_found") {
        app.gone = true;
        $("table").replaceChildren(el("p", { text: t("notFound") }));
      }
      showError(refusalText(message.reason));
    } else if (message.type === "hint") {
      app.hint = message;
      renderTable();
    }
  });
  socket.addEventListener("close", () => {
    clearInterval(pinger);
    if (app.socket !== socket || app.gone) return;
    $("status").textContent = t("disconnected");
    app.retry = Math.min(app.retry + 1, 5);
    setTimeout(connect, 500 * 2 ** app.retry);
  });
}

function showState(version, view) {
  app.view = view;
  app.version = version;
  app.deadline = view.seconds_left === null || view.seconds_left === undefined ? null : Date.now() + 1000 * view.seconds_left;
  document.body.dataset.version = String(version);
  document.body.dataset.status = view.status;
  showError("");
  renderTable();
}

function send(message) {
  if (!app.socket || app.socket.readyState !== WebSocket.OPEN) {
    showError(t("disconnected"));
    return;
  }
  app.socket.send(JSON.stringify({ ...message, version: app.version }));
}

function myTurnToken() {
  const game = app.view && app.view.game;
  if (!game || game.current === null || game.current === undefined) return null;
  const seat = app.view.seats[game.current];
  if (seat && seat.away) return null; // a bot plays this seat until its player takes it back
  return mySeats()[game.current] || null;
}

function act(action) {
  const token = myTurnToken();
  if (!token) return;
  app.hint = null;
  send({ type: "action", token, action });
}

function askHint() {
  const token = myTurnToken();
  if (token) send({ type: "hint", token });
}

function showTable(tableId) {
  if (app.tableId !== tableId) {
    app.view = null;
    app.rules = null;
    app.sheetPlayer = null;
    app.entry = { faces: [], edit: null };
  }
  app.tableId = tableId;
  app.gone = false;
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("table").replaceChildren();
  if (app.socket) {
    const old = app.socket;
    app.socket = null;
    old.close();
  }
  connect();
}

function boardWidth() {
  const main = $("main");
  // the card's own padding and border come off the width of the page's column
  return Math.min(main.clientWidth, 1120) - 40;
}

function renderTable() {
  const view = app.view;
  if (!view) return;
  const game = view.game;
  const mine = mySeats();
  const focusId = document.activeElement && document.activeElement.id;
  // the table is drawn afresh on every state: what the user was typing or choosing stays
  const typed = new Map([...$("table").querySelectorAll("input[id]:not([readonly]), select[id]")].map((input) => [input.id, input.value]));
  // and what they opened or closed stays so
  const folded = new Map([...$("table").querySelectorAll("details[id]")].map((box) => [box.id, box.open]));
  const rulesLoaded = app.rules && app.rules.key === `${view.variant}|${language()}`;
  if (game && app.sheetTurn !== game.turn) {
    app.sheetPlayer = null; // each turn shows the sheet of the player to move
    app.sheetTurn = game.turn;
  }
  const status = statusText(view, game, mine);
  $("status").textContent = status;
  document.body.dataset.myTurn = myTurnToken() ? "true" : "false";
  const parts = [el("h2", { id: "table-title", text: rulesLoaded ? app.rules.data.name : "" }), el("p", { id: "turn", class: "turn", text: status }), renderClock(view, game, mine)];
  if (view.status === "waiting") parts.push(renderInvite(), renderSeats(view, mine), renderJoin(view, mine));
  if (game && view.status === "playing") {
    parts.push(renderDice(view, game, mine), renderControls(view, game, mine));
    if (view.mode === "scorekeeper") parts.push(renderKeeper(keeperContext(view, game, mine)));
  }
  if (game) {
    parts.push(
      renderBoard(view, game, {
        act,
        myTurn: Boolean(myTurnToken()),
        rules: rulesLoaded && app.rules.data,
        name: displayName,
        rank,
        width: boardWidth(),
        sheetPlayer: app.sheetPlayer,
        showPlayer: (p) => {
          app.sheetPlayer = p;
          renderTable();
        },
      }),
    );
  }
  if (game && view.status !== "waiting" && view.status !== "playing") parts.push(renderResult(view, game, mine));
  if (view.status === "playing" && Object.keys(mine).length) parts.push(renderSeatTools(view, mine));
  parts.push(renderLog(view), renderRules(view), renderFair(view));
  $("table").replaceChildren(...parts.filter(Boolean));
  for (const [id, value] of typed) if ($(id)) $(id).value = value;
  for (const [id, open] of folded) if ($(id)) $(id).open = open;
  announceChanges(view, game, mine);
  if (focusId && $(focusId)) $(focusId).focus();
}

function statusText(view, game, mine) {
  if (!game) return t("waiting", { n: view.seats.filter((s) => !s.name || s.reserved).length });
  if (view.status === "abandoned") return t("abandoned");
  if (game.finished) {
    const winners = game.winners.map(displayName);
    return `${t("finished")} ${winners.length === 1 ? t("winners", { names: winners.join(", ") }) : t("draw")}`;
  }
  return myTurnToken() ? t("yourTurn") : t("turnOf", { name: displayName(game.player) });
}

function announceChanges(view, game, mine) {
  if (!game) return;
  const dice = game.turn_view.dice;
  const diceKey = `${game.turn}:${game.player}:${dice.join(",")}`;
  const turnKey = `${game.turn}:${game.current}:${game.finished}`;
  const parts = [];
  if (dice.length && diceKey !== app.announced.dice) parts.push(t("threw", { name: displayName(game.player), dice: diceText(dice) }));
  if (turnKey !== app.announced.turn) parts.push(statusText(view, game, mine));
  app.announced = { dice: diceKey, turn: turnKey };
  if (parts.length) announce(parts.join(". "));
}

// -- the clock of a table with a turn timer -------------------------------------------

function clockText() {
  const left = Math.max(0, Math.ceil((app.deadline - Date.now()) / 1000));
  return t("timeLeft", { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
}

function renderClock(view, game, mine) {
  const away = view.seats.filter((s) => s.away && !s.left);
  const lines = away.map((s) => el("p", { class: "notice", text: `${seatName(s)}: ${t("away")}` }));
  for (const s of view.seats.filter((s) => s.left)) lines.push(el("p", { class: "muted", text: `${seatName(s)}: ${s.resigned ? t("resigned") : t("left")}` }));
  const back = away.find((s) => mine[s.seat]);
  if (back) {
    lines.push(
      el("button", {
        type: "button",
        id: "take-back",
        class: "primary",
        text: t("takeBack"),
        onclick: () => post(tablePath("/back"), { token: mine[back.seat] }).catch((error) => showError(error.message)),
      }),
    );
  }
  if (app.deadline !== null && game && view.status === "playing") lines.unshift(el("p", { id: "clock", class: "clock", "aria-live": "off", text: clockText() }));
  return lines.length ? el("div", { class: "card clock-card", id: "clock-card" }, lines) : null;
}

setInterval(() => {
  const clock = $("clock");
  if (clock && app.deadline !== null) clock.textContent = clockText();
}, 500);

// -- waiting for players ----------------------------------------------------------------

function copyButton(id, input, link) {
  const button = el("button", {
    type: "button",
    id,
    text: t("copy"),
    onclick: async () => {
      input.select();
      try {
        if (navigator.share && matchMedia("(pointer: coarse)").matches) await navigator.share({ url: link });
        else await navigator.clipboard.writeText(link);
        button.textContent = t("copied");
      } catch {
        // the link stays selected for the player to copy by hand
      }
    },
  });
  return button;
}

function renderInvite() {
  const link = `${location.origin}/t/${app.tableId}`;
  const input = el("input", { id: "invite", readonly: true, value: link });
  return el("div", { class: "card invite" }, field(t("invite"), input), copyButton("copy", input, link));
}

function renderSeats(view, mine) {
  const list = el("ul", { class: "seats", "aria-label": t("seatsTitle") });
  // the levels that play this very table's variant (an unsolved full «Тысяча» has no optimal bot)
  const levels = view.bot_levels || (app.server && app.server.bot_levels && app.server.bot_levels[view.family]) || [];
  for (const seat of view.seats) {
    const item = el("li", {});
    if (seat.name && !seat.reserved) {
      item.append(el("span", { class: "name", text: seatName(seat) }));
      if (seat.bot) item.append(el("span", { class: "tag", text: `${t("bot")}: ${w(`level.${seat.bot}`)}` }));
      if (mine[seat.seat]) item.append(el("span", { class: "tag", text: t("you") }));
    } else if (seat.reserved) {
      item.append(el("span", { class: "name muted", text: seat.name }), el("span", { class: "tag", text: t("empty") }));
    } else {
      item.append(el("span", { class: "muted", text: `${seat.seat + 1}: ${t("empty")}` }));
      // only a seated player may seat a bot (the server asks for their token)
      if (view.mode === "online" && levels.length && anyToken()) {
        const level = el("select", { "aria-label": t("botLevel"), id: `bot-level-${seat.seat}` });
        for (const name of levels) level.append(el("option", { value: name, text: w(`level.${name}`) }));
        level.value = levels.includes("heuristic") ? "heuristic" : levels[0];
        const add = el("button", {
          type: "button",
          id: `add-bot-${seat.seat}`,
          text: t("addBot"),
          onclick: () => post(tablePath("/bots"), { token: anyToken(), seat: seat.seat, level: level.value }).catch((error) => showError(error.message)),
        });
        item.append(level, add);
      }
    }
    list.append(item);
  }
  return el("div", { class: "card" }, el("h3", { text: t("seatsTitle") }), list);
}

function renderJoin(view, mine) {
  const reserved = view.seats.find((s) => s.reserved && mine[s.seat]);
  if (reserved) {
    // a rematch keeps this browser's seat: sitting down again brings a fresh client seed
    return el(
      "div",
      { class: "card" },
      el("button", { type: "button", id: "rejoin", class: "primary", text: t("join"), onclick: () => join(app.tableId, reserved.name, mine[reserved.seat]).then(renderTable, (error) => showError(error.message)) }),
    );
  }
  if (!view.seats.some((s) => !s.name)) return null;
  const input = el("input", { id: "join-name", name: "name", maxlength: 24, required: true, autocomplete: "nickname", value: Object.keys(mine).length ? "" : localStorage.getItem("kosti.name") || "" });
  const form = el("form", { class: "card", id: "join" }, el("h3", { text: t("joinTitle") }), field(t("yourName"), input), el("button", { type: "submit", class: "primary", text: t("join") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const name = input.value.trim();
      if (!name) throw new Error(t("needName"));
      await join(app.tableId, name);
      // the new state may have arrived before the answer that says which seat is ours
      renderTable();
    } catch (error) {
      showError(error.message);
    }
  });
  return form;
}

// -- dice --------------------------------------------------------------------------------

/** The places among `dice` of `faces`, each face matched once (locked or scoring dice). */
function placesOf(dice, faces) {
  const left = [...faces];
  const result = new Set();
  dice.forEach((face, i) => {
    const k = left.indexOf(face);
    if (k >= 0) {
      left.splice(k, 1);
      result.add(i);
    }
  });
  return result;
}

function renderDice(view, game, mine) {
  const turn = game.turn_view;
  const dice = turn.dice;
  const locked = placesOf(dice, turn.locked);
  const scoring = placesOf(dice, turn.scoring);
  if (app.version !== app.selectionVersion) {
    // every new state starts a new choice; dice locked by the rules stay kept
    app.selected = new Set(locked);
    app.selectionVersion = app.version;
  }
  const myTurn = Boolean(myTurnToken());
  // a fresh throw tumbles (not when the page is only drawn again); CSS stills it for reduced motion
  const rollKey = `${game.turn}:${game.player}:${dice.join("")}:${app.version}`;
  const fresh = dice.length && app.rolled !== "" && rollKey !== app.rolled;
  if (fresh) rattle();
  if (dice.length) app.rolled = rollKey;
  else if (app.rolled === "") app.rolled = "-";
  const box = el("div", { class: "dice", role: "group", "aria-label": t("dice"), id: "dice" });
  dice.forEach((face, i) => {
    const held = app.selected.has(i);
    const isLocked = locked.has(i);
    const state = isLocked ? t("locked") : held ? t("held") : "";
    const scores = scoring.has(i) ? `, ${t("scoring")}` : "";
    box.append(
      el(
        "button",
        {
          type: "button",
          class: `die${held ? " held" : ""}${isLocked ? " locked" : ""}${scores ? " scoring" : ""}${fresh && !held ? " rolling" : ""}`,
          id: `die-${i}`,
          "aria-pressed": held ? "true" : "false",
          "aria-label": `${t("dieLabel", { i: i + 1, face: faceText(face) })}${state ? `, ${state}` : ""}${scores}`,
          "data-face": face,
          // the turn view says whether dice may be picked now (to hold, or to set aside)
          disabled: !myTurn || isLocked || !turn.pick,
          onclick: () => toggleDie(i),
        },
        dieFace(face, rank(face)),
        state ? el("span", { class: "die-state", "aria-hidden": "true", text: state }) : null,
      ),
    );
  });
  if (!dice.length) {
    // before the first throw of a turn the cup is full: the dice to come, face down
    const count = turn.to_throw || turn.throw.throws || 5;
    for (let i = 0; i < count; i++) box.append(el("span", { class: "ghost", "aria-hidden": "true" }));
  }
  const parts = [box];
  // a turn with a running total («Тысяча») shows the dice set aside, apart, with their points
  if (turn.turn_total !== null) parts.push(renderAside(turn));
  const extra = [];
  if (turn.throws_left !== null) extra.push(w("turn.throws_left", { n: turn.throws_left }));
  const advice = !myTurn ? null : turn.pick === "set_aside" ? t("toSetAside") : turn.pick === "hold" && dice.length ? t("toHold") : null;
  if (advice) extra.push(advice);
  if (extra.length) parts.push(el("p", { class: "muted", id: "turn-info", text: extra.join(" · ") }));
  return el("div", { class: "card table-top" }, parts);
}

/** The dice set aside this turn, apart, each group with the points it made, and the turn's total. */
function renderAside(turn) {
  return el(
    "div",
    { class: "aside", id: "aside", "aria-label": t("aside"), role: "group" },
    el("span", { class: "aside-title", text: t("aside") }),
    turn.aside.map((group) =>
      el(
        "span",
        { class: "group", "aria-label": `${diceText(group.dice)}: +${group.points}` },
        group.dice.map((f) => el("span", { class: "mini", "aria-hidden": "true" }, dieFace(f, rank(f)))),
        el("span", { class: "points", "aria-hidden": "true", text: `+${group.points}` }),
      ),
    ),
    el("strong", { class: "turn-total", id: "turn-total", text: t("turnTotal", { points: turn.turn_total }) }),
  );
}

function toggleDie(i) {
  const game = app.view && app.view.game;
  if (!game || !myTurnToken() || !game.turn_view.pick) return;
  const turn = game.turn_view;
  if (placesOf(turn.dice, turn.locked).has(i) || i >= turn.dice.length) return;
  if (app.selected.has(i)) app.selected.delete(i);
  else app.selected.add(i);
  renderTable();
}

function selectedFaces(game) {
  const dice = game.turn_view.dice;
  return [...app.selected].filter((i) => i < dice.length).map((i) => dice[i]).sort((a, b) => a - b);
}

/**
 * What a key of the turn view (its `throw` or `stop` plan) sends now, whether it is open, and
 * why not. The view plans the keys with no die picked: the dice picked here take the place of
 * the pick in its actions, and a hold of them is open when it is among the decisions open (a
 * hold is the throw's own decision: the rest are thrown). With the dice due, the server throws.
 */
function keyOf(turn, plan, picked) {
  const why = plan.refusal ? refusalText(plan.refusal.reason) : "";
  if (!plan.actions.length) return { message: "throw", open: !plan.refusal, why };
  const picks = turn.pick !== null && plan.actions.some((a) => kindOf(a) === turn.pick);
  const pick = picks ? { [turn.pick]: picked } : null;
  const actions = plan.actions.map((a) => (picks && kindOf(a) === turn.pick ? pick : a));
  const held = picks && turn.pick === "hold" && turn.open.some((d) => sameAction(d, pick));
  const open = !plan.refusal || held;
  return { message: actions.length === 1 ? actions[0] : actions, open, why: open ? "" : why };
}

function renderControls(view, game, mine) {
  const myTurn = Boolean(myTurnToken());
  if (!myTurn) return Object.keys(mine).length ? null : el("p", { class: "muted card", text: t("spectator") });
  const turn = game.turn_view;
  const picked = selectedFaces(game);
  const box = el("div", { class: "card controls", role: "group", "aria-label": t("moves") });
  const throwKey = keyOf(turn, turn.throw, picked);
  const stopKey = keyOf(turn, turn.stop, picked);
  const closed = [];
  if (view.mode === "online") {
    box.append(
      el("button", {
        type: "button",
        id: "throw",
        class: "primary",
        "aria-keyshortcuts": "T",
        disabled: !throwKey.open,
        title: throwKey.why || null,
        text: picked.length && turn.pick === "hold" && turn.dice.length ? t("throwRest") : t("throw"),
        onclick: () => act(throwKey.message),
      }),
    );
    if (!throwKey.open && throwKey.why) closed.push(`${t("throw")}: ${throwKey.why}`);
  }
  if (turn.pick === "set_aside") {
    box.append(el("button", { type: "button", id: "set-aside", "aria-keyshortcuts": "A", disabled: !picked.length, text: t("setAside"), onclick: () => act({ set_aside: picked }) }));
  }
  // a turn with a total is banked («хватит»), any other ends standing on the dice
  const stopText = turn.turn_total === null ? t("stand") : t("stop");
  if (stopKey.open) {
    box.append(el("button", { type: "button", id: "stop", "aria-keyshortcuts": "S", text: stopText, onclick: () => act(stopKey.message) }));
  } else if (turn.turn_total !== null && !turn.to_throw && stopKey.why && stopKey.why !== throwKey.why) {
    closed.push(`${stopText}: ${stopKey.why}`);
  }
  if (view.hints && turn.open.length) box.append(el("button", { type: "button", id: "hint", "aria-keyshortcuts": "H", text: t("hint"), onclick: askHint }));
  // the keys above play these; a cell the board offers is recorded there
  const keys = new Set(["throw", "hold", "set_aside", "stop"]);
  const others = turn.open.filter((d) => !keys.has(kindOf(d)) && !(kindOf(d) === "score" && d.score in (game.gains || {})));
  if (others.length) {
    const list = el("div", { class: "others", role: "group", "aria-label": t("other") });
    for (const action of others) {
      const id = `act-${JSON.stringify(action).replace(/[^a-z0-9_]+/gi, "-")}`;
      list.append(el("button", { type: "button", id, text: actionText(action), onclick: () => act(action) }));
    }
    // scratches and announcements are many on a sheet: folded away until wanted
    box.append(el("details", { class: "other-moves", id: "other-moves", open: others.length <= 3 }, el("summary", { text: t("other") }), list));
  }
  if (closed.length) box.append(el("p", { class: "muted", id: "closed-keys", text: closed.join(" · ") }));
  box.append(renderHint() || "", el("p", { class: "muted keys", text: t("keys") }));
  return box;
}

function renderHint() {
  if (!app.hint || app.hint.version !== app.version) return null;
  return el("div", { class: "hint", id: "hint-text", "aria-live": "polite" }, el("h3", { text: t("hintTitle") }), el("p", { text: app.hint.text }));
}

function keeperContext(view, game, mine) {
  return {
    view,
    game,
    turn: game.turn_view,
    entry: app.entry,
    myTurn: Boolean(myTurnToken()),
    token: myTurnToken() || anyToken(),
    held: selectedFaces(game),
    act,
    send,
    rerender: renderTable,
    diceText,
    rank,
    displayName,
  };
}

// -- the end, and what comes after -------------------------------------------------------

function renderResult(view, game, mine) {
  const order = game.players.map((name, i) => ({ name, score: game.scores[i] })).sort((a, b) => b.score - a.score);
  const rows = order.map((p) => el("li", {}, el("span", { class: "name", text: displayName(p.name) }), el("strong", { text: String(p.score) })));
  const winners = game.winners.map(displayName);
  const token = anyToken();
  const actions = [];
  if (view.rematch) {
    actions.push(el("button", { type: "button", id: "to-rematch", class: "primary", text: t("toRematch"), onclick: () => goRematch(view.rematch) }));
  } else if (token) {
    actions.push(
      el("button", {
        type: "button",
        id: "rematch",
        class: "primary",
        text: t("rematch"),
        onclick: () =>
          post(tablePath("/rematch"), { token })
            .then((answer) => goRematch(answer.id))
            .catch((error) => showError(error.message)),
      }),
    );
  }
  actions.push(el("a", { href: "/", id: "to-lobby", class: "button", text: t("toLobby") }));
  return el(
    "div",
    { class: "card result", id: "result" },
    el("h3", { text: view.status === "abandoned" ? t("abandoned") : t("finished") }),
    view.status === "abandoned" ? null : el("p", { class: "winner", text: winners.length === 1 ? t("winners", { names: winners.join(", ") }) : t("draw") }),
    el("ol", { class: "standings" }, rows),
    el("div", { class: "controls" }, actions),
    el("a", { href: tablePath("/record"), download: "record.json", id: "download", text: t("download") }),
  );
}

function goRematch(newId) {
  // the rematch keeps the seats: this browser's tokens sit it down at the new table
  const seats = mySeats();
  for (const [seat, token] of Object.entries(seats)) keepSeat(newId, seat, token);
  history.pushState({}, "", `/t/${newId}`);
  route();
}

function renderSeatTools(view, mine) {
  const [seat, token] = Object.entries(mine)[0];
  const link = `${location.origin}/t/${app.tableId}#seat=${seat}.${token}`;
  const input = el("input", { id: "seat-link", readonly: true, value: link });
  const confirmThen = (question, resign) => () => {
    if (!confirm(question)) return;
    post(tablePath("/leave"), { token, resign })
      .then(() => {
        if (!resign) {
          localStorage.removeItem(seatsKey(app.tableId));
          history.pushState({}, "", "/");
          route();
        }
      })
      .catch((error) => showError(error.message));
  };
  return el(
    "details",
    { class: "card seat-tools", id: "seat-tools" },
    el("summary", { text: t("seatLink") }),
    el("p", { class: "muted", text: t("seatLinkHelp") }),
    el("div", { class: "invite" }, input, copyButton("copy-seat", input, link)),
    el(
      "div",
      { class: "controls" },
      el("button", { type: "button", id: "resign", text: t("resign"), onclick: confirmThen(t("resignConfirm"), true) }),
      el("button", { type: "button", id: "leave", text: t("leave"), onclick: confirmThen(t("leaveConfirm"), false) }),
    ),
  );
}

function renderFair(view) {
  if (!view.fair) return null;
  const fair = view.fair;
  return el(
    "details",
    { class: "card fair", id: "fair" },
    el("summary", { text: t("fair") }),
    el(
      "dl",
      {},
      el("dt", { text: t("commitment") }),
      el("dd", { class: "mono", id: "commitment", text: fair.server_seed_sha256 }),
      el("dt", { text: t("clientSeed") }),
      el("dd", { class: "mono", text: fair.client_seed || "—" }),
      el("dt", { text: t("serverSeed") }),
      el("dd", { class: "mono", id: "server-seed", text: fair.server_seed || t("notRevealed") }),
    ),
    el("p", { class: "muted", text: t("verifyHelp") }),
    el("a", { href: tablePath("/record"), download: "record.json", text: t("download") }),
  );
}

/** The lines of a log entry: a move's come worded from the server; the table's own events are the page's. */
function logLines(view, entry) {
  const seat = view.seats[entry.seat];
  const name = seat && seat.shown ? seat.shown : entry.name;
  switch (entry.kind) {
    case "action":
      return entry.lines || [];
    case "join":
      return [t("joined", { name })];
    case "bot":
      return [t("botJoined", { name })];
    case "reserve":
      return [t("reserved", { name })];
    case "start": {
      const names = entry.players.map(displayName);
      const lines = [t("started", { names: names.join(", ") })];
      if (entry.rolloff && entry.rolloff.length) {
        const throws = entry.rolloff.map((r) => `${displayName(r.player)} ${diceText(r.roll)}`).join("; ");
        lines.push(t("rolloff", { throws, name: names[0] }));
      }
      return lines;
    }
    case "timeout":
      return [t("timedOut", { name })];
    case "back":
      return [t("cameBack", { name })];
    case "leave":
      return [entry.resign ? t("resignedLine", { name }) : t("leftLine", { name })];
    case "abandon":
      return [t("abandoned")];
    case "rematch":
      return [t("rematchOffered")];
    case "undo":
      return [t("undone")];
    case "edit":
      return [t("edited", { n: entry.throw, dice: diceText(entry.faces) })];
    default:
      return [];
  }
}

function renderLog(view) {
  const list = el("ol", { class: "log", id: "log-lines" });
  for (const entry of [...view.log].reverse()) {
    for (const line of [...logLines(view, entry)].reverse()) list.append(el("li", { text: line }));
  }
  return el("details", { class: "card", id: "log", open: true }, el("summary", { text: t("log") }), list);
}

/** An option's value in words: the catalog's for its choices, cell names, ranges, yes and no. */
function optionText(name, value) {
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (value === null || value === undefined) return t("off");
  if (typeof value === "string") return word(`value.${name}.${value}`) ?? value;
  if (Array.isArray(value)) {
    if (value.every((v) => Array.isArray(v))) return value.map(([a, b]) => `${a}–${b}`).join(", ") || t("off");
    return value.map((v) => (typeof v === "string" ? cellName(v) : String(v))).join(", ");
  }
  return String(value);
}

function renderRules(view) {
  const box = el("details", { class: "card", id: "rules" }, el("summary", { text: t("rules") }));
  const key = `${view.variant}|${language()}`;
  if (app.rules && app.rules.key === key) {
    const rules = app.rules.data;
    const changed = new Set(Object.keys(view.options || {}));
    const list = el("dl", { class: "options" });
    for (const [name, option] of Object.entries(rules.options)) {
      list.append(
        el("dt", { class: changed.has(name) ? "changed" : null }, w(`option.${name}`), changed.has(name) ? el("span", { class: "tag", text: t("changed") }) : null),
        el("dd", { id: `option-${name}`, text: optionText(name, option.value) }),
      );
    }
    const prose = word(`rules.${rules.family}`);
    box.append(el("p", { text: `${rules.name}: ${rules.summary}` }), el("h4", { text: w("rules.options_title") }), list, ...(prose ? markdown(prose) : []));
  } else if (!app.rulesLoading) {
    app.rulesLoading = true;
    api(`/api/rules/${encodeURIComponent(view.variant)}?lang=${language()}`)
      .then((data) => {
        app.rules = { key, data };
        renderTable();
      })
      .catch((error) => showError(error.message))
      .finally(() => {
        app.rulesLoading = false;
      });
  }
  return box;
}

// -- keys, language, routing ----------------------------------------------------

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
  const game = app.view && app.view.game;
  if (!game || !myTurnToken()) return;
  const key = event.key.toLowerCase();
  const click = (id) => {
    const button = $(id);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  };
  if (/^[1-5]$/.test(key)) {
    event.preventDefault();
    toggleDie(Number(key) - 1);
  } else if (key === "t") click("throw");
  else if (key === "s") click("stop");
  else if (key === "a") click("set-aside");
  else if (key === "h") click("hint");
});

function renderChrome() {
  const button = $("lang");
  button.textContent = t("language");
  button.setAttribute("aria-label", t("languageLabel"));
  document.title = t("title");
  $("skip").textContent = t("skip");
  renderSoundButton();
}

$("lang").addEventListener("click", async () => {
  await loadWords(setLanguage(language() === "ru" ? "en" : "ru"));
  renderChrome();
  if (app.tableId) showTable(app.tableId); // the server words the log in the new language
  else showLobby().catch((error) => showError(error.message));
});

$("sound").addEventListener("click", () => {
  localStorage.setItem("kosti.sound", soundOn() ? "off" : "on");
  renderSoundButton();
  rattle();
});

window.addEventListener("popstate", route);
let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => app.tableId && renderTable(), 150);
});

/** A seat link (/t/ID#seat=N.TOKEN) hands this browser the seat; the token never reaches a server log. */
function takeSeatFromLink(tableId) {
  const match = location.hash.match(/^#seat=(\d+)\.([A-Za-z0-9_-]{1,64})$/);
  if (!match) return;
  keepSeat(tableId, match[1], match[2]);
  history.replaceState({}, "", `/t/${tableId}`);
  app.notice = t("seatTaken");
}

async function route() {
  $("loading").hidden = true;
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,32})$/);
  if (match) {
    takeSeatFromLink(match[1]);
    showTable(match[1]);
    if (app.notice) {
      announce(app.notice);
      app.notice = "";
    }
  } else await showLobby();
}

renderChrome();
Promise.all([
  loadWords(initLanguage()),
  api("/api/server")
    .then((info) => {
      app.server = info;
    })
    .catch(() => {}),
]).finally(() => {
  renderChrome();
  route().catch((error) => showError(error.message));
});
