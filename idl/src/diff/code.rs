//! The stable codes of changes, one enum variant each, as `docs/diff.md` lists them.

use serde::Serialize;

use crate::model::Keyword;

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $text:literal,)*) => {
        /// A change's stable code (`PARAM_TYPE_NARROWED`), as `docs/diff.md` lists it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, in the order `docs/diff.md` lists them.
            pub const ALL: &[Code] = &[$(Code::$variant),*];

            /// The code as printed (`PARAM_TYPE_NARROWED`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $text,)*
                }
            }
        }
    };
}

codes! {
    /// A tool is gone.
    ToolRemoved = "TOOL_REMOVED",
    /// A tool's wire name changed.
    ToolRenamed = "TOOL_RENAMED",
    /// A new tool.
    ToolAdded = "TOOL_ADDED",
    /// A resource is gone.
    ResourceRemoved = "RESOURCE_REMOVED",
    /// A resource's name changed.
    ResourceRenamed = "RESOURCE_RENAMED",
    /// A new resource.
    ResourceAdded = "RESOURCE_ADDED",
    /// A resource's URI or template changed.
    ResourceUriChanged = "RESOURCE_URI_CHANGED",
    /// A resource's MIME type changed.
    ResourceMimeChanged = "RESOURCE_MIME_CHANGED",
    /// A view's `_meta.ui` (`@csp`, `@permissions`, `@domain`, `@prefers_border`) changed.
    ResourceViewChanged = "RESOURCE_VIEW_CHANGED",
    /// A prompt is gone.
    PromptRemoved = "PROMPT_REMOVED",
    /// A prompt's name changed.
    PromptRenamed = "PROMPT_RENAMED",
    /// A new prompt.
    PromptAdded = "PROMPT_ADDED",
    /// Same wire name, another declared identifier.
    MethodRenamed = "METHOD_RENAMED",
    /// A member moved to another service.
    MemberMoved = "MEMBER_MOVED",
    /// What a member returns changed.
    ResultChanged = "RESULT_CHANGED",
    /// `@title` changed.
    TitleChanged = "TITLE_CHANGED",
    /// A tool's `annotations.title`, written apart from its `title`, changed.
    AnnotationsTitleChanged = "ANNOTATIONS_TITLE_CHANGED",
    /// A doc comment or `@description` changed.
    DocsChanged = "DOCS_CHANGED",
    /// A behaviour hint changed.
    AnnotationsChanged = "ANNOTATIONS_CHANGED",
    /// `@ui` changed.
    UiChanged = "UI_CHANGED",
    /// The listed `execution.taskSupport` changed.
    ExecutionChanged = "EXECUTION_CHANGED",
    /// The `$schema` of a tool's schemas changed.
    SchemaDialectChanged = "SCHEMA_DIALECT_CHANGED",
    /// `@text` changed: the text block a client reads beside the structured result.
    ResultTextChanged = "RESULT_TEXT_CHANGED",
    /// A member needs a scope it did not.
    ScopeAdded = "SCOPE_ADDED",
    /// A member no longer needs a scope.
    ScopeRemoved = "SCOPE_REMOVED",
    /// A new service.
    ServiceAdded = "SERVICE_ADDED",
    /// A service is gone.
    ServiceRemoved = "SERVICE_REMOVED",
    /// The file's package changed.
    PackageChanged = "PACKAGE_CHANGED",
    /// A required parameter was added.
    ParamAddedRequired = "PARAM_ADDED_REQUIRED",
    /// An optional parameter was added.
    ParamAddedOptional = "PARAM_ADDED_OPTIONAL",
    /// A parameter is gone.
    ParamRemoved = "PARAM_REMOVED",
    /// A parameter's wire name changed.
    ParamRenamed = "PARAM_RENAMED",
    /// A parameter's declared name changed, not its wire name.
    ParamIdentChanged = "PARAM_IDENT_CHANGED",
    /// The parameters are in another order.
    ParamReordered = "PARAM_REORDERED",
    /// A parameter's type accepts less.
    ParamTypeNarrowed = "PARAM_TYPE_NARROWED",
    /// A parameter's type accepts more.
    ParamTypeWidened = "PARAM_TYPE_WIDENED",
    /// A parameter's type changed otherwise.
    ParamTypeChanged = "PARAM_TYPE_CHANGED",
    /// A parameter's constraints accept less.
    ParamConstraintTightened = "PARAM_CONSTRAINT_TIGHTENED",
    /// A parameter's constraints accept more.
    ParamConstraintLoosened = "PARAM_CONSTRAINT_LOOSENED",
    /// A parameter's constraints changed otherwise.
    ParamConstraintChanged = "PARAM_CONSTRAINT_CHANGED",
    /// A parameter lost its default.
    ParamNowRequired = "PARAM_NOW_REQUIRED",
    /// A parameter got a default.
    ParamNowOptional = "PARAM_NOW_OPTIONAL",
    /// A parameter's default changed.
    ParamDefaultChanged = "PARAM_DEFAULT_CHANGED",
    /// A parameter's doc comment or `@description` changed.
    ParamDocsChanged = "PARAM_DOCS_CHANGED",
    /// A required field was added.
    FieldAddedRequired = "FIELD_ADDED_REQUIRED",
    /// An optional field was added.
    FieldAddedOptional = "FIELD_ADDED_OPTIONAL",
    /// A field is gone.
    FieldRemoved = "FIELD_REMOVED",
    /// A field's wire name changed.
    FieldRenamed = "FIELD_RENAMED",
    /// A field's declared name changed, not its wire name.
    FieldIdentChanged = "FIELD_IDENT_CHANGED",
    /// A field's type accepts less.
    FieldTypeNarrowed = "FIELD_TYPE_NARROWED",
    /// A field's type accepts more.
    FieldTypeWidened = "FIELD_TYPE_WIDENED",
    /// A field's type changed otherwise.
    FieldTypeChanged = "FIELD_TYPE_CHANGED",
    /// A field's constraints accept less.
    FieldConstraintTightened = "FIELD_CONSTRAINT_TIGHTENED",
    /// A field's constraints accept more.
    FieldConstraintLoosened = "FIELD_CONSTRAINT_LOOSENED",
    /// A field's constraints changed otherwise.
    FieldConstraintChanged = "FIELD_CONSTRAINT_CHANGED",
    /// A field lost its default.
    FieldNowRequired = "FIELD_NOW_REQUIRED",
    /// A field got a default.
    FieldNowOptional = "FIELD_NOW_OPTIONAL",
    /// A field's default changed.
    FieldDefaultChanged = "FIELD_DEFAULT_CHANGED",
    /// A field's doc comment or `@description` changed.
    FieldDocsChanged = "FIELD_DOCS_CHANGED",
    /// A record, enum, named type or union is gone.
    TypeRemoved = "TYPE_REMOVED",
    /// A new record, enum, named type or union.
    TypeAdded = "TYPE_ADDED",
    /// A declaration changed kind (a record became an enum, …).
    TypeKindChanged = "TYPE_KIND_CHANGED",
    /// A record's `@open` or `@open(input)` was added, removed or exchanged.
    RecordOpennessChanged = "RECORD_OPENNESS_CHANGED",
    /// An enum member is gone.
    EnumMemberRemoved = "ENUM_MEMBER_REMOVED",
    /// A new enum member.
    EnumMemberAdded = "ENUM_MEMBER_ADDED",
    /// A union's tag property changed.
    UnionTagChanged = "UNION_TAG_CHANGED",
    /// A union variant is gone.
    UnionVariantRemoved = "UNION_VARIANT_REMOVED",
    /// A union variant's type changed.
    UnionVariantChanged = "UNION_VARIANT_CHANGED",
    /// A new union variant.
    UnionVariantAdded = "UNION_VARIANT_ADDED",
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// What a parameter or a record field can undergo: each rule has a `PARAM_` and a `FIELD_`
/// code (a reorder is a parameter's only, [`Code::ParamReordered`]: fields are named).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rule {
    AddedRequired,
    AddedOptional,
    Removed,
    Renamed,
    IdentChanged,
    TypeNarrowed,
    TypeWidened,
    TypeChanged,
    ConstraintTightened,
    ConstraintLoosened,
    ConstraintChanged,
    NowRequired,
    NowOptional,
    DefaultChanged,
    DocsChanged,
}

