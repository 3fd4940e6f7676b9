import { el } from "../dom.js";
// Palabra: your hand drawn as the cards are (colour plus a shape per colour, so colour-blind players can play;
// stars as ★×2/★×3; wild, vowel and joker cards marked), every word on the table with its value and lock, the
// pre-plays (shave and joker targets highlighted, with which of your cards can shave which letter), the plays
// (word, build, straight, flush, vowels, exchange, pass) with the server's preview of their value, the vote and
// challenge flow, the impatient timer, running scores, the pile and the others' card counts (never their cards).
// It reads the game's own part in view.body and what it may offer in view.actions; every rule (which card can
// shave what, what a play is worth, who won) comes from the server.

const COLOURS = {
  R: { name: "red", shape: "●" },
  B: { name: "blue", shape: "▲" },
  G: { name: "green", shape: "◆" },
  Y: { name: "yellow", shape: "■" },
};
const SPECIAL = { wild: "WILD", vowel: "VOWEL", joker: "JOKER" };
// Who sends timer_expired: the player who started the timer at zero; everyone else a little later, in case
// that page has gone. The server refuses early or repeated calls, so this only keeps the log tidy.
const OTHERS_GRACE_S = 3;
const RETRY_S = 3;

// What the player is putting together survives re-renders (other players' moves redraw the page) and is dropped
// when their turn changes; cards that leave the hand drop out of it.
let plan = newPlan(null);
let ticker = null;
let lastTimerSend = { deadline: null, at: 0 };
let previewed = { key: null, text: "" }; // the server's preview of the play being put together

function offered(view) {
  return new Set((view.actions || []).map((a) => a.type));
}

function newPlan(key) {
  return { key, picked: [], letters: {}, build: null, shaves: {}, jokers: [], note: "" };
}

function syncPlan(view) {
  // ``view`` here is the body: the game's own part of the view.
  const key = `${view.turn_no}:${view.round?.no ?? ""}`;
  if (plan.key !== key) plan = newPlan(key);
  const held = new Set((view.hand || []).map((c) => c.id));
  const keep = (ids) => ids.filter((id) => held.has(id));
  plan.picked = keep(plan.picked);
  if (plan.build) plan.build = { ...plan.build, before: keep(plan.build.before), after: keep(plan.build.after) };
  for (const [spot, id] of Object.entries(plan.shaves)) if (!held.has(id)) delete plan.shaves[spot];
  const buildable = new Set(view.targets?.build || []);
  if (plan.build && !buildable.has(plan.build.seat)) plan.build = null;
  const jokerable = new Set(view.targets?.joker || []);
  plan.jokers = plan.jokers.filter((s) => jokerable.has(s));
}

// -- cards -------------------------------------------------------------------------------------------------------
function needsLetter(c) {
  return c.kind === "wild" || c.kind === "vowel";
}

function colourNames(c) {
  return [...c.colors].map((k) => COLOURS[k].name);
}

function cardLabel(c, letter) {
  const what = c.kind === "letter" ? c.letter : `${c.kind} card${letter ? ` as ${letter}` : ""}`;
  const colours = c.kind === "joker" ? "black" : c.colors.length === 4 ? "all colours" : colourNames(c).join(" and ");
  const stars = c.stars ? `, ${c.stars} stars` : "";
  return c.kind === "joker" ? "joker" : `${what}, ${c.value} points, ${colours}${stars}`;
}

function face(c, { letter = null, shaved = false } = {}) {
  const shown = c.kind === "letter" ? c.letter : letter || (c.kind === "joker" ? "J" : "?");
  return [
    c.kind === "joker" ? "" : el("span", { className: "pa-value" }, String(c.value)),
    el("span", { className: "pa-letter" }, shown),
    SPECIAL[c.kind] ? el("span", { className: "pa-kind" }, SPECIAL[c.kind]) : "",
    c.stars ? el("span", { className: "pa-stars" }, `★×${c.stars}`) : "",
    el(
      "span",
      { className: "pa-shapes", "aria-hidden": "true" },
      c.kind === "joker"
        ? el("span", { className: "pa-shape" }, "✖")
        : [...c.colors].map((k) => el("span", { className: `pa-shape pa-shape-${k}` }, COLOURS[k].shape)),
    ),
    shaved ? el("span", { className: "pa-shaved-mark" }, "shaved") : "",
  ];
}

