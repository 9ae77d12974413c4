package parameters;

@open
record Filter {
    color?: string,
    size?: i32,
}

@open
record Where {
    lat?: f64,
}

record Thing {
    id: string,
    label?: string?,
}

service Parameters {
    @destructive @idempotent
    tool update_thing(
        @description("The thing.\n\nExample: `abc`.") @pattern("^[a-z]+$") id: string,
        tags: list<string>,
        @range(1, 10) id_query?: u8,
        filter?: Filter,
        ids?: list<i32>,
        next?: uri,
        where?: Where,
        @json_name("X-Request-Id") x_request_id: uuid,
        /// Example: `s-1`.
        @deprecated session?: string,
        id_body: string,
        @length(max: 20) label: string,
    ) -> Thing;
}
