// The play aid's page: draws the game the server sends and sends each step back.
// Every rule lives on the server (the engine's own); this file only shows and asks.
"use strict";

let game = null;
const officerNear = {}; // unit id -> the officer the player says stands near it ("" none)
const ownDice = {}; // unit id -> true when the players roll its test themselves

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const pct = (p) => `${(100 * p).toFixed(1)}%`;

async function send(path, body) {
  const options = body === undefined
    ? { method: path === "/api/state" ? "GET" : "POST" }
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let answer;
  try {
    const response = await fetch(path, options);
    answer = await response.json();
    if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  } catch (problem) {
    showError(problem.message || String(problem));
    return;
  }
  showError(null);
  game = answer;
  draw();
}

function showError(text) {
  const box = document.getElementById("error");
  box.hidden = !text;
  box.textContent = text || "";
}

function draw() {
  document.getElementById("title").textContent = `kriegsspiel play aid — ${game.title}`;
  document.getElementById("turn").textContent = game.phase === "over"
    ? `Game over after turn ${game.turn}`
    : `Turn ${game.turn} of ${game.turns}`;
  document.getElementById("undo").disabled = !game.can_undo;
  drawBag();
  drawTurnEnd();
  const sides = document.getElementById("sides");
  sides.replaceChildren(...[0, 1].map(drawSide));
  document.getElementById("log").replaceChildren(
    ...game.log.slice().reverse().map((line) => el("li", {}, line)));
}

function drawBag() {
  const bag = document.getElementById("bag");
  const parts = [0, 1].map((side) => {
    const chance = game.chances.find((c) => c.side === side);
    return el("div", { class: `side${side}`, "data-testid": `bag-side${side}` },
      el("div", {}, el("strong", {}, game.armies[side]), `: ${game.in_bag[side]} in the bag`,
        chance ? ` (next die ${pct(chance.p)})` : ""),
      el("div", { class: "dice" },
        Array.from({ length: game.in_bag[side] }, () => el("span", { class: "die" }))));
  });
  let action;
  if (game.in_hand !== null) {
    action = el("div", { class: `in-hand side${game.in_hand}`, "data-testid": "in-hand" },
      `Die in hand: ${game.armies[game.in_hand]} — give it to one of its units`);
  } else {
    action = el("button", {
      class: "primary", "data-testid": "draw", disabled: game.phase !== "orders",
      onclick: () => send("/api/draw"),
    }, "Draw a die");
  }
  const note = el("div", { class: "note" },
    `A destroyed unit's die leaves the bag ${game.destroyed_dice_leave}.`);
  bag.replaceChildren(action, ...parts, note);
}

function drawTurnEnd() {
  const box = document.getElementById("turn-end");
  box.hidden = game.phase !== "turn end";
  if (box.hidden) return;
  const keepers = game.may_keep.map((uid) => game.units[uid]);
  const boxes = keepers.map((u) => el("label", { class: "row" },
    el("input", { type: "checkbox", value: u.uid, "data-testid": `keep-${u.uid}` }),
    `${u.name} keeps its ${u.order} die`));
  box.replaceChildren(
    el("h2", {}, `End of turn ${game.turn}`),
    keepers.length ? el("p", {}, "Units on Down or Ambush may keep their die for the next turn:")
      : el("p", {}, "Every unit has had its order."),
    ...boxes,
    el("button", {
      class: "primary", "data-testid": "end-turn",
      onclick: () => send("/api/end-turn", {
        keep: [...box.querySelectorAll("input:checked")].map((i) => Number(i.value)),
      }),
    }, game.turn >= game.turns ? "End the game" : "End the turn"));
}

function drawSide(side) {
  const units = game.units.filter((u) => u.side === side);
  return el("section", { class: `side side${side}`, "data-testid": `side${side}` },
    el("h2", {}, `${game.armies[side]} — units destroyed ${game.destroyed[side]}`),
    units.map(drawUnit));
}

function drawUnit(u) {
  const active = u.waiting && game.in_hand === u.side;
  const card = el("article", {
    class: `unit${u.waiting ? " waiting" : ""}${active ? " active" : ""}${u.destroyed ? " destroyed" : ""}`,
    "data-testid": `unit-${u.uid}`,
  });
  let state;
  if (u.destroyed) state = el("span", { class: "badge" }, "destroyed");
  else if (u.order) state = el("span", { class: "badge order", "data-testid": `order-${u.uid}` }, u.order);
  else if (u.retained) state = el("span", { class: "badge order", "data-testid": `order-${u.uid}` }, `${u.retained} (kept)`);
  else state = el("span", { class: "badge" }, "die in the bag");
  card.append(el("div", { class: "head" },
    el("span", { class: "name" }, u.name), state));
  card.append(el("div", { class: "row" },
    `${u.quality} ${u.kind}, ${u.points} pts${u.officer ? `, ${u.officer}` : ""}`));
  if (u.destroyed) return card;
  card.append(counter(u, "models", `Models`, u.models, `of ${u.start_models}`, "/api/models"));
  card.append(counter(u, "pins", `Pins`, u.pins,
    u.removed_at_pins ? `(removed at ${u.removed_at_pins})` : "", "/api/pins"));
  const officers = game.officers[u.side];
  const near = officerNear[u.uid] ?? "";
  if (officers.length) {
    const pick = el("select", {
      "data-testid": `officer-${u.uid}`,
      onchange: (e) => { officerNear[u.uid] = e.target.value; draw(); },
    }, el("option", { value: "" }, "no other officer"),
    officers.map((rank) => el("option", { value: rank, selected: rank === near }, rank)));
    card.append(el("div", { class: "row" }, el("span", { class: "label" }, "Near"), pick));
  }
  const odds = u.odds[near] || u.odds[""];
  card.append(oddsLine("Order test", odds.order_test, u.uid, "order-odds",
    [["pass", "p_pass"], ["Down", "p_fail"], ["FUBAR", "p_fubar"]]));
  card.append(oddsLine("Morale check", odds.morale_check, u.uid, "morale-odds",
    [["pass", "p_pass"], ["fail", "p_fail"]]));
  if (active) card.append(orderButtons(u, near));
  card.append(outOfTurn(u));
  return card;
}