/// Whose a parameter-like change is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Holder {
    /// A tool's, resource's or prompt's parameter.
    Param,
    /// A record's field.
    Field,
}

impl Holder {
    pub fn code(self, rule: Rule) -> Code {
        use Code::*;
        let [param, field] = match rule {
            Rule::AddedRequired => [ParamAddedRequired, FieldAddedRequired],
            Rule::AddedOptional => [ParamAddedOptional, FieldAddedOptional],
            Rule::Removed => [ParamRemoved, FieldRemoved],
            Rule::Renamed => [ParamRenamed, FieldRenamed],
            Rule::IdentChanged => [ParamIdentChanged, FieldIdentChanged],
            Rule::TypeNarrowed => [ParamTypeNarrowed, FieldTypeNarrowed],
            Rule::TypeWidened => [ParamTypeWidened, FieldTypeWidened],
            Rule::TypeChanged => [ParamTypeChanged, FieldTypeChanged],
            Rule::ConstraintTightened => [ParamConstraintTightened, FieldConstraintTightened],
            Rule::ConstraintLoosened => [ParamConstraintLoosened, FieldConstraintLoosened],
            Rule::ConstraintChanged => [ParamConstraintChanged, FieldConstraintChanged],
            Rule::NowRequired => [ParamNowRequired, FieldNowRequired],
            Rule::NowOptional => [ParamNowOptional, FieldNowOptional],
            Rule::DefaultChanged => [ParamDefaultChanged, FieldDefaultChanged],
            Rule::DocsChanged => [ParamDocsChanged, FieldDocsChanged],
        };
        match self {
            Holder::Param => param,
            Holder::Field => field,
        }
    }

