// The kosti page: the lobby (open tables, a new table) and a table (seats, dice, board, log, rules).
// The server is authoritative: this page only shows the state it is sent and sends actions
// with the version it saw. The turn is drawn from the server's turn view (game.turn_view:
// kosti.games.turn_view), never worked out here. Every name from other people goes through textContent.

import { alertTurn, audioContext, canVibrate, setVibration, soundOn, vibrationOn } from "./alerts.js";
import { optionValue, renderBoard } from "./board.js";
import { dieFace, el, markdown, markdownInline, svg } from "./dom.js";
import { canCheck, checkGame, seedFingerprint } from "./fair.js";
import { cellName, duration, initLanguage, language, loadWords, setLanguage, t, w, word } from "./i18n.js";
import { levelName, renderHome } from "./home.js";
import { renderKeeper } from "./keeper.js";
// the transport: a server's tables over the network, this device's in a worker (local/transport.js)
import { onThisDevice, openSocket, request } from "./local/transport.js";

const $ = (id) => document.getElementById(id);

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
  hintAsked: null, // the version a hint was asked at, until it comes
  landing: null, // a throw that ended the turn, shown a moment before the next player's cup
  autoJoined: "", // the rematch table this page sat down at again by itself
  announced: { dice: "", turn: "" },
  sheetPlayer: null,
  rolled: "",
  deadline: null,
  entry: { faces: [], edit: null },
  notice: "",
  emotes: [], // the quick phrases heard at this table lately: {seat, key, version, at}
  checked: null, // the dice check asked for here, {seed, box}: kept when the page is drawn again
};

// -- helpers ------------------------------------------------------------------

function showError(message) {
  const box = $("alert");
  box.textContent = message;
  box.hidden = !message;
  if (message && app.hintAsked !== null) {
    app.hintAsked = null; // the hint was refused (or the socket lost): the button stops thinking
    if (app.view) renderTable();
  }
}