function card(c, { letter = null, onClick = null, testid = null, extraClass = "", title = null, shaved = false } = {}) {
  const props = {
    className: `pa-card pa-${c.kind}${shaved ? " is-shaved" : ""}${extraClass ? ` ${extraClass}` : ""}`,
    dataset: { cardId: c.id, colors: c.kind === "joker" ? "K" : c.colors, kind: c.kind },
    title: title || cardLabel(c, letter),
    "aria-label": `${cardLabel(c, letter)}${shaved ? ", shaved" : ""}`,
  };
  if (testid) props["data-testid"] = testid;
  if (!onClick) return el("span", { ...props, role: "img" }, face(c, { letter, shaved }));
  return el("button", { ...props, type: "button", on: { click: onClick } }, face(c, { letter, shaved }));
}

// -- what the player may do ---------------------------------------------------------------------------------------
/** The hand cards that may shave position ``at`` of ``word``, as the server lists them. */
function shavers(word, at, hand) {
  const ids = new Set((word.shave_options || []).find((o) => o.at === at)?.cards || []);
  return hand.filter((c) => ids.has(c.id));
}

function spelled(ids, byId) {
  return ids.map((id) => {
    const c = byId.get(id);
    return needsLetter(c) ? { card: id, letter: plan.letters[id] || "" } : id;
  });
}

function missingLetter(ids, byId) {
  return ids.some((id) => needsLetter(byId.get(id)) && !plan.letters[id]);
}

function sendSpelled(ctx, byId, action, ids) {
  if (missingLetter(ids, byId)) {
    plan.note = "Choose the letter each wild or vowel card stands for.";
    ctx.rerender();
    return;
  }
  plan.note = "";
  ctx.send(action);
}

// -- sections -------------------------------------------------------------------------------------------------------
// Starting or ending the impatient timer is open to everyone: it does not make it your turn.
const ANYONES = new Set(["start_timer", "timer_expired"]);

export function myTurn(view) {
  return (view.actions || []).some((a) => !ANYONES.has(a.type));
}

export function prompt(view) {
  const can = offered(view);
  if (can.has("vote")) return "accept or reject the word.";
  if (can.has("insist")) return "your word was rejected: withdraw it or insist.";
  if (can.has("challenge")) return "challenge the word formally or concede.";
  if (can.has("check")) return "check the disputed word in the word list, or let the players settle it.";
  if (view.phase === "round" && can.has("pass"))
    return `round ${view.body.round.no}: lay a ${can.has("shave") || can.has("joker") ? "pre-play or a " : ""}play face down, or pass.`;
  if (can.has("shave") || can.has("joker"))
    return "shave or joker first if you like, then play a word, build, straight, flush, vowels, exchange or pass.";
  if (can.has("word")) return "play a word, build, straight, flush, vowels, exchange or pass.";
  return "";
}

const REASONS = {
  word: "word",
  straight: "straight",
  flush: "flush",
  build: "build",
  vowels: "vowel play",
  shave: "shave",
  shaved: "shaved",
  jokered: "jokered",
  final_play: "final play",
  penalty: "cards left in hand",
  high_word_dropped: "best word dropped",
};

