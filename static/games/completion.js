// A move's view carries only the rows of the game's record (Grabble's score sheet) that the move changed:
// `body[record]` is then `{length, rows: {"i": row}}` (docs/protocol.md, "The record"). The page keeps the others
// from the view it shows.

// The full view: `view` with its record's rows filled in from `previous` (the view of the move before), or `view`
// itself when it carries its whole record. Null when it cannot be completed (no previous view): ask for a snapshot.
export function withRecordRows(previous, view) {
  const key = view.record;
  const change = key ? view.body[key] : null;
  if (!change || Array.isArray(change)) return view;
  const kept = previous?.record === key ? previous.body[key] : null;
  if (!Array.isArray(kept)) return null;
  const rows = kept.slice(0, change.length);
  for (const [index, row] of Object.entries(change.rows)) rows[Number(index)] = row;
  if (rows.length !== change.length || rows.includes(undefined)) return null; // a row it never had
  return { ...view, body: { ...view.body, [key]: rows } };
}
