// The play aid's page: draws the game the server sends and sends each step back.
// Every rule lives on the server (the engine's own); this file only shows and asks.
"use strict";

let game = null;
// the officer the players say stands near a unit ("" none), as the game keeps it (saved,
// and seen on every device)
const nearOf = (uid) => game.units[Number(uid)].near || "";

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

// a chance as every odds printer shows it (kriegsspiel.core.per_cent.chance_shown): to one
// decimal, but one short of certain (or above nothing) is never rounded to it: within 0.05%
// of it with three places ("0.012%"), and past those "<0.001%", ">99.999%"
const pct = (p) => {
  const v = 100 * p;
  if (v > 0 && v < 0.05) return v >= 0.0005 ? `${v.toFixed(3)}%` : "<0.001%";
  if (v < 100 && v >= 99.95) return v < 99.9995 ? `${v.toFixed(3)}%` : ">99.999%";
  return `${v.toFixed(1)}%`;
};

// A play aid served with --password takes steps only with it: asked once, then kept for
// this tab (a wrong one is asked again at the next step).
const PASSWORD_KEY = "kriegsspiel-aid-password";

let answered = 0; // answers this page has taken (one that comes after a follow() asked is newer)

async function send(path, body, asked = false) {
  const headers = body === undefined ? {} : { "Content-Type": "application/json" };
  const password = sessionStorage.getItem(PASSWORD_KEY);
  if (password !== null) headers["X-Aid-Password"] = password;
  const options = body === undefined
    ? { method: path === "/api/state" ? "GET" : "POST", headers }
    : { method: "POST", headers, body: JSON.stringify(body) };
  let answer;
  try {
    const response = await fetch(path, options);
    answer = await response.json();
    if (response.status === 401 && !asked) {
      const given = window.prompt("This play aid asks for its password to take a step:");
      if (given !== null) {
        sessionStorage.setItem(PASSWORD_KEY, given);
        return send(path, body, true);
      }
    }
    if (response.status === 401) sessionStorage.removeItem(PASSWORD_KEY);
    if (!response.ok) throw new Error(inWords(answer.error) || `the server answered ${response.status}`);
  } catch (problem) {
    showError(problem.message || String(problem));
    follow(); // (refused, perhaps as another device moved the game on: catch up with it)
    return false;
  }
  showError(null);
  answered++;
  game = answer;
  draw();
  return true;
}

// Each page follows the game as other devices move it on: it asks every few seconds
// whether the game is still the version it has (a 304 while it is), and draws it anew if
// not; not while a number is being typed (it would be lost), nor while the tab is hidden.
const FOLLOW_EVERY_MS = 2000;
let following = false;

async function follow() {
  if (!game || following) return;
  following = true;
  const since = answered;
  try {
    const response = await fetch("/api/state", {
      cache: "no-store", headers: { "If-None-Match": `"${game.version}"` } });
    if (response.status !== 200) return;
    const answer = await response.json();
    if (answer.version === game.version || answered !== since) return;
    game = answer;
    draw();
  } catch (problem) {
    // (the server is stopped or out of reach: asked again at the next beat)
  } finally {
    following = false;
  }
}

function typing() {
  const now = document.activeElement;
  return now && now.tagName === "INPUT" && now.type !== "checkbox";
}

setInterval(() => { if (!document.hidden && !typing()) follow(); }, FOLLOW_EVERY_MS);

// A refused step's reason shows at the foot of the screen, over whatever the player is
// looking at (the step may be taken far down the page), until the next step or "×".
// A request the server found malformed names the API's field ("range: Input should be
// ..."): the page says it by the name of its own box.
const FIELD_NAMES = { range: "Range", from_inches: "From", left: "Fought: models left",
  casualties: "Rolled: casualties", pins: "Pins", models: "Models", pins_lost: "Rally: the D6" };

function inWords(text) {
  if (!text) return text;
  return text.split("; ").map((part) => part.replace(/^([a-z_]+)(?:\.(\d+)\.([a-z_]+))?: /,
    (all, field, row, key) => {
      if (field === "weapons" && row !== undefined) {
        const name = shot.weapons?.[Number(row)]?.name || "a weapon";
        return key === "count" ? `the count of ${name}: ` : `Weapons: `;
      }
      return FIELD_NAMES[field] ? `${FIELD_NAMES[field]}: ` : all;
    })).join("; ");
}

// A choice the server refuses is greyed, its reason as its title for a mouse; a touch
// screen has no tooltips, so a tap on it (or Enter) shows the reason where a refused
// step's shows, and sends nothing. (``why``: the server's reason, or null: it may.) Every
// greyed button of the page is offered so: none is greyed without its reason.
function offer(attrs, why, ...children) {
  return el("button", { ...attrs, title: why || attrs.title,
    "aria-disabled": why ? "true" : null, onclick: why ? () => showError(why) : attrs.onclick },
  ...children);
}

// The same for a button the page has from the start (Undo): its usual title kept aside.
function offerStill(button, why, onclick) {
  button.dataset.title ??= button.title;
  button.title = why || button.dataset.title;
  if (why) button.setAttribute("aria-disabled", "true");
  else button.removeAttribute("aria-disabled");
  button.onclick = why ? () => showError(why) : onclick;
}

function showError(text) {
  const box = document.getElementById("error");
  box.hidden = !text;
  document.getElementById("error-text").textContent = text ? sentence(text) : "";
}

// A refusal as the page shows it: a sentence, its full stop added where it has none (as
// the server's kriegsspiel.errors.sentence does; the page's own and the browser's too).
function sentence(text) {
  const told = String(text).trimEnd();
  return /[.?!:]$|\.[)\]'"’`]+$/.test(told) ? told : `${told}.`;
}

