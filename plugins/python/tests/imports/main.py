import app  # @fact edge IMPORTS main -> app by=import
import app.util  # @fact edge IMPORTS main -> app.util by=import
import app.core as c  # @fact edge IMPORTS main -> app.core by=import
from app import Engine as E  # @fact edge IMPORTS main -> app.core.Engine by=import
from app.core import start as go
import requests  # @fact edge IMPORTS main -> python:requests by=import
from requests import get  # @fact edge IMPORTS main -> python:requests.get by=import
import os.path  # @fact edge IMPORTS main -> python:os.path by=import
from collections import OrderedDict
from app.util import nothing
from app.helpers import *
from app.plain import *
import json


def main():
    app.util.tool()  # @fact edge CALLS main.main -> app.util.tool by=import line=17
    c.start()  # @fact edge CALLS main.main -> app.core.start by=import line=18
    E()  # @fact edge INSTANTIATES main.main -> app.core.Engine by=import line=19
    # @fact edge CALLS main.main -> app.core.Engine.__init__ by=import
    app.Engine()  # through the package's re-export, same target
    go()  # @fact edge CALLS main.main -> app.core.start by=import
    requests.get("u")  # @fact edge CALLS main.main -> python:requests.get by=import
    get("u")  # same External
    os.path.join("a", "b")  # @fact edge CALLS main.main -> python:os.path.join by=import
    OrderedDict()  # @fact edge CALLS main.main -> python:collections.OrderedDict by=import
    nothing()  # @fact edge CALLS main.main -> ?::main.py::nothing reason="not found in module app.util"
    public_a()  # @fact edge CALLS main.main -> app.helpers.public_a by=import
    public_b()  # @fact edge CALLS main.main -> ?::main.py::public_b reason="not defined in scope"
    plain_fn()  # @fact edge CALLS main.main -> app.plain.plain_fn by=import
    _hidden()  # @fact edge CALLS main.main -> ?::main.py::_hidden reason="not defined in scope"
    json.dumps({})  # a loose scripts/json.py is not the stdlib json for this importer
    # @fact edge CALLS main.main -> python:json.dumps by=import
    # @fact no-edge CALLS main.main -> json.dumps


def lazy():
    from app.util import tool  # @fact edge IMPORTS main.lazy -> app.util.tool by=import

    tool()  # @fact edge CALLS main.lazy -> app.util.tool by=import
