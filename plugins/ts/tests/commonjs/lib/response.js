'use strict';

var http = require('node:http');

var res = Object.create(http.ServerResponse.prototype);

module.exports = res;

res.status = function status(code) {
  this.statusCode = code;
  return this;
};

res.send = function send(body) {
  this.status(200);
  return this;
};

res.json = function json(obj) {
  return this.send(JSON.stringify(obj));
};
