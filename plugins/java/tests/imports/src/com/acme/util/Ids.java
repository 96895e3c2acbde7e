package com.acme.util;

public final class Ids {
    public static long next() { return 0; }
}
