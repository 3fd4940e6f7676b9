import { el } from "../dom.js";
// Pablo: every player's field as cards in their fixed places (face down unless the view shows you the face), the
// draw and discard piles, the card you hold, the special card's action as a prompt, a Match button, Pablo, the
// reveal and the scores. Everything comes from the view: legal cards are the action's choices, never computed here.

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);

// What the player is choosing cards for: the offered action, the fields filled so far and the steps left.
let picking = null;

const STEPS = {
  first_look: ["own"],
  keep: ["own"],
  pair: ["own"],
  peek: ["own"],
  spy: ["target"],
  look: ["target"],
  swap: ["mine", "target"],
  match: ["target", "give"],
};

const ASK = {
  first_look: "Tap one of your cards to look at it.",
  keep: "Tap the card of yours that the drawn card replaces.",
  pair: "Tap the card of yours with the same rank as the drawn card.",
  peek: "Tap one of your cards to peek at it.",
  spy: "Tap another player's card to spy on it.",
  look: "Tap another player's card to look at it.",
  mine: "Tap the card of yours to swap.",
  target: {
    swap: "Now tap the other player's card to swap with.",
    match: "Tap the card (yours or another player's) that matches the top of the discard pile.",
  },
  give: "Tap the card of yours the other player gets in exchange.",
};

function cardText(c) {
  return `${c.rank}${SUIT[c.suit]}`;
}

function choicesOf(spec, name) {
  return spec.fields.find((f) => f.name === name)?.choices || [];
}

function offered(view, type) {
  return view.actions.find((a) => a.type === type);
}

function stepNow() {
  return picking ? picking.steps[0] : null;
}

function canPick(ctx, owner, slot) {
  if (!picking) return false;
  const { spec } = picking;
  const step = stepNow();
  if (step === "own") return owner === ctx.seat && choicesOf(spec, "slot").includes(slot);
  if (step === "mine") return owner === ctx.seat && choicesOf(spec, "mine").includes(slot);
  if (step === "give") return owner === ctx.seat && choicesOf(spec, "give").includes(slot);
  if (step === "target") return choicesOf(spec, "owner").includes(owner) && choicesOf(spec, "slot").includes(slot);
  return false;
}

function pick(ctx, owner, slot) {
  const step = picking.steps.shift();
  if (step === "own") picking.action.slot = slot;
  if (step === "mine") picking.action.mine = slot;
  if (step === "give") picking.action.give = slot;
  if (step === "target") {
    picking.action.owner = owner;
    picking.action.slot = slot;
    if (picking.action.type === "match" && (owner === ctx.seat || !choicesOf(picking.spec, "give").length)) {
      picking.steps = picking.steps.filter((s) => s !== "give");
    }
  }
  if (!picking.steps.length) {
    const action = picking.action;
    picking = null;
    ctx.send(action);
  }
}

function start(spec, ctx) {
  picking = { spec, action: { type: spec.type }, steps: [...STEPS[spec.type]] };
  if (spec.type === "match") picking.action.top = choicesOf(spec, "top")[0];
  ctx.rerender();
}

function cardFace(c, extra = "") {
  const tag = { now: "you see it", memory: "you remember it", shown: "shown to all", reveal: "" }[c.seen] || "";
  return [
    el("span", { className: "pb-rank" }, cardText(c)),
    c.word ? el("span", { className: "pb-word" }, c.word) : "",
    el("span", { className: "pb-value" }, `${c.value} pt${Math.abs(c.value) === 1 ? "" : "s"}`),
    tag ? el("span", { className: "pb-tag" }, tag) : "",
    extra,
  ];
}

