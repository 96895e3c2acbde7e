package com.acme.cart;

public class Tag {
    public String label() { return ""; }
    public static Tag of(String s) { return new Tag(); }
}
