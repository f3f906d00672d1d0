// The GPP CMP API's state machine (Sources/ConsentKitUI/Resources/cmp/gppapi.js, createCmp), without
// a browser: the PingReturn, the commands, and the order of the events an update fires. The stub,
// the locator frame and postMessage are tested in browsers (Tests/notice/test_gppapi.py).
// Run: node --test Tests/js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { gppapi } = require('./load.js');

const { createCmp } = gppapi();
const plain = (x) => JSON.parse(JSON.stringify(x));

// Hand-made states: a California visitor who has not opted out, then one who has (usca), with
// the national section beside it (usnat) and its GPC sub-section.
const USCA = { Version: 1, SaleOptOutNotice: 1, SharingOptOutNotice: 1, SensitiveDataLimitUseNotice: 1, SaleOptOut: 2, SharingOptOut: 2,
  SensitiveDataProcessing: [0, 0, 0, 0, 0, 0, 0, 0, 0], KnownChildSensitiveDataConsents: [0, 0], PersonalDataConsents: 0,
  MspaCoveredTransaction: 2, MspaOptOutOptionMode: 0, MspaServiceProviderMode: 0 };
const USNAT = { Version: 1, SharingNotice: 1, SaleOptOutNotice: 1, SaleOptOut: 2, MspaCoveredTransaction: 2 };
const NOT_OPTED_OUT = {
  gppString: 'DBABBg~BVoYYYAAEABgA.QA', sectionList: [8], applicableSections: [8], supportedAPIs: ['7:usnat', '8:usca'],
  parsedSections: { usca: [USCA, { SubsectionType: 1, Gpc: false }] }
};
const OPTED_OUT = {
  gppString: 'DBABBg~BVVqAAEABgA.QA', sectionList: [8], applicableSections: [8], supportedAPIs: ['7:usnat', '8:usca'],
  parsedSections: { usca: [{ ...USCA, SaleOptOut: 1, SharingOptOut: 1 }, { SubsectionType: 1, Gpc: false }] }
};

/** A CMP with one listener that records every event as [eventName, data, pingData.signalStatus, pingData.gppString]. */
function listened(start = {}) {
  const cmp = createCmp(start);
  const events = [];
  cmp.api('addEventListener', (e) => events.push([e.eventName, e.data, e.pingData.signalStatus, e.pingData.gppString]));
  events.length = 0;
  return { cmp, events };
}

/** The one synchronous answer of a call: [data, success]. */
function answer(cmp, command, parameter, version) {
  const answers = [];
  cmp.api(command, (data, success) => answers.push([data, success]), parameter, version);
  assert.equal(answers.length, 1, `${command} answers once, at once`);
  return answers[0];
}

test('before the first update ping says loading, not ready, cmpId 0 and the stub\'s applicable sections, with every PingReturn field', () => {
  const [ping, success] = answer(createCmp({ applicableSections: [7] }), 'ping');
  assert.equal(success, true);
  assert.deepEqual(plain(ping), { gppVersion: '1.1', cmpStatus: 'loading', cmpDisplayStatus: 'hidden', signalStatus: 'not ready', supportedAPIs: [],
    cmpId: 0, sectionList: [], applicableSections: [7], gppString: '', parsedSections: {} });
  assert.deepEqual(plain(answer(createCmp({}), 'ping')[0].applicableSections), [0], 'without a declaration: 0');
});

test('the first update loads the CMP: cmpStatus loaded then signalStatus ready, and no sectionChange for the sections found at load', () => {
  const { cmp, events } = listened();
  cmp.update(NOT_OPTED_OUT);
  assert.deepEqual(events, [['cmpStatus', 'loaded', 'not ready', NOT_OPTED_OUT.gppString], ['signalStatus', 'ready', 'ready', NOT_OPTED_OUT.gppString]]);
  const ping = answer(cmp, 'ping')[0];
  assert.deepEqual(plain(ping), { gppVersion: '1.1', cmpStatus: 'loaded', cmpDisplayStatus: 'hidden', signalStatus: 'ready', supportedAPIs: ['7:usnat', '8:usca'],
    cmpId: 1, sectionList: [8], applicableSections: [8], gppString: NOT_OPTED_OUT.gppString, parsedSections: NOT_OPTED_OUT.parsedSections });
});

