//! The official MCP memory server (npm `@modelcontextprotocol/server-memory`) rewritten in
//! toolidl: `tools/memory.tool` declares its nine tools and its `memory://knowledge-graph`
//! resource, and [`Memory`] implements them over a knowledge graph kept in a JSONL file, one
//! entity or relation per line, as the original keeps it.
//!
//! Every call reads the file, and every change writes it whole (to a temporary file in the
//! same folder, then renamed over it, so that a crash never leaves half a graph). What each
//! tool does follows the original exactly, quirks included: a request's items are checked
//! against the graph as it was before the request (two equal new entities in one request are
//! both added), relations may name entities that do not exist, deleting what is not there is
//! not an error, and an observation for an unknown entity fails the whole call without
//! changing the file.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde_json::{Value, json};
use toolidl_runtime::{RequestContext, RpcError, Server, ToolError};

toolidl_runtime::include_tools!();

pub use memory::{
    AddObservationsArgs, AddObservationsResult, AddedObservations, CreateEntitiesArgs,
    CreateRelationsArgs, CreatedEntities, CreatedRelations, DeleteEntitiesArgs,
    DeleteObservationsArgs, DeleteRelationsArgs, Deleted, Entity, Graph, MemoryServer,
    ObservationAddition, ObservationDeletion, OpenNodesArgs, ReadGraphArgs, Relation,
    SearchNodesArgs,
};

/// The URI of the resource that holds the whole graph; clients may subscribe to it.
pub const GRAPH_URI: &str = "memory://knowledge-graph";

/// The memory tools over the JSONL file at one path.
pub struct Memory {
    file: PathBuf,
    /// Held for each read-change-write, so that concurrent calls do not lose each other's
    /// changes (the file is small, and read and written synchronously under it).
    lock: Mutex<()>,
}

impl Memory {
    /// The tools over the graph in `file` (created by the first change; absent, the graph is
    /// empty).
    pub fn new(file: impl Into<PathBuf>) -> Self {
        Memory {
            file: file.into(),
            lock: Mutex::new(()),
        }
    }

    /// The file the graph is kept in.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The graph as the file holds it now.
    pub fn read(&self) -> Result<Graph, ToolError> {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        load(&self.file)
    }

    /// Reads the graph, lets `change` change it, and writes it back when `change` succeeds.
    fn update<R>(
        &self,
        change: impl FnOnce(&mut Graph) -> Result<R, ToolError>,
    ) -> Result<R, ToolError> {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let mut graph = load(&self.file)?;
        let value = change(&mut graph)?;
        save(&self.file, &graph)?;
        Ok(value)
    }
}

/// Reads the JSONL file: blank lines are skipped, and lines of another `type` than `entity`
/// or `relation` ignored, as the original does.
pub fn load(file: &Path) -> Result<Graph, ToolError> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(file_error("read", file, &e)),
    };
    let mut graph = Graph {
        entities: Vec::new(),
        relations: Vec::new(),
    };
    for (number, line) in text.split('\n').enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |what: String| {
            ToolError::message(format!(
                "The memory file {} is not valid at line {}: {what}",
                file.display(),
                number + 1
            ))
        };
        let item: Value = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
        let text_of = |key: &str| match item.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            _ => Err(bad(format!("`{key}` is not a string"))),
        };
        match item.get("type").and_then(Value::as_str) {
            Some("entity") => {
                let observations = match item.get("observations") {
                    Some(Value::Array(items)) => items
                        .iter()
                        .map(|o| o.as_str().map(str::to_owned))
                        .collect::<Option<Vec<_>>>(),
                    _ => None,
                };
                graph.entities.push(Entity {
                    name: text_of("name")?,
                    entity_type: text_of("entityType")?,
                    observations: observations
                        .ok_or_else(|| bad("`observations` is not a list of strings".into()))?,
                });
            }
            Some("relation") => graph.relations.push(Relation {
                from: text_of("from")?,
                to: text_of("to")?,
                relation_type: text_of("relationType")?,
            }),
            _ => {}
        }
    }
    Ok(graph)
}

