package com.acme.text;

// A repo class whose method names collide with JDK methods.
public class Buffer {
    public Buffer append(String s) { return this; }
    public static int max(int a, int b) { return a; }
    public static void assertThat(Object o) {}
    public void foo() {}
    public void fooBar() {}
}
