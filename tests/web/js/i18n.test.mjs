// Plurals, parameters, fallbacks and the merging of the shell's and games' catalogues.
import assert from "node:assert/strict";
import { test } from "node:test";
import { elide, joinList, particles, preferredLanguage, splitAround, t, translator, useLanguage } from "../../../src/twintable/web/lib/i18n.js";
import { gameFolders, serveCatalogues } from "./catalogues.mjs";

test("a count picks the plural form of the language", () => {
  const catalogues = { en: { "n.cards#one": "{n} card", "n.cards#other": "{n} cards" },
    fr: { "n.cards#one": "{n} carte", "n.cards#other": "{n} cartes" } };
  const en = translator(catalogues, "en");
  const fr = translator(catalogues, "fr");
  assert.equal(en("n.cards", { n: 1 }), "1 card");
  assert.equal(en("n.cards", { n: 0 }), "0 cards");
  assert.equal(fr("n.cards", { n: 0 }), "0 carte");  // French counts 0 as one
  assert.equal(fr("n.cards", { n: 2 }), "2 cartes");
});

test("a missing key falls back to English, then to the key itself", () => {
  const say = translator({ en: { hello: "Hello {name}" }, nl: {} }, "nl");
  assert.equal(say("hello", { name: "Ann" }), "Hello Ann");
  assert.equal(say("nowhere"), "nowhere");
});

test("a form missing in a language falls back to the other form", () => {
  const say = translator({ ko: { "x#other": "{n}개" } }, "ko");
  assert.equal(say("x", { n: 1 }), "1개");
});

test("French elides before a vowel or a mute h, in generated phrases with a name", () => {
  const catalogues = { fr: { table: "Table de {name}", turn: "Au tour de {name}", said: "Il dit que {name} gagne" },
    en: { table: "{name}'s table" } };
  const fr = translator(catalogues, "fr");
  assert.equal(fr("table", { name: "Emma" }), "Table d'Emma");
  assert.equal(fr("table", { name: "Hugo" }), "Table d'Hugo");
  assert.equal(fr("table", { name: "Bo" }), "Table de Bo");
  assert.equal(fr("said", { name: "Inès" }), "Il dit qu'Inès gagne");
  // A name drawn as an element (a chip) is elided by what it reads as.
  assert.equal(fr("turn", { name: "\u00000\u0000" }, { name: "Ann" }), "Au tour d'\u00000\u0000");
  assert.equal(translator(catalogues, "en")("table", { name: "Emma" }), "Emma's table");
  assert.equal(elide("de {name}", "nl", () => "Emma"), "de {name}");
});

test("Korean particles follow the last syllable of the word before them", () => {
  const ko = translator({ ko: { pick: "{colour}을(를) 고릅니다", plays: "{game}은(는) {n}명", who: "{name}이(가) 이겼습니다",
    with: "{name}과(와) 함께", to: "{place}(으)로" } }, "ko");
  assert.equal(ko("pick", { colour: "초록" }), "초록을 고릅니다");  // issue #39: "초록을(를)"
  assert.equal(ko("pick", { colour: "파랑" }), "파랑을 고릅니다");
  assert.equal(ko("pick", { colour: "노랑" }), "노랑을 고릅니다");
  assert.equal(ko("pick", { colour: "빨강" }), "빨강을 고릅니다");
  assert.equal(ko("pick", { colour: "보라" }), "보라를 고릅니다");
  assert.equal(ko("plays", { game: "트윈스", n: 3 }), "트윈스는 3명");
  assert.equal(ko("who", { name: "지민" }), "지민이 이겼습니다");
  assert.equal(ko("who", { name: "하나" }), "하나가 이겼습니다");
  assert.equal(ko("with", { name: "서연" }), "서연과 함께");
  assert.equal(ko("with", { name: "하나" }), "하나와 함께");
  assert.equal(ko("to", { place: "서울" }), "서울로");  // ㄹ takes 로
  assert.equal(ko("to", { place: "부산" }), "부산으로");
  assert.equal(ko("to", { place: "바다" }), "바다로");
  // Digits as they are read (삼 ends in ㅁ, 사 in a vowel); a Latin name keeps both forms.
  assert.equal(ko("who", { name: "3" }), "3이 이겼습니다");
  assert.equal(ko("who", { name: "4" }), "4가 이겼습니다");
  assert.equal(ko("who", { name: "Ann" }), "Ann이(가) 이겼습니다");
  // A name drawn as an element reads as its text.
  assert.equal(ko("who", { name: "\u00000\u0000" }, { name: "하나" }), "\u00000\u0000가 이겼습니다");
  assert.equal(particles("{x}을(를)", "en", () => "하나"), "{x}을(를)");
});

test("elements in a sentence keep their place", () => {
  const chip = { chip: true };
  assert.deepEqual(splitAround("\u00000\u0000 plays 7", [chip]), [chip, " plays 7"]);
});

test("names are joined the way each language does", () => {
  assert.deepEqual(joinList(["A", "B", "C"], "en"), ["A", ", ", "B", ", and ", "C"]);
  assert.equal(joinList(["A", "B"], "fr").join(""), "A et B");
});

test("the language is the saved one, else the browser's first known one, else English", () => {
  assert.equal(preferredLanguage("nl", ["fr-FR"]), "nl");
  assert.equal(preferredLanguage(null, ["de-DE", "ko-KR"]), "ko");
  assert.equal(preferredLanguage("xx", ["de"]), "en");
});

test("the shell's and every game's catalogues are merged, with English under each language", async () => {
  serveCatalogues();
  await useLanguage("fr", gameFolders());
  assert.equal(t("nav.lobby"), "Salon");
  assert.notEqual(t("game.timo"), "game.timo");
  assert.notEqual(t("option.twinit.hold_ms"), "option.twinit.hold_ms");
  assert.match(t("event.cards", { n: 2 }), /2/);
});

// A language whose plural rules never say "one" (Korean) never reads a `#one` form: the
// catalogues keep the same keys in every language, so such a form is there, but it must
// say what `#other` says, or a meaning split across the two forms is lost (Twins' lone
// winner read "joint winners" in Korean). One-or-several meanings are separate keys.
test("a plural form a language never picks says what its other form says", async () => {
  const { readFile } = await import("node:fs/promises");
  const { fileURLToPath } = await import("node:url");
  const { DECLARED } = await import("./catalogues.mjs");
  const shell = fileURLToPath(new URL("../../../src/twintable/web/i18n/", import.meta.url));
  const folders = [shell, ...Object.values(DECLARED).map((game) => `${game.web}i18n/`)];
  const lost = [];
  for (const lang of ["en", "fr", "ko", "nl"]) {
    const rules = new Intl.PluralRules(lang);
    const picked = new Set(Array.from({ length: 1001 }, (_, n) => rules.select(n)));
    for (const folder of folders) {
      const catalogue = JSON.parse(await readFile(`${folder}${lang}.json`, "utf8"));
      for (const [key, text] of Object.entries(catalogue)) {
        const [base, form] = key.split("#");
        if (form && !picked.has(form) && text !== catalogue[`${base}#other`]) lost.push(`${folder}${lang}.json ${key}`);
      }
    }
  }
  assert.deepEqual(lost, []);
});
