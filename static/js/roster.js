import { connectLive } from "./live.js";
// Keeps the class page's roster live. The teacher's page has a <template> for a manageable row;
// the student's page shows classmates as chips.

const card = document.getElementById("roster-card");
const roster = document.getElementById("roster");
const count = document.getElementById("roster-count");
const empty = document.getElementById("roster-empty");
const lockedNote = document.getElementById("locked-note");
const rowTemplate = document.getElementById("roster-row-template");

function teacherRow(student) {
  const row = rowTemplate.content.firstElementChild.cloneNode(true);
  row.dataset.studentId = student.id;
  row.querySelector(".student-name").textContent = student.name;
  row.querySelector(".student-joined").textContent = student.joined.slice(0, 16).replace("T", " ");
  const base = window.location.pathname.replace(/\/$/, "");
  for (const form of row.querySelectorAll("form[data-action]")) {
    form.action = `${base}/students/${student.id}/${form.dataset.action}/`;
  }
  const input = row.querySelector("input[name=name]");
  input.id = `rename-${student.id}`;
  input.value = student.name;
  row.querySelector("label").htmlFor = input.id;
  return row;
}

function studentChip(student) {
  const chip = document.createElement("li");
  chip.className = "chip";
  chip.dataset.studentId = student.id;
  chip.textContent = student.name;
  return chip;
}

function render(students, locked) {
  const body = roster.tBodies ? roster.tBodies[0] : roster;
  const openMenus = new Set(
    [...body.querySelectorAll("details[open]")].map((d) => d.closest("[data-student-id]").dataset.studentId),
  );
  const me = roster.querySelector(".chip-me")?.dataset.studentId;
  body.replaceChildren(
    ...students.map((s) => {
      const el = rowTemplate ? teacherRow(s) : studentChip(s);
      if (String(s.id) === me) el.classList.add("chip-me");
      if (openMenus.has(String(s.id))) el.querySelector("details").open = true;
      return el;
    }),
  );
  count.textContent = students.length;
  if (empty) empty.hidden = students.length > 0;
  if (lockedNote) lockedNote.hidden = !locked;
}

document.addEventListener("submit", (event) => {
  const message = event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});

const live = connectLive(card.dataset.ws, {
  onOpen: (api) => api.send({ type: "hello" }),
  // The roster and the student's table, again every few seconds: a push lost with a server process is caught up.
  heartbeat: { every: 10000, message: () => ({ type: "hello" }) },
  onMessage: (message) => {
    if (message.type === "roster") {
      render(message.students, message.locked);
      // A lesson started while this page was loading or offline (its push was missed): go to the table now. A
      // student who came back here from their table (the page already knew it) stays.
      if (message.table_url && message.table_url !== (card.dataset.tableUrl || "")) {
        window.location.href = message.table_url;
      }
    } else if (message.type === "removed") {
      live.stop("removed from the class");
      window.location.href = "/";
    } else if (message.type === "lesson") {
      if (message.url) window.location.href = message.url;
    }
  },
});
