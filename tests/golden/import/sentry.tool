package sentry;

enum Stage {
    connect_mcp,
    analyze_project,
    create_project,
    instrument_app,
    plan_test_error,
    send_verification_error,
    receive_verification_error,
    prepare_production,
    check_stack_trace_quality,
}

enum Status { active, waiting, completed, skipped, failed }

enum RunStatus { completed, failed }

type ProjectSlugsItem = @length(min: 1) string;

enum Dataset { spans, errors, logs, metrics, profiles, replays }

type EnvironmentList = @length(min: 1) list<ProjectSlugsItem>;

union Environment {
    text: ProjectSlugsItem,
    list: EnvironmentList,
}

service Sentry {
    @open @rename_all("camelCase")
    tool onboarding_status_update(
        /// The organization's slug. You can find a existing list of organizations you have access to using the `find_organizations()` tool.
        organization_slug: string,
        region_url: string? = null,
        /// The 10-character onboarding run token supplied by Sentry.
        @pattern("^[A-Za-z0-9]{10}$") run_token: string,
        /// The onboarding stage being updated.
        stage: Stage,
        /// The stage's current status.
        status: Status,
        /// Set only when the entire onboarding run has completed or failed.
        run_status?: RunStatus,
        /// Short context to display with this progress event. Required when status is failed.
        @length(1, 256) event_note?: string,
        /// Validated Sentry project slugs. Send only for create_project. Values accumulate across updates; include each project as it becomes usable while active, then all known projects when completed.
        @length(1, 100) project_slugs?: list<ProjectSlugsItem>,
        /// Validated Sentry issue IDs returned by MCP. Send only for receive_verification_error. Values accumulate across updates; include each matching issue as it is confirmed, then all known issues when completed.
        @length(1, 100) issue_ids?: list<ProjectSlugsItem>,
    ) -> content;

    @open @rename_all("camelCase")
    tool search_events(
        /// The organization's slug. You can find a existing list of organizations you have access to using the `find_organizations()` tool.
        organization_slug: string,
        /// Initial dataset hint: errors, logs, spans, metrics, profiles, or replays. The agent may correct this when configured.
        dataset?: Dataset,
        /// Natural language or Sentry event search query syntax.
        query?: string,
        /// Fields to return for event datasets. If not specified, uses sensible defaults. Include aggregate functions like count(), avg() for statistics. Leave null for dataset='replays'.
        fields?: list<string>?,
        /// Sort field (prefix with - for descending). If omitted, event datasets default to -timestamp and replays default to -started_at. Use -count() for event aggregations. For dataset='replays', use replay sorts like -started_at or -count_errors.
        sort?: string?,
        project_slug: string? = null,
        /// Optional environment filter for dataset='replays'. Use a string for one environment or an array for multiple. Omit when unused. For other datasets, filter environment in the query string instead.
        environment?: Environment,
        /// Relative time window, such as `24h`, `7d`, `14d`, `30d`, or `90d`. Controls which records fall within the search window.
        @pattern("^\\d+[hdw]$") period?: string,
        region_url: string? = null,
        /// Maximum number of results to return (1-100)
        @range(1, 100) limit: f64 = 10,
        /// Include explanation of how the query was translated or repaired
        include_explanation: bool = false,
    ) -> content;
}
