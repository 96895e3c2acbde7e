package com.acme.cart;

public interface Pricer {
    long price(Item item);
    default long discount(Item item) { return 0; }
}
