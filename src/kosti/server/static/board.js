// The board: the score sheet of poker-* games, or the players' table of «Тысяча» and showdown.
// It shows the engine's own summary (what `kosti replay --json` prints) and nothing else.

import { el, faceText } from "./dom.js";
import { cellName, handName, t } from "./i18n.js";

const UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"];

/** The board of `game` (a state's `game` object); `ctx` = {act, myTurn, rules}. */
export function renderBoard(view, game, ctx) {
  const players = (game.summary && game.summary.players) || [];
  if (players.length && ("cells" in players[0] || "columns" in players[0])) return renderSheet(view, game, ctx);
  return renderPlayers(view, game);
}

function columnsOf(player) {
  // one column for most sheets; poker-fences has three (I free, II announced, III in order)
  return player.columns ? Object.entries(player.columns) : [["", player.cells]];
}

function renderSheet(view, game, ctx) {
  const players = game.summary.players;
  const cells = Object.keys(columnsOf(players[0])[0][1]);
  const deviation = ctx.rules && ctx.rules.options.upper && ctx.rules.options.upper.value === "deviation";
  const headRow = el("tr", {}, el("th", { scope: "col", text: t("player") }));
  players.forEach((player, p) => {
    for (const [column] of columnsOf(player)) {
      headRow.append(
        el("th", {
          scope: "col",
          class: p === currentIndex(game) ? "current" : null,
          "aria-current": p === currentIndex(game) ? "true" : null,
          text: column ? `${player.name} ${column}` : player.name,
        }),
      );
    }
  });
  const body = el("tbody");
  const current = currentIndex(game);
  const rows = [...cells];
  rows.splice(cells.filter((c) => UPPER.includes(c)).length, 0, "@bonus");
  for (const cell of rows) {
    const row = el("tr", {}, el("th", { scope: "row", text: cell === "@bonus" ? t("upperBonus") : cellName(cell) }));
    players.forEach((player, p) => {
      const columns = columnsOf(player);
      const active = columns.findIndex(([, values]) => Object.values(values).some((v) => v === null));
      columns.forEach(([, values], c) => {
        if (cell === "@bonus") {
          const bonus = (player.upper_bonus || [])[c];
          row.append(el("td", { class: "bonus", text: bonus === null || bonus === undefined ? "" : String(bonus) }));
          return;
        }
        const value = values[cell];
        const td = el("td");
        if (value !== null && value !== undefined) {
          td.textContent = shown(value, cell, deviation);
        } else if (ctx.myTurn && p === current && c === active && cell in (game.gains || {})) {
          const points = game.gains[cell];
          td.append(
            el("button", {
              type: "button",
              class: "cell",
              id: `cell-${cell}`,
              "aria-label": t("recordCell", { cell: cellName(cell), points }),
              text: points > 0 ? `+${points}` : String(points),
              onclick: () => ctx.act({ score: cell }),
            }),
          );
        }
        row.append(td);
      });
    });
    body.append(row);
  }
  const total = el("tr", { class: "total" }, el("th", { scope: "row", text: t("total") }));
  players.forEach((player) => {
    total.append(el("td", { colspan: columnsOf(player).length, text: String(player.score) }));
  });
  body.append(total);
  const caption = el("caption", { class: "sr-only", text: view.variant });
  return el("div", { class: "card scroll board" }, el("table", { class: "sheet" }, caption, el("thead", {}, headRow), body));
}

function shown(value, cell, deviation) {
  if (value === 0 && UPPER.includes(cell) && deviation) return "✓"; // exactly three: «фигура выполнена»
  if (value === 0 && !UPPER.includes(cell)) return "—"; // a dash, «прочерк»
  return String(value);
}

function currentIndex(game) {
  return game.finished ? -1 : game.players.indexOf(game.player);
}

const COLUMNS = ["opened", "bolts", "on_barrel", "barrel_attempts", "falls", "dots", "banked"];

function renderPlayers(view, game) {
  const players = game.summary.players || [];
  const cards = view.options && view.options.faces === "cards";
  const present = COLUMNS.filter((key) => players.some((p) => key in p));
  const hands = players.some((p) => "hand" in p);
  const head = el("tr", {}, el("th", { scope: "col", text: t("player") }), el("th", { scope: "col", text: view.family === "showdown" ? t("net") : t("score") }));
  for (const key of present) head.append(el("th", { scope: "col", text: t(key) }));
  if (hands) head.append(el("th", { scope: "col", text: t("hand") }));
  const body = el("tbody");
  players.forEach((player, p) => {
    const isCurrent = p === currentIndex(game);
    const row = el(
      "tr",
      { class: isCurrent ? "current" : null, "aria-current": isCurrent ? "true" : null },
      el("th", { scope: "row", text: player.name }),
      el("td", { text: String(player.score) }),
    );
    for (const key of present) row.append(el("td", { text: cellText(player[key]) }));
    if (hands) {
      const dice = (player.hand_dice || []).map((f) => faceText(f, cards)).join(" ");
      row.append(el("td", { text: player.hand ? `${handName(player.hand)}${dice ? ` (${dice})` : ""}` : "" }));
    }
    body.append(row);
  });
  return el("div", { class: "card scroll board" }, el("table", { class: "players" }, el("thead", {}, head), body));
}

function cellText(value) {
  if (value === true) return t("yes");
  if (value === false) return t("no");
  if (value === null || value === undefined) return "";
  return String(value);
}
