@rename_all("snake_case")
record Policy { first_name: string }

@rename_all("camelCase")
enum NotARecord { a }

service S {
    @ui("https://example.com/app.html") tool web();
    @ui("ui://app.html", visibility: ["model", "user"]) tool who();
    @ui("ui://app.html", visibility: []) tool nobody();
    @ui("ui://app.html", visibility: "model") tool not_a_list();
    @ui("ui://app.html", visibility: ["app", "app"]) tool twice();
    @ui() tool no_uri();
}
