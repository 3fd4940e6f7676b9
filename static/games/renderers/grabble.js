// Grabble: the 15×15 board with its premiums, the racks, laying tiles (click a rack tile, then a square; click a
// laid tile to take it back; a blank asks for its letter on a Greek keyboard), a parse form for every word the
// tiles form, exchange, pass, hints (the best play's squares shown on the board, its words and score beside it: the
// player still lays and parses it) and suggestions, the teacher's approval panel, the quiz turn by turn with the
// answers and the analyses once marked, partial credit, and the play/learning/teaching scores.
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

// -- what the player is putting together survives re-renders ----------------------------------------------------
let draft = { placed: [], selected: null, blankAt: null, exchanging: false, exchange: [] };
const parses = {}; // "play:ΛΟΓΟΣ" / "quiz3:ΛΟΓΟΣ" -> { lemma, pos, parse }
const suggestion = { text: "", square: "", direction: "" };
// The server's previews: of the play being laid (words, scores, bonus, total, lemmas) and of the quiz answer being
// typed (lemmas). `key` is the action last asked about; an answer to an older one is dropped.
const previews = { play: { key: null, tiles: null, result: null, error: "" }, quiz: { key: null, tiles: null, result: null, error: "" } };
let latest = null; // { container, ctx } of the last render, for redraws after a click or a preview

function redraw() {
  if (latest) render(latest.container, latest.ctx);
}

