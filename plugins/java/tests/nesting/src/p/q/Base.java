package p.q;

public class Base {
    public static class Node { public void visit() {} }
    public interface Visitor { void see(Node n); }
}