export function describe(event, ctx) {
  const who = (s) => (s === ctx.seat ? "You" : ctx.name(s));
  const letters = (w) => w.letters.join("");
  switch (event.type) {
    case "cut":
      return `Cut for the first turn: ${event.cuts.map((c) => `${ctx.name(c.seat)} ${c.letter || "—"}`).join(", ")}.`;
    case "turn":
      return `${who(event.seat)}: turn ${event.turn_no}.`;
    case "drew":
      return event.cards
        ? `You drew ${event.count} card${event.count === 1 ? "" : "s"}.`
        : `${who(event.seat)} drew ${event.count}.`;
    case "word_discarded":
      return `${who(event.seat)}: last word off the table.`;
    case "shaved":
      return `${who(event.seat)} shaved ${ctx.name(event.victim)}'s word for ${event.moved}.`;
    case "jokered":
      return `${who(event.seat)} jokered ${ctx.name(event.victim)}'s word (−${event.removed}).`;
    case "proposed":
      return `${who(event.seat)} played ${letters(event.word)}: vote on it.`;
    case "vote":
      return `${who(event.seat)} ${event.accept ? "accepted" : "rejected"} the word.`;
    case "vote_result":
      return event.accepted ? "The word is accepted." : "The word is rejected by a majority.";
    case "withdrawn":
      return `${who(event.seat)} took ${event.letters} back.`;
    case "insisted":
      return `${who(event.seat)} insisted.`;
    case "challenge":
      return `${who(event.seat)} challenged ${event.lookup.word}: ${event.lookup.why}${event.upheld ? " — withdrawn" : " — it stands, the challenger misses a turn"}.`;
    case "conceded":
      return `${who(event.seat)} conceded.`;
    case "teacher_check":
      return `The teacher checked ${event.lookup.word}: ${event.lookup.why}.`;
    case "placed":
      return `${who(event.seat)}: ${letters(event.word)} (${event.word.kind}) stands, worth ${event.word.value}.`;
    case "vowel_play":
      return `${who(event.seat)} showed ${event.letters.join(" ")} for ${event.points}.`;
    case "exchanged":
      return `${who(event.seat)} exchanged ${event.count} card${event.count === 1 ? "" : "s"}.`;
    case "passed":
      return `${who(event.seat)} passed.`;
    case "timer_started":
      return `${event.seat === null ? "The teacher" : who(event.seat)} started the impatient timer.`;
    case "timer_expired":
      return event.player === null ? "Time is up for everyone not ready." : `Time is up for ${ctx.name(event.player)}.`;
    case "turn_forfeited":
      return `${who(event.seat)} missed a turn (lost challenge).`;
    case "score":
      return `${who(event.seat)}: ${event.points > 0 ? "+" : ""}${event.points} (${REASONS[event.reason] || event.reason}).`;
    case "hand_revealed":
      return `${who(event.seat)} had ${event.cards.length} card${event.cards.length === 1 ? "" : "s"} left (−${event.penalty}).`;
    case "player_removed":
      return `${ctx.name(event.seat)} left the game.`;
    case "round":
      return `Round ${event.no}: everyone plays at once.`;
    case "preplay_laid":
      return `${who(event.seat)} laid a pre-play face down.`;
    case "play_laid":
      return `${who(event.seat)} is ready.`;
    case "revealed":
      return `Round ${event.no}: everything is turned over.`;
    case "timed_out":
      return `${who(event.seat)} ran out of time and passes.`;
    case "game_over":
      return `Game over. Scores: ${event.scores.map((s, seat) => `${ctx.name(seat)} ${s}`).join(", ")}.`;
    default:
      return "";
  }
}

// The kit's players table gets each player's cards in hand and word on the table; the kit adds names and scores.
export function columns(ctx) {
  const body = ctx.view.body;
  const words = new Map(body.table.map((w) => [w.seat, w]));
  return [
    { head: "Cards", className: "num", testid: "count", cell: (p) => String(body.hand_counts[p.seat]) },
    {
      head: "Word on the table",
      cell: (p) =>
        words.has(p.seat)
          ? `${words.get(p.seat).letters.join("")} (${words.get(p.seat).value})`
          : el("span", { className: "muted" }, "—"),
    },
  ];
}

export function badges(p, ctx) {
  const body = ctx.view.body;
  const ready = body.round?.seats || [];
  return [
    body.forfeits[p.seat] ? el("span", { className: "badge badge-warn" }, `misses ${body.forfeits[p.seat]}`) : "",
    ready[p.seat]?.ready ? el("span", { className: "badge badge-ok" }, "ready") : "",
  ];
}

export const handles = [
  "word",
  "straight",
  "build",
  "flush",
  "vowels",
  "exchange",
  "pass",
  "vote",
  "withdraw",
  "insist",
  "challenge",
  "concede",
  "check",
  "joker",
  "shave",
  "start_timer",
  "timer_expired",
];

// A challenge's result is announced to the whole table: who challenged, the verdict, and the turn lost.
export function announce(event, ctx) {
  if (event.type === "challenge") {
    const word = event.lookup.word;
    const verdict = event.upheld
      ? `${word} is not in the word list: ${ctx.name(event.player)} takes it back.`
      : `${word} is a word: it stands, and ${event.seat === ctx.seat ? "you miss" : `${ctx.name(event.seat)} misses`} a turn.`;
    return `${ctx.who(event.seat)} challenged ${event.player === ctx.seat ? "your" : `${ctx.name(event.player)}'s`} word. ${verdict}`;
  }
  if (event.type === "teacher_check") {
    return `The teacher checked ${event.lookup.word}: ${event.lookup.why}.`;
  }
  return "";
}

