//! Who a request comes from, and the budgets it draws on.
//!
//! Every scarce thing of the endpoint (bodies being received, requests being served,
//! long-lived streams) is a [`Budget`] with a total and a cap per client, so that no client
//! can take what the others need: one address's flood is refused with 429 while everyone
//! else is served. A client is the principal of its access token when the endpoint
//! authenticates (feature `auth`), else the address it connects from, or, behind proxies
//! named with [`HttpConfig::trust_proxy`], the address they forwarded.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};

use hyper::http::request::Parts;

use super::config::HttpConfig;

/// The address a connection came from. The runtime's own listener puts it in every
/// request's extensions; an application that mounts [`McpService`](super::McpService) in
/// its router inserts it itself (from axum's `ConnectInfo`, say), or per-client limits do
/// not apply to its requests (only the totals do).
///
/// ```ignore
/// // axum: serve with `into_make_service_with_connect_info::<SocketAddr>()`, and
/// let app = Router::new().route_service("/mcp", mcp).layer(axum::middleware::from_fn(
///     |ConnectInfo(peer): ConnectInfo<SocketAddr>, mut req: Request, next: Next| async move {
///         req.extensions_mut().insert(ClientAddr(peer));
///         next.run(req).await
///     },
/// ));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub SocketAddr);

/// Who a request counts against.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ClientKey {
    /// The principal (`sub`) of a verified access token.
    #[cfg(feature = "auth")]
    Principal(Arc<str>),
    /// The client's address.
    Addr(IpAddr),
    /// A mounted endpoint given no [`ClientAddr`]: only the totals apply.
    Unknown,
}

impl ClientKey {
    /// The client of a request: its principal when authenticated, else its address (`peer`,
    /// the connection's, from the runtime's listener, else a [`ClientAddr`] the application
    /// put in the request).
    pub(crate) fn of(config: &HttpConfig, parts: &Parts, peer: Option<SocketAddr>) -> ClientKey {
        #[cfg(feature = "auth")]
        if let Some(principal) = parts
            .extensions
            .get::<Arc<crate::auth::AuthInfo>>()
            .and_then(|info| info.principal())
        {
            return ClientKey::Principal(principal.into());
        }
        match peer_of(parts, peer) {
            Some(peer) => ClientKey::Addr(forwarded_client(config, parts, peer.ip())),
            None => ClientKey::Unknown,
        }
    }
}

/// The address a request's connection comes from: `peer` when the runtime's listener knows
/// it, else the [`ClientAddr`] the application gave.
pub(crate) fn peer_of(parts: &Parts, peer: Option<SocketAddr>) -> Option<SocketAddr> {
    peer.or_else(|| parts.extensions.get::<ClientAddr>().map(|a| a.0))
}

/// The client's address behind trusted proxies: `X-Forwarded-For` read from the right,
/// skipping the proxies [`HttpConfig::trust_proxy`] names, starting from the peer; the first
/// address not trusted is the client's (the leftmost one when all are).
fn forwarded_client(config: &HttpConfig, parts: &Parts, peer: IpAddr) -> IpAddr {
    if !trusted(config, peer) {
        return peer;
    }
    let mut client = peer;
    // Every X-Forwarded-For field in order: they form one list (RFC 9110 §5.3).
    let fields: Vec<&str> = parts
        .headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    for hop in fields.iter().rev().flat_map(|f| f.rsplit(',')) {
        let Some(addr) = parse_hop(hop.trim()) else {
            // Garbage in the list: what is left of it cannot be trusted either.
            return client;
        };
        client = addr;
        if !trusted(config, addr) {
            break;
        }
    }
    client
}

/// Whether `addr` is a proxy [`HttpConfig::trust_proxy`] names.
fn trusted(config: &HttpConfig, addr: IpAddr) -> bool {
    config
        .trusted_proxies
        .iter()
        .any(|&(net, prefix)| in_network(addr, net, prefix))
}

/// An `X-Forwarded-For` entry: an address, bracketed or not, with or without a port.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip);
    }
    hop.parse::<SocketAddr>().ok().map(|s| s.ip())
}

/// Whether `addr` is in the network `net`/`prefix`.
fn in_network(addr: IpAddr, net: IpAddr, prefix: u8) -> bool {
    match (addr, net) {
        (IpAddr::V4(a), IpAddr::V4(n)) => {
            let bits = u32::from(prefix.min(32));
            let mask = u32::MAX.checked_shl(32 - bits).unwrap_or(0);
            u32::from(a) & mask == u32::from(n) & mask
        }
        (IpAddr::V6(a), IpAddr::V6(n)) => {
            let bits = u32::from(prefix.min(128));
            let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
            u128::from(a) & mask == u128::from(n) & mask
        }
        (IpAddr::V6(a), IpAddr::V4(_)) => a
            .to_ipv4_mapped()
            .is_some_and(|a| in_network(IpAddr::V4(a), net, prefix)),
        (IpAddr::V4(_), IpAddr::V6(_)) => false,
    }
}

/// Why a budget refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The client holds its share already: 429.
    Client,
    /// The endpoint holds all it may: 503.
    Total,
}

/// A number of things the endpoint holds at once, in all and per client.
pub(crate) struct Budget {
    total: usize,
    per_client: usize,
    counts: Mutex<Counts>,
}

#[derive(Default)]
struct Counts {
    used: usize,
    by_client: HashMap<ClientKey, usize>,
}

