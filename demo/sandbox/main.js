module.exports = require('./src/calc');
