'use strict';

module.exports = View;

function View(name) {
  this.name = name;
  this.path = this.lookup(name);
}

View.prototype.lookup = function lookup(name) {
  return name;
};

View.prototype.render = function render() {
  return this.lookup(this.name);
};
