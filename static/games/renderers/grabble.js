// Grabble: the 15×15 board with its premiums, the racks, laying tiles, a parse form for every word the tiles form,
// exchange, pass, hints (the best play's squares shown on the board, its words and score beside it: the player
// still lays and parses it) and suggestions, the teacher's approval panel (the word waiting is drawn on the board
// where it was laid), the quiz turn by turn with the answers and the analyses once marked, partial credit, and the
// play/learning/teaching scores.
//
// Laying tiles, as in the board games players know: click a square (again to turn the arrow across/down, or use
// the arrow keys) and type the word — Greek letters or their Beta Code transliteration, mapped to the rack's tiles
// by the key table the server sends (body.keys); a letter with no tile of its own takes a blank. Or tap a rack tile
// and then a square, or tap a square and then the tiles in order, or drag tiles from the rack to the board (and
// back, or onto another rack tile to reorder the rack); Shuffle mixes the rack. Backspace takes the last tile
// back, Enter plays, Escape takes all back. The rack and the Play button stay on screen while tiles are laid.
//
// The server is the only referee: the words a placement forms, their scores, the bonus and the total, and the
// Greek of a lemma typed in Beta Code come from a preview of the play (ctx.preview), asked for as tiles are laid
// and lemmas typed; the parts of speech, parse fields and their values come in the view's body (vocabulary).
import { el } from "../dom.js";

const COLUMNS = "ABCDEFGHIJKLMNO";
const PREMIUM_NAMES = { TW: "triple word", DW: "double word", TL: "triple letter", DL: "double letter" };

// The fields a parse form asks for, from the server's vocabulary: a verb's by its mood once chosen.
function fieldsFor(vocabulary, pos, parse) {
  if (!pos) return [];
  return (pos === "V" && vocabulary.verb_fields[parse.mood]) || vocabulary.fields[pos] || [];
}

// -- the board ----------------------------------------------------------------------------------------------------
const sq = (row, col) => `${COLUMNS[col]}${row + 1}`;
// A square's row and column, and the square `step` squares on in a direction (null off the board).
const at = (name) => [Number(name.slice(1)) - 1, COLUMNS.indexOf(name[0])];
function stepFrom(name, dir, step, size) {
  const [r, c] = at(name);
  const [row, col] = dir === "across" ? [r, c + step] : [r + step, c];
  return row >= 0 && col >= 0 && row < size && col < size ? sq(row, col) : null;
}

// -- what the player is putting together survives re-renders ----------------------------------------------------
// cursor: the square typing lays the next tile on, and the direction it moves in.
const EMPTY_DRAFT = () => ({
  placed: [],
  selected: null,
  blankAt: null,
  exchanging: false,
  exchange: [],
  cursor: null,
});
let draft = EMPTY_DRAFT();
let rackOrder = []; // tile ids, in the order the player keeps them (shuffle, drag): the page's own, never sent
const parses = {}; // "play:ΛΟΓΟΣ" / "quiz3:ΛΟΓΟΣ" -> { lemma, pos, parse }
const suggestion = { text: "", square: "", direction: "" };
// The server's previews: of the play being laid (words, scores, bonus, total, lemmas) and of the quiz answer being
// typed (lemmas). `key` is the action last asked about; an answer to an older one is dropped.
const previews = {
  play: { key: null, tiles: null, result: null, error: "" },
  quiz: { key: null, tiles: null, result: null, error: "" },
};
let latest = null; // { root, ctx } of the last render, for redraws after a click, a key, a drag or a preview

function redraw() {
  latest?.ctx.rerender();
}

function askPreview(slot, action, ctx) {
  const key = JSON.stringify(action);
  if (slot.key === key) return;
  const tiles = JSON.stringify(action.tiles ?? null);
  if (slot.tiles !== tiles) {
    slot.result = null;
    slot.error = "";
  }
  slot.key = key;
  slot.tiles = tiles;
  ctx.preview(action).then(
    (result) => {
      if (slot.key === key) {
        slot.result = result;
        slot.error = "";
        redraw();
      }
    },
    (error) => {
      if (slot.key === key) {
        slot.result = null;
        slot.error = error.message;
        redraw();
      }
    },
  );
}

function resetPreview(slot) {
  Object.assign(slot, { key: null, tiles: null, result: null, error: "" });
}

// A lemma as the server read it: "→ λόγος" for Beta Code, "→ not Beta Code" when it is neither, nothing for Greek.
function lemmaShown(slot, word, lemma) {
  const found = (slot.result?.lemmas || []).find((l) => l.word === word && l.lemma === lemma.trim());
  if (!found?.beta_code) return "";
  return found.greek ? `→ ${found.greek}` : "→ not Beta Code";
}

// The lemmas typed so far for `words`, as a preview reads them.
function lemmasOf(words, prefix) {
  return words
    .filter((w) => parseFor(`${prefix}:${w}`).lemma.trim())
    .map((w) => ({ word: w, lemma: parseFor(`${prefix}:${w}`).lemma.trim() }));
}

function syncDraft(view, ctx) {
  const rack = new Set((view.racks?.[String(ctx.seat)] || []).map((t) => t.id));
  draft.placed = draft.placed.filter((p) => rack.has(p.tile) && !(p.square in view.board));
  draft.exchange = draft.exchange.filter((id) => rack.has(id));
  if (!rack.has(draft.selected)) draft.selected = null;
  if (!draft.placed.some((p) => p.square === draft.blankAt)) draft.blankAt = null;
  if (draft.cursor && (draft.cursor.square in view.board || !view.can.has("play"))) draft.cursor = null;
  if (!view.can.has("play")) draft = EMPTY_DRAFT();
  const ids = [...rack];
  rackOrder = [...rackOrder.filter((id) => rack.has(id)), ...ids.filter((id) => !rackOrder.includes(id))];
}

// The rack's tiles in the player's order.
function orderedRack(view, ctx) {
  const rack = view.racks?.[String(ctx.seat)] || [];
  const byId = new Map(rack.map((t) => [t.id, t]));
  return rackOrder.filter((id) => byId.has(id)).map((id) => byId.get(id));
}