function askPreview(slot, action, ctx) {
  const key = JSON.stringify(action);
  if (slot.key === key) return;
  const tiles = JSON.stringify(action.tiles ?? null);
  if (slot.tiles !== tiles) { slot.result = null; slot.error = ""; }
  slot.key = key;
  slot.tiles = tiles;
  ctx.preview(action).then(
    (result) => { if (slot.key === key) { slot.result = result; slot.error = ""; redraw(); } },
    (error) => { if (slot.key === key) { slot.result = null; slot.error = error.message; redraw(); } },
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
  return words.filter((w) => parseFor(`${prefix}:${w}`).lemma.trim()).map((w) => ({ word: w, lemma: parseFor(`${prefix}:${w}`).lemma.trim() }));
}

function syncDraft(view, ctx) {
  const rack = new Set((view.racks?.[String(ctx.seat)] || []).map((t) => t.id));
  draft.placed = draft.placed.filter((p) => rack.has(p.tile) && !(p.square in view.board));
  draft.exchange = draft.exchange.filter((id) => rack.has(id));
  if (!rack.has(draft.selected)) draft.selected = null;
  if (!draft.placed.some((p) => p.square === draft.blankAt)) draft.blankAt = null;
  if (!view.can.has("play")) draft = { placed: [], selected: null, blankAt: null, exchanging: false, exchange: [] };
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
function tile(letter, value, { blank = false, extra = "", label, onClick, testid, dataset } = {}) {
  const body = [el("span", { className: "gr-letter greek", lang: "grc" }, letter || "·"), el("span", { className: "gr-value" }, String(value))];
  const props = { className: `gr-tile${blank ? " is-blank" : ""}${extra}`, title: `${letter || "blank"}, ${value} point${value === 1 ? "" : "s"}`, dataset };
  if (testid) props["data-testid"] = testid;
  if (!onClick) return el("span", props, body);
  return el("button", { ...props, type: "button", "aria-label": label, on: { click: onClick } }, body);
}

function greek(text, props = {}) {
  return el("span", { className: "greek", lang: "grc", ...props }, text);
}

function select(label, options, value, onChange, testid) {
  return el("select", { "aria-label": label, "data-testid": testid, dataset: { focus: label }, on: { change: (e) => onChange(e.target.value) } },
    options.map(([v, text]) => el("option", { value: v, selected: v === value }, text)));
}

// One word's parse form: lemma (Greek with or without accents, or Beta Code, shown as the server reads it),
// part of speech, then the fields that part of speech (and a verb's mood) has, all from the server's vocabulary.
// `onLemma` asks the server for a new preview of the lemma as it is typed.
function parseForm(view, word, key, slot, onLemma, extra = "") {
  const vocabulary = view.vocabulary;
  const entry = parseFor(key);
  const preview = el("span", { className: "gr-preview greek", lang: "grc", "data-testid": "lemma-preview" }, lemmaShown(slot, word, entry.lemma));
  const lemma = el("input", {
    type: "text", value: entry.lemma, maxLength: 60, autocomplete: "off", spellcheck: false, lang: "grc", className: "greek",
    "aria-label": `Lemma of ${word}`, placeholder: "λόγος or lo/gos", dataset: { focus: `Lemma of ${word}` },
    on: { input: (e) => { entry.lemma = e.target.value; preview.textContent = lemmaShown(slot, word, entry.lemma); onLemma(); } },
  });
  const rerender = (change) => { change(); redraw(); };
  const optional = new Set(vocabulary.optional);
  const fields = fieldsFor(vocabulary, entry.pos, entry.parse).map((name) => {
    const choices = Object.entries(vocabulary.values[name]);
    const blankChoice = optional.has(name) ? ["", "none"] : ["", `${name}…`];
    return el("label", { className: "gr-field" }, el("span", {}, name),
      select(`${name} of ${word}`, [blankChoice, ...choices], entry.parse[name] || "", (v) => rerender(() => { entry.parse[name] = v; })));
  });
  return el("div", { className: "gr-parse", "data-testid": "parse-form", dataset: { word } },
    el("div", { className: "gr-parse-word" }, greek(word, { className: "greek gr-word" }), extra),
    el("label", { className: "gr-field" }, el("span", {}, "lemma"), lemma, preview),
    el("label", { className: "gr-field" }, el("span", {}, "part of speech"),
      select(`Part of speech of ${word}`, [["", "choose…"], ...Object.entries(vocabulary.pos)], entry.pos, (v) => rerender(() => { entry.pos = v; }))),
    fields);
}

function describeAnalysis(word) {
  if (!word.analysis) return "";
  const a = word.analysis;
  return el("span", { className: "gr-analysis" },
    greek(a.form || word.word), " from ", greek(a.lemma), `: ${word.description || a.pos}`,
    a.gloss ? ` — “${a.gloss}”` : "", a.approved ? " (approved by the teacher)" : "");
}

// -- sections -----------------------------------------------------------------------------------------------------
function scoresSection(view, ctx) {
  const seats = ctx.table.players.map((p) => p.seat);
  const { parts, total, provisional } = view.scores;
  const row = (label, key, values) => el("tr", {}, el("th", {}, label),
    seats.map((s) => el("td", { className: "num", "data-testid": `${key}-${s}` }, String(values[s]))));
  return el("section", { className: "card gr-status" },
    el("div", { className: "gr-facts" },
      el("span", { className: "chip", "data-testid": "bag" }, `Bag: ${view.bag} tile${view.bag === 1 ? "" : "s"}`),
      el("span", { className: "chip", "data-testid": "phase" }, phaseText(view, ctx))),
    el("table", { className: "table gr-scores", "data-testid": "scores" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), seats.map((s) => el("th", { className: `num${view.turn === s ? " is-turn" : ""}` }, ctx.name(s))))),
      el("tbody", {}, row(provisional ? "Play (so far)" : "Play", "play", parts.play), row("Learning", "learning", parts.learning),
        row("Teaching", "teaching", parts.teaching), row("Total", "final", total))));
}

function phaseText(view, ctx) {
  switch (view.phase) {
    case "play": return `Playing: ${ctx.name(view.turn)} ${view.turn === ctx.seat ? "are" : "is"} on turn`;
    case "approval": return "Waiting for the teacher to approve a word";
    case "quiz": return `Quiz: turn ${view.quiz.play + 1} of ${view.sheet.length}`;
    case "review": return "Quiz done: the teacher reviews";
    default: return "Game over";
  }
}

