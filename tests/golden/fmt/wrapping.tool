// Long lines: parameter lists, attribute runs, field attributes, enums.
enum Short { one, two, three }
enum Long { alpha_member, beta_member, gamma_member, delta_member, epsilon_member, zeta_member, eta }
enum Documented { /// The first.
 first, second }
enum Attributed { @deprecated old, new }

record Fields {
    @description("A description long enough to push this field past the limit of one hundred") @length(1, 10) name: string,
    @range(0, 10) short: u8 = 1,
}

service Wrapping {
    tool fits(city: string, @range(1, 14) days: u8 = 3, units: Short = one) -> list<string>;
    tool too_wide(city: string, @range(1, 14) days: u8 = 3, units: Short = one, verbose: bool = false) -> list<string>;
    tool with_docs(
        /// A documented parameter forces one per line.
        city: string, days: u8) -> string;
    tool joined(
        a: string,
        b: u8,
    ) -> string;
    tool empty(

    );
    @title("A long title that takes room") @read_only @idempotent @open_world @destructive(false)
    tool fits_attributes();
    @title("A longer title that takes even more room") @read_only @idempotent @open_world @destructive(false)
    tool too_many_attributes();
}