function shuffleRack() {
  for (let i = rackOrder.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [rackOrder[i], rackOrder[j]] = [rackOrder[j], rackOrder[i]];
  }
  redraw();
}

// Put `id` just before `before` in the rack (at the end when `before` is null).
function moveInRack(id, before) {
  if (id === before) return;
  rackOrder = rackOrder.filter((x) => x !== id);
  const index = before === null ? -1 : rackOrder.indexOf(before);
  rackOrder.splice(index < 0 ? rackOrder.length : index, 0, id);
}

function parseFor(key) {
  if (!parses[key]) parses[key] = { lemma: "", pos: "", parse: {} };
  return parses[key];
}

// The parse as the server reads it: only the fields this part of speech (and mood) uses.
function payload(vocabulary, word, entry) {
  const fields = fieldsFor(vocabulary, entry.pos, entry.parse);
  const parse = {};
  for (const name of fields) if (entry.parse[name]) parse[name] = entry.parse[name];
  return { word, lemma: entry.lemma.trim(), pos: entry.pos, parse };
}

// -- pieces -------------------------------------------------------------------------------------------------------
function tile(letter, value, { blank = false, extra = "", label, onClick, testid, dataset, onDrag } = {}) {
  const body = [
    el("span", { className: "gr-letter greek", lang: "grc" }, letter || "·"),
    el("span", { className: "gr-value" }, String(value)),
  ];
  const props = {
    className: `gr-tile${blank ? " is-blank" : ""}${extra}`,
    title: `${letter || "blank"}, ${value} point${value === 1 ? "" : "s"}`,
    dataset,
  };
  if (testid) props["data-testid"] = testid;
  if (!onClick) return el("span", props, body);
  const on = { click: onClick };
  if (onDrag) on.pointerdown = onDrag;
  return el("button", { ...props, type: "button", "aria-label": label, on }, body);
}

function greek(text, props = {}) {
  return el("span", { className: "greek", lang: "grc", ...props }, text);
}

function select(label, options, value, onChange, testid) {
  return el(
    "select",
    { "aria-label": label, "data-testid": testid, on: { change: (e) => onChange(e.target.value) } },
    options.map(([v, text]) => el("option", { value: v, selected: v === value }, text)),
  );
}

// One word's parse form: lemma (Greek with or without accents, or Beta Code, shown as the server reads it),
// part of speech, then the fields that part of speech (and a verb's mood) has, all from the server's vocabulary.
// `onLemma` asks the server for a new preview of the lemma as it is typed.
function parseForm(view, word, key, slot, onLemma, extra = "") {
  const vocabulary = view.vocabulary;
  const entry = parseFor(key);
  const preview = el(
    "span",
    { className: "gr-preview greek", lang: "grc", "data-testid": "lemma-preview" },
    lemmaShown(slot, word, entry.lemma),
  );
  const lemma = el("input", {
    type: "text",
    value: entry.lemma,
    maxLength: 60,
    autocomplete: "off",
    spellcheck: false,
    lang: "grc",
    className: "greek",
    "aria-label": `Lemma of ${word}`,
    placeholder: "λόγος or lo/gos",
    on: {
      input: (e) => {
        entry.lemma = e.target.value;
        preview.textContent = lemmaShown(slot, word, entry.lemma);
        onLemma();
      },
    },
  });
  const rerender = (change) => {
    change();
    redraw();
  };
  const optional = new Set(vocabulary.optional);
  const fields = fieldsFor(vocabulary, entry.pos, entry.parse).map((name) => {
    const choices = Object.entries(vocabulary.values[name]);
    const blankChoice = optional.has(name) ? ["", "none"] : ["", `${name}…`];
    return el(
      "label",
      { className: "gr-field" },
      el("span", {}, name),
      select(`${name} of ${word}`, [blankChoice, ...choices], entry.parse[name] || "", (v) =>
        rerender(() => {
          entry.parse[name] = v;
        }),
      ),
    );
  });
  return el(
    "div",
    { className: "gr-parse", "data-testid": "parse-form", dataset: { word } },
    el("div", { className: "gr-parse-word" }, greek(word, { className: "greek gr-word" }), extra),
    el("label", { className: "gr-field" }, el("span", {}, "lemma"), lemma, preview),
    el(
      "label",
      { className: "gr-field" },
      el("span", {}, "part of speech"),
      select(`Part of speech of ${word}`, [["", "choose…"], ...Object.entries(vocabulary.pos)], entry.pos, (v) =>
        rerender(() => {
          entry.pos = v;
        }),
      ),
    ),
    fields,
  );
}

function describeAnalysis(word) {
  if (!word.analysis) return "";
  const a = word.analysis;
  return el(
    "span",
    { className: "gr-analysis" },
    greek(a.form || word.word),
    " from ",
    greek(a.lemma),
    `: ${word.description || a.pos}`,
    a.gloss ? ` — “${a.gloss}”` : "",
    a.approved ? " (approved by the teacher)" : "",
  );
}

// -- sections -----------------------------------------------------------------------------------------------------
function scoresSection(view, ctx) {
  const seats = ctx.table.players.map((p) => p.seat);
  const { parts, total, provisional } = view.scores;
  const row = (label, key, values) =>
    el(
      "tr",
      {},
      el("th", {}, label),
      seats.map((s) => el("td", { className: "num", "data-testid": `${key}-${s}` }, String(values[s]))),
    );
  return el(
    "section",
    { className: "card gr-status" },
    el(
      "div",
      { className: "gr-facts" },
      el("span", { className: "chip", "data-testid": "bag" }, `Bag: ${view.bag} tile${view.bag === 1 ? "" : "s"}`),
      el("span", { className: "chip", "data-testid": "phase" }, phaseText(view, ctx)),
    ),
    el(
      "table",
      { className: "table gr-scores", "data-testid": "scores" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", {}, ""),
          seats.map((s) => el("th", { className: `num${view.turn === s ? " is-turn" : ""}` }, ctx.name(s))),
        ),
      ),
      el(
        "tbody",
        {},
        row(provisional ? "Play (so far)" : "Play", "play", parts.play),
        row("Learning", "learning", parts.learning),
        row("Teaching", "teaching", parts.teaching),
        row("Total", "final", total),
      ),
    ),
  );
}