function boardSection(view, ctx) {
  const can = view.can;
  const placed = Object.fromEntries(draft.placed.map((p) => [p.square, p]));
  const rackTiles = new Map((view.racks?.[String(ctx.seat)] || []).map((t) => [t.id, t]));
  const hinted = Object.fromEntries((view.hint?.tiles || []).map((t) => [t.square, t]));
  const cells = [el("span", { className: "gr-corner" })];
  for (const c of COLUMNS) cells.push(el("span", { className: "gr-head" }, c));
  for (let r = 0; r < view.size; r += 1) {
    cells.push(el("span", { className: "gr-head" }, String(r + 1)));
    for (let c = 0; c < view.size; c += 1) {
      const name = sq(r, c);
      const onBoard = view.board[name];
      const mine = placed[name];
      const premium = view.premiums[name];
      const centre = name === view.centre;
      const hint = !onBoard && !mine ? hinted[name] : undefined;
      let content = "";
      if (onBoard) content = tile(onBoard.letter, onBoard.value, { blank: onBoard.blank });
      else if (mine) {
        const face = rackTiles.get(mine.tile);
        content = tile(mine.letter || "?", face.value, {
          blank: face.letter === "", extra: " is-new", label: `Take ${mine.letter || "the blank"} back from ${name}`,
          onClick: () => { draft.placed = draft.placed.filter((p) => p !== mine); redraw(); },
        });
      } else if (hint) {
        content = tile(hint.letter, hint.blank ? 0 : rackTiles.get(hint.tile)?.value ?? 0, { blank: hint.blank, extra: " is-hint" });
      } else if (centre) content = el("span", { className: "gr-premium-label greek", lang: "grc" }, "★ ἄρχου");
      else if (premium) content = el("span", { className: "gr-premium-label" }, premium);
      const label = `${name}${centre ? " ἄρχου, the centre (double word)" : premium ? ` ${PREMIUM_NAMES[premium]}` : ""}${hint ? `, hint: ${hint.letter}` : ""}`;
      const props = { className: `gr-square${premium ? ` gr-${premium}` : ""}${centre ? " gr-centre" : ""}${hint ? " is-hinted" : ""}`, dataset: { square: name }, title: label };
      const free = !onBoard && !mine;
      if (free && can.has("play") && draft.selected !== null) {
        cells.push(el("button", { ...props, type: "button", "aria-label": label, on: { click: () => placeSelected(name, rackTiles) } }, content));
      } else {
        cells.push(el("div", props, content));
      }
    }
  }
  return el("section", { className: "card gr-board-card" },
    el("div", { className: "gr-board", "data-testid": "board", role: "grid", "aria-label": "The board" }, cells));
}

function placeSelected(name, rackTiles) {
  const face = rackTiles.get(draft.selected);
  draft.placed.push({ tile: draft.selected, square: name, letter: face.letter });
  if (face.letter === "") draft.blankAt = name;
  draft.selected = null;
  redraw();
}

function keyboard(view) {
  const choose = (letter) => {
    const p = draft.placed.find((x) => x.square === draft.blankAt);
    if (p) p.letter = letter;
    draft.blankAt = null;
    redraw();
  };
  return el("div", { className: "gr-keyboard", "data-testid": "keyboard", role: "group", "aria-label": "The blank's letter" },
    el("p", {}, `Which letter is the blank on ${draft.blankAt}?`),
    [...view.alphabet].map((letter) => el("button", { className: "btn gr-key greek", lang: "grc", type: "button", on: { click: () => choose(letter) } }, letter)));
}

