package com.acme.app;

import com.acme.model.Order;
import com.acme.model.Order.Line;
import com.acme.model.*;
import com.acme.util.Missing;
import static com.acme.util.Strings.trim;
import static com.acme.util.Ids.*;
import static com.acme.util.Strings.nothing;
import java.util.*;
import java.util.concurrent.*;
import org.springframework.web.client.RestTemplate;
import org.springframework.stereotype.*;
import static org.assertj.core.api.Assertions.assertThat;

// @fact edge IMPORTS com.acme.app.Service -> com.acme.model.Order by=import line=3
// @fact edge IMPORTS com.acme.app.Service -> com.acme.model.Order.Line
// @fact edge IMPORTS com.acme.app.Service -> com.acme.model ref=com.acme.model.*
// @fact edge IMPORTS com.acme.app.Service -> com.acme.util.Strings.trim
// @fact edge IMPORTS com.acme.app.Service -> com.acme.util.Ids
// @fact edge IMPORTS com.acme.app.Service -> java:java.util
// @fact edge IMPORTS com.acme.app.Service -> java:org.springframework.web.client.RestTemplate
// @fact node java:org.springframework.web.client.RestTemplate External
@Service
public class Service {
    private final RestTemplate rest = new RestTemplate();

    void run(Customer customer) {
        // single-type import
        // @fact edge CALLS com.acme.app.Service.run -> com.acme.model.Order.empty by=class confidence=high
        Order o = Order.empty();
        // @fact edge CALLS com.acme.app.Service.run -> com.acme.model.Order.submit by=receiver
        o.submit();
        // single-type import of a nested type
        // @fact edge INSTANTIATES com.acme.app.Service.run -> com.acme.model.Order.Line by=import
        // @fact edge CALLS com.acme.app.Service.run -> com.acme.model.Order.Line.price by=receiver
        new Line().price();
        // on-demand import of an in-tree package
        // @fact edge CALLS com.acme.app.Service.run -> com.acme.model.Customer.notifyOf by=receiver
        customer.notifyOf(o);
        // same package, no import
        // @fact edge CALLS com.acme.app.Service.run -> com.acme.app.Helper.assist by=class
        // @fact edge INSTANTIATES com.acme.app.Service.run -> com.acme.app.Helper by=package
        Helper.assist();
        new Helper().help();
        // static single import
        // @fact edge CALLS com.acme.app.Service.run -> com.acme.util.Strings.trim by=import confidence=high
        trim(" x ");
        // static on-demand import
        // @fact edge CALLS com.acme.app.Service.run -> com.acme.util.Ids.next by=import
        next();
        // static import of a member the class does not declare
        // @fact edge CALLS com.acme.app.Service.run -> ?::src/com/acme/app/Service.java::nothing reason="unresolved import com.acme.util.Strings.nothing"
        nothing();
        // import into an in-tree package of a class the tree does not have (generated code)
        // @fact edge CALLS com.acme.app.Service.run -> ?::src/com/acme/app/Service.java::Missing.make reason="unresolved import com.acme.util.Missing"
        Missing.make();
        // java.lang and JDK types are External, keyed by qualified name
        // @fact edge CALLS com.acme.app.Service.run -> java:java.lang.Math.max by=class
        // @fact edge CALLS com.acme.app.Service.run -> java:java.lang.String.trim by=receiver
        // @fact edge INSTANTIATES com.acme.app.Service.run -> java:java.util.ArrayList by=import confidence=high
        // @fact edge CALLS com.acme.app.Service.run -> java:java.util.List.add by=receiver
        // @fact edge INSTANTIATES com.acme.app.Service.run -> java:java.util.concurrent.ConcurrentHashMap confidence=high
        int m = Math.max(1, 2);
        String s = "a".trim();
        List<String> names = new ArrayList<>();
        names.add(s);
        Map<String, Order> byId = new ConcurrentHashMap<>();
        // third-party: External by the import
        // @fact edge CALLS com.acme.app.Service.run -> java:org.springframework.web.client.RestTemplate.getForObject by=receiver confidence=high
        rest.getForObject("/x", String.class);
        // @fact edge CALLS com.acme.app.Service.run -> java:org.assertj.core.api.Assertions.assertThat by=import
        assertThat(m);
        // a name from an on-demand import of a package the tree does not have: a guess, medium
        // @fact edge INSTANTIATES com.acme.app.Service.run -> java:org.springframework.stereotype.Thing confidence=medium
        new Thing();
        // never bound to a same-named repo symbol: System.out.println is the JDK's
        // @fact edge CALLS com.acme.app.Service.run -> java:java.lang.System.out.println by=receiver
        System.out.println(s);
    }

    // fully qualified names need no import
    // @fact edge CALLS com.acme.app.Service.qualified -> com.acme.model.Order.empty by=class
    // @fact edge INSTANTIATES com.acme.app.Service.qualified -> java:java.util.LinkedList by=qualified
    void qualified() {
        com.acme.model.Order.empty();
        new java.util.LinkedList<String>();
    }

    // the repo's own println is never confused with System.out.println
    // @fact no-edge CALLS com.acme.app.Service.run -> com.acme.app.Service.println
    void println(String s) {}
}