function phaseText(view, ctx) {
  switch (view.phase) {
    case "play":
      return `Playing: ${ctx.name(view.turn)} ${view.turn === ctx.seat ? "are" : "is"} on turn`;
    case "approval":
      return "Waiting for the teacher to approve a word";
    case "quiz":
      return `Quiz: turn ${view.quiz.play + 1} of ${view.sheet.length}`;
    case "review":
      return "Quiz done: the teacher reviews";
    default:
      return "Game over";
  }
}

function boardSection(view, ctx) {
  const can = view.can;
  const placed = Object.fromEntries(draft.placed.map((p) => [p.square, p]));
  const rackTiles = new Map((view.racks?.[String(ctx.seat)] || []).map((t) => [t.id, t]));
  const hinted = Object.fromEntries((view.hint?.tiles || []).map((t) => [t.square, t]));
  // The word waiting for the teacher, where it was laid (its tiles are not on the board until approved).
  const waiting = Object.fromEntries((view.pending?.tiles || []).map((t) => [t.square, t]));
  const cursor = draft.cursor;
  const cells = [el("span", { className: "gr-corner" })];
  for (const c of COLUMNS) cells.push(el("span", { className: "gr-head" }, c));
  for (let r = 0; r < view.size; r += 1) {
    cells.push(el("span", { className: "gr-head" }, String(r + 1)));
    for (let c = 0; c < view.size; c += 1) {
      const name = sq(r, c);
      const onBoard = view.board[name];
      const mine = placed[name];
      const pending = !onBoard ? waiting[name] : undefined;
      const premium = onBoard ? undefined : view.premiums[name]; // a tile laid on it used it up
      const centre = name === view.centre;
      const hint = !onBoard && !mine ? hinted[name] : undefined;
      const isCursor = cursor?.square === name;
      let content = "";
      if (onBoard) content = tile(onBoard.letter, onBoard.value, { blank: onBoard.blank });
      else if (mine) {
        const face = rackTiles.get(mine.tile);
        content = tile(mine.letter || "?", face.value, {
          blank: face.letter === "",
          extra: " is-new",
          label: `Take ${mine.letter || "the blank"} back from ${name}`,
          onClick: () => {
            takeBack(mine);
            redraw();
          },
          dataset: { tileId: mine.tile, from: name },
          onDrag: (e) => startDrag(e, mine.tile, name),
        });
      } else if (pending) {
        content = tile(pending.letter, pending.value, { blank: pending.blank, extra: " is-pending" });
      } else if (hint) {
        content = tile(hint.letter, hint.blank ? 0 : (rackTiles.get(hint.tile)?.value ?? 0), {
          blank: hint.blank,
          extra: " is-hint",
        });
      } else if (centre) content = el("span", { className: "gr-premium-label greek", lang: "grc" }, "★ ἄρχου");
      else if (premium) content = el("span", { className: "gr-premium-label" }, premium);
      const label = `${name}${centre ? " ἄρχου, the centre (double word)" : premium ? ` ${PREMIUM_NAMES[premium]}` : ""}${hint ? `, hint: ${hint.letter}` : ""}${pending ? `, waiting: ${pending.letter}` : ""}`;
      const classes = `gr-square${premium ? ` gr-${premium}` : ""}${centre ? " gr-centre" : ""}${hint ? " is-hinted" : ""}${pending ? " is-waiting" : ""}${isCursor ? ` is-cursor is-${cursor.dir}` : ""}`;
      const props = { className: classes, dataset: { square: name }, title: label };
      const free = !onBoard && !mine;
      if (free && can.has("play")) {
        const click = () => {
          if (draft.selected !== null) placeSelected(name, rackTiles);
          else pointAt(name);
          redraw();
        };
        const arrow = isCursor
          ? el("span", { className: "gr-arrow", "aria-hidden": "true" }, cursor.dir === "across" ? "→" : "↓")
          : "";
        const what = isCursor ? `, typing ${cursor.dir} from here` : "";
        cells.push(
          el("button", { ...props, type: "button", "aria-label": `${label}${what}`, on: { click } }, content, arrow),
        );
      } else {
        cells.push(el("div", props, content));
      }
    }
  }
  const help =
    can.has("play") && !draft.exchanging
      ? el(
          "p",
          { className: "help gr-board-help" },
          cursor
            ? `Type the word ${cursor.dir} from ${cursor.square} (Greek or Beta Code: a b g d e z h q i k l m n c o p r s t u f x y w), or tap rack tiles. Click the square again to go ${cursor.dir === "across" ? "down" : "across"}.`
            : "Click a square and type a word, tap a tile and then a square, or drag tiles onto the board.",
        )
      : "";
  return el(
    "section",
    { className: "card gr-board-card" },
    el("div", { className: "gr-board", "data-testid": "board", role: "grid", "aria-label": "The board" }, cells),
    help,
  );
}

// -- laying tiles -------------------------------------------------------------------------------------------------
function placeSelected(name, rackTiles) {
  const face = rackTiles.get(draft.selected);
  draft.placed.push({ tile: draft.selected, square: name, letter: face.letter });
  if (face.letter === "") draft.blankAt = name;
  draft.selected = null;
}

function takeBack(placed) {
  draft.placed = draft.placed.filter((p) => p !== placed);
  if (draft.blankAt === placed.square) draft.blankAt = null;
}

// Click on a free square: typing starts there (across); clicking it again turns the direction.
function pointAt(name) {
  if (draft.cursor?.square === name) draft.cursor.dir = draft.cursor.dir === "across" ? "down" : "across";
  else draft.cursor = { square: name, dir: draft.cursor?.dir || "across" };
}

function occupied(view, name) {
  return name in view.board || draft.placed.some((p) => p.square === name);
}

// The first free square from `name` on in the cursor's direction (skipping the tiles already there).
function freeFrom(view, name, dir) {
  let here = name;
  while (here && occupied(view, here)) here = stepFrom(here, dir, 1, view.size);
  return here;
}

