package com.acme.model;

public class Order {
    public static Order empty() { return new Order(); }
    public void submit() {}
    public static class Line { public void price() {} }
}
