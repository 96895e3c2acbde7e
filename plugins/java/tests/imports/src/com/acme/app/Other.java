package com.acme.app;

import com.acme.model.*;
import com.acme.other.*;

// Two on-demand imports of in-tree packages that both declare Order: ambiguous.
class Other {
    // @fact edge CALLS com.acme.app.Other.go -> ?::src/com/acme/app/Other.java::Order.empty reason="ambiguous: 2 candidates"
    // @fact no-edge CALLS com.acme.app.Other.go -> com.acme.model.Order.empty
    void go() { Order.empty(); }

    // A name no import, package or java.lang declares.
    // @fact edge CALLS com.acme.app.Other.unknown -> "?::src/com/acme/app/Other.java::new Unknown" reason="type not found"
    // @fact edge CALLS com.acme.app.Other.unknown -> ?::src/com/acme/app/Other.java::u.go reason="type not found"
    void unknown() { new Unknown(); Unknown u = null; u.go(); }
}
