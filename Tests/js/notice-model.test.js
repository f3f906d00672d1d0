// The notice's pure model (Sources/ConsentKitUI/Resources/notice/notice-model.js), without a
// browser: what a document must hold, the indexes the layers show, the choices a notice opens on
// and the choices a save sends. Run: node --test Tests/js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { noticeModel } = require('./load.js');

const M = noticeModel();
// Values made in the script's context have that context's prototypes: compare them as JSON.
const plain = (x) => JSON.parse(JSON.stringify(x, (k, v) => (Object.prototype.toString.call(v) === '[object Set]' ? [...v] : v)));

function documentWith(overrides = {}) {
  return {
    protocol: 1, mode: 'tcf', language: 'en', texts: { acceptAll: 'Accept all' },
    publisher: { name: 'Example News', privacyPolicyUrl: 'https://news.example.com/privacy' },
    cmp: { id: 300, version: 1 },
    purposes: { 1: { name: 'Store' }, 2: { name: 'Basic ads' }, 7: { name: 'Measure ads' }, 9: { name: 'Research' } },
    specialFeatures: { 1: { name: 'Geolocation' } },
    vendors: [
      { id: 8, name: 'Eight', purposes: [1, 2], legIntPurposes: [7], specialFeatures: [1] },
      { id: 3, name: 'Three', purposes: [1], legIntPurposes: [1, 3, 4] },
      { id: 5, name: 'Five', purposes: [2], legIntPurposes: [2, 9], features: [1], specialPurposes: [1] }
    ],
    adTechProviders: [{ id: 89, name: 'Example Ad Network' }],
    ...overrides
  };
}
const modelOf = (d) => { const doc = M.normalise(d); return [doc, M.buildModel(doc)]; };

// ------------------------------------------------------------------------------------ validate

test('a complete document is valid', () => {
  assert.equal(M.validate(documentWith()), null);
});

test('a document that is not an object is malformed', () => {
  for (const value of [null, undefined, 'text', 7, [documentWith()]]) {
    assert.deepEqual(plain(M.validate(value)), ['malformed_document', 'The document is not a JSON object.']);
  }
});

test('another protocol version is unsupported, and the message names it', () => {
  const problem = M.validate(documentWith({ protocol: 2 }));
  assert.equal(problem[0], 'unsupported_protocol');
  assert.match(problem[1], /names 2\./);
});

test('the mode is tcf or google', () => {
  assert.equal(M.validate(documentWith({ mode: 'gpp' }))[0], 'malformed_document');
  assert.equal(M.validate(documentWith({ mode: 'google' })), null);
});

test('texts must be an object and the language an ISO 639-1 code', () => {
  assert.equal(M.validate(documentWith({ texts: null }))[1], 'texts must be an object.');
  for (const language of ['EN', 'eng', 'de-AT', 5]) {
    assert.equal(M.validate(documentWith({ language }))[1], 'language must be an ISO 639-1 code.');
  }
});

test('the publisher needs an http(s) privacy policy URL', () => {
  assert.equal(M.validate(documentWith({ publisher: undefined }))[0], 'missing_privacy_policy_url');
  for (const url of [undefined, 'javascript:alert(1)', 'news.example.com/privacy', 'https://a b']) {
    assert.equal(M.validate(documentWith({ publisher: { privacyPolicyUrl: url } }))[0], 'missing_privacy_policy_url', String(url));
  }
});

test('the CMP id is an integer from 2 to 4095', () => {
  for (const cmp of [undefined, { id: 1 }, { id: 4096 }, { id: 2.5 }, { id: '300' }]) {
    assert.equal(M.validate(documentWith({ cmp }))[0], 'missing_cmp_id', JSON.stringify(cmp));
  }
  assert.equal(M.validate(documentWith({ cmp: { id: 2 } })), null);
  assert.equal(M.validate(documentWith({ cmp: { id: 4095 } })), null);
});

test('every vendor and ad-tech provider needs a numeric id and a name, and the message says which', () => {
  assert.equal(M.validate(documentWith({ vendors: {} }))[1], 'vendors must be an array.');
  assert.equal(M.validate(documentWith({ vendors: [{ id: 1, name: 'One' }, { id: '2', name: 'Two' }] }))[1], 'vendors[1] needs a numeric id and a name.');
  assert.equal(M.validate(documentWith({ adTechProviders: [{ id: 89 }] }))[1], 'adTechProviders[0] needs a numeric id and a name.');
});

test('a TCF notice needs a vendor; a Google notice a vendor or an ad-tech provider', () => {
  assert.equal(M.validate(documentWith({ vendors: [] }))[0], 'no_vendors');
  assert.equal(M.validate(documentWith({ mode: 'google', vendors: [] })), null);
  assert.equal(M.validate(documentWith({ mode: 'google', vendors: [], adTechProviders: null }))[0], 'no_vendors');
});

test('001-12: a Google notice offers personalized or non-personalized ads, at least one', () => {
  const google = (offers) => M.validate(documentWith({ mode: 'google', google: offers }));
  assert.deepEqual(plain(google({ personalizedOffered: false, nonPersonalizedOffered: false })),
    ['malformed_document', 'A Google notice must offer personalized or non-personalized ads.']);
  assert.equal(google({ personalizedOffered: false, nonPersonalizedOffered: true }), null);
  assert.equal(google({ personalizedOffered: true, nonPersonalizedOffered: false }), null);
  assert.equal(google({ personalizedOffered: false }), null);
});

