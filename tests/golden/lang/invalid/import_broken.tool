import "lib/broken.tool";

record Uses { b: Broken }
