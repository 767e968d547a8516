// The table's chat panel: its lines (the players' channel; a spectator also reads the
// spectators'), the quick reactions (also shown a moment on the seat that sent them), the
// line to type (Enter sends), each viewer's mutes and, for the host, the switch that turns
// the table's chat off. Every line is drawn as text (el() makes text nodes), never as HTML.
// The rules without the page live in chat_rules.js; the server's side is server/chat.py.
import { el } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { phoneWidth, reducedMotion, seatColour } from "../lib/motion.js";
import { displayName } from "../lib/store.js";
import { seatName } from "./names.js";
import { reactionIcon } from "./reaction_icons.js";
import { Bucket, CHAT_MAX_CHARS, REACTIONS, cleanLine, mergeLines, mutedAuthors, reactionKey, setMuted, shownLines } from "./chat_rules.js";

// How long a reaction shows on its seat.
const BUBBLE_MS = 2500;

// `info()`: the table as the server last described it; `me()`: this page's seat (null:
// watching); `send(message)`: over the table's socket, false when it is not open.
export function chatPanel({ tableId, info, me, send }) {
  let lines = [];
  let muted = mutedAuthors(localStorage, tableId);
  let unread = 0;
  const bucket = new Bucket(undefined, undefined, Date.now());

  const list = el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", "aria-relevant": "additions",
    "aria-label": t("chat.lines"), tabindex: 0 });
  const empty = el("p", { class: "chat-empty", id: "chat-empty" }, t("chat.empty"));
  const note = el("p", { class: "chat-note", id: "chat-note", role: "status" });
  const unreadBadge = el("span", { class: "chat-unread", id: "chat-unread", hidden: true });
  const input = el("input", { id: "chat-input", type: "text", maxlength: CHAT_MAX_CHARS, autocomplete: "off",
    "aria-label": t("chat.input"), placeholder: t("chat.placeholder"), enterkeyhint: "send" });
  const sendButton = el("button", { type: "submit", id: "chat-send" }, t("chat.send"));
  const form = el("form", { class: "chat-form", id: "chat-form", onsubmit: (event) => {
    event.preventDefault();
    const text = cleanLine(input.value);
    if (text === null) return;
    if (say({ type: "chat", text })) input.value = "";
  } }, input, sendButton);
  const reactions = el("div", { class: "chat-reactions", role: "group", "aria-label": t("chat.reactions") },
    REACTIONS.map(([emote, key]) => el("button", { type: "button", class: "chat-react", "data-emote": emote,
      "aria-label": t(`chat.reaction.${key}`), title: t(`chat.reaction.${key}`),
      onclick: () => say({ type: "react", emote }) }, reactionIcon(emote))));
  const mutedBox = el("p", { class: "chat-muted", id: "chat-muted", hidden: true });
  const hostSwitch = el("input", { type: "checkbox", id: "chat-switch", onchange: () => {
    send({ type: "chat_setting", enabled: hostSwitch.checked });
  } });
  const hostBox = el("label", { class: "chat-host", hidden: true }, hostSwitch, " ", t("chat.host_switch"));
  const summary = el("summary", { id: "chat-toggle" }, t("chat.title"), " ", unreadBadge);
  // Open beside the table on a wide screen; folded to one line above the board on a phone.
  const details = el("details", { class: "chat-details", open: !phoneWidth().matches },
    summary, note, empty, list, reactions, form, mutedBox, hostBox);
  const box = el("section", { class: "table-chat", id: "chat", "aria-label": t("chat.title") }, details);
  details.addEventListener("toggle", () => { if (details.open) { unread = 0; drawUnread(); } });

  // A message of the talk, unless the server would refuse it for its rate anyway.
  function say(message) {
    const wait = bucket.take(Date.now());
    if (wait) { note.textContent = t("error.chat.rate_limited"); return false; }
    const name = me() === null ? displayName() : "";
    return send(name ? { ...message, name } : message);
  }

  const nameOf = (line) => (line.seat !== null && line.seat !== undefined
    ? seatName(info().seats[line.seat], info().game) : line.name || t("chat.spectator"));
  const mine = (line) => me() !== null && line.author === `seat:${me()}`;

  function lineNode(line) {
    const name = nameOf(line);
    const classes = ["chat-line", line.channel === "spectators" ? "from-spectator" : "", line.bot ? "from-bot" : ""];
    return el("li", { class: classes.filter(Boolean).join(" "), "data-n": line.n, "data-author": line.author },
      el("span", { class: "chat-name", style: line.seat !== null && line.seat !== undefined ? `--seat:${seatColour(line.seat)}` : null }, name),
      line.channel === "spectators" ? el("small", { class: "chat-tag" }, t("chat.spectator_tag")) : "",
      " ",
      line.emote
        ? el("span", { class: "chat-emote", role: "img", "aria-label": t(`chat.reaction.${reactionKey(line.emote)}`) }, reactionIcon(line.emote))
        : el("span", { class: "chat-text" }, line.text),
      mine(line) ? "" : el("button", { type: "button", class: "chat-mute", "aria-label": t("chat.mute", { name }),
        title: t("chat.mute", { name }), onclick: () => mute(line.author, true) }, "⊘"));
  }

  function mute(author, on) {
    muted = setMuted(localStorage, tableId, author, on);
    drawAll();
    if (!on) input.focus();
  }

  function drawMuted() {
    const authors = [...muted].filter((author) => lines.some((line) => line.author === author));
    mutedBox.hidden = !authors.length;
    mutedBox.replaceChildren(...(authors.length ? [t("chat.muted"), " ",
      ...authors.map((author) => {
        const line = lines.find((l) => l.author === author);
        const name = nameOf(line);
        return el("button", { type: "button", class: "chat-unmute", "aria-label": t("chat.unmute", { name }),
          onclick: () => mute(author, false) }, `${name} ✕`);
      })] : []));
  }

  function drawAll() {
    list.replaceChildren(...shownLines(lines, muted).map(lineNode));
    empty.hidden = list.childElementCount > 0;
    list.scrollTop = list.scrollHeight;
    drawMuted();
  }

  function drawUnread() {
    unreadBadge.hidden = unread === 0;
    unreadBadge.textContent = unread ? t("chat.unread", { n: unread }) : "";
  }

  // A reaction shows a moment on its seat (the list above tells it to screen readers),
  // the seat's newest one only. The seats are drawn anew at every move, so a reaction
  // that only sat in the seat's box went with the next move (a bot's, a few ms later at
  // times): the seat ring asks for it each time it draws the seat (reactionOn).
  const showing = new Map();  // seat -> { node, since }

  function bubble(line) {
    if (!line.emote || line.seat === null || line.seat === undefined) return;
    const shown = el("span", { class: `chat-bubble${reducedMotion() ? " still" : ""}`, "aria-hidden": "true" }, reactionIcon(line.emote));
    showing.get(line.seat)?.node.remove();
    showing.set(line.seat, { node: shown, since: Date.now() });
    document.querySelector(`.seat[data-seat="${line.seat}"]`)?.append(shown);
    setTimeout(() => {
      shown.remove();
      if (showing.get(line.seat)?.node === shown) showing.delete(line.seat);
    }, BUBBLE_MS);
  }

  // The reaction showing on a seat, if any, for its newly drawn box: its pop goes on from
  // where it was (a node put back in the page starts its animation over).
  function reactionOn(seat) {
    const entry = showing.get(seat);
    if (!entry) return null;
    entry.node.style.animationDelay = `-${Date.now() - entry.since}ms`;
    return entry.node;
  }

  function onFrame(frame) {
    const before = new Set(lines.map((line) => line.n));
    lines = mergeLines(lines, frame);
    if (frame.history) { drawAll(); return; }
    for (const line of frame.lines.filter((l) => !before.has(l.n))) {
      if (muted.has(line.author)) continue;
      list.append(lineNode(line));
      bubble(line);
      if (!details.open) unread += 1;
    }
    while (list.childElementCount > lines.length) list.firstElementChild.remove();
    empty.hidden = list.childElementCount > 0;
    list.scrollTop = list.scrollHeight;
    drawUnread();
  }

  // The table changed (its switch, its seats' names, the game's end).
  function refresh() {
    const table = info();
    const on = table.chat !== false;
    const host = me() !== null && me() === table.creator_seat;
    hostBox.hidden = !host;
    hostSwitch.checked = on;
    input.disabled = sendButton.disabled = !on;
    reactions.querySelectorAll("button").forEach((button) => { button.disabled = !on; });
    note.textContent = !on ? t("chat.off_note")
      : me() === null && table.status !== "finished" ? t("chat.spectator_note") : "";
    note.hidden = !note.textContent;
  }

  refresh();
  drawAll();
  return { box, onFrame, refresh, reactionOn };
}