impl Budget {
    pub(crate) fn new(total: usize, per_client: usize) -> Arc<Budget> {
        Arc::new(Budget {
            total: total.max(1),
            per_client: per_client.max(1),
            counts: Mutex::new(Counts::default()),
        })
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// One more for `client`, held until the ticket drops; refused when the client holds
    /// its share (an unknown client has no share of its own) or the total is reached.
    pub(crate) fn try_take(self: &Arc<Self>, client: &ClientKey) -> Result<Ticket, Refusal> {
        let mut guard = self.counts();
        let counts = &mut *guard;
        if *client == ClientKey::Unknown {
            if counts.used >= self.total {
                return Err(Refusal::Total);
            }
            counts.used += 1;
            return Ok(Ticket {
                budget: self.clone(),
                client: None,
            });
        }
        // One lookup: an entry made here for a refusal is removed again.
        let entry = counts.by_client.entry(client.clone());
        let n = entry.or_insert(0);
        let refusal = if *n >= self.per_client {
            Some(Refusal::Client)
        } else if counts.used >= self.total {
            Some(Refusal::Total)
        } else {
            None
        };
        if let Some(refusal) = refusal {
            if *n == 0 {
                counts.by_client.remove(client);
            }
            return Err(refusal);
        }
        *n += 1;
        counts.used += 1;
        Ok(Ticket {
            budget: self.clone(),
            client: Some(client.clone()),
        })
    }

    /// How many are held, in all.
    #[cfg(test)]
    fn used(&self) -> usize {
        self.counts().used
    }
}

/// One unit of a [`Budget`], given back when dropped.
pub(crate) struct Ticket {
    budget: Arc<Budget>,
    client: Option<ClientKey>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut counts = self.budget.counts();
        counts.used = counts.used.saturating_sub(1);
        if let Some(client) = self.client.take()
            && let Entry::Occupied(mut n) = counts.by_client.entry(client)
        {
            *n.get_mut() -= 1;
            if *n.get() == 0 {
                n.remove();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> ClientKey {
        ClientKey::Addr(s.parse().unwrap())
    }

    #[test]
    fn one_client_cannot_take_the_others_share() {
        let b = Budget::new(4, 2);
        let a1 = b.try_take(&addr("127.0.0.2")).unwrap();
        let _a2 = b.try_take(&addr("127.0.0.2")).unwrap();
        assert_eq!(b.try_take(&addr("127.0.0.2")).err(), Some(Refusal::Client));
        let _b1 = b.try_take(&addr("127.0.0.3")).unwrap();
        let _u = b.try_take(&ClientKey::Unknown).unwrap();
        assert_eq!(b.try_take(&addr("127.0.0.4")).err(), Some(Refusal::Total));
        drop(a1);
        assert_eq!(b.used(), 3);
        let _a3 = b.try_take(&addr("127.0.0.2")).unwrap();
    }

    #[test]
    fn networks_match_by_prefix() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(in_network(ip("10.1.2.3"), ip("10.0.0.0"), 8));
        assert!(!in_network(ip("11.1.2.3"), ip("10.0.0.0"), 8));
        assert!(in_network(ip("10.1.2.3"), ip("10.1.2.3"), 32));
        assert!(in_network(ip("1.2.3.4"), ip("0.0.0.0"), 0));
        assert!(in_network(ip("fd00::1"), ip("fd00::"), 8));
        assert!(!in_network(ip("fe00::1"), ip("fd00::"), 8));
        assert!(in_network(ip("::ffff:10.0.0.1"), ip("10.0.0.0"), 8));
        assert!(!in_network(ip("10.0.0.1"), ip("::"), 0));
    }

    #[test]
    fn forwarded_for_is_read_from_the_right_past_trusted_proxies() {
        let config = HttpConfig::new().trust_proxy("10.0.0.0".parse().unwrap(), 8);
        let parts = |xff: &[&str]| {
            let mut b = hyper::Request::builder();
            for v in xff {
                b = b.header("x-forwarded-for", *v);
            }
            b.body(()).unwrap().into_parts().0
        };
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let client = |peer: &str, xff: &[&str]| forwarded_client(&config, &parts(xff), ip(peer));
        // Not from a trusted proxy: the header is the client's own words, ignored.
        assert_eq!(client("1.1.1.1", &["2.2.2.2"]), ip("1.1.1.1"));
        // One proxy.
        assert_eq!(client("10.0.0.1", &["1.1.1.1"]), ip("1.1.1.1"));
        // A spoofed entry on the left of the real one is not believed.
        assert_eq!(client("10.0.0.1", &["6.6.6.6, 1.1.1.1"]), ip("1.1.1.1"));
        // Two proxies, in two fields.
        assert_eq!(
            client("10.0.0.1", &["1.1.1.1, 10.0.0.9", "10.0.0.5"]),
            ip("1.1.1.1")
        );
        // All trusted: the leftmost.
        assert_eq!(client("10.0.0.1", &["10.0.0.2"]), ip("10.0.0.2"));
        // Garbage stops the walk at the last address known good.
        assert_eq!(client("10.0.0.1", &["1.1.1.1, junk"]), ip("10.0.0.1"));
        assert_eq!(
            client("10.0.0.1", &["[2001:db8::1]:443"]),
            ip("2001:db8::1")
        );
        // No header: the peer.
        assert_eq!(client("10.0.0.1", &[]), ip("10.0.0.1"));
    }
}
