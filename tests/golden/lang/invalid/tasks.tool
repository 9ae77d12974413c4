service Jobs {
    @task(maybe) tool a();
    @task("required") tool b();
    @task(optional, required) tool c();
    @task @task tool d();
    @task @uri("x://y") resource r() -> string;
    @task prompt p() -> string;
}
