package com.acme.model;

import lombok.Data;

@Data
public abstract class Vehicle {
    private String make;
    private boolean electric;
}
