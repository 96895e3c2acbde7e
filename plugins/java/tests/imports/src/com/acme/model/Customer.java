package com.acme.model;

public class Customer {
    public void notifyOf(Order o) {}
}