function lockText(word) {
  if (word.kind === "flush") return `flush in ${colourNames({ colors: word.colour }).join("/")}`;
  if (!word.lock) return "";
  const shapes = [...word.lock].map((k) => `${COLOURS[k].shape} ${COLOURS[k].name}`).join(" and ");
  return `locked: ${shapes}`;
}

function wordBox(word, view, ctx, { pending = false } = {}) {
  const hand = view.hand || [];
  const shaving = word.shave_target && view.can.has("shave");
  const positions = word.faces.map((f, at) => {
    const shaved = word.shaved.includes(at);
    const options = shaving ? shavers(word, at, hand) : [];
    const spot = `${word.seat}:${at}`;
    const chooser = options.length
      ? el(
          "select",
          {
            className: "pa-shave-choice",
            "aria-label": `Shave ${word.letters[at]} (letter ${at + 1}) of ${ctx.name(word.seat)}'s word with`,
            "data-testid": `shave-${word.seat}-${at}`,
            on: {
              change: (e) => {
                if (e.target.value) plan.shaves[spot] = Number(e.target.value);
                else delete plan.shaves[spot];
                ctx.rerender();
              },
            },
          },
          el("option", { value: "" }, "—"),
          options.map((c) =>
            el(
              "option",
              { value: String(c.id), selected: plan.shaves[spot] === c.id },
              cardLabel(c, needsLetter(c) ? word.letters[at] : null),
            ),
          ),
        )
      : "";
    return el(
      "span",
      { className: `pa-position${options.length ? " can-shave" : ""}` },
      card(f, { letter: f.letter, shaved }),
      chooser,
    );
  });
  const flags = [
    word.jokered ? el("span", { className: "badge badge-warn" }, "jokered") : "",
    word.shave_target ? el("span", { className: "badge pa-target" }, "you may shave") : "",
    word.joker_target ? el("span", { className: "badge pa-target" }, "you may joker") : "",
    word.build_target ? el("span", { className: "badge" }, "you may build on it") : "",
  ];
  const controls = [];
  if (shaving) {
    const chosen = Object.entries(plan.shaves).filter(([spot]) => spot.startsWith(`${word.seat}:`));
    controls.push(
      el(
        "button",
        {
          className: "btn btn-primary",
          type: "button",
          disabled: !chosen.length,
          "data-testid": `shave-${word.seat}`,
          on: {
            click: () =>
              ctx.send({
                type: "shave",
                seat: word.seat,
                cards: chosen.map(([spot, id]) => ({ card: id, at: Number(spot.split(":")[1]) })),
              }),
          },
        },
        `Shave ${ctx.name(word.seat)}'s word`,
      ),
    );
  }
  if (word.joker_target && view.can.has("joker")) {
    const jokers = hand.filter((c) => c.kind === "joker").length;
    const ticked = plan.jokers.includes(word.seat);
    controls.push(
      el(
        "label",
        { className: "pa-joker-tick" },
        el("input", {
          type: "checkbox",
          checked: ticked,
          disabled: !ticked && plan.jokers.length >= jokers,
          "data-testid": `joker-${word.seat}`,
          on: {
            change: (e) => {
              plan.jokers = e.target.checked ? [...plan.jokers, word.seat] : plan.jokers.filter((s) => s !== word.seat);
              ctx.rerender();
            },
          },
        }),
        " Joker this word",
      ),
    );
  }
  if (word.build_target && view.can.has("build")) {
    const building = plan.build?.seat === word.seat;
    controls.push(
      el(
        "button",
        {
          className: `btn${building ? " btn-primary" : ""}`,
          type: "button",
          "data-testid": `build-on-${word.seat}`,
          on: {
            click: () => {
              plan.build = building ? null : { seat: word.seat, before: [], after: [], side: "after" };
              plan.picked = [];
              ctx.rerender();
            },
          },
        },
        building ? "Stop building" : "Build on this word",
      ),
    );
  }
  const owner = pending ? `${ctx.name(word.seat)} plays` : `${ctx.name(word.seat)}`;
  return el(
    "div",
    {
      className: `pa-word${word.shave_target || word.joker_target ? " is-target" : ""}${word.jokered ? " is-jokered" : ""}`,
      dataset: { seat: word.seat },
      "data-testid": pending ? "pending-word" : `word-${word.seat}`,
    },
    el(
      "div",
      { className: "pa-word-head" },
      el("strong", {}, owner),
      " ",
      el("span", { className: "pa-spelled" }, word.letters.join("")),
      el(
        "span",
        { className: "pa-word-value", "data-testid": pending ? "pending-value" : `value-${word.seat}` },
        `${word.value} points`,
      ),
      el(
        "span",
        { className: "muted" },
        [
          word.kind !== "word" ? word.kind : "",
          lockText(word),
          word.multiplier > 1 ? `stars ×${word.multiplier}` : "",
          word.bonus ? `+${word.bonus} all seven cards` : "",
          word.built_on ? `built on ${word.built_on.letters}` : "",
        ]
          .filter(Boolean)
          .join(" · "),
      ),
      flags,
    ),
    el("div", { className: "pa-word-cards" }, positions),
    controls.length ? el("div", { className: "pa-word-controls" }, controls) : "",
  );
}