function slotButton(view, ctx, owner, s) {
  if (s.empty) return el("span", { className: "pb-card pb-empty", "aria-label": "empty place" });
  const known = s.card !== undefined;
  const pickable = canPick(ctx, owner, s.slot);
  const looked = view.body.king_look && view.body.king_look.owner === owner && view.body.king_look.slot === s.slot;
  const classes = [
    "pb-card",
    known ? "pb-face" : "pb-back",
    known && RED.has(s.suit) ? "pb-red" : "",
    pickable ? "is-pickable" : "",
    looked ? "is-looked" : "",
    s.seen ? `seen-${s.seen}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  const label = `${owner === ctx.seat ? "your" : `${ctx.name(owner)}'s`} card ${s.slot + 1}${known ? `: ${cardText(s)}` : ", face down"}`;
  return el(
    "button",
    {
      type: "button",
      className: classes,
      disabled: !pickable,
      "aria-label": label,
      dataset: { owner: String(owner), slot: String(s.slot), testid: `card-${owner}-${s.slot}` },
      on: {
        click: () => {
          if (canPick(ctx, owner, s.slot)) pick(ctx, owner, s.slot);
        },
      },
    },
    known ? cardFace(s) : el("span", { className: "pb-backmark" }, String(s.slot + 1)),
  );
}

function fieldOf(view, ctx, f) {
  const b = view.body;
  const badges = [
    f.seat === b.turn && ["draw", "decide", "ten", "jack", "queen", "king", "end"].includes(view.phase)
      ? "on turn"
      : "",
    f.protected ? "called Pablo · protected" : "",
    view.phase === "peek" ? (b.ready[f.seat] ? "ready" : "looking…") : "",
    f.total ? `field ${f.total.n}${f.total.word ? ` (${f.total.word})` : ""}` : "",
  ].filter(Boolean);
  return el(
    "section",
    { className: `pb-field${f.seat === ctx.seat ? " is-mine" : ""}`, dataset: { testid: `field-${f.seat}` } },
    el(
      "h3",
      {},
      f.seat === ctx.seat ? "Your cards" : ctx.name(f.seat),
      badges.length ? el("small", {}, ` · ${badges.join(" · ")}`) : "",
    ),
    el(
      "div",
      { className: "pb-slots" },
      f.slots.map((s) => slotButton(view, ctx, f.seat, s)),
    ),
  );
}

function piles(view, ctx) {
  const b = view.body;
  const top = b.discard.top;
  const match = offered(view, "match");
  const matchBtn = el(
    "button",
    {
      type: "button",
      className: "btn pb-match",
      disabled: !match,
      dataset: { testid: "match" },
      on: { click: () => match && start(match, ctx) },
    },
    "Match!",
  );
  const late =
    !match && b.match.matched_by !== null
      ? el(
          "p",
          { className: "muted", dataset: { testid: "matched-by" } },
          `${b.match.matched_by === ctx.seat ? "You were" : `${ctx.name(b.match.matched_by)} was`} first to match.`,
        )
      : "";
  return el(
    "section",
    { className: "pb-piles" },
    el(
      "div",
      { className: "pb-pile" },
      el("span", { className: "pb-card pb-back" }, el("span", { className: "pb-backmark" }, String(b.draw_count))),
      el("small", {}, "draw pile"),
    ),
    el(
      "div",
      { className: "pb-pile", dataset: { testid: "discard" } },
      top
        ? el("span", { className: `pb-card pb-face${RED.has(top.suit) ? " pb-red" : ""}` }, cardFace(top))
        : el("span", { className: "pb-card pb-empty" }),
      el("small", {}, `discard (${b.discard.count})`),
    ),
    b.held
      ? el(
          "div",
          { className: "pb-pile", dataset: { testid: "held" } },
          el("span", { className: `pb-card pb-face${RED.has(b.held.suit) ? " pb-red" : ""}` }, cardFace(b.held)),
          el("small", {}, "you drew"),
        )
      : "",
    !b.held && b.holding
      ? el(
          "div",
          { className: "pb-pile" },
          el("span", { className: "pb-card pb-back" }),
          el("small", {}, `${ctx.name(b.turn)} drew`),
        )
      : "",
    el("div", { className: "pb-pile" }, matchBtn, late),
  );
}

const BUTTONS = ["draw", "discard", "ready", "skip", "call", "end_turn", "hide", "deal"];

function controls(view, ctx) {
  if (picking) {
    const step = stepNow();
    const ask = typeof ASK[step] === "object" ? ASK[step][picking.action.type] : ASK[step] || ASK[picking.action.type];
    return el(
      "section",
      { className: "pb-prompt", dataset: { testid: "prompt" } },
      el("p", {}, step === "own" ? ASK[picking.action.type] : ask),
      el(
        "button",
        {
          type: "button",
          className: "btn btn-secondary",
          on: {
            click: () => {
              picking = null;
              ctx.rerender();
            },
          },
        },
        "Cancel",
      ),
    );
  }
  const buttons = [];
  for (const spec of view.actions) {
    if (spec.type === "match") continue;
    if (BUTTONS.includes(spec.type)) {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            className: `btn${spec.type === "call" ? " pb-call" : ""}`,
            dataset: { testid: `act-${spec.type}` },
            on: { click: () => ctx.send({ type: spec.type }) },
          },
          spec.label,
        ),
      );
    } else if (STEPS[spec.type]) {
      buttons.push(
        el(
          "button",
          {
            type: "button",
            className: "btn",
            dataset: { testid: `act-${spec.type}` },
            on: { click: () => start(spec, ctx) },
          },
          spec.label,
        ),
      );
    }
  }
  const text = prompt(view, ctx);
  return el(
    "section",
    { className: "pb-prompt", dataset: { testid: "prompt" } },
    text ? el("p", {}, text) : "",
    el("div", { className: "pb-buttons" }, buttons),
  );
}

function results(view, ctx) {
  const rounds = view.body.results;
  if (!rounds.length) return "";
  const show = (x) => (x.word ? `${x.n} (${x.word})` : String(x.n));
  const head = el(
    "tr",
    {},
    el("th", {}, "Round"),
    ctx.table.players.map((p) => el("th", { className: "num" }, p.name)),
  );
  const rows = rounds.map((r) =>
    el(
      "tr",
      {},
      el("td", {}, String(r.round), r.caller !== null ? ` · Pablo: ${ctx.name(r.caller)}` : ""),
      r.points.map((p, s) =>
        el(
          "td",
          { className: "num" },
          show(p),
          r.penalty[s] ? ` +${r.penalty[s]}` : "",
          r.reset[s] ? " → 0" : "",
          r.winners.includes(s) ? " ★" : "",
        ),
      ),
    ),
  );
  const last = rounds[rounds.length - 1];
  const totals = el(
    "tr",
    {},
    el("th", {}, "Total"),
    last.totals.map((t) => el("th", { className: "num" }, show(t))),
  );
  return el(
    "section",
    { className: "card pb-results", dataset: { testid: "results" } },
    el("h2", {}, "Scores"),
    el(
      "div",
      { className: "pb-scroll" },
      el("table", { className: "table" }, el("thead", {}, head), el("tbody", {}, rows, totals)),
    ),
    view.finished ? el("p", {}, "The lowest score wins.") : "",
  );
}

export function prompt(view, _ctx) {
  const b = view.body;
  const mine = (t) => offered(view, t);
  if (view.phase === "peek")
    return mine("first_look")
      ? `Look at two of your cards (${b.first_looks} of 2 seen), then say you remember them.`
      : mine("ready")
        ? "Remember your cards, then say so."
        : "";
  if (mine("draw")) return "Draw a card.";
  if (mine("keep") || (view.phase === "decide" && mine("discard")))
    return "Keep the card (it replaces one of yours) or discard it.";
  if (mine("peek")) return "10: peek at one of your cards, or skip.";
  if (mine("spy")) return "Jack: spy on another player's card, or skip.";
  if (view.phase === "queen" && mine("swap"))
    return "Queen: you must swap one of your cards with another player's, without looking.";
  if (mine("look")) return "King: look at another player's card, then swap or not.";
  if (view.phase === "king" && mine("swap")) return "King: swap the card you looked at with one of yours, or don't.";
  if (mine("call")) return "Call Pablo if you think you have the fewest points, or end your turn.";
  if (mine("deal")) return "You lost the round: shuffle and deal the next one.";
  return "";
}

function who(s, ctx) {
  return s === ctx.seat ? "You" : ctx.name(s);
}

export function describe(event, ctx) {
  const at = (e) => `${e.owner === ctx.seat ? "your" : `${ctx.name(e.owner)}'s`} card ${e.slot + 1}`;
  switch (event.type) {
    case "rolled":
      return `Dice (${event.why}): ${event.rolls.map((r) => `${ctx.name(r.seat)} ${r.roll}`).join(", ")}.`;
    case "dealt":
      return `Round ${event.round} dealt${event.dealer !== null ? ` by ${ctx.name(event.dealer)}` : ""}; ${ctx.name(event.starter)} starts.`;
    case "looked":
      return event.card !== undefined
        ? `You looked at ${at(event)}: ${cardText(event)}.`
        : `${ctx.name(event.seat)} looked at ${at(event)}.`;
    case "ready":
      return `${who(event.seat, ctx)} ${event.seat === ctx.seat ? "are" : "is"} ready.`;
    case "turn":
      return event.seat === ctx.seat ? "Your turn." : `${ctx.name(event.seat)}'s turn.`;
    case "drew":
      return event.card !== undefined ? `You drew ${cardText(event)}.` : `${ctx.name(event.seat)} drew a card.`;
    case "kept":
      return `${who(event.seat, ctx)} kept the card and discarded ${cardText(event)}.`;
    case "discarded":
      return `${who(event.seat, ctx)} discarded ${cardText(event)}.`;
    case "paired":
      return `${who(event.seat, ctx)} discarded a pair of ${event.rank}.`;
    case "peeked":
      return event.card !== undefined
        ? `You peeked: ${at(event)} is ${cardText(event)}.`
        : `${ctx.name(event.seat)} peeked at a card.`;
    case "spied":
      return event.card !== undefined
        ? `You spied: ${at(event)} is ${cardText(event)}.`
        : `${ctx.name(event.seat)} spied on ${at(event)}.`;
    case "swapped":
      return `${who(event.seat, ctx)} swapped ${event.seat === ctx.seat ? "your" : "their"} card ${event.mine + 1} with ${at(event)}.`;
    case "skipped":
      return `${who(event.seat, ctx)} did not use the action.`;
    case "no_action":
      return "The special card has no action here.";
    case "matched":
      return `${who(event.seat, ctx)} matched first with ${at(event)} (${cardText(event)}).`;
    case "gave":
      return `${who(event.seat, ctx)} gave ${ctx.name(event.owner)} a card in its place.`;
    case "wrong_match":
      return `Wrong match by ${who(event.seat, ctx)}: ${at(event)} is ${cardText(event)}; it goes back.`;
    case "penalty":
      return event.card !== undefined
        ? `Penalty card for you: ${cardText(event)} (card ${event.slot + 1}).`
        : `${ctx.name(event.seat)} takes a penalty card.`;
    case "queen_penalty":
      return `${who(event.seat, ctx)} has no cards to swap and takes a card.`;
    case "reshuffled":
      return "The discard pile was shuffled into a new draw pile.";
    case "pablo":
      return `${who(event.seat, ctx)} called Pablo! Everyone else plays one more turn.`;
    case "revealed":
      return "All the cards are turned over.";
    case "round_scored":
      return `Round ${event.round} scored.`;
    case "game_over":
      return "The game is over.";
    case "hid":
      return "";
    default:
      return "";
  }
}

