package com.acme.other;

import lombok.extern.log4j.Log4j2;
import com.acme.annotations.Slf4j;

// Another lombok.config names the field `logger`.
@Log4j2
class Shop {
    // @fact edge CALLS com.acme.other.Shop.open -> java:org.apache.logging.log4j.Logger.warn by=receiver
    // @fact edge CALLS com.acme.other.Shop.open -> ?::other/src/com/acme/other/Shop.java::LOGGER.info reason="type not found"
    void open() { logger.warn("w"); LOGGER.info("i"); }
}

// An annotation named Slf4j that is not Lombok's proves nothing.
@Slf4j
class Fake {
    // @fact edge CALLS com.acme.other.Fake.run -> ?::other/src/com/acme/other/Shop.java::logger.info reason="receiver type unknown"
    // @fact no-edge CALLS com.acme.other.Fake.run -> java:org.slf4j.Logger.info
    void run() { logger.info("x"); }
}
