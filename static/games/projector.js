// The classroom projector (docs/architecture.md, "The projector"): before a lesson, the join code and who has joined;
// during one, a leaderboard across the tables; after it, the podium and the lesson's words. It asks the server every
// few seconds; every score, rank and winner comes from the server (each game's own scoring).
import { el } from "./dom.js";

const root = document.getElementById("projector");
const lessonLine = document.getElementById("projector-lesson");
const title = document.getElementById("projector-title");
const list = document.getElementById("projector-list");
const words = document.getElementById("projector-words");
const join = document.getElementById("projector-join");
const POLL_MS = 3000;
const PLACES = ["first", "second", "third"];

function roster(data) {
  title.textContent = data.roster.length ? `Who is here (${data.roster.length})` : "Waiting for the class to join";
  list.className = "projector-list projector-roster";
  list.replaceChildren(...data.roster.map((name) => el("li", {}, name)));
  words.hidden = true;
}

function board(data) {
  title.textContent = "Leaderboard";
  list.className = "projector-list projector-leaders";
  list.replaceChildren(
    ...data.leaderboard.map((r) =>
      el(
        "li",
        { className: r.winner ? "winner" : "" },
        el("span", { className: "rank" }, String(r.rank)),
        el("span", { className: "name" }, r.name),
        el("span", { className: "where" }, `table ${r.table}`),
        el(
          "strong",
          { className: "score", dataset: { testid: "leader-score" } },
          `${r.score}${r.provisional ? "*" : ""}`,
        ),
      ),
    ),
  );
  words.hidden = true;
}

function wordList(heading, items, detail) {
  return el(
    "div",
    { className: "word-column" },
    el("h3", {}, heading),
    el(
      "ul",
      {},
      items.map((w) =>
        el(
          "li",
          {},
          el("strong", {}, w.word),
          detail(w) ? ` ${detail(w)}` : "",
          w.meaning ? el("span", { className: "meaning" }, w.meaning) : "",
        ),
      ),
    ),
  );
}

function podium(data) {
  title.textContent = "Podium";
  list.className = "projector-list projector-podium";
  list.replaceChildren(
    ...data.podium.map((r) =>
      el(
        "li",
        { className: `place-${PLACES[r.rank - 1] || "other"}` },
        el("span", { className: "rank" }, String(r.rank)),
        el("span", { className: "name" }, r.name),
        el("strong", { className: "score" }, String(r.score)),
      ),
    ),
  );
  const w = data.words;
  words.replaceChildren(
    wordList("Most played", w.most_played, (x) => `×${x.times}`),
    wordList("Highest scoring", w.highest_scoring, (x) => `${x.points} points`),
    wordList("Rarest", w.rarest, () => ""),
  );
  words.hidden = false;
}

function draw(data) {
  root.dataset.mode = data.mode;
  lessonLine.textContent = data.lesson ? `${data.lesson.game}${data.lesson.ended ? " · the lesson is over" : ""}` : "";
  join.hidden = data.mode === "podium";
  if (data.mode === "lesson") board(data);
  else if (data.mode === "podium") podium(data);
  else roster(data);
}

async function poll() {
  try {
    const response = await fetch(root.dataset.url, { headers: { Accept: "application/json" } });
    if (response.ok) draw(await response.json());
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

draw(JSON.parse(document.getElementById("projector-data").textContent));
setTimeout(poll, POLL_MS);