function tableSection(view, ctx) {
  return el(
    "section",
    { className: "card pa-table", "data-testid": "table-words" },
    el(
      "div",
      { className: "card-head" },
      el("h2", {}, "On the table"),
      el(
        "span",
        { className: "pa-piles" },
        el("span", { className: "chip", "data-testid": "pile" }, `Pile: ${view.pile}`),
        el("span", { className: "chip" }, `Discards: ${view.discard}`),
      ),
    ),
    view.table.length
      ? view.table.map((w) => wordBox(w, view, ctx))
      : el("p", { className: "muted" }, "No words on the table yet."),
  );
}

function pendingSection(view, ctx) {
  const pending = view.pending;
  if (!pending) return "";
  const can = view.can;
  const button = (type, label, extra = {}, primary = false) =>
    el(
      "button",
      {
        className: `btn${primary ? " btn-primary" : ""}`,
        type: "button",
        "data-testid": `do-${type}${extra.accept === undefined ? "" : extra.accept ? "-accept" : "-reject"}`,
        on: { click: () => ctx.send({ type, ...extra }) },
      },
      label,
    );
  const votes = Object.entries(view.votes).map(([s, yes]) =>
    el(
      "span",
      { className: `chip ${yes ? "pa-yes" : "pa-no"}` },
      `${ctx.name(Number(s))}: ${yes ? "✓ accept" : "✗ reject"}`,
    ),
  );
  const stage =
    {
      vote: "The other players vote.",
      decide: `${ctx.name(view.turn)} may withdraw the word or insist.`,
      challenge: `Waiting for ${view.rejecters.map(ctx.name).join(", ")}: challenge or concede.`,
    }[view.phase] || "";
  return el(
    "section",
    { className: "card pa-pending", "data-testid": "pending" },
    el("h2", {}, "Is it a word?"),
    wordBox(pending, view, ctx, { pending: true }),
    el("p", {}, stage, " ", votes),
    el(
      "div",
      { className: "pa-buttons" },
      can.has("vote")
        ? [button("vote", "✓ Accept", { accept: true }, true), button("vote", "✗ Reject", { accept: false })]
        : "",
      can.has("withdraw") ? button("withdraw", "Withdraw the word") : "",
      can.has("insist") ? button("insist", "Insist: it is a word", {}, true) : "",
      can.has("challenge") ? button("challenge", "Challenge it (look it up)", {}, true) : "",
      can.has("concede") ? button("concede", "Concede") : "",
      can.has("check") ? button("check", "Check it in the word list", {}, true) : "",
    ),
    el("p", { className: "help" }, "A lost challenge costs the challenger a turn; a word not found is taken back."),
  );
}

function pickable(view) {
  const can = view.can;
  return can.has("word") || can.has("build") || can.has("flush") || can.has("vowels") || can.has("exchange");
}

function letterChooser(c, ctx, view) {
  const letters = view.letters_for[c.kind];
  return el(
    "select",
    {
      className: "pa-letter-choice",
      "aria-label": `Letter for the ${c.kind} card`,
      "data-testid": "letter-choice",
      on: {
        change: (e) => {
          plan.letters[c.id] = e.target.value;
          plan.note = "";
          ctx.rerender();
        },
      },
    },
    el("option", { value: "" }, "letter?"),
    [...letters].map((l) => el("option", { value: l, selected: plan.letters[c.id] === l }, l)),
  );
}

function lineOf(ids, byId, ctx, view, remove) {
  return ids.map((id) => {
    const c = byId.get(id);
    return el(
      "span",
      { className: "pa-picked" },
      card(c, {
        letter: plan.letters[id],
        onClick: () => {
          remove(id);
          ctx.rerender();
        },
        title: "Take it back",
      }),
      needsLetter(c) ? letterChooser(c, ctx, view) : "",
    );
  });
}

