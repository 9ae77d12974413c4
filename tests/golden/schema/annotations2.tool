// @rename_all on a service or tool, @deprecated, @title on fields and parameters, exclusive
// float bounds, and @open records.
package golden.annotations2;

/// Free-form labels; other members are kept.
@open
record Labels {
    @title("Primary label") main_label: string,
    @deprecated old_label: string? = null,
}

record Sample {
    @range(exclusive_min: 0.0) weight: f64,
    @range(exclusive_min: -1, exclusive_max: 1) ratio: f32 = 0.5,
    @range(min: 0, exclusive_max: 100.0) percent: f64?,
}

@rename_all("camelCase")
service Measures {
    tool record_sample(
        @title("Sample") the_sample: Sample,
        labels: Labels?,
        @deprecated @title("Old unit") old_unit: string = "kg",
        @range(exclusive_max: 1.0e3) max_value: f64 = 1.0,
        @json_name("raw_input") raw_input?: json,
    );

    @rename_all("camelCase")
    tool other(plain_name: u8 = 1, @range(exclusive_min: 0.5) low_bound: f32?);
}

service Plain {
    tool keep_names(plain_name: u8 = 1, extra_labels: list<Labels> = []);
}