export const handles = ["match", ...BUTTONS, ...Object.keys(STEPS)];

// Pablo scores are points against: the kit's table shows the running totals; the rounds are in "Scores" above.
export function columns(ctx) {
  const b = ctx.view.body;
  return [
    {
      head: "Cards",
      className: "num",
      testid: "count",
      cell: (p) => String(b.fields.find((f) => f.seat === p.seat)?.slots.filter((s) => !s.empty).length ?? ""),
    },
  ];
}

export function render(ctx) {
  const { view } = ctx;
  if (picking && !offered(view, picking.action.type)) picking = null;
  if (picking) picking.spec = offered(view, picking.action.type);
  const b = view.body;
  const order = b.fields.filter((f) => f.slots.length || f.seat === ctx.seat);
  const mineFirst = [...order.filter((f) => f.seat === ctx.seat), ...order.filter((f) => f.seat !== ctx.seat)];
  const options = [b.reminders ? "reminders on" : "", b.number_words ? "number words" : ""].filter(Boolean);
  return el(
    "div",
    { className: "pablo" },
    el(
      "p",
      { className: "muted" },
      `Round ${b.round}`,
      b.pablo !== null ? ` · ${ctx.name(b.pablo)} called Pablo` : "",
      options.length ? ` · ${options.join(", ")}` : "",
    ),
    piles(view, ctx),
    controls(view, ctx),
    mineFirst.map((f) => fieldOf(view, ctx, f)),
    results(view, ctx),
  );
}
