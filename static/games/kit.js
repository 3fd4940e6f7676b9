import { el } from "./dom.js";
// The renderer kit: everything a live table page shares, so that a game's renderer draws only its own sections.
//
// The kit owns the render loop (one draw per update, or when a renderer asks with ctx.rerender()), keeps the focus,
// the caret and what the player was typing across re-renders, draws the players-and-scores table, names seats, builds
// an action bar from the view's `actions` for the actions a renderer does not draw itself, shows the last move, a
// table-wide announcement, the turn banner and errors (next to the control that caused them, cleared once they no
// longer apply), and disables every control while an action is in flight or while the viewer may not act at all
// (the table is paused or finished, the game is over, the viewer was taken out of it). The page (table.js) feeds it
// the live protocol's messages; the server stays the only referee.
//
// ---- A renderer module (static/games/renderers/<renderer>.js) -------------------------------------------------------
//   export function render(ctx) -> Node | string | Array<Node|string>     required
//       The game's own sections, built from ctx.view.body and ctx.view.actions. Return them: do not touch the page.
//       The kit adds the last move, the action bar and the players table, and replaces the page's content.
//   export const handles = ["word", "pass"] | "all"                         optional (default: none)
//       The action types the renderer draws its own controls for; the kit's action bar offers every other one.
//   export function columns(ctx) -> [{ head, cell(player) -> Node|string, testid?, className? }]      optional
//       Extra columns of the players table (shown before the score parts); a cell gets data-testid `${testid}-${seat}`.
//   export function badges(player, ctx) -> Array<Node|string>                optional: marks after a player's name.
//   export const parts = { play: "Play", learning: "Learning" }              optional: labels of view.scores.parts.
//   export const provisionalNote = "…"                                       optional: shown while scores.provisional.
//   export const showPlayers = false                                         optional: no players table (solitaire).
//   export function prompt(view, ctx) -> string                              optional: the turn banner's text.
//   export function describe(event, ctx) -> string                           optional: one log line ("" hides it).
//   export function announce(event, ctx) -> string                          optional: a table-wide banner for an event
//                                                                             (a challenge's verdict), "" for none.
//
//   (A renderer that still exports render(container, ctx) draws into a host element the kit keeps, and the kit then
//   leaves the players table and every action to it unless it exports showPlayers = true or handles: a bridge until
//   every renderer is moved.)
//
// ---- ctx, given to every function above ---------------------------------------------------------------------------
//   view, table, seq, seat, isTeacher, events   the envelope, the table ({status, players}), this update's events
//   name(seat)       "you" for the viewer's own seat, else the player's name ("Player 3" if unknown)
//   who(seat)        the same at the start of a sentence ("You");  playerName(seat): always the player's name
//   canAct           the viewer may act now: something offered, table playing, nothing in flight
//   busy             an action is in flight (every control is disabled until the server answers)
//   frozen           nothing can be done here now (paused, finished, removed, in flight): every control is disabled
//   offered(type)    the offered action's spec ({type, label, fields}) or null
//   choices(type, field)  the legal values the server lists for a field ([] when none or not offered)
//   send(action)     sends once: returns false (and sends nothing) while busy, frozen, or if the type is not offered
//   preview(action)  -> Promise of the server's preview (for the sender only)
//   rerender()       draw again after a local change (a card picked)
//   draft(key, epoch, init) -> a plain object that survives re-renders; replaced by init() when epoch changes
//                    (e.g. epoch = the turn number: the player's plan is dropped when the turn changes)
//   button(label, action, props)  a <button> that sends `action`, disabled unless its type is offered
//   fillNames(text)  text with every {seat:N} placeholder replaced by that player's name
//
// ---- What the kit keeps across re-renders ------------------------------------------------------------------------
//   The focused control is found again by data-keep, else id, else its tag, data-testid, name, aria-label and
//   card/seat/slot data; its caret and selection come back. Inputs, selects and textareas with data-keep="<key>" keep
//   their value (the player's draft) until the renderer changes the key. The error box moves next to the control
//   that sent the refused action.

const DEFAULT_PROVISIONAL = "Scores so far: they are not final yet.";
const ANNOUNCE_MS = 20000;
const SEAT_PLACEHOLDER = /\{seat:(\d+)\}/g;

