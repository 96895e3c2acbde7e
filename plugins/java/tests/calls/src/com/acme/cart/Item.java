package com.acme.cart;

public class Item {
    private final String sku;
    public Item(String sku) { this.sku = sku; }
    public Item() { this("none"); }
    public String sku() { return sku; }
    public Item copy() { return new Item(sku); }
    public Tag tag() { return null; }
}