test('a changed section fires signalStatus not ready, sectionChange with its prefix, then signalStatus ready', () => {
  const { cmp, events } = listened();
  cmp.update(NOT_OPTED_OUT);
  events.length = 0;
  cmp.update(OPTED_OUT);
  assert.deepEqual(events, [
    ['signalStatus', 'not ready', 'not ready', NOT_OPTED_OUT.gppString],
    ['sectionChange', 'usca', 'not ready', OPTED_OUT.gppString],
    ['signalStatus', 'ready', 'ready', OPTED_OUT.gppString]]);
});

test('one sectionChange per section added, changed or removed, and none for a section that stayed the same', () => {
  const { cmp, events } = listened();
  const tcfeuv2 = [{ Version: 2, CmpId: 300 }];
  cmp.update({ gppString: 'a', sectionList: [2, 8], parsedSections: { tcfeuv2, usca: NOT_OPTED_OUT.parsedSections.usca } });
  events.length = 0;
  cmp.update({ gppString: 'b', sectionList: [7, 8], parsedSections: { usca: OPTED_OUT.parsedSections.usca, usnat: [USNAT] } });
  assert.deepEqual(events.map((e) => e.slice(0, 2)), [['signalStatus', 'not ready'], ['sectionChange', 'usca'], ['sectionChange', 'usnat'],
    ['sectionChange', 'tcfeuv2'], ['signalStatus', 'ready']]);
  events.length = 0;
  cmp.update({ gppString: 'c', parsedSections: { usca: OPTED_OUT.parsedSections.usca, usnat: [USNAT] } });
  assert.deepEqual(events.map((e) => e.slice(0, 2)), [['signalStatus', 'not ready'], ['signalStatus', 'ready']], 'a new string alone: no section changed');
});

test('an update that changes nothing fires nothing', () => {
  const { cmp, events } = listened();
  cmp.update(NOT_OPTED_OUT);
  events.length = 0;
  cmp.update(plain(NOT_OPTED_OUT));
  cmp.update({});
  assert.deepEqual(events, []);
});

test('reopening: a state that says not ready with the notice visible, then the choice with it hidden (the specification\'s event order example 2)', () => {
  const { cmp, events } = listened();
  cmp.update({ ...NOT_OPTED_OUT, cmpDisplayStatus: null });
  events.length = 0;
  cmp.update({ signalStatus: 'not ready', cmpDisplayStatus: 'visible' });
  assert.equal(answer(cmp, 'ping')[0].gppString, NOT_OPTED_OUT.gppString, 'fields left out keep their value');
  cmp.update({ ...OPTED_OUT, cmpDisplayStatus: 'hidden' });
  assert.deepEqual(events.map((e) => e.slice(0, 2)), [['signalStatus', 'not ready'], ['cmpDisplayStatus', 'visible'], ['cmpDisplayStatus', 'hidden'],
    ['sectionChange', 'usca'], ['signalStatus', 'ready']]);
});

test('a notice shown at load keeps the signal not ready until the choice (the specification\'s event order example 1)', () => {
  const { cmp, events } = listened();
  cmp.update({ ...NOT_OPTED_OUT, cmpDisplayStatus: 'visible', signalStatus: 'not ready' });
  assert.equal(answer(cmp, 'ping')[0].signalStatus, 'not ready');
  cmp.update({ ...OPTED_OUT, cmpDisplayStatus: 'hidden' });
  assert.deepEqual(events.map((e) => e.slice(0, 2)), [['cmpStatus', 'loaded'], ['cmpDisplayStatus', 'visible'], ['cmpDisplayStatus', 'hidden'],
    ['sectionChange', 'usca'], ['signalStatus', 'ready']]);
});

