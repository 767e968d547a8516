// Table options as the server declares them (/api/games: kind, range, default, unit,
// whether the values name seats, the modes they apply to), turned into what a form shows
// and back into what the server takes. Pure: tests/web/js runs it under Node.

// People type seconds where the server counts milliseconds; everything else as it is.
export const scaleOf = (option) => (option.unit === "ms" ? 1000 : 1);
export const shown = (value, scale) => (value === null || value === undefined ? "" : String(value / scale));
// Seats are shown from 1, as everywhere in the lobby; the server counts from 0.
export const seatShift = (option) => (option.names_seats ? 1 : 0);

// The values a number field takes, in the units people read: { min, max, unit } with
// unit the key of its word ("s" where the server counts milliseconds), or null when the
// option is not a bounded number.
export function rangeOf(option) {
  if (option.kind !== "int" || option.minimum == null || option.maximum == null) return null;
  const scale = scaleOf(option);
  const unit = option.unit === "ms" ? "s" : option.unit || null;
  return { min: shown(option.minimum, scale), max: shown(option.maximum, scale), unit };
}

// What a field starts with.
export function initialText(option) {
  if (option.kind === "int_list") return (option.default || []).map((n) => n + seatShift(option)).join(", ");
  if (option.kind === "int") return shown(option.default, scaleOf(option));
  return option.default;
}

// Whether an option is shown (and sent) for the chosen mode.
export const inMode = (option, mode) => !(mode && option.modes && option.modes.length && !option.modes.includes(mode));

// The [fewest, most] players for the chosen mode.
export function playerBounds(game, mode) {
  const pair = mode && game.players_by_mode ? game.players_by_mode[mode] : null;
  return pair ? { min: pair[0], max: pair[1] } : { min: game.min_players, max: game.max_players };
}

// The seat count a typed value stands for, never past the bounds.
export function seatCount(text, { min, max }) {
  const n = Math.round(Number(text));
  return text === "" || !Number.isFinite(n) ? min : Math.max(min, Math.min(max, n));
}

// An int_list that also takes words (Timo's and Twins' teams: "alternate") is a menu of
// them, "none" and "typed seat by seat": this value of the menu reads the typed list.
export const TYPED = "typed";

// A field's text (or checkbox) read back: { value } for the server, or { problem: [key,
// params] } saying what to fix (`field`: the option's label; `players`: the seat count).
export function readOption(option, raw, players, field) {
  if (option.kind === "bool") return { value: Boolean(raw) };
  if (option.kind === "choice") return { value: raw };
  const scale = scaleOf(option);
  if (option.kind === "int") {
    if (String(raw).trim() === "") return { value: option.default };
    const value = Math.round(Number(raw) * scale);
    const low = option.minimum ?? -Infinity;
    const high = option.maximum ?? Infinity;
    if (!Number.isFinite(value) || value < low || value > high) {
      return { problem: ["lobby.bad_number", { field, min: shown(low, scale), max: shown(high, scale) }] };
    }
    return { value };
  }
  if ((option.choices || []).includes(String(raw).trim())) return { value: String(raw).trim() };
  const items = String(raw).split(/[\s,;]+/).filter(Boolean).map(Number);
  const seats = option.names_seats;
  const low = seats ? 1 : option.minimum;
  const high = seats ? Math.min(players, (option.maximum ?? players) + 1) : option.maximum;
  if (items.some((n) => !Number.isInteger(n) || n < low || n > high)) {
    return { problem: [seats ? "lobby.bad_seats" : "lobby.bad_list", { field, min: low, max: high }] };
  }
  return { value: seats ? items.map((n) => n - 1) : items };
}

// Only what differs from the default is sent.
export const differs = (value, option) => JSON.stringify(value) !== JSON.stringify(option.default ?? null);
