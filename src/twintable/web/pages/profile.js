// The profile page: this browser's public id, and a link that moves the profile (its id
// and secret key) to another device; opening such a link adopts the profile it carries,
// once asked if it would replace this browser's own (which stays reachable from here).
import { identity } from "../lib/api.js";
import { el, page } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { previousProfile, profile, savePreviousProfile, saveProfile } from "../lib/store.js";

export async function profilePage(code) {
  if (code) {  // an export link opened on this device: adopt the profile it carries
    const [id, secret] = decodeURIComponent(code).split(".");
    const { id: mine, secret: mySecret } = profile();
    // A link from someone else must not silently take this browser's own profile away:
    // ask, and keep the one replaced as a link on the profile page, to switch back.
    if (mine !== id && (!mine || !mySecret || confirm(t("profile.replace", { id, mine })))) {
      if (mine && mySecret) savePreviousProfile(mine, mySecret);
      saveProfile(id, secret);
    }
    location.hash = "#/profile";
    return;
  }
  const { player_id: id, player_secret: secret } = await identity();
  const link = `${location.origin}/#/profile/${encodeURIComponent(`${id}.${secret}`)}`;
  const previous = previousProfile();
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
