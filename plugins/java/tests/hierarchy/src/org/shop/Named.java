package org.shop;

public interface Named { String name(); }
