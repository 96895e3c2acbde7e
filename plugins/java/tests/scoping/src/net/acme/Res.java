package net.acme;

public class Res implements AutoCloseable {
    public void close() {}
    public void use() {}
}
