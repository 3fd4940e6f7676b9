// A live table page (protocol: docs/protocol.md). Keeps the last seq, asks for a snapshot on a gap, shows errors and
// whose turn it is, and draws the game by handing each new view to the renderer module the game declares.
//
// This page reads only the view's envelope (seat, phase, to_act, actions, scores, finished, winners, last_move);
// the game's own part is view.body, which only its renderer reads.
// A renderer exports render(container, ctx) and may export describe(event, ctx) -> string for the event log and
// prompt(view, ctx) -> string for the turn banner.
// ctx: { view, table, seq, seat, isTeacher, events, send(action), preview(action) -> Promise, name(seat) }.
import { connectLive } from "../js/live.js";
import { el } from "./dom.js";

const root = document.getElementById("table-root");
const container = document.getElementById("game");
const banner = document.getElementById("turn-banner");
const errorBox = document.getElementById("table-error");
const log = document.getElementById("event-log");
const seat = root.dataset.seat === "" ? null : Number(root.dataset.seat);
const isTeacher = root.dataset.teacher === "1";
const ACK_TIMEOUT_MS = 5000;
const LOG_LENGTH = 60;

let renderer = null;
let lastSeq = -1;
let current = null; // { seq, view, table, events }
let pending = null; // { clientId, timer }
let live = null;
const previews = new Map(); // client_id -> { resolve, reject }

// The game declares its renderer (the generic one where it has none of its own): never guessed from a file name.
function loadRenderer() {
  return import(root.dataset.renderer);
}

function name(s) {
  const player = current?.table.players.find((p) => p.seat === s);
  if (s === seat) return "you";
  return player ? player.name : `seat ${s}`;
}

function context() {
  return { ...current, seat, isTeacher, send, preview, name };
}