function draw() {
  document.getElementById("title").textContent = `kriegsspiel play aid — ${game.title}`
    + (game.rules_file ? ` (rules: ${game.rules_file})` : "");
  const over = game.phase === "over";
  document.getElementById("turn").textContent = over
    ? `${game.ended}: ${game.result}`
    : `Turn ${game.turn} of ${game.turns}`
      + (game.rolls_for_another ? ` (a ${game.extra_turn} on ${game.another_turn_on}+)` : "");
  document.body.classList.toggle("over", over);
  offerStill(document.getElementById("undo"), game.undo_refused, () => send("/api/undo"));
  drawBag();
  drawTurnEnd();
  const sides = document.getElementById("sides");
  sides.replaceChildren(...[0, 1].map(drawSide));
  drawOdds(); // (the units may have changed: the forms are drawn again, then asked again)
  askOdds();
  drawQuick();
  drawLog(wholeLog && wholeLog.version === game.version ? wholeLog.log : game.log);
}

// On a phone the units are screens away from the bag: the header stays at the top, with
// the way to the units of the die in hand, or to draw the next die.
function drawQuick() {
  const quick = document.getElementById("quick");
  if (game.in_hand !== null) {
    quick.replaceChildren(el("button", {
      class: `drawn side${game.in_hand}`, "data-testid": "jump-to-hand",
      onclick: () => { // (to just below the header, which stays over the page's top)
        const card = document.querySelector(".unit.active");
        const header = document.querySelector("header").offsetHeight;
        if (card) window.scrollTo({ top: card.getBoundingClientRect().top + window.scrollY - header - 8 });
      },
    }, `${game.armies[game.in_hand]}'s units ↓`));
  } else if (game.phase === "orders") {
    quick.replaceChildren(el("button", { "data-testid": "draw-quick",
      onclick: () => send("/api/draw") }, "Draw a die"));
  } else {
    quick.replaceChildren();
  }
}

// The game sends the newest lines of its log; "all of it" asks for the rest (and keeps
// showing them all until the game moves on past them).
let wholeLog = null;

function drawLog(lines) {
  const note = document.getElementById("log-note");
  const cut = lines.length < game.log_total;
  note.replaceChildren(...(cut ? [`The newest ${lines.length} of ${game.log_total} lines. `,
    el("button", { "data-testid": "log-all", onclick: async () => {
      const response = await fetch("/api/log", { cache: "no-store" });
      if (!response.ok) return;
      wholeLog = await response.json();
      drawLog(wholeLog.log.slice(0, game.log_total));
    } }, "Show all")] : []));
  const log = document.getElementById("log");
  log.setAttribute("start", String(game.log_total)); // (numbered from the first line)
  log.classList.toggle("whole", lines.length > game.log.length);
  log.replaceChildren(...lines.slice().reverse().map((line) => el("li", {}, line)));
}

function drawBag() {
  const bag = document.getElementById("bag");
  if (game.phase === "over") { // the result, where the bag was: no die is drawn now
    bag.replaceChildren(el("div", { class: "result", "data-testid": "result" },
      el("strong", {}, `${game.ended}: ${game.result}`),
      el("div", {}, `Units lost: ${game.armies[0]} ${game.lost[0]}, `
        + `${game.armies[1]} ${game.lost[1]}. Undo takes the last step back; `
        + "New game starts again.")));
    return;
  }
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
    // the aid draws, or the players say whose die came out of their own bag (a side the
    // server would refuse is greyed out, its reason in the button's title and on a tap)
    action = el("div", { class: "row" },
      offer({
        class: "primary", "data-testid": "draw", onclick: () => send("/api/draw"),
      }, game.bag_draw_refused, "Draw a die"),
      el("span", { class: "note" }, "or we drew:"),
      [0, 1].map((side) => offer({
        class: `drawn side${side}`, "data-testid": `drawn-${side}`,
        title: `A die of ${game.armies[side]} came out of our bag`,
        onclick: () => send("/api/draw", { side }),
      }, game.draw_refused[side], game.armies[side])));
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
  const kept = () => [...box.querySelectorAll("input:checked")].map((i) => Number(i.value));
  // the end of a last turn that rolls a D6 for one more: the aid rolls it, or the players say
  const extra = `a ${game.extra_turn} turn`;
  const ending = game.rolls_for_another
    ? [
      el("p", {}, `A D6 decides whether ${extra} is played: on ${game.another_turn_on}+ it is, else the game ends.`),
      el("div", { class: "row" },
        el("button", {
          class: "primary", "data-testid": "end-turn",
          onclick: () => send("/api/end-turn", { keep: kept() }),
        }, `Roll for ${extra}`),
        el("span", { class: "note" }, "or we rolled:"),
        [1, 2, 3, 4, 5, 6].map((n) => el("button", {
          "data-testid": `rolled-${n}`, title: `The players rolled ${n} for ${extra}`,
          onclick: () => send("/api/end-turn", { keep: kept(), roll: false, rolled: n }),
        }, String(n)))),
    ]
    : [el("button", {
      class: "primary", "data-testid": "end-turn",
      onclick: () => send("/api/end-turn", { keep: kept() }),
    }, game.turn >= game.turns ? "End the game" : "End the turn")];
  const may = game.rolls_for_another ? `for ${extra}, if one is played` : "for the next turn";
  box.replaceChildren(
    el("h2", {}, `End of turn ${game.turn}`),
    keepers.length ? el("p", {}, `Units on Down or Ambush may keep their die ${may}:`)
      : el("p", {}, "Every unit has had its order."),
    ...boxes,
    ...ending);
}

function drawSide(side) {
  const units = game.units.filter((u) => u.side === side);
  return el("section", { class: `side side${side}`, "data-testid": `side${side}` },
    el("h2", {}, `${game.armies[side]} — units lost ${game.lost[side]}`),
    units.map(drawUnit));
}

