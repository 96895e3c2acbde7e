'use strict';

module.exports = require('./lib/express');
