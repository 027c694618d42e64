// The orders box as the player's draft of their whole set (docs/web.md, "Orders"): a click or a
// menu stores one order while the player types, and the box takes that change in without
// touching a character they typed.

/** An order's line compared loosely: case and spacing do not matter. @param {string} line */
function normal(line) {
  return line.trim().replace(/\s+/g, " ").toUpperCase();
}

/** The box's ``text`` after the stored orders went from ``before`` to ``after`` (a click's or a
 *  menu's answer) while the player was typing, with the caret at ``caret``: a line that is
 *  exactly an order no longer stored goes (never the line the caret is on), each newly stored
 *  order not yet in the box is added at the top, and every other line stays as typed. Returns
 *  the new text and where the caret goes, so typing goes on where it was.
 *  @param {string} text @param {number} caret @param {string[]} before @param {string[]} after
 *  @returns {{text: string, caret: number}} */
export function mergeDraft(text, caret, before, after) {
  const gone = new Set(before.filter((order) => !after.includes(order)).map(normal));
  const lines = text.split("\n");
  let start = 0;
  let caretLine = lines.length - 1;
  for (let i = 0; i < lines.length; i += 1) {
    if (caret <= start + lines[i].length) {
      caretLine = i;
      break;
    }
    start += lines[i].length + 1;
  }
  const intoLine = Math.max(0, caret - start);
  /** @type {string[]} */
  const kept = [];
  let keptCaretLine = 0;
  lines.forEach((line, i) => {
    if (i !== caretLine && gone.has(normal(line))) return;
    if (i === caretLine) keptCaretLine = kept.length;
    kept.push(line);
  });
  const present = new Set(kept.map(normal));
  const fresh = after.filter((order) => !before.includes(order) && !present.has(normal(order)));
  const empty = kept.length === 1 && kept[0] === "";
  const merged = empty ? fresh : [...fresh, ...kept];
  const newCaretLine = empty ? Math.max(0, fresh.length - 1) : fresh.length + keptCaretLine;
  const offset = merged.slice(0, newCaretLine).reduce((sum, line) => sum + line.length + 1, 0);
  const caretAt = empty ? merged.join("\n").length : offset + intoLine;
  return {text: merged.join("\n"), caret: caretAt};
}
