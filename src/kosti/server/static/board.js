// The board of each family, drawn from the engine's own summary (what `kosti replay --json`
// prints) and the table's options: the score sheet of poker-* games, the track to 1000 of
// «Тысяча» with its pits («ямы») and barrel («бочка»), and the hands and bank of showdown.
// Every board fits a 390 px phone with up to six players, without sideways scrolling.

import { dieFace, el, svg } from "./dom.js";
import { cellAccusative, cellName, handName, t, w } from "./i18n.js";

const UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"];

/**
 * The board of `game` (a state's `game` object). `ctx` = {act, myTurn, rules (the /api/rules
 * answer, or null until it has come), name (stored name → shown name), rank (face → card or
 * null), width (pixels the board may take), sheetPlayer, showPlayer(index), bubble (stored name,
 * place → the bubble of the phrase that player has just said, or null; optional)}.
 */
export function renderBoard(view, game, ctx) {
  const players = (game.summary && game.summary.players) || [];
  if (players.length && ("cells" in players[0] || "columns" in players[0])) return renderSheet(view, game, ctx);
  if (view.family === "thousand") return renderTrack(view, game, ctx);
  return renderShowdown(view, game, ctx);
}

/** The value of option `name` of this table (from the rules once they have come), else `fallback`. */
export function optionValue(ctx, name, fallback) {
  const option = ctx.rules && ctx.rules.options[name];
  return option ? option.value : fallback;
}

/** The bubble of a phrase `stored` (a player's stored name) has just said, placed by `where`. */
function bubbleOf(ctx, stored, where) {
  return ctx.bubble ? ctx.bubble(stored, where) : null;
}

