import { el } from "../dom.js";
// Pala: your hand (legal plays marked from the view's actions and their choices), the bids (colour chips or the bid
// board), the trick in front of each player (mixes and smears drawn as such), banked cards, and the scores per round
// and in total. Colour names and numbers come from the view (the table's card language); every card shows its name
// and number, never colour alone. The server is the referee: nothing here decides what is legal.

const CHIPS = ["white", "red", "blue", "yellow", "orange", "green", "purple"];
let chosen = { key: null, chips: new Set(), card: null, cancels: new Set() };

function names(ctx) {
  return ctx.view.body.names;
}

function colourName(colour, ctx) {
  return names(ctx).colours[colour] || colour;
}

function cardText(c, ctx) {
  return `${colourName(c.colour, ctx)} ${names(ctx).numerals[String(c.value)] ?? c.value}`;
}

function cardLabel(c, ctx) {
  return `${colourName(c.colour, ctx)} ${names(ctx).numbers[String(c.value)] ?? c.value}`;
}

function card(c, ctx, { onClick, legal = false, selected = false, testid, small = false } = {}) {
  const props = {
    className: `pala-card pala-${c.colour}${legal ? " is-legal" : ""}${selected ? " is-selected" : ""}${small ? " is-small" : ""}`,
    title: cardLabel(c, ctx),
    lang: names(ctx).lang,
    dataset: c.id === undefined ? { colour: c.colour } : { cardId: c.id, colour: c.colour },
  };
  if (testid) props["data-testid"] = testid;
  const body = [
    el("span", { className: "pala-value" }, names(ctx).numerals[String(c.value)] ?? String(c.value)),
    el("span", { className: "pala-name" }, colourName(c.colour, ctx)),
  ];
  if (!onClick) return el("span", props, body);
  return el(
    "button",
    {
      ...props,
      type: "button",
      "aria-label": cardLabel(c, ctx),
      "aria-pressed": String(selected),
      on: { click: onClick },
    },
    body,
  );
}

function chip(colour, ctx, props = {}) {
  return el(
    "span",
    { className: `pala-chip pala-${colour}`, lang: names(ctx).lang, ...props },
    colourName(colour, ctx),
  );
}

function offered(view, type) {
  return view.actions.find((a) => a.type === type) || null;
}

function choicesOf(spec, field) {
  return spec?.fields.find((f) => f.name === field)?.choices || [];
}

function resetIfNew(ctx) {
  const key = `${ctx.seq}`;
  if (chosen.key !== key) chosen = { key, chips: new Set(), card: null, cancels: new Set() };
}

export function prompt(view) {
  const body = view.body;
  if (view.phase === "bid")
    return body.variant === "impressionism"
      ? "put a card on the bid board, or pass."
      : "bid your colour chips, or the white chip for a null bid.";
  if (view.phase === "tie") return "you are tied: win or lose the tie?";
  if (view.phase === "cancel") return "choose the cards your Cancel cards remove.";
  if (view.phase === "play") return body.trick?.plays.length ? "play on the trick." : "lead a card.";
  return "";
}

export function describe(event, ctx) {
  const who = (s) => (s === ctx.seat ? "You" : ctx.name(s));
  const c = (x) => cardText(x, ctx);
  switch (event.type) {
    case "deal":
      return `Round ${event.round}: ${event.hand_size} cards each; ${ctx.name(event.dealer)} deals.`;
    case "bid":
      return `${who(event.seat)} bid ${event.chips.map((x) => colourName(x, ctx)).join(", ")}.`;
    case "placed":
      return `${who(event.seat)} put ${colourName(event.colour, ctx)} on ${names(ctx).slots[event.slot]}.`;
    case "passed":
      return `${who(event.seat)} passed.`;
    case "played": {
      const cards = event.cards.map(c).join(" + ");
      const onto = event.kind === "smear" ? ` (smeared onto ${ctx.name(event.onto)})` : "";
      return `${who(event.seat)}: ${event.kind} ${cards}${onto}.`;
    }
    case "tie":
      return `${who(event.seat)} tied with ${ctx.name(event.tied_with)}.`;
    case "tie_decided":
      return `${who(event.seat)} ${event.win ? "won" : "lost"} the tie.`;
    case "trick_won":
      return `${who(event.seat)} won a ${colourName(event.colour, ctx)} trick.`;
    case "score":
      return `${who(event.seat)}: ${event.points > 0 ? "+" : ""}${event.points} (${event.reason}).`;
    case "round_scored":
      return `Round ${event.round} scored.`;
    case "game_over":
      return `Game over (${event.reason}).`;
    case "player_removed":
      return `${ctx.name(event.seat)} left the game.`;
    default:
      return "";
  }
}

