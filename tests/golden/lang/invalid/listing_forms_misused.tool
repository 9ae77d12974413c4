// Listing-level forms where they do not fit.
@schema_dialect("draft-07")
package golden.listing_forms_misused;

@open(input)
record Entity {
    name: string,
}

@open(output)
record Other {
    name: string,
}

service S {
    @title("Both", tool: "Tool") tool a();
    @title(tool: "") tool b();
    @open(input) tool c();
    @execution(task_support: forbidden) @task tool d();
    @execution(task_support: optional) @task(required) tool e();
    @execution(task_support: sometimes) tool f();
    @execution tool g();

    @title(tool: "Docs") @uri("docs://x") resource r() -> string;
    @title(annotations: "P") prompt p() -> string;
    tool h(@title(tool: "t") x: u8);
}

service T {
    @execution(task_support: required) tool untasked();
}
