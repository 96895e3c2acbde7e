'use strict';

var View = require('./view');

var app = exports = module.exports = {};

app.init = function init() {
  this.defaultConfiguration();
};

app.defaultConfiguration = function defaultConfiguration() {
  this.set('x', 1);
};

app.set = function set(setting, val) {
  return this;
};

app.render = function render(name) {
  var view = new View(name);
  view.render();
  app.set('view', view);
};

app.setup = function setup() {
  this.cache = {};
  this.init();
};
