'use strict';

module.exports = Route;

function Route(path) {
  this.path = path;
  this.stack = [];
  this.reset();
}

Route.prototype.reset = function reset() {
  this.stack = [];
};

Route.prototype.dispatch = function dispatch(req, res) {
  this.reset();
  var self = this;
  this.stack.forEach(function (layer) {
    self.handle(layer);
    this.handle(layer);
  });
};

Route.prototype.handle = function handle(layer) {
  return layer;
};
