// Twin It's picture names (tooltips, screen readers) in the reader's language.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { translator } from "../../../src/twintable/web/lib/i18n.js";
import { pictureName } from "../../../src/twintable/games/twinit/web/board.js";

const folder = new URL("../../../src/twintable/games/twinit/web/i18n/", import.meta.url);
const catalogues = Object.fromEntries(["en", "fr", "ko", "nl"].map((lang) =>
  [lang, JSON.parse(readFileSync(new URL(`${lang}.json`, folder), "utf8"))]));
const assets = { names: { 0: "fish (plain)", 8: "cat (wearing a little crown)", 89: "kite (striped, in the family's second colour)" } };

test("every picture's name reads in the reader's language", () => {
  assert.equal(pictureName(translator(catalogues, "en"), assets, 8), "cat (wearing a little crown)");
  assert.equal(pictureName(translator(catalogues, "fr"), assets, 8), "chat (avec une petite couronne)");
  assert.equal(pictureName(translator(catalogues, "nl"), assets, 0), "vis (gewoon)");
  assert.match(pictureName(translator(catalogues, "ko"), assets, 89), /^연 \(줄무늬/);
});

test("a family the catalogue does not know keeps the server's English name", () => {
  assert.equal(pictureName(translator(catalogues, "fr"), { names: { 2: "comet (plain)" } }, 2), "comet (plain)");
});
