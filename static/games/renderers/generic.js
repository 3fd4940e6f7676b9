// The renderer of any game without one of its own: it reads only the view's envelope. Shows the players and their
// scores (with their named parts), the phase, the last move, and one control per action the viewer may take now,
// built from the action's declared fields (a choice of legal values where the server lists them).
import { el } from "../dom.js";

function scoresTable(view, ctx) {
  const parts = Object.keys(view.scores.parts);
  const head = el("tr", {}, el("th", {}, "Player"), parts.map((p) => el("th", { className: "num" }, p)),
    el("th", { className: "num" }, view.scores.provisional ? "Score (so far)" : "Score"));
  const rows = ctx.table.players.map((p) => el("tr", { className: view.to_act.includes(p.seat) ? "is-turn" : "" },
    el("td", {}, p.name, p.seat === ctx.seat ? " (you)" : "", p.removed ? " (removed)" : "",
      view.winners.includes(p.seat) ? " 🏆" : ""),
    parts.map((part) => el("td", { className: "num" }, String(view.scores.parts[part][p.seat] ?? ""))),
    el("td", { className: "num" }, String(view.scores.total[p.seat] ?? ""))));
  return el("table", { className: "table" }, el("thead", {}, head), el("tbody", {}, rows));
}

function input(field) {
  const props = { name: field.name, required: field.required, "aria-label": field.name.replaceAll("_", " ") };
  if (Array.isArray(field.choices)) {
    return el("select", props, field.choices.map((value) => el("option", { value: JSON.stringify(value) },
      typeof value === "object" ? JSON.stringify(value) : String(value))));
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

function actionControl(spec, ctx) {
  if (!spec.fields.length) {
    return el("button", { className: "btn", type: "button", on: { click: () => ctx.send({ type: spec.type }) } }, spec.label);
  }
  const controls = spec.fields.map((field) => [field, input(field)]);
  const form = el("form", { className: "inline-form generic-action", dataset: { action: spec.type } },
    controls.map(([field, control]) => el("label", {}, field.name.replaceAll("_", " "), " ", control)),
    el("button", { className: "btn", type: "submit" }, spec.label));
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

export function render(container, ctx) {
  const { view } = ctx;
  const actions = view.actions.map((spec) => actionControl(spec, ctx));
  const last = view.last_move
    ? el("p", { className: "muted" }, "Last move: ", view.last_move.seat === null ? "" : `${ctx.name(view.last_move.seat)} `, view.last_move.text)
    : "";
  container.replaceChildren(
    el("section", { className: "card" }, el("h2", {}, "Players"), scoresTable(view, ctx),
      el("p", {}, view.summary), last),
    actions.length ? el("section", { className: "card" }, el("h2", {}, "What you can do"), el("div", { className: "stack" }, actions)) : "",
    el("details", { className: "card" }, el("summary", {}, "Everything the table shows you"), el("pre", {}, JSON.stringify(view.body, null, 2))),
  );
}
