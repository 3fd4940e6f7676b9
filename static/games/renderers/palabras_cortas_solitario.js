import { el } from "../dom.js";
// Palabras Cortas solitaire: the eight piles with their face-up cards, a word built by tapping those cards, the
// refill of an emptied pile from a pile the server lists, the score, the words made and the result at the end.
// Reads view.body for the piles and words and view.actions (with their choices) for what may be done now; whether
// a word is a word, what it scores and when the game ends are the server's to say.

// The word being built (card ids, in order) and the empty pile chosen for a refill survive re-renders.
let building = [];
let refillTarget = null;

function spec(view, type) {
  return view.actions.find((a) => a.type === type) || null;
}

function choices(view, type, field) {
  return spec(view, type)?.fields.find((f) => f.name === field)?.choices || [];
}

function cardFace(c, extra = {}) {
  return [
    el("span", { className: "pc-letters" }, c.letters),
    el("span", { className: "pc-points" }, String(c.points)),
    extra.badge ? el("span", { className: "pc-sol-badge" }, extra.badge) : "",
  ];
}

export function prompt(view) {
  if (view.finished) return "";
  if (spec(view, "refill")) return "a pile is empty: choose a pile to turn up one of its face-down cards.";
  if (spec(view, "word")) return "tap the showing cards to spell a word.";
  return "";
}

export function describe(event, ctx) {
  switch (event.type) {
    case "deal":
      return "Eight piles dealt: five cards face down and one face up on each.";
    case "word":
      return `${ctx.seat === 0 ? "You" : ctx.name(0)} spelled ${event.word} (+${event.points}).`;
    case "refill":
      return `Pile ${event.pile + 1} refilled from pile ${event.source + 1}: ${event.card.letters}.`;
    case "score":
      return "";
    case "game_over":
      return event.result === "won"
        ? `Every card used: ${event.total} points.`
        : `Game over (${event.result.replaceAll("_", " ")}): ${event.cards_used} cards in words, ${event.total} points.`;
    default:
      return "";
  }
}

function syncBuilding(view) {
  const wordIds = new Set(choices(view, "word", "cards"));
  building = building.filter((id) => wordIds.has(id));
  const empty = choices(view, "refill", "pile");
  if (!empty.includes(refillTarget)) refillTarget = empty.length ? empty[0] : null;
}

function pileButton(pile, index, view, ctx) {
  const wordIds = choices(view, "word", "cards");
  const empty = choices(view, "refill", "pile");
  const sources = choices(view, "refill", "source");
  const faceDown = Math.max(pile.count - (pile.top ? 1 : 0), 0);
  const label = `Pile ${index + 1}`;
  const common = { dataset: { pile: index }, "data-testid": "pile" };
  const under = el("span", { className: "pc-sol-under" }, faceDown ? `${faceDown} under` : "none under");
  if (!pile.top) {
    const choosing = empty.includes(index);
    return el(
      "div",
      { className: "pc-sol-pile", ...common },
      el(
        "button",
        {
          className: `pc-sol-empty${refillTarget === index ? " is-target" : ""}`,
          type: "button",
          disabled: !choosing,
          "aria-label": choosing ? `${label} is empty: refill it` : `${label} is empty`,
          on: {
            click: () => {
              refillTarget = index;
              ctx.rerender();
            },
          },
        },
        choosing ? (refillTarget === index ? "to refill" : "empty") : "empty",
      ),
      under,
    );
  }
  const top = pile.top;
  const inWord = building.includes(top.id);
  if (sources.includes(index)) {
    return el(
      "div",
      { className: "pc-sol-pile", ...common },
      el(
        "button",
        {
          className: "pc-card pc-sol-source",
          type: "button",
          dataset: { cardId: top.id },
          "data-testid": "refill-source",
          "aria-label": `Turn up a card of ${label} to refill pile ${(refillTarget ?? 0) + 1}`,
          on: { click: () => ctx.send({ type: "refill", pile: refillTarget, source: index }) },
        },
        cardFace(top),
      ),
      under,
    );
  }
  const canUse = wordIds.includes(top.id) && !inWord;
  return el(
    "div",
    { className: "pc-sol-pile", ...common },
    el(
      "button",
      {
        className: `pc-card${inWord ? " is-used" : ""}`,
        type: "button",
        disabled: !canUse,
        dataset: { cardId: top.id },
        "data-testid": "top-card",
        "aria-label": `${top.letters}, ${top.points} points, on ${label}`,
        on: {
          click: () => {
            building.push(top.id);
            ctx.rerender();
          },
        },
      },
      cardFace(top),
    ),
    under,
  );
}

