// The scorekeeper: a table with real dice, where the players tap in the faces thrown.
// The pad takes the faces one tap at a time; undo takes back the last move and any past
// throw can be changed, after which the server replays the game from its record and
// refuses (changing nothing) when the later moves no longer fit.

import { dieFace, el } from "./dom.js";
import { t } from "./i18n.js";

/** How many dice the next throw has, as the turn view says: those due; at a decision, those the
 * throw key throws (with a hold, the dice on the table not held). */
function expected(ctx) {
  const { turn, held } = ctx;
  if (turn.to_throw) return turn.to_throw;
  // a hold is the throw's own decision: the dice not held are thrown
  if (turn.pick === "hold" && turn.open.some((d) => typeof d === "object" && "hold" in d)) return turn.dice.length - held.length;
  return turn.throw.refusal ? 0 : turn.throw.throws;
}

function pad(ctx, count, onDone, doneLabel, doneId) {
  const { entry } = ctx;
  const faces = entry.faces;
  const full = faces.length >= count;
  const keys = el(
    "div",
    { class: "pad", role: "group", "aria-label": t("scorekeeperHelp", { n: count }) },
    [1, 2, 3, 4, 5, 6].map((face) =>
      el(
        "button",
        {
          type: "button",
          class: "pad-face",
          id: `pad-${face}`,
          "aria-label": t("faceButton", { face: ctx.rank(face) ?? face }),
          disabled: full,
          onclick: () => {
            entry.faces.push(face);
            ctx.rerender();
          },
        },
        dieFace(face, ctx.rank(face)),
      ),
    ),
  );
  const shown = el(
    "div",
    { class: "entered", id: "entered", "aria-live": "polite", "aria-label": t("entered", { dice: ctx.diceText(faces) }) },
    Array.from({ length: count }, (_, i) => (i < faces.length ? el("span", { class: "mini" }, dieFace(faces[i], ctx.rank(faces[i]))) : el("span", { class: "mini slot" }))),
  );
  const tools = el(
    "div",
    { class: "controls" },
    el("button", {
      type: "button",
      id: "pad-back",
      "aria-label": t("backspace"),
      text: "⌫",
      disabled: !faces.length,
      onclick: () => {
        entry.faces.pop();
        ctx.rerender();
      },
    }),
    el("button", {
      type: "button",
      class: "primary",
      id: doneId,
      disabled: faces.length !== count,
      text: doneLabel,
      onclick: () => {
        const done = [...faces];
        entry.faces = [];
        onDone(done);
      },
    }),
  );
  return [el("p", { class: "muted", text: t("scorekeeperHelp", { n: count }) }), shown, keys, tools];
}

/** The pad for the throw due (or for the past throw being changed), undo, and the throws so far. */
export function renderKeeper(ctx) {
  const { game, entry } = ctx;
  const box = el("div", { class: "card keeper", id: "keeper" });
  const editing = entry.edit === null ? null : (game.throws || []).find((th) => th.n === entry.edit);
  if (editing) {
    box.append(
      el("h3", { text: t("editing", { n: editing.n, name: ctx.displayName(editing.player), dice: ctx.diceText(editing.faces) }) }),
      ...pad(ctx, editing.faces.length, (faces) => {
        entry.edit = null;
        ctx.send({ type: "edit", token: ctx.token, throw: editing.n, faces });
      }, t("recordThrow"), "save-edit"),
      el("button", {
        type: "button",
        id: "cancel-edit",
        text: t("cancel"),
        onclick: () => {
          entry.edit = null;
          entry.faces = [];
          ctx.rerender();
        },
      }),
    );
  } else if (ctx.myTurn) {
    const count = expected(ctx);
    if (count) {
      box.append(
        ...pad(ctx, count, (faces) => {
          // the dice kept and the throw of the others go as one move
          const held = ctx.held;
          ctx.act(held.length && ctx.turn.pick === "hold" ? [{ hold: held }, { roll: faces }] : { roll: faces });
        }, t("recordThrow"), "record-throw"),
      );
    }
  }
  const throws = game.throws || [];
  const history = el(
    "ol",
    { class: "history", id: "history" },
    [...throws].reverse().slice(0, 12).map((th) =>
      el(
        "li",
        {},
        el("span", { text: t("historyLine", { n: th.n, name: ctx.displayName(th.player), dice: ctx.diceText(th.faces) }) }),
        el("button", {
          type: "button",
          class: "small",
          id: `edit-${th.n}`,
          text: t("editThrow"),
          onclick: () => {
            entry.edit = th.n;
            entry.faces = [];
            ctx.rerender();
          },
        }),
      ),
    ),
  );
  box.append(
    el("div", { class: "controls" }, el("button", { type: "button", id: "undo", disabled: !throws.length, text: `↶ ${t("undo")}`, onclick: () => ctx.send({ type: "undo", token: ctx.token }) })),
    throws.length ? el("details", { class: "throws", id: "throws" }, el("summary", { text: t("history") }), history) : null,
  );
  return box;
}
