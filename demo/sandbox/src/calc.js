// calc.js: arithmetic.
'use strict';

function add(a, b) {
  return a + b;
}

// Must throw if b is 0.
function divide(a, b) {
  return a / b;
}

module.exports = { add, divide };