function counter(u, what, label, value, after, path) {
  const set = (n) => send(path, { unit: u.uid, [what]: n });
  return el("div", { class: "row" },
    el("span", { class: "label" }, label),
    el("button", { "data-testid": `${what}-down-${u.uid}`, onclick: () => set(value - 1), disabled: value <= 0 }, "−"),
    el("strong", { "data-testid": `${what}-${u.uid}` }, value),
    el("button", { "data-testid": `${what}-up-${u.uid}`, onclick: () => set(value + 1) }, "+"),
    after);
}

function oddsLine(title, report, uid, id, parts) {
  const needs = report.reasoning.find((r) => r.topic === "needs");
  const shown = report.test_needed === false
    ? "not needed: the unit has no pins"
    : parts.filter(([, key]) => key in report)
      .map(([word, key]) => `${word} ${pct(report[key])}`).join(" · ");
  return el("div", { class: "odds", "data-testid": `${id}-${uid}` },
    el("strong", {}, `${title}: `),
    needs ? `${needs.result} — ` : "", shown, " ",
    el("details", {}, el("summary", {}, "why"),
      el("ul", {}, report.reasoning.map((r) =>
        el("li", {}, `${r.topic}: ${r.result}${r.because ? ` (${r.because})` : ""}`)))));
}

function orderButtons(u, near) {
  const own = ownDice[u.uid] || false;
  const box = el("div", { class: "orders" });
  const toggle = el("label", { class: "row" },
    el("input", {
      type: "checkbox", checked: own, "data-testid": `own-dice-${u.uid}`,
      onchange: (e) => { ownDice[u.uid] = e.target.checked; draw(); },
    }), "We roll the dice ourselves");
  box.append(toggle);
  const needsTest = (u.odds[near] || u.odds[""]).order_test.test_needed;
  for (const order of game.orders) {
    if (!own) {
      box.append(el("button", {
        "data-testid": `give-${order}-${u.uid}`,
        onclick: () => send("/api/order", { unit: u.uid, order, officer: near || null }),
      }, order));
      continue;
    }
    const outcomes = needsTest ? [["pass", "passed"], ["fail", "failed"],
      ["friendly fire", "FUBAR: friendly fire"], ["panic", "FUBAR: panic"]] : [["pass", "no test"]];
    const pick = el("select", { "data-testid": `outcome-${order}-${u.uid}` },
      outcomes.map(([value, text]) => el("option", { value }, text)));
    const rally = order === "Rally"
      ? el("input", { type: "number", min: 1, max: 6, value: 1, title: "the D6 rolled: pins lost",
        "data-testid": `rally-d6-${u.uid}` }) : null;
    box.append(el("div", { class: "row" },
      el("button", {
        "data-testid": `give-${order}-${u.uid}`,
        onclick: () => send("/api/order", {
          unit: u.uid, order, roll: false, outcome: pick.value, officer: near || null,
          pins_lost: rally ? Number(rally.value) : null,
        }),
      }, order), pick, rally));
  }
  return box;
}

function outOfTurn(u) {
  const row = el("div", { class: "row" });
  if (u.fubar && u.order !== "Down") {
    const why = u.fubar === "friendly fire" ? "no friend to fire on" : "cannot run away";
    row.append(el("button", {
      "data-testid": `fubar-down-${u.uid}`,
      onclick: () => send("/api/fubar-down", { unit: u.uid }),
    }, `FUBAR ${u.fubar}: ${why}, Down`));
  }
  if (u.waiting && game.reactions.length) {
    row.append(el("span", { class: "label" }, "Reacts"));
    for (const face of game.reactions) {
      row.append(el("button", {
        "data-testid": `react-${face}-${u.uid}`,
        onclick: () => send("/api/take-die", { unit: u.uid, face, why: "reaction" }),
      }, face));
    }
  }
  if (u.waiting && u.kind === "vehicle") {
    row.append(el("button", {
      "data-testid": `damage-down-${u.uid}`,
      onclick: () => send("/api/take-die", { unit: u.uid, face: "Down", why: "damage" }),
    }, "Down by damage"));
  }
  row.append(el("button", {
    "data-testid": `destroy-${u.uid}`,
    onclick: () => { if (confirm(`Remove ${u.name} from play?`)) send("/api/destroy", { unit: u.uid }); },
  }, "Destroyed"));
  return row;
}

document.getElementById("undo").addEventListener("click", () => send("/api/undo"));
document.getElementById("new-game").addEventListener("click", () => {
  if (confirm("Start the same armies from turn 1? (Undo takes you back.)")) send("/api/new-game");
});
send("/api/state");
