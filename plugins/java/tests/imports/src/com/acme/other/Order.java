package com.acme.other;

public class Order { public static Order empty() { return null; } }
