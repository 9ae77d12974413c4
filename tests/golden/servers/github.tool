// A subset of github/github-mcp-server (Go, modelcontextprotocol/go-sdk with
// google/jsonschema-go `Schema` values): its issue and pull-request tools issue_read,
// issue_write, add_issue_comment, list_issues, search_issues, pull_request_read,
// list_pull_requests, create_pull_request, update_pull_request and merge_pull_request.
// Numbers the Go schemas type `"number"` (issue and pull-request numbers, pages) are `f64`:
// that is the wire shape. See README.md for what differs.
package servers.github;

enum IssueReadMethod {
    get,
    get_comments,
    get_sub_issues,
    get_parent,
    get_labels,
}

enum IssueWriteMethod {
    create,
    update,
}

enum OpenClosed {
    open,
    closed,
}

enum StateReason {
    completed,
    not_planned,
    duplicate,
}

enum Reaction {
    @value("+1") plus_one,
    @value("-1") minus_one,
    laugh,
    confused,
    heart,
    hooray,
    rocket,
    eyes,
}

enum IssueStateFilter {
    OPEN,
    CLOSED,
}

enum IssueOrderBy {
    CREATED_AT,
    UPDATED_AT,
    COMMENTS,
}

enum OrderDirection {
    ASC,
    DESC,
}

enum ListIssuesField {
    number,
    title,
    body,
    state,
    user,
    labels,
    assignees,
    comments,
    created_at,
    updated_at,
    field_values,
}

enum SearchIssuesField {
    number,
    title,
    body,
    state,
    state_reason,
    draft,
    locked,
    html_url,
    user,
    author_association,
    labels,
    assignee,
    assignees,
    milestone,
    comments,
    reactions,
    created_at,
    updated_at,
    closed_at,
    closed_by,
    @value("type") type_,
    repository_url,
    pull_request,
    field_values,
}

enum SearchIssuesSort {
    comments,
    reactions,
    @value("reactions-+1") reactions_plus_one,
    @value("reactions--1") reactions_minus_one,
    @value("reactions-smile") reactions_smile,
    @value("reactions-thinking_face") reactions_thinking_face,
    @value("reactions-heart") reactions_heart,
    @value("reactions-tada") reactions_tada,
    interactions,
    created,
    updated,
}

enum SortOrder {
    asc,
    desc,
}

enum PullRequestReadMethod {
    get,
    get_diff,
    get_status,
    get_files,
    get_commits,
    get_review_comments,
    get_reviews,
    get_comments,
    get_check_runs,
}

enum PullRequestStateFilter {
    open,
    closed,
    all,
}

enum PullRequestSort {
    created,
    updated,
    popularity,
    @value("long-running") long_running,
}

enum PullRequestField {
    number,
    title,
    body,
    state,
    draft,
    merged,
    mergeable_state,
    html_url,
    user,
    labels,
    assignees,
    requested_reviewers,
    merged_by,
    head,
    base,
    additions,
    deletions,
    changed_files,
    commits,
    comments,
    created_at,
    updated_at,
    closed_at,
    merged_at,
    milestone,
}

enum MergeMethod {
    merge,
    squash,
    rebase,
}

// `"type": ["string", "number", "boolean"]`: an untagged union (`anyOf` of the three).
union IssueFieldScalar {
    text: string,
    number: f64,
    flag: bool,
}

// An item of issue_write's `issue_fields`: the Go schema closes it
// (`AdditionalProperties: false`).
record IssueFieldValue {
    @description("Issue field name (case-insensitive). Must match a field returned by list_issue_fields for this repository or its organization.")
    field_name: string,
    @description("Value to set. Use for text, number, and date fields (date as YYYY-MM-DD). For single-select fields, prefer 'field_option_name' so the option is validated before the API call. Cannot be combined with 'field_option_name' or 'delete: true'.")
    value?: IssueFieldScalar,
    @description("Option name for single-select fields. Validated against the field's options before the API call. Cannot be combined with 'value' or 'delete: true'.")
    field_option_name?: string,
    @description("Set to true to clear this field's current value on the issue. When false or omitted, this property is ignored. Cannot be true when 'value' or 'field_option_name' is provided.")
    delete?: bool,
}

// An item of list_issues' `field_filters`: the Go schema leaves it open.
@open
record FieldFilter {
    @description("Name of the custom field (e.g. \"Priority\"). Case-insensitive.")
    field_name: string,
    @description("Value to filter on. For single-select fields, the option name (e.g. \"P1\"). For dates, YYYY-MM-DD. For numbers, the numeric value as a string. For text, the text value.")
    value: string,
}