/** Replace each {seat:N} placeholder in `text` with `name(N)` (the server's summaries name seats this way). */
export function fillNames(text, name) {
  return String(text ?? "").replace(SEAT_PLACEHOLDER, (_, n) => name(Number(n)));
}

/** "Ana", "Ana and Ben", "Ana, Ben and Carla". */
export function joinNames(list) {
  return list.length > 1 ? `${list.slice(0, -1).join(", ")} and ${list.at(-1)}` : list.join("");
}

// -- focus and drafts --------------------------------------------------------------------------------------------
function keyOf(node) {
  if (node.dataset?.keep) return `keep:${node.dataset.keep}`;
  if (node.id) return `id:${node.id}`;
  const d = node.dataset || {};
  return [
    node.tagName,
    node.getAttribute("data-testid"),
    node.getAttribute("name"),
    node.getAttribute("aria-label"),
    d.cardId,
    d.seat,
    d.slot,
    d.owner,
    d.pile,
    d.action,
    node.tagName === "BUTTON" ? node.textContent.slice(0, 40) : "",
  ].join("|");
}

function findByKey(container, memo) {
  if (!memo) return null;
  for (const node of container.querySelectorAll(memo.tag)) if (keyOf(node) === memo.key) return node;
  return null;
}

function hasCaret(node) {
  return (
    (node.tagName === "INPUT" && /^(text|search|url|tel|password|)$/.test(node.type)) || node.tagName === "TEXTAREA"
  );
}

function captureFocus(container) {
  const node = document.activeElement;
  if (!node || node === document.body || !container.contains(node)) return null;
  const memo = { key: keyOf(node), tag: node.tagName };
  if (hasCaret(node))
    Object.assign(memo, { start: node.selectionStart, end: node.selectionEnd, direction: node.selectionDirection });
  return memo;
}

function restoreFocus(container, memo) {
  const node = findByKey(container, memo);
  if (!node || node.disabled) return;
  node.focus({ preventScroll: true });
  if (hasCaret(node) && memo.start !== undefined && memo.start !== null) {
    try {
      node.setSelectionRange(memo.start, memo.end, memo.direction || "none");
    } catch {
      /* not selectable */
    }
  }
}

function captureDrafts(container) {
  const kept = new Map();
  for (const node of container.querySelectorAll("[data-keep]")) {
    if (!("value" in node)) continue;
    kept.set(node.dataset.keep, { value: node.value, checked: node.checked });
  }
  return kept;
}

function restoreDrafts(container, kept) {
  for (const node of container.querySelectorAll("[data-keep]")) {
    const was = kept.get(node.dataset.keep);
    if (!was || !("value" in node)) continue;
    if (node.type === "checkbox" || node.type === "radio") node.checked = was.checked;
    else node.value = was.value;
  }
}

// -- the generic action controls ------------------------------------------------------------------------------------
function label(text) {
  return String(text).replaceAll("_", " ");
}

function input(field) {
  const props = { name: field.name, required: field.required, "aria-label": label(field.name) };
  if (Array.isArray(field.choices)) {
    return el(
      "select",
      props,
      field.choices.map((value) =>
        el(
          "option",
          { value: JSON.stringify(value) },
          typeof value === "object" ? JSON.stringify(value) : String(value),
        ),
      ),
    );
  }
  if (field.type === "bool") return el("input", { ...props, type: "checkbox", required: false });
  if (field.type === "int") return el("input", { ...props, type: "number", step: 1, inputMode: "numeric" });
  if (field.type === "str") return el("input", { ...props, type: "text" });
  return el("input", { ...props, type: "text", placeholder: field.type === "int_list" ? "[1, 2]" : "JSON" });
}

function fieldValue(field, control) {
  if (Array.isArray(field.choices)) return JSON.parse(control.value);
  if (field.type === "bool") return control.checked;
  if (field.type === "int") return Number(control.value);
  if (field.type === "str") return control.value;
  return JSON.parse(control.value);
}

