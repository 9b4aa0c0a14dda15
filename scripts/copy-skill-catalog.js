#!/usr/bin/env node
// Copies the skill store's seed catalog (skill.json files and capability code, read at run time,
// not imported) next to the compiled code: dist/actors/skills/catalog. docs/skills.md, "The catalog".
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const from = path.join(root, 'actors', 'skills', 'catalog');
const to = path.join(root, 'dist', 'actors', 'skills', 'catalog');

fs.rmSync(to, { recursive: true, force: true });
fs.cpSync(from, to, { recursive: true, filter: (src) => !/\.(ts|map)$/.test(src) });
