import { el } from "../dom.js";
// Palabras Cortas: your hand (click cards to build words), the stock and discard pile, everyone's card counts
// (never their cards), the words laid, the challenge review, and the scores per hand with the bonuses and why.
// Reads the game's part of the view from view.body and what the viewer may do from view.actions (with their
// choices); the server decides every rule, score and refusal.

// Words being built from the hand survive re-renders; cards that leave the hand drop out of them.
let building = { hand: null, words: [[]] };

const BONUS_WHY = {
  best: (b, ctx) => `${ctx.name(b.seat)} (${b.value} ${b.bonus === "most" ? "words" : "letters"})`,
  tie: (b, ctx) => `nobody: a tie between ${b.tied.map(ctx.name).join(" and ")} at ${b.value}`,
  "nobody laid a word": () => "nobody: no words were laid",
};

function card(c, { onClick, label, testid, used = false } = {}) {
  const body = [
    el("span", { className: "pc-letters" }, c.letters),
    el("span", { className: "pc-points" }, String(c.points)),
  ];
  const props = {
    className: `pc-card${used ? " is-used" : ""}`,
    title: `${c.letters}: ${c.points} points`,
    dataset: { cardId: c.id },
  };
  if (testid) props["data-testid"] = testid;
  if (!onClick) return el("span", props, body);
  return el(
    "button",
    { ...props, type: "button", "aria-label": label || `${c.letters}, ${c.points} points`, on: { click: onClick } },
    body,
  );
}

function syncBuilding(view) {
  const key = `${view.hand_number}`;
  const held = new Set((view.hand || []).map((c) => c.id));
  if (building.hand !== key) building = { hand: key, words: [[]] };
  building.words = building.words.map((w) => w.filter((id) => held.has(id)));
  if (!building.words.length) building.words = [[]];
}

function usedIds() {
  return new Set(building.words.flat());
}

function faces(view) {
  return new Map((view.hand || []).map((c) => [c.id, c]));
}

function spelled(ids, byId) {
  return ids.map((id) => byId.get(id).letters).join("");
}

function offered(view) {
  return new Set(view.actions.map((a) => a.type));
}

// The legal values the server lists for one field of an offered action ([] when it is not offered).
function choicesOf(view, type, field) {
  const spec = view.actions.find((a) => a.type === type);
  return spec?.fields.find((f) => f.name === field)?.choices || [];
}

export function prompt(view) {
  const wentOut = view.body.went_out;
  if (view.phase === "review") return "challenge a word or say you are ready.";
  if (view.phase === "draw" && wentOut !== null) return "your last turn: draw, then lay your words and discard.";
  if (view.phase === "draw") return "draw from the stock or take the discard.";
  if (view.phase === "discard") {
    return wentOut === null
      ? "discard a card, or build words and go out."
      : "your last turn: lay your words and discard.";
  }
  return "";
}

export function describe(event, ctx) {
  const who = (s) => (s === ctx.seat ? "You" : ctx.name(s));
  switch (event.type) {
    case "deal":
      return `Hand ${event.hand_number}: ${event.hand_size} cards each; ${ctx.name(event.dealer)} dealt.`;
    case "dealt":
      return event.cards ? `You were dealt ${event.cards.map((c) => c.letters).join(" ")}.` : "";
    case "draw":
      return `${who(event.seat)} drew ${event.source === "stock" ? "from the stock" : "the discard"}${event.card ? ` (${event.card.letters})` : ""}.`;
    case "discard":
      return `${who(event.seat)} discarded ${event.card.letters}.`;
    case "went_out":
      return `${who(event.seat)} went out with ${event.words.map((w) => w.word).join(", ")}!`;
    case "laid_down":
      return `${who(event.seat)} laid ${event.words.length ? event.words.map((w) => w.word).join(", ") : "no words"} and discarded ${event.discard.letters}.`;
    case "last_turn":
      return `${who(event.seat)}: last turn.`;
    case "review":
      return "The hand is over: challenge any word you doubt, then say you are ready.";
    case "challenge":
      return `${who(event.challenger)} challenged ${event.text}: ${event.valid ? "it is a word" : "not in the lexicon"}.`;
    case "ready":
      return `${who(event.seat)} ${event.seat === ctx.seat ? "are" : "is"} ready.`;
    case "score":
      return `${who(event.seat)}: ${event.points > 0 ? "+" : ""}${event.points} (${event.reason}).`;
    case "hand_scored":
      return `Hand ${event.hand_number} scored.`;
    case "reshuffle":
      return "The discard pile was shuffled into a new stock.";
    case "player_removed":
      return `${ctx.name(event.seat)} left the game.`;
    case "game_over":
      return `Game over: ${event.winners.map(ctx.name).join(" and ")} win${event.winners.length === 1 ? "s" : ""}.`;
    default:
      return "";
  }
}

