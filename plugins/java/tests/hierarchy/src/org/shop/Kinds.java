package org.shop;

// @fact node org.shop.Color Enum
// @fact edge IMPLEMENTS org.shop.Color -> org.shop.Named
// an enum constant with arguments runs the constructor of that arity
// @fact edge CALLS org.shop.Color.RED -> org.shop.Color.Color(1) by=class
// @fact edge CALLS org.shop.Color.GREEN -> org.shop.Color.Color(0) by=class
enum Color implements Named {
    RED("r"), GREEN;
    Color() {}
    Color(String code) {}
    public String name2() { return name(); }
}

// `Iface.super.m()` calls the interface's default method.
// @fact edge CALLS org.shop.Labelled.label -> org.shop.Tagged.label by=super
interface Tagged { default String label() { return ""; } }
class Labelled implements Tagged {
    public String label() { return Tagged.super.label(); }
}

// Lombok accessors the annotations prove bind to the field (medium: generated code).
// @fact edge CALLS org.shop.Lombok.use -> org.shop.Bean.name by=receiver confidence=medium
// @fact edge CALLS org.shop.Lombok.use -> org.shop.Bean.active by=receiver confidence=medium
// @fact edge CALLS org.shop.Lombok.use -> ?::src/org/shop/Kinds.java::b.setName reason="member not found"
@lombok.Getter
class Bean { private String name; private boolean active; }
class Lombok {
    void use(Bean b) { b.getName(); b.isActive(); b.setName("x"); }
}

// @fact edge IMPLEMENTS org.shop.Point -> org.shop.Named
record Point(int x, int y) implements Named {
    public String name() { return "p"; }
}

class Kinds {
    // enum members from java.lang.Enum, record accessors bind to the component field
    // @fact edge CALLS org.shop.Kinds.use -> java:java.lang.Enum.ordinal by=receiver
    // @fact edge CALLS org.shop.Kinds.use -> java:java.lang.Enum.values by=class
    // @fact edge CALLS org.shop.Kinds.use -> org.shop.Point.x by=receiver
    // @fact edge CALLS org.shop.Kinds.use -> org.shop.Point.name by=receiver
    // @fact edge REFERENCES org.shop.Kinds.use -> org.shop.Color.RED by=class
    void use(Point p) {
        Color c = Color.RED;
        c.ordinal();
        Color.values();
        p.x();
        p.name();
    }

    // an anonymous class implements its type; `this` inside is the anonymous class
    // @fact edge IMPLEMENTS org.shop.Kinds$1 -> org.shop.Named
    // @fact edge INSTANTIATES org.shop.Kinds.make -> org.shop.Named
    // @fact edge CALLS org.shop.Kinds$1.name -> org.shop.Kinds$1.helper by=self
    // @fact no-edge CALLS org.shop.Kinds$1.name -> org.shop.Kinds.helper
    // bare calls fall back to the lexically enclosing class
    // @fact edge CALLS org.shop.Kinds$1.name -> org.shop.Kinds.outer by=scope confidence=high
    Named make() {
        return new Named() {
            public String name() { this.helper(); outer(); return ""; }
            void helper() {}
        };
    }
    void helper() {}
    void outer() {}

    // an anonymous class of a type outside the tree: an enclosing method is found, but the
    // dependency's type could declare one of that name too, so the binding is medium
    // @fact edge CALLS org.shop.Kinds$2.run -> org.shop.Kinds.outer by=scope confidence=medium
    Runnable task() {
        return new Runnable() { public void run() { outer(); } };
    }
}
