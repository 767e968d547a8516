// Twin Table's browser client, the entry: it loads the games' clients, their styles and
// catalogues, and routes the address to a page. It is the only module that starts
// anything when imported (every other module only exports). The parts: lib/ (dom, i18n,
// api, store, sound, motion, games), net/ (the table socket), table/ (the table page,
// seats, log, results), pages/ (lobby, create, join, replay, rules, leaderboard,
// profile); each game's own client lives in games/<id>/web/ (README.md).
import { errorText, games } from "./lib/api.js";
import { el, page, status, translateStatic } from "./lib/dom.js";
import { catalogueFolders } from "./lib/games.js";
import { language, preferredLanguage, t, useLanguage } from "./lib/i18n.js";
import { listenForGesture } from "./lib/sound.js";
import { saveSetting, setting } from "./lib/store.js";
import { lobbyPage } from "./pages/lobby.js";

// Every page but the lobby is loaded when first opened (the lobby, on a phone, waited
// for the table's, the replay's and every other page's modules); the page an address
// opens is asked for at once, beside the catalogues.
const PAGES = {
  table: () => import("./table/page.js").then((m) => m.tablePage),
  join: () => import("./pages/join.js").then((m) => m.joinPage),
  replay: () => import("./pages/replay.js").then((m) => m.replayPage),
  rules: () => import("./pages/rules.js").then((m) => m.rulesPage),
  leaderboard: () => import("./pages/leaderboard.js").then((m) => m.leaderboardPage),
  profile: () => import("./pages/profile.js").then((m) => m.profilePage),
};
const pageOf = (name) => (PAGES[name] ? PAGES[name]() : Promise.resolve(lobbyPage));
pageOf((location.hash || "#/").split("/")[1]).catch(() => {});
let leaving = () => {};  // tears down the current page (closes its socket, stops its timers)

// Routes started, and the latest whose page was drawn: a page still loading when the
// address changes draws when it is ready, over the newer page perhaps (the lobby came
// back over a profile link opened while it loaded).
let started = 0;
let drawn = 0;

async function route() {
  const mine = ++started;
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
    const left = (await (await pageOf(name))(arg, more)) || (() => {});
    if (mine < started) {  // a newer route began while this page loaded
      left();
      if (drawn > mine) route();  // and was drawn first, this one over it: draw it again
      return;
    }
    drawn = mine;
    leaving = left;
  } catch (error) {
    if (mine < started) return;
    drawn = mine;
    page(t("error.title"), el("p", { class: "error" }, errorText(error)), el("a", { href: "#/" }, t("table.back")));
  }
  // The page's language is the one it is now drawn in: set only once the page is, so that
  // a screen reader (or a test) never reads the old page's words as the new language's.
  document.documentElement.lang = language();
}

// Chromium draws text whose font piece is still on its way as empty boxes and, for the
// header, never drew it again ("트윈 테이블" stayed "□□ □□□"; neither a new font-family nor
// the same text set again helped): the page's own words wait for the pieces they need, a
// second at most, before they are written.
async function fontsFor(text) {
  if (!document.fonts?.load) return;
  await Promise.race([document.fonts.load('1em "Twin Table Korean"', text).catch(() => {}),
    new Promise((resolve) => { setTimeout(resolve, 1000); })]);
}

async function useLanguageEverywhere(code) {
  await useLanguage(code, await catalogueFolders().catch(() => []));
  saveSetting("lang", code);
  await fontsFor([...document.querySelectorAll("[data-i18n]")].map((node) => t(node.dataset.i18n)).join(""));
  translateStatic();
  document.getElementById("language").value = code;
}

async function start() {
  listenForGesture();
  // Each page loads the styles of the games it draws (lib/games.js loadStyles).
  await useLanguageEverywhere(preferredLanguage(setting("lang"), navigator.languages || [navigator.language || "en"]));
  document.getElementById("language").addEventListener("change", async (event) => {
    await useLanguageEverywhere(event.target.value);
    route();
  });
  window.addEventListener("hashchange", route);
  await route();
  // The shell kept for the next visit, and installable (sw.js); a page that cannot have
  // one (an address that is not secure, say) works the same without.
  navigator.serviceWorker?.register("/sw.js").catch(() => {});
}

start();
