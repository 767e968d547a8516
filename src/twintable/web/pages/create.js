// The "new table" form: the players, the game's options drawn from its declarations
// (only those of the chosen mode), the seats (open or a bot), private or not.
import { api, asPlayer, errorText } from "../lib/api.js";
import { el } from "../lib/dom.js";
import { botChoices, levelLabel } from "../lib/levels.js";
import { t } from "../lib/i18n.js";
import { saveKey, saveToken } from "../lib/store.js";
import { TYPED, differs, initialText, inMode, playerBounds, rangeOf, readOption, scaleOf, seatCount, shown } from "./options.js";

function optionField(game, option) {
  const id = `opt-${option.name}`;
  const label = t(`option.${game.id}.${option.name}`);
  const helpId = `${id}-help`;
  const scale = scaleOf(option);
  const common = { id, "data-option": option.name, "aria-describedby": helpId };
  let input;
  let typed = "";
  if (option.kind === "int_list" && option.choices && option.choices.length) {
    // The words it takes, none, or a list typed in the field that then shows.
    typed = el("input", { class: "lb-typed", value: initialText(option), inputmode: "numeric", placeholder: "1, 2, 1, 2",
      "aria-label": t("lobby.by_seat"), hidden: true });
    input = el("select", { ...common, onchange: () => { typed.hidden = input.value !== TYPED; } },
      el("option", { value: "", selected: true }, t("lobby.none_chosen")),
      option.choices.map((choice) => el("option", { value: choice }, t(`choice.${choice}`))),
      el("option", { value: TYPED }, t("lobby.by_seat")));
  } else if (option.kind === "bool") {
    input = el("input", { type: "checkbox", ...common, checked: option.default });
  } else if (option.kind === "choice") {
    input = el("select", common,
      option.choices.map((choice) => el("option", { value: choice, selected: choice === option.default }, t(`choice.${choice}`))));
  } else if (option.kind === "int_list") {
    input = el("input", { ...common, value: initialText(option), inputmode: "numeric", placeholder: t("lobby.none_chosen") });
  } else {
    input = el("input", { type: "number", ...common, inputmode: scale === 1 ? "numeric" : "decimal",
      step: scale === 1 ? 1 : 0.1, min: shown(option.minimum, scale), max: shown(option.maximum, scale),
      value: initialText(option), placeholder: t("lobby.default") });
  }
  const range = rangeOf(option);
  const rangeNote = range && el("span", { class: "lb-range" }, " ", t(range.unit ? "lobby.range_unit" : "lobby.range",
    { min: range.min, max: range.max, unit: range.unit ? t(`unit.${range.unit}`) : "" }));
  return el("label", { class: `field lb-option${option.kind === "bool" ? " lb-check" : ""}`, for: id, "data-option-field": option.name },
    option.kind === "bool" ? [input, " ", label] : [label, " ", input, typed, rangeNote],
    el("small", { id: helpId }, t(`option.${game.id}.${option.name}.help`)));
}

