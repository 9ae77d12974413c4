// `@task`: tools that can run as tasks (the MCP tasks extension). Nothing changes on the
// wire of the listing; the model records the mode.
package jobs;

service Jobs {
    /// Builds a project; a task when the client asks for one.
    @task
    tool build(target: string) -> string;

    /// The same, spelled out.
    @task(optional)
    tool test(target: string) -> string;

    /// Only as a task.
    @task(required) @destructive
    tool deploy(environment: string);

    /// Never a task.
    tool status() -> string;
}
