package com.acme.shop;

// @fact node com.acme.shop.Item Class visibility=package
class Item {
    // Anonymous classes: Enclosing$N, numbered in source order; their methods are members.
    // @fact node com.acme.shop.Item$1 Class kind=anonymous
    // @fact node com.acme.shop.Item$1.run Method
    // @fact node com.acme.shop.Item$2 Class
    // @fact edge CONTAINS com.acme.shop.Item.watch -> com.acme.shop.Item$1
    void watch() {
        Runnable r = new Runnable() { public void run() {} };
        Runnable s = new Runnable() { public void run() {} };
    }

    // A local class is keyed under its method.
    // @fact node com.acme.shop.Item.local.Helper Class
    // @fact node com.acme.shop.Item.local.Helper.help Method
    void local() {
        class Helper { void help() {} }
    }
}

// @fact node com.acme.shop.Sku Interface kind=annotation
// @fact node com.acme.shop.Sku.value Method
@interface Sku { String value(); }
