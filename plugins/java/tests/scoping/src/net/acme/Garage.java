package net.acme;

import java.util.List;
import java.util.function.Consumer;

public class Garage<T extends Engine> {
    private Engine engine;
    private Wheel wheel;
    private T typed;

    // A local declared in a block is invisible after the block: `engine` is the field again.
    // @fact edge CALLS net.acme.Garage.blocks -> net.acme.Wheel.spin by=receiver
    // @fact edge CALLS net.acme.Garage.blocks -> net.acme.Engine.start by=receiver
    void blocks(boolean b) {
        if (b) {
            Wheel engine = new Wheel();
            engine.spin();
        }
        engine.start();
    }

    // A for-each variable lives in its loop only.
    // @fact edge CALLS net.acme.Garage.loops -> net.acme.Wheel.start by=receiver
    // @fact edge CALLS net.acme.Garage.loops -> net.acme.Engine.start by=receiver
    void loops(List<Wheel> wheels) {
        for (Wheel engine : wheels) { engine.start(); }
        engine.start();
    }

    // A parameter shadows the field of the same name.
    // @fact edge CALLS net.acme.Garage.shadow -> net.acme.Wheel.start by=receiver
    // @fact no-edge CALLS net.acme.Garage.shadow -> net.acme.Engine.start
    void shadow(Wheel engine) { engine.start(); }

    // An untyped lambda parameter shadows the field: unknown, never the field's type.
    // @fact edge CALLS net.acme.Garage.lambda -> ?::src/net/acme/Garage.java::wheel.spin reason="receiver type unknown"
    // @fact no-edge CALLS net.acme.Garage.lambda -> net.acme.Wheel.spin
    void lambda(List<Object> xs) {
        xs.forEach(wheel -> wheel.spin());
    }

    // A typed lambda parameter is a declaration.
    // @fact edge CALLS net.acme.Garage.typedLambda -> net.acme.Wheel.spin by=receiver
    void typedLambda() {
        Consumer<Wheel> c = (Wheel w) -> w.spin();
    }

    // A catch parameter lives in its catch block.
    // @fact edge CALLS net.acme.Garage.caught -> java:java.lang.IllegalStateException.getMessage by=receiver
    // @fact edge CALLS net.acme.Garage.caught -> net.acme.Wheel.spin by=receiver
    void caught(Wheel e) {
        try { e.spin(); } catch (IllegalStateException e2) { e2.getMessage(); }
    }

    // try-with-resources bindings, `var` included.
    // @fact edge CALLS net.acme.Garage.resources -> net.acme.Res.close by=receiver
    // @fact edge CALLS net.acme.Garage.resources -> net.acme.Res.use by=receiver
    void resources() {
        try (var r = new Res(); Res s = new Res()) { r.close(); s.use(); }
    }

    // A receiver typed by a type variable binds through its bound, with medium confidence.
    // @fact edge CALLS net.acme.Garage.generic -> net.acme.Engine.start by=receiver confidence=medium
    // @fact edge CALLS net.acme.Garage.generic -> ?::src/net/acme/Garage.java::u.spin reason="receiver type unknown"
    <U> void generic(U u) {
        typed.start();
        u.spin();
    }

    // Member types resolve through the declaring type.
    // @fact edge CALLS net.acme.Garage.nested -> net.acme.Engine.Part.fit by=receiver
    // @fact edge INSTANTIATES net.acme.Garage.nested -> net.acme.Engine.Part by=package
    void nested() {
        Engine.Part p = new Engine.Part();
        p.fit();
    }

    // An inner class calls the outer class's methods and fields.
    // @fact edge CALLS net.acme.Garage.Bay.park -> net.acme.Garage.blocks by=scope
    // @fact edge CALLS net.acme.Garage.Bay.park -> net.acme.Engine.start by=receiver
    // @fact edge CALLS net.acme.Garage.Bay.park -> net.acme.Garage.Bay.close by=scope
    class Bay {
        void close() {}
        void park() { blocks(true); engine.start(); close(); }
    }

    // A local class sees the method's locals.
    // @fact edge CALLS net.acme.Garage.local.Mechanic.fix -> net.acme.Wheel.spin by=receiver
    void local() {
        Wheel spare = new Wheel();
        class Mechanic { void fix() { spare.spin(); } }
    }

    // `Outer.this.m()` names the outer instance.
    // @fact edge CALLS net.acme.Garage.Bay2.go -> net.acme.Garage.shadow by=self
    class Bay2 {
        void shadow(Wheel w) {}
        void go() { Garage.this.shadow(null); }
    }
}
