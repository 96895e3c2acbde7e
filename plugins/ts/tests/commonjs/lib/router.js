'use strict';

const express = require('./express');
const { json } = require('./express');
const res = require('./response');

function make() {
  const route = new express.Route('/');
  route.dispatch();
  json({});
  express.json({});
  res.send('ok');
  express();
}

module.exports = { make };

const { x, y } = require('./utils');
x();
y();
