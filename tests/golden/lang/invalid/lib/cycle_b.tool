import "cycle_a.tool";

record B { a: A? }
