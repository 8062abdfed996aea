// Refuses, in one line and before anything else runs, a Node.js that this
// project does not support (package.json "engines"). Written for any Node.js
// that may still be installed: no syntax newer than ES5 before the check.
'use strict';
var path = require('path');
var fs = require('fs');

var root = path.join(__dirname, '..');
var range = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  .engines.node;
var wanted = fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();

/** Whether `version` (x.y.z) is in `range`: alternatives of ^x.y.z and >=x.y. */
function supports(version, range) {
  var v = version.split('.').map(Number);
  return range.split('||').some(function (part) {
    var m = /^\s*(\^|>=)\s*(\d+)\.(\d+)(?:\.(\d+))?\s*$/.exec(part);
    if (!m) throw new Error('engines.node: cannot read "' + part + '"');
    var min = [Number(m[2]), Number(m[3]), Number(m[4] || 0)];
    if (m[1] === '^' && v[0] !== min[0]) return false;
    for (var i = 0; i < 3; i++) if (v[i] !== min[i]) return v[i] > min[i];
    return true;
  });
}

/** The range in words: "22.22.3 or a later 22, or 24.11 or later". */
function inWords(range) {
  return range
    .split('||')
    .map(function (part) {
      var m = /^\s*(\^|>=)\s*([\d.]+)\s*$/.exec(part);
      return m[1] === '^'
        ? m[2] + ' or a later ' + m[2].split('.')[0]
        : m[2] + ' or later';
    })
    .join(', or ');
}

// Run or required, it checks the Node.js running it.
var found = process.versions.node;
if (!supports(found, range)) {
  process.stderr.write(
    'Node.js ' + found + ' is not supported; this project runs on Node.js ' +
      inWords(range) + ' (.nvmrc: ' + wanted + '). ' +
      'Get it with `export PATH="$(scripts/node-path.sh):$PATH"` (Linux x64), or `nvm use` / `fnm use`, then run the command again.\n',
  );
  process.exit(1);
}

module.exports = { supports: supports };
