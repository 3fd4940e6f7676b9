// A move's view leaves out what the page holds already (docs/protocol.md, "What a move's message leaves out"): the
// game's fixed parts (the body keys `view.fixed` names, which never change during a game) and the rows of its record
// (Grabble's score sheet) that the move did not change: `body[record]` is then `{length, rows: {"i": row}}`.

// The full view: `view` completed from `previous` (the view of the move before), or `view` itself when it carries
// everything. Null when it cannot be completed (no previous view, or one without what is left out): ask for a snapshot.
export function completeView(previous, view) {
  const body = { ...view.body };
  for (const key of view.fixed || []) {
    if (key in body) continue;
    if (previous?.game !== view.game || !(key in previous.body)) return null;
    body[key] = previous.body[key];
  }
  const key = view.record;
  const change = key ? body[key] : null;
  if (change && !Array.isArray(change)) {
    const kept = previous?.record === key ? previous.body[key] : null;
    if (!Array.isArray(kept)) return null;
    const rows = kept.slice(0, change.length);
    for (const [index, row] of Object.entries(change.rows)) rows[Number(index)] = row;
    if (rows.length !== change.length || rows.includes(undefined)) return null; // a row it never had
    body[key] = rows;
  }
  return { ...view, body };
}
