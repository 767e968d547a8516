// Translation: the shell's catalogues (i18n/<lang>.json) merged with each game's own
// (games/<id>/web/i18n/<lang>.json), plural forms from Intl.PluralRules, and sentences
// with elements in them ("{name} plays {card}" with a name chip for {name}).
// Nothing happens on import: the entry loads a language.
export const LANGUAGES = ["en", "fr", "ko", "nl"];
// Beside this module, under the version the page was served with (server/assets.py).
const SHELL_CATALOGUES = new URL("../i18n/", import.meta.url).pathname;

// A count picks its plural form: with a numeric `n` and catalogue keys `key#one`,
// `key#other` (and `#zero`, `#two`, `#few`, `#many` where a language has them), the form
// comes from Intl.PluralRules for the language; otherwise the plain `key`.
// French elides before a vowel or a mute h, in generated phrases too: "Table de {name}"
// with Emma reads "Table d'Emma" (and "que Inès" "qu'Inès").
const ELIDING = /\b(de|que|le|la|je|ne|se|jusque|lorsque|puisque) \{(\w+)\}/gi;
const OPENS_WITH_VOWEL = /^[aeiouyhàâäéèêëîïôöùûüœæ]/i;
export function elide(text, lang, textOf) {
  if (lang !== "fr") return text;
  return text.replace(ELIDING, (whole, word, name) => {
    const value = textOf(name);
    return value !== undefined && OPENS_WITH_VOWEL.test(String(value).trim()) ? `${word.slice(0, -1)}'{${name}}` : whole;
  });
}

// Korean particles follow the word before them: a catalogue writes both forms, as
// "{colour}을(를)" or "{name}(으)로", and the one that fits the value's last syllable is
// kept (을 after a final consonant, 를 after a vowel; 으로 except after a vowel or ㄹ).
// Digits read as Korean numbers; a Latin word keeps both forms, as Korean writers do.
const PARTICLES = /\{(\w+)\}(을\(를\)|은\(는\)|이\(가\)|과\(와\)|\(으\)로)/g;
const DIGIT_FINALS = [21, 8, 0, 16, 0, 0, 1, 8, 8, 0];  // 영 일 이 삼 사 오 육 칠 팔 구
function finalConsonant(word) {
  const last = String(word).trim().slice(-1);
  const code = last.charCodeAt(0) - 0xac00;
  if (code >= 0 && code < 11172) return code % 28;
  if (/[0-9]/.test(last)) return DIGIT_FINALS[Number(last)];
  return null;
}
export function particles(text, lang, textOf) {
  if (lang !== "ko") return text;
  return text.replace(PARTICLES, (whole, name, pair) => {
    const value = textOf(name);
    const final = value === undefined ? null : finalConsonant(value);
    if (final === null) return whole;
    if (pair === "(으)로") return `{${name}}${final !== 0 && final !== 8 ? "으로" : "로"}`;
    return `{${name}}${final !== 0 ? pair[0] : pair[2]}`;
  });
}

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
  // `texts`: what an element parameter reads as (for elision), by name.
  return (key, params = {}, texts = {}) => {
    const chosen = pluralKey(key, params.n);
    const textOf = (name) => texts[name] ?? params[name];
    let text = particles(elide(lookup(chosen) ?? chosen, lang, textOf), lang, textOf);
    for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
    return text;
  };
}

const catalogues = {};
let current = "en";
let translate = translator(catalogues, current);

export const t = (key, params, texts) => translate(key, params, texts);
export const language = () => current;

// Loads the shell's catalogue and every game's (`sources`: folders holding <lang>.json)
// for `code` (and English, the fallback), then makes `code` the language of t().
export async function useLanguage(code, sources = []) {
  for (const needed of new Set(["en", code])) {
    if (catalogues[needed]) continue;
    const parts = await Promise.all([SHELL_CATALOGUES, ...sources].map((folder) =>
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
  const texts = {};
  for (const [name, value] of Object.entries(params)) {
    if (isNode(value)) {
      plain[name] = `\u0000${nodes.length}\u0000`;
      texts[name] = value.textContent;
      nodes.push(value);
    } else plain[name] = value;
  }
  const text = t(key, plain, texts);
  return text === key ? null : splitAround(text, nodes);
}

// Names (strings) joined the way the language does, as one string.
export const joinNames = (names) => joinList(names).join("");

// Items joined the way the language does ("Ann, Bo and Chen"), items kept as they are.
export function joinList(items, lang = current) {
  const format = new Intl.ListFormat(lang, { type: "conjunction" });
  const marks = items.map((_, i) => `\u0000${i}\u0000`);
  return format.formatToParts(marks).map((part) => {
    const index = /^\u0000(\d+)\u0000$/.exec(part.value);
    return part.type === "element" && index ? items[Number(index[1])] : part.value;
  });
}