function headSection(view, ctx) {
  const b = view.body;
  const goal = b.goal.rounds
    ? `${b.goal.rounds} rounds`
    : `${b.goal.kind === "threshold" ? "ends at" : "goal"} ${b.goal.points}`;
  return el(
    "section",
    { className: "card pala-head" },
    el(
      "h2",
      {},
      `Round ${b.round} · ${b.variant === "impressionism" ? "Impressionism (lowest wins)" : "Pointillism (highest wins)"}`,
    ),
    el("p", { className: "muted" }, `${ctx.name(b.dealer)} dealt · ${goal} · ${b.aside_count} cards set aside`),
    view.finished ? el("p", { "data-testid": "game-over" }, `Game over: ${b.end_reason}.`) : "",
  );
}

function bidsSection(view, ctx) {
  const b = view.body;
  if (b.variant === "impressionism") return boardSection(view, ctx);
  const rows = ctx.table.players.map((p) =>
    el(
      "li",
      { dataset: { seat: p.seat } },
      el("strong", {}, ctx.name(p.seat)),
      " ",
      b.bids[p.seat]
        ? b.bids[p.seat].map((x) => chip(x, ctx))
        : el("span", { className: "muted" }, b.bid_turn === p.seat ? "bidding…" : "—"),
    ),
  );
  const spec = offered(view, "bid");
  let controls = "";
  if (spec) {
    const legal = choicesOf(spec, "colours").map((l) => [...l].sort().join(","));
    const pick = [...chosen.chips].sort().join(",");
    controls = el(
      "div",
      { className: "pala-bid-controls" },
      CHIPS.map((colour) =>
        el(
          "button",
          {
            type: "button",
            className: `pala-chip pala-${colour}${chosen.chips.has(colour) ? " is-selected" : ""}`,
            "aria-pressed": String(chosen.chips.has(colour)),
            "data-testid": "bid-chip",
            dataset: { colour },
            lang: names(ctx).lang,
            on: {
              click: () => {
                chosen.chips.has(colour) ? chosen.chips.delete(colour) : chosen.chips.add(colour);
                ctx.rerender();
              },
            },
          },
          colourName(colour, ctx),
        ),
      ),
      el(
        "button",
        {
          type: "button",
          className: "btn",
          "data-testid": "bid-submit",
          disabled: !legal.includes(pick),
          on: { click: () => ctx.send({ type: "bid", colours: [...chosen.chips] }) },
        },
        chosen.chips.has("white") ? "Bid null" : "Bid",
      ),
    );
  }
  return el(
    "section",
    { className: "card" },
    el("h2", {}, "Bids"),
    el("ul", { className: "pala-bids", "data-testid": "bids" }, rows),
    controls,
  );
}