function drawUnit(u) {
  const active = u.waiting && game.in_hand === u.side;
  const card = el("article", {
    class: `unit${u.waiting ? " waiting" : ""}${active ? " active" : ""}${u.destroyed ? " destroyed" : ""}${u.checks_due.length ? " owes" : ""}`,
    "data-testid": `unit-${u.uid}`,
  });
  let state;
  if (u.destroyed) state = el("span", { class: "badge" }, "destroyed");
  else if (u.order) state = el("span", { class: "badge order", "data-testid": `order-${u.uid}` }, u.order);
  else if (u.retained) state = el("span", { class: "badge order", "data-testid": `order-${u.uid}` }, `${u.retained} (kept)`);
  else if (game.phase !== "over") state = el("span", { class: "badge" }, "die in the bag");
  card.append(el("div", { class: "head" },
    el("span", { class: "name" }, u.name), state,
    u.immobilised && !u.destroyed
      ? el("span", { class: "badge", "data-testid": `immobilised-${u.uid}` }, "immobilised") : null));
  card.append(el("div", { class: "row" },
    `${u.quality} ${u.kind}, ${u.points} pts${u.officer ? `, ${u.officer}` : ""}`));
  if (u.destroyed) return card;
  if (game.phase === "over") { // what it ended with; no step is taken now
    card.append(el("div", { class: "row" }, `Models ${u.models} of ${u.start_models}, `
      + `pins ${u.pins}`));
    return card;
  }
  card.append(counter(u, "models", `Models`, u.models, `of ${u.start_models}`, "/api/models",
    null, u.more_models_refused)); // (its last model lost destroys it: never refused)
  card.append(counter(u, "pins", `Pins`, u.pins,
    u.removed_at_pins ? `(removed at ${u.removed_at_pins})` : "", "/api/pins",
    u.fewer_pins_refused, u.more_pins_refused));
  const spent = oneShotTick(u, "its one-shot anti-tank weapons fired", `one-shot-fired-${u.uid}`);
  if (spent) card.append(spent);
  const officers = game.officers[u.side];
  const near = nearOf(u.uid);
  if (officers.length) {
    const pick = el("select", {
      "data-testid": `officer-${u.uid}`,
      onchange: (e) => send("/api/near", { unit: u.uid, officer: e.target.value || null }),
    }, el("option", { value: "" }, "no other officer"),
    officers.map((rank) => el("option", { value: rank, selected: rank === near }, rank)));
    card.append(el("div", { class: "row" }, el("span", { class: "label" }, "Near"), pick));
  }
  const odds = u.odds[near] || u.odds[""];
  card.append(oddsLine("Order test", odds.order_test, u.uid, "order-odds",
    [["pass", "p_pass"], ["Down", "p_fail"], ["FUBAR", "p_fubar"]]));
  card.append(oddsLine("Morale check", odds.morale_check, u.uid, "morale-odds",
    [["pass", "p_pass"], ["fail", "p_fail"]]));
  card.append(moraleButtons(u, near));
  if (active) card.append(orderButtons(u, near));
  card.append(outOfTurn(u));
  return card;
}

// A morale check when the rules call for one: the aid rolls it, or the players say how
// their roll went. A failed check destroys the unit. A check the aid knows is owed (a
// loss to half strength, a flamethrower's hit) is marked until it is taken; one it does
// not know of (the table calls for it) is asked first, and sent as such ("unowed"), so a
// stray second click cannot destroy the unit.
function moraleButtons(u, near) {
  const owed = u.checks_due.length > 0;
  const check = (body) => () => {
    if (!owed && !confirm(`${u.name} owes no morale check the aid knows of. `
      + "Take one called for at the table?")) return;
    send("/api/morale-check",
      { unit: u.uid, officer: near || null, ...body, ...(owed ? {} : { unowed: true }) });
  };
  const due = u.checks_due.length
    ? el("span", { class: "badge due", "data-testid": `check-due-${u.uid}` },
      `due: ${u.checks_due.join("; then ")}`)
    : null;
  return el("div", { class: "row" },
    el("span", { class: "label" }, "Check"), due,
    el("button", { "data-testid": `check-roll-${u.uid}`, onclick: check({}) }, "roll it"),
    "or we rolled: ",
    el("button", { "data-testid": `check-passed-${u.uid}`,
      onclick: check({ roll: false, passed: true }) }, "passed"),
    el("button", { "data-testid": `check-failed-${u.uid}`,
      onclick: check({ roll: false, passed: false }) }, "failed"));
}

