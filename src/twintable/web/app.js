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
    throw error;
  }
  return data;
}

function errorText(error) {
  const key = `error.${error.code}`;
  const known = t(key);
  return known === key ? error.message : known;
}

function status(text) { document.getElementById("status").textContent = text || ""; }

const tokens = () => JSON.parse(localStorage.getItem("tt.tokens") || "{}");
function saveToken(tableId, token, seat) {
  const all = tokens();
  all[tableId] = { token, seat };
  localStorage.setItem("tt.tokens", JSON.stringify(all));
}

function playerId() {
  let id = localStorage.getItem("tt.player");
  if (!id) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("tt.player", id);
  }
  return id;
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

async function lobbyPage() {
  const list = await games();
  const nameInput = el("input", { id: "name", maxlength: 40, value: displayName(), autocomplete: "nickname",
    oninput: (e) => localStorage.setItem("tt.name", e.target.value.trim()) });
  const gameSelect = el("select", { id: "game" }, list.map((g) => el("option", { value: g.id }, t(`game.${g.id}`))));
  const form = el("div", { id: "create-options" });
  const tables = el("div", { id: "tables" });
  const message = el("p", { class: "error", role: "alert" });

  function drawForm() {
    const game = list.find((g) => g.id === gameSelect.value);
    const players = el("input", { type: "number", id: "players", min: game.min_players, max: game.max_players,
      value: Math.max(game.min_players, Math.min(game.id === "twinit" ? 4 : 3, game.max_players)) });
    const optionsBox = el("div", {});
    for (const option of game.options) optionsBox.append(optionField(game, option));
    const seatsBox = el("div", { id: "seats" });
    const defaultBot = game.default_bot;
    function drawSeats() {
      seatsBox.replaceChildren(el("p", {}, t("lobby.seat_you")));
      for (let seat = 1; seat < Number(players.value); seat++) {
        seatsBox.append(el("label", { class: "field" }, t("lobby.seat", { n: seat + 1 }), " ",
          el("select", { "data-seat": seat },
            el("option", { value: "" }, t("lobby.seat_open")),
            game.bots.map((bot) => el("option", { value: bot, selected: bot === defaultBot }, t("lobby.bot", { level: t(`bot.${bot}`) }))))));
      }
    }
    players.addEventListener("input", drawSeats);
    drawSeats();
    form.replaceChildren(
      el("label", { class: "field" }, t("lobby.players"), " ", players),
      el("fieldset", {}, el("legend", {}, t("lobby.options")), optionsBox),
      el("fieldset", {}, el("legend", {}, t("lobby.seats")), seatsBox),
      el("button", { class: "primary", id: "create", onclick: () => create(game, players, optionsBox, seatsBox) }, t("lobby.create")));
  }

  async function create(game, players, optionsBox, seatsBox) {
    message.textContent = "";
    const options = {};
    for (const input of optionsBox.querySelectorAll("[data-option]")) {
      const spec = game.options.find((o) => o.name === input.dataset.option);
      let value;
      if (spec.kind === "bool") value = input.checked;
      else if (spec.kind === "int") value = input.value === "" ? null : Number(input.value);
      else if (spec.kind === "int_list") value = input.value.split(",").map((s) => s.trim()).filter(Boolean).map(Number);
      else value = input.value;
      if (JSON.stringify(value) !== JSON.stringify(spec.default)) options[spec.name] = value;
    }
    const seats = [{ kind: "human" }];
    for (const select of seatsBox.querySelectorAll("[data-seat]")) {
      seats.push(select.value ? { kind: "bot", bot: select.value } : { kind: "human" });
    }
    try {
      const joined = await api("POST", "/api/tables", { game: game.id, players: Number(players.value), options,
        seats, display_name: displayName() || t("lobby.anonymous"), player_id: playerId() });
      saveToken(joined.table.id, joined.token, joined.seat);
      location.hash = `#/table/${joined.table.id}`;
    } catch (error) { message.textContent = errorText(error); }
  }

  async function drawTables() {
    const open = await api("GET", "/api/tables?status=open");
    const running = await api("GET", "/api/tables?status=running");
    const row = (table, action) => el("tr", {},
      el("td", {}, t(`game.${table.game}`)), el("td", {}, table.name),
      el("td", {}, table.seats.map((s) => s.display_name || (s.bot ? t(`bot.${s.bot}`) : "—")).join(", ")),
      el("td", {}, action));
    tables.replaceChildren(
      el("h2", {}, t("lobby.open_tables")),
      open.length ? el("table", { class: "grid" }, open.map((table) => row(table,
        el("button", { onclick: () => { location.hash = `#/join/${table.id}`; } }, t("lobby.join"))))) : el("p", {}, t("lobby.none")),
      el("h2", {}, t("lobby.running_tables")),
      running.length ? el("table", { class: "grid" }, running.map((table) => row(table,
        el("button", { onclick: () => { location.hash = `#/table/${table.id}`; } }, t("lobby.watch"))))) : el("p", {}, t("lobby.none")));
  }

  gameSelect.addEventListener("change", drawForm);
  page(t("nav.lobby"),
    el("section", { class: "panel" }, el("label", { class: "field" }, t("lobby.name"), " ", nameInput)),
    el("section", { class: "panel" }, el("h2", {}, t("lobby.new_table")),
      el("label", { class: "field" }, t("lobby.game"), " ", gameSelect), form, message),
    el("section", { class: "panel" }, tables));
  drawForm();
  drawTables().catch((error) => { tables.textContent = errorText(error); });
  const timer = setInterval(() => drawTables().catch(() => {}), 4000);
  leaving = () => clearInterval(timer);
}

