// The home screen: one card a family of games, each with "play a bot" and "play a friend" at
// the top of a phone's screen, the rules chosen from its presets and, folded away, changed
// option by option with real controls (the server says which: /api/rules' kind and choices).
// The player who makes a table sits down in it in the same request; a bot game seats its
// bots at once. Open tables to join come after. A table of this device (a server whose
// /api/server says `local`: kosti in the page's worker) is played around its one screen: it
// offers no invite link and no turn timer.

import { el } from "./dom.js";
import { cellName, duration, language, t, word } from "./i18n.js";

const FAMILIES = ["thousand", "sheet", "showdown"];
const FIRST = { thousand: "thousand-classic", sheet: "poker-classic", showdown: "poker-showdown" };
const TIMERS = [0, 30, 60, 120, 300];
// each family's name and what it is about, in a line
const TITLE = { thousand: () => t("family_thousand"), sheet: () => t("family_sheet"), showdown: () => t("family_showdown") };
const TEASER = { thousand: () => t("teaser_thousand"), sheet: () => t("teaser_sheet"), showdown: () => t("teaser_showdown") };

/**
 * Draw the home screen into `section`. `ctx` = {presets (GET /api/presets), open (GET /api/tables),
 * server (GET /api/server, or null), api(path), post(path, body), seat(table answer), go(url),
 * showError(message), randomSeed()}.
 */
export function renderHome(section, ctx) {
  const form = { changed: {}, rules: {} };
  const name = el("input", { id: "name", name: "name", maxlength: 24, autocomplete: "nickname", placeholder: t("namePlaceholder"), value: localStorage.getItem("kosti.name") || "" });
  const cards = FAMILIES.filter((family) => ctx.presets.some((p) => p.family === family)).map((family) => familyCard(family, form, ctx, name));
  const settings = settingsCard(ctx);
  const list = openTables(ctx.open);
  section.replaceChildren(
    el("div", { class: "home-head" }, el("h2", { id: "lobby-title", class: "sr-only", text: t("play") }), el("label", { class: "field name-field" }, el("span", { text: t("yourName") }), name)),
    ...cards,
    settings,
    list,
  );
}

function familyCard(family, form, ctx, name) {
  const presets = ctx.presets.filter((p) => p.family === family);
  const select = el("select", { id: `preset-${family}`, "aria-label": t("variant") });
  for (const p of presets) select.append(el("option", { value: p.id, text: p.name }));
  const saved = localStorage.getItem(`kosti.preset.${family}`);
  select.value = presets.some((p) => p.id === saved) ? saved : presets.some((p) => p.id === FIRST[family]) ? FIRST[family] : presets[0].id;
  const summary = el("p", { class: "muted summary", id: `summary-${family}` });
  const options = el("div", { class: "option-controls", id: `options-${family}` });
  const chosen = el("span", { class: "chosen" });
  // the rules folded away under the name of the preset chosen: the two ways to play stay on top
  const fold = el(
    "details",
    { class: "more rules-fold", id: `rules-${family}` },
    el("summary", {}, el("span", { text: `${t("variant")}: ` }), chosen),
    el("label", { class: "field variant" }, el("span", { text: t("variant") }), select),
    summary,
    el("p", { class: "muted options-title", text: t("changeRules") }),
    options,
  );
  const describe = () => {
    const preset = presets.find((p) => p.id === select.value);
    summary.textContent = preset ? preset.summary : "";
    chosen.textContent = preset ? preset.name : "";
    form.changed[family] = {};
    options.replaceChildren(el("p", { class: "muted", text: "…" }));
    ctx.api(`/api/rules/${encodeURIComponent(select.value)}?lang=${language()}`).then(
      (rules) => {
        if (rules.id !== select.value) return; // another preset was chosen meanwhile
        form.rules[family] = rules;
        options.replaceChildren(...optionControls(family, rules, form.changed[family]));
        options.dataset.preset = rules.id;
      },
      (error) => ctx.showError(error.message),
    );
  };
  select.addEventListener("change", () => {
    localStorage.setItem(`kosti.preset.${family}`, select.value);
    describe();
  });
  describe();
  const start = (how) => async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      await startGame(ctx, family, select.value, form.changed[family] || {}, how, name);
    } catch (error) {
      ctx.showError(error.message);
    } finally {
      button.disabled = false;
    }
  };
  return el(
    "section",
    { class: "card family", id: `family-${family}`, "aria-labelledby": `family-title-${family}` },
    el("h3", { id: `family-title-${family}`, text: TITLE[family]() }),
    el("p", { class: "teaser", text: TEASER[family]() }),
    el(
      "div",
      { class: "controls starts" },
      el("button", { type: "button", class: "primary", id: `bot-${family}`, text: t("playBot"), onclick: start("bot") }),
      el("button", { type: "button", class: "primary alt", id: `friend-${family}`, text: t("playFriend"), onclick: start("friend") }),
    ),
    fold,
    el("button", { type: "button", class: "link", id: `keeper-${family}`, text: t("playKeeper"), onclick: start("keeper") }),
  );
}