function handSection(view, ctx, byId) {
  const hand = view.hand;
  const can = view.can;
  const picking = pickable(view);
  const inUse = new Set([...plan.picked, ...(plan.build ? [...plan.build.before, ...plan.build.after] : [])]);
  const shaveHints = new Map();
  if (can.has("shave")) {
    for (const word of view.table.filter((w) => w.shave_target)) {
      word.letters.forEach((letter, at) => {
        for (const c of shavers(word, at, hand))
          shaveHints.set(c.id, [...(shaveHints.get(c.id) || []), `${letter} of ${ctx.name(word.seat)}'s word`]);
      });
    }
  }
  const cards = hand.map((c) => {
    const hint = shaveHints.get(c.id);
    const classes = [
      inUse.has(c.id) ? "is-used" : "",
      hint ? "can-shave" : "",
      c.kind === "joker" && can.has("joker") ? "can-joker" : "",
    ]
      .filter(Boolean)
      .join(" ");
    const add = () => {
      if (plan.build) plan.build[plan.build.side].push(c.id);
      else plan.picked.push(c.id);
      ctx.rerender();
    };
    return card(c, {
      testid: "hand-card",
      extraClass: classes,
      title: `${cardLabel(c)}${hint ? ` — can shave ${hint.join(", ")}` : ""}`,
      onClick: picking && !inUse.has(c.id) ? add : null,
    });
  });
  const sections = [el("div", { className: "pa-hand", "data-testid": "hand" }, cards)];
  if (shaveHints.size)
    sections.push(
      el(
        "p",
        { className: "help pa-hint" },
        "Cards with a dashed outline can shave a highlighted word: choose them under its letters.",
      ),
    );
  if (picking) sections.push(plan.build ? buildArea(view, ctx, byId) : playArea(view, ctx, byId));
  if (plan.jokers.length && can.has("joker")) {
    const jokers = hand.filter((c) => c.kind === "joker").map((c) => c.id);
    sections.push(
      el(
        "button",
        {
          className: "btn btn-primary",
          type: "button",
          "data-testid": "play-jokers",
          on: {
            click: () =>
              ctx.send({ type: "joker", targets: plan.jokers.map((s, i) => ({ card: jokers[i], seat: s })) }),
          },
        },
        `Joker ${plan.jokers.map((s) => `${ctx.name(s)}'s word`).join(" and ")}`,
      ),
    );
  }
  if (plan.note)
    sections.push(
      el("p", { className: "message message-error", role: "alert", "data-testid": "plan-note" }, plan.note),
    );
  return el(
    "section",
    { className: "card pa-hand-card" },
    el("h2", {}, "Your hand"),
    sections,
    can.has("pass")
      ? el(
          "div",
          { className: "pa-buttons" },
          el(
            "button",
            {
              className: "btn",
              type: "button",
              "data-testid": "do-pass",
              on: { click: () => ctx.send({ type: "pass" }) },
            },
            "Pass",
          ),
        )
      : "",
  );
}

/** Ask the server what ``action`` is worth (once per distinct action) and show its answer when it comes. */
function previewLine(ctx, action, ready) {
  if (!ready) return "";
  const key = JSON.stringify(action);
  if (previewed.key !== key) {
    previewed = { key, text: "…" };
    ctx.preview(action).then(
      (result) => {
        if (previewed.key !== key) return;
        previewed.text = previewText(result);
        ctx.rerender();
      },
      (error) => {
        if (previewed.key !== key) return;
        previewed.text = error.message || "Not a play.";
        ctx.rerender();
      },
    );
  }
  return el("p", { className: "pa-preview", "data-testid": "preview", "aria-live": "polite" }, previewed.text);
}

function previewText(p) {
  if (p.kind === "vowels") return `Worth ${p.value} points.`;
  const parts = [];
  if (p.lock) parts.push(`locked ${[...p.lock].map((k) => COLOURS[k].name).join(" and ")} ×${p.lock_multiplier}`);
  if (p.stars > 1) parts.push(`stars ×${p.stars}`);
  if (p.bonus) parts.push(`+${p.bonus} for all seven cards`);
  if (p.kind === "flush") parts.push(`flush in ${colourNames({ colors: p.colour }).join("/")}`);
  return `${p.letters}: worth ${p.value} points${parts.length ? ` (${parts.join(", ")})` : ""}.`;
}