function rackSection(view, ctx) {
  const can = view.can;
  const rack = view.racks?.[String(ctx.seat)];
  if (!rack) return "";
  const laid = new Set(draft.placed.map((p) => p.tile));
  const tiles = rack.filter((t) => !laid.has(t.id)).map((t) => {
    const picked = draft.exchanging ? draft.exchange.includes(t.id) : draft.selected === t.id;
    const onClick = draft.exchanging
      ? () => { draft.exchange = picked ? draft.exchange.filter((id) => id !== t.id) : [...draft.exchange, t.id]; redraw(); }
      : can.has("play") ? () => { draft.selected = picked ? null : t.id; redraw(); } : undefined;
    const verb = draft.exchanging ? (picked ? "Keep" : "Exchange") : (picked ? "Put down" : "Pick up");
    return tile(t.letter, t.value, {
      blank: t.letter === "", extra: picked ? " is-picked" : "", label: `${verb} ${t.letter || "the blank"}`, onClick,
      testid: "rack-tile", dataset: { tileId: t.id, letter: t.letter },
    });
  });
  const controls = [];
  if (can.has("play") && !draft.exchanging) {
    controls.push(el("p", { className: "help" }, draft.selected !== null ? "Now click a square of the board." : "Click a tile, then a square; click a laid tile to take it back."));
  }
  if (can.has("exchange")) {
    if (draft.exchanging) {
      controls.push(el("button", { className: "btn btn-primary", type: "button", disabled: !draft.exchange.length,
        on: { click: () => ctx.send({ type: "exchange", tiles: draft.exchange }) } }, `Exchange ${draft.exchange.length} tile${draft.exchange.length === 1 ? "" : "s"}`));
      controls.push(el("button", { className: "btn", type: "button", on: { click: () => { draft.exchanging = false; draft.exchange = []; redraw(); } } }, "Cancel exchange"));
    } else {
      controls.push(el("button", { className: "btn", type: "button", on: { click: () => { draft.exchanging = true; draft.placed = []; draft.selected = null; redraw(); } } }, "Exchange tiles…"));
    }
  }
  if (can.has("pass")) controls.push(el("button", { className: "btn", type: "button", on: { click: () => ctx.send({ type: "pass" }) } }, "Pass"));
  if (can.has("hint")) {
    controls.push(el("button", { className: "btn", type: "button", "data-testid": "ask-hint", on: { click: () => ctx.send({ type: "hint" }) } },
      `Hint (${view.hints_left[ctx.seat]} left)`));
  }
  return el("section", { className: "card gr-rack-card" },
    el("h2", {}, "Your rack", draft.exchanging ? el("span", { className: "muted" }, " · choose the tiles to put back in the bag") : ""),
    el("div", { className: "gr-rack", "data-testid": "my-rack" }, tiles),
    draft.blankAt ? keyboard(view) : "",
    el("div", { className: "gr-controls" }, controls));
}

// The hint, for the player who asked only (the server sends it to nobody else): its squares are marked on the
// board; here its words and score. It is not laid for them: they lay it and parse every word, or play otherwise.
function hintSection(view) {
  const hint = view.hint;
  if (!hint) return "";
  return el("section", { className: "card gr-hint", "data-testid": "hint" },
    el("h2", {}, "Your hint"),
    el("p", {}, hint.words.map((w, i) => [i ? ", " : "", greek(w.word, { className: "greek gr-word" }), ` ${w.score}`]),
      hint.bonus ? ` + ${hint.bonus} bonus` : "", ` = ${hint.score} point${hint.score === 1 ? "" : "s"}`),
    el("p", { className: "muted" }, `On ${hint.tiles.map((t) => t.square).join(", ")}, marked on the board. Lay the tiles and parse every word to play it.`));
}

function moveSection(view, ctx) {
  const slot = previews.play;
  if (!view.can.has("play") || !draft.placed.length) { resetPreview(slot); return ""; }
  const rackTiles = new Map(view.racks[String(ctx.seat)].map((t) => [t.id, t]));
  const blankLeft = draft.placed.some((p) => !p.letter);
  const tiles = draft.placed.map((p) => ({ tile: p.tile, square: p.square, ...(rackTiles.get(p.tile).letter === "" ? { letter: p.letter } : {}) }));
  const words = [...new Set((slot.result?.words || []).map((w) => w.word))];
  const previewAction = () => ({ type: "play", tiles, parses: lemmasOf(words, "play") });
  if (blankLeft) resetPreview(slot);
  else askPreview(slot, previewAction(), ctx);
  const scored = new Map((slot.result?.words || []).map((w) => [w.word, w.score]));
  const send = () => ctx.send({ type: "play", tiles, parses: words.map((w) => payload(view.vocabulary, w, parseFor(`play:${w}`))) });
  const result = slot.result;
  return el("section", { className: "card gr-move", "data-testid": "move" },
    el("h2", {}, "Your move"),
    slot.error ? el("p", { className: "message message-error" }, slot.error) : "",
    blankLeft ? el("p", { className: "help" }, "Choose the blank's letter first.") : "",
    result ? el("p", { "data-testid": "move-score" }, result.words.map((w, i) => [i ? ", " : "", greek(w.word, { className: "greek gr-word" }), ` ${w.score}`]),
      result.bonus ? ` + ${result.bonus} bonus` : "", ` = ${result.total} point${result.total === 1 ? "" : "s"}`) : "",
    words.map((w) => parseForm(view, w, `play:${w}`, slot, () => askPreview(slot, previewAction(), ctx), el("span", { className: "muted" }, ` ${scored.get(w)} points`))),
    el("div", { className: "gr-controls" },
      el("button", { className: "btn btn-primary", type: "button", disabled: !words.length || blankLeft, "data-testid": "play", on: { click: send } },
        `Play ${words.join(", ")}`),
      el("button", { className: "btn", type: "button", on: { click: () => { draft.placed = []; draft.blankAt = null; redraw(); } } }, "Take all back")));
}