// Lay a rack tile on the cursor's square and move the cursor on. A blank takes `letter` when it is given.
function layAtCursor(view, tileFace, letter) {
  const square = freeFrom(view, draft.cursor.square, draft.cursor.dir);
  if (!square) return false;
  const blank = tileFace.letter === "";
  draft.placed.push({ tile: tileFace.id, square, letter: blank ? letter || "" : tileFace.letter });
  if (blank && !letter) draft.blankAt = square;
  const next = stepFrom(square, draft.cursor.dir, 1, view.size);
  const free = next && freeFrom(view, next, draft.cursor.dir);
  draft.cursor = free ? { square: free, dir: draft.cursor.dir } : null;
  return true;
}

// A letter typed: the first rack tile (in the player's order) showing it, else a blank standing for it.
function typeLetter(view, ctx, letter) {
  if (!draft.cursor) return false;
  const laid = new Set(draft.placed.map((p) => p.tile));
  const free = orderedRack(view, ctx).filter((t) => !laid.has(t.id));
  const face = free.find((t) => t.letter === letter) || free.find((t) => t.letter === "");
  if (!face) return false;
  return layAtCursor(view, face, letter);
}

function onKey(event) {
  if (!latest || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName))
  )
    return;
  const { ctx } = latest;
  const view = gameView(ctx.view);
  if (!view.can.has("play") || draft.exchanging || !latest.root.isConnected) return;
  const key = event.key;
  let handled = true;
  if (key === "Escape") {
    draft.placed = [];
    draft.blankAt = null;
    draft.cursor = null;
    draft.selected = null;
  } else if (key === "Backspace") {
    const last = draft.placed.at(-1);
    if (!last) handled = false;
    else {
      takeBack(last);
      draft.cursor = { square: last.square, dir: draft.cursor?.dir || "across" };
    }
  } else if (key === "Enter") {
    if (!draft.cursor && !draft.placed.length) return;
    const play = latest.root.querySelector("[data-testid=play]");
    if (play && !play.disabled) play.click();
  } else if (key.startsWith("Arrow")) {
    if (!draft.cursor) return;
    const dir = key === "ArrowLeft" || key === "ArrowRight" ? "across" : "down";
    const step = key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1;
    if (draft.cursor.dir !== dir && step === 1) draft.cursor.dir = dir;
    else {
      const next = stepFrom(draft.cursor.square, dir, step, view.size);
      if (next) draft.cursor = { square: next, dir };
    }
  } else if (key === " ") {
    if (!draft.cursor) return;
    draft.cursor.dir = draft.cursor.dir === "across" ? "down" : "across";
  } else {
    // A key the server's key table knows (accents typed with a Greek keyboard are dropped first).
    const letter = view.keys?.[key] ?? view.keys?.[key.normalize("NFD").replace(/\p{M}/gu, "")];
    if (!letter || !draft.cursor) return;
    handled = typeLetter(view, ctx, letter);
  }
  if (handled) {
    event.preventDefault();
    redraw();
  }
}
document.addEventListener("keydown", onKey);

// -- dragging tiles (pointer events: a mouse, a finger or a pen) ---------------------------------------------------
// A drag starts on a rack tile or a tile laid this turn; it ends on a free square (lay it there), on a rack tile (put
// it back before that tile) or on the rack (put it back at the end). A press without a move stays a click.
let drag = null; // { id, from (square or null), x, y, ghost }
let swallowClickUntil = 0;

function startDrag(event, id, from) {
  if (event.button !== 0 || !latest) return;
  drag = { id, from, x: event.clientX, y: event.clientY, ghost: null, source: event.currentTarget };
}

function dropTarget(x, y) {
  const node = document.elementFromPoint(x, y);
  if (!node || !latest?.root.contains(node)) return null;
  return node.closest("[data-square], [data-testid=rack-tile], [data-testid=my-rack]");
}

document.addEventListener("pointermove", (event) => {
  if (!drag) return;
  if (!drag.ghost) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    drag.ghost = drag.source.cloneNode(true);
    drag.ghost.classList.add("gr-ghost");
    const box = drag.source.getBoundingClientRect();
    drag.ghost.style.width = `${box.width}px`;
    drag.ghost.style.height = `${box.height}px`;
    document.body.append(drag.ghost);
  }
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
  for (const n of document.querySelectorAll(".is-drop")) n.classList.remove("is-drop");
  dropTarget(event.clientX, event.clientY)?.classList.add("is-drop");
});

function endDrag(event) {
  if (!drag) return;
  const { id, ghost } = drag;
  drag = null;
  if (!ghost) return;
  ghost.remove();
  swallowClickUntil = Date.now() + 50;
  if (event.type !== "pointerup" || !latest) return;
  const target = dropTarget(event.clientX, event.clientY);
  if (!target) {
    redraw();
    return;
  }
  const view = gameView(latest.ctx.view);
  const laid = draft.placed.find((p) => p.tile === id);
  if (target.dataset.square) {
    const square = target.dataset.square;
    if (occupied(view, square) || !view.can.has("play")) {
      redraw();
      return;
    }
    if (laid) {
      if (draft.blankAt === laid.square) draft.blankAt = square;
      laid.square = square;
    } else {
      const face = (view.racks?.[String(latest.ctx.seat)] || []).find((t) => t.id === id);
      if (!face) return;
      draft.placed.push({ tile: id, square, letter: face.letter });
      if (face.letter === "") draft.blankAt = square;
    }
    draft.selected = null;
  } else {
    if (laid) takeBack(laid);
    const before = target.dataset.tileId === undefined ? null : Number(target.dataset.tileId);
    moveInRack(id, before);
  }
  redraw();
}
document.addEventListener("pointerup", endDrag);
document.addEventListener("pointercancel", endDrag);
// The click that ends a drag is not a tap on a tile or a square.
document.addEventListener(
  "click",
  (event) => {
    if (Date.now() < swallowClickUntil) {
      event.stopPropagation();
      event.preventDefault();
    }
  },
  true,
);

