// Twin Table's browser client: lobby, tables, results, replays, rules and leaderboard.
// It speaks only the documented protocol (docs/protocol.md); every string comes from the
// catalogues in i18n/; each game draws itself in games/<id>.js.
import { renderTimo } from "./games/timo.js";
import { renderTwins } from "./games/twins.js";
import { renderTwinIt } from "./games/twinit.js";
import { renderTwinz } from "./games/twinz.js";

const RENDERERS = { timo: renderTimo, twins: renderTwins, twinit: renderTwinIt, twinz: renderTwinz };
const LANGUAGES = ["en", "fr", "ko", "nl"];
const catalogues = {};
let lang = "en";
let leaving = () => {};  // tears down the current page (closes its socket)

// -- translation ------------------------------------------------------------------------
// A count picks its plural form: with a numeric `n` and catalogue keys `key#one`,
// `key#other` (and `#zero`, `#two`, `#few`, `#many` where a language has them), the form
// comes from Intl.PluralRules for the page's language; otherwise the plain `key`.
const pluralRules = {};
function pluralKey(key, n) {
  if (typeof n !== "number") return key;
  pluralRules[lang] = pluralRules[lang] || new Intl.PluralRules(lang);
  for (const form of [pluralRules[lang].select(n), "other"]) {
    const candidate = `${key}#${form}`;
    if (catalogues[lang]?.[candidate] ?? catalogues.en?.[candidate]) return candidate;
  }
  return key;
}

export function t(key, params = {}) {
  key = pluralKey(key, params.n);
  let text = catalogues[lang]?.[key] ?? catalogues.en?.[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.replaceAll(`{${name}}`, String(value));
  }
  return text;
}

async function loadLanguage(code) {
  for (const needed of new Set(["en", code])) {
    if (!catalogues[needed]) {
      catalogues[needed] = await (await fetch(`/static/i18n/${needed}.json`)).json();
    }
  }
  lang = code;
  localStorage.setItem("tt.lang", code);
  document.documentElement.lang = code;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.getElementById("language").value = code;
}

