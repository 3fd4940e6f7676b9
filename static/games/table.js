import { connectLive } from "../js/live.js";
import { el } from "./dom.js";
import { createTablePage } from "./kit.js";
import { completeView } from "./completion.js";
// A live table page (protocol: docs/protocol.md). Keeps the last seq, asks for a snapshot on a gap, and hands each
// new state to the renderer kit (kit.js), which draws the page around the game's own renderer (the module the game
// declares) and disables every control while an action is in flight or nothing can be played.

const root = document.getElementById("table-root");
const seat = root.dataset.seat === "" ? null : Number(root.dataset.seat);
const isTeacher = root.dataset.teacher === "1";
const ACK_TIMEOUT_MS = 5000;
// Every few seconds the page tells the server which move it has; the server answers only when it is behind.
const HEARTBEAT_MS = 4000;

let lastSeq = -1;
// The last seq whose events the log holds. A heartbeat's snapshot shows a new state without its events; the event
// that it overtook then still brings them to the log and the announcement.
let toldSeq = -1;
let pending = null; // { clientId, timer }
let live = null;
const previews = new Map(); // client_id -> { resolve, reject }

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

// Send one action (the kit lets one through at a time). False: not connected.
function send(action) {
  const clientId = newClientId();
  if (!live.send({ type: "action", action, client_id: clientId })) return false;
  if (pending) clearTimeout(pending.timer);
  // The database is the truth and broadcasts can be lost: no answer in time means ask for the state.
  pending = {
    clientId,
    timer: setTimeout(() => {
      pending = null;
      page.settle();
      live.send({ type: "hello", last_seq: lastSeq, log: true });
    }, ACK_TIMEOUT_MS),
  };
  return true;
}

function settled() {
  if (pending) clearTimeout(pending.timer);
  pending = null;
}

// The game declares its renderer (the generic one where it has none of its own): never guessed from a file name.
const renderer = await import(root.dataset.renderer);
const page = createTablePage({
  renderer,
  seat,
  isTeacher,
  transport: { send, preview },
  elements: {
    root,
    game: document.getElementById("game"),
    banner: document.getElementById("turn-banner"),
    error: document.getElementById("table-error"),
    log: document.getElementById("event-log"),
    announcement: document.getElementById("announcement"),
  },
});

// The turn clock (the table's clock_seconds): a countdown under the banner, corrected by the server's time. When it
// reaches zero the page sends a timeout for the move it was counting (every page may; the server passes the turn
// once, and refuses the rest quietly).
const banner = document.getElementById("turn-banner");
const clockBox = el("p", { className: "turn-clock", hidden: true, dataset: { testid: "turn-clock" } });
const noticeBox = el("p", {
  className: "table-notice",
  hidden: true,
  role: "alert",
  dataset: { testid: "table-notice" },
});
banner.after(clockBox, noticeBox);
let current = null; // { seq, view, table }
let clockTimer = null;
let timedOutSeq = -1;

function tickClock() {
  const clock = current?.table.clock;
  if (!clock || current.view.finished || current.table.status !== "playing") {
    clockBox.hidden = !clock || current.view.finished;
    if (clock && !current.view.finished) {
      clockBox.textContent = clock.timed_out ? "Time is up: the teacher decides." : "The clock is stopped.";
    }
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

function showClock(state) {
  current = state;
  const clock = state.table.clock;
  if (clock) clock.offset = clock.now - Date.now() / 1000;
  if (!clockTimer && clock) clockTimer = setInterval(tickClock, 500);
  tickClock();
}

function onMessage(message) {
  if (message.type === "state") {
    showClock(message);
    lastSeq = message.seq;
    if (message.log) toldSeq = message.seq;
    page.show({ seq: message.seq, view: message.view, table: message.table }, { log: message.log || null });
    if (!page.busy) settled(); // a snapshot of the same move (a pause) does not answer the action in flight
  } else if (message.type === "event") {
    if (message.seq <= lastSeq) {
      // Its state is shown already: a snapshot overtook it. What happened is still news if that snapshot had no log.
      if (message.seq > toldSeq) page.tell(message.seq, message.events);
      toldSeq = Math.max(toldSeq, message.seq);
      return;
    }
    if (lastSeq >= 0 && message.seq !== lastSeq + 1) {
      live.send({ type: "hello", last_seq: lastSeq, log: true }); // a gap: the server answers with a snapshot
      return;
    }
    const view = completeView(current?.view, message.view);
    if (view === null) {
      live.send({ type: "hello", last_seq: -1, log: true }); // parts it does not hold: a snapshot brings them all
      return;
    }
    lastSeq = message.seq;
    toldSeq = message.seq;
    showClock({ ...message, view });
    page.show({ seq: message.seq, view, table: message.table, events: message.events });
    settled();
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
    settled();
    page.refused(message.code, message.message);
  } else if (message.type === "removed") {
    settled();
    live.stop("removed from the game");
    page.removed(message.message);
  }
}

live = connectLive(root.dataset.ws, {
  onOpen: (api) => {
    if (lastSeq >= 0) api.send({ type: "hello", last_seq: lastSeq, log: true });
  },
  onMessage,
  heartbeat: { every: HEARTBEAT_MS, message: () => ({ type: "hello", last_seq: lastSeq }) },
});
