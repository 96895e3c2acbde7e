package org.shop;

public abstract class Figure extends Element {}