function keyboard(view) {
  const choose = (letter) => {
    const p = draft.placed.find((x) => x.square === draft.blankAt);
    if (p) p.letter = letter;
    draft.blankAt = null;
    redraw();
  };
  return el(
    "div",
    { className: "gr-keyboard", "data-testid": "keyboard", role: "group", "aria-label": "The blank's letter" },
    el("p", {}, `Which letter is the blank on ${draft.blankAt}?`),
    [...view.alphabet].map((letter) =>
      el(
        "button",
        { className: "btn gr-key greek", lang: "grc", type: "button", on: { click: () => choose(letter) } },
        letter,
      ),
    ),
  );
}

// The rack and what to do with it, in one bar that stays on screen while tiles are laid (sticky on a phone): the
// tiles in the player's order, the blank's keyboard, the server's score of the placement, Play, Take all back,
// Shuffle, Exchange, Pass and Hint.
function rackSection(view, ctx) {
  const can = view.can;
  const rack = view.racks?.[String(ctx.seat)];
  if (!rack) return "";
  const laid = new Set(draft.placed.map((p) => p.tile));
  const tiles = orderedRack(view, ctx)
    .filter((t) => !laid.has(t.id))
    .map((t) => {
      const picked = draft.exchanging ? draft.exchange.includes(t.id) : draft.selected === t.id;
      let onClick;
      if (draft.exchanging)
        onClick = () => {
          draft.exchange = picked ? draft.exchange.filter((id) => id !== t.id) : [...draft.exchange, t.id];
          redraw();
        };
      else if (can.has("play")) {
        onClick = () => {
          if (draft.cursor && !picked) layAtCursor(view, t, "");
          else draft.selected = picked ? null : t.id;
          redraw();
        };
      }
      const verb = draft.exchanging
        ? picked
          ? "Keep"
          : "Exchange"
        : draft.cursor
          ? `Lay on ${draft.cursor.square}:`
          : picked
            ? "Put down"
            : "Pick up";
      return tile(t.letter, t.value, {
        blank: t.letter === "",
        extra: picked ? " is-picked" : "",
        label: `${verb} ${t.letter || "the blank"}`,
        onClick,
        testid: "rack-tile",
        dataset: { tileId: t.id, letter: t.letter },
        onDrag: !draft.exchanging ? (e) => startDrag(e, t.id, null) : undefined,
      });
    });
  const controls = [];
  const playing = can.has("play") && !draft.exchanging;
  const slot = previews.play;
  const blankLeft = draft.placed.some((p) => !p.letter);
  const words = [...new Set((slot.result?.words || []).map((w) => w.word))];
  if (playing && draft.placed.length) {
    controls.push(
      el(
        "button",
        {
          className: "btn btn-primary",
          type: "button",
          disabled: !words.length || blankLeft,
          "data-testid": "play",
          on: { click: () => sendPlay(view, ctx) },
        },
        words.length ? `Play ${words.join(", ")}` : "Play",
      ),
    );
    controls.push(
      el(
        "button",
        {
          className: "btn",
          type: "button",
          on: {
            click: () => {
              draft.placed = [];
              draft.blankAt = null;
              redraw();
            },
          },
        },
        "Take all back",
      ),
    );
  }
  if (!draft.exchanging && rack.length > 1) {
    controls.push(
      el(
        "button",
        { className: "btn", type: "button", "data-testid": "shuffle", on: { click: shuffleRack } },
        "Shuffle",
      ),
    );
  }
  if (can.has("exchange")) {
    if (draft.exchanging) {
      controls.push(
        el(
          "button",
          {
            className: "btn btn-primary",
            type: "button",
            disabled: !draft.exchange.length,
            on: { click: () => ctx.send({ type: "exchange", tiles: draft.exchange }) },
          },
          `Exchange ${draft.exchange.length} tile${draft.exchange.length === 1 ? "" : "s"}`,
        ),
      );
      controls.push(
        el(
          "button",
          {
            className: "btn",
            type: "button",
            on: {
              click: () => {
                draft.exchanging = false;
                draft.exchange = [];
                redraw();
              },
            },
          },
          "Cancel exchange",
        ),
      );
    } else if (!draft.placed.length) {
      controls.push(
        el(
          "button",
          {
            className: "btn",
            type: "button",
            on: {
              click: () => {
                draft.exchanging = true;
                draft.placed = [];
                draft.selected = null;
                draft.cursor = null;
                redraw();
              },
            },
          },
          "Exchange tiles…",
        ),
      );
    }
  }
  if (can.has("pass") && !draft.placed.length && !draft.exchanging)
    controls.push(
      el("button", { className: "btn", type: "button", on: { click: () => ctx.send({ type: "pass" }) } }, "Pass"),
    );
  if (can.has("hint") && !draft.exchanging) {
    controls.push(
      el(
        "button",
        {
          className: "btn",
          type: "button",
          "data-testid": "ask-hint",
          on: { click: () => ctx.send({ type: "hint" }) },
        },
        `Hint (${view.hints_left[ctx.seat]} left)`,
      ),
    );
  }
  const result = playing && draft.placed.length ? slot.result : null;
  let status = "";
  if (draft.exchanging) status = el("p", { className: "help" }, "Choose the tiles to put back in the bag.");
  else if (playing && blankLeft) status = el("p", { className: "help" }, "Choose the blank's letter.");
  else if (result) {
    status = el(
      "p",
      { className: "gr-score-line", "data-testid": "move-score" },
      result.words.map((w, i) => [i ? ", " : "", greek(w.word, { className: "greek gr-word" }), ` ${w.score}`]),
      result.bonus ? ` + ${result.bonus} bonus` : "",
      ` = ${result.total} point${result.total === 1 ? "" : "s"}`,
    );
  } else if (playing && slot.error && draft.placed.length) status = el("p", { className: "error" }, slot.error);
  else if (playing && draft.selected !== null)
    status = el("p", { className: "help" }, "Now click a square of the board.");
  return el(
    "section",
    {
      className: `card gr-rack-card${can.has("play") || can.has("exchange") ? " is-active" : ""}`,
      "data-testid": "rack-bar",
    },
    el("h2", { className: "gr-rack-title" }, "Your rack"),
    el("div", { className: "gr-rack", "data-testid": "my-rack" }, tiles),
    draft.blankAt ? keyboard(view) : "",
    status,
    el("div", { className: "gr-controls" }, controls),
  );
}

