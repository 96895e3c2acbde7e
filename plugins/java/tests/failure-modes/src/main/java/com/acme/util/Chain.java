package com.acme.util;

// A 4-hop chain through methods, fields and inheritance, for trace (codebase-memory-mcp#1110).
public class Chain {
    private final Step1 first = new Step1();
    // @fact edge CALLS com.acme.util.Chain.run -> com.acme.util.Step1.one by=receiver
    public void run() { first.one(); }
}
class Step1 {
    Step2 next = new Step2();
    // @fact edge CALLS com.acme.util.Step1.one -> com.acme.util.Step2.two by=receiver
    void one() { next.two(); }
}
class Step2 extends Step3 {
    // @fact edge CALLS com.acme.util.Step2.two -> com.acme.util.Step3.three by=scope
    void two() { three(); }
}
class Step3 {
    // @fact edge CALLS com.acme.util.Step3.three -> com.acme.util.Step4.four by=class
    void three() { Step4.four(); }
}
class Step4 {
    static void four() {}
}
