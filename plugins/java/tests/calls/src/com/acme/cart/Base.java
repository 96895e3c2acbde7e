package com.acme.cart;

public abstract class Base {
    protected Pricer pricer;
    protected Base(Pricer pricer) { this.pricer = pricer; }
    protected void log(String msg) {}
    protected abstract void validate();
    public void save() {}
}
