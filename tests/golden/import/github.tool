package github;

enum Method { get, get_comments, get_sub_issues, get_parent, get_labels }

union Value {
    text: string,
    number: f64,
    flag: bool,
}

record IssueFieldsItem {
    /// Set to true to clear this field's current value on the issue. When false or omitted, this property is ignored. Cannot be true when 'value' or 'field_option_name' is provided.
    delete?: bool,
    /// Issue field name (case-insensitive). Must match a field returned by list_issue_fields for this repository or its organization.
    field_name: string,
    /// Option name for single-select fields. Validated against the field's options before the API call. Cannot be combined with 'value' or 'delete: true'.
    field_option_name?: string,
    /// Value to set. Use for text, number, and date fields (date as YYYY-MM-DD). For single-select fields, prefer 'field_option_name' so the option is validated before the API call. Cannot be combined with 'field_option_name' or 'delete: true'.
    value?: Value,
}

enum IssueWriteMethod { create, update }

enum State { open, closed }

enum StateReason { completed, not_planned, duplicate }

enum Reaction {
    @value("+1") plus_1,
    @value("-1") minus_1,
    laugh,
    confused,
    heart,
    hooray,
    rocket,
    eyes,
}

enum Direction { ASC, DESC }

@open(input)
record FieldFiltersItem {
    /// Name of the custom field (e.g. "Priority"). Case-insensitive.
    field_name: string,
    /// Value to filter on. For single-select fields, the option name (e.g. "P1"). For dates, YYYY-MM-DD. For numbers, the numeric value as a string. For text, the text value.
    value: string,
}