function playArea(view, ctx, byId) {
  const can = view.can;
  const ids = plan.picked;
  const button = (type, label, primary = false) =>
    can.has(type)
      ? el(
          "button",
          {
            className: `btn${primary ? " btn-primary" : ""}`,
            type: "button",
            disabled: !ids.length,
            "data-testid": `do-${type}`,
            on: {
              click: () => {
                if (type === "word" || type === "straight")
                  sendSpelled(ctx, byId, { type, cards: spelled(ids, byId) }, ids);
                else ctx.send({ type, cards: ids }); // flushes, vowels and exchanges name plain card ids
              },
            },
          },
          label,
        )
      : "";
  return el(
    "div",
    { className: "pa-builder" },
    el(
      "div",
      { className: "pa-line", "data-testid": "picked" },
      ids.length
        ? lineOf(ids, byId, ctx, view, (id) => plan.picked.splice(plan.picked.indexOf(id), 1))
        : el(
            "span",
            { className: "muted" },
            "Click cards of your hand, in order, to spell a word (or choose cards for a flush, vowels or an exchange).",
          ),
      ids.length
        ? el(
            "strong",
            { className: "pa-spelled" },
            ids.map((id) => byId.get(id).letter || plan.letters[id] || "?").join(""),
          )
        : "",
    ),
    previewLine(
      ctx,
      { type: "word", cards: spelled(ids, byId) },
      can.has("word") && ids.length && !missingLetter(ids, byId),
    ),
    el(
      "div",
      { className: "pa-buttons" },
      button("word", "Play the word", true),
      button("straight", "Play a straight"),
      button("flush", "Play a flush"),
      button("vowels", "Show vowels"),
      button("exchange", "Exchange these cards"),
      ids.length
        ? el(
            "button",
            {
              className: "btn",
              type: "button",
              on: {
                click: () => {
                  plan.picked = [];
                  ctx.rerender();
                },
              },
            },
            "Clear",
          )
        : "",
    ),
  );
}

function buildArea(view, ctx, byId) {
  const b = plan.build;
  const target = view.table.find((w) => w.seat === b.seat);
  const side = (name, label) =>
    el(
      "div",
      { className: `pa-line${b.side === name ? " is-active" : ""}`, "data-testid": `build-${name}` },
      el(
        "label",
        {},
        el("input", {
          type: "radio",
          name: "pa-build-side",
          checked: b.side === name,
          on: {
            change: () => {
              b.side = name;
              ctx.rerender();
            },
          },
        }),
        ` ${label}`,
      ),
      lineOf(b[name], byId, ctx, view, (id) => b[name].splice(b[name].indexOf(id), 1)),
    );
  const added = (ids) => ids.map((id) => byId.get(id).letter || plan.letters[id] || "?").join("");
  return el(
    "div",
    { className: "pa-builder pa-building", "data-testid": "build-area" },
    el(
      "p",
      {},
      `Building on ${ctx.name(b.seat)}'s ${target.letters.join("")}: click cards to add them ${b.side === "before" ? "before" : "after"} it.`,
    ),
    side("before", "Before the word"),
    side("after", "After the word"),
    el(
      "p",
      {},
      "Spells ",
      el(
        "strong",
        { className: "pa-spelled", "data-testid": "build-spelled" },
        added(b.before),
        el("span", { className: "pa-old-letters" }, target.letters.join("")),
        added(b.after),
      ),
    ),
    previewLine(
      ctx,
      { type: "build", seat: b.seat, before: spelled(b.before, byId), after: spelled(b.after, byId) },
      (b.before.length || b.after.length) && !missingLetter([...b.before, ...b.after], byId),
    ),
    el(
      "div",
      { className: "pa-buttons" },
      el(
        "button",
        {
          className: "btn btn-primary",
          type: "button",
          disabled: !b.before.length && !b.after.length,
          "data-testid": "do-build",
          on: {
            click: () =>
              sendSpelled(
                ctx,
                byId,
                { type: "build", seat: b.seat, before: spelled(b.before, byId), after: spelled(b.after, byId) },
                [...b.before, ...b.after],
              ),
          },
        },
        "Build",
      ),
      el(
        "button",
        {
          className: "btn",
          type: "button",
          on: {
            click: () => {
              plan.build = null;
              ctx.rerender();
            },
          },
        },
        "Cancel",
      ),
    ),
  );
}