function suggestionsSection(view, ctx) {
  const can = view.can.has("suggest");
  if (view.phase !== "play" || (!can && !view.suggestions.length)) return "";
  const list = view.suggestions.map((s) => el("li", {}, `${s.seat === null ? "The teacher" : ctx.name(s.seat)}: `, greek(s.text),
    s.square ? ` at ${s.square}` : "", s.direction ? ` ${s.direction}` : ""));
  const form = can ? el("form", { className: "gr-suggest", on: { submit: (e) => {
    e.preventDefault();
    const action = { type: "suggest", text: suggestion.text };
    if (suggestion.square.trim()) action.square = suggestion.square.trim();
    if (suggestion.direction) action.direction = suggestion.direction;
    suggestion.text = "";
    ctx.send(action);
  } } },
  el("input", { type: "text", className: "greek", lang: "grc", value: suggestion.text, maxLength: 60, "aria-label": "Suggested word", placeholder: "a word", dataset: { focus: "Suggested word" }, on: { input: (e) => { suggestion.text = e.target.value; } } }),
  el("input", { type: "text", value: suggestion.square, maxLength: 3, size: 4, "aria-label": "Square (optional)", placeholder: "H8", dataset: { focus: "Square (optional)" }, on: { input: (e) => { suggestion.square = e.target.value; } } }),
  select("Direction (optional)", [["", "either way"], ["across", "across"], ["down", "down"]], suggestion.direction, (v) => { suggestion.direction = v; }),
  el("button", { className: "btn", type: "submit" }, `Suggest to ${ctx.name(view.turn)}`)) : "";
  return el("section", { className: "card gr-suggestions", "data-testid": "suggestions" },
    el("h2", {}, "Suggestions"), list.length ? el("ul", { className: "list" }, list) : el("p", { className: "muted" }, "None yet."), form);
}

function givenText(view, given) {
  if (!given) return "";
  const { pos, values } = view.vocabulary;
  const fields = Object.entries(given.parse || {}).map(([n, v]) => values[n]?.[v] || v).join(" ");
  return [greek(given.lemma), `, ${pos[given.pos] || given.pos}${fields ? ` ${fields}` : ""}`];
}

function approvalSection(view, ctx) {
  const pending = view.pending;
  if (!pending) return "";
  const can = view.can;
  const words = pending.words.map((w) => el("li", {}, greek(w.word, { className: "greek gr-word" }), ` (${w.score}) `,
    pending.unknown.includes(w.word) ? el("span", { className: "badge badge-warn" }, "not in the lexicon") : "", " — ", givenText(view, w.given)));
  let controls = el("p", { className: "muted" }, "The teacher decides whether these words stand.");
  if (can.has("approve")) {
    const gloss = el("input", { type: "text", maxLength: 200, "aria-label": "Gloss (meaning)", placeholder: "meaning, for the quiz" });
    const reason = el("input", { type: "text", maxLength: 200, "aria-label": "Reason", placeholder: "why not (optional)" });
    controls = el("div", { className: "gr-controls" },
      gloss, el("button", { className: "btn btn-primary", type: "button", on: { click: () => ctx.send({ type: "approve", gloss: gloss.value }) } }, "Approve"),
      reason, el("button", { className: "btn", type: "button", on: { click: () => ctx.send({ type: "reject", reason: reason.value }) } }, "Reject"));
  }
  return el("section", { className: "card gr-approval", "data-testid": "approval" },
    el("h2", {}, `${ctx.name(pending.seat)} played a word the lexicon does not know`), el("ul", { className: "list" }, words), controls);
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
    body.push(el("button", { className: "btn btn-primary", type: "button", "data-testid": "answer",
      on: { click: () => ctx.send({ type: "answer", parses: words.map((w) => payload(view.vocabulary, w, parseFor(key(w)))) }) } },
    answered.includes(ctx.seat) ? "Change my answer" : "Submit my parse"));
  }
  if (can.has("close")) {
    body.push(el("button", { className: "btn btn-primary", type: "button", on: { click: () => ctx.send({ type: "close" }) } }, "Mark this turn now"));
  }
  const seats = ctx.table.players.filter((p) => !p.removed).map((p) => p.seat);
  return el("section", { className: "card gr-quiz", "data-testid": "quiz" },
    el("h2", {}, `Quiz, turn ${view.quiz.play + 1} of ${view.sheet.length}: ${ctx.name(play.seat)} played `,
      words.map((w, i) => [i ? ", " : "", greek(w)]), ` for ${play.base}`),
    el("p", {}, "Parse every word. A perfect parse earns the turn's base score; the player who laid it earns what everyone learns."),
    el("p", { className: "muted", "data-testid": "answered" }, `Answered: ${seats.filter((s) => answered.includes(s)).map(ctx.name).join(", ") || "nobody yet"}`),
    body);
}