// The hint, for the player who asked only (the server sends it to nobody else): its squares are marked on the
// board; here its words and score. It is not laid for them: they lay it and parse every word, or play otherwise.
function hintSection(view) {
  const hint = view.hint;
  if (!hint) return "";
  return el(
    "section",
    { className: "card gr-hint", "data-testid": "hint" },
    el("h2", {}, "Your hint"),
    el(
      "p",
      {},
      hint.words.map((w, i) => [i ? ", " : "", greek(w.word, { className: "greek gr-word" }), ` ${w.score}`]),
      hint.bonus ? ` + ${hint.bonus} bonus` : "",
      ` = ${hint.score} point${hint.score === 1 ? "" : "s"}`,
    ),
    el(
      "p",
      { className: "muted" },
      `On ${hint.tiles.map((t) => t.square).join(", ")}, marked on the board. Lay the tiles and parse every word to play it.`,
    ),
  );
}

function playTiles(view, ctx) {
  const rackTiles = new Map(view.racks[String(ctx.seat)].map((t) => [t.id, t]));
  return draft.placed.map((p) => ({
    tile: p.tile,
    square: p.square,
    ...(rackTiles.get(p.tile).letter === "" ? { letter: p.letter } : {}),
  }));
}

function sendPlay(view, ctx) {
  const words = [...new Set((previews.play.result?.words || []).map((w) => w.word))];
  ctx.send({
    type: "play",
    tiles: playTiles(view, ctx),
    parses: words.map((w) => payload(view.vocabulary, w, parseFor(`play:${w}`))),
  });
}

function playPreviewAction(view, ctx) {
  const words = [...new Set((previews.play.result?.words || []).map((w) => w.word))];
  return { type: "play", tiles: playTiles(view, ctx), parses: lemmasOf(words, "play") };
}

// Ask the server about the tiles laid, before anything is drawn (the rack bar shows the score and the words).
function askPlayPreview(view, ctx) {
  const slot = previews.play;
  if (!view.can.has("play") || !draft.placed.length || draft.placed.some((p) => !p.letter)) {
    resetPreview(slot);
    return;
  }
  askPreview(slot, playPreviewAction(view, ctx), ctx);
}

// The words the tiles laid form (as the server's preview says), each with its parse form. Play is in the rack bar.
function moveSection(view, ctx) {
  const slot = previews.play;
  if (!view.can.has("play") || !draft.placed.length) return "";
  const blankLeft = draft.placed.some((p) => !p.letter);
  const words = [...new Set((slot.result?.words || []).map((w) => w.word))];
  const previewAction = () => playPreviewAction(view, ctx);
  const scored = new Map((slot.result?.words || []).map((w) => [w.word, w.score]));
  return el(
    "section",
    { className: "card gr-move", "data-testid": "move" },
    el("h2", {}, words.length ? "Parse every word" : "Your move"),
    slot.error ? el("p", { className: "message message-error" }, slot.error) : "",
    blankLeft ? el("p", { className: "help" }, "Choose the blank's letter first.") : "",
    words.map((w) =>
      parseForm(
        view,
        w,
        `play:${w}`,
        slot,
        () => askPreview(slot, previewAction(), ctx),
        el("span", { className: "muted" }, ` ${scored.get(w)} points`),
      ),
    ),
  );
}

function suggestionsSection(view, ctx) {
  const can = view.can.has("suggest");
  if (view.phase !== "play" || (!can && !view.suggestions.length)) return "";
  const list = view.suggestions.map((s) =>
    el(
      "li",
      {},
      `${s.seat === null ? "The teacher" : ctx.name(s.seat)}: `,
      greek(s.text),
      s.square ? ` at ${s.square}` : "",
      s.direction ? ` ${s.direction}` : "",
    ),
  );
  const form = can
    ? el(
        "form",
        {
          className: "gr-suggest",
          on: {
            submit: (e) => {
              e.preventDefault();
              const action = { type: "suggest", text: suggestion.text };
              if (suggestion.square.trim()) action.square = suggestion.square.trim();
              if (suggestion.direction) action.direction = suggestion.direction;
              suggestion.text = "";
              ctx.send(action);
            },
          },
        },
        el("input", {
          type: "text",
          className: "greek",
          lang: "grc",
          value: suggestion.text,
          maxLength: 60,
          "aria-label": "Suggested word",
          placeholder: "a word",
          on: {
            input: (e) => {
              suggestion.text = e.target.value;
            },
          },
        }),
        el("input", {
          type: "text",
          value: suggestion.square,
          maxLength: 3,
          size: 4,
          "aria-label": "Square (optional)",
          placeholder: "H8",
          on: {
            input: (e) => {
              suggestion.square = e.target.value;
            },
          },
        }),
        select(
          "Direction (optional)",
          [
            ["", "either way"],
            ["across", "across"],
            ["down", "down"],
          ],
          suggestion.direction,
          (v) => {
            suggestion.direction = v;
          },
        ),
        el("button", { className: "btn", type: "submit" }, `Suggest to ${ctx.name(view.turn)}`),
      )
    : "";
  return el(
    "section",
    { className: "card gr-suggestions", "data-testid": "suggestions" },
    el("h2", {}, "Suggestions"),
    list.length ? el("ul", { className: "list" }, list) : el("p", { className: "muted" }, "None yet."),
    form,
  );
}

function givenText(view, given) {
  if (!given) return "";
  const { pos, values } = view.vocabulary;
  const fields = Object.entries(given.parse || {})
    .map(([n, v]) => values[n]?.[v] || v)
    .join(" ");
  return [greek(given.lemma), `, ${pos[given.pos] || given.pos}${fields ? ` ${fields}` : ""}`];
}

