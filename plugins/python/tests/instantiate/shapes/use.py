from shapes import models
from shapes.models import Child, ExtChild, Plain, Point, Widget


def build():
    Widget("w")  # @fact edge INSTANTIATES shapes.use.build -> shapes.models.Widget by=import line=6
    # @fact edge CALLS shapes.use.build -> shapes.models.Widget.__init__ by=import line=6
    Plain()  # no __init__ declared in the tree: INSTANTIATES only
    # @fact edge INSTANTIATES shapes.use.build -> shapes.models.Plain by=import
    # @fact no-edge CALLS shapes.use.build -> python:builtins.object.__init__
    Child()  # the inherited __init__ is the one that runs
    # @fact edge INSTANTIATES shapes.use.build -> shapes.models.Child by=import line=11
    ExtChild()  # @fact edge INSTANTIATES shapes.use.build -> shapes.models.ExtChild by=import
    Point(x=1)  # @fact edge INSTANTIATES shapes.use.build -> shapes.models.Point by=import
    models.Outer.Inner()  # @fact edge INSTANTIATES shapes.use.build -> shapes.models.Outer.Inner by=class
    # @fact edge CALLS shapes.use.build -> shapes.models.Outer.Inner.__init__ by=class
    # @fact no-edge CALLS shapes.use.build -> shapes.models.Outer.Inner


# Python has no `new`: calling a class is instantiation, never a CALLS edge to the class.
# @fact no-edge CALLS shapes.use.build -> shapes.models.Widget
