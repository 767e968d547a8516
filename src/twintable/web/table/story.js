// The table's narrated log (the story): its lines, newest first, kept to the last few,
// the same line twice in a row told once with a count, and kept over a reload in this
// tab up to the move it tells.
import { el } from "../lib/dom.js";
import { language, t } from "../lib/i18n.js";

const LOG_LINES = 60;

// The log survives a reload in this tab (sessionStorage): the lines as drawn, in the
// language they were told in, up to the version they tell.
const logKey = (tableId) => `tt.log.${tableId}`;
function savedLog(tableId) {
  try { return JSON.parse(sessionStorage.getItem(logKey(tableId)) || "null"); } catch { return null; }
}

// The text a log line reads as, to tell the same line twice in a row.
const lineText = (item) => item?.dataset?.text ?? "";

// `told`: the version of the last move told (-1: none), from a reload's saved log where
// it was told in this language.
export function storyLog(tableId) {
  const box = el("ol", { class: "log", id: "log", "aria-live": "polite", reversed: true });
  const kept = savedLog(tableId);
  const same = kept && kept.lang === language();
  if (same) box.innerHTML = kept.html;
  const story = {
    box,
    told: same ? kept.version : -1,
    save(version) {
      try {
        sessionStorage.setItem(logKey(tableId), JSON.stringify({ lang: language(), version, html: box.innerHTML }));
      } catch { /* storage full or refused: the log simply starts afresh after a reload */ }
    },
    // One line on top of the log (kept to its last LOG_LINES); the same line twice in a
    // row is one line with a count, never a repeat.
    tell(line, mark) {
      const item = el("li", { class: mark }, [line].flat());
      const text = item.textContent;
      const top = box.firstElementChild;
      if (top && lineText(top) === text) {
        const times = Number(top.dataset.times || 1) + 1;
        top.dataset.times = times;
        if (mark) top.classList.add(mark);
        top.querySelector(".times")?.remove();
        top.append(el("span", { class: "times", "aria-label": t("table.times", { n: times }) }, ` ×${times}`));
        return;
      }
      item.dataset.text = text;
      box.prepend(item);
      while (box.childNodes.length > LOG_LINES) box.lastChild.remove();
    },
    // One move's lines, marked as the latest (the previous move's lose the mark).
    tellMove(lines) {
      if (!lines.length) return;
      box.querySelectorAll(".latest").forEach((item) => item.classList.remove("latest"));
      for (const line of lines) story.tell(line, "latest");
    },
  };
  return story;
}