function approvalSection(view, ctx) {
  const pending = view.pending;
  if (!pending) return "";
  const can = view.can;
  const words = pending.words.map((w) =>
    el(
      "li",
      {},
      greek(w.word, { className: "greek gr-word" }),
      ` (${w.score}) `,
      pending.unknown.includes(w.word) ? el("span", { className: "badge badge-warn" }, "not in the lexicon") : "",
      " — ",
      givenText(view, w.given),
    ),
  );
  let controls = el("p", { className: "muted" }, "The teacher decides whether these words stand.");
  if (can.has("approve")) {
    const gloss = el("input", {
      type: "text",
      maxLength: 200,
      "aria-label": "Gloss (meaning)",
      placeholder: "meaning, for the quiz",
      dataset: { keep: "approval:gloss" },
    });
    const reason = el("input", {
      type: "text",
      maxLength: 200,
      "aria-label": "Reason",
      placeholder: "why not (optional)",
      dataset: { keep: "approval:reason" },
    });
    controls = el(
      "div",
      { className: "gr-controls" },
      gloss,
      el(
        "button",
        {
          className: "btn btn-primary",
          type: "button",
          on: { click: () => ctx.send({ type: "approve", gloss: gloss.value }) },
        },
        "Approve",
      ),
      reason,
      el(
        "button",
        { className: "btn", type: "button", on: { click: () => ctx.send({ type: "reject", reason: reason.value }) } },
        "Reject",
      ),
    );
  }
  return el(
    "section",
    { className: "card gr-approval", "data-testid": "approval" },
    el("h2", {}, `${ctx.name(pending.seat)} played a word the lexicon does not know`),
    el("ul", { className: "list" }, words),
    controls,
  );
}

function quizSection(view, ctx) {
  if (view.phase !== "quiz") return "";
  const play = view.sheet[view.quiz.play];
  const can = view.can;
  const answered = view.quiz.answered;
  const words = [...new Set(play.words.map((w) => w.word))];
  const key = (word) => `quiz${play.number}:${word}`;
  const body = [];
  if (can.has("answer")) {
    const slot = previews.quiz;
    const ask = () => askPreview(slot, { type: "answer", parses: lemmasOf(words, `quiz${play.number}`) }, ctx);
    body.push(words.map((w) => parseForm(view, w, key(w), slot, ask)));
    body.push(
      el(
        "button",
        {
          className: "btn btn-primary",
          type: "button",
          "data-testid": "answer",
          on: {
            click: () =>
              ctx.send({ type: "answer", parses: words.map((w) => payload(view.vocabulary, w, parseFor(key(w)))) }),
          },
        },
        answered.includes(ctx.seat) ? "Change my answer" : "Submit my parse",
      ),
    );
  }
  if (can.has("close")) {
    body.push(
      el(
        "button",
        { className: "btn btn-primary", type: "button", on: { click: () => ctx.send({ type: "close" }) } },
        "Mark this turn now",
      ),
    );
  }
  const seats = ctx.table.players.filter((p) => !p.removed).map((p) => p.seat);
  return el(
    "section",
    { className: "card gr-quiz", "data-testid": "quiz" },
    el(
      "h2",
      {},
      `Quiz, turn ${view.quiz.play + 1} of ${view.sheet.length}: ${ctx.name(play.seat)} played `,
      words.map((w, i) => [i ? ", " : "", greek(w)]),
      ` for ${play.base}`,
    ),
    el(
      "p",
      {},
      "Parse every word. A perfect parse earns the turn's base score; the player who laid it earns what everyone learns.",
    ),
    el(
      "p",
      { className: "muted", "data-testid": "answered" },
      `Answered: ${
        seats
          .filter((s) => answered.includes(s))
          .map(ctx.name)
          .join(", ") || "nobody yet"
      }`,
    ),
    body,
  );
}

function creditControl(play, seat, ctx) {
  const input = el("input", {
    type: "number",
    min: 0,
    max: play.base,
    value: play.learning[String(seat)] ?? 0,
    className: "gr-credit",
    "aria-label": `Credit for ${ctx.name(seat)} on turn ${play.number + 1}`,
  });
  return el(
    "span",
    { className: "gr-credit-control" },
    input,
    el(
      "button",
      {
        className: "btn btn-small",
        type: "button",
        on: { click: () => ctx.send({ type: "credit", play: play.number, seat, points: Number(input.value) }) },
      },
      "Credit",
    ),
  );
}

function sheetSection(view, ctx) {
  if (!view.sheet.length) return "";
  const can = view.can;
  const seats = ctx.table.players.map((p) => p.seat);
  const current = view.phase === "quiz" ? view.quiz.play : null;
  const plays = view.sheet.map((play) => {
    const results = play.results || {};
    const creditable = can.has("credit") && (play.marked || play.number === current);
    const perSeat = seats.map((s) => {
      const r = results[String(s)];
      let verdict = "—";
      if (r)
        verdict = !r.answered
          ? "no answer"
          : r.perfect
            ? "perfect"
            : `wrong: ${r.wrong
                .map((w, i) => (w.length ? `${play.words[i].word} ${w.join(", ")}` : ""))
                .filter(Boolean)
                .join("; ")}`;
      return el(
        "li",
        {},
        `${ctx.name(s)}: `,
        play.marked ? `${play.learning[String(s)] ?? 0} learning (${verdict})` : "",
        r?.given
          ? el(
              "span",
              { className: "muted" },
              " — ",
              r.given.map((g, i) => [i ? "; " : "", givenText(view, g)]),
            )
          : "",
        creditable ? creditControl(play, s, ctx) : "",
      );
    });
    return el(
      "li",
      { className: `gr-play${play.number === current ? " is-current" : ""}`, "data-testid": "sheet-play" },
      el(
        "div",
        {},
        el("strong", {}, `Turn ${play.turn} · ${ctx.name(play.seat)}: `),
        play.words.map((w, i) => [i ? ", " : "", greek(w.word, { className: "greek gr-word" }), ` ${w.score}`]),
        play.bonus ? ` + ${play.bonus} bonus` : "",
        ` = ${play.base}`,
        play.marked ? ` · teaching ${play.teaching}` : "",
      ),
      el(
        "ul",
        { className: "gr-analyses" },
        play.words.filter((w) => w.analysis).map((w) => el("li", {}, describeAnalysis(w))),
      ),
      play.marked || creditable ? el("ul", { className: "gr-results" }, perSeat) : "",
    );
  });
  return el(
    "section",
    { className: "card gr-sheet", "data-testid": "sheet" },
    el("h2", {}, "Turns"),
    el("ol", { className: "gr-plays" }, plays),
    can.has("finish")
      ? el(
          "button",
          {
            className: "btn btn-primary",
            type: "button",
            "data-testid": "finish",
            on: { click: () => ctx.send({ type: "finish" }) },
          },
          "Finish the game",
        )
      : "",
  );
}