// `page` and `perPage` (the Go server's WithPagination).
record Pagination {
    @description("Page number for pagination (min 1)")
    @range(min: 1.0)
    page?: f64,
    @description("Results per page for pagination (min 1, max 100)")
    @range(1.0, 100.0) @json_name("perPage")
    per_page?: f64,
}

// The confidence of a label or assignee choice (update_issue_labels, update_issue_assignees).
enum Confidence {
    LOW,
    MEDIUM,
    HIGH,
}

// An item of update_issue_labels' `labels` in its object form; the Go schema leaves it open.
@open
record LabelChoice {
    @description("Label name")
    name: string,
    @description("How confident you are in this choice. Use 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.")
    confidence?: Confidence,
    @description("If true, this label is sent to the API as a suggestion (suggest:true) rather than an applied label. Whether the label is applied or recorded as a proposal is determined by the API.")
    is_suggestion?: bool,
    @description("One concise sentence explaining what specifically about the issue led you to choose this label. State the concrete signal (e.g. 'Reports a crash when saving' → bug).")
    @length(max: 280) rationale?: string,
}

// An item of update_issue_labels' `labels`: `oneOf` a string and an object in the Go schema, an
// untagged union (`anyOf`) here; no value is both, so the two validate alike.
union LabelItem {
    /// Label name
    name: string,
    choice: LabelChoice,
}

// An item of update_issue_assignees' `assignees` in its object form; the Go schema leaves it open.
@open
record AssigneeChoice {
    @description("GitHub username")
    login: string,
    @description("How confident you are in this choice. Use 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.")
    confidence?: Confidence,
    @description("If true, this assignee is sent to the API as a suggestion (suggest:true) rather than an applied assignee. Whether the assignee is applied or recorded as a proposal is determined by the API.")
    is_suggestion?: bool,
    @description("One concise sentence explaining what specifically about the issue led you to choose this assignee. State the concrete signal (e.g. 'Authored the file the crash originates in').")
    @length(max: 280) rationale?: string,
}

// An item of update_issue_assignees' `assignees`: `oneOf` a string and an object in the Go schema, an
// untagged union (`anyOf`) here; no value is both, so the two validate alike.
union AssigneeItem {
    /// GitHub username
    login: string,
    choice: AssigneeChoice,
}

