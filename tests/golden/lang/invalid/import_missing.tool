import "does_not_exist.tool";

record Uses { x: Whatever }
