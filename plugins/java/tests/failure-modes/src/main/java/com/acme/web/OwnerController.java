package com.acme.web;

import com.acme.repo.Owner;
import com.acme.repo.OwnerRepository;
import com.acme.repo.Pet;
import com.acme.text.Buffer;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.web.bind.annotation.GetMapping;
import static org.assertj.core.api.Assertions.assertThat;
import java.util.List;

// Annotations are kept as written (another reader derives HTTP routes from them).
// @fact node com.acme.web.OwnerController Class "decorators=@Controller,@RequestMapping(\"/owners\")"
@Controller
@RequestMapping("/owners")
class OwnerController {
    // Constructor injection: the field's declared type proves the receiver (NestJS DI, codebase-memory-mcp#514).
    private final OwnerRepository owners;
    @Autowired
    private Pet pet;

    OwnerController(OwnerRepository owners) { this.owners = owners; }

    // @fact node com.acme.web.OwnerController.show Method "decorators=@GetMapping(\"/{id}\")"
    // @fact edge CALLS com.acme.web.OwnerController.show -> com.acme.repo.OwnerRepository.findByName by=receiver confidence=medium
    // a method the interface inherits from a dependency: External, medium
    // @fact edge CALLS com.acme.web.OwnerController.show -> java:org.springframework.data.jpa.repository.JpaRepository.findAll by=receiver confidence=medium
    // same-named methods of different classes: each call goes to its own receiver's class
    // @fact edge CALLS com.acme.web.OwnerController.show -> com.acme.repo.Owner.save by=receiver
    // @fact edge CALLS com.acme.web.OwnerController.show -> com.acme.repo.Pet.save by=receiver
    @GetMapping("/{id}")
    String show(String name) {
        Owner o = this.owners.findByName(name);
        owners.findAll();
        o.save();
        this.pet.save();
        return o.getName();
    }

    // JDK calls never bind to same-named repo methods (GitNexus#2545, codegraph#1681).
    // @fact edge CALLS com.acme.web.OwnerController.jdk -> java:java.lang.StringBuilder.append by=receiver
    // @fact no-edge CALLS com.acme.web.OwnerController.jdk -> com.acme.text.Buffer.append
    // @fact edge CALLS com.acme.web.OwnerController.jdk -> java:java.lang.Math.max by=class
    // @fact no-edge CALLS com.acme.web.OwnerController.jdk -> com.acme.text.Buffer.max
    // a static import from a dependency is External, never the repo's assertThat (GitNexus#1499)
    // @fact edge CALLS com.acme.web.OwnerController.jdk -> java:org.assertj.core.api.Assertions.assertThat by=import
    // @fact no-edge CALLS com.acme.web.OwnerController.jdk -> com.acme.text.Buffer.assertThat
    void jdk(List<String> parts) {
        StringBuilder sb = new StringBuilder();
        sb.append("x");
        Math.max(1, 2);
        assertThat(sb);
        // an untyped receiver is unresolved even when one repo method has that name (codegraph#1681)
        // @fact edge CALLS com.acme.web.OwnerController.jdk -> ?::src/main/java/com/acme/web/OwnerController.java::p.append reason="receiver type unknown"
        parts.forEach(p -> p.append("y"));
    }

    // Exact keys: a call to fooBar never answers for foo (codegraph#1473).
    // @fact edge CALLS com.acme.web.OwnerController.exact -> com.acme.text.Buffer.fooBar by=receiver
    // @fact no-edge CALLS com.acme.web.OwnerController.exact -> com.acme.text.Buffer.foo
    void exact(Buffer b) { b.fooBar(); }

    // The caller is the innermost definition: an anonymous class method, a field initializer,
    // a static initializer's class (codebase-memory-mcp#220).
    // @fact edge CALLS com.acme.web.OwnerController$1.run -> com.acme.text.Buffer.foo by=receiver
    // @fact no-edge CALLS com.acme.web.OwnerController.task -> com.acme.text.Buffer.foo
    Runnable task(Buffer b) {
        return new Runnable() { public void run() { b.foo(); } };
    }
    // @fact edge CALLS com.acme.web.OwnerController.shared -> com.acme.text.Buffer.max by=class
    static int shared = Buffer.max(1, 2);
    // @fact edge CALLS com.acme.web.OwnerController -> com.acme.text.Buffer.assertThat by=class
    static { Buffer.assertThat(null); }
}