function creditControl(play, seat, ctx) {
  const input = el("input", { type: "number", min: 0, max: play.base, value: play.learning[String(seat)] ?? 0, className: "gr-credit", "aria-label": `Credit for ${ctx.name(seat)} on turn ${play.number + 1}` });
  return el("span", { className: "gr-credit-control" }, input,
    el("button", { className: "btn btn-small", type: "button", on: { click: () => ctx.send({ type: "credit", play: play.number, seat, points: Number(input.value) }) } }, "Credit"));
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
      if (r) verdict = !r.answered ? "no answer" : r.perfect ? "perfect" : `wrong: ${r.wrong.map((w, i) => (w.length ? `${play.words[i].word} ${w.join(", ")}` : "")).filter(Boolean).join("; ")}`;
      return el("li", {}, `${ctx.name(s)}: `, play.marked ? `${play.learning[String(s)] ?? 0} learning (${verdict})` : "",
        r?.given ? el("span", { className: "muted" }, " — ", r.given.map((g, i) => [i ? "; " : "", givenText(view, g)])) : "",
        creditable ? creditControl(play, s, ctx) : "");
    });
    return el("li", { className: `gr-play${play.number === current ? " is-current" : ""}`, "data-testid": "sheet-play" },
      el("div", {}, el("strong", {}, `Turn ${play.turn} · ${ctx.name(play.seat)}: `),
        play.words.map((w, i) => [i ? ", " : "", greek(w.word, { className: "greek gr-word" }), ` ${w.score}`]),
        play.bonus ? ` + ${play.bonus} bonus` : "", ` = ${play.base}`,
        play.marked ? ` · teaching ${play.teaching}` : ""),
      el("ul", { className: "gr-analyses" }, play.words.filter((w) => w.analysis).map((w) => el("li", {}, describeAnalysis(w)))),
      play.marked || creditable ? el("ul", { className: "gr-results" }, perSeat) : "");
  });
  return el("section", { className: "card gr-sheet", "data-testid": "sheet" },
    el("h2", {}, "Turns"), el("ol", { className: "gr-plays" }, plays),
    can.has("finish") ? el("button", { className: "btn btn-primary", type: "button", "data-testid": "finish", on: { click: () => ctx.send({ type: "finish" }) } }, "Finish the game") : "");
}

function othersSection(view, ctx) {
  const others = ctx.table.players.filter((p) => p.seat !== ctx.seat);
  const racks = others.map((p) => {
    const rack = view.racks?.[String(p.seat)];
    return el("div", { className: `gr-other${view.turn === p.seat ? " is-turn" : ""}`, "data-testid": `rack-${p.seat}` },
      el("h3", {}, p.name, p.removed ? " (removed)" : ""),
      rack ? el("div", { className: "gr-rack" }, rack.map((t) => tile(t.letter, t.value, { blank: t.letter === "" })))
        : el("span", { className: "muted" }, `${view.rack_sizes[p.seat]} tiles`));
  });
  const teacherActions = view.can.has("end_play")
    ? el("button", { className: "btn", type: "button", on: { click: () => ctx.send({ type: "end_play" }) } }, "End the play and start the quiz") : "";
  return el("section", { className: "card gr-others" }, el("h2", {}, view.options.open_racks ? "Racks" : "Players"), racks, teacherActions);
}

