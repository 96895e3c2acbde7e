package org.shop;

import java.io.Serializable;

// @fact edge EXTENDS org.shop.Shape -> org.shop.Named by=package
// @fact edge EXTENDS org.shop.Shape -> java:java.io.Serializable by=import
public interface Shape extends Named, Serializable {
    double area();
}
