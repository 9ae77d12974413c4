//! What changes while a server runs: services added and removed, resources updated; each
//! change told to the clients concerned and, through the change bus, to the other instances.

use std::sync::{Arc, Weak};

use super::{Kind, Registry, Server};
use crate::cluster::Change;
use crate::peer::ListKind;
use crate::service::Service;

impl Server {
    /// Tells the clients subscribed to the resource `uri` that it changed:
    /// `notifications/resources/updated` with `{"uri": uri}` to every handshake connection
    /// (stdio, HTTP session: its GET stream) that sent `resources/subscribe` for it, and on
    /// every open 2026-07-28 `subscriptions/listen` request whose `resourceSubscriptions`
    /// named it (tagged with its subscription id). Callable from any thread or handler
    /// (`ctx.server()`); returns how many notifications were sent.
    ///
    /// Behind a load balancer ([`ServerBuilder::redis`](crate::ServerBuilder::redis)) the
    /// other instances tell their subscribers too (not counted here).
    pub fn notify_resource_updated(&self, uri: &str) -> usize {
        if let Some(bus) = &self.shared.bus {
            bus.publish(&Change::ResourceUpdated(uri.to_owned()));
        }
        self.resource_updated_here(uri)
    }

    fn resource_updated_here(&self, uri: &str) -> usize {
        self.connections()
            .iter()
            .filter_map(Weak::upgrade)
            .map(|conn| conn.resource_updated(uri))
            .sum()
    }

    /// Adds a service at run time and tells initialized clients that the lists changed.
    /// An [optional service](crate::ServerBuilder::optional_service) is added on every instance
    /// that shares this one's Redis, and only once.
    pub fn add_service(&self, service: Arc<dyn Service>) {
        if let Some(name) = self.optional_name(&service) {
            self.publish_service(name, true);
            self.set_enabled(&service, true);
            return;
        }
        let (old, new) = self.replace_services(|services| services.push(service));
        self.announce(&old, &new);
    }

    /// Removes a service (compared by pointer) and tells initialized clients; an
    /// [optional service](crate::ServerBuilder::optional_service) on every instance.
    pub fn remove_service(&self, service: &Arc<dyn Service>) {
        if let Some(name) = self.optional_name(service) {
            self.publish_service(name, false);
        }
        self.set_enabled(service, false);
    }

    /// Whether `service` (compared by pointer) is being served.
    pub fn has_service(&self, service: &Arc<dyn Service>) -> bool {
        self.registry()
            .services
            .iter()
            .any(|s| Arc::ptr_eq(s, service))
    }

    fn optional_name(&self, service: &Arc<dyn Service>) -> Option<&str> {
        self.shared
            .optional
            .iter()
            .find(|(_, s)| Arc::ptr_eq(s, service))
            .map(|(name, _)| name.as_str())
    }

    fn publish_service(&self, name: &str, enabled: bool) {
        if let Some(bus) = &self.shared.bus {
            bus.publish(&Change::Service {
                name: name.to_owned(),
                enabled,
            });
        }
    }

    /// Adds or removes `service` here, unless it is already so; announces the change.
    fn set_enabled(&self, service: &Arc<dyn Service>, enabled: bool) {
        let mut changed = false;
        let (old, new) = self.replace_services(|services| {
            let present = services.iter().any(|s| Arc::ptr_eq(s, service));
            if enabled && !present {
                services.push(service.clone());
                changed = true;
            } else if !enabled && present {
                services.retain(|s| !Arc::ptr_eq(s, service));
                changed = true;
            }
        });
        if changed {
            self.announce(&old, &new);
        }
    }

    /// Applies another instance's change (the server's change bus calls it).
    pub(super) fn apply(&self, change: Change) {
        match change {
            Change::ResourceUpdated(uri) => {
                self.resource_updated_here(&uri);
            }
            Change::Service { name, enabled } => {
                let found = self.shared.optional.iter().find(|(n, _)| *n == name);
                match found {
                    Some((_, service)) => self.set_enabled(service, enabled),
                    None => {
                        tracing::warn!(service = %name, "another instance changed an optional service this one does not declare")
                    }
                }
            }
            Change::Services(names) => {
                for (name, service) in &self.shared.optional {
                    self.set_enabled(service, names.contains(name));
                }
            }
        }
    }

    fn replace_services(
        &self,
        edit: impl FnOnce(&mut Vec<Arc<dyn Service>>),
    ) -> (Arc<Registry>, Arc<Registry>) {
        let mut guard = self
            .shared
            .registry
            .write()
            .unwrap_or_else(|p| p.into_inner());
        let old = guard.clone();
        let mut services = old.services.clone();
        edit(&mut services);
        let new = Arc::new(Registry::new(
            services,
            self.shared.profile,
            self.shared.max_depth,
            &self.shared.limits,
        ));
        *guard = new.clone();
        (old, new)
    }

    fn announce(&self, old: &Registry, new: &Registry) {
        if !self.shared.list_changed {
            return;
        }
        let mut kinds = Vec::new();
        if old.tool_names() != new.tool_names() {
            kinds.push(ListKind::Tools);
        }
        if old.listings[Kind::Resources as usize] != new.listings[Kind::Resources as usize]
            || old.listings[Kind::Templates as usize] != new.listings[Kind::Templates as usize]
        {
            kinds.push(ListKind::Resources);
        }
        if old.listings[Kind::Prompts as usize] != new.listings[Kind::Prompts as usize] {
            kinds.push(ListKind::Prompts);
        }
        for conn in self.connections().iter().filter_map(Weak::upgrade) {
            conn.list_changed(&kinds);
        }
    }
}