test('addEventListener answers at once with listenerRegistered and a new listenerId each time', () => {
  const cmp = createCmp({});
  const [first, ok] = answer(cmp, 'addEventListener');
  const [second] = answer(cmp, 'addEventListener');
  assert.equal(ok, true);
  assert.deepEqual([first.eventName, first.data, first.listenerId, second.listenerId], ['listenerRegistered', true, 1, 2]);
  assert.equal(first.pingData.cmpStatus, 'loading');
});

test('removeEventListener answers listenerRemoved true for a listener it removed, false for an unknown id, and the removed one hears nothing more', () => {
  const cmp = createCmp({});
  const heard = [];
  let id;
  cmp.api('addEventListener', (e) => { heard.push(e.eventName); id = id || e.listenerId; });
  const [removed] = answer(cmp, 'removeEventListener', id);
  assert.deepEqual([removed.eventName, removed.listenerId, removed.data], ['listenerRemoved', id, true]);
  assert.equal(answer(cmp, 'removeEventListener', id)[0].data, false);
  assert.equal(answer(cmp, 'removeEventListener', 99)[0].data, false);
  cmp.update(NOT_OPTED_OUT);
  assert.deepEqual(heard, ['listenerRegistered']);
});

test('a listener that removes another during an event: the removed one is not called for that event', () => {
  const cmp = createCmp({});
  const heard = [];
  cmp.api('addEventListener', (e) => { if (e.eventName === 'cmpStatus') cmp.api('removeEventListener', () => {}, 2); });
  cmp.api('addEventListener', (e) => heard.push(e.eventName));
  cmp.update(NOT_OPTED_OUT);
  assert.deepEqual(heard, ['listenerRegistered']);
});

test('a stub\'s listeners become the API\'s: they hear cmpStatus loading and every later event, and new ids follow the stub\'s', () => {
  const heard = [];
  const cmp = createCmp({ listeners: [{ id: 1, callback: (e) => heard.push([e.listenerId, e.eventName, e.data]) }], lastId: 3 });
  cmp.begin();
  cmp.update(NOT_OPTED_OUT);
  cmp.update(OPTED_OUT);
  assert.deepEqual(heard, [[1, 'cmpStatus', 'loading'], [1, 'cmpStatus', 'loaded'], [1, 'signalStatus', 'ready'],
    [1, 'signalStatus', 'not ready'], [1, 'sectionChange', 'usca'], [1, 'signalStatus', 'ready']]);
  assert.equal(answer(cmp, 'addEventListener')[0].listenerId, 4);
  assert.equal(answer(cmp, 'removeEventListener', 1)[0].data, true, 'the stub\'s id removes the stub\'s listener');
});

test('hasSection, getSection and getField answer null while the CMP is loading', () => {
  const cmp = createCmp({});
  for (const [command, parameter] of [['hasSection', 'usca'], ['getSection', 'usca'], ['getField', 'usca.SaleOptOut']]) {
    assert.deepEqual(answer(cmp, command, parameter), [null, true], command);
  }
});

test('hasSection and getSection answer from parsedSections once loaded: true and its sub-sections, or false and null', () => {
  const cmp = createCmp({});
  cmp.update(OPTED_OUT);
  assert.deepEqual(answer(cmp, 'hasSection', 'usca'), [true, true]);
  assert.deepEqual(answer(cmp, 'hasSection', 'usnat'), [false, true]);
  assert.deepEqual(plain(answer(cmp, 'getSection', 'usca')), [OPTED_OUT.parsedSections.usca, true]);
  assert.deepEqual(answer(cmp, 'getSection', 'usnat'), [null, true]);
});

