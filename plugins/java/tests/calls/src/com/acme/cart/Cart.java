package com.acme.cart;

import java.util.ArrayList;
import java.util.List;

public class Cart extends Base {
    private final List<Item> items = new ArrayList<>();
    private Item last;

    // super(..) binds to the superclass constructor; this(..) to the own one.
    // @fact edge CALLS com.acme.cart.Cart.Cart(1) -> com.acme.cart.Base.Base by=super
    // @fact edge CALLS com.acme.cart.Cart.Cart(0) -> com.acme.cart.Cart.Cart(1) by=self
    public Cart(Pricer pricer) { super(pricer); }
    public Cart() { this(null); }

    // Overloads: bound by argument count.
    public void add(Item item) { add(item, 1); }
    public void add(Item item, int qty) { items.add(item); last = item; }
    public void add(String sku, int qty) {}

    @Override
    protected void validate() {}

    public void checkout(Item param, Pricer other) {
        // bare m() in the class
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Cart.validate by=scope confidence=high
        validate();
        // this.m()
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Cart.add(1) by=self
        this.add(param);
        // inherited through EXTENDS in the tree
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Base.log by=scope
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Base.save by=self
        log("checkout");
        this.save();
        // super.m() goes to the superclass, never to an override in this class
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Base.validate by=super
        super.validate();
        // receiver typed by a parameter; an interface's method is medium (dispatch)
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Item.sku(0) by=receiver confidence=high
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Pricer.price by=receiver confidence=medium
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Pricer.discount by=receiver confidence=high
        param.sku();
        other.price(param);
        other.discount(param);
        // receiver typed by an inherited field
        // @fact edge REFERENCES com.acme.cart.Cart.checkout -> com.acme.cart.Base.pricer by=self
        this.pricer.price(param);
        // receiver typed by a field
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Item.copy by=receiver
        last.copy();
        // receiver typed by a local declaration, and by `var x = new T()`
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Tag.label by=receiver
        // @fact edge INSTANTIATES com.acme.cart.Cart.checkout -> com.acme.cart.Item by=package
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Item.Item(1) by=package
        Tag t = Tag.of("x");
        t.label();
        var fresh = new Item("a");
        fresh.tag();
        // `var x = recv.m()` typed by the declared return type of m
        var copy = fresh.copy();
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Item.tag by=receiver
        copy.tag();
        // a call chain through declared return types
        fresh.copy().tag().label();
        // Type.staticM()
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Tag.of by=class
        Tag.of("y");
        // overload chosen by argument count
        // @fact edge CALLS com.acme.cart.Cart.checkout -> com.acme.cart.Cart.add(1) by=self
        // several overloads with that count: ambiguous
        // @fact edge CALLS com.acme.cart.Cart.checkout -> ?::src/com/acme/cart/Cart.java::add reason="ambiguous: 2 candidates"
        add("sku", 2);
        // no overload with that count
        // @fact edge CALLS com.acme.cart.Cart.checkout -> ?::src/com/acme/cart/Cart.java::param.copy reason="no overload with 1 arguments"
        param.copy(1);
        // a method the type does not declare (and its hierarchy stays in the tree)
        // @fact edge CALLS com.acme.cart.Cart.checkout -> ?::src/com/acme/cart/Cart.java::param.weight reason="member not found"
        param.weight();
        // Object's methods are External
        // @fact edge CALLS com.acme.cart.Cart.checkout -> java:java.lang.Object.hashCode by=receiver
        param.hashCode();
        // a call on the result of a call into a dependency: unknown
        // @fact edge CALLS com.acme.cart.Cart.checkout -> "?::src/com/acme/cart/Cart.java::items.get(0).sku" reason="receiver type unknown"
        items.get(0).sku();
        // calls inside a lambda belong to the enclosing method; the lambda parameter is untyped
        // @fact edge CALLS com.acme.cart.Cart.checkout -> ?::src/com/acme/cart/Cart.java::i.sku reason="receiver type unknown"
        items.forEach(i -> i.sku());
        // a method passed as a value is a REFERENCES edge
        // @fact edge REFERENCES com.acme.cart.Cart.checkout -> com.acme.cart.Item.sku(0) by=class
        // @fact edge REFERENCES com.acme.cart.Cart.checkout -> com.acme.cart.Cart.validate by=self
        items.stream().map(Item::sku);
        Runnable r = this::validate;
        // a bare name no class, import or scope declares
        // @fact edge CALLS com.acme.cart.Cart.checkout -> ?::src/com/acme/cart/Cart.java::undefinedHelper reason="not defined in scope"
        undefinedHelper();
    }

    // A chain through declared return types: Item.copy() -> Item, Item.tag() -> Tag.
    // @fact edge CALLS com.acme.cart.Cart.chain -> com.acme.cart.Tag.label by=receiver
    // @fact edge CALLS com.acme.cart.Cart.chain -> com.acme.cart.Item.tag by=receiver
    void chain() {
        new Item().copy().tag().label();
    }
}
