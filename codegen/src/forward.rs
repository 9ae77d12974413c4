//! The forward binding: how each tool of a service imported from an OpenAPI document becomes
//! an HTTP request to the API it describes (method, path, where each argument goes, the body,
//! the success response, the credentials).
//!
//! `toolidl import --openapi … --forward FILE` writes it beside the `.tool` file, as JSON;
//! the Rust generator reads it (`toolidl_build::Builder::forward`, `toolidl generate
//! --forward`) and writes a handler per bound tool that calls the API through the runtime's
//! `forward` feature. The `.tool` file stays the interface (what agents see and what is
//! checked); the binding only says where each checked argument is sent.

use serde::{Deserialize, Serialize};

/// The version of the binding format this crate reads and writes.
pub const BINDING_VERSION: u32 = 1;

/// The forward binding of one service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Binding {
    /// [`BINDING_VERSION`].
    pub binding: u32,
    /// The package of the `.tool` file.
    pub package: String,
    /// The service whose tools are bound.
    pub service: String,
    /// The document's title and version, for the generated docs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api: Option<String>,
    /// The document's server URLs (server variables at their defaults), the first one the
    /// default base URL; relative ones are relative to where the document was read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<String>,
    /// The document's security schemes (`components.securitySchemes`), in document order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemes: Vec<Scheme>,
    /// One entry per bound tool, in the order of the service.
    pub operations: Vec<Operation>,
}

/// A security scheme: how a credential is sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, tag = "type", rename_all = "snake_case")]
pub enum Scheme {
    /// `apiKey`: a key in a header, the query or a cookie.
    ApiKey {
        /// The scheme's name in the document.
        name: String,
        /// Where the key goes.
        #[serde(rename = "in")]
        location: Location,
        /// The header, query parameter or cookie that carries it.
        key: String,
    },
    /// `http` with `scheme: bearer`.
    Bearer {
        /// The scheme's name in the document.
        name: String,
    },
    /// `http` with `scheme: basic`.
    Basic {
        /// The scheme's name in the document.
        name: String,
    },
    /// `oauth2` (or `openIdConnect`): a bearer token, from client credentials, from a token
    /// exchange, or configured.
    #[serde(rename = "oauth2")]
    OAuth2 {
        /// The scheme's name in the document.
        name: String,
        /// The token endpoint of its `clientCredentials` flow, if it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token_url: Option<String>,
    },
}

impl Scheme {
    /// The scheme's name in the document.
    pub fn name(&self) -> &str {
        match self {
            Scheme::ApiKey { name, .. }
            | Scheme::Bearer { name }
            | Scheme::Basic { name }
            | Scheme::OAuth2 { name, .. } => name,
        }
    }
}

/// Where a parameter (or an API key) goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// A variable of the path template.
    Path,
    /// The query string.
    Query,
    /// A request header.
    Header,
    /// The `Cookie` header.
    Cookie,
}

impl Location {
    /// Its name in an OpenAPI document (`path`, `query`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
            Location::Cookie => "cookie",
        }
    }
}

/// How a parameter's value is written (OpenAPI `style`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Style {
    /// `simple`: `a,b` (path and header default).
    Simple,
    /// `label`: `.a.b` (path).
    Label,
    /// `matrix`: `;x=a,b` (path).
    Matrix,
    /// `form`: `x=a&x=b` or `x=a,b` (query and cookie default).
    Form,
    /// `spaceDelimited`: `x=a%20b` (query arrays).
    SpaceDelimited,
    /// `pipeDelimited`: `x=a|b` (query arrays).
    PipeDelimited,
    /// `deepObject`: `x[k]=v` (query objects).
    DeepObject,
    /// A parameter described by `content: application/json`: its value as JSON text.
    Json,
}

/// One operation: the request a tool's handler sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Operation {
    /// The tool's name (its wire name).
    pub tool: String,
    /// The operation's `operationId`, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    /// The HTTP method, upper case.
    pub method: String,
    /// The path template, relative to the base URL (`/pet/{petId}`).
    pub path: String,
    /// Where each parameter of the tool goes, except those of the body.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<Parameter>,
    /// The request body, if the operation takes one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<Body>,
    /// The success response read into the tool's result.
    pub response: Response,
    /// The alternatives of credentials it takes, each a list of schemes used together; an
    /// empty alternative means none is needed. Empty: no security.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub security: Vec<Vec<String>>,
}

/// A parameter sent outside the body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parameter {
    /// The tool's parameter (its wire name) that holds the value.
    pub argument: String,
    /// Where it goes.
    #[serde(rename = "in")]
    pub location: Location,
    /// The name it is sent under.
    pub name: String,
    /// How it is written.
    pub style: Style,
    /// `explode`.
    pub explode: bool,
    /// `allowReserved` (query): reserved characters are sent as they are.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allow_reserved: bool,
}

/// The request body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Body {
    /// Its media type (`application/json`, `application/x-www-form-urlencoded`,
    /// `application/octet-stream`, `text/plain`, …).
    pub media_type: String,
    /// Whether the operation requires it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub required: bool,
    /// Which parameters make it.
    #[serde(flatten)]
    pub content: BodyContent,
}

/// Which parameters make the body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BodyContent {
    /// An object, one member per parameter: `(argument, member)` (a member renamed because
    /// its name was a parameter's already keeps its own name in the body).
    Fields(Vec<(String, String)>),
    /// The whole body is this parameter.
    Value(String),
}

/// The response the tool's result is read from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Response {
    /// Its status (`200`, `2XX`, `default`).
    pub status: String,
    /// Its media type, asked for with `Accept`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_type: Option<String>,
    /// What the result is read as.
    pub read: Read,
}

/// How the success response becomes the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Read {
    /// JSON, read as the tool's result type (with every check of its declaration).
    Json,
    /// The body as text.
    Text,
    /// The body's bytes.
    Bytes,
    /// Nothing (the result is empty).
    Nothing,
}