/** A control for each option the server offers as one (its kind), labelled and explained from the catalog. */
function optionControls(family, rules, changed) {
  const rows = [];
  for (const [name, option] of Object.entries(rules.options)) {
    if (option.kind === "fixed") continue;
    const id = `opt-${family}-${name}`;
    const label = word(`option.${name}`) ?? name;
    const help = el("small", { class: "muted", id: `${id}-help`, text: option.doc || "" });
    const set = (value) => {
      if (JSON.stringify(value) === JSON.stringify(option.value)) delete changed[name];
      else changed[name] = value;
    };
    let control;
    if (option.kind === "choice") {
      control = el("select", { id, "aria-describedby": `${id}-help` });
      for (const choice of option.choices) control.append(el("option", { value: choice, text: word(`value.${name}.${choice}`) ?? choice }));
      control.value = option.value;
      control.addEventListener("change", () => set(control.value));
      rows.push(el("label", { class: "field option" }, el("span", { text: label }), control, help));
    } else if (option.kind === "bool") {
      control = el("input", { type: "checkbox", id, checked: option.value, "aria-describedby": `${id}-help` });
      control.addEventListener("change", () => set(control.checked));
      rows.push(el("div", { class: "option" }, el("label", { class: "check" }, control, label), help));
    } else if (option.kind === "int") {
      control = el("input", { type: "number", id, inputmode: "numeric", step: 1, value: option.value ?? "", placeholder: option.nullable ? t("off") : null, "aria-describedby": `${id}-help` });
      control.addEventListener("input", () => {
        const text = control.value.trim();
        if (text === "" && option.nullable) set(null);
        else if (/^-?\d+$/.test(text)) set(Number(text));
      });
      rows.push(el("label", { class: "field option" }, el("span", { text: label }), control, help));
    } else if (option.kind === "cells") {
      const chosen = new Set(option.value);
      const boxes = option.choices.map((cell) => {
        const box = el("input", { type: "checkbox", id: `${id}-${cell}`, checked: chosen.has(cell) });
        box.addEventListener("change", () => {
          if (box.checked) chosen.add(cell);
          else chosen.delete(cell);
          set(option.choices.filter((c) => chosen.has(c)));
        });
        return el("label", { class: "check" }, box, cellName(cell));
      });
      rows.push(el("fieldset", { class: "option cells", "aria-describedby": `${id}-help` }, el("legend", { text: label }), el("div", { class: "cell-boxes" }, boxes), help));
    }
  }
  return rows;
}

/** Whether the tables made here are this device's (local/transport.js): nobody joins from elsewhere. */
function onDevice(ctx) {
  return Boolean(ctx.server && ctx.server.local);
}

