// The "Your Privacy Choices" icon (Sources/ConsentKitUI/Resources/notice/privacy-choices.svg), which
// the US notice and a site's link show: an image with an accessible name, self-contained.
// Run: node --test Tests/js
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { RESOURCES } = require('./load.js');

const svg = fs.readFileSync(path.join(RESOURCES, 'notice', 'privacy-choices.svg'), 'utf8');

test('the icon is an image named "Your Privacy Choices" by its label and its title', () => {
  const root = /<svg\b[^>]*>/.exec(svg)[0];
  assert.match(root, /\brole="img"/);
  assert.match(root, /\baria-label="Your Privacy Choices"/);
  assert.match(svg, /<title>Your Privacy Choices<\/title>/);
});

test('the icon loads nothing: no link, script, image or style from anywhere', () => {
  assert.doesNotMatch(svg, /href=|<script|<image|<style|url\(|@import/i);
});