function preferredLanguage() {
  const saved = localStorage.getItem("tt.lang");
  if (LANGUAGES.includes(saved)) return saved;
  for (const wanted of navigator.languages || [navigator.language || "en"]) {
    const code = wanted.slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

// -- small helpers ------------------------------------------------------------------------
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else if (name === "html") node.innerHTML = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

async function api(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(data.message || response.statusText);
    error.code = data.code || "http." + response.status;
    error.details = data.details || {};
    throw error;
  }
  return data;
}

// Every refusal as a sentence in the reader's language: each code has its catalogue entry
// (`error.<code>`); a request the server could not read names the field at fault.
const FIELD_KEYS = { display_name: "lobby.name", players: "lobby.players", name: "lobby.table_name",
  seats: "lobby.seats", options: "lobby.options", key: "lobby.invite_key" };
function errorText(error) {
  if (error.code === "request.invalid") {
    const where = (error.details && error.details.errors && error.details.errors[0] && error.details.errors[0].loc) || [];
    const field = where.map((part) => FIELD_KEYS[part]).find(Boolean);
    return field ? t("error.request.invalid_field", { field: t(field) }) : t("error.request.invalid");
  }
  const key = `error.${error.code}`;
  const known = t(key);
  if (known !== key) return known;
  // A code the catalogue does not know yet: the server's own sentence is English.
  return lang === "en" && error.message ? error.message : t("error.unknown");
}

function status(text) { document.getElementById("status").textContent = text || ""; }

const tokens = () => JSON.parse(localStorage.getItem("tt.tokens") || "{}");
function saveToken(tableId, token, seat) {
  const all = tokens();
  all[tableId] = { token, seat };
  localStorage.setItem("tt.tokens", JSON.stringify(all));
}

// Who you are on the leaderboard: a profile the server makes (a public id and a secret
// key only this browser holds; anyone can read the id, only the key plays under it). The
// profile page moves it to another device as a link.
async function identity() {
  let id = localStorage.getItem("tt.player");
  let secret = localStorage.getItem("tt.secret");
  if (!id || !secret) {
    const made = await api("POST", "/api/profiles", { display_name: displayName() || t("lobby.anonymous") });
    [id, secret] = [made.player_id, made.secret];
    localStorage.setItem("tt.player", id);
    localStorage.setItem("tt.secret", secret);
  }
  return { player_id: id, player_secret: secret };
}

async function profilePage(code) {
  if (code) {  // an export link opened on this device: adopt the profile it carries
    const [id, secret] = decodeURIComponent(code).split(".");
    const [mine, mySecret] = [localStorage.getItem("tt.player"), localStorage.getItem("tt.secret")];
    // A link from someone else must not silently take this browser's own profile away:
    // ask, and keep the one replaced as a link on the profile page, to switch back.
    if (mine !== id && (!mine || !mySecret || confirm(t("profile.replace", { id, mine })))) {
      if (mine && mySecret) localStorage.setItem("tt.previous", `${mine}.${mySecret}`);
      localStorage.setItem("tt.player", id);
      localStorage.setItem("tt.secret", secret);
    }
    location.hash = "#/profile";
    return;
  }
  const { player_id: id, player_secret: secret } = await identity();
  const link = `${location.origin}/#/profile/${encodeURIComponent(`${id}.${secret}`)}`;
  const previous = localStorage.getItem("tt.previous");
  page(t("profile.title"),
    el("section", { class: "panel" },
      el("p", {}, t("profile.id", { id })),
      el("p", {}, t("profile.move")),
      el("input", { readonly: true, value: link, id: "profile-link", size: 50, "aria-label": t("profile.link"),
        onfocus: (event) => event.target.select() }),
      el("p", {}, el("small", {}, t("profile.secret_warning"))),
      previous && previous.split(".")[0] !== id ? el("p", {}, el("a", {
        id: "previous-profile", href: `#/profile/${encodeURIComponent(previous)}`,
      }, t("profile.previous", { id: previous.split(".")[0] }))) : null));
}

const displayName = () => localStorage.getItem("tt.name") || "";

let gamesCache = null;
async function games() {
  gamesCache = gamesCache || await api("GET", "/api/games");
  return gamesCache;
}

const assetsCache = {};
async function assets(gameId) {
  assetsCache[gameId] = assetsCache[gameId] || await api("GET", `/api/games/${gameId}/assets`);
  return assetsCache[gameId];
}

// -- pages ---------------------------------------------------------------------------------
const main = () => document.getElementById("main");

function page(title, ...children) {
  const root = main();
  root.replaceChildren(el("h1", {}, title), ...children);
  document.title = `${title} · ${t("app.title")}`;
  return root;
}

// -- the lobby ---------------------------------------------------------------------------
// How each game is shown: a typical length in minutes, the player count "Play now" seats
// (the game's default bots fill the other seats), and what its picture is drawn from.
const GAME_FACTS = {
  timo: { minutes: 20, players: 3, cards: ["orange/7", "pink/+2", "black/+4"] },
  twins: { minutes: 25, players: 4, cards: ["red/7", "blue/7", "green/3"] },
  twinit: { minutes: 3, players: 3, pictures: [5, 5, 17] },
  twinz: { minutes: 20, players: 4, lines: [["chat", "lune"], ["plage", "neige"], ["orage", "sucre"]] },
};
// Options that name seats: the protocol counts seats from 0, people from 1 (seat 1 is you).
const SEAT_OPTIONS = new Set(["taboo"]);

const inviteKeys = () => JSON.parse(localStorage.getItem("tt.keys") || "{}");
const inviteKey = (tableId) => inviteKeys()[tableId] || null;
function saveKey(tableId, key) {
  const all = inviteKeys();
  all[tableId] = key;
  localStorage.setItem("tt.keys", JSON.stringify(all));
}

// What a private table's pages ask with: its invite key (from the link) and, for its
// players, their seat token; a public table needs neither.
function tableGet(tableId, path = "") {
  const key = inviteKey(tableId);
  const sep = path.includes("?") ? "&" : "?";
  const query = key ? `${sep}key=${encodeURIComponent(key)}` : "";
  return api("GET", `/api/tables/${tableId}${path}${query}`, null, tokens()[tableId]?.token);
}

// A table without a name of its own is "<host>'s table" in the viewer's language.
function tableName(info) {
  return info.host_name ? t("lobby.table_of", { name: info.host_name }) : info.name;
}

// The game's picture, drawn by its own card code (Twin It: its real pictures; Twinz: a
// word card).
async function gamePicture(game, box) {
  const facts = GAME_FACTS[game.id] || {};
  const ctx = { t, el };
  if (facts.cards) {
    const module = await import(`./games/${game.id}.js`);
    if (module.drawCard) box.replaceChildren(...facts.cards.map((spec) => el("span", { class: "lb-card" }, module.drawCard(spec, ctx))));
  } else if (facts.pictures) {
    const { pictures } = await assets(game.id);
    box.replaceChildren(...facts.pictures.map((n) => el("span", { class: "lb-disc", html: pictures[n % pictures.length] })));
  } else if (facts.lines) {  // a Twinz card: numbered lines of two words, the second upside down
    box.replaceChildren(el("span", { class: "lb-word lb-word-blue" }),
      el("span", { class: "lb-word" }, facts.lines.map(([word, other], index) => el("span", { class: "lb-word-line" },
        el("small", {}, index + 1), el("strong", {}, word), el("span", { class: "lb-upside" }, other)))));
  }
}

// Seconds in the form for options the server counts in milliseconds.
const scaleOf = (option) => (option.name.endsWith("_ms") ? 1000 : 1);
const shown = (value, scale) => (value === null || value === undefined ? "" : String(value / scale));

async function lobbyPage() {
  const list = await games();
  const nameInput = el("input", { id: "name", maxlength: 40, value: displayName(), autocomplete: "nickname",
    oninput: (e) => localStorage.setItem("tt.name", e.target.value.trim()) });
  const gameSelect = el("select", { id: "game" }, list.map((g) => el("option", { value: g.id }, t(`game.${g.id}`))));
  const form = el("div", { id: "create-options" });
  const tables = el("div", { id: "tables" });
  const message = el("p", { class: "error", role: "alert", id: "create-error" });
  const playMessage = el("p", { class: "error", role: "alert", id: "play-error" });
  const who = () => displayName() || t("lobby.anonymous");

  async function playNow(game, button) {
    playMessage.textContent = "";
    button.disabled = true;
    const facts = GAME_FACTS[game.id] || {};
    const players = Math.max(game.min_players, Math.min(facts.players || game.min_players, game.max_players));
    const seats = [{ kind: "human" }, ...Array.from({ length: players - 1 }, () => ({ kind: "bot", bot: game.default_bot }))];
    try {
      const joined = await api("POST", "/api/tables", { game: game.id, players, options: {}, seats,
        display_name: who(), ...(await identity()) });
      saveToken(joined.table.id, joined.token, joined.seat);
      await api("POST", `/api/tables/${joined.table.id}/start`, null, joined.token);
      location.hash = `#/table/${joined.table.id}`;
    } catch (error) {
      playMessage.textContent = errorText(error);
      button.disabled = false;
    }
  }

  function gameCard(game) {
    const facts = GAME_FACTS[game.id] || {};
    const picture = el("div", { class: `lb-pic lb-pic-${game.id}`, "aria-hidden": "true" });
    gamePicture(game, picture).catch(() => {});
    const play = el("button", { class: "primary", id: `play-${game.id}`, "data-play-now": game.id,
      onclick: () => playNow(game, play) }, t("lobby.play_now"));
    return el("li", { class: "lb-game", "data-game": game.id },
      picture,
      el("div", { class: "lb-game-text" },
        el("h3", {}, t(`game.${game.id}`)),
        el("p", { class: "lb-about" }, t(`game.${game.id}.about`)),
        el("p", { class: "lb-facts" },
          el("span", {}, t("lobby.players_range", { min: game.min_players, max: game.max_players })),
          facts.minutes ? el("span", {}, t("lobby.minutes", { n: facts.minutes })) : ""),
        el("div", { class: "lb-actions" }, play,
          el("button", { class: "lb-setup", onclick: () => {
            gameSelect.value = game.id;
            drawForm();
            gameSelect.scrollIntoView({ block: "center" });
            gameSelect.focus();
          } }, t("lobby.set_up")),
          el("a", { href: `#/rules/${game.id}`, class: "lb-rules" }, t("lobby.rules")))));
  }

  function drawForm() {
    message.textContent = "";
    const game = list.find((g) => g.id === gameSelect.value);
    const facts = GAME_FACTS[game.id] || {};
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

    const bounds = () => {
      const pair = modeInput && game.players_by_mode ? game.players_by_mode[modeInput.value] : null;
      return pair ? { min: pair[0], max: pair[1] } : { min: game.min_players, max: game.max_players };
    };
    // The seats drawn follow the count, never past the mode's bounds (typing 99 gives the
    // most seats the mode allows, and the field says so).
    function count() {
      const { min, max } = bounds();
      const n = Math.round(Number(players.value));
      return players.value === "" || !Number.isFinite(n) ? min : Math.max(min, Math.min(max, n));
    }
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
      for (let seat = 1; seat < count(); seat++) {
        const chosen = seat in kept ? kept[seat] : game.default_bot;
        seatsBox.append(el("label", { class: "field" }, t("lobby.seat", { n: seat + 1 }), " ",
          el("select", { "data-seat": seat },
            el("option", { value: "", selected: chosen === "" }, t("lobby.seat_open")),
            game.bots.map((bot) => el("option", { value: bot, selected: bot === chosen }, t("lobby.bot", { level: t(`bot.${bot}`) }))))));
      }
    }
    // Only the options of the chosen mode are shown (and sent); the others keep what was
    // typed in them, in case the mode comes back.
    function applyMode() {
      const mode = modeInput ? modeInput.value : null;
      for (const { option, wrap } of fields) {
        if (wrap === modeField?.wrap) continue;
        wrap.hidden = Boolean(mode && option.modes && !option.modes.includes(mode));
      }
      legend.textContent = mode ? t("lobby.options_for", { mode: t(`choice.${mode}`) }) : t("lobby.options");
    }
    players.addEventListener("input", () => { applyBounds(false); drawSeats(); });
    players.addEventListener("change", () => applyBounds(false));
    if (modeInput) modeInput.addEventListener("change", () => { applyMode(); applyBounds(true); drawSeats(); });
    for (const { wrap } of fields) if (wrap !== modeField?.wrap) optionsBox.append(wrap);
    applyMode();
    applyBounds(false);
    drawSeats();
    form.replaceChildren(
      modeField ? modeField.wrap : "",
      el("label", { class: "field", for: "players" }, t("lobby.players"), " ", players, range),
      el("fieldset", { class: "lb-group" }, legend, optionsBox),
      el("fieldset", { class: "lb-group" }, el("legend", {}, t("lobby.seats")), seatsBox),
      el("label", { class: "field lb-check", for: "private" }, privateBox, " ", t("lobby.private"),
        el("small", {}, t("lobby.private_help"))),
      el("div", { class: "row" },
        el("button", { class: "primary", id: "create", onclick: () => create(game, players, bounds(), fields, seatsBox, privateBox) }, t("lobby.create")),
        el("a", { id: "how-to-play", href: `#/rules/${game.id}` }, t("rules.how_to_play", { game: t(`game.${game.id}`) }))));
  }

  // The form's values as the server takes them, or the sentence saying what to fix.
  function readOptions(game, fields, players) {
    const options = {};
    for (const { option, wrap } of fields) {
      if (wrap.hidden) continue;
      const input = wrap.querySelector("[data-option]");
      const label = t(`option.${game.id}.${option.name}`);
      const scale = scaleOf(option);
      let value;
      if (option.kind === "bool") value = input.checked;
      else if (option.kind === "choice") value = input.value;
      else if (option.kind === "int") {
        if (input.value.trim() === "") value = option.default;
        else {
          value = Math.round(Number(input.value) * scale);
          const low = option.minimum ?? -Infinity;
          const high = option.maximum ?? Infinity;
          if (!Number.isFinite(value) || value < low || value > high) {
            return { problem: t("lobby.bad_number", { field: label, min: shown(low, scale), max: shown(high, scale) }), input };
          }
        }
      } else {
        const items = input.value.split(/[\s,;]+/).filter(Boolean).map(Number);
        const seats = SEAT_OPTIONS.has(option.name);
        const low = seats ? 1 : option.minimum;
        const high = seats ? Math.min(players, (option.maximum ?? players) + 1) : option.maximum;
        if (items.some((n) => !Number.isInteger(n) || n < low || n > high)) {
          return { problem: t(seats ? "lobby.bad_seats" : "lobby.bad_list", { field: label, min: low, max: high }), input };
        }
        value = seats ? items.map((n) => n - 1) : items;
      }
      if (JSON.stringify(value) !== JSON.stringify(option.default ?? null)) options[option.name] = value;
    }
    return { options };
  }

  async function create(game, players, { min, max }, fields, seatsBox, privateBox) {
    message.textContent = "";
    const n = Number(players.value);
    if (!Number.isInteger(n) || n < min || n > max) {
      message.textContent = t("lobby.players_out_of_range", { game: t(`game.${game.id}`), min, max });
      players.focus();
      return;
    }
    const read = readOptions(game, fields, n);
    if (read.problem) { message.textContent = read.problem; read.input.focus(); return; }
    const seats = [{ kind: "human" }];
    for (const select of seatsBox.querySelectorAll("[data-seat]")) {
      seats.push(select.value ? { kind: "bot", bot: select.value } : { kind: "human" });
    }
    try {
      const joined = await api("POST", "/api/tables", { game: game.id, players: n, options: read.options,
        seats, private: privateBox.checked, display_name: who(), ...(await identity()) });
      saveToken(joined.table.id, joined.token, joined.seat);
      if (joined.key) saveKey(joined.table.id, joined.key);
      location.hash = `#/table/${joined.table.id}`;
    } catch (error) { message.textContent = errorText(error); }
  }

  // Public tables only (the server never lists private ones), a page at a time.
  const PAGE = 8;
  const offsets = { open: 0, running: 0 };
  async function drawTables(force = false) {
    if (!force && tables.contains(document.activeElement)) return;  // never pull a button from under a finger
    const [open, running] = await Promise.all(["open", "running"].map((state) =>
      api("GET", `/api/tables?status=${state}&limit=${PAGE + 1}&offset=${offsets[state]}`)));
    const section = (state, rows, title, action) => {
      const more = rows.length > PAGE;
      const pager = offsets[state] || more ? el("div", { class: "row lb-pager" },
        el("button", { disabled: !offsets[state], "data-page": `${state}-previous`, onclick: () => { offsets[state] = Math.max(0, offsets[state] - PAGE); drawTables(true); } }, t("lobby.previous")),
        el("button", { disabled: !more, "data-page": `${state}-next`, onclick: () => { offsets[state] += PAGE; drawTables(true); } }, t("lobby.next"))) : "";
      return [el("h2", {}, title),
        rows.length ? el("ul", { class: "lb-tables", id: `${state}-tables` }, rows.slice(0, PAGE).map((table) => {
          const seated = table.seats.filter((s) => s.kind !== "empty").length;
          return el("li", { "data-table": table.id },
            el("div", { class: "lb-table-text" },
              el("strong", {}, tableName(table)), " ",
              el("span", { class: "lb-badge" }, t(`game.${table.game}`)),
              el("small", {}, t("lobby.seated", { n: seated, total: table.players }), " · ",
                table.seats.filter((s) => s.kind !== "empty" || s.reserved).map(seatName).join(", "))),
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
  drawTables(true).catch((error) => { tables.textContent = errorText(error); });
  const timer = setInterval(() => drawTables().catch(() => {}), 4000);
  leaving = () => clearInterval(timer);
}

function optionField(game, option) {
  const id = `opt-${option.name}`;
  const label = t(`option.${game.id}.${option.name}`);
  const help = t(`option.${game.id}.${option.name}.help`);
  const helpId = `${id}-help`;
  const scale = scaleOf(option);
  const common = { id, "data-option": option.name, "aria-describedby": helpId };
  let input;
  if (option.kind === "bool") {
    input = el("input", { type: "checkbox", ...common, checked: option.default });
  } else if (option.kind === "choice") {
    input = el("select", common,
      option.choices.map((choice) => el("option", { value: choice, selected: choice === option.default }, t(`choice.${choice}`))));
  } else if (option.kind === "int_list") {
    // Seats are shown from 1, as everywhere in the lobby; the server counts from 0.
    const shift = SEAT_OPTIONS.has(option.name) ? 1 : 0;
    input = el("input", { ...common, value: (option.default || []).map((n) => n + shift).join(", "), inputmode: "numeric",
      placeholder: t("lobby.none_chosen") });
  } else {
    input = el("input", { type: "number", ...common, inputmode: scale === 1 ? "numeric" : "decimal",
      step: scale === 1 ? 1 : 0.1, min: shown(option.minimum, scale), max: shown(option.maximum, scale),
      value: shown(option.default, scale), placeholder: t("lobby.default") });
  }
  return el("label", { class: `field lb-option${option.kind === "bool" ? " lb-check" : ""}`, for: id, "data-option-field": option.name },
    option.kind === "bool" ? [input, " ", label] : [label, " ", input], el("small", { id: helpId }, help));
}

async function joinPage(arg) {
  // An invite link to a private table carries its secret: "#/join/<table>.<key>".
  const [tableId, given] = String(arg || "").split(".");
  if (given) saveKey(tableId, given);
  let info;
  try { info = await tableGet(tableId); } catch (error) {
    if (error.code !== "table.private") throw error;
    page(t("lobby.join"), el("section", { class: "panel lb-join" }, el("p", { class: "error", role: "alert" }, errorText(error))));
    return;
  }
  const mine = tokens()[tableId];
  if (mine) { location.hash = `#/table/${tableId}`; return; }
  const key = given || inviteKey(tableId);
  const name = el("input", { id: "join-name", maxlength: 40, value: displayName(), autocomplete: "nickname" });
  const message = el("p", { class: "error", role: "alert" });
  const locked = info.private && !key;
  page(t("join.title", { game: t(`game.${info.game}`) }),
    el("section", { class: "panel lb-join" },
      el("h2", {}, tableName(info)),
      el("p", {}, info.seats.map((s) => (s.reserved ? t("table.kept_for", { name: s.display_name }) : seatName(s))).join(" · ")),
      locked ? el("p", { class: "error" }, t("error.table.private")) : "",
      el("label", { class: "field", for: "join-name" }, t("lobby.name"), " ", name),
      el("div", { class: "row" },
        el("button", { class: "primary", id: "join", disabled: locked, onclick: async () => {
          localStorage.setItem("tt.name", name.value.trim());
          message.textContent = "";
          try {
            const joined = await api("POST", `/api/tables/${tableId}/join`, { display_name: name.value.trim() || t("lobby.anonymous"),
              ...(key ? { key } : {}), ...(await identity()) });
            saveToken(tableId, joined.token, joined.seat);
            location.hash = `#/table/${tableId}`;
          } catch (error) { message.textContent = errorText(error); }
        } }, t("lobby.join")),
        el("button", { disabled: locked, onclick: () => { location.hash = `#/table/${tableId}`; } }, t("lobby.watch")),
        el("a", { href: `#/rules/${info.game}` }, t("lobby.rules"))),
      message));
}

// -- seats, names and the narrated log ---------------------------------------------------
// A bot seat is "Ada · strong" everywhere (seats, log, results, replay): the name comes
// from the server (distinct at the table), the level from the catalogue.
function seatName(seat) {
  if (!seat) return "?";
  if (seat.kind === "bot") {
    const level = t(`bot.${seat.bot}`);
    return seat.display_name ? t("bot.named", { name: seat.display_name, level }) : t("lobby.bot", { level });
  }
  return seat.display_name || t("lobby.seat_open");
}

// Avatar colours by seat: distinct at a 10-seat table, readable with white initials.
const SEAT_COLOURS = ["#c2410c", "#1d4ed8", "#047857", "#7e22ce", "#be123c", "#0e7490", "#a16207", "#4338ca", "#15803d", "#9d174d"];
const seatColour = (index) => SEAT_COLOURS[index % SEAT_COLOURS.length];

// A name chip (the table's log, summaries and results, the replay): the seat's colour,
// and a bot's level in small type.
function seatChip(seats, seatIndex) {
  const seat = seats[seatIndex];
  if (!seat) return el("span", { class: "who" }, t("event.someone"));
  const named = seat.kind === "bot" && seat.display_name;
  const level = named ? el("small", {}, ` · ${t(`bot.${seat.bot}`)}`) : "";
  return el("span", { class: "who", style: `--seat:${seatColour(seatIndex)}` }, named ? seat.display_name : seatName(seat), level);
}

// The narrated log, for the table and the replay alike: [event, line] for each event of
// one move that is worth a line (a line: a list of nodes and strings). Twinz narrates
// itself (render.describe); the other games through narrate() and the catalogue.
// `card(id)` names a Timo card; `replay` adds lines the live log leaves out (flips).
function describeEvents(game, events, seat, { render, ctx, who, view, card, replay = false }) {
  const told = [];
  for (const event of events) {
    let line = render.describe ? render.describe(event, ctx) : null;
    if (line === null || line === undefined) line = narrate(game, event, seat, who, { view, card, replay });
    if (line === null || line === undefined || (typeof line === "string" && line.startsWith("event."))) continue;
    told.push([event, line]);
  }
  return told;
}
const phoneWidth = window.matchMedia("(max-width: 700px)");  // table.css folds the seats into a strip
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// t() with elements as parameters: "{name} plays {card}" with a name chip for {name}.
function tNodes(key, params = {}) {
  const nodes = [];
  const plain = {};
  for (const [name, value] of Object.entries(params)) {
    if (value instanceof Node) { plain[name] = `\u0000${nodes.length}\u0000`; nodes.push(value); } else plain[name] = value;
  }
  const text = t(key, plain);
  if (text === key) return null;
  return text.split(/\u0000(\d+)\u0000/).map((part, i) => (i % 2 ? nodes[Number(part)] : part)).filter((part) => part !== "");
}

function listOf(items) {
  // Intl.ListFormat joins names the way each language does ("Ann, Bo and Chen").
  const format = new Intl.ListFormat(lang, { type: "conjunction" });
  const marks = items.map((_, i) => `\u0000${i}\u0000`);
  return el("span", {}, format.formatToParts(marks).map((part) => {
    const index = /^\u0000(\d+)\u0000$/.exec(part.value);
    return part.type === "element" && index ? items[Number(index[1])] : part.value;
  }));
}

const chips = (n) => t("event.chips", { n });
const cardsOf = (n) => t("event.cards", { n });
const pointsOf = (n) => t("event.points", { n });

function timoCardText(card) {
  if (!card) return null;
  if (card.colour === "black") return t(card.rank === "+4" ? "event.timo.black_plus4" : "event.timo.black_colour");
  const rankKey = `timo.rank.${card.rank}`;
  const rank = t(rankKey) === rankKey ? card.rank : t(rankKey);
  return t("event.timo.card", { colour: t(`colour.${card.colour}`), rank });
}

// One log line (a list of nodes and strings) for an event of Timo's Twist, Twins or Twin
// It, or null when the event is not worth a line (a private deal, a hand lifted...).
// Twinz narrates itself (games/twinz.js: renderTwinz.describe).
function narrate(game, event, actor, who, extra) {
  const data = event.data || {};
  const line = (key, params = {}) => tNodes(`event.${game}.${key}`, params);
  const name = who(data.seat ?? actor);
  const winners = (seats) => (seats || []).map(who);
  if (event.kind === "game_over") {
    const won = game === "timo" ? [data.winner] : (data.winners || []);
    if (game === "twinit" && extra.view?.mode === "coop") return line("coop_over", { n: (data.scores || [0])[0] });
    return won.length ? tNodes("event.won", { names: listOf(winners(won)), n: won.length }) : line("game_over");
  }
  if (game === "timo") {
    switch (event.kind) {
      case "round_started": return line("round_started", { round: data.round, name: who(data.dealer) });
      case "played": {
        const card = extra.card(data.card);
        if (!card) return line("played_last", { name });
        if (card.colour === "black") return line("played_black", { name, card: timoCardText(card), colour: t(`colour.${data.colour}`) });
        return line("played", { name, card: timoCardText(card) });
      }
      case "timo_called": return line("timo_called", { name });
      case "skipped": return line("skipped", { name });
      case "direction": return line("direction");
      case "drew":
        if (data.reason === "caught") return null;  // the catch line says it
        return line(data.reason === "penalty" ? "drew_penalty" : "drew", { name, n: data.count });
      case "passed": return line("passed", { name });
      case "caught": return line("caught", { by: who(data.by), name, victim: who(data.seat), n: 2 });
      case "reshuffled": return line("reshuffled");
      case "round_over": return line("round_over", { name: who(data.winner), n: data.points });
      default: return null;
    }
  }
  if (game === "twins") {
    switch (event.kind) {
      case "hand_started": return line("hand_started", { hand: data.hand, name: who(data.dealer) });
      case "bought": return data.count ? line("bought", { name, cards: cardsOf(data.count), chips: chips(data.cost) }) : line("bought_none", { name });
      case "round_started": return line("round_started", { round: data.round });
      case "committed": return line("committed", { name });
      case "revealed": return line("revealed", { round: data.round, picks: listOf((data.picks || []).map((pick) =>
        el("span", {}, tNodes("event.twins.shown", { name: who(pick.seat), set: t(`twins.set.${pick.set}`), value: pick.value })))) });
      case "paid": return line("paid", { name, chips: chips(data.amount) });
      case "received": return line("received", { name, chips: chips(data.amount) });
      case "sits_out": return line("sits_out", { name });
      case "bankrupt": return line("bankrupt", { name });
      case "bank_stays": return line("bank_stays", { chips: chips(data.bank) });
      default: return null;
    }
  }
  if (game === "twinit") {
    switch (event.kind) {
      case "round_started": return line("round_started", { round: data.round });
      // A flip every few seconds would push the takes out of sight: the log keeps them
      // for the replay's caption only.
      case "flipped": return extra.replay ? line("flipped", { name }) : null;
      case "taken":
        if (data.stolen_from !== undefined) return line("stolen", { name, victim: who(data.stolen_from) });
        return line(data.size >= 3 ? "taken_triple" : "taken_pair", { name });
      case "third_flipped": return line("third_flipped");
      case "triple_flipped": return line("triple_flipped");
      case "error": {
        const reason = ["different", "both_hands", "own_pile", "taboo"].includes(data.reason) ? data.reason : "different";
        const said = line(`error.${reason}`, { name }) || [];
        const lost = data.lost_set_picture !== null && data.lost_set_picture !== undefined ? line("lost_set", { name }) : line("no_set_lost");
        return [...said, " ", ...(lost || [])];
      }
      case "tie": return line("tie", { names: listOf(winners(data.seats)) });
      case "finishing": return line("finishing");
      case "sudden_death": return line("sudden_death", { names: listOf(winners(data.seats)) });
      case "round_over": return line("round_over", { round: data.round });
      default: return null;
    }
  }
  return null;
}

// Where each seat sits, counted clockwise from the viewer's (place 0, bottom centre):
// a bottom row, a seat at each end of the table, and a top row. Returns the places in
// each row, left to right.
function tableLayout(n) {
  if (n <= 3) return { bottom: [0], left: [], top: Array.from({ length: n - 1 }, (_, i) => i + 1), right: [] };
  const rest = n - 2;  // one seat at each end
  const top = Math.ceil(rest / 2);
  const bottom = rest - top;
  const leftOfMe = Math.floor((bottom - 1) / 2);
  const rightOfMe = bottom - 1 - leftOfMe;
  const row = [];
  for (let place = leftOfMe; place >= 1; place--) row.push(place);
  row.push(0);
  for (let i = 0; i < rightOfMe; i++) row.push(n - 1 - i);
  const left = leftOfMe + 1;
  return { bottom: row, left: [left],
    top: Array.from({ length: top }, (_, i) => left + 1 + i), right: [left + 1 + top] };
}

// Who may act now, by game (a set of seats): the seat whose move it is stands out.
function actingSeats(game, view) {
  if (!view) return [];
  const render = RENDERERS[game];
  if (render && render.toAct) return render.toAct(view);
  if (view.over || view.phase === "over") return [];
  if (game === "timo") return typeof view.turn === "number" ? [view.turn] : [];
  if (game === "twins") {
    if (view.phase === "buy") return view.buyer !== null && view.buyer !== undefined ? [view.buyer] : [];
    return view.committed.map((done, seat) => (!done && !view.out[seat] && !view.sitting_out[seat] ? seat : null)).filter((s) => s !== null);
  }
  if (game === "twinit") return view.phase === "play" && typeof view.turn === "number" ? [view.turn] : [];
  if (game === "twinz") {
    if (view.phase === "draw") return view.duo.slice(0, 1);
    if (view.phase === "clues") return view.duo.filter((seat, i) => !(view.clue_given || [])[i]);
    if (view.phase === "guesses") return Array.from({ length: view.players }, (_, s) => s).filter((s) => !view.duo.includes(s));
  }
  return [];
}

// The move's time limit, if the table has one, as [end (local ms), total ms] for a seat.
function seatDeadline(info, view, seat, acting, clock) {
  if (!view || view.over || view.phase === "over") return null;
  const local = (serverMs) => clock.received + (serverMs - (view.now_ms ?? serverMs));
  if (info.game === "twinz" && acting.includes(seat)) {
    if (view.phase === "clues" && (view.clue_due || view.countdown_ends)) {
      const end = view.countdown_ends || view.clue_due;
      return [local(end), (view.options.countdown_s || 5) * 1000];
    }
    if (view.phase === "guesses" && view.guess_due) return [local(view.guess_due), (view.options.guess_timeout_s || 30) * 1000];
  }
  if (info.game === "twinit" && Array.isArray(view.hands)) {
    // A hand on a card is lifted after hold_ms unless its pair completes.
    const held = view.hands.filter((hand) => hand.seat === seat && hand.lift_ms);
    if (held.length) return [local(Math.min(...held.map((hand) => hand.lift_ms))), view.options.hold_ms || 1500];
  }
  if (info.turn_limit_s && acting.includes(seat) && info.seats[seat]?.kind === "human") {
    return [clock.lastMove + info.turn_limit_s * 1000, info.turn_limit_s * 1000];
  }
  return null;
}

// -- sound: short blips made with Web Audio, only after a gesture, muted on request -------
const sound = {
  context: null,
  muted: localStorage.getItem("tt.mute") === "1",
  unlock() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!sound.context) sound.context = new Context();
    else if (sound.context.state === "suspended") sound.context.resume();
  },
  // Each effect: notes as [frequency Hz, start s, length s, wave].
  effects: {
    turn: [[660, 0, 0.09, "sine"], [880, 0.1, 0.14, "sine"]],
    card: [[420, 0, 0.05, "triangle"], [300, 0.03, 0.05, "triangle"]],
    take: [[523, 0, 0.08, "square"], [659, 0.07, 0.08, "square"], [784, 0.14, 0.12, "square"]],
    reveal: [[392, 0, 0.12, "sine"], [587, 0.08, 0.2, "sine"]],
    end: [[523, 0, 0.12, "triangle"], [659, 0.13, 0.12, "triangle"], [784, 0.26, 0.12, "triangle"], [1047, 0.39, 0.35, "triangle"]],
    error: [[200, 0, 0.12, "sawtooth"], [150, 0.1, 0.16, "sawtooth"]],
  },
  play(name) {
    const context = sound.context;
    if (sound.muted || !context || context.state !== "running") return;
    const now = context.currentTime;
    for (const [frequency, start, length, wave] of sound.effects[name] || []) {
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
    (window.ttSounds = window.ttSounds || []).push(name);
  },
};
// Browsers allow audio only after a person acts on the page: start it then, never before.
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, sound.unlock, { capture: true });

const SOUND_OF = { played: "card", flipped: "card", committed: "card", bought: "card", clue_given: "card",
  taken: "take", caught: "take", received: "take", revealed: "reveal", clues_revealed: "reveal",
  round_over: "reveal", error: "error", game_over: "end" };

function muteButton() {
  const button = el("button", { id: "mute", class: "mute", type: "button", "aria-pressed": String(sound.muted),
    title: t(sound.muted ? "sound.unmute" : "sound.mute") });
  const draw = () => {
    // A speaker, crossed out when muted (drawn here: no emoji font is needed).
    button.innerHTML = `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>${sound.muted
      ? '<path d="M17 9l5 6M22 9l-5 6"/>' : '<path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12"/>'}</svg>`;
    button.setAttribute("aria-pressed", String(sound.muted));
    button.setAttribute("aria-label", t(sound.muted ? "sound.unmute" : "sound.mute"));
    button.title = t(sound.muted ? "sound.unmute" : "sound.mute");
  };
  button.addEventListener("click", () => {
    sound.muted = !sound.muted;
    localStorage.setItem("tt.mute", sound.muted ? "1" : "0");
    draw();
  });
  draw();
  return button;
}

function confetti() {
  // A short burst of CSS confetti (none at all under prefers-reduced-motion).
  if (reducedMotion()) return "";
  return el("div", { class: "confetti", "aria-hidden": "true" }, Array.from({ length: 36 }, (_, i) => el("i", {
    style: `--x:${(i * 37) % 100}%;--d:${(i % 9) * 0.09}s;--r:${(i * 53) % 360}deg;--c:${SEAT_COLOURS[i % SEAT_COLOURS.length]}` })));
}

async function tablePage(tableId) {
  let info = await tableGet(tableId);
  await games();
  const mine = tokens()[tableId];
  const render = RENDERERS[info.game];
  const gameAssets = await assets(info.game);
  // Focusable: on a phone the seats are a strip that scrolls sideways (by keyboard too).
  // The seats are a list; the felt between them is not one of its items.
  const seatsBox = el("div", { class: "seats ring", id: "seats", role: "group", "aria-label": t("table.seats"), tabindex: 0 });
  const board = el("div", { id: "board" });
  // The table between the seats. On a wide screen it holds what the game lays on the
  // table (the part of the board marked data-felt: Timo's piles, Twins' picks), so the
  // seats sit around the play; otherwise it only says whose turn it is.
  const felt = el("div", { class: "felt" });
  const feltLine = el("span", { class: "felt-line", id: "felt-turn" });
  // Both stay in place from frame to frame (a focused pile on the felt keeps its focus).
  const seatList = el("div", { class: "ring-seats", role: "list" });
  seatsBox.append(seatList, felt);
  // On a phone the seats are a sideways strip: it fades out at an edge with more seats
  // beyond it, so a seat cut there reads as "scroll for more", not as a broken layout.
  // (It measures only on a phone: a desktop frame must not force a layout.)
  const markStripEdges = () => {
    const more = phoneWidth.matches && seatsBox.scrollWidth > seatsBox.clientWidth + 4;
    seatsBox.classList.toggle("more-left", more && seatsBox.scrollLeft > 4);
    seatsBox.classList.toggle("more-right",
      more && seatsBox.scrollLeft + seatsBox.clientWidth < seatsBox.scrollWidth - 4);
  };
  seatsBox.addEventListener("scroll", markStripEdges, { passive: true });
  const log = el("ol", { class: "log", id: "log", "aria-live": "polite", reversed: true });
  const flash = el("p", { class: "tw-flash", role: "alert", id: "flash" });
  const waiting = el("section", { class: "panel", id: "waiting" });
  const results = el("section", { class: "panel results", id: "results", hidden: true });
  const summary = el("section", { class: "panel round-summary", id: "round-summary", hidden: true });
  let view = null;
  let version = 0;
  let socket = null;
  let closed = false;
  let retry = 500;
  // With several workers the server may send this page to its table's worker (moved);
  // when that address cannot be reached, the shared one serves the table through it.
  let followRedirects = true;
  let redirectsInARow = 0;
  let sent = 0;
  let acting = [];
  let celebrated = false;
  let lastActor = null;  // the seat that made the latest move: it stays highlighted
  let timoRound = 0;
  const clock = { received: Date.now(), lastMove: Date.now() };
  const cards = new Map();  // Timo cards seen so far by id, to name a card someone plays
  const rounds = { timo: null, twins: null, twinsDone: null, timoWins: [] };
  const local = {};  // a renderer's own UI state (a pending pick, a chosen colour...)

  function names() { return info.seats.map(seatName); }
  const me = () => (mine ? mine.seat : null);

  const who = (seatIndex) => seatChip(info.seats, seatIndex);

  function drawSeats() {
    acting = actingSeats(info.game, view);
    const n = info.seats.length;
    const offset = me() ?? 0;  // the viewer sits at the bottom of the table
    const finished = info.status === "finished";
    seatsBox.style.setProperty("--n", n);
    const boxes = info.seats.map((seat, index) => {
        const place = (index - offset + n) % n;
        const turn = !finished && acting.includes(index);
        const deadline = turn || info.game === "twinit" ? seatDeadline(info, view, index, acting, clock) : null;
        const initial = (seat.display_name || "?").trim().charAt(0).toUpperCase() || "?";
        const badges = [];
        if (seat.kind === "human" && !seat.connected && info.status !== "finished") badges.push(el("span", { class: "badge away" }, t("table.away")));
        if (seat.stand_in) badges.push(el("span", { class: "badge stand-in" }, t("table.stand_in")));
        if (seat.reserved) badges.push(el("span", { class: "badge invited" }, t("table.invited")));
        if (turn) badges.push(el("span", { class: "badge turn-badge" }, mine && mine.seat === index ? t("table.your_move") : t("table.to_move")));
        const classes = ["seat", turn ? "turn" : "", seat.kind === "bot" ? "bot" : "", seat.kind === "empty" ? "empty" : "",
          mine && mine.seat === index ? "me" : "", seat.kind === "human" && !seat.connected ? "is-away" : "",
          index === lastActor ? "acted" : ""].filter(Boolean).join(" ");
        return el("div", { class: classes, role: "listitem", "data-seat": index,
          // On a phone the rows fold into one strip in seat order, starting with yours.
          style: `order:${place};--seat:${seatColour(index)}`,
          "aria-current": turn ? "true" : null },
        el("div", { class: "seat-head" },
          el("span", { class: `avatar${deadline ? " timed" : ""}`, "aria-hidden": "true",
            "data-end": deadline ? deadline[0] : null, "data-total": deadline ? deadline[1] : null }, el("span", {}, initial)),
          el("span", { class: "seat-name" },
            el("strong", {}, seat.kind === "bot" && seat.display_name ? seat.display_name : seatName(seat)),
            seat.kind === "bot" ? el("small", { class: "level" }, ` · ${t(`bot.${seat.bot}`)}`) : "",
            mine && mine.seat === index ? ` (${t("table.you")})` : "")),
        el("div", { class: "badges" }, badges),
        // What the others can see of this seat (a fan of card backs, chips, a pile...).
        view && render.seat ? el("div", { class: "seat-game" }, render.seat(view, index, ctx)) : "");
      });
    const layout = tableLayout(n);
    const byPlace = (place) => boxes[(place + offset) % n];
    seatList.replaceChildren(
      el("div", { class: "ring-row ring-top" }, layout.top.map(byPlace)),
      el("div", { class: "ring-side ring-left" }, layout.left.map(byPlace)),
      el("div", { class: "ring-side ring-right" }, layout.right.map(byPlace)),
      el("div", { class: "ring-row ring-bottom" }, layout.bottom.map(byPlace)));
    drawFelt();
    tickSeats();
    // In the phone's strip of seats, keep the seat whose move it is in sight.
    // (Only there: measuring forces a layout, which costs a desktop frame several ms.)
    const turnSeat = phoneWidth.matches ? seatsBox.querySelector(".seat.turn") : null;
    if (turnSeat && seatsBox.scrollWidth > seatsBox.clientWidth + 4) {
      const left = turnSeat.offsetLeft - seatsBox.offsetLeft;
      if (left < seatsBox.scrollLeft || left + turnSeat.offsetWidth > seatsBox.scrollLeft + seatsBox.clientWidth) {
        seatsBox.scrollLeft = Math.max(0, left - 8);
      }
    }
    markStripEdges();
  }

  function drawFelt() {
    const centre = phoneWidth.matches ? null
      : felt.querySelector(":scope > [data-felt]") || board.querySelector("[data-felt]");
    feltLine.textContent = turnLine();
    if (centre) {
      if (centre.parentNode !== felt) felt.replaceChildren(centre);
    } else if (feltLine.parentNode !== felt) {
      felt.replaceChildren(feltLine);
    }
    felt.classList.toggle("holds", Boolean(centre));
    // The turn line repeats what the seats say (hidden from screen readers); the game's
    // centre is the board itself.
    if (centre) felt.removeAttribute("aria-hidden"); else felt.setAttribute("aria-hidden", "true");
  }

  function turnLine() {
    if (info.status === "finished") return t("table.game_over");
    if (info.status === "open") return t("table.waiting");
    if (!acting.length) return "";
    if (acting.includes(me()) && acting.length === 1) return t("table.your_turn");
    if (acting.length === 1) return t("table.turn_of", { name: names()[acting[0]] });
    return acting.includes(me()) ? t("table.your_turn") : t("table.many_to_move", { n: acting.length });
  }

  function tickSeats() {
    const now = Date.now();
    for (const avatar of seatsBox.querySelectorAll(".avatar[data-end]")) {
      const total = Number(avatar.dataset.total);
      const left = Math.max(0, Math.min(1, (Number(avatar.dataset.end) - now) / total));
      avatar.style.setProperty("--left", left.toFixed(3));
      avatar.classList.toggle("hurry", left < 0.25);
    }
  }

  function drawWaiting() {
    if (info.status !== "open") { waiting.hidden = true; return; }
    waiting.hidden = false;
    const invite = `${location.origin}/#/join/${tableId}${inviteKey(tableId) ? `.${inviteKey(tableId)}` : ""}`;
    const isCreator = mine && mine.seat === (info.creator_seat ?? 0);
    const full = info.seats.every((s) => s.kind !== "empty");
    const game = gamesCache && gamesCache.find((g) => g.id === info.game);
    const seatControls = isCreator && game ? el("div", { id: "seat-controls" }, info.seats.map((seat, number) => {
      if (number === mine.seat) return "";
      let openLabel = t("lobby.seat_open");
      if (seat.kind === "human") openLabel = t("table.kick", { name: seat.display_name });
      else if (seat.reserved) openLabel = t("table.kept_for", { name: seat.display_name });
      return el("label", { class: "field" }, t("lobby.seat", { n: number + 1 }), " ",
        el("select", { "data-seat-control": number, onchange: async (event) => {
          try {
            if (event.target.value === "") await api("DELETE", `/api/tables/${tableId}/seats/${number}`, null, mine.token);
            else await api("PUT", `/api/tables/${tableId}/seats/${number}/bot`, { bot: event.target.value }, mine.token);
          } catch (error) { flash.textContent = errorText(error); }
        } },
          el("option", { value: "", selected: seat.kind !== "bot" }, openLabel),
          game.bots.map((bot) => el("option", { value: bot, selected: seat.bot === bot }, t("lobby.bot", { level: t(`bot.${bot}`) })))));
    })) : "";
    const rematchNote = info.rematch_of ? el("p", { class: "rematch-note" }, t("table.rematch_note")) : "";
    waiting.replaceChildren(
      el("h2", {}, t("table.waiting")),
      rematchNote,
      seatControls,
      el("p", {}, t("table.invite"), " ", el("input", { readonly: true, value: invite, size: 40, id: "invite", "aria-label": t("table.invite") })),
      isCreator ? el("button", { class: "primary", id: "start", disabled: !full, onclick: async () => {
        try { await api("POST", `/api/tables/${tableId}/start`, null, mine.token); } catch (error) { flash.textContent = errorText(error); }
      } }, t("table.start")) : el("p", {}, t("table.wait_for_start")),
      !mine ? el("button", { onclick: () => { location.hash = `#/join/${tableId}`; } }, t("lobby.join")) : "");
  }

  // -- results: a round, a hand, the game ----------------------------------------------
  function summaryNodes() {
    const box = [];
    if (info.game === "timo" && rounds.timo) {
      const r = rounds.timo;
      box.push(el("h2", {}, t("table.round_result", { n: r.round })),
        el("p", {}, tNodes("event.timo.round_over", { name: who(r.winner), n: r.points })),
        el("table", { class: "grid" },
          el("tr", {}, el("th", {}, t("table.player")), el("th", {}, t("table.cards_left")), el("th", {}, t("table.total"))),
          r.hands.map((hand, seat) => el("tr", { class: seat === r.winner ? "won" : "" },
            el("td", {}, who(seat)), el("td", {}, seat === r.winner ? "—" : hand.length), el("td", {}, r.scores[seat])))));
    }
    const hand = rounds.twinsDone;  // a hand is summed up once it is over
    if (info.game === "twins" && hand) {
      const roundsSeen = [1, 2, 3, 4];
      box.push(el("h2", {}, t("table.hand_chips", { n: hand.hand })),
        el("table", { class: "grid chips-moved" },
          el("tr", {}, el("th", {}, t("table.player")), roundsSeen.map((r) => el("th", {}, t("table.round_n", { n: r }))), el("th", {}, t("table.net"))),
          info.seats.map((_, seat) => {
            const cells = roundsSeen.map((r) => hand.moves[`${r}:${seat}`] ?? 0);
            const net = cells.reduce((a, b) => a + b, 0);
            const signed = (v) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "·");
            return el("tr", {}, el("td", {}, who(seat)), cells.map((v) => el("td", { class: v > 0 ? "gain" : v < 0 ? "loss" : "" }, signed(v))),
              el("td", { class: net > 0 ? "gain" : net < 0 ? "loss" : "" }, signed(net)));
          })));
    }
    return box;
  }

  function drawSummary() {
    const box = summaryNodes();
    summary.hidden = !box.length || info.status === "finished";
    if (box.length) {
      summary.replaceChildren(...box, el("button", { class: "link close", "aria-label": t("table.close"), onclick: () => { rounds.timo = null; rounds.twins = null; rounds.twinsDone = null; summary.hidden = true; } }, "×"));
    }
  }

  function breakdown(seat) {
    const v = view || {};
    const score = info.result.scores[seat];
    if (info.game === "twinz" && v.points) return t("table.twinz_breakdown", { points: v.points[seat], n: v.cards[seat] });
    if (info.game === "twins") {
      const change = score - 12;  // everyone starts with 12 chips (RULES.md §2)
      return t("table.twins_breakdown", { n: change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0", chips: chips(score) });
    }
    if (info.game === "twinit") {
      if (v.mode === "coop") return pointsOf(score);
      if (v.mode === "timeattack") return pointsOf(score);
      return t("table.sets", { n: score });
    }
    // Timo: the points of each round this seat won, when this page saw them.
    const won = rounds.timoWins.filter(([winner]) => winner === seat).map(([, points]) => points);
    if (info.game === "timo" && won.length > 1 && won.reduce((a, b) => a + b, 0) === score) return `${won.join(" + ")} = ${pointsOf(score)}`;
    return pointsOf(score);
  }

  function drawResults() {
    if (info.status !== "finished" || !info.result) { results.hidden = true; return; }
    results.hidden = false;
    summary.hidden = true;
    const { scores, winners } = info.result;
    const v = view || {};
    const order = scores.map((score, seat) => seat).sort((a, b) => scores[b] - scores[a]
      || (info.game === "twinz" && v.cards ? v.cards[b] - v.cards[a] : 0) || a - b);
    const rankOf = (seat) => 1 + order.filter((other) => scores[other] > scores[seat]
      || (info.game === "twinz" && v.cards && scores[other] === scores[seat] && v.cards[other] > v.cards[seat])).length;
    const coop = info.game === "twinit" && v.mode === "coop";
    const iWon = mine && winners.includes(mine.seat);
    const headline = coop ? tNodes("table.coop_result", { n: scores[0] })
      : iWon && winners.length === 1 ? [t("table.you_win")]
        : tNodes("event.won", { names: listOf(winners.map(who)), n: winners.length });
    const tiedTop = order.filter((seat) => scores[seat] === scores[order[0]]);
    const tieOnCards = info.game === "twinz" && v.cards && tiedTop.length > 1 && new Set(tiedTop.map((seat) => v.cards[seat])).size > 1;
    const mineRematch = info.rematch && tokens()[info.rematch];
    let again;
    if (mine) {
      again = el("button", { class: "primary", id: "play-again", onclick: async () => {
        if (mineRematch) { location.hash = `#/table/${info.rematch}`; return; }
        try {
          const joined = await api("POST", `/api/tables/${tableId}/rematch`, null, mine.token);
          saveToken(joined.table.id, joined.token, joined.seat);
          if (inviteKey(tableId)) saveKey(joined.table.id, inviteKey(tableId));  // a private rematch keeps its key
          location.hash = `#/table/${joined.table.id}`;
        } catch (error) { flash.textContent = errorText(error); }
      } }, info.rematch && !mineRematch ? t("table.join_rematch") : t("table.play_again"));
    } else if (info.rematch) {
      again = el("a", { class: "button", id: "play-again", href: `#/table/${info.rematch}` }, t("table.watch_rematch"));
    }
    results.replaceChildren(
      celebrated ? "" : confetti(),
      el("h2", {}, t("table.results")),
      el("p", { class: "headline" }, headline),
      coop && v.level ? el("p", { class: "level-reached", id: "result-level" }, t("table.level_reached", { level: t(`twinit.level.${v.level}`) })) : "",
      info.rematch && !mineRematch && mine ? el("p", { class: "rematch-ready", id: "rematch-ready" }, t("table.rematch_ready")) : "",
      el("table", { class: "grid ranking" },
        el("tr", {}, el("th", {}, "#"), el("th", {}, t("table.player")), el("th", {}, t("table.score")), el("th", {}, t("table.detail")), el("th", {}, "")),
        order.map((seat) => el("tr", { class: winners.includes(seat) ? "won" : "" },
          el("td", {}, rankOf(seat)), el("td", {}, el("span", { class: "who", style: `--seat:${seatColour(seat)}` }, names()[seat]),
            mine && mine.seat === seat ? ` (${t("table.you")})` : ""),
          el("td", {}, scores[seat]), el("td", {}, breakdown(seat)),
          el("td", { class: "winner-mark" }, winners.includes(seat) && !coop ? ["★ ", el("span", {}, t("table.winner"))] : "")))),
      tieOnCards ? el("p", { class: "note" }, t("table.tie_on_cards")) : "",
      // The last round (Timo) or hand (Twins) this page saw, with what it moved.
      el("div", { class: "last-round" }, summaryNodes()),
      el("div", { class: "row" },
        again || "",
        el("a", { href: `#/replay/${tableId}`, id: "replay-link", class: "button" }, t("table.replay")),
        el("a", { href: "#/" }, t("table.back"))));
    if (!celebrated) { celebrated = true; sound.play("end"); }
  }

  const ctx = {
    t, el, local, assets: gameAssets,
    get me() { return mine ? mine.seat : null; },
    get names() { return names(); },
    act(kind, payload = {}) {
      if (!socket || socket.readyState !== WebSocket.OPEN) return;
      const message = { type: "action", id: `a${Date.now().toString(36)}${++sent}`, kind, payload };
      // Every move names the state it was made against, except Twin It's touches, which
      // race by nature and name the picture they expect instead (docs/protocol.md).
      if (!(info.game === "twinit" && (kind === "touch" || kind === "turn_over"))) message.version = version;
      socket.send(JSON.stringify(message));
    },
    flash(text) { flash.textContent = text; },
    redraw() { drawBoard(); },
  };

  function drawBoard() {
    if (!view) return;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    // User timings (tt:render, tt:seats, tt:log) show where a frame's time goes
    // (bench/web_smoothness.py reports them).
    const started = performance.now();
    felt.querySelector(":scope > [data-felt]")?.remove();  // the last frame's centre
    board.replaceChildren(render(view, ctx));
    const drawn = performance.now();
    drawSeats();  // moves the new centre onto the felt, so the focus comes back after it
    if (focused) {
      const again = (felt.querySelector(`[data-key="${CSS.escape(focused)}"]`)
        || board.querySelector(`[data-key="${CSS.escape(focused)}"]`));
      if (again) again.focus();
    }
    performance.measure("tt:render", { start: started, end: drawn });
    performance.measure("tt:seats", { start: drawn, end: performance.now() });
  }

  function remember(frameView) {
    if (info.game !== "timo" || !frameView) return;
    timoRound = frameView.round;
    for (const card of [...(frameView.discard || []), ...(frameView.hand || []), frameView.top, frameView.drawn]) {
      if (card && card.id !== undefined) cards.set(card.id, card);
    }
  }

  function keepScore(event) {
    const data = event.data || {};
    if (info.game === "timo" && event.kind === "round_over") {
      rounds.timoWins.push([data.winner, data.points]);
      rounds.shownFor = 0;
      rounds.timo = { round: timoRound, winner: data.winner, points: data.points, scores: data.scores, hands: data.hands };
    }
    if (info.game === "twins") {
      if (event.kind === "hand_started" || event.kind === "game_over") {
        if (rounds.twins && Object.keys(rounds.twins.moves).length) { rounds.twinsDone = rounds.twins; rounds.shownFor = 0; }
        rounds.twins = { hand: data.hand, round: 1, moves: {} };
      }
      rounds.twins = rounds.twins || { hand: (view && view.hand_no) || 1, round: 1, moves: {} };
      if (event.kind === "revealed") rounds.twins.round = data.round;
      const sign = event.kind === "paid" ? -1 : event.kind === "received" ? 1 : 0;
      if (sign) {
        const key = `${rounds.twins.round}:${data.seat}`;
        rounds.twins.moves[key] = (rounds.twins.moves[key] || 0) + sign * data.amount;
      }
    }
  }

  function describe(events, seat, frameView) {
    const started = performance.now();
    try { narrateFrame(events, seat, frameView); } finally { performance.measure("tt:log", { start: started, end: performance.now() }); }
  }

  function narrateFrame(events, seat, frameView) {
    const lines = [];
    for (const event of events) keepScore(event);
    const card = (id) => (frameView.discard || []).find((c) => c.id === id) || cards.get(id);
    for (const [event, line] of describeEvents(info.game, events, seat, { render, ctx, who, view: frameView, card })) {
      lines.push(line);
      if (SOUND_OF[event.kind]) sound.play(SOUND_OF[event.kind]);
      if (["taken", "tie", "error", "game_over", "round_over", "revealed", "caught", "clues_revealed", "bankrupt"].includes(event.kind)) {
        flash.replaceChildren(...[line].flat().map((part) => (part instanceof Node ? part.cloneNode(true) : part)));
        if (!reducedMotion() && flash.animate) flash.animate([{ backgroundColor: "#ffe27a" }, { backgroundColor: "transparent" }], { duration: 1200, easing: "ease-out" });
      }
    }
    remember(frameView);
    // A round's or a hand's summary stays for a few moves of the next one (or until closed).
    rounds.shownFor = (rounds.shownFor ?? 0) + 1;
    if (rounds.shownFor > 12 && info.status !== "finished") { rounds.timo = null; rounds.twinsDone = null; }
    drawSummary();
    if (!lines.length) return;
    log.querySelectorAll(".latest").forEach((item) => item.classList.remove("latest"));
    for (const line of lines) log.prepend(el("li", { class: "latest" }, [line].flat()));
    while (log.childNodes.length > 60) log.lastChild.remove();
  }

  function pulse(seat) {
    // The seat that just acted pulses once (a highlight that stays under reduced motion).
    const box = seatsBox.querySelector(`.seat[data-seat="${seat}"]`);
    if (!box) return;
    if (!reducedMotion() && box.animate) {
      box.animate([{ scale: "1" }, { scale: "1.08" }, { scale: "1" }], { duration: 420, easing: "ease-out" });
    }
  }

  function connect(sentTo = null) {
    const shared = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${tableId}`;
    socket = new WebSocket(sentTo || shared);
    let movedTo = null;
    let welcomed = false;
    socket.onopen = () => {
      retry = 500;
      status("");
      socket.send(JSON.stringify({ type: "hello", protocol: 1, token: mine ? mine.token : null, key: inviteKey(tableId), redirects: followRedirects }));
    };
    socket.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "moved") {
        movedTo = frame.url;  // the server closes this socket next
      } else if (frame.type === "snapshot" || frame.type === "event") {
        const wasMine = acting.includes(me());
        view = frame.view;
        version = frame.version;
        clock.received = Date.now();
        if (frame.type === "event") {
          clock.lastMove = clock.received;  // the server restarts a move's time limit on every move
          describe(frame.events, frame.seat, frame.view);
        } else remember(frame.view);
        if (frame.type === "event" && frame.seat >= 0) lastActor = frame.seat;
        drawBoard();
        if (frame.type === "event" && frame.seat >= 0) pulse(frame.seat);
        if (!wasMine && me() !== null && acting.includes(me()) && frame.type === "event") sound.play("turn");
      } else if (frame.type === "table") {
        const hadRematch = info.rematch;
        info = frame.table;
        drawSeats(); drawWaiting(); drawResults();
        if (info.rematch && !hadRematch && !tokens()[info.rematch]) flash.textContent = t("table.rematch_ready");
      } else if (frame.type === "error") {
        flash.textContent = errorText(frame);
      } else if (frame.type === "welcome") {
        welcomed = true;
        redirectsInARow = 0;
        info = frame.table;
        drawSeats(); drawWaiting(); drawResults();
      }
    };
    socket.onclose = () => {
      if (closed) return;
      if (movedTo && redirectsInARow < 3) {
        redirectsInARow += 1;
        connect(movedTo);
        return;
      }
      if (movedTo || (sentTo && !welcomed)) followRedirects = false;
      // A finished game sends nothing more, and its table leaves the server's memory.
      if (info.status === "finished") return;
      status(t("table.reconnecting"));
      setTimeout(() => { if (!closed) connect(); }, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  const head = el("div", { class: "table-tools" }, muteButton(),
    el("a", { href: `#/rules/${info.game}`, title: t("table.rules") }, t("nav.rules")));
  page(`${t(`game.${info.game}`)} · ${tableName(info)}`, head, waiting,
    el("div", { class: `table-shell game-${info.game}` },
      el("div", { class: "table-main" }, results, seatsBox, summary, flash, board),
      // Focusable: the log scrolls, and a keyboard must be able to scroll it.
      el("aside", { class: "table-side panel", "aria-label": t("table.log"), tabindex: 0 }, el("h2", {}, t("table.log")), log)));
  drawSeats(); drawWaiting(); drawResults();
  celebrated = info.status === "finished";  // a finished table opened later: no confetti, no fanfare
  connect();
  const keys = (event) => { if (view && render.key) render.key(event, view, ctx); };
  document.addEventListener("keydown", keys);
  const ticker = setInterval(() => {
    if (view && render.tick) render.tick(board, view, ctx);
    tickSeats();
  }, 250);
  // Crossing the phone width moves the game's centre between the felt and the board.
  const refold = () => { drawBoard(); drawSeats(); };
  phoneWidth.addEventListener("change", refold);
  leaving = () => {
    closed = true; clearInterval(ticker); document.removeEventListener("keydown", keys);
    phoneWidth.removeEventListener("change", refold);
    if (socket) socket.close();
  };
}

// -- the replay ------------------------------------------------------------------------------
// A finished game move by move: the board as spectators saw it, every hand (nothing is
// secret once the game is over), the narrated log up to the move, autoplay at a chosen
// speed, and the move in the address (#/replay/<id>/<move>) to share it.
const REPLAY_SPEEDS = [0.5, 1, 2, 4];
const REPLAY_MOVE_MS = 1200;  // a move's time on screen at 1×
const REPLAY_LOG_LINES = 200;
const copyLine = (line) => [line].flat().map((part) => (part instanceof Node ? part.cloneNode(true) : part));

async function replayPage(tableArg, moveArg) {
  // A private table's replay is shared as "#/replay/<table>.<key>/<move>".
  const [tableId, given] = String(tableArg || "").split(".");
  if (given) saveKey(tableId, given);
  const info = await tableGet(tableId);
  const steps = await tableGet(tableId, "/replay/views?every_seat=true");
  const shared = inviteKey(tableId) ? `${tableId}.${inviteKey(tableId)}` : tableId;
  const render = RENDERERS[info.game];
  const gameAssets = await assets(info.game);
  const faces = await import(`./games/${info.game}.js`);  // the game's own card faces
  const last = steps.length - 1;
  const who = (seat) => seatChip(info.seats, seat);
  // A spectator's board; `replay` tells a renderer that nobody plays here (Twin It draws
  // its cards as pictures, not as buttons that cannot be pressed).
  const ctx = { t, el, local: {}, assets: gameAssets, me: null, replay: true, names: info.seats.map(seatName),
    act() {}, flash() {}, redraw() {} };
  const cards = new Map();  // every Timo card of the game, to name the one played
  if (info.game === "timo") {
    for (const step of steps) {
      for (const view of [step.view, ...(step.views || [])]) {
        for (const card of [...(view.discard || []), ...(view.hand || []), view.top, view.drawn]) {
          if (card && card.id !== undefined) cards.set(card.id, card);
        }
      }
    }
  }
  const tell = (index, withCtx) => (index === 0 ? [] : describeEvents(info.game, steps[index].events, steps[index].action.seat,
    { render, ctx: withCtx, who, view: steps[index].view, card: (id) => cards.get(id), replay: true }).map(([, line]) => line));
  // Every move's lines, told once for the log (with a renderer's notes kept apart from the board's).
  const told = steps.map((_, index) => tell(index, { ...ctx, local: {} }));

  const board = el("div", { id: "board", class: "replay-board" });
  const caption = el("p", { id: "replay-step", class: "replay-step", "aria-live": "polite" });
  const slider = el("input", { type: "range", min: 0, max: last, value: 0, id: "seek", "aria-label": t("replay.seek") });
  const hands = el("section", { class: "panel replay-hands", id: "replay-hands", "aria-labelledby": "replay-hands-title" });
  const log = el("ol", { class: "log replay-log", id: "replay-log" });
  const share = el("input", { readonly: true, id: "replay-share", size: 40, onfocus: (event) => event.target.select() });
  const playButton = el("button", { id: "play", type: "button", class: "primary", "aria-pressed": "false" }, t("replay.play"));
  const number = new Intl.NumberFormat(lang);
  let speed = Number(localStorage.getItem("tt.replay.speed"));
  if (!REPLAY_SPEEDS.includes(speed)) speed = 1;
  const speedSelect = el("select", { id: "speed" }, REPLAY_SPEEDS.map((n) => el("option", { value: n, selected: n === speed },
    t("replay.times", { n: number.format(n) }))));
  let current = 0;
  let timer = null;

  function handsOf(step) {
    const rows = (step.views || []).map((view, seat) => {
      let shown = null;
      if (Array.isArray(view.hand) && faces.cardFace) {
        const picked = view.my_pick || [];  // Twins: the pair chosen and not yet shown
        const pickedIds = new Set(picked.map((card) => card.id));
        const held = view.hand.filter((card) => !pickedIds.has(card.id));
        shown = el("div", { class: "replay-cards" },
          held.length ? held.map((card) => faces.cardFace(ctx, card)) : el("span", { class: "replay-none" }, t("replay.no_cards")),
          picked.length ? el("span", { class: "replay-picked" }, el("span", {}, t("replay.picked")), picked.map((card) => faces.cardFace(ctx, card))) : "");
      } else if (info.game === "twinz") {
        const known = [view.mystery ? t("replay.word", { word: view.mystery.toUpperCase() }) : "",
          view.my_clue ? t("replay.clue", { word: view.my_clue.toUpperCase() }) : ""].filter(Boolean);
        shown = el("span", { class: known.length ? "" : "replay-none" }, known.length ? known.join(" · ") : t("replay.no_word"));
      }
      return shown && el("li", { class: "replay-hand", "data-seat": seat }, el("span", { class: "replay-who" }, who(seat)), shown);
    }).filter(Boolean);
    return [el("h2", { id: "replay-hands-title" }, t("replay.hands")),
      rows.length ? el("ul", { class: "replay-hand-list" }, rows) : el("p", { class: "replay-none" }, t("replay.all_open"))];
  }

  function drawLog() {
    const items = [];
    for (let index = current; index >= 1 && items.length < REPLAY_LOG_LINES; index--) {
      for (const line of [...told[index]].reverse()) {
        items.push(el("li", { class: index === current ? "latest" : "", "data-move": index },
          el("button", { type: "button", class: "link replay-jump", "aria-label": t("replay.go_to", { n: index }),
            onclick: () => show(index) }, number.format(index)), el("span", {}, copyLine(line))));
      }
    }
    log.replaceChildren(...items);
  }

  function show(index) {
    current = Math.max(0, Math.min(last, Number(index) || 0));
    const step = steps[current];
    slider.value = current;
    const lines = tell(current, ctx);  // the board's renderer keeps its own notes (Twinz penalties)
    let action = t("replay.start");
    if (step.action) {
      const text = lines.map((line) => el("span", {}, copyLine(line)).textContent).join(" · ");
      const actor = step.action.seat >= 0 ? ctx.names[step.action.seat] : t("replay.clock");
      action = text || t("replay.did", { name: actor, action: t(`replay.action.${step.action.kind}`) });
    }
    caption.textContent = t("replay.step", { n: current, total: last, action });
    board.replaceChildren(render(step.view, ctx));
    hands.replaceChildren(...handsOf(step));
    drawLog();
    // The address names the move, to share it; replaceState fires no hashchange.
    history.replaceState(null, "", `#/replay/${tableId}/${current}`);
    share.value = `${location.origin}/#/replay/${shared}/${current}`;
  }

  function play(on) {
    clearTimeout(timer);
    timer = null;
    playButton.textContent = t(on ? "replay.pause" : "replay.play");
    playButton.setAttribute("aria-pressed", String(on));
    // Every move read aloud at 4× would be noise: the caption speaks when paused.
    caption.setAttribute("aria-live", on ? "off" : "polite");
    if (on) timer = setTimeout(advance, REPLAY_MOVE_MS / speed);
  }
  function advance() {
    show(current + 1);
    play(current < last);
  }

  slider.addEventListener("input", () => show(slider.value));
  playButton.addEventListener("click", () => {
    if (timer !== null) { play(false); return; }
    if (current >= last) show(0);
    play(true);
  });
  speedSelect.addEventListener("change", () => {
    speed = Number(speedSelect.value);
    localStorage.setItem("tt.replay.speed", String(speed));
    if (timer !== null) play(true);
  });
  page(t("replay.title", { game: t(`game.${info.game}`) }),
    el("p", { class: "replay-seats" }, info.seats.map((seat, index) => who(index)).flatMap((node, i) => (i ? [" ", node] : [node]))),
    el("div", { class: "row replay-controls", role: "group", "aria-label": t("replay.controls") },
      el("button", { id: "first", type: "button", onclick: () => show(0) }, t("replay.first")),
      el("button", { id: "prev", type: "button", onclick: () => show(current - 1) }, t("replay.back")),
      slider,
      el("button", { id: "next", type: "button", onclick: () => show(current + 1) }, t("replay.next")),
      el("button", { id: "last", type: "button", onclick: () => show(last) }, t("replay.last")),
      playButton,
      el("label", { class: "replay-speed" }, t("replay.speed"), " ", speedSelect)),
    caption,
    el("div", { class: "replay-shell" },
      el("div", { class: "replay-main" }, board, hands),
      el("section", { class: "replay-side panel", "aria-labelledby": "replay-log-title" },
        el("h2", { id: "replay-log-title" }, t("replay.log")), log)),
    el("p", { class: "row replay-links" },
      el("label", { class: "replay-share" }, t("replay.share"), " ", share),
      el("a", { href: `#/table/${tableId}` }, t("replay.results"))));
  show(moveArg);
  leaving = () => clearTimeout(timer);
}

async function rulesPage(gameId) {
  const list = await games();
  if (!gameId || !list.some((g) => g.id === gameId)) {
    page(t("nav.rules"), el("ul", {}, list.map((g) => el("li", {}, el("a", { href: `#/rules/${g.id}` }, t(`game.${g.id}`))))));
    return;
  }
  // The server renders the page (server/rules_pages.py); card pictures arrive as empty
  // placeholders that the game's own card code fills.
  const rules = await api("GET", `/api/games/${gameId}/rules?lang=${encodeURIComponent(lang)}`);
  const body = el("div", { class: "rules", lang: rules.lang, html: rules.html });
  page(t(`game.${gameId}`), rules.lang === lang ? "" : el("p", {}, el("em", {}, t("rules.fallback"))),
    el("nav", { class: "rules-toc", "aria-label": t("rules.contents") },
      el("ol", {}, rules.sections.map((s) => el("li", {}, el("a", { href: `#rules-${s.id}`, onclick: (event) => {
        event.preventDefault();
        document.getElementById(`rules-${s.id}`)?.scrollIntoView();
      } }, s.title))))),
    body);
  await drawRulesCards(body);
}

async function drawRulesCards(root) {
  const ctx = { t, el };
  for (const spot of root.querySelectorAll(".rules-card[data-game]")) {
    const game = spot.dataset.game;
    if (!(game in RENDERERS)) continue;
    const module = await import(`./games/${game}.js`);
    if (module.drawCard) spot.replaceChildren(module.drawCard(spot.dataset.card, ctx));
  }
}

// The leaderboard of one game: what the rating means, the best players, and this
// browser's own row and rank (its profile id is public; the server finds the row even
// outside the best ones).
async function leaderboardPage(gameId) {
  const list = await games();
  const chosen = list.some((g) => g.id === gameId) ? gameId : list[0].id;
  const playerId = localStorage.getItem("tt.player");
  const rows = await api("GET", `/api/leaderboard/${chosen}${playerId ? `?player=${encodeURIComponent(playerId)}` : ""}`);
  const game = t(`game.${chosen}`);
  const one = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const mine = rows.find((row) => row.player_id === playerId);
  const body = [];
  rows.forEach((row, index) => {
    // A rank past the rows above it: the rows between are left out ("…").
    if (index && row.rank > index + 1) body.push(el("tr", { class: "lb-gap" }, el("td", { colspan: 4 }, "…")));
    const me = row === mine;
    body.push(el("tr", { class: me ? "lb-me" : "", "aria-current": me ? "true" : null },
      el("td", {}, row.rank),
      el("td", {}, row.display_name, me ? ` (${t("table.you")})` : "",
        // Bots are not rated; a row that ever came from one would say so.
        row.bot ? el("span", { class: "badge lb-bot" }, t("leaderboard.bot")) : ""),
      el("td", {}, one.format(row.rating)), el("td", {}, row.games)));
  });
  page(t("leaderboard.title", { game }),
    el("nav", { class: "lb-games", "aria-label": t("leaderboard.choose") },
      list.map((g) => el("a", { href: `#/leaderboard/${g.id}`, class: g.id === chosen ? "lb-chosen" : "",
        "aria-current": g.id === chosen ? "page" : null }, t(`game.${g.id}`)))),
    el("p", { class: "lb-explain", id: "leaderboard-explain" }, t("leaderboard.explain")),
    el("p", { class: "lb-you", id: "leaderboard-you" }, mine
      ? t("leaderboard.you_are", { rank: mine.rank, rating: one.format(mine.rating), n: mine.games })
      : t("leaderboard.unrated", { game })),
    rows.length ? el("table", { class: "grid lb-table", id: "leaderboard" },
      el("caption", {}, game),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("leaderboard.rank")), el("th", { scope: "col" }, t("table.player")),
        el("th", { scope: "col" }, t("leaderboard.rating")), el("th", { scope: "col" }, t("leaderboard.games")))),
      el("tbody", {}, body))
      : el("p", {}, t("leaderboard.empty")));
}

// -- routing -------------------------------------------------------------------------------
async function route() {
  leaving();
  leaving = () => {};
  status("");
  const params = new URLSearchParams(location.search);
  if (params.get("table") && !location.hash) {  // the server's invite link; a private one carries its key
    location.hash = `#/join/${params.get("table")}${params.get("key") ? `.${params.get("key")}` : ""}`;
    return;
  }
  const [, name, arg, more] = (location.hash || "#/").split("/");
  try {
    if (name === "table") await tablePage(arg);
    else if (name === "join") await joinPage(arg);
    else if (name === "replay") await replayPage(arg, more);
    else if (name === "rules") await rulesPage(arg);
    else if (name === "leaderboard") await leaderboardPage(arg);
    else if (name === "profile") await profilePage(arg);
    else await lobbyPage();
  } catch (error) {
    page(t("error.title"), el("p", { class: "error" }, errorText(error)), el("a", { href: "#/" }, t("table.back")));
  }
}

document.getElementById("language").addEventListener("change", async (event) => {
  await loadLanguage(event.target.value);
  route();
});
window.addEventListener("hashchange", route);
loadLanguage(preferredLanguage()).then(route);
