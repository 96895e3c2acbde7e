package com.acme.svc;

import com.acme.model.Car;
import lombok.extern.slf4j.Slf4j;

@Slf4j
public class Garage {
    // The logger field Lombok generates, named by the nearest lombok.config that sets it.
    // @fact edge CALLS com.acme.svc.Garage.park -> java:org.slf4j.Logger.info by=receiver confidence=high
    // Field-level @Getter / @Setter.
    // @fact edge CALLS com.acme.svc.Garage.park -> com.acme.model.Car.seats by=receiver confidence=medium
    // @fact edge CALLS com.acme.svc.Garage.park -> com.acme.model.Vehicle.make by=receiver
    void park(Car car) {
        LOGGER.info("parking");
        car.setSeats(4);
        car.getSeats();
        car.setMake("x");
    }

    // Nested classes see the outer class's logger.
    // @fact edge CALLS com.acme.svc.Garage.Bay.open -> java:org.slf4j.Logger.debug by=receiver
    static class Bay { void open() { LOGGER.debug("open"); } }
}