/** One control for an offered action: a button, or a small form for its fields (legal values as a choice). */
export function actionControl(spec, ctx) {
  if (!spec.fields.length) return ctx.button(spec.label || label(spec.type), { type: spec.type });
  const controls = spec.fields.map((field) => {
    const control = input(field);
    control.dataset.keep = `action:${spec.type}:${field.name}`;
    return [field, control];
  });
  const form = el(
    "form",
    { className: "inline-form kit-action", dataset: { action: spec.type } },
    controls.map(([field, control]) => el("label", {}, label(field.name), " ", control)),
    el("button", { className: "btn", type: "submit", dataset: { action: spec.type } }, spec.label || label(spec.type)),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const action = { type: spec.type };
    try {
      for (const [field, control] of controls) {
        if (control.value === "" && !field.required && field.type !== "bool") continue;
        action[field.name] = fieldValue(field, control);
      }
    } catch {
      form.querySelector("input[type=text]")?.setCustomValidity("Not valid JSON");
      form.reportValidity();
      return;
    }
    ctx.send(action);
  });
  form.addEventListener("input", (event) => event.target.setCustomValidity?.(""));
  return form;
}

/** The kit's action bar: a control for each offered action the renderer does not draw itself. */
export function actionBar(ctx, handles) {
  if (handles === "all") return "";
  const own = new Set(handles || []);
  const specs = ctx.view.actions.filter((spec) => !own.has(spec.type));
  if (!specs.length) return "";
  return el(
    "section",
    { className: "card kit-actions", "data-testid": "action-bar" },
    el("h2", {}, "What you can do"),
    el(
      "div",
      { className: "kit-action-list" },
      specs.map((spec) => actionControl(spec, ctx)),
    ),
  );
}

// -- the players table ------------------------------------------------------------------------------------------------
function partLabel(part, renderer) {
  return renderer.parts?.[part] || part.charAt(0).toUpperCase() + label(part.slice(1));
}

/** The players and their scores: names, the score parts, the total (provisional or final), the winners. */
export function playersTable(ctx, renderer = {}) {
  const { view } = ctx;
  const scores = view.scores;
  const parts = Object.keys(scores.parts || {});
  const columns = renderer.columns ? renderer.columns(ctx) : [];
  const finished = view.finished;
  const head = el(
    "tr",
    {},
    el("th", {}, "Player"),
    columns.map((c) => el("th", { className: c.className || "" }, c.head)),
    parts.map((p) => el("th", { className: "num" }, partLabel(p, renderer))),
    el("th", { className: "num" }, finished ? "Final score" : scores.provisional ? "Score so far" : "Score"),
  );
  const rows = ctx.table.players.map((p) => {
    const removed = p.removed || view.removed.includes(p.seat);
    const winner = finished && view.winners.includes(p.seat);
    const turn = !finished && view.to_act.includes(p.seat);
    return el(
      "tr",
      {
        className: [
          turn ? "is-turn" : "",
          removed ? "is-removed" : "",
          winner ? "is-winner" : "",
          p.seat === ctx.seat ? "is-me" : "",
        ]
          .filter(Boolean)
          .join(" "),
        dataset: { seat: p.seat },
        "data-testid": `player-${p.seat}`,
      },
      el(
        "td",
        {},
        el("span", { className: "kit-name" }, p.name),
        p.seat === ctx.seat ? el("span", { className: "muted" }, " (you)") : "",
        turn ? el("span", { className: "badge" }, "to play") : "",
        removed ? el("span", { className: "badge badge-warn" }, "removed") : "",
        winner ? el("span", { className: "badge badge-ok", "data-testid": "winner-badge" }, "🏆 winner") : "",
        renderer.badges ? renderer.badges(p, ctx) : "",
      ),
      columns.map((c) =>
        el("td", { className: c.className || "", "data-testid": c.testid ? `${c.testid}-${p.seat}` : null }, c.cell(p)),
      ),
      parts.map((part) =>
        el(
          "td",
          { className: "num", "data-testid": `part-${part}-${p.seat}` },
          String(scores.parts[part][p.seat] ?? ""),
        ),
      ),
      el(
        "td",
        {
          className: `num kit-total${scores.provisional && !finished ? " is-provisional" : ""}`,
          "data-testid": `total-${p.seat}`,
        },
        String(scores.total[p.seat] ?? ""),
        scores.provisional && !finished ? el("span", { className: "muted", title: "provisional" }, " *") : "",
      ),
    );
  });
  const winners = view.winners.map((s) => ctx.playerName(s));
  return el(
    "section",
    { className: "card kit-players", "data-testid": "players" },
    el("h2", {}, finished ? "Final scores" : "Players"),
    finished && winners.length
      ? el(
          "p",
          { className: "kit-winners", "data-testid": "winners" },
          el("strong", {}, `${joinNames(winners)} ${winners.length === 1 ? "wins" : "win"}.`),
        )
      : "",
    el(
      "div",
      { className: "kit-scroll" },
      el("table", { className: "table kit-players-table" }, el("thead", {}, head), el("tbody", {}, rows)),
    ),
    scores.provisional && !finished
      ? el(
          "p",
          { className: "help kit-provisional", "data-testid": "provisional-note" },
          "* ",
          renderer.provisionalNote || DEFAULT_PROVISIONAL,
        )
      : "",
  );
}

