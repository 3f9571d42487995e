// calc.js: a small calculator with a bug in divide.
function add(a, b) {
  return a + b;
}

function divide(a, b) {
  // BUG: should refuse b === 0
  return a / b;
}

module.exports = { add, divide };

// end
