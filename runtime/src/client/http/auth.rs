//! How a transport's requests are authorized: a bearer token given by the caller, or
//! OAuth (`client::OAuth`), behind one interface the request path calls.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::super::ClientError;
use super::exchange::Endpoint;

/// A future borrowing its authorizer.
pub(crate) type AuthFuture<'a, T> =
    Pin<Box<dyn Future<Output = Result<T, ClientError>> + Send + 'a>>;

/// What authorizes requests, before the transport binds it to its endpoint.
pub(crate) trait Authorize: Send + Sync {
    /// The authorizer of the requests to `endpoint`.
    fn bind(&self, endpoint: &Endpoint) -> Result<Arc<dyn Authorizer>, ClientError>;
}

/// The server's refusal of a request: its status, its `WWW-Authenticate` challenges
/// (comma-joined), the `Authorization` value it was sent with, and how many times the
/// request was sent again for authorization already.
pub(crate) struct Refusal<'a> {
    pub status: u16,
    pub challenge: &'a str,
    pub sent: Option<&'a str>,
    pub attempt: u32,
}

/// Authorizes the requests to one endpoint.
pub(crate) trait Authorizer: Send + Sync {
    /// The `Authorization` value of the next request, if any.
    fn credential(&self) -> AuthFuture<'_, Option<String>>;

    /// The server refused a request (401, 403): whether to send it again, with the
    /// credential now in place. `Ok(false)` returns the refusal to the caller.
    fn refused<'a>(&'a self, refusal: Refusal<'a>) -> AuthFuture<'a, bool>;
}

/// A token the caller got elsewhere, sent as it is.
pub(crate) struct Bearer {
    value: String,
}

impl Bearer {
    pub(crate) fn new(token: String) -> Bearer {
        Bearer {
            value: format!("Bearer {token}"),
        }
    }
}

impl Authorize for Bearer {
    fn bind(&self, _: &Endpoint) -> Result<Arc<dyn Authorizer>, ClientError> {
        Ok(Arc::new(Bearer {
            value: self.value.clone(),
        }))
    }
}

impl Authorizer for Bearer {
    fn credential(&self) -> AuthFuture<'_, Option<String>> {
        Box::pin(std::future::ready(Ok(Some(self.value.clone()))))
    }

    fn refused<'a>(&'a self, _: Refusal<'a>) -> AuthFuture<'a, bool> {
        Box::pin(std::future::ready(Ok(false)))
    }
}
