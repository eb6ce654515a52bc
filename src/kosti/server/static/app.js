// The kosti page: the lobby (create a table) and a table (seats, dice, board, log, rules).
// The server is authoritative: this page only shows the state it is sent and sends actions
// with the version it saw. Every name from other people goes through textContent.

import { renderBoard } from "./board.js";
import { el, faceText as face, markdown } from "./dom.js";
import { cellName, initLanguage, language, loadWords, setLanguage, t, word } from "./i18n.js";

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
  announced: { dice: "", turn: "" },
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
    headers: { "Content-Type": "application/json", ...(options.headers || {}) },
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

function faceText(value) {
  return face(value, Boolean(app.view && app.view.options && app.view.options.faces === "cards"));
}

function diceText(faces) {
  return (faces || []).map(faceText).join(" ");
}

/** An action of the record (or "throw") in words. */
function actionText(action) {
  if (action === "throw") return word("action.throw_on") ?? action;
  if (action === "stop") return word("action.stop") ?? action;
  if (!action || typeof action !== "object") return String(action);
  const [key, value] = Object.entries(action)[0];
  if (key === "hold" && value.length === 0) return word("action.throw_all") ?? key;
  const text = Array.isArray(value) ? word(`action.${key}`, { dice: diceText(value) }) : word(`action.${key}`, { cell: cellName(value) });
  return text ?? `${key} ${Array.isArray(value) ? diceText(value) : value}`;
}

function announce(text) {
  // a fresh node each time, so that a screen reader reads a repeated message again
  const region = $("announcer");
  region.textContent = "";
  region.append(el("span", { text }));
}

// -- lobby --------------------------------------------------------------------

async function showLobby() {
  $("lobby").hidden = false;
  $("table").hidden = true;
  $("status").textContent = "";
  const presets = await api(`/api/presets?lang=${language()}`);
  const section = $("lobby");
  section.replaceChildren();
  const select = el("select", { id: "preset", name: "preset" });
  for (const p of presets) select.append(el("option", { value: p.id, text: `${p.name} (${p.id})` }));
  const summary = el("p", { id: "preset-summary", class: "muted" });
  const describe = () => {
    const p = presets.find((x) => x.id === select.value);
    summary.textContent = p ? p.summary : "";
  };
  select.addEventListener("change", describe);
  describe();
  const form = el(
    "form",
    { id: "create", class: "card", novalidate: true },
    el("h2", { id: "lobby-title", text: t("newTable") }),
    field(t("game"), select),
    summary,
    field(t("options"), el("input", { id: "options", name: "options", autocomplete: "off", "aria-describedby": "options-help", maxlength: 200 })),
    el("p", { id: "options-help", class: "muted", text: t("optionsHelp") }),
    field(t("seats"), el("input", { id: "seats", name: "seats", type: "number", min: 1, max: 8, value: 2, required: true })),
    el(
      "fieldset",
      {},
      el("legend", { text: t("dice") }),
      radio("mode", "online", t("online"), true),
      radio("mode", "scorekeeper", t("scorekeeper"), false),
    ),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "hints", name: "hints" }), t("hints")),
    field(t("yourName"), el("input", { id: "name", name: "name", maxlength: 24, required: true, autocomplete: "nickname" })),
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
    };
    try {
      const name = form.name.value.trim();
      if (!name) throw new Error(t("yourName"));
      const table = await api("/api/tables", { method: "POST", body: JSON.stringify(body) });
      await join(table.id, name);
      history.pushState({}, "", table.invite);
      route();
    } catch (error) {
      showError(error.message);
    }
  });
  section.append(form);
}

function field(label, input) {
  return el("label", { class: "field" }, el("span", { text: label }), input);
}

function radio(name, value, label, checked) {
  return el("label", { class: "check" }, el("input", { type: "radio", name, value, checked }), label);
}

async function join(tableId, name) {
  const answer = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, {
    method: "POST",
    body: JSON.stringify({ name, client_seed: randomSeed() }),
  });
  keepSeat(tableId, answer.seat, answer.token);
  return answer;
}

// -- the table ----------------------------------------------------------------