// The form for `game` (an item of /api/games; `facts`: its client's), drawn into `box`.
export function tableForm(game, facts, box, message, who) {
  message.textContent = "";
  const fields = game.options.map((option) => ({ option, wrap: optionField(game, option) }));
  const modeField = fields.find((f) => f.option.name === "mode" && f.option.kind === "choice");
  const modeInput = modeField ? modeField.wrap.querySelector("[data-option]") : null;
  const players = el("input", { type: "number", id: "players", inputmode: "numeric", step: 1, required: true,
    "aria-describedby": "players-range", value: Math.max(game.min_players, Math.min(facts.players || 3, game.max_players)) });
  const range = el("small", { id: "players-range" });
  const optionsBox = el("div", { class: "lb-options" });
  const legend = el("legend", {});
  const seatsBox = el("div", { id: "seats", class: "lb-seats" });
  const privateBox = el("input", { type: "checkbox", id: "private" });
  const bounds = () => playerBounds(game, modeInput ? modeInput.value : null);

  // The seats drawn follow the count, never past the mode's bounds (typing 99 gives the
  // most seats the mode allows, and the field says so).
  function applyBounds(bothWays) {
    const { min, max } = bounds();
    players.min = min;
    players.max = max;
    const n = Number(players.value);
    if (n > max) players.value = max;
    else if (bothWays && (players.value === "" || n < min)) players.value = min;
    range.textContent = t(modeInput ? "lobby.players_hint" : "lobby.players_hint_any", { min, max });
    players.setAttribute("aria-invalid", String(!(Number(players.value) >= min && Number(players.value) <= max)));
  }
  function drawSeats() {
    const kept = {};
    for (const select of seatsBox.querySelectorAll("[data-seat]")) kept[select.dataset.seat] = select.value;
    seatsBox.replaceChildren(el("p", { class: "lb-you" }, t("lobby.seat_you")));
    for (let seat = 1; seat < seatCount(players.value, bounds()); seat++) {
      const chosen = seat in kept ? kept[seat] : game.default_bot;
      seatsBox.append(el("label", { class: "field" }, t("lobby.seat", { n: seat + 1 }), " ",
        el("select", { "data-seat": seat },
          el("option", { value: "", selected: chosen === "" }, t("lobby.seat_open")),
          botChoices(game, chosen).map((bot) => el("option", { value: bot, selected: bot === chosen }, t("lobby.bot", { level: levelLabel(game.id, bot) }))))));
    }
  }
  // Only the options of the chosen mode are shown (and sent); the others keep what was
  // typed in them, in case the mode comes back.
  function applyMode() {
    const mode = modeInput ? modeInput.value : null;
    for (const { option, wrap } of fields) if (wrap !== modeField?.wrap) wrap.hidden = !inMode(option, mode);
    legend.textContent = mode ? t("lobby.options_for", { mode: t(`choice.${mode}`) }) : t("lobby.options");
  }

  function readOptions(n) {
    const options = {};
    for (const { option, wrap } of fields) {
      if (wrap.hidden) continue;
      const input = wrap.querySelector("[data-option]");
      const typed = input.value === TYPED ? wrap.querySelector(".lb-typed") : null;
      const raw = option.kind === "bool" ? input.checked : typed ? typed.value : input.value;
      const read = readOption(option, raw, n, t(`option.${game.id}.${option.name}`));
      if (read.problem) return { problem: t(...read.problem), input: typed || input };
      if (differs(read.value, option)) options[option.name] = read.value;
    }
    return { options };
  }

  async function create() {
    message.textContent = "";
    const { min, max } = bounds();
    const n = Number(players.value);
    if (!Number.isInteger(n) || n < min || n > max) {
      message.textContent = t("lobby.players_out_of_range", { game: t(`game.${game.id}`), min, max });
      players.focus();
      return;
    }
    const read = readOptions(n);
    if (read.problem) { message.textContent = read.problem; read.input.focus(); return; }
    const seats = [{ kind: "human" }];
    for (const select of seatsBox.querySelectorAll("[data-seat]")) {
      seats.push(select.value ? { kind: "bot", bot: select.value } : { kind: "human" });
    }
    try {
      const joined = await asPlayer((me) => api("POST", "/api/tables", { game: game.id, players: n,
        options: read.options, seats, private: privateBox.checked, display_name: who(), ...me }));
      saveToken(joined.table.id, joined.token, joined.seat, joined.socket);
      if (joined.key) saveKey(joined.table.id, joined.key);
      location.hash = `#/table/${joined.table.id}`;
    } catch (error) { message.textContent = errorText(error); }
  }

  players.addEventListener("input", () => { applyBounds(false); drawSeats(); });
  players.addEventListener("change", () => applyBounds(false));
  if (modeInput) modeInput.addEventListener("change", () => { applyMode(); applyBounds(true); drawSeats(); });
  for (const { wrap } of fields) if (wrap !== modeField?.wrap) optionsBox.append(wrap);
  applyMode();
  applyBounds(false);
  drawSeats();
  box.replaceChildren(
    modeField ? modeField.wrap : "",
    el("label", { class: "field", for: "players" }, t("lobby.players"), " ", players, range),
    el("fieldset", { class: "lb-group" }, legend, optionsBox),
    el("fieldset", { class: "lb-group" }, el("legend", {}, t("lobby.seats")), seatsBox),
    el("label", { class: "field lb-check", for: "private" }, privateBox, " ", t("lobby.private"),
      el("small", {}, t("lobby.private_help"))),
    el("div", { class: "row" },
      el("button", { class: "primary", id: "create", onclick: create }, t("lobby.create")),
      el("a", { id: "how-to-play", href: `#/rules/${game.id}` }, t("rules.how_to_play", { game: t(`game.${game.id}`) }))));
}
