import { connectLive } from "../js/live.js";
import { el } from "./dom.js";
import { joinNames } from "./kit.js";
// The teacher's lesson dashboard: one row per table, replaced whenever the server pushes that table's row.

const card = document.getElementById("dashboard");
const body = document.getElementById("dashboard-rows");
const moderation = document.getElementById("moderation-form");
const rows = new Map(JSON.parse(document.getElementById("dashboard-data").textContent).map((r) => [r.id, r]));

const STATUS = { playing: "Playing", paused: "Paused", finished: "Finished", kept: "Kept for the next lesson" };
const waitingCard = document.getElementById("waiting-card");
let waiting = [];

function postForm(action, fields, button, testid = "") {
  const form = moderation.cloneNode(true);
  form.hidden = false;
  form.removeAttribute("id");
  form.className = "inline-form";
  form.action = action;
  form.append(
    ...fields,
    el("button", { className: "btn btn-small", type: "submit", dataset: testid ? { testid } : {} }, button),
  );
  return form;
}

function select(name, options, testid = "") {
  return el(
    "select",
    { name, dataset: testid ? { testid } : {} },
    options.map(([value, label]) => el("option", { value }, label)),
  );
}

// Where a student may sit: every open seat the rules offer at each table (the server lists them per row).
function seatChoices(exceptTable = null) {
  const choices = [];
  for (const row of [...rows.values()].sort((a, b) => a.number - b.number)) {
    if (row.id === exceptTable) continue;
    for (const option of row.seat_options || []) {
      choices.push([`${row.id}:${option.seat ?? ""}`, `table ${row.number}, ${option.label}`]);
    }
  }
  return choices;
}

// The select's "table:seat" value becomes the form's table and seat fields when it is sent.
function splitSeat(form) {
  form.addEventListener("submit", () => {
    const [table, seat] = form.elements.where.value.split(":");
    form.append(
      el("input", { type: "hidden", name: "table", value: table }),
      el("input", { type: "hidden", name: "seat", value: seat }),
    );
  });
  return form;
}

function renderWaiting() {
  if (!waitingCard) return;
  const list = document.getElementById("waiting-list");
  document.getElementById("waiting-count").textContent = String(waiting.length);
  document.getElementById("waiting-empty").hidden = waiting.length > 0;
  const choices = seatChoices();
  list.replaceChildren(
    ...waiting.map((student) =>
      el(
        "li",
        { dataset: { studentId: student.id } },
        el("strong", {}, student.name),
        choices.length
          ? splitSeat(
              postForm(
                waitingCard.dataset.seatUrl,
                [
                  el("input", { type: "hidden", name: "student", value: student.id }),
                  select("where", choices, `seat-choice-${student.id}`),
                ],
                "Seat",
                `seat-${student.id}`,
              ),
            )
          : el("span", { className: "muted" }, "no open seat now"),
      ),
    ),
  );
  if (waiting.length >= 2) {
    list.append(
      el(
        "li",
        {},
        postForm(
          waitingCard.dataset.seatUrl,
          [
            el("input", { type: "hidden", name: "table", value: "new" }),
            ...waiting.map((st) => el("input", { type: "hidden", name: "students", value: st.id })),
          ],
          "Start a new table for all of them",
        ),
      ),
    );
  }
}

async function pollWaiting() {
  if (!waitingCard) return;
  try {
    const response = await fetch(waitingCard.dataset.url, { headers: { Accept: "application/json" } });
    if (response.ok) {
      waiting = (await response.json()).waiting;
      renderWaiting();
    }
  } finally {
    setTimeout(pollWaiting, 4000);
  }
}

function seatTools(row, p) {
  if (!waitingCard || p.removed || row.status === "finished") return "";
  const tools = [];
  if (waiting.length) {
    tools.push(
      postForm(
        waitingCard.dataset.replaceUrl,
        [
          el("input", { type: "hidden", name: "table", value: row.id }),
          el("input", { type: "hidden", name: "seat", value: p.seat }),
          select(
            "student",
            waiting.map((st) => [st.id, st.name]),
          ),
        ],
        "Give the seat to",
      ),
    );
  }
  const moves = seatChoices(row.id);
  if (moves.length && p.student_id) {
    tools.push(
      splitSeat(
        postForm(
          waitingCard.dataset.moveUrl,
          [el("input", { type: "hidden", name: "student", value: p.student_id }), select("where", moves)],
          "Move to",
        ),
      ),
    );
  }
  return tools.length ? el("details", { className: "seat-tools" }, el("summary", {}, "Replace or move"), tools) : "";
}

