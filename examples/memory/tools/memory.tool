// The official MCP "memory" server (npm @modelcontextprotocol/server-memory, 2026.8.31),
// rewritten from its documentation and its tools/list (tests/original/tools-list.json): a
// knowledge graph of entities, their observations and the relations between them.
//
// The listing is the original's: `@title(tool: …)` sets the tool's `title` only, as the
// original does; `@schema_dialect` states the draft-07 `$schema` its schemas state;
// `@execution(task_support: forbidden)` lists its `execution`; and `@open(input)` makes each
// record accept and drop the members it does not declare in arguments while results hold it
// closed, as the original's objects are. `@text` gives each result the original's text
// block: a list or the graph pretty-printed, or the delete tools' sentence.
//
// The records have no `///` doc comment: the original's objects carry no description.
@schema_dialect("http://json-schema.org/draft-07/schema#")
package memory;

// An entity of the graph: open in arguments, closed in results.
@open(input) @rename_all("camelCase")
record Entity {
    /// The name of the entity
    name: string,
    /// The type of the entity
    entity_type: string,
    /// An array of observation contents associated with the entity
    observations: list<string>,
}

// A relation of the graph: open in arguments, closed in results.
@open(input) @rename_all("camelCase")
record Relation {
    /// The name of the entity where the relation starts
    from: string,
    /// The name of the entity where the relation ends
    to: string,
    /// The type of the relation
    relation_type: string,
}

@open(input) @rename_all("camelCase")
record ObservationAddition {
    /// The name of the entity to add the observations to
    entity_name: string,
    /// An array of observation contents to add
    contents: list<string>,
}

@open(input) @rename_all("camelCase")
record ObservationDeletion {
    /// The name of the entity containing the observations
    entity_name: string,
    /// An array of observations to delete
    observations: list<string>,
}

record CreatedEntities {
    entities: list<Entity>,
}

record CreatedRelations {
    relations: list<Relation>,
}

@rename_all("camelCase")
record AddedObservations {
    entity_name: string,
    added_observations: list<string>,
}

record AddObservationsResult {
    results: list<AddedObservations>,
}

record Deleted {
    success: bool,
    message: string,
}

record Graph {
    entities: list<Entity>,
    relations: list<Relation>,
}

service Memory {
    /// Create multiple new entities in the knowledge graph
    @title(tool: "Create Entities")
    @read_only(false)
    @destructive(false)
    @idempotent(false)
    @open_world(false)
    @open
    @execution(task_support: forbidden)
    @text(pretty: entities)
    tool create_entities(entities: list<Entity>) -> CreatedEntities;

    /// Create multiple new relations between entities in the knowledge graph. Relations should be in active voice
    @title(tool: "Create Relations")
    @read_only(false)
    @destructive(false)
    @idempotent(false)
    @open_world(false)
    @open
    @execution(task_support: forbidden)
    @text(pretty: relations)
    tool create_relations(relations: list<Relation>) -> CreatedRelations;

    /// Add new observations to existing entities in the knowledge graph
    @title(tool: "Add Observations")
    @read_only(false)
    @destructive(false)
    @idempotent(false)
    @open_world(false)
    @open
    @execution(task_support: forbidden)
    @text(pretty: results)
    tool add_observations(observations: list<ObservationAddition>) -> AddObservationsResult;

    /// Delete multiple entities and their associated relations from the knowledge graph
    @title(tool: "Delete Entities")
    @read_only(false)
    @destructive
    @idempotent
    @open_world(false)
    @open
    @execution(task_support: forbidden)
    @text("{message}")
    tool delete_entities(
        /// An array of entity names to delete
        @json_name("entityNames") entity_names: list<string>,
    ) -> Deleted;

    /// Delete specific observations from entities in the knowledge graph
    @title(tool: "Delete Observations")
    @read_only(false)
    @destructive
    @idempotent
    @open_world(false)
    @open
    @execution(task_support: forbidden)
    @text("{message}")
    tool delete_observations(deletions: list<ObservationDeletion>) -> Deleted;

    /// Delete multiple relations from the knowledge graph
    @title(tool: "Delete Relations")
    @read_only(false)
    @destructive
    @idempotent
    @open_world(false)
    @open
    @execution(task_support: forbidden)
    @text("{message}")
    tool delete_relations(
        /// An array of relations to delete
        relations: list<Relation>,
    ) -> Deleted;

    /// Read the entire knowledge graph
    @title(tool: "Read Graph")
    @read_only
    @destructive(false)
    @idempotent
    @open_world(false)
    @open
    @execution(task_support: forbidden)
    @text(pretty)
    tool read_graph() -> Graph;

    /// Search for nodes in the knowledge graph based on a query
    @title(tool: "Search Nodes")
    @read_only
    @destructive(false)
    @idempotent
    @open_world(false)
    @open
    @execution(task_support: forbidden)
    @text(pretty)
    tool search_nodes(
        /// The search query to match against entity names, types, and observation content
        query: string,
    ) -> Graph;

    /// Open specific nodes in the knowledge graph by their names
    @title(tool: "Open Nodes")
    @read_only
    @destructive(false)
    @idempotent
    @open_world(false)
    @open
    @execution(task_support: forbidden)
    @text(pretty)
    tool open_nodes(
        /// An array of entity names to retrieve
        names: list<string>,
    ) -> Graph;

    /// The full knowledge graph with all entities and relations
    @title("Knowledge Graph")
    @name("knowledge-graph")
    @uri("memory://knowledge-graph")
    @mime("application/json")
    resource knowledge_graph() -> string;
}
