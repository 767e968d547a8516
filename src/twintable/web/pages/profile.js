// The profile page: this browser's public id, and a link that moves the profile (its id
// and secret key) to another device. Opening such a link offers the profile it carries,
// once the server has confirmed its key, and keeps the one it replaces reachable from
// here; a link with a key the server does not know changes nothing.
import { api, checkedProfile, identity } from "../lib/api.js";
import { ratingChart } from "../lib/chart.js";
import { copyField, el, page } from "../lib/dom.js";
import { language, t } from "../lib/i18n.js";
import { previousProfile, profile, savePreviousProfile, saveProfile } from "../lib/store.js";

export async function profilePage(code) {
  if (code) {
    // The key leaves the address bar at once (history, screenshots, a shared screen).
    history.replaceState(null, "", "#/profile");
    const [id, secret] = decodeURIComponent(code).split(".");
    if (id && id === profile().id) return profilePage();
    const offered = id && secret ? await checkedProfile(id, secret) : null;
    offerProfile(offered, secret);
    return;
  }
  const { player_id: id, player_secret: secret } = await identity();
  const link = `${location.origin}/#/profile/${encodeURIComponent(`${id}.${secret}`)}`;
  const previous = previousProfile();
  page(t("profile.title"),
    el("section", { class: "panel" },
      el("p", {}, t("profile.id", { id })),
      el("p", {}, t("profile.move")),
      copyField({ id: "profile-link", value: link, label: t("profile.link") }),
      el("p", {}, el("small", {}, t("profile.secret_warning"))),
      previous && previous.split(".")[0] !== id ? el("p", {}, el("a", {
        id: "previous-profile", href: `#/profile/${encodeURIComponent(previous)}`,
      }, t("profile.previous", { id: previous.split(".")[0] }))) : null),
    el("section", { class: "panel", id: "profile-ratings", "aria-labelledby": "profile-ratings-title" },
      el("h2", { id: "profile-ratings-title" }, t("profile.ratings_title")),
      ratingsOf(await api("GET", `/api/profiles/${encodeURIComponent(id)}/ratings`))));
}

// Each game's rating: where it stands, how the last game moved it, and its history.
function ratingsOf(ratings) {
  if (!ratings.length) return el("p", { id: "profile-ratings-none" }, t("profile.ratings_none"));
  const one = new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const signed = new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1,
    signDisplay: "exceptZero" });
  return ratings.map((rating) => {
    const game = t(`game.${rating.game}`);
    const values = rating.history.map((point) => point.rating);
    const change = values.length > 1 ? values[values.length - 1] - values[values.length - 2] : null;
    return el("article", { class: "rating-game", "data-game": rating.game },
      el("h3", {}, el("a", { href: `#/leaderboard/${rating.game}` }, game)),
      el("p", {}, t("profile.rating_now", { rating: one.format(rating.rating), n: rating.games }), " ",
        rating.ranked ? t("profile.rating_rank", { rank: rating.rank }) : t("profile.rating_new"),
        change === null ? null : ` ${t("profile.rating_change", { change: signed.format(change) })}`),
      values.length > 1 ? ratingChart(values, { label: t("profile.rating_chart", { game, n: values.length }) })
        : null);
  });
}

// A profile link's profile, to take or leave; or why the link holds none.
function offerProfile(offered, secret) {
  if (!offered) {
    page(t("profile.bad_link_title"), el("section", { class: "panel" },
      el("p", { class: "error", id: "profile-link-refused" }, t("profile.bad_link")),
      el("p", {}, el("a", { href: "#/" }, t("table.back")))));
    return;
  }
  const mine = profile();
  const own = mine.id && mine.secret ? mine.id : null;
  page(t("profile.offer_title"), el("section", { class: "panel", id: "profile-offer" },
    el("p", {}, t("profile.offer", { name: offered.display_name, id: offered.player_id })),
    own ? el("p", {}, t("profile.replace", { mine: own })) : null,
    el("div", { class: "row" },
      el("button", { class: "primary", id: "use-profile", onclick: () => {
        if (own) savePreviousProfile(own, mine.secret);
        saveProfile(offered.player_id, secret);
        profilePage();
      } }, t("profile.use")),
      el("button", { id: "keep-profile", onclick: () => profilePage() }, t("profile.keep")))));
}