// A challenge's verdict is announced to the whole table, not only written in the log.
export function announce(event, ctx) {
  if (event.type !== "challenge") return "";
  const whose = event.seat === ctx.seat ? "your" : `${ctx.name(event.seat)}'s`;
  const verdict = event.valid
    ? `it is a word: it stands, and ${event.challenger === ctx.seat ? "you lose" : `${ctx.name(event.challenger)} loses`} ${event.points} points.`
    : "not in the word list: it is refused and earns nothing.";
  return `${ctx.who(event.challenger)} challenged ${whose} word ${event.text}: ${verdict}`;
}

function pilesSection(view, ctx) {
  const can = offered(view);
  const body = view.body;
  const stock = el(
    "button",
    {
      className: "pc-pile pc-stock",
      type: "button",
      disabled: !can.has("draw_stock"),
      "data-testid": "stock",
      on: { click: () => ctx.send({ type: "draw_stock" }) },
    },
    el("span", { className: "pc-pile-name" }, "Stock"),
    el("span", {}, `${body.stock_count} cards`),
  );
  const top = body.discard_top;
  const discard = el(
    "div",
    { className: "pc-pile pc-discard" },
    el("span", { className: "pc-pile-name" }, `Discard pile (${body.discard_count})`),
    top
      ? card(
          top,
          can.has("draw_discard")
            ? {
                onClick: () => ctx.send({ type: "draw_discard" }),
                label: `Take the discard ${top.letters}`,
                testid: "discard-top",
              }
            : { testid: "discard-top" },
        )
      : "empty",
  );
  return el(
    "section",
    { className: "card pc-center" },
    el(
      "h2",
      {},
      `Hand ${body.hand_number} of ${body.hands_in_game}`,
      el("span", { className: "muted" }, ` · ${body.hand_size} cards · ${ctx.name(body.dealer)} dealt`),
    ),
    el("div", { className: "pc-piles" }, stock, discard),
  );
}

// The kit's players table gets the cards in hand and the words laid this hand; the kit adds names and totals.
export function columns(ctx) {
  const body = ctx.view.body;
  return [
    { head: "Cards", className: "num", testid: "count", cell: (p) => String(body.hand_counts[p.seat]) },
    {
      head: "Words this hand",
      cell: (p) => {
        const words = body.words[p.seat] || [];
        return words.length
          ? words.map((w, i) => wordChip(w, p.seat, i, ctx.view, ctx))
          : el("span", { className: "muted" }, "—");
      },
    },
  ];
}

export function badges(p, ctx) {
  const body = ctx.view.body;
  return [
    body.went_out === p.seat ? el("span", { className: "badge" }, "out") : "",
    body.ready.includes(p.seat) ? el("span", { className: "badge badge-ok" }, "ready") : "",
  ];
}

export const handles = ["draw_stock", "draw_discard", "discard", "go_out", "lay_down", "challenge", "ready", "advance"];

function wordChip(word, owner, index, view, ctx) {
  const challenge = word.challenge;
  const canChallenge = choicesOf(view, "challenge", "seat").includes(owner) && !challenge;
  const verdict = challenge ? (challenge.valid ? " ✓ stands" : " ✗ refused") : "";
  return el(
    "span",
    { className: `pc-word${challenge && !challenge.valid ? " is-refused" : ""}` },
    el("span", { lang: "es" }, word.word),
    el("small", {}, ` ${word.points} pts${verdict}`),
    canChallenge
      ? ctx.button("Challenge", { type: "challenge", seat: owner, word: index }, { className: "btn btn-small" })
      : "",
  );
}

function handSection(view, ctx) {
  const byId = faces(view.body);
  const used = usedIds();
  const can = offered(view);
  const canLay = can.has("go_out") || can.has("lay_down");
  const rerender = () => ctx.rerender();
  const handCards = view.body.hand.map((c) =>
    card(c, {
      used: used.has(c.id),
      label: used.has(c.id) ? `${c.letters} is in a word` : `Add ${c.letters} to the word`,
      testid: "hand-card",
      onClick: used.has(c.id)
        ? undefined
        : () => {
            building.words[building.words.length - 1].push(c.id);
            rerender();
          },
    }),
  );
  const words = building.words.map((ids, i) =>
    el(
      "div",
      { className: "pc-build", "data-testid": "built-word" },
      ids.length
        ? ids.map((id) =>
            card(byId.get(id), {
              label: `Take ${byId.get(id).letters} back`,
              onClick: () => {
                ids.splice(ids.indexOf(id), 1);
                rerender();
              },
            }),
          )
        : el("span", { className: "muted" }, "Click cards of your hand to spell a word."),
      ids.length ? el("span", { className: "pc-build-text" }, el("strong", { lang: "es" }, spelled(ids, byId))) : "",
      building.words.length > 1
        ? el(
            "button",
            {
              className: "btn btn-small",
              type: "button",
              on: {
                click: () => {
                  building.words.splice(i, 1);
                  rerender();
                },
              },
            },
            "Remove word",
          )
        : "",
    ),
  );
  const full = building.words.filter((w) => w.length);
  const unused = view.body.hand.filter((c) => !used.has(c.id));
  const controls = [];
  if (can.has("discard") || canLay) {
    const goingOut = can.has("go_out") && full.length > 0;
    const lastTurn = can.has("lay_down");
    let verb = "Discard";
    if (goingOut) verb = "Go out, discarding";
    else if (lastTurn && full.length) verb = "Lay down words and discard";
    controls.push(
      el(
        "div",
        { className: "pc-discards" },
        el("span", {}, `${verb}:`),
        unused.map((c) =>
          el(
            "button",
            {
              className: `btn${goingOut ? " btn-primary" : ""}`,
              type: "button",
              "data-testid": goingOut ? "go-out" : "discard",
              on: {
                click: () => {
                  if (goingOut) ctx.send({ type: "go_out", words: full, card: c.id });
                  else if (lastTurn) ctx.send({ type: "lay_down", words: full, card: c.id });
                  else ctx.send({ type: "discard", card: c.id });
                },
              },
            },
            card(c),
            " ",
          ),
        ),
      ),
    );
    if (can.has("go_out")) {
      controls.push(el("p", { className: "help" }, "To go out, every card but the one you discard must be in words."));
    }
  }
  return el(
    "section",
    { className: "card pc-hand-card" },
    el(
      "div",
      { className: "card-head" },
      el("h2", {}, "Your hand"),
      el(
        "button",
        {
          className: "btn btn-small",
          type: "button",
          "data-testid": "new-word",
          disabled: !building.words[building.words.length - 1].length,
          on: {
            click: () => {
              building.words.push([]);
              rerender();
            },
          },
        },
        "Start another word",
      ),
      el(
        "button",
        {
          className: "btn btn-small",
          type: "button",
          disabled: !used.size,
          on: {
            click: () => {
              building.words = [[]];
              rerender();
            },
          },
        },
        "Clear words",
      ),
    ),
    el("div", { className: "pc-hand" }, handCards),
    el("div", { className: "pc-builder" }, words),
    controls,
  );
}

