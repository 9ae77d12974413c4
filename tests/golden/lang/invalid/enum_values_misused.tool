// `@value` and `@document_members` where they do not fit.
@document_members(true)
enum A {
    @value("x") one,
    @value("x") two,
    @value("one") three,
    @value("") four,
    @value(5) five,
    @vaule("v") six,
}

@document_members
record R { a: A = "x" }

enum B { @title("t") b }