// A finished game's talk in its replay (both channels): the lines said by the step shown,
// those of that very step marked. `lines`: /replay/chat's; `info`: the table.
export function replayChat(tableId, lines, info) {
  const list = el("ol", { class: "chat-lines replay-chat-lines", id: "replay-chat" });
  const box = el("section", { class: "replay-chat", "aria-labelledby": "replay-chat-title", hidden: !lines.length },
    el("h2", { id: "replay-chat-title" }, t("replay.chat")), list);
  const muted = mutedAuthors(localStorage, tableId);
  const nameOf = (line) => (line.seat !== null && line.seat !== undefined
    ? seatName(info.seats[line.seat], info.game) : line.name || t("chat.spectator"));
  function show(step) {
    list.replaceChildren(...shownLines(lines, muted, step).map((line) => el("li", {
      class: ["chat-line", line.channel === "spectators" ? "from-spectator" : "", line.seq === step ? "latest" : ""].filter(Boolean).join(" "),
      "data-n": line.n },
    el("span", { class: "chat-name", style: line.seat !== null && line.seat !== undefined ? `--seat:${seatColour(line.seat)}` : null }, nameOf(line)),
    line.channel === "spectators" ? el("small", { class: "chat-tag" }, t("chat.spectator_tag")) : "",
    " ",
    line.emote
      ? el("span", { class: "chat-emote", role: "img", "aria-label": t(`chat.reaction.${reactionKey(line.emote)}`) }, reactionIcon(line.emote))
      : el("span", { class: "chat-text" }, line.text))));
    list.scrollTop = list.scrollHeight;
  }
  return { box, show };
}