function boardSection(view, ctx) {
  const b = view.body;
  const spec = offered(view, "place");
  const slots = choicesOf(spec, "slot");
  const items = b.board.map((slot, i) => {
    const label = names(ctx).slots[slot.slot];
    const open = spec && slots.includes(i) && chosen.card !== null;
    const inner = [
      el("span", { className: "pala-slot-name", lang: names(ctx).lang }, label),
      slot.card ? card(slot.card, ctx, { small: true }) : el("span", { className: "muted" }, "open"),
    ];
    if (!open) return el("div", { className: "pala-slot", "data-testid": "board-slot", dataset: { slot: i } }, inner);
    return el(
      "button",
      {
        type: "button",
        className: "pala-slot is-legal",
        "data-testid": "board-slot",
        dataset: { slot: i },
        on: { click: () => ctx.send({ type: "place", card: chosen.card, slot: i }) },
      },
      inner,
    );
  });
  const pass = offered(view, "pass");
  return el(
    "section",
    { className: "card" },
    el("h2", {}, "Bid board"),
    el("div", { className: "pala-board", "data-testid": "board" }, items),
    spec
      ? el(
          "p",
          { className: "muted" },
          chosen.card === null ? "Choose a marked card in your hand, then an open slot." : "Now choose an open slot.",
        )
      : "",
    pass
      ? el(
          "button",
          { type: "button", className: "btn", "data-testid": "pass", on: { click: () => ctx.send({ type: "pass" }) } },
          "Pass",
        )
      : "",
  );
}

function playView(play, ctx, trick) {
  let cards;
  if (play.kind === "mix")
    cards = [
      card(play.cards[0], ctx, { small: true }),
      el("span", { className: "pala-op" }, "+"),
      card(play.cards[1], ctx, { small: true }),
    ];
  else if (play.daub)
    cards = [
      card(play.cards[0], ctx, { small: true }),
      el("span", { className: "pala-op" }, "+"),
      el("span", { className: "pala-daub" }, card(play.daub, ctx, { small: true }), el("small", {}, "smeared")),
    ];
  else cards = play.cards.map((c) => card(c, ctx, { small: true }));
  const counts =
    play.kind === "mix" || play.daub
      ? el("span", { className: "pala-counts" }, "= ", cardText(play.counts_as, ctx))
      : "";
  const kind = play.kind === "smear" ? `smear onto ${ctx.name(play.onto)}` : play.kind;
  return el(
    "li",
    {
      className: `pala-play${trick.winning === play.seat ? " is-winning" : ""}${play.in_colour ? "" : " is-out"}`,
      "data-testid": "trick-play",
      dataset: { seat: play.seat, kind: play.kind },
    },
    el("span", { className: "pala-who" }, ctx.name(play.seat)),
    el("span", { className: "badge" }, kind),
    el("span", { className: "pala-cards" }, cards),
    counts,
    trick.winning === play.seat ? el("span", { className: "badge badge-ok" }, "winning") : "",
  );
}

function trickSection(view, ctx) {
  const b = view.body;
  const parts = [];
  if (b.trick?.plays.length) {
    const t = b.trick;
    parts.push(
      el(
        "p",
        {},
        "Trick colour: ",
        chip(t.colour, ctx),
        t.smeared ? ` (led ${colourName(t.lead_colour, ctx)}, smeared)` : "",
      ),
      el(
        "ol",
        { className: "pala-trick", "data-testid": "trick" },
        t.plays.map((p) => playView(p, ctx, t)),
      ),
    );
  } else if (b.trick) {
    parts.push(el("p", { className: "muted" }, `${ctx.name(b.trick.leader)} to lead.`));
  }
  if (b.last_trick) {
    const t = { ...b.last_trick, winning: b.last_trick.winner };
    parts.push(
      el(
        "details",
        { className: "pala-last", open: !b.trick?.plays.length },
        el(
          "summary",
          { "data-testid": "last-trick" },
          `Last trick: ${ctx.name(t.winner)} won ${colourName(t.colour, ctx)}`,
        ),
        el(
          "ol",
          { className: "pala-trick" },
          t.plays.map((p) => playView(p, ctx, t)),
        ),
      ),
    );
  }
  return el(
    "section",
    { className: "card" },
    el("h2", {}, "Trick"),
    parts.length ? parts : el("p", { className: "muted" }, "No trick yet."),
  );
}

