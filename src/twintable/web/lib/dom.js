// Building the page: elements from a tag, attributes and children; the page's title and
// main area; the status line. Nothing happens on import.
import { t, joinList } from "./i18n.js";

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

export const main = () => document.getElementById("main");

// A link to hand on: the whole of it in a field that fits any width (selected on focus)
// and a button that copies it.
export function copyField({ id, value, label }) {
  const input = el("input", { readonly: true, value, id, "aria-label": label,
    onfocus: (event) => event.target.select() });
  const button = el("button", { type: "button", class: "copy", "data-copies": id, onclick: async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard permission (a page not served over HTTPS, say): the selection does.
      input.select();
      document.execCommand("copy");
    }
    button.textContent = t("common.copied");
    setTimeout(() => { button.textContent = t("common.copy"); }, 2000);
  } }, t("common.copy"));
  return el("div", { class: "copy-field" }, input, button);
}

export function page(title, ...children) {
  const root = main();
  root.replaceChildren(el("h1", {}, title), ...children);
  document.title = `${title} · ${t("app.title")}`;
  return root;
}

export function status(text) { document.getElementById("status").textContent = text || ""; }

// Names (or any nodes) joined the way the page's language does, as one element.
export const listOf = (items) => el("span", {}, joinList(items));

// A log line (nodes and strings) copied, to show it in a second place.
export const copyLine = (line) => [line].flat().map((part) => (part instanceof Node ? part.cloneNode(true) : part));

// Translates the page's fixed labels (index.html's data-i18n attributes).
export function translateStatic() {
  document.querySelectorAll("[data-i18n]").forEach((node) => { node.textContent = t(node.dataset.i18n); });
}