function optionField(game, option) {
  const id = `opt-${option.name}`;
  const label = t(`option.${game.id}.${option.name}`);
  const help = t(`option.${game.id}.${option.name}.help`);
  let input;
  if (option.kind === "bool") {
    input = el("input", { type: "checkbox", id, "data-option": option.name, checked: option.default });
  } else if (option.kind === "choice") {
    input = el("select", { id, "data-option": option.name },
      option.choices.map((choice) => el("option", { value: choice, selected: choice === option.default }, t(`choice.${choice}`))));
  } else if (option.kind === "int_list") {
    input = el("input", { id, "data-option": option.name, value: (option.default || []).join(", "), inputmode: "numeric" });
  } else {
    input = el("input", { type: "number", id, "data-option": option.name, min: option.minimum, max: option.maximum,
      value: option.default ?? "", placeholder: t("lobby.default") });
  }
  return el("label", { class: "field", for: id }, label, " ", input, el("small", {}, help));
}

async function joinPage(tableId) {
  const info = await api("GET", `/api/tables/${tableId}`);
  const mine = tokens()[tableId];
  if (mine) { location.hash = `#/table/${tableId}`; return; }
  const name = el("input", { id: "join-name", maxlength: 40, value: displayName() });
  const message = el("p", { class: "error", role: "alert" });
  page(t("join.title", { game: t(`game.${info.game}`) }),
    el("section", { class: "panel" },
      el("p", {}, info.seats.map((s) => s.display_name || (s.bot ? t(`bot.${s.bot}`) : t("lobby.seat_open"))).join(" · ")),
      el("label", { class: "field" }, t("lobby.name"), " ", name),
      el("div", { class: "row" },
        el("button", { class: "primary", id: "join", onclick: async () => {
          localStorage.setItem("tt.name", name.value.trim());
          try {
            const joined = await api("POST", `/api/tables/${tableId}/join`, { display_name: name.value.trim() || t("lobby.anonymous"), player_id: playerId() });
            saveToken(tableId, joined.token, joined.seat);
            location.hash = `#/table/${tableId}`;
          } catch (error) { message.textContent = errorText(error); }
        } }, t("lobby.join")),
        el("button", { onclick: () => { location.hash = `#/table/${tableId}`; } }, t("lobby.watch"))),
      message));
}

function seatName(seat) {
  if (!seat) return "?";
  if (seat.kind === "bot") return t("lobby.bot", { level: t(`bot.${seat.bot}`) });
  return seat.display_name || t("lobby.seat_open");
}

