//! Two servers generated from OpenAPI documents, whose every tool forwards its checked call
//! to the API and returns the API's answer as the declared result:
//!
//! - `petstore`: the OpenAPI Specification's Petstore (`petstore-expanded`, OpenAPI 3.0);
//! - `train_travel`: the Train Travel API (OpenAPI 3.1).
//!
//! Both documents come from the npm package `@readme/oas-examples` 8.2.2 (MIT); the `.tool`
//! files and forward bindings in `tools/` are what `toolidl import --openapi … --forward …`
//! writes from them (scripts/openapi.sh checks that they still are).

use toolidl_runtime::Server;
use toolidl_runtime::forward::{ForwardError, Upstream};

toolidl_runtime::include_tools!();

use petstore::{PetstoreRequests, PetstoreServer};
use train_travel::{TrainTravelRequests, TrainTravelServer};

/// The APIs this example serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// The Petstore: credentials from `PETSTORE_*` variables (it needs none).
    Petstore,
    /// The Train Travel API: `TRAIN_TRAVEL_OAUTH2_TOKEN`, or client credentials in
    /// `TRAIN_TRAVEL_OAUTH2_CLIENT_ID` and `…_CLIENT_SECRET`.
    TrainTravel,
}

impl Api {
    /// `petstore` or `train-travel`.
    pub fn parse(name: &str) -> Option<Api> {
        match name {
            "petstore" => Some(Api::Petstore),
            "train-travel" => Some(Api::TrainTravel),
            _ => None,
        }
    }
}

/// The server of `api`, forwarding to `base_url` (the document's first server when `None`),
/// with the credentials of the environment.
pub fn server(api: Api, base_url: Option<&str>) -> Result<Server, ForwardError> {
    let (builder, prefix) = match api {
        Api::Petstore => (PetstoreRequests::upstream(), "PETSTORE"),
        Api::TrainTravel => (TrainTravelRequests::upstream(), "TRAIN_TRAVEL"),
    };
    let builder = match base_url {
        Some(url) => builder.base_url(url),
        None => builder,
    };
    let upstream: Upstream = builder.credentials_from_env(prefix).build()?;
    let server = Server::builder("openapi-example", env!("CARGO_PKG_VERSION"));
    Ok(match api {
        Api::Petstore => server.service(PetstoreServer::new(upstream)),
        Api::TrainTravel => server.service(TrainTravelServer::new(upstream)),
    }
    .build())
}