function othersSection(view, ctx) {
  const others = ctx.table.players.filter((p) => p.seat !== ctx.seat);
  const racks = others.map((p) => {
    const rack = view.racks?.[String(p.seat)];
    return el(
      "div",
      { className: `gr-other${view.turn === p.seat ? " is-turn" : ""}`, "data-testid": `rack-${p.seat}` },
      el("h3", {}, p.name, p.removed ? " (removed)" : ""),
      rack
        ? el(
            "div",
            { className: "gr-rack" },
            rack.map((t) => tile(t.letter, t.value, { blank: t.letter === "" })),
          )
        : el("span", { className: "muted" }, `${view.rack_sizes[p.seat]} tiles`),
    );
  });
  const teacherActions = view.can.has("end_play")
    ? el(
        "button",
        { className: "btn", type: "button", on: { click: () => ctx.send({ type: "end_play" }) } },
        "End the play and start the quiz",
      )
    : "";
  return el(
    "section",
    { className: "card gr-others" },
    el("h2", {}, view.options.open_racks ? "Racks" : "Players"),
    racks,
    teacherActions,
  );
}

// -- the renderer's interface -------------------------------------------------------------------------------------
// The turn banner's words; `view` is the envelope (the page calls this with it).
export function prompt(view, ctx) {
  const mine = ctx.seat !== null && view.to_act.includes(ctx.seat);
  if (view.phase === "play" && mine) return "lay tiles and parse every word, exchange or pass.";
  if (view.phase === "quiz") return mine ? "parse the words of this turn." : "the quiz waits for the others.";
  if (view.phase === "approval")
    return ctx.isTeacher ? "approve or reject the word." : "waiting for the teacher to approve a word.";
  if (view.phase === "review")
    return ctx.isTeacher ? "give any partial credit, then finish the game." : "the teacher is reviewing the quiz.";
  return "";
}

export function describe(event, ctx) {
  const who = (s) => (s === null || s === undefined ? "The teacher" : s === ctx.seat ? "You" : ctx.name(s));
  switch (event.type) {
    case "first_player":
      return `${who(event.seat)} drew the tile nearest alpha and play${event.seat === ctx.seat ? "" : "s"} first.`;
    case "played":
      return `${who(event.seat)} played ${event.words.map((w) => w.word).join(", ")} for ${event.base}.`;
    case "exchanged":
      return `${who(event.seat)} exchanged ${event.count} tile${event.count === 1 ? "" : "s"}.`;
    case "passed":
      return `${who(event.seat)} passed.`;
    case "hinted":
      return event.hint
        ? `Your hint: ${event.hint.words.map((w) => w.word).join(", ")} for ${event.hint.score} (${event.left} hint${event.left === 1 ? "" : "s"} left).`
        : `${who(event.seat)} asked for a hint.`;
    case "suggested":
      return `${who(event.seat)} suggest${event.seat === ctx.seat ? "" : "s"} ${event.text}${event.square ? ` at ${event.square}` : ""}.`;
    case "approval_needed":
      return `${who(event.seat)} played ${event.unknown.join(", ")}: the teacher decides.`;
    case "approved":
      return `The teacher approved ${event.words.join(", ")}.`;
    case "rejected":
      return `The teacher rejected ${event.words.join(", ")}${event.reason ? `: ${event.reason}` : ""}.`;
    case "play_ended":
      return `${event.reason} The quiz begins.`;
    case "quiz_turn":
      return `Quiz: turn ${event.play + 1}.`;
    case "answered":
      return `${who(event.seat)} answered.`;
    case "marked":
      return `Turn ${event.play + 1} is marked.`;
    case "score":
      return `${who(event.seat)}: ${event.points > 0 ? "+" : ""}${event.points} ${event.reason}.`;
    case "credit":
      return `The teacher gave ${ctx.name(event.seat)} ${event.points} for turn ${event.play + 1}.`;
    case "review":
      return "The quiz is done.";
    case "game_over":
      return "The game is over.";
    case "returned":
      return `${who(event.seat)} left; their tiles went back into the bag.`;
    case "drew":
    case "turn":
      return "";
    default:
      return "";
  }
}

// The game's part of the view (body) with what this renderer needs of the envelope: the phase, the scores, the
// actions offered (by type) and the seat on turn.
function gameView(envelope) {
  return {
    ...envelope.body,
    phase: envelope.phase,
    scores: envelope.scores,
    can: new Set(envelope.actions.map((a) => a.type)),
    turn: envelope.phase === "play" ? (envelope.to_act[0] ?? null) : null,
  };
}

// The kit draws the page around this (the banner, the last move, errors next to their control, every control disabled
// while an action is in flight or the table is paused); Grabble draws all of its own controls and its own scores
// table (beside the board, with the play, learning and teaching parts).
export const handles = "all";
export const showPlayers = false;

export function render(ctx) {
  const view = gameView(ctx.view);
  syncDraft(view, ctx);
  askPlayPreview(view, ctx);
  const root = el(
    "div",
    { className: "gr" },
    // On a wide screen the board is on the left, the rest on the right; on a phone the board comes first with the
    // rack bar kept on screen below it (see grabble.css).
    el(
      "div",
      { className: "gr-main" },
      boardSection(view, ctx),
      scoresSection(view, ctx),
      rackSection(view, ctx),
      el(
        "div",
        { className: "gr-side" },
        moveSection(view, ctx),
        approvalSection(view, ctx),
        hintSection(view),
        quizSection(view, ctx),
        suggestionsSection(view, ctx),
      ),
    ),
    sheetSection(view, ctx),
    othersSection(view, ctx),
  );
  latest = { root, ctx };
  return root;
}