function newClientId() {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

// Ask the server what an action would do (words formed, a score): answered to this page only, never stored.
// Resolves with the result, rejects with { code, message }.
function preview(action) {
  const clientId = newClientId();
  return new Promise((resolve, reject) => {
    if (!live.send({ type: "preview", action, client_id: clientId })) {
      reject({ code: "offline", message: "Not connected." });
      return;
    }
    previews.set(clientId, { resolve, reject });
  });
}

function send(action) {
  clearError();
  const clientId = newClientId();
  if (!live.send({ type: "action", action, client_id: clientId })) {
    showError("Not connected: wait until the page says “live”, then try again.");
    return;
  }
  if (pending) clearTimeout(pending.timer);
  // The database is the truth and broadcasts can be lost: no answer in time means ask for the state.
  pending = { clientId, timer: setTimeout(() => { pending = null; live.send({ type: "hello", last_seq: lastSeq }); }, ACK_TIMEOUT_MS) };
  root.dataset.pending = "1";
}

function settle() {
  if (pending) clearTimeout(pending.timer);
  pending = null;
  delete root.dataset.pending;
}

function showError(text) {
  errorBox.textContent = text;
  errorBox.hidden = false;
}

function clearError() {
  errorBox.hidden = true;
  errorBox.textContent = "";
}

function isMine() {
  const { view } = current;
  return seat !== null && view.to_act.includes(seat) && view.actions.length > 0;
}

function names(seats) {
  const list = seats.map(name);
  return list.length > 1 ? `${list.slice(0, -1).join(", ")} and ${list.at(-1)}` : list.join("");
}

function turnText() {
  const { view, table } = current;
  if (table.status === "paused") return "The teacher has paused this game.";
  if (table.status === "kept") return "This game is kept for the next lesson: it goes on from here then.";
  if (view.finished) return view.winners.length ? `The game is over: ${names(view.winners)} won.` : "The game is over.";
  if (table.status === "finished") return "The teacher has ended this game.";
  const prompt = renderer.prompt ? renderer.prompt(view, context()) : "";
  if (isMine()) return `Your turn${prompt ? `: ${prompt}` : "."}`;
  if (view.to_act.length) return `Waiting for ${names(view.to_act)}.${prompt ? ` ${prompt}` : ""}`;
  if (view.awaiting_teacher) return "Waiting for the teacher.";
  return prompt || view.summary;
}

function describe(event) {
  if (renderer.describe) {
    const text = renderer.describe(event, context());
    if (text) return text;
  }
  const { type, ...fields } = event;
  const who = typeof fields.seat === "number" ? `${name(fields.seat)}: ` : "";
  return `${who}${type.replaceAll("_", " ")}`;
}

// The turn clock (the table's clock_seconds): a countdown under the banner, corrected by the server's time. When it
// reaches zero the page sends a timeout for the move it was counting (every page may; the server passes the turn
// once, and refuses the rest quietly).
const clockBox = el("p", { className: "turn-clock", hidden: true, dataset: { testid: "turn-clock" } });
const noticeBox = el("p", { className: "table-notice", hidden: true, role: "alert", dataset: { testid: "table-notice" } });
banner.after(clockBox, noticeBox);
let clockTimer = null;
let timedOutSeq = -1;

function tickClock() {
  const clock = current?.table.clock;
  if (!clock || current.view.finished || current.table.status !== "playing") {
    clockBox.hidden = !clock || current.view.finished;
    if (clock && !current.view.finished) clockBox.textContent = clock.timed_out ? "Time is up: the teacher decides." : "The clock is stopped.";
    return;
  }
  clockBox.hidden = false;
  if (clock.deadline === null) {
    clockBox.textContent = clock.timed_out ? "Time is up: the teacher decides." : "";
    return;
  }
  const left = Math.max(0, Math.ceil(clock.deadline - (Date.now() / 1000 + clock.offset)));
  clockBox.textContent = `${left} s left for this turn`;
  clockBox.dataset.low = left <= 10 ? "1" : "0";
  if (left === 0 && timedOutSeq !== current.seq) {
    timedOutSeq = current.seq;
    live.send({ type: "action", action: { type: "timeout", seq: current.seq }, client_id: `timeout-${current.seq}` });
  }
}

function startClock() {
  const clock = current.table.clock;
  if (clock) clock.offset = clock.now - Date.now() / 1000;
  if (!clockTimer && clock) clockTimer = setInterval(tickClock, 500);
  tickClock();
}

function draw() {
  startClock();
  banner.textContent = turnText();
  banner.dataset.mine = String(isMine() && current.table.status === "playing");
  root.dataset.seq = String(current.seq);
  root.dataset.status = current.table.status;
  renderer.render(container, context());
}

function addToLog(events) {
  for (const event of events) log.prepend(el("li", {}, describe(event)));
  while (log.children.length > LOG_LENGTH) log.lastElementChild.remove();
}

function onMessage(message) {
  if (message.type === "state") {
    lastSeq = message.seq;
    current = { seq: message.seq, view: message.view, table: message.table, events: [] };
    settle();
    draw();
  } else if (message.type === "event") {
    if (message.seq <= lastSeq) return; // already shown (a snapshot overtook it)
    if (lastSeq >= 0 && message.seq !== lastSeq + 1) {
      live.send({ type: "hello", last_seq: lastSeq }); // a gap: the server answers with a snapshot
      return;
    }
    lastSeq = message.seq;
    current = { seq: message.seq, view: message.view, table: message.table, events: message.events };
    settle();
    clearError();
    addToLog(message.events);
    draw();
  } else if (message.type === "preview") {
    const waiting = previews.get(message.client_id);
    if (!waiting) return;
    previews.delete(message.client_id);
    if (message.ok) waiting.resolve(message.result);
    else waiting.reject({ code: message.code, message: message.message });
  } else if (message.type === "notice") {
    noticeBox.textContent = message.message;
    noticeBox.hidden = false;
  } else if (message.type === "error") {
    if (String(message.client_id).startsWith("timeout-")) return; // another page passed the turn first
    settle();
    showError(message.message);
    errorBox.dataset.code = message.code;
  } else if (message.type === "removed") {
    live.stop("removed from the game");
    showError(message.message);
    container.replaceChildren();
  }
}

renderer = await loadRenderer();
// Every few seconds the page tells the server which move it has; the server answers only when it is behind.
const HEARTBEAT_MS = 4000;
live = connectLive(root.dataset.ws, {
  onOpen: (api) => { if (lastSeq >= 0) api.send({ type: "hello", last_seq: lastSeq }); },
  onMessage,
  heartbeat: { every: HEARTBEAT_MS, message: () => ({ type: "hello", last_seq: lastSeq }) },
});