/// Writes the graph as the original does: entities first, then relations, one compact JSON
/// object a line with `type` first, no newline after the last line.
pub fn save(file: &Path, graph: &Graph) -> Result<(), ToolError> {
    let entities = graph.entities.iter().map(|e| {
        json!({"type": "entity", "name": e.name, "entityType": e.entity_type, "observations": e.observations})
    });
    let relations = graph.relations.iter().map(|r| {
        json!({"type": "relation", "from": r.from, "to": r.to, "relationType": r.relation_type})
    });
    let lines: Vec<String> = entities.chain(relations).map(|v| v.to_string()).collect();
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
    let Some(name) = name else {
        return Err(ToolError::message(format!(
            "The memory file path {} names no file",
            file.display()
        )));
    };
    let random = RandomState::new();
    let temporary = file.with_file_name(format!(
        "{name}.{:016x}{:016x}.tmp",
        random.hash_one(1u8),
        random.hash_one(2u8)
    ));
    let written = std::fs::write(&temporary, lines.join("\n"))
        .and_then(|()| std::fs::rename(&temporary, file));
    if let Err(e) = written {
        // Never leave a stray temporary file behind.
        let _ = std::fs::remove_file(&temporary);
        return Err(file_error("write", file, &e));
    }
    Ok(())
}

fn file_error(doing: &str, file: &Path, e: &io::Error) -> ToolError {
    ToolError::message(format!(
        "Cannot {doing} the memory file {}: {e}",
        file.display()
    ))
}

/// The entities whose name, type or an observation contains `query`, ignoring case (full
/// Unicode lower-casing, as JavaScript's `toLowerCase`), and the relations that touch them.
pub fn search(graph: Graph, query: &str) -> Graph {
    let query = query.to_lowercase();
    let matches = |text: &str| text.to_lowercase().contains(&query);
    subgraph(graph, |e| {
        matches(&e.name) || matches(&e.entity_type) || e.observations.iter().any(|o| matches(o))
    })
}

/// The entities `keep` keeps, in the graph's order, and every relation with at least one end
/// among them.
fn subgraph(graph: Graph, keep: impl Fn(&Entity) -> bool) -> Graph {
    let entities: Vec<Entity> = graph.entities.into_iter().filter(|e| keep(e)).collect();
    let kept = |name: &str| entities.iter().any(|e| e.name == name);
    let relations = graph
        .relations
        .into_iter()
        .filter(|r| kept(&r.from) || kept(&r.to))
        .collect();
    Graph {
        entities,
        relations,
    }
}

fn deleted(message: &str) -> Deleted {
    Deleted {
        success: true,
        message: message.to_owned(),
    }
}

/// Subscribers to the graph's resource learn that it changed.
fn changed(ctx: &RequestContext) {
    ctx.server().notify_resource_updated(GRAPH_URI);
}

impl memory::Memory for Memory {
    async fn create_entities(
        &self,
        ctx: RequestContext,
        CreateEntitiesArgs { entities, .. }: CreateEntitiesArgs,
    ) -> Result<CreatedEntities, ToolError> {
        let created = self.update(|graph| {
            let new: Vec<Entity> = entities
                .into_iter()
                .filter(|e| !graph.entities.iter().any(|old| old.name == e.name))
                .collect();
            graph.entities.extend(new.iter().cloned());
            Ok(new)
        })?;
        changed(&ctx);
        Ok(CreatedEntities { entities: created })
    }

    async fn create_relations(
        &self,
        ctx: RequestContext,
        CreateRelationsArgs { relations, .. }: CreateRelationsArgs,
    ) -> Result<CreatedRelations, ToolError> {
        let created = self.update(|graph| {
            let new: Vec<Relation> = relations
                .into_iter()
                .filter(|r| !graph.relations.contains(r))
                .collect();
            graph.relations.extend(new.iter().cloned());
            Ok(new)
        })?;
        changed(&ctx);
        Ok(CreatedRelations { relations: created })
    }

    async fn add_observations(
        &self,
        ctx: RequestContext,
        AddObservationsArgs { observations, .. }: AddObservationsArgs,
    ) -> Result<AddObservationsResult, ToolError> {
        let results = self.update(|graph| {
            let mut results = Vec::with_capacity(observations.len());
            for ObservationAddition {
                entity_name,
                contents,
            } in observations
            {
                let Some(entity) = graph.entities.iter_mut().find(|e| e.name == entity_name) else {
                    // Nothing is written: the graph changed in memory only.
                    return Err(ToolError::message(format!(
                        "Entity with name {entity_name} not found"
                    )));
                };
                let added: Vec<String> = contents
                    .into_iter()
                    .filter(|c| !entity.observations.contains(c))
                    .collect();
                entity.observations.extend(added.iter().cloned());
                results.push(AddedObservations {
                    entity_name,
                    added_observations: added,
                });
            }
            Ok(results)
        })?;
        changed(&ctx);
        Ok(AddObservationsResult { results })
    }

