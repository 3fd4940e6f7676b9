// A live table page (protocol: DESIGN.md §2). Keeps the last seq, asks for a snapshot on a gap, shows errors and
// whose turn it is, and draws the game by handing each new view to the game's renderer module
// (renderers/<slug>.js, or renderers/generic.js when a game has none yet).
//
// A renderer exports render(container, ctx) and may export describe(event, ctx) -> string for the event log and
// prompt(view, ctx) -> string for the turn banner, and myTurn(view, ctx) -> bool when having an action available does
// not mean it is the player's turn (anyone may start a game's timer, say).
// ctx: { view, table, seq, seat, isTeacher, events, send(action), name(seat) }.
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

async function loadRenderer() {
  try {
    return await import(root.dataset.renderer);
  } catch {
    return import(root.dataset.fallback);
  }
}

function name(s) {
  const player = current?.table.players.find((p) => p.seat === s);
  if (s === seat) return "you";
  return player ? player.name : `seat ${s}`;
}

function context() {
  return { ...current, seat, isTeacher, send, name };
}

function send(action) {
  clearError();
  const clientId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
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
  if (seat === null) return false;
  return renderer.myTurn ? renderer.myTurn(view, context()) : (view.actions || []).length > 0;
}

function turnText() {
  const { view, table } = current;
  if (table.status === "paused") return "The teacher has paused this game.";
  if (table.status === "finished" || view.phase === "finished") return "The game is over.";
  const prompt = renderer.prompt ? renderer.prompt(view, context()) : "";
  if (isMine()) return `Your turn${prompt ? `: ${prompt}` : "."}`;
  if (typeof view.turn === "number") return `Waiting for ${name(view.turn)}.`;
  return prompt || `Phase: ${view.phase ?? "…"}`;
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

function draw() {
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
  } else if (message.type === "error") {
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
live = connectLive(root.dataset.ws, {
  onOpen: (api) => { if (lastSeq >= 0) api.send({ type: "hello", last_seq: lastSeq }); },
  onMessage,
});
