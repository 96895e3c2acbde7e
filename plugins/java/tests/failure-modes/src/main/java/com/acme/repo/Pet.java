package com.acme.repo;

public class Pet {
    // @fact node com.acme.repo.Pet.save Method
    public void save() {}
}
