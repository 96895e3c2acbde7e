package org.shop;

public class Element {
    protected void render() {}
}
