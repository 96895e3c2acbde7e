package com.acme.model;

import lombok.Getter;
import lombok.Setter;

public class Car extends Vehicle {
    @Getter @Setter private int seats;
    private int doors;

    // Accessors generated on an ancestor are inherited.
    // @fact edge CALLS com.acme.model.Car.describe -> com.acme.model.Vehicle.make by=scope confidence=medium
    // @fact edge CALLS com.acme.model.Car.describe -> com.acme.model.Vehicle.electric by=scope confidence=medium
    // a field without an accessor annotation gets no accessor
    // @fact edge CALLS com.acme.model.Car.describe -> ?::app/src/com/acme/model/Car.java::getDoors reason="not defined in scope"
    String describe() { return getMake() + isElectric() + getDoors(); }
}
