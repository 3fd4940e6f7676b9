import { el } from "../dom.js";
// The renderer of any game without one of its own: it reads only the view's envelope. The kit draws the players and
// their scores (with their named parts), the last move and one control per offered action (its action bar, built
// from each action's declared fields, with the legal values where the server lists them); this adds the summary and,
// folded away, everything the view's own part shows this viewer.

export function render(ctx) {
  const { view } = ctx;
  return [
    el("p", { className: "card kit-summary" }, ctx.fillNames(view.summary)),
    el(
      "details",
      { className: "card" },
      el("summary", {}, "Everything the table shows you"),
      el("pre", {}, JSON.stringify(view.body, null, 2)),
    ),
  ];
}