function currentIndex(game) {
  return game.finished ? -1 : game.players.indexOf(game.player);
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

function number(n) {
  return n < 0 ? `−${-n}` : String(n);
}

// -- score sheets ---------------------------------------------------------------

function columnsOf(player) {
  // one column for most sheets; poker-fences has three (I free, II announced, III in order)
  return player.columns ? Object.entries(player.columns) : [["", player.cells]];
}

function renderSheet(view, game, ctx) {
  const players = game.summary.players;
  const current = currentIndex(game);
  const cells = Object.keys(columnsOf(players[0])[0][1]);
  const deviation = optionValue(ctx, "upper", "deviation") === "deviation";
  const perPlayer = columnsOf(players[0]).length;
  // a cell-name column of 6 rem and 2.4 rem a score column: when all do not fit, one sheet
  // at a time behind a row of player tabs
  const fits = 96 + players.length * perPlayer * 38 <= ctx.width;
  let shown = players.map((_, i) => i);
  let tabs = null;
  if (!fits) {
    const chosen = ctx.sheetPlayer ?? (current >= 0 ? current : 0);
    shown = [chosen];
    tabs = el(
      "div",
      { class: "tabs", role: "group", "aria-label": t("player") },
      players.map((player, p) =>
        el(
          "button",
          {
            type: "button",
            class: `tab${p === current ? " current" : ""}`,
            id: `sheet-of-${p}`,
            "aria-pressed": p === chosen ? "true" : "false",
            onclick: () => ctx.showPlayer(p),
          },
          el("span", { class: "name", text: ctx.name(player.name) }),
          el("strong", { text: number(player.score) }),
          bubbleOf(ctx, player.name, ""),
        ),
      ),
    );
  }
  // one header cell a player (its name whole, wrapping rather than cut: two bots must not look
  // alike), and under it the numerals of the columns of a three-column sheet («ограды»)
  const multi = perPlayer > 1;
  const headRow = el("tr", {}, el("th", { scope: "col", class: "cellname", rowspan: multi ? 2 : null, text: w("sheet.cell") }));
  const columnRow = multi ? el("tr", { class: "columns-row" }) : null;
  for (const p of shown) {
    const player = players[p];
    const name = ctx.name(player.name);
    headRow.append(
      el(
        "th",
        {
          scope: multi ? "colgroup" : "col",
          colspan: multi ? perPlayer : null,
          class: `player-head${p === current ? " current" : ""}`,
          "aria-current": p === current ? "true" : null,
        },
        el("span", { class: "who", text: name }),
        // under the name, over the first rows (the sheet keeps its height); with the tabs, the
        // player's tab shows it
        fits ? bubbleOf(ctx, player.name, "float below") : null,
      ),
    );
    if (multi) for (const [column] of columnsOf(player)) columnRow.append(el("th", { scope: "col", class: `col${p === current ? " current" : ""}`, text: column }));
  }
  const body = el("tbody");
  const rows = [...cells];
  rows.splice(cells.filter((c) => UPPER.includes(c)).length, 0, "@bonus");
  for (const cell of rows) {
    const row = el("tr", { class: cell === "@bonus" ? "bonus-row" : null }, el("th", { scope: "row", class: "cellname", text: cell === "@bonus" ? t("upperBonus") : cellName(cell) }));
    for (const p of shown) {
      const player = players[p];
      const columns = columnsOf(player);
      const active = columns.findIndex(([, values]) => Object.values(values).some((v) => v === null));
      columns.forEach(([, values], c) => {
        if (cell === "@bonus") {
          const bonus = (player.upper_bonus || [])[c];
          row.append(el("td", { class: "bonus", text: bonus === null || bonus === undefined ? "" : number(bonus) }));
          return;
        }
        const value = values[cell];
        const td = el("td");
        if (value !== null && value !== undefined) {
          td.textContent = shown_(value, cell, deviation);
        } else if (p === current && c === active && cell in (game.gains || {})) {
          const points = game.gains[cell];
          const label = t("recordCell", { cell: cellAccusative(cell), points: signed(points) });
          // the gain of each open cell, a button on one's own turn and a pencilled figure otherwise
          td.append(
            ctx.myTurn
              ? el("button", { type: "button", class: "cell", id: `cell-${cell}`, "aria-label": label, text: signed(points), onclick: () => ctx.act({ score: cell }) })
              : el("span", { class: "gain", text: signed(points) }),
          );
        }
        row.append(td);
      });
    }
    body.append(row);
  }
  const total = el("tr", { class: "total" }, el("th", { scope: "row", class: "cellname", text: t("total") }));
  for (const p of shown) total.append(el("td", { colspan: columnsOf(players[p]).length, text: number(players[p].score) }));
  body.append(total);
  const caption = el("caption", { class: "sr-only", text: view.variant });
  if (players.some((player) => "banked" in player)) {
    // «ограды»: the throws each player has banked, to spend past the third
    const banked = el("tr", { class: "banked-row" }, el("th", { scope: "row", class: "cellname", text: w("sheet.banked") }));
    for (const p of shown) banked.append(el("td", { colspan: columnsOf(players[p]).length, text: String(players[p].banked ?? 0) }));
    body.append(banked);
  }
  return el(
    "div",
    { class: "card board sheet-board", id: "board" },
    tabs,
    el("table", { class: "sheet" }, caption, el("thead", {}, headRow, columnRow), body),
    sheetLegend(players, ctx, deviation),
  );
}

/** What the marks and the order of the sheet mean: ✓, the dash, which section comes first, the
 * columns of a three-column sheet and «ограды» (from this table's options, once they have come). */
function sheetLegend(players, ctx, deviation) {
  const items = [];
  if (deviation) items.push(t("legendMade"));
  items.push(t("legendDash"));
  if (optionValue(ctx, "stages", "free") === "sequential") items.push(t("legendUpperFirst"));
  const kinds = { I: "free", II: "announced", III: "ordered" };
  const columns = columnsOf(players[0]).map(([column]) => column).filter(Boolean);
  for (const column of columns) items.push(w(`sheet.column_${kinds[column] || "free"}`, { column }));
  if (players.some((player) => "banked" in player)) items.push(t("legendBanked"));
  return el("ul", { class: "legend sheet-legend", id: "sheet-legend" }, items.map((text) => el("li", { text })));
}

function shown_(value, cell, deviation) {
  if (value === 0 && UPPER.includes(cell) && deviation) return "✓"; // exactly three: «фигура выполнена»
  if (value === 0 && !UPPER.includes(cell)) return "—"; // a dash, «прочерк»
  return number(value);
}

// -- «Тысяча»: one lane a player on a track to the target ---------------------------

function icon(kind) {
  const shapes = {
    // «болт»: a bolt's hexagonal head and its shaft
    bolt: [svg("polygon", { points: "4,2 12,2 16,8 12,14 4,14 0,8", class: "fill" }), svg("rect", { x: 6, y: 14, width: 4, height: 9, class: "fill" })],
    // a fall from the barrel: an arrow down
    fall: [svg("path", { d: "M8 1 V17 M2 11 L8 18 L14 11", class: "stroke" })],
    // «точка»
    dot: [svg("circle", { cx: 8, cy: 12, r: 5, class: "fill" })],
  };
  return svg("svg", { viewBox: "0 0 16 24", class: `icon ${kind}`, "aria-hidden": "true", focusable: "false" }, shapes[kind]);
}

function marks(kind, n, label) {
  if (!n) return null;
  // a few marks are counted at a glance; more than four become a number
  const shown = n > 4 ? [icon(kind), el("span", { text: `×${n}` })] : Array.from({ length: n }, () => icon(kind));
  return el("span", { class: `marks ${kind}s`, title: label }, el("span", { class: "sr-only", text: label }), ...shown);
}

function renderTrack(view, game, ctx) {
  const players = game.summary.players;
  const current = currentIndex(game);
  const target = optionValue(ctx, "target", 1000);
  const pits = optionValue(ctx, "pits", []);
  const barrel = optionValue(ctx, "barrel", "none");
  const barrelAt = optionValue(ctx, "barrel_at", target);
  const attempts = optionValue(ctx, "barrel_attempts", 3);
  const dump = optionValue(ctx, "dump_at", null);
  const low = Math.min(0, ...players.map((p) => p.score));
  const span = Math.max(1, target - low);
  const x = (score) => `${(100 * (Math.min(Math.max(score, low), target) - low)) / span}%`;
  const zone = (from, to, kind) => el("span", { class: `zone ${kind}`, style: { left: x(from), width: `${(100 * (Math.min(to, target) - Math.max(from, low))) / span}%` } });
  const ground = () => {
    const parts = pits.map(([a, b]) => zone(a, b, "pit"));
    if (barrel === "points" || barrel === "capped") parts.push(zone(barrelAt, target, "barrel"));
    if (dump !== null && dump !== undefined && dump > low && dump < target) parts.push(el("span", { class: "tick dump", style: { left: x(dump) } }));
    return parts;
  };
  const list = el("ol", { class: "lanes" });
  players.forEach((player, p) => {
    const isCurrent = p === current;
    const name = ctx.name(player.name);
    const status = !player.opened
      ? t("notOpened")
      : player.on_barrel
        ? barrel === "points"
          ? t("onBarrel", { n: Math.min(player.barrel_attempts + 1, attempts), of: attempts })
          : t("onBarrelOpen")
        : pits.some(([a, b]) => a <= player.score && player.score < b)
          ? t("inPit")
          : null;
    list.append(
      el(
        "li",
        { class: `lane p${p % 6}${isCurrent ? " current" : ""}`, "aria-current": isCurrent ? "true" : null },
        el(
          "div",
          { class: "lane-head" },
          el("span", { class: "badge", text: String(p + 1), "aria-hidden": "true" }),
          el("span", { class: "name", text: name }),
          status ? el("span", { class: "chip", text: status }) : null,
          marks("bolt", player.bolts, t("bolts", { n: player.bolts })),
          marks("fall", player.falls, t("falls", { n: player.falls })),
          marks("dot", player.dots, t("dots", { n: player.dots })),
          el("strong", { class: "score", text: number(player.score) }),
        ),
        el("div", { class: "track", "aria-hidden": "true" }, ground(), el("span", { class: "marker", style: { left: x(player.score) } })),
        bubbleOf(ctx, player.name, "float above"),
      ),
    );
  });
  const ticks = new Set([low, target]);
  for (const [a, b] of pits) ticks.add(a).add(b);
  if (barrel === "points" || barrel === "capped") ticks.add(barrelAt);
  const axis = el(
    "div",
    { class: "axis", "aria-hidden": "true" },
    [...ticks].filter((v) => v >= low && v <= target).map((v) => el("span", { style: { left: x(v) }, text: number(v) })),
  );
  const legend = [];
  if (pits.length) legend.push(w("board.legend_pits", { pits: pits.map(([a, b]) => `${a}–${b}`).join(", ") }));
  if (barrel === "points" || barrel === "capped") legend.push(w("board.legend_barrel", { at: barrelAt, target }));
  if (barrel === "open") legend.push(w("board.legend_open", { target }));
  // the marks of the lanes, each drawn and said in words: a bolt, a fall, a dot
  const bolts = optionValue(ctx, "bolt_limit", 0);
  const marksLegend = [];
  if (bolts || players.some((p) => p.bolts)) marksLegend.push(["bolt", t("legendBolt", { limit: bolts, n: optionValue(ctx, "bolt_penalty", 100) })]);
  if (barrel === "points" || barrel === "open" || players.some((p) => p.falls)) marksLegend.push(["fall", t("legendFall", { n: optionValue(ctx, "fall_penalty", 100) })]);
  if (barrel === "open" || players.some((p) => p.dots)) marksLegend.push(["dot", t("legendDot", { n: optionValue(ctx, "dots_limit", 6) })]);
  return el(
    "div",
    { class: "card board thousand-board", id: "board" },
    el("h3", { text: t("track", { target }) }),
    list,
    axis,
    legend.length ? el("p", { class: "muted legend", text: legend.join(" · ") }) : null,
    marksLegend.length
      ? el("ul", { class: "legend marks-legend", id: "marks-legend" }, marksLegend.map(([kind, text]) => el("li", { class: `${kind}s` }, el("span", { class: `marks ${kind}s` }, icon(kind)), el("span", { text }))))
      : null,
  );
}

// -- showdown: each hand named, with the bank ------------------------------------------

function renderShowdown(view, game, ctx) {
  const summary = game.summary;
  const current = currentIndex(game);
  const head = [];
  if (summary.round !== undefined) head.push(t("round", { round: summary.round, rounds: summary.rounds }));
  if (summary.bank !== undefined) head.push(t("bank", { bank: summary.bank }));
  const list = el("ol", { class: "hands" });
  summary.players.forEach((player, p) => {
    const isCurrent = p === current;
    const dice = player.hand_dice || [];
    list.append(
      el(
        "li",
        { class: `hand-row p${p % 6}${isCurrent ? " current" : ""}`, "aria-current": isCurrent ? "true" : null },
        el("span", { class: "badge", text: String(p + 1), "aria-hidden": "true" }),
        el("span", { class: "name", text: ctx.name(player.name) }),
        el(
          "span",
          { class: "hand" },
          player.hand
            ? [el("span", { class: "mini-dice", "aria-hidden": "true" }, dice.map((f) => el("span", { class: "mini" }, dieFace(f, ctx.rank(f))))), el("span", { class: "hand-name", text: handName(player.hand) })]
            : el("span", { class: "muted", text: !player.playing && !summary.finished ? t("sitsOut") : isCurrent ? w("showdown.throwing") : w("showdown.waiting") }),
        ),
        el("strong", { class: "score", text: signed(player.score) }),
        bubbleOf(ctx, player.name, "float above"),
      ),
    );
  });
  const last = summary.last_round;
  return el(
    "div",
    { class: "card board showdown-board", id: "board" },
    el("h3", { text: head.join(" · ") }),
    list,
    last ? el("p", { class: "muted", text: w("showdown.last_round", { round: last.round, name: ctx.name(last.winner), bank: last.bank }) }) : null,
  );
}