async function tablePage(tableId) {
  let info = await api("GET", `/api/tables/${tableId}`);
  await games();
  const mine = tokens()[tableId];
  const render = RENDERERS[info.game];
  const gameAssets = await assets(info.game);
  const seatsBox = el("div", { class: "seats", "aria-label": t("table.seats") });
  const board = el("div", { id: "board" });
  const log = el("div", { class: "log", "aria-live": "polite" });
  const flash = el("p", { class: "tw-flash", role: "alert", id: "flash" });
  const waiting = el("section", { class: "panel", id: "waiting" });
  const results = el("section", { class: "panel", id: "results", hidden: true });
  let view = null;
  let version = 0;
  let socket = null;
  let closed = false;
  let retry = 500;
  let sent = 0;
  const local = {};  // a renderer's own UI state (a pending pick, a chosen colour...)

  function names() { return info.seats.map(seatName); }

  function drawSeats() {
    const turn = view && typeof view.turn === "number" ? view.turn : null;
    seatsBox.replaceChildren(...info.seats.map((seat, index) => el("div", {
      class: `seat${turn === index ? " turn" : ""}`, "data-seat": index },
      el("strong", {}, seatName(seat)), mine && mine.seat === index ? ` (${t("table.you")})` : "",
      seat.kind === "human" && !seat.connected ? el("span", { class: "away" }, ` · ${t("table.away")}`) : "",
      seat.stand_in ? el("span", { class: "away" }, ` · ${t("table.stand_in")}`) : "",
      // What the others can see of this seat (a fan of card backs, chips, a pile...).
      view && render.seat ? render.seat(view, index, ctx) : "")));
  }

  function drawWaiting() {
    if (info.status !== "open") { waiting.hidden = true; return; }
    waiting.hidden = false;
    const invite = `${location.origin}/#/join/${tableId}`;
    const isCreator = mine && mine.seat === 0;
    const full = info.seats.every((s) => s.kind !== "empty");
    const game = gamesCache && gamesCache.find((g) => g.id === info.game);
    const seatControls = isCreator && game ? el("div", { id: "seat-controls" }, info.seats.slice(1).map((seat, index) => {
      const number = index + 1;
      return el("label", { class: "field" }, t("lobby.seat", { n: number + 1 }), " ",
        el("select", { "data-seat-control": number, onchange: async (event) => {
          try {
            if (event.target.value === "") await api("DELETE", `/api/tables/${tableId}/seats/${number}`, null, mine.token);
            else await api("PUT", `/api/tables/${tableId}/seats/${number}/bot`, { bot: event.target.value }, mine.token);
          } catch (error) { flash.textContent = errorText(error); }
        } },
          el("option", { value: "", selected: seat.kind !== "bot" }, seat.kind === "human" ? t("table.kick", { name: seat.display_name }) : t("lobby.seat_open")),
          game.bots.map((bot) => el("option", { value: bot, selected: seat.bot === bot }, t("lobby.bot", { level: t(`bot.${bot}`) })))));
    })) : "";
    waiting.replaceChildren(
      el("h2", {}, t("table.waiting")),
      seatControls,
      el("p", {}, t("table.invite"), " ", el("input", { readonly: true, value: invite, size: 40, id: "invite", "aria-label": t("table.invite") })),
      isCreator ? el("button", { class: "primary", id: "start", disabled: !full, onclick: async () => {
        try { await api("POST", `/api/tables/${tableId}/start`, null, mine.token); } catch (error) { flash.textContent = errorText(error); }
      } }, t("table.start")) : el("p", {}, t("table.wait_for_start")),
      !mine ? el("button", { onclick: () => { location.hash = `#/join/${tableId}`; } }, t("lobby.join")) : "");
  }

  function drawResults() {
    if (info.status !== "finished" || !info.result) { results.hidden = true; return; }
    results.hidden = false;
    const { scores, winners } = info.result;
    results.replaceChildren(
      el("h2", {}, t("table.results")),
      el("table", { class: "grid" }, el("tr", {}, el("th", {}, t("table.player")), el("th", {}, t("table.score")), el("th", {}, "")),
        scores.map((score, seat) => el("tr", {}, el("td", {}, names()[seat]), el("td", {}, score),
          el("td", {}, winners.includes(seat) ? t("table.winner") : "")))),
      el("div", { class: "row" },
        el("a", { href: `#/replay/${tableId}`, id: "replay-link" }, t("table.replay")),
        el("a", { href: "#/" }, t("table.back"))));
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
    board.replaceChildren(render(view, ctx));
    if (focused) {
      const again = board.querySelector(`[data-key="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
    drawSeats();
  }

  function describe(events, seat) {
    for (const event of events) {
      const kind = event.kind === "taken" && event.data?.stolen_from !== undefined ? "stolen" : event.kind;
      const key = `event.${info.game}.${kind}`;
      // A game may say more than its catalogue line (Twinz lists each penalty).
      const own = render.describe ? render.describe(event, ctx) : null;
      const text = own ?? t(key, { ...event.data, name: names()[event.data?.seat ?? seat] ?? "" });
      if (text !== key) {
        log.prepend(el("div", {}, text));
        if (["taken", "tie", "error", "game_over", "round_over", "revealed", "caught", "clues_revealed"].includes(event.kind)) flash.textContent = text;
      }
    }
    while (log.childNodes.length > 40) log.lastChild.remove();
  }

  function connect() {
    socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/tables/${tableId}`);
    socket.onopen = () => {
      retry = 500;
      status("");
      socket.send(JSON.stringify({ type: "hello", protocol: 1, token: mine ? mine.token : null }));
    };
    socket.onmessage = (message) => {
      const frame = JSON.parse(message.data);
      if (frame.type === "snapshot" || frame.type === "event") {
        view = frame.view;
        version = frame.version;
        if (frame.type === "event") describe(frame.events, frame.seat);
        drawBoard();
      } else if (frame.type === "table") {
        info = frame.table;
        drawSeats(); drawWaiting(); drawResults();
      } else if (frame.type === "error") {
        flash.textContent = errorText(frame);
      } else if (frame.type === "welcome") {
        info = frame.table;
        drawSeats(); drawWaiting(); drawResults();
      }
    };
    socket.onclose = () => {
      if (closed) return;
      status(t("table.reconnecting"));
      setTimeout(() => { if (!closed) connect(); }, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  page(`${t(`game.${info.game}`)} · ${info.name}`, waiting, seatsBox, flash, board, results,
    el("details", {}, el("summary", {}, t("table.log")), log),
    el("p", {}, el("a", { href: `#/rules/${info.game}` }, t("table.rules"))));
  drawSeats(); drawWaiting(); drawResults();
  connect();
  const keys = (event) => { if (view && render.key) render.key(event, view, ctx); };
  document.addEventListener("keydown", keys);
  const ticker = setInterval(() => { if (view && render.tick) render.tick(board, view, ctx); }, 250);
  leaving = () => { closed = true; clearInterval(ticker); document.removeEventListener("keydown", keys); if (socket) socket.close(); };
}

async function replayPage(tableId) {
  const info = await api("GET", `/api/tables/${tableId}`);
  const steps = await api("GET", `/api/tables/${tableId}/replay/views`);
  const render = RENDERERS[info.game];
  const gameAssets = await assets(info.game);
  const board = el("div", { id: "board" });
  const caption = el("p", { id: "replay-step", "aria-live": "polite" });
  const slider = el("input", { type: "range", min: 0, max: steps.length - 1, value: 0, id: "seek", "aria-label": t("replay.seek") });
  const ctx = { t, el, local: {}, assets: gameAssets, me: null, names: info.seats.map(seatName), act() {}, flash() {}, redraw() {} };
  function show(index) {
    const step = steps[index];
    slider.value = index;
    const action = step.action ? `${ctx.names[step.action.seat] ?? t("replay.clock")}: ${step.action.kind}` : t("replay.start");
    caption.textContent = t("replay.step", { n: index, total: steps.length - 1, action });
    board.replaceChildren(render(step.view, ctx));
  }
  slider.addEventListener("input", () => show(Number(slider.value)));
  page(t("replay.title", { game: t(`game.${info.game}`) }),
    el("div", { class: "row" },
      el("button", { id: "prev", onclick: () => show(Math.max(0, Number(slider.value) - 1)) }, t("replay.back")),
      slider,
      el("button", { id: "next", onclick: () => show(Math.min(steps.length - 1, Number(slider.value) + 1)) }, t("replay.next"))),
    caption, board);
  show(0);
}

async function rulesPage(gameId) {
  const list = await games();
  if (!gameId) {
    page(t("nav.rules"), el("ul", {}, list.map((g) => el("li", {}, el("a", { href: `#/rules/${g.id}` }, t(`game.${g.id}`))))));
    return;
  }
  const text = await (await fetch(`/api/games/${gameId}/rules`)).text();
  page(t(`game.${gameId}`), el("p", {}, el("em", {}, t("rules.english"))), el("div", { class: "rules", html: markdown(text) }));
}

function markdown(text) {
  const escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const inline = (s) => escape(s).replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>").replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\[([^\]]+)\]\(([^)]+)\)/g, (_, label) => label);
  const out = [];
  let list = false;
  let table = false;
  for (const line of text.split("\n")) {
    if (/^\s*\|/.test(line)) {
      if (/^\s*\|[-| ]+\|\s*$/.test(line)) continue;
      if (!table) { out.push("<table>"); table = true; }
      out.push("<tr>" + line.trim().slice(1, -1).split("|").map((cell) => `<td>${inline(cell.trim())}</td>`).join("") + "</tr>");
      continue;
    }
    if (table) { out.push("</table>"); table = false; }
    const item = /^\s*(?:[-*]|\d+\.)\s+(.*)/.exec(line);
    if (item) { if (!list) { out.push("<ul>"); list = true; } out.push(`<li>${inline(item[1])}</li>`); continue; }
    if (/^\s{2,}\S/.test(line) && list) { out[out.length - 1] = out[out.length - 1].replace(/<\/li>$/, " " + inline(line.trim()) + "</li>"); continue; }
    if (list) { out.push("</ul>"); list = false; }
    const heading = /^(#{1,3})\s+(.*)/.exec(line);
    if (heading) out.push(`<h${heading[1].length + 1}>${inline(heading[2])}</h${heading[1].length + 1}>`);
    else if (line.trim()) out.push(`<p>${inline(line)}</p>`);
  }
  if (list) out.push("</ul>");
  if (table) out.push("</table>");
  return out.join("\n");
}

async function leaderboardPage(gameId) {
  const list = await games();
  const chosen = gameId || list[0].id;
  const rows = await api("GET", `/api/leaderboard/${chosen}`);
  page(t("nav.leaderboard"),
    el("div", { class: "row" }, list.map((g) => el("a", { href: `#/leaderboard/${g.id}`, "aria-current": g.id === chosen ? "page" : null }, t(`game.${g.id}`)))),
    rows.length ? el("table", { class: "grid" },
      el("tr", {}, el("th", {}, "#"), el("th", {}, t("table.player")), el("th", {}, t("leaderboard.rating")), el("th", {}, t("leaderboard.games"))),
      rows.map((row, index) => el("tr", {}, el("td", {}, index + 1), el("td", {}, row.display_name), el("td", {}, row.rating.toFixed(1)), el("td", {}, row.games))))
      : el("p", {}, t("leaderboard.empty")));
}

// -- routing -------------------------------------------------------------------------------
async function route() {
  leaving();
  leaving = () => {};
  status("");
  const params = new URLSearchParams(location.search);
  if (params.get("table") && !location.hash) { location.hash = `#/join/${params.get("table")}`; return; }
  const [, name, arg] = (location.hash || "#/").split("/");
  try {
    if (name === "table") await tablePage(arg);
    else if (name === "join") await joinPage(arg);
    else if (name === "replay") await replayPage(arg);
    else if (name === "rules") await rulesPage(arg);
    else if (name === "leaderboard") await leaderboardPage(arg);
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