function wordBar(view, ctx) {
  if (!spec(view, "word")) return "";
  const byId = new Map(view.body.piles.filter((p) => p.top).map((p) => [p.top.id, p.top]));
  const cards = building.map((id) => byId.get(id));
  return el(
    "div",
    { className: "pc-sol-word", "data-testid": "word-bar" },
    el(
      "div",
      { className: "pc-build" },
      cards.length
        ? cards.map((c) =>
            el(
              "button",
              {
                className: "pc-card",
                type: "button",
                "aria-label": `Take ${c.letters} back`,
                on: {
                  click: () => {
                    building.splice(building.indexOf(c.id), 1);
                    ctx.rerender();
                  },
                },
              },
              cardFace(c),
            ),
          )
        : el("span", { className: "muted" }, "Tap the showing cards in the order of your word."),
      cards.length
        ? el(
            "strong",
            { className: "pc-build-text", lang: "es", "data-testid": "word-text" },
            cards.map((c) => c.letters).join(""),
          )
        : "",
    ),
    el(
      "div",
      { className: "pc-sol-buttons" },
      el(
        "button",
        {
          className: "btn btn-primary",
          type: "button",
          disabled: !cards.length,
          "data-testid": "spell",
          on: {
            click: () => {
              const word = [...building];
              building = [];
              ctx.send({ type: "word", cards: word });
            },
          },
        },
        "Spell it",
      ),
      el(
        "button",
        {
          className: "btn",
          type: "button",
          disabled: !cards.length,
          on: {
            click: () => {
              building = [];
              ctx.rerender();
            },
          },
        },
        "Clear",
      ),
    ),
  );
}

function resultSection(view) {
  const body = view.body;
  const text =
    body.result === "won"
      ? `All ${body.cards_used} cards used: you win!`
      : `Game over (${body.result_text}): ${body.cards_left} card${body.cards_left === 1 ? "" : "s"} left on the piles, ${body.cards_used} in words.`;
  return el(
    "section",
    { className: `card pc-sol-result${body.result === "won" ? " is-won" : ""}`, "data-testid": "result" },
    el("h2", {}, body.result === "won" ? "You win" : "Game over"),
    el("p", {}, text),
    el("p", {}, `Score: ${view.scores.total[0]} points.`),
  );
}

// One player: the score is on the table itself, so the kit's players table is left out.
export const showPlayers = false;
export const handles = ["word", "refill", "give_up"];

export function render(ctx) {
  const { view } = ctx;
  const body = view.body;
  syncBuilding(view);
  const giveUp = spec(view, "give_up")
    ? el(
        "button",
        {
          className: "btn btn-small",
          type: "button",
          "data-testid": "give-up",
          on: { click: () => ctx.send({ type: "give_up" }) },
        },
        "Give up",
      )
    : "";
  const refill = spec(view, "refill")
    ? el(
        "p",
        { className: "pc-sol-refill", "data-testid": "refill-help" },
        `Pile ${refillTarget + 1} is empty: tap a pile with face-down cards to turn one up and refill it.`,
      )
    : "";
  return el(
    "div",
    { className: "pc pc-sol" },
    view.finished ? resultSection(view) : "",
    el(
      "section",
      { className: "card" },
      el(
        "div",
        { className: "card-head pc-sol-head" },
        el("span", { "data-testid": "sol-score" }, el("strong", {}, `${view.scores.total[0]} points`)),
        el("span", { className: "muted" }, `${body.cards_used} of ${body.cards_dealt} cards in words`),
        giveUp,
      ),
      refill,
      el(
        "div",
        { className: "pc-sol-piles" },
        body.piles.map((pile, i) => pileButton(pile, i, view, ctx)),
      ),
      wordBar(view, ctx),
    ),
    el(
      "section",
      { className: "card" },
      el("h2", {}, "Words"),
      body.words.length
        ? el(
            "p",
            { "data-testid": "sol-words" },
            body.words.map((w) => el("span", { className: "pc-word", lang: "es" }, `${w.word} (${w.points})`)),
          )
        : el("p", { className: "muted" }, "No words yet."),
    ),
  );
}