test('getField reads "prefix.Field" from the first sub-section that has it: the core\'s fields and the GPC sub-section\'s', () => {
  const cmp = createCmp({});
  cmp.update(OPTED_OUT);
  assert.deepEqual(answer(cmp, 'getField', 'usca.SaleOptOut'), [1, true]);
  assert.deepEqual(answer(cmp, 'getField', 'usca.SensitiveDataProcessing'), [[0, 0, 0, 0, 0, 0, 0, 0, 0], true]);
  assert.deepEqual(answer(cmp, 'getField', 'usca.Gpc'), [false, true]);
  assert.deepEqual(answer(cmp, 'getField', 'usca.NoSuchField'), [null, true]);
  assert.deepEqual(answer(cmp, 'getField', 'usnat.SaleOptOut'), [null, true]);
});

test('a parameter of the wrong type, a command this API does not know and another version answer (null, false)', () => {
  const cmp = createCmp({});
  cmp.update(OPTED_OUT);
  for (const [command, parameter, version] of [['hasSection', 7], ['getSection', undefined], ['getField', 'usca'], ['getField', '.SaleOptOut'],
    ['getField', 'usca.'], ['getGPPData'], ['tcfcav1.getVendorList', 2], ['ping2'], ['hasSection', 'usca', '1.0'], ['getField', 'usca.SaleOptOut', 2]]) {
    assert.deepEqual(answer(cmp, command, parameter, version), [null, false], `${command} ${parameter} ${version}`);
  }
  assert.deepEqual(answer(cmp, 'hasSection', 'usca', '1.1'), [true, true]);
});

test('a callback that is not a function is a TypeError, and __gpp returns nothing', () => {
  const cmp = createCmp({});
  assert.throws(() => cmp.api('ping'), (e) => e.name === 'TypeError' && /callback of "ping"/.test(e.message));
  assert.throws(() => cmp.api('getField', 'usca.SaleOptOut'), (e) => e.name === 'TypeError');
  assert.equal(cmp.api('ping', () => 'ignored'), undefined);
});

test('every answer is a copy: changing one changes neither the next nor the state, and the caller\'s state is copied', () => {
  const cmp = createCmp({});
  const state = plain(OPTED_OUT);
  cmp.update(state);
  state.parsedSections.usca[0].SaleOptOut = 2;
  state.applicableSections.push(7);
  answer(cmp, 'getSection', 'usca')[0][0].SaleOptOut = 2;
  answer(cmp, 'ping')[0].parsedSections.usca[0].SaleOptOut = 2;
  assert.deepEqual(answer(cmp, 'getField', 'usca.SaleOptOut'), [1, true]);
  assert.deepEqual(answer(cmp, 'ping')[0].applicableSections, [8]);
});

test('Dates in a section (Created, LastUpdated) are answered as Dates, each a copy', () => {
  const cmp = createCmp({});
  cmp.update({ parsedSections: { tcfeuv2: [{ Version: 2, Created: new Date(Date.UTC(2025, 11, 1)) }] } });
  const created = answer(cmp, 'getField', 'tcfeuv2.Created')[0];
  assert.equal(created.toISOString(), '2025-12-01T00:00:00.000Z');
  created.setTime(0);
  assert.equal(answer(cmp, 'getField', 'tcfeuv2.Created')[0].toISOString(), '2025-12-01T00:00:00.000Z');
});

test('a section\'s dates given as ISO 8601 text (a state read from JSON) are answered as Dates', () => {
  const cmp = createCmp({});
  cmp.update({ parsedSections: { tcfeuv2: [{ Version: 2, Created: '2025-12-01T00:00:00.000Z', LastUpdated: '2025-12-02T00:00:00.000Z', CmpId: 7 }] } });
  const [section] = answer(cmp, 'getSection', 'tcfeuv2')[0];
  const isDate = (x) => Object.prototype.toString.call(x) === '[object Date]';   // made in the script's realm
  assert.ok(isDate(section.Created) && isDate(section.LastUpdated));
  assert.equal(section.LastUpdated.toISOString(), '2025-12-02T00:00:00.000Z');
  assert.equal(section.CmpId, 7);
});

