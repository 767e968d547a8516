// The lobby: a card per game (its picture, length, Play now against bots, set up, rules),
// the new-table form, and the public tables, open and running, a page at a time.
import { api, asPlayer, assets, errorText, games } from "../lib/api.js";
import { el, page } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { loadStyles, pictures } from "../lib/games.js";
import { botChoices, chooseBot, chosenBot, levelLabel } from "../lib/levels.js";
import { displayName, saveToken, setDisplayName } from "../lib/store.js";
import { seatName, tableName } from "../table/names.js";
import { tableForm } from "./create.js";
import { coachStyles, guidedLink, guidedOffer, guidedSeen, profileMarks } from "./guided.js";

const PAGE = 8;
const REFRESH_MS = 4000;
const who = () => displayName() || t("lobby.anonymous");

// The seats "Play now" fills: you, then bots of the chosen level (the game's default
// unless this browser chose another; `players` from its facts).
export function playNowSeats(game, facts, bot = game.default_bot) {
  const players = Math.max(game.min_players, Math.min(facts.players || game.min_players, game.max_players));
  return { players, seats: [{ kind: "human" }, ...Array.from({ length: players - 1 }, () => ({ kind: "bot", bot }))] };
}

// How long a game of the default mode lasts: measured on the simulator's virtual clock
// and sent with the game (`minutes`, per mode; "" for a game without modes), rounded
// for people (a minute at least).
export function typicalMinutes(game) {
  const mode = (game.options || []).find((option) => option.name === "mode");
  const minutes = (game.minutes || {})[mode ? mode.default : ""];
  if (!minutes) return null;
  return minutes < 1 ? 1 : Math.round(minutes);
}

