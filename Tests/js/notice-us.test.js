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