function connect() {
  if (app.gone) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(app.tableId)}`);
  app.socket = socket;
  $("status").textContent = t("connecting");
  socket.addEventListener("open", () => {
    app.retry = 0;
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "state") {
      app.view = message.table;
      app.version = message.version;
      document.body.dataset.version = String(message.version);
      showError("");
      renderTable();
    } else if (message.type === "error") {
      if (message.code === "not_found") {
        app.gone = true;
        $("table").replaceChildren(el("p", { text: t("notFound") }));
      }
      showError(message.reason);
    } else if (message.type === "hint") {
      app.hint = message;
      renderTable();
    }
  });
  socket.addEventListener("close", () => {
    if (app.socket !== socket || app.gone) return;
    $("status").textContent = t("disconnected");
    app.retry = Math.min(app.retry + 1, 5);
    setTimeout(connect, 500 * 2 ** app.retry);
  });
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
  app.tableId = tableId;
  $("lobby").hidden = true;
  $("table").hidden = false;
  connect();
}

function renderTable() {
  const view = app.view;
  if (!view) return;
  const game = view.game;
  const mine = mySeats();
  const focusId = document.activeElement && document.activeElement.id;
  // the table is drawn afresh on every state: what the user was typing or choosing stays
  const typed = new Map([...$("table").querySelectorAll("input[id]:not([readonly]), select[id]")].map((input) => [input.id, input.value]));
  const rulesLoaded = app.rules && app.rules.key === `${view.variant}|${language()}`;
  const status = game ? turnText(view, game, mine) : t("waiting", { n: view.seats.filter((s) => !s.name).length });
  $("status").textContent = status;
  const parts = [
    el("h2", { id: "table-title", text: rulesLoaded ? `${app.rules.data.name} · ${view.variant}` : view.variant }),
    el("p", { id: "turn", class: "turn", text: status }),
  ];
  if (view.status === "waiting") parts.push(renderInvite(), renderSeats(view, mine), renderJoin(view));
  if (game && !game.finished) parts.push(renderDice(view, game, mine), renderControls(view, game, mine));
  if (game) parts.push(renderBoard(view, game, { act, myTurn: Boolean(myTurnToken()), rules: rulesLoaded && app.rules.data }));
  if (game && game.finished) parts.push(renderResult(view, game));
  parts.push(renderFair(view), renderLog(view), renderRules(view));
  $("table").replaceChildren(...parts.filter(Boolean));
  for (const [id, value] of typed) if ($(id)) $(id).value = value;
  announceChanges(view, game, mine);
  if (focusId && $(focusId)) $(focusId).focus();
}

function turnText(view, game, mine) {
  if (game.finished) {
    return `${t("finished")} ${game.winners.length === 1 ? t("winners", { names: game.winners.join(", ") }) : t("draw")}`;
  }
  return mine[game.current] ? t("yourTurn") : t("turnOf", { name: game.player });
}

function announceChanges(view, game, mine) {
  if (!game) return;
  const dice = onTable(game);
  const diceKey = `${game.turn}:${game.player}:${dice.join(",")}`;
  const turnKey = `${game.turn}:${game.current}:${game.finished}`;
  const parts = [];
  if (dice.length && diceKey !== app.announced.dice) parts.push(t("threw", { name: game.player, dice: diceText(dice) }));
  if (turnKey !== app.announced.turn) parts.push(turnText(view, game, mine));
  app.announced = { dice: diceKey, turn: turnKey };
  if (parts.length) announce(parts.join(". "));
}

function renderInvite() {
  const link = `${location.origin}/t/${app.tableId}`;
  const input = el("input", { id: "invite", readonly: true, value: link });
  const copy = el("button", {
    type: "button",
    id: "copy",
    text: t("copy"),
    onclick: async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = t("copied");
      } catch {
        document.execCommand && document.execCommand("copy");
      }
    },
  });
  return el("div", { class: "card invite" }, field(t("invite"), input), copy);
}

function renderSeats(view, mine) {
  const list = el("ul", { class: "seats", "aria-label": t("seatsTitle") });
  const levels = (app.server && app.server.bot_levels && app.server.bot_levels[view.family]) || [];
  for (const seat of view.seats) {
    const item = el("li", {});
    if (seat.name) {
      item.append(el("span", { class: "name", text: seat.name }));
      if (seat.bot) item.append(el("span", { class: "tag", text: `${t("bot")}: ${seat.bot}` }));
      if (mine[seat.seat]) item.append(el("span", { class: "tag", text: t("you") }));
    } else {
      item.append(el("span", { class: "muted", text: `${seat.seat + 1}: ${t("empty")}` }));
      if (view.mode === "online" && levels.length) {
        const level = el("select", { "aria-label": t("botLevel"), id: `bot-level-${seat.seat}` });
        for (const name of levels) level.append(el("option", { value: name, text: word(`level.${name}`) ?? name }));
        const add = el("button", {
          type: "button",
          id: `add-bot-${seat.seat}`,
          text: t("addBot"),
          onclick: async () => {
            try {
              await api(`/api/tables/${encodeURIComponent(app.tableId)}/bots`, {
                method: "POST",
                body: JSON.stringify({ seat: seat.seat, level: level.value }),
              });
            } catch (error) {
              showError(error.message);
            }
          },
        });
        item.append(level, add);
      }
    }
    list.append(item);
  }
  return el("div", { class: "card" }, el("h3", { text: t("seatsTitle") }), list);
}

function renderJoin(view) {
  if (!view.seats.some((s) => !s.name)) return null;
  const input = el("input", { id: "join-name", name: "name", maxlength: 24, required: true, autocomplete: "nickname" });
  const form = el(
    "form",
    { class: "card", id: "join" },
    el("h3", { text: t("joinTitle") }),
    field(t("yourName"), input),
    el("button", { type: "submit", class: "primary", text: t("join") }),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await join(app.tableId, input.value.trim());
      // the new state may have arrived before the answer that says which seat is ours
      renderTable();
    } catch (error) {
      showError(error.message);
    }
  });
  return form;
}

/** The dice on the table: the engine's own list where it gives one, else the last throw. */
function onTable(game) {
  const summary = game.summary || {};
  return Array.isArray(summary.dice) && summary.dice.length ? summary.dice : game.dice || [];
}

function lockedIndices(game, dice) {
  const locked = [...((game.summary && game.summary.locked) || [])];
  const result = new Set();
  dice.forEach((face, i) => {
    const k = locked.indexOf(face);
    if (k >= 0) {
      locked.splice(k, 1);
      result.add(i);
    }
  });
  return result;
}

function renderDice(view, game, mine) {
  const dice = onTable(game);
  const locked = lockedIndices(game, dice);
  if (app.version !== app.selectionVersion) {
    // every new state starts a new choice; dice locked by the rules stay kept
    app.selected = new Set(locked);
    app.selectionVersion = app.version;
  }
  const myTurn = Boolean(myTurnToken());
  const box = el("div", { class: "dice", role: "group", "aria-label": t("dice") });
  dice.forEach((face, i) => {
    const held = app.selected.has(i);
    const isLocked = locked.has(i);
    const state = isLocked ? t("locked") : held ? t("held") : "";
    box.append(
      el("button", {
        type: "button",
        class: `die${held ? " held" : ""}`,
        id: `die-${i}`,
        "aria-pressed": held ? "true" : "false",
        "aria-label": `${t("dieLabel", { i: i + 1, face: faceText(face) })}${state ? `, ${state}` : ""}`,
        disabled: !myTurn || isLocked,
        text: faceText(face),
        onclick: () => toggleDie(i),
      }),
    );
  });
  const summary = game.summary || {};
  const extra = [];
  if (Array.isArray(summary.set_aside) && summary.set_aside.length) extra.push(`${t("setAside")}: ${diceText(summary.set_aside)}`);
  if (summary.turn_total !== undefined) extra.push(`${t("turnTotal")}: ${summary.turn_total}`);
  if (summary.throws_left !== undefined) extra.push(`${t("throwsLeft")}: ${summary.throws_left}`);
  if (summary.bank !== undefined) extra.push(`${t("bank")}: ${summary.bank}`);
  if (summary.round !== undefined) extra.push(`${t("round")}: ${summary.round}/${summary.rounds}`);
  const last = summary.last_round;
  if (last) extra.push(t("lastRound", { round: last.round, name: last.winner, bank: last.bank }));
  const advice = !myTurn ? null : hasKind(game, "set_aside") ? t("toSetAside") : hasKind(game, "hold") ? t("toHold") : null;
  return el(
    "div",
    { class: "card table-top" },
    box,
    extra.length ? el("p", { class: "muted", id: "turn-info", text: extra.join(" · ") }) : null,
    advice ? el("p", { class: "muted", text: advice }) : null,
  );
}

function toggleDie(i) {
  const game = app.view && app.view.game;
  if (!game || !myTurnToken()) return;
  const locked = lockedIndices(game, onTable(game));
  if (locked.has(i) || i >= onTable(game).length) return;
  if (app.selected.has(i)) app.selected.delete(i);
  else app.selected.add(i);
  renderTable();
}

function selectedFaces(game) {
  const dice = onTable(game);
  return [...app.selected].filter((i) => i < dice.length).map((i) => dice[i]).sort((a, b) => a - b);
}

function hasKind(game, kind) {
  return game.decisions.some((d) => (typeof d === "string" ? d === kind : kind in d));
}

function renderControls(view, game, mine) {
  const myTurn = Boolean(myTurnToken());
  const box = el("div", { class: "card controls", role: "group", "aria-label": t("moves") });
  if (!myTurn) {
    return Object.keys(mine).length ? null : el("p", { class: "muted", text: t("spectator") });
  }
  const online = view.mode === "online";
  const holds = hasKind(game, "hold");
  if (online) {
    box.append(
      el("button", {
        type: "button",
        id: "throw",
        class: "primary",
        "aria-keyshortcuts": "T",
        disabled: !(game.may_throw || holds),
        text: app.selected.size && holds ? t("throwRest") : t("throw"),
        onclick: () => (holds ? act({ hold: selectedFaces(game) }) : act("throw")),
      }),
    );
  } else {
    if (holds && app.selected.size) {
      box.append(el("button", { type: "button", id: "hold", text: actionText({ hold: selectedFaces(game) }), onclick: () => act({ hold: selectedFaces(game) }) }));
    }
    if (game.to_throw || game.may_throw) box.append(renderRollInput(game));
  }
  if (hasKind(game, "set_aside")) {
    box.append(
      el("button", { type: "button", id: "set-aside", "aria-keyshortcuts": "A", disabled: !app.selected.size, text: t("setAside"), onclick: () => act({ set_aside: selectedFaces(game) }) }),
    );
  }
  if (hasKind(game, "stop")) {
    box.append(el("button", { type: "button", id: "stop", "aria-keyshortcuts": "S", text: t("stop"), onclick: () => act("stop") }));
  }
  if (view.hints && game.decisions.length) {
    box.append(el("button", { type: "button", id: "hint", "aria-keyshortcuts": "H", text: t("hint"), onclick: askHint }));
  }
  const handled = new Set(["throw", "hold", "set_aside", "stop", ...(game.summary && game.summary.players && ("cells" in game.summary.players[0] || "columns" in game.summary.players[0]) ? ["score"] : [])]);
  const others = game.decisions.filter((d) => !handled.has(typeof d === "string" ? d : Object.keys(d)[0]));
  if (others.length) {
    const list = el("div", { class: "others", role: "group", "aria-label": t("other") });
    for (const action of others) {
      const id = `act-${JSON.stringify(action).replace(/[^a-z0-9_]+/gi, "-")}`;
      list.append(el("button", { type: "button", id, text: actionText(action), onclick: () => act(action) }));
    }
    box.append(el("h3", { text: t("other") }), list);
  }
  if (app.hint && app.hint.version === app.version) {
    const items = app.hint.advice.map((a) => el("li", { text: `${actionText(a.action)}${a.value === null || a.value === undefined ? "" : ` — ${Number(a.value).toFixed(1)}`}` }));
    box.append(el("div", { class: "hint", "aria-live": "polite" }, el("h3", { text: t("hintTitle") }), items.length ? el("ol", {}, items) : el("p", { text: t("noHint") })));
  }
  box.append(el("p", { class: "muted keys", text: t("keys") }));
  return box;
}

function renderRollInput(game) {
  const input = el("input", {
    id: "roll",
    inputmode: "numeric",
    autocomplete: "off",
    pattern: "[1-6 ,]*",
    "aria-describedby": "roll-help",
    maxlength: 20,
  });
  const form = el(
    "form",
    { class: "roll", id: "roll-form" },
    field(t("rollInput"), input),
    el("span", { id: "roll-help", class: "muted", text: `${t("rollInputHelp")}${game.to_throw ? ` (${t("rollExpected", { n: game.to_throw })})` : ""}` }),
    el("button", { type: "submit", class: "primary", text: t("recordThrow") }),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const faces = (input.value.match(/[1-6]/g) || []).map(Number);
    input.value = "";
    act({ roll: faces });
  });
  return form;
}

function renderResult(view, game) {
  const rows = game.players.map((name, i) => el("li", { text: `${name}: ${game.scores[i]}` }));
  return el(
    "div",
    { class: "card result", id: "result" },
    el("h3", { text: t("finished") }),
    el("p", { text: game.winners.length === 1 ? t("winners", { names: game.winners.join(", ") }) : t("draw") }),
    el("ol", {}, rows),
    el("a", { href: `/api/tables/${encodeURIComponent(app.tableId)}/record`, download: "record.json", id: "download", text: t("download") }),
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
  );
}

function logText(entry) {
  switch (entry.kind) {
    case "join":
      return t("joined", { name: entry.name });
    case "bot":
      return t("botJoined", { name: entry.name });
    case "start": {
      const text = t("started", { names: entry.players.join(", ") });
      if (!entry.rolloff || !entry.rolloff.length) return text;
      const throws = entry.rolloff.map((r) => `${r.player} ${diceText(r.roll)}`).join("; ");
      return `${text} ${t("rolloff", { throws, name: entry.players[0] })}`;
    }
    case "action":
      return `${entry.player}: ${entry.actions.map(actionText).join(", ")}`;
    default:
      return entry.kind;
  }
}

function renderLog(view) {
  const list = el("ol", { class: "log", reversed: true });
  for (const entry of [...view.log].reverse()) list.append(el("li", { value: entry.version, text: logText(entry) }));
  return el("details", { class: "card", id: "log", open: true }, el("summary", { text: t("log") }), list);
}

function renderRules(view) {
  const box = el("details", { class: "card", id: "rules" }, el("summary", { text: t("rules") }));
  const key = `${view.variant}|${language()}`;
  if (app.rules && app.rules.key === key) {
    const rules = app.rules.data;
    const table = el("table", { class: "options" }, el("thead", {}, el("tr", {}, el("th", { text: t("option") }), el("th", { text: t("value") }), el("th", { text: t("meaning") }))));
    const body = el("tbody");
    for (const [name, option] of Object.entries(rules.options)) {
      const value =
        typeof option.value === "boolean"
          ? t(option.value ? "yes" : "no")
          : (typeof option.value === "string" && word(`value.${name}.${option.value}`)) || JSON.stringify(option.value);
      body.append(
        el(
          "tr",
          {},
          el("th", { scope: "row" }, word(`option.${name}`) ?? name, el("br"), el("code", { text: name })),
          el("td", { text: value }),
          el("td", { text: option.doc }),
        ),
      );
    }
    table.append(body);
    const prose = word(`rules.${rules.family}`);
    box.append(el("p", { text: `${rules.name}: ${rules.summary}` }), ...(prose ? markdown(prose) : []), el("h4", { text: word("rules.options_title") ?? t("rules") }), el("div", { class: "scroll" }, table));
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

function renderLanguageButton() {
  const button = $("lang");
  button.textContent = t("language");
  button.setAttribute("aria-label", t("languageLabel"));
  document.title = t("title");
}

$("lang").addEventListener("click", async () => {
  await loadWords(setLanguage(language() === "ru" ? "en" : "ru"));
  renderLanguageButton();
  if (app.tableId) renderTable();
  else showLobby().catch((error) => showError(error.message));
});

window.addEventListener("popstate", route);

async function route() {
  $("loading").hidden = true;
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,32})$/);
  if (match) showTable(match[1]);
  else await showLobby();
}

renderLanguageButton();
Promise.all([
  loadWords(initLanguage()),
  api("/api/server")
    .then((info) => {
      app.server = info;
    })
    .catch(() => {}),
]).finally(() => {
  renderLanguageButton();
  route().catch((error) => showError(error.message));
});
