#!/bin/bash
# @fact node run.sh::build Function
build() {
  echo building # @fact edge CALLS run.sh::build -> ?::run.sh::echo reason="not defined in this file"
}
main() {
  build # @fact edge CALLS run.sh::main -> run.sh::build by=scope
}
main "$@"
