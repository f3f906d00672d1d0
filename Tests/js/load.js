// Loads the web scripts as a browser does (plain scripts, no build step) into a fresh V8 context,
// for `node --test Tests/js` (scripts/test). Only the pure parts are tested here; the pages
// themselves are tested in Chromium (Tests/notice).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const RESOURCES = path.join(__dirname, '..', '..', 'Sources', 'ConsentKitUI', 'Resources');

/** Runs `files` (paths under ConsentKitUI's Resources) in one new context; returns the context. */
function load(files, globals = {}) {
  const context = vm.createContext({ ...globals });
  context.window = context;
  for (const file of files) {
    vm.runInContext(fs.readFileSync(path.join(RESOURCES, file), 'utf8'), context, { filename: file });
  }
  return context;
}

/** notice-model.js's NoticeModel (a script's top-level const: read back from its context). */
function noticeModel() {
  return vm.runInContext('NoticeModel', load(['notice/notice-model.js']));
}

/** cmp/tcfapi.js's pure helpers, which it exports when a `module` is there. */
function tcfapi() {
  const module = { exports: {} };
  load(['cmp/tcfapi.js'], { module, setTimeout });
  return module.exports;
}

/** cmp/gppapi.js's state machine (createCmp), which it exports when a `module` is there; `timer`
 * stands for setTimeout (through which it reports a callback's error). */
function gppapi(timer = setTimeout) {
  const module = { exports: {} };
  load(['cmp/gppapi.js'], { module, setTimeout: timer });
  return module.exports;
}

module.exports = { load, noticeModel, tcfapi, gppapi, RESOURCES };
