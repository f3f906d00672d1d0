// The notice's counts (notice-dom.js's texts().num): below 1000 written without ICU, and the same
// as Intl writes them in every language the notice has, so the first layer needs no
// Intl.NumberFormat (whose first use in a new renderer costs tens of milliseconds; record 0037).
// Run: node --test Tests/js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { load, RESOURCES } = require('./load.js');

const NoticeDom = vm.runInContext('NoticeDom', load(['notice/notice-model.js', 'notice/notice-dom.js']));
const LANGUAGES = fs.readdirSync(path.join(RESOURCES, 'notice', 'texts')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
// The locale notice-dom.js asks Intl for (INTL_LOCALES): Serbian in Latin script.
const locale = (language) => (language === 'sr' ? 'sr-Latn' : language);

test('every notice language writes the counts below 1000 as Intl does', () => {
  assert.ok(LANGUAGES.length >= 49, `${LANGUAGES.length} languages`);
  for (const language of LANGUAGES) {
    const num = NoticeDom.texts({ language, texts: {} }, {}).num;
    const intl = new Intl.NumberFormat(locale(language));
    for (let n = 0; n < 1000; n++) assert.equal(num(n), intl.format(n), `${language}: ${n}`);
  }
});

test('counts from 1000 on, and fractions, are written by Intl in the notice language', () => {
  const num = NoticeDom.texts({ language: 'de', texts: {} }, {}).num;
  assert.equal(num(1000), new Intl.NumberFormat('de').format(1000));
  assert.equal(num(12345), '12.345');
  assert.equal(num(2.5), '2,5');
});

test('an Arabic notice asks Intl for every number (its digits depend on the engine: WebKitGTK writes ١٢٣)', () => {
  // Intl.NumberFormat stands in for an ICU that writes Arabic-Indic digits, in the scripts' own context.
  const digits = '٠١٢٣٤٥٦٧٨٩';
  class ArabicIndic { format(n) { return String(n).replace(/[0-9]/g, (d) => digits[Number(d)]); } }
  const context = load(['notice/notice-model.js', 'notice/notice-dom.js'], { Intl: { NumberFormat: ArabicIndic } });
  const dom = vm.runInContext('NoticeDom', context);
  assert.equal(dom.texts({ language: 'ar', texts: {} }, {}).num(123), '١٢٣');
  assert.equal(dom.texts({ language: 'ar', texts: {} }, {}).num(1234), '١٢٣٤');
  assert.equal(dom.texts({ language: 'de', texts: {} }, {}).num(123), '123');
});
