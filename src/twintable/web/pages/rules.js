// The rules pages: the list of games, and one game's rules as the server renders them
// (server/rules_pages.py), with its card pictures drawn by the game's own card code.
import { api, games } from "../lib/api.js";
import { el, page } from "../lib/dom.js";
import { language, t } from "../lib/i18n.js";
import { loadStyles, pictures } from "../lib/games.js";

export async function rulesPage(gameId) {
  const list = await games();
  if (!gameId || !list.some((g) => g.id === gameId)) {
    page(t("nav.rules"), el("ul", {}, list.map((g) => el("li", {}, el("a", { href: `#/rules/${g.id}` }, t(`game.${g.id}`))))));
    return;
  }
  const rules = await api("GET", `/api/games/${gameId}/rules?lang=${encodeURIComponent(language())}`);
  const body = el("div", { class: "rules", lang: rules.lang, html: rules.html });
  page(t(`game.${gameId}`), rules.lang === language() ? "" : el("p", {}, el("em", {}, t("rules.fallback"))),
    el("nav", { class: "rules-toc", "aria-label": t("rules.contents") },
      el("ol", {}, rules.sections.map((s) => el("li", {}, el("a", { href: `#rules-${s.id}`, onclick: (event) => {
        event.preventDefault();
        document.getElementById(`rules-${s.id}`)?.scrollIntoView();
      } }, s.title))))),
    body);
  // Card pictures arrive as empty placeholders (data-game, data-card) for the game's
  // own `drawCard` to fill.
  const known = new Set(list.map((g) => g.id));
  for (const spot of body.querySelectorAll(".rules-card[data-game]")) {
    if (!known.has(spot.dataset.game)) continue;
    const [game] = await Promise.all([pictures(spot.dataset.game), loadStyles([spot.dataset.game])]);
    if (game.drawCard) spot.replaceChildren(game.drawCard(spot.dataset.card, { t, el }));
  }
}
