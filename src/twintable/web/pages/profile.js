// The profile page: this browser's public id, and a link that moves the profile (its id
// and secret key) to another device; opening such a link adopts the profile it carries.
import { identity } from "../lib/api.js";
import { el, page } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { saveProfile } from "../lib/store.js";

export async function profilePage(code) {
  if (code) {  // an export link opened on this device: adopt the profile it carries
    const [id, secret] = decodeURIComponent(code).split(".");
    saveProfile(id, secret);
    location.hash = "#/profile";
    return;
  }
  const { player_id: id, player_secret: secret } = await identity();
  const link = `${location.origin}/#/profile/${encodeURIComponent(`${id}.${secret}`)}`;
  page(t("profile.title"),
    el("section", { class: "panel" },
      el("p", {}, t("profile.id", { id })),
      el("p", {}, t("profile.move")),
      el("input", { readonly: true, value: link, id: "profile-link", size: 50, "aria-label": t("profile.link"),
        onfocus: (event) => event.target.select() }),
      el("p", {}, el("small", {}, t("profile.secret_warning")))));
}
