// The official MCP "memory" server (npm @modelcontextprotocol/server-memory, 2026.8.31),
// rewritten from its documentation and its tools/list (tests/original/tools-list.json): a
// knowledge graph of entities, their observations and the relations between them.
//
// Where today's language cannot list exactly what the original lists, this file says the
// closest thing, and tests/original/differences.json names the difference and the feature
// that removes it:
// - `@title` writes both the tool's `title` and `annotations.title`; the original sets only
//   `title` (title placement);
// - the original's schemas state `"$schema": "http://json-schema.org/draft-07/schema#"`;
//   these state none (`$schema` on schemas);
// - the original lists `execution: {"taskSupport": "forbidden"}`, the specification's default;
//   these list nothing (`execution.taskSupport` listed when asked);
// - the original's arguments accept and drop members they do not declare, and its results
//   are closed: with one kind of record per direction that takes two records for each shape
//   (`EntityIn`, `Entity`), `@open` on the argument ones (open inputs, closed outputs);
// - the original's text block is the result's JSON pretty-printed, or a sentence; a record
//   result's text here is its JSON, compact (the text beside a structured result).
//
// The records have no `///` doc comment: the original's objects carry no description.
package memory;

// An entity as an argument: members it does not declare are accepted and dropped.
@open @rename_all("camelCase")
record EntityIn {
    /// The name of the entity
    name: string,
    /// The type of the entity
    entity_type: string,
    /// An array of observation contents associated with the entity
    observations: list<string>,
}

// A relation as an argument.
@open @rename_all("camelCase")
record RelationIn {
    /// The name of the entity where the relation starts
    from: string,
    /// The name of the entity where the relation ends
    to: string,
    /// The type of the relation
    relation_type: string,
}

@open @rename_all("camelCase")
record ObservationAddition {
    /// The name of the entity to add the observations to
    entity_name: string,
    /// An array of observation contents to add
    contents: list<string>,
}

@open @rename_all("camelCase")
record ObservationDeletion {
    /// The name of the entity containing the observations
    entity_name: string,
    /// An array of observations to delete
    observations: list<string>,
}

// An entity of the graph, as results hold it.
@rename_all("camelCase")
record Entity {
    /// The name of the entity
    name: string,
    /// The type of the entity
    entity_type: string,
    /// An array of observation contents associated with the entity
    observations: list<string>,
}

// A relation of the graph, as results hold it.
@rename_all("camelCase")
record Relation {
    /// The name of the entity where the relation starts
    from: string,
    /// The name of the entity where the relation ends
    to: string,
    /// The type of the relation
    relation_type: string,
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
    @title("Create Entities")
    @read_only(false)
    @destructive(false)
    @idempotent(false)
    @open_world(false)
    @open
    tool create_entities(entities: list<EntityIn>) -> CreatedEntities;

    /// Create multiple new relations between entities in the knowledge graph. Relations should be in active voice
    @title("Create Relations")
    @read_only(false)
    @destructive(false)
    @idempotent(false)
    @open_world(false)
    @open
    tool create_relations(relations: list<RelationIn>) -> CreatedRelations;

    /// Add new observations to existing entities in the knowledge graph
    @title("Add Observations")
    @read_only(false)
    @destructive(false)
    @idempotent(false)
    @open_world(false)
    @open
    tool add_observations(observations: list<ObservationAddition>) -> AddObservationsResult;

    /// Delete multiple entities and their associated relations from the knowledge graph
    @title("Delete Entities") @read_only(false) @destructive @idempotent @open_world(false) @open
    tool delete_entities(
        /// An array of entity names to delete
        @json_name("entityNames") entity_names: list<string>,
    ) -> Deleted;

    /// Delete specific observations from entities in the knowledge graph
    @title("Delete Observations")
    @read_only(false)
    @destructive
    @idempotent
    @open_world(false)
    @open
    tool delete_observations(deletions: list<ObservationDeletion>) -> Deleted;

    /// Delete multiple relations from the knowledge graph
    @title("Delete Relations") @read_only(false) @destructive @idempotent @open_world(false) @open
    tool delete_relations(
        /// An array of relations to delete
        relations: list<RelationIn>,
    ) -> Deleted;

    /// Read the entire knowledge graph
    @title("Read Graph") @read_only @destructive(false) @idempotent @open_world(false) @open
    tool read_graph() -> Graph;

    /// Search for nodes in the knowledge graph based on a query
    @title("Search Nodes") @read_only @destructive(false) @idempotent @open_world(false) @open
    tool search_nodes(
        /// The search query to match against entity names, types, and observation content
        query: string,
    ) -> Graph;

    /// Open specific nodes in the knowledge graph by their names
    @title("Open Nodes") @read_only @destructive(false) @idempotent @open_world(false) @open
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
