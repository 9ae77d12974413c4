record Thing { x: u8 }
enum Thing { a }
record string { x: u8 }

enum Color { red, green, red }

record Person {
    name: string,
    age: u8,
    name: string,
}

service S {
    tool go(a: u8, b: u8, a: string);
    tool go();
    prompt go();
    @name("clash") tool one();
    @name("clash") tool two();
}
