// A subset of getsentry/sentry-mcp (TypeScript, zod raw shapes): its tools
// onboarding_status_update and search_events, whose lists hold constrained items
// (`z.array(z.string().trim().min(1)).min(1)`) and whose `environment` is a union of a
// constrained string and a list of them. The original schemas are the repository's own
// listing of what the server publishes (`packages/mcp-core/src/toolDefinitions.json`).
// See README.md for what differs.
package servers.sentry;

enum OnboardingStage {
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

enum StageStatus { active, waiting, completed, skipped, failed }

enum RunStatus { completed, failed }

enum Dataset { spans, errors, logs, metrics, profiles, replays }

// `z.string().trim().min(1)`: each item of the lists below.
type NonEmpty = @length(min: 1) string;

// `z.array(z.string().trim().min(1)).min(1).max(100)`.
type SlugList = @length(1, 100) list<NonEmpty>;

// `z.array(z.string().trim().min(1)).min(1)`.
type NonEmptyList = @length(min: 1) list<NonEmpty>;

// `z.union([z.string().trim().min(1), z.array(z.string().trim().min(1)).min(1)])`: an
// untagged union (`anyOf`) of a constrained string and a constrained list of them.
union Environment {
    one: NonEmpty,
    many: NonEmptyList,
}

service Sentry {
    @description("Update the progress shown in Sentry's agentic onboarding UI.\n\nUse this tool only when the Sentry getting started skill provides a run token. Call it at the workflow boundaries described by that skill.\n\n<hints>\n- Progress updates are operational UI state, not user analytics.\n- Keep eventNote brief and limited to context useful in the progress UI.\n- Do not include source code, repository paths, credentials, error output, or other sensitive data.\n- status is required for every update.\n- Set runStatus to completed or failed only when the entire onboarding run reaches that state.\n- A failed status requires a brief eventNote explaining the failure.\n</hints>")
    @rename_all("camelCase")
    @open
    tool onboarding_status_update(
        @description("The organization's slug. You can find a existing list of organizations you have access to using the `find_organizations()` tool.")
        organization_slug: string,
        @description("The region URL for the organization you're querying, if known. For Sentry's Cloud Service (sentry.io), this is typically the region-specific URL like 'https://us.sentry.io'. For self-hosted Sentry installations, this parameter is usually not needed and should be omitted. You can find the correct regionUrl from the organization details using the `find_organizations()` tool.")
        region_url: string? = null,
        @description("The 10-character onboarding run token supplied by Sentry.")
        @pattern("^[A-Za-z0-9]{10}$")
        run_token: string,
        @description("The onboarding stage being updated.") stage: OnboardingStage,
        @description("The stage's current status.") status: StageStatus,
        @description("Set only when the entire onboarding run has completed or failed.")
        run_status?: RunStatus,
        @description("Short context to display with this progress event. Required when status is failed.")
        @length(1, 256)
        event_note?: string,
        @description("Validated Sentry project slugs. Send only for create_project. Values accumulate across updates; include each project as it becomes usable while active, then all known projects when completed.")
        project_slugs?: SlugList,
        @description("Validated Sentry issue IDs returned by MCP. Send only for receive_verification_error. Values accumulate across updates; include each matching issue as it is confirmed, then all known issues when completed.")
        issue_ids?: SlugList,
    );

    @description("Search Sentry events and replays. Use for event counts/statistics.\n\n`query` can be natural language or Sentry search syntax. With an agent configured, it fixes dataset, query, fields, and sort before running.\n\nSupports TWO query types:\n1. AGGREGATIONS (counts, sums, averages): 'how many errors', 'total tokens'\n2. Individual events with timestamps: 'error logs from last hour'\n\nDatasets:\n- errors: Exception/crash events with stack traces, usually grouped into issues\n- logs: Application log entries, including error-severity log messages\n- spans: Raw trace/span events for performance, AI/LLM calls, requests, and operations\n- metrics: Metric rows and aggregates: counters, gauges, distributions, values\n- profiles: Transaction/continuous profile results, profile IDs, profiled transactions\n- replays: Session replay results: rage clicks, dead clicks, visited pages, replay users\nIf the user says logs, log messages, error logs, or warning logs, choose logs instead of errors.\n\nReplay searches return replay lists only; replay count()/avg()/sum() are not supported.\n\nNOT for grouped issue lists (use search_issues) or app screenshots/images (use get_latest_base_snapshot).\n\n<examples>\nsearch_events(organizationSlug='my-org', query='how many errors today')\nsearch_events(organizationSlug='my-org', dataset='errors', query='level:error')\nsearch_events(organizationSlug='my-org', dataset='errors', fields=['issue', 'count()'], sort='-count()')\nsearch_events(organizationSlug='my-org', dataset='spans', query='span.op:db', sort='-span.duration')\nsearch_events(organizationSlug='my-org', dataset='replays', query='count_errors:>0', sort='-count_errors')\n</examples>\n\n<hints>\n- If the user passes a parameter in the form of name/otherName, it's likely in the format of <organizationSlug>/<projectSlug>.\n- Parse org/project notation directly without calling find_organizations or find_projects.\n- Use fields with aggregate functions like count(), avg(), sum() for statistics\n- Sort by -count() for most common, -timestamp for newest\n</hints>")
    @read_only
    @destructive(false)
    @open_world
    @rename_all("camelCase")
    @open
    tool search_events(
        @description("The organization's slug. You can find a existing list of organizations you have access to using the `find_organizations()` tool.")
        organization_slug: string,
        @description("Initial dataset hint: errors, logs, spans, metrics, profiles, or replays. The agent may correct this when configured.")
        dataset?: Dataset,
        @description("Natural language or Sentry event search query syntax.") query?: string,
        @description("Fields to return for event datasets. If not specified, uses sensible defaults. Include aggregate functions like count(), avg() for statistics. Leave null for dataset='replays'.")
        fields?: list<string>?,
        @description("Sort field (prefix with - for descending). If omitted, event datasets default to -timestamp and replays default to -started_at. Use -count() for event aggregations. For dataset='replays', use replay sorts like -started_at or -count_errors.")
        sort?: string?,
        @description("The project's slug. You can find a list of existing projects in an organization using the `find_projects()` tool.")
        project_slug: string? = null,
        @description("Optional environment filter for dataset='replays'. Use a string for one environment or an array for multiple. Omit when unused. For other datasets, filter environment in the query string instead.")
        environment?: Environment,
        @description("Relative time window, such as `24h`, `7d`, `14d`, `30d`, or `90d`. Controls which records fall within the search window.")
        @pattern("^\\d+[hdw]$")
        period?: string,
        @description("The region URL for the organization you're querying, if known. For Sentry's Cloud Service (sentry.io), this is typically the region-specific URL like 'https://us.sentry.io'. For self-hosted Sentry installations, this parameter is usually not needed and should be omitted. You can find the correct regionUrl from the organization details using the `find_organizations()` tool.")
        region_url: string? = null,
        @description("Maximum number of results to return (1-100)") @range(1, 100)
        limit: f64 = 10,
        @description("Include explanation of how the query was translated or repaired")
        include_explanation: bool = false,
    );
}