function reviewSection(view, ctx) {
  const can = offered(view);
  const buttons = [];
  if (can.has("ready"))
    buttons.push(
      el(
        "button",
        {
          className: "btn btn-primary",
          type: "button",
          "data-testid": "ready",
          on: { click: () => ctx.send({ type: "ready" }) },
        },
        "I'm ready: score the hand",
      ),
    );
  if (can.has("advance"))
    buttons.push(
      el(
        "button",
        { className: "btn btn-primary", type: "button", on: { click: () => ctx.send({ type: "advance" }) } },
        "End the review and score the hand",
      ),
    );
  return el(
    "section",
    { className: "card pc-review" },
    el("h2", {}, "Challenges"),
    el(
      "p",
      {},
      "Doubt a word? Challenge it in the list of players below. A word that stands costs the challenger its points; a word that is refused earns nothing.",
    ),
    buttons,
  );
}

function scoresSection(view, ctx) {
  const { history } = view.body;
  if (!history.length) return "";
  const seats = ctx.table.players.map((p) => p.seat);
  const hands = history
    .slice()
    .reverse()
    .map((h) => {
      const head = el(
        "tr",
        {},
        el("th", {}, ""),
        seats.map((s) => el("th", { className: "num" }, ctx.name(s))),
      );
      const line = (label, key) =>
        el(
          "tr",
          {},
          el("td", {}, label),
          seats.map((s) => el("td", { className: "num" }, String(h.scores[String(s)]?.[key] ?? "—"))),
        );
      const bonuses = h.bonuses.map((b) =>
        el("li", {}, `+10 for ${b.reason}: `, (BONUS_WHY[b.why] || (() => b.why))(b, ctx)),
      );
      const words = seats.map((s) =>
        el(
          "li",
          {},
          `${ctx.name(s)}: `,
          (h.words[s] || []).length
            ? h.words[s].map((w) =>
                el(
                  "span",
                  { className: `pc-word${w.refused ? " is-refused" : ""}`, lang: "es" },
                  `${w.word} (${w.points})`,
                ),
              )
            : "no words",
        ),
      );
      return el(
        "details",
        { className: "pc-history", open: h.hand_number === history.length, "data-testid": "hand-scores" },
        el("summary", {}, `Hand ${h.hand_number}`),
        el("ul", { className: "list" }, words),
        el(
          "table",
          { className: "table" },
          el("thead", {}, head),
          el(
            "tbody",
            {},
            line("Words", "words"),
            line("Unused cards", "unused"),
            line("Floor at zero", "floor"),
            line("Bonuses", "bonus"),
            line("Challenges", "challenges"),
            el(
              "tr",
              { className: "pc-total" },
              el("td", {}, "Hand total"),
              seats.map((s) => el("td", { className: "num" }, String(h.scores[String(s)]?.total ?? "—"))),
            ),
          ),
        ),
        el("ul", { className: "list" }, bonuses),
      );
    });
  return el("section", { className: "card pc-scores", "data-testid": "scores" }, el("h2", {}, "Scores"), hands);
}

export function render(ctx) {
  const { view } = ctx;
  if (view.body.hand) syncBuilding(view.body);
  return el(
    "div",
    { className: "pc" },
    pilesSection(view, ctx),
    view.body.hand && !view.finished ? handSection(view, ctx) : "",
    view.phase === "review" ? reviewSection(view, ctx) : "",
    scoresSection(view, ctx),
  );
}
