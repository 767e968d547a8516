// Sound: short blips made with Web Audio, only after a person acts on the page (browsers
// allow nothing before), muted on request. Each blip that really sounds is announced as
// a `tt:sound` event on the document (detail: its name), for whoever wants to observe it.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { saveSetting, setting } from "./store.js";

// Each effect: notes as [frequency Hz, start s, length s, wave].
const EFFECTS = {
  turn: [[660, 0, 0.09, "sine"], [880, 0.1, 0.14, "sine"]],
  card: [[420, 0, 0.05, "triangle"], [300, 0.03, 0.05, "triangle"]],
  take: [[523, 0, 0.08, "square"], [659, 0.07, 0.08, "square"], [784, 0.14, 0.12, "square"]],
  reveal: [[392, 0, 0.12, "sine"], [587, 0.08, 0.2, "sine"]],
  end: [[523, 0, 0.12, "triangle"], [659, 0.13, 0.12, "triangle"], [784, 0.26, 0.12, "triangle"], [1047, 0.39, 0.35, "triangle"]],
  error: [[200, 0, 0.12, "sawtooth"], [150, 0.1, 0.16, "sawtooth"]],
};

let context = null;
let muted = null;
const isMuted = () => (muted === null ? (muted = setting("mute") === "1") : muted);

function unlock() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  if (!context) context = new Context();
  else if (context.state === "suspended") context.resume();
}

// Called once by the entry: audio starts with the first gesture, never before.
export function listenForGesture() {
  for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, { capture: true });
}

export function play(name) {
  if (isMuted() || !context || context.state !== "running") return;
  const now = context.currentTime;
  for (const [frequency, start, length, wave] of EFFECTS[name] || []) {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = wave;
    osc.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(wave === "sine" ? 0.18 : 0.07, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(context.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.02);
  }
  document.dispatchEvent(new CustomEvent("tt:sound", { detail: name }));
}

export function muteButton() {
  const button = el("button", { id: "mute", class: "mute", type: "button", "aria-pressed": String(isMuted()),
    title: t(isMuted() ? "sound.unmute" : "sound.mute") });
  const draw = () => {
    // A speaker, crossed out when muted (drawn here: no emoji font is needed).
    button.innerHTML = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>${isMuted()
      ? '<path d="M17 9l5 6M22 9l-5 6"/>' : '<path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12"/>'}</svg>`;
    button.setAttribute("aria-pressed", String(isMuted()));
    button.setAttribute("aria-label", t(isMuted() ? "sound.unmute" : "sound.mute"));
    button.title = t(isMuted() ? "sound.unmute" : "sound.mute");
  };
  button.addEventListener("click", () => {
    muted = !isMuted();
    saveSetting("mute", muted ? "1" : "0");
    draw();
  });
  draw();
  return button;
}
