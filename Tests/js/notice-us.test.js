// The US mode's pure parts (notice-us.js): which documents it takes, what its switches open on.
// Run: node --test Tests/js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const vm = require('node:vm');
const { load } = require('./load.js');

const NoticeUS = vm.runInContext('NoticeUS', load(['notice/notice-model.js', 'notice/notice-us.js']));
const plain = (x) => JSON.parse(JSON.stringify(x));

function doc(us, current) {
  return { mode: 'us', us: { section: 'usca', state: 'CA', ...us }, current: current === undefined ? null : { us: current } };
}

test('a US document names the national section or a state section', () => {
  for (const section of ['usnat', 'usca', 'usva', 'usco', 'usut', 'usct', 'usmd', 'usri']) {
    assert.equal(NoticeUS.validate(doc({ section })), null, section);
  }
  assert.equal(NoticeUS.SECTIONS.length, 21);
});

test('a US document without a US section is refused, saying which field', () => {
  assert.deepEqual(plain(NoticeUS.validate({ mode: 'us' })), ['malformed_document', 'A US document needs a "us" object.']);
  for (const section of ['uspv1', 'tcfeuv2', 'USCA', '', undefined]) {
    const problem = NoticeUS.validate(doc({ section }));
    assert.equal(problem[0], 'malformed_document');
    assert.match(problem[1], /^us\.section must be the API prefix of a US section/);
  }
  assert.match(NoticeUS.validate(doc({ state: 'ca' }))[1], /^us\.state/);
  assert.match(NoticeUS.validate(doc({ knownChild: 1 }))[1], /^us\.knownChild must be true or false/);
  assert.match(NoticeUS.validate(doc({}, { sensitiveDataLimited: 'no' }))[1], /^current\.us\.sensitiveDataLimited/);
});

test('the switches open on the present choice, all off without one', () => {
  const off = { saleOptOut: false, sharingOptOut: false, targetedAdvertisingOptOut: false, sensitiveDataLimited: false };
  assert.deepEqual(plain(NoticeUS.initialChoice(doc({}))), off);
  assert.deepEqual(plain(NoticeUS.initialChoice(doc({ limitSensitive: true }, { sharingOptOut: true, sensitiveDataLimited: true }))),
    { ...off, sharingOptOut: true, sensitiveDataLimited: true });
});

test('the limit on sensitive information is never on where it is not offered', () => {
  assert.equal(NoticeUS.initialChoice(doc({ limitSensitive: false }, { sensitiveDataLimited: true })).sensitiveDataLimited, false);
});

test('GPC and a known child turn the three opt-outs on, and say which it was', () => {
  for (const flag of ['gpc', 'knownChild']) {
    const choice = NoticeUS.initialChoice(doc({ [flag]: true }, { saleOptOut: false }));
    assert.deepEqual([choice.saleOptOut, choice.sharingOptOut, choice.targetedAdvertisingOptOut, choice.sensitiveDataLimited], [true, true, true, false]);
    assert.equal(NoticeUS.forced(doc({ [flag]: true }).us), flag);
  }
  assert.equal(NoticeUS.forced(doc({ gpc: false, knownChild: false }).us), null);
});

test('"Your Privacy Choices" opens first when asked, except on a service provider\'s notice', () => {
  assert.equal(NoticeUS.firstLayer({ ...doc({}), startLayer: 'purposes' }), 2);
  assert.equal(NoticeUS.firstLayer({ ...doc({}), startLayer: 'first' }), 1);
  assert.equal(NoticeUS.firstLayer({ ...doc({ serviceProvider: true }), startLayer: 'purposes' }), 1);
});

// ------------------------------------------------------------------ whose law: the state's name

const TEXTS = require('node:path').join(__dirname, '..', '..', 'Sources', 'ConsentKitUI', 'Resources', 'notice', 'texts');
const LANGUAGES = require('node:fs').readdirSync(TEXTS).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));

test('every state section names its state, and the national section none', () => {
  const states = NoticeUS.SECTIONS.filter((s) => s !== 'usnat');
  assert.deepEqual(plain(NoticeUS.STATES), plain(states.map((s) => s.slice(2).toUpperCase())));
  assert.equal(NoticeUS.stateName('usca', 'en'), 'California');
  assert.equal(NoticeUS.stateName('usri', 'en'), 'Rhode Island');
  assert.equal(NoticeUS.stateName('usnat', 'en'), null);
  assert.deepEqual(plain(NoticeUS.law({ section: 'usca', state: 'CA' }, 'en')), ['usLawState', { state: 'California' }]);
  assert.deepEqual(plain(NoticeUS.law({ section: 'usnat', state: null }, 'en')), ['usLawNational', null]);
  // the section decides: a national notice shown in California names no state
  assert.deepEqual(plain(NoticeUS.law({ section: 'usnat', state: 'CA' }, 'de')), ['usLawNational', null]);
});

test('a state is named as the language names it, in English where the language has no name of its own', () => {
  assert.equal(NoticeUS.stateName('usca', 'de'), 'Kalifornien');
  assert.equal(NoticeUS.stateName('ustx', 'de'), 'Texas');
  assert.equal(NoticeUS.stateName('usca', 'ar'), 'كاليفورنيا');
  assert.equal(NoticeUS.stateName('usca', 'el'), 'Καλιφόρνια');
  assert.equal(NoticeUS.stateName('usnj', 'ru'), 'Нью-Джерси');
  assert.equal(NoticeUS.stateName('usfl', 'fr'), 'Floride');
  assert.equal(NoticeUS.stateName('usca', 'xx'), 'California');
});

test('every language of the notice has a name for every state, in its own script', () => {
  const latin = /[A-Za-z]/;
  const ownScript = ['ar', 'bg', 'el', 'he', 'hi', 'ja', 'ka', 'ko', 'mk', 'ru', 'th', 'uk', 'zh'];
  for (const language of LANGUAGES) {
    const names = NoticeUS.SECTIONS.filter((s) => s !== 'usnat').map((s) => NoticeUS.stateName(s, language));
    assert.equal(new Set(names).size, 20, language + ': ' + names.join(', '));
    for (const name of names) {
      assert.ok(typeof name === 'string' && name.trim() === name && name.length > 1, language + ': ' + name);
      if (ownScript.includes(language)) assert.ok(!latin.test(name), language + ': ' + name + ' is in Latin letters');
    }
  }
});