function settingsCard(ctx) {
  const local = onDevice(ctx);
  const timer = el("select", { id: "timer", name: "timer" });
  for (const seconds of TIMERS) timer.append(el("option", { value: seconds, text: seconds ? duration(seconds) : t("timerNone") }));
  const radio = (name, value, label, checked) => el("label", { class: "check" }, el("input", { type: "radio", name, value, checked }), label);
  return el(
    "details",
    { class: "card more", id: "more-settings" },
    el("summary", { text: t("moreSettings") }),
    el("label", { class: "field" }, el("span", { text: t("seats") }), el("input", { id: "seats", name: "seats", type: "number", min: 1, max: 8, value: 2, inputmode: "numeric" })),
    el("label", { class: "field" }, el("span", { text: t("botLevel") }), levelSelect(ctx)),
    // who may join by the invite link, and the time for a turn, mean nothing at one screen
    local ? null : el("fieldset", {}, el("legend", { text: t("visibility") }), radio("visibility", "private", t("private"), true), radio("visibility", "public", t("public"), false)),
    local ? null : el("label", { class: "field" }, el("span", { text: t("timer") }), timer),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "hints", name: "hints", checked: true }), t("hints")),
  );
}

/** The bot levels, each named as its bots are («Умник — эвристика»). */
function levelSelect(ctx) {
  const all = new Set();
  for (const levels of Object.values((ctx.server && ctx.server.bot_levels) || {})) for (const level of levels) all.add(level);
  if (!all.size) all.add("heuristic");
  const select = el("select", { id: "bot-level", name: "level" });
  for (const level of all) select.append(el("option", { value: level, text: levelName(level) }));
  const saved = localStorage.getItem("kosti.level");
  select.value = all.has(saved) ? saved : all.has("heuristic") ? "heuristic" : [...all][0];
  select.addEventListener("change", () => localStorage.setItem("kosti.level", select.value));
  return select;
}

export function levelName(level) {
  const bot = word(`bot.${level}`);
  const kind = word(`level.${level}`) ?? level;
  return bot ? t("levelNamed", { bot, level: kind }) : kind;
}

function setting(id, fallback) {
  const input = document.getElementById(id);
  return input ? input : { value: fallback, checked: true };
}

/** Make the table and sit down in it; for a bot game seat the bots too; then go to the table. */
async function startGame(ctx, family, preset, changed, how, nameInput) {
  ctx.showError("");
  const name = nameInput.value.trim() || t("defaultName");
  localStorage.setItem("kosti.name", nameInput.value.trim());
  const players = Math.max(1, Math.min(8, Number(setting("seats", 2).value) || 2));
  const level = setting("bot-level", "heuristic").value;
  const body = {
    variant: preset,
    options: changed,
    seats: how === "bot" ? Math.max(2, players) : players,
    mode: how === "keeper" ? "scorekeeper" : "online",
    hints: setting("hints", true).checked,
    private: how !== "friend" || document.querySelector("input[name=visibility]:checked")?.value !== "public",
    timer: how === "friend" && !onDevice(ctx) ? Number(setting("timer", 0).value) || null : null,
    name,
    client_seed: ctx.randomSeed(),
  };
  const table = await ctx.post("/api/tables", body);
  ctx.seat(table);
  if (how === "bot") {
    const levels = (ctx.server && ctx.server.bot_levels && ctx.server.bot_levels[family]) || [level];
    const chosen = levels.includes(level) ? level : levels.includes("heuristic") ? "heuristic" : levels[0];
    for (let i = 1; i < body.seats; i++) {
      await ctx.post(`/api/tables/${encodeURIComponent(table.id)}/bots`, { token: table.token, level: chosen });
    }
  }
  ctx.go(table.invite);
}

function openTables(open) {
  const list = el("ul", { class: "open-tables", id: "open-tables" });
  for (const table of open.tables || []) {
    list.append(
      el(
        "li",
        {},
        el(
          "a",
          { href: `/t/${table.id}`, class: "table-link" },
          el("strong", { text: table.name }),
          el("span", { class: "muted", text: t("tableLine", { taken: table.taken, seats: table.seats }) }),
          table.timer ? el("span", { class: "tag", text: duration(table.timer) }) : null,
        ),
      ),
    );
  }
  return el(
    "section",
    { class: "card", id: "open-card", "aria-labelledby": "open-title" },
    el("h2", { id: "open-title", text: t("openTables") }),
    list.childElementCount ? list : el("p", { class: "muted", id: "no-open", text: t("noOpenTables") }),
  );
}

