package com.acme.app;

class Helper {
    static void assist() {}
    void help() {}
}