function handSection(view, ctx) {
  const b = view.body;
  if (!b.hand) return "";
  const single = {};
  for (const type of ["lead", "copy", "junk"])
    for (const id of choicesOf(offered(view, type), "card")) single[id] = type;
  const place = choicesOf(offered(view, "place"), "card");
  const hand = b.hand.map((c) => {
    if (single[c.id])
      return card(c, ctx, {
        legal: true,
        testid: "hand-card",
        onClick: () => ctx.send({ type: single[c.id], card: c.id }),
      });
    if (place.includes(c.id))
      return card(c, ctx, {
        legal: true,
        selected: chosen.card === c.id,
        testid: "hand-card",
        onClick: () => {
          chosen.card = chosen.card === c.id ? null : c.id;
          ctx.rerender();
        },
      });
    return card(c, ctx, { testid: "hand-card", onClick: null });
  });
  const byId = new Map(b.hand.map((c) => [c.id, c]));
  const pairs = [];
  for (const pair of choicesOf(offered(view, "mix"), "cards")) {
    pairs.push(
      el(
        "button",
        {
          type: "button",
          className: "btn pala-pair",
          "data-testid": "mix-option",
          on: { click: () => ctx.send({ type: "mix", cards: pair }) },
        },
        "Mix ",
        cardText(byId.get(pair[0]), ctx),
        " + ",
        cardText(byId.get(pair[1]), ctx),
      ),
    );
  }
  for (const pair of choicesOf(offered(view, "smear"), "cards")) {
    pairs.push(
      el(
        "button",
        {
          type: "button",
          className: "btn pala-pair",
          "data-testid": "smear-option",
          on: { click: () => ctx.send({ type: "smear", cards: pair }) },
        },
        "Smear ",
        cardText(byId.get(pair[0]), ctx),
        " onto the winner, play ",
        cardText(byId.get(pair[1]), ctx),
      ),
    );
  }
  const kinds = Object.values(single);
  const hint = kinds.length ? `Marked cards: ${[...new Set(kinds)].join(" or ")}.` : "";
  return el(
    "section",
    { className: "card" },
    el("h2", {}, `Your hand (${b.hand.length})`),
    el("div", { className: "pala-hand", "data-testid": "hand" }, hand),
    hint ? el("p", { className: "muted" }, hint) : "",
    pairs.length ? el("div", { className: "pala-pairs" }, pairs) : "",
  );
}

function decisionSection(view, ctx) {
  const b = view.body;
  const parts = [];
  if (offered(view, "win_tie")) {
    parts.push(
      el("p", {}, "You are tied for the lead of this trick."),
      el(
        "button",
        {
          type: "button",
          className: "btn",
          "data-testid": "win-tie",
          on: { click: () => ctx.send({ type: "win_tie" }) },
        },
        "Win the tie",
      ),
      " ",
      el(
        "button",
        {
          type: "button",
          className: "btn",
          "data-testid": "lose-tie",
          on: { click: () => ctx.send({ type: "lose_tie" }) },
        },
        "Lose the tie",
      ),
    );
  }
  if (offered(view, "cancel") && b.cancel) {
    const need = b.cancel.need;
    parts.push(
      el("p", {}, `Your Cancel cards remove ${need} card${need === 1 ? "" : "s"}: choose them.`),
      el(
        "div",
        { className: "pala-hand" },
        b.cancel.cards.map((c) =>
          card(c, ctx, {
            legal: true,
            selected: chosen.cancels.has(c.id),
            testid: "cancel-card",
            onClick: () => {
              chosen.cancels.has(c.id) ? chosen.cancels.delete(c.id) : chosen.cancels.add(c.id);
              ctx.rerender();
            },
          }),
        ),
      ),
      el(
        "button",
        {
          type: "button",
          className: "btn",
          "data-testid": "cancel-submit",
          disabled: chosen.cancels.size !== need,
          on: { click: () => ctx.send({ type: "cancel", cards: [...chosen.cancels] }) },
        },
        "Cancel these",
      ),
    );
  }
  return parts.length ? el("section", { className: "card pala-decide" }, parts) : "";
}

