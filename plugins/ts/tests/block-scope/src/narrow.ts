import { Bar, Foo } from "./scopes";
declare function on(cb: (c: Foo) => void): void;
declare function isBar(x: unknown): x is Bar;

on((c) => c.m());
on((c) => (isBar(c) ? c.m() : undefined));
on((c) => c.m());