function clockText(row) {
  if (!row.clock) return "";
  if (row.clock.timed_out) return el("div", { className: "badge badge-warn" }, "time is up: decide");
  return el("div", { className: "muted" }, `${row.clock.seconds} s a turn`);
}

function postButton(label, action, { danger = false, confirm = "" } = {}) {
  const form = moderation.cloneNode(true);
  form.hidden = false;
  form.removeAttribute("id");
  form.className = "inline-form";
  form.action = action;
  if (confirm) form.dataset.confirm = confirm;
  form.append(el("button", { className: `btn btn-small${danger ? " btn-danger" : ""}`, type: "submit" }, label));
  return form;
}

// A robot of the chosen level takes over an absent student's seat (their hand or rack, as it is).
function robotButton(base, player) {
  const form = postButton("Robot plays", `${base}seats/${player.seat}/robot/`, {
    confirm: `A robot takes over ${player.name}'s seat for the rest of this game?`,
  });
  const select = el(
    "select",
    { name: "level", title: `Robot level for ${player.name}'s seat` },
    el("option", { value: "beginner" }, "beginner"),
    el("option", { value: "steady", selected: true }, "steady"),
    el("option", { value: "strong" }, "strong"),
  );
  form.insertBefore(select, form.querySelector("button"));
  return form;
}

// Who the table waits for, or who won, by name: "Ana to play", "Game over: Ana and Ben win".
function stateLine(row) {
  if (row.finished) {
    if (!row.winners.length) return "Game over";
    return `Game over: ${joinNames(row.winners)} ${row.winners.length === 1 ? "wins" : "win"}`;
  }
  if (row.status === "finished") return "Ended";
  if (row.status === "paused") return "Paused";
  if (row.to_act.length) return `${joinNames(row.to_act)} to play`;
  if (row.awaiting_teacher) return "Waiting for you";
  return "";
}

function renderRow(row) {
  const base = row.url;
  const players = el(
    "ul",
    { className: "list dashboard-players" },
    row.players.map((p) =>
      el(
        "li",
        {},
        el("span", { className: p.removed ? "removed" : "" }, p.name, p.removed ? " (removed)" : ""),
        el(
          "span",
          {},
          el("strong", { className: "num" }, String(p.score)),
          row.status !== "finished" &&
            !p.robot &&
            (!p.removed || (row.seat_options || []).some((o) => o.seat === p.seat))
            ? robotButton(base, p)
            : "",
          !p.removed && row.status !== "finished"
            ? postButton("Remove", `${base}seats/${p.seat}/remove/`, {
                danger: true,
                confirm: `Take ${p.name} out of this game?`,
              })
            : "",
          seatTools(row, p),
        ),
      ),
    ),
  );
  const now = el(
    "div",
    {},
    el("div", { "data-testid": "row-state" }, el("strong", {}, stateLine(row))),
    el("div", { className: "muted" }, row.summary || row.phase),
    row.last_move
      ? el("div", { className: "muted", "data-testid": "row-last-move" }, `Last move: ${row.last_move}`)
      : "",
    row.awaiting_teacher ? el("div", { className: "badge badge-warn" }, "needs you") : "",
    clockText(row),
  );
  const actions = el(
    "div",
    { className: "row-actions" },
    el("a", { className: "btn btn-small", href: base }, "Open"),
    el("a", { className: "btn btn-small", href: `${base}replay/` }, "Replay"),
  );
  if (row.status === "playing") actions.append(postButton("Pause", `${base}pause/`));
  if (row.status === "paused") actions.append(postButton("Resume", `${base}resume/`));
  if (row.status !== "finished")
    actions.append(postButton("End game", `${base}end/`, { danger: true, confirm: "End this game now?" }));
  return el(
    "tr",
    { dataset: { tableId: row.id } },
    el("td", {}, `Table ${row.number}`),
    el("td", {}, players),
    el("td", {}, now),
    el("td", {}, el("span", { className: `status status-${row.status}` }, STATUS[row.status] || row.status)),
    el("td", {}, actions),
  );
}

function render() {
  body.replaceChildren(...[...rows.values()].sort((a, b) => a.number - b.number).map(renderRow));
  renderWaiting();
}

document.addEventListener("submit", (event) => {
  const message = event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});

render();
pollWaiting();
connectLive(card.dataset.ws, {
  onOpen: (api) => api.send({ type: "hello" }),
  onMessage: (message) => {
    if (message.type === "dashboard") {
      rows.clear();
      for (const row of message.rows) rows.set(row.id, row);
      render();
    } else if (message.type === "row") {
      const known = rows.get(message.row.id);
      if (!known || known.seq <= message.row.seq) {
        rows.set(message.row.id, message.row);
        render();
      }
    }
  },
});
