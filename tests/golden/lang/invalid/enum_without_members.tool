enum Nothing {}

record Uses { n: Nothing? }