// (``downRefused``, ``upRefused``: the server's reasons it takes no fewer, no more, which
// grey out "−" and "+": see offer)
function counter(u, what, label, value, after, path, downRefused = null, upRefused = null) {
  const set = (n) => {
    // pins at its morale value, or its last model lost, remove the unit: asked first, as
    // "Destroyed" is
    const removes = what === "pins" && u.removed_at_pins && n >= u.removed_at_pins;
    if (removes && !confirm(`${n} pins reach ${u.name}'s morale value: remove it from play?`)) return;
    const last = what === "models" && n === 0;
    if (last && !confirm(`${u.name} loses its last model: remove it from play?`)) return;
    send(path, { unit: u.uid, [what]: n });
  };
  return el("div", { class: "row" },
    el("span", { class: "label" }, label),
    offer({ "data-testid": `${what}-down-${u.uid}`, onclick: () => set(value - 1) }, downRefused, "−"),
    el("strong", { "data-testid": `${what}-${u.uid}` }, value),
    offer({ "data-testid": `${what}-up-${u.uid}`, onclick: () => set(value + 1) }, upRefused, "+"),
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
  const own = u.own_dice;
  const box = el("div", { class: "orders" });
  const toggle = el("label", { class: "row" },
    el("input", {
      type: "checkbox", checked: own, "data-testid": `own-dice-${u.uid}`,
      onchange: (e) => send("/api/own-dice", { unit: u.uid, own: e.target.checked }),
    }), "We roll the dice ourselves");
  box.append(toggle);
  const needsTest = (u.odds[near] || u.odds[""]).order_test.test_needed;
  // an order the server refuses this unit (an immobilised vehicle's Run) is greyed out,
  // the server's reason in its title, a tap away and, for a phone, under the buttons
  const refused = u.orders_refused;
  for (const order of game.orders) {
    const why = refused[order] || null;
    if (!own) {
      box.append(offer({
        "data-testid": `give-${order}-${u.uid}`,
        onclick: () => send("/api/order", { unit: u.uid, order, officer: near || null }),
      }, why, order));
      continue;
    }
    const tested = needsTest && !game.untested_orders.includes(order);
    const outcomes = tested ? [["pass", "passed"], ["fail", "failed"],
      ["friendly fire", "FUBAR: friendly fire"], ["panic", "FUBAR: panic"]] : [["pass", "no test"]];
    const pick = el("select", { "data-testid": `outcome-${order}-${u.uid}`, disabled: Boolean(why),
      title: why },
      outcomes.map(([value, text]) => el("option", { value }, text)));
    // a Rally passed loses the dice rolled in pins, the rules' (the sheets' D6; none
    // asked of a unit with no pins)
    const dice = game.rally;
    const rally = order === "Rally" && u.pins
      ? el("input", { type: "number", min: dice.least, max: dice.most, placeholder: dice.dice,
        title: `the ${dice.dice} rolled: the pins it loses`,
        "data-testid": `rally-d6-${u.uid}` }) : null;
    box.append(el("div", { class: "row" },
      offer({
        "data-testid": `give-${order}-${u.uid}`,
        onclick: () => {
          const d6 = rally ? rally.value.trim() : "";
          const got = Number(d6);
          if (rally && pick.value === "pass"
              && !(/^[0-9]+$/.test(d6) && got >= dice.least && got <= dice.most)) {
            showError(`Rally: give the ${dice.dice} rolled, ${dice.least} to ${dice.most} `
              + `(the pins ${u.name} loses)`
              + (d6 === "" ? "; the box is empty" : `, not ${d6}`));
            return;
          }
          send("/api/order", {
            unit: u.uid, order, roll: false, outcome: pick.value, officer: near || null,
            pins_lost: rally && pick.value === "pass" ? Number(d6) : null,
          });
        },
      }, why, order), pick, rally));
  }
  const reasons = Object.entries(refused);
  if (reasons.length) {
    box.append(el("div", { class: "note", "data-testid": `orders-refused-${u.uid}` },
      reasons.map(([order, why]) => el("div", {}, `${order}: ${why}`))));
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
  // only the reactions the game allows this unit (a tank has none, a recce vehicle escapes)
  if (u.waiting && u.reactions && u.reactions.length) {
    row.append(el("span", { class: "label" }, "Reacts"));
    // each says what it does ("Run (escape the assault)"), and what follows in its title
    for (const face of u.reactions) {
      const [what, then] = (u.reaction_words || {})[face] || [];
      row.append(el("button", {
        "data-testid": `react-${face}-${u.uid}`,
        title: what ? `${what}: ${then}` : face,
        onclick: () => send("/api/take-die", { unit: u.uid, face, why: "reaction" }),
      }, what ? `${face} (${what})` : face));
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

// ---------------------------------------------------------------- odds at the table
// What the players set in the two forms; what is left "" is read from the game.
// (target_down: null is as its die shows; ticked or unticked, as the players say: so they
// may weigh a Down reaction before they take its die)
const shot = { firer: "", target: "", range: "12", cover: "none", moving: "die", facing: "front",
  target_down: null, indirect: false, ranged_in: false, target_immobilised: false, weapons: null };
const fight = { attacker: "", defender: "", attacker_mode: "hand-to-hand",
  defender_mode: "hand-to-hand", vehicle_move: "die", from_inches: "", attacker_cover: "none",
  target_immobilised: false };
const answers = { shot: null, assault: null };
// what the dice did to the target, once rolled on the table (pins first, then losses)
const NOTHING_TAKEN = { casualties: 0, pins: 1, immobilised: false, halted: false, flamed: false };
const taken = { ...NOTHING_TAKEN };
const vehicleTaken = { ...NOTHING_TAKEN }; // the same for a vehicle assaulted
// how a close quarters fight ended, once fought on the table
const NOTHING_FOUGHT = { winner: "attacker", left: "" };
const fought = { ...NOTHING_FOUGHT };
const latest = { shot: 0, assault: 0 }; // an answer to an older question is dropped

// the chances' names as a player says them, where the report gives none in its labels
// (others: the report's key in words)
const CHANCE_NAMES = {
  p_hit: "at least one hit", p_order_test: "order test passed",
  p_knocked_out_if_assaulting: "knocked out if they go in",
  p_attacker_wins: "attackers win", p_defender_wins: "defenders win",
  p_both_destroyed: "both destroyed", p_assaulters_stopped: "assaulters stopped",
  p_destroyed_by_morale: "destroyed by its morale check",
};

function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
}

const live = () => game.units.filter((u) => !u.destroyed);
const unitOf = (uid) => (uid === "" ? null : game.units[Number(uid)]);

// ``refusedOf(unit)``: the server's reason the unit cannot take this part (a firer whose
// die shows Down), or null: a unit refused is offered greyed out, the reason its title;
// a touch screen shows no title (nor lets a greyed option be tapped), so the reasons are
// also under the list, folded away ("why greyed") until tapped. (One picked before it
// was refused: the answer under the form says why.)
const whyOpen = new Set(); // the lists whose reasons are unfolded (kept as forms redraw)

function unitPicker(label, value, units, id, change, refusedOf = () => null) {
  const greyed = [];
  const row = el("label", { class: "row" }, el("span", { class: "label" }, label),
    el("select", { "data-testid": id, onchange: (e) => change(e.target.value) },
      el("option", { value: "" }, "— pick a unit —"),
      [0, 1].map((side) => el("optgroup", { label: game.armies[side] },
        units.filter((u) => u.side === side).map((u) => {
          const why = refusedOf(u) || null;
          if (why) greyed.push(why);
          return el("option", { value: u.uid, selected: String(u.uid) === String(value),
            disabled: Boolean(why), title: why }, u.name);
        })))));
  if (!greyed.length) return row;
  return el("div", {}, row, el("details", { class: "why", "data-testid": `${id}-why`,
    open: whyOpen.has(id),
    ontoggle: (e) => { if (e.target.open) whyOpen.add(id); else whyOpen.delete(id); } },
  el("summary", {}, greyed.length === 1 ? "why one is greyed" : `why ${greyed.length} are greyed`),
  el("ul", {}, greyed.map((why) => el("li", {}, why)))));
}

function choice(label, value, options, id, change) {
  return el("label", { class: "row" }, el("span", { class: "label" }, label),
    el("select", { "data-testid": id, onchange: (e) => change(e.target.value) },
      options.map(([v, text]) => el("option", { value: v, selected: v === value }, text))));
}

function tick(label, value, id, change) {
  return el("label", { class: "row" }, el("input", {
    type: "checkbox", checked: value, "data-testid": id,
    onchange: (e) => change(e.target.checked),
  }), label);
}

function drawOdds() {
  const units = live();
  for (const [ask, keys] of [[shot, ["firer", "target"]], [fight, ["attacker", "defender"]]]) {
    for (const key of keys) if (ask[key] !== "" && unitOf(ask[key])?.destroyed) ask[key] = "";
  }
  const redo = (form) => () => { drawOdds(); askOdds(form); };
  // the shot
  const target = unitOf(shot.target);
  const shotForm = document.getElementById("shot-form");
  const setShot = (key, cast = (v) => v) => (v) => {
    shot[key] = cast(v);
    if (key === "firer" || key === "target") shot.weapons = null;
    if (key === "target") shot.target_down = null;
    redo("shot")();
  };
  fill(shotForm,
    el("h3", {}, "A shot"),
    // (a unit does not shoot at itself: the one picked in the other list is greyed)
    unitPicker("Firer", shot.firer, units, "shot-firer", setShot("firer"),
      (u) => u.fire_refused || (String(u.uid) === shot.target ? u.own_target_refused : null)),
    unitPicker("Target", shot.target, units, "shot-target", setShot("target"),
      (u) => (String(u.uid) === shot.firer ? u.own_target_refused : null)),
    el("label", { class: "row" }, el("span", { class: "label" }, "Range"),
      el("input", { type: "number", min: 0, step: 0.5, value: shot.range, "data-testid": "shot-range",
        onchange: (e) => setShot("range")(e.target.value) }), "inches"),
    choice("Cover", shot.cover, [["none", "none"], ["soft", "soft"], ["hard", "hard"]],
      "shot-cover", setShot("cover")),
    choice("Moving", shot.moving, [["die", "as its die shows"], ["no", "standing"],
      ["yes", "on the move"]], "shot-moving", setShot("moving")),
    target && target.kind !== "vehicle" ? tick(
      shot.target_down === null ? "target Down (as its die shows)" : "target Down",
      shot.target_down ?? (target.order === "Down" || target.retained === "Down"),
      "shot-target-down", setShot("target_down")) : null,
    target && target.kind === "vehicle" ? choice("Facing", shot.facing,
      [["front", "front"], ["side", "side"], ["rear", "rear"], ["top", "top"]],
      "shot-facing", setShot("facing")) : null,
    target && target.kind === "vehicle" ? immobilisedTick(target, shot.target_immobilised,
      "shot-immobilised", setShot("target_immobilised")) : null,
    target ? el("p", { class: "note" }, target.kind === "vehicle"
      ? "An officer near the vehicle (its crew's tests): as picked on its card."
      : "An officer near the target (its check after a flamethrower's hit): as picked on its card.")
      : null,
    // (a Panzerfaust fired: at a vehicle or not, its man fires another weapon)
    oneShotTick(unitOf(shot.firer), "its one-shot anti-tank weapons already fired", "shot-one-shot-fired"),
    tick("indirect fire", shot.indirect, "shot-indirect", setShot("indirect")),
    tick("ranged in", shot.ranged_in, "shot-ranged-in", setShot("ranged_in")),
    el("div", { id: "shot-result" }, el("div", { id: "shot-weapons" }, weaponRows()),
      answerBox("shot")),
    target && game.phase !== "over" ? shotTaken(target, taken, "taken", shotFired) : null);
  // the assault
  const attacker = unitOf(fight.attacker);
  // a unit assaults only the enemy: the defenders are the other side's (the server
  // refuses a friend, as it refuses the fight's end)
  const foes = attacker ? units.filter((u) => u.side !== attacker.side) : units;
  if (fight.defender !== "" && !foes.some((u) => String(u.uid) === String(fight.defender))) {
    fight.defender = "";
  }
  const defender = unitOf(fight.defender);
  // the edition's close quarters, as the server gives them (never guessed from its reactions)
  const pointBlank = game.attacker_modes.length > 1;
  const firesAtAssaulters = game.vehicles_fire_at_assaulters;
  if (!firesAtAssaulters) fight.from_inches = "";
  if (!game.attacker_modes.includes(fight.attacker_mode)) fight.attacker_mode = "hand-to-hand";
  const setFight = (key) => (v) => {
    fight[key] = v;
    if (key === "defender") fight.defender_mode = "hand-to-hand";
    redo("assault")();
  };
  const modeNames = { "hand-to-hand": "hand-to-hand", "point-blank": "point-blank fire",
    "stand-and-fire": "stand and fire" };
  const attackerModes = game.attacker_modes.map((m) => [m, modeNames[m]]);
  // how the defender may fight is the server's (it took the die to stand and fire, say)
  const modes = (defender?.defender_modes || ["hand-to-hand"]).map((m) => [m, modeNames[m]]);
  if (!modes.some(([m]) => m === fight.defender_mode)) fight.defender_mode = "hand-to-hand";
  const assaultForm = document.getElementById("assault-form");
  fill(assaultForm,
    el("h3", {}, "An assault"),
    unitPicker("Attacker", fight.attacker, units, "assault-attacker", setFight("attacker"),
      (u) => u.attack_refused),
    unitPicker("Defender", fight.defender, foes, "assault-defender", setFight("defender")),
    defender && defender.kind === "vehicle"
      ? [choice("Vehicle", fight.vehicle_move, [["die", "as its die shows"], ["stationary", "stationary"],
        ["advanced", "advanced"], ["ran", "ran"]], "assault-vehicle-move", setFight("vehicle_move")),
      immobilisedTick(defender, fight.target_immobilised, "assault-immobilised", setFight("target_immobilised")),
      oneShotTick(attacker, "its one-shot anti-tank weapons already fired", "assault-one-shot-fired"),
      firesAtAssaulters ? el("label", { class: "row" }, el("span", { class: "label" }, "From"),
        el("input", { type: "number", min: 0, step: 0.5, value: fight.from_inches,
          "data-testid": "assault-from", onchange: (e) => setFight("from_inches")(e.target.value) }),
        "inches (its fire as they come)") : null]
      : [pointBlank ? choice("Attackers", fight.attacker_mode, attackerModes, "assault-attacker-mode",
        setFight("attacker_mode")) : null,
      choice("Defenders", fight.defender_mode, modes, "assault-defender-mode", setFight("defender_mode")),
      fight.defender_mode === "stand-and-fire" ? choice("Cover", fight.attacker_cover,
        [["none", "none"], ["soft", "soft"], ["hard", "hard"]], "assault-cover",
        setFight("attacker_cover")) : null],
    el("p", { class: "note" }, "Officers near each side: as picked on the unit's card."),
    el("div", { id: "assault-result" }, answerBox("assault")),
    attacker && defender && game.phase !== "over" ? (defender.kind === "vehicle"
      ? shotTaken(defender, vehicleTaken, "assault-taken")
      : foughtRow(attacker, defender)) : null);
}

// How the fight ended on the table: the loser destroyed, the winner's models left. An
// assault is the attackers' Run order of this turn, fought once: the server says why not.
function foughtRow(attacker, defender) { // (picked just above: the options need no names)
  const outcomes = [["attacker", "the attackers won"], ["defender", "the defenders won"],
    ["both", "both wiped out"]];
  if (attacker.assault_refused) {
    // (its odds refused in the same words, the answer just above says why: once)
    if (attacker.assault_refused === attacker.attack_refused) return null;
    return el("div", { class: "row" }, el("span", { class: "label" }, "Fought"),
      el("span", { class: "note", "data-testid": "fought-refused" }, attacker.assault_refused));
  }
  return el("div", { class: "row" },
    el("span", { class: "label" }, "Fought"),
    el("select", { "data-testid": "fought-winner",
      onchange: (e) => { fought.winner = e.target.value; drawOdds(); } },
    outcomes.map(([v, text]) => el("option", { value: v, selected: v === fought.winner }, text))),
    fought.winner === "both" ? null : [" ", el("input", { type: "number", min: 1,
      value: fought.left, "data-testid": "fought-left",
      onchange: (e) => { fought.left = e.target.value; } }), " models left to the winner "],
    el("button", { type: "button", "data-testid": "fought-apply",
      onclick: async () => {
        if (fought.winner !== "both" && String(fought.left).trim() === "") {
          showError("Fought: give the models left to the winner (the box is empty)");
          return;
        }
        const body = { attacker: attacker.uid, defender: defender.uid, winner: fought.winner,
          left: fought.winner === "both" ? 0 : Number(fought.left),
          stood_and_fired: fight.defender_mode === "stand-and-fire" };
        if (await send("/api/fought", body)) {
          Object.assign(fought, NOTHING_FOUGHT);
          drawOdds();
        }
      } }, "take it"));
}

// A vehicle the aid has as immobilised is asked as such; another may be ticked by hand.
// Whether a unit's one-shot anti-tank weapons (Panzerfausts) are fired, shown where its
// men left carry one: a shot's result taken in the shot form with one among its weapons
// ticks it (the same step); a shot taken off the aid, the players tick it, once: a step
// the game keeps (undo takes it back), the same tick on its card and where its shot or
// assault is asked.
function oneShotTick(u, label, id) {
  if (!u || !u.one_shot_anti_tank) return null;
  return tick(label, u.one_shot_fired, id,
    (fired) => send("/api/one-shot-fired", { unit: u.uid, fired }));
}

function immobilisedTick(vehicle, value, id, change) {
  return vehicle.immobilised
    ? el("p", { class: "note", "data-testid": id }, "Immobilised (as the aid has it).")
    : tick("already immobilised", value, id, change);
}

// The shot's firer and the weapons it fired (those set by hand, else the answer's), sent
// with its result: the server marks a one-shot weapon among them (a Panzerfaust) fired,
// in the same step. None known (no firer picked, no answer): nothing is marked.
function shotFired() {
  const weapons = shot.weapons || answers.shot?.weapons;
  if (shot.firer === "" || !weapons) return {};
  return { firer: Number(shot.firer), weapons: weapons.filter((w) => w.count > 0) };
}

// The dice rolled on the table: the target's losses and pins, taken in one step
// (``state`` keeps what is typed; ``id`` names the row's parts for the tests; ``fired``,
// where there is one, gives the shot's firer and weapons).
function shotTaken(target, state, id, fired = () => ({})) {
  const number = (key) => el("input", { type: "number", min: 0, value: state[key],
    "data-testid": `${id}-${key}`, onchange: (e) => { state[key] = Number(e.target.value); } });
  const flag = (key, text) => el("label", {}, el("input", { type: "checkbox",
    checked: Boolean(state[key]), "data-testid": `${id}-${key}`,
    onchange: (e) => { state[key] = e.target.checked; } }), ` ${text} `);
  const lost = target.kind === "vehicle"
    ? [el("label", {}, el("input", { type: "checkbox", checked: state.casualties > 0,
      "data-testid": `${id}-knocked-out`,
      onchange: (e) => { state.casualties = e.target.checked ? 1 : 0; } }), " knocked out "),
    flag("immobilised", "immobilised"), flag("halted", "die turned Down (stunned, on fire)")]
    : [number("casualties"), " casualties"];
  return el("div", { class: "row" },
    el("span", { class: "label" }, "Rolled"), lost, " ", number("pins"), " pins ",
    flag("flamed", "a flamethrower hit (morale check)"),
    el("button", { type: "button", "data-testid": `${id}-apply`,
      onclick: async () => {
        const body = { unit: target.uid, casualties: state.casualties, pins: state.pins,
          flamed: Boolean(state.flamed), ...fired() };
        if (target.kind === "vehicle") {
          body.immobilised = Boolean(state.immobilised);
          body.halted = Boolean(state.halted);
        }
        if (await send("/api/shot-at", body)) {
          Object.assign(state, NOTHING_TAKEN);
          drawOdds();
        }
      } }, `take it on ${target.name}`));
}

// An answer redraws only itself, never the forms: what a player is typing stays put.
function drawAnswers() {
  const shotResult = document.getElementById("shot-result");
  if (shotResult) {
    drawWeaponRows(document.getElementById("shot-weapons"));
    shotResult.lastChild.replaceWith(answerBox("shot"));
  }
  const assaultResult = document.getElementById("assault-result");
  if (assaultResult) fill(assaultResult, answerBox("assault"));
}

// The same weapons' boxes, and their heading if unchanged, are kept, not drawn afresh: a
// box drawn again while a count is typed loses the caret and what is selected (the key
// pressed next would land beside the old count: "08" for "0"), and a button drawn again
// between the press and the release of a click loses the click. Only the counts of the
// boxes not being typed in, and a heading that says another thing, change.
function drawWeaponRows(rows) {
  const fresh = weaponRows();
  const typing = rows.contains(document.activeElement) ? document.activeElement : null;
  const boxes = (node) => (node ? [...node.querySelectorAll("input[data-weapon]")] : []);
  const names = (node) => boxes(node).map((b) => b.dataset.weapon).join("\n");
  const shown = rows.firstChild;
  if (fresh && shown && names(shown) === names(fresh)) {
    if (shown.firstChild.outerHTML !== fresh.firstChild.outerHTML) {
      shown.firstChild.replaceWith(fresh.firstChild);
    }
    const counts = boxes(fresh);
    boxes(shown).forEach((b, i) => { if (b !== typing) b.value = counts[i].value; });
    return;
  }
  fill(rows, fresh);
  const again = typing && rows.querySelector(`[data-testid="${typing.dataset.testid}"]`);
  if (again) {
    again.value = typing.value;
    again.focus();
  }
}

// The weapons fired: those set by hand, as set (one set to 0 too, and those refused, more
// than the firers carry after losses, say, so they can be put right); else the answer's.
function weaponRows() {
  const answer = answers.shot;
  const fired = shot.weapons || (answer && answer.weapons);
  if (!answer || !fired) return null;
  const rows = fired.map((w, i) => el("label", { class: "row" },
    el("input", { type: "number", min: 0, value: w.count, "data-testid": `shot-weapon-${i}`,
      "data-weapon": w.name,
      onchange: (e) => { // (a box kept while typing outlives its answer: read the latest)
        const now = shot.weapons || answers.shot?.weapons || fired;
        shot.weapons = now.map((x, j) =>
          ({ name: x.name, count: j === i ? Number(e.target.value) : x.count }));
        askOdds("shot");
      } }), w.name));
  return el("div", {}, el("div", { class: "row" }, el("span", { class: "label" }, "Weapons"),
    shot.weapons ? el("button", { type: "button", "data-testid": "shot-weapons-reset",
      onclick: () => { shot.weapons = null; askOdds("shot"); } }, "as its men would fire") : "each man's best"),
  rows);
}

function answerBox(which) {
  const answer = answers[which];
  const box = el("div", { class: "answer", "data-testid": `${which}-answer` });
  if (!answer) {
    box.append(el("span", { class: "note" }, "Pick two units."));
    return box;
  }
  if (answer.error) {
    box.append(el("span", { "data-testid": `${which}-error` }, sentence(answer.error)));
    return box;
  }
  const report = answer.report;
  const chances = Object.keys(report).filter((k) => k.startsWith("p_") && typeof report[k] === "number")
    .map((k) => `${(report.labels || {})[k] || CHANCE_NAMES[k] || k.slice(2).replaceAll("_", " ")} ${pct(report[k])}`);
  const counts = Object.keys(report).filter((k) => report[k] && report[k].distribution)
    .map((k) => {
      const dist = report[k].distribution;
      const atLeast = [];
      let rest = 1;
      for (let n = 1; n < dist.length && n <= 6; n++) {
        rest -= dist[n - 1];
        if (rest < 0.0005) break;
        atLeast.push(`${n}+ ${pct(rest)}`);
      }
      return el("div", { "data-testid": `${which}-${k}` },
        `${k.replaceAll("_", " ")}: mean ${report[k].mean.toFixed(2)}`,
        atLeast.length ? ` (${atLeast.join(", ")})` : "");
    });
  box.append(el("div", { class: "headline" }, report.title),
    el("div", { "data-testid": `${which}-chances` }, chances.join(" · ")), ...counts);
  const read = answer.read ? readText(answer.read) : "";
  if (read) box.append(el("div", { class: "read", "data-testid": `${which}-read` }, read));
  box.append(el("details", { class: "odds" }, el("summary", {}, "why"),
    el("ul", {}, report.reasoning.map((r) =>
      el("li", {}, `${r.topic}: ${r.result}${r.because ? ` (${r.because})` : ""}`)))));
  return box;
}

function readText(read) {
  // what the odds read from the game; a move the players set or a Down they ticked is
  // said apart, as theirs
  const parts = [];
  const set = read.moving && read.moving_by === "players";
  const ticked = read.target_down && read.target_down_by === "players";
  if (read.moving && !set) parts.push("firing on the move (its die)");
  if (read.firer_pins) parts.push(`firer's pins ${read.firer_pins}`);
  if (read.target_down && !ticked) parts.push("the target is Down (its die)");
  if (read.small_unit) parts.push("a small unit");
  if (read.target_pins) parts.push(`target's pins ${read.target_pins}`);
  if (read.target_models) parts.push(`${read.target_models} models in the target`);
  if (read.vehicle_move) parts.push(`the vehicle ${read.vehicle_move}`);
  if (read.one_shot_fired) parts.push("its one-shot anti-tank weapons fired");
  if (read.attacker_officer) parts.push(`attackers' officer ${read.attacker_officer}`);
  if (read.defender_officer) parts.push(`defenders' officer ${read.defender_officer}`);
  if (read.attacker_assault_weapons !== undefined) {
    parts.push(`assault weapons ${read.attacker_assault_weapons} against ${read.defender_assault_weapons}`);
  }
  const moved = set ? "Set by the players: firing on the move." : "";
  const said = ticked ? "Ticked by the players: the target is Down." : "";
  const fromGame = parts.length ? `Read from the game: ${parts.join(", ")}.` : "";
  return [fromGame, moved, said].filter(Boolean).join(" ");
}

async function askOdds(which) {
  if (!game) return;
  const jobs = which ? [which] : ["shot", "assault"];
  let changed = false; // (only answers to the latest questions are drawn)
  for (const job of jobs) {
    let path, body;
    if (job === "shot") {
      if (shot.firer === "" || shot.target === "") {
        answers.shot = null;
        changed = true;
        continue;
      }
      if (String(shot.range).trim() === "") { // (an empty box is no range: not point blank)
        answers.shot = { error: "Range: give the range you measured, in inches (the box is empty)" };
        latest.shot++; // (an answer still on its way is to an older question)
        changed = true;
        continue;
      }
      path = "/api/odds/shoot";
      body = { firer: Number(shot.firer), target: Number(shot.target), range: Number(shot.range),
        cover: shot.cover, moving: shot.moving === "die" ? null : shot.moving === "yes",
        target_down: shot.target_down,
        facing: shot.facing, indirect: shot.indirect, ranged_in: shot.ranged_in,
        target_immobilised: shot.target_immobilised, weapons: shot.weapons };
      body.target_officer = nearOf(shot.target) || null; // (its crew's or its men's tests)
      if (unitOf(shot.target).kind !== "vehicle") { delete body.facing; delete body.target_immobilised; }
      if (unitOf(shot.target).kind === "vehicle") delete body.target_down;
    } else {
      if (fight.attacker === "" || fight.defender === "") {
        answers.assault = null;
        changed = true;
        continue;
      }
      const attacker = Number(fight.attacker);
      const defender = Number(fight.defender);
      path = "/api/odds/assault";
      body = { attacker, defender, attacker_officer: nearOf(attacker) || null,
        defender_officer: nearOf(defender) || null };
      if (unitOf(defender).kind === "vehicle") {
        body.vehicle_move = fight.vehicle_move === "die" ? null : fight.vehicle_move;
        body.target_immobilised = fight.target_immobilised;
        if (fight.from_inches !== "") body.from_inches = Number(fight.from_inches);
      } else {
        body.attacker_mode = fight.attacker_mode;
        body.defender_mode = fight.defender_mode;
        body.attacker_cover = fight.attacker_cover;
      }
    }
    const mine = ++latest[job];
    let got;
    try {
      const response = await fetch(path, { method: "POST",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const answer = await response.json();
      got = response.ok ? answer
        : { error: inWords(answer.error) || `the server answered ${response.status}` };
    } catch (problem) {
      got = { error: problem.message || String(problem) };
    }
    if (mine === latest[job]) {
      answers[job] = got;
      changed = true;
    }
  }
  if (changed) drawAnswers();
}

document.getElementById("error-close").addEventListener("click", () => showError(null));
document.getElementById("new-game").addEventListener("click", () => {
  if (confirm("Start the same armies from turn 1? (Undo takes you back.)")) send("/api/new-game");
});
send("/api/state");
