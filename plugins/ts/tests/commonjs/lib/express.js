'use strict';

var EventEmitter = require('node:events').EventEmitter;
var proto = require('./application');
var Route = require('./route');
var debug = require('debug')('express');

exports = module.exports = createApplication;

/** Create an application. */
function createApplication() {
  var app = function (req, res, next) {
    app.handle(req, res, next);
  };
  debug('created');
  proto.init();
  new EventEmitter();
  return app;
}

exports.application = proto;
exports.Route = Route;

exports.json = function json(opts) {
  return opts;
};
