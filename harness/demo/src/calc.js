// calc.js: the arithmetic behind `npm start`.
'use strict';

function add(a, b) {
  return a + b;
}

// Division by zero must throw, as test/calc.test.js expects.
function divide(a, b) {
  return a / b;
}

module.exports = { add, divide };
