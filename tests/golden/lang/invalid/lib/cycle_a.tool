import "cycle_b.tool";

record A { b: B? }