test('applicableSections [] is [-1], and cmpId given is kept', () => {
  const cmp = createCmp({});
  cmp.update({ applicableSections: [], cmpId: 300 });
  const ping = answer(cmp, 'ping')[0];
  assert.deepEqual(plain([ping.applicableSections, ping.cmpId]), [[-1], 300]);
});

test('a state field of the wrong type is a TypeError naming the field, and nothing changes', () => {
  const cmp = createCmp({});
  cmp.update(NOT_OPTED_OUT);
  const before = plain(answer(cmp, 'ping')[0]);
  for (const [bad, field] of [[{ gppString: 7 }, /gppString/], [{ sectionList: [7, 'x'] }, /sectionList/], [{ applicableSections: [7, 8, 9] }, /applicableSections/],
    [{ applicableSections: [-1, 7] }, /applicableSections/], [{ parsedSections: { usca: {} } }, /parsedSections\.usca/], [{ parsedSections: [] }, /parsedSections/],
    [{ supportedAPIs: ['usca'] }, /supportedAPIs/], [{ cmpId: 0 }, /cmpId/], [{ cmpDisplayStatus: 'shown' }, /cmpDisplayStatus/],
    [{ signalStatus: 'done' }, /signalStatus/], [null, /state/], [{ ...OPTED_OUT, cmpId: -1 }, /cmpId/]]) {
    assert.throws(() => cmp.update(bad), (e) => e.name === 'TypeError' && field.test(e.message), JSON.stringify(bad));
  }
  assert.deepEqual(plain(answer(cmp, 'ping')[0]), before);
});

test('a ready signal whose applicable section is not in the string is a TypeError; not ready, [-1] and [0] are not', () => {
  const cmp = createCmp({});
  assert.throws(() => cmp.update({ gppString: 'DBABMA~x', sectionList: [7], applicableSections: [8] }),
    (e) => e.name === 'TypeError' && /applicableSections: section 8 is not in sectionList/.test(e.message));
  assert.equal(answer(cmp, 'ping')[0].cmpStatus, 'loading', 'nothing changed');
  cmp.update({ gppString: 'DBABMA~x', sectionList: [7], applicableSections: [8], signalStatus: 'not ready' });
  cmp.update({ applicableSections: [-1] });
  cmp.update({ applicableSections: [0] });
  assert.equal(answer(cmp, 'ping')[0].signalStatus, 'ready');
});

test('disable: cmpStatus error then an error event, then only ping answers and no listener hears more', () => {
  const { cmp, events } = listened();
  cmp.update(NOT_OPTED_OUT);
  events.length = 0;
  cmp.disable('consentd did not answer');
  cmp.update(OPTED_OUT);
  assert.deepEqual(events.map((e) => e.slice(0, 2)), [['cmpStatus', 'error'], ['error', 'consentd did not answer']]);
  assert.equal(answer(cmp, 'ping')[0].cmpStatus, 'error');
  assert.equal(answer(cmp, 'ping')[0].gppString, NOT_OPTED_OUT.gppString, 'the update after disable changed nothing');
  for (const command of ['addEventListener', 'getField', 'hasSection']) assert.deepEqual(answer(cmp, command, 'usca.SaleOptOut'), [null, false], command);
});

test('one listener throwing does not keep the others from the event; its error is reported afterwards', () => {
  const later = [];
  const cmp = gppapi((run) => later.push(run)).createCmp({});
  const heard = [];
  cmp.api('addEventListener', (e) => { if (e.eventName === 'cmpStatus') throw new Error('a vendor\'s bug'); });
  cmp.api('addEventListener', (e) => heard.push(e.eventName));
  cmp.update(NOT_OPTED_OUT);
  assert.deepEqual(heard, ['listenerRegistered', 'cmpStatus', 'signalStatus']);
  assert.equal(later.length, 1);
  assert.throws(later[0], /a vendor's bug/);
});
