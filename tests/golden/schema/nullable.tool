// `T?` of every kind: the type accepts null and stays required without a default.
package golden.nullable;

/// Shipping speed.
enum Speed { slow, fast }

/// A postal address.
record Address {
    street: string,
    city: string?,
}

/// A linked list of steps.
record Step {
    label: string,
    next: Step?,
}

service Nullables {
    /// Every kind of nullable parameter.
    tool nullables(
        flag: bool?,
        count: u16?,
        ratio: f64?,
        note: string?,
        letter: char?,
        when: datetime?,
        speed: Speed?,
        names: list<string>?,
        maybe_names: list<string?>,
        labels: set<string>?,
        extra: map<string, string>?,
        address: Address?,
        first_step: Step?,
        blob: bytes?,
    );
}
