import { connectLive } from "../js/live.js";
import { el } from "./dom.js";
import { joinNames } from "./kit.js";
// The teacher's lesson dashboard: one row per table, replaced whenever the server pushes that table's row.

const card = document.getElementById("dashboard");
const body = document.getElementById("dashboard-rows");
const moderation = document.getElementById("moderation-form");
const rows = new Map(JSON.parse(document.getElementById("dashboard-data").textContent).map((r) => [r.id, r]));

const STATUS = { playing: "Playing", paused: "Paused", finished: "Finished" };

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
  const select = el("select", { name: "level", title: `Robot level for ${player.name}'s seat` },
    el("option", { value: "beginner" }, "beginner"),
    el("option", { value: "steady", selected: true }, "steady"),
    el("option", { value: "strong" }, "strong"));
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
  const players = el("ul", { className: "list dashboard-players" }, row.players.map((p) => el("li", {},
    el("span", { className: p.removed ? "removed" : "" }, p.name, p.removed ? " (removed)" : ""),
    el("span", {}, el("strong", { className: "num" }, String(p.score)),
      !p.removed && row.status !== "finished" && !p.robot ? robotButton(base, p) : "",
      !p.removed && row.status !== "finished"
        ? postButton("Remove", `${base}seats/${p.seat}/remove/`, { danger: true, confirm: `Take ${p.name} out of this game?` })
        : ""),
  )));
  const now = el("div", {},
    el("div", { "data-testid": "row-state" }, el("strong", {}, stateLine(row))),
    el("div", { className: "muted" }, row.summary || row.phase),
    row.last_move ? el("div", { className: "muted", "data-testid": "row-last-move" }, `Last move: ${row.last_move}`) : "",
    row.awaiting_teacher ? el("div", { className: "badge badge-warn" }, "needs you") : "");
  const actions = el("div", { className: "row-actions" }, el("a", { className: "btn btn-small", href: base }, "Open"));
  if (row.status === "playing") actions.append(postButton("Pause", `${base}pause/`));
  if (row.status === "paused") actions.append(postButton("Resume", `${base}resume/`));
  if (row.status !== "finished") actions.append(postButton("End game", `${base}end/`, { danger: true, confirm: "End this game now?" }));
  return el("tr", { dataset: { tableId: row.id } },
    el("td", {}, `Table ${row.number}`),
    el("td", {}, players),
    el("td", {}, now),
    el("td", {}, el("span", { className: `status status-${row.status}` }, STATUS[row.status] || row.status)),
    el("td", {}, actions));
}

function render() {
  body.replaceChildren(...[...rows.values()].sort((a, b) => a.number - b.number).map(renderRow));
}

document.addEventListener("submit", (event) => {
  const message = event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});

render();
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
