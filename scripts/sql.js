#!/usr/bin/env node
// Writes src/database/queries/ anew: the SQL of every statement, compiled
// by the built modules (`presql` builds them when dist/ is stale), whose
// source maps lead each statement back to its name in src/. The unit test
// src/database/query-files.spec.ts fails while these files differ.
process.setSourceMapsEnabled(true);
const { queryFiles, writeQueryFiles } = require('../dist/database/query-files');

const files = queryFiles();
const mended = writeQueryFiles(files);
for (const difference of mended) console.log(difference);
console.log(
  `${files.size} files in src/database/queries/, ${mended.length} written anew or removed`,
);