// ------------------------------------------------------------------------------------ normalise

test('normalise gives every optional part its empty value and keeps what is there', () => {
  const doc = M.normalise({ protocol: 1, vendors: [{ id: 1, name: 'One' }], stacks: [{ id: 1 }, 'junk', null], adFree: true });
  assert.deepEqual(plain(doc), {
    protocol: 1, vendors: [{ id: 1, name: 'One' }], adTechProviders: [], purposes: {}, specialPurposes: {}, features: {},
    specialFeatures: {}, dataCategories: {}, stacks: [{ id: 1 }], adFree: {}, google: {}
  });
});

// ------------------------------------------------------------------------------------ buildModel

test('buildModel indexes the vendors of each purpose, feature and special feature', () => {
  const [, m] = modelOf(documentWith());
  assert.deepEqual(Object.keys(m.vendorById).map(Number).sort((a, b) => a - b), [3, 5, 8]);
  assert.deepEqual(plain(m.consentByPurpose[1]).map((v) => v.id), [8, 3]);
  assert.deepEqual(plain(m.consentByPurpose[2]).map((v) => v.id), [8, 5]);
  assert.deepEqual(plain(m.bySpecialFeature[1]).map((v) => v.id), [8]);
  assert.deepEqual(plain(m.byFeature[1]).map((v) => v.id), [5]);
  assert.deepEqual(plain(m.bySpecialPurpose[1]).map((v) => v.id), [5]);
});

test('legitimate interest is never shown for purposes 1 and 3 to 6, whatever a vendor declares', () => {
  const [, m] = modelOf(documentWith());
  assert.deepEqual(plain(m.liPurposesOf[3]), []);
  assert.equal(m.liByPurpose[1], undefined);
  assert.equal(m.liByPurpose[3], undefined);
});

test('the vendors with an objectable legitimate interest are listed sorted', () => {
  const [, m] = modelOf(documentWith());
  assert.deepEqual(plain(m.liVendorIds), [5, 8]);
  assert.deepEqual(plain(m.liPurposesOf[5]), [2, 9]);
});

test('a legitimate-interest purpose the document does not describe is not offered', () => {
  const d = documentWith();
  delete d.purposes[9];
  const [, m] = modelOf(d);
  assert.deepEqual(plain(m.liPurposeIds), [2, 7]);
});

// ------------------------------------------------------------------------------------ initialChoices

test('without present choices every switch starts off', () => {
  const [doc, m] = modelOf(documentWith());
  const c = plain(M.initialChoices(doc, m));
  assert.deepEqual(c, { purposeConsents: [], purposeObjections: [], specialFeatureOptIns: [], vendorConsents: [], vendorObjections: [], atpConsents: [] });
});

test('present choices are taken for what the notice shows, and nothing else', () => {
  const [doc, m] = modelOf(documentWith({
    current: {
      purposeConsents: [1, 2, 10], specialFeatureOptIns: [1, 2], vendorConsents: [3, 8, 99], adTechProviderConsents: [89, 1051],
      purposeLegitimateInterests: [7], vendorLegitimateInterests: [8]
    }
  }));
  const c = plain(M.initialChoices(doc, m));
  assert.deepEqual(c.purposeConsents, [1, 2]);
  assert.deepEqual(c.specialFeatureOptIns, [1]);
  assert.deepEqual(c.vendorConsents, [3, 8]);
  assert.deepEqual(c.atpConsents, [89]);
  // The legitimate interests kept are the ones not objected to.
  assert.deepEqual(c.purposeObjections, [2, 9]);
  assert.deepEqual(c.vendorObjections, [5]);
});

test('present choices without legitimate-interest lists object to nothing', () => {
  const [doc, m] = modelOf(documentWith({ current: { purposeConsents: [1] } }));
  const c = plain(M.initialChoices(doc, m));
  assert.deepEqual([c.purposeObjections, c.vendorObjections], [[], []]);
});

// ------------------------------------------------------------------------------------ collectChoices

test('a save sends sorted ids and the legitimate interests not objected to', () => {
  const [doc, m] = modelOf(documentWith());
  const c = M.initialChoices(doc, m);
  [9, 2, 1].forEach((id) => c.purposeConsents.add(id));
  [8, 3].forEach((id) => c.vendorConsents.add(id));
  c.purposeObjections.add(7);
  c.vendorObjections.add(8);
  c.atpConsents.add(89);
  assert.deepEqual(plain(M.collectChoices(m, c)), {
    purposeConsents: [1, 2, 9], purposeLegitimateInterests: [2, 9], specialFeatureOptIns: [], vendorConsents: [3, 8],
    vendorLegitimateInterests: [5], adTechProviderConsents: [89]
  });
});

test('a notice opened on present choices and saved untouched sends them back', () => {
  const current = {
    purposeConsents: [1, 2], purposeLegitimateInterests: [7, 9], specialFeatureOptIns: [1], vendorConsents: [3, 8],
    vendorLegitimateInterests: [8], adTechProviderConsents: [89]
  };
  const [doc, m] = modelOf(documentWith({ current }));
  assert.deepEqual(plain(M.collectChoices(m, M.initialChoices(doc, m))), current);
});