async function api(path, options = {}) {
  const response = await request(path, {
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

// -- sound: a short rattle made on the spot, off unless the player turns it on -------------

function rattle() {
  if (!soundOn()) return;
  try {
    const audio = audioContext();
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
  alertTurn(false);
  const [presets, open] = await Promise.all([
    api(`/api/presets?lang=${language()}`),
    api(`/api/tables?lang=${language()}`).catch(() => ({ tables: [] })),
  ]);
  renderHome($("lobby"), {
    presets,
    open,
    server: app.server || null,
    api,
    post,
    randomSeed,
    showError,
    // made and seated in one request: nobody can take the creator's seat in between
    seat: (table) => keepSeat(table.id, table.seat, table.token),
    go: (url) => {
      history.pushState({}, "", url);
      route();
    },
  });
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
  const socket = openSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(app.tableId)}?lang=${language()}&changes=1`);
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
    } else if (message.type === "emote") {
      heardEmote(message);
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

const LANDING = 2800; // ms a throw that ended the turn stays on the table before the next player's cup

/** The moves, worded by the server, whose throw ended the turn with nothing made (a bust, a dot). */
function endedByThrow(entry) {
  if (!entry || entry.kind !== "action" || !entry.actions || !entry.actions.length) return null;
  const last = entry.actions[entry.actions.length - 1];
  if (typeof last !== "object" || !Array.isArray(last.roll)) return null;
  const end = (entry.events || []).find((e) => e.kind === "bust" || e.kind === "dot");
  return end ? { entry, end, dice: last.roll } : null;
}

function showState(version, view) {
  // a throw that lost the turn arrived: its dice land and stay a moment, with what it cost,
  // before the next player's cup (the bots and the others move on meanwhile)
  if (app.view && app.view.id === view.id && version > app.version) {
    const arrived = (view.log || []).filter((entry) => entry.version > app.version);
    const ended = arrived.map(endedByThrow).filter(Boolean).pop();
    if (ended) {
      const before = app.view.game && app.view.game.turn_view;
      // the dice set aside before the bust, lost with it («Тысяча»)
      const aside = before && app.view.game.player === ended.end.player ? before.aside : [];
      app.landing = { ...ended, aside, until: Date.now() + LANDING };
      setTimeout(() => app.landing && Date.now() >= app.landing.until && renderTable(), LANDING + 50);
    }
  }
  app.view = view;
  app.version = version;
  app.deadline = view.seconds_left === null || view.seconds_left === undefined ? null : Date.now() + 1000 * view.seconds_left;
  document.body.dataset.version = String(version);
  document.body.dataset.status = view.status;
  if (app.hintAsked !== null && app.hintAsked !== version) app.hintAsked = null; // the decision has passed
  showError("");
  if (app.hintAsked === version && app.hintSocket !== app.socket && myTurnToken()) {
    // asked on a socket since lost: ask again on this one (the answer may have gone nowhere)
    app.hintSocket = app.socket;
    send({ type: "hint", token: myTurnToken() });
  }
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
  app.landing = null; // the player has seen the last throw: on with the game
  send({ type: "action", token, action });
}

function askHint() {
  const token = myTurnToken();
  if (!token) return;
  // the button thinks until the answer comes; it comes to this page's socket, a new one too
  app.hintAsked = app.version;
  app.hintSocket = app.socket;
  send({ type: "hint", token });
  renderTable();
}

function showTable(tableId) {
  if (app.tableId !== tableId) {
    app.view = null;
    app.rules = null;
    app.sheetPlayer = null;
    app.entry = { faces: [], edit: null };
    app.emotes = [];
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
  const myTurn = Boolean(myTurnToken()) && view.status === "playing";
  document.body.dataset.myTurn = myTurnToken() ? "true" : "false";
  alertTurn(myTurn);
  const parts = [
    el("h2", { id: "table-title", text: rulesLoaded ? app.rules.data.name : "" }),
    el("p", { id: "turn", class: `turn${myTurn ? " mine" : ""}`, text: status }),
    renderClock(view, game, mine),
  ];
  if (view.status === "waiting") parts.push(renderInvite(view, mine), renderSeats(view, mine), renderJoin(view, mine));
  if (game && view.status === "playing") {
    parts.push(renderDice(view, game, mine), renderControls(view, game, mine));
    // the pad is for those who keep the score: a watcher has nothing to type in or take back
    if (view.mode === "scorekeeper" && Object.keys(mine).length) parts.push(renderKeeper(keeperContext(view, game, mine)));
  }
  // at the end the result comes first: who won, the rematch, a win celebrated
  if (game && view.status !== "waiting" && view.status !== "playing") parts.push(renderResult(view, game, mine));
  parts.push(renderEmotes(view, mine));
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
        bubble: emoteBubble,
        showPlayer: (p) => {
          app.sheetPlayer = p;
          renderTable();
        },
      }),
    );
  }
  if (view.status === "playing" && Object.keys(mine).length) parts.push(renderAlerts(), renderSeatTools(view, mine));
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
  // with two seats on one phone (a scorekeeper's table) «your turn» says nothing: say whose
  if (myTurnToken() && Object.keys(mine).length > 1) return t("turnOf", { name: displayName(game.player) });
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

function secondsLeft() {
  return Math.max(0, Math.ceil((app.deadline - Date.now()) / 1000));
}

function clockText() {
  const left = secondsLeft();
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** The share of the turn's time left, 0..1. */
function clockShare() {
  const total = (app.view && app.view.timer) || 1;
  return Math.max(0, Math.min(1, (app.deadline - Date.now()) / 1000 / total));
}

/** The turn's time as a bar that empties (red in its last fifth), with the time left in words beside it. */
function renderTimer() {
  const share = clockShare();
  return el(
    "div",
    { class: "timer", id: "clock", role: "timer", "aria-label": t("timeLeft", { time: clockText() }) },
    el("div", { class: "timer-track", "aria-hidden": "true" }, el("div", { class: `timer-bar${share < 0.2 ? " low" : ""}`, id: "clock-bar", style: { width: `${(100 * share).toFixed(1)}%` } })),
    el("span", { class: "timer-text", id: "clock-text", "aria-hidden": "true", text: clockText() }),
  );
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
  if (app.deadline !== null && game && view.status === "playing") lines.unshift(renderTimer());
  return lines.length ? el("div", { class: "card clock-card", id: "clock-card" }, lines) : null;
}

setInterval(() => {
  const clock = $("clock");
  if (!clock || app.deadline === null) return;
  const share = clockShare();
  $("clock-bar").style.width = `${(100 * share).toFixed(1)}%`;
  $("clock-bar").classList.toggle("low", share < 0.2);
  $("clock-text").textContent = clockText();
  clock.setAttribute("aria-label", t("timeLeft", { time: clockText() }));
}, 250);

/** Opt-in alerts of one's turn: a chime (the page's sound) and, on a phone, a buzz. */
function renderAlerts() {
  const sound = el("input", { type: "checkbox", id: "alert-sound", checked: soundOn() });
  sound.addEventListener("change", () => {
    localStorage.setItem("kosti.sound", sound.checked ? "on" : "off");
    renderSoundButton();
  });
  const buzz = el("input", { type: "checkbox", id: "alert-vibrate", checked: vibrationOn() });
  buzz.addEventListener("change", () => {
    setVibration(buzz.checked);
    if (buzz.checked && canVibrate()) navigator.vibrate(80);
  });
  return el(
    "details",
    { class: "card alerts", id: "alerts" },
    el("summary", { text: t("alertsTitle") }),
    el("p", { class: "muted", text: t("alertsHelp") }),
    el("label", { class: "check" }, sound, t("alertSound")),
    canVibrate() ? el("label", { class: "check" }, buzz, t("alertVibrate")) : null,
  );
}

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

function renderInvite(view, mine) {
  // at a scorekeeper's table everyone plays on this one phone, and a table of this device is
  // nowhere else (its players sit down at this screen, renderJoin): nobody is sent a link
  if (view.mode !== "online" || onThisDevice(app.tableId)) return null;
  const link = `${location.origin}/t/${app.tableId}`;
  const input = el("input", { id: "invite", readonly: true, value: link, "aria-labelledby": "invite-title" });
  return el(
    "div",
    { class: "card invite-card" },
    el("h3", { id: "invite-title", text: t("inviteTitle") }),
    el("p", { class: "muted", text: Object.keys(mine).length ? t("inviteHelp") : t("invite") }),
    el("div", { class: "invite" }, input, copyButton("copy", input, link)),
  );
}

function renderSeats(view, mine) {
  const list = el("ul", { class: "seats", "aria-label": t("seatsTitle") });
  // the levels that play this very table's variant (an unsolved full «Тысяча» has no optimal bot)
  const levels = view.bot_levels || (app.server && app.server.bot_levels && app.server.bot_levels[view.family]) || [];
  for (const seat of view.seats) {
    const item = el("li", {});
    if (seat.name && !seat.reserved) {
      item.append(el("span", { class: "name", text: seatName(seat) }));
      const bubble = emoteBubble(seat.name);
      if (bubble) item.append(bubble);
      if (seat.bot) item.append(el("span", { class: "tag", text: `${t("bot")}: ${w(`level.${seat.bot}`)}` }));
      if (mine[seat.seat]) item.append(el("span", { class: "tag", text: t("you") }));
    } else if (seat.reserved) {
      // a rematch keeps this seat for its player, who has not sat down again yet
      item.append(el("span", { class: "name", text: seat.name }), el("span", { class: "tag", text: t("keptFor") }));
    } else {
      item.append(el("span", { class: "muted", text: `${seat.seat + 1}: ${t("empty")}` }));
      // only a seated player may seat a bot (the server asks for their token)
      if (view.mode === "online" && levels.length && anyToken()) {
        const level = el("select", { "aria-label": t("botLevel"), id: `bot-level-${seat.seat}` });
        for (const name of levels) level.append(el("option", { value: name, text: levelName(name) }));
        level.value = levels.includes("heuristic") ? "heuristic" : levels[0];
        const add = el("button", {
          type: "button",
          id: `add-bot-${seat.seat}`,
          text: t("addBot"),
          onclick: () => post(tablePath("/bots"), { token: anyToken(), seat: seat.seat, level: level.value }).catch((error) => showError(error.message)),
        });
        item.append(el("span", { class: "add-bot" }, level, add));
      }
    }
    list.append(item);
  }
  return el("div", { class: "card" }, el("h3", { text: t("seatsTitle") }), list);
}

function renderJoin(view, mine) {
  const reserved = view.seats.find((s) => s.reserved && mine[s.seat]);
  if (reserved) {
    const sit = () => join(app.tableId, reserved.name, mine[reserved.seat]).then(renderTable, (error) => showError(error.message));
    // a rematch keeps this browser's seat: the page that went to the rematch sits down by itself
    // (a fresh client seed comes with it); one that only came back shows the button
    if (app.autoJoin === app.tableId && app.autoJoined !== app.tableId) {
      app.autoJoined = app.tableId;
      const kept = view.seats.filter((s) => s.reserved && mine[s.seat]);
      kept
        .reduce((done, s) => done.then(() => join(app.tableId, s.name, mine[s.seat])), Promise.resolve())
        .then(renderTable, (error) => showError(error.message));
      return el("p", { class: "card muted", id: "rejoining", text: t("rejoining") });
    }
    return el("div", { class: "card" }, el("button", { type: "button", id: "rejoin", class: "primary", text: t("join"), onclick: sit }));
  }
  if (!view.seats.some((s) => !s.name)) return null;
  const seated = Object.keys(mine).length > 0;
  // a player already seated at an online table waits for others; at a scorekeeper's table the
  // others sit down on this same phone
  if (seated && view.mode === "online" && !onThisDevice(app.tableId)) return null; // a table of this device: hot-seat
  const input = el("input", { id: "join-name", name: "name", maxlength: 24, required: true, autocomplete: seated ? "off" : "nickname", value: seated ? "" : localStorage.getItem("kosti.name") || "" });
  const title = seated ? t("addPlayer") : t("joinTitle");
  const form = el("form", { class: "card", id: "join" }, el("h3", { text: title }), field(seated ? t("playerName") : t("yourName"), input), el("button", { type: "submit", class: "primary", text: seated ? t("addPlayerButton") : t("join") }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const name = input.value.trim();
      if (!name) throw new Error(t("needName"));
      if (seated) await addPlayerHere(name);
      else await join(app.tableId, name);
      // the new state may have arrived before the answer that says which seat is ours
      renderTable();
    } catch (error) {
      showError(error.message);
    }
  });
  return form;
}

/** Seat another player at this phone (a scorekeeper's table): their seat kept here too, the name
 * this page's player typed at home left as it was. */
async function addPlayerHere(name) {
  const answer = await post(`/api/tables/${encodeURIComponent(app.tableId)}/join`, { name, client_seed: randomSeed() });
  keepSeat(app.tableId, answer.seat, answer.token);
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

/** The throw that ended the last turn with nothing (a bust, a dot): while it has just landed
 * (for LANDING ms, whatever came after it), else until the next player's first throw. */
function landedThrow(view, game) {
  if (app.landing && app.landing.entry && Date.now() < app.landing.until && app.view.id === view.id) return { ...app.landing, fresh: true };
  if (game.turn_view.dice.length || game.turn_view.aside.length) return null;
  const last = [...(view.log || [])].reverse().find((entry) => entry.kind === "action");
  return endedByThrow(last);
}

/** The dice of a throw that lost the turn, as they landed, with what it cost in the server's words. */
function renderLanded(landed) {
  const name = displayName(landed.end.player);
  // the server's lines of the move: its throws (a hot-dice throw may come before the last) and why
  // scores changed
  const lines = landed.entry.lines || [];
  const headline = landed.end.kind === "dot" ? t("dotTitle", { name }) : landed.end.total ? t("bustLost", { name, points: landed.end.total }) : t("bustTitle", { name });
  return el(
    "div",
    { class: `landed${landed.fresh ? " fresh" : ""}`, id: "landed", role: "status" },
    el("p", { class: "landed-title", id: "landed-title", text: headline }),
    el(
      "div",
      { class: "dice landed-dice", "aria-label": t("threw", { name, dice: diceText(landed.dice) }) },
      landed.dice.map((face) => el("span", { class: `die lost${landed.fresh ? " rolling" : ""}`, "data-face": face, "aria-hidden": "true" }, dieFace(face, rank(face)))),
    ),
    (landed.aside || []).length
      ? el("div", { class: "aside lost", "aria-label": t("asideLost") }, el("span", { class: "aside-title", text: t("asideLost") }), landed.aside.map((g) => el("span", { class: "group" }, g.dice.map((f) => el("span", { class: "mini", "aria-hidden": "true" }, dieFace(f, rank(f)))), el("s", { class: "points", text: `+${g.points}` }))))
      : null,
    lines.length ? el("ul", { class: "landed-lines", id: "landed-lines" }, lines.map((line) => el("li", { text: line }))) : null,
  );
}

function renderDice(view, game, mine) {
  const turn = game.turn_view;
  const landed = landedThrow(view, game);
  const dice = turn.dice;
  const locked = placesOf(dice, turn.locked);
  const scoring = placesOf(dice, turn.scoring);
  if (app.version !== app.selectionVersion) {
    // every new state starts a new choice; dice locked by the rules stay kept
    app.selected = new Set(locked);
    app.selectionVersion = app.version;
  }
  const myTurn = Boolean(myTurnToken());
  // a throw that lost the turn has just landed: the next player's dice wait until it has been seen
  // (a player whose turn it is now may throw at once: that ends the wait)
  if (landed && landed.fresh && !myTurn) {
    return el("div", { class: "card table-top", id: "table-top" }, renderLanded(landed));
  }
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
  if (!dice.length && !landed) {
    // before the first throw of a turn the cup is full: the dice to come, face down
    const count = turn.to_throw || turn.throw.throws || 5;
    for (let i = 0; i < count; i++) box.append(el("span", { class: "ghost", "aria-hidden": "true" }));
  }
  const parts = landed ? [renderLanded(landed), box] : [box];
  // a turn with a running total («Тысяча») shows the dice set aside, apart, with their points
  if (turn.turn_total !== null && (turn.aside.length || !landed)) parts.push(renderAside(turn));
  // the throws left, counted on the table itself (score sheets, showdown)
  if (turn.throws_left !== null) parts.push(renderThrowsLeft(turn));
  const advice = !myTurn ? null : turn.pick === "set_aside" ? t("toSetAside") : turn.pick === "hold" && dice.length ? t("toHold") : null;
  if (advice) parts.push(el("p", { class: "muted", id: "turn-info", text: advice }));
  return el("div", { class: "card table-top", id: "table-top" }, parts);
}

/** «Осталось 2 броска» with a pip for each throw left, the banked ones («ограды») apart. */
function renderThrowsLeft(turn) {
  const n = turn.throws_left;
  return el(
    "p",
    { class: "throws-left", id: "throws-left" },
    el("span", { class: "pips", "aria-hidden": "true" }, Array.from({ length: Math.min(n, 8) }, () => el("span", { class: "pip-left" }))),
    el("span", { text: w("turn.throws_left", { n }) }),
  );
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
  // «хватит» refused (below the opening, inside a pit…) stays in sight, greyed, with the
  // server's reason right under it: the player learns the rule where it bites
  const stopShut = turn.turn_total !== null && !turn.to_throw && !stopKey.open && stopKey.why;
  if (stopKey.open || stopShut) {
    box.append(
      el("button", {
        type: "button",
        id: "stop",
        "aria-keyshortcuts": "S",
        disabled: !stopKey.open,
        "aria-describedby": stopShut ? "stop-why" : null,
        text: stopText,
        onclick: () => act(stopKey.message),
      }),
    );
  }
  const thinking = app.hintAsked === app.version && !(app.hint && app.hint.version === app.version);
  if (view.hints && turn.open.length) {
    box.append(
      el("button", {
        type: "button",
        id: "hint",
        "aria-keyshortcuts": "H",
        "aria-busy": thinking ? "true" : null,
        class: thinking ? "thinking" : null,
        disabled: thinking,
        text: thinking ? w("hint.thinking") : t("hint"),
        onclick: askHint,
      }),
    );
  }
  if (stopShut) box.append(el("p", { class: "why", id: "stop-why", text: t("stopWhy", { key: stopText, why: stopKey.why }) }));
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
  const hint = renderHint();
  if (hint) box.append(hint);
  // nothing to press here (a scorekeeper's pad below does the throwing): no empty card
  if (!box.childElementCount) return null;
  box.append(el("p", { class: "muted keys", text: t("keys") }));
  return box;
}

function renderHint() {
  if (!app.hint || app.hint.version !== app.version) return null;
  // the advice, and in plain words what its number is and whether it is exact (the server's)
  return el(
    "div",
    { class: "hint", id: "hint-text", "aria-live": "polite" },
    el("h3", { text: t("hintTitle") }),
    el("p", { text: app.hint.text }),
    app.hint.note ? el("p", { class: "muted hint-note", id: "hint-note", text: app.hint.note }) : null,
  );
}

// -- quick phrases: a fixed set, said by key (the server's kosti.server.emotes.EMOTES), worded here ----

const EMOTES = ["good_luck", "nice_throw", "so_close", "oh_no", "wow", "thinking", "thanks", "good_game"];
const EMOTE_SHOWN = 4000; // ms a phrase stays by its sayer's name
const EMOTES_KEPT = 12; // the phrases kept for the log (the server keeps none: a reload starts afresh)

/** The token this page says phrases with: that of a seat of its own, still played, at an online
 * table of a server; null for a watcher, and where everyone is at one screen (a scorekeeper's
 * table, a table of this device). */
function emoteToken(view, mine) {
  if (view.mode !== "online" || onThisDevice(app.tableId)) return null;
  const seat = Object.keys(mine).find((s) => view.seats[s] && view.seats[s].name && !view.seats[s].left && !view.seats[s].reserved);
  return seat === undefined ? null : mine[seat];
}

function sayEmote(key) {
  const token = emoteToken(app.view, mySeats());
  if (!token) return;
  if (!app.socket || app.socket.readyState !== WebSocket.OPEN) {
    showError(t("disconnected"));
    return;
  }
  // no version: a phrase is not a move, and is said whatever the table did meanwhile
  app.socket.send(JSON.stringify({ type: "emote", token, emote: key }));
}

/** A phrase said at the table (to every socket, the sayer's too): a bubble by the sayer's name for
 * EMOTE_SHOWN ms, a line in the log, and read out. */
function heardEmote(message) {
  const seat = app.view && app.view.seats[message.seat];
  // a phrase this page has no words for (a newer server's) is passed over
  if (!seat || !seat.name || !EMOTES.includes(message.emote)) return;
  const heard = { seat: message.seat, key: message.emote, version: message.version, at: Date.now() };
  app.emotes = [...app.emotes, heard].slice(-EMOTES_KEPT);
  announce(emoteLine(heard));
  renderTable();
  // the bubble goes by itself: the table is not drawn again for that
  setTimeout(() => document.querySelectorAll(`.emote-bubble[data-at="${heard.at}"]`).forEach((bubble) => bubble.remove()), EMOTE_SHOWN);
}

function emoteLine(heard) {
  const seat = app.view.seats[heard.seat];
  return t("emoteLine", { name: seat ? seatName(seat) : String(heard.seat + 1), text: t(`emote.${heard.key}`) });
}

/** The bubble of the phrase the player stored as `stored` said last, while it is fresh, else null;
 * `where` names its place (board.js: "float below start" …). */
function emoteBubble(stored, where = "") {
  const now = Date.now();
  const heard = [...app.emotes].reverse().find((e) => now - e.at < EMOTE_SHOWN && app.view.seats[e.seat] && app.view.seats[e.seat].name === stored);
  if (!heard) return null;
  // one animation over the bubble's life, taken up where it was when the table is drawn again;
  // hidden from screen readers, which have heard it read out
  return el("span", {
    class: `emote-bubble ${where}`.trim(),
    "data-at": String(heard.at),
    "data-emote": heard.key,
    "aria-hidden": "true",
    style: { animationDelay: `-${now - heard.at}ms` },
    text: t(`emote.${heard.key}`),
  });
}

/** The phrases this page's player may say, folded under one button. */
function renderEmotes(view, mine) {
  if (!emoteToken(view, mine)) return null;
  const box = el("details", { class: "card emotes", id: "emotes" });
  const say = (key) => () => {
    sayEmote(key);
    box.open = false;
    $("emote-toggle").focus(); // the keyboard comes back to the button it left
  };
  box.append(
    el(
      "summary",
      { id: "emote-toggle" },
      svg("svg", { viewBox: "0 0 24 24", class: "emote-icon", "aria-hidden": "true" }, svg("path", { d: "M4 4.5h16v11H11l-5 4v-4H4z", class: "stroke" })),
      el("span", { text: t("emoteTitle") }),
    ),
    el(
      "div",
      { class: "emote-list", role: "group", "aria-label": t("emoteTitle") },
      EMOTES.map((key) => el("button", { type: "button", id: `emote-${key}`, text: t(`emote.${key}`), onclick: say(key) })),
    ),
  );
  return box;
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
  const rows = order.map((p) => el("li", {}, el("span", { class: "name", text: displayName(p.name) }), el("strong", { text: p.score < 0 ? `−${-p.score}` : String(p.score) })));
  const winners = game.winners.map(displayName);
  const token = anyToken();
  const actions = [];
  if (view.rematch) {
    // one tap: to the rematch, sitting down there at once
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
  // a win of this page's own player is celebrated; a watcher sees the result as it is
  const myNames = Object.keys(mine).map((seat) => view.seats[seat] && view.seats[seat].name);
  const won = view.status === "finished" && game.winners.some((name) => myNames.includes(name));
  return el(
    "div",
    { class: `card result${won ? " won" : ""}`, id: "result" },
    won ? renderCelebration(game.winners.length > 1) : null,
    el("h3", { text: view.status === "abandoned" ? t("abandoned") : t("finished") }),
    view.status === "abandoned" ? null : el("p", { class: "winner", text: winners.length === 1 ? t("winners", { names: winners.join(", ") }) : t("draw") }),
    el("ol", { class: "standings" }, rows),
    el("div", { class: "controls" }, actions),
    el("a", { href: tablePath("/record"), download: "record.json", id: "download", text: t("download") }),
  );
}

/** Confetti of dice falling over the result, and the words; still for a reader who asked for less motion. */
function renderCelebration(shared) {
  const pieces = Array.from({ length: 18 }, (_, i) =>
    el("span", { class: `confetto c${i % 6}`, style: { left: `${(i * 37) % 100}%`, animationDelay: `${(i % 7) * 0.12}s` }, "aria-hidden": "true" }, dieFace((i % 6) + 1)),
  );
  return el("div", { class: "celebrate", id: "celebrate" }, el("div", { class: "confetti", "aria-hidden": "true" }, pieces), el("p", { class: "cheer", text: shared ? t("youShare") : t("youWon") }));
}

function goRematch(newId) {
  // the rematch keeps the seats: this browser's tokens sit it down at the new table, at once
  app.autoJoin = newId;
  const seats = mySeats();
  for (const [seat, token] of Object.entries(seats)) keepSeat(newId, seat, token);
  history.pushState({}, "", `/t/${newId}`);
  route();
}

function renderSeatTools(view, mine) {
  const [seat, token] = Object.entries(mine)[0];
  // a table of this device lives in this browser only: no other device can take a seat at it
  const here = onThisDevice(app.tableId);
  const link = `${location.origin}/t/${app.tableId}#seat=${seat}.${token}`;
  const input = here ? null : el("input", { id: "seat-link", readonly: true, value: link });
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
    el("summary", { text: here ? t("seatLeave") : t("seatLink") }),
    here ? null : el("p", { class: "muted", text: t("seatLinkHelp") }),
    here ? null : el("div", { class: "invite" }, input, copyButton("copy-seat", input, link)),
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
  // the commitment as this page saw it before the end: the revealed seed is checked against it
  const seen = `kosti.commitment.${app.tableId}`;
  if (!fair.server_seed && !localStorage.getItem(seen)) localStorage.setItem(seen, fair.server_seed_sha256);
  // a check under way or done stays when the page is drawn again (a resize, a new state)
  const kept = app.checked && fair.server_seed && app.checked.seed === fair.server_seed ? app.checked.box : null;
  const result = kept || el("div", { id: "verify-result", "aria-live": "polite" });
  const verify = () => {
    app.checked = { seed: fair.server_seed, box: result };
    verifyDice(fair, localStorage.getItem(seen), result);
  };
  const check = fair.server_seed
    ? el("button", { type: "button", id: "verify", class: "primary", text: t("verify"), onclick: verify })
    : el("p", { class: "muted", text: t("verifyLater") });
  return el(
    "details",
    { class: "card fair", id: "fair" },
    el("summary", { text: t("fair") }),
    el("p", { class: "muted", text: t("fairHow") }),
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
    check,
    result,
    el("p", { class: "muted", text: t("verifyHelp") }),
    el("a", { href: tablePath("/record"), download: "record.json", text: t("download") }),
  );
}

/** Check the dice, in this browser: the revealed seed against the commitment this page saw before
 * the first throw (its own SHA-256), then every die of the game's record recomputed from that
 * seed and the client seed with its own HMAC-SHA-256 (fair.js) and compared with the record. The
 * verdict is this browser's alone; the server's check of the record (every die and decision, as
 * `kosti verify` replays it) is shown below it as a second opinion. Without WebCrypto (a page
 * not on https) nothing is recomputed and the verdict says the dice are not checked. */
async function verifyDice(fair, seen, box) {
  delete box.dataset.verdict; // set again, to fair, not_fair or unchecked, once the check is done
  box.replaceChildren(el("p", { class: "muted", text: t("verifying") }));
  const lines = [];
  const second = api(tablePath("/verify")).then(
    (verdict) => (verdict.status === "fair" ? t("verifyServerOk") : `${t("verifyServerBad")} ${verdict.reason}`),
    (error) => `${t("verifyServerBad")} ${error.message}`,
  );
  let verdict = "unchecked";
  if (!canCheck()) lines.push({ id: "verify-dice", text: t("verifyNoCrypto") });
  else {
    const hash = await seedFingerprint(fair.server_seed);
    const promised = seen || fair.server_seed_sha256;
    const same = hash === promised && hash === fair.server_seed_sha256;
    // a browser that came after the first throw never saw the promise: it can only say the seed
    // matches the fingerprint the server shows now, not that it was promised before
    const said = !same ? t("verifySeedBad") : seen ? t("verifySeedOk") : t("verifySeedUnseen");
    lines.push({ id: "verify-seed", text: said });
    let checked = null;
    try {
      checked = await checkGame(await api(tablePath("/record")), fair);
    } catch (error) {
      lines.push({ id: "verify-dice", text: error.message });
    }
    if (checked) {
      lines.push({ id: "verify-dice", text: diceChecked(checked) });
      if (checked.status === "fair") verdict = same ? "fair" : "not_fair";
      else if (checked.status === "not_fair" || !same) verdict = "not_fair";
    } else if (!same) verdict = "not_fair";
  }
  lines.push({ id: "verify-server", text: await second });
  const head = { fair: ["verdict ok", t("verifyFair")], not_fair: ["verdict bad", t("verifyNotFair")], unchecked: ["verdict", t("verifyUnchecked")] }[verdict];
  box.dataset.verdict = verdict;
  box.replaceChildren(el("p", { class: head[0], id: "verdict", text: head[1] }), ...lines.map((line) => el("p", { class: "muted", id: line.id, text: line.text })));
}

/** What this browser's recomputation of the dice found (fair.js checkGame), in words: how many
 * throws and dice it recomputed, and on a difference which throw (turn and player, or the
 * roll-off) and which dice. */
function diceChecked(checked) {
  if (checked.status === "unreadable") return t("verifyRecordBad");
  const counted = { throws: t("throwsCount", { n: checked.throws }), dice: t("diceCount", { n: checked.dice }) };
  if (checked.status === "fair") return t("verifyDiceOk", counted);
  const bad = checked.mismatch;
  const faces = { recorded: bad.faces.join(" "), expected: bad.expected.join(" "), player: displayName(bad.player), throw: bad.throw };
  const where = bad.rolloff
    ? t("verifyRolloffBad", faces)
    : `${t("verifyThrowBad", { ...faces, turn: bad.turn })} ${t("verifyDiceDiffer", { n: bad.dice.length, list: bad.dice.join(", ") })}`;
  return `${t("verifyDiceBad", counted)} ${where}`;
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
  // the phrases heard here go among the entries, after the last one there was when each was said
  const phrases = [...app.emotes].reverse();
  const said = (after) => {
    while (phrases.length && phrases[0].version >= after) list.append(el("li", { class: "emote-line", text: emoteLine(phrases.shift()) }));
  };
  for (const entry of [...view.log].reverse()) {
    said(entry.version);
    for (const line of [...logLines(view, entry)].reverse()) list.append(el("li", { text: line }));
  }
  said(-Infinity);
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
    // each option named, valued and explained in the catalog's words (option.*, value.*, option_doc.*)
    const list = el("dl", { class: "options" });
    for (const [name, option] of Object.entries(rules.options)) {
      list.append(
        el("dt", { class: changed.has(name) ? "changed" : null }, w(`option.${name}`), changed.has(name) ? el("span", { class: "tag", text: t("changed") }) : null),
        el("dd", { id: `option-${name}` }, el("strong", { text: optionText(name, option.value) }), option.doc ? el("span", { class: "doc", text: option.doc }) : null),
      );
    }
    const prose = word(`rules.${rules.family}`);
    // this table's own rules in sentences with its numbers (the server's: rules.table.*), then the
    // family's rules, then every option folded away
    const sentences = (rules.sentences || []).map((line) => el("p", {}, ...markdownInline(line)));
    box.append(
      el("div", { class: "table-rules", id: "table-rules" }, el("h4", { text: `${rules.name}` }), sentences),
      ...(prose ? markdown(prose) : []),
      el("details", { class: "all-options", id: "all-options" }, el("summary", { text: w("rules.options_title") }), list),
    );
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
