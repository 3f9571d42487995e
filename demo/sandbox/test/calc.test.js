'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { add, divide } = require('..');

test('add', () => {
  assert.equal(add(2, 3), 5);
});

test('divide returns the quotient and throws on zero', () => {
  assert.equal(divide(6, 3), 2);
  assert.throws(() => divide(1, 0), /division by zero/);
});
