import "lib/cycle_a.tool";

record Root { a: A? }
