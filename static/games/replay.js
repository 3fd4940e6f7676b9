// The replay of one game (docs/architecture.md, "Replays"): first, previous, next, last and a slider over the move
// log; each step is the server's view of the state replayed up to that move, for the seat chosen in "Seen by" (the
// server decides which seats this viewer may choose). Drawn by the game's own renderer, with nothing to play.
const root = document.getElementById("replay-root");
const container = document.getElementById("game");
const banner = document.getElementById("turn-banner");
const slider = document.getElementById("replay-slider");
const stepText = document.getElementById("replay-step");
const seatSelect = document.getElementById("replay-seat");
const last = Number(root.dataset.last);
const isTeacher = root.dataset.teacher === "1";
const renderer = await import(root.dataset.renderer);
let step = 0;
let asked = 0;

function nameOf(table, seat, s) {
  const player = table.players.find((p) => p.seat === s);
  if (s === seat && seat !== null) return "you";
  return player ? player.name : `seat ${s}`;
}

async function show(n) {
  step = Math.max(0, Math.min(last, n));
  const ticket = ++asked;
  const seat = seatSelect.value === "" ? null : Number(seatSelect.value);
  const params = new URLSearchParams({ step: String(step), seat: seatSelect.value });
  const response = await fetch(`${root.dataset.url}?${params}`, { headers: { Accept: "application/json" } });
  const data = await response.json();
  if (ticket !== asked) return; // a later step was asked for meanwhile
  if (!response.ok) {
    banner.textContent = data.message;
    container.replaceChildren();
    return;
  }
  slider.value = String(data.step);
  stepText.textContent = `${data.step} / ${data.last}`;
  root.dataset.step = String(data.step);
  const { view, table } = data;
  const name = (s) => nameOf(table, seat, s);
  const lastMove = view.last_move;
  const who = lastMove && lastMove.seat !== null && lastMove.seat !== undefined ? name(lastMove.seat) : "The teacher";
  banner.textContent = data.step === 0 ? "The deal." : lastMove ? `${who} ${lastMove.text}` : "";
  const ctx = {
    view,
    table,
    seq: data.step,
    seat,
    isTeacher,
    events: [],
    send: () => {},
    preview: () => Promise.reject({ code: "replay", message: "This is a replay." }),
    name,
  };
  renderer.render(container, ctx);
}

root.querySelectorAll("[data-go]").forEach((button) => {
  button.addEventListener("click", () => {
    const go = { first: 0, previous: step - 1, next: step + 1, last }[button.dataset.go];
    show(go);
  });
});
slider.addEventListener("input", () => show(Number(slider.value)));
seatSelect.addEventListener("change", () => show(step));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.key === "ArrowLeft") show(step - 1);
  if (event.key === "ArrowRight") show(step + 1);
});
show(0);
