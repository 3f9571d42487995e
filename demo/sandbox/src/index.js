'use strict';
const calc = require('./calc');

// usage: node src/index.js add 2 3
const [op, a, b] = process.argv.slice(2);
console.log(calc[op](Number(a), Number(b)));