    async fn delete_entities(
        &self,
        ctx: RequestContext,
        DeleteEntitiesArgs { entity_names, .. }: DeleteEntitiesArgs,
    ) -> Result<Deleted, ToolError> {
        self.update(|graph| {
            graph.entities.retain(|e| !entity_names.contains(&e.name));
            graph
                .relations
                .retain(|r| !entity_names.contains(&r.from) && !entity_names.contains(&r.to));
            Ok(())
        })?;
        changed(&ctx);
        Ok(deleted("Entities deleted successfully"))
    }

    async fn delete_observations(
        &self,
        ctx: RequestContext,
        DeleteObservationsArgs { deletions, .. }: DeleteObservationsArgs,
    ) -> Result<Deleted, ToolError> {
        self.update(|graph| {
            for d in &deletions {
                if let Some(entity) = graph.entities.iter_mut().find(|e| e.name == d.entity_name) {
                    entity.observations.retain(|o| !d.observations.contains(o));
                }
            }
            Ok(())
        })?;
        changed(&ctx);
        Ok(deleted("Observations deleted successfully"))
    }

    async fn delete_relations(
        &self,
        ctx: RequestContext,
        DeleteRelationsArgs { relations, .. }: DeleteRelationsArgs,
    ) -> Result<Deleted, ToolError> {
        self.update(|graph| {
            graph.relations.retain(|r| !relations.contains(r));
            Ok(())
        })?;
        changed(&ctx);
        Ok(deleted("Relations deleted successfully"))
    }

    async fn read_graph(
        &self,
        _ctx: RequestContext,
        ReadGraphArgs { .. }: ReadGraphArgs,
    ) -> Result<Graph, ToolError> {
        self.read()
    }

    async fn search_nodes(
        &self,
        _ctx: RequestContext,
        SearchNodesArgs { query, .. }: SearchNodesArgs,
    ) -> Result<Graph, ToolError> {
        Ok(search(self.read()?, &query))
    }

    async fn open_nodes(
        &self,
        _ctx: RequestContext,
        OpenNodesArgs { names, .. }: OpenNodesArgs,
    ) -> Result<Graph, ToolError> {
        Ok(subgraph(self.read()?, |e| names.contains(&e.name)))
    }

    async fn knowledge_graph(&self, _ctx: RequestContext) -> Result<String, RpcError> {
        let graph = self.read().map_err(|e| RpcError::internal(e.to_string()))?;
        serde_json::to_string_pretty(&graph).map_err(|e| RpcError::internal(e.to_string()))
    }
}

/// Where the graph is kept: `MEMORY_FILE_PATH` when it is set and not empty (a relative path
/// is taken from the folder of the server's executable, as the original takes it from its
/// script's), else `memory.jsonl` in that folder. In that last case a `memory.json` there (the
/// original's former name) is renamed to `memory.jsonl` when that does not exist yet.
pub fn memory_file_path() -> io::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let folder = exe.parent().unwrap_or(Path::new("."));
    match std::env::var_os("MEMORY_FILE_PATH") {
        Some(path) if !path.is_empty() => Ok(folder.join(path)),
        _ => {
            let old = folder.join("memory.json");
            let new = folder.join("memory.jsonl");
            if old.exists() && !new.exists() {
                eprintln!(
                    "DETECTED: Found legacy memory.json file, migrating to memory.jsonl for JSONL format compatibility"
                );
                std::fs::rename(&old, &new)?;
                eprintln!("COMPLETED: Successfully migrated memory.json to memory.jsonl");
            }
            Ok(new)
        }
    }
}

/// The server: the memory tools over `file`, its resource subscribable, named as the
/// original names itself.
pub fn server(file: impl Into<PathBuf>) -> Server {
    Server::builder("memory-server", "0.6.3")
        .service(MemoryServer::new(Memory::new(file)))
        .subscribable(GRAPH_URI)
        .build()
}

/// Sends `tracing` output to stderr (stdout carries only protocol messages).
pub fn init_logging() {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into()),
        )
        .try_init();
}
