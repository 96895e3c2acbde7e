package com.acme.shop;

import java.util.ArrayList;
import java.util.List;

// @fact node com.acme.shop Module
// @fact edge CONTAINS com.acme.shop -> com.acme.shop.Cart
// @fact node com.acme.shop.Cart Class file=src/main/java/com/acme/shop/Cart.java line=11 end_line=80 visibility=public "doc_comment=/** A shopping cart. */" decorators=@Deprecated
// @fact no-node com.acme.shop.Cart.java
/** A shopping cart. */
@Deprecated
public class Cart {
    // @fact node com.acme.shop.Cart.items Field visibility=private "signature=private final List<Item> items" "type=List<Item>"
    private final List<Item> items = new ArrayList<>();
    // @fact node com.acme.shop.Cart.count Field visibility=package is_static=true
    // @fact node com.acme.shop.Cart.limit Field
    static int count, limit;
    // A field and a method of one name: the method takes the arity suffix.
    // @fact node com.acme.shop.Cart.total Field
    // @fact node com.acme.shop.Cart.total(0) Method
    private long total;

    // Constructors are keyed by the class name; overloaded by arity.
    // @fact node com.acme.shop.Cart.Cart(0) Method kind=constructor
    // @fact node com.acme.shop.Cart.Cart(1) Method kind=constructor
    public Cart() {}
    public Cart(long total) { this.total = total; }

    // Overloads of different arity: Type.name(N).
    // @fact node com.acme.shop.Cart.add(1) Method
    // @fact node com.acme.shop.Cart.add(2) Method "signature=public void add(Item item, int qty)"
    // @fact no-node com.acme.shop.Cart.add
    public void add(Item item) { add(item, 1); }
    public void add(Item item, int qty) { items.add(item); }

    // Overloads sharing an arity: disambiguated by the parameter types as written (erased, simple names).
    // @fact node com.acme.shop.Cart.remove(Item) Method
    // @fact node com.acme.shop.Cart.remove(String) Method
    // @fact node com.acme.shop.Cart.remove(List) Method
    // @fact node com.acme.shop.Cart.remove(2) Method
    public void remove(Item item) {}
    public void remove(String sku) {}
    public void remove(java.util.List<Item> batch) {}
    public void remove(int n, String... skus) {}

    // A unique method keeps Type.name.
    /** The total. */
    // @fact node com.acme.shop.Cart.total(0) Method "returns=long"
    public long total() { return total; }

    // @fact node com.acme.shop.Cart.size Method "doc_comment=/** Number of lines. */" returns=int
    /** Number of lines. */
    @SuppressWarnings("unused")
    int size() { return items.size(); }

    // Nested types chain.
    // @fact node com.acme.shop.Cart.Line Class is_static=true
    // @fact node com.acme.shop.Cart.Line.Detail Class
    // @fact node com.acme.shop.Cart.Line.Detail.describe Method
    // @fact edge CONTAINS com.acme.shop.Cart.Line -> com.acme.shop.Cart.Line.Detail
    static class Line {
        class Detail { String describe() { return ""; } }
    }

    // @fact node com.acme.shop.Cart.Status Enum
    // @fact node com.acme.shop.Cart.Status.OPEN Const is_static=true
    // @fact node com.acme.shop.Cart.Status.label Method
    enum Status { OPEN, CLOSED; String label() { return name(); } }

    // @fact node com.acme.shop.Cart.Total Class kind=record
    // @fact node com.acme.shop.Cart.Total.amount Field
    // @fact node com.acme.shop.Cart.Total.Total Method kind=constructor
    record Total(long amount, String currency) {
        Total { }
    }

    // @fact node com.acme.shop.Cart.Listener Interface
    // @fact node com.acme.shop.Cart.Listener.changed Method visibility=public is_abstract=true
    interface Listener { void changed(Cart c); }
}
