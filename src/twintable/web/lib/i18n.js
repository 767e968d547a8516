// Translation: the shell's catalogues (i18n/<lang>.json) merged with each game's own
// (games/<id>/web/i18n/<lang>.json), plural forms from Intl.PluralRules, and sentences
// with elements in them ("{name} plays {card}" with a name chip for {name}).
// Nothing happens on import: the entry loads a language.
export const LANGUAGES = ["en", "fr", "ko", "nl"];

// A count picks its plural form: with a numeric `n` and catalogue keys `key#one`,
// `key#other` (and `#zero`, `#two`, `#few`, `#many` where a language has them), the form
// comes from Intl.PluralRules for the language; otherwise the plain `key`.
export function translator(catalogues, lang) {
  const rules = new Intl.PluralRules(lang);
  const lookup = (key) => catalogues[lang]?.[key] ?? catalogues.en?.[key];
  const pluralKey = (key, n) => {
    if (typeof n !== "number") return key;
    for (const form of [rules.select(n), "other"]) {
      if (lookup(`${key}#${form}`)) return `${key}#${form}`;
    }
    return key;
  };
  return (key, params = {}) => {
    const chosen = pluralKey(key, params.n);
    let text = lookup(chosen) ?? chosen;
    for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
    return text;
  };
}

const catalogues = {};
let current = "en";
let translate = translator(catalogues, current);

export const t = (key, params) => translate(key, params);
export const language = () => current;

// Loads the shell's catalogue and every game's (`sources`: folders holding <lang>.json)
// for `code` (and English, the fallback), then makes `code` the language of t().
export async function useLanguage(code, sources = []) {
  for (const needed of new Set(["en", code])) {
    if (catalogues[needed]) continue;
    const parts = await Promise.all(["/static/i18n/", ...sources].map((folder) =>
      fetch(`${folder}${needed}.json`).then((r) => (r.ok ? r.json() : {})).catch(() => ({}))));
    catalogues[needed] = Object.assign({}, ...parts);
  }
  current = code;
  translate = translator(catalogues, code);
}

export function preferredLanguage(saved, wanted) {
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of wanted) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

// Splits a translated sentence around its element parameters: the pure part of tNodes.
export function splitAround(text, nodes) {
  return text.split(/\u0000(\d+)\u0000/).map((part, i) => (i % 2 ? nodes[Number(part)] : part)).filter((part) => part !== "");
}

// t() with elements as parameters; null when the catalogue has no such key.
export function tNodes(key, params = {}, isNode = (value) => typeof Node !== "undefined" && value instanceof Node) {
  const nodes = [];
  const plain = {};
  for (const [name, value] of Object.entries(params)) {
    if (isNode(value)) { plain[name] = `\u0000${nodes.length}\u0000`; nodes.push(value); } else plain[name] = value;
  }
  const text = t(key, plain);
  return text === key ? null : splitAround(text, nodes);
}

// Items joined the way the language does ("Ann, Bo and Chen"), items kept as they are.
export function joinList(items, lang = current) {
  const format = new Intl.ListFormat(lang, { type: "conjunction" });
  const marks = items.map((_, i) => `\u0000${i}\u0000`);
  return format.formatToParts(marks).map((part) => {
    const index = /^\u0000(\d+)\u0000$/.exec(part.value);
    return part.type === "element" && index ? items[Number(index[1])] : part.value;
  });
}
