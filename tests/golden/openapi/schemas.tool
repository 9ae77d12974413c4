package schemas;

record Address {
    city?: string,
}

/// A user.
@open
record User {
    id: i64,
    /// Example: `Ann`.
    name: string,
    address?: Address,
}

@open
record Cat {
    @range(max: 9) lives?: i32,
}

@open
record Dog {
    bark: bool,
}

@tag("type")
union Kind {
    cat: Cat,
    dog: Dog,
}

@open
record Pet {
    name: string,
    tag?: string,
    kind: Kind,
}

type CountsValue = @range(max: 2147483647) u32;

enum SearchPetsKind {
    a,
    @value("b-c") b_c,
}

union Either {
    text: string,
    integer: i32,
}

@open
record SearchPetsResult {
    pets?: list<Pet>,
    counts?: map<string, CountsValue>,
    @range(exclusive_min: 0) score?: f64,
    cursor?: string?,
    kind?: SearchPetsKind?,
    thumbnail?: bytes,
    either?: Either,
}

service Schemas {
    @destructive(false)
    tool create_user(
        /// Example: `Ann`.
        name: string,
        password: string,
        address?: Address,
    ) -> User;

    @read_only @idempotent
    tool search_pets(@range(1, 100) limit: u8 = 20) -> SearchPetsResult;

    @destructive(false)
    tool add_pet(name: string, tag?: string, kind: Kind) -> Pet;
}
