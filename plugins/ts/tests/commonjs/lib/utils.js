exports.x = () => 1;

module.exports.y = function () {
  return exports.x();
};