    /// `parameter` or `field`.
    pub fn noun(self) -> &'static str {
        match self {
            Holder::Param => "parameter",
            Holder::Field => "field",
        }
    }
}

/// The codes of a change to a member of each keyword (a resource template is a resource).
impl Code {
    /// A member is gone.
    pub(super) fn removed(keyword: Keyword) -> Code {
        match keyword {
            Keyword::Tool => Code::ToolRemoved,
            Keyword::Resource => Code::ResourceRemoved,
            Keyword::Prompt => Code::PromptRemoved,
        }
    }

    /// A new member.
    pub(super) fn added(keyword: Keyword) -> Code {
        match keyword {
            Keyword::Tool => Code::ToolAdded,
            Keyword::Resource => Code::ResourceAdded,
            Keyword::Prompt => Code::PromptAdded,
        }
    }

    /// A member has another wire name.
    pub(super) fn renamed(keyword: Keyword) -> Code {
        match keyword {
            Keyword::Tool => Code::ToolRenamed,
            Keyword::Resource => Code::ResourceRenamed,
            Keyword::Prompt => Code::PromptRenamed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code is documented in `docs/diff.md`, and every code written there exists.
    #[test]
    fn docs_list_every_code() {
        let docs = include_str!("../../../docs/diff.md");
        for code in Code::ALL {
            assert!(
                docs.contains(&format!("| `{code}` |")),
                "{code} is not in docs/diff.md"
            );
        }
        let listed = docs
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| l.split_once("` |"))
            .map(|(code, _)| code)
            .filter(|c| c.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
            .count();
        assert_eq!(listed, Code::ALL.len());
    }
}
