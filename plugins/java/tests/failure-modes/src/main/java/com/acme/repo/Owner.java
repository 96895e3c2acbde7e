package com.acme.repo;

public class Owner {
    // Same-named methods of different classes stay distinct nodes (GitNexus#150).
    // @fact node com.acme.repo.Owner.save Method
    public void save() {}
    public String getName() { return ""; }
}
