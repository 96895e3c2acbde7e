package net.acme;

public class Engine {
    public void start() {}
    public static class Part { public void fit() {} }
}