function timerSection(view, ctx) {
  if (!view.options.impatient_timer) return "";
  const can = view.can;
  const parts = [el("h2", {}, "Impatient timer")];
  if (view.timer) parts.push(el("p", { className: "pa-countdown", "data-testid": "timer", "aria-live": "off" }, ""));
  else parts.push(el("p", { className: "muted" }, "Not running."));
  if (can.has("start_timer")) {
    parts.push(
      el(
        "button",
        {
          className: "btn",
          type: "button",
          "data-testid": "do-start_timer",
          on: { click: () => ctx.send({ type: "start_timer" }) },
        },
        "Start the one-minute timer",
      ),
    );
  }
  return el("section", { className: "card pa-timer" }, parts);
}

function tick(ctx) {
  const view = { ...ctx.view.body, phase: ctx.view.phase, can: offered(ctx.view) };
  const shown = document.querySelector("#game [data-testid=timer]");
  if (!view.timer || !shown) return;
  const now = Date.now() / 1000;
  const left = Math.max(0, Math.ceil(view.timer.deadline - now));
  shown.textContent = left
    ? `${left} s left for ${view.phase === "round" ? "everyone not ready" : ctx.name(view.turn)}`
    : "Time is up!";
  shown.classList.toggle("is-urgent", left <= 10);
  const mine = view.timer.started_by === ctx.seat;
  const due = view.timer.deadline + (mine ? 0.25 : OTHERS_GRACE_S);
  const resend = lastTimerSend.deadline !== view.timer.deadline || now - lastTimerSend.at > RETRY_S;
  if (now >= due && view.can.has("timer_expired") && resend) {
    lastTimerSend = { deadline: view.timer.deadline, at: now };
    ctx.send({ type: "timer_expired" });
  }
}

function roundSection(view, ctx) {
  const round = view.round;
  if (!round) return "";
  const mine = round.mine;
  const laid = (play) =>
    play
      ? `${play.type}${play.letters ? ` ${play.letters} (${play.value})` : ""}${play.cards.length ? `, ${play.cards.length} cards` : ""}`
      : "nothing yet";
  return el(
    "section",
    { className: "card pa-round", "data-testid": "round" },
    el("h2", {}, `Round ${round.no}: everyone plays at once`),
    el(
      "ul",
      { className: "list" },
      round.seats.map((s, seat) =>
        el(
          "li",
          {},
          `${ctx.name(seat)}: `,
          s.ready ? "ready" : "thinking",
          s.preplay_cards
            ? ` · ${s.preplay_cards} pre-play card(s) face down by ${s.preplay_words.map(ctx.name).join(", ")}'s word`
            : "",
          s.play_cards ? ` · ${s.play_cards} card(s) face down` : "",
        ),
      ),
    ),
    mine
      ? el(
          "p",
          {},
          "You laid: pre-play ",
          mine.preplay ? mine.preplay.map((p) => `${p.kind} on ${ctx.name(p.victim)}`).join(", ") : "none",
          "; play ",
          laid(mine.play),
        )
      : "",
  );
}

function overSection(view, envelope) {
  if (!envelope.finished) return "";
  const why =
    {
      went_out: "a player used their last card",
      no_plays: "a full round passed with nothing played",
      players_left: "only one player is left",
      pile_short: "the pile could not refill every hand",
    }[view.end_reason] || view.end_reason;
  return el(
    "section",
    { className: "card pa-over", "data-testid": "game-over" },
    el("h2", {}, "Game over"),
    el("p", {}, `The game ended: ${why}.`),
  );
}

export function render(ctx) {
  const envelope = ctx.view;
  // The game's own part, with the envelope's phase and what this viewer may do (the types offered).
  const view = { ...envelope.body, phase: envelope.phase, finished: envelope.finished, can: offered(envelope) };
  if (view.hand) syncPlan(view);
  const byId = new Map((view.hand || []).map((c) => [c.id, c]));
  clearInterval(ticker);
  ticker = null;
  if (view.timer && !view.finished) {
    ticker = setInterval(() => tick(ctx), 250);
    setTimeout(() => tick(ctx), 0);
  }
  return el(
    "div",
    { className: "pa", dataset: { phase: view.phase } },
    overSection(view, envelope),
    timerSection(view, ctx),
    pendingSection(view, ctx),
    roundSection(view, ctx),
    view.hand && !view.finished ? handSection(view, ctx, byId) : "",
    tableSection(view, ctx),
  );
}
