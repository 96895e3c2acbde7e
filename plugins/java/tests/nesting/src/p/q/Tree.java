package p.q;

import java.util.List;

// Member types inherited from a superclass resolve by simple name, even in the extends clause of
// a nested class; a nested type shadows a same-named top-level type of the package.
public class Tree extends Base {
    // @fact edge IMPLEMENTS p.q.Tree.Printer -> p.q.Base.Visitor by=scope
    static class Printer implements Visitor {
        // @fact edge CALLS p.q.Tree.Printer.see -> p.q.Base.Node.visit by=receiver
        public void see(Node n) { n.visit(); }
    }

    static class Helper { void assist() {} }

    // @fact edge CALLS p.q.Tree.walk -> p.q.Tree.Helper.assist by=receiver
    // @fact no-edge CALLS p.q.Tree.walk -> p.q.Helper.assist
    // a generic method call keeps its name
    // @fact edge CALLS p.q.Tree.walk -> java:java.util.Collections.emptyList by=class
    // @fact edge CALLS p.q.Tree.walk -> p.q.Tree.id by=self
    void walk(Helper h) {
        h.assist();
        java.util.Collections.<String>emptyList();
        this.<String>id("x");
    }
    <T> T id(T t) { return t; }

    // switch patterns bind their variable
    // @fact edge CALLS p.q.Tree.match -> p.q.Base.Node.visit by=receiver
    void match(Object o) {
        switch (o) {
            case Node n -> n.visit();
            default -> {}
        }
    }

    // an array receiver has no methods of the repo
    // @fact edge CALLS p.q.Tree.arrays -> ?::src/p/q/Tree.java::nodes.clone reason="receiver type unknown"
    void arrays(Node[] nodes) { nodes.clone(); }
}