// -- the renderer's interface -------------------------------------------------------------------------------------
// The turn banner's words; `view` is the envelope (the page calls this with it).
export function prompt(view, ctx) {
  const mine = ctx.seat !== null && view.to_act.includes(ctx.seat);
  if (view.phase === "play" && mine) return "lay tiles and parse every word, exchange or pass.";
  if (view.phase === "quiz") return mine ? "parse the words of this turn." : "the quiz waits for the others.";
  if (view.phase === "approval") return ctx.isTeacher ? "approve or reject the word." : "waiting for the teacher to approve a word.";
  if (view.phase === "review") return ctx.isTeacher ? "give any partial credit, then finish the game." : "the teacher is reviewing the quiz.";
  return "";
}

export function describe(event, ctx) {
  const who = (s) => (s === null || s === undefined ? "The teacher" : s === ctx.seat ? "You" : ctx.name(s));
  switch (event.type) {
    case "first_player": return `${who(event.seat)} drew the tile nearest alpha and play${event.seat === ctx.seat ? "" : "s"} first.`;
    case "played": return `${who(event.seat)} played ${event.words.map((w) => w.word).join(", ")} for ${event.base}.`;
    case "exchanged": return `${who(event.seat)} exchanged ${event.count} tile${event.count === 1 ? "" : "s"}.`;
    case "passed": return `${who(event.seat)} passed.`;
    case "hinted": return event.hint
      ? `Your hint: ${event.hint.words.map((w) => w.word).join(", ")} for ${event.hint.score} (${event.left} hint${event.left === 1 ? "" : "s"} left).`
      : `${who(event.seat)} asked for a hint.`;
    case "suggested": return `${who(event.seat)} suggest${event.seat === ctx.seat ? "" : "s"} ${event.text}${event.square ? ` at ${event.square}` : ""}.`;
    case "approval_needed": return `${who(event.seat)} played ${event.unknown.join(", ")}: the teacher decides.`;
    case "approved": return `The teacher approved ${event.words.join(", ")}.`;
    case "rejected": return `The teacher rejected ${event.words.join(", ")}${event.reason ? `: ${event.reason}` : ""}.`;
    case "play_ended": return `${event.reason} The quiz begins.`;
    case "quiz_turn": return `Quiz: turn ${event.play + 1}.`;
    case "answered": return `${who(event.seat)} answered.`;
    case "marked": return `Turn ${event.play + 1} is marked.`;
    case "score": return `${who(event.seat)}: ${event.points > 0 ? "+" : ""}${event.points} ${event.reason}.`;
    case "credit": return `The teacher gave ${ctx.name(event.seat)} ${event.points} for turn ${event.play + 1}.`;
    case "review": return "The quiz is done.";
    case "game_over": return "The game is over.";
    case "returned": return `${who(event.seat)} left; their tiles went back into the bag.`;
    case "drew": case "turn": return "";
    default: return "";
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
    turn: envelope.phase === "play" ? envelope.to_act[0] ?? null : null,
  };
}

export function render(container, ctx) {
  latest = { container, ctx };
  const view = gameView(ctx.view);
  syncDraft(view, ctx);
  // Keep the caret where the player was typing when someone else's move redraws the page.
  const active = document.activeElement;
  const focusKey = container.contains(active) ? active.dataset.focus : undefined;
  const caret = focusKey && active.selectionStart !== undefined ? [active.selectionStart, active.selectionEnd] : null;
  container.replaceChildren(el("div", { className: "gr" },
    el("div", { className: "gr-main" }, boardSection(view, ctx),
      el("div", { className: "gr-side" }, scoresSection(view, ctx), rackSection(view, ctx), hintSection(view), moveSection(view, ctx),
        approvalSection(view, ctx), quizSection(view, ctx), suggestionsSection(view, ctx))),
    sheetSection(view, ctx),
    othersSection(view, ctx)));
  if (focusKey) {
    const again = [...container.querySelectorAll("[data-focus]")].find((n) => n.dataset.focus === focusKey);
    if (again) {
      again.focus();
      if (caret && again.setSelectionRange) try { again.setSelectionRange(...caret); } catch { /* not a text field */ }
    }
  }
}
