// The fallback renderer: any game is at least inspectable and playable. Shows the players, scores, phase and
// the seat's own cards, and one control per available action (a button, or a JSON form when the action has fields).
import { el } from "../dom.js";

function scoresOf(view) {
  return view.scores || view.totals || [];
}

function actionControl(type, shape, ctx) {
  const fields = shape ? Object.keys(shape).filter((k) => k !== "type") : [];
  if (!fields.length) {
    return el("button", { className: "btn", type: "button", on: { click: () => ctx.send({ type }) } }, type.replaceAll("_", " "));
  }
  const input = el("textarea", { rows: 2, cols: 40, value: JSON.stringify(shape), "aria-label": `${type} as JSON` });
  const form = el("form", { className: "inline-form generic-action" },
    input, el("button", { className: "btn", type: "submit" }, type.replaceAll("_", " ")));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    try {
      ctx.send({ ...JSON.parse(input.value), type });
    } catch {
      input.setCustomValidity("Not valid JSON");
      input.reportValidity();
    }
  });
  input.addEventListener("input", () => input.setCustomValidity(""));
  return form;
}

export function render(container, ctx) {
  const { view, table } = ctx;
  const scores = scoresOf(view);
  const players = el("table", { className: "table" },
    el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", { className: "num" }, "Score"))),
    el("tbody", {}, table.players.map((p) => el("tr", { className: view.turn === p.seat ? "is-turn" : "" },
      el("td", {}, p.name, p.seat === ctx.seat ? " (you)" : "", p.removed ? " (removed)" : ""),
      el("td", { className: "num" }, String(scores[p.seat] ?? ""))))));
  const hand = Array.isArray(view.hand)
    ? el("section", { className: "card" }, el("h2", {}, "Your hand"),
      el("ul", { className: "chips" }, view.hand.map((c) => el("li", { className: "chip" }, typeof c === "object" ? JSON.stringify(c) : String(c)))))
    : "";
  const actions = (view.actions || []).map((type) => actionControl(type, view.action_shapes?.[type], ctx));
  container.replaceChildren(
    el("section", { className: "card" }, el("h2", {}, "Players"), players,
      view.phase ? el("p", {}, "Phase: ", el("strong", {}, String(view.phase))) : ""),
    hand,
    actions.length ? el("section", { className: "card" }, el("h2", {}, "What you can do"), el("div", { className: "stack" }, actions)) : "",
    el("details", { className: "card" }, el("summary", {}, "Everything the table shows you"), el("pre", {}, JSON.stringify(view, null, 2))),
  );
}