function banksSection(view, ctx) {
  const b = view.body;
  const rows = ctx.table.players.map((p) => {
    const bank = b.banks[p.seat];
    return el(
      "li",
      { dataset: { seat: p.seat } },
      el("strong", {}, ctx.name(p.seat)),
      ` · ${b.hand_counts[p.seat]} in hand · banked ${bank.count}: `,
      bank.cards
        ? bank.cards.map((c) => card(c, ctx, { small: true }))
        : el("span", { className: "muted" }, "face down"),
      b.won[p.seat].length
        ? el("span", { className: "muted" }, ` · tricks: ${b.won[p.seat].map((x) => colourName(x, ctx)).join(", ")}`)
        : "",
    );
  });
  return el(
    "section",
    { className: "card" },
    el("h2", {}, "Banked"),
    el("ul", { className: "pala-banks", "data-testid": "banks" }, rows),
  );
}

function scoresSection(view, ctx) {
  const b = view.body;
  if (!b.history.length) return "";
  const players = ctx.table.players;
  const head = el(
    "tr",
    {},
    el("th", {}, "Round"),
    players.map((p) => el("th", { className: "num" }, ctx.name(p.seat))),
  );
  const rows = b.history.map((r) =>
    el(
      "tr",
      { "data-testid": "round-row" },
      el("td", {}, String(r.round)),
      players.map((p) => el("td", { className: "num", title: why(r.details[p.seat], ctx) }, String(r.points[p.seat]))),
    ),
  );
  const last = b.history.at(-1);
  const details = last
    ? el(
        "ul",
        { className: "pala-why" },
        players.map((p) => el("li", {}, `${ctx.name(p.seat)}: ${why(last.details[p.seat], ctx)}`)),
      )
    : "";
  return el(
    "section",
    { className: "card" },
    el("h2", {}, "Rounds"),
    el(
      "div",
      { className: "pala-scroll" },
      el("table", { className: "table", "data-testid": "scores" }, el("thead", {}, head), el("tbody", {}, rows)),
    ),
    last ? el("p", { className: "muted" }, `Round ${last.round}:`) : "",
    details,
  );
}

function why(d, ctx) {
  if (!d) return "";
  if (d.kind === "null") return `null bid ${d.made ? "made" : "missed"} (${d.tricks} tricks): ${d.points}`;
  if (d.kind === "colours") {
    const bid = d.bid.map((x) => colourName(x, ctx)).join(", ");
    if (!d.made) return `bid ${bid} missed: 0`;
    return `bid ${bid} made: ${d.tricks} tricks × ${d.bid.length}${d.rainbow ? " + 100 rainbow" : ""} = ${d.points}`;
  }
  const lines = d.lines
    .filter((l) => l.points !== 0 || l.how === "cancelled")
    .map((l) => `${cardText(l, ctx)} ${l.how === "cancelled" ? "cancelled" : (l.points > 0 ? "+" : "") + l.points}`);
  return `${lines.join(", ") || "nothing counted"}: ${d.points}`;
}

// The kit's players table gets the cards in hand and the tricks won this round; the kit adds names and totals.
export function columns(ctx) {
  const b = ctx.view.body;
  return [
    { head: "Cards", className: "num", testid: "count", cell: (p) => String(b.hand_counts[p.seat]) },
    {
      head: "Tricks",
      cell: (p) =>
        b.won[p.seat].length ? b.won[p.seat].map((x) => chip(x, ctx)) : el("span", { className: "muted" }, "—"),
    },
  ];
}

export const handles = [
  "bid",
  "place",
  "pass",
  "lead",
  "copy",
  "junk",
  "mix",
  "smear",
  "win_tie",
  "lose_tie",
  "cancel",
];

export function render(ctx) {
  resetIfNew(ctx);
  const { view } = ctx;
  return el(
    "div",
    { className: "pala", "data-testid": "pala", dataset: { phase: view.phase } },
    headSection(view, ctx),
    decisionSection(view, ctx),
    handSection(view, ctx),
    trickSection(view, ctx),
    bidsSection(view, ctx),
    banksSection(view, ctx),
    scoresSection(view, ctx),
  );
}