export async function lobbyPage() {
  const list = await games();
  // Each game's tile and facts from its small pictures module, never its board. The
  // cards' words are drawn at once (they are what a phone shows first), each picture
  // once its module and the games' styles are in; a game whose client cannot load still
  // gets its card (without a picture).
  const styled = loadStyles().catch(() => {});
  const clientOf = (game) => pictures(game.id).catch(() => ({}));
  const factsOf = async (game) => (await clientOf(game)).facts || {};
  const nameInput = el("input", { id: "name", maxlength: 40, value: displayName(), autocomplete: "nickname",
    oninput: (e) => setDisplayName(e.target.value.trim()) });
  const gameSelect = el("select", { id: "game" }, list.map((g) => el("option", { value: g.id }, t(`game.${g.id}`))));
  const form = el("div", { id: "create-options" });
  const tables = el("div", { id: "tables" });
  const message = el("p", { class: "error", role: "alert", id: "create-error" });
  const playMessage = el("p", { class: "error", role: "alert", id: "play-error" });
  let formsAsked = 0;
  const drawForm = async () => {
    const game = list.find((g) => g.id === gameSelect.value);
    const mine = ++formsAsked;
    const facts = await factsOf(game);
    if (mine === formsAsked) tableForm(game, facts, form, message, who);  // the game chosen last
  };

  // A game this player never played: the guided game offered on its card first (true),
  // and `then` once it is skipped. A second offer takes the first's place (and its way
  // on: the button pressed last).
  async function offeredGuided(game, button, then) {
    const card = button.closest(".lb-game");
    if (!game.tutorial || !card || await guidedSeen(game.id)) return false;
    await coachStyles();
    card.querySelector("[data-guided-offer]")?.remove();
    card.querySelector(".lb-game-text").append(guidedOffer(game, { displayName: who, message: playMessage, onSkip: then }));
    return true;
  }

  async function playNow(game, button, bot) {
    playMessage.textContent = "";
    if (await offeredGuided(game, button, () => playNow(game, button, bot))) return;
    button.disabled = true;
    const { players, seats } = playNowSeats(game, await factsOf(game), bot);
    try {
      const joined = await asPlayer((me) => api("POST", "/api/tables", { game: game.id, players,
        options: {}, seats, display_name: who(), ...me }));
      saveToken(joined.table.id, joined.token, joined.seat, joined.socket);
      await api("POST", `/api/tables/${joined.table.id}/start`, null, joined.token);
      location.hash = `#/table/${joined.table.id}`;
    } catch (error) {
      playMessage.textContent = errorText(error);
      button.disabled = false;
    }
  }

  function gameCard(game) {
    const minutes = typicalMinutes(game);
    const picture = el("div", { class: `lb-pic lb-pic-${game.id}`, "aria-hidden": "true" });
    // The game's picture, drawn by its own card code once it and the styles are in.
    Promise.all([clientOf(game), styled])
      .then(([client]) => client.picture?.(picture, { t, el, assets: () => assets(game.id) })).catch(() => {});
    // The bots' level for "Play now", remembered by this browser for the game.
    const level = el("select", { id: `level-${game.id}`, class: "lb-level", "data-level-for": game.id,
      onchange: () => chooseBot(game, level.value) },
    botChoices(game, chosenBot(game)).map((bot) => el("option", { value: bot, selected: bot === chosenBot(game) }, levelLabel(game.id, bot))));
    const play = el("button", { class: "primary", id: `play-${game.id}`, "data-play-now": game.id,
      onclick: () => playNow(game, play, level.value) }, t("lobby.play_now"));
    const setUp = el("button", { class: "lb-setup", "data-set-up": game.id, onclick: async function drawIt() {
      playMessage.textContent = "";
      if (await offeredGuided(game, setUp, drawIt)) return;
      gameSelect.value = game.id;
      await drawForm();
      gameSelect.scrollIntoView({ block: "center" });
      gameSelect.focus();
    } }, t("lobby.set_up"));
    return el("li", { class: "lb-game", "data-game": game.id },
      picture,
      el("div", { class: "lb-game-text" },
        el("h3", {}, t(`game.${game.id}`)),
        el("p", { class: "lb-about" }, t(`game.${game.id}.about`)),
        el("p", { class: "lb-facts" },
          el("span", {}, t("lobby.players_range", { min: game.min_players, max: game.max_players })),
          minutes ? el("span", {}, t("lobby.minutes", { n: minutes })) : ""),
        el("div", { class: "lb-actions" },
          el("label", { class: "lb-level-field" }, t("lobby.level"), " ", level), play,
          setUp,
          el("a", { href: `#/rules/${game.id}`, class: "lb-rules" }, t("lobby.rules")),
          game.tutorial ? guidedLink(game, { displayName: who, message: playMessage }) : "")));
  }

  // Public tables only (the server never lists private ones), a page at a time.
  const offsets = { open: 0, running: 0 };
  async function drawTables(force = false) {
    if (!force && tables.contains(document.activeElement)) return;  // never pull a button from under a finger
    const [open, running] = await Promise.all(["open", "running"].map((state) =>
      api("GET", `/api/tables?status=${state}&limit=${PAGE + 1}&offset=${offsets[state]}`)));
    const section = (state, rows, title, action) => {
      const more = rows.length > PAGE;
      const turn = (by) => () => { offsets[state] = Math.max(0, offsets[state] + by); drawTables(true); };
      const pager = offsets[state] || more ? el("div", { class: "row lb-pager" },
        el("button", { disabled: !offsets[state], "data-page": `${state}-previous`, onclick: turn(-PAGE) }, t("lobby.previous")),
        el("button", { disabled: !more, "data-page": `${state}-next`, onclick: turn(PAGE) }, t("lobby.next"))) : "";
      return [el("h2", {}, title),
        rows.length ? el("ul", { class: "lb-tables", id: `${state}-tables` }, rows.slice(0, PAGE).map((table) => {
          const seated = table.seats.filter((s) => s.kind !== "empty").length;
          return el("li", { "data-table": table.id },
            el("div", { class: "lb-table-text" },
              el("strong", {}, tableName(table)), " ",
              el("span", { class: "lb-badge" }, t(`game.${table.game}`)),
              el("small", {}, t("lobby.seated", { n: seated, total: table.players }), " · ",
                table.seats.filter((s) => s.kind !== "empty" || s.reserved).map((seat) => seatName(seat, table.game)).join(", "))),
            action(table));
        })) : el("p", { class: "lb-none" }, t("lobby.none")),
        pager];
    };
    tables.replaceChildren(
      ...section("open", open, t("lobby.open_tables"), (table) =>
        el("button", { onclick: () => { location.hash = `#/join/${table.id}`; } }, t("lobby.join"))),
      ...section("running", running, t("lobby.running_tables"), (table) =>
        el("button", { onclick: () => { location.hash = `#/table/${table.id}`; } }, t("lobby.watch"))));
  }

  gameSelect.addEventListener("change", drawForm);
  page(t("nav.lobby"),
    el("section", { class: "panel lb-you-panel" }, el("label", { class: "field" }, t("lobby.name"), " ", nameInput),
      el("a", { href: "#/profile", id: "profile" }, t("profile.title"))),
    el("section", { class: "lb-games-panel", "aria-labelledby": "lb-games-title" },
      el("h2", { id: "lb-games-title" }, t("lobby.choose_game")),
      el("ul", { class: "lb-games" }, list.map(gameCard)), playMessage),
    el("div", { class: "lb-columns" },
      el("section", { class: "panel lb-new" }, el("h2", {}, t("lobby.new_table")),
        el("label", { class: "field", for: "game" }, t("lobby.game"), " ", gameSelect), form, message),
      el("section", { class: "panel lb-list" }, tables)));
  drawForm();
  profileMarks();  // asked now, so that a first "Play now" need not wait for it
  drawTables(true).catch((error) => { tables.textContent = errorText(error); });
  const timer = setInterval(() => drawTables().catch(() => {}), REFRESH_MS);
  return () => clearInterval(timer);
}
