// The CMP API's pure helpers (Sources/ConsentKitUI/Resources/cmp/tcfapi.js), without a browser:
// the IABTCF_* in-app bit strings (and the id maps read back from them) and restriction strings, and the vendor list version read from
// a TC string. Run: node --test Tests/js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { tcfapi } = require('./load.js');

const { bitString, idMapOf, restrictionStrings, vendorListVersionOf } = tcfapi();
const plain = (x) => JSON.parse(JSON.stringify(x));

test('bitString: character n is id n+1, up to the highest id set', () => {
  assert.equal(bitString({ 1: true, 3: true }), '101');
  assert.equal(bitString({ 2: true, 5: false, 4: true }), '0101');
});

test('bitString: only true counts, and nothing set gives an empty string', () => {
  assert.equal(bitString({ 1: 'true', 2: 1, 3: false }), '');
  assert.equal(bitString({}), '');
  for (const notAMap of [null, undefined, 'x', [true, true]]) assert.equal(bitString(notAMap), '', String(notAMap));
});

test('bitString: ids that are not integers from 1 to 65535 are ignored (a key 1e9 makes no huge string)', () => {
  assert.equal(bitString({ 2: true, 1e9: true, 65536: true, '1.5': true, x: true, '-3': true }), '01');
  assert.equal(bitString({ 65535: true }).length, 65535);
});

test('idMapOf: character n of a binary string is id n+1, every id up to the string\'s length a key', () => {
  assert.deepEqual(plain(idMapOf('101')), { 1: true, 2: false, 3: true });
  assert.deepEqual(plain(idMapOf('')), {});
  assert.deepEqual(Object.keys(idMapOf('0000000001')), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
});

test('idMapOf is bitString\'s inverse', () => {
  const map = { 1: false, 2: true, 3: false, 4: false, 5: true, 813: true };
  for (let id = 6; id < 813; id++) map[id] = id % 7 === 0;
  assert.deepEqual(plain(idMapOf(bitString(map))), plain(map));
  assert.equal(JSON.stringify(idMapOf(bitString(map))), JSON.stringify(JSON.parse(JSON.stringify(map))), 'the same keys in the same order');
});

test('idMapOf: anything but a binary string of at most 65535 characters is a TypeError', () => {
  for (const bad of ['102', '1 0', 'true', '0b1', '1'.repeat(65536)]) {
    assert.throws(() => idMapOf(bad), (e) => e.name === 'TypeError' && /binary string/.test(e.message), bad.slice(0, 10));
  }
  assert.equal(Object.keys(idMapOf('1'.repeat(65535))).length, 65535);
});

test('restrictionStrings: per purpose, one character per vendor up to the highest restricted one', () => {
  assert.deepEqual(plain(restrictionStrings({ 2: { 8: 1 } })), { 2: '_______1' });
  assert.deepEqual(plain(restrictionStrings({ 1: { 1: 0, 3: 2 }, 7: { 2: 1 } })), { 1: '0_2', 7: '_1' });
});

test('restrictionStrings: purposes outside 1-24 and restriction types outside 0-2 are dropped', () => {
  assert.deepEqual(plain(restrictionStrings({ 0: { 1: 1 }, 25: { 1: 1 }, 3: { 1: 3, 2: '1' }, 4: 'x' })), {});
  assert.deepEqual(plain(restrictionStrings(null)), {});
});

// A TC string's core segment with VendorListVersion `version` (12 bits from bit 120) and every
// other bit 0, base64url without padding.
function coreWithVersion(version, bits = 180) {
  const all = new Array(bits).fill(0);
  for (let i = 0; i < 12; i++) all[120 + i] = (version >> (11 - i)) & 1;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let out = '';
  for (let i = 0; i < all.length; i += 6) out += alphabet[parseInt(all.slice(i, i + 6).join('').padEnd(6, '0'), 2)];
  return out;
}

test('vendorListVersionOf reads the 12 bits from bit 120 of the core segment', () => {
  for (const version of [1, 45, 224, 4095]) assert.equal(vendorListVersionOf(coreWithVersion(version)), version);
  assert.equal(vendorListVersionOf(coreWithVersion(45) + '.YAAAAAAAAAAA'), 45, 'other segments after the first dot do not count');
});

test('vendorListVersionOf: no version from what is not a TC string', () => {
  assert.equal(vendorListVersionOf(undefined), undefined);
  assert.equal(vendorListVersionOf(45), undefined);
  assert.equal(vendorListVersionOf('CPx'), undefined, 'shorter than the 22 characters that hold bit 131');
  assert.equal(vendorListVersionOf('!'.repeat(30)), undefined, 'not base64url');
});
