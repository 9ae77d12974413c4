record Loop { again: Loop }

record A { b: B, name: string }
record B { c: C }
record C { a: A }

record Fine { next: Fine?, many: list<Fine> }
