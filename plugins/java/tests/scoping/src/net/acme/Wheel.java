package net.acme;

public class Wheel {
    public void spin() {}
    public void start() {}
}