enum FieldsItem {
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

enum OrderBy { CREATED_AT, UPDATED_AT, COMMENTS }

enum ListIssuesState { OPEN, CLOSED }

enum SearchIssuesFieldsItem {
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
    type,
    repository_url,
    pull_request,
    field_values,
}

enum Order { asc, desc }

enum Sort {
    comments,
    reactions,
    @value("reactions-+1") reactions_plus_1,
    @value("reactions--1") reactions_minus_1,
    @value("reactions-smile") reactions_smile,
    @value("reactions-thinking_face") reactions_thinking_face,
    @value("reactions-heart") reactions_heart,
    @value("reactions-tada") reactions_tada,
    interactions,
    created,
    updated,
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

enum ListPullRequestsFieldsItem {
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

enum ListPullRequestsSort {
    created,
    updated,
    popularity,
    @value("long-running") long_running,
}

enum ListPullRequestsState { open, closed, all }

enum MergeMethod { merge, squash, rebase }

enum Confidence { LOW, MEDIUM, HIGH }

@open(input)
record LabelsItemObject {
    /// How confident you are in this choice. Use 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.
    confidence?: Confidence,
    /// If true, this label is sent to the API as a suggestion (suggest:true) rather than an applied label. Whether the label is applied or recorded as a proposal is determined by the API.
    is_suggestion?: bool,
    /// Label name
    name: string,
    /// One concise sentence explaining what specifically about the issue led you to choose this label. State the concrete signal (e.g. 'Reports a crash when saving' → bug).
    @length(max: 280) rationale?: string,
}

union LabelsItem {
    /// Label name
    text: string,
    object: LabelsItemObject,
}

@open(input)
record AssigneesItemObject {
    /// How confident you are in this choice. Use 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.
    confidence?: Confidence,
    /// If true, this assignee is sent to the API as a suggestion (suggest:true) rather than an applied assignee. Whether the assignee is applied or recorded as a proposal is determined by the API.
    is_suggestion?: bool,
    /// GitHub username
    login: string,
    /// One concise sentence explaining what specifically about the issue led you to choose this assignee. State the concrete signal (e.g. 'Authored the file the crash originates in').
    @length(max: 280) rationale?: string,
}

union AssigneesItem {
    /// GitHub username
    text: string,
    object: AssigneesItemObject,
}

service Github {
    @open
    tool issue_read(
        /// The number of the issue
        issue_number: f64,
        @description("The read operation to perform on a single issue.\nOptions are:\n1. get - Get issue details. Also returns best-effort hierarchy flags (`has_parent`, `has_children`); `parent` and `sub_issues_summary` are optional relationship summaries, and `closed_by_pull_requests` summarizes the pull requests configured to close the issue as `total_count` plus up to 5 `references`.\n2. get_comments - Get issue comments.\n3. get_sub_issues - Get sub-issues (children) of the issue.\n4. get_parent - Get the parent issue, if this issue is a sub-issue of another.\n5. get_labels - Get labels assigned to the issue.\n")
        method: Method,
        /// The owner of the repository
        owner: string,
        /// Page number for pagination (min 1)
        @range(min: 1) page?: f64,
        /// Results per page for pagination (min 1, max 100)
        @range(1, 100) perPage?: f64,
        /// The name of the repository
        repo: string,
    ) -> content;

    @open
    tool issue_write(
        /// Usernames to assign to this issue
        assignees?: list<string>,
        /// Issue body content
        body?: string,
        /// Issue number that this issue is a duplicate of. Required when state_reason is 'duplicate'.
        duplicate_of?: f64,
        /// Issue field values to set or clear. Each item requires 'field_name' and exactly one of 'value', 'field_option_name', or 'delete: true'.
        issue_fields?: list<IssueFieldsItem>,
        /// Issue number to update
        issue_number?: f64,
        /// Labels to apply to this issue
        labels?: list<string>,
        @description("Write operation to perform on a single issue.\nOptions are:\n- 'create' - creates a new issue.\n- 'update' - updates an existing issue.\n")
        method: IssueWriteMethod,
        /// Milestone number
        milestone?: f64,
        /// Repository owner
        owner: string,
        /// Repository name
        repo: string,
        /// New state
        state?: State,
        /// Reason for the state change. Ignored unless state is changed.
        state_reason?: StateReason,
        /// Issue title
        title?: string,
        /// Type of this issue. For updates, pass null to remove the current type. Only use if issue types are enabled for this repository. Use list_issue_types to get valid type values for this repository or its owner organization. If the repository doesn't support issue types, omit this parameter.
        @length(min: 1) type?: string?,
    ) -> content;

    @open
    tool add_issue_comment(
        /// Comment content. Required unless reaction is provided.
        @length(min: 1) body?: string,
        /// The numeric ID of the issue or pull request comment to react to. Use this for reactions to comments; omit it to react to the issue or pull request itself. Cannot be combined with body.
        @range(min: 1) comment_id?: integer,
        /// Issue or pull request number to comment on or react to.
        issue_number: f64,
        /// Repository owner
        owner: string,
        /// Emoji reaction to add. Required unless body is provided.
        reaction?: Reaction,
        /// Repository name
        repo: string,
    ) -> content;

    @open
    tool list_issues(
        /// Cursor for pagination. Use the cursor from the previous response.
        after?: string,
        /// Order direction. If provided, the 'orderBy' also needs to be provided.
        direction?: Direction,
        /// Filter by custom issue field values. Each entry takes a field_name and a value; the server looks up the field and coerces the value to its type (single-select option name, text, number, or YYYY-MM-DD date).
        field_filters?: list<FieldFiltersItem>,
        /// Subset of fields to return for each issue. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields; omitting 'body' and 'field_values' in particular drops the largest per-result data.
        fields?: list<FieldsItem>,
        /// Filter by labels
        labels?: list<string>,
        /// Order issues by field. If provided, the 'direction' also needs to be provided.
        orderBy?: OrderBy,
        /// Repository owner
        owner: string,
        /// Results per page for pagination (min 1, max 100)
        @range(1, 100) perPage?: f64,
        /// Repository name
        repo: string,
        /// Filter by date (ISO 8601 timestamp)
        since?: string,
        /// Filter by state, by default both open and closed issues are returned when not provided
        state?: ListIssuesState,
    ) -> content;

    @open @rename_all("camelCase")
    tool search_issues(
        /// Subset of fields to return for each issue result. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields; omitting 'body', 'reactions', and 'labels' in particular drops the largest per-result data.
        fields?: list<SearchIssuesFieldsItem>,
        /// Sort order
        order?: Order,
        /// Optional repository owner. If provided with repo, only issues for this repository are listed.
        owner?: string,
        /// Page number for pagination (min 1)
        @range(min: 1) page?: f64,
        /// Results per page for pagination (min 1, max 100)
        @range(1, 100) per_page?: f64,
        /// The search query, as natural language. When the user gives alternative wordings, include them as plain words rather than joining them with OR.
        query: string,
        /// Optional repository name. If provided with owner, only issues for this repository are listed.
        repo?: string,
        /// Sort field by number of matches of categories, defaults to best match
        sort?: Sort,
    ) -> content;

    @open @rename_all("camelCase")
    tool pull_request_read(
        /// Cursor for pagination, used only by the get_review_comments method. Pass the endCursor from the previous page's PageInfo to fetch the next page.
        after?: string,
        @description("Action to specify what pull request data needs to be retrieved from GitHub. \nPossible options: \n 1. get - Get details of a specific pull request.\n 2. get_diff - Get the diff of a pull request.\n 3. get_status - Get combined commit status of a head commit in a pull request.\n 4. get_files - Get the list of files changed in a pull request. Use with pagination parameters to control the number of results returned.\n 5. get_commits - Get the list of commits on a pull request. Use with pagination parameters to control the number of results returned.\n 6. get_review_comments - Get review threads on a pull request. Each thread contains logically grouped review comments made on the same code location during pull request reviews. Returns threads with metadata (isResolved, isOutdated, isCollapsed) and their associated comments. Use cursor-based pagination (perPage, after) to control results.\n 7. get_reviews - Get the reviews on a pull request. When asked for review comments, use get_review_comments method. Use with pagination parameters to control the number of results returned.\n 8. get_comments - Get comments on a pull request. Use this if user doesn't specifically want review comments. Use with pagination parameters to control the number of results returned.\n 9. get_check_runs - Get check runs for the head commit of a pull request. Check runs are the individual CI/CD jobs and checks that run on the PR.\n")
        method: PullRequestReadMethod,
        /// Repository owner
        owner: string,
        /// Page number for pagination (min 1)
        @range(min: 1) page?: f64,
        /// Results per page for pagination (min 1, max 100)
        @range(1, 100) per_page?: f64,
        /// Pull request number
        pull_number: f64,
        /// Repository name
        repo: string,
    ) -> content;

    @open @rename_all("camelCase")
    tool list_pull_requests(
        /// Filter by base branch
        base?: string,
        /// Sort direction
        direction?: Order,
        /// Subset of fields to return for each pull request. If omitted, all fields are returned. Use this to reduce response size when you only need specific fields; omitting 'body' in particular drops the largest per-result data.
        fields?: list<ListPullRequestsFieldsItem>,
        /// Filter by head user/org and branch
        head?: string,
        /// Repository owner
        owner: string,
        /// Page number for pagination (min 1)
        @range(min: 1) page?: f64,
        /// Results per page for pagination (min 1, max 100)
        @range(1, 100) per_page?: f64,
        /// Repository name
        repo: string,
        /// Sort by
        sort?: ListPullRequestsSort,
        /// Filter by state
        state?: ListPullRequestsState,
    ) -> content;

    @open
    tool create_pull_request(
        /// Branch to merge into
        base: string,
        /// PR description
        body?: string,
        /// Create as draft PR
        draft?: bool,
        /// Branch containing changes
        head: string,
        /// Allow maintainer edits
        maintainer_can_modify?: bool,
        /// Repository owner
        owner: string,
        /// Repository name
        repo: string,
        /// GitHub usernames or ORG/team-slug team reviewers to request reviews from
        reviewers?: list<string>,
        /// PR title
        title: string,
    ) -> content;

    @open
    tool update_pull_request(
        /// New base branch name
        base?: string,
        /// New description
        body?: string,
        /// Mark pull request as draft (true) or ready for review (false)
        draft?: bool,
        /// Allow maintainer edits
        maintainer_can_modify?: bool,
        /// Repository owner
        owner: string,
        /// Pull request number to update
        pullNumber: f64,
        /// Repository name
        repo: string,
        /// GitHub usernames or ORG/team-slug team reviewers to request reviews from
        reviewers?: list<string>,
        /// New state
        state?: State,
        /// New title
        title?: string,
    ) -> content;

    @open
    tool merge_pull_request(
        /// Extra detail for merge commit
        commit_message?: string,
        /// Title for merge commit
        commit_title?: string,
        /// Merge method
        merge_method?: MergeMethod,
        /// Repository owner
        owner: string,
        /// Pull request number
        pullNumber: f64,
        /// Repository name
        repo: string,
    ) -> content;

    @open
    tool update_issue_labels(
        /// The issue number to update
        @range(min: 1) issue_number: f64,
        /// Labels to apply to this issue.
        labels: list<LabelsItem>,
        /// Repository owner (username or organization)
        owner: string,
        /// Repository name
        repo: string,
    ) -> content;

    @open
    tool update_issue_assignees(
        /// GitHub usernames to assign to this issue.
        assignees: list<AssigneesItem>,
        /// The issue number to update
        @range(min: 1) issue_number: f64,
        /// Repository owner (username or organization)
        owner: string,
        /// Repository name
        repo: string,
    ) -> content;
}