service GitHub {
    @description("Get information about a specific issue in a GitHub repository.")
    @title("Get issue details") @read_only @idempotent(false)
    @open tool issue_read(
        @description("The read operation to perform on a single issue.\nOptions are:\n1. get - Get issue details. Also returns best-effort hierarchy flags (`has_parent`, `has_children`); `parent` and `sub_issues_summary` are optional relationship summaries, and `closed_by_pull_requests` summarizes the pull requests configured to close the issue as `total_count` plus up to 5 `references`.\n2. get_comments - Get issue comments.\n3. get_sub_issues - Get sub-issues (children) of the issue.\n4. get_parent - Get the parent issue, if this issue is a sub-issue of another.\n5. get_labels - Get labels assigned to the issue.\n")
        method: IssueReadMethod,
        @description("The owner of the repository")
        owner: string,
        @description("The name of the repository")
        repo: string,
        @description("The number of the issue")
        issue_number: f64,
        ..Pagination,
    ) -> content;

    @description("Create a new or update an existing issue in a GitHub repository.")
    @title("Create or update issue/pull request") @read_only(false) @idempotent(false)
    @ui("ui://github-mcp-server/issue-write", visibility: ["model", "app"])
    @open tool issue_write(
        @description("Write operation to perform on a single issue.\nOptions are:\n- 'create' - creates a new issue.\n- 'update' - updates an existing issue.\n")
        method: IssueWriteMethod,
        @description("Repository owner")
        owner: string,
        @description("Repository name")
        repo: string,
        @description("Issue number to update")
        issue_number?: f64,
        @description("Issue title")
        title?: string,
        @description("Issue body content")
        body?: string,
        @description("Usernames to assign to this issue")
        assignees?: list<string>,
        @description("Labels to apply to this issue")
        labels?: list<string>,
        @description("Milestone number")
        milestone?: f64,
        // `anyOf: [{type: string, minLength: 1}, {type: null}]` in the original: the same
        // values as `["string", "null"]` with `minLength: 1`.
        @description("Type of this issue. For updates, pass null to remove the current type. Only use if issue types are enabled for this repository. Use list_issue_types to get valid type values for this repository or its owner organization. If the repository doesn't support issue types, omit this parameter.")
        @length(min: 1) @json_name("type")
        issue_type?: string?,
        @description("New state")
        state?: OpenClosed,
        @description("Reason for the state change. Ignored unless state is changed.")
        state_reason?: StateReason,
        @description("Issue number that this issue is a duplicate of. Required when state_reason is 'duplicate'.")
        duplicate_of?: f64,
        @description("Issue field values to set or clear. Each item requires 'field_name' and exactly one of 'value', 'field_option_name', or 'delete: true'.")
        issue_fields?: list<IssueFieldValue>,
    ) -> content;

    @description("Add a comment and/or reaction to a specific issue or issue comment in a GitHub repository. Use this tool with pull requests as well (in this case pass pull request number as issue_number), but only if user is not asking specifically to add or react to review comments. At least one of body or reaction is required.")
    @title("Add comment to issue or pull request") @read_only(false) @idempotent(false)
    @open tool add_issue_comment(
        @description("Repository owner")
        owner: string,
        @description("Repository name")
        repo: string,
        @description("Issue or pull request number to comment on or react to.")
        issue_number: f64,
        @description("Comment content. Required unless reaction is provided.")
        @length(min: 1)
        body?: string,
        @description("Emoji reaction to add. Required unless body is provided.")
        reaction?: Reaction,
        @description("The numeric ID of the issue or pull request comment to react to. Use this for reactions to comments; omit it to react to the issue or pull request itself. Cannot be combined with body.")
        @range(min: 1)
        comment_id?: i64,
    ) -> content;

    @description("List issues in a GitHub repository. For pagination, use the 'endCursor' from the previous response's 'pageInfo' in the 'after' parameter.")
    @title("List issues") @read_only @idempotent(false)
    @open tool list_issues(
        @description("Repository owner")
        owner: string,
        @description("Repository name")
        repo: string,
        @description("Filter by state, by default both open and closed issues are returned when not provided")
        state?: IssueStateFilter,
        @description("Filter by labels")
        labels?: list<string>,
        @description("Order issues by field. If provided, the 'direction' also needs to be provided.")
        @json_name("orderBy")
        order_by?: IssueOrderBy,
        @description("Order direction. If provided, the 'orderBy' also needs to be provided.")
        direction?: OrderDirection,
        @description("Filter by date (ISO 8601 timestamp)")
        since?: string,
        @description("Filter by custom issue field values. Each entry takes a field_name and a value; the server looks up the field and coerces the value to its type (single-select option name, text, number, or YYYY-MM-DD date).")
        field_filters?: list<FieldFilter>,
        @description("Subset of fields to return for each issue. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields; omitting 'body' and 'field_values' in particular drops the largest per-result data.")
        fields?: list<ListIssuesField>,
        @description("Results per page for pagination (min 1, max 100)")
        @range(1.0, 100.0) @json_name("perPage")
        per_page?: f64,
        @description("Cursor for pagination. Use the cursor from the previous response.")
        after?: string,
    ) -> content;

    @description("Search issues using natural-language semantic matching. Best for conceptual or paraphrased queries (e.g. \"login fails after password reset\"). Already scoped to is:issue.")
    @title("Search issues") @read_only @idempotent(false)
    @open tool search_issues(
        @description("The search query, as natural language. When the user gives alternative wordings, include them as plain words rather than joining them with OR.")
        query: string,
        @description("Optional repository owner. If provided with repo, only issues for this repository are listed.")
        owner?: string,
        @description("Optional repository name. If provided with owner, only issues for this repository are listed.")
        repo?: string,
        @description("Sort field by number of matches of categories, defaults to best match")
        sort?: SearchIssuesSort,
        @description("Sort order")
        order?: SortOrder,
        @description("Subset of fields to return for each issue result. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields; omitting 'body', 'reactions', and 'labels' in particular drops the largest per-result data.")
        fields?: list<SearchIssuesField>,
        ..Pagination,
    ) -> content;

    @description("Get information on a specific pull request in GitHub repository.")
    @title("Get details for a single pull request") @read_only @idempotent(false)
    @open tool pull_request_read(
        @description("Action to specify what pull request data needs to be retrieved from GitHub. \nPossible options: \n 1. get - Get details of a specific pull request.\n 2. get_diff - Get the diff of a pull request.\n 3. get_status - Get combined commit status of a head commit in a pull request.\n 4. get_files - Get the list of files changed in a pull request. Use with pagination parameters to control the number of results returned.\n 5. get_commits - Get the list of commits on a pull request. Use with pagination parameters to control the number of results returned.\n 6. get_review_comments - Get review threads on a pull request. Each thread contains logically grouped review comments made on the same code location during pull request reviews. Returns threads with metadata (isResolved, isOutdated, isCollapsed) and their associated comments. Use cursor-based pagination (perPage, after) to control results.\n 7. get_reviews - Get the reviews on a pull request. When asked for review comments, use get_review_comments method. Use with pagination parameters to control the number of results returned.\n 8. get_comments - Get comments on a pull request. Use this if user doesn't specifically want review comments. Use with pagination parameters to control the number of results returned.\n 9. get_check_runs - Get check runs for the head commit of a pull request. Check runs are the individual CI/CD jobs and checks that run on the PR.\n")
        method: PullRequestReadMethod,
        @description("Repository owner")
        owner: string,
        @description("Repository name")
        repo: string,
        @description("Pull request number")
        @json_name("pullNumber")
        pull_number: f64,
        ..Pagination,
        @description("Cursor for pagination, used only by the get_review_comments method. Pass the endCursor from the previous page's PageInfo to fetch the next page.")
        after?: string,
    ) -> content;

    @description("List pull requests in a GitHub repository. If the user specifies an author, then DO NOT use this tool and use the search_pull_requests tool instead.")
    @title("List pull requests") @read_only @idempotent(false)
    @open tool list_pull_requests(
        @description("Repository owner")
        owner: string,
        @description("Repository name")
        repo: string,
        @description("Filter by state")
        state?: PullRequestStateFilter,
        @description("Filter by head user/org and branch")
        head?: string,
        @description("Filter by base branch")
        base?: string,
        @description("Sort by")
        sort?: PullRequestSort,
        @description("Sort direction")
        direction?: SortOrder,
        @description("Subset of fields to return for each pull request. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields; omitting 'body' in particular drops the largest per-result data.")
        fields?: list<PullRequestField>,
        ..Pagination,
    ) -> content;

    @description("Create a new pull request in a GitHub repository.")
    @title("Open new pull request") @read_only(false) @idempotent(false)
    @ui("ui://github-mcp-server/pr-write", visibility: ["model", "app"])
    @open tool create_pull_request(
        @description("Repository owner")
        owner: string,
        @description("Repository name")
        repo: string,
        @description("PR title")
        title: string,
        @description("PR description")
        body?: string,
        @description("Branch containing changes")
        head: string,
        @description("Branch to merge into")
        base: string,
        @description("Create as draft PR")
        draft?: bool,
        @description("Allow maintainer edits")
        maintainer_can_modify?: bool,
        @description("GitHub usernames or ORG/team-slug team reviewers to request reviews from")
        reviewers?: list<string>,
    ) -> content;

    @description("Update an existing pull request in a GitHub repository.")
    @title("Edit pull request") @read_only(false) @idempotent(false)
    @ui("ui://github-mcp-server/pr-edit", visibility: ["model", "app"])
    @open tool update_pull_request(
        @description("Repository owner")
        owner: string,
        @description("Repository name")
        repo: string,
        @description("Pull request number to update")
        @json_name("pullNumber")
        pull_number: f64,
        @description("New title")
        title?: string,
        @description("New description")
        body?: string,
        @description("New state")
        state?: OpenClosed,
        @description("Mark pull request as draft (true) or ready for review (false)")
        draft?: bool,
        @description("New base branch name")
        base?: string,
        @description("Allow maintainer edits")
        maintainer_can_modify?: bool,
        @description("GitHub usernames or ORG/team-slug team reviewers to request reviews from")
        reviewers?: list<string>,
    ) -> content;

    @description("Merge a pull request in a GitHub repository.")
    @title("Merge pull request") @read_only(false) @idempotent(false)
    @open tool merge_pull_request(
        @description("Repository owner")
        owner: string,
        @description("Repository name")
        repo: string,
        @description("Pull request number")
        @json_name("pullNumber")
        pull_number: f64,
        @description("Title for merge commit")
        commit_title?: string,
        @description("Extra detail for merge commit")
        commit_message?: string,
        @description("Merge method")
        merge_method?: MergeMethod,
    ) -> content;

    @description("Update the labels of an existing issue. This replaces the current labels with the provided list. When setting values, include a confidence level (LOW, MEDIUM, or HIGH) reflecting how certain you are about the choice.")
    @title("Update Issue Labels") @read_only(false) @destructive(false) @idempotent(false) @open_world
    @open tool update_issue_labels(
        @description("Repository owner (username or organization)")
        owner: string,
        @description("Repository name")
        repo: string,
        @description("The issue number to update")
        @range(min: 1)
        issue_number: f64,
        @description("Labels to apply to this issue.")
        labels: list<LabelItem>,
    ) -> content;

    @description("Update the assignees of an existing issue. This replaces the current assignees with the provided list. When setting values, include a confidence level (LOW, MEDIUM, or HIGH) reflecting how certain you are about the choice.")
    @title("Update Issue Assignees") @read_only(false) @destructive(false) @idempotent(false) @open_world
    @open tool update_issue_assignees(
        @description("Repository owner (username or organization)")
        owner: string,
        @description("Repository name")
        repo: string,
        @description("The issue number to update")
        @range(min: 1)
        issue_number: f64,
        @description("GitHub usernames to assign to this issue.")
        assignees: list<AssigneeItem>,
    ) -> content;
}