// -- the page -------------------------------------------------------------------------------------------------------
/**
 * The render loop of one table page. `elements`: { game, banner, error, log, announcement, root }. `transport`:
 * { send(action) -> bool (false: not connected), preview(action) -> Promise }. Returns the page's handle:
 * show(update, {log}) for each new state, refused(code, message) for a refusal, removed(message), settle().
 */
export function createTablePage({ renderer, elements, seat, isTeacher, transport, logLength = 60 }) {
  const { game, banner, error: errorBox, log, announcement, root } = elements;
  const errorHome = { parent: errorBox.parentNode, next: errorBox.nextSibling };
  let current = null; // { seq, view, table, events }
  let busy = false;
  let out = null; // a message once this viewer is no longer at the table
  let error = null; // { code, message, seq, status, anchor }
  let focusMemo = null;
  let lastDrawnSeq = null;
  let announceTimer = null;
  let pendingAnchor = null; // the control that sent the action in flight
  const drafts = new Map();
  // Renderers written before the kit export render(container, ctx) and draw their own players table.
  const legacy = renderer.render.length >= 2;
  const legacyHost = el("div", { className: "kit-legacy" });

  function playerName(s) {
    const player = current?.table.players.find((p) => p.seat === s);
    return player ? player.name : `Player ${Number(s) + 1}`;
  }

  function name(s) {
    return s === seat ? "you" : playerName(s);
  }

  function who(s) {
    return s === seat ? "You" : playerName(s);
  }

  function offered(type) {
    return current?.view.actions.find((a) => a.type === type) || null;
  }

  function frozenReason() {
    if (out) return out;
    if (!current) return "Loading the table…";
    const { view, table } = current;
    if (table.status === "paused") return "The teacher has paused this game: wait until it is resumed.";
    if (table.status === "kept") return "This game is kept for the next lesson: it goes on from here then.";
    if (view.finished)
      return view.winners.length
        ? `The game is over: ${joinNames(view.winners.map((s) => (s === seat ? "you" : name(s))))} won.`
        : "The game is over.";
    if (table.status === "finished") return "The teacher has ended this game.";
    if (seat !== null && view.removed.includes(seat)) return "You are no longer in this game.";
    return "";
  }

  function context() {
    const frozen = Boolean(frozenReason()) || busy;
    const ctx = {
      ...current,
      seat,
      isTeacher,
      name,
      who,
      playerName,
      busy,
      frozen,
      canAct: !frozen && current.view.actions.length > 0,
      offered,
      choices: (type, field) => offered(type)?.fields.find((f) => f.name === field)?.choices || [],
      send,
      preview: transport.preview,
      rerender: draw,
      draft(key, epoch, init) {
        const kept = drafts.get(key);
        if (kept && kept.epoch === epoch) return kept.value;
        const value = init();
        drafts.set(key, { epoch, value });
        return value;
      },
      fillNames: (text) => fillNames(text, name),
      button(text, action, props = {}) {
        return el(
          "button",
          {
            className: "btn",
            type: "button",
            ...props,
            disabled: props.disabled || !offered(action.type),
            dataset: { action: action.type, ...(props.dataset || {}) },
            on: { click: () => send(action), ...(props.on || {}) },
          },
          text,
        );
      },
    };
    return ctx;
  }

  function send(action) {
    if (!current || busy || frozenReason() || !offered(action?.type)) return false;
    const anchor = captureFocus(game);
    if (!transport.send(action)) {
      showError({
        code: "offline",
        message: "Not connected: wait until the page says “live”, then try again.",
        anchor,
      });
      return false;
    }
    clearError();
    focusMemo = anchor;
    error = null;
    busy = true;
    pendingAnchor = anchor;
    root.dataset.pending = "1";
    draw();
    return true;
  }

  function settle() {
    busy = false;
    delete root.dataset.pending;
  }

  // -- errors ---------------------------------------------------------------------------------------------------------
  function showError(err) {
    error = { ...err, seq: current?.seq, status: current?.table.status };
    errorBox.textContent = fillNames(err.message, name);
    errorBox.dataset.code = err.code || "";
    errorBox.hidden = false;
    placeError();
  }

  function clearError() {
    error = null;
    errorBox.hidden = true;
    errorBox.textContent = "";
    delete errorBox.dataset.code;
    placeError();
  }

  // The error stands next to the control that caused it (its card, form or section), or in its own place.
  function placeError() {
    const anchor = error ? findByKey(game, error.anchor) : null;
    const holder = anchor?.closest("form, .card, section") || null;
    if (holder) {
      if (errorBox.parentNode !== holder) holder.append(errorBox);
    } else if (errorBox.parentNode !== errorHome.parent) {
      errorHome.parent.insertBefore(
        errorBox,
        errorHome.next && errorHome.next.parentNode === errorHome.parent ? errorHome.next : null,
      );
    }
  }

  // An error no longer applies once the table has moved on or its status changed (a "paused" error after a resume).
  function errorStillApplies() {
    return error && current && error.seq === current.seq && error.status === current.table.status;
  }

  // -- drawing --------------------------------------------------------------------------------------------------------
  function turnText(ctx) {
    const reason = frozenReason();
    if (reason) return reason;
    const { view } = current;
    const promptText = renderer.prompt ? renderer.prompt(view, ctx) : "";
    const mine = seat !== null && view.to_act.includes(seat) && view.actions.length > 0;
    if (mine) return `Your turn${promptText ? `: ${promptText}` : "."}`;
    if (view.to_act.length)
      return `Waiting for ${joinNames(view.to_act.map(name))}.${promptText ? ` ${promptText}` : ""}`;
    if (view.awaiting_teacher) return isTeacher ? "The table is waiting for you." : "Waiting for the teacher.";
    return promptText || fillNames(view.summary, name);
  }

  function lastMoveLine(ctx) {
    const last = ctx.view.last_move;
    if (!last) return "";
    const fresh = lastDrawnSeq !== null && lastDrawnSeq !== ctx.seq;
    return el(
      "p",
      { className: `kit-last-move${fresh ? " is-fresh" : ""}`, "data-testid": "last-move" },
      el("span", { className: "kit-last-label" }, "Last move: "),
      last.seat === null ? "The teacher " : el("strong", {}, `${who(last.seat)} `),
      fillNames(last.text, name),
    );
  }

  function draw() {
    if (!current) return;
    const ctx = context();
    const memo = captureFocus(game) || focusMemo;
    const kept = captureDrafts(game);
    const mine = !ctx.frozen && seat !== null && current.view.to_act.includes(seat) && current.view.actions.length > 0;
    banner.textContent = turnText(ctx);
    banner.dataset.mine = String(mine);
    banner.dataset.frozen = String(Boolean(frozenReason()));
    root.dataset.seq = String(current.seq);
    root.dataset.status = current.table.status;
    let own;
    try {
      if (legacy) {
        // A renderer still on the old contract, render(container, ctx): it draws into a host the frame keeps.
        renderer.render(legacyHost, ctx);
        own = legacyHost;
      } else {
        own = renderer.render(ctx);
      }
    } catch (err) {
      console.error(err);
      own = el("p", { className: "message message-error" }, "This part of the table could not be drawn.");
    }
    const frame = el(
      "fieldset",
      { className: "kit-frame", disabled: ctx.frozen, "aria-busy": String(busy) },
      lastMoveLine(ctx),
      own,
      actionBar(ctx, legacy ? (renderer.handles ?? "all") : renderer.handles),
      (legacy ? renderer.showPlayers !== true : renderer.showPlayers === false) ? "" : playersTable(ctx, renderer),
    );
    game.replaceChildren(frame);
    restoreDrafts(game, kept);
    if (!ctx.frozen) {
      restoreFocus(game, memo);
      focusMemo = null;
    } else if (memo) {
      focusMemo = memo;
    }
    if (error && !errorStillApplies()) clearError();
    else placeError();
    lastDrawnSeq = current.seq;
  }

  // -- the log and announcements ------------------------------------------------------------------------------------
  function describe(event, ctx) {
    if (renderer.describe) return renderer.describe(event, ctx) || "";
    const { type, ...fields } = event;
    const whoText = typeof fields.seat === "number" ? `${who(fields.seat)}: ` : "";
    return `${whoText}${label(type)}`;
  }

  function logEntries(seq, events, ctx) {
    return events
      .map((event) => describe(event, ctx))
      .filter(Boolean)
      .map((text) => el("li", { dataset: { seq } }, text));
  }

  function markLast() {
    for (const li of log.querySelectorAll("li")) li.classList.toggle("is-last", Number(li.dataset.seq) === current.seq);
  }

  function addToLog(seq, events) {
    const ctx = context();
    for (const li of logEntries(seq, events, ctx)) log.prepend(li);
    while (log.children.length > logLength) log.lastElementChild.remove();
    markLast();
  }

  function rebuildLog(moves) {
    const ctx = context();
    log.replaceChildren(
      ...moves
        .flatMap((move) => logEntries(move.seq, move.events, ctx))
        .reverse()
        .slice(0, logLength),
    );
    markLast();
  }

  function announce(events) {
    if (!renderer.announce || !announcement) return;
    const ctx = context();
    const texts = events.map((event) => renderer.announce(event, ctx)).filter(Boolean);
    if (!texts.length) return;
    announcement.replaceChildren(
      el("span", {}, texts.join(" ")),
      el(
        "button",
        {
          className: "btn btn-small",
          type: "button",
          "aria-label": "Dismiss",
          on: {
            click: () => {
              announcement.hidden = true;
            },
          },
        },
        "✕",
      ),
    );
    announcement.hidden = false;
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => {
      announcement.hidden = true;
    }, ANNOUNCE_MS);
  }

  return {
    /** A new state: a snapshot (`log`: the move log to rebuild "What happened" from) or a live event. */
    show(update, { log: moves = null } = {}) {
      const moved = current === null || update.seq !== current.seq;
      current = { ...update, events: update.events || [] };
      if (moved || update.events) settle();
      if (moves) rebuildLog(moves);
      else if (update.events?.length) addToLog(update.seq, update.events);
      draw();
      if (update.events?.length) announce(update.events);
    },
    /** What happened at `seq` when a snapshot without it (a heartbeat's answer) already showed its state: the log
     * and the announcement still need it. At the state shown, its events are the last move's (for highlights). */
    tell(seq, events) {
      if (!current || !events?.length) return;
      if (seq === current.seq) {
        current = { ...current, events };
        draw();
      }
      addToLog(seq, events);
      announce(events);
    },
    /** The server refused the last action (or it never arrived). */
    refused(code, message) {
      settle();
      showError({ code, message, anchor: pendingAnchor });
      draw();
    },
    /** The viewer was taken out of the game: say so, and leave no control behind. */
    removed(message) {
      out = message;
      settle();
      banner.textContent = message;
      banner.dataset.mine = "false";
      banner.dataset.frozen = "true";
      game.replaceChildren(el("section", { className: "card", "data-testid": "removed" }, el("p", {}, message)));
      clearError();
    },
    settle() {
      settle();
      draw();
    },
    get busy() {
      return busy;
    },
    get seq() {
      return current ? current.seq : -1;
    },
  };
}
