'use strict';
const { add, divide } = require('./calc');

const [a, b] = process.argv.slice(2).map(Number);
console.log(`${a} + ${b} = ${add(a, b)}`);
console.log(`${a} / ${b} = ${divide(a, b)}`);
